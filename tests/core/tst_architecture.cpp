// SPDX-License-Identifier: GPL-3.0-or-later
// Issue #22: a model is a list of layer groups, each with its attention kind and MLP kind. The
// KV a sequence holds is the sum over the groups of min(tokens, window) x the group's bytes per
// token, plus any fixed recurrent state; under tensor parallelism an MLA latent, and KV heads
// fewer than the devices, are kept whole on each device. Every expected value below is worked by
// hand from the published config.json numbers quoted beside it.

#include "core/data/scenarioio.h"
#include "core/model/architecture.h"
#include "core/model/scenarioaccess.h"
#include "core/physics/evaluation.h"
#include "testsupport.h"

#include <QTest>

#include <cmath>
#include <string>

using core::FigureId;

namespace {

constexpr double kContext = 32768;

/** A scenario around an inline model whose "layer_groups" are `groups` (JSON text). */
QString scenarioWith(const QString &modelFields, const QString &groups, double tp = 1,
                     double context = kContext)
{
    return QStringLiteral(R"({"format": "accel-explorer/scenario", "version": 1,
  "model": {"name": "test", %1, "layer_groups": %2},
  "device": "nvidia-h100-sxm",
  "serving": {"weight_format": "bf16", "kv_format": "bf16", "batch": 1,
              "concurrent_sequences": 1, "context_tokens": %4, "prompt_tokens": 1024,
              "tensor_parallel": %3}})")
        .arg(modelFields, groups)
        .arg(tp)
        .arg(context);
}

// gpt-oss-120b (openai/gpt-oss-120b config.json): 36 layers alternating sliding (window 128) and
// full attention, 8 KV heads of 64. One layer's K and V per token in BF16: 2 x 8 x 64 x 2 B =
// 2,048 B.
const QString kGptOssFields = QStringLiteral(
    R"("parameters": 116829156672, "layers": 36, "hidden_size": 2880, "attention_heads": 64,
       "kv_heads": 8, "head_dim": 64, "vocab_size": 201088)");
const QString kGptOssGroups = QStringLiteral(
    R"([{"layers": 18, "attention": "sliding", "window": 128, "mlp": "moe", "experts": 128,
         "experts_per_token": 4},
        {"layers": 18, "attention": "full", "mlp": "moe", "experts": 128,
         "experts_per_token": 4}])");

// Gemma 3 27B (google/gemma-3-27b-it text_config): 62 layers, every sixth global, so 10 global
// and 52 local with a 1,024-token window; 16 KV heads of 128: 2 x 16 x 128 x 2 = 8,192 B per layer.
const QString kGemmaFields = QStringLiteral(
    R"("parameters": 27009002240, "layers": 62, "hidden_size": 5376, "attention_heads": 32,
       "kv_heads": 16, "head_dim": 128, "vocab_size": 262208)");
const QString kGemmaGroups = QStringLiteral(
    R"([{"layers": 52, "attention": "sliding", "window": 1024},
        {"layers": 10, "attention": "full"}])");

// DeepSeek-V3 (deepseek-ai/DeepSeek-V3 config.json): 61 MLA layers caching kv_lora_rank 512 +
// qk_rope_head_dim 64 = 576 elements per token and layer: 61 x 576 x 2 B = 70,272 B per token.
const QString kDeepSeekFields = QStringLiteral(
    R"("parameters": 671026419200, "active_parameters": 37554637312, "layers": 61,
       "hidden_size": 7168, "attention_heads": 128, "kv_heads": 128, "head_dim": 192,
       "vocab_size": 129280, "experts": 256, "experts_per_token": 8)");
const QString kDeepSeekGroups = QStringLiteral(
    R"([{"layers": 3, "attention": "latent", "latent_dim": 576, "mlp": "dense",
         "intermediate_size": 18432},
        {"layers": 58, "attention": "latent", "latent_dim": 576, "mlp": "moe", "experts": 256,
         "experts_per_token": 8, "shared_experts": 1, "expert_intermediate_size": 2048}])");

// Qwen3-Next-80B-A3B (Qwen/Qwen3-Next-80B-A3B-Instruct config.json): 48 layers, full attention
// every 4th (12 layers, 2 KV heads of 256: 2 x 2 x 256 x 2 = 2,048 B per layer and token); the
// other 36 are Gated DeltaNet with a fixed state per sequence: 32 value heads x 128 x 128
// recurrent state + (conv kernel 4 - 1) x (2 x 16 x 128 + 32 x 128) conv state = 524,288 +
// 24,576 = 548,864 elements, 1,097,728 B in BF16 per layer.
const QString kQwenNextFields = QStringLiteral(
    R"("parameters": 81323350016, "active_parameters": 3833470976, "layers": 48,
       "hidden_size": 2048, "attention_heads": 16, "kv_heads": 2, "head_dim": 256,
       "vocab_size": 151936)");
const QString kQwenNextGroups = QStringLiteral(
    R"([{"layers": 36, "attention": "linear", "state_bytes": 1097728},
        {"layers": 12, "attention": "full"}])");

// Llama 4 Scout (meta-llama/Llama-4-Scout-17B-16E text_config): 48 layers, every 4th global
// (no RoPE), the other 36 attend within chunks of 8,192 tokens; 8 KV heads of 128: 4,096 B per
// layer and token.
const QString kScoutFields = QStringLiteral(
    R"("parameters": 107770000000, "layers": 48, "hidden_size": 5120, "attention_heads": 40,
       "kv_heads": 8, "head_dim": 128, "vocab_size": 202048)");
const QString kScoutGroups = QStringLiteral(
    R"([{"layers": 36, "attention": "chunked", "window": 8192},
        {"layers": 12, "attention": "full"}])");

} // namespace

class Architecture : public QObject
{
    Q_OBJECT

private slots:
    void kvPerSequenceSumsTheGroups_data();
    void kvPerSequenceSumsTheGroups();
    void tensorParallelKeepsLatentsAndFewHeadsWhole_data();
    void tensorParallelKeepsLatentsAndFewHeadsWhole();
    void longestContextWalksTheWindows();
    void groupsRoundTripThroughASavedFile();
    void legacyFieldsAreTheOneGroupCase();
    void badGroupsAreRefused_data();
    void badGroupsAreRefused();
    void editsCannotContradictTheGroups();
};

void Architecture::kvPerSequenceSumsTheGroups_data()
{
    QTest::addColumn<QString>("fields");
    QTest::addColumn<QString>("groups");
    QTest::addColumn<double>("kvPerSequence");
    QTest::addColumn<double>("state");
    QTest::addColumn<double>("kvPerToken");

    // 18 x 2,048 x 32,768 (full) + 18 x 2,048 x 128 (sliding) = 1,212,678,144 B: the issue's
    // "1.21 GB", not the 9 MB a window on every layer gives.
    QTest::newRow("gpt-oss-120b") << kGptOssFields << kGptOssGroups
                                  << 18.0 * 2048 * 32768 + 18.0 * 2048 * 128 << 0.0 << 36.0 * 2048;
    // 10 x 8,192 x 32,768 + 52 x 8,192 x 1,024 = 3,120,562,176 B
    QTest::newRow("gemma-3-27b") << kGemmaFields << kGemmaGroups
                                 << 10.0 * 8192 * 32768 + 52.0 * 8192 * 1024 << 0.0 << 62.0 * 8192;
    // 61 x 576 x 2 x 32,768 = 2,302,672,896 B
    QTest::newRow("deepseek-v3") << kDeepSeekFields << kDeepSeekGroups << 61.0 * 576 * 2 * 32768
                                 << 0.0 << 61.0 * 576 * 2;
    // 12 x 2,048 x 32,768 + 36 x 1,097,728 = 805,306,368 + 39,518,208 B
    QTest::newRow("qwen3-next-80b")
        << kQwenNextFields << kQwenNextGroups << 12.0 * 2048 * 32768 + 36.0 * 1097728
        << 36.0 * 1097728 << 12.0 * 2048;
    // Groups with their own KV heads and head_dim (Gemma 4-style: 54 local layers with 8 KV
    // heads of 256, 8 global ones with 2 of 512): 54 x 2 x 8 x 256 x 2 B x 1,024 + 8 x 2 x 2 x
    // 512 x 2 B x 32,768 = 452,984,832 + 1,073,741,824 B
    QTest::newRow("per-group heads")
        << kGemmaFields << QStringLiteral(R"([{"layers": 54, "attention": "sliding", "window": 1024,
                               "kv_heads": 8, "head_dim": 256},
                              {"layers": 8, "attention": "full", "kv_heads": 2, "head_dim": 512}])")
        << 54.0 * 2 * 8 * 256 * 2 * 1024 + 8.0 * 2 * 2 * 512 * 2 * 32768 << 0.0
        << 54.0 * 2 * 8 * 256 * 2 + 8.0 * 2 * 2 * 512 * 2;
    // 12 x 4,096 x 32,768 + 36 x 4,096 x 8,192 = 2,818,572,288 B
    QTest::newRow("llama-4-scout")
        << kScoutFields << kScoutGroups << 12.0 * 4096 * 32768 + 36.0 * 4096 * 8192 << 0.0
        << 48.0 * 4096;
}

void Architecture::kvPerSequenceSumsTheGroups()
{
    QFETCH(QString, fields);
    QFETCH(QString, groups);
    QFETCH(double, kvPerSequence);
    QFETCH(double, state);
    QFETCH(double, kvPerToken);
    const core::Evaluation e = testsupport::evaluateScenario(scenarioWith(fields, groups));
    // exact to the byte: every term is a whole number well inside a double's 2^53
    QCOMPARE(e[FigureId::KvBytesPerSequence], kvPerSequence);
    QCOMPARE(e[FigureId::StateBytesPerSequence], state);
    QCOMPARE(e[FigureId::KvBytesPerToken], kvPerToken);
}

void Architecture::tensorParallelKeepsLatentsAndFewHeadsWhole_data()
{
    QTest::addColumn<QString>("fields");
    QTest::addColumn<QString>("groups");
    QTest::addColumn<double>("tp");
    QTest::addColumn<double>("kvDevices");

    // DeepSeek's latent is read by every head: each of 8 devices keeps all of it.
    QTest::newRow("deepseek TP 8: latent whole")
        << kDeepSeekFields << kDeepSeekGroups << 8.0 << 1.0;
    // gpt-oss: 8 KV heads split 8 ways.
    QTest::newRow("gpt-oss TP 8: heads split") << kGptOssFields << kGptOssGroups << 8.0 << 8.0;
    // Qwen3-Next: 2 KV heads on 4 devices: each keeps one whole head, so the attention KV is
    // split 2 ways while the DeltaNet state splits with its heads 4 ways:
    // (805,306,368 + 39,518,208) / (805,306,368 / 2 + 39,518,208 / 4).
    QTest::newRow("qwen3-next TP 4: 2 heads")
        << kQwenNextFields << kQwenNextGroups << 4.0
        << (12.0 * 2048 * 32768 + 36.0 * 1097728) / (12.0 * 2048 * 32768 / 2 + 36.0 * 1097728 / 4);
}

void Architecture::tensorParallelKeepsLatentsAndFewHeadsWhole()
{
    QFETCH(QString, fields);
    QFETCH(QString, groups);
    QFETCH(double, tp);
    QFETCH(double, kvDevices);
    const core::Scenario s = testsupport::loadScenario(scenarioWith(fields, groups, tp));
    ACCEL_COMPARE_NEAR(core::kvDevicesPerSequence(s), kvDevices, 1e-12);
    const core::Evaluation e = core::evaluate(s);
    // one resident sequence: the per-device KV is the sequence's over those devices (1 B slack
    // for the division's rounding)
    ACCEL_COMPARE_NEAR(e[FigureId::KvBytesTotal] * kvDevices, e[FigureId::KvBytesPerSequence], 1.0);
}

void Architecture::longestContextWalksTheWindows()
{
    // gpt-oss-120b, one sequence: the 18 sliding layers cost 2,048 B per token up to 128 tokens,
    // then only the 18 full layers grow, at 36,864 B per token. A budget of 18 x 2,048 x 128 +
    // 36,864 x 100,000 B holds exactly 100,000 tokens.
    const core::Scenario s = testsupport::loadScenario(scenarioWith(kGptOssFields, kGptOssGroups));
    const double windowBytes = 18.0 * 2048 * 128;
    const double budget = windowBytes + 36864.0 * 100000;
    QCOMPARE(core::longestSequenceWithin(s.model, 2.0, 1, 1, 1.0, budget), 100000.0);
    QCOMPARE(core::longestSequenceWithin(s.model, 2.0, 1, 1, 1.0, budget - 1), 99999.0);
    // inside the window both groups grow: 73,728 B per token
    QCOMPARE(core::longestSequenceWithin(s.model, 2.0, 1, 1, 1.0, 73728.0 * 50), 50.0);

    // Two windows (128 and 1,024 tokens) beside full layers, 256 B per layer and token (one KV
    // head of 64): 30 layers grow to 128 tokens, 20 to 1,024, then 10. 2,000 tokens take
    // 7,680 x 128 + 5,120 x 896 + 2,560 x 976 = 8,069,120 B.
    const QString twoWindows = QStringLiteral(
        R"([{"layers": 10, "attention": "sliding", "window": 128},
            {"layers": 10, "attention": "sliding", "window": 1024},
            {"layers": 10, "attention": "full"}])");
    const QString tiny = QStringLiteral(
        R"("parameters": 1000000000, "layers": 30, "attention_heads": 8, "kv_heads": 1,
           "head_dim": 64)");
    const core::Scenario w = testsupport::loadScenario(scenarioWith(tiny, twoWindows));
    QCOMPARE(core::longestSequenceWithin(w.model, 2.0, 1, 1, 1.0, 8069120.0), 2000.0);
    QCOMPARE(core::longestSequenceWithin(w.model, 2.0, 1, 1, 1.0, 8069120.0 - 1), 1999.0);
    QCOMPARE(core::longestSequenceWithin(w.model, 2.0, 1, 1, 1.0, 7680.0 * 100), 100.0);
    QCOMPARE(core::longestSequenceWithin(w.model, 2.0, 1, 1, 1.0, 983040.0 + 5120.0 * 500), 628.0);

    // A model whose every layer is windowed or linear has no context limit: NaN, shown as such.
    const QString capped = QStringLiteral(
        R"([{"layers": 36, "attention": "linear", "state_bytes": 1097728},
            {"layers": 12, "attention": "sliding", "window": 4096}])");
    const QString small = QStringLiteral(
        R"("parameters": 8000000000, "layers": 48, "attention_heads": 16, "kv_heads": 2,
           "head_dim": 256)");
    const core::Evaluation e = testsupport::evaluateScenario(scenarioWith(small, capped));
    QVERIFY(e[FigureId::KvBudgetBytes] > 0);
    QVERIFY(std::isnan(e[FigureId::MaxContextTokens]));
    // and a fixed state larger than the budget leaves no context at all
    const core::Scenario q =
        testsupport::loadScenario(scenarioWith(kQwenNextFields, kQwenNextGroups));
    QCOMPARE(core::longestSequenceWithin(q.model, 2.0, 1, 1, 1.0, 36.0 * 1097728 - 1), 0.0);
}

void Architecture::groupsRoundTripThroughASavedFile()
{
    const core::Scenario s =
        testsupport::loadScenario(scenarioWith(kDeepSeekFields, kDeepSeekGroups));
    QCOMPARE(s.model.layerGroups.size(), std::size_t(2));
    const std::string saved = core::writeScenario(s);
    const auto again = core::readScenario(saved);
    QVERIFY2(again, again ? "" : again.error().message.c_str());
    const core::ModelSpec &m = again.value().scenario.model;
    QCOMPARE(m.layerGroups.size(), std::size_t(2));
    QCOMPARE(m.layerGroups[1].layers, 58.0);
    QCOMPARE(m.layerGroups[1].latentDim, 576.0);
    QCOMPARE(m.layerGroups[1].sharedExperts, 1.0);
    QCOMPARE(m.layerGroups[1].expertIntermediateSize, 2048.0);
    QVERIFY(m.layerGroups[1].mlp == core::MlpKind::Moe);
    QVERIFY(m.layerGroups[0].mlp == core::MlpKind::Dense);
    QCOMPARE(core::evaluate(again.value().scenario)[FigureId::KvBytesPerSequence],
             61.0 * 576 * 2 * 32768);
}

void Architecture::legacyFieldsAreTheOneGroupCase()
{
    // Gemma 2 9B as the earlier presets give it: a 4,096 window on 21 of 42 layers.
    core::ModelSpec m;
    m.layers = 42;
    m.kvHeads = 8;
    m.headDim = 256;
    m.slidingWindow = 4096;
    m.slidingWindowLayers = 21;
    const auto groups = core::layerGroupsOf(m);
    QCOMPARE(groups.size(), std::size_t(2));
    QVERIFY(groups[0].attention == core::AttentionKind::Sliding);
    QCOMPARE(groups[0].layers, 21.0);
    QCOMPARE(groups[1].layers, 21.0);
    // 21 x 8,192 x 2 B x ... : 2 x 8 x 256 x 2 = 8,192 B per layer and token
    const core::SequenceCache cache = core::sequenceCache(m, 2.0, 8192, 1);
    QCOMPARE(cache.bytes, 21.0 * 8192 * 8192 + 21.0 * 8192 * 4096);
    // the lesson's model (no window, no groups): one full group
    m.slidingWindow = core::kUnset;
    m.slidingWindowLayers = core::kUnset;
    QCOMPARE(core::layerGroupsOf(m).size(), std::size_t(1));
}

void Architecture::badGroupsAreRefused_data()
{
    QTest::addColumn<QString>("groups");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("reason");

    QTest::newRow("layers do not add up")
        << QStringLiteral(R"([{"layers": 20}, {"layers": 20}])") << "/model/layer_groups"
        << "the groups hold 40 layers but the model has 36";
    QTest::newRow("sliding without a window")
        << QStringLiteral(R"([{"layers": 36, "attention": "sliding"}])")
        << "/model/layer_groups/0/window"
        << "needs its window";
    QTest::newRow("unknown attention")
        << QStringLiteral(R"([{"layers": 36, "attention": "sparse"}])")
        << "/model/layer_groups/0/attention"
        << "must be one of full, sliding";
    QTest::newRow("more experts per token than experts")
        << QStringLiteral(R"([{"layers": 36, "mlp": "moe", "experts": 4, "experts_per_token": 8}])")
        << "/model/layer_groups/0/experts_per_token"
        << "more experts per token than experts";
    QTest::newRow("linear without a state")
        << QStringLiteral(R"([{"layers": 36, "attention": "linear"}])")
        << "/model/layer_groups/0/state_bytes"
        << "fixed state";
    QTest::newRow("not a list") << QStringLiteral(R"({"layers": 36})") << "/model/layer_groups"
                                << "a list of 1 to 64";
    QTest::newRow("sparse attention's top-k on a full group")
        << QStringLiteral(R"([{"layers": 36, "top_k": 2048}])") << "/model/layer_groups/0/top_k"
        << "belong to a latent group";
    QTest::newRow("an indexer key without top_k")
        << QStringLiteral(
               R"([{"layers": 36, "attention": "latent", "latent_dim": 704, "index_dim": 128}])")
        << "/model/layer_groups/0/index_dim"
        << "give top_k with it";
    QTest::newRow("an indexer key as wide as the latent")
        << QStringLiteral(
               R"([{"layers": 36, "attention": "latent", "latent_dim": 704, "top_k": 2048, "index_dim": 704}])")
        << "/model/layer_groups/0/index_dim"
        << "must be smaller than it";
    QTest::newRow("KV heads above the query heads")
        << QStringLiteral(R"([{"layers": 36, "kv_heads": 65}])") << "/model/layer_groups/0/kv_heads"
        << "more KV heads";
}

void Architecture::badGroupsAreRefused()
{
    QFETCH(QString, groups);
    QFETCH(QString, path);
    QFETCH(QString, reason);
    const auto loaded = core::readScenario(scenarioWith(kGptOssFields, groups).toStdString());
    QVERIFY(!loaded);
    QCOMPARE(QString::fromStdString(loaded.error().path), path);
    QVERIFY2(QString::fromStdString(loaded.error().message).contains(reason),
             loaded.error().message.c_str());
}

// An edit in the app (or --set) that would contradict the groups is refused, so a saved file
// always reads back.
void Architecture::editsCannotContradictTheGroups()
{
    core::Scenario s = testsupport::loadScenario(scenarioWith(kGptOssFields, kGptOssGroups));
    for (const char *path : {"model.layers", "model.sliding_window", "model.sliding_window_layers",
                             "model.kv_latent_dim"}) {
        const auto set = core::setNumberAt(s, path, 30);
        QVERIFY2(!set, path);
        QVERIFY(set.error().message.find("layer group") != std::string::npos);
    }
    QVERIFY(core::setNumberAt(s, "model.kv_heads", 4).ok()); // the groups take the model's
    QCOMPARE(core::evaluate(s)[FigureId::KvBytesPerSequence],
             (18.0 * 32768 + 18.0 * 128) * 2 * 4 * 64 * 2);
    const auto again = core::readScenario(core::writeScenario(s));
    QVERIFY2(again, again ? "" : again.error().message.c_str());
}

QTEST_APPLESS_MAIN(Architecture)
#include "tst_architecture.moc"
