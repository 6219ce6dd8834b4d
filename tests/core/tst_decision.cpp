// SPDX-License-Identifier: GPL-3.0-or-later
// Issue #40, "one decision, one answer": for the shipped scenarios and generated real-model,
// real-device decisions with traffic, the decided scenario (core::decidedScenario, what Apply,
// the report, the slides and accel-calc decide use) evaluates to the checks' own fleet and
// money, the outlook's cost summary says the same, and deciding it again changes nothing.
// Before the fix, Apply left serving.batch at the scenario's value while the checks sized the
// fleet at the resident sequences: the wizard said 2 replicas, the Cost tab 11.

#include "testsupport.h"

#include "core/decide/outlook.h"
#include "core/decide/selection.h"
#include "core/model/scenarioedits.h"
#include "core/output/exports.h"
#include "core/physics/loadsim.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>

using F = core::FigureId;

class Decision : public QObject
{
    Q_OBJECT

private slots:
    void decidedScenarioAgreesWithTheChecks_data();
    void decidedScenarioAgreesWithTheChecks();
    void stakeholderDecisionKeepsItsFleet();
    void decisionJsonCarriesTheFleet();
    void nothingPassingLeavesTheScenario();
};

namespace {

QString generated(const QString &model, int concurrent, int prompt, int output, double perDay,
                  double peak)
{
    return QStringLiteral(R"({
  "format": "accel-explorer/scenario", "version": 1, "name": "generated",
  "model": "%1", "device": "nvidia-h100-sxm",
  "serving": {"weight_format": "bf16", "concurrent_sequences": %2, "batch": 8,
              "context_tokens": %3, "prompt_tokens": %4, "ttft_target_s": 1.5},
  "traffic": {"requests_per_day": %5, "peak_requests_per_second": %6},
  "wizard": {"regime": "online",
             "candidates": ["nvidia-h100-sxm", "nvidia-h200-sxm", "amd-mi300x", "nvidia-l40s",
                            "nvidia-a100-80gb-sxm"],
             "formats": ["bf16", "fp8", "int4"], "min_replicas": 2}
})")
        .arg(model)
        .arg(concurrent)
        .arg(prompt + output)
        .arg(prompt)
        .arg(perDay, 0, 'g', 12)
        .arg(peak, 0, 'g', 12);
}

/** Relative closeness for money: within 0.5 % (the issue's tolerance), exact in practice. */
bool near(double a, double b)
{
    return std::fabs(a - b) <= 0.005 * std::max(std::fabs(a), std::fabs(b));
}

/** One CSV line's cells (RFC 4180 quoting: a verdict holds commas). */
QStringList csvCells(const QString &line)
{
    QStringList cells{QString()};
    bool quoted = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (quoted && c == QLatin1Char('"') && i + 1 < line.size() && line[i + 1] == c)
            cells.back() += line[++i];
        else if (c == QLatin1Char('"'))
            quoted = !quoted;
        else if (c == QLatin1Char(',') && !quoted)
            cells.append(QString());
        else
            cells.back() += c;
    }
    return cells;
}

} // namespace

void Decision::decidedScenarioAgreesWithTheChecks_data()
{
    QTest::addColumn<QString>("scenario");
    for (const char *id : {"lesson-default", "support-assistant", "llama-70b-fleet", "batching-8",
                           "batching-32", "oom-14th-request", "cost-example", "toy-decode"})
        QTest::newRow(id) << QString::fromLatin1(id);
    for (const char *model :
         {"llama-3-1-70b", "llama-3-1-8b", "qwen3-30b-a3b", "mixtral-8x7b", "gemma-3-27b"})
        for (const auto &[perDay, peak] : {std::pair{864000.0, 20.0}, std::pair{100000.0, 5.0}})
            for (const auto &[concurrent, prompt, output] :
                 {std::tuple{100, 2000, 300}, std::tuple{16, 7000, 1000}})
                QTest::addRow("%s, %g/day peak %g, %d x %d+%d", model, perDay, peak, concurrent,
                              prompt, output)
                    << generated(QString::fromLatin1(model), concurrent, prompt, output, perDay,
                                 peak);
}

void Decision::decidedScenarioAgreesWithTheChecks()
{
    QFETCH(QString, scenario);
    const core::Scenario s = testsupport::loadScenario(scenario);
    const core::Selection selection = core::selectDevice(s);
    const core::Candidate *best = core::recommendedCandidate(selection);
    if (!best) {
        // nothing passes: the decision says why, and the scenario stays as it was
        QVERIFY(!selection.recommendation.rejected.empty());
        return;
    }
    const core::Scenario d = core::decidedScenario(s, selection);
    QVERIFY(core::runsCandidate(d, *best));
    if (selection.regime != core::Regime::Online)
        return;
    const core::Evaluation e = core::evaluate(d);
    const core::CheckResult &cost = best->check(core::CheckKind::Cost);
    QCOMPARE(e[F::CostReplicas], best->replicas);
    QCOMPARE(e[F::CostDevices], best->devices);
    QCOMPARE(e[F::Devices], best->devicesPerReplica());
    if (std::isfinite(best->monthlyCostUsd)) {
        QVERIFY2(near(e[F::CostFleetUsdPerMonth], best->monthlyCostUsd),
                 qPrintable(QStringLiteral("evaluate %1, checks %2")
                                .arg(e[F::CostFleetUsdPerMonth])
                                .arg(best->monthlyCostUsd)));
        QVERIFY(near(e[F::CostUsdPerMillionTokens], best->usdPerMillionTokens));
        // the outlook's summary is the checks' own
        const core::CostSummary summary = core::costSummary(*best);
        QVERIFY(near(summary.usdPerMonth, e[F::CostFleetUsdPerMonth]));
        QVERIFY(near(summary.usdPerMillionTokens, e[F::CostUsdPerMillionTokens]));
        QCOMPARE(summary.devices, e[F::CostDevices]);
    }
    ACCEL_COMPARE_NEAR(e[F::CostUtilisation], cost.figure("utilisation"), 1e-12);
    QCOMPARE(cost.figure("replicas"), e[F::CostReplicas]);
    // the CSV export's row for the recommendation says the same fleet and money
    const std::string csv = core::selectionToCsv(selection, core::ExportStamp{"test", "test"});
    const std::string rowStart =
        best->deviceId + "," + std::string(core::formatKey(best->weightFormat)) + ",";
    const std::size_t at = csv.find("\n" + rowStart);
    QVERIFY2(at != std::string::npos, csv.c_str());
    const QStringList cells =
        csvCells(QString::fromStdString(csv.substr(at + 1, csv.find('\n', at + 1) - at - 1)));
    QVERIFY(cells.size() > 12);
    QCOMPARE(cells[6].toDouble(), e[F::CostReplicas]); // replicas
    QCOMPARE(cells[7].toDouble(), e[F::CostDevices]);  // devices
    if (std::isfinite(best->monthlyCostUsd)) {
        QVERIFY(near(cells[11].toDouble(), e[F::CostFleetUsdPerMonth]));
        QVERIFY(near(cells[12].toDouble(), e[F::CostUsdPerMillionTokens]));
    }

    // the decided fleet, simulated at the rate it is sized for on the whole stream the Load tab,
    // the report and accel-calc simulate run, meets both p95 targets, or the latency check says
    // no fleet does (issue #40; the check's 500-request runs passed 3 of these rows that the
    // 2,000-request run fails)
    const core::CheckResult &latency = best->check(core::CheckKind::Latency);
    if (std::isfinite(latency.figure("simulated_ttft_p95_seconds"))) {
        core::Scenario load = d;
        auto setup = core::loadSetup(load);
        QVERIFY(setup);
        QCOMPARE(setup.value().replicas, best->replicas);
        QCOMPARE(setup.value().ratePerSecond, latency.figure("simulated_rate_per_second"));
        const auto run = core::simulateLoad(load, setup.value());
        QVERIFY(run);
        QVERIFY2(run.value().ttft.p95 <= d.serving.ttftTargetSeconds,
                 qPrintable(QString::number(run.value().ttft.p95)));
        QVERIFY(!run.value().cut);
        QVERIFY(run.value().tpotExcludingFirst.p95 <= 1.0 / d.serving.pacingTargetTokensPerSecond);
        QCOMPARE(double(run.value().completed), latency.figure("simulated_requests"));
        ACCEL_COMPARE_NEAR(run.value().ttft.p95, latency.figure("simulated_ttft_p95_seconds"),
                           1e-12);
    }

    // deciding the decided scenario again keeps the same fleet
    const core::Selection again = core::selectDevice(d);
    const core::Candidate *same = core::recommendedCandidate(again);
    QVERIFY(same);
    QCOMPARE(same->deviceId, best->deviceId);
    QCOMPARE(same->weightFormat, best->weightFormat);
    QCOMPARE(same->replicas, best->replicas);
    QCOMPARE(same->devices, best->devices);
    QVERIFY(core::runsCandidate(d, *same));
}

// The issue's example: Llama-3.1-70B, 100 sequences, 2,000-token prompts and 300 generated,
// 864,000 requests a day with a peak of 20/s. The checks size the fleet at 100 resident
// sequences; the decided scenario decodes them together, so the Cost tab (evaluate) prices the
// same fleet. The scenario's own batch of 8 priced it several times over.
void Decision::stakeholderDecisionKeepsItsFleet()
{
    const core::Scenario s = testsupport::loadScenario(
        generated(QStringLiteral("llama-3-1-70b"), 100, 2000, 300, 864000, 20));
    const core::Selection selection = core::selectDevice(s);
    const core::Candidate *best = core::recommendedCandidate(selection);
    QVERIFY(best);
    const core::Scenario d = core::decidedScenario(s, selection);
    QCOMPARE(d.serving.batch, 100.0);
    // the load simulation runs that fleet, from the scenario as from a file written of it
    QCOMPARE(core::loadSetup(d)->replicas, best->replicas);
    QCOMPARE(core::evaluate(d)[F::CostReplicas], best->replicas);
    // at the scenario's own batch the same device and format need more replicas: the defect
    core::Scenario undecided = d;
    undecided.serving.batch = 8;
    QVERIFY(core::evaluate(undecided)[F::CostReplicas] > best->replicas);
    // named after the fleet, for the report's and the slides' titles
    const QString name = QString::fromStdString(d.name);
    QVERIFY2(name.startsWith(QStringLiteral("Llama-3.1-70B on ")), qPrintable(name));
    QVERIFY2(name.contains(QString::fromStdString(best->device.name)), qPrintable(name));
}

void Decision::decisionJsonCarriesTheFleet()
{
    const core::Scenario s = testsupport::loadScenario(QStringLiteral("llama-70b-fleet"));
    const core::Selection selection = core::selectDevice(s);
    const core::Candidate *best = core::recommendedCandidate(selection);
    QVERIFY(best);
    const QJsonObject doc = QJsonDocument::fromJson(QByteArray::fromStdString(
                                                        core::decisionToJson(selection, "d.json")))
                                .object();
    const QJsonObject rec = doc.value(QStringLiteral("recommendation")).toObject();
    QCOMPARE(rec.value(QStringLiteral("device")).toString().toStdString(), best->deviceId);
    QCOMPARE(rec.value(QStringLiteral("tensor_parallel")).toDouble(), best->tensorParallel);
    QCOMPARE(rec.value(QStringLiteral("replicas")).toDouble(), best->replicas);
    QCOMPARE(rec.value(QStringLiteral("devices")).toDouble(), best->devices);
    QCOMPARE(rec.value(QStringLiteral("batch")).toDouble(), best->scenario.serving.batch);
    ACCEL_COMPARE_NEAR(rec.value(QStringLiteral("usd_per_month")).toDouble(), best->monthlyCostUsd,
                       1e-6);
    QCOMPARE(doc.value(QStringLiteral("decided_scenario")).toString(), QStringLiteral("d.json"));
}

void Decision::nothingPassingLeavesTheScenario()
{
    // a 405B model on 24 GB cards with one device a replica: nothing passes
    const core::Scenario s = testsupport::loadScenario(
        QStringLiteral("lesson-default"),
        {QStringLiteral("model=\"llama-3-1-405b\""),
         QStringLiteral("wizard.candidates=[\"lesson-accelerator-24gb\"]"),
         QStringLiteral("wizard.max_tensor_parallel=1")});
    const core::Selection selection = core::selectDevice(s);
    QVERIFY(!core::recommendedCandidate(selection));
    const core::Scenario d = core::decidedScenario(s, selection);
    QCOMPARE(d.name, s.name);
    QCOMPARE(d.serving.batch, s.serving.batch);
    QCOMPARE(d.device.name, s.device.name);
}

QTEST_GUILESS_MAIN(Decision)
#include "tst_decision.moc"
