// SPDX-License-Identifier: GPL-3.0-or-later
// A downloaded model folder (issue #44, item 5): safetensors headers read without their weights,
// counted into parameters and bytes, checked against the config's rule; hostile headers refused
// with the tensor and the field.

#include "testsupport.h"
#include "tools/testpaths.h"

#include "core/data/safetensors.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

namespace {

struct TensorSpec
{
    QString name;
    QString dtype;
    QList<qint64> shape;
};

qint64 bytesOf(const TensorSpec &t)
{
    const double bits = core::safetensorsDtypeBits(t.dtype.toStdString());
    double elements = 1;
    for (qint64 d : t.shape)
        elements *= double(d);
    return qint64(std::ceil(elements * bits / 8.0));
}

/** A header as the safetensors library writes it: the tensors back to back, in order. */
QByteArray headerJson(const QList<TensorSpec> &tensors, qint64 *dataBytes)
{
    QJsonObject doc;
    qint64 offset = 0;
    for (const TensorSpec &t : tensors) {
        QJsonArray shape;
        for (qint64 d : t.shape)
            shape.append(d);
        const qint64 end = offset + bytesOf(t);
        doc.insert(t.name, QJsonObject{{"dtype", t.dtype},
                                       {"shape", shape},
                                       {"data_offsets", QJsonArray{offset, end}}});
        offset = end;
    }
    doc.insert("__metadata__", QJsonObject{{"format", "pt"}});
    *dataBytes = offset;
    return QJsonDocument(doc).toJson(QJsonDocument::Compact);
}

QByteArray withLength(const QByteArray &json)
{
    QByteArray out(8, '\0');
    quint64 length = quint64(json.size());
    for (int i = 0; i < 8; ++i)
        out[i] = char((length >> (8 * i)) & 0xff);
    return out + json;
}

/** A shard on disk: the header, then zeros for the data (a sparse file: no weight is written). */
void writeShard(const QString &path, const QList<TensorSpec> &tensors)
{
    qint64 data = 0;
    const QByteArray bytes = withLength(headerJson(tensors, &data));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(bytes), bytes.size());
    QVERIFY(file.resize(bytes.size() + data));
}

core::Result<core::SafetensorsHeader> parse(const QByteArray &bytes)
{
    return core::parseSafetensorsHeader(
        std::string_view(bytes.constData(), std::size_t(bytes.size())),
        std::uint64_t(bytes.size()));
}

/** A Llama of hidden 512, MLP 1,024, 2 layers, 8 heads of 64 (4 KV), vocabulary 1,000, untied:
 *  2 x 512,000 embedding and head + 2 x (262,144 q + 131,072 k + 131,072 v + 262,144 o + 3 x
 *  524,288 MLP + 1,024 norms) + 512 final norm = 5,745,152 parameters. */
constexpr double kTinyParameters = 5745152;
const char *kTinyConfig =
    R"({"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 512,
        "intermediate_size": 1024, "num_hidden_layers": 2, "num_attention_heads": 8,
        "num_key_value_heads": 4, "vocab_size": 1000, "tie_word_embeddings": false,
        "hidden_act": "silu", "max_position_embeddings": 4096, "torch_dtype": "bfloat16"})";

QList<TensorSpec> tinyLayer(int layer)
{
    const QString p = QStringLiteral("model.layers.%1.").arg(layer);
    return {{p + "self_attn.q_proj.weight", "BF16", {512, 512}},
            {p + "self_attn.k_proj.weight", "BF16", {256, 512}},
            {p + "self_attn.v_proj.weight", "BF16", {256, 512}},
            {p + "self_attn.o_proj.weight", "BF16", {512, 512}},
            {p + "mlp.gate_proj.weight", "BF16", {1024, 512}},
            {p + "mlp.up_proj.weight", "BF16", {1024, 512}},
            {p + "mlp.down_proj.weight", "BF16", {512, 1024}},
            {p + "input_layernorm.weight", "BF16", {512}},
            {p + "post_attention_layernorm.weight", "BF16", {512}}};
}

QList<TensorSpec> tinyOuter()
{
    return {{"model.embed_tokens.weight", "BF16", {1000, 512}},
            {"lm_head.weight", "BF16", {1000, 512}},
            {"model.norm.weight", "BF16", {512}}};
}

/** The tiny Llama in two shards with an index, as save_pretrained writes it. */
void writeTinyFolder(const QString &folder, const QList<TensorSpec> &extra = {})
{
    QFile config(folder + "/config.json");
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write(kTinyConfig);
    config.close();
    const QList<TensorSpec> first = tinyOuter() + tinyLayer(0);
    const QList<TensorSpec> second = tinyLayer(1) + extra;
    writeShard(folder + "/model-00001-of-00002.safetensors", first);
    writeShard(folder + "/model-00002-of-00002.safetensors", second);
    QJsonObject map;
    qint64 total = 0;
    for (const TensorSpec &t : first) {
        map.insert(t.name, "model-00001-of-00002.safetensors");
        total += bytesOf(t);
    }
    for (const TensorSpec &t : second) {
        map.insert(t.name, "model-00002-of-00002.safetensors");
        total += bytesOf(t);
    }
    QFile index(folder + "/model.safetensors.index.json");
    QVERIFY(index.open(QIODevice::WriteOnly));
    index.write(QJsonDocument(QJsonObject{{"metadata", QJsonObject{{"total_size", total}}},
                                          {"weight_map", map}})
                    .toJson());
}

} // namespace

class Safetensors : public QObject
{
    Q_OBJECT

private slots:
    void headerCountsEveryDtype();
    void publishedHeaderReads();
    void hostileHeadersAreRefused_data();
    void hostileHeadersAreRefused();
    void folderCountsTheCheckpoint();
    void folderSetsApartTowersAndExtraLayers();
    void folderWithoutShardsKeepsTheRule();
    void folderRefusals();
    void folderThatDisagreesKeepsTheRule();
};

// Each dtype's size, packed 4-bit weights two a byte, GPTQ words 32 / bits values, scales none.
void Safetensors::headerCountsEveryDtype()
{
    const QList<TensorSpec> tensors = {
        {"a.weight", "F32", {2, 3}},                    // 6 elements, 24 bytes
        {"b.weight", "BF16", {4}},                      // 4, 8
        {"c.weight", "F8_E4M3", {8}},                   // 8, 8
        {"experts.gate_up_proj_blocks", "U8", {2, 16}}, // 32 bytes: 64 FP4 values
        {"experts.gate_up_proj_scales", "U8", {2}},     // scales: no parameters
        {"q.qweight", "I32", {4}},                      // 4 words of 8 4-bit values: 32
        {"d.weight", "F4", {7}},                        // 7 values in 4 bytes
        {"e.bias", "F32", {}},                          // a scalar: 1
    };
    qint64 data = 0;
    const QByteArray json = headerJson(tensors, &data);
    const QByteArray bytes = withLength(json) + QByteArray(data, '\0');
    const auto header = parse(bytes);
    QVERIFY2(header.ok(), header.ok() ? "" : header.error().message.c_str());
    QCOMPARE(header->tensors.size(), std::size_t(8));
    QCOMPARE(header->metadata.at("format"), std::string("pt"));
    QCOMPARE(header->dataBytes, std::uint64_t(data));
    for (const core::SafetensorsTensor &t : header->tensors) {
        if (t.name == "d.weight") {
            QCOMPARE(t.elements, 7.0);
            QCOMPARE(t.bytes, 4.0);
        }
        if (t.name == "e.bias")
            QCOMPARE(t.elements, 1.0);
    }
    const core::CheckpointWeights w = core::countCheckpointWeights({header.value()}, 4.0, 0.0);
    QCOMPARE(w.tensors, 8.0);
    QCOMPARE(w.parameters, 6.0 + 4 + 8 + 64 + 32 + 7 + 1);
    QCOMPARE(w.scaleBytes, 2.0);
    QCOMPARE(w.bytes, double(data));
    QCOMPARE(w.bytesByDtype.at("U8"), 34.0);
    // GPTQ at 8 bits: 4 values a word
    QCOMPARE(core::countCheckpointWeights({header.value()}, 8.0, 0.0).parameters,
             6.0 + 4 + 8 + 64 + 16 + 7 + 1);
}

// A header save_pretrained wrote (tests/fixtures/safetensors/README.md), in a file of its
// original 3,247,544 bytes: 16 F32 tensors of GPT-2 with n_embd 16 and one layer, the head tied
// to wte: 50,257 x 16 + 256 x 16 positions + (2 x 32 norms + 16 x 48 + 48 + 16 x 16 + 16 +
// 16 x 64 + 64 + 64 x 16 + 16) + 32 = 811,520 elements, 4 bytes each.
void Safetensors::publishedHeaderReads()
{
    QFile fixture(testpaths::fixturesDir() + "/safetensors/gpt2-tiny/header.bin");
    QVERIFY(fixture.open(QIODevice::ReadOnly));
    const QByteArray header = fixture.readAll();
    QCOMPARE(header.size(), 1464);
    QTemporaryDir dir;
    const QString path = dir.filePath("model.safetensors");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(header);
    QVERIFY(file.resize(3247544));
    file.close();
    const auto read = core::readSafetensorsFile(path.toStdString());
    QVERIFY2(read.ok(), read.ok() ? "" : read.error().message.c_str());
    QCOMPARE(read->tensors.size(), std::size_t(16));
    QCOMPARE(read->headerBytes, std::uint64_t(1456));
    const double perLayer = 2 * 32 + 16 * 48 + 48 + 16 * 16 + 16 + 16 * 64 + 64 + 64 * 16 + 16;
    const double elements = 50257.0 * 16 + 256 * 16 + perLayer + 32;
    QCOMPARE(elements, 811520.0);
    const core::CheckpointWeights w = core::countCheckpointWeights({read.value()}, 4.0, 1.0);
    QCOMPARE(w.parameters, elements);
    QCOMPARE(w.bytes, 4 * elements);
    QCOMPARE(w.bytesByDtype.size(), std::size_t(1));
    // cut anywhere inside its header, the file is refused, never misread
    for (qint64 size : {qint64(4), qint64(100), qint64(1463)}) {
        QVERIFY(file.resize(size));
        QVERIFY(!core::readSafetensorsFile(path.toStdString()).ok());
    }
}

void Safetensors::hostileHeadersAreRefused_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("where");
    QTest::addColumn<QString>("message");
    auto tensor = [](const QByteArray &entry, qint64 data = 0) {
        return withLength("{\"t\": " + entry + "}") + QByteArray(data, '\0');
    };
    QTest::newRow("shorter than the length") << QByteArray("\x05\0\0", 3) << ""
                                             << "8-byte header length";
    QByteArray huge(8, '\0');
    huge[7] = char(0x7f);
    QTest::newRow("a length past 100 MB") << huge << ""
                                          << "100 MB limit";
    QByteArray cut = withLength("{}");
    cut[0] = char(50);
    QTest::newRow("a length past the file") << cut << ""
                                            << "cut short";
    QTest::newRow("cut inside its JSON") << withLength("{\"t\": [") << ""
                                         << "one JSON object";
    QTest::newRow("cut inside its JSON") << withLength("{\"t\": [") << ""
                                         << "one JSON object";
    QTest::newRow("not JSON") << withLength("{\"t\": [}") << ""
                              << "not JSON";
    // issue #44's hostile review: what the format's own reader refuses, refused here too
    QTest::newRow("a byte-order mark before the JSON") << withLength("\xef\xbb\xbf{}") << ""
                                                       << "one JSON object";
    QTest::newRow("NUL bytes after the JSON") << withLength(QByteArray("{}\0\0", 4)) << ""
                                              << "padded with spaces only";
    QTest::newRow("a header of nested arrays")
        << withLength("{\"t\": " + QByteArray(1000, '[') + QByteArray(1000, ']') + "}") << ""
        << "nests deeper";
    QTest::newRow("one name twice: the second would replace the first")
        << (withLength(R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
                           "a": {"dtype": "F32", "shape": [1], "data_offsets": [8, 12]}})") +
            QByteArray(12, '\0'))
        << "/a"
        << "named twice";
    QTest::newRow("data no tensor claims (a tiny tensor in a large file)")
        << tensor(R"({"dtype": "F32", "shape": [1], "data_offsets": [0, 4]})", 4096) << ""
        << "4092 of the 4096 data bytes belong to no tensor";
    QTest::newRow("a control character in a name is not printed")
        << withLength(R"({"a\u001b[31m": {"dtype": "X", "shape": [], "data_offsets": [0, 0]}})")
        << "/a\\u001b[31m/dtype"
        << "not a dtype";
    QTest::newRow("an array") << withLength("[1, 2]") << ""
                              << "JSON object";
    QTest::newRow("an unknown dtype")
        << tensor(R"({"dtype": "F128", "shape": [1], "data_offsets": [0, 16]})", 16) << "/t/dtype"
        << "not a dtype";
    QTest::newRow("a negative dimension")
        << tensor(R"({"dtype": "F32", "shape": [-1], "data_offsets": [0, 4]})", 4) << "/t/shape/0"
        << "whole number";
    QTest::newRow("a fractional dimension")
        << tensor(R"({"dtype": "F32", "shape": [1.5], "data_offsets": [0, 4]})", 4) << "/t/shape/0"
        << "whole number";
    QTest::newRow("2^64 elements")
        << tensor(R"({"dtype": "U8", "shape": [4294967296, 4294967296], "data_offsets": [0, 1]})",
                  1)
        << "/t/shape"
        << "2^53";
    QTest::newRow("offsets past the file")
        << tensor(R"({"dtype": "F32", "shape": [4], "data_offsets": [0, 16]})", 8)
        << "/t/data_offsets"
        << "beyond the file";
    QTest::newRow("offsets past 2^64")
        << tensor(R"({"dtype": "F32", "shape": [4], "data_offsets": [0, 18446744073709551616]})", 8)
        << "/t/data_offsets"
        << "two whole numbers";
    QTest::newRow("fewer bytes than the shape")
        << tensor(R"({"dtype": "F32", "shape": [4], "data_offsets": [0, 12]})", 16)
        << "/t/data_offsets"
        << "take 16";
    QTest::newRow("an end before its begin")
        << tensor(R"({"dtype": "F32", "shape": [0], "data_offsets": [8, 4]})", 8)
        << "/t/data_offsets"
        << "ends before";
    QTest::newRow("no offsets") << tensor(R"({"dtype": "F32", "shape": [1]})", 4)
                                << "/t/data_offsets"
                                << "[begin, end]";
    QTest::newRow("two tensors on the same bytes")
        << (withLength(R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
                           "b": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}})") +
            QByteArray(12, '\0'))
        << "/b/data_offsets"
        << "overlaps \"a\"";
    QTest::newRow("metadata that is not text")
        << withLength(R"({"__metadata__": {"format": 1}})") << "/__metadata__/format"
        << "must be a string";
    QTest::newRow("a name with a slash")
        << withLength(R"({"a/b": {"dtype": "X", "shape": [], "data_offsets": [0, 0]}})")
        << "/a~1b/dtype"
        << "not a dtype";
}

void Safetensors::hostileHeadersAreRefused()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, where);
    QFETCH(QString, message);
    const auto header = parse(bytes);
    QVERIFY(!header.ok());
    QCOMPARE(QString::fromStdString(header.error().path), where);
    QVERIFY2(QString::fromStdString(header.error().message).contains(message),
             header.error().message.c_str());
}

// The tiny Llama in two shards: the headers' count equals the config's rule and the hand count,
// its bytes the index's total_size; the model takes the headers' count with its source.
void Safetensors::folderCountsTheCheckpoint()
{
    QTemporaryDir dir;
    writeTinyFolder(dir.path());
    for (const QString &path :
         {dir.path(), dir.path() + "/model.safetensors.index.json", dir.path() + "/config.json"}) {
        const auto imported = core::importCheckpointFolder(path.toStdString());
        QVERIFY2(imported.ok(), imported.ok() ? "" : imported.error().message.c_str());
        QCOMPARE(imported->configParameters, kTinyParameters);
        QCOMPARE(imported->weights.parameters, kTinyParameters);
        QCOMPARE(imported->weights.shards, 2.0);
        QCOMPARE(imported->weights.tensors, 3.0 + 2 * 9);
        QCOMPARE(imported->weights.bytes, 2 * kTinyParameters);
        QCOMPARE(imported->weights.indexTotalSize, 2 * kTinyParameters);
        QCOMPARE(imported->import.model.parameters, kTinyParameters);
        QCOMPARE(imported->import.model.sources.at("parameters"),
                 std::string("safetensors headers"));
        QVERIFY(imported->import.warnings.empty());
    }
    // a tensor the rule does not know: the headers win, and the difference is said
    QTemporaryDir more;
    writeTinyFolder(more.path(), {{"model.layers.1.mlp.extra_proj.weight", "BF16", {1024, 512}}});
    const auto extra = core::importCheckpointFolder(more.path().toStdString());
    QVERIFY(extra.ok());
    QCOMPARE(extra->import.model.parameters, kTinyParameters + 524288);
    QCOMPARE(extra->import.warnings.size(), std::size_t(1));
    QVERIFY(extra->import.warnings[0].message.find("9.13 %") != std::string::npos);
}

// Vision tensors and a multi-token-prediction layer (index 2 of a 2-layer model) are set apart.
void Safetensors::folderSetsApartTowersAndExtraLayers()
{
    QTemporaryDir dir;
    writeTinyFolder(dir.path(), {{"model.visual.patch_embed.proj.weight", "BF16", {512, 588}},
                                 {"model.layers.2.eh_proj.weight", "BF16", {512, 1024}}});
    const auto imported = core::importCheckpointFolder(dir.path().toStdString());
    QVERIFY(imported.ok());
    QCOMPARE(imported->weights.parameters, kTinyParameters);
    QCOMPARE(imported->weights.otherTowerParameters, 512.0 * 588);
    QCOMPARE(imported->weights.extraLayerParameters, 512.0 * 1024);
    QCOMPARE(imported->weights.notes.size(), std::size_t(2));
}

// Shards missing: the rule's count stays, the index's total_size says the bytes.
void Safetensors::folderWithoutShardsKeepsTheRule()
{
    QTemporaryDir dir;
    writeTinyFolder(dir.path());
    QVERIFY(QFile::remove(dir.path() + "/model-00002-of-00002.safetensors"));
    auto partial = core::importCheckpointFolder(dir.path().toStdString());
    QVERIFY(partial.ok());
    QCOMPARE(partial->weights.missingShards, 1.0);
    QCOMPARE(partial->import.model.parameters, kTinyParameters);
    QVERIFY(!partial->weights.fromIndexOnly);
    QVERIFY(QFile::remove(dir.path() + "/model-00001-of-00002.safetensors"));
    auto indexOnly = core::importCheckpointFolder(dir.path().toStdString());
    QVERIFY(indexOnly.ok());
    QVERIFY(indexOnly->weights.fromIndexOnly);
    QCOMPARE(indexOnly->weights.bytes, 2 * kTinyParameters);
    QCOMPARE(indexOnly->import.model.parameters, kTinyParameters);
}

void Safetensors::folderRefusals()
{
    QTemporaryDir dir;
    auto none = core::importCheckpointFolder(dir.path().toStdString());
    QVERIFY(!none.ok());
    QVERIFY(none.error().message.find("no config.json") != std::string::npos);
    writeTinyFolder(dir.path());
    QVERIFY(QFile::remove(dir.path() + "/model.safetensors.index.json"));
    QVERIFY(QFile::remove(dir.path() + "/model-00001-of-00002.safetensors"));
    QVERIFY(QFile::remove(dir.path() + "/model-00002-of-00002.safetensors"));
    auto empty = core::importCheckpointFolder(dir.path().toStdString());
    QVERIFY(!empty.ok());
    QVERIFY(empty.error().message.find("no *.safetensors") != std::string::npos);
    // a lying shard names the file and the tensor
    QFile bad(dir.path() + "/model.safetensors");
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write(withLength(R"({"t": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}})"));
    bad.close();
    auto lying = core::importCheckpointFolder(dir.path().toStdString());
    QVERIFY(!lying.ok());
    QVERIFY2(lying.error().path.find("model.safetensors: /t/data_offsets") != std::string::npos,
             lying.error().path.c_str());
    // an index that points outside the folder
    QFile index(dir.path() + "/model.safetensors.index.json");
    QVERIFY(index.open(QIODevice::WriteOnly));
    index.write(R"({"weight_map": {"t": "../elsewhere.safetensors"}})");
    index.close();
    auto outside = core::importCheckpointFolder(dir.path().toStdString());
    QVERIFY(!outside.ok());
    QVERIFY(outside.error().message.find("outside the folder") != std::string::npos);
}

// Issue #44's hostile review: where the headers cannot be the whole model, or a quantised
// checkpoint packs its values in a way the reader does not know, the config's rule stays and a
// warning says why; multi-token-prediction layers named mtp.* are set apart; a symlink loop is
// an error, not a crash.
void Safetensors::folderThatDisagreesKeepsTheRule()
{
    // a tensor the index maps to a shard that does not hold it
    QTemporaryDir dir;
    writeTinyFolder(dir.path());
    QFile index(dir.path() + "/model.safetensors.index.json");
    QVERIFY(index.open(QIODevice::ReadOnly));
    QJsonObject doc = QJsonDocument::fromJson(index.readAll()).object();
    index.close();
    QJsonObject map = doc.value("weight_map").toObject();
    map.insert("model.layers.1.mlp.extra.weight", "model-00002-of-00002.safetensors");
    doc.insert("weight_map", map);
    QVERIFY(index.open(QIODevice::WriteOnly | QIODevice::Truncate));
    index.write(QJsonDocument(doc).toJson());
    index.close();
    auto mapped = core::importCheckpointFolder(dir.path().toStdString());
    QVERIFY(mapped.ok());
    QCOMPARE(mapped->import.model.parameters, kTinyParameters);
    QVERIFY(mapped->import.warnings.front().message.find("the index maps 1 tensors") !=
            std::string::npos);

    // a quantised checkpoint whose packing the reader does not know: 4-bit in U8 "weight"
    // tensors with no telling sibling, counted one a byte: 28 % short, the rule stays
    QTemporaryDir quant;
    {
        QFile config(quant.path() + "/config.json");
        QVERIFY(config.open(QIODevice::WriteOnly));
        QByteArray text(kTinyConfig);
        text.replace("\"torch_dtype\"",
                     "\"quantization_config\": {\"quant_method\": \"mystery\"}, \"torch_dtype\"");
        config.write(text);
    }
    QList<TensorSpec> tensors = tinyOuter() + tinyLayer(0) + tinyLayer(1);
    for (TensorSpec &t : tensors)
        if (t.name.contains("mlp.")) {
            t.dtype = "U8";
            t.shape[1] /= 2;
        }
    writeShard(quant.path() + "/model.safetensors", tensors);
    auto packed = core::importCheckpointFolder(quant.path().toStdString());
    QVERIFY(packed.ok());
    QCOMPARE(packed->import.model.parameters, kTinyParameters);
    QVERIFY(packed->import.model.notes.at("parameters").find("the config's rule is kept") !=
            std::string::npos);

    // Qwen3-Next's mtp.layers.* beside the model: set apart, the count exact
    QTemporaryDir mtp;
    writeTinyFolder(mtp.path(), {{"mtp.layers.0.mlp.up_proj.weight", "BF16", {1024, 512}}});
    auto withMtp = core::importCheckpointFolder(mtp.path().toStdString());
    QVERIFY(withMtp.ok());
    QCOMPARE(withMtp->import.model.parameters, kTinyParameters);
    QCOMPARE(withMtp->weights.extraLayerParameters, 1024.0 * 512);

    // a shard that links to itself
    QTemporaryDir loop;
    writeTinyFolder(loop.path());
    QVERIFY(QFile::remove(loop.path() + "/model.safetensors.index.json"));
    QVERIFY(QFile::link(loop.path() + "/loop.safetensors", loop.path() + "/loop.safetensors"));
    auto looping = core::importCheckpointFolder(loop.path().toStdString());
    QVERIFY(looping.ok()); // not a regular file: left out
    QCOMPARE(looping->import.model.parameters, kTinyParameters);
}

QTEST_GUILESS_MAIN(Safetensors)
#include "tst_safetensors.moc"
