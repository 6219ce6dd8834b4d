// SPDX-License-Identifier: GPL-3.0-or-later
// Every view fits the screens it is shown on (issue #42, acceptance): at 1280x800 and 1366x768 on
// the desk, and at 1280x720, 1280x800, 1366x768 and 1920x1080 in presenter mode, no view elides a
// chart text, a table cell or a header, clips a label, or scrolls; the tab bar shows every tab.

#include "viewfit.h"
#include "viewtestsupport.h"

#include "app/mainwindow.h"
#include "core/data/presets.h"
#include "core/data/scenarioio.h"
#include "tools/testpaths.h"
#include "views/calibration/measurementsdialog.h"
#include "views/document/scenariodocument.h"
#include "views/export/textsizeprobe.h"
#include "views/viewregistry.h"
#include "views/widgets/tablefit.h"
#include "views/widgets/view.h"

#include <QPainter>
#include <QTableWidget>
#include <QTest>
#include <QTextDocument>

using viewfit::fitProblems;
using viewfit::tabBarProblems;

class ViewsFit : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void widestColumnsWrapFirst();
    void aNoteIsMeasuredInItsOwnFont();
    void printedTextCutShortIsFound();
    void importMeasurementsShowsWholeRunNames();
    void everyViewFitsItsScreen_data();
    void everyViewFitsItsScreen();
};

void ViewsFit::initTestCase()
{
    viewtestsupport::initViewTests(QStringLiteral("tst_viewsfit"));
}

// A long note wraps before a short number does; nothing goes under its longest word.
void ViewsFit::widestColumnsWrapFirst()
{
    using views::fittedColumnWidths;
    const std::vector<int> natural{50, 300, 80};
    const std::vector<int> minimum{40, 100, 60};
    QCOMPARE(fittedColumnWidths(natural, minimum, 500), natural); // room: as wide as the text
    // 300 px: the note gets what the others leave (170), the number keeps its 80
    QCOMPARE(fittedColumnWidths(natural, minimum, 300), (std::vector<int>{50, 170, 80}));
    // 230 px: the note down to its longest word, the number still whole
    QCOMPARE(fittedColumnWidths(natural, minimum, 230), (std::vector<int>{50, 100, 80}));
    QCOMPARE(fittedColumnWidths(natural, minimum, 220), (std::vector<int>{50, 100, 70}));
    QCOMPARE(fittedColumnWidths(natural, minimum, 100), minimum); // no room: the minimums
}

// A note's width is chosen on a copy of its document: the width found shows the text whole in
// the font it is shown in (19 px on a projector, not the desk's 12).
void ViewsFit::aNoteIsMeasuredInItsOwnFont()
{
    QTextDocument note;
    QFont large = note.defaultFont();
    large.setPixelSize(19);
    note.setDefaultFont(large);
    note.setPlainText(QString(QStringLiteral("Every word of this paragraph wraps at the width "
                                             "chosen for it, in the font it is shown in. "))
                          .repeated(12));
    const int room = 600;
    const int width = views::widthShowingWhole(note, room, 100, 1500);
    QVERIFY(width < 1500); // found, not the widest allowed
    note.setTextWidth(width);
    QVERIFY2(note.size().height() <= room,
             qPrintable(QStringLiteral("%1 px high at %2 px wide, room %3")
                            .arg(note.size().height())
                            .arg(width)
                            .arg(room)));
}

// Issue #42 item 4: the handout printed "Attainable arith..." while its check passed: Qt Charts
// elides with three dots, the probe looked for the ellipsis character only.
void ViewsFit::printedTextCutShortIsFound()
{
    views::TextSizeProbe probe(QSize(800, 600), 200);
    QPainter painter(&probe);
    painter.drawText(QPointF(10, 50), QStringLiteral("Attainable arith..."));
    painter.drawText(QPointF(10, 150), QStringLiteral("Runtim\u2026"));
    painter.drawText(QPointF(10, 250), QStringLiteral("Arithmetic intensity (FLOP per byte)"));
    painter.end();
    QCOMPARE(probe.elided(),
             (QStringList{QStringLiteral("Attainable arith..."), QStringLiteral("Runtim\u2026")}));
}

// Issue #42 item 10: Import Measurements cut run names mid-name ("Llama-3.1-8B, H1...batch 1")
// in a dialog the size it opens at on a 1280x800 screen.
void ViewsFit::importMeasurementsShowsWholeRunNames()
{
    views::ScenarioDocument document;
    views::MeasurementsDialog dialog(&document);
    QString error;
    QVERIFY2(dialog.load(
                 {testpaths::sourceDir() + QStringLiteral("/presets/measurements/published.csv")},
                 &error),
             qPrintable(error));
    viewtestsupport::showOffscreen(dialog, {1100, 760});
    QVERIFY(dialog.table()->rowCount() > 10);
    const QStringList problems = fitProblems(dialog);
    if (const QString folder = qEnvironmentVariable("ACCEL_FIT_SHOTS"); !folder.isEmpty())
        dialog.grab().save(folder + QStringLiteral("/import-measurements.png"));
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

void ViewsFit::everyViewFitsItsScreen_data()
{
    QTest::addColumn<QSize>("screen");
    QTest::addColumn<bool>("presenter");
    QTest::addColumn<QString>("scenario");
    const QList<std::pair<QSize, bool>> screens = {{{1280, 800}, false}, {{1366, 768}, false},
                                                   {{1280, 720}, true},  {{1280, 800}, true},
                                                   {{1366, 768}, true},  {{1920, 1080}, true}};
    // the lesson's scenario (the class) and a 70B fleet decision (the engineer, the stakeholder)
    for (const QString &scenario :
         {QStringLiteral("lesson-default"), QStringLiteral("llama-70b-fleet")})
        for (const auto &[size, presenter] : screens)
            QTest::newRow(
                qPrintable(QStringLiteral("%1 %2x%3%4")
                               .arg(scenario)
                               .arg(size.width())
                               .arg(size.height())
                               .arg(presenter ? QStringLiteral(" presenter") : QString())))
                << size << presenter << scenario;
}

void ViewsFit::everyViewFitsItsScreen()
{
    QFETCH(QSize, screen);
    QFETCH(bool, presenter);
    QFETCH(QString, scenario);
    viewtestsupport::PresenterScale restore(false); // the next row starts at 1x
    MainWindow window;
    const auto text = core::scenarioPresetText(scenario.toStdString());
    QVERIFY(text);
    window.document()->reset(core::readScenario(*text).value().scenario);
    window.setAttribute(Qt::WA_DontShowOnScreen);
    window.resize(screen);
    window.show();
    if (presenter) {
        window.setPresenterScreenHeight(screen.height());
        window.setPresenterMode(true);
        window.setWindowState(Qt::WindowNoState);
    }
    window.resize(screen);
    QCoreApplication::processEvents();
    QStringList problems = tabBarProblems(window);
    for (const QString &name : views::viewNames()) {
        window.showView(name);
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
        views::View *shown = window.view(name);
        QVERIFY2(shown && shown->isVisible(), qPrintable(name));
        // the load views draw when their simulation is in: look at the drawing, not the wait
        for (const views::LoadRunner *runner : shown->findChildren<views::LoadRunner *>())
            QTRY_VERIFY_WITH_TIMEOUT(!runner->busy(), 30000);
        QCoreApplication::processEvents();
        const QStringList found = fitProblems(*shown);
        for (const QString &problem : found)
            problems << name + QStringLiteral(": ") + problem;
        // ACCEL_FIT_SHOTS=folder keeps a picture of each window that failed, to look at
        // (ACCEL_FIT_SHOTS_ALL=1: every window)
        if (const QString folder = qEnvironmentVariable("ACCEL_FIT_SHOTS");
            (!found.isEmpty() || qEnvironmentVariableIsSet("ACCEL_FIT_SHOTS_ALL")) &&
            !folder.isEmpty())
            window.grab().save(folder +
                               QStringLiteral("/%1 %2.png")
                                   .arg(QString::fromLatin1(QTest::currentDataTag()), name));
    }
    if (presenter)
        window.setPresenterMode(false);
    QVERIFY2(problems.isEmpty(),
             qPrintable(QStringLiteral("\n") + problems.join(QLatin1Char('\n'))));
}

QTEST_MAIN(ViewsFit)
#include "tst_viewsfit.moc"
