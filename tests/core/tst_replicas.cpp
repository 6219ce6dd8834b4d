// SPDX-License-Identifier: GPL-3.0-or-later
// Issue #21: real capacity decisions. A replica is split over a tensor-parallel group (and
// pipeline stages) when one device cannot hold it; the fleet, its cost and the tokens it serves
// come from one cost model; 8- and 4-bit float formats are candidates where a device runs them.

#include "core/data/presets.h"
#include "core/data/scenarioio.h"
#include "core/decide/selection.h"
#include "core/model/scenarioaccess.h"
#include "core/model/units.h"
#include "core/physics/estimateterms.h"
#include "core/physics/evaluation.h"
#include "testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>

using core::CheckKind;
using core::FigureId;
using core::NumericFormat;

namespace {

// Llama-3.1-70B (reference-models.json, counted from its config.json): 70,553,706,496
// parameters, 80 layers, 64 query heads, 8 KV heads of 128. KV per token in BF16: 80 x 2 x 8 x
// 128 x 2 B = 327,680 B; a sequence of 8,192 tokens: 2,684,354,560 B; 64 of them 171.8 GB.
constexpr double kLlamaParameters = 70553706496.0;
constexpr double kKvPerSequence = 80.0 * 2 * 8 * 128 * 2 * 8192;
constexpr double kOverhead = 2.5e9; // the lesson's default runtime and workspace, per device

const QString kLlama70 = QStringLiteral(R"({
  "format": "accel-explorer/scenario", "version": 1, "name": "Llama-3.1-70B, 64 x 8k",
  "model": "llama-3-1-70b", "device": "nvidia-h100-sxm",
  "serving": {"weight_format": "bf16", "concurrent_sequences": 64, "batch": 64,
              "context_tokens": 8192, "prompt_tokens": 7192},
  "wizard": {"regime": "online",
             "candidates": ["nvidia-h100-sxm", "nvidia-h200-sxm", "amd-mi300x", "nvidia-b200",
                            "nvidia-l40s"],
             "formats": ["bf16", "fp8"], "min_replicas": 2}
})");

using testsupport::findCandidate;

/** Per device at TP t: 1/t of the weights, 1/t of 64 sequences' KV (8 KV heads split up to 8
 *  ways), plus the overhead every device keeps. */
double perDevice(double bytesPerParameter, double tp)
{
    return kLlamaParameters * bytesPerParameter / tp + 64 * kKvPerSequence / tp + kOverhead;
}

} // namespace

class Replicas : public QObject
{
    Q_OBJECT

private slots:
    void seventyBillionNeedsASplit_data();
    void seventyBillionNeedsASplit();
    void seventyBillionGetsARecommendation();
    void lessonDecisionIsUnchangedAndItsCostAgrees();
    void aDeviceWithoutAPriceNeverBorrowsOne();
    void kvSplitsByHeadsNotByLatent();
    void moeActiveParametersSetDecodeBytesAtEveryTp();
    void pipelineStagesWhenOneDomainIsNotEnough();
    void beyondTheDomainPaysTheSlowLink();
    void badParallelismIsRefused_data();
    void badParallelismIsRefused();
    void microscalingFormats();
    void fp8OnAmpereIsEmulatedNotUnknown();
    void checkJsonCarriesTheShapeAndTheFleet();
};

// The issue's acceptance: H100 BF16 needs TP 8 per replica, FP8 TP 4; H200 BF16 TP 4, FP8 TP 2.
// Each expected figure is worked out above; the next smaller group must not fit.
void Replicas::seventyBillionNeedsASplit_data()
{
    QTest::addColumn<QString>("device");
    QTest::addColumn<int>("format");
    QTest::addColumn<double>("bytesPerParameter");
    QTest::addColumn<double>("capacity");
    QTest::addColumn<double>("tp");
    const int bf16 = int(NumericFormat::Bf16);
    const int fp8 = int(NumericFormat::Fp8);
    // H100 BF16: TP 4 needs 35.28 + 42.95 + 2.5 = 80.73 GB > 80; TP 8 41.61 GB.
    QTest::newRow("H100 BF16: TP 8") << "nvidia-h100-sxm" << bf16 << 2.0 << 80e9 << 8.0;
    // H100 FP8: TP 2 needs 35.28 + 85.90 + 2.5 = 123.7 GB; TP 4 63.09 GB.
    QTest::newRow("H100 FP8: TP 4") << "nvidia-h100-sxm" << fp8 << 1.0 << 80e9 << 4.0;
    // H200 BF16: TP 2 needs 70.55 + 85.90 + 2.5 = 158.95 GB > 141; TP 4 80.73 GB.
    QTest::newRow("H200 BF16: TP 4") << "nvidia-h200-sxm" << bf16 << 2.0 << 141e9 << 4.0;
    // H200 FP8: one device needs 70.55 + 171.8 + 2.5 = 244.9 GB; TP 2 123.68 GB.
    QTest::newRow("H200 FP8: TP 2") << "nvidia-h200-sxm" << fp8 << 1.0 << 141e9 << 2.0;
}

void Replicas::seventyBillionNeedsASplit()
{
    QFETCH(QString, device);
    QFETCH(int, format);
    QFETCH(double, bytesPerParameter);
    QFETCH(double, capacity);
    QFETCH(double, tp);
    const core::Selection s = core::selectDevice(testsupport::loadScenario(kLlama70));
    const core::Candidate *c = findCandidate(s, device.toStdString(), NumericFormat(format));
    QVERIFY(c);
    QCOMPARE(c->tensorParallel, tp);
    QCOMPARE(c->pipelineParallel, 1.0);
    QCOMPARE(c->replicas, 2.0); // the availability minimum
    QCOMPARE(c->devices, 2 * tp);
    ACCEL_COMPARE_NEAR(c->memoryPerDeviceBytes, perDevice(bytesPerParameter, tp), 1.0);
    QVERIFY(c->memoryPerDeviceBytes < capacity);
    QVERIFY(perDevice(bytesPerParameter, tp / 2) > capacity); // the smaller group does not fit
    QCOMPARE(c->check(CheckKind::Memory).status == core::CheckStatus::Fail, false);
    QVERIFY(c->passes);
    QVERIFY2(
        c->check(CheckKind::Memory).summary.find("Per device of TP " + core::formatNumber(tp, 3)) ==
            0,
        c->check(CheckKind::Memory).summary.c_str());
    // the fleet as engineers say it
    QCOMPARE(core::fleetLabel(*c), core::formatNumber(2 * tp, 3) + " devices = 2 replicas x TP " +
                                       core::formatNumber(tp, 3));
}

void Replicas::seventyBillionGetsARecommendation()
{
    const core::Selection s = core::selectDevice(testsupport::loadScenario(kLlama70));
    const core::Recommendation &r = s.recommendation;
    QVERIFY2(r.found, r.reason.c_str());
    const core::Candidate *best = core::recommendedCandidate(s);
    QVERIFY(best);
    // the cheapest priced fleet that passes: every passing priced candidate costs at least as much
    for (const core::Candidate &c : s.candidates) {
        if (c.passes && std::isfinite(c.monthlyCostUsd))
            QVERIFY(c.monthlyCostUsd >= best->monthlyCostUsd);
    }
    QVERIFY2(r.reason.find(r.shape) != std::string::npos, r.reason.c_str());
    QVERIFY2(r.reason.find("because one device would need") != std::string::npos, r.reason.c_str());
    QVERIFY2(r.reason.find("the availability minimum") != std::string::npos, r.reason.c_str());
    // MI300X has no FP4 units: a passing NVFP4 option on it says it is emulated
    const core::Selection withFp4 = core::selectDevice(testsupport::loadScenario(
        kLlama70, {QStringLiteral("wizard.candidates=[\"amd-mi300x\"]"),
                   QStringLiteral("wizard.formats=[\"bf16\", \"nvfp4\"]")}));
    QVERIFY2(withFp4.recommendation.reason.find("NVFP4 weights also pass on it once validated "
                                                "(emulated") != std::string::npos,
             withFp4.recommendation.reason.c_str());
    // the engine settings name the split
    QVERIFY2(r.engineSettings.back().find("--tensor-parallel-size") != std::string::npos,
             r.engineSettings.back().c_str());
}

// The lesson's decision (l.204-233): 48 GB, BF16, 2 replicas of one device, $4/h each. The
// cost figures agree: tokens a month x $ per million = the month.
void Replicas::lessonDecisionIsUnchangedAndItsCostAgrees()
{
    const core::Selection s =
        core::selectDevice(testsupport::loadScenario(QStringLiteral("support-assistant")));
    const core::Recommendation &r = s.recommendation;
    QCOMPARE(r.deviceId, std::string("lesson-accelerator-48gb"));
    QCOMPARE(r.weightFormat, NumericFormat::Bf16);
    QCOMPARE(r.replicas, 2.0);
    QCOMPARE(r.devices, 2.0);
    QCOMPARE(r.tensorParallel, 1.0);
    const core::Candidate *best = core::recommendedCandidate(s);
    QVERIFY(best);
    QCOMPARE(best->monthlyCostUsd, 2 * 4.0 * 730); // $5,840
    const core::CheckResult &cost = best->check(CheckKind::Cost);
    const double tokens = cost.figure("tokens_per_month");
    const double perMillion = cost.figure("usd_per_million_tokens");
    ACCEL_COMPARE_NEAR(tokens / 1e6 * perMillion, best->monthlyCostUsd, 1e-6);
    ACCEL_COMPARE_NEAR(best->usdPerMillionTokens, perMillion, 1e-12);
    // 70 % of the fleet's busy time (issue #40: a request busies a replica for its prefill and
    // its output): each 2,500-token prompt takes 2 x 7e9 x 2,500 / 200 TFLOP/s = 0.175 s, then
    // 500 tokens at 40 / 29.7 ms; 2 replicas x 500 tokens / that x 0.7 x 3,600 x 730 tokens
    const core::Evaluation e = core::evaluate(best->scenario);
    ACCEL_COMPARE_NEAR(e[FigureId::PrefillSeconds], 0.175, 1e-9);
    const double busyPerRequest = 0.175 + 500.0 / e[FigureId::DecodeTokensPerSecond];
    ACCEL_COMPARE_NEAR(tokens, 0.7 * 2 * 500.0 / busyPerRequest * 3600 * 730, 1.0);
    QVERIFY2(cost.summary.find("no traffic given: utilisation assumed") != std::string::npos,
             cost.summary.c_str());
}

void Replicas::aDeviceWithoutAPriceNeverBorrowsOne()
{
    // Gaudi 3: no public on-demand price was found; the scenario's device costs $4.26/h
    const core::Scenario scenario = testsupport::loadScenario(
        kLlama70, {QStringLiteral("wizard.candidates=[\"nvidia-h100-sxm\", \"intel-gaudi3\"]")});
    const core::Selection s = core::selectDevice(scenario);
    const core::Candidate *gaudi = findCandidate(s, "intel-gaudi3", NumericFormat::Bf16);
    QVERIFY(gaudi);
    QVERIFY(std::isnan(gaudi->usdPerHour));
    QVERIFY(std::isnan(gaudi->monthlyCostUsd));
    QVERIFY(std::isnan(gaudi->usdPerMillionTokens));
    QCOMPARE(gaudi->check(CheckKind::Cost).headline, std::string("price needed"));
    const core::Candidate *h100 = findCandidate(s, "nvidia-h100-sxm", NumericFormat::Bf16);
    QVERIFY(h100 && std::isfinite(h100->monthlyCostUsd));
    // it passes, but the priced device wins on cost whatever its size
    QVERIFY(gaudi->passes);
    QCOMPARE(s.recommendation.deviceId, std::string("nvidia-h100-sxm"));
}

// TP splits K and V by head; with fewer KV heads than devices each holds one whole head; an MLA
// latent is kept whole on every device.
void Replicas::kvSplitsByHeadsNotByLatent()
{
    auto kvTotal = [](const QString &model, int tp) {
        return testsupport::evaluateScenario(
            QStringLiteral("lesson-default"),
            {QStringLiteral("model=\"%1\"").arg(model), QStringLiteral("device=\"nvidia-b200\""),
             QStringLiteral("serving.tensor_parallel=%1").arg(tp)});
    };
    const core::Evaluation one = kvTotal(QStringLiteral("llama-3-1-70b"), 1);
    const core::Evaluation eight = kvTotal(QStringLiteral("llama-3-1-70b"), 8);
    const core::Evaluation sixteen = kvTotal(QStringLiteral("llama-3-1-70b"), 16);
    ACCEL_COMPARE_NEAR(eight[FigureId::KvBytesTotal], one[FigureId::KvBytesTotal] / 8, 1.0);
    // 8 KV heads over 16 devices: each holds one head, the KV divides by 8, not 16
    ACCEL_COMPARE_NEAR(sixteen[FigureId::KvBytesTotal], one[FigureId::KvBytesTotal] / 8, 1.0);
    QVERIFY(sixteen.has(core::EvalWarning::KvHeadsReplicated));
    ACCEL_COMPARE_NEAR(sixteen[FigureId::WeightsBytes], one[FigureId::WeightsBytes] / 16, 1.0);
    // DeepSeek-V3's latent (512 + 64 per token and layer) is the same on every device
    const core::Evaluation latent1 = kvTotal(QStringLiteral("deepseek-v3"), 1);
    const core::Evaluation latent8 = kvTotal(QStringLiteral("deepseek-v3"), 8);
    ACCEL_COMPARE_NEAR(latent8[FigureId::KvBytesTotal], latent1[FigureId::KvBytesTotal], 1.0);
    ACCEL_COMPARE_NEAR(latent8[FigureId::WeightsBytes], latent1[FigureId::WeightsBytes] / 8, 1.0);

    // Issue #22's case: DeepSeek (671,026,419,200 parameters) in FP8 on 8 x H200 at 32,768
    // tokens. Per device: 671.03 GB / 8 = 83.88 GB of weights, 141 - 83.88 - 2.5 = 54.62 GB for
    // KV; one sequence's latent is 61 layers x 576 x 2 B x 32,768 = 2.303 GB on every device:
    // floor(54.62 / 2.303) = 23 sequences (189 when the latent was divided by 8).
    const core::Evaluation r1 = testsupport::evaluateScenario(
        QStringLiteral("lesson-default"),
        {QStringLiteral("model=\"deepseek-v3\""), QStringLiteral("device=\"nvidia-h200-sxm\""),
         QStringLiteral("serving.tensor_parallel=8"),
         QStringLiteral("serving.weight_format=\"fp8\""),
         QStringLiteral("serving.context_tokens=32768"),
         QStringLiteral("serving.prompt_tokens=30000")});
    const double latentPerSequence = 61.0 * 576 * 2 * 32768;
    ACCEL_COMPARE_NEAR(r1[FigureId::KvBytesPerSequence], latentPerSequence, 1.0);
    const double free = 141e9 - 671026419200.0 / 8 - 2.5e9;
    QCOMPARE(r1[FigureId::MaxConcurrentSequences], std::floor(free / latentPerSequence));
    QCOMPARE(r1[FigureId::MaxConcurrentSequences], 23.0);
}

// Mixtral 8x7B: at batch 1 a step reads the shared weights plus the 2 routed experts, i.e. the
// 12,879,925,248 active parameters, split over the TP group, less the 31,999 input-embedding rows
// (of 4,096) the one token does not look up.
void Replicas::moeActiveParametersSetDecodeBytesAtEveryTp()
{
    for (int tp : {1, 2, 4, 8}) {
        const core::Evaluation e = testsupport::evaluateScenario(
            QStringLiteral("lesson-default"),
            {QStringLiteral("model=\"mixtral-8x7b\""), QStringLiteral("device=\"nvidia-h100-sxm\""),
             QStringLiteral("serving.batch=1"), testsupport::kSpeedOfLight,
             QStringLiteral("serving.tensor_parallel=%1").arg(tp)});
        ACCEL_COMPARE_NEAR(e[FigureId::DecodeWeightBytesPerStep],
                           (12879925248.0 - 31999.0 * 4096) * 2 / tp, 1.0);
        ACCEL_COMPARE_NEAR(e[FigureId::WeightsBytes], 46702792704.0 * 2 / tp, 1.0);
        ACCEL_COMPARE_NEAR(e[FigureId::DecodeFlopsPerStep], 2 * 12879925248.0 / tp, 1.0);
    }
    // split over devices, the checks say when expert parallelism would matter (the stretch goal)
    const core::Selection s = core::selectDevice(testsupport::loadScenario(
        kLlama70, {QStringLiteral("model=\"mixtral-8x7b\""),
                   QStringLiteral("wizard.candidates=[\"nvidia-h100-sxm\"]")}));
    const core::Candidate *h100 = findCandidate(s, "nvidia-h100-sxm", NumericFormat::Bf16);
    QVERIFY(h100 && h100->tensorParallel > 1);
    QVERIFY2(h100->check(CheckKind::Compatibility).summary.find("expert parallelism") !=
                 std::string::npos,
             h100->check(CheckKind::Compatibility).summary.c_str());
}

// Llama-3.1-405B in BF16 is 811 GB: 8 H100s hold 640 GB, so the replica needs two nodes.
void Replicas::pipelineStagesWhenOneDomainIsNotEnough()
{
    const core::Scenario scenario = testsupport::loadScenario(
        kLlama70, {QStringLiteral("model=\"llama-3-1-405b\""),
                   QStringLiteral("serving.concurrent_sequences=8"),
                   QStringLiteral("serving.batch=8"), QStringLiteral("wizard.formats=[\"bf16\"]"),
                   QStringLiteral("wizard.candidates=[\"nvidia-h100-sxm\"]")});
    const core::Selection s = core::selectDevice(scenario);
    const core::Candidate *c = findCandidate(s, "nvidia-h100-sxm", NumericFormat::Bf16);
    QVERIFY(c);
    QCOMPARE(c->tensorParallel, 8.0);
    QCOMPARE(c->pipelineParallel, 2.0);
    QCOMPARE(c->devices, 2 * 16.0);
    QVERIFY(c->memoryPerDeviceBytes < 80e9);
    // the stages hand activations over the inter-node link: a step costs more than the bytes
    const core::Evaluation e = core::evaluate(c->scenario);
    QVERIFY(e[FigureId::DecodeCommunicationSeconds] > 0);
    QCOMPARE(e[FigureId::Devices], 16.0);
    QCOMPARE(core::shapeLabel(8, 2), std::string("TP 8 x PP 2"));
}

// TP 16 on H100 (8 per NVLink domain): the all-reduces cross nodes at 12.5 GB/s.
void Replicas::beyondTheDomainPaysTheSlowLink()
{
    auto at = [](int tp) {
        return testsupport::evaluateScenario(
            QStringLiteral("lesson-default"),
            {QStringLiteral("model=\"llama-3-1-70b\""),
             QStringLiteral("device=\"nvidia-h100-sxm\""),
             QStringLiteral("serving.tensor_parallel=%1").arg(tp)});
    };
    const core::Evaluation inside = at(8);
    const core::Evaluation across = at(16);
    QVERIFY(!inside.has(core::EvalWarning::TensorParallelBeyondDomain));
    QVERIFY(across.has(core::EvalWarning::TensorParallelBeyondDomain));
    // per all-reduce at batch 8: 8 x 8,192 x 2 B = 131,072 B; the ring moves 2 x 15/16 of it
    // per device: 245,760 B over 12.5 GB/s = 19.7 us, plus the latency (the network's 10 us, or
    // the typical estimate's fitted all-reduce where that is longer); 160 of them a step
    const core::Scenario across16 = testsupport::loadScenario(
        QStringLiteral("lesson-default"),
        {QStringLiteral("model=\"llama-3-1-70b\""), QStringLiteral("device=\"nvidia-h100-sxm\""),
         QStringLiteral("serving.tensor_parallel=16")});
    const double fitted = core::estimateTerms(across16).collectiveLatencySeconds;
    const double latency = std::isnan(fitted) ? 10e-6 : std::max(10e-6, fitted);
    const double expected = 160 * (2.0 * 15 / 16 * 131072 / 12.5e9 + latency);
    ACCEL_COMPARE_NEAR(across[FigureId::DecodeCommunicationSeconds], expected, 1e-9);
    QVERIFY(across[FigureId::DecodeCommunicationSeconds] >
            inside[FigureId::DecodeCommunicationSeconds]);
}

void Replicas::badParallelismIsRefused_data()
{
    QTest::addColumn<QString>("set");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("words");
    QTest::newRow("TP 3 does not divide 64 heads") << "serving.tensor_parallel=3"
                                                   << "/serving/tensor_parallel"
                                                   << "does not divide";
    QTest::newRow("TP 32 with 8 KV heads is valid (replicated heads)")
        << "serving.tensor_parallel=32"
        << ""
        << "";
    QTest::newRow("more stages than layers") << "serving.pipeline_parallel=81"
                                             << "/serving/pipeline_parallel"
                                             << "80 layers";
    QTest::newRow("negative price") << "cost.price_per_hour_usd=-1"
                                    << "/cost/price_per_hour_usd"
                                    << "";
    QTest::newRow("absurd price") << "cost.price_per_hour_usd=1e6"
                                  << "/cost/price_per_hour_usd"
                                  << "";
    QTest::newRow("negotiated price out of range") << "wizard.prices={\"nvidia-h100-sxm\": 1e6}"
                                                   << "/wizard/prices/nvidia-h100-sxm"
                                                   << "100,000";
}

void Replicas::badParallelismIsRefused()
{
    QFETCH(QString, set);
    QFETCH(QString, path);
    QFETCH(QString, words);
    const std::string text = kLlama70.toStdString();
    const std::vector<std::string> sets{set.toStdString()};
    const auto loaded = core::readScenario(text, sets);
    if (path.isEmpty()) { // 32 devices, 8 KV heads: each holds a replicated head; valid
        QVERIFY(loaded);
        return;
    }
    QVERIFY(!loaded);
    QCOMPARE(QString::fromStdString(loaded.error().path), path);
    QVERIFY2(QString::fromStdString(loaded.error().message).contains(words),
             loaded.error().message.c_str());
    // the same rule for an edit in the app, which leaves the scenario as it was
    core::Scenario s = testsupport::loadScenario(kLlama70);
    if (set.startsWith(QStringLiteral("serving."))) {
        const QString key = set.section(QLatin1Char('='), 0, 0);
        const double value = set.section(QLatin1Char('='), 1).toDouble();
        QVERIFY(!core::setNumberAt(s, key.toStdString(), value));
        QCOMPARE(s.serving.tensorParallel, 1.0);
        QCOMPARE(s.serving.pipelineParallel, 1.0);
    }
}

// NVFP4: E2M1 + one E4M3 scale per 16 = 4.5 bits; MXFP4: + one E8M0 scale per 32 = 4.25 bits.
void Replicas::microscalingFormats()
{
    const core::QuantLayout none;
    QCOMPARE(core::bytesPerParameter(NumericFormat::Nvfp4, none), 4.5 / 8);
    QCOMPARE(core::bytesPerParameter(NumericFormat::Mxfp4, none), 4.25 / 8);
    QCOMPARE(core::parseFormat("nvfp4"), std::optional(NumericFormat::Nvfp4));
    // B200 runs NVFP4 natively: the compute roof is its dense FP4 peak, 9,000 TFLOP/s
    const core::Evaluation b200 = testsupport::evaluateScenario(
        QStringLiteral("lesson-default"),
        {QStringLiteral("model=\"llama-3-1-70b\""), QStringLiteral("device=\"nvidia-b200\""),
         QStringLiteral("serving.weight_format=\"nvfp4\"")});
    QCOMPARE(b200.computeFormat, NumericFormat::Nvfp4);
    QCOMPARE(b200[FigureId::PeakFlops], 9000e12);
    ACCEL_COMPARE_NEAR(b200[FigureId::WeightsBytes], kLlamaParameters * 0.5625, 1.0);
    // H100 has no FP4 units: FP8 weights use its FP8 peak, NVFP4 is computed in BF16
    const core::Evaluation h100 = testsupport::evaluateScenario(
        QStringLiteral("lesson-default"), {QStringLiteral("device=\"nvidia-h100-sxm\""),
                                           QStringLiteral("serving.weight_format=\"fp8\"")});
    QCOMPARE(h100[FigureId::PeakFlops], 1979e12);
}

// Ampere has no FP8 units: the datasheet says so, the check says "emulated or unsupported".
void Replicas::fp8OnAmpereIsEmulatedNotUnknown()
{
    const core::Scenario scenario = testsupport::loadScenario(
        kLlama70,
        {QStringLiteral("wizard.candidates=[\"nvidia-h100-sxm\", \"nvidia-a100-80gb-sxm\"]"),
         QStringLiteral("wizard.formats=[\"fp8\", \"nvfp4\"]")});
    const core::Selection s = core::selectDevice(scenario);
    for (NumericFormat f : {NumericFormat::Fp8, NumericFormat::Nvfp4}) {
        const core::Candidate *a100 = findCandidate(s, "nvidia-a100-80gb-sxm", f);
        QVERIFY(a100);
        const core::CheckResult &compat = a100->check(CheckKind::Compatibility);
        QVERIFY2(compat.headline.find("emulated or unsupported") != std::string::npos,
                 compat.headline.c_str());
        QVERIFY(compat.headline.find("unknown") == std::string::npos);
        QCOMPARE(compat.status, core::CheckStatus::Warn);
    }
    // FP8 on H100 is native: no warning
    const core::Candidate *h100 = findCandidate(s, "nvidia-h100-sxm", NumericFormat::Fp8);
    QVERIFY(h100);
    QCOMPARE(h100->check(CheckKind::Compatibility).status, core::CheckStatus::Pass);
}

void Replicas::checkJsonCarriesTheShapeAndTheFleet()
{
    const core::Selection s = core::selectDevice(testsupport::loadScenario(kLlama70));
    const QJsonObject doc =
        QJsonDocument::fromJson(QByteArray::fromStdString(core::selectionToJson(s))).object();
    const QJsonObject rec = doc.value("recommendation").toObject();
    for (const char *key :
         {"tensor_parallel", "pipeline_parallel", "replicas", "devices", "memory_per_device_bytes",
          "usd_per_hour", "usd_per_month", "usd_per_million_tokens"})
        QVERIFY2(rec.value(QLatin1String(key)).isDouble(), key);
    const QJsonArray candidates = doc.value("candidates").toArray();
    for (const QJsonValue value : candidates) {
        const QJsonObject c = value.toObject();
        QVERIFY(c.value("tensor_parallel").isDouble());
        QVERIFY(c.value("devices").isDouble());
        QCOMPARE(c.value("devices").toDouble(), c.value("replicas").toDouble() *
                                                    c.value("tensor_parallel").toDouble() *
                                                    c.value("pipeline_parallel").toDouble());
        QCOMPARE(c.value("usd_per_hour").isNull(), c.value("usd_per_month").isNull());
    }
    // a device without a price writes null, never another device's figure
    const core::Selection gaudi = core::selectDevice(testsupport::loadScenario(
        kLlama70, {QStringLiteral("wizard.candidates=[\"nvidia-h100-sxm\", \"intel-gaudi3\"]")}));
    const QJsonObject unpriced =
        QJsonDocument::fromJson(QByteArray::fromStdString(core::selectionToJson(gaudi)))
            .object()
            .value("candidates")
            .toArray()
            .at(2) // after the scenario's H100 in BF16 and FP8
            .toObject();
    QCOMPARE(unpriced.value("device").toString(), QStringLiteral("intel-gaudi3"));
    QVERIFY(unpriced.value("usd_per_hour").isNull());
    QVERIFY(unpriced.value("usd_per_month").isNull());
    QVERIFY(unpriced.value("usd_per_million_tokens").isNull());
}

QTEST_GUILESS_MAIN(Replicas)
#include "tst_replicas.moc"
