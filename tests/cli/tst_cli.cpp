// SPDX-License-Identifier: GPL-3.0-or-later
// accel-calc as its users run it: the lesson's scenario files give the lesson's numbers, the
// output is JSON only, and bad input exits 2 with "FILE: /json/path: what is wrong".

#include "tools/testpaths.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

namespace {

struct Run
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Run accelCalc(const QStringList &arguments, const QByteArray &input = {})
{
    QProcess process;
    process.start(testpaths::accelCalc(), arguments);
    if (!process.waitForStarted())
        qFatal("accel-calc did not start");
    if (!input.isEmpty())
        process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(60000))
        qFatal("accel-calc did not finish");
    Run run;
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    return run;
}

QString scenarioFile(const char *name)
{
    return (testpaths::sourceDir() + QStringLiteral("/presets/scenarios/%1.json"))
        .arg(QLatin1String(name));
}

QString fixture(const QString &name)
{
    return (testpaths::fixturesDir() + QStringLiteral("/")) + name;
}

double valueAt(const QJsonObject &root, const QString &dotted)
{
    const QStringList parts = dotted.split(QLatin1Char('.'));
    const QJsonValue value = root.value(parts[0]).toObject().value(parts[1]);
    if (value.isBool())
        return value.toBool() ? 1.0 : 0.0;
    return value.isDouble() ? value.toDouble() : std::nan("");
}

QJsonObject parseObject(const QByteArray &text)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(text, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        qFatal("not a JSON object: %s", text.left(200).constData());
    return doc.object();
}

} // namespace

class Cli : public QObject
{
    Q_OBJECT

private slots:
    void decideWritesTheDecidedScenario();
    void lessonScenarioFiles_data();
    void lessonScenarioFiles();
    void everyScenarioFileEvaluatesCleanly();
    void setOverridesAnInput();
    void explainAddsOnlyTheExplanation();
    void operatorsAndEngineTechniques();
    void standardInputAndBuiltInIds();
    void sweepPrintsOneLinePerValue();
    void sweepAndCheckExportCsv();
    void sweepRowsAreWhatSetGives();
    void checkNamesACheckpointsPartFormats();
    void presetsListsEveryKind();
    void unknownKeysWarnOnStandardError();
    void importHfPrintsAnInlineModel();
    void checkRecommendsTheLessonsDevice();
    void checkReportsUnknownDevices();
    void badInput_data();
    void badInput();
    void badCommandLines_data();
    void standardInputIsBounded();
    void contextSweepOfALongPrompt();
    void badCommandLines();
    void calibrateWritesAProfileThatValidateAndEvaluateUse();
    void calibrateReportsBadRowsByLineAndColumn();
    void simulatePrintsPercentilesAndLittlesLaw();
    void simulateReadsATraceBesideTheScenario();
    void simulateRefusesBadLoads();
    void trainPrintsThePlanAndSearch();
    void checkAndTrainGiveOneRun();
    void trainRefusesWhatCannotRun_data();
    void trainRefusesWhatCannotRun();
};

void Cli::lessonScenarioFiles_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("extra");
    QTest::addColumn<QString>("key");
    QTest::addColumn<double>("expected");
    QTest::addColumn<double>("unit");
    QTest::addColumn<double>("tolerance");
    const QStringList none;
    QTest::newRow("l45 lesson-default: 14 GB of weights")
        << scenarioFile("lesson-default") << none << "memory.weights_bytes" << 14.0 << 1e9 << 0.5;
    QTest::newRow("l84 lesson-default: KV 17.18 GB")
        << scenarioFile("lesson-default") << none << "memory.kv_bytes_total" << 17.18 << 1e9
        << 0.005;
    QTest::newRow("ui.md lesson-default: 46.3 GB headroom")
        << scenarioFile("lesson-default") << none << "memory.headroom_bytes" << 46.3 << 1e9 << 0.05;
    QTest::newRow("l63 lesson-default: training state 112 GB")
        << scenarioFile("lesson-default") << none << "training.state_bytes" << 112.0 << 1e9 << 0.5;
    QTest::newRow("l93 lesson-default: ridge 200")
        << scenarioFile("lesson-default") << none << "roofline.ridge_flops_per_byte" << 200.0 << 1.0
        << 0.5;
    QTest::newRow("l175 lesson-default: 8 nodes per rack")
        << scenarioFile("lesson-default") << none << "power.nodes_per_rack" << 8.0 << 1.0 << 0.5;
    QTest::newRow("l107 toy-decode: 14.54 ms")
        << scenarioFile("toy-decode") << none << "decode.step_seconds" << 14.54 << 1e-3 << 0.005;
    QTest::newRow("l103 toy-decode: 71.4 tokens/s ceiling")
        << scenarioFile("toy-decode") << none << "decode.weights_only_tokens_per_second" << 71.4
        << 1.0 << 0.05;
    QTest::newRow("l104 toy-decode int8: 142.9 tokens/s")
        << scenarioFile("toy-decode") << QStringList{"--set", "serving.weight_format=int8"}
        << "decode.weights_only_tokens_per_second" << 142.9 << 1.0 << 0.05;
    QTest::newRow("l122 batching-8: 437 tokens/s")
        << scenarioFile("batching-8") << none << "decode.tokens_per_second" << 437.0 << 1.0 << 0.5;
    QTest::newRow("l122 batching-8: 54.7 per sequence")
        << scenarioFile("batching-8") << none << "decode.tokens_per_second_per_sequence" << 54.7
        << 1.0 << 0.05;
    QTest::newRow("l123 batching-32: 31.18 GB")
        << scenarioFile("batching-32") << none << "decode.bytes_per_step" << 31.18 << 1e9 << 0.005;
    QTest::newRow("l123 batching-32: 1,026 tokens/s")
        << scenarioFile("batching-32") << none << "decode.tokens_per_second" << 1026.0 << 1.0
        << 0.5;
    QTest::newRow("l215 support-assistant: 32.7 GB")
        << scenarioFile("support-assistant") << none << "memory.serving_bytes_total" << 32.7 << 1e9
        << 0.05;
    QTest::newRow("l215 support-assistant: 15.3 GB headroom")
        << scenarioFile("support-assistant") << none << "memory.headroom_bytes" << 15.3 << 1e9
        << 0.05;
    QTest::newRow("l220 support-assistant: ~34 tokens/s per user")
        << scenarioFile("support-assistant") << none << "decode.tokens_per_second_per_sequence"
        << 34.0 << 1.0 << 0.5;
    QTest::newRow("l255 oom: 13 sequences")
        << scenarioFile("oom-14th-request") << none << "memory.max_concurrent_sequences" << 13.0
        << 1.0 << 0.5;
    QTest::newRow("l255 oom: does not fit")
        << scenarioFile("oom-14th-request") << none << "memory.fits" << 0.0 << 1.0 << 0.5;
    QTest::newRow("l265 oom int8: admission limit 24")
        << scenarioFile("oom-14th-request") << QStringList{"--set", "serving.weight_format=int8"}
        << "memory.admission_limit" << 24.0 << 1.0 << 0.5;
    QTest::newRow("l183 cost-example: $3.97 per million")
        << scenarioFile("cost-example") << none << "cost.usd_per_million_tokens" << 3.97 << 1.0
        << 0.005;
    QTest::newRow("l162 data-parallel: 24.5 GB")
        << scenarioFile("interconnect-data-parallel") << none
        << "interconnect.traffic_bytes_per_device" << 24.5 << 1e9 << 0.05;
    QTest::newRow("l164 data-parallel: 1.96 s over the network")
        << scenarioFile("interconnect-data-parallel") << none << "interconnect.inter_node_seconds"
        << 1.96 << 1.0 << 0.005;
    QTest::newRow("l170 tensor-parallel: 0.50 ms")
        << scenarioFile("interconnect-tensor-parallel") << none << "interconnect.bandwidth_seconds"
        << 0.50 << 1e-3 << 0.005;
    QTest::newRow("l171 tensor-parallel: 0.64 ms")
        << scenarioFile("interconnect-tensor-parallel") << none << "interconnect.latency_seconds"
        << 0.64 << 1e-3 << 0.005;
    QTest::newRow("l200 edge-3b: 1.5 GB")
        << scenarioFile("edge-3b") << none << "memory.weights_bytes" << 1.5 << 1e9 << 0.05;
}

void Cli::lessonScenarioFiles()
{
    QFETCH(QString, file);
    QFETCH(QStringList, extra);
    QFETCH(QString, key);
    QFETCH(double, expected);
    QFETCH(double, unit);
    QFETCH(double, tolerance);
    const Run run = accelCalc(QStringList{"evaluate", file} + extra);
    QCOMPARE(run.exitCode, 0);
    const double actual = valueAt(parseObject(run.out), key) / unit;
    QVERIFY2(
        std::fabs(actual - expected) <= tolerance,
        qPrintable(
            QStringLiteral("%1 = %2, lesson %3").arg(key).arg(actual, 0, 'g', 10).arg(expected)));
}

void Cli::everyScenarioFileEvaluatesCleanly()
{
    for (const char *name :
         {"lesson-default", "toy-decode", "batching-8", "batching-32", "support-assistant",
          "oom-14th-request", "cost-example", "interconnect-data-parallel",
          "interconnect-tensor-parallel", "edge-3b"}) {
        const Run run = accelCalc({"evaluate", scenarioFile(name), "--explain"});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY2(!run.out.contains("null"), name); // no NaN or infinity became null
        const QJsonObject root = parseObject(run.out);
        for (const char *group : {"memory", "training", "roofline", "decode", "prefill", "cost",
                                  "interconnect", "power", "explain"})
            QVERIFY2(root.value(QLatin1String(group)).isObject(), group);
        // edge-3b's NPU has no BF16 peak and says which format was used; the others are quiet.
        if (QByteArray(name) != "edge-3b")
            QVERIFY2(run.err.isEmpty(), run.err.constData());
    }
}

void Cli::setOverridesAnInput()
{
    const Run run = accelCalc({"evaluate", scenarioFile("lesson-default"), "--set",
                               "serving.batch=32", "--set=device.bandwidth_gb_s=2000"});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject root = parseObject(run.out);
    QCOMPARE(valueAt(root, "decode.batch"), 32.0);
    QCOMPARE(valueAt(root, "roofline.ridge_flops_per_byte"), 100.0);
    // null takes a key out, back to its default: a deadline cleared is a plan without one (it
    // was refused as "must be a number, not null", so a goal could not be cleared)
    const Run cleared = accelCalc({"train", "training-8b-pretrain", "--set",
                                   "training.deadline_days=null", "--set", "training.devices=64"});
    QCOMPARE(cleared.exitCode, 0);
    const Run without =
        accelCalc({"train", "training-8b-pretrain", "--set", "training.devices=64"});
    const QJsonObject a = parseObject(cleared.out), b = parseObject(without.out);
    QVERIFY(a[u"meets_deadline"].toBool());
    QVERIFY(!b[u"meets_deadline"].toBool()); // 64 devices miss the 60 days
    QCOMPARE(a[u"days"].toDouble(), b[u"days"].toDouble());
}

void Cli::explainAddsOnlyTheExplanation()
{
    const Run plain = accelCalc({"evaluate", scenarioFile("batching-8")});
    const Run explained = accelCalc({"evaluate", scenarioFile("batching-8"), "--explain"});
    QCOMPARE(plain.exitCode, 0);
    QCOMPARE(explained.exitCode, 0);
    QJsonObject withExplain = parseObject(explained.out);
    const QJsonObject explain = withExplain.take(QStringLiteral("explain")).toObject();
    QCOMPARE(withExplain, parseObject(plain.out)); // --explain never changes a number
    const QJsonObject step = explain.value(QStringLiteral("decode.step_seconds")).toObject();
    QVERIFY(step.value("formula").toString().contains(QStringLiteral("max(")));
    QVERIFY2(step.value("substituted").toString().contains(QStringLiteral("18.29 GB")),
             qPrintable(step.value("substituted").toString()));
    QVERIFY(step.value("substituted").toString().contains(QStringLiteral("18.29 ms")));
    const QJsonObject kv = explain.value(QStringLiteral("memory.kv_bytes_per_token")).toObject();
    const QString layersSource =
        kv.value("inputs").toObject().value("layers").toObject().value("source").toString();
    QVERIFY2(layersSource.contains(QStringLiteral("preset lesson-7b")) &&
                 layersSource.contains(QStringLiteral("l.76")),
             qPrintable(layersSource));
    const QString batchSource = explain.value(QStringLiteral("decode.flops_per_step"))
                                    .toObject()
                                    .value("inputs")
                                    .toObject()
                                    .value("batch")
                                    .toObject()
                                    .value("source")
                                    .toString();
    QCOMPARE(batchSource, QStringLiteral("scenario file"));
    const QString tokensSource = explain.value(QStringLiteral("cost.usd_per_million_tokens"))
                                     .toObject()
                                     .value("inputs")
                                     .toObject()
                                     .value("sustained tokens/s per replica")
                                     .toObject()
                                     .value("source")
                                     .toString();
    QVERIFY2(tokensSource.startsWith(QStringLiteral("computed: generated tokens / (prefill")),
             qPrintable(tokensSource));
}

void Cli::standardInputAndBuiltInIds()
{
    const Run fromStdin =
        accelCalc({"evaluate", "-"}, "{\"serving\": {\"batch\": 1, \"concurrent_sequences\": 1}}");
    QCOMPARE(fromStdin.exitCode, 0);
    QVERIFY(std::fabs(valueAt(parseObject(fromStdin.out), "decode.tokens_per_second") - 68.8) <
            0.05);
    const Run builtin = accelCalc({"evaluate", "oom-14th-request"});
    QCOMPARE(builtin.exitCode, 0);
    QCOMPARE(valueAt(parseObject(builtin.out), "memory.max_concurrent_sequences"), 13.0);
    const Run badStdin = accelCalc({"evaluate", "-"}, "{\"serving\": {\"batch\": -1}}");
    QCOMPARE(badStdin.exitCode, 2);
    QVERIFY2(badStdin.err.startsWith("<stdin>: /serving/batch: "), badStdin.err.constData());
}

void Cli::sweepPrintsOneLinePerValue()
{
    const Run run = accelCalc({"sweep", scenarioFile("lesson-default"), "--param", "serving.batch",
                               "--values", "1,8,32", "--set", "serving.concurrent_sequences=1"});
    QCOMPARE(run.exitCode, 0);
    const QList<QByteArray> lines = run.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 3);
    const double expected[] = {68.8, 437, 1026}; // lesson l.121-123
    const double tolerance[] = {0.05, 0.5, 0.5};
    for (int i = 0; i < 3; ++i) {
        const QJsonObject line = parseObject(lines[i]);
        QCOMPARE(line.value("param").toString(), QStringLiteral("serving.batch"));
        QCOMPARE(line.value("value").toDouble(), QList<double>({1, 8, 32})[i]);
        const double tps = valueAt(line.value("result").toObject(), "decode.tokens_per_second");
        QVERIFY2(std::fabs(tps - expected[i]) <= tolerance[i], qPrintable(QString::number(tps)));
    }
    const Run bad = accelCalc({"sweep", scenarioFile("lesson-default"), "--param", "serving.batch",
                               "--values", "1,0,32"});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY(bad.out.isEmpty());
    QVERIFY2(bad.err.contains("/serving/batch: "), bad.err.constData());
}

// Issue #46: the sweep applies each value to the one scenario it read, and every format gives
// what `evaluate --set` gives for that value. A file without a prompt reads its prompt as the
// context: the JSON and CSV sweeps kept it at 4,096 where --set and the JSON-lines sweep moved
// it with the context (TTFT 0.302 s against 0.589 s at 8,192 tokens); likewise the batch follows
// the concurrency a file leaves it to.
void Cli::sweepRowsAreWhatSetGives()
{
    QTemporaryDir dir;
    const QString minimal = dir.filePath(QStringLiteral("minimal.json"));
    QFile file(minimal);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"format": "accel-explorer/scenario", "version": 1})");
    file.close();
    struct Case
    {
        QString scenario, param, values, figure;
    };
    const Case cases[] = {
        {minimal, "serving.context_tokens", "1024,8192,32768", "prefill.ttft_seconds"},
        {minimal, "serving.concurrent_sequences", "1,64", "decode.tokens_per_second"},
        {scenarioFile("lesson-default"), "serving.context_tokens", "8192,16384",
         "prefill.ttft_seconds"},
        {scenarioFile("lesson-default"), "serving.batch", "1,32", "decode.tokens_per_second"}};
    for (const Case &c : cases) {
        const QStringList values = c.values.split(QLatin1Char(','));
        const Run lines =
            accelCalc({"sweep", c.scenario, "--param", c.param, "--values", c.values});
        const Run table = accelCalc(
            {"sweep", c.scenario, "--param", c.param, "--values", c.values, "--format", "json"});
        QCOMPARE(lines.exitCode, 0);
        QCOMPARE(table.exitCode, 0);
        const QList<QByteArray> rows = lines.out.trimmed().split('\n');
        const QJsonArray tableRows = parseObject(table.out).value("rows").toArray();
        QCOMPARE(rows.size(), values.size());
        QCOMPARE(tableRows.size(), values.size());
        for (int i = 0; i < values.size(); ++i) {
            const Run set = accelCalc({"evaluate", c.scenario, "--set", c.param + "=" + values[i]});
            QCOMPARE(set.exitCode, 0);
            const double expected = valueAt(parseObject(set.out), c.figure);
            const QString where = c.param + "=" + values[i];
            QVERIFY2(valueAt(parseObject(rows[i]).value("result").toObject(), c.figure) == expected,
                     qPrintable(where + " (JSON lines)"));
            QVERIFY2(tableRows[i].toObject().value(c.figure).toDouble() == expected,
                     qPrintable(where + " (JSON table)"));
        }
    }
}

// Issue #44, item 4: the wizard says "MXFP4 + BF16 weights" for a checkpoint whose parts keep
// their own formats; `check` and `decide` say it too, part by part (a hostile review found only
// "weight_format": "mxfp4" there).
void Cli::checkNamesACheckpointsPartFormats()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("oss.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"format": "accel-explorer/scenario", "version": 1, "model": "gpt-oss-20b",
        "serving": {"weight_format": "mxfp4", "weight_formats": {"embeddings": "bf16",
        "attention": "bf16", "mlp": "bf16", "other": "bf16"}},
        "wizard": {"candidates": ["nvidia-h100-sxm", "nvidia-l40s"], "formats": ["mxfp4", "fp8"]}})");
    file.close();
    const Run check = accelCalc({"check", path});
    QCOMPARE(check.exitCode, 0);
    const QJsonObject out = parseObject(check.out);
    const QJsonArray candidates = out.value("candidates").toArray();
    QVERIFY(!candidates.isEmpty());
    for (const auto &c : candidates) {
        const QJsonObject parts = c.toObject().value("weight_formats").toObject();
        QCOMPARE(parts.value("attention").toString(), QStringLiteral("bf16"));
        QCOMPARE(parts.value("experts").toString(), c.toObject().value("weight_format").toString());
    }
    const QJsonObject recommended = out.value("recommendation").toObject();
    QCOMPARE(recommended.value("weight_formats").toObject().value("embeddings").toString(),
             QStringLiteral("bf16"));
}

// The app's standard sweeps and the checks as stamped CSV, for a spreadsheet.
void Cli::sweepAndCheckExportCsv()
{
    const Run run = accelCalc({"sweep", "lesson-default", "--kind", "batch", "--format", "csv"});
    QCOMPARE(run.exitCode, 0);
    const QList<QByteArray> lines = run.out.trimmed().split('\n');
    QVERIFY(lines[0].startsWith("# Accelerator Explorer "));
    QVERIFY(lines[0].contains("preset data 20"));
    QVERIFY(lines[1].startsWith("serving.batch,"));
    QCOMPARE(lines.size(), 2 + 11); // batch 1, 2, 4, ... 1024
    const QList<QByteArray> header = lines[1].split(',');
    const QList<QByteArray> batch8 = lines[2 + 3].split(',');
    QCOMPARE(batch8[0], QByteArray("8"));
    const double tps = batch8[header.indexOf("decode.tokens_per_second")].toDouble();
    QVERIFY2(std::fabs(tps - 437) <= 0.5, batch8.join(',').constData()); // lesson l.122

    const Run json =
        accelCalc({"sweep", "lesson-default", "--kind", "utilisation", "--format", "json"});
    QCOMPARE(json.exitCode, 0);
    const QJsonObject document = parseObject(json.out);
    QVERIFY(!document.value("app_version").toString().isEmpty());
    QVERIFY(!document.value("preset_data_date").toString().isEmpty());
    QCOMPARE(document.value("rows").toArray().size(), 20);

    const Run check = accelCalc({"check", "support-assistant", "--format", "csv"});
    QCOMPARE(check.exitCode, 0);
    QVERIFY(check.out.startsWith("# Accelerator Explorer "));
    QVERIFY(check.out.contains("\ndevice,weights,verdict,passes,tensor_parallel,pipeline_parallel,"
                               "replicas,devices,"));

    // evaluate and check JSON say who made them from which data
    const Run evaluate = accelCalc({"evaluate", "lesson-default"});
    QCOMPARE(parseObject(evaluate.out).value("preset_data_date").toString().size(), 10);
    QVERIFY(!parseObject(evaluate.out).value("app_version").toString().isEmpty());
    const Run checkJson = accelCalc({"check", "support-assistant"});
    QVERIFY(!parseObject(checkJson.out).value("app_version").toString().isEmpty());

    const Run bad = accelCalc({"sweep", "lesson-default", "--kind", "latency"});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY(bad.err.contains("--kind is batch, context, concurrency or utilisation"));
    const Run badFormat = accelCalc({"check", "lesson-default", "--format", "xml"});
    QCOMPARE(badFormat.exitCode, 2);
    QVERIFY(badFormat.err.contains("--format is json or csv"));
}

void Cli::presetsListsEveryKind()
{
    const Run run = accelCalc({"presets"});
    QCOMPARE(run.exitCode, 0);
    const QJsonArray presets = QJsonDocument::fromJson(run.out).array();
    QSet<QString> ids;
    QSet<QString> kinds;
    for (const auto &v : presets) {
        const QJsonObject o = v.toObject();
        QVERIFY(!o.value("name").toString().isEmpty());
        ids.insert(o.value("id").toString());
        kinds.insert(o.value("kind").toString());
    }
    for (const char *id : {"lesson-7b", "lesson-accelerator", "lesson-accelerator-24gb",
                           "lesson-accelerator-48gb", "lesson-default", "oom-14th-request"})
        QVERIFY2(ids.contains(QLatin1String(id)), id);
    QCOMPARE(kinds, (QSet<QString>{"model", "device", "link", "scenario"}));
}

void Cli::unknownKeysWarnOnStandardError()
{
    const Run run = accelCalc({"evaluate", fixture("good/inline-everything.json")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.err.contains("inline-everything.json: /future_key: warning: unknown key"),
             run.err.constData());
    QVERIFY(parseObject(run.out).contains("memory")); // warnings never reach standard output
}

void Cli::importHfPrintsAnInlineModel()
{
    const Run run = accelCalc({"import-hf", fixture("hf/mixtral-8x7b.json")});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject model = parseObject(run.out);
    QCOMPARE(model.value("parameters").toDouble(), 46702792704.0);
    QCOMPARE(model.value("active_parameters").toDouble(), 12879925248.0);
    QCOMPARE(model.value("kv_heads").toDouble(), 8.0);
    // ready to paste: evaluate it as a scenario's model
    const QByteArray scenario = "{\"model\": " + run.out + "}";
    const Run evaluated = accelCalc({"evaluate", "-"}, scenario);
    QVERIFY2(evaluated.exitCode == 0, evaluated.err.constData());
    const Run refused = accelCalc({"import-hf", fixture("hf/bert-base.json")});
    QCOMPARE(refused.exitCode, 2);
    QVERIFY(refused.out.isEmpty());
    QVERIFY2(refused.err.contains("bert-base.json: /model_type: "), refused.err.constData());
    // issue #22: DeepSeek (MLA, FP8 checkpoint) imports, and says the checkpoint's format
    const Run deepSeek = accelCalc({"import-hf", fixture("hf/deepseek-v3.json")});
    QCOMPARE(deepSeek.exitCode, 0);
    QVERIFY2(deepSeek.err.contains("note: the checkpoint is FP8"), deepSeek.err.constData());
    const QJsonObject mla = parseObject(deepSeek.out);
    QCOMPARE(mla.value("parameters").toDouble(), 671026419200.0);
    QCOMPARE(mla.value("layer_groups").toArray().size(), 2);

    // issue #44, item 5: a model folder, its shards not downloaded: the config's model and the
    // index's total_size against it on standard error; a folder without a config is refused
    QTemporaryDir dir;
    QVERIFY(QFile::copy(fixture("hf/llama-3.1-8b.json"), dir.filePath("config.json")));
    QFile index(dir.filePath("model.safetensors.index.json"));
    QVERIFY(index.open(QIODevice::WriteOnly));
    index.write(R"({"metadata": {"total_size": 16060522496}, "weight_map": {}})");
    index.close();
    const Run folder = accelCalc({"import-hf", dir.path()});
    QCOMPARE(folder.exitCode, 0);
    QCOMPARE(parseObject(folder.out).value("parameters").toDouble(), 8030261248.0);
    QVERIFY2(folder.err.contains("the config's rule agrees"), folder.err.constData());
    QVERIFY(QFile::remove(dir.filePath("config.json")));
    const Run noConfig = accelCalc({"import-hf", dir.path()});
    QCOMPARE(noConfig.exitCode, 2);
    QVERIFY(noConfig.out.isEmpty());
    QVERIFY2(noConfig.err.contains("holds no config.json"), noConfig.err.constData());
}

// l.215-237: the device-selection checks for the support assistant.
void Cli::checkRecommendsTheLessonsDevice()
{
    const Run run = accelCalc({"check", scenarioFile("support-assistant")});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject root = parseObject(run.out);
    const QJsonArray candidates = root.value("candidates").toArray();
    QCOMPARE(candidates.size(), 6); // three devices x BF16 and INT8
    for (const auto &value : candidates) {
        const QJsonObject candidate = value.toObject();
        const QJsonArray checks = candidate.value("checks").toArray();
        QCOMPARE(checks.size(), 6);
        QStringList names;
        for (const auto &check : checks) {
            names << check.toObject().value("name").toString();
            QVERIFY(QStringList({"pass", "warn", "fail", "n/a"})
                        .contains(check.toObject().value("status").toString()));
        }
        QCOMPARE(names, QStringList({"compatibility", "memory", "latency", "availability", "effort",
                                     "cost"}));
    }
    const QJsonObject recommendation = root.value("recommendation").toObject();
    QCOMPARE(recommendation.value("device").toString(), QStringLiteral("lesson-accelerator-48gb"));
    QCOMPARE(recommendation.value("weight_format").toString(), QStringLiteral("bf16"));
    QCOMPARE(recommendation.value("replicas").toDouble(), 2.0);
    // restricted to the 24 GB device: everything fails, and that is still a valid answer
    const Run small = accelCalc({"check", scenarioFile("support-assistant"), "--devices",
                                 "lesson-accelerator-24gb", "--formats", "int8"});
    QCOMPARE(small.exitCode, 0);
    const QJsonObject none = parseObject(small.out).value("recommendation").toObject();
    QVERIFY(none.value("device").isNull());
    QVERIFY(none.value("reason").toString().contains("No candidate passes"));
}

// Issue #40: accel-calc decide prints the recommendation and writes the decided scenario, whose
// evaluation is the checks' fleet and money; nothing passing is bad input (exit 2).
void Cli::decideWritesTheDecidedScenario()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("decided.json"));
    const QStringList traffic{"--set", "traffic.requests_per_day=864000", "--set",
                              "traffic.peak_requests_per_second=20"};
    const Run run =
        accelCalc(QStringList{"decide", scenarioFile("llama-70b-fleet"), "-o", path} + traffic);
    QCOMPARE(run.exitCode, 0);
    const QJsonObject decision = parseObject(run.out);
    const QJsonObject rec = decision.value("recommendation").toObject();
    QCOMPARE(decision.value("decided_scenario").toString(), path);
    for (const char *key :
         {"device", "weight_format", "tensor_parallel", "pipeline_parallel", "replicas", "devices",
          "usd_per_month", "usd_per_million_tokens", "batch", "utilisation", "name"})
        QVERIFY2(!rec.value(key).isNull() && !rec.value(key).isUndefined(), key);
    QCOMPARE(rec.value("batch").toDouble(), 64.0); // the scenario's 64 resident sequences

    // check of the same scenario recommends the same fleet
    const QJsonObject checked =
        parseObject(accelCalc(QStringList{"check", scenarioFile("llama-70b-fleet")} + traffic).out)
            .value("recommendation")
            .toObject();
    for (const char *key : {"device", "weight_format", "replicas", "devices", "usd_per_month"})
        QCOMPARE(checked.value(key), rec.value(key));

    // the written scenario evaluates to the same fleet and money
    const Run evaluated = accelCalc({"evaluate", path});
    QCOMPARE(evaluated.exitCode, 0);
    const QJsonObject e = parseObject(evaluated.out);
    QCOMPARE(valueAt(e, "cost.replicas"), rec.value("replicas").toDouble());
    QCOMPARE(valueAt(e, "cost.devices"), rec.value("devices").toDouble());
    QVERIFY(
        std::fabs(valueAt(e, "cost.fleet_usd_per_month") / rec.value("usd_per_month").toDouble() -
                  1.0) < 1e-9);
    QVERIFY(std::fabs(valueAt(e, "cost.utilisation") - rec.value("utilisation").toDouble()) < 1e-9);

    // the written scenario simulated at its peak is the decided fleet meeting its targets: the
    // file kept the fleet for the load simulation (it simulated 1 replica and a 392 s p95 first
    // token when the load section was left out of the file)
    const Run simulated = accelCalc({"simulate", path});
    QCOMPARE(simulated.exitCode, 0);
    const QJsonObject load = parseObject(simulated.out);
    QCOMPARE(valueAt(load, "setup.replicas"), rec.value("replicas").toDouble());
    QCOMPARE(load.value("offered_rate_per_second").toDouble() > 0.0, true);
    QVERIFY2(valueAt(load, "ttft_seconds.p95") <= 1.5, simulated.out.constData());
    QVERIFY2(valueAt(load, "tpot_excluding_first_seconds.p95") <= 0.1, simulated.out.constData());

    // nothing passes: exit 2, a message, no file
    const QString none = dir.filePath(QStringLiteral("none.json"));
    const Run refused =
        accelCalc({"decide", scenarioFile("support-assistant"), "-o", none, "--set",
                   "wizard.candidates=[\"lesson-accelerator-24gb\"]", "--set",
                   "wizard.formats=[\"bf16\"]", "--set", "device=\"lesson-accelerator-24gb\""});
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.err.contains("no option passes every check"), refused.err.constData());
    QVERIFY(refused.out.isEmpty());
    QVERIFY(!QFileInfo::exists(none));
}

void Cli::checkReportsUnknownDevices()
{
    const Run run = accelCalc({"check", scenarioFile("support-assistant"), "--devices",
                               "no-such-device,lesson-accelerator"});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.err.contains("--devices: /wizard/candidates/0: warning: "), run.err.constData());
    const QJsonObject root = parseObject(run.out);
    QCOMPARE(root.value("problems").toArray().size(), 1);
    QCOMPARE(root.value("candidates").toArray().size(), 2); // the known one, BF16 and INT8
}

void Cli::badInput_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("where");   // the JSON pointer printed after the file name
    QTest::addColumn<QString>("message"); // a fragment of what is wrong
    QTest::newRow("duplicate key") << "bad/duplicate-key.json"
                                   << "/serving"
                                   << "duplicate key \"batch\"";
    QTest::newRow("batch 0") << "bad/batch-zero.json"
                             << "/serving/batch"
                             << "between 1 and";
    QTest::newRow("layers 3.5") << "bad/layers-not-whole.json"
                                << "/model/layers"
                                << "whole number";
    QTest::newRow("truncated file") << "bad/truncated.json"
                                    << "/"
                                    << "parse error at line 2";
    QTest::newRow("unknown device") << "bad/unknown-device.json"
                                    << "/device"
                                    << "unknown device preset \"h900\"";
    QTest::newRow("model without parameters") << "bad/model-without-parameters.json"
                                              << "/model"
                                              << "needs \"parameters\"";
    QTest::newRow("non-finite number") << "bad/non-finite.json"
                                       << "/serving/context_tokens"
                                       << "not finite";
    QTest::newRow("deep nesting") << "bad/deep-nesting.json"
                                  << "/"
                                  << "deeper than 64";
    QTest::newRow("invalid UTF-8") << "bad/invalid-utf8.json"
                                   << "/"
                                   << "UTF-8";
    QTest::newRow("missing file") << "bad/does-not-exist.json"
                                  << "/"
                                  << "cannot open";
}

void Cli::badInput()
{
    QFETCH(QString, file);
    QFETCH(QString, where);
    QFETCH(QString, message);
    const QString path = fixture(file);
    const Run run = accelCalc({"evaluate", path});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.out.isEmpty(), run.out.constData()); // nothing on standard output
    const QString err = QString::fromUtf8(run.err);
    QVERIFY2(err.startsWith(path + QStringLiteral(": ") + where + QStringLiteral(": ")),
             qPrintable(err));
    QVERIFY2(err.contains(message), qPrintable(err));
}

void Cli::badCommandLines_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    const QString lesson = scenarioFile("lesson-default");
    QTest::newRow("no command") << QStringList{} << "a command is needed";
    QTest::newRow("unknown command") << QStringList{"fly"} << "unknown command";
    QTest::newRow("evaluate without a scenario") << QStringList{"evaluate"} << "needs a SCENARIO";
    QTest::newRow("unknown option")
        << QStringList{"evaluate", lesson, "--frobnicate"} << "unknown option";
    QTest::newRow("--set without a value")
        << QStringList{"evaluate", lesson, "--set"} << "--set needs";
    QTest::newRow("--set malformed")
        << QStringList{"evaluate", lesson, "--set", "batch"} << "expected PATH=VALUE";
    QTest::newRow("--set out of range")
        << QStringList{"evaluate", lesson, "--set", "serving.utilisation=2"} << "warning";
    QTest::newRow("check with an unknown format")
        << QStringList{"check", lesson, "--formats", "bf17"} << "unknown weight format";
    QTest::newRow("sweep without values")
        << QStringList{"sweep", lesson, "--param", "serving.batch"} << "--values";
    // issue #20, item 15
    QTest::newRow("hexadecimal sweep value")
        << QStringList{"sweep",    lesson, "--param",  "serving.batch",
                       "--values", "0x10", "--format", "csv"}
        << "\"0x10\" is not a number";
    QTest::newRow("a sweep of an input the scenario lacks")
        << QStringList{"sweep", lesson, "--param", "serving.bacth", "--values", "1,2"}
        << "--param serving.bacth: the scenario has no such input";
    QTest::newRow("a sweep value out of range, named by its JSON pointer")
        << QStringList{"sweep",    lesson, "--param",  "serving.batch",
                       "--values", "1,0",  "--format", "csv"}
        << ": /serving/batch: Batch size is below the minimum";
    // issue #20, item 10: a device or a huge file is refused at the bound, not read to the end
    QTest::newRow("a character device")
        << QStringList{"evaluate", "/dev/zero"} << "/dev/zero: /: is larger than 64 MB";
    QTest::newRow("a character device as a config")
        << QStringList{"import-hf", "/dev/zero"}
        << "/dev/zero: /: is larger than 64 MB: not a model config";
}

// Issue #20, item 5: a prompt longer than 128k tokens gave no context sweep at all (exit 2 with a
// message about --values, or a header without rows).
void Cli::contextSweepOfALongPrompt()
{
    const Run run = accelCalc({"sweep", scenarioFile("lesson-default"), "--kind", "context",
                               "--set", "serving.context_tokens=300000", "--set",
                               "serving.prompt_tokens=200000", "--format", "csv"});
    QCOMPARE(run.exitCode, 0);
    const QStringList lines =
        QString::fromUtf8(run.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 2 + 4); // stamp, header, 200,000 and three powers of two above it
    QVERIFY(lines[2].startsWith(QStringLiteral("200000,")));
}

// Issue #20, item 10: standard input is bounded like a file.
void Cli::standardInputIsBounded()
{
    const QByteArray huge(qsizetype(64) * 1024 * 1024 + 1, ' ');
    const Run run = accelCalc({"evaluate", "-"}, huge);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains("<stdin>: /: is larger than 64 MB: not a scenario file"),
             run.err.constData());
}

void Cli::badCommandLines()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const Run run = accelCalc(arguments);
    if (message == QStringLiteral("warning")) {
        // serving.utilisation is not a serving key: it is warned about, and the input is valid.
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.contains("/serving/utilisation: warning: unknown key"),
                 run.err.constData());
        return;
    }
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.out.isEmpty());
    QVERIFY2(QString::fromUtf8(run.err).contains(message), run.err.constData());
}

// Issue #24: calibrate -> PROFILE.json -> validate and evaluate --calibration, and a scenario
// that names the profile file beside it.
void Cli::calibrateWritesAProfileThatValidateAndEvaluateUse()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString profile = dir.filePath(QStringLiteral("profile.json"));
    const Run fit = accelCalc({"calibrate", "published", "-o", profile, "--leave-one-out"});
    QCOMPARE(fit.exitCode, 0);
    const QJsonObject result = parseObject(fit.out);
    QCOMPARE(result.value("rows_total").toInt(), 81);
    QVERIFY(result.value("within_15_percent").toInt() >= 64);
    QVERIFY(result.value("leave_one_out").toObject().value("within_15_percent").toInt() >= 51);
    QVERIFY(QFile::exists(profile));
    QVERIFY(!QFile::exists(profile + QStringLiteral(".part")));

    // issue #43, item 4: the error where nobody measured, by engine family and by device
    const Run groups =
        accelCalc({"calibrate", "published", "--leave-out", "engine", "--leave-out", "device"});
    QCOMPARE(groups.exitCode, 0);
    const QJsonObject held = parseObject(groups.out);
    const QJsonObject byDevice = held.value("leave_one_device_out").toObject();
    const QJsonObject byEngine = held.value("leave_one_engine_out").toObject();
    QCOMPARE(byDevice.value("runs").toInt(), 81);
    // 40 before each layer's small kernels were timed (the fixed cost then sat in one overhead
    // per step, whatever the layers)
    QVERIFY(byDevice.value("within_15_percent").toInt() >= 48);
    QVERIFY(byEngine.value("within_15_percent").toInt() >= 44);
    QVERIFY(byDevice.value("by_group").toObject().contains(QStringLiteral("amd-mi300x")));
    QVERIFY(byEngine.value("by_group").toObject().contains(QStringLiteral("tensorrt-llm")));
    for (const char *key : {"median_error", "worst_error", "within_25_percent", "rows"})
        QVERIFY2(byEngine.contains(QLatin1String(key)), key);
    QCOMPARE(accelCalc({"calibrate", "published", "--leave-out", "model"}).exitCode, 2);

    const Run validate = accelCalc({"validate", "published", "--calibration", profile});
    QCOMPARE(validate.exitCode, 0);
    const QJsonObject rows = parseObject(validate.out);
    QCOMPARE(rows.value("rows_total").toInt(), 81);
    const QJsonObject first = rows.value("rows").toArray().first().toObject();
    for (const char *key : {"metric", "measured", "predicted", "predicted_uncalibrated", "ratio"})
        QVERIFY2(first.contains(QLatin1String(key)), key);
    QVERIFY(first.value("predicted").toDouble() < first.value("predicted_uncalibrated").toDouble());

    // issue #43, item 4: evaluate says how near its data the estimate is; an AMD device took
    // the NVIDIA-fitted efficiencies with no remark
    const Run amd = accelCalc({"evaluate", "llama-70b-fleet", "--set", "device=\"amd-mi325x\"",
                               "--set", "serving.tensor_parallel=2"});
    QCOMPARE(amd.exitCode, 0);
    const QJsonObject amdEstimate = parseObject(amd.out).value("estimate").toObject();
    QCOMPARE(amdEstimate.value("reach").toString(), QStringLiteral("class_only"));
    QVERIFY(amdEstimate.value("reach_text")
                .toString()
                .startsWith(QStringLiteral("Outside the fitted data")));
    const Run lesson = accelCalc({"evaluate", "lesson-default"});
    QCOMPARE(parseObject(lesson.out).value("estimate").toObject().value("reach").toString(),
             QStringLiteral("lesson"));

    // issue #43, item 5: without --calibration, validate judges the estimate the app gives by
    // default (each device's own: typical for these real devices), and says so
    const Run byDefault = accelCalc({"validate", "published"});
    QCOMPARE(byDefault.exitCode, 0);
    const QJsonObject defaultRows = parseObject(byDefault.out);
    QCOMPARE(defaultRows.value("rows_total").toInt(), 81);
    const Run typical = accelCalc({"validate", "published", "--calibration", "typical"});
    QCOMPARE(typical.exitCode, 0);
    const QJsonArray typicalRows = parseObject(typical.out).value("rows").toArray();
    const QJsonArray shownRows = defaultRows.value("rows").toArray();
    QCOMPARE(shownRows.size(), typicalRows.size());
    for (qsizetype i = 0; i < shownRows.size(); ++i)
        QCOMPARE(shownRows[i].toObject().value("predicted").toDouble(),
                 typicalRows[i].toObject().value("predicted").toDouble());
    QCOMPARE(defaultRows.value("estimate").toString(), QStringLiteral("each device's default"));
    QVERIFY(QString::fromUtf8(accelCalc({"--help"}).err)
                .contains(QStringLiteral("validate MEASUREMENTS ... [--calibration "
                                         "PROFILE.json|typical|speed_of_light]")));

    const Run plain = accelCalc({"evaluate", "lesson-default"});
    const Run calibrated = accelCalc({"evaluate", "lesson-default", "--calibration", profile});
    QCOMPARE(calibrated.exitCode, 0);
    const QJsonObject a = parseObject(plain.out);
    const QJsonObject b = parseObject(calibrated.out);
    QCOMPARE(valueAt(a, "decode.step_seconds"), 0.018294967296); // the lesson's l.123, exact
    QVERIFY(valueAt(b, "decode.step_seconds") > valueAt(a, "decode.step_seconds"));
    QCOMPARE(b.value("estimate").toObject().value("mode").toString(), QStringLiteral("calibrated"));

    // a scenario naming the profile beside it
    QFile scenario(dir.filePath(QStringLiteral("scenario.json")));
    QVERIFY(scenario.open(QIODevice::WriteOnly));
    scenario.write(R"({"model": "llama-2-7b", "device": "nvidia-a100-80gb-sxm",
                      "calibration": {"profile": "profile.json", "engine": "gpt-fast"}})");
    scenario.close();
    const Run beside = accelCalc({"evaluate", scenario.fileName()});
    QCOMPARE(beside.exitCode, 0);
    QVERIFY2(parseObject(beside.out)
                 .value("estimate")
                 .toObject()
                 .value("label")
                 .toString()
                 .contains(QStringLiteral("gpt-fast")),
             beside.out.constData());
    QVERIFY(QFile::remove(profile));
    const Run missing = accelCalc({"evaluate", scenario.fileName()});
    QCOMPARE(missing.exitCode, 2);
    QVERIFY(missing.err.contains("/calibration/profile"));
}

void Cli::calibrateReportsBadRowsByLineAndColumn()
{
    // issue #41, item 7: a profile that cannot be written says why, not only "cannot be written"
    const Run unwritable =
        accelCalc({"calibrate", "published", "-o", "/nonexistent-folder-of-accel/profile.json"});
    QCOMPARE(unwritable.exitCode, 2);
    QVERIFY2(unwritable.err.contains("cannot be written: No such file or directory"),
             unwritable.err.constData());

    QTemporaryDir dir;
    QFile csv(dir.filePath(QStringLiteral("runs.csv")));
    QVERIFY(csv.open(QIODevice::WriteOnly));
    csv.write("model,device,weight_format,kv_format,compute_format,quant_group_size,"
              "quant_scale_bits,quant_zero_bits,batch,context_tokens,prompt_tokens,"
              "tensor_parallel,metric,value,engine,source\n"
              "llama-2-7b,nvidia-a100-80gb-sxm,bf16,bf16,,,,,1,128,64,1,"
              "decode_tokens_per_second_per_sequence,100,e,s\n"
              "llama-2-7b,nvidia-a100-80gb-sxm,bf16,bf16,,,,,1,128,64,1,speed,100,e,s\n");
    csv.close();
    const Run run = accelCalc({"calibrate", csv.fileName()});
    QCOMPARE(run.exitCode, 0); // the good row is still fitted
    QVERIFY2(run.err.contains("runs.csv:3:") && run.err.contains("(metric)"), run.err.constData());
    const Run nothing = accelCalc({"calibrate", fixture(QStringLiteral("measurements/README.md"))});
    QCOMPARE(nothing.exitCode, 2);
    const Run noModel =
        accelCalc({"calibrate", fixture(QStringLiteral("measurements/llama-bench-rtx4080.json"))});
    QCOMPARE(noModel.exitCode, 2);
    QVERIFY(noModel.err.contains("--model"));
    // a typo in the tensor parallel must not be read as "0 devices"
    for (const char *bad : {"abc", "0", "2.5", "-4", "1e9"}) {
        const Run typo = accelCalc({"calibrate", "published", "--tensor-parallel", bad});
        QCOMPARE(typo.exitCode, 2);
        QVERIFY2(typo.err.contains("--tensor-parallel needs a whole number") &&
                     typo.err.contains(bad),
                 typo.err.constData());
    }
    QCOMPARE(accelCalc({"validate", "published", "--tensor-parallel"}).exitCode, 2);
}

// accel-calc simulate (issue #26): the run's percentiles as JSON, the same seed twice the same
// output, CSV and the curve.
void Cli::operatorsAndEngineTechniques()
{
    // --operators: both phases, every operator, totals beside the whole-model figures
    const Run run =
        accelCalc({"evaluate", "lesson-default", "--operators", "--set", "model=llama-2-7b",
                   "--set", "engine.speculative_tokens=4", "--set", "engine.draft_kind=heads",
                   "--set", "engine.draft_parameters=2e8", "--set", "engine.prefix_tokens=2000"});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QJsonObject out = QJsonDocument::fromJson(run.out).object();
    const QJsonObject decode = out["operators"].toObject()["decode"].toObject();
    QCOMPARE(decode["phase"].toString(), QStringLiteral("decode"));
    const QJsonArray ops = decode["operators"].toArray();
    QCOMPARE(ops.first().toObject()["name"].toString(), QStringLiteral("attn_norm"));
    // 13 per layer (attention one fused kernel) + final norm, lm_head, the embedding lookup
    QCOMPARE(ops.size(), 16);
    QCOMPARE(decode["attention_kernel"].toString(), QStringLiteral("fused"));
    // every parameter of Llama-2-7B belongs to an operator
    QCOMPARE(decode["totals"].toObject()["parameters"].toDouble(), 6738415616.0);
    QCOMPARE(decode["model"].toObject()["flops"].toDouble(),
             out["decode"].toObject()["flops_per_step"].toDouble());
    QVERIFY(!decode["differences"].toArray().isEmpty());
    QVERIFY(out["operators"].toObject().contains("prefill"));
    // LLM-Viewer's accounting on request: QK^T, softmax and scores x V apart (15 per layer)
    const Run unfused = accelCalc({"evaluate", "lesson-default", "--operators",
                                   "--unfused-attention", "--set", "model=llama-2-7b"});
    QVERIFY2(unfused.exitCode == 0, unfused.err.constData());
    const QJsonObject unfusedDecode =
        QJsonDocument::fromJson(unfused.out).object()["operators"].toObject()["decode"].toObject();
    QCOMPARE(unfusedDecode["operators"].toArray().size(), 18);
    QCOMPARE(unfusedDecode["attention_kernel"].toString(), QStringLiteral("unfused"));
    // the engine's techniques the scenario switches on, and only those
    const QJsonObject engine = out["engine"].toObject();
    QCOMPARE(engine["speculative"].toObject()["tokens_per_verify_step"].toDouble(),
             (1 - std::pow(0.7, 5)) / 0.3);
    QVERIFY(engine["prefix_cache"].toObject()["prefill_seconds_with"].toDouble() <
            engine["prefix_cache"].toObject()["prefill_seconds_without"].toDouble());
    QVERIFY(!engine.contains("disaggregation"));
    // without the section, no engine group; a model the breakdown cannot take exits 2 naming it
    const Run plain = accelCalc({"evaluate", "lesson-default"});
    QVERIFY(!QJsonDocument::fromJson(plain.out).object().contains("engine"));
    QVERIFY(!QJsonDocument::fromJson(plain.out).object().contains("operators"));
    const Run latent =
        accelCalc({"evaluate", "lesson-default", "--operators", "--set", "model=deepseek-v3"});
    QCOMPARE(latent.exitCode, 2);
    QVERIFY(latent.err.contains("/model"));
    QVERIFY(latent.err.contains("latent"));
}

void Cli::simulatePrintsPercentilesAndLittlesLaw()
{
    const QStringList args{"simulate",   "lesson-default",
                           "--rate",     "3",
                           "--requests", "1500",
                           "--set",      "serving.prompt_tokens=1000",
                           "--set",      "load.output_mean=200"};
    const Run run = accelCalc(args);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QJsonObject out = QJsonDocument::fromJson(run.out).object();
    QCOMPARE(out.value("requests").toInt(), 1500);
    QCOMPARE(out.value("completed").toInt(), 1500);
    QVERIFY(out.contains("app_version"));
    const QJsonObject ttft = out.value("ttft_seconds").toObject();
    QVERIFY(ttft.value("p50").toDouble() <= ttft.value("p95").toDouble());
    QVERIFY(ttft.value("p50").toDouble() >= out.value("ttft_floor_seconds").toDouble());
    QVERIFY(out.contains("tpot_excluding_first_seconds"));
    QVERIFY(out.contains("tpot_including_first_seconds"));
    const QJsonObject little = out.value("little").toObject();
    QVERIFY(std::fabs(little.value("mean_in_system").toDouble() -
                      little.value("rate_times_mean_latency").toDouble()) <=
            1e-9 * little.value("mean_in_system").toDouble());
    QCOMPARE(out.value("setup").toObject().value("rate_per_second").toDouble(), 3.0);
    QVERIFY(out.value("timeline").toObject().value("rows").toArray().size() > 10);
    QCOMPARE(accelCalc(args).out, run.out); // the same seed, the same run, byte for byte

    const Run csv = accelCalc(args + QStringList{"--format", "csv"});
    QCOMPARE(csv.exitCode, 0);
    const QList<QByteArray> lines = csv.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 2);
    QVERIFY(lines[0].startsWith("rate_per_second,requests,completed,cut,ttft_p50_s"));

    const Run curve = accelCalc(args + QStringList{"--curve", "5", "--requests", "400"});
    QVERIFY2(curve.exitCode == 0, curve.err.constData());
    const QJsonObject c = QJsonDocument::fromJson(curve.out).object();
    QCOMPARE(c.value("points").toArray().size(), 5);
    QCOMPARE(c.value("requests_per_point").toInt(), 400);
    QVERIFY(c.value("knee_rate_per_second").toDouble() > 0);
}

// A trace named relative to the scenario file is read from beside it; its bad line is named.
void Cli::simulateReadsATraceBesideTheScenario()
{
    QTemporaryDir dir;
    QFile scenario(dir.filePath(QStringLiteral("s.json")));
    QVERIFY(scenario.open(QIODevice::WriteOnly));
    scenario.write(R"({"format": "accel-explorer/scenario", "version": 1,
                       "load": {"arrivals": "trace", "trace_file": "t.csv"}})");
    scenario.close();
    QFile trace(dir.filePath(QStringLiteral("t.csv")));
    QVERIFY(trace.open(QIODevice::WriteOnly));
    trace.write("timestamp,prompt_tokens,output_tokens\n0,100,10\n0.5,200,20\n1.0,300,5\n");
    trace.close();
    const Run run = accelCalc({"simulate", scenario.fileName()});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QJsonObject out = QJsonDocument::fromJson(run.out).object();
    QCOMPARE(out.value("completed").toInt(), 3);
    QCOMPARE(out.value("setup").toObject().value("arrivals").toString(), QStringLiteral("trace"));

    QVERIFY(trace.open(QIODevice::WriteOnly | QIODevice::Truncate));
    trace.write("timestamp,prompt_tokens,output_tokens\n0,100,10\n2,200,20\n1.0,300,5\n");
    trace.close();
    const Run unsorted = accelCalc({"simulate", scenario.fileName()});
    QCOMPARE(unsorted.exitCode, 2);
    QVERIFY2(unsorted.err.contains("t.csv line 4, column timestamp"), unsorted.err.constData());
    QVERIFY(unsorted.out.isEmpty());
}

void Cli::simulateRefusesBadLoads()
{
    const Run rate = accelCalc({"simulate", "lesson-default", "--rate", "0"});
    QCOMPARE(rate.exitCode, 2);
    QVERIFY2(rate.err.contains("builtin:lesson-default: /load/rate_per_second"),
             rate.err.constData());
    const Run prompt = accelCalc({"simulate", "lesson-default", "--set", "model.max_context=4096",
                                  "--set", "load.prompt_mean=5000"});
    QCOMPARE(prompt.exitCode, 2);
    QVERIFY2(prompt.err.contains("/load/prompt_mean") &&
                 prompt.err.contains("4096-token context limit"),
             prompt.err.constData());
    const Run budget = accelCalc({"simulate", "lesson-default", "--set", "load.chunked_prefill=0",
                                  "--set", "load.token_budget=1024"});
    QCOMPARE(budget.exitCode, 2);
    QVERIFY2(budget.err.contains("/load/token_budget"), budget.err.constData());
    QCOMPARE(accelCalc({"simulate", "lesson-default", "--curve", "1"}).exitCode, 2);
    QCOMPARE(accelCalc({"simulate", "lesson-default", "--requests"}).exitCode, 2);
    QCOMPARE(accelCalc({"simulate", "lesson-default", "--requests", "abc"}).exitCode, 2);
}

void Cli::trainPrintsThePlanAndSearch()
{
    // issue #45: the plan's figures as top-level keys, finite, and --search's shapes
    const Run run = accelCalc({QStringLiteral("train"), QStringLiteral("lesson-default"),
                               QStringLiteral("--set"), QStringLiteral("training.devices=8"),
                               QStringLiteral("--set"), QStringLiteral("training.tokens=1e10"),
                               QStringLiteral("--search")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(!run.out.contains("nan") && !run.out.contains("inf"), run.out.constData());
    const QJsonObject root = parseObject(run.out);
    const QJsonObject layout = root[u"layout"].toObject();
    for (const char *key : {"tensor_parallel", "pipeline_parallel", "data_parallel",
                            "expert_parallel", "zero_stage", "micro_batch", "global_batch"})
        QVERIFY2(layout[QLatin1String(key)].toDouble() >= 1.0 ||
                     (QLatin1String(key) == QLatin1String("zero_stage") &&
                      layout[QLatin1String(key)].isDouble()),
                 key);
    QVERIFY(layout[u"recompute"].isString());
    QCOMPARE(layout[u"tensor_parallel"].toDouble() * layout[u"pipeline_parallel"].toDouble() *
                 layout[u"data_parallel"].toDouble() * layout[u"context_parallel"].toDouble(),
             8.0);
    for (const char *key :
         {"memory_per_device_bytes", "step_seconds", "mfu", "tokens_per_second_per_device", "days",
          "device_hours", "usd", "checkpoint_interval_seconds", "expected_interruptions"})
        QVERIFY2(root[QLatin1String(key)].toDouble() > 0.0, key);
    // the lesson's 7B needs 112 GB of state: no unsharded shape fits one 80 GB device
    QVERIFY(root[u"memory_per_device_bytes"].toDouble() <= 80e9);
    const QJsonObject search = root[u"search"].toObject();
    QVERIFY(!search[u"ranked"].toArray().isEmpty());
    for (const QJsonValue shape : search[u"rejected"].toArray())
        QVERIFY(!shape.toObject()[u"reason"].toString().isEmpty());
    QCOMPARE(root[u"estimate"].toString(), QStringLiteral("speed of light"));
}

// A hostile review (issue #45): `check` of a 25-minute fine-tune gave a month's cost of
// $6.4 M, TP 1 beside a TP 8 shape and 1.65 TB per device beside a memory check of 61.5 GB
void Cli::checkAndTrainGiveOneRun()
{
    const Run check = accelCalc({QStringLiteral("check"), QStringLiteral("training-70b-finetune")});
    QCOMPARE(check.exitCode, 0);
    const QJsonObject root = parseObject(check.out);
    const QJsonObject rec = root[u"recommendation"].toObject();
    // the recommended device's run, as `train --search` plans it on that device
    const Run train = accelCalc({QStringLiteral("train"), QStringLiteral("training-70b-finetune"),
                                 QStringLiteral("--search"), QStringLiteral("--set"),
                                 QStringLiteral("device=%1").arg(rec[u"device"].toString())});
    QCOMPARE(train.exitCode, 0);
    const QJsonObject plan = parseObject(train.out);
    const QJsonObject layout = plan[u"layout"].toObject();
    QCOMPARE(rec[u"tensor_parallel"].toDouble(), layout[u"tensor_parallel"].toDouble());
    QCOMPARE(rec[u"pipeline_parallel"].toDouble(), layout[u"pipeline_parallel"].toDouble());
    QCOMPARE(rec[u"devices"].toDouble(), plan[u"devices"].toDouble());
    QCOMPARE(rec[u"memory_per_device_bytes"].toDouble(),
             plan[u"memory_per_device_bytes"].toDouble());
    QCOMPARE(rec[u"run_usd"].toDouble(), plan[u"usd"].toDouble());
    QCOMPARE(rec[u"run_days"].toDouble(), plan[u"days"].toDouble());
    QVERIFY(rec[u"usd_per_month"].isNull()); // a run is priced whole
    QVERIFY(!rec.contains(u"batch"));
    for (const QJsonValue c : root[u"candidates"].toArray()) {
        QVERIFY(c.toObject()[u"monthly_cost_usd"].isNull() || !c.toObject().contains(u"run_usd"));
        // no month in the checks' figures either (a new user found $796,108.80 there)
        for (const QJsonValue ch : c.toObject()[u"checks"].toArray())
            QVERIFY(!ch.toObject()[u"figures"].toObject().contains(u"monthly_cost_usd"));
    }
    // outlook prices the same run, not a month of its devices
    const Run outlook =
        accelCalc({QStringLiteral("outlook"), QStringLiteral("training-70b-finetune")});
    QCOMPARE(outlook.exitCode, 0);
    const QJsonObject cost = parseObject(outlook.out)[u"cost"].toObject();
    QCOMPARE(cost[u"run_usd"].toDouble(), rec[u"run_usd"].toDouble());
    QCOMPARE(cost[u"run_days"].toDouble(), rec[u"run_days"].toDouble());
    QVERIFY(cost[u"usd_per_month"].isNull());
    for (const QJsonValue option : parseObject(outlook.out)[u"alternatives"].toArray())
        QVERIFY(option.toObject()[u"usd_per_month"].isNull() &&
                option.toObject()[u"run_usd"].isDouble());
}

void Cli::trainRefusesWhatCannotRun_data()
{
    QTest::addColumn<QStringList>("sets");
    QTest::addColumn<QString>("reason");
    QTest::newRow("degrees that do not make the count")
        << QStringList{QStringLiteral("training.devices=8"),
                       QStringLiteral("training.tensor_parallel=2"),
                       QStringLiteral("training.pipeline_parallel=2"),
                       QStringLiteral("training.data_parallel=4"),
                       QStringLiteral("training.context_parallel=1")}
        << QStringLiteral("= 16 devices, not the 8 of training.devices");
    QTest::newRow("a format the device lacks")
        << QStringList{QStringLiteral("training.devices=8"), QStringLiteral("training.format=fp8")}
        << QStringLiteral("states no FP8 peak");
    QTest::newRow("one device cannot hold the state")
        << QStringList{QStringLiteral("training.devices=1")} << QStringLiteral("per device");
}

void Cli::trainRefusesWhatCannotRun()
{
    QFETCH(QStringList, sets);
    QFETCH(QString, reason);
    QStringList arguments{QStringLiteral("train"), QStringLiteral("lesson-default")};
    for (const QString &set : sets)
        arguments << QStringLiteral("--set") << set;
    const Run run = accelCalc(arguments);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.out.isEmpty(), run.out.constData());
    QVERIFY2(run.err.contains("/training: "), run.err.constData());
    QVERIFY2(QString::fromUtf8(run.err).contains(reason), run.err.constData());
}

QTEST_GUILESS_MAIN(Cli)
#include "tst_cli.moc"
