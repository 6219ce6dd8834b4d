// SPDX-License-Identifier: GPL-3.0-or-later
// Replays, in every ordinary test run, what the fuzzers exercise: every fixture and preset, the
// hostile inputs the fuzzers are seeded with, and every saved fuzzer finding
// (tests/fixtures/fuzz/<target>/), through the same entry functions as fuzz/fuzz_*.cpp.

#include "fuzz/fuzzentries.h"
#include "tools/testpaths.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QObject>
#include <QTest>

namespace {

using Entry = std::string (*)(const std::uint8_t *, std::size_t);

QString check(Entry entry, const QByteArray &bytes)
{
    return QString::fromStdString(entry(reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                                        std::size_t(bytes.size())));
}

QList<QByteArray> hostileInputs()
{
    QList<QByteArray> inputs;
    inputs << QByteArray("{\"x\":") + QByteArray(200000, '[') + QByteArray(200000, ']') + "}";
    inputs << QByteArray("{\"serving\": {\"batch\": 1e308, \"context_tokens\": 1e-308}}");
    inputs << QByteArray("{\"serving\": {\"batch\": 1e999}}");
    inputs << QByteArray("{\"device\": {\"memory_gb\": 1e-300, \"bandwidth_gb_s\": 1e300, "
                         "\"peak_tflops\": {\"bf16\": 4.9e-324}}}");
    inputs << QByteArray(
        "{\"model\": {\"parameters\": 1e14, \"layers\": 4096, \"kv_heads\": 4096, "
        "\"attention_heads\": 4096, \"head_dim\": 1024}, \"serving\": {\"batch\": 1000000, "
        "\"concurrent_sequences\": 1000000, \"context_tokens\": 100000000}}");
    inputs << QByteArray("{\"name\": \"caf\xc3\x28\"}");
    inputs << QByteArray("{\"name\": \"\\ud800\"}");
    inputs << QByteArray("{\"serving\": {\"batch\": 8, \"batch\": 8}}");
    inputs << QByteArray("{\"n\": \"") + QByteArray(qsizetype(3) * 1024 * 1024, 'a') +
                  "\"}";                                                              // 3 MB string
    inputs << QByteArray("{\"") + QByteArray(qsizetype(1024) * 1024, 'k') + "\": 1}"; // 1 MB key
    inputs << QByteArray("\xef\xbb\xbf{}"); // byte-order mark
    inputs << QByteArray("{}\0{}", 5);
    inputs << QByteArray();
    return inputs;
}

} // namespace

class FuzzRegressions : public QObject
{
    Q_OBJECT

private slots:
    void replay_data();
    void replay();
};

void FuzzRegressions::replay_data()
{
    QTest::addColumn<QString>("entry");
    QTest::addColumn<QByteArray>("bytes");
    const QStringList entries = {"scenario_file",     "preset_file", "hf_config",
                                 "set_overrides",     "trace",       "measurements",
                                 "safetensors_header"};

    // Every fixture and preset file through every entry.
    for (const QString &root :
         {testpaths::fixturesDir(), (testpaths::sourceDir() + QStringLiteral("/presets"))}) {
        QDirIterator it(root, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray bytes = file.readAll();
            const QString relative = QDir(root).relativeFilePath(path);
            // Saved findings run through their own target only.
            if (relative.startsWith(QStringLiteral("fuzz/"))) {
                const QString target = relative.section(QLatin1Char('/'), 1, 1);
                QTest::addRow("finding %s", qPrintable(relative)) << target << bytes;
                continue;
            }
            for (const QString &entry : entries)
                QTest::addRow("%s via %s", qPrintable(relative), qPrintable(entry))
                    << entry << bytes;
        }
    }
    int n = 0;
    for (const QByteArray &bytes : hostileInputs()) {
        for (const QString &entry : entries)
            QTest::addRow("hostile %d via %s", n, qPrintable(entry)) << entry << bytes;
        ++n;
    }
    QTest::newRow("set: many overrides")
        << "set_overrides"
        << QByteArray("serving.batch=1\nmodel.layers=4096\ndevice.bandwidth_gb_s=0.001\nserving."
                      "tensor_parallel=4096\ndevice.peak_tflops={\"int4\": 1e7}");
    QTest::newRow("set: preset swap then edit")
        << "set_overrides"
        << QByteArray(
               "device=lesson-accelerator-24gb\ndevice.memory_gb=24\nserving.overhead_gb=23.9");
}

void FuzzRegressions::replay()
{
    QFETCH(QString, entry);
    QFETCH(QByteArray, bytes);
    Entry function = entry == QStringLiteral("scenario_file")  ? &fuzzentries::scenarioFile
                     : entry == QStringLiteral("preset_file")  ? &fuzzentries::presetFile
                     : entry == QStringLiteral("hf_config")    ? &fuzzentries::hfConfig
                     : entry == QStringLiteral("trace")        ? &fuzzentries::trace
                     : entry == QStringLiteral("measurements") ? &fuzzentries::measurements
                     : entry == QStringLiteral("safetensors_header")
                         ? &fuzzentries::safetensorsHeader
                         : &fuzzentries::setOverrides;
    const QString problem = check(function, bytes);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

QTEST_GUILESS_MAIN(FuzzRegressions)
#include "tst_fuzzregressions.moc"
