// SPDX-License-Identifier: GPL-3.0-or-later
#include "helpdialog.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QHBoxLayout>
#include <QListWidget>
#include <QRegularExpression>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace views {

namespace {

QList<GuideSection> parseGuide(const QString &text)
{
    static const QRegularExpression topicLine(QStringLiteral("^<!--\\s*help:(.*)-->\\s*$"));
    QList<GuideSection> sections;
    GuideSection current{QObject::tr("About this guide"), {QStringLiteral("guide")}, {}};
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (const QString &line : lines) {
        if (line.startsWith(QLatin1String("## "))) {
            sections << current;
            current = GuideSection{line.mid(3).trimmed(), {}, QStringLiteral("# ") + line.mid(3)};
            continue;
        }
        if (line.startsWith(QLatin1String("# ")) && sections.isEmpty()) {
            current.markdown += line + QLatin1Char('\n');
            continue;
        }
        const auto match = topicLine.match(line.trimmed());
        if (match.hasMatch()) {
            current.topics = match.captured(1).split(QLatin1Char(' '), Qt::SkipEmptyParts);
            continue;
        }
        current.markdown += line + QLatin1Char('\n');
    }
    sections << current;
    return sections;
}

} // namespace

const QList<GuideSection> &userGuide()
{
    static const QList<GuideSection> guide = [] {
        QFile file(QStringLiteral(":/help/user-guide.md"));
        if (!file.open(QIODevice::ReadOnly))
            return QList<GuideSection>{
                GuideSection{QObject::tr("Help"),
                             {},
                             QObject::tr("The user guide is missing from this build.")}};
        return parseGuide(QString::fromUtf8(file.readAll()));
    }();
    return guide;
}

int guideSectionFor(const QString &topic)
{
    const QList<GuideSection> &guide = userGuide();
    for (int i = 0; i < guide.size(); ++i) {
        if (guide[i].topics.contains(topic))
            return i;
    }
    return 0;
}

HelpDialog::HelpDialog(QWidget *parent)
    : QDialog(parent)
    , m_sections(new QListWidget(this))
    , m_browser(new QTextBrowser(this))
{
    setObjectName(QStringLiteral("helpDialog"));
    setWindowTitle(tr("Accelerator Explorer Help"));
    for (const GuideSection &section : userGuide())
        m_sections->addItem(section.title);
    m_sections->setMaximumWidth(m_sections->sizeHintForColumn(0) + 32);
    m_browser->setOpenExternalLinks(true);
    auto *splitter = new QSplitter(this);
    splitter->addWidget(m_sections);
    splitter->addWidget(m_browser);
    splitter->setStretchFactor(1, 1);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(splitter, 1);
    layout->addWidget(buttons);
    connect(m_sections, &QListWidget::currentRowChanged, this, &HelpDialog::showSection);
    resize(900, 620);
    showTopic(QStringLiteral("start"));
}

void HelpDialog::showTopic(const QString &topic)
{
    m_sections->setCurrentRow(guideSectionFor(topic));
    showSection(m_sections->currentRow());
}

void HelpDialog::showSection(int index)
{
    const QList<GuideSection> &guide = userGuide();
    if (index < 0 || index >= guide.size())
        return;
    m_browser->setMarkdown(guide[index].markdown);
}

QString HelpDialog::currentTitle() const
{
    const int row = m_sections->currentRow();
    return row >= 0 ? userGuide().value(row).title : QString();
}

} // namespace views
