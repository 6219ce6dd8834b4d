// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The family of chips (`family`, lesson l.139-147): every device preset on one chart, memory
// bandwidth against dense peak (log-log), point size for memory capacity, colour for the family,
// ridge-point iso-lines, direct labels; beside it the lesson's two design axes and a note per
// family. Clicking a point makes it the scenario's device.

#include "views/widgets/view.h"

#include <memory>

class QChart;
class QLogValueAxis;
class QGraphicsEllipseItem;
class QScatterSeries;
class QLineSeries;
class QTextBrowser;

namespace views {

class ChartLabels;

class FamilyView : public View
{
    Q_OBJECT

public:
    explicit FamilyView(ScenarioDocument *document, QWidget *parent = nullptr);
    ~FamilyView() override;

    QString snapshotName() const override { return QStringLiteral("family"); }
    QString title() const override { return tr("The family of chips"); }
    QString csv() const override;

    struct Point
    {
        QString id;
        QString name;
        QString family;
        double peakTflops = 0; ///< dense 16-bit (FP32 where none)
        double bandwidthGbs = 0;
        double memoryGb = 0;
        bool integerPeak = false; ///< INT8 TOPS: the preset has no float peak
    };
    /** The points drawn, one per device preset with a bandwidth and a peak. */
    const QList<Point> &points() const { return m_points; }
    /** What a click on the point of `id` does: make it the scenario's device. */
    bool choose(const QString &id);
    /** A short label for a device name ("H100 SXM5 80GB"). */
    static QString shortName(const QString &name);

protected:
    void refresh() override;
    void resizeEvent(QResizeEvent *event) override;

private:
    /** The notes as wide as they must be to show whole at the view's size and their font. */
    void fitNotes();

protected:
private:
    const Point *nearestPoint(QPointF at) const;
    /** Moves the memory-sized bubbles onto their points (after a change of the plot area). */
    void placeBubbles();

    QChart *m_chart;
    QLogValueAxis *m_x;
    QLogValueAxis *m_y;
    QList<QScatterSeries *> m_families;
    QList<QLineSeries *> m_ridges;
    QScatterSeries *m_current;
    std::unique_ptr<ChartLabels> m_labels;
    QTextBrowser *m_notes;
    bool m_fittingNotes = false;
    QList<Point> m_points;
    QList<QGraphicsEllipseItem *> m_bubbles; ///< one per point, sized by memory
    QString m_hovered;                       ///< the device under the mouse: labelled too
};

} // namespace views
