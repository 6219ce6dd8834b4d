// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadviews.h"

#include "loadrunner.h"

#include "views/document/scenariodocument.h"
#include "views/widgets/chartlabels.h"
#include "views/widgets/steadylabel.h"
#include "views/widgets/style.h"

#include "core/model/scenario.h"
#include "core/model/units.h"
#include "core/physics/loadsim.h"

#include <QChart>
#include <QChartView>
#include <QLayout>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace views {

namespace {

using style::number;

QString seconds(double value)
{
    return QString::fromStdString(core::formatSeconds(value));
}

SteadyLabel *summaryLabel(QWidget *parent)
{
    auto *label = new SteadyLabel(parent);
    label->setContentsMargins(6, 4, 6, 2);
    label->setObjectName(QStringLiteral("loadSummary"));
    return label;
}

/** The stream and engine in one line: what the run assumed, for the summary. */
QString setupText(const core::LoadSetup &s)
{
    QString arrivals =
        s.arrivals == core::ArrivalKind::Trace
            ? QObject::tr("a trace of %1 requests").arg(number(double(s.trace.size()), 7))
        : s.arrivals == core::ArrivalKind::Gamma
            ? QObject::tr("bursty arrivals (CV %1)").arg(number(s.burstiness))
            : QObject::tr("Poisson arrivals");
    return QObject::tr("%1; prompts %2 tokens (%3), outputs %4 (%5); up to %6 sequences, %7 "
                       "tokens a step, %8; %9 replica(s), KV in blocks of %10 tokens")
        .arg(arrivals, number(s.promptMean, 7), QString::fromUtf8(core::lengthKey(s.promptKind)),
             number(s.outputMean, 7), QString::fromUtf8(core::lengthKey(s.outputKind)),
             number(s.maxSequences, 7), number(s.tokenBudget, 7),
             s.chunkedPrefill ? QObject::tr("chunked prefill") : QObject::tr("prefill first"),
             number(s.replicas, 7))
        .arg(number(s.blockTokens, 7));
}

void setRangeIfChanged(QAbstractAxis *axis, double low, double high)
{
    if (auto *v = qobject_cast<QValueAxis *>(axis); v && (v->min() != low || v->max() != high))
        v->setRange(low, high);
    if (auto *l = qobject_cast<QLogValueAxis *>(axis); l && (l->min() != low || l->max() != high))
        l->setRange(low, high);
}

QChartView *makeChartView(QChart *chart, QWidget *parent)
{
    chart->setAnimationOptions(QChart::NoAnimation);
    style::styleChart(chart);
    chart->legend()->hide();
    chart->setMargins(QMargins(4, 4, 4, 4));
    auto *view = new QChartView(chart, parent);
    view->setRenderHint(QPainter::Antialiasing);
    return view;
}

} // namespace

// ---------------------------------------------------------------------------------------------

LoadCurveView::LoadCurveView(ScenarioDocument *document, QWidget *parent)
    : View(document, parent)
    , m_runner(new LoadRunner(LoadRunner::Kind::Curve, this))
    , m_summary(summaryLabel(this))
    , m_chart(new QChart)
    , m_x(new QValueAxis)
    , m_y(new QLogValueAxis)
    , m_ttft95(new QLineSeries)
    , m_ttft50(new QLineSeries)
    , m_tpot95(new QLineSeries)
    , m_tpot50(new QLineSeries)
    , m_ttftTarget(new QLineSeries)
    , m_tpotTarget(new QLineSeries)
    , m_knee(new QLineSeries)
    , m_rate(new QLineSeries)
    , m_points(new QScatterSeries)
{
    setObjectName(QStringLiteral("loadCurveView"));
    m_x->setTitleText(tr("Requests per second offered"));
    m_y->setTitleText(tr("Seconds (log)"));
    m_x->setLabelFormat(QStringLiteral("%.3g"));
    m_y->setLabelFormat(QStringLiteral("%g"));
    m_y->setMinorTickCount(-1);
    style::styleAxis(m_x);
    style::styleAxis(m_y);
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    const double s = style::scale();
    m_ttft95->setPen(QPen(style::kBlue, 3 * s));
    m_ttft50->setPen(QPen(style::kBlue, 1.5 * s, Qt::DashLine));
    m_tpot95->setPen(QPen(style::kOrange, 3 * s));
    m_tpot50->setPen(QPen(style::kOrange, 1.5 * s, Qt::DashLine));
    m_ttftTarget->setPen(QPen(style::kBlue, 1.2 * s, Qt::DotLine));
    m_tpotTarget->setPen(QPen(style::kOrange, 1.2 * s, Qt::DotLine));
    m_knee->setPen(QPen(style::warning(), 2 * s));
    m_rate->setPen(QPen(style::ink(), 1.2 * s, Qt::DashDotLine));
    m_points->setMarkerSize(7 * s);
    m_points->setColor(style::kBlue);
    m_points->setBorderColor(style::kBlue);
    for (QAbstractSeries *series : std::initializer_list<QAbstractSeries *>{
             m_ttftTarget, m_tpotTarget, m_knee, m_rate, m_ttft50, m_tpot50, m_tpot95, m_ttft95,
             m_points}) {
        m_chart->addSeries(series);
        series->attachAxis(m_x);
        series->attachAxis(m_y);
    }
    m_labels = std::make_unique<ChartLabels>(m_chart);
    auto *view = makeChartView(m_chart, this);
    m_chartView = view;
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(0);
    layout->addWidget(m_summary);
    layout->addWidget(view, 1);
    connect(m_runner, &LoadRunner::finished, this, &LoadCurveView::showResults);
    connect(m_runner, &LoadRunner::progress, this, [this](int done, int total) {
        m_progressText = tr("Simulating the load curve: %1 of %2 rates done…").arg(done).arg(total);
        m_summary->setText(m_progressText);
    });
}

LoadCurveView::~LoadCurveView() = default;

void LoadCurveView::refresh()
{
    m_runner->schedule(document()->scenario(), document()->filePath());
    if (!m_runner->curve() && m_runner->error().isEmpty())
        m_summary->setText(tr("Simulating the load curve…"));
}

void LoadCurveView::render(QPainter &painter, const QRectF &target)
{
    ensureCurrent();
    m_runner->wait();     // a picture shows the finished curve, never a half-drawn one
    layout()->activate(); // the summary's new height, before the picture is taken
    View::render(painter, target);
}

void LoadCurveView::startSimulation()
{
    ensureCurrent();
    m_runner->start();
}

QWidget *LoadCurveView::figureWidget()
{
    ensureCurrent();
    m_runner->wait();
    return m_chartView;
}

void LoadCurveView::showResults()
{
    m_labels->clear();
    if (!m_runner->curve()) {
        for (QXYSeries *series : std::initializer_list<QXYSeries *>{
                 m_ttft95, m_ttft50, m_tpot95, m_tpot50, m_ttftTarget, m_tpotTarget, m_knee, m_rate,
                 m_points})
            series->clear();
        m_summary->setText(tr("<b>No load curve:</b> %1").arg(m_runner->error().toHtmlEscaped()));
        m_labels->reposition();
        return;
    }
    const core::LoadCurve &curve = *m_runner->curve();
    const core::LoadSetup &setup = *m_runner->setup();
    QList<QPointF> ttft95, ttft50, tpot95, tpot50;
    double low = 1e300, high = 0;
    const auto note = [&low, &high](double v) {
        if (v > 0 && std::isfinite(v)) {
            low = std::min(low, v);
            high = std::max(high, v);
        }
    };
    for (const core::LoadPoint &p : curve.points) {
        const core::LoadResult &r = p.result;
        ttft95 << QPointF(p.ratePerSecond, r.ttft.p95);
        ttft50 << QPointF(p.ratePerSecond, r.ttft.p50);
        note(r.ttft.p95);
        note(r.ttft.p50);
        if (r.tpotExcludingFirst.p95 > 0) {
            tpot95 << QPointF(p.ratePerSecond, r.tpotExcludingFirst.p95);
            tpot50 << QPointF(p.ratePerSecond, r.tpotExcludingFirst.p50);
            note(r.tpotExcludingFirst.p95);
            note(r.tpotExcludingFirst.p50);
        }
    }
    note(setup.ttftTargetSeconds);
    note(setup.tpotTargetSeconds);
    if (!(high > 0)) {
        low = 0.01;
        high = 1;
    }
    // a decade of room under the lowest line for its label
    const double yLow = std::pow(10, std::floor(std::log10(low / 3.0))) * 0.999;
    const double yHigh = std::pow(10, std::ceil(std::log10(high * 1.5))) * 1.001;
    double xHigh = curve.points.empty() ? 1.0 : curve.points.back().ratePerSecond * 1.04;
    setRangeIfChanged(m_x, 0.0, xHigh);
    m_x->setTickCount(5);    // applyNiceNumbers() changes the count: start each time from one
    m_x->applyNiceNumbers(); // 0, 2, 4, 6, 8 rather than 0, 2.09, 4.19
    xHigh = m_x->max();      // the target lines run across the whole plot
    setRangeIfChanged(m_y, yLow, yHigh);
    replaceIfChanged(m_ttft95, ttft95);
    replaceIfChanged(m_ttft50, ttft50);
    replaceIfChanged(m_tpot95, tpot95);
    replaceIfChanged(m_tpot50, tpot50);
    replaceIfChanged(m_points, ttft95);
    replaceIfChanged(m_ttftTarget, {QPointF(0, setup.ttftTargetSeconds),
                                    QPointF(xHigh, setup.ttftTargetSeconds)});
    replaceIfChanged(m_tpotTarget, {QPointF(0, setup.tpotTargetSeconds),
                                    QPointF(xHigh, setup.tpotTargetSeconds)});
    m_kneeDrawnAt = curve.kneeRatePerSecond;
    replaceIfChanged(m_knee, {QPointF(m_kneeDrawnAt, yLow), QPointF(m_kneeDrawnAt, yHigh)});
    const double rate = setup.ratePerSecond;
    const bool rateOnAxis = rate <= xHigh;
    if (rateOnAxis)
        replaceIfChanged(m_rate, {QPointF(rate, yLow), QPointF(rate, yHigh)});
    else
        m_rate->clear();

    for (QLineSeries *line : {m_ttft95, m_ttft50, m_tpot95, m_tpot50})
        m_labels->addLineObstacle(line->points(), line, 6);
    for (QLineSeries *line : {m_ttftTarget, m_tpotTarget, m_knee, m_rate})
        m_labels->addLineObstacle(line->points(), line, 2);
    if (!ttft95.isEmpty()) {
        m_labels->add(tr("p95 time to first token"), ttft95.last(), m_ttft95, style::kBlue,
                      QPointF(-8, -24), true, ChartLabels::Align::End);
        m_labels->add(tr("p50"), ttft50.last(), m_ttft50, style::kBlue, QPointF(-8, 6), false,
                      ChartLabels::Align::End);
    }
    if (!tpot95.isEmpty()) {
        m_labels->add(tr("p95 time per output token (after the first)"), tpot95.last(), m_tpot95,
                      style::kOrange, QPointF(-8, -26), true, ChartLabels::Align::End);
        m_labels->add(tr("p50"), tpot50.last(), m_tpot50, style::kOrange, QPointF(-8, 8), false,
                      ChartLabels::Align::End);
    }
    m_labels->add(tr("first-token target %1").arg(seconds(setup.ttftTargetSeconds)),
                  QPointF(0, setup.ttftTargetSeconds), m_ttftTarget, style::kBlue, QPointF(8, -20));
    m_labels->add(tr("per-token target %1").arg(seconds(setup.tpotTargetSeconds)),
                  QPointF(0, setup.tpotTargetSeconds), m_tpotTarget, style::kOrange,
                  QPointF(8, -20));
    m_labels->add(tr("knee %1/s").arg(number(m_kneeDrawnAt)), QPointF(m_kneeDrawnAt, yHigh), m_knee,
                  style::warning(), QPointF(-6, 4), true, ChartLabels::Align::End);
    if (rateOnAxis)
        m_labels->add(tr("this scenario %1/s").arg(number(rate)), QPointF(rate, yLow), m_rate,
                      style::ink(), QPointF(6, -24));
    m_labels->reposition();

    // the summary: the scenario's own rate read off the curve, the knee and the targets
    const core::LoadPoint *nearest = nullptr;
    for (const core::LoadPoint &p : curve.points) {
        if (!nearest ||
            std::fabs(p.ratePerSecond - rate) < std::fabs(nearest->ratePerSecond - rate))
            nearest = &p;
    }
    QString text =
        tr("<b>Knee at %1 requests/s</b> (where p95 first token turns from flat to climbing); "
           "<b>targets met up to %2 requests/s</b> (p95 first token %3, p95 per token %4); the "
           "step model's capacity estimate %5 requests/s.")
            .arg(number(curve.kneeRatePerSecond), number(curve.maxRateMeetingTargets),
                 seconds(setup.ttftTargetSeconds), seconds(setup.tpotTargetSeconds),
                 number(curve.estimatedCapacityPerSecond));
    if (nearest)
        text += tr(" Nearest this scenario's %1/s: p95 first token %2, p95 per token %3.")
                    .arg(number(rate), seconds(nearest->result.ttft.p95),
                         seconds(nearest->result.tpotExcludingFirst.p95));
    if (curve.maxRateMeetingTargets <= 0)
        text += tr(" <b>No rate meets both targets</b>, not even the lightest.");
    text += QStringLiteral("<br><small>") +
            tr("Simulated: %1 rates x %2 requests, seed %3; %4. Single-request floor %5. "
               "Leaves out prefix caching, speculative decoding and host swap.")
                .arg(curve.points.size())
                .arg(number(double(curve.requestsPerPoint), 7))
                .arg(setup.seed)
                .arg(setupText(setup),
                     seconds(curve.points.empty() ? 0.0
                                                  : curve.points.front().result.ttftFloorSeconds)) +
            QStringLiteral("</small>");
    m_summary->setText(text);
}

QString LoadCurveView::summaryText() const
{
    return m_summary->plainText();
}

QString LoadCurveView::axisRangeText() const
{
    return QStringLiteral("%1-%2").arg(m_x->min()).arg(m_x->max());
}

QString LoadCurveView::summaryHtml() const
{
    return m_summary->text();
}

QList<QPointF> LoadCurveView::ttftP95() const
{
    return m_ttft95->points();
}

QString LoadCurveView::csv() const
{
    return m_runner->curve() ? QString::fromStdString(core::loadCurveToCsv(*m_runner->curve()))
                             : QString();
}

// ---------------------------------------------------------------------------------------------

LoadTimelineView::LoadTimelineView(ScenarioDocument *document, QWidget *parent)
    : View(document, parent)
    , m_runner(new LoadRunner(LoadRunner::Kind::Run, this))
    , m_summary(summaryLabel(this))
    , m_chart(new QChart)
    , m_x(new QValueAxis)
    , m_ySequences(new QValueAxis)
    , m_yPercent(new QValueAxis)
    , m_waiting(new QLineSeries)
    , m_running(new QLineSeries)
    , m_kv(new QLineSeries)
    , m_arrived(new QLineSeries)
{
    setObjectName(QStringLiteral("loadTimelineView"));
    m_x->setTitleText(tr("Seconds since the first request"));
    m_ySequences->setTitleText(tr("Requests"));
    m_yPercent->setTitleText(tr("Percent"));     // the legend says of what
    m_x->setLabelFormat(QStringLiteral("%.6g")); // 15000 s, not "1.5e+04"
    m_ySequences->setLabelFormat(QStringLiteral("%.4g"));
    m_yPercent->setLabelFormat(QStringLiteral("%d"));
    m_yPercent->setRange(0, 100);
    for (QValueAxis *axis : {m_x, m_ySequences, m_yPercent})
        style::styleAxis(axis);
    m_ySequences->setLabelsColor(style::kBlue);
    m_yPercent->setLabelsColor(style::kGreen);
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_ySequences, Qt::AlignLeft);
    m_chart->addAxis(m_yPercent, Qt::AlignRight);
    const double s = style::scale();
    m_waiting->setPen(QPen(style::kVermillion, 2 * s));
    m_running->setPen(QPen(style::kBlue, 2 * s));
    m_kv->setPen(QPen(style::kGreen, 2 * s));
    m_arrived->setPen(QPen(style::muted(), 1.5 * s, Qt::DashLine));
    for (QLineSeries *series : {m_waiting, m_running}) {
        m_chart->addSeries(series);
        series->attachAxis(m_x);
        series->attachAxis(m_ySequences);
    }
    for (QLineSeries *series : {m_kv, m_arrived}) {
        m_chart->addSeries(series);
        series->attachAxis(m_x);
        series->attachAxis(m_yPercent);
    }
    auto *view = makeChartView(m_chart, this);
    // the four lines named in a legend under the plot: labels on the lines sat on the running
    // batch's spikes and on each other at 1280x800 (issue #42, item 10)
    m_waiting->setName(tr("waiting in the queue"));
    m_running->setName(tr("running batch"));
    m_kv->setName(tr("KV blocks in use (%)"));
    m_arrived->setName(tr("requests arrived (%)"));
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chart->legend()->setFont(style::annotationFont(0.9));
    m_chart->legend()->show();
    m_chartView = view;
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(0);
    layout->addWidget(m_summary);
    layout->addWidget(view, 1);
    connect(m_runner, &LoadRunner::finished, this, &LoadTimelineView::showResults);
}

LoadTimelineView::~LoadTimelineView() = default;

void LoadTimelineView::refresh()
{
    m_runner->schedule(document()->scenario(), document()->filePath());
    if (!m_runner->run() && m_runner->error().isEmpty())
        m_summary->setText(tr("Simulating one run…"));
}

void LoadTimelineView::render(QPainter &painter, const QRectF &target)
{
    ensureCurrent();
    m_runner->wait();
    layout()->activate();
    View::render(painter, target);
}

QWidget *LoadTimelineView::figureWidget()
{
    ensureCurrent();
    m_runner->wait();
    return m_chartView;
}

void LoadTimelineView::showResults()
{
    if (!m_runner->run()) {
        for (QLineSeries *series : {m_waiting, m_running, m_kv, m_arrived})
            series->clear();
        m_summary->setText(tr("<b>No run:</b> %1").arg(m_runner->error().toHtmlEscaped()));
        return;
    }
    const core::LoadResult &r = *m_runner->run();
    const core::LoadSetup &setup = *m_runner->setup();
    QList<QPointF> waiting, running, kv, arrived;
    double most = 1;
    const double start = r.timeline.empty() ? 0.0 : r.timeline.front().seconds;
    for (const core::TimelinePoint &p : r.timeline) {
        const double t = p.seconds - start;
        waiting << QPointF(t, p.waiting);
        running << QPointF(t, p.running);
        kv << QPointF(t, 100.0 * p.kvFraction);
        arrived << QPointF(t, 100.0 * p.arrived / double(std::max<std::size_t>(r.requests, 1)));
        most = std::max({most, p.waiting, p.running});
    }
    const double end = std::max(r.spanSeconds, 1e-9);
    setRangeIfChanged(m_x, 0.0, end);
    setRangeIfChanged(m_ySequences, 0.0, std::ceil(most * 1.15));
    m_x->setTickCount(5); // applyNiceNumbers() changes the count: start each time from one
    m_x->applyNiceNumbers();
    m_ySequences->setTickCount(5);
    m_ySequences->applyNiceNumbers();
    replaceIfChanged(m_waiting, waiting);
    replaceIfChanged(m_running, running);
    replaceIfChanged(m_kv, kv);
    replaceIfChanged(m_arrived, arrived);

    QString text =
        tr("<b>%1 requests at %2/s:</b> first token p50 %3, p95 %4, p99 %5 (alone: %6); per "
           "output token after the first p50 %7, p95 %8; end to end p95 %9.")
            .arg(number(double(r.requests), 7), number(setup.ratePerSecond), seconds(r.ttft.p50),
                 seconds(r.ttft.p95), seconds(r.ttft.p99), seconds(r.ttftFloorSeconds),
                 seconds(r.tpotExcludingFirst.p50), seconds(r.tpotExcludingFirst.p95),
                 seconds(r.endToEnd.p95));
    text += tr(" Goodput %1 % of requests meet both targets (%2/s); %3 output tokens/s; %4 "
               "preemptions.")
                .arg(number(100.0 * r.goodputFraction), number(r.goodputRequestsPerSecond),
                     number(r.outputTokensPerSecond), number(double(r.preemptions), 7));
    if (r.cut)
        text += tr(" <b>The run was cut:</b> %1.").arg(QString::fromStdString(r.cutReason));
    text +=
        QStringLiteral("<br><small>") +
        tr("%1; %2 KV blocks a replica; seed %3. Little's law: %4 in the system on average "
           "= %5/s x %6.")
            .arg(setupText(setup), number(r.kvBlocks, 7))
            .arg(setup.seed)
            .arg(number(r.meanInSystem), number(r.requestsPerSecond), seconds(r.endToEnd.mean)) +
        QStringLiteral("</small>");
    m_summary->setText(text);
}

QString LoadTimelineView::summaryText() const
{
    return m_summary->plainText();
}

QString LoadTimelineView::csv() const
{
    if (!m_runner->run())
        return {};
    QString out = QStringLiteral("seconds,waiting,running,kv_fraction,arrived\n");
    for (const core::TimelinePoint &p : m_runner->run()->timeline)
        out += QStringLiteral("%1,%2,%3,%4,%5\n")
                   .arg(p.seconds, 0, 'g', 10)
                   .arg(p.waiting)
                   .arg(p.running)
                   .arg(p.kvFraction, 0, 'g', 6)
                   .arg(p.arrived);
    return out;
}

} // namespace views
