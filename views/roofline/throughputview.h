// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Throughput against batch (`throughput`), on the same slider as the roofline: tokens/s in
// total and per sequence, the per-user pacing target, and the wall past which the batch no
// longer fits in memory.

#include "views/widgets/view.h"

#include <limits>
#include <memory>

class QChart;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QVariantAnimation;

namespace views {

class ChartLabels;

class ThroughputView : public View
{
    Q_OBJECT

public:
    explicit ThroughputView(ScenarioDocument *document, QWidget *parent = nullptr);
    ~ThroughputView() override;

    QString snapshotName() const override { return QStringLiteral("throughput"); }
    QString title() const override { return tr("Throughput against batch"); }
    QString csv() const override;

    /** The batch where the memory wall is drawn (0 when nothing fits, -1 when all fit). */
    double wallBatch() const { return m_wallBatch; }
    QPointF currentTotal() const;
    /** The speculative-decoding curve as drawn (batch, tokens/s); empty when it is off. */
    QList<QPointF> speculativeCurve() const;

protected:
    void refresh() override;

private:
    QChart *m_chart;
    QLogValueAxis *m_x;
    QLogValueAxis *m_yTotal;
    QLogValueAxis *m_yPerSequence;
    QLineSeries *m_total;
    QLineSeries *m_perSequence;
    QLineSeries *m_totalBeyond;
    QLineSeries *m_perSequenceBeyond;
    QLineSeries *m_pacing;
    QLineSeries *m_totalLight; ///< speed of light, beside a typical or calibrated estimate
    QLineSeries *m_perSequenceLight;
    QLineSeries *m_wall;
    QLineSeries *m_speculative; ///< tokens/s with speculative decoding (engine section)
    QScatterSeries *m_current;
    QScatterSeries *m_measured;   ///< imported runs of this model, device and format
    QScatterSeries *m_lessonRows; ///< the lesson's batch 1, 8 and 32 (l.121-123)
    std::unique_ptr<ChartLabels> m_labels;
    double m_wallBatch = -1;
    /** After Reveal the curves grow from the batch under discussion to the end of the axis
     *  (in a window on screen; at once off screen): the batch they reach now. */
    double m_revealedUpTo = std::numeric_limits<double>::infinity();
    bool m_wasConcealed = false;
    double m_askedBatch = 1; ///< the batch shown when the throughput was hidden
    QVariantAnimation *m_reveal = nullptr;
};

} // namespace views
