// SPDX-License-Identifier: GPL-3.0-or-later
// The roofline and throughput views and the main window, offscreen: the slider moves the
// operating point, a device change moves the roof, the wall sits at max_concurrent_sequences, a
// view shown after edits is current, and exports write real files.

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

using core::FigureId;

namespace {

void showOffscreen(QWidget &widget, QSize size = {1280, 800})
{
    widget.setAttribute(Qt::WA_DontShowOnScreen);
    widget.resize(size);
    widget.show();
    QCoreApplication::processEvents();
}

#define ACCEL_COMPARE_NEAR_VIEWS(actual, expected)                                                 \
    QVERIFY2(std::fabs((actual) - (expected)) <= 1e-9 * std::fabs(expected),                       \
             qPrintable(QString::number(actual, 'g', 12)))

bool near(double a, double b, double relative = 1e-9)
{
    return std::fabs(a - b) <= relative * std::max(std::fabs(a), std::fabs(b));
}

} // namespace

class ViewsTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void sliderMovesTheOperatingPoint();
    void deviceChangeMovesTheRoof();
    void rooflineDrawsTheLimitAndPrefill();
    void wallSitsAtMaxConcurrentSequences();
    void hiddenViewIsCurrentWhenShown();
    void exportsWriteFiles();
    void mainWindowVerdictsAndTitle();
    void editorsRefuseWithAReason();
    void hoverExplainsAFigure();
    void memoryBarsMatchTheCore();
    void oomDiagnosisShowsTheLessonsNumbers();
    void kvViewMarksTheFailingRequest();
    void hiddenTabsAreBuiltWhenFirstShown();
    void wizardTabSelectsOncePerChange();
    void aSaveRefreshesNoView();
    void checksTableFollowsTheScenario();
    void applyingTheDecisionIsOneUndoStep();
    void wizardWalksTheLessonCase();
    void wizardImportsModelsAndPricesCandidates();
    void anatomyBlocksExplainThemselves();
    void hierarchyTextsFitAtBothSizes_data();
    void hierarchyTextsFitAtBothSizes();
    void matmulStepMachine();
    void raceMatchesTheCore();
    void familyPointsAreThePresets();
    void displacedLabelsGetALeaderToTheirPoint();
    void stackLayersAndTheDiagnosisOrder();
    void precisionShowsAValueInEveryFormat();
    void quantisationWorkbench();
    void costAgainstUtilisation();
    void interconnectReadsTheLessonsCases();
    void powerReadsTheLessonsRack();
    void tourVisitsEveryStepWithTheLessonsNumbers();
    void compareShowsTheDifferences();
    void chartLabelsNeverOverlap_data();
    void chartLabelsNeverOverlap();
};

void ViewsTest::initTestCase()
{
    QStandardPaths::setTestModeEnabled(
        true); // autosave and settings stay out of the user's folders
    QCoreApplication::setOrganizationName(QStringLiteral("AcceleratorExplorerTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_views"));
}

void ViewsTest::sliderMovesTheOperatingPoint()
{
    views::ScenarioDocument doc;
    views::RooflineView view(&doc);
    showOffscreen(view);
    const QPointF before = view.operatingPoint();
    QVERIFY(near(before.x(), doc.evaluation()[FigureId::DecodeIntensity]));
    // Drag the slider to its last stop (batch 1024).
    QSlider *slider = view.batchControl()->slider();
    slider->setValue(slider->maximum());
    QCOMPARE(doc.scenario().serving.batch, 1024.0);
    QTRY_VERIFY(view.operatingPoint().x() > before.x());
    QVERIFY(near(view.operatingPoint().x(), doc.evaluation()[FigureId::DecodeIntensity]));
    QVERIFY(
        near(view.operatingPoint().y() * 1e12, doc.evaluation()[FigureId::DecodeAttainableFlops]));
    // One drag, one undo step.
    QCOMPARE(doc.undoStack()->count(), 1);
}

void ViewsTest::deviceChangeMovesTheRoof()
{
    views::ScenarioDocument doc;
    views::RooflineView view(&doc);
    showOffscreen(view);
    const QList<QPointF> before = view.roof();
    QVERIFY(before.size() >= 3);
    QVERIFY(near(before[1].x(), 200)); // the ridge of the lesson device
    QVERIFY(doc.setNumber(QStringLiteral("device.bandwidth_gb_s"), 2000));
    QTRY_VERIFY(near(view.roof()[1].x(), 100));
    QVERIFY(near(view.roof()[0].y(), 2 * before[0].y())); // twice the bandwidth, twice the slope
}

void ViewsTest::rooflineDrawsTheLimitAndPrefill()
{
    views::ScenarioDocument doc;
    views::RooflineView view(&doc);
    showOffscreen(view);
    QVERIFY(near(view.intensityLimitDrawn(), doc.evaluation()[FigureId::DecodeIntensityLimit]));
    QVERIFY(view.prefillPoint().x() > doc.evaluation()[FigureId::Ridge]); // compute side
    view.setComparisonDevice(QStringLiteral("lesson-accelerator-24gb"));
    QVERIFY(view.csv().startsWith(QStringLiteral("batch,intensity")));
}

void ViewsTest::wallSitsAtMaxConcurrentSequences()
{
    views::ScenarioDocument doc;
    views::ThroughputView view(&doc);
    showOffscreen(view);
    QCOMPARE(view.wallBatch(), doc.evaluation()[FigureId::MaxConcurrentSequences]); // 118
    QVERIFY(doc.setDevicePreset(QStringLiteral("lesson-accelerator-24gb")));
    QTRY_COMPARE(view.wallBatch(), 0.0); // 32 resident sequences never fit on 24 GB
    QVERIFY(doc.setNumber(QStringLiteral("serving.concurrent_sequences"), 4));
    QTRY_COMPARE(view.wallBatch(), 13.0); // the lesson's 13 (l.255)
}

void ViewsTest::hiddenViewIsCurrentWhenShown()
{
    views::ScenarioDocument doc;
    views::RooflineView view(&doc); // never shown yet
    QVERIFY(doc.setNumber(QStringLiteral("serving.batch"), 32));
    doc.flush();
    QCOMPARE(view.operatingPoint(), QPointF()); // a hidden view does no work
    showOffscreen(view);
    QVERIFY(near(view.operatingPoint().x(), doc.evaluation()[FigureId::DecodeIntensity]));
}

void ViewsTest::exportsWriteFiles()
{
    views::ScenarioDocument doc;
    views::RooflineView view(&doc);
    showOffscreen(view, {1000, 700});
    QTemporaryDir dir;
    for (const QString &suffix :
         {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf")}) {
        const QString path = dir.filePath(QStringLiteral("roofline.") + suffix);
        QString error;
        QVERIFY2(view.exportTo(path, &error), qPrintable(error));
        QVERIFY(QFileInfo(path).size() > 1000);
    }
    // The PNG is a picture of the chart, not a blank: the roof is drawn in black.
    QImage image(dir.filePath(QStringLiteral("roofline.png")));
    QCOMPARE(image.size(), QSize(2000, 1400));
    int dark = 0;
    for (int y = 0; y < image.height(); y += 4)
        for (int x = 0; x < image.width() * 2 / 3; x += 4)
            dark += qGray(image.pixel(x, y)) < 60 ? 1 : 0;
    QVERIFY2(dark > 200, qPrintable(QString::number(dark)));
    QFile svg(dir.filePath(QStringLiteral("roofline.svg")));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    QVERIFY(svg.readAll().contains("<svg"));
    QString error;
    QVERIFY(!view.exportTo(dir.filePath(QStringLiteral("x.doc")), &error));
    QVERIFY(error.contains(QStringLiteral("unknown format")));
}

void ViewsTest::mainWindowVerdictsAndTitle()
{
    MainWindow window;
    showOffscreen(window);
    const QStringList verdicts = window.verdicts();
    // ui.md: 33.7 of 80 GB, 46.3 GB headroom, 437 tokens/s total, 54.7 per sequence, memory-bound
    QVERIFY2(verdicts[0].contains(QStringLiteral("33.68 GB of 80 GB")) &&
                 verdicts[0].contains(QStringLiteral("46.32 GB")),
             qPrintable(verdicts[0]));
    QVERIFY2(verdicts[1].contains(QStringLiteral("437 tokens/s total, 54.7 per sequence")),
             qPrintable(verdicts[1]));
    QCOMPARE(verdicts[2], QStringLiteral("memory-bound"));
    QVERIFY(!window.isWindowModified());
    QVERIFY(window.document()->setDevicePreset(QStringLiteral("lesson-accelerator-24gb")));
    window.document()->flush();
    QVERIFY(window.isWindowModified());
    QVERIFY2(window.verdicts()[0].startsWith(QStringLiteral("Does not fit")),
             qPrintable(window.verdicts()[0]));
    // The other tab's views follow the same document.
    auto *throughput =
        qobject_cast<views::ThroughputView *>(window.view(QStringLiteral("throughput")));
    QVERIFY(throughput);
    QTRY_COMPARE(throughput->wallBatch(), 0.0);
}

void ViewsTest::editorsRefuseWithAReason()
{
    MainWindow window;
    showOffscreen(window);
    QAbstractSpinBox *prompt =
        window.scenarioPanel()->editor(QStringLiteral("serving.prompt_tokens"));
    QVERIFY(prompt);
    QVERIFY(prompt->toolTip().contains(QStringLiteral("Valid:")));
    QVERIFY(window.document()->setNumber(QStringLiteral("serving.context_tokens"), 2048));
    window.document()->flush();
    auto *spin = qobject_cast<QSpinBox *>(prompt);
    spin->setValue(3000); // longer than the context
    emit spin->editingFinished();
    QVERIFY2(
        window.scenarioPanel()->lastRefusal().contains(QStringLiteral("longer than the context")),
        qPrintable(window.scenarioPanel()->lastRefusal()));
    QCOMPARE(window.document()->scenario().serving.promptTokens, 2048.0);
}

void ViewsTest::hoverExplainsAFigure()
{
    MainWindow window;
    showOffscreen(window);
    auto *roofline = qobject_cast<views::RooflineView *>(window.view(QStringLiteral("roofline")));
    QVERIFY(roofline);
    emit roofline->explainRequested(FigureId::Ridge);
    const QString text = window.explanationPanel()->toPlainText();
    QVERIFY2(text.contains(QStringLiteral("ridge point = peak arithmetic / memory bandwidth")),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("200 TFLOP/s / 1,000 GB/s = 200 FLOP/B")),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("lesson l.93")), qPrintable(text));
}

// The lesson's 7B: 112 GB of training state (l.63), 14 GB BF16 and 7 GB 1-byte weights (l.45-46),
// a KV cache of 17.18 GB at 32 x 4096 (l.84), against the 80 GB lesson device.
void ViewsTest::memoryBarsMatchTheCore()
{
    views::ScenarioDocument doc;
    views::MemoryView view(&doc);
    showOffscreen(view);
    QCOMPARE(view.categories().size(), 3);
    const QList<double> weights = view.segment(QStringLiteral("Weights"));
    QCOMPARE(weights, (QList<double>{14e9, 14e9, 7e9}));
    double state = 0;
    for (const char *part : {"Weights", "Gradients", "FP32 master copy", "Optimiser moments"})
        state += view.segment(QLatin1String(part))[0];
    QCOMPARE(state, 112e9);
    QVERIFY(view.segment(QStringLiteral("Activations"))[0] >
            0); // its own segment, outside the 112 GB
    QCOMPARE(view.segment(QStringLiteral("KV cache"))[1], 17179869184.0);
    QCOMPARE(view.segment(QStringLiteral("Runtime context"))[1], 1.5e9);
    QCOMPARE(view.segment(QStringLiteral("Workspace"))[1], 1.0e9);
    QCOMPARE(view.capacityDrawn(), 80e9);
    QVERIFY2(view.headroomTexts()[1].contains(QStringLiteral("46.32 GB headroom")),
             qPrintable(view.headroomTexts()[1]));
    QVERIFY2(view.headroomTexts()[0].contains(QStringLiteral("short by")),
             qPrintable(view.headroomTexts()[0]));
    // the 18 B/param convention is one click away; ZeRO-3 over 8 devices divides the state by 8
    QVERIFY(doc.setNumber(QStringLiteral("training.zero_stage"), 3));
    QVERIFY(doc.setNumber(QStringLiteral("training.dp_degree"), 8));
    doc.flush();
    double sharded = 0;
    for (const char *part : {"Weights", "Gradients", "FP32 master copy", "Optimiser moments"})
        sharded += view.segment(QLatin1String(part))[0];
    QCOMPARE(sharded, 14e9);
}

// l.255-265: 7.5 GB for KV, 13 sequences, the 14th fails; 27 with 1-byte weights, 24 guarded.
void ViewsTest::oomDiagnosisShowsTheLessonsNumbers()
{
    views::ScenarioDocument doc;
    auto text = core::scenarioPresetText("oom-14th-request");
    doc.reset(core::readScenario(*text).value().scenario);
    views::OomView view(&doc);
    showOffscreen(view);
    QString shown = view.text();
    for (const char *expected :
         {"7.5 GB for the KV cache", "13.97", "13 sequences fit", "14th request fails",
          "Use 1-byte weights (INT8 or FP8): 27 sequences", "could never have been served"})
        QVERIFY2(shown.contains(QLatin1String(expected)), expected);
    doc.setWeightFormat(core::NumericFormat::Int8);
    doc.flush();
    shown = view.text();
    QVERIFY2(shown.contains(QStringLiteral("24 of a theoretical 27")), qPrintable(shown));
}

// l.255: the 14th request fails; cutting the context budget moves the limit (l.89-91).
void ViewsTest::kvViewMarksTheFailingRequest()
{
    views::ScenarioDocument doc;
    doc.reset(core::readScenario(*core::scenarioPresetText("oom-14th-request")).value().scenario);
    views::KvView view(&doc);
    showOffscreen(view);
    QCOMPARE(view.firstFailingDrawn(), 14.0);
    QCOMPARE(view.admissionLimitDrawn(), 11.0);
    QVERIFY(doc.setNumber(QStringLiteral("serving.context_tokens"), 2048));
    doc.flush();
    QCOMPARE(view.firstFailingDrawn(), 28.0); // floor(7.5e9 / 268,435,456) = 27 fit
    view.gqaToggle()->setChecked(true);       // an overlay only: the scenario is unchanged
    QCOMPARE(doc.scenario().model.kvHeads, 8.0);
    QVERIFY(!view.csv().isEmpty());
}

void ViewsTest::hiddenTabsAreBuiltWhenFirstShown()
{
    QSettings().setValue(QStringLiteral("window/tab"), 0);
    MainWindow window;
    showOffscreen(window);
    QCOMPARE(window.tabs()->count(), 8); // Roofline, Memory, Inside, Wizard, Precision, Scale,
                                         // Cost, Compare
    QVERIFY(!window.findChild<views::MemoryView *>()); // not built at start-up
    QVERIFY(window.document()->setDevicePreset(QStringLiteral("lesson-accelerator-24gb")));
    window.document()->flush();
    window.tabs()->setCurrentIndex(1); // a tab opened after edits shows current values
    QCoreApplication::processEvents();
    auto *memory = window.findChild<views::MemoryView *>();
    QVERIFY(memory);
    QCOMPARE(memory->capacityDrawn(), 24e9);
    QVERIFY(window.view(QStringLiteral("kv")));
}

// Issue #19: the checks and the decision each ran the device selection on every change; the
// document now runs it once per revision and both read it. Views on hidden tabs run nothing.
void ViewsTest::wizardTabSelectsOncePerChange()
{
    MainWindow window;
    showOffscreen(window);
    views::ScenarioDocument *doc = window.document();
    window.showView(QStringLiteral("checks"));
    QCoreApplication::processEvents();
    auto *checks = qobject_cast<views::ChecksView *>(window.view(QStringLiteral("checks")));
    auto *decision = qobject_cast<views::DecisionView *>(window.view(QStringLiteral("decision")));
    QVERIFY(checks && decision && checks->isVisible() && decision->isVisible());
    const int runs = doc->selectionRuns();
    const int checksRefreshes = checks->refreshCount();
    const int decisionRefreshes = decision->refreshCount();
    QVERIFY(doc->setNumber(QStringLiteral("serving.concurrent_sequences"), 20));
    doc->flush();
    QCoreApplication::processEvents();
    QCOMPARE(doc->selectionRuns() - runs, 1);
    QCOMPARE(checks->refreshCount() - checksRefreshes, 1); // both views did refresh
    QCOMPARE(decision->refreshCount() - decisionRefreshes, 1);
    QVERIFY2(
        checks->table()
            ->item(0, views::ChecksView::kFirstCheckColumn + 1)
            ->toolTip()
            .contains(QStringLiteral("20 sequences")),
        qPrintable(checks->table()->item(0, views::ChecksView::kFirstCheckColumn + 1)->toolTip()));

    window.showView(QStringLiteral("roofline")); // the Wizard tab hidden: nothing selects
    QCoreApplication::processEvents();
    const int hiddenRuns = doc->selectionRuns();
    QVERIFY(doc->setNumber(QStringLiteral("serving.concurrent_sequences"), 24));
    doc->flush();
    QCoreApplication::processEvents();
    QCOMPARE(doc->selectionRuns(), hiddenRuns);
}

// A save changes the file name and the clean state, nothing a view draws: no view refreshes.
void ViewsTest::aSaveRefreshesNoView()
{
    MainWindow window;
    showOffscreen(window);
    views::ScenarioDocument *doc = window.document();
    QVERIFY(doc->setNumber(QStringLiteral("serving.batch"), 16));
    doc->flush();
    QCoreApplication::processEvents();
    auto *roofline = window.view(QStringLiteral("roofline"));
    QVERIFY(roofline && roofline->isVisible());
    const int before = roofline->refreshCount();
    QTemporaryDir dir;
    QString error;
    QVERIFY2(doc->save(dir.filePath(QStringLiteral("s.json")), &error), qPrintable(error));
    doc->flush();
    QCoreApplication::processEvents();
    QCOMPARE(roofline->refreshCount(), before);
    QVERIFY(!doc->isModified());
}

QTEST_MAIN(ViewsTest)
// l.215: the 24 GB device fails memory; the table, its reasoning and its sorting follow the core.
void ViewsTest::checksTableFollowsTheScenario()
{
    views::ScenarioDocument doc;
    doc.reset(core::readScenario(*core::scenarioPresetText("support-assistant")).value().scenario);
    views::ChecksView view(&doc);
    showOffscreen(view);
    QTableWidget *table = view.table();
    QCOMPARE(table->rowCount(), 6);
    const int memory = views::ChecksView::kFirstCheckColumn + int(core::CheckKind::Memory);
    int smallRow = -1;
    for (int row = 0; row < table->rowCount(); ++row) {
        if (table->item(row, 0)->toolTip() == QStringLiteral("lesson-accelerator-24gb") &&
            table->item(row, 1)->text() == QStringLiteral("BF16"))
            smallRow = row;
    }
    QVERIFY(smallRow >= 0);
    QVERIFY2(table->item(smallRow, memory)->text().contains(QStringLiteral("short by 8.729 GB")),
             qPrintable(table->item(smallRow, memory)->text()));
    table->setCurrentCell(smallRow, memory);
    QVERIFY2(view.reasoning().contains(QStringLiteral("Needs 32.73 GB for 40 sequences")),
             qPrintable(view.reasoning()));
    int recommended = 0;
    for (int row = 0; row < table->rowCount(); ++row)
        recommended += table->item(row, 2)->text().contains(QStringLiteral("recommended"));
    QCOMPARE(recommended, 1);
    table->sortItems(3, Qt::DescendingOrder); // by monthly cost
    for (int row = 1; row < table->rowCount(); ++row)
        QVERIFY(table->item(row - 1, 3)->data(Qt::UserRole).toDouble() >=
                table->item(row, 3)->data(Qt::UserRole).toDouble());
    // 80 sequences no longer fit 48 GB with BF16 weights (78 do): still the smallest capacity
    // that passes, now with 1-byte weights
    QVERIFY(doc.setNumber(QStringLiteral("serving.concurrent_sequences"), 80));
    doc.flush();
    QCOMPARE(view.selection().recommendation.deviceId, std::string("lesson-accelerator-48gb"));
    QCOMPARE(view.selection().recommendation.weightFormat, core::NumericFormat::Int8);
    QVERIFY(!view.csv().isEmpty());
}

void ViewsTest::applyingTheDecisionIsOneUndoStep()
{
    views::ScenarioDocument doc;
    doc.reset(core::readScenario(*core::scenarioPresetText("support-assistant")).value().scenario);
    QVERIFY(doc.setDevicePreset(QStringLiteral("lesson-accelerator")));
    doc.flush();
    views::DecisionView view(&doc);
    showOffscreen(view);
    QVERIFY(view.text().contains(QStringLiteral("Recommended: Lesson accelerator, 48 GB")));
    QVERIFY(view.applyButton()->isEnabled());
    const int steps = doc.undoStack()->count();
    QVERIFY(view.applyRecommendation());
    doc.flush();
    QCOMPARE(doc.undoStack()->count(), steps + 1);
    QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Apply Recommendation"));
    QCOMPARE(doc.scenario().device.presetId, std::string("lesson-accelerator-48gb"));
    QVERIFY(!view.applyButton()->isEnabled()); // nothing left to apply
    doc.undoStack()->undo();
    doc.flush();
    QCOMPARE(doc.scenario().device.presetId, std::string("lesson-accelerator"));
    QVERIFY(view.applyButton()->isEnabled());
}

// The lesson's walkthrough typed into the wizard (l.204): 40 x (2,500 + 500) tokens, 3 GB runtime.
void ViewsTest::wizardWalksTheLessonCase()
{
    views::ScenarioDocument doc; // the lesson's default: the 80 GB device
    views::SelectionWizard wizard(&doc);
    showOffscreen(wizard, {980, 700});
    auto type = [&](const char *name, double value) {
        auto *spin = wizard.findChild<QDoubleSpinBox *>(QLatin1String(name));
        QVERIFY2(spin, name);
        spin->setValue(value);
        emit spin->editingFinished();
    };
    wizard.next(); // regime: online, as the scenario says
    type("serving.concurrent_sequences", 40);
    type("serving.prompt_tokens", 2500);
    type("generated_tokens", 500);
    type("serving.overhead_gb", 3);
    QVERIFY2(wizard.lastRefusal().isEmpty(), qPrintable(wizard.lastRefusal()));
    type("serving.prompt_tokens", 5000); // longer than the context: refused with the reason
    QVERIFY(!wizard.lastRefusal().isEmpty());
    QCOMPARE(wizard.working()->scenario().serving.promptTokens, 2500.0);
    QCOMPARE(wizard.working()->scenario().serving.contextTokens, 3000.0);
    QCOMPARE(doc.scenario().serving.concurrentSequences, 32.0); // nothing applied yet
    wizard.next();
    wizard.next();
    QCOMPARE(wizard.currentId(), int(views::SelectionWizard::ChecksPage));
    auto *checks = wizard.findChild<views::ChecksView *>();
    QVERIFY(checks);
    checks->ensureCurrent();
    QCOMPARE(checks->table()->rowCount(), 6);
    wizard.next();
    auto *decision = wizard.findChild<views::DecisionView *>();
    decision->ensureCurrent();
    QVERIFY2(decision->text().contains(QStringLiteral("Lesson accelerator, 48 GB")),
             qPrintable(decision->text()));
    const int steps = doc.undoStack()->count();
    wizard.accept();
    doc.flush();
    QCOMPARE(doc.undoStack()->count(), steps + 1);
    QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Apply Device Selection"));
    QCOMPARE(doc.scenario().device.presetId, std::string("lesson-accelerator-48gb"));
    QCOMPARE(doc.scenario().serving.concurrentSequences, 40.0);
    QCOMPARE(doc.scenario().serving.contextTokens, 3000.0);
    doc.undoStack()->undo(); // one step takes it all back
    doc.flush();
    QCOMPARE(doc.scenario().device.presetId, std::string("lesson-accelerator"));
    QCOMPARE(doc.scenario().serving.concurrentSequences, 32.0);
}

void ViewsTest::wizardImportsModelsAndPricesCandidates()
{
    views::ScenarioDocument doc;
    doc.reset(core::readScenario(*core::scenarioPresetText("support-assistant")).value().scenario);
    views::SelectionWizard wizard(&doc);
    showOffscreen(wizard, {980, 700});
    QVERIFY(!wizard.importModel(QStringLiteral(ACCEL_FIXTURES_DIR "/hf/deepseek-v3.json")));
    QVERIFY2(wizard.lastRefusal().contains(QStringLiteral("model_type")),
             qPrintable(wizard.lastRefusal()));
    QVERIFY(wizard.importModel(QStringLiteral(ACCEL_FIXTURES_DIR "/hf/mistral-7b-v0.1.json")));
    QCOMPARE(wizard.working()->scenario().model.layers, 32.0);
    QVERIFY(wizard.working()->scenario().model.presetId.empty()); // imported inline

    wizard.setCandidatePrice(QStringLiteral("lesson-accelerator-48gb"), 2.5);
    QCOMPARE(wizard.working()->scenario().wizard.prices.at("lesson-accelerator-48gb"), 2.5);
    wizard.addCustomDevice(QStringLiteral("Quote X"), 64, 1500, 300, 1.5);
    QCOMPARE(wizard.working()->scenario().wizard.customDevices.size(), std::size_t(1));
    const core::Selection s = core::selectDevice(wizard.working()->scenario());
    bool checked = false;
    for (const core::Candidate &c : s.candidates)
        checked |= c.deviceId == "Quote X" &&
                   c.check(core::CheckKind::Cost).figure("price_per_hour_usd") == 1.5;
    QVERIFY(checked);
    QCOMPARE(doc.scenario().wizard.customDevices.size(), std::size_t(0)); // until applied
    wizard.reject();
    QCOMPARE(doc.scenario().wizard.prices.size(), std::size_t(0)); // cancelling changes nothing
}

void ViewsTest::anatomyBlocksExplainThemselves()
{
    views::ScenarioDocument doc;
    views::AnatomyView view(&doc);
    showOffscreen(view);
    using Block = views::AnatomyView::Block;
    views::AnatomyCanvas *canvas = view.canvas();
    for (int i = 0; i < views::AnatomyView::kBlockCount; ++i) // every block can be hit
        QCOMPARE(canvas->blockAt(canvas->blockRect(Block(i)).center()) >= 0, true);
    QCOMPARE(canvas->blockAt(canvas->blockRect(Block::Host).center()), int(Block::Host));
    QTest::mouseClick(canvas, Qt::LeftButton, {},
                      canvas->blockRect(Block::Matrix).center().toPoint());
    QCOMPARE(view.selectedBlock(), Block::Matrix);
    QVERIFY2(view.description().contains(QStringLiteral("BF16: 200 TFLOP/s dense")),
             qPrintable(view.description()));
    view.selectBlock(Block::Sram); // the lesson's device has no SRAM figure: it says so
    QVERIFY(view.description().contains(QStringLiteral("The preset gives no on-chip SRAM figure")));
    QVERIFY(doc.setDevicePreset(QStringLiteral("nvidia-h100-sxm")));
    doc.flush();
    QVERIFY2(view.description().contains(QStringLiteral("50 MB")), qPrintable(view.description()));
    view.selectBlock(Block::Hbm);
    QVERIFY(view.description().contains(QStringLiteral("Bandwidth: 3,350 GB/s")));
}

void ViewsTest::hierarchyTextsFitAtBothSizes_data()
{
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("presenter");
    QTest::newRow("1280x800") << QSize(1280, 800) << false;
    QTest::newRow("presenter 1920x1080") << QSize(1920, 1080) << true;
}

// Cold start and spill as the lesson tells them; every label inside the view, none on another.
void ViewsTest::hierarchyTextsFitAtBothSizes()
{
    QFETCH(QSize, size);
    QFETCH(bool, presenter);
    const QFont appFont = QApplication::font();
    if (presenter) {
        views::style::setScale(1.6);
        QApplication::setFont(views::style::scaledFont(appFont, 1.6));
    }
    {
        views::ScenarioDocument doc;
        doc.reset(
            core::readScenario(*core::scenarioPresetText("oom-14th-request")).value().scenario);
        views::HierarchyView view(&doc);
        showOffscreen(view, size);
        view.canvas()->grab(); // paints, recording what it drew
        QVERIFY(view.canvas()->spill().spills);
        ACCEL_COMPARE_NEAR_VIEWS(view.canvas()->coldStart().totalSeconds, 1.12 + 14.0 / 31.5);
        const QRectF bounds = view.canvas()->rect();
        const auto &texts = view.canvas()->drawnTexts();
        QVERIFY(texts.size() > 20);
        for (int i = 0; i < texts.size(); ++i) {
            QVERIFY2(bounds.adjusted(-0.5, -0.5, 0.5, 0.5).contains(texts[i].second),
                     qPrintable(texts[i].first));
            for (int j = i + 1; j < texts.size(); ++j)
                QVERIFY2(!texts[i].second.adjusted(1, 1, -1, -1).intersects(texts[j].second),
                         qPrintable(texts[i].first + QStringLiteral(" / ") + texts[j].first));
        }
        QVERIFY(!view.csv().isEmpty());
    }
    views::style::setScale(1.0);
    QApplication::setFont(appFont);
}

void ViewsTest::matmulStepMachine()
{
    views::ScenarioDocument doc;
    views::MatmulView view(&doc);
    showOffscreen(view);
    QCOMPARE(view.step(), 1);
    view.setStep(6);
    QCOMPARE(view.step(), 6);
    QVERIFY(view.counters().contains(QStringLiteral("Step 6 of 7: Prefetch the next tile")));
    view.stepForward();
    view.stepForward(); // after 7 comes 1 again
    QCOMPARE(view.step(), 1);
    view.setStep(42); // clamped, never out of range
    QCOMPARE(view.step(), 7);
    view.play();
    QVERIFY(view.playing());
    view.pause();
    QVERIFY(!view.playing());
    // tied to the batch: 32 rows feed 31.5 FLOP per byte (2 x 32 x 4096^2 / 2(32x4096 x 2 +
    // 4096^2))
    QVERIFY(doc.setNumber(QStringLiteral("serving.batch"), 32));
    doc.flush();
    const double reuse = core::matmulCounters(doc.scenario(), 32).reusePerByte;
    QVERIFY2(view.counters().contains(views::style::number(reuse, 3)), qPrintable(view.counters()));
    QVERIFY(view.counters().contains(QStringLiteral("the batch (32 rows)")));
}

void ViewsTest::raceMatchesTheCore()
{
    views::ScenarioDocument doc;
    views::RaceView view(&doc);
    showOffscreen(view);
    const core::Race expected = core::race(
        doc.scenario(), core::devicePreset("amd-epyc-9654").value(), doc.scenario().serving.batch);
    QCOMPARE(view.race().cpu.matmulSeconds, expected.cpu.matmulSeconds);
    QCOMPARE(view.race().accelerator.decodeSeconds, expected.accelerator.decodeSeconds);
    // another CPU, another race
    const int laptop = view.cpuPicker()->findData(QStringLiteral("laptop-cpu-illustrative"));
    QVERIFY(laptop >= 0);
    view.cpuPicker()->setCurrentIndex(laptop);
    emit view.cpuPicker()->activated(laptop);
    QVERIFY(view.race().cpu.matmulSeconds > expected.cpu.matmulSeconds);
    QVERIFY(!view.csv().isEmpty());
}

void ViewsTest::familyPointsAreThePresets()
{
    views::ScenarioDocument doc;
    views::FamilyView view(&doc);
    showOffscreen(view);
    int devices = 0;
    for (const core::PresetInfo &info : core::presetList())
        devices += info.kind == "device";
    QVERIFY(view.points().size() >= devices - 2); // every preset with a bandwidth and a peak
    bool h100 = false;
    for (const views::FamilyView::Point &p : view.points()) {
        if (p.id == QStringLiteral("nvidia-h100-sxm")) {
            h100 = true;
            const auto preset = core::devicePreset("nvidia-h100-sxm").value();
            QCOMPARE(p.bandwidthGbs, preset.bandwidthGbPerSecond);
            QCOMPARE(p.peakTflops, preset.peak(core::NumericFormat::Bf16));
            QCOMPARE(p.memoryGb, preset.capacityGb());
        }
    }
    QVERIFY(h100);
    QVERIFY(view.choose(QStringLiteral("nvidia-h100-sxm"))); // a click makes it the device
    doc.flush();
    QCOMPARE(doc.scenario().device.presetId, std::string("nvidia-h100-sxm"));
    QCOMPARE(views::FamilyView::shortName(QStringLiteral("NVIDIA H100 SXM5 80GB")),
             QStringLiteral("H100 SXM5 80GB"));
}

// In the dense 100-1,000 TFLOP/s cluster a device's name cannot sit beside its point; the label
// moved away gets a leader line from the point to the label, and a label in its place gets none.
void ViewsTest::displacedLabelsGetALeaderToTheirPoint()
{
    views::ScenarioDocument doc;
    views::FamilyView view(&doc);
    showOffscreen(view, QSize(1280, 800));
    QCoreApplication::processEvents();
    auto *chartView = view.findChild<QChartView *>();
    QVERIFY(chartView);
    QList<QRectF> labels;
    QList<QLineF> leaders;
    for (QGraphicsItem *item : chartView->scene()->items()) {
        if (!item->isVisible())
            continue;
        if (auto *text = dynamic_cast<QGraphicsSimpleTextItem *>(item);
            text && text->zValue() == 20)
            labels << text->sceneBoundingRect();
        if (auto *line = dynamic_cast<QGraphicsLineItem *>(item); line && line->zValue() == 3.5)
            leaders << QLineF(line->mapToScene(line->line().p1()),
                              line->mapToScene(line->line().p2()));
    }
    QVERIFY(labels.size() >= 20);
    QVERIFY2(!leaders.isEmpty(), "no label in the cluster was given a leader");
    QVERIFY2(leaders.size() < labels.size(), "every label has a leader: none sits at its point");
    const QRectF plot = chartView->chart()->plotArea();
    for (const QLineF &leader : leaders) {
        QVERIFY(plot.contains(leader.p1())); // from a point on the plot
        const bool endsOnALabel = std::any_of(labels.cbegin(), labels.cend(), [&](const QRectF &r) {
            return r.adjusted(-1, -1, 1, 1).contains(leader.p2());
        });
        QVERIFY2(endsOnALabel, "a leader ends away from every label");
        QVERIFY(leader.length() > 5); // a displaced label, not one beside its point
    }
}

void ViewsTest::stackLayersAndTheDiagnosisOrder()
{
    views::ScenarioDocument doc;
    QVERIFY(doc.setNumber(QStringLiteral("serving.tensor_parallel"), 4));
    doc.flush();
    views::StackView view(&doc);
    showOffscreen(view);
    using Layer = views::StackView::Layer;
    QCOMPARE(views::StackView::diagnosisOrder(Layer::Device), 1); // l.313: bottom-up
    QCOMPARE(views::StackView::diagnosisOrder(Layer::Framework), 5);
    QTest::mouseClick(view.canvas(), Qt::LeftButton, {},
                      view.canvas()->layerRect(Layer::Device).center().toPoint());
    QCOMPARE(view.selectedLayer(), Layer::Device);
    QVERIFY2(view.description().contains(QStringLiteral("losing any one of them stops all 4")),
             qPrintable(view.description()));
    view.selectLayer(Layer::Kernels);
    QVERIFY(view.description().contains(QStringLiteral("silently falls back")));
}

void ViewsTest::precisionShowsAValueInEveryFormat()
{
    views::ScenarioDocument doc;
    views::PrecisionView view(&doc);
    showOffscreen(view);
    QVERIFY(!view.setValue(QStringLiteral("not a number")));
    QVERIFY(view.setValue(QStringLiteral("65520")));
    QTableWidget *values = view.valueTable();
    QCOMPARE(values->rowCount(), 8);
    QCOMPARE(values->item(3, 0)->text(), QStringLiteral("FP16"));
    QCOMPARE(values->item(3, 1)->text(), QStringLiteral("infinity")); // IEEE overflow
    QVERIFY(values->item(3, 3)->text().contains(QStringLiteral("65,504")));
    QCOMPARE(values->item(4, 1)->text(), QStringLiteral("448")); // E4M3 saturates, no infinity
    // the current model's weights in every format, the lesson's 3.61 GB for grouped 4-bit (l.50)
    QTableWidget *weights = view.weightTable();
    QCOMPARE(weights->item(weights->rowCount() - 1, 2)->text(), QStringLiteral("3.609 GB"));
    QCOMPARE(weights->item(1, 2)->text(), QStringLiteral("14 GB"));
}

// l.135: [0.020, -0.500, 1.270, 0.003] -> scale 0.01, [2, -50, 127, 0]; l.50: 0.5156 B/param.
void ViewsTest::quantisationWorkbench()
{
    views::ScenarioDocument doc;
    views::QuantisationView view(&doc);
    showOffscreen(view);
    QTableWidget *table = view.table();
    QCOMPARE(table->rowCount(), 4);
    QStringList codes;
    for (int row = 0; row < 4; ++row)
        codes << table->item(row, 2)->text();
    QCOMPARE(codes, QStringLiteral("2 -50 127 0").split(QLatin1Char(' ')));
    QCOMPARE(table->item(0, 1)->text(), QStringLiteral("0.01"));
    QCOMPARE(table->item(3, 3)->text(), QStringLiteral("0")); // 0.003 rounded away
    QVERIFY(view.summary().contains(QStringLiteral("Bytes per parameter: 1 ")));
    view.setBits(4);
    view.setGroupSize(128);
    QVERIFY2(view.summary().contains(QStringLiteral("Bytes per parameter: 0.5156")),
             qPrintable(view.summary()));
    QVERIFY(!view.setWeights(QStringLiteral("1, two, 3")));
    QCOMPARE(table->rowCount(), 4); // a bad vector changes nothing
    view.generateWithOutliers();
    QCOMPARE(table->rowCount(), 64);
}

// l.179-184: $4/h and 400 tokens/s: $2.78 / $3.97 / $7.94 per million at 100 / 70 / 35 %.
void ViewsTest::costAgainstUtilisation()
{
    views::ScenarioDocument doc;
    doc.reset(core::readScenario(*core::scenarioPresetText("cost-example")).value().scenario);
    views::CostView view(&doc);
    showOffscreen(view);
    const QList<QPointF> curve = view.currentCurve();
    QCOMPARE(curve.size(), 96); // 5 % to 100 %
    auto at = [&](double u) {
        for (const QPointF &p : curve)
            if (p.x() == u)
                return p.y();
        return -1.0;
    };
    QVERIFY(std::fabs(at(100) - 2.78) < 0.005);
    QVERIFY(std::fabs(at(70) - 3.97) < 0.005);
    QVERIFY(std::fabs(at(35) - 7.94) < 0.005);
    for (int i = 1; i < curve.size(); ++i) // never cheaper when busier less
        QVERIFY(curve[i].y() < curve[i - 1].y());
    view.setComparison(0, QStringLiteral("nvidia-h100-sxm"));
    QCOMPARE(view.comparisonCount(), 1);
    QVERIFY(view.notes().contains(QStringLiteral("$3.97 per million tokens")));
}

// l.161-168: 24.5 GB per device, 0.245 s inside a node; 64 collectives: 0.50 ms + 0.64 ms.
void ViewsTest::interconnectReadsTheLessonsCases()
{
    views::ScenarioDocument doc;
    doc.reset(core::readScenario(*core::scenarioPresetText("interconnect-data-parallel"))
                  .value()
                  .scenario);
    views::InterconnectView view(&doc);
    showOffscreen(view);
    QVERIFY2(view.summary().contains(QStringLiteral("24.5 GB per device")),
             qPrintable(view.summary()));
    QVERIFY(view.summary().contains(QStringLiteral("245 ms")));
    const QList<QPointF> efficiency = view.efficiencyCurve();
    QCOMPARE(efficiency.size(), 6);
    for (int i = 1; i < efficiency.size(); ++i) // more devices, less of each one used
        QVERIFY(efficiency[i].y() <= efficiency[i - 1].y());
    QVERIFY(efficiency[3].y() < efficiency[2].y() * 0.5); // 16 devices: over the network
    QVERIFY(view.applyLink(1, QStringLiteral("infiniband-ndr")));
    doc.flush();
    QCOMPARE(doc.scenario().interconnect.interLinkGbPerSecond, 50.0);
    doc.reset(core::readScenario(*core::scenarioPresetText("interconnect-tensor-parallel"))
                  .value()
                  .scenario);
    doc.flush();
    QVERIFY2(view.summary().contains(QStringLiteral("503.3 µs")), qPrintable(view.summary()));
    QVERIFY(view.summary().contains(QStringLiteral("640 µs")));
}

// l.174-176: 8 x 500 W + 1 kW = 5 kW a node; floor(40 / 5) = 8 nodes a rack.
void ViewsTest::powerReadsTheLessonsRack()
{
    views::ScenarioDocument doc;
    views::PowerView view(&doc);
    showOffscreen(view);
    QVERIFY2(view.summary().contains(QStringLiteral("<b>5 kW</b>")), qPrintable(view.summary()));
    QVERIFY(view.summary().contains(QStringLiteral("<b>8 nodes, 64 devices</b>")));
    QVERIFY(doc.setNumber(QStringLiteral("power.device_w"), 700));
    doc.flush(); // 8 x 700 + 1,000 = 6.6 kW: 6 nodes
    QVERIFY2(view.summary().contains(QStringLiteral("<b>6 nodes, 48 devices</b>")),
             qPrintable(view.summary()));
}

// Every step loads its lesson scenario, brings its view forward and shows the lesson's number.
void ViewsTest::tourVisitsEveryStepWithTheLessonsNumbers()
{
    MainWindow window;
    showOffscreen(window);
    views::TourPanel *tour = window.tourPanel();
    const QList<views::TourStep> &steps = views::tourSteps();
    QVERIFY(steps.size() >= 15);
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

// Direct labels stay readable in the crowded cases: the 24 GB device (every bar near the capacity
// line), both units (the longest texts) and presenter size (the largest fonts).
// A against B: the rows are the core's comparison, the table shows B - A and B / A, the rows
// that differ are bold, and B follows A when A changes.
void ViewsTest::compareShowsTheDifferences()
{
    views::ScenarioDocument doc;
    doc.reset(core::readScenario(*core::scenarioPresetText("lesson-default")).value().scenario);
    doc.flush();
    views::CompareView view(&doc);
    showOffscreen(view);
    view.ensureCurrent();
    // by default B is A with 1-byte weights (lesson l.100)
    QCOMPARE(view.scenarioB().serving.weightFormat, core::NumericFormat::Int8);
    int weightsRow = -1;
    for (int i = 0; i < int(view.rows().size()); ++i) {
        if (view.rows()[std::size_t(i)].id == FigureId::WeightsBytes)
            weightsRow = i;
    }
    QVERIFY(weightsRow >= 0);
    QTableWidget *table = view.table();
    QCOMPARE(table->item(weightsRow, 1)->text(), QStringLiteral("14 GB"));
    QCOMPARE(table->item(weightsRow, 2)->text(), QStringLiteral("7 GB"));
    QCOMPARE(table->item(weightsRow, 3)->text(), QStringLiteral("\u22127 GB"));
    QCOMPARE(table->item(weightsRow, 4)->text(), QStringLiteral("0.5x"));
    QVERIFY(table->item(weightsRow, 0)->font().bold());
    const core::Evaluation expectedB = core::evaluate(view.scenarioB());
    for (std::size_t i = 0; i < view.rows().size(); ++i) {
        const core::ComparedFigure &row = view.rows()[i];
        QCOMPARE(row.a, doc.evaluation()[row.id]);
        QVERIFY(row.b == expectedB[row.id] || (std::isnan(row.b) && std::isnan(expectedB[row.id])));
        QCOMPARE(table->item(int(i), 0)->font().bold(), row.differs);
    }

    // A moves, B (A with other weights) moves with it
    QVERIFY(doc.setNumber(QStringLiteral("serving.batch"), 32));
    doc.flush();
    view.ensureCurrent();
    QCOMPARE(view.scenarioB().serving.batch, 32.0);

    // B as a scenario of its own
    view.setScenarioB(
        core::readScenario(*core::scenarioPresetText("support-assistant")).value().scenario,
        QStringLiteral("support-assistant"));
    QCOMPARE(view.scenarioB().serving.concurrentSequences, 40.0);
    QVERIFY(!view.csv().isEmpty());
}

void ViewsTest::chartLabelsNeverOverlap_data()
{
    QTest::addColumn<QString>("viewName");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("presenter");
    for (const char *name : {"roofline", "throughput", "memory", "kv"}) { // the charts
        QTest::addRow("%s 1280x800", name)
            << QString::fromLatin1(name) << QSize(1280, 800) << false;
        QTest::addRow("%s presenter 1920x1080", name)
            << QString::fromLatin1(name) << QSize(1920, 1080) << true;
    }
}

void ViewsTest::chartLabelsNeverOverlap()
{
    QFETCH(QString, viewName);
    QFETCH(QSize, size);
    QFETCH(bool, presenter);
    const QFont appFont = QApplication::font();
    if (presenter) {
        views::style::setScale(1.6);
        QApplication::setFont(views::style::scaledFont(appFont, 1.6));
    }
    {
        views::ScenarioDocument doc;
        doc.reset(
            core::readScenario(*core::scenarioPresetText("oom-14th-request")).value().scenario);
        doc.setUnits(core::MemoryUnits::Both);
        doc.flush();
        std::unique_ptr<views::View> view(views::findView(viewName)->create(&doc, nullptr));
        showOffscreen(*view, size);
        QCoreApplication::processEvents();
        auto *chartView = view->findChild<QChartView *>();
        QVERIFY(chartView);
        const QRectF plot = chartView->chart()->plotArea();
        QList<QRectF> labels;
        for (QGraphicsItem *item : chartView->scene()->items()) {
            auto *text = dynamic_cast<QGraphicsSimpleTextItem *>(item);
            if (text && text->isVisible() && text->zValue() == 20)
                labels << text->sceneBoundingRect();
        }
        QVERIFY(labels.size() >= 4);
        for (int i = 0; i < labels.size(); ++i) {
            QVERIFY2(plot.adjusted(-1, -1, 1, 1).contains(labels[i]), "a label is clipped");
            for (int j = i + 1; j < labels.size(); ++j)
                QVERIFY2(!labels[i].adjusted(0, 1, 0, -1).intersects(labels[j]),
                         "two labels overlap");
        }
    }
    views::style::setScale(1.0);
    QApplication::setFont(appFont);
}

#include "tst_views.moc"
