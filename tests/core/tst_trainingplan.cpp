// SPDX-License-Identifier: GPL-3.0-or-later
// A training run planned (issue #45): each term of the plan worked by hand on the lesson's
// accelerator at the speed of light, and the plan of each published run's own layout against
// its measured throughput (tests/fixtures/training/published-runs.json).

#include "core/data/presets.h"
#include "core/data/scenarioio.h"
#include "core/model/architecture.h"
#include "core/model/scenario.h"
#include "core/model/units.h"
#include "core/train/trainingplan.h"
#include "testsupport.h"
#include "tools/testpaths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <vector>

using testsupport::loadScenario;

namespace {

// A 1.5-billion-parameter GPT on the lesson's accelerator (200 TFLOP/s BF16, 1,000 GB/s, an
// 8-device link of 100 GB/s): numbers small enough to follow by hand.
constexpr double kParameters = 1.5e9;
constexpr double kLayers = 24;
constexpr double kHidden = 2048;
constexpr double kVocab = 32000;
constexpr double kPeak = 200e12;
constexpr double kBandwidth = 1000e9;

QString gpt(const QString &training)
{
    return QStringLiteral(
               R"({"format": "accel-explorer/scenario", "version": 1, "name": "hand",
                   "model": {"name": "GPT 1.5B", "parameters": 1.5e9, "layers": 24,
                             "hidden_size": 2048, "attention_heads": 16, "kv_heads": 16,
                             "intermediate_size": 8192, "vocab_size": 32000,
                             "tie_embeddings": true},
                   "device": "lesson-accelerator",
                   "calibration": {"mode": "speed_of_light"},
                   "training": %1})")
        .arg(training);
}

core::TrainingLayout layout(double tp, double pp, double dp, double zero = 0,
                            core::RecomputeMode recompute = core::RecomputeMode::None,
                            double micro = 1)
{
    core::TrainingLayout l;
    l.tensor = tp;
    l.pipeline = pp;
    l.data = dp;
    l.zeroStage = zero;
    l.recompute = recompute;
    l.microBatch = micro;
    return l;
}

bool near(double actual, double expected, double relative)
{
    return std::abs(actual - expected) <= relative * std::abs(expected);
}

} // namespace

class TestTrainingPlan : public QObject
{
    Q_OBJECT

private slots:
    void oneDeviceStepByHand();
    void pipelineBubbleByHand();
    void stepTimelineAddsUpToTheStep();
    void formulasCarryThePlansNumbers();
    void aBudgetNoPlanMeetsShowsTheDeadlinesCheapest();
    void aStatedDegreeThatCannotRunSaysWhy();
    void zeroShardsByHand_data();
    void zeroShardsByHand();
    void activationsOfALayoutByHand();
    void checkpointIntervalByHand();
    void runLengthAndCostByHand();
    void mfuIsModelFlopOverPeak();
    void layoutsThatCannotRunSayWhy_data();
    void layoutsThatCannotRunSayWhy();
    void aCountTheDegreesDoNotMakeIsRefused();
    void searchOfA70BOn1024H100();
    void deadlineTakesTheFewestDevicesThatMeetIt();
    void publishedRunsFromTheirOwnLayouts();
    void devicesRankAsTheirMatmulsDo();
    void aShortRunSaysWhatWholeHoursCost();
    void recomputationNeverHelpsSpeedOrHurtsMemory();
    void shortSequencesGetALayout();
    void fp8RunsAttentionInBf16();
    void aDeadlineNoCountMeetsShowsTheFastest();
    void scenarioKeysRoundTrip();
    void unknownTrainingFormatNamesTheField();
};

void TestTrainingPlan::oneDeviceStepByHand()
{
    // 1 device, micro-batch 1, global batch 8 of 2,048 tokens: 8 micro-batches, no bubble
    const core::Scenario s =
        loadScenario(gpt(R"({"sequence_length": 2048, "global_batch": 8, "tokens": 1e9})"));
    const core::TrainingPlan plan = core::planTraining(s, layout(1, 1, 1));
    QVERIFY2(plan.problem.empty(), plan.problem.c_str());
    const double s2048 = 2048;
    // matmuls: 6 FLOP per parameter per token for the layers (the input table is a lookup) and
    // for the output head (a vocab x hidden matmul, the tied table again)
    const double table = kVocab * kHidden;
    const double matmul = 6.0 * (kParameters - table) * s2048 + 6.0 * table * s2048;
    // causal attention, forward: 2 x 2 x heads x head dim per layer and attended pair, i(i+1)/2
    // pairs; training 3x
    const double attention = 3.0 * 4.0 * kHidden * kLayers * s2048 * (s2048 + 1) / 2.0;
    const double micro = (matmul + attention) / kPeak;
    QVERIFY(near(plan.step.microBatchSeconds, micro, 1e-12));
    QCOMPARE(plan.step.microBatches, 8.0);
    QCOMPARE(plan.step.bubbleSeconds, 0.0);
    // the optimiser step reads and writes 28 bytes per parameter (Adam, mixed precision)
    const double optimizer = kParameters * 28.0 / kBandwidth;
    QVERIFY(near(plan.step.optimizerSeconds, optimizer, 1e-12));
    QVERIFY(near(plan.step.total, 8.0 * micro + optimizer, 1e-12));
    QVERIFY(near(plan.tokensPerSecond, 8.0 * s2048 / plan.step.total, 1e-12));
    // the roofline's training point: the MLP's up projection, 2,048 tokens x 2,048 x 8,192 in
    // BF16, 2 M K N FLOP over 2 (M K + K N + M N) bytes = 16,777,216 / 18,432 = 910.2 FLOP/B,
    // compute-bound on the lesson's accelerator (ridge 200 FLOP/B): at its peak
    QCOMPARE(plan.gemmTokens, 2048.0);
    QVERIFY(near(plan.gemmIntensity, 2048.0 * 8192.0 / 18432.0, 1e-12));
    QCOMPARE(plan.gemmFlopsPerSecond, kPeak);
    // and the layer's other matmuls: QKV (K 2,048, N 6,144: 16 KV heads), output (2,048 x
    // 2,048) and the MLP's down (8,192 x 2,048): 2 M K N / 2 (M K + K N + M N)
    QCOMPARE(plan.gemms.size(), std::size_t(4));
    auto intensity = [](double m, double k, double n) {
        return m * k * n / (m * k + k * n + m * n);
    };
    QVERIFY(near(plan.gemms[1].intensity, intensity(2048, 2048, 6144), 1e-12));
    QVERIFY(near(plan.gemms[2].intensity, intensity(2048, 2048, 2048), 1e-12));
    QVERIFY(near(plan.gemms[3].intensity, intensity(2048, 8192, 2048), 1e-12));
}

void TestTrainingPlan::pipelineBubbleByHand()
{
    // 4 stages, global batch 16 of micro-batch 1: 1F1B runs 16 + 4 - 1 = 19 slots, 3 idle
    // (Narayanan et al. 2021, section 2.2.1: bubble (p - 1) / m of the ideal time)
    const core::Scenario s =
        loadScenario(gpt(R"({"sequence_length": 2048, "global_batch": 16, "tokens": 1e9})"));
    const core::TrainingPlan plan = core::planTraining(s, layout(1, 4, 1));
    QVERIFY2(plan.problem.empty(), plan.problem.c_str());
    QCOMPARE(plan.step.microBatches, 16.0);
    QVERIFY(near(plan.step.bubbleFraction, 3.0 / 19.0, 1e-15));
    QVERIFY(near(plan.step.bubbleSeconds, 3.0 * plan.step.microBatchSeconds, 1e-15));
    QVERIFY(near(plan.step.total, 19.0 * plan.step.microBatchSeconds + plan.step.optimizerSeconds,
                 1e-12));
    // each stage holds a quarter of the 24 layers: a quarter of one device's matmul time
    const core::TrainingPlan whole = core::planTraining(s, layout(1, 1, 1));
    const double head = 6.0 * kVocab * kHidden * 2048 / kPeak;
    QVERIFY(near(plan.step.matmulSeconds / 19.0 - head,
                 (whole.step.matmulSeconds / 16.0 - head) / 4.0, 1e-9));
}

void TestTrainingPlan::stepTimelineAddsUpToTheStep()
{
    // TP 2 x PP 4 x DP 2 over 16 devices: every kind of part, and the interruptions of a
    // 1,000-hour device MTBF (one device in 16 fails every 62.5 h)
    const core::Scenario s =
        loadScenario(gpt(R"({"sequence_length": 2048, "global_batch": 32, "tokens": 1e11,
                             "device_mtbf_hours": 1000})"));
    const core::TrainingPlan plan = core::planTraining(s, layout(2, 4, 2, 1));
    QVERIFY2(plan.problem.empty(), plan.problem.c_str());
    const std::vector<core::TimelinePart> parts = core::stepTimeline(plan);
    double sum = 0;
    double work = 0;
    double resilience = 0;
    double bubble = 0;
    for (const auto &part : parts) {
        QVERIFY2(part.seconds > 0.0, part.name.c_str());
        sum += part.seconds;
        if (part.kind == core::TimelinePart::Kind::Resilience)
            resilience += part.seconds;
        else if (part.kind == core::TimelinePart::Kind::Idle)
            bubble += part.seconds;
        else if (part.name != "Optimiser" && part.name != "Gradient reduction (exposed)")
            work += part.seconds;
    }
    // the 16 micro-batches per pipeline (32 / DP 2) each take one micro-batch slot of work; the
    // bubble is the other 3 slots; interruptions the step's time over the goodput, less the step
    QCOMPARE(plan.step.microBatches, 16.0);
    QVERIFY(near(work, 16.0 * plan.step.microBatchSeconds, 1e-12));
    QVERIFY(near(bubble, 3.0 * plan.step.microBatchSeconds, 1e-12));
    QVERIFY(plan.reliability.goodput < 1.0);
    QVERIFY(near(resilience, plan.step.total * (1.0 / plan.reliability.goodput - 1.0), 1e-9));
    QVERIFY(near(sum, plan.step.total / plan.reliability.goodput, 1e-12));
    const auto named = [&](const char *name) {
        return std::any_of(parts.begin(), parts.end(),
                           [&](const core::TimelinePart &p) { return p.name == name; });
    };
    QVERIFY(named("Tensor-parallel all-reduces"));
    QVERIFY(named("Pipeline sends"));
    QVERIFY(named("Checkpoint writes"));
    QVERIFY(!named("Expert all-to-alls")); // a dense model: no part of no time
    // a layout that cannot run has no timeline
    QVERIFY(core::stepTimeline(core::planTraining(s, layout(3, 1, 1))).empty());
}

void TestTrainingPlan::formulasCarryThePlansNumbers()
{
    // the report's formulas put the plan's own figures in: whoever checks the bill by hand
    // finds the same numbers as the summary
    const core::Scenario s = loadScenario(
        gpt(R"({"sequence_length": 2048, "global_batch": 16, "tokens": 1e10, "devices": 4})"));
    const core::TrainingPlan plan = core::planTraining(s, layout(1, 4, 1));
    QVERIFY2(plan.problem.empty(), plan.problem.c_str());
    const std::vector<core::TrainingFormula> formulas = core::explainTraining(plan);
    QCOMPARE(formulas.size(), std::size_t(6));
    QCOMPARE(formulas[1].label, std::string("Step time"));
    // 16 micro-batches + 4 stages - 1 = 19 slots
    QVERIFY2(formulas[1].substituted.rfind("(16 + 4 - 1) x ", 0) == 0,
             formulas[1].substituted.c_str());
    QVERIFY(formulas[1].substituted.find(core::formatSeconds(plan.step.total)) !=
            std::string::npos);
    QVERIFY(formulas[2].substituted.find("x 200 TFLOP/s)") != std::string::npos);
    QVERIFY(formulas[5].substituted.find(core::formatCount(plan.deviceHours)) != std::string::npos);
    QVERIFY(core::explainTraining(core::planTraining(s, layout(3, 1, 1))).empty());
}

// A hostile review (issue #45): a deadline with a $1 budget planned 65,536 devices for $19.7 M,
// the fastest run, not the nearest to the budget
void TestTrainingPlan::aBudgetNoPlanMeetsShowsTheDeadlinesCheapest()
{
    const core::Scenario deadline =
        loadScenario(gpt(R"({"sequence_length": 2048, "tokens": 1e11, "deadline_days": 30})"));
    const core::Scenario both = loadScenario(
        gpt(R"({"sequence_length": 2048, "tokens": 1e11, "deadline_days": 30, "budget_usd": 1})"));
    const core::TrainingPlan met = core::plannedTraining(deadline);
    const core::TrainingPlan over = core::plannedTraining(both);
    QVERIFY2(met.problem.empty() && over.problem.empty(), over.problem.c_str());
    QVERIFY(met.meetsDeadline);
    // the fewest devices that meet the deadline, said to be over the budget
    QCOMPARE(over.devices, met.devices);
    QVERIFY(over.meetsDeadline);
    QVERIFY(!over.withinBudget);
    const core::TrainingSearch search = core::searchTraining(both, false);
    QVERIFY2(search.deviceCountReason.find("within the budget") != std::string::npos,
             search.deviceCountReason.c_str());
    // the plan says how its count was chosen, and a deadline no count meets says so beside
    // the fastest (a new user read "misses the deadline" as the plan's choice)
    QCOMPARE(met.countReason,
             std::string("the fewest devices (powers of two) that meet the deadline"));
    const core::TrainingPlan rushed = core::plannedTraining(
        loadScenario(gpt(R"({"sequence_length": 2048, "tokens": 1e11, "deadline_days": 0.001})")));
    QVERIFY2(rushed.problem.empty(), rushed.problem.c_str());
    QVERIFY(!rushed.meetsDeadline);
    QCOMPARE(rushed.countReason,
             std::string("no count up to 131,072 devices meets the deadline: the fastest shown"));
}

// ... and a stated tensor parallel of 3 against 16 heads said "no count meets the deadline"
void TestTrainingPlan::aStatedDegreeThatCannotRunSaysWhy()
{
    const core::Scenario s = loadScenario(gpt(
        R"({"sequence_length": 2048, "tokens": 1e11, "deadline_days": 30, "tensor_parallel": 3})"));
    const core::TrainingPlan plan = core::plannedTraining(s);
    QVERIFY2(plan.problem.find("tensor_parallel 3 does not divide") != std::string::npos,
             plan.problem.c_str());
    // a micro-batch (or data parallelism) more than the step holds (2,048 sequences of 2,048
    // tokens) at any count: that, not
    // "no count meets the deadline" (a new user's walkthrough)
    for (const char *stated : {R"("micro_batch": 5000)", R"("data_parallel": 5000)"}) {
        const core::TrainingPlan big = core::plannedTraining(loadScenario(gpt(
            QStringLiteral(R"({"sequence_length": 2048, "tokens": 1e11, "deadline_days": 30, %1})")
                .arg(QLatin1String(stated)))));
        QVERIFY2(big.problem.find("more sequences than a step") != std::string::npos,
                 big.problem.c_str());
    }
}

void TestTrainingPlan::zeroShardsByHand_data()
{
    QTest::addColumn<double>("stage");
    QTest::addColumn<double>("weights"); // bytes per parameter on each of 8 devices
    QTest::addColumn<double>("gradients");
    QTest::addColumn<double>("master");
    QTest::addColumn<double>("moments");
    // Rajbhandari et al. 2020 (ZeRO), fig. 1: 2 + 2 + 12 bytes, sharded stage by stage
    QTest::newRow("no ZeRO") << 0.0 << 2.0 << 2.0 << 4.0 << 8.0;
    QTest::newRow("ZeRO-1: optimiser state") << 1.0 << 2.0 << 2.0 << 4.0 / 8 << 8.0 / 8;
    QTest::newRow("ZeRO-2: and gradients") << 2.0 << 2.0 << 2.0 / 8 << 4.0 / 8 << 8.0 / 8;
    QTest::newRow("ZeRO-3: and weights") << 3.0 << 2.0 / 8 << 2.0 / 8 << 4.0 / 8 << 8.0 / 8;
}

void TestTrainingPlan::zeroShardsByHand()
{
    QFETCH(double, stage);
    QFETCH(double, weights);
    QFETCH(double, gradients);
    QFETCH(double, master);
    QFETCH(double, moments);
    const core::Scenario s =
        loadScenario(gpt(R"({"sequence_length": 2048, "global_batch": 64, "tokens": 1e9})"));
    const core::TrainingPlan plan = core::planTraining(s, layout(1, 1, 8, stage));
    QVERIFY2(plan.problem.empty(), plan.problem.c_str());
    QVERIFY(near(plan.memory.weights, kParameters * weights, 1e-12));
    QVERIFY(near(plan.memory.gradients, kParameters * gradients, 1e-12));
    QVERIFY(near(plan.memory.master, kParameters * master, 1e-12));
    QVERIFY(near(plan.memory.optimizer, kParameters * moments, 1e-12));
}

void TestTrainingPlan::activationsOfALayoutByHand()
{
    // TP 2 x PP 2 x DP 2, micro-batch 2, selective recomputation, 4,096 tokens, global batch
    // 32: 8 micro-batches per pipeline, the first stage holds 2 of them (min(p, m)).
    // Korthikanti et al. 2022, eq. 2 with sequence parallelism: 34 s b h / t bytes per layer.
    const core::Scenario s =
        loadScenario(gpt(R"({"sequence_length": 4096, "global_batch": 32, "tokens": 1e9})"));
    const core::TrainingPlan plan =
        core::planTraining(s, layout(2, 2, 2, 1, core::RecomputeMode::Selective, 2));
    QVERIFY2(plan.problem.empty(), plan.problem.c_str());
    const double perLayer = 34.0 * 4096 * 2 * kHidden / 2;
    QVERIFY(near(plan.memory.activations, 12 * perLayer * 2, 1e-12));
    QCOMPARE(plan.memory.microBatchesInFlight, 2.0);
    // the first stage's state: half the layers and the table, over TP 2; ZeRO-1 over DP 2
    const double table = kVocab * kHidden;
    const double onDevice = ((kParameters - table) / 2 + table) / 2;
    QVERIFY(near(plan.memory.weights, onDevice * 2, 1e-12));
    QVERIFY(near(plan.memory.optimizer, onDevice * 8 / 2, 1e-12));
    QVERIFY(near(plan.memory.total,
                 plan.memory.weights + plan.memory.gradients + plan.memory.master +
                     plan.memory.optimizer + plan.memory.activations + plan.memory.logits + 2.5e9,
                 1e-12));
}

void TestTrainingPlan::checkpointIntervalByHand()
{
    // 8 devices writing 1 GB/s each: a checkpoint of weights, master copy and moments, 14 bytes
    // per parameter, takes 1.5e9 x 14 / 8e9 = 2.625 s; with a device MTBF of 50,677 h the job
    // fails every 50,677 / 8 h. Daly 2006, eq. 37 (first order): sqrt(2 delta M) - delta.
    const core::Scenario s = loadScenario(gpt(R"({"sequence_length": 2048, "global_batch": 64,
                                                   "tokens": 1e11})"));
    const core::TrainingPlan plan = core::planTraining(s, layout(1, 1, 8, 1));
    QVERIFY2(plan.problem.empty(), plan.problem.c_str());
    const double delta = 1.5e9 * 14 / 8e9;
    const double mtbf = 50677.0 * 3600 / 8;
    QVERIFY(near(plan.reliability.checkpointSeconds, delta, 1e-12));
    QVERIFY(near(plan.reliability.intervalSeconds, std::sqrt(2 * delta * mtbf) - delta, 1e-12));
    // the wall clock: each interval pays its checkpoint; each interruption half an interval,
    // the restart (600 s) and a checkpoint read back
    const double tau = plan.reliability.intervalSeconds;
    const double overhead = delta / (tau + delta) + (tau / 2 + 600 + delta) / mtbf;
    QVERIFY(near(plan.reliability.goodput, 1 - overhead, 1e-12));
    // and the run's start (the restart time) once
    QVERIFY(near(plan.wallSeconds, plan.computeSeconds / (1 - overhead) + 600, 1e-12));
    QVERIFY(near(plan.reliability.expectedInterruptions, plan.wallSeconds / mtbf, 1e-12));
}

void TestTrainingPlan::runLengthAndCostByHand()
{
    // 1e11 tokens in steps of 64 x 2,048: ceil(762,939.45) steps; device-hours = devices x wall
    // hours; the lesson accelerator's 4 USD an hour and 500 W, a 1 kW host per 8 devices
    const core::Scenario s = loadScenario(gpt(R"({"sequence_length": 2048, "global_batch": 64,
                                                   "tokens": 1e11})"));
    const core::TrainingPlan plan = core::planTraining(s, layout(1, 1, 8, 1));
    QCOMPARE(plan.steps, std::ceil(1e11 / (64 * 2048)));
    QVERIFY(near(plan.computeSeconds, plan.steps * plan.step.total, 1e-12));
    QVERIFY(near(plan.deviceHours, 8 * plan.wallSeconds / 3600, 1e-12));
    QVERIFY(near(plan.days, plan.wallSeconds / 86400, 1e-12));
    QVERIFY(near(plan.usd, plan.deviceHours * 4.0, 1e-12));
    QVERIFY(near(plan.energyKwh, (8 * 500.0 + 1000.0) * plan.wallSeconds / 3.6e6, 1e-12));
    // no budget given: 20 tokens per parameter (Hoffmann et al. 2022), said so
    const core::Scenario unstated =
        loadScenario(gpt(R"({"sequence_length": 2048, "global_batch": 64})"));
    const core::TrainingPlan assumed = core::planTraining(unstated, layout(1, 1, 8, 1));
    QVERIFY(assumed.tokensAssumed);
    QCOMPARE(assumed.tokens, 20 * kParameters);
}

void TestTrainingPlan::mfuIsModelFlopOverPeak()
{
    // model FLOP per token: 6 per parameter plus causal attention (3 x its forward); MFU is
    // that times the tokens per second over the devices' dense peak
    const core::Scenario s = loadScenario(gpt(R"({"sequence_length": 2048, "global_batch": 64,
                                                   "tokens": 1e11})"));
    const core::TrainingPlan plan = core::planTraining(s, layout(2, 1, 4, 1));
    // (the input table is looked up, not multiplied; this GPT ties it to the output head,
    // which multiplies, so all 1.5 B parameters count)
    const double attention = 3.0 * core::prefillAttentionFlops(s.model, 2048) / 2048;
    QVERIFY(near(plan.modelFlopsPerToken, 6 * kParameters + attention, 1e-12));
    core::Scenario untied = s;
    untied.model.tieEmbeddings = false;
    untied.model.parameters = kParameters + kVocab * kHidden; // a second table
    QVERIFY(near(core::planTraining(untied, layout(2, 1, 4, 1)).modelFlopsPerToken,
                 6 * kParameters + attention, 1e-12));
    QVERIFY(near(plan.mfu, plan.modelFlopsPerToken * plan.tokensPerSecond / (8 * kPeak), 1e-12));
    QVERIFY(plan.mfu > 0.0 && plan.mfu < 1.0);
    // at the speed of light on one device the only time beside the roofs is the optimiser's:
    // MFU just under 1, never above
    const core::TrainingPlan one = core::planTraining(s, layout(1, 1, 1));
    QVERIFY(one.mfu > 0.97 && one.mfu < 1.0);
}

void TestTrainingPlan::layoutsThatCannotRunSayWhy_data()
{
    QTest::addColumn<double>("tp");
    QTest::addColumn<double>("pp");
    QTest::addColumn<double>("dp");
    QTest::addColumn<QString>("reason");
    QTest::newRow("TP beyond the link") << 16.0 << 1.0 << 1.0 << "scale-up domain";
    QTest::newRow("TP not dividing heads") << 3.0 << 1.0 << 1.0 << "16 attention heads";
    QTest::newRow("more stages than layers") << 1.0 << 25.0 << 1.0 << "24 layers";
    QTest::newRow("batch not split evenly") << 1.0 << 1.0 << 3.0 << "not a multiple";
}

void TestTrainingPlan::layoutsThatCannotRunSayWhy()
{
    QFETCH(double, tp);
    QFETCH(double, pp);
    QFETCH(double, dp);
    QFETCH(QString, reason);
    const core::Scenario s = loadScenario(gpt(R"({"sequence_length": 2048, "global_batch": 64,
                                                   "tokens": 1e9})"));
    const std::string problem = core::layoutProblem(s, layout(tp, pp, dp));
    QVERIFY2(QString::fromStdString(problem).contains(reason), problem.c_str());
    QCOMPARE(core::planTraining(s, layout(tp, pp, dp)).problem, problem);
}

void TestTrainingPlan::aCountTheDegreesDoNotMakeIsRefused()
{
    const core::Scenario s = loadScenario(gpt(R"({"sequence_length": 2048, "global_batch": 64,
        "devices": 8, "tensor_parallel": 2, "pipeline_parallel": 2, "data_parallel": 4,
        "context_parallel": 1})"));
    const core::TrainingPlan plan = core::plannedTraining(s);
    QVERIFY2(QString::fromStdString(plan.problem).contains("= 16 devices, not the 8"),
             plan.problem.c_str());
}

void TestTrainingPlan::searchOfA70BOn1024H100()
{
    // the issue's case: every layout of 1,024 H100s for Llama 3.1 70B at 8,192 tokens
    const core::Scenario s = loadScenario(QStringLiteral(
        R"({"format": "accel-explorer/scenario", "version": 1, "model": "llama-3-1-70b",
            "device": "nvidia-h100-sxm",
            "training": {"sequence_length": 8192, "devices": 1024, "tokens": 15e12}})"));
    const core::TrainingSearch search = core::searchTraining(s, true);
    QVERIFY(!search.ranked.empty());
    QVERIFY(search.layoutsTried > 1000);
    for (const core::TrainingPlan &plan : search.ranked) {
        QCOMPARE(plan.devices, 1024.0);
        QVERIFY(plan.memory.fits);
        QVERIFY(plan.problem.empty());
    }
    for (std::size_t i = 1; i < search.ranked.size(); ++i)
        QVERIFY(search.ranked[i - 1].wallSeconds <= search.ranked[i].wallSeconds * 1.005 + 1e-9);
    QVERIFY(!search.rejected.empty());
    for (const core::RejectedShape &shape : search.rejected)
        QVERIFY2(!shape.reason.empty(), core::describeLayout(shape.layout).c_str());
    // 1,024 data-parallel replicas are more than the 512 sequences of a 4 M-token step
    const auto unsharded = std::find_if(
        search.rejected.begin(), search.rejected.end(), [](const core::RejectedShape &shape) {
            return shape.layout.tensor == 1 && shape.layout.pipeline == 1 &&
                   shape.layout.context == 1;
        });
    QVERIFY(unsharded != search.rejected.end());
    QVERIFY2(unsharded->reason.find("more sequences than a step") != std::string::npos,
             unsharded->reason.c_str());
    // no ranked plan runs a larger batch than about 4 M tokens (a search must not win by it)
    for (const core::TrainingPlan &plan : search.ranked)
        QVERIFY(plan.globalBatch * plan.sequenceLength <= 4.0 * 1024 * 1024);
    // the best keeps tensor parallelism inside the 8-GPU NVLink domain and fits in 80 GB
    const core::TrainingPlan &best = search.ranked.front();
    QVERIFY(best.layout.tensor <= 8);
    QVERIFY(best.memory.total <= 80e9);
    QVERIFY(best.mfu > 0.3 && best.mfu < 0.75);
}

void TestTrainingPlan::deadlineTakesTheFewestDevicesThatMeetIt()
{
    const core::Scenario s = loadScenario(gpt(R"({"sequence_length": 2048, "global_batch": 256,
                                                   "tokens": 3e10, "deadline_days": 10})"));
    const core::TrainingSearch search = core::searchTraining(s, true);
    QVERIFY(!search.ranked.empty());
    const core::TrainingPlan &chosen = search.ranked.front();
    QVERIFY(chosen.days <= 10.0);
    // half the devices would miss it
    core::Scenario half = s;
    half.training.deadlineDays = core::kUnset;
    half.training.devices = search.devices / 2;
    const core::TrainingSearch fewer = core::searchTraining(half, true);
    QVERIFY(fewer.ranked.empty() || fewer.ranked.front().days > 10.0);
}

void TestTrainingPlan::publishedRunsFromTheirOwnLayouts()
{
    // Each published run planned with its own layout (scripts/training_runs.py wrote the fixture
    // from the papers' tables: Narayanan et al. 2021, Korthikanti et al. 2022, MegaScale 2024,
    // NVIDIA's DGX Cloud benchmarks 2025, Nemotron-4): its tokens per second per device against
    // the measured. Issue #45: within 20 % for most.
    QFile file(testpaths::fixturesDir() + QStringLiteral("/training/published-runs.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonArray runs = QJsonDocument::fromJson(file.readAll()).object()[u"runs"].toArray();
    QVERIFY(runs.size() >= 60);
    std::vector<double> errors;
    errors.reserve(static_cast<std::size_t>(runs.size()));
    int within20 = 0;
    int judgedNotToFit = 0;
    for (const QJsonValue run : runs) {
        const QJsonObject row = run.toObject();
        const QByteArray text =
            QJsonDocument(row[u"scenario"].toObject()).toJson(QJsonDocument::Compact);
        const core::Scenario s = loadScenario(QString::fromUtf8(text));
        const core::TrainingPlan plan = core::plannedTraining(s);
        // a run that ran is judged not to fit: the plan's memory is the nearest miss's (the
        // speed is still compared); counted, and held to a few
        if (!plan.problem.empty()) {
            QVERIFY2(!plan.memory.fits, plan.problem.c_str());
            qInfo("judged not to fit: %s: %s", qPrintable(row[u"name"].toString()),
                  plan.problem.c_str());
            ++judgedNotToFit;
        }
        const double measured = row[u"measured_tokens_per_second_per_device"].toDouble();
        QVERIFY2(plan.tokensPerSecondPerDevice > 0.0, qPrintable(row[u"name"].toString()));
        const double ratio = plan.tokensPerSecondPerDevice / measured;
        // none off by more than 1.5x either way
        QVERIFY2(
            ratio > 1 / 1.5 && ratio < 1.5,
            qPrintable(row[u"name"].toString() + QStringLiteral(": ") + QString::number(ratio)));
        errors.push_back(std::abs(ratio - 1.0));
        within20 += std::abs(ratio - 1.0) <= 0.20 ? 1 : 0;
    }
    std::sort(errors.begin(), errors.end());
    const double median = errors[errors.size() / 2];
    qInfo("published runs: %d of %d within 20 %%, median error %.1f %%", within20,
          static_cast<int>(errors.size()), 100 * median);
    QVERIFY(within20 * 2 > static_cast<int>(errors.size()));
    QVERIFY(median <= 0.20);
    QVERIFY(judgedNotToFit <= 2);
}

// A new user's walkthrough: an H200 (the H100's BF16 peak, more bandwidth) planned 8B
// pre-training at 81.8 days against the H100's 57.8 (MFU 43 % against 61 %), and an MI300X at
// MFU 19 %: the typical profile's device entries are fitted on inference runs (the H200's on
// 2). Training's matmuls take each device's measured ceiling at its class's pooled share.
void TestTrainingPlan::devicesRankAsTheirMatmulsDo()
{
    auto planOn = [](const char *device) {
        const QString text =
            QStringLiteral(
                R"({"format": "accel-explorer/scenario", "version": 1, "model": "llama-3-1-8b",
                "device": "%1", "wizard": {"regime": "training"},
                "training": {"tokens": 15e12, "sequence_length": 8192, "devices": 256}})")
                .arg(QLatin1String(device));
        return core::plannedTraining(loadScenario(text));
    };
    const core::TrainingPlan h100 = planOn("nvidia-h100-sxm");
    const core::TrainingPlan h200 = planOn("nvidia-h200-sxm");
    const core::TrainingPlan mi300x = planOn("amd-mi300x");
    for (const core::TrainingPlan *plan : {&h100, &h200, &mi300x})
        QVERIFY2(plan->problem.empty(), plan->problem.c_str());
    QVERIFY2(h200.days <= h100.days, qPrintable(QString::number(h200.days)));
    // published MFU of large runs on current GPUs: about 35-55 % (Llama 3, MegaScale, NeMo)
    for (const core::TrainingPlan *plan : {&h100, &h200, &mi300x})
        QVERIFY2(plan->mfu > 0.35 && plan->mfu < 0.75, qPrintable(QString::number(plan->mfu)));
}

namespace {
QString presetText(const char *id)
{
    const std::string_view text = *core::scenarioPresetText(id);
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}
} // namespace

// A run of minutes on thousands of devices is priced by the second; clouds bill whole hours:
// the plan says what those would cost (a CFO read $3,346 for 2,048 B200s for 18.6 minutes).
void TestTrainingPlan::aShortRunSaysWhatWholeHoursCost()
{
    const core::TrainingPlan plan =
        core::plannedTraining(loadScenario(presetText("training-70b-finetune")));
    QVERIFY2(plan.problem.empty(), plan.problem.c_str());
    QVERIFY(plan.wallSeconds < 3600.0); // the case is telling: under an hour
    const std::string hourly = core::formatUsd(plan.devices * 1.0 * plan.pricePerDeviceHour);
    QVERIFY(std::any_of(plan.notes.begin(), plan.notes.end(), [&](const std::string &note) {
        return note.find("billed by the whole hour") != std::string::npos &&
               note.find(hourly) != std::string::npos;
    }));
    // a run of days says nothing of it
    const core::TrainingPlan longRun =
        core::plannedTraining(loadScenario(presetText("training-8b-pretrain")));
    QVERIFY(std::none_of(longRun.notes.begin(), longRun.notes.end(), [](const std::string &note) {
        return note.find("whole hour") != std::string::npos;
    }));
}

// A hostile review's findings (2026-12-07), each kept fixed: with fused attention full
// recomputation held more than none (its rebuilt layer counted the score matrix); ZeRO-3 let the
// same compute hide two transfers, so recomputing made a step faster.
void TestTrainingPlan::recomputationNeverHelpsSpeedOrHurtsMemory()
{
    const core::Scenario s = loadScenario(QStringLiteral(
        R"({"format": "accel-explorer/scenario", "version": 1, "model": "llama-3-1-70b",
            "device": "nvidia-h100-sxm",
            "training": {"sequence_length": 8192, "tokens": 1e12}})"));
    for (double zero : {0.0, 1.0, 2.0, 3.0}) {
        const core::TrainingPlan none =
            core::planTraining(s, layout(8, 2, 4, zero, core::RecomputeMode::None));
        const core::TrainingPlan selective =
            core::planTraining(s, layout(8, 2, 4, zero, core::RecomputeMode::Selective));
        const core::TrainingPlan full =
            core::planTraining(s, layout(8, 2, 4, zero, core::RecomputeMode::Full));
        QVERIFY(none.step.total <= selective.step.total);
        QVERIFY(selective.step.total <= full.step.total);
        QVERIFY(full.memory.activations <= selective.memory.activations);
        QVERIFY(selective.memory.activations <= none.memory.activations);
    }
    core::Scenario longContext = s;
    longContext.training.sequenceLength = 131072;
    const core::TrainingPlan none =
        core::planTraining(longContext, layout(8, 1, 1, 1, core::RecomputeMode::None));
    const core::TrainingPlan full =
        core::planTraining(longContext, layout(8, 1, 1, 1, core::RecomputeMode::Full));
    QVERIFY(full.memory.total < none.memory.total);
}

void TestTrainingPlan::shortSequencesGetALayout()
{
    // a 512-token sequence cannot be split over context parallel ranks of 1,024 tokens, but it
    // runs with none (the search tried no context degree at all)
    const core::Scenario s = loadScenario(QStringLiteral(
        R"({"format": "accel-explorer/scenario", "version": 1, "model": "gpt2-small",
            "device": "nvidia-h100-sxm",
            "training": {"sequence_length": 512, "devices": 1, "tokens": 1e9}})"));
    const core::TrainingPlan plan = core::plannedTraining(s);
    QVERIFY2(plan.problem.empty(), plan.problem.c_str());
    QCOMPARE(plan.layout.context, 1.0);
}

void TestTrainingPlan::fp8RunsAttentionInBf16()
{
    // Transformer Engine runs the matmuls in FP8 and attention in BF16: the same attention time
    const core::Scenario bf16 = loadScenario(QStringLiteral(
        R"({"format": "accel-explorer/scenario", "version": 1, "model": "llama-3-1-8b",
            "device": "nvidia-h100-sxm",
            "training": {"sequence_length": 8192, "global_batch": 128, "tokens": 1e12}})"));
    core::Scenario fp8 = bf16;
    fp8.training.format = core::NumericFormat::Fp8;
    const core::TrainingPlan a = core::planTraining(bf16, layout(1, 1, 8, 1));
    const core::TrainingPlan b = core::planTraining(fp8, layout(1, 1, 8, 1));
    QVERIFY(near(b.step.attentionSeconds, a.step.attentionSeconds, 1e-12));
    // the matmuls faster, by less than the 2x of the peaks (FP8's measured ceiling is a smaller
    // share of its peak)
    QVERIFY(b.step.matmulSeconds < a.step.matmulSeconds);
    QVERIFY(b.step.matmulSeconds > a.step.matmulSeconds / 2.0);
}

void TestTrainingPlan::aDeadlineNoCountMeetsShowsTheFastest()
{
    const core::Scenario s = loadScenario(gpt(R"({"sequence_length": 2048, "tokens": 1e11,
                                                   "deadline_days": 0.001})"));
    const core::TrainingSearch search = core::searchTraining(s, true);
    QVERIFY(!search.ranked.empty());
    QVERIFY(!search.ranked.front().meetsDeadline);
    QVERIFY2(search.deviceCountReason.find("no count") == 0, search.deviceCountReason.c_str());
    const core::TrainingPlan plan = core::bestTrainingPlan(s);
    QVERIFY(plan.problem.empty());
    QVERIFY(!plan.meetsDeadline);
}

void TestTrainingPlan::scenarioKeysRoundTrip()
{
    const core::Scenario s = loadScenario(gpt(R"({"sequence_length": 2048, "global_batch": 64,
        "devices": 64, "tensor_parallel": 8, "format": "fp8", "tokens": 1e12,
        "deadline_days": 30, "network_gb_s": 25, "device_mtbf_hours": 40000,
        "checkpoint_gb_s": 2, "restart_s": 900, "fused_attention": 0})"));
    QCOMPARE(s.training.format, core::NumericFormat::Fp8);
    QCOMPARE(s.training.devices, 64.0);
    QCOMPARE(s.training.fusedAttention, 0.0);
    auto again = core::readScenario(core::writeScenario(s));
    QVERIFY(again);
    const core::TrainingConfig &t = again.value().scenario.training;
    QCOMPARE(t.format, core::NumericFormat::Fp8);
    QCOMPARE(t.devices, 64.0);
    QCOMPARE(t.tensorParallel, 8.0);
    QVERIFY(std::isnan(t.pipelineParallel)); // unset stays unset: it is still searched
    // so do the ZeRO stage, micro-batch and recomputation a file leaves out: a saved decision
    // plans the same run when it is opened again (issue #45: one plan per scenario)
    QVERIFY(std::isnan(t.zeroStage));
    QVERIFY(std::isnan(t.microBatch));
    QVERIFY(!t.recomputeStated);
    QCOMPARE(core::plannedTraining(again.value().scenario).wallSeconds,
             core::plannedTraining(s).wallSeconds);
    // a stated one stays stated
    const core::Scenario stated = loadScenario(gpt(
        R"({"sequence_length": 2048, "zero_stage": 0, "micro_batch": 1, "recompute": "none"})"));
    auto statedAgain = core::readScenario(core::writeScenario(stated));
    QVERIFY(statedAgain);
    QCOMPARE(statedAgain.value().scenario.training.zeroStage, 0.0);
    QCOMPARE(statedAgain.value().scenario.training.microBatch, 1.0);
    QVERIFY(statedAgain.value().scenario.training.recomputeStated);
    QCOMPARE(t.tokens, 1e12);
    QCOMPARE(t.deadlineDays, 30.0);
    QCOMPARE(t.networkGbPerSecond, 25.0);
    QCOMPARE(t.deviceMtbfHours, 40000.0);
    QCOMPARE(t.checkpointGbPerSecond, 2.0);
    QCOMPARE(t.restartSeconds, 900.0);
    QCOMPARE(t.fusedAttention, 0.0);
}

void TestTrainingPlan::unknownTrainingFormatNamesTheField()
{
    auto read = core::readScenario(gpt(R"({"format": "fp4"})").toStdString());
    QVERIFY(!read);
    QCOMPARE(read.error().path, std::string("/training/format"));
    QVERIFY2(read.error().message.find("bf16, fp8") != std::string::npos,
             read.error().message.c_str());
}

QTEST_GUILESS_MAIN(TestTrainingPlan)
#include "tst_trainingplan.moc"
