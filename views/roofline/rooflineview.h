// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The roofline (`roofline`): log-log arithmetic intensity against attainable FLOP/s. The roof
// is the bandwidth slope and one flat ceiling per format the device has a peak for; the decode
// operating point moves with the batch slider, the other batch sizes stay as a faint trail, the
// intensity limit batching can never pass is drawn, and the prefill point sits on the compute
// side. A readout beside the chart explains every number; a second device can be overlaid.

#include "views/widgets/view.h"

#include <QList>
#include <memory>

class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QVariantAnimation;
class QFormLayout;

namespace views {

class ChartLabels;
class FigureLabel;
class LogSliderControl;

class RooflineView : public View
{
    Q_OBJECT

public:
    explicit RooflineView(ScenarioDocument *document, QWidget *parent = nullptr);
    ~RooflineView() override;

    QString snapshotName() const override { return QStringLiteral("roofline"); }
    QString title() const override { return tr("Roofline"); }
    QString csv() const override;

    /** The decode operating point as drawn: (FLOP/byte, TFLOP/s). For tests. */
    QPointF operatingPoint() const;
    /** The roof of the compute format as drawn, in (FLOP/byte, TFLOP/s). */
    QList<QPointF> roof() const;
    QPointF prefillPoint() const;
    /** The training plan's matmul as drawn, or a null point where none is (tests). */
    QPointF trainingPoint() const;
    /** Speculative decoding's verify step as drawn (engine.speculative_tokens), or (0, 0). */
    QPointF verifyPoint() const;
    double intensityLimitDrawn() const;
    /** Overlays another device preset ("" removes it). */
    void setComparisonDevice(const QString &presetId);
    LogSliderControl *batchControl() const { return m_batch; }
    QChart *chart() const { return m_chart; }

protected:
    void refresh() override;

private:
    void addReadoutRow(QFormLayout *form, const QString &name, core::FigureId id);
    /** The range bar at m_rangeAt from m_rangeLow to m_rangeHigh (TFLOP/s), its caps a fixed
     *  width in pixels at any chart size (redrawn when the plot area changes). */
    void drawRange();

    QChart *m_chart;
    QChartView *m_chartView;
    QLogValueAxis *m_x;
    QLogValueAxis *m_y;
    QList<QLineSeries *> m_roofs; ///< [0] is the compute format's roof
    /** While a class predicts the ridge: the compute roof from well right of the ridge, apart
     *  from the bandwidth slope in m_roofs[0], so no kink shows where the two meet. */
    QLineSeries *m_roofTail;
    QLineSeries *m_trailLine;
    QScatterSeries *m_trail;
    QScatterSeries *m_point;
    QScatterSeries *m_measured = nullptr; ///< imported runs of this model, device and format
    QLabel *m_estimateNote = nullptr;
    QScatterSeries
        *m_lightPoint; ///< the speed of light's point, beside a typical or calibrated one
    /// through the expected point: where measured engines fall (core::estimateRange)
    QLineSeries *m_range;
    QPointF m_rangeAt; ///< the expected point; x 0 when there is no range
    double m_rangeLow = 0;
    double m_rangeHigh = 0;
    QScatterSeries *m_ridge;
    /** Reveal: the ridge marker slides up the bandwidth slope to its place (a window on
     *  screen only); infinity when it stands at its place. */
    double m_ridgeSlideAt;
    bool m_ridgeWasConcealed = false;
    QVariantAnimation *m_ridgeSlide = nullptr;
    QScatterSeries *m_prefill;
    QScatterSeries *m_verify;   ///< speculative decoding's verify step, beside plain decode
    QScatterSeries *m_training; ///< a training plan's largest matmul (issue #45), where asked
    QLineSeries *m_limit;
    QLineSeries *m_compareRoof;
    QScatterSeries *m_comparePoint;
    std::unique_ptr<ChartLabels> m_labels;
    LogSliderControl *m_batch;
    QComboBox *m_compare;
    QList<FigureLabel *> m_readout;
    FigureLabel *m_bound = nullptr;
    FigureLabel *m_ridgeDistance = nullptr;
    FigureLabel *m_fraction = nullptr;
    QString m_compareId;
};

} // namespace views
