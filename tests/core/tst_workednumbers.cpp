// SPDX-License-Identifier: GPL-3.0-or-later
// Every worked number in the lesson (../shared/lesson/worked-numbers.md), one row each, with the
// lesson line cited in the row name. Tolerance: the last printed digit +-0.5 ("~30 ms" accepts
// 29.7). The rows are copied here on purpose: the shared file is not read at test time.

#include "testsupport.h"

#include "core/model/calc.h"
#include "core/model/formats.h"
#include "core/model/units.h"
#include "core/physics/lessonfigures.h"
#include "core/physics/scaling.h"

#include <QObject>

#include <array>

using testsupport::evaluateScenario;

namespace {
constexpr double B = 1.0;
constexpr double GB = 1e9;
constexpr double GiB = 1073741824.0;
constexpr double KiB = 1024.0;
constexpr double MB = 1e6;
constexpr double ms = 1e-3;
constexpr double s = 1.0;
constexpr double kW = 1e3;
constexpr double M = 1e6;
constexpr double one = 1.0;
} // namespace

class WorkedNumbers : public QObject
{
    Q_OBJECT

private slots:
    void figure_data();
    void figure();
    void memoryTimeIsAbout200xArithmetic();
    void maxSequencesFunction_data();
    void maxSequencesFunction();
    void oomSequencesBeforeRounding();
    void quantisationExample();
    void decodeOfOneRowIsAboutOneFlopPerByte();
    void tensorParallelDecodeCommunication();
    void tensorParallelDecodeScalesWithinANodeOnly();
    void deviceSelectionVerdicts();
    void costAtThreeUtilisations_data();
    void costAtThreeUtilisations();
};

void WorkedNumbers::figure_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QStringList>("overrides");
    QTest::addColumn<QString>("figure");
    QTest::addColumn<double>("expected");  // in the lesson's printed unit
    QTest::addColumn<double>("unit");      // that unit in SI
    QTest::addColumn<double>("tolerance"); // in the printed unit: last digit +-0.5

    const QString lesson = QStringLiteral("lesson-default");
    auto row = [](const char *name, const QString &scenario, const QStringList &overrides,
                  const char *figure, double expected, double unit, double tolerance) {
        QTest::newRow(name) << scenario << overrides << QString::fromLatin1(figure) << expected
                            << unit << tolerance;
    };
    const QStringList none;
    const QStringList int8 = {QStringLiteral("serving.weight_format=int8")};

    // Weights (P = 7e9), lesson l.45-49 and l.200
    row("l45 BF16 weights 14 GB", lesson, none, "memory.weights_bytes", 14, GB, 0.5);
    row("l45 BF16 weights 13.04 GiB", lesson, none, "memory.weights_bytes", 13.04, GiB, 0.005);
    row("l46 INT8 weights 7 GB", lesson, int8, "memory.weights_bytes", 7, GB, 0.5);
    row("l46 FP8 weights 7 GB", lesson, {QStringLiteral("serving.weight_format=fp8")},
        "memory.weights_bytes", 7, GB, 0.5);
    row("l46 INT8 weights 6.52 GiB", lesson, int8, "memory.weights_bytes", 6.52, GiB, 0.005);
    row("l47 4-bit weights 3.5 GB", lesson, {QStringLiteral("serving.weight_format=int4")},
        "memory.weights_bytes", 3.5, GB, 0.05);
    const QStringList int4Scales = {QStringLiteral("serving.weight_format=int4"),
                                    QStringLiteral("serving.quant_group_size=128"),
                                    QStringLiteral("serving.quant_scale_bits=16")};
    row("l49 4-bit + 16-bit scale per 128: 0.5156 B/param", lesson, int4Scales,
        "memory.bytes_per_parameter", 0.5156, B, 0.00005);
    row("l49 4-bit + scales: 3.61 GB", lesson, int4Scales, "memory.weights_bytes", 3.61, GB, 0.005);
    row("l200 edge 3B at 4 bit: 1.5 GB", QStringLiteral("edge-3b"), none, "memory.weights_bytes",
        1.5, GB, 0.05);

    // Training state, l.52-63
    row("l61 16 bytes per parameter", lesson, none, "training.bytes_per_parameter", 16, B, 0.5);
    row("l63 7B training state 112 GB", lesson, none, "training.state_bytes", 112, GB, 0.5);

    // KV cache, l.76-87 (32 layers, 8 KV heads, head_dim 128, BF16)
    row("l78 KV bytes per token 131,072 B", lesson, none, "memory.kv_bytes_per_token", 131072, B,
        0.5);
    row("l78 KV bytes per token 128 KiB", lesson, none, "memory.kv_bytes_per_token", 128, KiB, 0.5);
    row("l78 KV bytes per token ~0.131 MB", lesson, none, "memory.kv_bytes_per_token", 0.131, MB,
        0.0005);
    row("l81 one 4096-token sequence 536,870,912 B", lesson, none, "memory.kv_bytes_per_sequence",
        536870912, B, 0.5);
    row("l81 one 4096-token sequence ~0.537 GB", lesson, none, "memory.kv_bytes_per_sequence",
        0.537, GB, 0.0005);
    row("l84 32 sequences x 4096: 17.18 GB", lesson, none, "memory.kv_bytes_total", 17.18, GB,
        0.005);
    const QStringList noGqa = {QStringLiteral("model.kv_heads=32")};
    row("l87 without GQA: 524,288 B/token", lesson, noGqa, "memory.kv_bytes_per_token", 524288, B,
        0.5);
    row("l87 without GQA: 68.7 GB for 32 x 4096", lesson, noGqa, "memory.kv_bytes_total", 68.7, GB,
        0.05);

    // Roofline and toy decode, l.93-110 (200 TFLOP/s BF16 dense, 1,000 GB/s)
    const QString toy = QStringLiteral("toy-decode");
    row("l93 ridge point 200 FLOP/B", lesson, none, "roofline.ridge_flops_per_byte", 200, one, 0.5);
    row("l93 decode intensity at batch 1 ~1 FLOP/B", toy, none, "decode.intensity_flops_per_byte",
        1, one, 0.5);
    row("l103 BF16 ceiling 14.0 ms/token", toy, none, "decode.weights_only_seconds", 14.0, ms,
        0.05);
    row("l103 BF16 ceiling 71.4 tokens/s", toy, none, "decode.weights_only_tokens_per_second", 71.4,
        one, 0.05);
    row("l104 1-byte ceiling 7.0 ms/token", toy, int8, "decode.weights_only_seconds", 7.0, ms,
        0.05);
    row("l104 1-byte ceiling 142.9 tokens/s", toy, int8, "decode.weights_only_tokens_per_second",
        142.9, one, 0.05);
    row("l107 with one 4096-token KV read: 14.54 ms", toy, none, "decode.step_seconds", 14.54, ms,
        0.005);
    row("l107 with one 4096-token KV read: 68.8 tokens/s", toy, none, "decode.tokens_per_second",
        68.8, one, 0.05);
    row("l109 arithmetic per token 14 GFLOP", toy, none, "decode.flops_per_step", 14, GB, 0.5);
    row("l109 arithmetic time 0.07 ms", toy, none, "decode.compute_seconds", 0.07, ms, 0.005);

    // Batching, l.119-123
    row("l121 batch 1: 14.54 GB per step", toy, none, "decode.bytes_per_step", 14.54, GB, 0.005);
    row("l121 batch 1: 14.5 ms", toy, none, "decode.step_seconds", 14.5, ms, 0.05);
    row("l121 batch 1: 68.8 tokens/s total", toy, none, "decode.tokens_per_second", 68.8, one,
        0.05);
    row("l121 batch 1: 68.8 per sequence", toy, none, "decode.tokens_per_second_per_sequence", 68.8,
        one, 0.05);
    const QString b8 = QStringLiteral("batching-8");
    row("l122 batch 8: 18.29 GB per step", b8, none, "decode.bytes_per_step", 18.29, GB, 0.005);
    row("l122 batch 8: 18.3 ms", b8, none, "decode.step_seconds", 18.3, ms, 0.05);
    row("l122 batch 8: 437 tokens/s total", b8, none, "decode.tokens_per_second", 437, one, 0.5);
    row("l122 batch 8: 54.7 per sequence", b8, none, "decode.tokens_per_second_per_sequence", 54.7,
        one, 0.05);
    const QString b32 = QStringLiteral("batching-32");
    row("l123 batch 32: 31.18 GB per step", b32, none, "decode.bytes_per_step", 31.18, GB, 0.005);
    row("l123 batch 32: 31.2 ms", b32, none, "decode.step_seconds", 31.2, ms, 0.05);
    row("l123 batch 32: 1,026 tokens/s total", b32, none, "decode.tokens_per_second", 1026, one,
        0.5);
    row("l123 batch 32: 32.1 per sequence", b32, none, "decode.tokens_per_second_per_sequence",
        32.1, one, 0.05);
    row("l125 intensity limit ~26 FLOP/B", b32, none, "decode.intensity_limit_flops_per_byte", 26,
        one, 0.5);

    // Interconnect, l.159-171
    const QString dp = QStringLiteral("interconnect-data-parallel");
    row("l162 (a) traffic per device 24.5 GB", dp, none, "interconnect.traffic_bytes_per_device",
        24.5, GB, 0.05);
    row("l163 (a) over 100 GB/s intra-node 0.245 s", dp, none, "interconnect.intra_node_seconds",
        0.245, s, 0.0005);
    row("l164 (a) over 12.5 GB/s network 1.96 s", dp, none, "interconnect.inter_node_seconds", 1.96,
        s, 0.005);
    row("l162 (a) default message is the 7B BF16 gradient, 14 GB", lesson, none,
        "interconnect.message_bytes", 14, GB, 0.5);
    const QString tpx = QStringLiteral("interconnect-tensor-parallel");
    row("l167 (b) message 262,144 B", tpx, none, "interconnect.message_bytes", 262144, B, 0.5);
    row("l168 (b) ring traffic 393,216 B", tpx, none, "interconnect.traffic_bytes_per_device",
        393216, B, 0.5);
    row("l169 (b) 64 collectives per step", tpx, none, "interconnect.collectives_per_step", 64, one,
        0.5);
    row("l170 (b) bandwidth cost 25.2 MB", tpx, none, "interconnect.bytes_per_step", 25.2, MB,
        0.05);
    row("l170 (b) bandwidth cost 0.50 ms at 50 GB/s", tpx, none, "interconnect.bandwidth_seconds",
        0.50, ms, 0.005);
    row("l171 (b) latency cost 0.64 ms", tpx, none, "interconnect.latency_seconds", 0.64, ms,
        0.005);

    // Power, l.175
    row("l175 node power 5 kW", lesson, none, "power.node_watts", 5, kW, 0.5);
    row("l175 nodes per 40 kW rack: 8", lesson, none, "power.nodes_per_rack", 8, one, 0.5);

    // Cost, l.181
    row("l181 tokens per busy hour 1.44 M", QStringLiteral("cost-example"), none,
        "cost.tokens_per_hour", 1.44, M, 0.005);

    // Device-selection walkthrough, l.215-220
    const QString sa = QStringLiteral("support-assistant");
    row("l215 KV per sequence at 3,000 tokens 0.393 GB", sa, none, "memory.kv_bytes_per_sequence",
        0.393, GB, 0.0005);
    row("l215 KV for 40 sequences 15.73 GB", sa, none, "memory.kv_bytes_total", 15.73, GB, 0.005);
    row("l215 total with weights and 3 GB runtime 32.7 GB", sa, none, "memory.serving_bytes_total",
        32.7, GB, 0.05);
    row("l215 24 GB device with 1-byte weights still needs 25.7 GB", sa,
        {QStringLiteral("device=lesson-accelerator-24gb"),
         QStringLiteral("serving.weight_format=int8")},
        "memory.serving_bytes_total", 25.7, GB, 0.05);
    row("l215 48 GB device leaves 15.3 GB headroom", sa, none, "memory.headroom_bytes", 15.3, GB,
        0.05);
    row("l215 80 GB device leaves 47.3 GB headroom", sa,
        {QStringLiteral("device=lesson-accelerator")}, "memory.headroom_bytes", 47.3, GB, 0.05);
    row("l220 batch 40 reads 29.7 GB per step", sa, none, "decode.bytes_per_step", 29.7, GB, 0.05);
    row("l220 roughly 30 ms per step", sa, none, "decode.step_seconds", 30, ms, 0.5);
    row("l220 about 34 tokens/s per user", sa, none, "decode.tokens_per_second_per_sequence", 34,
        one, 0.5);

    // OOM diagnosis, l.255-279 (24 GB device, 32 x 4096 configured)
    const QString oom = QStringLiteral("oom-14th-request");
    row("l255 free for KV 7.5 GB", oom, none, "memory.kv_budget_bytes", 7.5, GB, 0.05);
    row("l255 13 sequences fit (the 14th fails)", oom, none, "memory.max_concurrent_sequences", 13,
        one, 0.5);
    row("l260 with 1-byte weights: 27 sequences", oom, int8, "memory.max_concurrent_sequences", 27,
        one, 0.5);
    row("l265 safe admission limit 24 of 27", oom, int8, "memory.admission_limit", 24, one, 0.5);
}

void WorkedNumbers::figure()
{
    QFETCH(QString, scenario);
    QFETCH(QStringList, overrides);
    QFETCH(QString, figure);
    QFETCH(double, expected);
    QFETCH(double, unit);
    QFETCH(double, tolerance);

    const core::FigureInfo *info = core::findFigure(figure.toStdString());
    QVERIFY2(info, qPrintable(QStringLiteral("no figure named ") + figure));
    const core::Evaluation e = evaluateScenario(scenario, overrides);
    QVERIFY2(e.available(info->id), qPrintable(figure + QStringLiteral(" is not available")));
    ACCEL_COMPARE_NEAR(e[info->id] / unit, expected, tolerance);
}

// l.109-110: "Memory time (14 ms) is ~200x the arithmetic time": weights-only time over the
// arithmetic time of one token.
void WorkedNumbers::memoryTimeIsAbout200xArithmetic()
{
    const core::Evaluation e = evaluateScenario(QStringLiteral("toy-decode"));
    ACCEL_COMPARE_NEAR(e[core::FigureId::DecodeWeightsOnlySeconds] /
                           e[core::FigureId::DecodeComputeSeconds],
                       200, 0.5);
    QCOMPARE(core::boundKey(e.decodeBound), std::string_view("memory"));
}

// l.270-279: the lesson's Python max_sequences(device_gb, weights_gb, overhead_gb, kv, tokens).
void WorkedNumbers::maxSequencesFunction_data()
{
    QTest::addColumn<double>("deviceGb");
    QTest::addColumn<double>("weightsGb");
    QTest::addColumn<double>("overheadGb");
    QTest::addColumn<double>("expected");
    QTest::newRow("l278 max_sequences(24, 14, 2.5, kv, 4096) = 13") << 24.0 << 14.0 << 2.5 << 13.0;
    QTest::newRow("l279 max_sequences(24, 7, 2.5, kv, 4096) = 27") << 24.0 << 7.0 << 2.5 << 27.0;
}

void WorkedNumbers::maxSequencesFunction()
{
    QFETCH(double, deviceGb);
    QFETCH(double, weightsGb);
    QFETCH(double, overheadGb);
    QFETCH(double, expected);
    const double kv = testsupport::kvBytesPerToken(32, 8, 128, 2);
    QCOMPARE(kv, 131072.0); // l.277
    const double free = (deviceGb - weightsGb - overheadGb) * 1e9;
    QCOMPARE(core::maxSequences(free, kv * 4096), expected);
}

// l.255: "7.5 / 0.537 = 13.97 rounded down".
void WorkedNumbers::oomSequencesBeforeRounding()
{
    const core::Evaluation e = evaluateScenario(QStringLiteral("oom-14th-request"));
    ACCEL_COMPARE_NEAR(e[core::FigureId::KvBudgetBytes] / e[core::FigureId::KvBytesPerSequence],
                       13.97, 0.005);
    QVERIFY(!e.fits()); // configured for 32 sequences: it could never have been served
}

// l.135: symmetric INT8, one scale for the group.
void WorkedNumbers::quantisationExample()
{
    const std::array<double, 4> weights = {0.020, -0.500, 1.270, 0.003};
    const core::Quantisation q = core::quantise(weights, 8, true, 0);
    QCOMPARE(q.scales.size(), std::size_t(1));
    ACCEL_COMPARE_NEAR(q.scales[0], 0.01, 1e-12);
    const std::vector<std::int64_t> codes = {2, -50, 127, 0};
    QCOMPARE(q.codes, codes);
    const std::array<double, 4> restored = {0.02, -0.50, 1.27, 0.00};
    for (std::size_t i = 0; i < restored.size(); ++i)
        ACCEL_COMPARE_NEAR(q.dequantised[i], restored[i], 0.005);
    ACCEL_COMPARE_NEAR(q.errors[3], -0.003, 1e-12); // the small weight is rounded to zero
}

// l.93: "Each weight is used for a single multiply-accumulate ... The intensity is about 1".
void WorkedNumbers::decodeOfOneRowIsAboutOneFlopPerByte()
{
    ACCEL_COMPARE_NEAR(core::gemmIntensity(1, 4096, 4096, 2), 1.0, 0.5);
}

// l.166-171 through the serving path: tensor-parallel decode of batch 32 over 4 devices pays
// 64 collectives of 393,216 B at 50 GB/s plus 10 us each = 0.50 + 0.64 ms.
void WorkedNumbers::tensorParallelDecodeCommunication()
{
    const core::Evaluation e = evaluateScenario(
        QStringLiteral("batching-32"),
        {QStringLiteral("serving.tensor_parallel=4"), QStringLiteral("device.device_link_gb_s=50"),
         QStringLiteral("device.device_link_latency_s=0.00001")});
    ACCEL_COMPARE_NEAR(e[core::FigureId::DecodeCommunicationSeconds] / 1e-3, 0.50 + 0.64, 0.01);
    QCOMPARE(e[core::FigureId::Devices], 4.0);
}

// l.166-175: tensor-parallel decode of batch 32 (one-device step 31.18 ms, l.125) over N devices
// with the lesson's 64 all-reduces of 262,144 B. Worked by hand: at 4 devices in a node,
// 31.18 / 4 = 7.795 ms + 0.503 ms + 0.64 ms = 8.938 ms, a 3.49x speed-up (87 %); at 16 across
// nodes, 2 x 15/16 x 262,144 B x 64 = 31.46 MB at 12.5 GB/s = 2.517 ms + 0.64 ms + 31.18 / 16 =
// 5.106 ms, a 6.1x speed-up on 16 devices (38 %): the per-token collective over the network is
// what the lesson calls unattractive. A training step's large work hides the same bytes.
void WorkedNumbers::tensorParallelDecodeScalesWithinANodeOnly()
{
    const core::Scenario scenario = testsupport::loadScenario(
        QStringLiteral("interconnect-tensor-parallel"), {QStringLiteral("serving.batch=32")});
    QVERIFY(core::isTensorParallelSync(scenario));
    const auto points = core::decodeScalingCurve(scenario, {1, 4, 16});
    QCOMPARE(points.size(), std::size_t(3));
    ACCEL_COMPARE_NEAR(points[0].stepSeconds / ms, 31.18, 0.01);
    QCOMPARE(points[0].speedup, 1.0);
    ACCEL_COMPARE_NEAR(points[1].stepSeconds / ms, 8.938, 0.002);
    ACCEL_COMPARE_NEAR(points[1].efficiency, 0.872, 0.001);
    QVERIFY(!points[1].interNode);
    ACCEL_COMPARE_NEAR(points[2].communicationSeconds / ms, 2.517 + 0.64, 0.002);
    ACCEL_COMPARE_NEAR(points[2].stepSeconds / ms, 5.106, 0.002);
    ACCEL_COMPARE_NEAR(points[2].efficiency, 0.382, 0.001);
    QVERIFY(points[2].interNode);
    // the data-parallel gradient sync is one collective: not tensor parallelism
    QVERIFY(!core::isTensorParallelSync(
        testsupport::loadScenario(QStringLiteral("interconnect-data-parallel"))));
}

// l.215: "A 24 GB device fails outright (and also fails with 1-byte weights)".
void WorkedNumbers::deviceSelectionVerdicts()
{
    const QString sa = QStringLiteral("support-assistant");
    QVERIFY(!evaluateScenario(sa, {QStringLiteral("device=lesson-accelerator-24gb")}).fits());
    QVERIFY(!evaluateScenario(sa, {QStringLiteral("device=lesson-accelerator-24gb"),
                                   QStringLiteral("serving.weight_format=int8")})
                 .fits());
    QVERIFY(evaluateScenario(sa).fits());
    QVERIFY(evaluateScenario(sa, {QStringLiteral("device=lesson-accelerator")}).fits());
}

// l.182-184: $4 per hour at 400 tokens/s.
void WorkedNumbers::costAtThreeUtilisations_data()
{
    QTest::addColumn<double>("utilisation");
    QTest::addColumn<double>("expected");
    QTest::addColumn<QString>("printed");
    QTest::addColumn<int>("line");
    QTest::newRow("l182 100 % busy: $2.78 per million") << 1.0 << 2.78 << "$2.78" << 182;
    QTest::newRow("l183 70 % busy: $3.97 per million") << 0.70 << 3.97 << "$3.97" << 183;
    QTest::newRow("l184 35 % busy: $7.94 per million") << 0.35 << 7.94 << "$7.94" << 184;
}

void WorkedNumbers::costAtThreeUtilisations()
{
    QFETCH(double, utilisation);
    QFETCH(double, expected);
    const core::Evaluation e = evaluateScenario(
        QStringLiteral("cost-example"), {QStringLiteral("cost.utilisation=%1").arg(utilisation)});
    ACCEL_COMPARE_NEAR(e[core::FigureId::CostUsdPerMillionTokens], expected, 0.005);
    // the cost chart marks the lesson's three rows with the value as the lesson prints it
    QFETCH(QString, printed);
    QFETCH(int, line);
    const auto badge = core::lessonBadge(
        testsupport::loadScenario(QStringLiteral("cost-example"),
                                  {QStringLiteral("cost.utilisation=%1").arg(utilisation)}),
        core::FigureId::CostUsdPerMillionTokens);
    QVERIFY(badge);
    QCOMPARE(QString::fromStdString(badge->printed), printed);
    QCOMPARE(badge->line, line);
    QVERIFY(!core::lessonBadge(testsupport::loadScenario(QStringLiteral("cost-example"),
                                                         {QStringLiteral("cost.utilisation=0.5")}),
                               core::FigureId::CostUsdPerMillionTokens));
}

QTEST_GUILESS_MAIN(WorkedNumbers)
#include "tst_workednumbers.moc"
