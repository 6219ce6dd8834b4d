// SPDX-License-Identifier: GPL-3.0-or-later
// Never lose work: saves survive SIGKILL at any moment, unsaved work is autosaved and offered back
// after a crash exactly as it was, and an unwritable destination says so and keeps the document.

#include "app/mainwindow.h"
#include "views/document/autosave.h"
#include "views/document/scenariodocument.h"

#include "core/scenarioio.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QUndoStack>

class Robustness : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void killedWhileSavingLeavesTheLastFileIntact();
    void autosaveIsOfferedBackAfterACrash();
    void declinedRecoveryIsRemoved();
    void unwritableDestinationKeepsTheDocument();
};

void Robustness::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // never the user's own data folder
    QCoreApplication::setOrganizationName(QStringLiteral("AcceleratorExplorerTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_robustness"));
}

void Robustness::killedWhileSavingLeavesTheLastFileIntact()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("scenario.json"));
    {
        views::ScenarioDocument first;
        core::Scenario v0 = core::lessonDefaultScenario();
        v0.name = "v0";
        first.reset(v0);
        QString error;
        QVERIFY2(first.save(path, &error), qPrintable(error));
    }
    QRandomGenerator random(20261202); // seeded: a failure can be replayed
    const int kKills = qEnvironmentVariableIntValue("ACCEL_KILLS") > 0
                           ? qEnvironmentVariableIntValue("ACCEL_KILLS")
                           : 200;
    long lastVersion = 0;
    for (int i = 0; i < kKills; ++i) {
        QProcess helper;
        helper.start(QStringLiteral(SAVE_HELPER), {path});
        QVERIFY(helper.waitForStarted());
        QVERIFY2(helper.waitForReadyRead(10000), helper.readAllStandardError().constData());
        QThread::usleep(random.bounded(0, 15000)); // somewhere in the middle of a save
        helper.kill();                             // SIGKILL: no handler, no cleanup
        helper.waitForFinished();
        // whatever moment it died, the file is a whole scenario that loads
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        const auto loaded =
            core::readScenario(std::string_view(text.constData(), std::size_t(text.size())));
        QVERIFY2(loaded.ok(), qPrintable(QStringLiteral("after kill %1: %2")
                                             .arg(i)
                                             .arg(QString::fromStdString(loaded.error().message))));
        const std::string &name = loaded.value().scenario.name;
        QVERIFY(name.size() > 1 && name[0] == 'v');
        lastVersion = std::stol(name.substr(1));
    }
    QVERIFY(lastVersion > 0); // the helper did save between kills
    // nothing left behind that looks like a scenario (QSaveFile's temporary names do not end in
    // .json, so neither Open nor a drop mistakes them for one)
    const QStringList scenarios =
        QDir(dir.path()).entryList({QStringLiteral("*.json")}, QDir::Files);
    QCOMPARE(scenarios, QStringList{QStringLiteral("scenario.json")});
}

void Robustness::autosaveIsOfferedBackAfterACrash()
{
    QString autosaved;
    {
        auto *crashed = new MainWindow;
        views::ScenarioDocument *doc = crashed->document();
        QVERIFY(doc->setNumber(QStringLiteral("serving.batch"), 17));
        QVERIFY(doc->setDevicePreset(QStringLiteral("nvidia-h100-sxm")));
        doc->flush();
        // the burst timer writes two seconds after the edits stop
        QTRY_VERIFY_WITH_TIMEOUT(crashed->autosave()->hasRecovery(), 5000);
        QFile file(crashed->autosave()->filePath());
        QVERIFY(file.open(QIODevice::ReadOnly));
        autosaved = QString::fromUtf8(file.readAll());
        delete crashed; // no close event: as if the process had died
    }
    MainWindow next;
    QVERIFY(next.autosave()->recoveryPending());
    QVERIFY(next.autosave()->recoveryTime().isValid());
    QVERIFY(next.offerRecovery(false, true));
    views::ScenarioDocument *doc = next.document();
    QCOMPARE(doc->scenario().serving.batch, 17.0);
    QCOMPARE(doc->scenario().device.presetId, std::string("nvidia-h100-sxm"));
    QVERIFY(doc->isModified()); // recovered work is unsaved work
    QCOMPARE(QString::fromStdString(core::writeScenario(doc->scenario())), autosaved);
    // saved, the autosave goes; a clean close would remove it too
    QTemporaryDir dir;
    QString error;
    QVERIFY2(doc->save(dir.filePath(QStringLiteral("recovered.json")), &error), qPrintable(error));
    doc->flush();
    QVERIFY(!next.autosave()->hasRecovery());
    next.close(); // nothing unsaved: closes without asking
    QVERIFY(!next.isVisible());
}

void Robustness::declinedRecoveryIsRemoved()
{
    {
        auto *crashed = new MainWindow;
        QVERIFY(crashed->document()->setNumber(QStringLiteral("serving.batch"), 3));
        crashed->document()->flush();
        QVERIFY(crashed->autosave()->saveNow());
        delete crashed;
    }
    MainWindow next;
    QVERIFY(next.autosave()->recoveryPending());
    QVERIFY(!next.offerRecovery(false, false));
    QVERIFY(!next.autosave()->hasRecovery());
    QVERIFY(!next.document()->isModified());
}

void Robustness::unwritableDestinationKeepsTheDocument()
{
    QTemporaryDir dir;
    const QString notAFolder = dir.filePath(QStringLiteral("a-file"));
    {
        QFile file(notAFolder);
        QVERIFY(file.open(QIODevice::WriteOnly));
    }
    views::ScenarioDocument doc;
    QVERIFY(doc.setNumber(QStringLiteral("serving.batch"), 9));
    doc.flush();
    QString error;
    const QString target = notAFolder + QStringLiteral("/scenario.json");
    QVERIFY(!doc.save(target, &error));
    QVERIFY2(error.contains(target), qPrintable(error)); // names the file
    QVERIFY(doc.isModified());                           // still marked unsaved
    QCOMPARE(doc.scenario().serving.batch, 9.0);         // nothing lost
    QVERIFY(doc.filePath().isEmpty());
}

QTEST_MAIN(Robustness)
#include "tst_robustness.moc"
