// What a desktop user expects around the views: Help (F1) opens the shipped user guide at the
// view in front, every view has its part of the guide, the About box names the version, the
// preset data date, the licences and where the data comes from, and the settings (units,
// theme, layout, recent files) survive a restart.

#include "app/mainwindow.h"
#include "views/helpdialog.h"
#include "views/scenariodocument.h"
#include "views/view.h"
#include "views/viewregistry.h"

#include "core/presets.h"

#include <QApplication>
#include <QCloseEvent>
#include <QMenu>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>
#include <QTextBrowser>

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
};

void DesktopTest::initTestCase()
{
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
    const QString scenario = QStringLiteral(ACCEL_FIXTURES_DIR "/good/inline-everything.json");
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

QTEST_MAIN(DesktopTest)
#include "tst_desktop.moc"
