#include "chartlabels.h"

#include "style.h"

#include <QAbstractSeries>
#include <QBrush>
#include <QChart>
#include <QGraphicsSimpleTextItem>
#include <QXYSeries>

namespace views {

void replaceIfChanged(QXYSeries *series, const QList<QPointF> &points)
{
    if (series->points() != points)
        series->replace(points);
}

ChartLabels::ChartLabels(QChart *chart)
    : m_chart(chart)
{
    QObject::connect(chart, &QChart::plotAreaChanged, chart, [this] { reposition(); });
}

ChartLabels::~ChartLabels() = default; // the items belong to the chart's scene

void ChartLabels::clear()
{
    for (const Label &label : m_labels) {
        label.item->hide();
        m_spare.append(label.item);
    }
    m_labels.clear();
}

void ChartLabels::add(const QString &text, QPointF value, QAbstractSeries *series,
                      const QColor &color, QPointF offset, bool bold, bool alignRight)
{
    QGraphicsSimpleTextItem *item =
        m_spare.isEmpty() ? new QGraphicsSimpleTextItem(m_chart) : m_spare.takeLast();
    QFont font = style::annotationFont(0.95);
    font.setBold(bold);
    if (item->font() != font)
        item->setFont(font);
    if (item->text() != text)
        item->setText(text);
    if (item->brush().color() != color)
        item->setBrush(color);
    item->setZValue(20);
    item->show();
    m_labels.append({item, value, series, offset * style::scale(), alignRight});
    reposition();
}

void ChartLabels::reposition()
{
    const QRectF area = m_chart->plotArea();
    for (const Label &label : m_labels) {
        QPointF position = m_chart->mapToPosition(label.value, label.series) + label.offset;
        const QRectF bounds = label.item->boundingRect();
        if (label.alignRight)
            position.rx() -= bounds.width();
        // keep the text inside the plot area so it is never clipped
        position.setX(std::clamp(position.x(), area.left() + 2, area.right() - bounds.width() - 2));
        position.setY(
            std::clamp(position.y(), area.top() + 2, area.bottom() - bounds.height() - 2));
        label.item->setPos(position);
    }
}

} // namespace views
