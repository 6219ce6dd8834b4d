// SPDX-License-Identifier: GPL-3.0-or-later
// The Inside tab: anatomy, hierarchy, matmul, race, family and stack views.

#include "viewtestsupport.h"

#include "app/mainwindow.h"
#include "views/memory/kvview.h"
#include "views/memory/memoryview.h"
#include "views/memory/oomview.h"
#include "views/scale/interconnectview.h"
#include "views/widgets/batchcontrol.h"
#include "views/widgets/explanationpanel.h"

#include "core/data/presets.h"
#include "core/data/scenarioio.h"
#include "views/document/scenariodocument.h"
#include "views/roofline/rooflineview.h"
#include "views/roofline/throughputview.h"
#include "views/widgets/scenariopanel.h"

#include "core/decide/selection.h"
#include "core/physics/evaluation.h"
#include "core/physics/inside.h"

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
#include <QGraphicsEllipseItem>
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

using viewtestsupport::showOffscreen;

class InsideViews : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void anatomyBlocksExplainThemselves();
    void hierarchyTextsFitAtBothSizes_data();
    void hierarchyTextsFitAtBothSizes();
    void matmulStepMachine();
    void raceMatchesTheCore();
    void familyPointsAreThePresets();
    void displacedLabelsGetALeaderToTheirPoint();
    void stackLayersAndTheDiagnosisOrder();
};

void InsideViews::initTestCase()
{
    viewtestsupport::initViewTests(QStringLiteral("tst_insideviews"));
}

void InsideViews::anatomyBlocksExplainThemselves()
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

void InsideViews::hierarchyTextsFitAtBothSizes_data()
{
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("presenter");
    QTest::newRow("1280x800") << QSize(1280, 800) << false;
    QTest::newRow("presenter 1920x1080") << QSize(1920, 1080) << true;
}

// Cold start and spill as the lesson tells them; every label inside the view, none on another.
void InsideViews::hierarchyTextsFitAtBothSizes()
{
    QFETCH(QSize, size);
    QFETCH(bool, presenter);
    const viewtestsupport::PresenterScale scale(presenter);
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
}

void InsideViews::matmulStepMachine()
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

void InsideViews::raceMatchesTheCore()
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

void InsideViews::familyPointsAreThePresets()
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

// Every device is a bubble on its point, in a tab shown late too (Qt Charts 6.4 drew none once
// sizes were set per point: the tour's step 10 was an empty chart), and only a few carry names:
// each family's fastest and slowest, the scenario's device and the one under the mouse (every
// name at once was an unreadable heap, issue #23). A label moved off its point gets a leader.
void InsideViews::displacedLabelsGetALeaderToTheirPoint()
{
    views::ScenarioDocument doc;
    views::FamilyView view(&doc);
    showOffscreen(view, QSize(1280, 800));
    QCoreApplication::processEvents();
    auto *chartView = view.findChild<QChartView *>();
    QVERIFY(chartView);
    QList<QRectF> labels;
    QStringList names;
    QList<QLineF> leaders;
    QList<QRectF> bubbles;
    for (QGraphicsItem *item : chartView->scene()->items()) {
        if (!item->isVisible())
            continue;
        if (auto *text = dynamic_cast<QGraphicsSimpleTextItem *>(item);
            text && text->zValue() == 20) {
            labels << text->sceneBoundingRect();
            names << text->text();
        }
        if (auto *line = dynamic_cast<QGraphicsLineItem *>(item); line && line->zValue() == 3.5)
            leaders << QLineF(line->mapToScene(line->line().p1()),
                              line->mapToScene(line->line().p2()));
        if (auto *bubble = dynamic_cast<QGraphicsEllipseItem *>(item);
            bubble && bubble->zValue() == 6) // the view's, not Qt Charts' own markers
            bubbles << bubble->sceneBoundingRect();
    }
    const QRectF plot = chartView->chart()->plotArea();
    QCOMPARE(bubbles.size(), view.points().size());
    QVERIFY(view.points().size() >= 20);
    for (const views::FamilyView::Point &p : view.points()) {
        const QPointF at = chartView->chart()->mapToPosition(QPointF(p.peakTflops, p.bandwidthGbs),
                                                             chartView->chart()->series().last());
        QVERIFY(plot.adjusted(-1, -1, 1, 1).contains(at));
        QVERIFY2(
            std::any_of(bubbles.cbegin(), bubbles.cend(),
                        [&](const QRectF &r) { return (r.center() - at).manhattanLength() < 2; }),
            qPrintable(p.name));
    }
    // a few names (the ridge labels are two more), the scenario's device among them
    QVERIFY2(labels.size() >= 6 && labels.size() <= 16,
             qPrintable(names.join(QLatin1String("; "))));
    QVERIFY2(names.contains(QStringLiteral("Lesson accelerator, 80 GB")),
             qPrintable(names.join(QLatin1String("; "))));
    QVERIFY2(leaders.size() < labels.size(), "every label has a leader: none sits at its point");
    for (const QLineF &leader : leaders) {
        QVERIFY(plot.contains(leader.p1())); // from a point on the plot
        const bool endsOnALabel = std::any_of(labels.cbegin(), labels.cend(), [&](const QRectF &r) {
            return r.adjusted(-1, -1, 1, 1).contains(leader.p2());
        });
        QVERIFY2(endsOnALabel, "a leader ends away from every label");
        QVERIFY(leader.length() > 5); // a displaced label, not one beside its point
    }
}

void InsideViews::stackLayersAndTheDiagnosisOrder()
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

QTEST_MAIN(InsideViews)
#include "tst_insideviews.moc"
