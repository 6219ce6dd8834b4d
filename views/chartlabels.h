#pragma once

// Direct labels on a chart: text anchored to a data point, moved whenever the plot area
// changes (Qt Charts 6.4 has no per-point label format, so we place our own).

#include <QColor>
#include <QList>
#include <QPointF>
#include <QString>

class QChart;
class QAbstractSeries;
class QGraphicsSimpleTextItem;

class QXYSeries;

namespace views {

/** Replaces a series' points only when they differ: an unchanged series costs Qt Charts nothing,
 *  while replace() re-lays out the series and its axes. */
void replaceIfChanged(QXYSeries *series, const QList<QPointF> &points);

class ChartLabels
{
public:
    explicit ChartLabels(QChart *chart);
    ~ChartLabels();

    /** Hides every label (kept for reuse by the next add()). */
    void clear();
    /** A label at `value` (in the series' axis coordinates), offset in pixels. */
    /** With `alignRight` the text ends at the anchor (plus offset) instead of starting there. */
    void add(const QString &text, QPointF value, QAbstractSeries *series, const QColor &color,
             QPointF offset = {6, -18}, bool bold = false, bool alignRight = false);
    /** Re-places every label; call after the plot area or the axes change. */
    void reposition();

private:
    struct Label
    {
        QGraphicsSimpleTextItem *item;
        QPointF value;
        QAbstractSeries *series;
        QPointF offset;
        bool alignRight;
    };
    QChart *m_chart;
    QList<Label> m_labels;
    QList<QGraphicsSimpleTextItem *> m_spare; ///< hidden items kept for reuse: no churn per step
};

} // namespace views
