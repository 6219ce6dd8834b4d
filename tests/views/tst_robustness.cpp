// SPDX-License-Identifier: GPL-3.0-or-later
// Never lose work: saves survive SIGKILL at any moment, unsaved work is autosaved and offered back
// after a crash exactly as it was, and an unwritable destination says so and keeps the document.

#include "app/mainwindow.h"
#include "tools/testpaths.h"
#include "views/document/autosave.h"
#include "views/document/scenariodocument.h"
#include "views/load/loadrunner.h"

#include "core/data/scenarioio.h"

#include <QAbstractButton>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMessageBox>
#include <QProcess>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QTimer>
#include <QUndoStack>

class Robustness : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void killedWhileSavingLeavesTheLastFileIntact();
    void init();
    void autosaveIsOfferedBackAfterACrash();
    void declinedRecoveryIsRemoved();
    void recoveryGoesToItsOwnFile();
    void twoWindowsKeepTheirOwnAutosave();
    void autosaveFailureIsSaid();
    void unwritableDestinationKeepsTheDocument();
    void twoWindowsOnOneFileAskBeforeOverwriting();
    void aWindowWithoutEditsFollowsTheFileOnDisk();
    void aFileRemovedOnDiskIsSaid();
    void aWarningOpenedBeforeTheWindowShowsIsReadable();
};

void Robustness::initTestCase()
{
    // the Load tab simulates 6 rates x 300 requests: these tests drive the window, not the numbers
    views::LoadRunner::limitForTests(6, 300);
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
        helper.start(testpaths::saveHelper(), {path});
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

namespace {

QString autosaveFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/autosave");
}

/** The scenario inside an autosave file, as JSON. */
QJsonObject autosavedScenario(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll())
        .object()
        .value(QStringLiteral("scenario"))
        .toObject();
}

QJsonObject asJson(const core::Scenario &scenario)
{
    return QJsonDocument::fromJson(QByteArray::fromStdString(core::writeScenario(scenario)))
        .object();
}

QByteArray contents(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool saveScenario(const QString &path, double batch)
{
    views::ScenarioDocument doc;
    core::Scenario scenario = core::lessonDefaultScenario();
    scenario.serving.batch = batch;
    doc.reset(scenario);
    QString error;
    return doc.save(path, &error);
}

} // namespace

void Robustness::init()
{
    // each test starts with no leftovers (and the folder a folder again after a failed test)
    QFile::remove(autosaveFolder());
    QDir(autosaveFolder()).removeRecursively();
}

void Robustness::autosaveIsOfferedBackAfterACrash()
{
    QJsonObject autosaved;
    {
        auto *crashed = new MainWindow;
        views::ScenarioDocument *doc = crashed->document();
        QVERIFY(doc->setNumber(QStringLiteral("serving.batch"), 17));
        QVERIFY(doc->setDevicePreset(QStringLiteral("nvidia-h100-sxm")));
        doc->flush();
        // the burst timer writes two seconds after the edits stop
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(crashed->autosave()->filePath()), 5000);
        autosaved = autosavedScenario(crashed->autosave()->filePath());
        QCOMPARE(autosaved, asJson(doc->scenario()));
        delete crashed; // no close event: as if the process had died
    }
    MainWindow next;
    const QList<views::AutosaveLeftover> leftovers = next.autosave()->leftovers();
    QCOMPARE(leftovers.size(), 1);
    QVERIFY(leftovers[0].origin.isEmpty()); // it was untitled
    QVERIFY(leftovers[0].saved.isValid());
    QCOMPARE(next.offerRecovery(false, true), 1);
    views::ScenarioDocument *doc = next.document(); // untitled and untouched: recovered here
    QCOMPARE(doc->scenario().serving.batch, 17.0);
    QCOMPARE(doc->scenario().device.presetId, std::string("nvidia-h100-sxm"));
    QVERIFY(doc->isModified()); // recovered work is unsaved work
    QCOMPARE(asJson(doc->scenario()), autosaved);
    QVERIFY(!QFile::exists(leftovers[0].path)); // now autosaved as this window's own
    QVERIFY(QFile::exists(next.autosave()->filePath()));
    // saved, the autosave goes; a clean close would remove it too
    QTemporaryDir dir;
    QString error;
    QVERIFY2(doc->save(dir.filePath(QStringLiteral("recovered.json")), &error), qPrintable(error));
    doc->flush();
    QVERIFY(!QFile::exists(next.autosave()->filePath()));
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
    QCOMPARE(next.offerRecovery(false, false), 0);
    QVERIFY(next.autosave()->leftovers().isEmpty());
    QVERIFY(!next.document()->isModified());
}

// Issue #20, item 2: work autosaved while editing a.json went into whatever file was open at the
// next start (b.json), and a save replaced b.json with it. It goes to a.json's own window now.
void Robustness::recoveryGoesToItsOwnFile()
{
    QTemporaryDir dir;
    const QString a = dir.filePath(QStringLiteral("a.json"));
    const QString b = dir.filePath(QStringLiteral("b.json"));
    QVERIFY(saveScenario(a, 4));
    QVERIFY(saveScenario(b, 9));
    const QByteArray bOnDisk = contents(b);
    {
        auto *crashed = new MainWindow;
        QVERIFY(crashed->openFile(a, false));
        QVERIFY(crashed->document()->setNumber(QStringLiteral("serving.batch"), 17));
        crashed->document()->flush();
        QVERIFY(crashed->autosave()->saveNow());
        delete crashed;
    }
    MainWindow next;
    QVERIFY(next.openFile(b, false));
    const QList<views::AutosaveLeftover> leftovers = next.autosave()->leftovers();
    QCOMPARE(leftovers.size(), 1);
    QCOMPARE(leftovers[0].origin, a); // offered by its file's name
    next.autosave()->releaseLeftovers();
    QCOMPARE(next.offerRecovery(false, true), 1);
    // b's window is untouched
    QCOMPARE(next.document()->filePath(), b);
    QVERIFY(!next.document()->isModified());
    QCOMPARE(next.document()->scenario().serving.batch, 9.0);
    // a's work is in a window of its own, on top of a.json as it is on disk
    MainWindow *recovered = nullptr;
    for (QWidget *widget : QApplication::topLevelWidgets())
        if (auto *window = qobject_cast<MainWindow *>(widget); window && window != &next)
            recovered = window;
    QVERIFY(recovered);
    views::ScenarioDocument *doc = recovered->document();
    QCOMPARE(doc->filePath(), a);
    QVERIFY(doc->isModified());
    QCOMPARE(doc->scenario().serving.batch, 17.0);
    QString error;
    QVERIFY2(doc->save(doc->filePath(), &error), qPrintable(error));
    QCOMPARE(contents(b), bOnDisk);
    views::ScenarioDocument reread;
    QVERIFY(reread.open(a, &error));
    QCOMPARE(reread.scenario().serving.batch, 17.0);
    doc->undoStack()->undo(); // one step back: a.json as it was on disk
    QCOMPARE(doc->scenario().serving.batch, 4.0);
    delete recovered;
}

// Issue #20, item 3: every window shared one autosave file; a second window offered the first's
// live work as a leftover, and its Discard, or its clean close, deleted the first's backup.
void Robustness::twoWindowsKeepTheirOwnAutosave()
{
    auto *first = new MainWindow;
    QVERIFY(first->document()->setNumber(QStringLiteral("serving.batch"), 23));
    first->document()->flush();
    QVERIFY(first->autosave()->saveNow());
    {
        MainWindow second;
        QVERIFY(second.autosave()->filePath() != first->autosave()->filePath());
        QVERIFY(second.autosave()->leftovers().isEmpty()); // the first is alive: not a leftover
        QCOMPARE(second.offerRecovery(false, false), 0);   // and a Discard cannot touch it
        QVERIFY(second.document()->setNumber(QStringLiteral("serving.batch"), 5));
        second.document()->flush();
        QVERIFY(second.autosave()->saveNow());
        QString error;
        QTemporaryDir dir;
        QVERIFY(second.document()->save(dir.filePath(QStringLiteral("s.json")), &error));
        second.close(); // a clean close removes its own autosave only
    }
    QVERIFY(QFile::exists(first->autosave()->filePath()));
    const QString firstPath = first->autosave()->filePath();
    delete first; // the first crashes
    MainWindow third;
    const QList<views::AutosaveLeftover> leftovers = third.autosave()->leftovers();
    QCOMPARE(leftovers.size(), 1);
    QCOMPARE(leftovers[0].path, firstPath);
    core::Scenario scenario;
    QString error;
    QVERIFY2(views::Autosave::read(leftovers[0], scenario, &error), qPrintable(error));
    QCOMPARE(scenario.serving.batch, 23.0);
}

// Issue #20, item 13: an autosave that cannot write was silent.
void Robustness::autosaveFailureIsSaid()
{
    QTemporaryDir dir;
    const QString notAFolder = dir.filePath(QStringLiteral("a-file"));
    QVERIFY(saveScenario(notAFolder, 1)); // a file where the folder would go
    {
        views::ScenarioDocument doc;
        views::Autosave autosave(&doc, notAFolder + QStringLiteral("/autosave"));
        QSignalSpy failures(&autosave, &views::Autosave::failed);
        QVERIFY(doc.setNumber(QStringLiteral("serving.batch"), 2));
        doc.flush();
        QVERIFY(!autosave.saveNow());
        QCOMPARE(failures.size(), 1);
        QVERIFY2(autosave.lastError().contains(notAFolder), qPrintable(autosave.lastError()));
    }
    // the window says so in its status bar until autosave works again
    QDir(autosaveFolder()).removeRecursively();
    QVERIFY(saveScenario(autosaveFolder(), 1));
    MainWindow window;
    QVERIFY(window.autosaveWarning().isEmpty());
    QVERIFY(window.document()->setNumber(QStringLiteral("serving.batch"), 2));
    window.document()->flush();
    QVERIFY(!window.autosave()->saveNow());
    QVERIFY2(window.autosaveWarning().contains(autosaveFolder()),
             qPrintable(window.autosaveWarning()));
    QFile::remove(autosaveFolder());
    QVERIFY(window.autosave()->saveNow());
    QVERIFY(window.autosaveWarning().isEmpty());
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

namespace {

double batchInFile(const QString &path)
{
    views::ScenarioDocument doc;
    QString error;
    return doc.open(path, &error) ? doc.scenario().serving.batch : -1;
}

/** Answers the next modal message box with the button whose text holds `button`, keeping the
 *  box's text in `seen`. */
void answerNextMessageBox(const QString &button, QString *seen)
{
    QTimer::singleShot(0, [button, seen] {
        auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        if (!box)
            return;
        *seen = box->text();
        for (QAbstractButton *b : box->buttons()) {
            if (b->text().remove(QLatin1Char('&')).contains(button)) {
                b->click();
                return;
            }
        }
        box->reject();
    });
}

} // namespace

// Issue #41, item 2: two windows on one file overwrote each other in silence (window 1 saved
// batch 11, window 2 raised its own copy once and saved 9 over it).
void Robustness::twoWindowsOnOneFileAskBeforeOverwriting()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("A.json"));
    QVERIFY(saveScenario(path, 8));
    MainWindow first;
    MainWindow second;
    QVERIFY(first.openFile(path, false));
    QVERIFY(second.openFile(path, false));

    QVERIFY(first.document()->setNumber(QStringLiteral("serving.batch"), 11));
    first.document()->flush();
    QVERIFY(first.saveToOwnFile());
    QCOMPARE(batchInFile(path), 11.0);

    QVERIFY(second.document()->setNumber(QStringLiteral("serving.batch"), 9));
    second.document()->flush();
    // the second window knows before it saves: its status bar says so
    QTRY_VERIFY2(!second.diskWarning().isEmpty(), "no 'changed on disk' in the status bar");
    QVERIFY2(second.diskWarning().contains(QStringLiteral("A.json")),
             qPrintable(second.diskWarning()));

    // Save asks; Cancel keeps both the file and the window's work
    QString asked;
    answerNextMessageBox(QStringLiteral("Cancel"), &asked);
    QVERIFY(!second.saveToOwnFile());
    QVERIFY2(asked.contains(QStringLiteral("A.json")) &&
                 asked.contains(QStringLiteral("another window or program")),
             qPrintable(asked));
    QCOMPARE(batchInFile(path), 11.0);
    QCOMPARE(second.document()->scenario().serving.batch, 9.0);
    QVERIFY(second.document()->isModified());

    // Reload shows the file as it is, the window's own scenario one Undo away, nothing saved
    QVERIFY(!second.saveToOwnFile(MainWindow::DiskConflict::Reload));
    QCOMPARE(second.document()->scenario().serving.batch, 11.0);
    QVERIFY(!second.document()->isModified());
    QVERIFY(second.diskWarning().isEmpty());
    second.document()->undoStack()->undo();
    second.document()->flush();
    QCOMPARE(second.document()->scenario().serving.batch, 9.0);
    QCOMPARE(batchInFile(path), 11.0);

    // Overwrite is the user's informed choice; the first window then sees the file change
    QVERIFY(second.saveToOwnFile(MainWindow::DiskConflict::Overwrite));
    QCOMPARE(batchInFile(path), 9.0);
    QTRY_COMPARE(first.document()->scenario().serving.batch, 9.0); // no edits: it follows
}

void Robustness::aWindowWithoutEditsFollowsTheFileOnDisk()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("B.json"));
    QVERIFY(saveScenario(path, 4));
    MainWindow window;
    QVERIFY(window.openFile(path, false));
    QVERIFY(saveScenario(path, 6)); // another program replaces it, atomically
    QTRY_COMPARE(window.document()->scenario().serving.batch, 6.0);
    QVERIFY(!window.document()->isModified());
    QVERIFY(saveScenario(path, 7)); // and again: the watch follows the new file
    QTRY_COMPARE(window.document()->scenario().serving.batch, 7.0);
    // a file that is not a scenario any more (half-written by a program that does not write
    // atomically) is not loaded: the window keeps what it shows and says why
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write("{\"format\": \"accel-explorer/scen");
    }
    QTRY_VERIFY(!window.diskWarning().isEmpty());
    QCOMPARE(window.document()->scenario().serving.batch, 7.0);
    QString asked;
    answerNextMessageBox(QStringLiteral("Overwrite"), &asked);
    QVERIFY(window.saveToOwnFile());
    QCOMPARE(batchInFile(path), 7.0);
    QVERIFY(window.diskWarning().isEmpty());
}

void Robustness::aFileRemovedOnDiskIsSaid()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("C.json"));
    QVERIFY(saveScenario(path, 4));
    MainWindow window;
    QVERIFY(window.openFile(path, false));
    QVERIFY(QFile::remove(path));
    QTRY_VERIFY(window.diskWarning().contains(QStringLiteral("no longer on disk")));
    QCOMPARE(window.document()->scenario().serving.batch, 4.0);
    QVERIFY(window.saveToOwnFile()); // Save writes it again, without asking
    QCOMPARE(batchInFile(path), 4.0);
    QVERIFY(window.diskWarning().isEmpty());
}

// Issue #41, item 7: a file opened with warnings before the window first showed (the command
// line) left the status bar drawing the warning under the verdict labels, both unreadable.
void Robustness::aWarningOpenedBeforeTheWindowShowsIsReadable()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("warned.json"));
    QVERIFY(saveScenario(path, 4));
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
        root.insert(QStringLiteral("no_such_key"), 1);
        file.close();
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(QJsonDocument(root).toJson());
    }
    MainWindow window;
    QVERIFY(window.openFile(path, false));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QStatusBar *bar = window.statusBar();
    QVERIFY2(bar->currentMessage().contains(QStringLiteral("no_such_key")),
             qPrintable(bar->currentMessage()));
    // while the message shows, nothing else is drawn where it is
    for (QLabel *label : bar->findChildren<QLabel *>(QStringLiteral("verdict")))
        QVERIFY2(!label->isVisible(), qPrintable(label->text()));
    bar->clearMessage();
    for (QLabel *label : bar->findChildren<QLabel *>(QStringLiteral("verdict")))
        QVERIFY(label->isVisible()); // and the verdicts come back after it
}

QTEST_MAIN(Robustness)
#include "tst_robustness.moc"
