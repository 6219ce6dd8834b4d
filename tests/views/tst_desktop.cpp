// SPDX-License-Identifier: GPL-3.0-or-later
// What a desktop user expects around the views: Help (F1) opens the shipped user guide at the
// view in front, every view has its part of the guide, the About box names the version, the
// preset data date, the licences and where the data comes from, and the settings (units,
// theme, layout, recent files) survive a restart.

#include "app/mainwindow.h"
#include "tools/testpaths.h"
#include "views/document/dialogfolder.h"
#include "views/document/scenariodocument.h"
#include "views/document/userpresets.h"
#include "views/io/dataexport.h"
#include "views/load/loadrunner.h"
#include "views/viewregistry.h"
#include "views/widgets/helpdialog.h"
#include "views/widgets/scenariopanel.h"
#include "views/widgets/view.h"

#include "core/data/presets.h"
#include "core/data/scenarioio.h"
#include "core/output/exports.h"

#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>

class DesktopTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void everyViewHasItsPartOfTheGuide_data();
    void everyViewHasItsPartOfTheGuide();
    void f1OpensTheGuideAtTheViewInFront();
    void aboutNamesVersionDataAndLicences();
    void settingsSurviveARestart();
    void dataAndImageExportsAreStamped();
    void userPresetsAreSavedValidatedAndShared();
    void fileDialogsOpenWhereTheScenarioIs();
};

void DesktopTest::initTestCase()
{
    // the Load tab simulates 6 rates x 300 requests: these tests drive the window, not the numbers
    views::LoadRunner::limitForTests(6, 300);
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
    QApplication::setApplicationVersion(QStringLiteral("9.8.7"));
}

void DesktopTest::everyViewHasItsPartOfTheGuide_data()
{
    QTest::addColumn<QString>("topic");
    for (const QString &name : views::viewNames())
        QTest::newRow(qPrintable(name)) << name;
    for (const char *topic : {"start", "scenario", "tour"})
        QTest::newRow(topic) << QString::fromLatin1(topic);
}

void DesktopTest::everyViewHasItsPartOfTheGuide()
{
    QFETCH(QString, topic);
    const int section = views::guideSectionFor(topic);
    QVERIFY2(section > 0, "no section of docs/user-guide.md names this topic");
    const views::GuideSection &guide = views::userGuide().at(section);
    QVERIFY(guide.markdown.size() > 200); // text, not a heading alone
    QVERIFY(!guide.markdown.contains(QStringLiteral("<!--")));
}

void DesktopTest::f1OpensTheGuideAtTheViewInFront()
{
    MainWindow window;
    window.setAttribute(Qt::WA_DontShowOnScreen);
    window.show();
    window.showView(QStringLiteral("memory"));
    QCoreApplication::processEvents();
    QCOMPARE(window.helpTopic(), QStringLiteral("memory"));
    window.showHelp(window.helpTopic());
    QVERIFY(window.helpDialog());
    QVERIFY(window.helpDialog()->isVisible());
    QCOMPARE(window.helpDialog()->currentTitle(), QStringLiteral("Memory: training and serving"));
    QVERIFY(window.helpDialog()->browser()->toPlainText().contains(QStringLiteral("KV cache")));
    window.showView(QStringLiteral("roofline"));
    QCoreApplication::processEvents();
    window.showHelp(window.helpTopic());
    QCOMPARE(window.helpDialog()->currentTitle(), QStringLiteral("Roofline and throughput"));
    window.helpDialog()->close();
}

void DesktopTest::aboutNamesVersionDataAndLicences()
{
    const QString about = MainWindow::aboutText();
    QVERIFY(about.contains(QStringLiteral("9.8.7")));
    QVERIFY(about.contains(QString::fromStdString(std::string(core::presetDataDate()))));
    for (const char *needle : {"LGPL", "GPL v3", "MPL 2.0", "MIT", "datasheets", "source"})
        QVERIFY2(about.contains(QString::fromLatin1(needle)), needle);
}

void DesktopTest::settingsSurviveARestart()
{
    const QString scenario =
        (testpaths::fixturesDir() + QStringLiteral("/good/inline-everything.json"));
    {
        MainWindow window;
        window.setAttribute(Qt::WA_DontShowOnScreen);
        window.show();
        QVERIFY(window.openFile(scenario, false));
        window.document()->setUnits(core::MemoryUnits::Both);
        window.setTheme(views::Theme::Dark, false);
        window.tabs()->setCurrentIndex(2);
        window.resize(1300, 760);
        QCoreApplication::processEvents();
        QVERIFY(window.close()); // unmodified: no question, settings written
    }
    MainWindow window;
    QCOMPARE(window.document()->units(), core::MemoryUnits::Both);
    QCOMPARE(window.theme(), views::Theme::Dark);
    QCOMPARE(window.tabs()->currentIndex(), 2);
    QCOMPARE(window.size(), QSize(1300, 760));
    const QStringList recent = QSettings().value(QStringLiteral("files/recent")).toStringList();
    QVERIFY(!recent.isEmpty());
    QCOMPARE(QFileInfo(recent.first()).canonicalFilePath(),
             QFileInfo(scenario).canonicalFilePath());
    // and the Open Recent menu lists it
    QMenu *recentMenu = nullptr;
    for (QMenu *menu : window.findChildren<QMenu *>()) {
        if (menu->title().contains(QStringLiteral("Recent")))
            recentMenu = menu;
    }
    QVERIFY(recentMenu);
    QVERIFY(!recentMenu->actions().isEmpty());
    QCOMPARE(recentMenu->actions().first()->text(), QStringLiteral("inline-everything.json"));
    window.setTheme(views::Theme::System, false);
}

// File > Export Data and the view exports: the file reads back and says who made it from what.
void DesktopTest::dataAndImageExportsAreStamped()
{
    QTemporaryDir dir;
    const core::Scenario lesson = core::lessonDefaultScenario();
    QString error;
    const QString csv = dir.filePath(QStringLiteral("batch.csv"));
    QVERIFY2(views::writeSweep(lesson, core::SweepKind::Batch, csv, &error), qPrintable(error));
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    auto table = core::sweepFromCsv(file.readAll().toStdString());
    QVERIFY(table.ok());
    QCOMPARE(table->stamp.appVersion, std::string("9.8.7"));
    QCOMPARE(table->stamp.presetDataDate, std::string(core::presetDataDate()));
    QCOMPARE(table->values.size(), std::size_t(11));

    // issue #20, item 5: a prompt past 128k tokens wrote a header and no rows
    core::Scenario longPrompt = lesson;
    longPrompt.serving.contextTokens = 300000;
    longPrompt.serving.promptTokens = 200000;
    const QString context = dir.filePath(QStringLiteral("context.csv"));
    QVERIFY2(views::writeSweep(longPrompt, core::SweepKind::Context, context, &error),
             qPrintable(error));
    QFile contextFile(context);
    QVERIFY(contextFile.open(QIODevice::ReadOnly));
    auto contextTable = core::sweepFromCsv(contextFile.readAll().toStdString());
    QVERIFY(contextTable.ok());
    QCOMPARE(contextTable->values.size(), std::size_t(4));

    const QString checks = dir.filePath(QStringLiteral("checks.json"));
    QVERIFY2(views::writeChecks(lesson, checks, &error), qPrintable(error));
    QFile json(checks);
    QVERIFY(json.open(QIODevice::ReadOnly));
    const QJsonObject document = QJsonDocument::fromJson(json.readAll()).object();
    QCOMPARE(document.value(QStringLiteral("app_version")).toString(), QStringLiteral("9.8.7"));
    QVERIFY(document.contains(QStringLiteral("candidates"))); // the accel-calc check document
    QCOMPARE(document.value(QStringLiteral("preset_data_date")).toString(),
             QString::fromStdString(std::string(core::presetDataDate())));

    QVERIFY(!views::writeSweep(lesson, core::SweepKind::Batch,
                               dir.filePath(QStringLiteral("x.txt")), &error));
    QVERIFY(error.contains(QStringLiteral(".csv or .json")));

    views::ScenarioDocument document2;
    std::unique_ptr<views::View> view(
        views::findView(QStringLiteral("roofline"))->create(&document2, nullptr));
    view->setAttribute(Qt::WA_DontShowOnScreen);
    view->resize(800, 500);
    view->show();
    const QString png = dir.filePath(QStringLiteral("roofline.png"));
    QVERIFY(view->exportTo(png, &error));
    QVERIFY(QImage(png)
                .text(QStringLiteral("Software"))
                .contains(QStringLiteral("9.8.7; preset data")));
}

// Tools > My Presets: a device from the scenario becomes a preset of the user's, saved in the
// data folder, listed by the pickers, validated with the field named, shared and imported.
void DesktopTest::userPresetsAreSavedValidatedAndShared()
{
    QFile::remove(views::userPresetFile());
    QVERIFY(core::setUserPresets({}).ok());
    const std::size_t builtIn = core::presetList().size();
    const core::Scenario lesson = core::lessonDefaultScenario();
    {
        views::UserPresetsDialog dialog(lesson);
        QSignalSpy changed(&dialog, &views::UserPresetsDialog::presetsChanged);
        dialog.addDeviceFromScenario();
        QVERIFY2(dialog.isValid(), qPrintable(dialog.verdict()->text()));
        QVERIFY(dialog.editor()->toPlainText().contains(QStringLiteral("\"my-lesson-accelerator")));
        // a bad value is refused with its field, and Save does nothing
        QString text = dialog.editor()->toPlainText();
        text.replace(QStringLiteral("\"memory_gb\": 80"), QStringLiteral("\"memory_gb\": -1"));
        dialog.editor()->setPlainText(text);
        QVERIFY(!dialog.isValid());
        QVERIFY2(dialog.verdict()->text().contains(QStringLiteral("/devices/0/memory_gb")),
                 qPrintable(dialog.verdict()->text()));
        QVERIFY(!dialog.save());
        QCOMPARE(changed.count(), 0);
        text.replace(QStringLiteral("\"memory_gb\": -1"), QStringLiteral("\"memory_gb\": 96"));
        dialog.editor()->setPlainText(text);
        QVERIFY(dialog.save());
        QCOMPARE(changed.count(), 1);
    }
    QVERIFY(QFileInfo::exists(views::userPresetFile()));
    QCOMPARE(core::presetList().size(), builtIn + 1);
    const std::string id = core::userPresets().devices.at(0).presetId;
    QCOMPARE(core::devicePreset(id).value().memoryGb, 96.0);

    // the next start reads it back; the pickers list it
    QVERIFY(core::setUserPresets({}).ok());
    QString error;
    QVERIFY2(views::loadUserPresets(&error), qPrintable(error));
    QVERIFY(core::isUserPreset(id));
    {
        MainWindow window;
        QVERIFY(window.scenarioPanel()->devicePicker()->findData(QString::fromStdString(id)) >= 0);
    }

    // a shared file adds its presets; one that clashes with a built-in changes nothing
    QTemporaryDir dir;
    const QString shared = dir.filePath(QStringLiteral("shared.json"));
    QFile out(shared);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(R"({"format": "accel-explorer/presets", "links": [{"id": "our-fabric",
        "name": "Our fabric", "kind": "network", "per_direction_gb_s": 50,
        "sources": {"*": "measured"}}]})");
    out.close();
    QVERIFY2(views::importPresetFile(shared, &error), qPrintable(error));
    QCOMPARE(core::linkPreset("our-fabric").value().perDirectionGbPerSecond, 50.0);
    QFile clash(dir.filePath(QStringLiteral("clash.json")));
    QVERIFY(clash.open(QIODevice::WriteOnly));
    clash.write(R"({"links": [{"id": "pcie-4-x16", "kind": "host", "per_direction_gb_s": 1}]})");
    clash.close();
    QVERIFY(!views::importPresetFile(clash.fileName(), &error));
    QVERIFY2(error.contains(QStringLiteral("built-in")), qPrintable(error));
    QCOMPARE(core::presetList().size(), builtIn + 2);

    // a damaged library: the built-ins stay, and the message names the file and the field
    QFile damaged(views::userPresetFile());
    QVERIFY(damaged.open(QIODevice::WriteOnly));
    damaged.write(R"({"devices": [{"id": "x", "memory_gb": "lots"}]})");
    damaged.close();
    QVERIFY(core::setUserPresets({}).ok());
    QVERIFY(!views::loadUserPresets(&error));
    QVERIFY2(error.contains(views::userPresetFile()) &&
                 error.contains(QStringLiteral("/devices/0")),
             qPrintable(error));
    QCOMPARE(core::presetList().size(), builtIn);
    QFile::remove(views::userPresetFile());
}

// Issue #42 item 10: every file dialog opened in the process's working folder, wherever the
// scenario was. A dialog now opens in the scenario's folder, else where the user last chose a
// file, else the documents folder; the report is named after the scenario.
void DesktopTest::fileDialogsOpenWhereTheScenarioIs()
{
    QTemporaryDir project;
    QTemporaryDir elsewhere;
    const QString scenarioPath = project.filePath(QStringLiteral("fleet.json"));
    {
        views::ScenarioDocument doc;
        doc.reset(core::lessonDefaultScenario());
        QString error;
        QVERIFY2(doc.save(scenarioPath, &error), qPrintable(error));
    }
    MainWindow window;
    QVERIFY(window.openFile(scenarioPath, false));
    // the dialog File > Export Report opens, as the user sees it
    QString directory;
    QString proposed;
    QTimer::singleShot(0, [&] {
        auto *dialog = qobject_cast<QFileDialog *>(QApplication::activeModalWidget());
        if (!dialog)
            return;
        directory = dialog->directory().absolutePath();
        proposed = dialog->selectedFiles().value(0);
        dialog->reject();
    });
    QAction *report = nullptr;
    for (QAction *action : window.findChildren<QAction *>())
        if (action->text().remove(QLatin1Char('&')) == QLatin1String("Export Report..."))
            report = action;
    QVERIFY(report);
    QCoreApplication::setAttribute(Qt::AA_DontUseNativeDialogs);
    report->trigger();
    QCOMPARE(directory, QFileInfo(project.path()).absoluteFilePath());
    QCOMPARE(QFileInfo(proposed).fileName(), QStringLiteral("fleet-report.pdf"));

    // untitled: where the user last chose a file, never the working folder
    views::ScenarioDocument untitled;
    views::rememberDialogFolder(elsewhere.filePath(QStringLiteral("a.csv")));
    QCOMPARE(QFileInfo(views::suggestedPath(&untitled, QStringLiteral("b.csv"))).absolutePath(),
             QFileInfo(elsewhere.path()).absoluteFilePath());
    QSettings().remove(QStringLiteral("files/lastFolder"));
    QCOMPARE(views::suggestedPath(&untitled),
             QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation).isEmpty() ||
                     !QFileInfo(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
                          .isDir()
                 ? QDir::homePath()
                 : QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation));
}

QTEST_MAIN(DesktopTest)
#include "tst_desktop.moc"
