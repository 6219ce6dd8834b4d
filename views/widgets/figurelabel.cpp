// SPDX-License-Identifier: GPL-3.0-or-later
#include "figurelabel.h"

#include "views/document/scenariodocument.h"
#include "views/widgets/appearance.h"

#include "core/physics/explain.h"
#include "core/physics/lessonfigures.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>

namespace views {

FigureLabel::FigureLabel(core::FigureId id, QWidget *parent)
    : QWidget(parent)
    , m_id(id)
    , m_value(new QLabel(this))
    , m_badge(new QLabel(this))
{
    m_value->setTextFormat(Qt::PlainText);
    m_badge->setTextFormat(Qt::PlainText);
    QFont bold; // the weight alone: the size follows the window's (presenter mode's) font
    bold.setBold(true);
    m_value->setFont(bold);
    fitBadgeFont();
    m_badge->setForegroundRole(QPalette::PlaceholderText);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(8);
    layout->addWidget(m_value);
    layout->addWidget(m_badge);
    layout->addStretch(1);
    setCursor(Qt::WhatsThisCursor);
    const auto &label = core::figureInfo(id).label;
    setToolTip(tr("Hover or click to see how %1 is computed")
                   .arg(QString::fromUtf8(label.data(), qsizetype(label.size())).toLower()));
}

QString FigureLabel::text() const
{
    return m_value->text();
}

QString FigureLabel::badgeText() const
{
    return m_badge->text();
}

void FigureLabel::show(const QString &value, const ScenarioDocument &document)
{
    // Unchanged labels cost no relayout: only touch what differs.
    // a number the class is predicting shows as "?", and so does the lesson's value beside it
    const bool concealed = document.isConcealed(m_id);
    const QString shown = concealed ? QStringLiteral("?") : value;
    if (m_value->text() != shown)
        m_value->setText(shown);
    QString badge;
    if (auto lesson = core::lessonBadge(document.scenario(), m_id); lesson && !concealed) {
        badge = tr("lesson: %1").arg(QString::fromStdString(lesson->printed));
        // the lesson's line is a teacher's note: not on the projector (issue #23)
        if (!currentAppearance().presenter)
            badge += tr(" (l.%1)").arg(lesson->line);
    }
    if (m_badge->text() != badge)
        m_badge->setText(badge);
    m_badge->setVisible(!badge.isEmpty());
}

void FigureLabel::update(const ScenarioDocument &document)
{
    show(QString::fromStdString(core::formatFigure(document.evaluation(), m_id, document.units())),
         document);
}

void FigureLabel::setCustomText(const QString &text, const ScenarioDocument &document)
{
    show(text, document);
}

void FigureLabel::fitBadgeFont()
{
    // a little smaller than the number at a desk; on the projector as large as the number, for
    // the back row (it was fixed at 0.85 of the desk size: 14 px on a 1080 screen, issue #42)
    QFont badge = font();
    if (badge.pointSizeF() > 0 && !currentAppearance().presenter)
        badge.setPointSizeF(badge.pointSizeF() * 0.85);
    if (m_badge->font() != badge)
        m_badge->setFont(badge);
}

void FigureLabel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        fitBadgeFont();
}

void FigureLabel::enterEvent(QEnterEvent *event)
{
    QWidget::enterEvent(event);
    emit activated(m_id);
}

void FigureLabel::mousePressEvent(QMouseEvent *event)
{
    QWidget::mousePressEvent(event);
    emit activated(m_id);
}

} // namespace views
