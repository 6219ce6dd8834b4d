// SPDX-License-Identifier: GPL-3.0-or-later
// The Roofline tab: the roofline and the throughput views against the core.

#include "viewfit.h"
#include "viewtestsupport.h"

#include "app/mainwindow.h"
#include "views/memory/kvview.h"
#include "views/memory/memoryview.h"
#include "views/memory/oomview.h"
#include "views/scale/interconnectview.h"
#include "views/widgets/batchcontrol.h"
#include "views/widgets/chartlabels.h"
#include "views/widgets/explanationpanel.h"

#include "core/data/presets.h"
#include "core/data/scenarioio.h"
#include "views/document/scenariodocument.h"
#include "views/roofline/engineview.h"
#include "views/roofline/operatorsview.h"
#include "views/roofline/rooflineview.h"
#include "views/roofline/throughputview.h"
#include "views/widgets/scenariopanel.h"

#include "core/decide/selection.h"
#include "core/physics/evaluation.h"
#include "core/physics/inside.h"
#include "core/physics/operators.h"
#include "core/physics/techniques.h"

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
#include <QFile>
#include <QGraphicsLineItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QImage>
#include <QLineSeries>
#include <QPainter>
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

using viewtestsupport::near;
using viewtestsupport::showOffscreen;

class RooflineViews : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void sliderMovesTheOperatingPoint();
    void deviceChangeMovesTheRoof();
    void rooflineDrawsTheLimitAndPrefill();
    void labelsKeepOffTheSlopeAndOtherMarkers_data();
    void labelsKeepOffTheSlopeAndOtherMarkers();
    void wallSitsAtMaxConcurrentSequences();
    void wallLabelNeverCrossesTheWall();
    void aLineUnderALabelFadesBehindIt();
    void speculationDrawsItsVerifyStepAndCurve();
    void operatorsAreTheCoresBreakdown();
    void operatorsMoveWithBatchAndContext();
    void operatorsShowWhyAModelIsRefused();
    void operatorLabelsStayOnTheChartOnAProjector();
    void engineViewShowsEachTechniqueBesideThePlainFigure();
};

namespace {

/** Opens a scenario with speculative decoding by heads at this context in `doc`. */
void openWithSpeculation(views::ScenarioDocument &doc, QTemporaryDir &dir, double context)
{
    const QString path = dir.filePath(QStringLiteral("speculative.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QStringLiteral(R"({"model": "lesson-7b", "device": "lesson-accelerator",
        "serving": {"context_tokens": %1, "prompt_tokens": 256},
        "engine": {"speculative_tokens": 4, "acceptance_rate": 0.7, "draft_kind": "heads",
                   "draft_parameters": 2e8}})")
                   .arg(context)
                   .toUtf8());
    file.close();
    QString error;
    QVERIFY2(doc.open(path, &error), qPrintable(error));
}

} // namespace

void RooflineViews::initTestCase()
{
    viewtestsupport::initViewTests(QStringLiteral("tst_rooflineviews"));
}

void RooflineViews::sliderMovesTheOperatingPoint()
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

void RooflineViews::deviceChangeMovesTheRoof()
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

void RooflineViews::rooflineDrawsTheLimitAndPrefill()
{
    views::ScenarioDocument doc;
    views::RooflineView view(&doc);
    showOffscreen(view);
    QVERIFY(near(view.intensityLimitDrawn(), doc.evaluation()[FigureId::DecodeIntensityLimit]));
    QVERIFY(view.prefillPoint().x() > doc.evaluation()[FigureId::Ridge]); // compute side
    view.setComparisonDevice(QStringLiteral("lesson-accelerator-24gb"));
    QVERIFY(view.csv().startsWith(QStringLiteral("batch,intensity")));
}

void RooflineViews::labelsKeepOffTheSlopeAndOtherMarkers_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QSize>("size");
    for (const QString &scenario :
         {QStringLiteral("lesson-default"), QStringLiteral("llama-70b-fleet")})
        for (const QSize size : {QSize(900, 600), QSize(620, 300)}) // a window, a handout half
            QTest::newRow(qPrintable(
                QStringLiteral("%1 %2x%3").arg(scenario).arg(size.width()).arg(size.height())))
                << scenario << size;
}

// Issue #42 item 4: in the handout "batch 1" sat across the bandwidth slope and the device's name
// ran through it; on a 70B the ridge's label covered the prefill marker. No label's text box
// holds a point of the drawn slope, or the prefill marker.
void RooflineViews::labelsKeepOffTheSlopeAndOtherMarkers()
{
    QFETCH(QString, scenario);
    QFETCH(QSize, size);
    views::ScenarioDocument doc;
    doc.reset(
        core::readScenario(*core::scenarioPresetText(scenario.toStdString())).value().scenario);
    views::RooflineView view(&doc);
    showOffscreen(view, size);
    QChart *chart = view.findChild<QChartView *>()->chart();
    const core::Evaluation &e = doc.evaluation();
    const double peak = e[FigureId::PeakFlops];
    const double bandwidth = e[FigureId::Bandwidth];
    QAbstractSeries *anySeries = chart->series().first();
    QList<QPointF> slope; // on screen, every few pixels of the slope up to the ridge
    const double ridge = peak / bandwidth;
    for (int i = 0; i <= 400; ++i) {
        const double x = 0.1 * std::pow(ridge / 0.1, i / 400.0);
        slope << chart->mapToPosition(QPointF(x, x * bandwidth / 1e12), anySeries);
    }
    const QPointF prefill = chart->mapToPosition(view.prefillPoint(), anySeries);
    for (QGraphicsItem *item : chart->scene()->items()) {
        auto *label = dynamic_cast<QGraphicsSimpleTextItem *>(item);
        if (!label || !label->isVisible() || label->text().isEmpty())
            continue;
        const QRectF box = label->sceneBoundingRect().adjusted(2, 2, -2, -2);
        if (!chart->plotArea().contains(box.center()))
            continue; // an axis' numbers
        for (const QPointF &p : slope)
            QVERIFY2(!box.contains(p), qPrintable(label->text() + QStringLiteral(" on the slope")));
        if (!label->text().startsWith(QStringLiteral("prefill")))
            QVERIFY2(!box.intersects(QRectF(prefill - QPointF(5, 5), QSizeF(10, 10))),
                     qPrintable(label->text() + QStringLiteral(" on the prefill marker")));
    }
}

void RooflineViews::wallSitsAtMaxConcurrentSequences()
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

// issue #42, item 4: in the handout's small chart "memory wall: past batch 118 it does not fit"
// found no room left of the wall and was drawn across it ("not" under the line); where the
// line leaves too little room the label breaks over two lines instead.
void RooflineViews::wallLabelNeverCrossesTheWall()
{
    views::ScenarioDocument doc;
    views::ThroughputView view(&doc);
    showOffscreen(view);
    QTRY_COMPARE(view.wallBatch(), 118.0);
    QChart *chart = view.findChild<QChartView *>()->chart();
    for (const int width : {360, 420, 520, 640, 900, 1280}) {
        // the chart alone at the handout's size, as View::renderFigure draws it
        chart->resize(QSizeF(width, 0.45 * width));
        QCoreApplication::processEvents();
        const double wallX = chart->mapToPosition(QPointF(118, 100), chart->series().first()).x();
        bool found = false;
        for (QGraphicsItem *item : chart->scene()->items()) {
            auto *label = dynamic_cast<QGraphicsSimpleTextItem *>(item);
            if (!label || !label->isVisible() || !label->text().startsWith(u"memory wall"))
                continue;
            found = true;
            const QRectF box = label->sceneBoundingRect();
            QVERIFY2(box.right() < wallX || box.left() > wallX,
                     qPrintable(QStringLiteral("%1 px wide: '%2' spans %3..%4, the wall at %5")
                                    .arg(width)
                                    .arg(label->text())
                                    .arg(box.left())
                                    .arg(box.right())
                                    .arg(wallX)));
        }
        QVERIFY2(found, qPrintable(QString::number(width)));
    }
}

// A teacher's reading of the handout: the lesson's dashed limit line ran through "decode, batch
// 1", the memory wall through its own caption, a ridge line through "M4 Max". Where a line must
// pass under a label the label sits on a plate of the chart's background: no pixel of the line
// keeps its full colour inside the label's box.
void RooflineViews::aLineUnderALabelFadesBehindIt()
{
    QGraphicsScene scene; // first: the chart leaves it as it goes, whatever the outcome
    QChart chart;
    chart.legend()->hide();
    auto *line = new QLineSeries;
    line->append(5, 0);
    line->append(5, 10);
    line->setPen(QPen(QColor(255, 0, 0), 8));
    chart.addSeries(line);
    chart.createDefaultAxes();
    chart.axes(Qt::Horizontal).first()->setRange(0, 10);
    chart.axes(Qt::Vertical).first()->setRange(0, 10);
    scene.addItem(&chart);
    chart.resize(600, 400);
    views::ChartLabels labels(&chart);
    labels.add(QStringLiteral("a label across the line: MMMMMMMM"), QPointF(5, 5), line,
               QColor(0, 0, 0), QPointF(0, 0), true, views::ChartLabels::Align::Centre);
    QGraphicsSimpleTextItem *label = nullptr;
    for (QGraphicsItem *item : scene.items())
        if (auto *t = dynamic_cast<QGraphicsSimpleTextItem *>(item);
            t && t->isVisible() && t->text().startsWith(u"a label"))
            label = t;
    QVERIFY(label);
    const QRectF box = label->sceneBoundingRect();
    const double lineX = chart.mapToPosition(QPointF(5, 5), line).x();
    QVERIFY(box.left() < lineX && box.right() > lineX); // the line does pass under it
    QImage image(600, 400, QImage::Format_ARGB32);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        scene.render(&painter, QRectF(0, 0, 600, 400), QRectF(0, 0, 600, 400));
    }
    int fullRed = 0;
    for (int y = int(box.top()) + 1; y < int(box.bottom()) - 1; ++y)
        for (int x = int(box.left()) + 1; x < int(box.right()) - 1; ++x) {
            const QColor c = image.pixelColor(x, y);
            fullRed += c.red() > 230 && c.green() < 40 && c.blue() < 40;
        }
    QCOMPARE(fullRed, 0);
}

void RooflineViews::speculationDrawsItsVerifyStepAndCurve()
{
    views::ScenarioDocument doc;
    views::RooflineView roofline(&doc);
    views::ThroughputView throughput(&doc);
    showOffscreen(roofline);
    showOffscreen(throughput);
    // off: no verify point, no curve
    QCOMPARE(roofline.verifyPoint(), QPointF());
    QVERIFY(throughput.speculativeCurve().isEmpty());
    QTemporaryDir dir;
    openWithSpeculation(doc, dir, 512);
    auto spec = core::analyseSpeculative(doc.scenario());
    QVERIFY(spec.ok());
    // the verify step is drawn where the core puts it, right of plain decode
    QTRY_VERIFY(near(roofline.verifyPoint().x(), spec->atBatch.verify.intensity()));
    QVERIFY(near(roofline.verifyPoint().y() * 1e12, spec->atBatch.verify.attainableFlops()));
    QVERIFY(roofline.verifyPoint().x() > roofline.operatingPoint().x() * 3);
    // the curve is the core's tokens/s with speculation; at the scenario's batch it is the
    // plain figure times the speedup
    QTRY_VERIFY(throughput.speculativeCurve().size() > 10);
    const QList<QPointF> curve = throughput.speculativeCurve();
    QVERIFY(curve.size() > 10);
    const auto at = std::find_if(curve.begin(), curve.end(), [&](const QPointF &p) {
        return p.x() == doc.scenario().serving.batch;
    });
    QVERIFY(at != curve.end());
    QVERIFY(near(at->y(), spec->atBatch.tokensPerSecond));
    QVERIFY(
        near(at->y(), doc.evaluation()[FigureId::DecodeTokensPerSecond] * spec->atBatch.speedup));
    // switched off again, both go
    QVERIFY(doc.setNumber(QStringLiteral("engine.speculative_tokens"), 0));
    QTRY_COMPARE(roofline.verifyPoint(), QPointF());
    QTRY_VERIFY(throughput.speculativeCurve().isEmpty());
}

void RooflineViews::operatorsAreTheCoresBreakdown()
{
    views::ScenarioDocument doc;
    QVERIFY(doc.setModelPreset(QStringLiteral("llama-2-7b")));
    views::OperatorsView view(&doc);
    showOffscreen(view);
    auto decode = core::operatorBreakdown(doc.scenario(), core::Phase::Decode);
    QVERIFY(decode.ok());
    QCOMPARE(view.tableRows(), int(decode->operators.size()));
    for (const core::OperatorCost &op : decode->operators) {
        if (op.flops == 0.0)
            continue; // the embedding lookup has no place on a FLOP axis
        const QPointF at = view.pointOf(QString::fromStdString(op.name));
        QVERIFY2(near(at.x(), op.intensity()), op.name.c_str());
        QVERIFY2(near(at.y() * 1e12, op.flops / op.seconds), op.name.c_str());
    }
    QVERIFY(view.csv().startsWith(QStringLiteral("phase,operator,kind")));
    QVERIFY(view.csv().contains(QStringLiteral("decode,q_proj,projection,32,")));
    view.setPhase(1);
    auto prefill = core::operatorBreakdown(doc.scenario(), core::Phase::Prefill);
    QVERIFY(prefill.ok());
    QVERIFY(near(view.pointOf(QStringLiteral("q_proj")).x(), prefill->operators[1].intensity()));
    QVERIFY(view.csv().contains(QStringLiteral("prefill,q_proj,projection,32,")));
}

void RooflineViews::operatorsMoveWithBatchAndContext()
{
    views::ScenarioDocument doc;
    QVERIFY(doc.setModelPreset(QStringLiteral("llama-2-7b")));
    views::OperatorsView view(&doc);
    showOffscreen(view);
    // decode: the projections move right with the batch; attention stays (its KV grows too)
    const QPointF q8 = view.pointOf(QStringLiteral("q_proj"));
    const QPointF qk8 = view.pointOf(QStringLiteral("attention"));
    QVERIFY(doc.setNumber(QStringLiteral("serving.batch"), 64));
    QTRY_VERIFY(view.pointOf(QStringLiteral("q_proj")).x() > 6 * q8.x());
    QVERIFY(near(view.pointOf(QStringLiteral("attention")).x(), qk8.x()));
    // prefill: fused attention moves right with the prompt (its FLOP grow as its square, its
    // bytes as the prompt: the scores stay on chip), the projections barely
    view.setPhase(1);
    const QPointF qkShort = view.pointOf(QStringLiteral("attention"));
    QVERIFY(doc.setNumber(QStringLiteral("serving.prompt_tokens"), 512));
    QTRY_VERIFY(view.pointOf(QStringLiteral("attention")).x() < qkShort.x());
    // LLM-Viewer's accounting on request: the three operators, the scores through memory
    auto *kernel = view.findChild<QComboBox *>(QStringLiteral("operatorsAttention"));
    QVERIFY(kernel);
    kernel->setCurrentIndex(1);
    QTRY_VERIFY(!view.pointOf(QStringLiteral("qk_matmul")).isNull());
    QVERIFY(view.pointOf(QStringLiteral("qk_matmul")).x() < qkShort.x());
}

// On a projector (1366x768, the presenter's type) the Operators chart is narrow: the label of
// the eight matrix products of a Llama 2 7B decode step ran 60 px off its right edge, cut
// ("projections, MLP, head (8): 7.98 FLOP/"). A label wider than the plot breaks over lines.
void RooflineViews::operatorLabelsStayOnTheChartOnAProjector()
{
    viewtestsupport::PresenterScale presenter(true);
    views::ScenarioDocument doc;
    QVERIFY(doc.setModelPreset(QStringLiteral("llama-2-7b")));
    views::OperatorsView view(&doc);
    showOffscreen(view, {1000, 640}); // the view beside the scenario panel in a 1366 window
    QCoreApplication::processEvents();
    const QStringList off = viewfit::offPlotLabels(view);
    QVERIFY2(off.isEmpty(), qPrintable(off.join(QLatin1String("; "))));
}

void RooflineViews::operatorsShowWhyAModelIsRefused()
{
    views::ScenarioDocument doc;
    QVERIFY(doc.setModelPreset(QStringLiteral("deepseek-v3")));
    views::OperatorsView view(&doc);
    showOffscreen(view);
    QVERIFY(view.errorText().contains(QStringLiteral("latent")));
    QCOMPARE(view.pointCount(), 0);
    QCOMPARE(view.tableRows(), 0);
    QVERIFY(doc.setModelPreset(QStringLiteral("llama-2-7b")));
    QTRY_VERIFY(view.errorText().isEmpty());
    QVERIFY(view.pointCount() > 10);
}

void RooflineViews::engineViewShowsEachTechniqueBesideThePlainFigure()
{
    views::ScenarioDocument doc;
    views::EngineView view(&doc);
    showOffscreen(view);
    // all off: each names the input that switches it on
    QTRY_VERIFY(view.shownText().contains(QStringLiteral("engine.speculative_tokens")));
    QVERIFY(view.shownText().contains(QStringLiteral("engine.prefix_tokens")));
    QVERIFY(view.shownText().contains(QStringLiteral("engine.disaggregated")));
    // prefix caching at 2,000 tokens, half the requests: the core's 3,096 tokens and 216.7 ms
    QVERIFY(doc.setNumber(QStringLiteral("engine.prefix_tokens"), 2000));
    QTRY_VERIFY(view.shownText().contains(QStringLiteral("3,096")));
    QVERIFY(view.shownText().contains(QStringLiteral("216.7 ms")));
    QVERIFY(view.shownText().contains(QStringLiteral("117"))); // sequences beside the prefix
    // a split pool on a prompt filling the context is refused with its reason, not drawn
    QVERIFY(doc.setNumber(QStringLiteral("engine.disaggregated"), 1));
    QTRY_VERIFY(view.shownText().contains(QStringLiteral("no output tokens")));
    QVERIFY(doc.setNumber(QStringLiteral("serving.prompt_tokens"), 2048));
    // 2,048 x 131,072 B over 50 GB/s
    QTRY_VERIFY(view.shownText().contains(QStringLiteral("5.369 ms")));
    QVERIFY(!view.shownText().contains(QStringLiteral("nan"), Qt::CaseInsensitive));
    QVERIFY(!view.shownText().contains(QStringLiteral("inf"), Qt::CaseSensitive));
    QVERIFY(view.figureHtml().contains(QStringLiteral("Prefix caching")));
}

QTEST_MAIN(RooflineViews)
#include "tst_rooflineviews.moc"
