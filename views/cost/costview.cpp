// SPDX-License-Identifier: GPL-3.0-or-later
#include "costview.h"

#include "views/document/scenariodocument.h"
#include "views/io/dataexport.h"
#include "views/widgets/chartguard.h"
#include "views/widgets/chartlabels.h"
#include "views/widgets/numbereditor.h"
#include "views/widgets/style.h"

#include "core/calibrate/calibration.h"
#include "core/data/presets.h"
#include "core/decide/selection.h"
#include "core/model/fleet.h"
#include "core/model/parameters.h"
#include "core/model/scenario.h"
#include "core/model/scenarioedits.h"
#include "core/model/units.h"
#include "core/physics/evaluation.h"
#include "core/physics/explain.h"
#include "core/physics/lessonfigures.h"
#include "core/train/trainingplan.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <QValueAxis>

#include <cmath>

namespace views {

namespace {

/** The curve's name as the user wrote it; its legend shows it escaped (Qt Charts lays legend
 *  labels out as HTML: a device named "<b>x</b>" must read as those characters). */
constexpr const char *kPlainName = "plainName";

void setPlainName(QLineSeries *curve, const QString &name)
{
    curve->setProperty(kPlainName, name);
    curve->setName(name.toHtmlEscaped());
}

QString fromStd(const std::string &text)
{
    return QString::fromStdString(text);
}

struct Curve
{
    QString name;
    double price = core::kUnset; ///< USD per replica-hour; unset: the device has no price
    double perHour = 0;          ///< tokens per busy hour of one replica
    double devices = 1;          ///< devices per replica (tensor parallel x pipeline stages)
};

/** A curve's inputs: the scenario as it is, or the scenario on another device by the core's one
 *  rule (its own price or none, the decode estimate on it derated by the throttle factor). */
Curve curveFor(const core::Scenario &scenario, const core::DeviceSpec *device)
{
    const core::Scenario s = device ? core::onDevice(scenario, *device).scenario : scenario;
    const core::Evaluation e = core::evaluate(s);
    Curve c;
    c.name = fromStd(s.device.name);
    c.price = e[core::FigureId::CostPricePerHour];
    c.perHour = e[core::FigureId::CostTokensPerHour];
    c.devices = e[core::FigureId::Devices];
    return c;
}

const QColor kColours[] = {style::kBlue, style::kOrange, style::kGreen, style::kPurple};

} // namespace

CostView::CostView(ScenarioDocument *document, QWidget *parent)
    : View(document, parent)
    , m_chart(new QChart)
    , m_x(new QValueAxis)
    , m_y(new QLogValueAxis)
    , m_api(new QLineSeries)
    , m_marks(new QScatterSeries)
    , m_throttle(new QDoubleSpinBox(this))
    , m_notes(new QTextBrowser(this))
{
    setObjectName(QStringLiteral("costView"));
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    style::styleChart(m_chart);
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chart->legend()->setFont(style::annotationFont(0.9));
    m_x->setRange(0, 100);
    m_x->setTitleText(tr("Utilisation (% of hours busy)"));
    m_x->setLabelFormat(QStringLiteral("%.0f"));
    m_x->setTickCount(11);
    m_y->setTitleText(tr("USD per million tokens (log)"));
    m_y->setBase(10);
    m_y->setLabelFormat(QStringLiteral("%g"));
    m_y->setMinorTickCount(-1);
    style::styleAxis(m_x);
    style::styleAxis(m_y);
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    for (int i = 0; i < 4; ++i) {
        auto *curve = new QLineSeries;
        curve->setPen(QPen(kColours[i], (i == 0 ? 3.0 : 2.2) * style::scale()));
        m_chart->addSeries(curve);
        curve->attachAxis(m_x);
        curve->attachAxis(m_y);
        m_curves << curve;
    }
    m_api->setName(tr("hosted API"));
    m_api->setPen(QPen(style::kVermillion, 2 * style::scale(), Qt::DashLine));
    m_chart->addSeries(m_api);
    m_api->attachAxis(m_x);
    m_api->attachAxis(m_y);
    m_marks->setMarkerSize(11 * style::scale());
    m_marks->setColor(style::ink());
    m_chart->addSeries(m_marks);
    m_marks->attachAxis(m_x);
    m_marks->attachAxis(m_y);
    m_chart->legend()->markers(m_marks).first()->setVisible(false);
    m_labels = std::make_unique<ChartLabels>(m_chart);

    auto *chartView = new QChartView(m_chart, this);
    chartView->setRenderHint(QPainter::Antialiasing);
    chartView->setMinimumSize(420, 300);
    auto *form = new QFormLayout;
    for (int i = 0; i < 3; ++i) {
        auto *combo = new QComboBox(this);
        combo->addItem(tr("none"), QString());
        for (const core::PresetInfo &info : core::presetList()) {
            if (info.kind == "device")
                combo->addItem(QString::fromStdString(info.name), QString::fromStdString(info.id));
        }
        connect(combo, &QComboBox::activated, this, [this] { refresh(); });
        form->addRow(tr("Compare with"), combo);
        m_others << combo;
    }
    m_throttle->setDecimals(2);
    fitParameterEditor(m_throttle, *core::findParameter("cost.throttle_factor"));
    m_throttle->setSingleStep(0.05);
    m_throttle->setKeyboardTracking(false);
    m_throttle->setToolTip(tr("The share of the estimated speed sustained in practice, e.g. 0.85 "
                              "for a device that throttles under heat"));
    connect(m_throttle, &QDoubleSpinBox::valueChanged, this, [this](double value) {
        if (!m_updating)
            this->document()->setNumber(QStringLiteral("cost.throttle_factor"), value);
    });
    form->addRow(tr("Throttle derate"), m_throttle);
    m_notes->setOpenLinks(false);
    auto *side = new QVBoxLayout;
    side->addLayout(form);
    side->addWidget(m_notes, 1);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(chartView, 3);
    layout->addLayout(side, 1);
}

CostView::~CostView() = default;

void CostView::setComparison(int slot, const QString &deviceId)
{
    QComboBox *combo = m_others.value(slot);
    if (!combo)
        return;
    combo->setCurrentIndex(std::max(0, combo->findData(deviceId)));
    refresh();
}

int CostView::comparisonCount() const
{
    int n = 0;
    for (QComboBox *combo : m_others)
        n += !combo->currentData().toString().isEmpty();
    return n;
}

QList<QPointF> CostView::currentCurve() const
{
    return m_curves.first()->points();
}

QString CostView::notes() const
{
    return m_notes->toPlainText();
}

void CostView::refresh()
{
    const core::Scenario &s = document()->scenario();
    const core::Evaluation e = document()->evaluation();
    m_updating = true;
    m_throttle->setValue(s.cost.throttleFactor);
    m_updating = false;

    QList<Curve> curves{curveFor(s, nullptr)};
    for (QComboBox *combo : std::as_const(m_others)) {
        const QString id = combo->currentData().toString();
        if (id.isEmpty())
            continue;
        const auto device = core::devicePreset(id.toStdString());
        if (device)
            curves << curveFor(s, &device.value());
    }
    double low = 1e30;
    double high = 0;
    bool leftOff = false; // a cost beyond what a chart draws (a valid but extreme scenario)
    // while a class predicts the cost, this device's curve, its mark and the fleet's month (the
    // cost is month / tokens) wait for Reveal; the axis still spans them (issue #23)
    const bool concealed = document()->isConcealed(core::FigureId::CostUsdPerMillionTokens);
    m_labels->clear();
    for (int i = 0; i < m_curves.size(); ++i) {
        QList<QPointF> points;
        const bool shown = i < curves.size();
        const bool hidden = concealed && i == 0;
        if (shown && !core::isSet(curves[i].price)) // never another device's price
            setPlainName(m_curves[i], tr("%1: price needed").arg(curves[i].name));
        else if (shown && curves[i].perHour > 0) {
            for (int u = 5; u <= 100; ++u) {
                const double usd =
                    core::usdPerMillionTokens(curves[i].price, curves[i].perHour, u / 100.0);
                if (!drawable(usd, true)) {
                    leftOff = true;
                    continue;
                }
                if (!hidden)
                    points << QPointF(u, usd);
                low = std::min(low, usd);
                high = std::max(high, usd);
            }
            setPlainName(
                m_curves[i],
                // to the cent, as every other price ("$6.7/h" was $6.72); a replica's devices
                // said as devices ("per replica of 2" read as a fleet of 2 replicas)
                curves[i].devices > 1
                    ? tr("%1, %2/h per replica (%3 devices)")
                          .arg(curves[i].name, fromStd(core::formatUsd(curves[i].price)),
                               style::number(curves[i].devices, 9))
                    : tr("%1, %2/h")
                          .arg(curves[i].name, fromStd(core::formatUsd(curves[i].price))));
        }
        replaceIfChanged(m_curves[i], points);
        m_curves[i]->setVisible(shown && !hidden &&
                                (!points.isEmpty() || !core::isSet(curves[i].price)));
    }
    // the hosted API as USD per million generated tokens, where prices are set
    QList<QPointF> api;
    const double generated = e[core::FigureId::CostGeneratedTokensPerRequest];
    const double apiPerMillion = e.available(core::FigureId::CostApiUsdPerRequest) && generated > 0
                                     ? e[core::FigureId::CostApiUsdPerRequest] / generated * 1e6
                                     : core::kUnset;
    if (core::isSet(apiPerMillion) && drawable(apiPerMillion, true)) {
        api = {QPointF(0, apiPerMillion), QPointF(100, apiPerMillion)};
        low = std::min(low, apiPerMillion);
        high = std::max(high, apiPerMillion);
    }
    replaceIfChanged(m_api, api);
    m_api->setVisible(!api.isEmpty());
    const AxisRange range = logAxisRange(low, high);
    m_y->setRange(range.low, range.high);

    // the scenario's utilisation on the current device, and the break-even
    QList<QPointF> marks;
    const double u = e[core::FigureId::CostUtilisation] * 100; // the traffic's, when given
    const double now = e[core::FigureId::CostUsdPerMillionTokens];
    // the lesson's three rows (100, 70 and 35 % busy, l.182-184) on this device's curve
    for (const double busy : {1.0, 0.70, 0.35}) {
        if (concealed || std::abs(busy * 100 - u) < 0.5)
            continue;
        core::Scenario row = s;
        row.cost.utilisation = busy;
        const auto badge = core::lessonBadge(row, core::FigureId::CostUsdPerMillionTokens);
        if (!badge)
            continue;
        const double cost = core::evaluate(row)[core::FigureId::CostUsdPerMillionTokens];
        marks << QPointF(busy * 100, cost);
        m_labels->add(
            tr("lesson: %1 at %2 %")
                .arg(QString::fromStdString(badge->printed), style::number(busy * 100, 3)),
            QPointF(busy * 100, cost), m_marks, style::ink(), QPointF(8, -24));
    }
    if (drawable(now, true) && !concealed) {
        marks << QPointF(u, now);
        m_labels->add(tr("$%1 at %2 %").arg(style::number(now, 3), style::number(u, 3)),
                      QPointF(u, now), m_marks, style::kBlue.darker(120), QPointF(8, -24), true);
    }
    if (e.available(core::FigureId::CostBreakEvenUtilisation) && core::isSet(apiPerMillion)) {
        const double breakEven = e[core::FigureId::CostBreakEvenUtilisation] * 100;
        if (breakEven > 0 && breakEven <= 100) {
            marks << QPointF(breakEven, apiPerMillion);
            m_labels->add(tr("break-even %1 %").arg(style::number(breakEven, 3)),
                          QPointF(breakEven, apiPerMillion), m_marks, style::kVermillion,
                          QPointF(8, 6), true);
        }
    }
    replaceIfChanged(m_marks, marks);
    m_labels->reposition();

    QString html =
        !std::isfinite(now)
            ? tr("<h3>What a token costs</h3><p><b>Price needed:</b> %1 has no price per "
                 "device-hour, and no other device's price is borrowed. Type one in the scenario "
                 "panel or the Device-Selection Wizard to cost it.</p>")
                  .arg(fromStd(s.device.name).toHtmlEscaped())
            : tr("<h3>What a token costs</h3><p>Price per hour divided by the tokens "
                 "produced in the hours the devices are busy: idle hours are billed too "
                 "(l.179-184). At %1 % utilisation: <b>%2 per million tokens</b>; %3 "
                 "per busy hour%4, %5.</p>")
                  .arg(style::number(u, 3),
                       // the core's own formatting: style::number rounds 1e306 to "0"
                       concealed ? QStringLiteral("?")
                                 : fromStd(core::formatQuantity(now, core::Quantity::Usd)),
                       fromStd(core::formatQuantity(e[core::FigureId::CostTokensPerHour],
                                                    core::Quantity::Tokens)),
                       s.cost.throttleFactor < 1 ? tr(" after a %1 throttle derate")
                                                       .arg(style::number(s.cost.throttleFactor, 3))
                                                 : QString(),
                       // where the busy rate comes from: a given rate is not an estimate
                       // (the lesson's 400 tokens/s read "by the speed of light estimate")
                       core::isSet(s.cost.sustainedTokensPerSecond)
                           ? tr("at the scenario's sustained %1 tokens/s")
                                 .arg(style::number(s.cost.sustainedTokensPerSecond, 4))
                           : tr("by the %1 estimate")
                                 .arg(fromStd(core::estimateLabel(s)).toHtmlEscaped()));
    if (core::isSet(apiPerMillion))
        html += tr("<p>A hosted API at $%1 per million generated tokens (input and output priced "
                   "apart, for this prompt and answer) is cheaper below the break-even.</p>")
                    .arg(style::number(apiPerMillion, 3));
    else if (core::isSet(s.cost.apiUsdPerMillionInput) && !(generated > 0))
        html += tr("<p>The prompt fills the whole context: no generated tokens to price against "
                   "the hosted API. Set a prompt shorter than the context.</p>");
    else
        html += tr("<p>Set API prices (Device-Selection Wizard or the scenario's cost section) to "
                   "draw a hosted API's price and the break-even.</p>");
    if (std::isfinite(now) && now == 0)
        // a free device: a log axis has no zero (it said "beyond 10^15" under "$0.00", #42)
        html += tr("<p><b>Off the chart:</b> at a price of $0 every cost is zero, which a "
                   "logarithmic axis cannot show; the figures above are the core's.</p>");
    else if (leftOff || (std::isfinite(now) && !drawable(now, true)))
        html +=
            tr("<p><b>Off the chart:</b> some costs are beyond %1 dollars per million "
               "tokens (or not finite) and are not drawn; the figures above are the core's.</p>")
                .arg(QStringLiteral("10<sup>15</sup>"));
    // a setup that does not fit runs nowhere: its cost is a what-if, said first (the Cost tab
    // priced FP8 at TP 2, 123.7 GB on 80 GB, at $12,439.20 a month with no word, #42)
    if (!e.fits())
        html.insert(html.indexOf(QStringLiteral("</h3>")) + 5,
                    tr("<p style=\"color:%1\"><b>Does not fit:</b> %2 needed on a device of "
                       "%3. These costs are for a setup that cannot run as configured.</p>")
                        .arg(style::warning().name(),
                             fromStd(core::formatFigure(e, core::FigureId::ServingBytesTotal)),
                             fromStd(core::formatFigure(e, core::FigureId::CapacityBytes))));
    // A training decision's cost is its run (the Training tab's plan): said first, so the
    // serving month below is not read as the decision's answer
    if (core::asksForTrainingPlan(s)) {
        const core::TrainingPlan &plan = document()->trainingPlan();
        const QString run =
            !plan.problem.empty()
                ? tr("no layout runs (the Training tab says why)")
                : tr("%1 devices for %2, %3 device-hours: <b>%4</b>")
                      .arg(fromStd(core::formatCount(plan.devices)),
                           fromStd(core::formatDuration(plan.wallSeconds)),
                           fromStd(core::formatCount(plan.deviceHours)),
                           std::isfinite(plan.usd) ? fromStd(core::formatUsd(plan.usd))
                                                   : tr("no price for this device"));
        html.insert(html.indexOf(QStringLiteral("</h3>")) + 5,
                    tr("<p><b>This is a training decision:</b> the run is %1 (the Training tab). "
                       "What follows prices serving the model afterwards, per token.</p>")
                        .arg(run));
    }
    // The fleet, from the one cost model: what a finance reader checks line by line.
    using F = core::FigureId;
    if (concealed) {
        html += tr("<p><b>The fleet:</b> its month and its tokens come with Reveal.</p>");
    } else if (std::isfinite(now) && e.available(F::CostFleetUsdPerMonth)) {
        const bool fromTraffic = e[F::CostTokensFromTraffic] != 0.0;
        const double perReplica = e[F::Devices]; // TP x PP, the core's figure
        auto usd = [](double v) { return fromStd(core::formatUsd(v)).toHtmlEscaped(); };
        html += tr("<p><b>The fleet:</b> %1 devices = %2%3 at $%4 per device-hour: "
                   "%5 an hour, <b>%6 a month</b>, %7 a year. %8 it serves %9 million tokens a "
                   "month: %10 per million, so tokens x price = the month.%11</p>")
                    .arg(style::number(e[F::CostDevices], 9),
                         e[F::CostReplicas] == 1
                             ? tr("1 replica")
                             : tr("%1 replicas").arg(style::number(e[F::CostReplicas], 9)),
                         perReplica > 1 ? tr(" of %1 devices").arg(style::number(perReplica, 9))
                                        : QString(),
                         style::number(s.cost.pricePerHourUsd, 4), usd(e[F::CostFleetUsdPerHour]),
                         usd(e[F::CostFleetUsdPerMonth]), usd(e[F::CostFleetUsdPerYear]),
                         fromTraffic ? tr("With the traffic given (busy %1 % of the time),")
                                           .arg(style::number(e[F::CostUtilisation] * 100, 3))
                                     : tr("No traffic given: at %1 % of its capacity")
                                           .arg(style::number(e[F::CostUtilisation] * 100, 3)),
                         style::number(e[F::CostTokensPerMonth] / 1e6, 4),
                         usd(e[F::CostUsdPerMillionTokens]),
                         e.available(F::CostApiUsdPerMonth)
                             ? tr(" A hosted API would charge %1 a month for the same requests.")
                                   .arg(usd(e[F::CostApiUsdPerMonth]))
                             : QString());
        if (!fromTraffic)
            html += tr("<p>Describe the traffic (requests per day) to cost the tokens it really "
                       "generates.</p>");
        html += wizardsFleet(e);
    }
    html += tr("<p style=\"color:#666\">Compare devices per token, not per hour (l.184): a cheaper "
               "device with half the throughput is not cheaper per token.</p>");
    m_notes->setHtml(style::themed(html));
}

// The fleet above keeps up with the peak's throughput; the wizard's latency check simulates the
// peak and grows the fleet until its p95 meets the targets. For the same device, format and
// shape the two gave different answers with no word (3 replicas here, 4 in the wizard): the
// wizard's is said beside this one, and Apply makes it the scenario's.
QString CostView::wizardsFleet(const core::Evaluation &e)
{
    const core::Scenario &s = document()->scenario();
    if (!core::isSet(core::peakRequestsPerSecond(s.traffic)))
        return {}; // without traffic the checks size the fleet as evaluate does
    const core::Selection *selection =
        mustCompleteRefresh() ? &document()->selection() : document()->selectionForLiveView();
    if (!selection) { // on a worker: this view catches up when it is in
        markStale();
        return {};
    }
    const core::Candidate *same = core::candidateRunning(*selection, s);
    using F = core::FigureId;
    if (!same || !(same->replicas > e[F::CostReplicas]))
        return {};
    return tr("<p style=\"color:%1\"><b>The wizard sizes this setup at %2 replicas</b> (%3 "
              "devices, %4 a month): %5 keep up with the peak's throughput, but simulated at "
              "the peak their p95 misses a latency target (the Wizard's latency check says by "
              "how much). Apply the wizard's decision to price that fleet here.</p>")
        .arg(style::warning().name(), style::number(same->replicas, 9),
             style::number(same->devices, 9),
             core::isSet(same->monthlyCostUsd)
                 ? fromStd(core::formatUsd(same->monthlyCostUsd)).toHtmlEscaped()
                 : tr("no price"),
             style::number(e[F::CostReplicas], 9));
}

QPointF CostView::costAxisRange() const
{
    return {m_y->min(), m_y->max()};
}

QString CostView::csv() const
{
    QStringList lines{QStringLiteral("series,utilisation_percent,usd_per_million_tokens")};
    for (const QLineSeries *curve : m_curves) {
        if (!curve->isVisible())
            continue;
        for (const QPointF &p : curve->points())
            lines << QStringLiteral("%1,%2,%3")
                         .arg(csvCell(curve->property(kPlainName).toString()))
                         .arg(p.x())
                         .arg(p.y(), 0, 'g', 6);
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace views
