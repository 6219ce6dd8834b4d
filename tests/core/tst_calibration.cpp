// SPDX-License-Identifier: GPL-3.0-or-later
// Issue #24: the model terms a calibration needs (step overhead, causal attention FLOP, the KV
// write, the embedding gather) with worked values; the measurement reader and what it reports;
// the fit recovering known efficiencies from synthetic runs; profiles in scenarios and files.

#include "testsupport.h"
#include "tools/testpaths.h"

#include "core/calibrate/calibration.h"
#include "core/calibrate/measurements.h"
#include "core/data/calibrationprofile.h"
#include "core/data/presets.h"
#include "core/data/scenarioio.h"
#include "core/model/scenarioaccess.h"
#include "core/output/evaluationjson.h"
#include "core/physics/estimateterms.h"
#include "core/physics/evaluation.h"
#include "core/physics/explain.h"

#include <nlohmann/json.hpp>

#include <QFile>
#include <QObject>

#include <cmath>
#include <limits>
#include <random>

using core::FigureId;

class Calibration : public QObject
{
    Q_OBJECT

private slots:
    void lessonFiguresAreTheSpeedOfLightByDefault();
    void realDevicesDefaultToTheTypicalEstimate();
    void stepOverheadAddsToEveryForwardPass();
    void attentionFlopsWorkedForLlama2();
    void kvWriteAddsOneTokenPerSequence();
    void smallKernelsMatchProfiledLayers_data();
    void smallKernelsMatchProfiledLayers();
    void smallKernelsStayOutOfTheLesson();
    void allReducesRunAtTheMeasuredBusBandwidth();
    void embeddingRowsAreGatheredNotStreamed();
    void embeddingGatherNeverReadsNegativeBytes();
    void explainShowsTheEfficiencies();
    void readerKeepsGoodRowsAndNamesBadOnes();
    void quantisedPrefillMayUseTheIntegerPeak();
    void readerRefusesAFileWithoutItsColumns();
    void readerNamesWhatALenientReaderWouldGuess();
    void publishedMeasurementsAllRead();
    void readsLlamaBenchJsonAndCsv_data();
    void readsLlamaBenchJsonAndCsv();
    void llamaBenchNeedsItsPresets();
    void readsVllmBenchServe();
    void readsGuideLlmReportLayout();
    void readsGuideLlmRealReport();
    void fitRecoversKnownEfficiencies();
    void fitFindsTheAllReduceLatency();
    void fitStaysInsideItsBounds();
    void fitSaysWhatItCannotDetermine();
    void calibrationBeatsTheSpeedOfLightOnPublishedRuns();
    void profileRoundTrips();
    void shippedTypicalProfileIsTheFitOfThePublishedRuns();
    void profileErrorsNameTheField_data();
    void profileErrorsNameTheField();
    void scenarioSectionAppliesAProfile();
    void everyEstimateSaysHowFarItIsFromItsData();
    void everyEstimateCarriesItsRange();
    void measuredCeilingsAreTheDevicesBest_data();
    void measuredCeilingsAreTheDevicesBest();
    void aWhatIfOnTheSpecMovesItsCeiling();
    void aProfileFittedOnTheSpecSheetReadsAsBefore();
    void fitSeparatesKvTrafficAndPerSequenceTime();
    void leaveGroupOutHoldsOutWholeEnginesAndDevices();
};

namespace {

core::Measurement run(const QString &model, const QString &device, const QStringList &settings,
                      core::MeasuredMetric metric, double value, const std::string &engine = "e")
{
    QStringList overrides{QStringLiteral("model=\"%1\"").arg(model),
                          QStringLiteral("device=\"%1\"").arg(device)};
    overrides += settings;
    overrides += testsupport::kSpeedOfLight; // as a measured row is read: the fit's starting point
    core::Measurement m;
    m.scenario = testsupport::loadScenario(QStringLiteral("lesson-default"), overrides);
    m.metric = metric;
    m.value = value;
    m.engine = engine;
    m.file = "synthetic";
    return m;
}

const char *const kHeader = "model,device,weight_format,kv_format,compute_format,quant_group_size,"
                            "quant_scale_bits,quant_zero_bits,batch,context_tokens,prompt_tokens,"
                            "tensor_parallel,metric,value,engine,source\n";

} // namespace

// Calibration off (the default), the lesson's decode step is its l.123 figure: 18.3 ms at batch 8.
void Calibration::lessonFiguresAreTheSpeedOfLightByDefault()
{
    const core::Evaluation e = testsupport::evaluateScenario(QStringLiteral("lesson-default"));
    QCOMPARE(e.estimateMode, core::EstimateMode::SpeedOfLight);
    QCOMPARE(e[FigureId::EstimateStepOverheadSeconds], 0.0);
    QCOMPARE(e[FigureId::DecodeAttentionFlopsPerStep], 0.0);
    ACCEL_COMPARE_NEAR(e[FigureId::DecodeStepSeconds], (14e9 + 8 * 536870912.0) / 1e12, 1e-12);
    QCOMPARE(core::estimateLabel(testsupport::loadScenario(QStringLiteral("lesson-default"))),
             std::string("speed of light"));
}

// t0 = 3 ms: the decode step and the prefill each pay it once; TTFT (prefill + a batch-1 step)
// twice.
void Calibration::stepOverheadAddsToEveryForwardPass()
{
    const core::Evaluation base = testsupport::evaluateScenario(QStringLiteral("lesson-default"));
    const core::Evaluation with = testsupport::evaluateScenario(
        QStringLiteral("lesson-default"), {QStringLiteral("serving.step_overhead_s=0.003")});
    ACCEL_COMPARE_NEAR(with[FigureId::DecodeStepSeconds] - base[FigureId::DecodeStepSeconds], 0.003,
                       1e-12);
    ACCEL_COMPARE_NEAR(with[FigureId::PrefillSeconds] - base[FigureId::PrefillSeconds], 0.003,
                       1e-12);
    ACCEL_COMPARE_NEAR(with[FigureId::PrefillTtftSeconds] - base[FigureId::PrefillTtftSeconds],
                       0.006, 1e-12);
}

// Llama 2 7B: 32 layers x 32 heads x head dim 128. Decode at 4,096 tokens of context attends to
// 4,096 tokens: 2 x 2 x 32 x 32 x 128 x 4,096 = 2.147e9 FLOP per token. A 2,048-token prompt
// processed causally attends to 2,048 x 2,049 / 2 pairs: 524,288 x 2,098,176 = 1.1e12 FLOP.
void Calibration::attentionFlopsWorkedForLlama2()
{
    const QStringList settings{
        QStringLiteral("model=\"llama-2-7b\""), QStringLiteral("serving.attention_flops=1"),
        QStringLiteral("serving.batch=4"), QStringLiteral("serving.context_tokens=4096"),
        QStringLiteral("serving.prompt_tokens=2048")};
    const core::Evaluation e =
        testsupport::evaluateScenario(QStringLiteral("lesson-default"), settings);
    const double perPair = 2.0 * 2.0 * 32 * 32 * 128;
    ACCEL_COMPARE_NEAR(e[FigureId::DecodeAttentionFlopsPerStep], 4 * perPair * 4096, 1.0);
    ACCEL_COMPARE_NEAR(e[FigureId::PrefillAttentionFlops], perPair * 2048.0 * 2049.0 / 2.0, 1.0);
    const core::Evaluation off = testsupport::evaluateScenario(
        QStringLiteral("lesson-default"), settings.mid(0, 1) + settings.mid(2));
    ACCEL_COMPARE_NEAR(e[FigureId::DecodeFlopsPerStep] - off[FigureId::DecodeFlopsPerStep],
                       4 * perPair * 4096, 1.0);
    QVERIFY(e[FigureId::PrefillSeconds] > off[FigureId::PrefillSeconds]);
}

// The lesson's 7B keeps 0.5 MiB of KV per token... per sequence 4,096 x 131,072 B; writing each
// new token adds one token's 131,072 B per sequence to the step.
void Calibration::kvWriteAddsOneTokenPerSequence()
{
    const core::Evaluation base = testsupport::evaluateScenario(QStringLiteral("lesson-default"));
    const core::Evaluation with = testsupport::evaluateScenario(
        QStringLiteral("lesson-default"), {QStringLiteral("serving.kv_write=1")});
    ACCEL_COMPARE_NEAR(with[FigureId::DecodeKvBytesPerStep] - base[FigureId::DecodeKvBytesPerStep],
                       8 * base[FigureId::KvBytesPerToken], 1e-3);
}

// Issue #43, item 2: each layer's small kernels (two norms, rotary, the gated activation, two
// residual adds) against the medians Vidur profiled for one layer (microsoft/vidur, snapshot
// 7d47513, data/profiling/compute/<device>/<model>/mlp.csv, TP 1: input_layernorm +
// post_attention_layernorm + attn_rope + mlp_act + 2 x add, in us). The rule is one floor and
// one share of the measured bandwidth per kind for both devices (scripts/small_kernels.py):
// within 10 % where the bytes decide (2,048 tokens), 25 % at the floors, where A100's kernels
// take 29 us a layer and H100's 20 against the rule's 24.25.
void Calibration::smallKernelsMatchProfiledLayers_data()
{
    QTest::addColumn<QString>("device");
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("tokens");
    QTest::addColumn<double>("profiledMicroseconds");
    QTest::addColumn<double>("tolerance");
    const QString a100 = QStringLiteral("nvidia-a100-80gb-sxm");
    const QString h100 = QStringLiteral("nvidia-h100-sxm");
    // Meta-Llama-3-8B's layer is Llama 3.1 8B's
    const QString llama3 = QStringLiteral("llama-3-1-8b");
    const QString llama2 = QStringLiteral("llama-2-7b");
    QTest::newRow("A100, Llama 3 8B, 1 token: 5 + 5 + 4 + 11 + 2 x 2")
        << a100 << llama3 << 1 << 29.0 << 0.25;
    QTest::newRow("A100, Llama 3 8B, 128 tokens: 5 + 5 + 5 + 17 + 2 x 3")
        << a100 << llama3 << 128 << 38.0 << 0.25;
    QTest::newRow("A100, Llama 3 8B, 2,048 tokens: 54.5 + 56 + 48 + 174 + 2 x 26")
        << a100 << llama3 << 2048 << 384.5 << 0.10;
    QTest::newRow("H100, Llama 2 7B, 1 token: 4 + 4 + 4 + 6 + 2 x 1")
        << h100 << llama2 << 1 << 20.0 << 0.25;
    QTest::newRow("H100, Llama 2 7B, 2,048 tokens: 26 + 28 + 41 + 70 + 2 x 14.5")
        << h100 << llama2 << 2048 << 194.0 << 0.10;
}

void Calibration::smallKernelsMatchProfiledLayers()
{
    QFETCH(QString, device);
    QFETCH(QString, model);
    QFETCH(int, tokens);
    QFETCH(double, profiledMicroseconds);
    QFETCH(double, tolerance);
    const core::Evaluation e = testsupport::evaluateScenario(
        QStringLiteral("lesson-default"),
        {QStringLiteral("model=") + model, QStringLiteral("device=") + device,
         QStringLiteral("serving.small_kernels=1"), QStringLiteral("serving.batch=%1").arg(tokens),
         QStringLiteral("serving.concurrent_sequences=%1").arg(tokens),
         QStringLiteral("serving.prompt_tokens=%1").arg(tokens)});
    const double layers = 32;
    const double decodeLayer = e[FigureId::DecodeSmallKernelSeconds] / layers * 1e6;
    const double prefillLayer = e[FigureId::PrefillSmallKernelSeconds] / layers * 1e6;
    // a step of n tokens is a prompt of n tokens to these kernels
    ACCEL_COMPARE_NEAR(decodeLayer, prefillLayer, 1e-9);
    QVERIFY2(
        std::abs(decodeLayer / profiledMicroseconds - 1.0) <= tolerance,
        qPrintable(
            QStringLiteral("%1 us a layer against %2").arg(decodeLayer).arg(profiledMicroseconds)));
}

// The lesson's toy times no small kernels, and its step is unchanged by the term's existence;
// switched on, a decode step pays them on top of its roofs and the explanation says so.
void Calibration::smallKernelsStayOutOfTheLesson()
{
    const core::Evaluation lesson = testsupport::evaluateScenario(QStringLiteral("lesson-default"));
    QCOMPARE(lesson[FigureId::DecodeSmallKernelSeconds], 0.0);
    QCOMPARE(lesson[FigureId::PrefillSmallKernelSeconds], 0.0);
    const core::Evaluation timed = testsupport::evaluateScenario(
        QStringLiteral("lesson-default"), {QStringLiteral("serving.small_kernels=1")});
    QVERIFY(timed[FigureId::DecodeSmallKernelSeconds] > 0.0);
    ACCEL_COMPARE_NEAR(timed[FigureId::DecodeStepSeconds] - lesson[FigureId::DecodeStepSeconds],
                       timed[FigureId::DecodeSmallKernelSeconds], 1e-12);
    const auto scenario = testsupport::loadScenario(QStringLiteral("lesson-default"),
                                                    {QStringLiteral("serving.small_kernels=1")});
    const auto why = core::explain(scenario, timed, FigureId::DecodeStepSeconds);
    QVERIFY(why);
    QVERIFY2(why->formula.find("small kernels") != std::string::npos, why->formula.c_str());
    QVERIFY(why->note.find("Vidur") != std::string::npos);
}

// Issue #43, item 1: the typical estimate's all-reduces run at the bus bandwidth nccl-tests
// measured on 8 devices (A100 80 GB: 231.58 GB/s, presets' measured.allreduce_busbw_gb_s),
// not the link's 300 GB/s; the lesson keeps the link. The bandwidth is read back from the link
// time's growth with the batch: 2 x 80 all-reduces of batch x 8,192 x 2 B, each moving
// 2 (n - 1) / n of it, whatever latency the profile fitted.
void Calibration::allReducesRunAtTheMeasuredBusBandwidth()
{
    auto linkSeconds = [](const QString &mode, int batch) {
        return testsupport::evaluateScenario(
            QStringLiteral("lesson-default"),
            {QStringLiteral("model=llama-2-70b"), QStringLiteral("device=nvidia-a100-80gb-sxm"),
             QStringLiteral("serving.tensor_parallel=8"),
             QStringLiteral("serving.batch=%1").arg(batch),
             QStringLiteral("serving.concurrent_sequences=%1").arg(batch),
             QStringLiteral("calibration={\"mode\": \"%1\"}")
                 .arg(mode)})[FigureId::DecodeCommunicationSeconds];
    };
    const double bytesPerSequence = 2.0 * 80 * (2.0 * 7 / 8) * 8192 * 2;
    for (const auto &[mode, gbPerSecond] : {std::pair{QStringLiteral("typical"), 231.58},
                                            std::pair{QStringLiteral("speed_of_light"), 300.0}}) {
        const double perSequence = (linkSeconds(mode, 64) - linkSeconds(mode, 32)) / 32;
        ACCEL_COMPARE_NEAR(bytesPerSequence / perSequence / 1e9, gbPerSecond, 1e-6);
    }
}

// Llama 2 7B (vocab 32,000 x hidden 4,096, untied, BF16): a batch-1 step reads one embedding row,
// not the 262 MB table: 31,999 x 4,096 x 2 B = 262,135,808 B less, 1.9 % of the weights. A tied
// table (Gemma) is the output head too and is read whole.
void Calibration::embeddingRowsAreGatheredNotStreamed()
{
    const core::Evaluation e = testsupport::evaluateScenario(
        QStringLiteral("lesson-default"),
        {QStringLiteral("model=\"llama-2-7b\""), QStringLiteral("serving.batch=1")});
    ACCEL_COMPARE_NEAR(e[FigureId::WeightsBytes] - e[FigureId::DecodeWeightBytesPerStep],
                       31999.0 * 4096 * 2, 1.0);
    const core::Scenario tied = testsupport::loadScenario(
        QStringLiteral("lesson-default"),
        {QStringLiteral("model=\"llama-2-7b\""), QStringLiteral("model.tie_embeddings=true")});
    const core::Evaluation t = core::evaluate(tied);
    QCOMPARE(t[FigureId::DecodeWeightBytesPerStep], t[FigureId::WeightsBytes]);
}

// Found by the monkey (issue #25's seed): an MoE model whose (absurd but valid) vocabulary makes
// the embedding table larger than the shared weights a batch-1 step reads read negative bytes,
// a negative intensity and a NaN on the roofline. The rows skipped never exceed half what the
// step would read.
void Calibration::embeddingGatherNeverReadsNegativeBytes()
{
    for (const double batch : {1.0, 2.0, 4.0, 8.0, 1024.0}) {
        const core::Evaluation e = testsupport::evaluateScenario(
            QStringLiteral("lesson-default"),
            {QStringLiteral("model=\"llama-4-scout\""), QStringLiteral("model.vocab_size=68507500"),
             QStringLiteral("serving.weight_format=\"int4\""),
             QStringLiteral("serving.batch=%1").arg(batch)});
        QVERIFY2(e[FigureId::DecodeWeightBytesPerStep] > 0.0, qPrintable(QString::number(batch)));
        QVERIFY(e[FigureId::DecodeBytesPerStep] > 0.0);
        QVERIFY(e[FigureId::DecodeIntensity] > 0.0);
    }
}

// "18.29 GB / 1,000 GB/s = 36.59 ms" at efficiency 0.5 hid the efficiency; now it is in the sum.
void Calibration::explainShowsTheEfficiencies()
{
    const core::Scenario s = testsupport::loadScenario(
        QStringLiteral("lesson-default"), {QStringLiteral("serving.bandwidth_efficiency=0.5")});
    const core::Evaluation e = core::evaluate(s);
    const auto x = core::explain(s, e, FigureId::DecodeStepSeconds, core::MemoryUnits::GB);
    QVERIFY(x);
    const QString text = QString::fromStdString(x->substituted);
    QVERIFY2(text.contains(QStringLiteral("18.29 GB / (1,000 GB/s x 0.5)")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("36.59 ms")), qPrintable(text));

    // the typical estimate on a real device names the measured ceilings and their sources
    const core::Scenario h100 = testsupport::loadScenario(
        QStringLiteral("lesson-default"),
        {QStringLiteral("model=\"llama-2-7b\""), QStringLiteral("device=\"nvidia-h100-sxm\"")});
    const auto typical = core::explain(h100, core::evaluate(h100), FigureId::DecodeStepSeconds,
                                       core::MemoryUnits::GB);
    QVERIFY(typical);
    QStringList inputs;
    for (const auto &input : typical->inputs)
        inputs << QString::fromStdString(input.name + ": " + input.value + " (" + input.provenance +
                                         ")");
    const QString all = inputs.join(QLatin1Char('\n'));
    QVERIFY2(all.contains(QStringLiteral("measured bandwidth ceiling: 2,970 GB/s measured, 88.7 % "
                                         "of the spec sheet's 3,350 GB/s")),
             qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("BabelStream")), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("measured matmul ceiling: 794.5 TFLOP/s bf16 measured")),
             qPrintable(all));
}

void Calibration::readerKeepsGoodRowsAndNamesBadOnes()
{
    const std::string text =
        std::string(kHeader) +
        "llama-2-7b,nvidia-a100-80gb-sxm,bf16,bf16,,,,,1,128,64,1,decode_tokens_per_second_per_"
        "sequence,100,vLLM,ok\n"
        "llama-2-7b,nvidia-a100-80gb-sxm,bf16,bf16,,,,,1,128,64,1,tokens_per_minute,100,vLLM,x\n"
        "llama-2-7b,no-such-gpu,bf16,bf16,,,,,1,128,64,1,ttft_seconds,0.1,vLLM,x\n"
        "llama-2-7b,nvidia-a100-80gb-sxm,bf16,bf16,,,,,1,128,64,1,ttft_seconds,-2,vLLM,x\n"
        "llama-2-7b,nvidia-a100-80gb-sxm,bf16,bf16,,,,,1,128,64,1,decode_tokens_per_second_per_"
        "sequence,9000,vLLM,faster than the bandwidth allows\n"
        "llama-2-7b,nvidia-a100-80gb-sxm,bf16,bf16,,,,,1,128,64,1,decode_tokens_per_second_per_"
        "sequence,30,vLLM,contradicts line 2\n";
    auto read = core::readMeasurementsCsv(text, "runs.csv");
    QVERIFY(read);
    QCOMPARE(read->rows.size(), std::size_t(2)); // line 2 and line 7 (reported, kept)
    QCOMPARE(read->rows.front().line, 2);
    QCOMPARE(read->problems.size(), std::size_t(5));
    const auto &p = read->problems;
    QCOMPARE(p[0].line, 3);
    QCOMPARE(p[0].columnName, std::string("metric"));
    QVERIFY(p[0].column > 1);
    QVERIFY(p[0].text().starts_with("runs.csv:3:"));
    QCOMPARE(p[1].line, 4);
    QCOMPARE(p[1].columnName, std::string("device"));
    QCOMPARE(p[1].column, 12);
    QCOMPARE(p[2].columnName, std::string("value"));
    QVERIFY(p[2].message.find("positive") != std::string::npos);
    QCOMPARE(p[3].line, 6);
    QVERIFY2(p[3].message.find("faster than") != std::string::npos, p[3].message.c_str());
    QCOMPARE(p[4].line, 7);
    QVERIFY2(p[4].message.find("line 2") != std::string::npos, p[4].message.c_str());
}

// Issue #43: llama.cpp computes a quantised model's prompt with int8 arithmetic on CUDA, so a
// real pp512 of Llama-2-7B Q4_0 on an RTX 4090 (about 14,000-17,000 tokens/s, 30-37 ms) beat
// the FP16 peak's 41.7 ms and was refused as "faster than the device allows". The plausibility
// ceiling is the device's fastest arithmetic (INT8, 660.6 TOPS: 10.4 ms); a run faster than even
// that is still refused.
void Calibration::quantisedPrefillMayUseTheIntegerPeak()
{
    const std::string text =
        std::string(kHeader) +
        "llama-2-7b,nvidia-rtx-4090,int4,fp16,,32,16,16,1,512,512,1,prefill_seconds,0.030,"
        "llama.cpp,pp512 Q4_0\n"
        "llama-2-7b,nvidia-rtx-4090,int4,fp16,,32,16,16,1,512,512,1,prefill_seconds,0.005,"
        "llama.cpp,faster than INT8 allows\n";
    auto read = core::readMeasurementsCsv(text, "runs.csv");
    QVERIFY(read);
    QCOMPARE(read->rows.size(), std::size_t(1));
    QCOMPARE(read->rows.front().line, 2);
    QCOMPARE(read->problems.size(), std::size_t(1));
    QCOMPARE(read->problems.front().line, 3);
    QVERIFY2(read->problems.front().message.find("faster than") != std::string::npos,
             read->problems.front().message.c_str());
}

// Issue #41, item 5: what a lenient reader guessed silently is said by file:line:column: "0x10"
// was read as 16, a duplicate column silently used the last, extra cells were dropped, 1e-320
// tokens/s vanished without a problem line, an unterminated quote said nothing.
void Calibration::readerNamesWhatALenientReaderWouldGuess()
{
    const std::string good = "llama-2-7b,nvidia-a100-80gb-sxm,bf16,bf16,,,,,1,128,64,1,decode_"
                             "tokens_per_second_per_sequence,";
    const auto problemsOf = [](const std::string &text) {
        auto read = core::readMeasurementsCsv(text, "runs.csv");
        if (!read)
            qFatal("%s", read.error().message.c_str());
        return read.value();
    };
    // hexadecimal is no measurement: left out, named
    auto hex = problemsOf(std::string(kHeader) + good + "0x10,vLLM,x\n");
    QCOMPARE(hex.rows.size(), std::size_t(0));
    QCOMPARE(hex.problems.size(), std::size_t(1));
    QCOMPARE(hex.problems[0].columnName, std::string("value"));
    QVERIFY2(hex.problems[0].text().find("\"0x10\"") != std::string::npos,
             hex.problems[0].text().c_str());
    // a rate of 1e-320 tokens/s: left out with a line that says why
    auto tiny = problemsOf(std::string(kHeader) + good + "1e-320,vLLM,x\n");
    QCOMPARE(tiny.rows.size(), std::size_t(0));
    QCOMPARE(tiny.problems.size(), std::size_t(1));
    QCOMPARE(tiny.problems[0].line, 2);
    // extra cells beyond the header: the row is kept, the cells named
    auto extra = problemsOf(std::string(kHeader) + good + "100,vLLM,x,surplus,more\n");
    QCOMPARE(extra.rows.size(), std::size_t(1));
    QCOMPARE(extra.problems.size(), std::size_t(1));
    QVERIFY2(extra.problems[0].message.find("2 cells beyond the header") != std::string::npos,
             extra.problems[0].message.c_str());
    // an unterminated quote: the row is left out, the line named
    auto quote = problemsOf(std::string(kHeader) + good + "100,vLLM,\"no end\n");
    QCOMPARE(quote.rows.size(), std::size_t(0));
    QCOMPARE(quote.problems.size(), std::size_t(1));
    QVERIFY2(quote.problems[0].message.find("quote") != std::string::npos,
             quote.problems[0].message.c_str());
    // a duplicate column: the first is used, the second named
    const std::string twice =
        std::string(kHeader).insert(std::string(kHeader).size() - 1, ",value");
    auto duplicate = problemsOf(twice + good + "100,vLLM,x,5\n");
    QCOMPARE(duplicate.rows.size(), std::size_t(1));
    QCOMPARE(duplicate.rows[0].value, 100.0);
    QCOMPARE(duplicate.problems.size(), std::size_t(1));
    QCOMPARE(duplicate.problems[0].line, 1);
    QVERIFY2(duplicate.problems[0].message.find("duplicate column") != std::string::npos,
             duplicate.problems[0].message.c_str());
    // bytes that are not UTF-8 (a Latin-1 export) become U+FFFD: a fuzzed file with them in
    // the engine crashed the reader and the profile writer (uncaught json type_error 316)
    auto latin = problemsOf(std::string(kHeader) + good + "100,caf\xE9-engine,x\n");
    QCOMPARE(latin.rows.size(), std::size_t(1));
    QCOMPARE(latin.rows[0].engine, std::string("caf\xEF\xBF\xBD-engine"));
    auto fit = core::calibrate(latin.rows);
    QVERIFY(fit);
    QVERIFY(core::readCalibrationProfile(core::calibrationProfileToJson(fit.value().profile)));
}

void Calibration::readerRefusesAFileWithoutItsColumns()
{
    // issue #41 item 5: a byte-order mark before the header is "CSV UTF-8", not a missing column
    const std::string marked = std::string("\xEF\xBB\xBF") + std::string(kHeader) +
                               "llama-2-7b,nvidia-a100-80gb-sxm,bf16,bf16,,,,,1,128,64,1,"
                               "decode_tokens_per_second_per_sequence,100,vLLM,ok\n";
    for (const bool dispatched : {false, true}) {
        auto bom = dispatched ? core::readMeasurements(marked, "bom.csv", {})
                              : core::readMeasurementsCsv(marked, "bom.csv");
        QVERIFY2(bom, bom ? "" : bom.error().message.c_str());
        QCOMPARE(bom->rows.size(), std::size_t(1));
    }
    auto read = core::readMeasurementsCsv("model,device,value\nllama-2-7b,x,1\n", "short.csv");
    QVERIFY(!read);
    QVERIFY(read.error().path.starts_with("short.csv:1"));
    QVERIFY(read.error().message.find("weight_format") != std::string::npos);
    QVERIFY(!core::readMeasurementsCsv("", "empty.csv"));
}

// The 81 published runs the app ships (18 until issue #43 added 63 more, fit-runs-2026-12.md):
// every one read (the M3 Max run's FP16 compute format, which the preset has no peak for, is
// reported and replaced, the row kept).
void Calibration::publishedMeasurementsAllRead()
{
    const core::MeasurementSet &set = core::publishedMeasurements();
    QCOMPARE(set.rows.size(), std::size_t(81));
    QCOMPARE(set.problems.size(), std::size_t(1));
    QCOMPARE(set.problems.front().columnName, std::string("compute_format"));
    for (const core::Measurement &m : set.rows)
        QVERIFY2(!m.source.empty(), m.where().c_str());
}

namespace {

QByteArray fixture(const char *name)
{
    QFile file((testpaths::fixturesDir() + QStringLiteral("/measurements/")) + QLatin1String(name));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("no fixture %s", name);
    return file.readAll();
}

} // namespace

void Calibration::readsLlamaBenchJsonAndCsv_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<double>("prefillSeconds");
    QTest::addColumn<double>("tokensPerSecond");
    QTest::newRow("json") << QStringLiteral("llama-bench-rtx4080.json") << 0.07213564 << 118.881588;
    QTest::newRow("csv") << QStringLiteral("llama-bench-rtx4080.csv") << 0.07028566 << 119.915244;
}

// llama.cpp's README sample: pp512 (512 prompt tokens in 72.1 ms) becomes prefill_seconds,
// tg128 (118.9 tokens/s) decode at batch 1; Q4_K_M's 4,677,120,000 B over 7,615,616,512
// parameters is 4.91 bits: int4 in groups of 32 with 29 bits of scale.
void Calibration::readsLlamaBenchJsonAndCsv()
{
    QFETCH(QString, name);
    QFETCH(double, prefillSeconds);
    QFETCH(double, tokensPerSecond);
    core::MeasurementDefaults defaults;
    defaults.model = "qwen2-5-7b";
    defaults.device = "nvidia-rtx-4090";
    auto read = core::readMeasurements(fixture(name.toLatin1().constData()).toStdString(),
                                       name.toStdString(), defaults);
    QVERIFY2(read, read ? "" : read.error().message.c_str());
    QCOMPARE(read->rows.size(), std::size_t(2));
    const core::Measurement &pp = read->rows[0];
    QCOMPARE(pp.metric, core::MeasuredMetric::PrefillSeconds);
    ACCEL_COMPARE_NEAR(pp.value, prefillSeconds, 1e-9);
    QCOMPARE(pp.scenario.serving.promptTokens, 512.0);
    QCOMPARE(pp.scenario.serving.weightFormat, core::NumericFormat::Int4);
    QCOMPARE(pp.scenario.serving.quant.groupSize, 32.0);
    QCOMPARE(pp.scenario.serving.quant.scaleBits, 29.0);
    QCOMPARE(pp.scenario.serving.kvFormat, core::NumericFormat::Fp16);
    QVERIFY(pp.engine.starts_with("llama.cpp 8cf427ff"));
    const core::Measurement &tg = read->rows[1];
    QCOMPARE(tg.metric, core::MeasuredMetric::DecodeTokensPerSecondPerSequence);
    ACCEL_COMPARE_NEAR(tg.value, tokensPerSecond, 1e-9);
    QCOMPARE(tg.scenario.serving.batch, 1.0);
    QCOMPARE(tg.scenario.serving.contextTokens, 128.0);
}

// llama-bench names no preset: without the model the run is reported, not guessed; a GPU name
// that is a preset's is matched ("NVIDIA GeForce RTX 4090" -> nvidia-rtx-4090); the RTX 4080 is
// no preset.
void Calibration::llamaBenchNeedsItsPresets()
{
    const std::string json = fixture("llama-bench-rtx4080.json").toStdString();
    core::MeasurementDefaults none;
    auto read = core::readMeasurements(json, "lb.json", none);
    QVERIFY(read);
    QVERIFY(read->rows.empty());
    QCOMPARE(read->problems.size(), std::size_t(2));
    QCOMPARE(read->problems[0].columnName, std::string("/0"));
    QVERIFY(read->problems[0].message.find("model") != std::string::npos);

    core::MeasurementDefaults modelOnly;
    modelOnly.model = "qwen2-5-7b";
    modelOnly.deviceIds = {"nvidia-rtx-4090", "nvidia-l4"};
    read = core::readMeasurements(json, "lb.json", modelOnly);
    QVERIFY(read);
    QVERIFY(read->rows.empty());
    QVERIFY(read->problems[0].message.find("RTX 4080") != std::string::npos);
    std::string renamed = json;
    for (auto at = renamed.find("RTX 4080"); at != std::string::npos; at = renamed.find("RTX 4080"))
        renamed.replace(at, 8, "RTX 4090");
    read = core::readMeasurements(renamed, "lb.json", modelOnly);
    QVERIFY(read);
    QCOMPARE(read->rows.size(), std::size_t(2));
    QCOMPARE(read->rows[0].scenario.device.presetId, std::string("nvidia-rtx-4090"));
}

// vllm bench serve at concurrency 32, 2,048 + 2,048 tokens: the median TPOT (70.23 ms) is the
// step at batch 32 over a mean context of 2,048 + 1,024 tokens; the TTFT (7.1 s) is queueing
// behind 31 other prompts, not one request's first token, so it is reported and not fitted.
void Calibration::readsVllmBenchServe()
{
    core::MeasurementDefaults defaults;
    defaults.model = "llama-3-1-8b";
    defaults.device = "nvidia-h100-sxm";
    auto read = core::readMeasurements(fixture("vllm-bench-serve-c32.json").toStdString(),
                                       "vllm.json", defaults);
    QVERIFY(read);
    QCOMPARE(read->rows.size(), std::size_t(1));
    const core::Measurement &m = read->rows.front();
    QCOMPARE(m.metric, core::MeasuredMetric::StepSeconds);
    ACCEL_COMPARE_NEAR(m.value, 0.07023, 1e-12);
    QCOMPARE(m.scenario.serving.batch, 32.0);
    QCOMPARE(m.scenario.serving.promptTokens, 2048.0);
    QCOMPARE(m.scenario.serving.contextTokens, 3072.0);
    QCOMPARE(m.engine, std::string("vLLM"));
    // a JSON record is said by its pointer, not "line 0" (issue #41 item 7)
    QCOMPARE(m.where(), std::string("vllm.json:/median_tpot_ms"));
    QCOMPARE(read->problems.size(), std::size_t(1));
    QCOMPARE(read->problems.front().columnName, std::string("/median_ttft_ms"));
    QVERIFY(!core::readMeasurements("{\"hello\": 1}", "x.json", defaults));
    QVERIFY(!core::readMeasurements("  ", "x.json", defaults));
}

// GuideLLM's report layout (not a real run: see the fixture's README): the synchronous benchmark
// gives a batch-1 step (median ITL 14 ms) and a first token (90 ms); the concurrent one a step at
// its median concurrency 16 (18.5 ms), its TTFT queued and so not fitted.
void Calibration::readsGuideLlmReportLayout()
{
    core::MeasurementDefaults defaults;
    defaults.model = "llama-3-1-8b";
    defaults.device = "nvidia-h100-sxm";
    auto read = core::readMeasurements(fixture("guidellm-report-layout.json").toStdString(),
                                       "guidellm.json", defaults);
    QVERIFY(read);
    QCOMPARE(read->rows.size(), std::size_t(3));
    QCOMPARE(read->rows[0].metric, core::MeasuredMetric::StepSeconds);
    ACCEL_COMPARE_NEAR(read->rows[0].value, 0.014, 1e-12);
    QCOMPARE(read->rows[0].scenario.serving.batch, 1.0);
    QCOMPARE(read->rows[0].scenario.serving.contextTokens, 160.0);
    QCOMPARE(read->rows[1].metric, core::MeasuredMetric::TtftSeconds);
    ACCEL_COMPARE_NEAR(read->rows[1].value, 0.090, 1e-12);
    QCOMPARE(read->rows[2].scenario.serving.batch, 16.0);
    ACCEL_COMPARE_NEAR(read->rows[2].value, 0.0185, 1e-12);
    QCOMPARE(read->problems.size(), std::size_t(1));
    QCOMPARE(read->problems.front().columnName,
             std::string("/benchmarks/1/metrics/time_to_first_token_ms"));
}

// A real GuideLLM run (the stripped report in GuideLLM's own tests; see the fixture's README):
// a synchronous benchmark of 257 prompt and 128 output tokens, median ITL 4.9241 ms and median
// TTFT 16.3805 ms (kept to the nanosecond), its strategy under "args" as GuideLLM 0.2 wrote it.
void Calibration::readsGuideLlmRealReport()
{
    core::MeasurementDefaults defaults;
    defaults.model = "llama-3-1-8b";
    defaults.device = "nvidia-h100-sxm";
    auto read = core::readMeasurements(fixture("guidellm-benchmarks-stripped.json").toStdString(),
                                       "benchmarks.json", defaults);
    QVERIFY(read);
    QCOMPARE(read->problems.size(), std::size_t(0));
    QCOMPARE(read->rows.size(), std::size_t(2));
    QCOMPARE(read->rows[0].metric, core::MeasuredMetric::StepSeconds);
    ACCEL_COMPARE_NEAR(read->rows[0].value, 0.0049241227427805505, 1e-9);
    QCOMPARE(read->rows[0].scenario.serving.batch, 1.0);
    QCOMPARE(read->rows[0].scenario.serving.promptTokens, 257.0);
    QCOMPARE(read->rows[0].scenario.serving.contextTokens, 257.0 + 64.0);
    QCOMPARE(read->rows[1].metric, core::MeasuredMetric::TtftSeconds);
    ACCEL_COMPARE_NEAR(read->rows[1].value, 0.01638054847717285, 1e-9);
    QVERIFY(QString::fromStdString(read->rows[1].source).contains(QLatin1String("synchronous")));
}

// Runs generated by the core itself with bandwidth efficiency 0.6, compute efficiency 0.45 and a
// 4 ms step, noise +-3 %: the fit finds them again within a few per cent.
void Calibration::fitRecoversKnownEfficiencies()
{
    std::mt19937 random(24);
    std::uniform_real_distribution<double> noise(-0.03, 0.03);
    const QStringList truth{QStringLiteral("serving.bandwidth_efficiency=0.6"),
                            QStringLiteral("serving.compute_efficiency=0.45"),
                            QStringLiteral("serving.step_overhead_s=0.004"),
                            QStringLiteral("serving.attention_flops=1"),
                            QStringLiteral("serving.kv_write=1"),
                            QStringLiteral("serving.small_kernels=1")};
    std::vector<core::Measurement> runs;
    for (const char *model : {"llama-2-7b", "llama-2-13b", "mistral-7b-v0-1"}) {
        for (int batch : {1, 4, 16, 64}) {
            const QStringList settings{QStringLiteral("serving.batch=%1").arg(batch),
                                       QStringLiteral("serving.context_tokens=1024"),
                                       QStringLiteral("serving.prompt_tokens=512")};
            core::Measurement m =
                run(QString::fromLatin1(model), QStringLiteral("nvidia-a100-80gb-sxm"),
                    settings + truth, core::MeasuredMetric::DecodeTokensPerSecond, 1.0);
            m.value = core::predict(m.scenario, m.metric) * (1.0 + noise(random));
            // the run as measured: the file says nothing of efficiencies
            m.scenario = run(QString::fromLatin1(model), QStringLiteral("nvidia-a100-80gb-sxm"),
                             settings, m.metric, 1.0)
                             .scenario;
            runs.push_back(m);
        }
        for (int prompt : {1024, 4096}) {
            const QStringList settings{QStringLiteral("serving.batch=1"),
                                       QStringLiteral("serving.context_tokens=%1").arg(prompt),
                                       QStringLiteral("serving.prompt_tokens=%1").arg(prompt)};
            core::Measurement m =
                run(QString::fromLatin1(model), QStringLiteral("nvidia-a100-80gb-sxm"),
                    settings + truth, core::MeasuredMetric::TtftSeconds, 1.0);
            m.value = core::predict(m.scenario, m.metric) * (1.0 + noise(random));
            m.scenario = run(QString::fromLatin1(model), QStringLiteral("nvidia-a100-80gb-sxm"),
                             settings, m.metric, 1.0)
                             .scenario;
            runs.push_back(m);
        }
    }
    auto fit = core::calibrate(runs);
    QVERIFY(fit);
    const core::CalibrationEntry *entry =
        core::findCalibrationEntry(fit->profile, runs.front().scenario.device, std::string_view());
    QVERIFY(entry);
    QVERIFY(entry->bandwidthFitted && entry->computeFitted && entry->overheadFitted);
    // the entry holds shares of the A100's measured ceilings; of its spec sheet they are the truth
    const core::DeviceSpec &a100 = runs.front().scenario.device;
    QVERIFY(fit->profile.measuredCeilings);
    ACCEL_COMPARE_NEAR(entry->bandwidthEfficiency * core::bandwidthCeiling(a100).share, 0.6, 0.03);
    ACCEL_COMPARE_NEAR(entry->computeEfficiency *
                           core::computeCeiling(a100, core::NumericFormat::Bf16).share,
                       0.45, 0.03);
    ACCEL_COMPARE_NEAR(entry->stepOverheadSeconds, 0.004, 0.001);
    QVERIFY2(fit->worstAbsoluteError < 0.06, qPrintable(QString::number(fit->worstAbsoluteError)));
}

// Tensor-parallel runs generated with 25 us per all-reduce (the preset assumes 10 us), at TP 1 to
// 8 for models of 32, 40 and 80 layers: the fit finds the latency, and a profile applies it.
void Calibration::fitFindsTheAllReduceLatency()
{
    std::vector<core::Measurement> runs;
    for (const char *model : {"llama-2-7b", "llama-2-13b", "llama-2-70b"}) {
        for (int tp : {1, 2, 4, 8}) {
            for (int batch : {1, 16}) {
                const QStringList settings{QStringLiteral("serving.batch=%1").arg(batch),
                                           QStringLiteral("serving.tensor_parallel=%1").arg(tp),
                                           QStringLiteral("serving.context_tokens=512"),
                                           QStringLiteral("serving.prompt_tokens=256")};
                core::Measurement m =
                    run(QString::fromLatin1(model), QStringLiteral("nvidia-a100-80gb-sxm"),
                        settings, core::MeasuredMetric::StepSeconds, 1.0);
                core::Scenario truth = m.scenario;
                truth.device.deviceLinkLatencySeconds = 25e-6;
                // all-reduces at the measured bus bandwidth, as the fit and its profile run them
                truth.device.deviceLinkGbPerSecond = truth.device.measuredAllReduceBusGbPerSecond;
                truth.serving.bandwidthEfficiency = 0.7;
                truth.serving.stepOverheadSeconds = 0.002;
                truth.serving.attentionFlops = 1;
                truth.serving.kvWrite = 1;
                truth.serving.smallKernels = 1;
                m.value = core::predict(truth, m.metric);
                runs.push_back(m);
            }
        }
    }
    auto fit = core::calibrate(runs);
    QVERIFY(fit);
    const core::CalibrationEntry *entry =
        core::findCalibrationEntry(fit->profile, runs.front().scenario.device, "e");
    QVERIFY(entry);
    QVERIFY(entry->latencyFitted);
    ACCEL_COMPARE_NEAR(entry->collectiveLatencySeconds, 25e-6, 1e-7);
    ACCEL_COMPARE_NEAR(entry->stepOverheadSeconds, 0.002, 1e-6);
    QVERIFY2(fit->worstAbsoluteError < 1e-6, qPrintable(QString::number(fit->worstAbsoluteError)));
}

// Runs faster than the speed of light allows (a lying file that slipped through) cannot push an
// efficiency above 1 or the overhead below 0.
void Calibration::fitStaysInsideItsBounds()
{
    std::vector<core::Measurement> runs;
    for (int batch : {1, 8, 32}) {
        core::Measurement m = run(QStringLiteral("llama-2-7b"), QStringLiteral("nvidia-h100-sxm"),
                                  {QStringLiteral("serving.batch=%1").arg(batch)},
                                  core::MeasuredMetric::DecodeTokensPerSecond, 1.0);
        m.value = 1.05 * core::predict(m.scenario, m.metric) * (batch == 8 ? 1.02 : 1.0);
        runs.push_back(m);
    }
    auto fit = core::calibrate(runs);
    QVERIFY(fit);
    // shares of the H100's measured ceilings, which the runs may beat up to its spec sheet
    const core::DeviceSpec &h100 = runs.front().scenario.device;
    const double bandwidthShare = core::bandwidthCeiling(h100).share;
    const double computeShare = core::computeCeiling(h100, core::NumericFormat::Bf16).share;
    QVERIFY(bandwidthShare < 0.95 && computeShare < 0.95); // else the bound below tests nothing
    for (const core::CalibrationEntry &entry : fit->profile.entries) {
        QVERIFY(entry.bandwidthEfficiency > 0.0 &&
                entry.bandwidthEfficiency * bandwidthShare <= 1.0 + 1e-12);
        QVERIFY(entry.computeEfficiency > 0.0 &&
                entry.computeEfficiency * computeShare <= 1.0 + 1e-12);
        QVERIFY(entry.stepOverheadSeconds >= 0.0);
    }
}

// One decode run: memory-bound, one equation. The fit says compute efficiency and the overhead
// are not determined, and which run would determine them.
void Calibration::fitSaysWhatItCannotDetermine()
{
    core::Measurement m = run(QStringLiteral("llama-2-7b"), QStringLiteral("nvidia-l4"),
                              {QStringLiteral("serving.batch=1")},
                              core::MeasuredMetric::DecodeTokensPerSecondPerSequence, 15.0);
    auto fit = core::calibrate(std::vector<core::Measurement>{m});
    QVERIFY(fit);
    const core::CalibrationEntry &entry = fit->profile.entries.front();
    QVERIFY(entry.bandwidthFitted);
    QVERIFY(!entry.computeFitted);
    QVERIFY(!entry.overheadFitted);
    QString notes;
    for (const std::string &note : fit->profile.notes)
        notes += QString::fromStdString(note) + QLatin1Char('\n');
    QVERIFY2(notes.contains(QStringLiteral("compute efficiency not determined")),
             qPrintable(notes));
    QVERIFY2(notes.contains(QStringLiteral("prefill_seconds")), qPrintable(notes));
    QVERIFY2(notes.contains(QStringLiteral("step overhead not determined")), qPrintable(notes));
    QVERIFY(!core::calibrate(std::vector<core::Measurement>{}));
}

// The issue's acceptance, on the shipped data: the speed of light lands 3 of 81 within 15 %
// (median error 49 %); each run predicted by a fit of the other 80 lands 50 of 81 (median
// 10.0 %). Issue #24's 18 runs: 0 and 12 of 18.
void Calibration::calibrationBeatsTheSpeedOfLightOnPublishedRuns()
{
    const auto &rows = core::publishedMeasurements().rows;
    const std::vector<core::CalibrationPoint> held = core::leaveOneOut(rows);
    QCOMPARE(held.size(), rows.size());
    std::size_t within = 0;
    std::size_t toyWithin = 0;
    for (const core::CalibrationPoint &p : held) {
        within += std::fabs(p.relativeError) <= 0.15 ? 1 : 0;
        toyWithin += std::fabs(p.predictedUncalibrated / p.measured - 1.0) <= 0.15 ? 1 : 0;
    }
    QVERIFY2(toyWithin <= 3, qPrintable(QString::number(toyWithin)));
    QVERIFY2(within >= 50, qPrintable(QString::number(within)));
    const core::CalibrationProfile &typical = core::typicalProfile();
    QVERIFY(!typical.entries.empty());
}

void Calibration::profileRoundTrips()
{
    const core::CalibrationProfile &typical = core::typicalProfile();
    const std::string text = core::calibrationProfileToJson(typical);
    auto back = core::readCalibrationProfile(text);
    QVERIFY(back);
    QCOMPARE(back->entries.size(), typical.entries.size());
    for (std::size_t i = 0; i < typical.entries.size(); ++i) {
        QCOMPARE(back->entries[i].device, typical.entries[i].device);
        QCOMPARE(back->entries[i].engine, typical.entries[i].engine);
        QCOMPARE(back->entries[i].bandwidthEfficiency, typical.entries[i].bandwidthEfficiency);
        QCOMPARE(back->entries[i].stepOverheadSeconds, typical.entries[i].stepOverheadSeconds);
    }
    QCOMPARE(core::calibrationProfileToJson(back.value()), text);
}

// The typical profile is shipped as data (presets/calibration/typical.json) so that the physics
// wing needs no fit (issue #40): it must stay exactly the fit of the shipped measurements, or a
// change to the fit or the runs would leave every typical figure on a stale profile.
void Calibration::shippedTypicalProfileIsTheFitOfThePublishedRuns()
{
    const std::string shipped = core::calibrationProfileToJson(core::typicalProfile());
    const std::string fitted = core::calibrationProfileToJson(core::fitTypicalProfile());
    QVERIFY(!core::typicalProfile().entries.empty());
    QVERIFY2(shipped == fitted,
             "presets/calibration/typical.json is not the fit of presets/measurements/"
             "published.csv: run `accel-calc calibrate --typical -o "
             "presets/calibration/typical.json` and rebuild");
}

void Calibration::profileErrorsNameTheField_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("path");
    const QString head = QStringLiteral("{\"format\": \"accel-explorer/calibration\", ");
    QTest::newRow("not json") << QStringLiteral("{") << QString();
    QTest::newRow("format") << QStringLiteral("{\"format\": \"x\"}") << QStringLiteral("/format");
    QTest::newRow("no entries") << head + QStringLiteral("\"entries\": []}")
                                << QStringLiteral("/entries");
    QTest::newRow("efficiency above 1")
        << head + QStringLiteral("\"entries\": [{\"class\": \"datacenter\", "
                                 "\"bandwidth_efficiency\": 1.5}]}")
        << QStringLiteral("/entries/0/bandwidth_efficiency");
    QTest::newRow("negative overhead")
        << head + QStringLiteral("\"entries\": [{\"device\": \"nvidia-l4\", "
                                 "\"step_overhead_s\": -1}]}")
        << QStringLiteral("/entries/0/step_overhead_s");
    QTest::newRow("no scope") << head + QStringLiteral("\"entries\": [{}]}")
                              << QStringLiteral("/entries/0");
}

void Calibration::profileErrorsNameTheField()
{
    QFETCH(QString, text);
    QFETCH(QString, path);
    auto read = core::readCalibrationProfile(text.toStdString());
    QVERIFY(!read);
    if (!path.isEmpty())
        QCOMPARE(QString::fromStdString(read.error().path), path);
    QVERIFY(!read.error().message.empty());
}

// A scenario carries the profile inline (or names a file); typical needs none; the estimate is
// said on every figure's way out (label) and the numbers move.
void Calibration::scenarioSectionAppliesAProfile()
{
    const std::string profile = core::calibrationProfileToJson(core::typicalProfile());
    const QString inline_ =
        QStringLiteral("{\"model\": \"llama-2-7b\", \"device\": \"nvidia-a100-80gb-sxm\", "
                       "\"serving\": {\"batch\": 1}, \"calibration\": {\"engine\": \"gpt-fast\", "
                       "\"profile\": %1}}")
            .arg(QString::fromStdString(profile));
    const core::Scenario s = testsupport::loadScenario(inline_);
    QCOMPARE(s.calibration.mode, core::EstimateMode::Calibrated);
    QVERIFY(s.calibration.profile);
    const core::Evaluation e = core::evaluate(s);
    QCOMPARE(e.estimateMode, core::EstimateMode::Calibrated);
    QVERIFY(e[FigureId::EstimateBandwidthEfficiency] < 1.0);
    QVERIFY(e[FigureId::EstimateStepOverheadSeconds] > 0.0);
    QCOMPARE(core::estimateLabel(s), std::string("calibrated: nvidia-a100-80gb-sxm with gpt-fast"));
    // written back and read again: the same estimate
    const core::Scenario again =
        testsupport::loadScenario(QString::fromStdString(core::writeScenario(s)));
    QCOMPARE(core::evaluate(again)[FigureId::DecodeStepSeconds], e[FigureId::DecodeStepSeconds]);

    const core::Scenario typical =
        testsupport::loadScenario(QStringLiteral("{\"model\": \"llama-2-7b\", \"device\": "
                                                 "\"nvidia-rtx-4090\", \"calibration\": {\"mode\": "
                                                 "\"typical\"}}"));
    QCOMPARE(core::evaluate(typical).estimateMode, core::EstimateMode::Typical);
    const core::Scenario path =
        testsupport::loadScenario(QStringLiteral("{\"calibration\": \"mine.json\"}"));
    QCOMPARE(path.calibration.profilePath, std::string("mine.json"));
    QVERIFY(!core::readScenario(R"({"calibration": {"mode": "guess"}})"));
    QVERIFY(!core::readScenario(R"({"calibration": {"mode": "calibrated"}})"));
}

// Issue #40: a real device preset without a calibration section is estimated by the typical
// profile (every shipped scenario on a lesson device keeps the speed of light and its exact
// numbers); a chosen estimate stays; the checks say which estimates their options rest on.
void Calibration::realDevicesDefaultToTheTypicalEstimate()
{
    const core::Scenario fleet = testsupport::loadScenario(QStringLiteral("llama-70b-fleet"));
    QCOMPARE(fleet.calibration.mode, core::EstimateMode::Typical);
    QCOMPARE(core::evaluate(fleet).estimateMode, core::EstimateMode::Typical);
    QCOMPARE(core::estimatesUsed(core::selectDevice(fleet)), core::EstimatesUsed::Typical);
    // written and read back: still typical (now said in the file)
    QCOMPARE(testsupport::loadScenario(QString::fromStdString(core::writeScenario(fleet)))
                 .calibration.mode,
             core::EstimateMode::Typical);
    for (const char *id : {"lesson-default", "support-assistant", "batching-8", "batching-32",
                           "oom-14th-request", "cost-example", "toy-decode", "edge-3b"}) {
        const core::Scenario lesson = testsupport::loadScenario(QString::fromLatin1(id));
        QVERIFY2(lesson.calibration.mode == core::EstimateMode::SpeedOfLight, id);
    }
    QCOMPARE(core::estimatesUsed(core::selectDevice(
                 testsupport::loadScenario(QStringLiteral("support-assistant")))),
             core::EstimatesUsed::SpeedOfLight);
    // the lesson's scenario checked against an H100 too: each device its own default
    const core::Scenario mixed = testsupport::loadScenario(
        QStringLiteral("support-assistant"),
        {QStringLiteral("wizard.candidates=[\"lesson-accelerator-48gb\", \"nvidia-h100-sxm\"]")});
    const core::Selection both = core::selectDevice(mixed);
    QCOMPARE(core::estimatesUsed(both), core::EstimatesUsed::TypicalAndSpeedOfLight);
    QVERIFY(core::estimatesUsedText(core::estimatesUsed(both)).starts_with("typical for the real"));
    QCOMPARE(testsupport::findCandidate(both, "nvidia-h100-sxm", core::NumericFormat::Bf16)
                 ->scenario.calibration.mode,
             core::EstimateMode::Typical);
    // chosen: the speed of light holds on every candidate
    const core::Selection chosen = core::selectDevice(
        testsupport::loadScenario(QStringLiteral("llama-70b-fleet"), {testsupport::kSpeedOfLight}));
    QCOMPARE(core::estimatesUsed(chosen), core::EstimatesUsed::SpeedOfLight);
}

// Issue #43, item 4: the typical efficiencies, fitted on NVIDIA devices with gpt-fast, vLLM
// and TensorRT-LLM, were applied to an AMD MI300X with no remark that it lies outside the fitted
// data. Every estimate now says how near its data it is.
void Calibration::everyEstimateSaysHowFarItIsFromItsData()
{
    auto on = [](const char *device, const char *engine) {
        QStringList sets{QStringLiteral("serving.tensor_parallel=1"),
                         QStringLiteral("device=\"%1\"").arg(QLatin1String(device)),
                         QStringLiteral("calibration={\"mode\": \"typical\", \"engine\": \"%1\"}")
                             .arg(QLatin1String(engine))};
        return core::estimateReach(
            testsupport::loadScenario(QStringLiteral("llama-70b-fleet"), sets));
    };
    const core::ReachInfo fitted = on("nvidia-a100-80gb-sxm", "gpt-fast");
    QCOMPARE(fitted.reach, core::EstimateReach::DeviceAndEngine);
    QVERIFY2(fitted.text.find("gpt-fast") != std::string::npos, fitted.text.c_str());
    QCOMPARE(on("nvidia-a100-80gb-sxm", "SGLang").reach, core::EstimateReach::Device);
    // every measured device has runs enough for an entry of its own since issue #43's 63 runs
    QCOMPARE(on("nvidia-h100-sxm", "").reach, core::EstimateReach::Device);
    // a device measured with one engine only says so: its estimate is that engine's speed
    const core::ReachInfo mi300x = on("amd-mi300x", "");
    QCOMPARE(mi300x.reach, core::EstimateReach::Device);
    QVERIFY2(mi300x.text.find("all with vLLM (ROCm, 2024): another engine may be faster or "
                              "slower") != std::string::npos,
             mi300x.text.c_str());
    const core::ReachInfo amd = on("amd-mi325x", "vLLM");
    QCOMPARE(amd.reach, core::EstimateReach::ClassOnly);
    // the class's error is each measured device's, predicted by the class fitted without it
    for (const char *said :
         {"Outside the fitted data", "AMD Instinct MI325X", "A100", "H100", "MI300X", "worst"})
        QVERIFY2(amd.text.find(said) != std::string::npos,
                 (std::string(said) + ": " + amd.text).c_str());
    const core::ReachInfo edge = on("nvidia-jetson-agx-orin-64gb", "");
    QCOMPARE(edge.reach, core::EstimateReach::NoData);
    QVERIFY2(edge.text.find("speed of light") != std::string::npos, edge.text.c_str());
    QCOMPARE(core::estimateReach(testsupport::loadScenario(QStringLiteral("lesson-default"))).reach,
             core::EstimateReach::Lesson);
}

// Issue #43, item 5: an estimate comes with the range engines measure around it, twice its
// entry's median error (clamped to 5-90 %, never above the speed of light); the roofline draws
// it, the sensitivity varies it and evaluate's JSON gives it.
void Calibration::everyEstimateCarriesItsRange()
{
    const core::Scenario lesson = testsupport::loadScenario(QStringLiteral("lesson-default"));
    const core::EstimateRange none = core::estimateRange(core::estimateTerms(lesson));
    QVERIFY(!none.known());
    QCOMPARE(none.low, 1.0);
    QCOMPARE(none.high, 1.0);

    core::CalibrationProfile profile;
    profile.name = "range";
    core::CalibrationEntry entry;
    entry.deviceClass = "datacenter";
    entry.bandwidthEfficiency = 0.8;
    entry.computeEfficiency = 0.7;
    profile.entries.push_back(entry);
    core::Scenario s = testsupport::loadScenario(
        QStringLiteral("lesson-default"),
        {QStringLiteral("model=\"llama-2-7b\""), QStringLiteral("device=\"nvidia-h100-sxm\"")});
    s.calibration.mode = core::EstimateMode::Calibrated;
    auto rangeAt = [&](double medianError) {
        profile.entries[0].medianRelativeError = medianError;
        s.calibration.profile = profile;
        return core::estimateRange(core::estimateTerms(s));
    };
    // no errors recorded (a fit of one run): no range to draw
    QVERIFY(!rangeAt(std::numeric_limits<double>::quiet_NaN()).known());
    // 10 % median error: 0.8x to 1.2x (the speed of light, 1 / 0.8 = 1.25x, is further)
    const core::EstimateRange ten = rangeAt(0.10);
    QVERIFY(ten.known());
    ACCEL_COMPARE_NEAR(ten.low, 0.8, 1e-12);
    ACCEL_COMPARE_NEAR(ten.high, 1.2, 1e-12);
    // 60 %: twice is 120 %, clamped to 90 % below, and the speed of light caps it above
    const core::EstimateRange wide = rangeAt(0.60);
    ACCEL_COMPARE_NEAR(wide.low, 0.1, 1e-12);
    ACCEL_COMPARE_NEAR(wide.high, 1.0 / 0.8, 1e-12);
    // 1 %: at least 5 % either side
    const core::EstimateRange narrow = rangeAt(0.01);
    ACCEL_COMPARE_NEAR(narrow.low, 0.95, 1e-12);
    ACCEL_COMPARE_NEAR(narrow.high, 1.05, 1e-12);

    // evaluate's JSON gives the factors (and none at the speed of light)
    rangeAt(0.10);
    const auto json = nlohmann::json::parse(core::evaluationToJson(s, core::evaluate(s), false));
    ACCEL_COMPARE_NEAR(json["estimate"]["speed_factor_low"].get<double>(), 0.8, 1e-12);
    ACCEL_COMPARE_NEAR(json["estimate"]["speed_factor_high"].get<double>(), 1.2, 1e-12);
    const auto toy =
        nlohmann::json::parse(core::evaluationToJson(lesson, core::evaluate(lesson), false));
    QVERIFY(!toy["estimate"].contains("speed_factor_low"));
}

// Issue #43, item 1: the typical estimate's efficiencies are shares of what a benchmark measured
// on each device (docs/research/measured-ceilings.json, cited per figure in the presets), so a
// device whose kernels reach less of its spec sheet is estimated slower than its class.
void Calibration::measuredCeilingsAreTheDevicesBest_data()
{
    QTest::addColumn<QString>("device");
    QTest::addColumn<QString>("format");
    QTest::addColumn<double>("bandwidthShare");
    QTest::addColumn<double>("computeShare");
    QTest::addColumn<bool>("measured");
    // Azure BabelStream triad 2.97 of 3.35 TB/s; MAMF BF16 794.5 of 989 TFLOP/s (stas00)
    QTest::newRow("H100 BF16") << "nvidia-h100-sxm"
                               << "bf16" << 2970.0 / 3350 << 794.5 / 989 << true;
    // MAMF FP8 1,402.6 of 1,979 TFLOP/s
    QTest::newRow("H100 FP8") << "nvidia-h100-sxm"
                              << "fp8" << 2970.0 / 3350 << 1402.6 / 1979 << true;
    // no FP16 row: the BF16 units' share
    QTest::newRow("H100 FP16 from BF16") << "nvidia-h100-sxm"
                                         << "fp16" << 2970.0 / 3350 << 794.5 / 989 << true;
    // Azure BabelStream triad 4.10 of 5.3 TB/s; MAMF BF16 668.4 of 1,307.4 TFLOP/s
    QTest::newRow("MI300X BF16") << "amd-mi300x"
                                 << "bf16" << 4100.0 / 5300 << 668.4 / 1307.4 << true;
    // chsasank/device-benchmarks: 168 TFLOP/s BF16 beats the 165.2 spec: capped at the spec
    QTest::newRow("RTX 4090 capped") << "nvidia-rtx-4090"
                                     << "bf16" << 912.0 / 1008 << 1.0 << true;
    // nothing measured: the median of the measured devices' shares (bandwidth: 10 devices,
    // A100 80GB's 0.834 and H200's 0.871 in the middle; matmul: 15 devices, the 8th is TPU v6e's
    // 727.7 of 918)
    QTest::newRow("L40S unmeasured") << "nvidia-l40s"
                                     << "bf16" << (0.8343 + 0.8708) / 2 << 727.7 / 918 << false;
}

void Calibration::measuredCeilingsAreTheDevicesBest()
{
    QFETCH(QString, device);
    QFETCH(QString, format);
    QFETCH(double, bandwidthShare);
    QFETCH(double, computeShare);
    QFETCH(bool, measured);
    const auto spec = core::devicePreset(device.toStdString());
    QVERIFY(spec);
    const auto f = core::parseFormat(format.toStdString());
    QVERIFY(f);
    const core::CeilingShare bandwidth = core::bandwidthCeiling(spec.value());
    const core::CeilingShare compute = core::computeCeiling(spec.value(), *f);
    ACCEL_COMPARE_NEAR(bandwidth.share, bandwidthShare, 0.0005);
    ACCEL_COMPARE_NEAR(compute.share, computeShare, 0.0005);
    QCOMPARE(bandwidth.measured, measured);
    QCOMPARE(compute.measured, measured);
    QCOMPARE(bandwidth.source.empty(), !measured);

    // the typical estimate is the fitted share of that ceiling; the speed of light ignores it
    core::Scenario s = testsupport::loadScenario(
        QStringLiteral("lesson-default"),
        {QStringLiteral("model=\"llama-2-7b\""), QStringLiteral("device=\"%1\"").arg(device)});
    QCOMPARE(s.calibration.mode, core::EstimateMode::Typical);
    const core::CalibrationEntry *entry =
        core::findCalibrationEntry(core::typicalProfile(), s.device, s.calibration.engine);
    QVERIFY(entry);
    QVERIFY(core::typicalProfile().measuredCeilings);
    ACCEL_COMPARE_NEAR(core::evaluate(s)[FigureId::EstimateBandwidthEfficiency],
                       std::min(1.0, entry->bandwidthEfficiency * bandwidth.share), 1e-12);
    s.calibration.mode = core::EstimateMode::SpeedOfLight;
    QCOMPARE(core::evaluate(s)[FigureId::EstimateBandwidthEfficiency], 1.0);
}

// A what-if on the spec sheet (twice the bandwidth) keeps the device's measured share: the
// typical estimate of a memory-bound decode nearly doubles, it does not stay at the old
// measurement.
void Calibration::aWhatIfOnTheSpecMovesItsCeiling()
{
    core::Scenario s = testsupport::loadScenario(QStringLiteral("lesson-default"),
                                                 {QStringLiteral("model=\"llama-2-7b\""),
                                                  QStringLiteral("device=\"nvidia-h100-sxm\""),
                                                  QStringLiteral("serving.batch=1")});
    const double share = core::bandwidthCeiling(s.device).share;
    QVERIFY(core::setNumberAt(s, "device.bandwidth_gb_s", 6700.0));
    QCOMPARE(s.device.measuredBandwidthGbPerSecond, 2970.0 * 2.0);
    ACCEL_COMPARE_NEAR(core::bandwidthCeiling(s.device).share, share, 1e-12);
    QVERIFY(core::setNumberAt(s, "device.peak_tflops.bf16", 989.0 * 3.0));
    QCOMPARE(s.device.measuredPeak(core::NumericFormat::Bf16), 794.5 * 3.0);
    // an edited device is no longer the measured H100: its class's fitted share, of the ceiling
    // that moved with the spec
    const core::CalibrationEntry *entry =
        core::findCalibrationEntry(core::typicalProfile(), s.device, s.calibration.engine);
    QVERIFY(entry && entry->device.empty());
    ACCEL_COMPARE_NEAR(core::evaluate(s)[FigureId::EstimateBandwidthEfficiency],
                       std::min(1.0, entry->bandwidthEfficiency * share), 1e-12);

    // the same what-if on the command line (--set rewrites the file before it is read): the
    // ceiling stayed at 2,970 GB/s beside half the bandwidth, a slower device read as a more
    // efficient one (the hostile review of issue #43's change)
    for (const double bandwidth : {6700.0, 1675.0}) {
        const core::Scenario set = testsupport::loadScenario(
            QStringLiteral("lesson-default"),
            {QStringLiteral("device=\"nvidia-h100-sxm\""),
             QStringLiteral("device.bandwidth_gb_s=%1").arg(bandwidth),
             QStringLiteral("device.peak_tflops.bf16=%1").arg(989.0 / 2)});
        ACCEL_COMPARE_NEAR(set.device.measuredBandwidthGbPerSecond, 2970.0 * bandwidth / 3350.0,
                           1e-9);
        ACCEL_COMPARE_NEAR(set.device.measuredPeak(core::NumericFormat::Bf16), 794.5 / 2, 1e-9);
        ACCEL_COMPARE_NEAR(core::bandwidthCeiling(set.device).share, share, 1e-12);
    }
}

// A profile written before issue #43 has no terms.measured_ceilings: its efficiencies are shares
// of the spec sheet and are applied as such (a user's calibration keeps its numbers).
void Calibration::aProfileFittedOnTheSpecSheetReadsAsBefore()
{
    const char *const old = R"({"format": "accel-explorer/calibration", "version": 1,
        "name": "mine", "terms": {"attention_flops": true, "kv_write": true},
        "entries": [{"class": "datacenter", "bandwidth_efficiency": 0.7,
                     "compute_efficiency": 0.6, "step_overhead_s": 0.001}]})";
    auto profile = core::readCalibrationProfile(old);
    QVERIFY(profile);
    QVERIFY(!profile->measuredCeilings);
    core::Scenario s = testsupport::loadScenario(
        QStringLiteral("lesson-default"),
        {QStringLiteral("model=\"llama-2-7b\""), QStringLiteral("device=\"nvidia-h100-sxm\"")});
    s.calibration.mode = core::EstimateMode::Calibrated;
    s.calibration.profile = profile.value();
    QCOMPARE(core::evaluate(s)[FigureId::EstimateBandwidthEfficiency], 0.7);
    // the same file marked as fitted on measured ceilings: 0.7 of the H100's 2,970 GB/s
    profile->measuredCeilings = true;
    s.calibration.profile = profile.value();
    ACCEL_COMPARE_NEAR(core::evaluate(s)[FigureId::EstimateBandwidthEfficiency],
                       0.7 * 2970.0 / 3350.0, 1e-12);
    // and an efficiency above 1 of a ceiling reads only there
    const std::string above = std::string(old).replace(std::string(old).find("0.7"), 3, "1.1");
    QVERIFY(!core::readCalibrationProfile(above));
    const std::string aboveMeasured = std::string(above).replace(
        above.find("\"kv_write\": true"), 16, "\"kv_write\": true, \"measured_ceilings\": true");
    QVERIFY(core::readCalibrationProfile(aboveMeasured));
}

// Issue #43, items 2 and 3: decode attention reads the KV cache at its kernels' own efficiency
// (paged-attention kernels reach 37-55 % of HBM at short contexts, FlashAttention-3's published
// decode figures) and an engine pays per generated sequence per step (sampling, scheduling:
// about 42 us in Vidur's vLLM-era profile). Synthetic runs with known figures are recovered.
void Calibration::fitSeparatesKvTrafficAndPerSequenceTime()
{
    core::CalibrationProfile truth;
    truth.measuredCeilings = true;
    truth.smallKernels = true;
    core::CalibrationEntry entry;
    entry.deviceClass = "datacenter";
    entry.bandwidthEfficiency = 0.9;
    entry.computeEfficiency = 0.8;
    entry.kvBandwidthEfficiency = 0.5;
    entry.secondsPerSequence = 40e-6;
    entry.stepOverheadSeconds = 0.002;
    truth.entries.push_back(entry);
    std::vector<core::Measurement> runs;
    for (const char *model : {"llama-2-7b", "llama-2-13b"}) {
        for (int batch : {1, 2, 4, 16, 32, 64}) {
            for (int context : {256, 2048}) {
                core::Measurement m =
                    run(QString::fromLatin1(model), QStringLiteral("nvidia-a100-80gb-sxm"),
                        {QStringLiteral("serving.batch=%1").arg(batch),
                         QStringLiteral("serving.context_tokens=%1").arg(context),
                         QStringLiteral("serving.prompt_tokens=128")},
                        core::MeasuredMetric::StepSeconds, 1.0);
                core::Scenario known = m.scenario;
                known.calibration.mode = core::EstimateMode::Calibrated;
                known.calibration.profile = truth;
                m.value = core::predict(known, m.metric);
                runs.push_back(m);
            }
        }
    }
    auto fit = core::calibrate(runs);
    QVERIFY(fit);
    const core::CalibrationEntry *found =
        core::findCalibrationEntry(fit->profile, runs.front().scenario.device, "e");
    QVERIFY(found);
    QVERIFY(found->kvFitted && found->perSequenceFitted);
    ACCEL_COMPARE_NEAR(found->kvBandwidthEfficiency, 0.5, 0.01);
    ACCEL_COMPARE_NEAR(found->bandwidthEfficiency, 0.9, 0.01);
    ACCEL_COMPARE_NEAR(found->secondsPerSequence, 40e-6, 2e-6);
    ACCEL_COMPARE_NEAR(found->stepOverheadSeconds, 0.002, 1e-4);
    QVERIFY2(fit->worstAbsoluteError < 0.01, qPrintable(QString::number(fit->worstAbsoluteError)));

    // batch-1 runs alone cannot tell a per-sequence cost from the fixed one: none is fitted
    std::vector<core::Measurement> single;
    for (const core::Measurement &m : runs)
        if (m.scenario.serving.batch == 1)
            single.push_back(m);
    auto alone = core::calibrate(single);
    QVERIFY(alone);
    for (const core::CalibrationEntry &e : alone->profile.entries) {
        QVERIFY(!e.perSequenceFitted);
        QCOMPARE(e.secondsPerSequence, 0.0);
    }
}

// Leave-one-engine-out and leave-one-device-out: the error where nobody measured. A held-out
// device's runs are predicted by its class (no entry of its own survives), an engine's by the
// others'; the points come back in the runs' order.
void Calibration::leaveGroupOutHoldsOutWholeEnginesAndDevices()
{
    QCOMPARE(core::engineFamily("TensorRT-LLM 0.6.1"), std::string("tensorrt-llm"));
    QCOMPARE(core::engineFamily("vLLM (ROCm, 2024)"), std::string("vllm"));
    QCOMPARE(core::engineFamily("llama.cpp (May 2024)"), std::string("llama.cpp"));
    const auto &rows = core::publishedMeasurements().rows;
    const std::vector<core::CalibrationPoint> byDevice =
        core::leaveGroupOut(rows, core::HoldOut::Device);
    QCOMPARE(byDevice.size(), rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        QCOMPARE(byDevice[i].row, i);
        QVERIFY2(byDevice[i].scope.find(rows[i].scenario.device.presetId) == std::string::npos,
                 byDevice[i].scope.c_str());
    }
    const std::vector<core::CalibrationPoint> byEngine =
        core::leaveGroupOut(rows, core::HoldOut::Engine);
    QCOMPARE(byEngine.size(), rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i)
        QVERIFY2(byEngine[i].scope.find(rows[i].engine) == std::string::npos ||
                     rows[i].engine.empty(),
                 byEngine[i].scope.c_str());
    // the issue's figures (docs/formulas.md): 40 and 44 of 81 within 15 %
    auto within = [](const std::vector<core::CalibrationPoint> &points) {
        return std::count_if(points.begin(), points.end(),
                             [](const auto &p) { return std::fabs(p.relativeError) <= 0.15; });
    };
    QVERIFY2(within(byDevice) >= 40, qPrintable(QString::number(within(byDevice))));
    QVERIFY2(within(byEngine) >= 44, qPrintable(QString::number(within(byEngine))));
}

QTEST_APPLESS_MAIN(Calibration)
#include "tst_calibration.moc"
