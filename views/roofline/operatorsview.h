// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The per-operator view (`operators`, issue #27): one decode step or one prompt's prefill split
// into the operators of a transformer layer and the output head, one point each on the device's
// roofline (attention scores move right with the context in prefill, the projections with the
// batch in decode), with a table of each operator's FLOP, bytes, intensity, bound and time per
// layer and in total, and what the breakdown counts that the whole-model figure does not.

#include "views/widgets/view.h"

#include <QList>
#include <QMap>
#include <QPointF>
#include <memory>

class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QTableWidget;

namespace views {

class TableFitter;

class ChartLabels;
class LogSliderControl;

class OperatorsView : public View
{
    Q_OBJECT

public:
    explicit OperatorsView(ScenarioDocument *document, QWidget *parent = nullptr);
    ~OperatorsView() override;

    QString snapshotName() const override { return QStringLiteral("operators"); }
    QString title() const override { return tr("Operators on the roofline"); }
    QString csv() const override;
    QWidget *figureWidget() override;

    /** 0: the decode step, 1: the prefill of one prompt. */
    void setPhase(int phase);
    /** The operator's point as drawn (FLOP/byte, TFLOP/s), or (0, 0). For tests. */
    QPointF pointOf(const QString &name) const;
    int pointCount() const;
    int tableRows() const;
    /** The error shown instead of the chart (a model the breakdown cannot take), or empty. */
    QString errorText() const;

protected:
    void refresh() override;

private:
    QChart *m_chart;
    QChartView *m_chartView;
    QLogValueAxis *m_x;
    QLogValueAxis *m_y;
    QLineSeries *m_roof;
    QList<QScatterSeries *> m_kinds; ///< one series per operator kind, in OperatorKind order
    std::unique_ptr<ChartLabels> m_labels;
    QComboBox *m_phase;
    QComboBox *m_attention; ///< one fused kernel, or LLM-Viewer's three operators
    LogSliderControl *m_batch;
    LogSliderControl *m_context;
    QTableWidget *m_table;
    TableFitter *m_tableFit = nullptr;
    QLabel *m_summary;
    QLabel *m_error;
    QString m_csv;
    QMap<QString, QPointF> m_points;
};

} // namespace views
