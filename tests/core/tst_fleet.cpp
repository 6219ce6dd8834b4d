// SPDX-License-Identifier: GPL-3.0-or-later
// Issue #40: the fleet's rules in one place (core/model/fleet.h), worked by hand, and every caller
// giving the same answer: evaluation, the checks, the split proposal and the load simulation.

#include "testsupport.h"

#include "core/model/fleet.h"
#include "core/physics/loadsim.h"

#include <QTest>

#include <cmath>

using F = core::FigureId;

class Fleet : public QObject
{
    Q_OBJECT

private slots:
    void peakRateFallsBackInOneOrder_data();
    void peakRateFallsBackInOneOrder();
    void availabilityMinimum_data();
    void availabilityMinimum();
    void lessonCostPerMillion_data();
    void lessonCostPerMillion();
    void measuredRateWorkedByHand();
    void estimatedRateCountsPrefill();
    void utilisationInputCountsPrefillToo();
    void loadSimulationRunsAtTheSizedRate();
};

namespace {

// The lesson's 7B on the 48 GB lesson accelerator at $4 an hour, 2,500-token prompts and 500
// generated tokens. `cost` and `traffic` are the sections' JSON; kMeasured's replica is measured
// at 400 tokens/s while busy (the lesson's l.180 figure): 500 tokens cost 1.25 s of a replica.
QString scenarioJson(const QString &cost, const QString &traffic)
{
    return QStringLiteral(R"({
  "format": "accel-explorer/scenario", "version": 1,
  "model": "lesson-7b", "device": "lesson-accelerator-48gb",
  "serving": {"concurrent_sequences": 40, "batch": 40, "context_tokens": 3000,
              "prompt_tokens": 2500},
  "cost": {"price_per_hour_usd": 4%1},
  "traffic": {%2},
  "wizard": {"min_replicas": 2}
})")
        .arg(cost, traffic);
}

const QString kMeasured =
    scenarioJson(QStringLiteral(", \"sustained_tokens_per_second\": 400"),
                 QStringLiteral("\"requests_per_day\": 172800, \"peak_requests_per_second\": 3"));
const QString kEstimated =
    scenarioJson(QString(), QStringLiteral("\"requests_per_day\": 172800, "
                                           "\"peak_requests_per_second\": 20"));

} // namespace

void Fleet::peakRateFallsBackInOneOrder_data()
{
    QTest::addColumn<double>("perDay");
    QTest::addColumn<double>("peak");
    QTest::addColumn<double>("expected");
    const double unset = core::kUnset;
    QTest::newRow("peak given: the peak") << 86400.0 << 20.0 << 20.0;
    QTest::newRow("peak only") << unset << 5.0 << 5.0;
    QTest::newRow("no peak: the daily average") << 172800.0 << unset << 2.0;
    QTest::newRow("a peak of 0 given is 0") << 172800.0 << 0.0 << 0.0;
    QTest::newRow("no traffic: none") << unset << unset << unset;
}

void Fleet::peakRateFallsBackInOneOrder()
{
    QFETCH(double, perDay);
    QFETCH(double, peak);
    QFETCH(double, expected);
    core::TrafficConfig t;
    t.requestsPerDay = perDay;
    t.peakRequestsPerSecond = peak;
    const double rate = core::peakRequestsPerSecond(t);
    if (!core::isSet(expected))
        QVERIFY(!core::isSet(rate));
    else
        QCOMPARE(rate, expected);
}

void Fleet::availabilityMinimum_data()
{
    QTest::addColumn<double>("minReplicas");
    QTest::addColumn<double>("expected");
    QTest::newRow("two for availability") << 2.0 << 2.0;
    QTest::newRow("one") << 1.0 << 1.0;
    QTest::newRow("never below one") << 0.0 << 1.0;
    QTest::newRow("a fraction rounds up") << 2.5 << 3.0;
}

void Fleet::availabilityMinimum()
{
    QFETCH(double, minReplicas);
    QFETCH(double, expected);
    core::WizardConfig w;
    w.minReplicas = minReplicas;
    QCOMPARE(core::minimumReplicas(w), expected);
}

// l.180-184: $4 per device-hour, 400 tokens/s while busy = 1.44 M tokens a busy hour.
void Fleet::lessonCostPerMillion_data()
{
    QTest::addColumn<double>("utilisation");
    QTest::addColumn<double>("expected");
    QTest::newRow("l182 100 %: $2.78") << 1.0 << 2.78;
    QTest::newRow("l183 70 %: $3.97") << 0.70 << 3.97;
    QTest::newRow("l184 35 %: $7.94") << 0.35 << 7.94;
}

void Fleet::lessonCostPerMillion()
{
    QFETCH(double, utilisation);
    QFETCH(double, expected);
    ACCEL_COMPARE_NEAR(core::usdPerMillionTokens(4.0, 400.0 * 3600.0, utilisation), expected,
                       0.005);
    // serving nothing is never free: every hour is paid and no token made
    QVERIFY(std::isinf(core::usdPerMillionTokens(4.0, 0.0, utilisation)));
}

// Measured 400 tokens/s: 500 tokens cost 1.25 s of a replica (prefill counted in the
// measurement). Peak 3/s x 1.25 = 3.75 -> 4 replicas; the average 2/s x 1.25 = 2.5 -> 3; the
// minimum 2: 4 replicas, busy 2 x 1.25 / 4 = 62.5 % of the time. 4 x $4 x 730 h = $11,680 a
// month for 2 x 500 x 3,600 x 730 = 2,628 M tokens: $4.4444 per million, which is also
// $4 / (1.44 M x 0.625) x 1e6.
void Fleet::measuredRateWorkedByHand()
{
    const core::Evaluation e = testsupport::evaluateScenario(kMeasured);
    QCOMPARE(e[F::CostSustainedTokensPerSecond], 400.0);
    QCOMPARE(e[F::TrafficReplicasForPeak], 4.0);
    QCOMPARE(e[F::CostReplicas], 4.0);
    ACCEL_COMPARE_NEAR(e[F::CostUtilisation], 0.625, 1e-12);
    ACCEL_COMPARE_NEAR(e[F::CostFleetUsdPerMonth], 11680.0, 1e-9);
    ACCEL_COMPARE_NEAR(e[F::CostTokensPerMonth], 2.628e9, 1e-3);
    ACCEL_COMPARE_NEAR(e[F::CostUsdPerMillionTokens], 11680.0 / 2628.0, 1e-9);
    ACCEL_COMPARE_NEAR(e[F::CostUsdPerMillionTokens], core::usdPerMillionTokens(4.0, 1.44e6, 0.625),
                       1e-9);
    // a request busies a replica 1.25 s: $4 / 3,600 x 1.25 at 100 %
    ACCEL_COMPARE_NEAR(e[F::CostSelfHostedUsdPerRequest], 4.0 / 3600.0 * 1.25, 1e-12);
    // no requests a day: the fleet is paid and serves nothing, so no price per token (the one
    // formula returned $0 per million for it)
    const core::Evaluation idle = testsupport::evaluateScenario(
        kMeasured, {QStringLiteral("traffic.requests_per_day=0"),
                    QStringLiteral("traffic.peak_requests_per_second=0")});
    QCOMPARE(idle[F::CostFleetUsdPerMonth], 2 * 4.0 * 730);
    QVERIFY(!std::isfinite(idle[F::CostUsdPerMillionTokens]));
}

// Estimated: each request busies its replica for its prefill and its 500 tokens at the batch's
// decode rate (the split proposal's basis, issue #27), so the fleet for 20 requests/s counts
// both; before issue #40 the cost path counted the decode tokens alone.
void Fleet::estimatedRateCountsPrefill()
{
    const core::Evaluation e = testsupport::evaluateScenario(kEstimated);
    const double prefill = e[F::PrefillSeconds];
    const double decodeRate = e[F::DecodeTokensPerSecond];
    QVERIFY(prefill > 0.1 && decodeRate > 0); // 2 x 7e9 x 2,500 / 200 TFLOP/s = 0.175 s
    const double perRequest = prefill + 500.0 / decodeRate;
    QCOMPARE(e[F::CostReplicas], std::ceil(20.0 * perRequest - 1e-9));
    QVERIFY(e[F::CostReplicas] > std::ceil(20.0 * 500.0 / decodeRate)); // prefill is counted
    ACCEL_COMPARE_NEAR(e[F::CostSustainedTokensPerSecond], 500.0 / perRequest, 1e-9);
    ACCEL_COMPARE_NEAR(e[F::CostUtilisation], 2.0 * perRequest / e[F::CostReplicas], 1e-12);
    // the month and the tokens agree with the price per million, whatever the replicas
    ACCEL_COMPARE_NEAR(e[F::CostFleetUsdPerMonth] / e[F::CostTokensPerMonth] * 1e6,
                       e[F::CostUsdPerMillionTokens], 1e-9);
}

// Without traffic the utilisation is of busy time, prefill included: the Cost view's curve at
// that utilisation is the evaluation's figure.
void Fleet::utilisationInputCountsPrefillToo()
{
    const core::Evaluation e = testsupport::evaluateScenario(
        scenarioJson(QStringLiteral(", \"utilisation\": 0.5"), QString()));
    QCOMPARE(e[F::CostTokensFromTraffic], 0.0);
    QCOMPARE(e[F::CostReplicas], 2.0);
    const double perRequest = e[F::PrefillSeconds] + 500.0 / e[F::DecodeTokensPerSecond];
    ACCEL_COMPARE_NEAR(e[F::CostTokensPerHour], 500.0 / perRequest * 3600.0, 1e-6);
    ACCEL_COMPARE_NEAR(e[F::CostTokensPerMonth],
                       0.5 * 2.0 * 500.0 / perRequest * 3600.0 * core::kHoursPerMonth, 1e-3);
    ACCEL_COMPARE_NEAR(e[F::CostUsdPerMillionTokens],
                       core::usdPerMillionTokens(4.0, e[F::CostTokensPerHour], 0.5), 1e-12);
}

// The load simulation's rate: the load section's own, else the rate the fleet is sized for
// (the peak, else the daily average: it ran at 1 request/s with a daily volume and no peak).
void Fleet::loadSimulationRunsAtTheSizedRate()
{
    auto rateOf = [](const QString &traffic, const QStringList &sets = {}) {
        const core::Scenario s = testsupport::loadScenario(scenarioJson(QString(), traffic), sets);
        auto setup = core::loadSetup(s);
        return setup ? setup.value().ratePerSecond : -1.0;
    };
    const QString both =
        QStringLiteral("\"requests_per_day\": 172800, \"peak_requests_per_second\": 3");
    QCOMPARE(rateOf(both), 3.0);
    QCOMPARE(rateOf(QStringLiteral("\"requests_per_day\": 172800")), 2.0);
    QCOMPARE(rateOf(both, {QStringLiteral("load.rate_per_second=0.5")}), 0.5);
    QCOMPARE(rateOf(QString()), 1.0);
}

QTEST_GUILESS_MAIN(Fleet)
#include "tst_fleet.moc"
