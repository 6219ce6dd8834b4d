// SPDX-License-Identifier: GPL-3.0-or-later
#include "report.h"

#include "decisioncharts.h"
#include "pageflow.h"

#include "views/document/scenariodocument.h"
#include "views/io/atomicwriter.h"
#include "views/load/loadviews.h"
#include "views/memory/memoryview.h"
#include "views/roofline/rooflineview.h"
#include "views/train/trainingview.h"
#include "views/widgets/appearance.h"
#include "views/widgets/lessonlines.h"
#include "views/widgets/offscreen.h"
#include "views/widgets/style.h"
#include "views/wizard/checksview.h"
#include "views/wizard/decisionview.h"

#include "core/calibrate/calibration.h"
#include "core/data/presets.h"
#include "core/decide/outlook.h"
#include "core/decide/selection.h"
#include "core/model/fleet.h"
#include "core/model/parameters.h"
#include "core/model/scenario.h"
#include "core/model/scenarioaccess.h"
#include "core/model/scenarioedits.h"
#include "core/model/weightparts.h"
#include "core/physics/estimateterms.h"
#include "core/physics/evaluation.h"
#include "core/physics/explain.h"
#include "core/physics/loadsim.h"
#include "core/train/trainingplan.h"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QBuffer>
#include <QDate>
#include <QFileInfo>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>

#include <QSvgGenerator>
#include <QTextDocument>

#include <optional>
#include <span>

#include <algorithm>
#include <functional>
#include <memory>
#include <set>

namespace views {

namespace {

QString esc(const std::string &text)
{
    return QString::fromStdString(text).toHtmlEscaped();
}

QString fromView(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

const char *const kStyle =
    "body{font-family:sans-serif;font-size:10pt;color:#222;max-width:60em;margin:auto}"
    "h1{font-size:18pt;margin-bottom:2pt}h2{font-size:13pt;margin-top:14pt}"
    "table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:3px 5px;"
    "vertical-align:top;font-size:9pt}th{background:#eee;text-align:left}"
    ".muted{color:#666}.pass{background:#d5efe6}.warn{background:#fbeccc}"
    ".fail{background:#f6dccc}.na{background:#eee}";

/** The scenario's name as a title: its own words, without a "(device selection)" the report's
 *  heading already says. */
QString titleOf(const core::Scenario &s)
{
    QString name = QString::fromStdString(s.name.empty() ? s.model.name : s.name);
    static const QRegularExpression suffix(
        QStringLiteral("\\s*\\((device selection|capacity decision)\\)\\s*$"),
        QRegularExpression::CaseInsensitiveOption);
    name.remove(suffix);
    return name;
}

QString header(const core::Scenario &s)
{
    return QObject::tr("<h1>%1: capacity decision</h1><p class=\"muted\">%2 &middot; "
                       "Accelerator Explorer %3 &middot; preset data of %4</p>")
        .arg(titleOf(s).toHtmlEscaped(), QDate::currentDate().toString(Qt::ISODate),
             QApplication::applicationVersion(), fromView(core::presetDataDate()));
}

QString usd(double value)
{
    return std::isfinite(value) ? esc(core::formatUsd(value)) : QObject::tr("n/a");
}

QString optionLabel(const core::Candidate &c)
{
    return QObject::tr("%1, %2 weights: %3")
        .arg(esc(c.device.name),
             QString::fromStdString(core::weightFormatsLabel(c.scenario.serving)),
             esc(core::fleetLabel(c)));
}

/** The question the report answers, in words a reader who never saw the app follows: what is
 *  served to whom, how much of it, how fast (issue #42 item 5: the workload first appeared on
 *  page 9). The figures are the load section's, as the checks simulate them. */
QString questionHtml(const core::Scenario &s, const core::Selection &selection)
{
    const QString model = esc(s.model.name);
    if (selection.regime == core::Regime::Training)
        return QObject::tr("<p><b>The question.</b> Which accelerators, and how many, to train "
                           "%1 on.</p>")
            .arg(model);
    const auto setup = core::loadSetup(s);
    if (!setup)
        return QObject::tr("<p><b>The question.</b> Which accelerators, and how many, to serve "
                           "%1 on.</p>")
            .arg(model);
    const core::LoadSetup &l = setup.value();
    const bool peakGiven = std::isfinite(core::peakRequestsPerSecond(s.traffic)) ||
                           s.givenInputs.contains("load.rate_per_second");
    const QString traffic =
        peakGiven ? QString()
                  : QObject::tr(" (no traffic was given: the simulation assumes this rate)");
    return QObject::tr(
               "<p><b>The question.</b> Which accelerators, and how many, to serve the "
               "language model %1 to <b>%2 users at a time</b>, each request a "
               "<b>%3-token prompt</b> answered in <b>about %4 tokens</b>, at <b>%5 a "
               "second</b> at the busiest time%6. The answer must start within <b>%7</b> and "
               "then arrive at <b>%8 tokens a second</b> per user or faster (about reading "
               "speed), on at least %9 copies of the model so that one can fail.</p>")
        .arg(model, style::number(s.serving.concurrentSequences, 9), style::number(l.promptMean, 9),
             style::number(l.outputMean, 9),
             QObject::tr("%1 %2").arg(style::number(l.ratePerSecond, 3),
                                      l.ratePerSecond == 1.0 ? QObject::tr("request")
                                                             : QObject::tr("requests")),
             traffic, esc(core::formatSeconds(s.serving.ttftTargetSeconds)),
             style::number(s.serving.pacingTargetTokensPerSecond, 3),
             style::number(s.wizard.minReplicas, 9));
}

/** The words page 1 uses, for a reader who never saw the app. */
QString glossaryHtml(bool training)
{
    if (training)
        return QObject::tr(
            "<p class=\"muted\"><b>Terms.</b> <i>Token</i>: a piece of a word, about three "
            "quarters of one; a run trains on a budget of them. <i>Device-hour</i>: one "
            "accelerator rented for an hour, what a cloud bills. <i>Data parallel (DP n)</i>: n "
            "copies of the model, each learning from its share of every batch, averaging what they "
            "learned after each step. <i>Tensor parallel (TP n)</i>: each layer's matrices split "
            "across n devices that work on every token together. <i>Pipeline parallel (PP n)</i>: "
            "the layers cut into n stages that pass their work along, idle while the pipeline "
            "fills and drains (the <i>bubble</i>). <i>ZeRO</i>: the optimiser's memory shared out "
            "over the data-parallel copies instead of repeated on each. <i>Micro-batch</i>: the "
            "sequences one device works on at once. <i>MFU</i> (model FLOP utilisation): the "
            "share of the devices' peak arithmetic the run turns into training; 40-60 % is good. "
            "<i>Checkpoint</i>: the run's state saved to storage, so an interrupted run resumes "
            "from there instead of from the start.</p>");
    return QObject::tr(
        "<p class=\"muted\"><b>Terms.</b> <i>Token</i>: a piece of a word, about three quarters "
        "of one. <i>BF16, FP8, INT4, NVFP4 weights</i>: how many bits each of the model's "
        "numbers is stored in (16, 8, 4); fewer bits need less memory and less time, with some "
        "risk to answer quality. <i>Replica</i>: one complete copy of the model serving "
        "requests. <i>TP n</i> (tensor parallel): one copy split across n devices that work on "
        "every request together. <i>KV cache</i>: the memory each conversation keeps of its text "
        "so far. <i>Prefill</i>: reading the prompt, before the answer's first token. "
        "<i>First token</i>: the wait before the answer starts. <i>p95</i>: the time 95 of 100 "
        "requests beat. <i>Colocated</i>: prompt reading and answer writing on the same "
        "devices.</p>");
}

/** Page 1: what to buy, what it costs, what else was considered, what would change it. */
QString executiveSummary(const core::Scenario &s, const core::Selection &selection,
                         const core::Sensitivity &sensitivity, const core::GrowthPlan &growth,
                         core::MemoryUnits units)
{
    const core::Recommendation &r = selection.recommendation;
    const core::Candidate *best = core::recommendedCandidate(selection);
    QString out = QObject::tr("<h2>Executive summary</h2>") + questionHtml(s, selection);
    if (!best) {
        out += QObject::tr("<p><b>No option passes every check.</b> %1</p>").arg(esc(r.flip));
    } else {
        QStringList warned; // the verdict's words: "passes, with warnings" is not "passes"
        for (const core::CheckResult &check : best->checks)
            if (check.status == core::CheckStatus::Warn)
                warned << QStringLiteral("%1 (%2)").arg(
                    fromView(core::checkTitle(check.kind, selection.regime)),
                    esc(core::checkReason(check, *best)));
        // the rule's full reasoning is in "The decision in full": page 1 stays one page
        out += QObject::tr("<p style=\"font-size:13pt\"><b>Recommended: %1.</b></p><p>%2</p>")
                   .arg(optionLabel(*best),
                        warned.isEmpty()
                            ? QObject::tr("It passes every check, without a warning.")
                            : QObject::tr("It fails no check and passes with warnings: %1.")
                                  .arg(warned.join(QStringLiteral("; "))));
        const core::CostSummary c = core::costSummary(*best);
        if (best->trainingPlan && best->trainingPlan->problem.empty()) {
            // the run as a CFO reads it: how many, how long, how much, how risky
            const core::TrainingPlan &plan = *best->trainingPlan;
            out += QObject::tr(
                       "<table><tr><th>Devices</th><th>Time to "
                       "train</th><th>Device-hours</th><th>Cost of "
                       "the run</th><th>Energy</th><th>Interruptions to expect</th><th>MFU</th>"
                       "</tr><tr><td>%1</td><td><b>%2</b></td><td>%3</td><td><b>%4</b></td>"
                       "<td>%5 MWh</td><td>%6</td><td>%7</td></tr></table><p>%8 tokens as %9; a "
                       "checkpoint every %10.</p>")
                       .arg(style::number(plan.devices, 9),
                            esc(core::formatDuration(plan.wallSeconds)),
                            esc(core::formatCount(plan.deviceHours)), usd(plan.usd),
                            style::number(plan.energyKwh / 1000.0, 3),
                            style::number(plan.reliability.expectedInterruptions, 3),
                            QStringLiteral("%1 %").arg(style::number(100.0 * plan.mfu, 3)),
                            esc(core::formatCount(plan.tokens)),
                            esc(core::describeLayout(plan.layout)),
                            esc(core::formatDuration(plan.reliability.intervalSeconds)));
        }
        if (selection.regime == core::Regime::Online) {
            out += QObject::tr("<table><tr><th>Per month</th><th>Per year</th><th>Per million "
                               "tokens</th><th>Hosted API, per million</th><th>Tokens a "
                               "month</th></tr><tr><td><b>%1</b></td><td>%2</td><td>%3</td>"
                               "<td>%4</td><td>%5 M</td></tr></table>")
                       .arg(usd(c.usdPerMonth), usd(c.usdPerYear), usd(c.usdPerMillionTokens),
                            std::isfinite(c.apiUsdPerMillionTokens)
                                ? usd(c.apiUsdPerMillionTokens)
                                : QObject::tr("not compared (no API price given)"),
                            style::number(c.tokensPerMonth / 1e6, 4));
        }
        const bool training = selection.regime == core::Regime::Training;
        const auto shown = core::alternatives(selection);
        std::set<std::string> devices;
        for (const core::Candidate &c : selection.candidates)
            devices.insert(c.deviceId);
        // the table shows some of the devices: say which, so none looks forgotten
        const QString which =
            devices.size() > shown.size()
                ? QObject::tr("<p class=\"muted\">The recommendation and the %1 cheapest other "
                              "devices, each in its best format, of the %2 devices checked; "
                              "every option is in the checks table.</p>")
                      .arg(shown.size() - 1)
                      .arg(devices.size())
                : QString();
        out += QObject::tr("<h3>The options considered</h3>%3<table><tr><th>Option</th><th>%1"
                           "</th><th>Fits (memory to spare)</th><th>%2</th><th>Main "
                           "risk</th></tr>")
                   .arg(training ? QObject::tr("Cost of the run") : QObject::tr("Per month"),
                        training ? QObject::tr("Time to train") : QObject::tr("Latency"), which);
        for (const core::Candidate *option : shown) {
            const core::CheckResult &memory = option->check(core::CheckKind::Memory);
            const core::CheckResult &latency = option->check(core::CheckKind::Latency);
            const double headroom = memory.figure("headroom_bytes");
            const QString fit =
                !std::isfinite(headroom) ? esc(memory.headline)
                : headroom >= 0
                    ? QObject::tr("yes, %1 per device").arg(esc(core::formatBytes(headroom, units)))
                    : QObject::tr("no, short by %1").arg(esc(core::formatBytes(-headroom, units)));
            // under load where the checks simulated the peak (the p95 decides there): page 1
            // quoted the single-request floor, 197.5 ms, beside a checks table of 391.5 ms
            const double p95 = latency.figure("simulated_ttft_p95_seconds");
            const QString speed =
                selection.regime == core::Regime::Training ? esc(latency.headline)
                : std::isfinite(p95)
                    ? QObject::tr("p95 first token %1 at the peak (%2 requests/s); %3 tokens/s "
                                  "per user")
                          .arg(esc(core::formatSeconds(p95)),
                               style::number(latency.figure("simulated_rate_per_second")),
                               style::number(latency.figure("tokens_per_second_per_sequence")))
                    : QObject::tr("first token %1 (one request alone); %2 tokens/s per user")
                          .arg(esc(core::formatSeconds(latency.figure("ttft_seconds"))),
                               style::number(latency.figure("tokens_per_second_per_sequence")));
            out += QStringLiteral("<tr><td>%1%2</td><td>%3</td><td>%4</td><td>%5</td>"
                                  "<td class=\"%6\">%7</td></tr>")
                       .arg(option == best ? QStringLiteral("\u2605 ") : QString(),
                            optionLabel(*option),
                            usd(option->trainingPlan ? option->trainingPlan->usd
                                                     : option->monthlyCostUsd),
                            fit, speed, option->passes ? QString() : QStringLiteral("fail"),
                            esc(core::mainRiskInBrief(*option)));
        }
        out += QStringLiteral("</table>");
        // the recommended run's own caveats (its schedule, a run of minutes priced by the
        // second where clouds bill whole hours)
        if (training && best && best->trainingPlan && !best->trainingPlan->notes.empty()) {
            QStringList notes;
            for (const std::string &note : best->trainingPlan->notes)
                notes << esc(note);
            out += QObject::tr("<p><b>Left out or assumed for this run.</b> %1.</p>")
                       .arg(notes.join(QStringLiteral("; ")));
        }
    }
    if (!r.flip.empty())
        out += QObject::tr("<p><b>What would change the decision.</b> %1</p>").arg(esc(r.flip));
    if (!r.split.empty())
        out += QObject::tr("<p><b>Prefill and decode apart.</b> %1</p>").arg(esc(r.split));
    if (sensitivity.available) {
        // today's inputs make the band; growth is a later month's cost, said beside it (page 1
        // gave $6,847 to $19,564 while the growth row reached $53,801 in month 12)
        QString growthEnd;
        for (const core::TornadoBar &bar : sensitivity.bars)
            if (bar.range.key == "growth" && std::isfinite(bar.costHigh) &&
                bar.costHigh > sensitivity.costHigh)
                growthEnd = QObject::tr(" If traffic grows %1, the month reaches %2 by the "
                                        "growth plan's horizon.")
                                .arg(esc(bar.range.highText), usd(bar.costHigh));
        out += QObject::tr("<p><b>The main uncertainty.</b> %1 Across today's inputs' ranges "
                           "the month costs %2 to %3.%4</p>")
                   .arg(esc(sensitivity.mainUncertainty), usd(sensitivity.costLow),
                        usd(sensitivity.costHigh), growthEnd);
    }
    if (growth.available)
        out += QObject::tr("<p><b>Growth.</b> %1</p>").arg(esc(growth.sentence));
    // the ranking rests on prices: say when they are illustrative, not quotes
    QString prices;
    if (best) {
        const core::Scenario decided = core::decidedScenario(s, selection);
        for (const char *path : {"cost.price_per_hour_usd", "device.price_per_hour_usd"})
            if (core::provenanceOf(decided, path).find("ILLUSTRATIVE") != std::string::npos)
                prices = QObject::tr(" Prices: illustrative public rates, not quotes.");
    }
    const core::Scenario &judged = best ? best->scenario : s;
    QString estimate = esc(core::estimateLabel(judged));
    // a device with no measured runs in the fit says so where its speeds are quoted (issue #43)
    if (const core::ReachInfo reach = core::estimateReach(judged);
        reach.reach == core::EstimateReach::ClassOnly || reach.reach == core::EstimateReach::NoData)
        estimate += QStringLiteral(". ") + esc(reach.text).chopped(1);
    out += (selection.regime == core::Regime::Training
                ? QObject::tr("<p class=\"muted\">Speeds: %1. Estimates rank the options; time a "
                              "few hundred steps of the chosen layout on the real cluster before "
                              "committing to the run.%2</p>")
                : QObject::tr("<p class=\"muted\">Speeds: %1. Estimates rank the options; a load "
                              "test under the real mix must confirm the p95 before "
                              "committing.%2</p>"))
               .arg(estimate, prices);
    return out + glossaryHtml(selection.regime == core::Regime::Training);
}

/** The fleet's money line by line: devices x price -> hour -> month -> year -> tokens ->
 *  cost per million, the hosted API beside it. */
QString costTable(const core::Selection &selection)
{
    const core::Candidate *best = core::recommendedCandidate(selection);
    if (!best || selection.regime != core::Regime::Online)
        return {};
    const core::CostSummary c = core::costSummary(*best);
    auto row = [](const QString &name, const QString &value, const QString &how) {
        return QStringLiteral("<tr><th>%1</th><td style=\"text-align:right\">%2</td>"
                              "<td class=\"muted\">%3</td></tr>")
            .arg(name, value, how);
    };
    QString out = QObject::tr("<h2>Cost</h2><table><tr><th>Item</th><th>Value</th><th>How</th>"
                              "</tr>");
    out += row(QObject::tr("Devices"), style::number(c.devices, 9), esc(c.fleet));
    out += row(QObject::tr("Price per device-hour"), usd(c.pricePerDeviceHour),
               esc(best->check(core::CheckKind::Cost)
                       .summary.substr(0, best->check(core::CheckKind::Cost).summary.find(':'))));
    out += row(QObject::tr("Fleet per hour"), usd(c.usdPerHour), QObject::tr("devices x price"));
    out += row(QObject::tr("Fleet per month"), QStringLiteral("<b>%1</b>").arg(usd(c.usdPerMonth)),
               QObject::tr("x 730 hours: idle hours are paid too"));
    out += row(QObject::tr("Fleet per year"), usd(c.usdPerYear), QObject::tr("x 12 months"));
    out += row(QObject::tr("Generated tokens a month"),
               QObject::tr("%1 M").arg(style::number(c.tokensPerMonth / 1e6, 4)),
               c.fromTraffic ? QObject::tr("the traffic given; the fleet busy %1 % of the time")
                                   .arg(style::number(c.utilisation * 100, 3))
                             : QObject::tr("%1 % of the fleet's capacity (no traffic given)")
                                   .arg(style::number(c.utilisation * 100, 3)));
    out += row(QObject::tr("Per million tokens"), usd(c.usdPerMillionTokens),
               QObject::tr("month / tokens"));
    out +=
        row(QObject::tr("Hosted API, same requests"),
            std::isfinite(c.apiUsdPerMonth)
                ? QObject::tr("%1 a month (%2 per million)")
                      .arg(usd(c.apiUsdPerMonth), usd(c.apiUsdPerMillionTokens))
                : QObject::tr("not compared"),
            std::isfinite(c.apiUsdPerMonth) ? QObject::tr("input and output priced apart")
                                            : QObject::tr("no hosted-API price in the scenario"));
    out += QStringLiteral("</table>");
    return out;
}

QString sensitivityHtml(const core::Sensitivity &s)
{
    if (!s.available)
        return QObject::tr("<h2>Sensitivity</h2><p>%1.</p>").arg(esc(s.why));
    QString out = QObject::tr("<h2>Sensitivity</h2><p>For %1: each input moved alone to each end "
                              "of its range, the checks re-run (the shape may change with it). "
                              "The binding check is %2, %3 to spare.</p>")
                      .arg(esc(s.option), esc(s.baseMargin.label),
                           esc(core::formatNumber(s.baseMargin.value * 100, 3) + " %"));
    out +=
        QObject::tr(
            "<table><tr><th></th><th>Low</th><th>Base</th><th>High</th></tr>"
            "<tr><th>Monthly cost (any one input)</th><td>%1</td><td>%2</td><td>%3</td>"
            "</tr><tr><th>Today's fleet's capacity, tokens a month at 100 % busy (efficiency)</th>"
            "<td>%4 M</td><td>%5 M</td><td>%6 M</td></tr></table>")
            .arg(usd(s.costLow), usd(s.baseCost), usd(s.costHigh),
                 style::number(s.capacityLow / 1e6, 4), style::number(s.capacityBase / 1e6, 4),
                 style::number(s.capacityHigh / 1e6, 4));
    out += QObject::tr("<table><tr><th>Input</th><th>Low end</th><th>High end</th><th>Month at "
                       "low</th><th>Month at high</th><th>Range from</th></tr>");
    for (const core::TornadoBar &bar : s.bars)
        out +=
            QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4%5</td><td>%6%7</td>"
                           "<td class=\"muted\">%8</td></tr>")
                .arg(esc(bar.range.label), esc(bar.range.lowText), esc(bar.range.highText),
                     usd(bar.costLow), bar.passesLow ? QString() : QObject::tr(" (fails a check)"),
                     usd(bar.costHigh),
                     bar.passesHigh ? QString() : QObject::tr(" (fails a check)"),
                     // the scenario's own range in words, not its file's key (issue #42)
                     bar.range.origin.rfind("sensitivity.", 0) == 0
                         ? QObject::tr("the scenario's range for it")
                         : esc(bar.range.origin));
    out += QStringLiteral("</table>");
    return out;
}

QString growthHtml(const core::GrowthPlan &g)
{
    if (!g.available)
        return QObject::tr("<h2>Growth</h2><p>%1.</p>").arg(esc(g.why));
    QString out = QObject::tr("<h2>Growth</h2><p>%1</p>").arg(esc(g.sentence));
    if (!g.addReplicaMonths.empty()) {
        out += QObject::tr("<table><tr><th>Month</th><th>Demand vs today</th><th>Replicas</th>"
                           "<th>Per month</th></tr>");
        for (const int m : g.addReplicaMonths) {
            const core::GrowthMonth &month = g.months[std::size_t(m)];
            out += QStringLiteral("<tr><td>%1</td><td>x%2</td><td>%3</td><td>%4</td></tr>")
                       .arg(m)
                       .arg(style::number(month.demandFactor, 3), style::number(month.replicas, 9),
                            usd(month.usdPerMonth));
        }
        out += QStringLiteral("</table>");
    }
    return out;
}

/** Every warning and failure with its reason, so no reader is sent into the app: one line per
 *  distinct reason, with the options it applies to. */
QString reasonsHtml(const core::Selection &selection)
{
    struct Reason
    {
        QString text;
        QStringList options;
    };
    QList<Reason> reasons;
    for (const core::Candidate &c : selection.candidates) {
        const QString option = QObject::tr("%1 %2").arg(
            esc(c.device.name),
            QString::fromStdString(core::weightFormatsLabel(c.scenario.serving)));
        for (const core::CheckResult &check : c.checks) {
            const std::string why = core::checkReason(check, c);
            if (why.empty())
                continue;
            const QString text =
                QStringLiteral("<b>%1</b> %2: %3")
                    .arg(fromView(core::checkTitle(check.kind, selection.regime)),
                         check.status == core::CheckStatus::Fail ? QObject::tr("fails")
                                                                 : QObject::tr("warns"),
                         esc(why));
            auto it = std::find_if(reasons.begin(), reasons.end(),
                                   [&](const Reason &r) { return r.text == text; });
            if (it == reasons.end())
                reasons.append({text, {option}});
            else
                it->options << option;
        }
    }
    if (reasons.isEmpty())
        return {};
    QString out = QObject::tr("<h3>Why each warning and failure</h3><ul>");
    for (const Reason &r : reasons)
        out += QStringLiteral("<li>%1 <span class=\"muted\">(%2)</span></li>")
                   .arg(r.text, r.options.size() == qsizetype(selection.candidates.size())
                                    ? QObject::tr("every option")
                                    : r.options.join(QStringLiteral(", ")));
    return out + QStringLiteral("</ul>");
}

QString workload(const core::Scenario &s, core::MemoryUnits units)
{
    auto row = [](const QString &name, const QString &value) {
        return QStringLiteral("<tr><th>%1</th><td>%2</td></tr>").arg(name, value);
    };
    const auto n = [](double v) { return style::number(v, 9); };
    QString formats;
    for (core::NumericFormat f : s.wizard.formats)
        formats +=
            (formats.isEmpty() ? QString() : QStringLiteral(", ")) + fromView(core::formatLabel(f));
    QString out = QObject::tr("<h2>Workload</h2><table>");
    out += row(QObject::tr("Model"),
               QObject::tr("%1 (%2 parameters)")
                   .arg(esc(s.model.name),
                        QString::fromStdString(core::formatNumber(s.model.parameters, 4))));
    if (s.wizard.regime == core::Regime::Training) {
        // a training run's inputs, not a serving fleet's (issue #45)
        const core::TrainingConfig &t = s.training;
        auto given = [&](double value, const QString &text) {
            return core::isSet(value) ? text : QObject::tr("none");
        };
        out += row(QObject::tr("Regime"), QObject::tr("training"));
        out += row(QObject::tr("Tokens to train on"),
                   core::isSet(t.tokens) ? esc(core::formatCount(t.tokens))
                                         : QObject::tr("20 per parameter (none given)"));
        out += row(QObject::tr("Sequence length"), n(t.sequenceLength));
        out += row(
            QObject::tr("Deadline"),
            given(t.deadlineDays, QObject::tr("%1 days").arg(style::number(t.deadlineDays, 4))));
        out += row(QObject::tr("Budget"), given(t.budgetUsd, usd(t.budgetUsd)));
        out += row(QObject::tr("Matmul format"), t.format == core::NumericFormat::Fp8
                                                     ? QObject::tr("FP8 (attention in BF16)")
                                                     : QObject::tr("BF16"));
        out += row(QObject::tr("Layout"),
                   QObject::tr("each option's fastest within its device count: tensor, pipeline, "
                               "data and context parallel degrees, ZeRO stage, recomputation and "
                               "micro-batch searched"));
        out += row(QObject::tr("Network per device"),
                   esc(core::formatBandwidth(t.networkGbPerSecond * core::kGB)));
        out += row(QObject::tr("Failures and checkpoints"),
                   QObject::tr("one interruption per %1 device-hours; a restart takes %2; each "
                               "device writes its checkpoint shard at %3, the storage takes %4")
                       .arg(esc(core::formatCount(t.deviceMtbfHours)),
                            esc(core::formatDuration(t.restartSeconds)),
                            esc(core::formatBandwidth(t.checkpointGbPerSecond * core::kGB)),
                            esc(core::formatBandwidth(t.storageGbPerSecond * core::kGB))));
        out += row(QObject::tr("Prices"),
                   QObject::tr("each device's own price per device-hour (its preset's dated "
                               "on-demand figure, or a negotiated rate); a device without one is "
                               "never given another's"));
        return out + QStringLiteral("</table>");
    }
    out += row(QObject::tr("Regime"),
               s.wizard.regime == core::Regime::Online     ? QObject::tr("online inference")
               : s.wizard.regime == core::Regime::Training ? QObject::tr("training")
                                                           : QObject::tr("edge inference"));
    out += row(QObject::tr("Weight formats tried"), formats);
    out += row(QObject::tr("KV-cache format"), fromView(core::formatLabel(s.serving.kvFormat)));
    out += row(QObject::tr("Peak concurrent sequences"), n(s.serving.concurrentSequences));
    out += row(QObject::tr("Tokens per sequence"),
               QObject::tr("%1 (%2 prompt + %3 generated)")
                   .arg(n(s.serving.contextTokens), n(s.serving.promptTokens),
                        n(s.serving.contextTokens - s.serving.promptTokens)));
    out += row(QObject::tr("Targets"),
               QObject::tr("first token within %1; at least %2 tokens/s per user")
                   .arg(esc(core::formatSeconds(s.serving.ttftTargetSeconds)),
                        style::number(s.serving.pacingTargetTokensPerSecond)));
    out += row(QObject::tr("Runtime and workspace"),
               esc(core::formatBytes(s.serving.overheadGb * core::kGB, units)));
    out += row(QObject::tr("Prices"),
               QObject::tr("each device's own price per device-hour (its preset's dated on-demand "
                           "figure, or a negotiated rate); a device without one is never given "
                           "another's"));
    out += row(
        QObject::tr("Utilisation"),
        core::isSet(s.traffic.requestsPerDay)
            ? QObject::tr("from the traffic: %1 requests a day").arg(n(s.traffic.requestsPerDay))
            : QObject::tr("%1 % of the fleet's capacity (no traffic given)")
                  .arg(style::number(s.cost.utilisation * 100)));
    out += row(QObject::tr("Replicas, at least"), n(s.wizard.minReplicas));
    out += row(QObject::tr("Data location"), s.wizard.dataOnPremises
                                                 ? QObject::tr("must stay on our network")
                                                 : QObject::tr("a hosted API may be used"));
    out += QStringLiteral("</table>");
    return out;
}

QString checksTable(const core::Selection &selection)
{
    return QObject::tr("<h2>The six checks</h2>") + ChecksView::tableHtml(selection) +
           reasonsHtml(selection);
}

/** A preset's source note in a reader's words: the data files' keys it quotes ("memory_gb is
 *  decimal GB", "_name_or_path") read as code names in a CFO's report. */
QString readableSource(QString source)
{
    static const std::pair<const char *, const char *> words[] = {
        {"_name_or_path", "model id"},
        {"params_computed", "parameters counted"},
        {"memory_gb", "memory"},
        {"bandwidth_gb_s", "bandwidth"},
        {"price_per_hour_usd", "price per hour"},
        {"power_w", "power"},
        {"peak_tflops", "peak"}};
    for (const auto &[key, word] : words)
        source.replace(QLatin1String(key), QLatin1String(word));
    return source;
}

QString assumptions(const core::Scenario &s)
{
    // a training decision's inputs: the run's, not a serving fleet's
    static const char *const trainingPaths[] = {"model.parameters",
                                                "model.layers",
                                                "model.hidden_size",
                                                "device.memory_gb",
                                                "device.bandwidth_gb_s",
                                                "device.price_per_hour_usd",
                                                "device.power_w",
                                                "training.tokens",
                                                "training.sequence_length",
                                                "training.deadline_days",
                                                "training.budget_usd",
                                                "training.network_gb_s",
                                                "training.device_mtbf_hours",
                                                "training.checkpoint_gb_s",
                                                "training.storage_gb_s",
                                                "training.restart_s",
                                                "cost.price_per_hour_usd",
                                                "serving.compute_efficiency"};
    static const char *const servingPaths[] = {"model.parameters",
                                               "model.layers",
                                               "model.kv_heads",
                                               "model.head_dim",
                                               "device.memory_gb",
                                               "device.bandwidth_gb_s",
                                               "device.price_per_hour_usd",
                                               "device.power_w",
                                               "serving.concurrent_sequences",
                                               "serving.context_tokens",
                                               "serving.prompt_tokens",
                                               "serving.overhead_gb",
                                               "serving.ttft_target_s",
                                               "serving.pacing_target_tokens_s",
                                               "cost.price_per_hour_usd",
                                               "cost.utilisation",
                                               "serving.bandwidth_efficiency",
                                               "serving.compute_efficiency"};
    const bool training = s.wizard.regime == core::Regime::Training;
    QString out = QObject::tr("<h2>Assumptions</h2><table><tr><th>Input</th><th>Value</th>"
                              "<th>Kind</th><th>Source</th><th>Date</th></tr>");
    // a date, not a range of years ("2025-2026" read as "2025-20")
    static const QRegularExpression dated(
        QStringLiteral("\\b(20\\d\\d-(?:0[1-9]|1[0-2])(?:-(?:0[1-9]|[12]\\d|3[01]))?)(?!\\d)"));
    const auto pathList = training ? std::span<const char *const>(trainingPaths)
                                   : std::span<const char *const>(servingPaths);
    for (const char *path : pathList) {
        // one price: the device's where the cost section only follows it
        if (std::string_view(path) == "cost.price_per_hour_usd" && training &&
            core::numberAt(s, "device.price_per_hour_usd") == core::numberAt(s, path))
            continue;
        const auto value = core::numberAt(s, path);
        if (!value || !std::isfinite(*value))
            continue;
        // the traffic sets the utilisation: one figure, the cost table's, not the unused input
        if (std::string_view(path) == "cost.utilisation" && core::isSet(s.traffic.requestsPerDay))
            continue;
        QString source = QString::fromStdString(core::provenanceOf(s, path));
        // a profile's estimate sets the efficiencies the figures use: those, not the unused
        // input (the table said 1 and 1, "the lesson's illustration", beside formulas with
        // 0.707 and 0.723)
        const core::EstimateTerms terms = core::estimateTerms(s);
        const bool bandwidthPath = std::string_view(path) == "serving.bandwidth_efficiency";
        const bool computePath = std::string_view(path) == "serving.compute_efficiency";
        std::optional<double> shown = value;
        if ((bandwidthPath || computePath) && terms.mode != core::EstimateMode::SpeedOfLight) {
            shown = bandwidthPath ? terms.bandwidthEfficiency : terms.computeEfficiency;
            source = QString::fromStdString(core::estimateLabel(s)) +
                     (terms.mode == core::EstimateMode::Calibrated
                          ? QObject::tr(" estimate, fitted to your measurements")
                          : QObject::tr(" estimate, fitted to published runs"));
        }
        const QString kind =
            source.contains(QLatin1String("estimate, fitted")) ? QObject::tr("measurement")
            : source.contains(QLatin1String("scenario file")) ||
                    source.contains(QLatin1String("command line"))
                ? QObject::tr("your input")
            : source.contains(QLatin1String("app assumption")) ? QObject::tr("the app's assumption")
            : source.contains(QLatin1String("lesson"), Qt::CaseInsensitive)
                ? QObject::tr("the lesson's illustration")
            : source.contains(QLatin1String("ILLUSTRATIVE"))
                ? QObject::tr("illustrative third-party price")
            : source.contains(QLatin1String("measured"), Qt::CaseInsensitive)
                ? QObject::tr("measurement")
                : QObject::tr("datasheet or published reference");
        source = readableSource(source);
        const auto match = dated.match(source);
        const core::ParameterInfo *info = core::findParameter(path);
        out += QStringLiteral("<tr><td>%1</td><td>%2 %3</td><td>%4</td><td>%5</td><td>%6</td></tr>")
                   .arg(info ? fromView(info->name) : QString::fromLatin1(path),
                        QString::fromStdString(core::formatNumber(*shown, 4)),
                        info ? fromView(info->unit) : QString(), kind, source.toHtmlEscaped(),
                        match.hasMatch()                    ? match.captured(1)
                        : kind == QObject::tr("your input") ? QStringLiteral("\u2013")
                                                            : fromView(core::presetDataDate()));
    }
    out += QStringLiteral("</table>");
    return out;
}

QString formulas(const core::Scenario &s, core::MemoryUnits units,
                 const core::TrainingPlan *training)
{
    using core::FigureId;
    QString out = QObject::tr("<h2>Formulas, with the numbers put in</h2>");
    if (training) {
        // a training decision's chain from the step to the bill, not a serving fleet's
        for (const core::TrainingFormula &x : core::explainTraining(*training)) {
            out += QStringLiteral("<p><b>%1</b>: <code>%2</code><br>= %3")
                       .arg(esc(x.label), esc(x.formula), esc(x.substituted));
            if (!x.note.empty())
                out += QStringLiteral("<br><span class=\"muted\">%1</span>").arg(esc(x.note));
            out += QStringLiteral("</p>");
        }
        return out;
    }
    const core::Evaluation e = core::evaluate(s);
    for (const FigureId id :
         {FigureId::KvBytesPerSequence, FigureId::KvBytesTotal, FigureId::ServingBytesTotal,
          FigureId::HeadroomBytes, FigureId::DecodeBytesPerStep, FigureId::DecodeStepSeconds,
          FigureId::DecodeTokensPerSecondPerSequence, FigureId::PrefillTtftSeconds,
          FigureId::CostUsdPerMillionTokens}) {
        const auto x = core::explain(s, e, id, units);
        if (!x)
            continue;
        out += QStringLiteral("<p><b>%1</b>: <code>%2</code><br>%3")
                   .arg(fromView(core::figureInfo(id).label), esc(x->formula), esc(x->substituted));
        if (!x->note.empty())
            out += QStringLiteral("<br><span class=\"muted\">%1</span>").arg(esc(x->note));
        out += QStringLiteral("</p>");
    }
    return out;
}

struct Parts
{
    QString summary; ///< page 1: the executive summary
    QString money;   ///< the cost table, the sensitivity's tables
    QString growth;  ///< the growth sentence and its table
    QString checks;  ///< the checks table and every warning's reason (a landscape page)
    QString charts;  ///< caption for the roofline and memory charts
    QString tail;    ///< workload, decision in full, assumptions, formulas, footer
    core::Sensitivity sensitivity;
    core::GrowthPlan growthPlan;
};

/** The recommended run of a training decision, or null. */
const core::TrainingPlan *trainingPlanOf(const core::Selection &selection)
{
    const core::Candidate *best = core::recommendedCandidate(selection);
    return best && best->trainingPlan && best->trainingPlan->problem.empty() ? &*best->trainingPlan
                                                                             : nullptr;
}

Parts parts(const core::Scenario &scenario, core::MemoryUnits units,
            const core::Selection &selection)
{
    Parts p;
    const core::Scenario d = core::decidedScenario(scenario, selection);
    p.sensitivity = core::sensitivity(scenario, selection);
    p.growthPlan = core::growthPlan(scenario, selection);
    p.summary =
        header(d) + executiveSummary(scenario, selection, p.sensitivity, p.growthPlan, units);
    const bool training = selection.regime == core::Regime::Training;
    // a serving fleet's month and traffic: a training run has neither (its cost, days and
    // risks are on page 1 and in the formulas)
    p.money = training ? QString() : costTable(selection) + sensitivityHtml(p.sensitivity);
    p.growth = training ? QString() : growthHtml(p.growthPlan);
    if (training)
        p.sensitivity.available = false;
    if (!training && !(p.growthPlan.growthPerMonth > 0)) { // one sentence, no chart
        p.money += p.growth;
        p.growth.clear();
    }
    p.checks = checksTable(selection);
    p.charts = selection.regime == core::Regime::Training
                   ? QObject::tr("<h2>Roofline and the training step, as decided</h2><p "
                                 "class=\"muted\">The recommended device and layout: the step's "
                                 "largest matmul on the roofline; one optimiser step as the "
                                 "busiest device spends it, and what that device holds.</p>")
                   : QObject::tr("<h2>Roofline and memory, as decided</h2><p class=\"muted\">The "
                                 "recommended device and format applied to the workload.</p>");
    p.tail = workload(scenario, units) + QObject::tr("<h2>The decision in full</h2>") +
             DecisionView::decisionHtml(selection) + assumptions(d) +
             formulas(d, units, trainingPlanOf(selection)) +
             QObject::tr("<p class=\"muted\">Made with Accelerator Explorer %1 from the lesson "
                         "\"AI accelerators\"; preset data of %2.</p>")
                 .arg(QApplication::applicationVersion(), fromView(core::presetDataDate()));
    // a stakeholder's report cites no lesson lines ("(l.220)": the app's teaching aid)
    for (QString *part : {&p.summary, &p.money, &p.growth, &p.checks, &p.charts, &p.tail})
        *part = withoutLessonLines(*part);
    return p;
}

/** The two charts, laid out off screen on the decided scenario: the figures alone, a serving
 *  decision's memory chart without the training bar. */
struct Charts
{
    ScenarioDocument document;
    std::unique_ptr<View> roofline;
    std::unique_ptr<MemoryView> memory;
    std::unique_ptr<LoadCurveView> load; ///< latency against offered load (issue #26)
    /// a training decision: the step and one device's memory, in place of the memory bars and
    /// the load curve (a run has no requests to queue)
    std::unique_ptr<TrainingView> training;

    Charts(const core::Scenario &scenario, core::MemoryUnits units)
    {
        document.reset(scenario);
        document.setUnits(units);
        document.flush();
        roofline = std::make_unique<RooflineView>(&document);
        layOutOffscreen(*roofline, QSize(1400, 720));
        if (scenario.wizard.regime == core::Regime::Training) {
            training = std::make_unique<TrainingView>(&document);
            layOutOffscreen(*training, QSize(1400, 720));
            return;
        }
        memory = std::make_unique<MemoryView>(&document);
        memory->setServingOnly(true);
        load = std::make_unique<LoadCurveView>(&document);
        // the curve first: it simulates on a worker while the report is written
        layOutOffscreen(*load, QSize(1400, 720));
        load->startSimulation();
        layOutOffscreen(*memory, QSize(1400, 720));
    }

    /** The second figure beside the roofline: the memory bars, or a training plan's step. */
    View &second() const
    {
        return training ? static_cast<View &>(*training) : static_cast<View &>(*memory);
    }

    /** The load curve's caption: what the simulation found, in the view's own words. */
    QString loadCaption()
    {
        load->figureWidget(); // finishes the simulation
        return QObject::tr("<h2>Latency under load, as decided</h2><p>%1</p>")
            .arg(load->summaryHtml());
    }
};

/** The size the report's figures are laid out at (logical pixels). */
constexpr QSize kChartSize(1000, 460);
constexpr QSize kDecisionFigureSize(1000, 420);

/** One figure as inline SVG, drawn by `paint` into its logical size. */
template <typename Paint> QString inlineSvg(QSize size, const QString &title, Paint paint)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(), size));
    svg.setTitle(title);
    QPainter painter(&svg);
    paint(painter, QRectF(QPointF(), QSizeF(size)));
    painter.end();
    QString text = QString::fromUtf8(buffer.data());
    const qsizetype start = text.indexOf(QLatin1String("<svg"));
    text = start >= 0 ? text.mid(start) : text; // drop the XML prologue: it is inline
    // scale with the page
    text.replace(
        QRegularExpression(QStringLiteral("<svg([^>]*) width=\"[^\"]*\" height=\"[^\"]*\"")),
        QStringLiteral("<svg\\1 style=\"width:100%;height:auto\""));
    return QStringLiteral("<figure>") + text + QStringLiteral("</figure>");
}

QString chartSvg(View &view)
{
    return inlineSvg(kChartSize, view.title(), [&view](QPainter &painter, const QRectF &target) {
        view.renderFigure(painter, target, kChartSize);
    });
}

bool writeHtml(const core::Scenario &scenario, core::MemoryUnits units, const QString &path,
               QString *error)
{
    const core::Selection selection = core::selectDevice(scenario);
    const core::Scenario d = core::decidedScenario(scenario, selection);
    Charts charts(d, units); // starts the load curve, which runs beside the rest
    const Parts p = parts(scenario, units, selection);
    QString html = QStringLiteral("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>%1"
                                  "</title><style>%2</style></head><body>")
                       .arg(QObject::tr("Capacity decision: %1").arg(titleOf(d).toHtmlEscaped()),
                            QLatin1String(kStyle));
    html += p.summary + p.money;
    if (p.sensitivity.available) {
        for (const TornadoMeasure measure :
             {TornadoMeasure::MonthlyCost, TornadoMeasure::BindingMargin})
            html += inlineSvg(kDecisionFigureSize, QObject::tr("Sensitivity"),
                              [&](QPainter &painter, const QRectF &target) {
                                  paintTornado(painter, target, p.sensitivity, measure);
                              });
    }
    html += p.growth;
    if (p.growthPlan.available && p.growthPlan.growthPerMonth > 0)
        html += inlineSvg(kDecisionFigureSize, QObject::tr("Growth"),
                          [&](QPainter &painter, const QRectF &target) {
                              paintGrowth(painter, target, p.growthPlan);
                          });
    html += p.checks + p.charts + chartSvg(*charts.roofline) + chartSvg(charts.second());
    if (charts.load)
        html += charts.loadCaption() + chartSvg(*charts.load);
    html += p.tail + QStringLiteral("</body></html>\n");
    return writeAtomically(path, html.toUtf8(), error);
}

QRectF paintArea(const QPdfWriter &pdf)
{
    return QRectF(QPointF(), QSizeF(pdf.pageLayout().paintRectPixels(pdf.resolution()).size()));
}

/** `html` laid out on the PDF's pages as drawFlow lays it out: at `scale` of its size (text
 *  that far smaller), one long page cut at `starts` (in the document's own units). */
struct Flow
{
    double scale = 1.0;
    QList<double> starts;
};

Flow layOutFlow(QTextDocument &doc, QPdfWriter &pdf, const QString &html)
{
    doc.documentLayout()->setPaintDevice(&pdf); // points at the PDF's resolution
    doc.setDefaultStyleSheet(QLatin1String(kStyle));
    doc.setHtml(html);
    doc.setDocumentMargin(0);
    // one long page: pageStarts() chooses the page breaks (Qt's own cut lines in lists and
    // table rows in two)
    const QSizeF area = paintArea(pdf).size();
    auto at = [&](double scale) {
        doc.setTextWidth(area.width() / scale);
        return Flow{scale, pageStarts(doc, area.height() / scale)};
    };
    Flow flow = at(1.0);
    // A last page holding a few lines (page 2 of a summary with four lines of its glossary, a
    // page of two bullets after the checks table) is pulled back by type up to a tenth smaller.
    const double lastFill = (doc.size().height() - flow.starts.last()) / area.height();
    if (flow.starts.size() > 1 && lastFill < 0.25) {
        for (const double scale : {0.95, 0.9}) {
            Flow smaller = at(scale);
            if (smaller.starts.size() < flow.starts.size())
                return smaller;
        }
        flow = at(1.0);
    }
    return flow;
}

/** An A4 writer with the report's margins and resolution. */
void setUpPages(QPdfWriter &pdf)
{
    pdf.setPageSize(QPageSize(QPageSize::A4));
    pdf.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
    pdf.setResolution(200); // a page about as wide as the charts: drawn near 1:1, vector
}

/** Lays `html` out at the page width and draws it page by page. */
void drawFlow(QPainter &painter, QPdfWriter &pdf, const QString &html, bool newPageFirst,
              QPageLayout::Orientation orientation = QPageLayout::Portrait)
{
    if (newPageFirst) {
        pdf.setPageOrientation(orientation);
        pdf.newPage();
    }
    const QRectF area = paintArea(pdf);
    QTextDocument doc;
    const Flow flow = layOutFlow(doc, pdf, html);
    const QList<double> &starts = flow.starts;
    for (qsizetype i = 0; i < starts.size(); ++i) {
        if (i > 0)
            pdf.newPage();
        const double top = starts[i];
        const double bottom = i + 1 < starts.size() ? starts[i + 1] : doc.size().height();
        painter.save();
        painter.scale(flow.scale, flow.scale);
        painter.translate(0, -top);
        doc.drawContents(&painter, QRectF(0, top, area.width() / flow.scale, bottom - top));
        painter.restore();
    }
}

/** A figure painted at its logical `size`, scaled into `target` (vector on the PDF). */
template <typename Paint>
void paintScaled(QPainter &painter, const QRectF &target, QSize size, Paint paint)
{
    painter.save();
    painter.translate(target.topLeft());
    painter.scale(target.width() / size.width(), target.height() / size.height());
    paint(painter, QRectF(QPointF(), QSizeF(size)));
    painter.restore();
}

/** A page of its own: `html` at the top, then each figure in turn at the page's width (or
 *  narrower, to keep its aspect), all of them sharing what height the text leaves. */
void drawFigurePage(QPainter &painter, QPdfWriter &pdf, const QString &html, QSize figureSize,
                    const QList<std::function<void(QPainter &, const QRectF &)>> &figures)
{
    pdf.setPageOrientation(QPageLayout::Portrait);
    pdf.newPage();
    const QRectF area = paintArea(pdf);
    QTextDocument caption;
    caption.documentLayout()->setPaintDevice(&pdf);
    caption.setDefaultStyleSheet(QLatin1String(kStyle));
    caption.setHtml(html);
    caption.setTextWidth(area.width());
    caption.drawContents(&painter);
    const double top = caption.size().height() + 12;
    const double gap = 24;
    const double each = std::max(1.0, (area.height() - top - gap * figures.size()) /
                                          std::max<qsizetype>(1, figures.size()));
    const double aspect = double(figureSize.height()) / figureSize.width();
    const double height = std::min(each, area.width() * aspect);
    const double width = height / aspect;
    for (qsizetype i = 0; i < figures.size(); ++i) {
        const QRectF target((area.width() - width) / 2, top + i * (height + gap), width, height);
        paintScaled(painter, target, figureSize, figures[i]);
    }
}

bool writePdf(const core::Scenario &scenario, core::MemoryUnits units, const QString &path,
              QString *error)
{
    const core::Selection selection = core::selectDevice(scenario);
    const core::Scenario d = core::decidedScenario(scenario, selection);
    Charts charts(d, units); // starts the load curve, which runs beside the rest
    const Parts p = parts(scenario, units, selection);
    return writeAtomically(
        path,
        [&](QIODevice &device, QString *) {
            QPdfWriter pdf(&device);
            pdf.setTitle(QObject::tr("Capacity decision: %1").arg(titleOf(d)));
            pdf.setCreator(QStringLiteral("Accelerator Explorer ") +
                           QApplication::applicationVersion());
            setUpPages(pdf);
            QPainter painter;
            if (!painter.begin(&pdf))
                return false;
            drawFlow(painter, pdf, p.summary, false);
            if (!p.money.isEmpty()) // a training run has no month to tabulate
                drawFlow(painter, pdf, p.money, true);
            if (p.sensitivity.available)
                drawFigurePage(
                    painter, pdf, QObject::tr("<h2>Sensitivity, drawn</h2>"), kDecisionFigureSize,
                    {[&](QPainter &out, const QRectF &target) {
                         paintTornado(out, target, p.sensitivity, TornadoMeasure::MonthlyCost);
                     },
                     [&](QPainter &out, const QRectF &target) {
                         paintTornado(out, target, p.sensitivity, TornadoMeasure::BindingMargin);
                     }});
            if (p.growthPlan.available && p.growthPlan.growthPerMonth > 0)
                drawFigurePage(painter, pdf, p.growth, kDecisionFigureSize,
                               {[&](QPainter &out, const QRectF &target) {
                                   paintGrowth(out, target, p.growthPlan);
                               }});
            else if (!p.growth.isEmpty())
                drawFlow(painter, pdf, p.growth, true);
            drawFlow(painter, pdf, p.checks, true, QPageLayout::Landscape); // nine columns
            // the charts: one page, both vector, the figures alone
            drawFigurePage(painter, pdf, p.charts, kChartSize,
                           {[&](QPainter &out, const QRectF &target) {
                                charts.roofline->renderFigure(out, target, kChartSize);
                            },
                            [&](QPainter &out, const QRectF &target) {
                                charts.second().renderFigure(out, target, kChartSize);
                            }});
            if (charts.load)
                drawFigurePage(painter, pdf, charts.loadCaption(), kChartSize,
                               {[&](QPainter &out, const QRectF &target) {
                                   charts.load->renderFigure(out, target, kChartSize);
                               }});
            drawFlow(painter, pdf, p.tail, true);
            return painter.end();
        },
        error);
}

} // namespace

QString reportHtml(const core::Scenario &scenario, core::MemoryUnits units)
{
    const core::Selection selection = core::selectDevice(scenario);
    const Parts p = parts(scenario, units, selection);
    return p.summary + p.money + p.growth + p.checks + p.charts + p.tail;
}

int reportSummaryPages(const core::Scenario &scenario, core::MemoryUnits units)
{
    const PrintAppearance printable;
    const core::Selection selection = core::selectDevice(scenario);
    const Parts p = parts(scenario, units, selection);
    QBuffer buffer; // laid out, never written
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter pdf(&buffer);
    setUpPages(pdf);
    QTextDocument doc;
    return int(layOutFlow(doc, pdf, p.summary).starts.size());
}

bool writeReport(const core::Scenario &scenario, core::MemoryUnits units, const QString &path,
                 QString *error)
{
    const PrintAppearance printable; // paper is white whatever the screen's theme
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QStringLiteral("html") || suffix == QStringLiteral("htm"))
        return writeHtml(scenario, units, path, error);
    if (suffix == QStringLiteral("pdf"))
        return writePdf(scenario, units, path, error);
    if (error)
        *error = QObject::tr("%1: a report is .pdf or .html").arg(path);
    return false;
}

} // namespace views
