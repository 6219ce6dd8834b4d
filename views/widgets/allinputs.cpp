// SPDX-License-Identifier: GPL-3.0-or-later
#include "allinputs.h"

#include "views/document/scenariodocument.h"
#include "views/widgets/numbereditor.h"
#include "views/widgets/style.h"

#include "core/model/parameters.h"
#include "core/model/scenarioaccess.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QVBoxLayout>

namespace views {

namespace {

QString fromView(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

/** A section's heading, in the order the scenario file lists them. */
QString sectionTitle(const QString &section)
{
    static const QHash<QString, QString> titles{
        {QStringLiteral("model"), QObject::tr("Model")},
        {QStringLiteral("device"), QObject::tr("Device")},
        {QStringLiteral("serving"), QObject::tr("Serving")},
        {QStringLiteral("training"), QObject::tr("Training")},
        {QStringLiteral("cost"), QObject::tr("Cost")},
        {QStringLiteral("traffic"), QObject::tr("Traffic")},
        {QStringLiteral("load"), QObject::tr("Load simulation")},
        {QStringLiteral("engine"), QObject::tr("Engine techniques")},
        {QStringLiteral("interconnect"), QObject::tr("Interconnect")},
        {QStringLiteral("power"), QObject::tr("Power")},
        {QStringLiteral("wizard"), QObject::tr("Device selection")},
        {QStringLiteral("sensitivity"), QObject::tr("Sensitivity ranges")},
    };
    return titles.value(section, section);
}

} // namespace

AllInputsPanel::AllInputsPanel(ScenarioDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_filter(new QLineEdit(this))
    , m_refusal(new QLabel(this))
{
    setObjectName(QStringLiteral("allInputs"));
    m_filter->setPlaceholderText(tr("Find an input (name, path or help)"));
    m_filter->setClearButtonEnabled(true);
    m_refusal->setObjectName(QStringLiteral("refusal"));
    m_refusal->setWordWrap(true);
    m_refusal->setStyleSheet(QStringLiteral("color: %1").arg(style::warning().name()));
    m_refusal->hide();
    auto *body = new QWidget;
    auto *form = new QFormLayout(body);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    QString current;
    // the word inputs (arrivals, router, length distributions, draft) after their section's
    // numbers: a picker each, its words from the same list the scenario reader accepts
    const auto addChoices = [&](const QString &section) {
        for (const core::ChoiceInfo &info : core::choiceTable()) {
            const QString path = fromView(info.path);
            if (path.section(QLatin1Char('.'), 0, 0) != section)
                continue;
            auto *picker = new QComboBox(body);
            picker->setObjectName(path);
            for (const std::string_view option : info.options)
                picker->addItem(fromView(option));
            picker->setToolTip(QStringLiteral("%1\n%2").arg(path, fromView(info.help)));
            connect(picker, &QComboBox::activated, this, [this, path, picker] {
                QString error;
                const bool ok = m_document->setChoice(path, picker->currentText(), &error);
                m_refusal->setText(error);
                m_refusal->setVisible(!ok);
                if (!ok) // the word still in force
                    refresh();
            });
            auto *label = new QLabel(fromView(info.name), body);
            label->setToolTip(picker->toolTip());
            label->setBuddy(picker);
            form->addRow(label, picker);
            m_choices.insert(path, picker);
            m_rows.insert(path, label);
        }
    };
    for (const core::ParameterInfo &info : core::parameterTable()) {
        if (!info.field)
            continue; // one value per format (the peaks): the Device picker and presets set them
        const QString path = fromView(info.path);
        const QString section = fromView(info.section());
        if (section != current) {
            if (!current.isEmpty())
                addChoices(current);
            current = section;
            auto *heading = new QLabel(QStringLiteral("<b>%1</b>").arg(sectionTitle(section)));
            heading->setContentsMargins(0, 8, 0, 0);
            form->addRow(heading);
            m_sections.insert(section, heading);
        }
        const double scale = fromView(info.unit).isEmpty() && info.maximum <= 1.0 &&
                                     info.minimum >= 0.0 && !info.integer
                                 ? 100.0 // a share of one: shown in %
                                 : 1.0;
        auto *editor = new NumberEditor(document, path, m_refusal, body, scale);
        editor->setToolTip(QStringLiteral("%1\n%2").arg(path, fromView(info.help)));
        auto *label = new QLabel(fromView(info.name), body);
        label->setToolTip(editor->toolTip());
        label->setBuddy(editor);
        form->addRow(label, editor);
        m_editors.insert(path, editor);
        m_rows.insert(path, label);
    }
    addChoices(current);
    // label and editor side by side, readable: "Maximum context" beside "131,072 tokens"
    setMinimumWidth(fontMetrics().horizontalAdvance(QLatin1Char('x')) * 52);
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(body);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_filter);
    layout->addWidget(m_refusal);
    layout->addWidget(scroll, 1);
    connect(m_filter, &QLineEdit::textChanged, this, &AllInputsPanel::setFilter);
    connect(document, &ScenarioDocument::changed, this, [this](ScenarioDocument::Changes changes) {
        if ((changes & ScenarioDocument::Inputs) && isVisible())
            refresh();
    });
    refresh();
}

NumberEditor *AllInputsPanel::editor(const QString &path) const
{
    return m_editors.value(path);
}

QComboBox *AllInputsPanel::choice(const QString &path) const
{
    return m_choices.value(path);
}

void AllInputsPanel::setFilter(const QString &text)
{
    if (m_filter->text() != text)
        m_filter->setText(text);
    QHash<QString, bool> sectionShown;
    // "load." is a section: its inputs alone, not every help text that mentions one of them
    const bool wholeSection =
        text.endsWith(QLatin1Char('.')) && m_sections.contains(text.chopped(1));
    // one input's row (its label and editor) shown or hidden, its section kept if it is shown
    const auto filterRow = [&](std::string_view pathView, std::string_view name,
                               std::string_view help, QWidget *editor) {
        const QString path = fromView(pathView);
        if (!editor)
            return;
        const bool shown = wholeSection
                               ? path.startsWith(text)
                               : text.isEmpty() || path.contains(text, Qt::CaseInsensitive) ||
                                     fromView(name).contains(text, Qt::CaseInsensitive) ||
                                     fromView(help).contains(text, Qt::CaseInsensitive);
        editor->setVisible(shown);
        m_rows.value(path)->setVisible(shown);
        sectionShown[path.section(QLatin1Char('.'), 0, 0)] |= shown;
    };
    for (const core::ParameterInfo &info : core::parameterTable())
        filterRow(info.path, info.name, info.help, m_editors.value(fromView(info.path)));
    for (const core::ChoiceInfo &info : core::choiceTable())
        filterRow(info.path, info.name, info.help, m_choices.value(fromView(info.path)));
    for (auto it = m_sections.begin(); it != m_sections.end(); ++it)
        it.value()->setVisible(sectionShown.value(it.key()));
}

void AllInputsPanel::focusInput(const QString &path)
{
    NumberEditor *editor = m_editors.value(path);
    if (!editor) { // no input named: type to find one
        m_filter->setFocus(Qt::OtherFocusReason);
        m_filter->selectAll();
        return;
    }
    setFilter(QString());
    if (auto *scroll = findChild<QScrollArea *>())
        scroll->ensureWidgetVisible(editor);
    editor->setFocus(Qt::OtherFocusReason);
    editor->selectAll();
}

QString AllInputsPanel::lastRefusal() const
{
    return m_refusal->isHidden() ? QString() : m_refusal->text();
}

void AllInputsPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refresh(); // edits made while hidden
}

void AllInputsPanel::refresh()
{
    for (NumberEditor *editor : std::as_const(m_editors))
        editor->sync(m_document->scenario());
    for (auto it = m_choices.begin(); it != m_choices.end(); ++it) {
        const auto word = core::choiceAt(m_document->scenario(), it.key().toStdString());
        const int index = word ? it.value()->findText(QString::fromStdString(*word)) : -1;
        if (index >= 0 && it.value()->currentIndex() != index)
            it.value()->setCurrentIndex(index);
    }
}

} // namespace views
