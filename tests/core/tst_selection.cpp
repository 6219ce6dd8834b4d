// SPDX-License-Identifier: GPL-3.0-or-later
// The device-selection checks (lesson l.204-237): the lesson's walkthrough row by row, the
// recommendation rule, the three regimes, and candidates with missing data.

#include "testsupport.h"

#include "core/data/presets.h"
#include "core/data/scenarioio.h"
#include "core/decide/selection.h"
#include "core/model/scenarioaccess.h"
#include "core/model/units.h"

#include <QObject>

#include <cmath>

using core::CheckKind;
using core::CheckStatus;

namespace {

using testsupport::findCandidate;

core::DeviceSpec customDevice(const char *name, double memoryGb, double bandwidth, double price)
{
    auto device = core::devicePreset("lesson-accelerator").value();
    device.presetId.clear();
    device.name = name;
    device.memoryGb = memoryGb;
    device.bandwidthGbPerSecond = bandwidth;
    device.pricePerHourUsd = price;
    return device;
}

} // namespace

class Selection : public QObject
{
    Q_OBJECT

private slots:
    void lessonWalkthrough_data();
    void lessonWalkthrough();
    void lessonOutcome();
    void aTypedPriceIsTheWizardsPriceForItsDevice();
    void memoryFailureFailsWhateverTheLatency();
    void recommendationFollowsPrice();
    void lowUtilisationPointsToTheApi();
    void dataOnPremisesRemovesTheApiFallback();
    void candidatesWithMissingData();
    void trainingFindsTheFewestDevices();
    void edgeUsesTheMemoryBesideTheOs();
    void jsonFollowsTheContract();
    void customDevicesAndNegotiatedPrices();
    void badWizardSections_data();
    void badWizardSections();
    void candidatesFollowTheModelUntilListed();
    void listedCandidatesAreExactlyThoseChecked();
    void sequencesInFlightByLittlesLaw();
};

// l.215 and l.220, for the support assistant: 40 sequences x 3,000 tokens, 3 GB runtime.
void Selection::lessonWalkthrough_data()
{
    QTest::addColumn<QString>("device");
    QTest::addColumn<int>("format");
    QTest::addColumn<int>("check");
    QTest::addColumn<QString>("figure");
    QTest::addColumn<double>("expected");
    QTest::addColumn<double>("tolerance");
    QTest::addColumn<int>("status");
    const int bf16 = int(core::NumericFormat::Bf16);
    const int int8 = int(core::NumericFormat::Int8);
    const int memory = int(CheckKind::Memory);
    const int latency = int(CheckKind::Latency);
    const int fail = int(CheckStatus::Fail);
    const int pass = int(CheckStatus::Pass);
    const int any = -1;
    // l.215: "131,072 x 3,000 = 0.393 GB" (exact: 393,216,000 B)
    QTest::newRow("l215 KV per sequence 0.393 GB")
        << "lesson-accelerator-48gb" << bf16 << memory << "kv_bytes_per_sequence" << 0.393216e9
        << 1.0 << pass;
    QTest::newRow("l215 KV for 40 sequences 15.73 GB")
        << "lesson-accelerator-48gb" << bf16 << memory << "kv_bytes_total" << 15.73e9 << 0.005e9
        << pass;
    QTest::newRow("l215 in all 32.7 GB") << "lesson-accelerator-48gb" << bf16 << memory
                                         << "serving_bytes_total" << 32.7e9 << 0.05e9 << pass;
    QTest::newRow("l215 24 GB fails outright") << "lesson-accelerator-24gb" << bf16 << memory
                                               << "serving_bytes_total" << 32.7e9 << 0.05e9 << fail;
    QTest::newRow("l215 24 GB fails with 1-byte weights: 25.7 GB")
        << "lesson-accelerator-24gb" << int8 << memory << "serving_bytes_total" << 25.7e9 << 0.05e9
        << fail;
    QTest::newRow("l215 48 GB leaves 15.3 GB") << "lesson-accelerator-48gb" << bf16 << memory
                                               << "headroom_bytes" << 15.3e9 << 0.05e9 << pass;
    QTest::newRow("l215 80 GB leaves 47.3 GB")
        << "lesson-accelerator" << bf16 << memory << "headroom_bytes" << 47.3e9 << 0.05e9 << pass;
    QTest::newRow("l220 a step at batch 40 reads 29.7 GB")
        << "lesson-accelerator-48gb" << bf16 << latency << "bytes_per_step" << 29.7e9 << 0.05e9
        << any;
    QTest::newRow("l220 roughly 30 ms per step")
        << "lesson-accelerator-48gb" << bf16 << latency << "step_seconds" << 0.030 << 0.0005 << any;
    QTest::newRow("l220 about 34 tokens/s per user")
        << "lesson-accelerator-48gb" << bf16 << latency << "tokens_per_second_per_sequence" << 34.0
        << 0.5 << any;
}

void Selection::lessonWalkthrough()
{
    QFETCH(QString, device);
    QFETCH(int, format);
    QFETCH(int, check);
    QFETCH(QString, figure);
    QFETCH(double, expected);
    QFETCH(double, tolerance);
    QFETCH(int, status);
    const core::Selection s =
        core::selectDevice(testsupport::loadScenario(QStringLiteral("support-assistant")));
    const core::Candidate *c = findCandidate(s, device.toStdString(), core::NumericFormat(format));
    QVERIFY(c);
    const core::CheckResult &result = c->check(CheckKind(check));
    ACCEL_COMPARE_NEAR(result.figure(figure.toStdString()), expected, tolerance);
    if (status >= 0)
        QCOMPARE(int(result.status), status);
    QVERIFY(!result.summary.empty());
}

// l.237: "a 48 GB-class device (or larger) with two replicas, BF16 or validated 1-byte weights
// to create extra KV room, and a hosted-API fallback for overflow".
void Selection::lessonOutcome()
{
    const core::Selection s =
        core::selectDevice(testsupport::loadScenario(QStringLiteral("support-assistant")));
    const core::Recommendation &r = s.recommendation;
    QVERIFY(r.found);
    QCOMPARE(r.deviceId, std::string("lesson-accelerator-48gb"));
    QCOMPARE(r.weightFormat, core::NumericFormat::Bf16);
    QCOMPARE(r.replicas, 2.0);
    QVERIFY2(r.reason.find("INT8 weights also pass") != std::string::npos, r.reason.c_str());
    QVERIFY2(r.apiFallback.find("hosted API takes overflow") != std::string::npos,
             r.apiFallback.c_str());
    QVERIFY(!r.flip.empty());
    QVERIFY(r.rejected.size() == s.candidates.size() - 1);
    // the serving-engine settings enforce the guarded limit and the context
    const core::Evaluation e =
        core::evaluate(findCandidate(s, r.deviceId, r.weightFormat)->scenario);
    const std::string limit = core::formatNumber(e[core::FigureId::AdmissionLimit], 9);
    QVERIFY2(r.engineSettings.at(0).find(limit) != std::string::npos, r.engineSettings[0].c_str());
    QVERIFY(r.engineSettings.at(1).find("3,000 tokens") != std::string::npos);
}

// A device that is fast enough but too small fails, and says it is memory.
void Selection::memoryFailureFailsWhateverTheLatency()
{
    const core::Selection s =
        core::selectDevice(testsupport::loadScenario(QStringLiteral("support-assistant")));
    const core::Candidate *small =
        findCandidate(s, "lesson-accelerator-24gb", core::NumericFormat::Bf16);
    QVERIFY(small);
    QVERIFY(small->check(CheckKind::Latency).status != CheckStatus::Fail);
    QCOMPARE(small->check(CheckKind::Memory).status, CheckStatus::Fail);
    QVERIFY(!small->passes);
    QCOMPARE(small->verdict, std::string("fails: memory"));
    bool named = false;
    for (const std::string &line : s.recommendation.rejected)
        named |= line.find("24 GB") != std::string::npos &&
                 line.find("Memory headroom: Needs 32.73 GB") != std::string::npos;
    QVERIFY(named);
}

// Same capacity: the cheaper one wins; swap the prices and the other does.
void Selection::recommendationFollowsPrice()
{
    const core::Scenario scenario = testsupport::loadScenario(QStringLiteral("support-assistant"));
    const std::vector<core::NumericFormat> bf16{core::NumericFormat::Bf16};
    auto pick = [&](double priceA, double priceB) {
        return core::selectDevice(scenario,
                                  {{"", customDevice("A", 48, 1000, priceA)},
                                   {"", customDevice("B", 48, 1000, priceB)}},
                                  bf16)
            .recommendation.deviceId;
    };
    QCOMPARE(pick(3.0, 5.0), std::string("A"));
    QCOMPARE(pick(5.0, 3.0), std::string("B"));
    // a device's own price is used; without one it has none (issue #19: never the scenario's),
    // so it cannot win on cost even against a dearer device
    const core::Selection s = core::selectDevice(
        scenario,
        {{"", customDevice("A", 48, 1000, 9.0)}, {"", customDevice("B", 48, 1000, core::kUnset)}},
        bf16);
    QCOMPARE(s.candidates[0].check(CheckKind::Cost).figure("price_per_hour_usd"), 9.0);
    QVERIFY(std::isnan(s.candidates[1].check(CheckKind::Cost).figure("price_per_hour_usd")));
    QVERIFY(s.candidates[1].check(CheckKind::Cost).summary.starts_with("Price needed"));
    QCOMPARE(s.candidates[1].check(CheckKind::Cost).headline, std::string("price needed"));
    QVERIFY(std::isnan(s.candidates[1].monthlyCostUsd));
    QCOMPARE(s.recommendation.deviceId, std::string("A"));
    // issue #21: a device without a price cannot win on cost, even with less capacity: the
    // priced one is recommended and the other is named as unpriced
    const core::Selection small = core::selectDevice(
        scenario,
        {{"", customDevice("A", 80, 1000, 3.0)}, {"", customDevice("B", 48, 1000, core::kUnset)}},
        bf16);
    QCOMPARE(small.recommendation.deviceId, std::string("A"));
    QCOMPARE(small.recommendation.rejected.size(), std::size_t(1));
    QVERIFY2(small.recommendation.rejected[0].find("has no price") != std::string::npos,
             small.recommendation.rejected[0].c_str());
    // with no price anywhere the smallest capacity wins (the lesson's rule), its price named as
    // missing, never "n/a a month" or an API comparison it cannot make
    const core::Selection unpriced =
        core::selectDevice(scenario,
                           {{"", customDevice("A", 80, 1000, core::kUnset)},
                            {"", customDevice("B", 48, 1000, core::kUnset)}},
                           bf16);
    QCOMPARE(unpriced.recommendation.deviceId, std::string("B"));
    QVERIFY2(unpriced.recommendation.reason.find("price needed") != std::string::npos,
             unpriced.recommendation.reason.c_str());
    QVERIFY2(unpriced.recommendation.reason.find("n/a") == std::string::npos,
             unpriced.recommendation.reason.c_str());
}

// l.234: at 10 % utilisation a hosted API may be cheaper.
void Selection::lowUtilisationPointsToTheApi()
{
    const QStringList api{QStringLiteral("wizard.data_on_premises=false"),
                          QStringLiteral("cost.api_usd_per_million_input=0.5"),
                          QStringLiteral("cost.api_usd_per_million_output=1.5")};
    const core::Selection busy =
        core::selectDevice(testsupport::loadScenario(QStringLiteral("support-assistant"), api));
    const core::Candidate *chosen =
        findCandidate(busy, busy.recommendation.deviceId, busy.recommendation.weightFormat);
    const double breakEven = chosen->check(CheckKind::Cost).figure("break_even_utilisation");
    QVERIFY(std::isfinite(breakEven) && breakEven > 0.0 && breakEven < 1.0);
    QCOMPARE(chosen->check(CheckKind::Cost).status, CheckStatus::Pass); // 70 % is above it

    QStringList quiet = api;
    quiet << QStringLiteral("cost.utilisation=%1").arg(breakEven / 2);
    const core::Selection idle =
        core::selectDevice(testsupport::loadScenario(QStringLiteral("support-assistant"), quiet));
    const core::Candidate *idleChoice =
        findCandidate(idle, idle.recommendation.deviceId, idle.recommendation.weightFormat);
    QCOMPARE(idleChoice->check(CheckKind::Cost).status, CheckStatus::Warn);
    QVERIFY2(idle.recommendation.reason.find("a hosted API is cheaper") != std::string::npos,
             idle.recommendation.reason.c_str());
}

void Selection::dataOnPremisesRemovesTheApiFallback()
{
    const core::Selection s = core::selectDevice(testsupport::loadScenario(
        QStringLiteral("support-assistant"), {QStringLiteral("wizard.data_on_premises=true")}));
    QVERIFY2(s.recommendation.apiFallback.find("must stay on our network") != std::string::npos,
             s.recommendation.apiFallback.c_str());
}

// No bandwidth, no price, an unknown id: reported, never a crash or a NaN in the output.
void Selection::candidatesWithMissingData()
{
    const core::Scenario scenario = testsupport::loadScenario(QStringLiteral("support-assistant"));
    core::Diagnostics problems;
    auto devices = core::resolveCandidates({"no-such-device", "lesson-accelerator"}, problems);
    QCOMPARE(problems.size(), std::size_t(1));
    QCOMPARE(problems[0].path, std::string("/wizard/candidates/0"));
    QCOMPARE(devices.size(), std::size_t(1));
    devices.push_back({"", customDevice("No bandwidth", 80, core::kUnset, core::kUnset)});
    const core::Selection s = core::selectDevice(scenario, devices, {core::NumericFormat::Bf16});
    const core::Candidate &blind = s.candidates.back();
    QCOMPARE(blind.check(CheckKind::Latency).status, CheckStatus::NotApplicable);
    for (const core::CheckResult &check : blind.checks) {
        for (const auto &[key, value] : check.figures)
            QVERIFY2(std::isfinite(value), key.c_str());
    }
    const std::string json = core::selectionToJson(s);
    QVERIFY(json.find("NaN") == std::string::npos && json.find("inf") == std::string::npos);
}

// Training (issue #45): each candidate's checks read one plan, the best layout on the fewest
// devices that hold the run (no count, deadline or budget given): that many fit, half as many
// do not in any layout, and the decided scenario planned again is the same run (one rule).
void Selection::trainingFindsTheFewestDevices()
{
    const core::Scenario scenario = testsupport::loadScenario(
        QStringLiteral("lesson-default"),
        {QStringLiteral("wizard.regime=\"training\""), QStringLiteral("training.tokens=1e10")});
    const core::Selection s = core::selectDevice(scenario);
    QVERIFY(s.recommendation.found);
    for (const core::Candidate &c : s.candidates) {
        QVERIFY2(c.trainingPlan.has_value(), c.deviceId.c_str());
        const core::TrainingPlan &plan = *c.trainingPlan;
        QVERIFY2(plan.problem.empty(), plan.problem.c_str());
        const double devices = c.check(CheckKind::Memory).figure("devices_needed");
        QCOMPARE(devices, plan.devices);
        QVERIFY(plan.memory.fits);
        if (devices > 1) {
            core::Scenario fewer = c.scenario;
            fewer.training.devices = devices / 2;
            QVERIFY(core::searchTraining(fewer, true).ranked.empty());
        }
        QCOMPARE(c.check(CheckKind::Latency).figure("days"), plan.days);
        QCOMPARE(c.check(CheckKind::Cost).figure("run_cost_usd"), plan.usd);
        QCOMPARE(c.check(CheckKind::Availability).figure("checkpoint_interval_seconds"),
                 plan.reliability.intervalSeconds);
    }
    // 112 GB of state does not fit one 80 GB device (l.63): the 80 GB part needs 2 at least
    const core::Candidate *best = core::recommendedCandidate(s);
    QVERIFY(best);
    QVERIFY(best->trainingPlan->devices >= 2);
    // the decided scenario states the layout: planning it again gives the same run
    const core::Scenario decided = core::decidedScenario(scenario, s);
    const core::TrainingPlan again = core::plannedTraining(decided);
    QVERIFY2(again.problem.empty(), again.problem.c_str());
    QCOMPARE(again.devices, best->trainingPlan->devices);
    QCOMPARE(again.days, best->trainingPlan->days);
    QCOMPARE(again.usd, best->trainingPlan->usd);
    QCOMPARE(core::describeLayout(again.layout), core::describeLayout(best->trainingPlan->layout));
    // and it reads back from its file the same
    auto reread = core::readScenario(core::writeScenario(decided));
    QVERIFY(reread);
    QCOMPARE(core::plannedTraining(reread.value().scenario).days, again.days);
}

// l.200: a 4-bit 3B model needs 1.5 GB of raw weights and may fit a laptop NPU.
void Selection::edgeUsesTheMemoryBesideTheOs()
{
    const core::Selection s =
        core::selectDevice(testsupport::loadScenario(QStringLiteral("edge-3b")));
    QCOMPARE(s.regime, core::Regime::Edge);
    const core::Candidate &npu = s.candidates.front(); // the scenario's own device comes first
    QCOMPARE(npu.weightFormat, core::NumericFormat::Int4);
    ACCEL_COMPARE_NEAR(npu.check(CheckKind::Memory).figure("weights_bytes"), 1.5e9, 1.0);
    ACCEL_COMPARE_NEAR(npu.check(CheckKind::Memory).figure("capacity_bytes"), 8e9, 1.0);
    QCOMPARE(npu.check(CheckKind::Availability).status, CheckStatus::NotApplicable);
    QVERIFY(npu.check(CheckKind::Cost).figure("joules_per_inference") > 0);
    QCOMPARE(npu.check(CheckKind::Effort).status, CheckStatus::Warn); // vendor toolchain
    QVERIFY(s.recommendation.found);
    QCOMPARE(s.recommendation.deviceId, npu.deviceId);
}

void Selection::jsonFollowsTheContract()
{
    const std::string json = core::selectionToJson(
        core::selectDevice(testsupport::loadScenario(QStringLiteral("support-assistant"))));
    for (const char *key : {"\"candidates\"", "\"device\"", "\"weight_format\"", "\"checks\"",
                            "\"name\"", "\"status\"", "\"summary\"", "\"figures\"", "\"verdict\"",
                            "\"recommendation\"", "\"replicas\"", "\"reason\"", "\"api_fallback\""})
        QVERIFY2(json.find(key) != std::string::npos, key);
    for (const char *name :
         {"compatibility", "memory", "latency", "availability", "effort", "\"cost\""})
        QVERIFY2(json.find(name) != std::string::npos, name);
}

namespace {
const char *const kCustom = R"({"serving": {"concurrent_sequences": 40, "context_tokens": 3000,
  "prompt_tokens": 2500, "overhead_gb": 3},
 "wizard": {"candidates": ["lesson-accelerator-48gb"],
  "prices": {"lesson-accelerator-48gb": 2.5, "Quote X": 1.5},
  "custom_devices": [{"name": "Quote X", "memory_gb": 64, "bandwidth_gb_s": 1500,
                      "peak_tflops": {"bf16": 300}, "native_formats": ["bf16"]}]}})";
}

// A quote for a device that is no preset, and a negotiated rate for one that is.
// Issue #42 (an engineer's what-if at 1280x800): with Price per hour typed as $2.00 for the
// scenario's H100, the Cost tab said $23,360.00 a month while the wizard's H100 row kept the
// preset's $4.26 ($49,756.80). The scenario's own device is priced at the typed price; every
// other device keeps its own.
void Selection::aTypedPriceIsTheWizardsPriceForItsDevice()
{
    const auto text = core::scenarioPresetText("llama-70b-fleet");
    QVERIFY(text);
    core::Scenario scenario = core::readScenario(*text).value().scenario;
    QVERIFY(core::setNumberAt(scenario, "cost.price_per_hour_usd", 2.0).ok());
    const core::Selection s = core::selectDevice(scenario);
    bool own = false;
    bool other = false;
    for (const core::Candidate &c : s.candidates) {
        const double price = c.check(CheckKind::Cost).figure("price_per_hour_usd");
        if (c.deviceId == scenario.device.presetId) {
            own = true;
            QCOMPARE(price, 2.0);
        } else if (std::isfinite(price)) {
            other = true;
            QCOMPARE(price, c.device.pricePerHourUsd);
        }
    }
    QVERIFY(own && other);
    // the same fleet costs the same on the Cost tab's figures and the wizard's row
    const core::Evaluation e = core::evaluate(scenario);
    const core::Candidate *same =
        findCandidate(s, scenario.device.presetId, scenario.serving.weightFormat);
    QVERIFY(same);
    QCOMPARE(same->devices, e[core::FigureId::CostDevices]);
    ACCEL_COMPARE_NEAR(same->monthlyCostUsd, e[core::FigureId::CostFleetUsdPerMonth], 1e-6);
}

void Selection::customDevicesAndNegotiatedPrices()
{
    const core::Scenario scenario = testsupport::loadScenario(QString::fromLatin1(kCustom));
    const core::Selection s = core::selectDevice(scenario);
    const core::Candidate *quote = findCandidate(s, "Quote X", core::NumericFormat::Bf16);
    QVERIFY(quote);
    QCOMPARE(quote->check(CheckKind::Cost).figure("price_per_hour_usd"), 1.5);
    QCOMPARE(findCandidate(s, "lesson-accelerator-48gb", core::NumericFormat::Bf16)
                 ->check(CheckKind::Cost)
                 .figure("price_per_hour_usd"),
             2.5);
    ACCEL_COMPARE_NEAR(quote->check(CheckKind::Memory).figure("headroom_bytes"), 64e9 - 32.72864e9,
                       1.0);
    // saved and read back, the decision's inputs are all there
    const auto again = core::readScenario(core::writeScenario(scenario));
    QVERIFY(again.ok());
    QCOMPARE(again.value().scenario.wizard.prices, scenario.wizard.prices);
    QCOMPARE(again.value().scenario.wizard.customDevices.size(), std::size_t(1));
    QCOMPARE(again.value().scenario.wizard.customDevices[0].bandwidthGbPerSecond, 1500.0);
}

void Selection::badWizardSections_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("path");
    QTest::newRow("negative price") << R"({"wizard": {"prices": {"x": -1}}})"
                                    << "/wizard/prices/x";
    QTest::newRow("custom device without bandwidth")
        << R"({"wizard": {"custom_devices": [{"name": "Y", "memory_gb": 8,
              "peak_tflops": {"bf16": 1}}]}})"
        << "/wizard/custom_devices/0";
    QTest::newRow("custom devices not an array")
        << R"({"wizard": {"custom_devices": {"name": "Y"}}})"
        << "/wizard/custom_devices";
}

void Selection::badWizardSections()
{
    QFETCH(QString, json);
    QFETCH(QString, path);
    const auto loaded = core::readScenario(json.toStdString());
    QVERIFY(!loaded.ok());
    QVERIFY2(QString::fromStdString(loaded.error().path).startsWith(path),
             loaded.error().path.c_str());
}

QTEST_GUILESS_MAIN(Selection)

// Issue #42, item 8: the lesson's model is compared on the lesson's accelerators; a real model
// never on them (it got the three hypothetical parts, and the scenario's 80 GB one, in its
// report); a listed set is used as listed.
void Selection::candidatesFollowTheModelUntilListed()
{
    const core::Scenario lesson = testsupport::loadScenario(QStringLiteral("lesson-default"));
    QCOMPARE(core::candidateIds(lesson),
             (std::vector<std::string>{"lesson-accelerator-24gb", "lesson-accelerator-48gb",
                                       "lesson-accelerator"}));
    const core::Scenario real = testsupport::loadScenario(QStringLiteral("lesson-default"),
                                                          {QStringLiteral("model=llama-3-1-70b")});
    const std::vector<std::string> ids = core::candidateIds(real);
    QVERIFY(std::find(ids.begin(), ids.end(), "nvidia-h100-sxm") != ids.end());
    QVERIFY(std::find(ids.begin(), ids.end(), "amd-mi300x") != ids.end());
    QCOMPARE(ids.size(), std::size_t(6)); // H100, H200, B200, MI300X, L40S, A100 80 GB
    for (const std::string &id : ids) {
        QVERIFY2(!id.starts_with("lesson-"), id.c_str());
        const auto device = core::devicePreset(id).value();
        QVERIFY2(device.deployment == core::Deployment::Datacenter, id.c_str());
        QVERIFY2(core::isSet(device.pricePerHourUsd), id.c_str()); // it can win on cost
    }
    const core::Selection selection = core::selectDevice(real);
    for (const core::Candidate &c : selection.candidates)
        QVERIFY2(!c.deviceId.starts_with("lesson-"), c.deviceId.c_str());
    QVERIFY(core::recommendedCandidate(selection));

    // a real device of the scenario's own joins the automatic set; the edge regime has its own
    const core::Scenario onRtx4090 = testsupport::loadScenario(
        QStringLiteral("lesson-default"),
        {QStringLiteral("model=llama-3-1-70b"), QStringLiteral("device=nvidia-rtx-4090")});
    QCOMPARE(core::candidateIds(onRtx4090).front(), std::string("nvidia-rtx-4090"));
    const core::Scenario edge = testsupport::loadScenario(
        QStringLiteral("lesson-default"),
        {QStringLiteral("model=llama-3-1-70b"), QStringLiteral("wizard.regime=\"edge\"")});
    for (const std::string &id : core::candidateIds(edge)) {
        const auto deployment = core::devicePreset(id).value().deployment;
        QVERIFY2(deployment == core::Deployment::Edge || deployment == core::Deployment::Client,
                 id.c_str());
    }

    // the choice is written only once made: a saved scenario keeps following its model
    QVERIFY(core::writeScenario(lesson).find("\"candidates\"") == std::string::npos);
    const core::Scenario listed = testsupport::loadScenario(
        QStringLiteral("lesson-default"), {QStringLiteral("model=llama-3-1-70b"),
                                           QStringLiteral("wizard.candidates=[\"amd-mi300x\"]")});
    QVERIFY(core::writeScenario(listed).find("\"candidates\"") != std::string::npos);
}

void Selection::listedCandidatesAreExactlyThoseChecked()
{
    // the fleet's own device (H100) unlisted is not checked: unticked means left out
    const core::Scenario s = testsupport::loadScenario(
        QStringLiteral("llama-70b-fleet"), {QStringLiteral("wizard.candidates=[\"amd-mi300x\"]")});
    const core::Selection selection = core::selectDevice(s);
    QVERIFY(!selection.candidates.empty());
    for (const core::Candidate &c : selection.candidates)
        QCOMPARE(c.deviceId, std::string("amd-mi300x"));
    // a device that is no preset has no box to untick: it is always checked
    core::Scenario inline_ = s;
    inline_.device.presetId.clear();
    inline_.device.name = "Our rack";
    const core::Selection withInline = core::selectDevice(inline_);
    QCOMPARE(withInline.candidates.front().device.name, std::string("Our rack"));
}

// Issue #42, item 8: the workload page offers the concurrency from the traffic. Little's law,
// L = rate x time in the system, with the time at a batch of L itself (a fixed point).
void Selection::sequencesInFlightByLittlesLaw()
{
    const core::Scenario none = testsupport::loadScenario(QStringLiteral("llama-70b-fleet"));
    QVERIFY(!core::sequencesInFlight(none).available);
    QVERIFY(!core::sequencesInFlight(none).reasoning.empty());

    const core::Scenario s = testsupport::loadScenario(
        QStringLiteral("llama-70b-fleet"), {QStringLiteral("traffic.peak_requests_per_second=2")});
    const core::SequencesInFlight inFlight = core::sequencesInFlight(s);
    QVERIFY(inFlight.available);
    QCOMPARE(inFlight.ratePerSecond, 2.0);
    // the same sum by hand, from the evaluation at the answer's own batch
    core::Scenario at = s;
    at.serving.batch = inFlight.sequences;
    at.serving.concurrentSequences = inFlight.sequences;
    const core::Evaluation e = core::evaluate(at);
    const double stay = e[core::FigureId::PrefillTtftSeconds] +
                        (s.serving.contextTokens - s.serving.promptTokens) /
                            e[core::FigureId::DecodeTokensPerSecondPerSequence];
    QVERIFY(std::fabs(inFlight.secondsInSystem - stay) <= 1e-9 * stay);
    QCOMPARE(inFlight.sequences, std::ceil(2.0 * stay));
    QVERIFY2(inFlight.reasoning.find("Little's law: 2 requests a second") != std::string::npos,
             inFlight.reasoning.c_str());
    // twice the rate, at least twice the sequences (each also waits longer in a larger batch)
    const core::SequencesInFlight doubled = core::sequencesInFlight(testsupport::loadScenario(
        QStringLiteral("llama-70b-fleet"), {QStringLiteral("traffic.peak_requests_per_second=4")}));
    QVERIFY(doubled.sequences >= 2 * inFlight.sequences - 1);

    // a prompt that fills the context generates nothing: said so, not "then 0 tokens at ..."
    const core::SequencesInFlight promptOnly = core::sequencesInFlight(testsupport::loadScenario(
        QStringLiteral("lesson-default"), {QStringLiteral("traffic.peak_requests_per_second=2")}));
    QVERIFY(promptOnly.available);
    QVERIFY2(promptOnly.reasoning.find("no tokens generated") != std::string::npos &&
                 promptOnly.reasoning.find("then 0 tokens") == std::string::npos,
             promptOnly.reasoning.c_str());

    // a rate no batch keeps up with says so instead of a number
    const core::SequencesInFlight flood = core::sequencesInFlight(
        testsupport::loadScenario(QStringLiteral("llama-70b-fleet"),
                                  {QStringLiteral("traffic.peak_requests_per_second=1e9")}));
    QVERIFY(!flood.available);
    QVERIFY2(flood.reasoning.find("no batch keeps up") != std::string::npos,
             flood.reasoning.c_str());
}

#include "tst_selection.moc"
