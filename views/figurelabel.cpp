#include "figurelabel.h"

#include "scenariodocument.h"

#include "core/explain.h"
#include "core/lessonfigures.h"

namespace views {

FigureLabel::FigureLabel(core::FigureId id, QWidget *parent)
    : QLabel(parent)
    , m_id(id)
{
    setTextFormat(Qt::RichText);
    setCursor(Qt::WhatsThisCursor);
    setFocusPolicy(Qt::ClickFocus);
    setToolTip(tr("Hover or click to see how %1 is computed")
                   .arg(QString::fromUtf8(core::figureInfo(id).label.data(),
                                          qsizetype(core::figureInfo(id).label.size()))
                            .toLower()));
}

QString FigureLabel::badge(const ScenarioDocument &document) const
{
    auto lesson = core::lessonBadge(document.scenario(), m_id);
    if (!lesson)
        return {};
    return QStringLiteral(
               "&nbsp;&nbsp;<span style=\"color:#555; font-size:small\">lesson: %1 (l.%2)</span>")
        .arg(QString::fromStdString(lesson->printed).toHtmlEscaped())
        .arg(lesson->line);
}

void FigureLabel::update(const ScenarioDocument &document)
{
    const std::string text = core::formatFigure(document.evaluation(), m_id, document.units());
    setText(QStringLiteral("<b>%1</b>").arg(QString::fromStdString(text).toHtmlEscaped()) +
            badge(document));
}

void FigureLabel::setCustomText(const QString &text, const ScenarioDocument &document)
{
    setText(QStringLiteral("<b>%1</b>").arg(text.toHtmlEscaped()) + badge(document));
}

void FigureLabel::enterEvent(QEnterEvent *event)
{
    QLabel::enterEvent(event);
    emit activated(m_id);
}

void FigureLabel::mousePressEvent(QMouseEvent *event)
{
    QLabel::mousePressEvent(event);
    emit activated(m_id);
}

} // namespace views
