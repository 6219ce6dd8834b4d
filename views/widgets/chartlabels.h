// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Direct labels on a chart: text anchored to a data point, moved whenever the plot area
// changes (Qt Charts 6.4 has no per-point label format, so we place our own). A label pushed
// away from its point by the ones before it gets a thin leader line back to the point.

#include <QColor>
#include <QList>
#include <QPointF>
#include <QString>

class QChart;
class QAbstractSeries;
class QGraphicsLineItem;
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

    enum class Align { Start, End, Centre };

    /** Hides every label (kept for reuse by the next add()) and forgets the obstacles. */
    void clear();
    /** A label at `value` (in the series' axis coordinates), offset in pixels. With `align` End
     *  the text ends at the anchor (plus offset); with Centre it is centred on it. */
    void add(const QString &text, QPointF value, QAbstractSeries *series, const QColor &color,
             QPointF offset = {6, -18}, bool bold = false, Align align = Align::Start);
    /** The last label added switches to `narrowText` (say, broken over two lines) whenever its
     *  text is wider than `width` in the x axis' units (say, the gap beside a bar). */
    void setNarrowText(const QString &narrowText, double width);
    /** The last label added switches to `crowdedText` (shorter, or over two lines) when its
     *  text finds no free place: a wide capacity label over a small chart sat across a bar's
     *  label (issue #23, the handout's edge step). */
    void setCrowdedText(const QString &crowdedText);
    /** A rectangle of the plot (corners in the series' axis coordinates) that labels keep off,
     *  such as a bar: a label placed on it moves above or below it. */
    void addObstacle(QPointF corner, QPointF oppositeCorner, QAbstractSeries *series);
    /** A drawn line that labels keep off: its segments, cut in `pieces` each, become thin
     *  obstacles (a label used to sit across a rising line). */
    void addLineObstacle(const QList<QPointF> &points, QAbstractSeries *series, int pieces = 24);
    /** A marker drawn at `value`, `radius` pixels each way, that other series' labels keep off
     *  (the roofline's ridge label sat on the prefill marker); its own series' labels, which
     *  name it, may sit beside it. */
    void addMarkerObstacle(QPointF value, double radius, QAbstractSeries *series);
    /** Re-places every label; call after the plot area or the axes change. */
    void reposition();

private:
    struct Label
    {
        QGraphicsSimpleTextItem *item;
        QGraphicsLineItem *leader; ///< shown only while the label sits away from its point
        QPointF value;
        QAbstractSeries *series;
        QPointF offset;
        Align align;
        QString text;
        QString narrowText;
        double narrowWidth = 0;
        QString crowdedText;
    };
    struct Obstacle
    {
        QPointF corner;
        QPointF oppositeCorner;
        QAbstractSeries *series;
        double radius = 0; ///< a marker's, in pixels around `corner`; 0: the rectangle
    };
    QChart *m_chart;
    QList<Label> m_labels;
    QList<Obstacle> m_obstacles;
    QList<QGraphicsSimpleTextItem *> m_spare; ///< hidden items kept for reuse: no churn per step
    QList<QGraphicsLineItem *> m_spareLeaders;
};

} // namespace views
