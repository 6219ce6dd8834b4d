// SPDX-License-Identifier: GPL-3.0-or-later
// Hugging Face config.json import: every supported family's field names, the parameter count
// computed from the architecture (expected values: params_computed in
// ../shared/reference/models.json, computed from the same published configs), KV heads
// (absent = no GQA, multi_query = one), explicit head_dim, and clear refusals.

#include "testsupport.h"

#include "core/calc.h"
#include "core/hfimport.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>

namespace {

QByteArray fixture(const QString &name)
{
    QFile file(QStringLiteral(ACCEL_FIXTURES_DIR "/hf/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", qPrintable(name));
    return file.readAll();
}

core::Result<core::HfImport> importFixture(const QString &name)
{
    const QByteArray bytes = fixture(name);
    return core::importHuggingFaceConfig(
        std::string_view(bytes.constData(), std::size_t(bytes.size())));
}

} // namespace

class HfImport : public QObject
{
    Q_OBJECT

private slots:
    void families_data();
    void families();
    void refusals_data();
    void refusals();
    void importedModelEvaluates();
    void slidingWindows();
    void genuineConfigsGiveNoWarnings_data();
    void genuineConfigsGiveNoWarnings();
    void relabelledConfigsNameTheKeysTheyIgnore_data();
    void relabelledConfigsNameTheKeysTheyIgnore();
};

void HfImport::families_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<double>("parameters"); // models.json params_computed
    QTest::addColumn<double>("active");     // models.json active_params_computed
    QTest::addColumn<double>("kvHeads");
    QTest::addColumn<double>("headDim");
    QTest::addColumn<double>("kvBytesPerTokenBf16"); // models.json kv_bytes_per_token_bf16
    QTest::newRow("llama-2-7b (MHA)")
        << "llama-2-7b.json" << 6738415616.0 << 6738415616.0 << 32.0 << 128.0 << 524288.0;
    QTest::newRow("llama-3.1-8b (GQA)")
        << "llama-3.1-8b.json" << 8030261248.0 << 8030261248.0 << 8.0 << 128.0 << 131072.0;
    QTest::newRow("mistral-7b") << "mistral-7b-v0.1.json" << 7241732096.0 << 7241732096.0 << 8.0
                                << 128.0 << 131072.0;
    QTest::newRow("mixtral-8x7b (MoE)")
        << "mixtral-8x7b.json" << 46702792704.0 << 12879925248.0 << 8.0 << 128.0 << 131072.0;
    QTest::newRow("qwen2.5-7b (qkv biases)")
        << "qwen2.5-7b.json" << 7615616512.0 << 7615616512.0 << 4.0 << 128.0 << 57344.0;
    // gemma-7b is not in models.json: 8,537,680,896 = tied embeddings 256,000 x 3,072 + 28 layers x
    // (attention 4 x 3,072 x 4,096 + gated MLP 3 x 3,072 x 24,576 + two norms 2 x 3,072) + the
    // final norm 3,072, the "8.54B" Google's model card gives; KV 2 x 28 x 16 x 256 x 2 bytes
    QTest::newRow("gemma-7b (head_dim 256 wins, tied embeddings)")
        << "gemma-7b.json" << 8537680896.0 << 8537680896.0 << 16.0 << 256.0 << 458752.0;
    QTest::newRow("gemma-2-9b (head_dim 256 wins)")
        << "gemma-2-9b.json" << 9241705984.0 << 9241705984.0 << 8.0 << 256.0 << 344064.0;
    QTest::newRow("phi-3-mini (fused qkv)")
        << "phi-3-mini-4k.json" << 3821079552.0 << 3821079552.0 << 32.0 << 96.0 << 393216.0;
    QTest::newRow("falcon-7b RefinedWeb (multi_query)")
        << "falcon-7b-refinedweb.json" << 6921720704.0 << 6921720704.0 << 1.0 << 64.0 << 8192.0;
    QTest::newRow("falcon-7b newer config (num_kv_heads 71 ignored)")
        << "falcon-7b.json" << 6921720704.0 << 6921720704.0 << 1.0 << 64.0 << 8192.0;
    QTest::newRow("gpt-j-6b (gpt2-style names, rotary, untied head)")
        << "gpt-j-6b.json" << 6050882784.0 << 6050882784.0 << 16.0 << 256.0 << 458752.0;
    QTest::newRow("gpt2 (learned positions, no kv field)")
        << "gpt2.json" << 124439808.0 << 124439808.0 << 12.0 << 64.0 << 36864.0;
}

void HfImport::families()
{
    QFETCH(QString, file);
    QFETCH(double, parameters);
    QFETCH(double, active);
    QFETCH(double, kvHeads);
    QFETCH(double, headDim);
    QFETCH(double, kvBytesPerTokenBf16);
    auto imported = importFixture(file);
    QVERIFY2(imported.ok(), imported.ok() ? "" : imported.error().message.c_str());
    const core::ModelSpec &m = imported->model;
    QCOMPARE(m.parameters, parameters); // exact: counted from the architecture
    QCOMPARE(m.active(), active);
    QCOMPARE(m.kvHeads, kvHeads);
    QCOMPARE(m.headDim, headDim);
    QCOMPARE(core::kvBytesPerToken(m.layers, m.kvHeads, m.headDim, 2), kvBytesPerTokenBf16);
    QVERIFY(m.sources.count("parameters"));
    QVERIFY(m.sources.at("parameters").find("computed from the architecture") != std::string::npos);
    // The printed model reads back as an inline model in a scenario.
    const std::string json = core::modelToJson(m);
    // ready to paste: whole numbers print as integers, as in the preset files
    QVERIFY2(json.find("\"layers\": " + std::to_string(int(m.layers)) + ",") != std::string::npos,
             json.c_str());
    auto scenario = core::readScenario("{\"model\": " + json + "}");
    QVERIFY2(scenario.ok(), scenario.ok() ? "" : scenario.error().message.c_str());
    QCOMPARE(scenario->scenario.model.parameters, parameters);
}

void HfImport::refusals_data()
{
    QTest::addColumn<QByteArray>("config");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown architecture (BERT)")
        << fixture(QStringLiteral("bert-base.json")) << "/model_type"
        << "unknown architecture \"bert\"";
    QTest::newRow("no model_type") << QByteArray(R"({"hidden_size": 4096})") << "/model_type"
                                   << "missing";
    QTest::newRow("missing layers")
        << QByteArray(
               R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "vocab_size": 32000, "intermediate_size": 11008})")
        << "/num_hidden_layers"
        << "missing";
    QTest::newRow("gated MLP without intermediate_size")
        << QByteArray(
               R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "num_hidden_layers": 2, "vocab_size": 32000})")
        << "/intermediate_size"
        << "missing";
    QTest::newRow("fractional heads")
        << QByteArray(
               R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32.5, "num_hidden_layers": 2, "vocab_size": 32000, "intermediate_size": 1})")
        << "/num_attention_heads"
        << "whole number";
    QTest::newRow("hidden not divisible")
        << QByteArray(
               R"({"model_type": "llama", "hidden_size": 4000, "num_attention_heads": 3, "num_hidden_layers": 2, "vocab_size": 32000, "intermediate_size": 1})")
        << "/hidden_size"
        << "not a multiple";
    QTest::newRow("more KV heads than heads")
        << QByteArray(
               R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 8, "num_key_value_heads": 16, "num_hidden_layers": 2, "vocab_size": 32000, "intermediate_size": 1})")
        << "/num_key_value_heads"
        << "more KV heads";
    QTest::newRow("not JSON") << QByteArray("model_type = llama") << ""
                              << "parse error";
    // issue #20, item 15: an ESC in a name recoloured the terminal that printed the message
    QTest::newRow("control characters are printed escaped")
        << QByteArray(R"({"model_type": "x\u001b[31mred"})") << "/model_type"
        << "unknown architecture \"x\\u001b[31mred\"";
}

void HfImport::refusals()
{
    QFETCH(QByteArray, config);
    QFETCH(QString, path);
    QFETCH(QString, message);
    auto imported = core::importHuggingFaceConfig(
        std::string_view(config.constData(), std::size_t(config.size())));
    QVERIFY(!imported.ok());
    QCOMPARE(QString::fromStdString(imported.error().path), path);
    QVERIFY2(QString::fromStdString(imported.error().message).contains(message),
             imported.error().message.c_str());
    QVERIFY(imported.error().message.find('\x1b') == std::string::npos);
}

void HfImport::importedModelEvaluates()
{
    auto imported = importFixture(QStringLiteral("mixtral-8x7b.json"));
    QVERIFY(imported.ok());
    core::Scenario s = core::lessonDefaultScenario();
    s.model = imported->model;
    const core::Evaluation e = core::evaluate(s);
    ACCEL_COMPARE_NEAR(e[core::FigureId::WeightsBytes], 46702792704.0 * 2,
                       1); // memory holds every expert
    QVERIFY(e[core::FigureId::DecodeWeightBytesPerStep] < e[core::FigureId::WeightsBytes]);
}

void HfImport::slidingWindows()
{
    QCOMPARE(importFixture(QStringLiteral("mistral-7b-v0.1.json"))->model.slidingWindow, 4096.0);
    QVERIFY(!core::isSet(importFixture(QStringLiteral("qwen2.5-7b.json"))
                             ->model.slidingWindow)); // use_sliding_window false
    auto gemma = importFixture(QStringLiteral("gemma-2-9b.json"));
    QCOMPARE(gemma->model.slidingWindow, 4096.0);
    QCOMPARE(gemma->model.slidingWindowLayers, 21.0); // alternating: half the layers are local
    // models.json kv_note: 21 global layers x full length + 21 local layers x 4096 tokens
    core::Scenario s = core::lessonDefaultScenario();
    s.model = gemma->model;
    s.serving.contextTokens = s.serving.promptTokens = 8192;
    const double perLayerToken = 2 * 8 * 256 * 2; // K and V x 8 KV heads x head_dim 256 x BF16
    QCOMPARE(core::evaluate(s)[core::FigureId::KvBytesPerSequence],
             perLayerToken * (21 * 8192 + 21 * 4096));
}

void HfImport::genuineConfigsGiveNoWarnings_data()
{
    QTest::addColumn<QString>("file");
    for (const char *file :
         {"llama-2-7b.json", "llama-3.1-8b.json", "mistral-7b-v0.1.json", "mixtral-8x7b.json",
          "qwen2.5-7b.json", "gemma-7b.json", "gemma-2-9b.json", "phi-3-mini-4k.json",
          "falcon-7b.json", "falcon-7b-refinedweb.json", "gpt2.json", "gpt-j-6b.json"})
        QTest::newRow(file) << QString::fromLatin1(file);
}

// Every key of a genuine config that can change the size is read by its family's import.
void HfImport::genuineConfigsGiveNoWarnings()
{
    QFETCH(QString, file);
    const auto imported = importFixture(file);
    QVERIFY(imported.ok());
    for (const core::Diagnostic &w : imported->warnings)
        QFAIL(qPrintable(QString::fromStdString(w.path + ": " + w.message)));
}

void HfImport::relabelledConfigsNameTheKeysTheyIgnore_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("edits"); // a JSON object merged over the fixture
    QTest::addColumn<QStringList>("named");
    // Issue #22: Mixtral relabelled as Mistral would lose its experts without a word.
    QTest::newRow("mixtral as mistral")
        << "mixtral-8x7b.json"
        << R"({"model_type": "mistral"})"
        << QStringList{"/num_local_experts", "/num_experts_per_tok"};
    // A Qwen3-MoE-style file (num_experts, moe_intermediate_size) relabelled as qwen2: the
    // issue's 233 B instead of 30.5 B came from these keys being ignored.
    QTest::newRow("qwen3-moe keys as qwen2")
        << "qwen2.5-7b.json"
        << R"({"num_experts": 128, "num_experts_per_tok": 8, "moe_intermediate_size": 768,
               "decoder_sparse_step": 1, "mlp_only_layers": []})"
        << QStringList{"/num_experts", "/num_experts_per_tok", "/moe_intermediate_size",
                       "/decoder_sparse_step", "/mlp_only_layers"};
    // gpt-oss-style per-layer attention kinds relabelled as mixtral: the window is read, the
    // pattern that says which layers use it is not.
    QTest::newRow("gpt-oss layer types as mixtral")
        << "mixtral-8x7b.json"
        << R"({"layer_types": ["sliding_attention", "full_attention"], "sliding_window": 128,
               "quantization_config": {"quant_method": "mxfp4"}})"
        << QStringList{"/layer_types"};
    QTest::newRow("a multimodal wrapper")
        << "llama-3.1-8b.json"
        << R"({"text_config": {"hidden_size": 5120}, "vision_config": {}})"
        << QStringList{"/text_config", "/vision_config"};
}

void HfImport::relabelledConfigsNameTheKeysTheyIgnore()
{
    QFETCH(QString, file);
    QFETCH(QString, edits);
    QFETCH(QStringList, named);
    QJsonObject config = QJsonDocument::fromJson(fixture(file)).object();
    const QJsonObject changes = QJsonDocument::fromJson(edits.toUtf8()).object();
    QVERIFY(!changes.isEmpty());
    for (auto it = changes.begin(); it != changes.end(); ++it)
        config.insert(it.key(), it.value());
    const QByteArray bytes = QJsonDocument(config).toJson();
    const auto imported = core::importHuggingFaceConfig(
        std::string_view(bytes.constData(), std::size_t(bytes.size())));
    QVERIFY2(imported.ok(), imported.ok() ? "" : imported.error().message.c_str());
    QStringList warned;
    for (const core::Diagnostic &w : imported->warnings) {
        warned << QString::fromStdString(w.path);
        QVERIFY2(w.message.find("check that the model_type matches the file") != std::string::npos,
                 w.message.c_str());
    }
    for (const QString &path : named)
        QVERIFY2(warned.contains(path),
                 qPrintable(path + QStringLiteral(" not in ") + warned.join(QStringLiteral(", "))));
}

QTEST_GUILESS_MAIN(HfImport)
#include "tst_hfimport.moc"
