// SPDX-License-Identifier: GPL-3.0-or-later
// The lesson tour: every step with the lesson's numbers.

#include "viewtestsupport.h"

#include "app/mainwindow.h"
#include "views/memory/kvview.h"
#include "views/memory/memoryview.h"
#include "views/memory/oomview.h"
#include "views/scale/interconnectview.h"
#include "views/widgets/batchcontrol.h"
#include "views/widgets/explanationpanel.h"

#include "core/presets.h"
#include "core/scenarioio.h"
#include "views/document/scenariodocument.h"
#include "views/roofline/rooflineview.h"
#include "views/roofline/throughputview.h"
#include "views/widgets/scenariopanel.h"

#include "core/evaluation.h"
#include "core/inside.h"
#include "core/selection.h"

#include "views/compare/compareview.h"
#include "views/cost/costview.h"
#include "views/inside/anatomyview.h"
#include "views/inside/familyview.h"
#include "views/inside/hierarchyview.h"
#include "views/inside/matmulview.h"
#include "views/inside/raceview.h"
#include "views/inside/stackview.h"
#include "views/precision/precisionview.h"
#include "views/precision/quantisationview.h"
#include "views/scale/powerview.h"
#include "views/tour/tour.h"
#include "views/tour/tourpanel.h"
#include "views/viewregistry.h"
#include "views/widgets/style.h"
#include "views/wizard/checksview.h"
#include "views/wizard/decisionview.h"
#include "views/wizard/selectionwizard.h"

#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGraphicsLineItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QImage>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using viewtestsupport::showOffscreen;

class TourViews : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void tourVisitsEveryStepWithTheLessonsNumbers();
};

void TourViews::initTestCase()
{
    viewtestsupport::initViewTests(QStringLiteral("tst_tourviews"));
}

// Every step loads its lesson scenario, brings its view forward and shows the lesson's number.
void TourViews::tourVisitsEveryStepWithTheLessonsNumbers()
{
    MainWindow window;
    showOffscreen(window);
    views::TourPanel *tour = window.tourPanel();
    const QList<views::TourStep> &steps = views::tourSteps();
    QVERIFY(steps.size() >= 15);
    // issue #23: a step that asks the class to predict does not print the answer in its text
    for (const views::TourStep &step : steps) {
        if (!step.predict)
            continue;
        for (const double shown : {step.lessonValue, step.lessonValue / 1e9}) {
            const QString value = views::style::number(shown, 4);
            if (shown >= 10) // a bare 7 or 1 matches too much ("7B", "one") to be a leak
                QVERIFY2(!step.text.contains(value),
                         qPrintable(step.title + QStringLiteral(": ") + value));
        }
    }
    // issue #23: a lesson step in a fresh window is not unsaved work ("untitled*" on the projector)
    window.startTour(0);
    QCoreApplication::processEvents();
    QVERIFY(!window.isWindowModified());
    QVERIFY(!window.document()->isModified());
    // the toolbar says "Undo", not "Undo Tour: ..." on the projector; the tooltip says what
    auto *undo = window.findChild<QAction *>(QStringLiteral("toolbarUndo"));
    QVERIFY(undo);
    QCOMPARE(undo->text(), QStringLiteral("Undo"));
    QVERIFY(undo->isEnabled());
    QVERIFY2(undo->toolTip().startsWith(QStringLiteral("Undo Tour: ")),
             qPrintable(undo->toolTip()));
    for (int i = 0; i < steps.size(); ++i) {
        window.startTour(i);
        QCoreApplication::processEvents();
        const views::TourStep &step = steps[i];
        const double value = window.document()->evaluation()[step.figure];
        QVERIFY2(std::fabs(value - step.lessonValue) <= step.tolerance,
                 qPrintable(QStringLiteral("step %1 %2: %3 against the lesson's %4 (l.%5)")
                                .arg(i + 1)
                                .arg(step.title)
                                .arg(value, 0, 'g', 8)
                                .arg(step.lessonValue, 0, 'g', 8)
                                .arg(step.line)));
        views::View *shown = window.view(step.view);
        QVERIFY2(shown, qPrintable(step.view));
        QVERIFY(window.tabs()->currentWidget()->isAncestorOf(shown));
        QCOMPARE(tour->revealed(), !step.predict);
        if (step.predict) { // predict first: the number is hidden until revealed
            QVERIFY(tour->text().contains(QStringLiteral("predict it")));
            tour->reveal();
            QVERIFY(!tour->text().contains(QStringLiteral("predict it")));
        }
    }
    // change an input, then one click back to the lesson's values
    window.startTour(int(steps.size()) - 1); // the OOM diagnosis: 13 fit
    QVERIFY(window.document()->setNumber(QStringLiteral("serving.context_tokens"), 2048));
    window.document()->flush();
    QVERIFY(window.document()->evaluation()[core::FigureId::MaxConcurrentSequences] != 13.0);
    tour->restoreLessonValues();
    QCOMPARE(window.document()->evaluation()[core::FigureId::MaxConcurrentSequences], 13.0);
    // try it: 27 sequences with 1-byte weights (l.260)
    QVERIFY(!tour->answer(QStringLiteral("13")));
    QVERIFY(tour->answer(QStringLiteral("27")));
    // issue #23: R and B are the class's keys whatever has the focus; the Model picker, which
    // had the focus at start, used to receive them ("Lesson 7B (illustrative)r")
    {
        int predicting = -1;
        for (int i = 0; i < steps.size() && predicting < 0; ++i)
            if (steps[i].predict)
                predicting = i;
        QVERIFY(predicting >= 0);
        window.startTour(predicting);
        QCoreApplication::processEvents();
        QVERIFY(!qobject_cast<QLineEdit *>(QApplication::focusWidget())); // focus on the view
        QComboBox *picker = window.findChild<views::ScenarioPanel *>()->modelPicker();
        picker->lineEdit()->setFocus();
        const QString before = picker->currentText();
        QVERIFY(!tour->revealed());
        QTest::keyClick(picker->lineEdit(), Qt::Key_R);
        QVERIFY(tour->revealed());
        QCOMPARE(picker->currentText(), before);
        QTest::keyClick(picker->lineEdit(), Qt::Key_B);
        QVERIFY(window.blanked());
        QTest::keyClick(picker->lineEdit(), Qt::Key_Space);
        QVERIFY(!window.blanked());
        QCOMPARE(picker->currentText(), before);
    }
    // issue #23: F5 (presenter mode rebuilds the views at the new size) keeps the view on show,
    // also the second view of a tab of inner tabs
    window.showView(QStringLiteral("hierarchy"));
    QCoreApplication::processEvents();
    QVERIFY(window.view(QStringLiteral("hierarchy"))->isVisible());
    window.setPresenterMode(true);
    QCoreApplication::processEvents();
    QVERIFY(window.view(QStringLiteral("hierarchy"))->isVisible());
    QVERIFY(!window.view(QStringLiteral("anatomy"))->isVisible());
    window.setPresenterMode(false);
    QCoreApplication::processEvents();
    QVERIFY(window.view(QStringLiteral("hierarchy"))->isVisible());
    // a presentation clicker: PageUp / PageDown step, B blanks, any key comes back
    window.startTour(2);
    window.tabs()->setFocus();
    QTest::keyClick(window.tabs(), Qt::Key_PageDown);
    QCOMPARE(tour->step(), 3);
    QTest::keyClick(window.tabs(), Qt::Key_PageUp);
    QCOMPARE(tour->step(), 2);
    QTest::keyClick(window.tabs(), Qt::Key_B);
    QVERIFY(window.blanked());
    QTest::keyClick(window.tabs(), Qt::Key_Space);
    QVERIFY(!window.blanked());
}

QTEST_MAIN(TourViews)
#include "tst_tourviews.moc"
