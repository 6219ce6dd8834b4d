// SPDX-License-Identifier: GPL-3.0-or-later
// Issue #25: the decision's cost summary, the tornado (each end of each range re-runs the checks)
// and the growth plan, with the figures worked out by hand for support-assistant: 40 users on
// the 48 GB lesson accelerator at $4 a device-hour, 2 replicas of 1 device, 70 % busy.

#include "testsupport.h"

#include "core/calibrate/calibration.h"
#include "core/data/scenarioio.h"
#include "core/decide/outlook.h"
#include "core/decide/selection.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>

class Outlook : public QObject
{
    Q_OBJECT

private slots:
    void costSummaryIsTheChecksOwn();
    void tornadoEndsRecomputeTheChecks();
    void efficiencyRangeComesFromTheEstimate();
    void efficiencyEndsMoveATypicalFleet();
    void growthPlanRunsOutWhenWorkedOutByHand();
    void noGrowthKeepsTodaysFleet();
    void growthBeyondAnyFleetEndsInAnswer();
    void rangesMustRunLowToHigh();
    void noRecommendationSaysWhy();
};

namespace {

const core::TornadoBar &barOf(const core::Sensitivity &s, const char *key)
{
    for (const core::TornadoBar &bar : s.bars)
        if (bar.range.key == key)
            return bar;
    qFatal("no bar %s", key);
}

} // namespace

// 2 devices x $4 x 730 h = $5,840 a month, x 12 = $70,080 a year; the tokens a month and the cost
// per million are the cost check's figures, the same the wizard's table shows.
void Outlook::costSummaryIsTheChecksOwn()
{
    const core::Scenario s = testsupport::loadScenario(QStringLiteral("support-assistant"));
    const core::Selection selection = core::selectDevice(s);
    const core::Candidate *best = core::recommendedCandidate(selection);
    QVERIFY(best);
    const core::CostSummary c = core::costSummary(*best);
    QVERIFY(c.priced);
    QCOMPARE(c.devices, 2.0);
    QCOMPARE(c.usdPerMonth, 5840.0);
    QCOMPARE(c.usdPerYear, 70080.0);
    QCOMPARE(c.usdPerMillionTokens, best->usdPerMillionTokens);
    ACCEL_COMPARE_NEAR(c.usdPerMonth / (c.tokensPerMonth / 1e6), c.usdPerMillionTokens, 1e-9);
    QVERIFY(std::isnan(c.apiUsdPerMonth)); // no API prices in this scenario
    const auto options = core::alternatives(selection);
    QCOMPARE(options.front(), best);
    QVERIFY(options.size() >= 2);
    // the 24 GB card cannot hold it: its risk is the memory shortfall, in one line
    bool shortfall = false;
    for (const core::Candidate *c : options)
        shortfall = shortfall || QString::fromStdString(core::mainRisk(*c))
                                     .startsWith(QStringLiteral("Memory headroom: short by"));
    QVERIFY(shortfall);
    // the warning every option carries is written out, not "! latency"
    QVERIFY2(QString::fromStdString(core::mainRisk(*best))
                 .contains(QStringLiteral("if all 40 prompts arrive at once the last waits")),
             core::mainRisk(*best).c_str());
}

// Price x0.7 and x1.3: $4,088 and $7,592 a month. Demand x0.5 and x2 of today's 70 % of two
// replicas (1.4 replicas' worth): max(2, ceil(0.7)) = 2 replicas, $5,840; ceil(2.8) = 3,
// $8,760. Neither changes the memory margin (the binding check), which the context does.
void Outlook::tornadoEndsRecomputeTheChecks()
{
    const core::Scenario s = testsupport::loadScenario(QStringLiteral("support-assistant"));
    const core::Selection selection = core::selectDevice(s);
    const core::Sensitivity t = core::sensitivity(s, selection);
    QVERIFY(t.available);
    QCOMPARE(t.baseCost, 5840.0);
    QCOMPARE(t.baseMargin.kind, core::MarginKind::Memory);
    const core::TornadoBar &price = barOf(t, "price");
    ACCEL_COMPARE_NEAR(price.costLow, 4088.0, 1e-9);
    ACCEL_COMPARE_NEAR(price.costHigh, 7592.0, 1e-9);
    QCOMPARE(price.marginLow, t.baseMargin.value);
    const core::TornadoBar &traffic = barOf(t, "traffic");
    QCOMPARE(traffic.costLow, 5840.0);
    QCOMPARE(traffic.costHigh, 8760.0);
    const core::TornadoBar &context = barOf(t, "context");
    QVERIFY(context.marginHigh < 0.0); // 6,000 tokens a sequence no longer fit one 48 GB card
    QVERIFY(context.marginLow > t.baseMargin.value);
    // widest first, growth (another month's cost) last; the band spans every other end
    QCOMPARE(t.bars.back().range.key, std::string("growth"));
    for (std::size_t i = 1; i + 1 < t.bars.size(); ++i)
        QVERIFY(t.bars[i - 1].costSwing() >= t.bars[i].costSwing());
    QCOMPARE(t.costLow, 4088.0);
    QVERIFY(t.costHigh >= 8760.0);
    QVERIFY(QString::fromStdString(t.mainUncertainty)
                .startsWith(QStringLiteral("The main uncertainty is ") +
                                QString::fromStdString(t.bars.front().range.label).toLower(),
                            Qt::CaseInsensitive));
}

// At the speed of light the low end is what the typical engines deliver on the device's class;
// with the typical profile applied, twice its entry's median error either side (the worst, a
// held-out device's since issue #43, stretched every bar to x0.1); a range in the scenario wins
// over both.
void Outlook::efficiencyRangeComesFromTheEstimate()
{
    core::Scenario s =
        testsupport::loadScenario(QStringLiteral("llama-70b-fleet"), {testsupport::kSpeedOfLight});
    const core::Selection light = core::selectDevice(s);
    const core::Candidate *best = core::recommendedCandidate(light);
    QVERIFY(best);
    const auto ranges = core::sensitivityRanges(s, *best);
    QCOMPARE(ranges.front().key, std::string("efficiency"));
    QVERIFY(ranges.front().low < 1.0 && ranges.front().high == 1.0);
    QVERIFY(QString::fromStdString(ranges.front().origin).contains(QStringLiteral("typical")));

    s.calibration.mode = core::EstimateMode::Typical;
    const core::Selection typical = core::selectDevice(s);
    const core::Candidate *typicalBest = core::recommendedCandidate(typical);
    QVERIFY(typicalBest);
    const core::EstimateTerms terms = core::estimateTerms(typicalBest->scenario);
    QVERIFY(terms.entry);
    const auto fitted = core::sensitivityRanges(s, *typicalBest);
    ACCEL_COMPARE_NEAR(fitted.front().low,
                       1.0 - std::clamp(2.0 * terms.entry->medianRelativeError, 0.05, 0.9), 1e-12);
    QVERIFY(fitted.front().low > 0.5);

    s.sensitivity.efficiencyLow = 0.25;
    s.sensitivity.efficiencyHigh = 0.75;
    const auto given = core::sensitivityRanges(s, *typicalBest);
    QCOMPARE(given.front().low, 0.25);
    QCOMPARE(given.front().high, 0.75);
    QCOMPARE(given.front().origin, std::string("sensitivity.efficiency_low/high"));
}

// On a real device the typical estimate is the default (issue #40): the efficiency row's ends
// re-run the checks at the estimate's own terms scaled, so a slower fleet needs more replicas
// and a faster one fewer (the ends priced the base month when the candidate's device reset the
// speed of light they were run at back to the typical estimate).
void Outlook::efficiencyEndsMoveATypicalFleet()
{
    // replicas are whole: a peak is searched for where the ends' speeds cross a replica step
    // (20 requests/s with the estimate of 2026-12-06, 22 after its refit on measured ceilings)
    QString seen;
    for (int peak = 10; peak <= 40; peak += 2) {
        const core::Scenario s = testsupport::loadScenario(
            QStringLiteral("llama-70b-fleet"),
            {QStringLiteral("traffic.requests_per_day=864000"),
             QStringLiteral("traffic.peak_requests_per_second=%1").arg(peak)});
        QCOMPARE(s.calibration.mode, core::EstimateMode::Typical);
        const core::Sensitivity t = core::sensitivity(s, core::selectDevice(s));
        QVERIFY(t.available);
        const core::TornadoBar &efficiency = barOf(t, "efficiency");
        QVERIFY(efficiency.range.low < 1.0 && efficiency.range.high > 1.0);
        // the slower end never costs less, the faster never more
        QVERIFY(efficiency.costLow >= t.baseCost && efficiency.costHigh <= t.baseCost);
        seen += QStringLiteral("%1/s: %2 / %3 / %4; ")
                    .arg(peak)
                    .arg(efficiency.costLow)
                    .arg(t.baseCost)
                    .arg(efficiency.costHigh);
        if (efficiency.costLow > t.baseCost && efficiency.costHigh < t.baseCost)
            return;
    }
    QFAIL(qPrintable("no peak where both ends move the fleet: " + seen));
}

// Today 1.4 replicas' worth of demand on 2 replicas; at 10 % a month the throughput needs
// ceil(1.4 x 1.1^m): 1.4 x 1.1^4 = 2.05 -> 3 replicas in month 4, 1.4 x 1.1^8 = 3.0010 -> 4 in
// month 8, 1.4 x 1.1^12 = 4.39 -> 5 in month 12. The checks also simulate each month's demand on
// the fleet (issue #40): in month 3 (1.4 x 1.331 = 1.863 replicas' worth, 93 % of 2 replicas)
// the simulated p95 first token is 2.09 s against 1.5 s, so the third replica comes a month
// before the throughput asks for it; likewise the fifth in month 11 (3.994 on 4, 99.9 % busy).
// Month 3 costs 3 x $4 x 730 = $8,760.
void Outlook::growthPlanRunsOutWhenWorkedOutByHand()
{
    const core::Scenario s = testsupport::loadScenario(
        QStringLiteral("support-assistant"), {QStringLiteral("traffic.growth_per_month=0.1")});
    const core::GrowthPlan plan = core::growthPlan(s, core::selectDevice(s));
    QVERIFY(plan.available);
    QCOMPARE(plan.horizonMonths, 24);
    QCOMPARE(plan.months.size(), std::size_t(25));
    QCOMPARE(plan.runOutMonth, 3);
    QVERIFY(plan.addReplicaMonths.size() >= 3);
    QCOMPARE(plan.addReplicaMonths[0], 3);
    QCOMPARE(plan.addReplicaMonths[1], 8);
    QCOMPARE(plan.addReplicaMonths[2], 11);
    QCOMPARE(plan.months[2].replicas, 2.0);
    QCOMPARE(plan.months[3].replicas, 3.0);
    QCOMPARE(plan.months[3].usdPerMonth, 8760.0);
    for (const core::GrowthMonth &m : plan.months) // never below what the throughput needs
        QVERIFY(m.replicas >= std::ceil(1.4 * m.demandFactor - 1e-9));
    ACCEL_COMPARE_NEAR(plan.months[4].demandFactor, 1.4641, 1e-12);
    ACCEL_COMPARE_NEAR(plan.months[4].demandTokensPerSecond / plan.months[0].demandTokensPerSecond,
                       1.4641, 1e-9);
    double total = 0;
    for (int m = 0; m < 24; ++m)
        total += plan.months[std::size_t(m)].usdPerMonth;
    QCOMPARE(plan.horizonUsd, total);
    QVERIFY2(QString::fromStdString(plan.sentence).contains(QStringLiteral("runs out in month 3")),
             plan.sentence.c_str());
}

// Issue #41 (found by the property test): doubling every month for the 60 months the plan may
// look ahead asks for 2^60 times today's demand; the latency check simulated a 4,194,304-replica
// fleet for it and the process was killed for its memory. The plan ends, and says how far out
// of reach the fleet is instead of printing a 20-digit count.
void Outlook::growthBeyondAnyFleetEndsInAnswer()
{
    const core::Scenario s = testsupport::loadScenario(
        QStringLiteral("llama-70b-fleet"), {QStringLiteral("traffic.growth_per_month=1"),
                                            QStringLiteral("traffic.horizon_months=60")});
    const core::Selection selection = core::selectDevice(s);
    const core::GrowthPlan plan = core::growthPlan(s, selection);
    QVERIFY(plan.available);
    // today's fleet doubles each month: past a million replicas (serving.replicas' maximum)
    // within 20 months, where the plan stops
    QVERIFY2(plan.beyondMonth > 0 && plan.beyondMonth <= 20,
             qPrintable(QString::number(plan.beyondMonth)));
    QCOMPARE(plan.months.size(), std::size_t(plan.beyondMonth));
    QVERIFY(plan.months.back().replicas <= 1e6);
    QVERIFY(std::isnan(plan.horizonUsd)); // five years' cost of a fleet that cannot exist: none
    const QString sentence = QString::fromStdString(plan.sentence);
    QVERIFY2(sentence.contains(QStringLiteral("beyond any real fleet: the plan stops there")) &&
                 sentence.contains(QStringLiteral("in month %1").arg(plan.beyondMonth)),
             qPrintable(sentence));
    const QJsonObject growth =
        QJsonDocument::fromJson(QByteArray::fromStdString(core::outlookToJson(s, selection)))
            .object()
            .value(QStringLiteral("growth"))
            .toObject();
    QCOMPARE(growth.value(QStringLiteral("beyond_month")).toInt(), plan.beyondMonth);
    QVERIFY(growth.value(QStringLiteral("horizon_usd")).isNull());
    for (const QJsonValue month : growth.value(QStringLiteral("months")).toArray())
        for (const QString &key : {QStringLiteral("replicas"), QStringLiteral("usd_per_month")})
            QVERIFY2(month.toObject().value(key).toDouble() < 1e15, qPrintable(key));
}

void Outlook::noGrowthKeepsTodaysFleet()
{
    const core::Scenario s = testsupport::loadScenario(QStringLiteral("support-assistant"));
    const core::GrowthPlan plan = core::growthPlan(s, core::selectDevice(s));
    QCOMPARE(plan.runOutMonth, -1);
    QVERIFY(plan.addReplicaMonths.empty());
    QCOMPARE(plan.horizonUsd, 24 * 5840.0);
    QVERIFY(QString::fromStdString(plan.sentence).contains(QStringLiteral("$140,160.00")));
}

void Outlook::rangesMustRunLowToHigh()
{
    auto read = core::readScenario(R"({"sensitivity": {"growth_low": 0.2, "growth_high": 0.1}})");
    QVERIFY(!read);
    QCOMPARE(read.error().path, std::string("/sensitivity/growth_low"));
    auto reversed =
        core::readScenario(R"({"sensitivity": {"efficiency_low": 0.9, "efficiency_high": 0.5}})");
    QVERIFY(!reversed);
    QCOMPARE(reversed.error().path, std::string("/sensitivity/efficiency_low"));
    auto outside = core::readScenario(R"({"sensitivity": {"price_low": 1.5}})");
    QVERIFY(!outside);
    QCOMPARE(outside.error().path, std::string("/sensitivity/price_low"));
    // a range the user gave survives a save
    auto given = core::readScenario(R"({"sensitivity": {"price_low": 0.5}})");
    QVERIFY(given);
    auto again = core::readScenario(core::writeScenario(given->scenario));
    QVERIFY(again);
    QCOMPARE(again->scenario.sensitivity.priceLow, 0.5);
}

void Outlook::noRecommendationSaysWhy()
{
    const core::Scenario s =
        testsupport::loadScenario(QStringLiteral("support-assistant"),
                                  {QStringLiteral("serving.concurrent_sequences=100000")});
    const core::Selection selection = core::selectDevice(s);
    QVERIFY(!core::recommendedCandidate(selection));
    const core::Sensitivity t = core::sensitivity(s, selection);
    QVERIFY(!t.available);
    QVERIFY(!t.why.empty());
    QVERIFY(!core::growthPlan(s, selection).available);
}

QTEST_GUILESS_MAIN(Outlook)
#include "tst_outlook.moc"
