// SPDX-License-Identifier: GPL-3.0-or-later
// Issue #27: what serving engines do to the roofline, worked out by hand. Speculative decoding's
// expected tokens per verify step and its verify step's bytes and FLOP; prefix caching at a 50 %
// hit rate over a 2,000-token prefix; the KV moved between disaggregated pools; the per-operator
// breakdown's totals against the whole-model figures and its operators against LLM-Viewer's own
// output for Llama-2-7B (tests/fixtures/llmviewer, made by run_llmviewer.py beside it).

#include "testsupport.h"
#include "tools/testpaths.h"

#include "core/data/presetedits.h"
#include "core/data/presets.h"
#include "core/model/parameters.h"
#include "core/model/scenario.h"
#include "core/physics/operators.h"
#include "core/physics/techniques.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

class Techniques : public QObject
{
    Q_OBJECT

private slots:
    void expectedTokensPerVerify_data();
    void expectedTokensPerVerify();
    void verifyStepWithHeadsByHand();
    void draftModelCostsItsOwnDecodeSteps();
    void speculationStopsPayingAtSomeBatch();
    void speculationNeedsItsInputs_data();
    void speculationNeedsItsInputs();
    void prefixCacheAtHalfHitRateByHand();
    void prefixCacheOffAtZeroHitRate();
    void disaggregatedKvTransferByHand();
    void disaggregationNeedsItsInputs();
    void bothPlacesShareTheFirstDecodeStep();
    void nonsenseEngineSettingsAreRefused();
    void engineSectionRoundTrips();
    void splitIsProposedWhenCheaperByHand();
    void operatorTotalsAgreeWithTheModel_data();
    void operatorTotalsAgreeWithTheModel();
    void operatorsMatchLlmViewer_data();
    void operatorsMatchLlmViewer();
    void fusedAttentionKeepsTheScoresOnChip();
    void slidingLayersAttendWithinTheirWindow();
    void operatorsRefuseLatentAttention();
    void operatorsAddUpToTheStep_data();
    void operatorsAddUpToTheStep();
};

namespace {

const QString kLesson = QStringLiteral("lesson-default");
// lesson l.76: 32 layers x 8 KV heads x 128 x 2 (K and V) x 2 bytes = 131,072 B per token
constexpr double kKvPerToken = 131072.0;

double relative(double actual, double expected)
{
    return std::fabs(actual - expected) / std::max(std::fabs(expected), 1e-300);
}

} // namespace

void Techniques::expectedTokensPerVerify_data()
{
    QTest::addColumn<double>("acceptance");
    QTest::addColumn<double>("proposals");
    QTest::addColumn<double>("expected");
    // (1 - a^(K+1)) / (1 - a), Leviathan et al. 2023 eq. 1, worked by hand
    QTest::newRow("a 0.8, K 4: (1 - 0.32768) / 0.2") << 0.8 << 4.0 << 3.3616;
    QTest::newRow("a 0.5, K 1: 1 + 0.5") << 0.5 << 1.0 << 1.5;
    QTest::newRow("a 0.6, K 2: 1 + 0.6 + 0.36") << 0.6 << 2.0 << 1.96;
    QTest::newRow("nothing accepted: the target's own token") << 0.0 << 4.0 << 1.0;
    QTest::newRow("everything accepted: K + 1") << 1.0 << 4.0 << 5.0;
}

void Techniques::expectedTokensPerVerify()
{
    QFETCH(double, acceptance);
    QFETCH(double, proposals);
    QFETCH(double, expected);
    ACCEL_COMPARE_NEAR(core::expectedTokensPerVerify(acceptance, proposals), expected, 1e-12);
}

void Techniques::verifyStepWithHeadsByHand()
{
    // Lesson 7B, batch 1, 4,096-token context; 4 proposals from heads of 0.2 B parameters.
    const auto s = testsupport::loadScenario(
        kLesson, {"serving.batch=1", "engine.speculative_tokens=4", "engine.acceptance_rate=0.8",
                  "engine.draft_kind=heads", "engine.draft_parameters=200000000"});
    auto a = core::analyseSpeculative(s);
    QVERIFY2(a.ok(), a.ok() ? "" : a.error().message.c_str());
    const core::SpeculativePoint &p = a->atBatch;
    // bytes: 14 GB weights + the context's KV + 4 proposals' KV written + the heads (0.4 GB)
    const double bytes = 14e9 + 4096 * kKvPerToken + 4 * kKvPerToken + 0.2e9 * 2;
    ACCEL_COMPARE_NEAR(p.verify.bytes, bytes, 1.0);
    // FLOP: 2 x 7e9 x 5 tokens + the heads once per sequence (2 x 0.2e9)
    ACCEL_COMPARE_NEAR(p.verify.flops, 2 * 7e9 * 5 + 2 * 0.2e9, 1.0);
    QCOMPARE(p.verify.bound, core::Bound::Memory);
    ACCEL_COMPARE_NEAR(p.verify.seconds, bytes / 1e12, 1e-15);
    ACCEL_COMPARE_NEAR(p.tokensPerVerify, 3.3616, 1e-12);
    ACCEL_COMPARE_NEAR(p.tokensPerSecondPerSequence, 3.3616 / (bytes / 1e12), 1e-9);
    // plain decode at batch 1 is the lesson's 14.54 ms step (worked-numbers.md, decode)
    ACCEL_COMPARE_NEAR(p.plain.seconds, 0.014536870912, 1e-15);
    ACCEL_COMPARE_NEAR(p.speedup, 3.3616 / (bytes / 1e12) * 0.014536870912, 1e-9);
    // the verify step sits right of plain decode on the roofline: 5 tokens per weight read
    QVERIFY(p.verify.intensity() > 4.0 * p.plain.intensity());
    ACCEL_COMPARE_NEAR(a->draftWeightBytesPerDevice, 0.4e9, 1.0);
}

void Techniques::draftModelCostsItsOwnDecodeSteps()
{
    // Llama 2 13B verified, Llama 2 7B drafting: the draft's K steps are its decode steps
    const QStringList common = {"model=llama-2-13b", "device=nvidia-a100-80gb-sxm",
                                "serving.batch=4", "serving.context_tokens=2048",
                                "serving.prompt_tokens=1024"};
    auto withSpeculation = common;
    withSpeculation << "engine.speculative_tokens=3"
                    << "engine.draft_model=llama-2-7b";
    const auto s = testsupport::loadScenario(kLesson, withSpeculation);
    auto a = core::analyseSpeculative(s);
    QVERIFY2(a.ok(), a.ok() ? "" : a.error().message.c_str());
    auto draftSide = common;
    draftSide[0] = "model=llama-2-7b";
    const core::Evaluation draft = testsupport::evaluateScenario(kLesson, draftSide);
    ACCEL_COMPARE_NEAR(a->atBatch.draftSeconds, 3 * draft[core::FigureId::DecodeStepSeconds],
                       1e-15);
    ACCEL_COMPARE_NEAR(a->draftWeightBytesPerDevice, draft[core::FigureId::WeightsBytes], 1.0);
    ACCEL_COMPARE_NEAR(a->atBatch.cycleSeconds, a->atBatch.draftSeconds + a->atBatch.verify.seconds,
                       1e-15);
    const core::Evaluation plain = testsupport::evaluateScenario(kLesson, common);
    ACCEL_COMPARE_NEAR(a->atBatch.plain.seconds, plain[core::FigureId::DecodeStepSeconds], 1e-15);
    QCOMPARE(QString::fromStdString(a->draftName), QStringLiteral("Llama-2-7B"));
}

void Techniques::speculationStopsPayingAtSomeBatch()
{
    // Extra tokens are free only while the step is memory-bound: past the batch where the
    // verify step turns compute-bound, speculation costs more than it yields. At 512 tokens a
    // sequence's KV (67 MB) is small beside the weights: the verify step (5 tokens of 1.4e10
    // FLOP each per sequence) turns compute-bound near batch 50 and stops paying near
    // 2.7731 x 14 ms / 0.35 ms ~ 270 (a = 0.7, K = 4).
    const auto s = testsupport::loadScenario(
        kLesson, {"serving.context_tokens=512", "serving.prompt_tokens=256",
                  "engine.speculative_tokens=4", "engine.acceptance_rate=0.7",
                  "engine.draft_kind=heads", "engine.draft_parameters=200000000"});
    auto a = core::analyseSpeculative(s);
    QVERIFY(a.ok());
    const double last = a->lastPayingBatch;
    QVERIFY2(last > 200 && last < 300, qPrintable(QString::number(last)));
    const double batches[] = {1, last, last + 1};
    auto points = core::sweepSpeculative(s, batches);
    QVERIFY(points.ok());
    QCOMPARE(points->size(), std::size_t{3});
    QVERIFY(points.value()[0].speedup > 2.0);
    QVERIFY(points.value()[1].speedup >= 1.0);
    QVERIFY(points.value()[2].speedup < 1.0);
    QCOMPARE(points.value()[2].verify.bound, core::Bound::Compute);
}

void Techniques::speculationNeedsItsInputs_data()
{
    QTest::addColumn<QStringList>("sets");
    QTest::addColumn<QString>("path");
    QTest::newRow("off") << QStringList{} << "/engine/speculative_tokens";
    QTest::newRow("heads without parameters")
        << QStringList{"engine.speculative_tokens=2", "engine.draft_kind=heads"}
        << "/engine/draft_parameters";
    QTest::newRow("model without a draft")
        << QStringList{"engine.speculative_tokens=2"} << "/engine/draft_model";
    QTest::newRow("unknown draft")
        << QStringList{"engine.speculative_tokens=2", "engine.draft_model=no-such-model"}
        << "/engine/draft_model";
}

void Techniques::speculationNeedsItsInputs()
{
    QFETCH(QStringList, sets);
    QFETCH(QString, path);
    auto a = core::analyseSpeculative(testsupport::loadScenario(kLesson, sets));
    QVERIFY(!a.ok());
    QCOMPARE(QString::fromStdString(a.error().path), path);
    QVERIFY(!a.error().message.empty());
    // a draft kind the reader does not know is refused at the field
    auto bad = core::readScenario(R"({"engine": {"draft_kind": "oracle"}})");
    QVERIFY(!bad.ok());
    QCOMPARE(QString::fromStdString(bad.error().path), QStringLiteral("/engine/draft_kind"));
}

void Techniques::prefixCacheAtHalfHitRateByHand()
{
    // 4,096-token prompts sharing a 2,000-token prefix, half of them finding it cached.
    const auto s = testsupport::loadScenario(
        kLesson, {"engine.prefix_tokens=2000", "engine.prefix_hit_rate=0.5"});
    auto a = core::analysePrefixCache(s);
    QVERIFY2(a.ok(), a.ok() ? "" : a.error().message.c_str());
    // a hit prefills 2,096 tokens, a miss 4,096: 3,096 expected
    ACCEL_COMPARE_NEAR(a->tokensPrefilledWith, 3096, 1e-9);
    // FLOP saved: half of 2 x 7e9 x 2,000 = 1.4e13 of the prompt's 5.7344e13
    ACCEL_COMPARE_NEAR(a->flopsWithout, 5.7344e13, 1.0);
    ACCEL_COMPARE_NEAR(a->flopsWith, 5.7344e13 - 1.4e13, 1.0);
    // compute-bound at 200 TFLOP/s: hit 2,096 x 1.4e10 / 2e14 = 0.14672 s, miss 0.28672 s
    ACCEL_COMPARE_NEAR(a->prefillSecondsWithout, 0.28672, 1e-12);
    ACCEL_COMPARE_NEAR(a->prefillSecondsWith, 0.5 * 0.14672 + 0.5 * 0.28672, 1e-12);
    // TTFT adds the one decode step at batch 1 (14.536870912 ms) to both
    ACCEL_COMPARE_NEAR(a->ttftSecondsWithout, 0.28672 + 0.014536870912, 1e-12);
    ACCEL_COMPARE_NEAR(a->ttftSecondsWith, 0.21672 + 0.014536870912, 1e-12);
    // the prefill's share of the $4 device-hour (lesson l.179)
    ACCEL_COMPARE_NEAR(a->usdPerRequestWithout, 4.0 / 3600 * 0.28672, 1e-15);
    ACCEL_COMPARE_NEAR(a->usdPerRequestWith, 4.0 / 3600 * 0.21672, 1e-15);
    // one cached prefix holds 2,000 x 131,072 B; 63.5 GB free for KV held 118 sequences of
    // 0.537 GB, 117 beside the prefix
    ACCEL_COMPARE_NEAR(a->cachedKvBytesPerDevice, 2000 * kKvPerToken, 1e-6);
    QCOMPARE(a->maxConcurrentWithout, 118.0);
    QCOMPARE(a->maxConcurrentWith, 117.0);
    QVERIFY(a->fitsWith);
    // a hit's bytes: the weights, the rest's KV written and the prefix's KV read
    const double hitBytes = 14e9 + 2096 * kKvPerToken + 2000 * kKvPerToken;
    ACCEL_COMPARE_NEAR(a->bytesWith, 0.5 * hitBytes + 0.5 * (14e9 + 4096 * kKvPerToken), 1.0);
}

void Techniques::prefixCacheOffAtZeroHitRate()
{
    const auto s = testsupport::loadScenario(
        kLesson, {"engine.prefix_tokens=2000", "engine.prefix_hit_rate=0"});
    auto a = core::analysePrefixCache(s);
    QVERIFY(a.ok());
    QCOMPARE(a->prefillSecondsWith, a->prefillSecondsWithout);
    QCOMPARE(a->flopsWith, a->flopsWithout);
    QCOMPARE(a->ttftSecondsWith, a->ttftSecondsWithout);
    // many cached prefixes fill the device: the resident sequences no longer fit beside them
    const auto crowded = testsupport::loadScenario(
        kLesson, {"engine.prefix_tokens=4000", "engine.cached_prefixes=200"});
    auto c = core::analysePrefixCache(crowded);
    QVERIFY(c.ok());
    QVERIFY(!c->fitsWith);
    QCOMPARE(c->maxConcurrentWith, 0.0);
    auto off = core::analysePrefixCache(testsupport::loadScenario(kLesson));
    QVERIFY(!off.ok());
    QCOMPARE(QString::fromStdString(off.error().path), QStringLiteral("/engine/prefix_tokens"));
}

void Techniques::disaggregatedKvTransferByHand()
{
    // The lesson's 7B at 4,096 tokens moves 4,096 x 131,072 B = 0.537 GB over 400 Gb/s (50 GB/s);
    // 512 tokens of output leave the decode pool something to do
    const auto full = testsupport::loadScenario(
        kLesson, {"engine.disaggregated=1", "serving.context_tokens=4608"});
    auto a = core::analyseDisaggregation(full);
    QVERIFY2(a.ok(), a.ok() ? "" : a.error().message.c_str());
    ACCEL_COMPARE_NEAR(a->kvBytesPerRequest, 536870912.0, 1e-6);
    ACCEL_COMPARE_NEAR(a->transferSeconds, 536870912.0 / 50e9, 1e-15); // 10.74 ms
    // + one decode step at batch 1 on the 4,608-token context
    const double firstDecode = (14e9 + 4608 * kKvPerToken) / 1e12;
    ACCEL_COMPARE_NEAR(a->ttftSecondsDisaggregated, 0.28672 + 536870912.0 / 50e9 + firstDecode,
                       1e-12);
    ACCEL_COMPARE_NEAR(a->ttftSecondsColocated, 0.28672 + firstDecode, 1e-12);
    QCOMPARE(a->outputTokensPerRequest, 512.0);

    // Half prompt, half output: the pools' capacities by hand
    const auto s = testsupport::loadScenario(
        kLesson, {"serving.prompt_tokens=2048", "engine.disaggregated=1",
                  "engine.prefill_replicas=1", "engine.decode_replicas=3"});
    auto b = core::analyseDisaggregation(s);
    QVERIFY(b.ok());
    ACCEL_COMPARE_NEAR(b->kvBytesPerRequest, 2048 * kKvPerToken, 1e-6);
    ACCEL_COMPARE_NEAR(b->prefillSeconds, 2048 * 1.4e10 / 2e14, 1e-12); // 0.14336 s
    ACCEL_COMPARE_NEAR(b->prefillPoolRequestsPerSecond, 1.0 / 0.14336, 1e-9);
    // batch 8 of 4,096-token contexts: 18.294967296 ms a step (worked-numbers.md)
    const double decodeTokensPerSecond = 8 / 0.018294967296;
    ACCEL_COMPARE_NEAR(b->decodePoolRequestsPerSecond, 3 * decodeTokensPerSecond / 2048, 1e-9);
    ACCEL_COMPARE_NEAR(b->disaggregatedRequestsPerSecond, 3 * decodeTokensPerSecond / 2048, 1e-9);
    ACCEL_COMPARE_NEAR(b->colocatedRequestsPerSecond,
                       4.0 / (0.14336 + 2048 / decodeTokensPerSecond), 1e-9);
    QCOMPARE(b->devicesDisaggregated, 4.0);
    ACCEL_COMPARE_NEAR(b->usdPerHourDisaggregated, 16.0, 1e-12);
    ACCEL_COMPARE_NEAR(b->usdPerHourColocated, 16.0, 1e-12);

    // a faster prefill device shortens the prefill and costs its own price
    const auto other = testsupport::loadScenario(
        kLesson, {"engine.disaggregated=1", "serving.prompt_tokens=2048",
                  "engine.prefill_device=nvidia-a100-80gb-sxm", testsupport::kSpeedOfLight});
    auto c = core::analyseDisaggregation(other);
    QVERIFY(c.ok());
    ACCEL_COMPARE_NEAR(c->prefillSeconds, 2048 * 1.4e10 / 312e12, 1e-12);
    ACCEL_COMPARE_NEAR(c->usdPerHourDisaggregated, 1.99 + 4.0, 1e-12);
}

// Issue #40: the first token is composed once (core::firstTokenSeconds) from the evaluation's
// first decode step (FigureId::PrefillFirstDecodeSeconds); the disaggregated side timed its own
// with a second rule. On a model with sliding windows at a long context (Gemma 3 27B, 32k) the
// two places must still differ by exactly the transfer and the prefill's place.
void Techniques::bothPlacesShareTheFirstDecodeStep()
{
    const auto s = testsupport::loadScenario(
        kLesson, {"engine.disaggregated=1", "serving.context_tokens=32768",
                  "serving.prompt_tokens=30000", "serving.batch=1"});
    auto moved = core::withModelPreset(s, "gemma-3-27b");
    QVERIFY(moved);
    moved->device = core::devicePreset("nvidia-h100-sxm").value();
    auto a = core::analyseDisaggregation(moved.value());
    QVERIFY2(a.ok(), a.ok() ? "" : a.error().message.c_str());
    const core::Evaluation e = core::evaluate(moved.value());
    // the evaluation's own composition
    QCOMPARE(e[core::FigureId::PrefillTtftSeconds],
             e[core::FigureId::PrefillSeconds] + e[core::FigureId::PrefillFirstDecodeSeconds]);
    // the same prefill device on both sides here: only the transfer differs
    ACCEL_COMPARE_NEAR(a->ttftSecondsDisaggregated - a->ttftSecondsColocated,
                       a->transferSeconds + (a->prefillSeconds - e[core::FigureId::PrefillSeconds]),
                       1e-12);
}

// Issue #41, item 6: settings that make no sense passed silently: a 405B draft (or the target
// itself) drafting for the lesson's 7B; 100,000 cached prefix tokens on a 4,096-token prompt
// (13.1 GB of cached KV counted); a 1e-300 GB/s link between the pools (a transfer of 2.7e299 s
// with the split's rate unchanged; at 5e-324 the figures vanished). Each is refused, naming the
// setting and why; a slow but real link caps the split's rate.
void Techniques::nonsenseEngineSettingsAreRefused()
{
    for (const char *draft : {"llama-3-1-405b", "lesson-7b"}) {
        const auto a = core::analyseSpeculative(testsupport::loadScenario(
            kLesson,
            {"engine.speculative_tokens=4", "engine.acceptance_rate=0.8", "engine.draft_kind=model",
             QStringLiteral("engine.draft_model=%1").arg(QLatin1String(draft))}));
        QVERIFY2(!a.ok(), draft);
        QCOMPARE(a.error().path, std::string("/engine/draft_model"));
        QVERIFY2(a.error().message.find("is not smaller than the target") != std::string::npos,
                 a.error().message.c_str());
    }
    const auto prefix = core::analysePrefixCache(testsupport::loadScenario(
        kLesson, {"engine.prefix_tokens=100000", "serving.prompt_tokens=4096"}));
    QVERIFY(!prefix.ok());
    QCOMPARE(prefix.error().path, std::string("/engine/prefix_tokens"));
    QVERIFY2(prefix.error().message.find("longer than the prompt (100,000 of 4,096 tokens)") !=
                 std::string::npos,
             prefix.error().message.c_str());
    // the whole prompt as the prefix is a setting (every request the same prompt)
    QVERIFY(
        core::analysePrefixCache(testsupport::loadScenario(kLesson, {"engine.prefix_tokens=4096",
                                                                     "serving.prompt_tokens=4096"}))
            .ok());
    // a file cannot hold a link below 1 MB/s (0.001 GB/s); a scenario built in code still can
    for (const double link : {1e-300, 5e-324}) {
        core::Scenario s = testsupport::loadScenario(
            kLesson, {"engine.disaggregated=1", "serving.context_tokens=4608"});
        s.engine.kvLinkGbPerSecond = link;
        const auto a = core::analyseDisaggregation(s);
        QVERIFY2(!a.ok(), qPrintable(QString::number(link)));
        QCOMPARE(a.error().path, std::string("/engine/kv_link_gb_s"));
    }
    // 0.1 GB/s moves the 0.537 GB of a 4,096-token prompt in 5.4 s: 0.186 requests/s at most
    const auto slow = core::analyseDisaggregation(
        testsupport::loadScenario(kLesson, {"engine.disaggregated=1", "serving.context_tokens=4608",
                                            "engine.kv_link_gb_s=0.1"}));
    QVERIFY2(slow.ok(), slow.ok() ? "" : slow.error().message.c_str());
    ACCEL_COMPARE_NEAR(slow->disaggregatedRequestsPerSecond, 0.1e9 / 536870912.0, 1e-12);
}

void Techniques::disaggregationNeedsItsInputs()
{
    // a prompt that fills the context leaves the decode pool nothing (lesson-default: 4,096 of
    // 4,096): refused, not 1 token assumed
    auto noOutput =
        core::analyseDisaggregation(testsupport::loadScenario(kLesson, {"engine.disaggregated=1"}));
    QVERIFY(!noOutput.ok());
    QCOMPARE(QString::fromStdString(noOutput.error().path),
             QStringLiteral("/serving/prompt_tokens"));
    auto off = core::analyseDisaggregation(testsupport::loadScenario(kLesson));
    QVERIFY(!off.ok());
    QCOMPARE(QString::fromStdString(off.error().path), QStringLiteral("/engine/disaggregated"));
    auto unknown = core::analyseDisaggregation(
        testsupport::loadScenario(kLesson, {"engine.disaggregated=1", "serving.prompt_tokens=2048",
                                            "engine.prefill_device=no-such-device"}));
    QVERIFY(!unknown.ok());
    QCOMPARE(QString::fromStdString(unknown.error().path),
             QStringLiteral("/engine/prefill_device"));
}

void Techniques::splitIsProposedWhenCheaperByHand()
{
    // 3,968-token prompts, 128 output tokens, 20 requests/s on the lesson's device ($4/h):
    // a request costs a replica its prefill, 3,968 x 1.4e10 / 2e14 = 0.27776 s, and 128 tokens at
    // batch 8 (8 / 18.294967296 ms = 437.28 tokens/s) = 0.29272 s.
    const QStringList workload = {"serving.prompt_tokens=3968",
                                  "traffic.peak_requests_per_second=20"};
    const auto decodeSide = testsupport::loadScenario(kLesson, workload);
    const double prefill = 3968 * 1.4e10 / 2e14;
    const double decodeShare = 128 / (8 / 0.018294967296);
    // the same device for prefill: 6 + 6 replicas against ceil(20 x 0.5705) = 12 colocated
    const core::SplitOption same[] = {{"the same device", &decodeSide}};
    auto even = core::proposeSplit(decodeSide, same);
    QVERIFY(even.has_value());
    QCOMPARE(even->colocatedReplicas, std::ceil(20 * (prefill + decodeShare))); // 12
    QCOMPARE(even->decodeReplicas, std::ceil(20 * decodeShare));                // 6
    QCOMPARE(even->prefillReplicas, std::ceil(20 * prefill));                   // 6
    ACCEL_COMPARE_NEAR(even->usdPerHourColocated, 48.0, 1e-9);
    ACCEL_COMPARE_NEAR(even->usdPerHourSplit, 48.0, 1e-9);
    QVERIFY(!even->cheaper);
    QVERIFY(QString::fromStdString(even->text).contains(QStringLiteral("colocated stays")));
    // a device with 4x the arithmetic at $5/h prefills in 0.06944 s: 2 of them + 6 decode
    // replicas cost $34/h against $48/h
    auto fastPrefill =
        testsupport::loadScenario(kLesson, workload + QStringList{"device.peak_tflops.bf16=800",
                                                                  "cost.price_per_hour_usd=5"});
    const core::SplitOption options[] = {{"the same device", &decodeSide},
                                         {"a compute-rich device", &fastPrefill}};
    auto split = core::proposeSplit(decodeSide, options);
    QVERIFY(split.has_value());
    QVERIFY(split->cheaper);
    QCOMPARE(QString::fromStdString(split->prefillOption), QStringLiteral("a compute-rich device"));
    QCOMPARE(split->prefillReplicas, 2.0);
    ACCEL_COMPARE_NEAR(split->usdPerHourSplit, 2 * 5.0 + 6 * 4.0, 1e-9);
    // first token: its prefill, the 0.52 GB of KV over 50 GB/s, one decode step at batch 1
    ACCEL_COMPARE_NEAR(split->ttftSeconds,
                       3968 * 1.4e10 / 8e14 + 3968 * kKvPerToken / 50e9 + 0.014536870912, 1e-12);
    QVERIFY(QString::fromStdString(split->text).startsWith(QStringLiteral("Split prefill")));
    // a first-token target the split misses: not proposed
    auto strict =
        testsupport::loadScenario(kLesson, workload + QStringList{"serving.ttft_target_s=0.05"});
    const core::SplitOption strictOptions[] = {{"a compute-rich device", &fastPrefill}};
    QVERIFY(!core::proposeSplit(strict, strictOptions).has_value());
    // no traffic, nothing to size
    const auto quiet = testsupport::loadScenario(kLesson, {"serving.prompt_tokens=3968"});
    QVERIFY(!core::proposeSplit(quiet, same).has_value());
    // the wizard weighs it for its recommendation and writes what it found
    const core::Selection selection = core::selectDevice(decodeSide);
    QVERIFY(selection.recommendation.found);
    QVERIFY2(QString::fromStdString(selection.recommendation.split)
                 .contains(QStringLiteral("prefill replicas")),
             selection.recommendation.split.c_str());
    QVERIFY(QString::fromStdString(core::selectionToJson(selection))
                .contains(QStringLiteral("\"split\"")));
    QVERIFY(core::selectDevice(quiet).recommendation.split.empty());
}

void Techniques::engineSectionRoundTrips()
{
    const auto s = testsupport::loadScenario(
        kLesson, {"engine.speculative_tokens=3", "engine.draft_kind=heads",
                  "engine.draft_parameters=1e9", "engine.prefix_tokens=500",
                  "engine.disaggregated=1", "engine.prefill_device=nvidia-a100-80gb-sxm"});
    QVERIFY(s.engine.present);
    auto again = core::readScenario(core::writeScenario(s));
    QVERIFY2(again.ok(), again.ok() ? "" : again.error().message.c_str());
    const core::EngineConfig &e = again.value().scenario.engine;
    QCOMPARE(e.speculativeTokens, 3.0);
    QCOMPARE(QString::fromStdString(e.draftKind), QStringLiteral("heads"));
    QCOMPARE(e.draftParameters, 1e9);
    QCOMPARE(e.prefixTokens, 500.0);
    QCOMPARE(e.disaggregated, 1.0);
    QCOMPARE(QString::fromStdString(e.prefillDevice), QStringLiteral("nvidia-a100-80gb-sxm"));
    // a scenario without the section writes none
    const auto plain = testsupport::loadScenario(kLesson);
    QVERIFY(!plain.engine.present);
    QVERIFY(!QString::fromStdString(core::writeScenario(plain)).contains("\"engine\""));
}

void Techniques::operatorTotalsAgreeWithTheModel_data()
{
    QTest::addColumn<QStringList>("sets");
    QTest::addColumn<bool>("untiedEmbedding");
    QTest::newRow("llama-2-7b, batch 8, 4,096 tokens")
        << QStringList{"model=llama-2-7b", "device=nvidia-a100-80gb-sxm"} << true;
    QTest::newRow("llama-2-7b at TP 2, batch 32")
        << QStringList{"model=llama-2-7b", "device=nvidia-a100-80gb-sxm", "serving.batch=32",
                       "serving.tensor_parallel=2"}
        << true;
    QTest::newRow("lesson 7B, FFN width inferred") << QStringList{} << false;
    QTest::newRow("qwen3-30b-a3b (MoE), batch 16")
        << QStringList{"model=qwen3-30b-a3b", "device=nvidia-a100-80gb-sxm", "serving.batch=16",
                       "serving.concurrent_sequences=16"}
        << true;
}

void Techniques::operatorTotalsAgreeWithTheModel()
{
    QFETCH(QStringList, sets);
    QFETCH(bool, untiedEmbedding);
    sets << "serving.attention_flops=1"
         << "serving.kv_write=1";
    const auto s = testsupport::loadScenario(kLesson, sets);
    const core::Evaluation e = core::evaluate(s);
    // three attention operators: their matrix products are counted apart from the softmax
    auto d = core::operatorBreakdown(s, core::Phase::Decode, core::AttentionKernel::Unfused);
    QVERIFY2(d.ok(), d.ok() ? "" : d.error().message.c_str());
    // Every parameter belongs to an operator, and a step reads what the model step reads.
    QVERIFY2(relative(d->operatorParameters, s.model.parameters) < 1e-9,
             qPrintable(testsupport::describe(d->operatorParameters, s.model.parameters, 0)));
    QVERIFY2(relative(d->weightBytes, e[core::FigureId::DecodeWeightBytesPerStep]) < 1e-9,
             qPrintable(testsupport::describe(d->weightBytes,
                                              e[core::FigureId::DecodeWeightBytesPerStep], 0)));
    // with kv_write the model counts the new tokens' KV the k and v projections store
    QVERIFY2(
        relative(d->kvBytes, e[core::FigureId::DecodeKvBytesPerStep]) < 1e-9,
        qPrintable(testsupport::describe(d->kvBytes, e[core::FigureId::DecodeKvBytesPerStep], 0)));
    // FLOP: the matrix products are the model's 2 x parameters x tokens + attention, less what
    // the model counts for parameters that multiply nothing (norm scales, the embedding lookup)
    double matmul = 0.0;
    double normParameters = 0.0;
    for (const core::OperatorCost &op : d->operators) {
        if (op.kind == core::OperatorKind::Norm)
            normParameters += op.weightBytes / e[core::FigureId::BytesPerParameter] *
                              s.serving.tensorParallel * op.layers;
        else if (!op.name.ends_with("softmax") && !op.name.ends_with("mlp_act") &&
                 op.kind != core::OperatorKind::Elementwise)
            matmul += op.flops * op.layers;
    }
    const double embedding = untiedEmbedding ? s.model.vocabSize * s.model.hiddenSize : 0.0;
    const double tokens = s.serving.batch;
    const double expected = e[core::FigureId::DecodeFlopsPerStep] -
                            2.0 * tokens * (embedding + normParameters) / s.serving.tensorParallel;
    QVERIFY2(relative(matmul, expected) < 1e-9,
             qPrintable(testsupport::describe(matmul, expected, 0)));
    // each operator on its own roof is never faster than the totals on one roofline
    QVERIFY(d->seconds >= d->rooflineSeconds * (1.0 - 1e-12));
    QVERIFY(!d->differences.empty());
}

void Techniques::operatorsMatchLlmViewer_data()
{
    QTest::addColumn<QString>("run");
    QTest::addColumn<QString>("phase");
    QTest::addColumn<double>("batch");
    QTest::addColumn<double>("tokens");
    QTest::newRow("decode, 1,024 tokens, batch 1") << "seq1024_batch1"
                                                   << "decode" << 1.0 << 1024.0;
    QTest::newRow("decode, 4,096 tokens, batch 8") << "seq4096_batch8"
                                                   << "decode" << 8.0 << 4096.0;
    QTest::newRow("prefill, 1,024 tokens") << "seq1024_batch1"
                                           << "prefill" << 1.0 << 1024.0;
}

void Techniques::operatorsMatchLlmViewer()
{
    QFETCH(QString, run);
    QFETCH(QString, phase);
    QFETCH(double, batch);
    QFETCH(double, tokens);
    QFile file((testpaths::fixturesDir() + QStringLiteral("/llmviewer/llama-2-7b-a100-80g.json")));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject viewer = QJsonDocument::fromJson(file.readAll())
                                   .object()["runs"]
                                   .toObject()[run]
                                   .toObject()[phase]
                                   .toObject();
    QVERIFY(!viewer.isEmpty());
    const auto s = testsupport::loadScenario(
        kLesson, {"model=llama-2-7b", "device=nvidia-a100-80gb-sxm", testsupport::kSpeedOfLight,
                  QStringLiteral("serving.batch=%1").arg(batch),
                  QStringLiteral("serving.concurrent_sequences=%1").arg(batch),
                  QStringLiteral("serving.context_tokens=%1").arg(tokens),
                  QStringLiteral("serving.prompt_tokens=%1").arg(tokens)});
    auto d = core::operatorBreakdown(
        s, phase == QLatin1String("decode") ? core::Phase::Decode : core::Phase::Prefill,
        core::AttentionKernel::Unfused);
    QVERIFY(d.ok());
    const auto find = [&d](const QString &name) -> const core::OperatorCost * {
        for (const core::OperatorCost &op : d->operators)
            if (QString::fromStdString(op.name) == name)
                return &op;
        return nullptr;
    };
    const auto field = [&viewer](const QString &op, const char *key) {
        return viewer[op].toObject()[QLatin1String(key)].toDouble();
    };
    // The same assumptions: every figure agrees (LLM-Viewer's are per layer, as are ours).
    QStringList same = {"q_proj",  "k_proj",    "v_proj",   "out_proj", "gate_proj",
                        "up_proj", "down_proj", "attn_add", "mlp_add"};
    if (phase == QLatin1String("decode"))
        same << "qk_matmul"
             << "sv_matmul"
             << "softmax";
    for (const QString &name : same) {
        const core::OperatorCost *op = find(name);
        QVERIFY2(op, qPrintable(name));
        const QString what = name + QStringLiteral(" ") + run;
        QVERIFY2(relative(op->flops, field(name, "OPs")) < 1e-12, qPrintable(what + " FLOP"));
        QVERIFY2(relative(op->weightBytes + 1.0, field(name, "load_weight") + 1.0) < 1e-12,
                 qPrintable(what + " weights"));
        QVERIFY2(relative(op->activationBytes, field(name, "load_act") + field(name, "store_act")) <
                     1e-12,
                 qPrintable(what + " activations"));
        QVERIFY2(relative(op->kvBytes + 1.0, field(name, "load_kv_cache") +
                                                 field(name, "store_kv_cache") + 1.0) < 1e-12,
                 qPrintable(what + " KV"));
        QVERIFY2(relative(op->seconds, field(name, "inference_time")) < 1e-9,
                 qPrintable(what + " time"));
        QCOMPARE(QString::fromLatin1(core::boundKey(op->bound)),
                 viewer[name].toObject()["bound"].toString());
    }
    // Norms: the same FLOP and activations; the app also reads the norm's scale vector.
    for (const QString &name : {QStringLiteral("attn_norm"), QStringLiteral("mlp_norm")}) {
        QVERIFY(relative(find(name)->flops, field(name, "OPs")) < 1e-12);
        QVERIFY(relative(find(name)->activationBytes,
                         field(name, "load_act") + field(name, "store_act")) < 1e-12);
        ACCEL_COMPARE_NEAR(find(name)->weightBytes, 4096 * 2, 1e-9);
    }
    // Where the assumptions differ, by exactly the difference written down in docs/formulas.md:
    // LLM-Viewer counts the output head as 1 operation per multiply-add (the app 2, as every
    // other matrix product) and its activation (mlp_act) over the hidden size, not the FFN width.
    QVERIFY(relative(find("lm_head")->flops, 2.0 * field("lm_head", "OPs")) < 1e-12);
    QVERIFY(relative(find("lm_head")->weightBytes, field("lm_head", "load_weight")) < 1e-12);
    QVERIFY(relative(find("mlp_act")->flops, field("mlp_act", "OPs") * 11008.0 / 4096.0) < 1e-12);
    if (phase == QLatin1String("prefill")) {
        // LLM-Viewer's prefill attends every pair (n^2); causal attention attends n (n + 1) / 2
        const double causal = (tokens + 1.0) / (2.0 * tokens);
        for (const QString &name :
             {QStringLiteral("qk_matmul"), QStringLiteral("sv_matmul"), QStringLiteral("softmax")})
            QVERIFY2(relative(find(name)->flops, field(name, "OPs") * causal) < 1e-12,
                     qPrintable(name));
    }
}

// Issue #43, item 6: engines run attention as one fused kernel (FlashAttention, FlashInfer). The
// Operators view wrote the score matrix through memory, 8.8 GB per matrix product at a 16k
// prompt of Llama 2 7B, and called the prompt's attention memory-bound: fused, its bytes are Q,
// K, V and the output, its FLOP the same, and it is compute-bound.
void Techniques::fusedAttentionKeepsTheScoresOnChip()
{
    const auto s = testsupport::loadScenario(
        kLesson, {"model=llama-2-7b", "device=nvidia-a100-80gb-sxm", testsupport::kSpeedOfLight,
                  "serving.context_tokens=16384", "serving.prompt_tokens=16384"});
    auto unfused = core::operatorBreakdown(s, core::Phase::Prefill, core::AttentionKernel::Unfused);
    auto fused = core::operatorBreakdown(s, core::Phase::Prefill);
    QVERIFY(unfused.ok() && fused.ok());
    QCOMPARE(fused->attentionKernel, core::AttentionKernel::Fused);
    const auto find = [](const core::OperatorBreakdown &b, const char *name) {
        for (const core::OperatorCost &op : b.operators)
            if (op.name == name)
                return op;
        return core::OperatorCost{};
    };
    // 32 heads x 16,384 x 16,385 / 2 causal pairs x 2 B: 8.59 GB of scores written by QK^T
    const double pairs = 16384.0 * 16385.0 / 2.0;
    ACCEL_COMPARE_NEAR(find(unfused.value(), "qk_matmul").activationBytes,
                       (16384.0 * 4096 + 32 * pairs) * 2, 1.0);
    QCOMPARE(find(unfused.value(), "softmax").bound, core::Bound::Memory);
    const core::OperatorCost attention = find(fused.value(), "attention");
    // the same FLOP as the three operators: 2 x 2 x 128 per head and pair, 5 for the softmax
    ACCEL_COMPARE_NEAR(attention.flops,
                       find(unfused.value(), "qk_matmul").flops +
                           find(unfused.value(), "sv_matmul").flops +
                           find(unfused.value(), "softmax").flops,
                       1.0);
    ACCEL_COMPARE_NEAR(attention.flops, (4.0 * 128 + 5) * 32 * pairs, 1.0);
    // Q in and the output out (2 x 16,384 x 4,096 x 2 B); K and V read once from the cache
    ACCEL_COMPARE_NEAR(attention.activationBytes, 2.0 * 16384 * 4096 * 2, 1.0);
    ACCEL_COMPARE_NEAR(attention.kvBytes, 2.0 * 16384 * 4096 * 2, 1.0);
    QCOMPARE(attention.bound, core::Bound::Compute);
    ACCEL_COMPARE_NEAR(attention.seconds, attention.flops / 312e12, 1e-12);
    QVERIFY(attention.activationBytes * 100.0 <
            find(unfused.value(), "qk_matmul").activationBytes +
                find(unfused.value(), "softmax").activationBytes +
                find(unfused.value(), "sv_matmul").activationBytes);
    // the whole prompt, each operator on its own roof: 0.942 s fused against 1.262 s (the issue
    // found the unfused accounting 1.36x slower than measured kernels at 16k tokens)
    ACCEL_COMPARE_NEAR(unfused->seconds / fused->seconds, 1.34, 0.01);
    bool said = false;
    for (const std::string &d : fused->differences)
        said = said || d.find("fused kernel") != std::string::npos;
    QVERIFY(said);
}

void Techniques::slidingLayersAttendWithinTheirWindow()
{
    // Gemma 2 9B: 21 sliding-window (4,096) layers and 21 full ones, at an 8,192-token context
    const auto s = testsupport::loadScenario(
        kLesson, {"model=gemma-2-9b", "device=nvidia-a100-80gb-sxm", "serving.batch=2",
                  "serving.context_tokens=8192", "serving.prompt_tokens=8192"});
    auto d = core::operatorBreakdown(s, core::Phase::Decode, core::AttentionKernel::Unfused);
    QVERIFY2(d.ok(), d.ok() ? "" : d.error().message.c_str());
    const core::OperatorCost *sliding = nullptr;
    const core::OperatorCost *full = nullptr;
    for (const core::OperatorCost &op : d->operators) {
        if (op.name == "sliding dense: qk_matmul")
            sliding = &op;
        if (op.name == "full dense: qk_matmul")
            full = &op;
    }
    QVERIFY(sliding && full);
    QCOMPARE(sliding->layers, 21.0);
    // 2 x 16 heads x 256 x batch 2 x the positions attended
    ACCEL_COMPARE_NEAR(sliding->flops, 2.0 * 16 * 256 * 2 * 4096, 1e-3);
    ACCEL_COMPARE_NEAR(full->flops, 2.0 * 16 * 256 * 2 * 8192, 1e-3);
}

// Issue #43, item 6: the operators pay what the step pays beside its roofs (its all-reduces,
// the estimate's step overhead and time per sequence), so with it they add up to the step's
// time. Before, an A100 decoding Llama-2-7B at batch 32 on the typical estimate gave 51.3 ms of
// operators against a 54.8 ms step (6.4 % short). What is left is the operators' own accounting
// (activations between kernels, each operator on its own roof), said in `differences`; on a
// compute-bound prefill also the FLOP the whole-model 2 x parameters x tokens counts and the
// operators do not run (the embedding lookup; the head beyond the prompt's last token: 2.1 of
// 57.4 TFLOP for Llama-2-7B's 4,096 tokens), added back at the step's compute rate. The typical
// estimate times each layer's small kernels (issue #43): the operators' norms, adds, activation
// and rotary take the step's time for them.
void Techniques::operatorsAddUpToTheStep_data()
{
    QTest::addColumn<QStringList>("sets");
    QTest::addColumn<int>("phase");
    QTest::addColumn<double>("tolerance");
    const QStringList a100{"model=llama-2-7b", "device=nvidia-a100-80gb-sxm",
                           "calibration={\"mode\": \"typical\"}"};
    QTest::newRow("decode, batch 32, typical")
        << (a100 + QStringList{"serving.batch=32"}) << int(core::Phase::Decode) << 0.01;
    QTest::newRow("decode at TP 2, batch 8: the all-reduces too")
        << (a100 + QStringList{"serving.batch=8", "serving.tensor_parallel=2"})
        << int(core::Phase::Decode) << 0.02;
    QTest::newRow("prefill of 4,096 tokens, typical") << a100 << int(core::Phase::Prefill) << 0.01;
    // the lesson's speed of light: nothing beside the roofs
    QTest::newRow("speed of light") << QStringList{} << int(core::Phase::Decode) << 0.05;
}

void Techniques::operatorsAddUpToTheStep()
{
    QFETCH(QStringList, sets);
    QFETCH(int, phase);
    QFETCH(double, tolerance);
    const auto s = testsupport::loadScenario(kLesson, sets);
    const auto d = core::operatorBreakdown(s, core::Phase(phase));
    QVERIFY2(d.ok(), d.ok() ? "" : d.error().message.c_str());
    QCOMPARE(d->stepSeconds, d->seconds + d->beyondRoofsSeconds);
    const core::Evaluation e = core::evaluate(s);
    const bool prefill = core::Phase(phase) == core::Phase::Prefill;
    const double smallKernels = e[prefill ? core::FigureId::PrefillSmallKernelSeconds
                                          : core::FigureId::DecodeSmallKernelSeconds];
    double smallOperators = 0.0;
    bool rotary = false;
    for (const core::OperatorCost &op : d->operators) {
        rotary |= op.name == "rotary";
        if (op.kind == core::OperatorKind::Norm || op.kind == core::OperatorKind::Elementwise ||
            op.name == "mlp_act")
            smallOperators += op.seconds * op.layers;
    }
    if (s.calibration.mode == core::EstimateMode::SpeedOfLight) {
        QCOMPARE(d->beyondRoofsSeconds, 0.0);
        QCOMPARE(smallKernels, 0.0);
        QVERIFY(!rotary);
    } else {
        QVERIFY(d->beyondRoofsSeconds > 0.0);
        QVERIFY(rotary);
        // the layers' norms, adds, activation and rotary, less the head's final norm (its own
        // roofline: a few microseconds)
        QVERIFY2(relative(smallOperators, smallKernels) < 0.01,
                 qPrintable(testsupport::describe(smallOperators, smallKernels, 0)));
    }
    const bool computeBound = prefill && e.prefillBound == core::Bound::Compute;
    const double uncounted = computeBound ? (d->modelFlops - d->flops) / d->peakFlops : 0.0;
    QVERIFY2(relative(d->stepSeconds + uncounted, d->modelSeconds) < tolerance,
             qPrintable(testsupport::describe(d->stepSeconds + uncounted, d->modelSeconds, 0)));
}

void Techniques::operatorsRefuseLatentAttention()
{
    const auto s = testsupport::loadScenario(kLesson, {"model=deepseek-v3"});
    auto d = core::operatorBreakdown(s, core::Phase::Decode);
    QVERIFY(!d.ok());
    QCOMPARE(QString::fromStdString(d.error().path), QStringLiteral("/model"));
    QVERIFY(QString::fromStdString(d.error().message).contains(QStringLiteral("latent")));
}

QTEST_GUILESS_MAIN(Techniques)
#include "tst_techniques.moc"
