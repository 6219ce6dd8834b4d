// SPDX-License-Identifier: GPL-3.0-or-later
// ScenarioDocument without widgets: coalesced change signals, merged undo steps, refusals that
// change nothing, and atomic save / open.

#include "tools/testpaths.h"
#include "views/document/scenariodocument.h"
#include "views/io/atomicwriter.h"
#include "views/widgets/scenariopanel.h"

#include "core/data/presets.h"
#include "core/data/scenarioio.h"
#include "core/decide/comparison.h"
#include "core/physics/explain.h"

#include <QDir>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using views::ScenarioDocument;

class ScenarioDocumentTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QCoreApplication::setApplicationName(QStringLiteral("accel-tests")); }
    void burstOfEditsEmitsOnce();
    void devicesAndHugeFilesAreRefusedAtTheBound();
    void unchangedValueEmitsNothingAndPushesNothing();
    void sliderDragIsOneUndoStep();
    void dragBackToStartLeavesNothingToUndo();
    void differentInputsAreSeparateSteps();
    void refusedValueChangesNothing();
    void formatAndPresetChangesAreUndoable();
    void saveAndOpenRoundTrip();
    void panelFileAndCompareAgreeOnADevice_data();
    void panelFileAndCompareAgreeOnADevice();
    void badFileChangesNothing();
    void aFailingWriterLeavesTheOldFile();
    void unitsChangeDisplayOnly();
    void importModelIsOneUndoStep();
    void importModelFolder();
    void importedCheckpointKeepsItsPartFormats();
    void anEditIsWhatSetGives_data();
    void anEditIsWhatSetGives();
};

void ScenarioDocumentTest::burstOfEditsEmitsOnce()
{
    ScenarioDocument doc;
    doc.flush();
    QSignalSpy spy(&doc, &ScenarioDocument::changed);
    for (int batch = 9; batch < 30; ++batch)
        QVERIFY(doc.setNumber(QStringLiteral("serving.batch"), batch));
    QCOMPARE(spy.count(), 0); // coalesced: nothing until the event loop runs
    QTRY_COMPARE(spy.count(), 1);
    const auto changes = spy.first().first().value<ScenarioDocument::Changes>();
    QVERIFY(changes.testFlag(ScenarioDocument::Inputs));
    QVERIFY(changes.testFlag(ScenarioDocument::Results));
    QCOMPARE(doc.evaluation()[core::FigureId::DecodeBatch], 29.0);
    QTest::qWait(20);
    QCOMPARE(spy.count(), 1); // and no spurious second emission
}

void ScenarioDocumentTest::unchangedValueEmitsNothingAndPushesNothing()
{
    ScenarioDocument doc;
    doc.flush();
    QSignalSpy spy(&doc, &ScenarioDocument::changed);
    QVERIFY(doc.setNumber(QStringLiteral("serving.batch"), 8)); // already 8
    QTest::qWait(20);
    QCOMPARE(spy.count(), 0);
    QCOMPARE(doc.undoStack()->count(), 0);
    QVERIFY(!doc.isModified());
}

void ScenarioDocumentTest::sliderDragIsOneUndoStep()
{
    ScenarioDocument doc;
    for (int batch : {9, 12, 16, 24, 32})
        QVERIFY(doc.setNumber(QStringLiteral("serving.batch"), batch));
    QCOMPARE(doc.undoStack()->count(), 1);
    QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Change Batch Size"));
    QVERIFY(doc.isModified());
    doc.undoStack()->undo();
    QCOMPARE(doc.scenario().serving.batch, 8.0);
    QVERIFY(!doc.isModified());
    doc.undoStack()->redo();
    QCOMPARE(doc.scenario().serving.batch, 32.0);
    QCOMPARE(doc.evaluation()[core::FigureId::DecodeBatch], 32.0);
    doc.undoStack()->undo();
    QVERIFY(!doc.undoStack()->canUndo());
}

void ScenarioDocumentTest::dragBackToStartLeavesNothingToUndo()
{
    ScenarioDocument doc;
    QVERIFY(doc.setNumber(QStringLiteral("serving.batch"), 16));
    QVERIFY(doc.setNumber(QStringLiteral("serving.batch"), 8));
    QVERIFY(!doc.undoStack()->canUndo());
    QVERIFY(!doc.isModified());
}

void ScenarioDocumentTest::differentInputsAreSeparateSteps()
{
    ScenarioDocument doc;
    QVERIFY(doc.setNumber(QStringLiteral("serving.batch"), 16));
    QVERIFY(doc.setNumber(QStringLiteral("serving.context_tokens"), 2048));
    QVERIFY(doc.setNumber(QStringLiteral("serving.batch"), 32));
    QCOMPARE(doc.undoStack()->count(), 3);
    doc.undoStack()->undo();
    QCOMPARE(doc.scenario().serving.batch, 16.0);
    QCOMPARE(doc.scenario().serving.contextTokens, 2048.0);
    doc.undoStack()->undo();
    QCOMPARE(doc.scenario().serving.contextTokens, 4096.0);
    QCOMPARE(doc.scenario().serving.promptTokens, 4096.0); // the prompt came back with it
}

void ScenarioDocumentTest::refusedValueChangesNothing()
{
    ScenarioDocument doc;
    QString error;
    QVERIFY(!doc.setNumber(QStringLiteral("serving.batch"), 0, &error));
    QVERIFY2(error.contains(QStringLiteral("Batch size")), qPrintable(error));
    QVERIFY(!doc.setNumber(QStringLiteral("serving.overhead_gb"), 500, &error));
    QVERIFY2(error.contains(QStringLiteral("device memory")), qPrintable(error));
    QCOMPARE(doc.undoStack()->count(), 0);
    QCOMPARE(doc.scenario().serving.batch, 8.0);
}

void ScenarioDocumentTest::formatAndPresetChangesAreUndoable()
{
    ScenarioDocument doc;
    doc.setWeightFormat(core::NumericFormat::Int8);
    QCOMPARE(doc.evaluation()[core::FigureId::WeightsBytes], 7e9);
    QString error;
    QVERIFY(doc.setDevicePreset(QStringLiteral("lesson-accelerator-24gb"), &error));
    QCOMPARE(doc.evaluation()[core::FigureId::CapacityBytes], 24e9);
    QVERIFY(!doc.setDevicePreset(QStringLiteral("no-such-device"), &error));
    QVERIFY(error.contains(QStringLiteral("unknown device preset")));
    QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Change Device"));
    doc.undoStack()->undo();
    doc.undoStack()->undo();
    QCOMPARE(doc.evaluation()[core::FigureId::WeightsBytes], 14e9);
    QCOMPARE(doc.evaluation()[core::FigureId::CapacityBytes], 80e9);
}

void ScenarioDocumentTest::saveAndOpenRoundTrip()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("s.json"));
    ScenarioDocument doc;
    QVERIFY(doc.setNumber(QStringLiteral("serving.batch"), 32));
    QString error;
    QVERIFY2(doc.save(path, &error), qPrintable(error));
    QVERIFY(!doc.isModified());
    QCOMPARE(doc.filePath(), QFileInfo(path).absoluteFilePath());
    ScenarioDocument other;
    QVERIFY2(other.open(path, &error), qPrintable(error));
    QCOMPARE(other.scenario().serving.batch, 32.0);
    QVERIFY(!other.isModified());
    QCOMPARE(core::writeScenario(other.scenario()), core::writeScenario(doc.scenario()));
}

void ScenarioDocumentTest::panelFileAndCompareAgreeOnADevice_data()
{
    QTest::addColumn<QString>("device");
    QTest::addColumn<QString>("priceOrigin");
    QTest::newRow("H100 SXM, $4.26/h") << "nvidia-h100-sxm"
                                       << "device's price";
    QTest::newRow("Gaudi 3, no price") << "intel-gaudi3"
                                       << "price needed";
}

// Issue #19: picking a device in the panel kept the old price and power while opening a file
// naming that device used the device's own. The panel, the saved-and-reopened file and the
// Compare tab now give one price, one power and the same figures.
void ScenarioDocumentTest::panelFileAndCompareAgreeOnADevice()
{
    QFETCH(QString, device);
    QFETCH(QString, priceOrigin);
    ScenarioDocument doc;
    QVERIFY(doc.setNumber(QStringLiteral("cost.price_per_hour_usd"), 9.5)); // typed for device A
    QString error;
    QVERIFY2(doc.setDevicePreset(device, &error), qPrintable(error));
    const core::Scenario panel = doc.scenario();
    QVERIFY(panel.cost.pricePerHourUsd != 9.5 || std::isnan(panel.cost.pricePerHourUsd));
    QVERIFY(QString::fromStdString(core::provenanceOf(panel, "cost.price_per_hour_usd"))
                .startsWith(priceOrigin));

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("moved.json"));
    QVERIFY2(doc.save(path, &error), qPrintable(error));
    ScenarioDocument reopened;
    QVERIFY2(reopened.open(path, &error), qPrintable(error));

    core::ScenarioVariant variant;
    variant.deviceId = device.toStdString();
    doc.undoStack()->undo(); // back to A, as the Compare tab sees it
    auto compared = core::applyVariant(doc.scenario(), variant);
    QVERIFY(compared);

    const core::Evaluation expected = core::evaluate(panel);
    for (const core::Scenario &other : {reopened.scenario(), compared.value()}) {
        QCOMPARE(std::isnan(other.cost.pricePerHourUsd), std::isnan(panel.cost.pricePerHourUsd));
        QCOMPARE(other.power.deviceW, panel.power.deviceW);
        const core::Evaluation e = core::evaluate(other);
        for (std::size_t i = 0; i < core::kFigureCount; ++i)
            QVERIFY2((std::isnan(e.values[i]) && std::isnan(expected.values[i])) ||
                         e.values[i] == expected.values[i],
                     core::figureTable()[i].key.data());
    }
}

// Every file the app writes goes through views::writeAtomically (tests/views/onewriter.cmake
// refuses any other way): a writer that fails half-way leaves the old file whole.
void ScenarioDocumentTest::aFailingWriterLeavesTheOldFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("report.pdf"));
    QVERIFY(views::writeAtomically(path, QByteArray("the old file"), nullptr));
    QString error;
    const bool written = views::writeAtomically(
        path,
        [](QIODevice &device, QString *reason) {
            device.write("half a new file");
            *reason = QStringLiteral("the disk filled up");
            return false;
        },
        &error);
    QVERIFY(!written);
    QVERIFY2(error.startsWith(path) && error.contains(QStringLiteral("the disk filled up")),
             qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("the old file"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("report.pdf")});

    // a save into a folder that does not exist fails with the path and leaves nothing behind
    ScenarioDocument doc;
    QVERIFY(doc.setNumber(QStringLiteral("serving.batch"), 16));
    const QString missing = dir.filePath(QStringLiteral("no/such/folder/s.json"));
    QVERIFY(!doc.save(missing, &error));
    QVERIFY2(error.startsWith(missing), qPrintable(error));
    QVERIFY(doc.isModified());
}

void ScenarioDocumentTest::badFileChangesNothing()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bad.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"serving": {"batch": 0}})");
    file.close();
    ScenarioDocument doc;
    QVERIFY(doc.setNumber(QStringLiteral("serving.batch"), 16));
    QString error;
    QVERIFY(!doc.open(path, &error));
    QVERIFY2(error.startsWith(path + QStringLiteral(": /serving/batch: ")), qPrintable(error));
    QCOMPARE(doc.scenario().serving.batch, 16.0); // the current scenario stays
    QCOMPARE(doc.undoStack()->count(), 1);
    QVERIFY(!doc.open(dir.filePath(QStringLiteral("missing.json")), &error));
    QVERIFY(error.contains(QStringLiteral("cannot be opened")));
}

void ScenarioDocumentTest::unitsChangeDisplayOnly()
{
    ScenarioDocument doc;
    doc.flush();
    QSignalSpy spy(&doc, &ScenarioDocument::changed);
    doc.setUnits(core::MemoryUnits::GiB);
    QTRY_COMPARE(spy.count(), 1);
    const auto changes = spy.first().first().value<ScenarioDocument::Changes>();
    QCOMPARE(changes, ScenarioDocument::Changes(ScenarioDocument::Units));
    QCOMPARE(doc.undoStack()->count(), 0);
}

void ScenarioDocumentTest::importModelIsOneUndoStep()
{
    ScenarioDocument doc;
    QString error;
    QVERIFY2(doc.importModel((testpaths::fixturesDir() + QStringLiteral("/hf/llama-3.1-8b.json")),
                             &error),
             qPrintable(error));
    QCOMPARE(doc.scenario().model.parameters, 8030261248.0);
    QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Import Model"));
    QVERIFY(!doc.importModel((testpaths::fixturesDir() + QStringLiteral("/hf/bert-base.json")),
                             &error));
    QVERIFY2(error.contains(QStringLiteral("/model_type: ")) &&
                 error.contains(QStringLiteral("unknown architecture")),
             qPrintable(error));
    QCOMPARE(doc.scenario().model.parameters, 8030261248.0); // the refused import changed nothing
    // issue #22: an FP8 checkpoint is served as FP8, in the same undo step as the model
    QVERIFY(doc.scenario().serving.weightFormat != core::NumericFormat::Fp8);
    QVERIFY2(doc.importModel((testpaths::fixturesDir() + QStringLiteral("/hf/deepseek-v3.json")),
                             &error),
             qPrintable(error));
    QVERIFY(doc.scenario().serving.weightFormat == core::NumericFormat::Fp8);
    QCOMPARE(doc.scenario().model.layerGroups.size(), std::size_t(2));
    doc.undoStack()->undo();
    QVERIFY(doc.scenario().serving.weightFormat != core::NumericFormat::Fp8);
    QCOMPARE(doc.scenario().model.parameters, 8030261248.0);
    doc.undoStack()->undo();
    QCOMPARE(doc.scenario().model.presetId, std::string("lesson-7b"));
}

// Issue #44, item 4: gpt-oss imported as the app imports it weighs its published total_size
// (13,761,264,768 bytes: MXFP4 experts beside BF16 attention, router, norms, embedding and head;
// tst_hfimport cites it); the scenario panel says which parts keep which format and its link
// puts every part in the weight format, one undo step; a save and reopen keeps the parts.
void ScenarioDocumentTest::importedCheckpointKeepsItsPartFormats()
{
    ScenarioDocument doc;
    QString error;
    QVERIFY2(
        doc.importModel(testpaths::fixturesDir() + QStringLiteral("/hf/gpt-oss-20b.json"), &error),
        qPrintable(error));
    const double published = 13761264768.0;
    QCOMPARE(doc.evaluation()[core::FigureId::WeightsBytes], published);
    views::ScenarioPanel panel(&doc);
    panel.show();
    const QString parts = panel.partFormatsText();
    QVERIFY2(parts.contains(QStringLiteral("routed experts MXFP4")) &&
                 parts.contains(QStringLiteral("attention")) &&
                 parts.contains(QStringLiteral("BF16")) && !parts.contains(QStringLiteral("dense")),
             qPrintable(parts));
    auto *note = panel.findChild<QLabel *>(QStringLiteral("partFormatsNote"));
    QVERIFY(note);
    emit note->linkActivated(QStringLiteral("one"));
    QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Use One Weight Format"));
    QCOMPARE(doc.evaluation()[core::FigureId::WeightsBytes],
             doc.scenario().model.parameters * 0.53125);
    QTRY_VERIFY(panel.partFormatsText().isEmpty());
    doc.undoStack()->undo();
    QCOMPARE(doc.evaluation()[core::FigureId::WeightsBytes], published);
    // saved and opened again: the parts and their formats are in the file
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("oss.json"));
    QVERIFY2(doc.save(path, &error), qPrintable(error));
    ScenarioDocument reopened;
    QVERIFY2(reopened.open(path, &error), qPrintable(error));
    QCOMPARE(reopened.evaluation()[core::FigureId::WeightsBytes], published);
}

// Issue #44, item 5: a downloaded model folder whose shards are still missing: the config's model,
// the index's total_size checked against it (2 bytes a parameter of bfloat16), one undo step; a
// folder without a config.json is refused and changes nothing.
void ScenarioDocumentTest::importModelFolder()
{
    QTemporaryDir dir;
    QVERIFY(QFile::copy(testpaths::fixturesDir() + QStringLiteral("/hf/llama-3.1-8b.json"),
                        dir.filePath(QStringLiteral("config.json"))));
    QFile index(dir.filePath(QStringLiteral("model.safetensors.index.json")));
    QVERIFY(index.open(QIODevice::WriteOnly));
    index.write(R"({"metadata": {"total_size": 16060522496},
                    "weight_map": {"lm_head.weight": "model-00004-of-00004.safetensors"}})");
    index.close();
    ScenarioDocument doc;
    QString error;
    QStringList notes;
    QVERIFY2(doc.importModel(dir.path(), &error, &notes), qPrintable(error));
    QCOMPARE(doc.scenario().model.parameters, 8030261248.0);
    QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Import Model"));
    QVERIFY2(notes.join(QLatin1Char('\n')).contains(QStringLiteral("the config's rule agrees")),
             qPrintable(notes.join(QLatin1Char('\n'))));
    QTemporaryDir empty;
    QVERIFY(!doc.importModel(empty.path(), &error));
    QVERIFY2(error.contains(QStringLiteral("no config.json")), qPrintable(error));
    QCOMPARE(doc.undoStack()->count(), 1);
}

// Issue #20, item 10: the 64 MB guard asked QFile::size(), which is 0 for /dev/zero; reading then
// filled memory. The bound holds for devices too, and the document is unchanged.
void ScenarioDocumentTest::devicesAndHugeFilesAreRefusedAtTheBound()
{
    views::ScenarioDocument doc;
    doc.reset(core::lessonDefaultScenario());
    QVERIFY(doc.setNumber(QStringLiteral("serving.batch"), 7));
    doc.flush();
    QString error;
    QVERIFY(!doc.open(QStringLiteral("/dev/zero"), &error));
    QCOMPARE(error, QStringLiteral("/dev/zero: is larger than 64 MB: not a scenario file"));
    QVERIFY(!doc.importModel(QStringLiteral("/dev/zero"), &error));
    QCOMPARE(error, QStringLiteral("/dev/zero: is larger than 16 MB: not a model config"));
    QCOMPARE(doc.scenario().serving.batch, 7.0);
    QVERIFY(doc.isModified());
}

void ScenarioDocumentTest::anEditIsWhatSetGives_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("path");
    QTest::addColumn<double>("value");
    // files that leave the prompt or the batch out: the reader takes the context and the
    // concurrent sequences for them
    QTest::newRow("context, no prompt") << "batching-32"
                                        << "serving.context_tokens" << 8192.0;
    QTest::newRow("context shorter, no prompt") << "toy-decode"
                                                << "serving.context_tokens" << 512.0;
    QTest::newRow("concurrency, no batch") << "cost-example"
                                           << "serving.concurrent_sequences" << 48.0;
    QTest::newRow("context, a prompt given") << "lesson-default"
                                             << "serving.context_tokens" << 8192.0;
}

// One decision, one answer: moving an input in the app gives the figures `accel-calc evaluate
// --set PATH=VALUE` (and every sweep format) gives for the same file. The app kept a file's
// unstated prompt where the context moved (TTFT 0.30 s in the app, 0.59 s from the CLI at
// 8,192 tokens for batching-32).
void ScenarioDocumentTest::anEditIsWhatSetGives()
{
    QFETCH(QString, preset);
    QFETCH(QString, path);
    QFETCH(double, value);
    const std::string text(*core::scenarioPresetText(preset.toStdString()));
    views::ScenarioDocument doc;
    doc.reset(core::readScenario(text).value().scenario);
    QVERIFY(doc.setNumber(path, value));
    doc.flush();
    const std::vector<std::string> set = {path.toStdString() + "=" + std::to_string(qint64(value))};
    auto read = core::readScenario(text, set);
    QVERIFY2(read.ok(), read.ok() ? "" : read.error().message.c_str());
    const core::Evaluation cli = core::evaluate(read.value().scenario);
    const core::Evaluation app = doc.evaluation();
    for (const core::FigureInfo &info : core::figureTable()) {
        const double a = app[info.id];
        const double c = cli[info.id];
        QVERIFY2((std::isnan(a) && std::isnan(c)) || a == c,
                 qPrintable(QStringLiteral("%1: app %2, --set %3")
                                .arg(QString::fromUtf8(info.key.data(), qsizetype(info.key.size())))
                                .arg(a)
                                .arg(c)));
    }
}

QTEST_MAIN(ScenarioDocumentTest)
#include "tst_scenariodocument.moc"
