// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Load tab (issue #26): what the single-request floor leaves out. `load-curve` draws p50 and
// p95 time to first token and time per output token against the offered requests per second,
// the targets as lines and the knee marked; `load-timeline` draws one run at the scenario's
// rate: the queue, the running batch, KV use and arrivals over time. Both are simulated by
// core/loadsim off the GUI thread (LoadRunner) and follow every input.

#include "views/widgets/view.h"

#include <memory>

class QChart;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QValueAxis;

namespace views {

class ChartLabels;
class LoadRunner;
class SteadyLabel;

class LoadCurveView : public View
{
    Q_OBJECT

public:
    explicit LoadCurveView(ScenarioDocument *document, QWidget *parent = nullptr);
    ~LoadCurveView() override;

    QString snapshotName() const override { return QStringLiteral("load-curve"); }
    QString title() const override { return tr("Latency against offered load"); }
    QString csv() const override;
    void render(QPainter &painter, const QRectF &target) override;
    QWidget *figureWidget() override;
    /** Starts simulating the curve now, without the slider's pause: a report does its other
     *  work while the curve runs on a worker. */
    void startSimulation();

    LoadRunner *runner() const { return m_runner; }
    /** The summary above the chart, as plain text (tests) and as rich text (the report). */
    QString summaryText() const;
    QString summaryHtml() const;
    /** p95 TTFT as drawn: (requests/s, seconds). */
    QList<QPointF> ttftP95() const;
    double kneeDrawnAt() const { return m_kneeDrawnAt; }
    /** The rate axis as drawn, "min-max" (tests). */
    QString axisRangeText() const;

protected:
    void refresh() override;

private:
    void showResults();

    LoadRunner *m_runner;
    SteadyLabel *m_summary;
    QWidget *m_chartView;
    QChart *m_chart;
    QValueAxis *m_x;
    QLogValueAxis *m_y;
    QLineSeries *m_ttft95;
    QLineSeries *m_ttft50;
    QLineSeries *m_tpot95;
    QLineSeries *m_tpot50;
    QLineSeries *m_ttftTarget;
    QLineSeries *m_tpotTarget;
    QLineSeries *m_knee;
    QLineSeries *m_rate;
    QScatterSeries *m_points;
    std::unique_ptr<ChartLabels> m_labels;
    double m_kneeDrawnAt = 0;
    QString m_progressText;
};

class LoadTimelineView : public View
{
    Q_OBJECT

public:
    explicit LoadTimelineView(ScenarioDocument *document, QWidget *parent = nullptr);
    ~LoadTimelineView() override;

    QString snapshotName() const override { return QStringLiteral("load-timeline"); }
    QString title() const override { return tr("One run under load"); }
    QString csv() const override;
    void render(QPainter &painter, const QRectF &target) override;
    QWidget *figureWidget() override;

    LoadRunner *runner() const { return m_runner; }
    QString summaryText() const;

protected:
    void refresh() override;

private:
    void showResults();

    LoadRunner *m_runner;
    SteadyLabel *m_summary;
    QWidget *m_chartView;
    QChart *m_chart;
    QValueAxis *m_x;
    QValueAxis *m_ySequences;
    QValueAxis *m_yPercent;
    QLineSeries *m_waiting;
    QLineSeries *m_running;
    QLineSeries *m_kv;
    QLineSeries *m_arrived;
};

} // namespace views
