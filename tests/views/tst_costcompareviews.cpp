// SPDX-License-Identifier: GPL-3.0-or-later
// The Cost and Compare tabs.

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
#include "views/widgets/chartguard.h"
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
#include <QGraphicsLineItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QImage>
#include <QLegend>
#include <QLegendMarker>
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
#include <QTextDocument>
#include <QUndoStack>

using core::FigureId;

using viewtestsupport::showOffscreen;

class CostCompareViews : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void costAgainstUtilisation();
    void extremeButValidCostsStayOnTheChart_data();
    void extremeButValidCostsStayOnTheChart();
    void compareShowsTheDifferences();
    void deviceNamesReadLiterally();
    void afterApplyTheCostTabPricesTheDecidedFleet();
    void beforeApplyTheCostTabSaysTheWizardsFleet();
    void aDeviceWithoutAPriceShowsNone();
};

void CostCompareViews::initTestCase()
{
    viewtestsupport::initViewTests(QStringLiteral("tst_costcompareviews"));
}

void CostCompareViews::extremeButValidCostsStayOnTheChart_data()
{
    QTest::addColumn<QString>("set");
    // issue #20: each crashed the Cost view (exit 139) or grew memory without limit
    QTest::newRow("throttle 0.05 (its floor)") << "cost.throttle_factor=0.05";
    QTest::newRow("sustained 0.001 tokens/s (its floor)")
        << "cost.sustained_tokens_per_second=0.001";
    QTest::newRow("bandwidth efficiency 0.01 (its floor)") << "serving.bandwidth_efficiency=0.01";
}

// Valid scenarios whose costs no axis can hold: the axis stays finite and bounded, nothing
// beyond it is drawn, and the view says so.
void CostCompareViews::extremeButValidCostsStayOnTheChart()
{
    QFETCH(QString, set);
    const std::vector<std::string> overrides{set.toStdString()};
    auto loaded = core::readScenario(*core::scenarioPresetText("lesson-default"), overrides);
    QVERIFY2(loaded, loaded ? "" : loaded.error().message.c_str());
    views::ScenarioDocument doc;
    doc.reset(loaded.value().scenario);
    views::CostView view(&doc);
    showOffscreen(view);
    const QPointF range = view.costAxisRange();
    QVERIFY(std::isfinite(range.x()) && std::isfinite(range.y()));
    QVERIFY2(range.y() <= 1e16 && range.x() > 0,
             qPrintable(QStringLiteral("%1 to %2").arg(range.x()).arg(range.y())));
    for (const QPointF &p : view.currentCurve())
        QVERIFY(std::isfinite(p.y()) && p.y() <= views::kLargestDrawable);
    QImage image(view.size(), QImage::Format_ARGB32);
    QPainter painter(&image);
    view.render(painter, QRectF(QPointF(), QSizeF(view.size())));
}

// l.179-184: $4/h and 400 tokens/s: $2.78 / $3.97 / $7.94 per million at 100 / 70 / 35 %.
void CostCompareViews::costAgainstUtilisation()
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
    // the lesson's 400 tokens/s is the scenario's given rate, not an estimate (the tour's step
    // 17 read "1,440,000 tokens per busy hour, by the speed of light estimate", issue #42)
    QVERIFY2(view.notes().contains(QStringLiteral("at the scenario's sustained 400 tokens/s")),
             qPrintable(view.notes()));
    QVERIFY(!view.notes().contains(QStringLiteral("by the speed of light estimate")));
    QVERIFY(!view.notes().contains(QStringLiteral("Does not fit")));
    // a setup that does not fit is priced as a what-if, and says so (FP8 at TP 2 on an 80 GB
    // device was priced at $12,439.20 a month with no word, issue #42)
    core::Scenario tooBig = doc.scenario();
    tooBig.serving.concurrentSequences = 10000;
    tooBig.serving.batch = 10000;
    doc.applyScenario(tooBig, QStringLiteral("Change Concurrency"));
    doc.flush();
    QCoreApplication::processEvents();
    view.ensureCurrent();
    QVERIFY(!doc.evaluation().fits());
    QVERIFY2(view.notes().contains(QStringLiteral("Does not fit:")), qPrintable(view.notes()));
    // and a free device is not "beyond 10^15" ($0.00 said so)
    core::Scenario free = doc.scenario();
    free.serving.concurrentSequences = 32;
    free.serving.batch = 8;
    free.cost.pricePerHourUsd = 0;
    doc.applyScenario(free, QStringLiteral("Change Price"));
    doc.flush();
    QCoreApplication::processEvents();
    view.ensureCurrent();
    QVERIFY2(!view.notes().contains(QStringLiteral("10<sup>15</sup>")), qPrintable(view.notes()));
}

// Issue #20, items 6 and 11: a device named with markup or a formula reads as those characters in
// the legend (Qt Charts lays legend labels out as HTML) and is neutralised in the copied CSV.
void CostCompareViews::deviceNamesReadLiterally()
{
    core::Scenario s =
        core::readScenario(*core::scenarioPresetText("cost-example")).value().scenario;
    s.device.presetId.clear();
    s.device.name = "=1+2 <b>Bold</b> & co";
    views::ScenarioDocument doc;
    doc.reset(s);
    views::CostView view(&doc);
    showOffscreen(view);
    auto *chartView = view.findChild<QChartView *>();
    QVERIFY(chartView);
    QStringList labels;
    for (QLegendMarker *marker : chartView->chart()->legend()->markers())
        labels << marker->label();
    const QString name = QString::fromStdString(s.device.name);
    bool shown = false;
    for (const QString &label : labels) {
        QTextDocument rendered; // what the legend draws from the label
        rendered.setHtml(label);
        shown = shown || rendered.toPlainText().startsWith(name);
    }
    QVERIFY2(shown, qPrintable(labels.join(QStringLiteral(" | "))));
    const QString csv = view.csv();
    QVERIFY2(csv.contains(QStringLiteral("\"'=1+2 <b>Bold</b> & co")), qPrintable(csv));
    QVERIFY(!csv.contains(QStringLiteral("\n=")) && !csv.contains(QStringLiteral("\n\"=")));
}

// Direct labels stay readable in the crowded cases: the 24 GB device (every bar near the capacity
// line), both units (the longest texts) and presenter size (the largest fonts).
// A against B: the rows are the core's comparison, the table shows B - A and B / A, the rows
// that differ are bold, and B follows A when A changes.
void CostCompareViews::compareShowsTheDifferences()
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

// Issue #40: a 70B decision on real GPUs (100 resident sequences, 864,000 requests a day, peak
// 20/s). The decision view's Apply, then the Cost tab's fleet sentence: the same replicas, devices
// and month as the checks. Before the fix the Cost tab priced the scenario's batch of 8 and
// said several times the replicas.
void CostCompareViews::afterApplyTheCostTabPricesTheDecidedFleet()
{
    const std::vector<std::string> sets{
        "model=\"llama-3-1-70b\"",
        "serving.concurrent_sequences=100",
        "serving.batch=8",
        "serving.prompt_tokens=2000",
        "serving.context_tokens=2300",
        "traffic.requests_per_day=864000",
        "traffic.peak_requests_per_second=20",
        std::string("wizard.candidates=[\"nvidia-h100-sxm\",\"nvidia-h200-sxm\",\"amd-mi300x\",") +
            "\"nvidia-l40s\",\"nvidia-a100-80gb-sxm\"]",
        "wizard.formats=[\"bf16\",\"fp8\",\"int4\"]"};
    auto loaded = core::readScenario(*core::scenarioPresetText("lesson-default"), sets);
    QVERIFY2(loaded, loaded ? "" : loaded.error().message.c_str());
    views::ScenarioDocument doc;
    doc.reset(loaded.value().scenario);
    doc.flush();
    views::DecisionView decision(&doc);
    showOffscreen(decision);
    const core::Selection chosen = doc.selection();
    const core::Candidate *best = core::recommendedCandidate(chosen);
    QVERIFY(best);
    QVERIFY(decision.applyRecommendation());
    doc.flush();
    views::CostView cost(&doc);
    showOffscreen(cost);
    const core::Evaluation &e = doc.evaluation();
    QCOMPARE(e[FigureId::CostReplicas], best->replicas);
    QCOMPARE(e[FigureId::CostDevices], best->devices);
    const QString notes = cost.notes();
    const QString month = QString::fromStdString(core::formatUsd(best->monthlyCostUsd));
    QVERIFY2(notes.contains(month + QStringLiteral(" a month")), qPrintable(notes + month));
    QVERIFY2(notes.contains(QStringLiteral("%1 devices = ").arg(best->devices)), qPrintable(notes));
    // the decided scenario's own checks keep the fleet
    const core::Candidate *again = core::recommendedCandidate(doc.selection());
    QVERIFY(again);
    QCOMPARE(again->replicas, best->replicas);
    QVERIFY(!decision.applyButton()->isEnabled()); // applied: nothing left to apply

    // one utilisation: the panel shows the traffic's busy share, not the unused 70 % input
    views::ScenarioPanel panel(&doc);
    showOffscreen(panel);
    auto *utilisation =
        qobject_cast<QDoubleSpinBox *>(panel.editor(QStringLiteral("cost.utilisation")));
    QVERIFY(utilisation);
    QVERIFY(!utilisation->isEnabled());
    QCOMPARE(utilisation->value(), std::round(e[FigureId::CostUtilisation] * 100.0 *
                                              std::pow(10, utilisation->decimals())) /
                                       std::pow(10, utilisation->decimals()));
    QVERIFY(notes.contains(QStringLiteral("busy %1 % of the time")
                               .arg(views::style::number(e[FigureId::CostUtilisation] * 100, 3))));
}

// A 70B fleet at a peak where the throughput alone keeps up with fewer replicas than the
// wizard's latency check, simulating the peak, needs for the p95 (found at 5 requests/s with
// the estimate of 2026-12-06: 3 against 4, $74,635.20 against $99,513.60 a month). The Cost tab
// priced the smaller fleet with no word while the wizard said the larger for the same device,
// format and shape: before Apply the Cost tab names the wizard's fleet and why it differs. The
// peak is searched for, so a refit of the estimate moves it without hiding the case.
void CostCompareViews::beforeApplyTheCostTabSaysTheWizardsFleet()
{
    views::ScenarioDocument doc;
    const core::Candidate *same = nullptr;
    double cheaperFleet = 0.0;
    for (double peak = 3.0; peak <= 12.0 && !same; peak += 0.5) {
        const std::vector<std::string> sets{"traffic.requests_per_day=200000",
                                            "traffic.peak_requests_per_second=" +
                                                std::to_string(peak)};
        auto loaded = core::readScenario(*core::scenarioPresetText("llama-70b-fleet"), sets);
        QVERIFY2(loaded, loaded ? "" : loaded.error().message.c_str());
        doc.reset(loaded.value().scenario);
        doc.flush();
        const core::Candidate *running = core::candidateRunning(doc.selection(), doc.scenario());
        QVERIFY(running);
        cheaperFleet = doc.evaluation()[FigureId::CostReplicas];
        if (running->replicas > cheaperFleet)
            same = running;
    }
    QVERIFY2(same, "no peak from 3 to 12 requests/s where the wizard's p95 fleet is larger than "
                   "the throughput's");
    QVERIFY(same->replicas > cheaperFleet);
    views::CostView cost(&doc);
    showOffscreen(cost);
    const QString month = QString::fromStdString(core::formatUsd(same->monthlyCostUsd));
    QTRY_VERIFY2(
        cost.notes().contains(
            QStringLiteral("The wizard sizes this setup at %1 replicas").arg(same->replicas)),
        qPrintable(cost.notes()));
    QVERIFY2(cost.notes().contains(month), qPrintable(cost.notes() + month));
    // a setup the wizard agrees with says nothing more
    QVERIFY(doc.setNumber(QStringLiteral("traffic.peak_requests_per_second"), 0.5));
    doc.flush();
    QTRY_VERIFY2(!cost.notes().contains(QStringLiteral("The wizard sizes")),
                 qPrintable(cost.notes()));
}

// A device without a price (the RTX 4090 preset gives none) showed "100000.00 USD/h" in the
// scenario panel: the panel set its editor to the unset (NaN) price, which the spin box showed
// as its maximum. It says "not set", as the All Inputs editor does, until a price is typed.
void CostCompareViews::aDeviceWithoutAPriceShowsNone()
{
    views::ScenarioDocument doc;
    QVERIFY(doc.setDevicePreset(QStringLiteral("nvidia-rtx-4090")));
    QVERIFY(!core::isSet(doc.scenario().cost.pricePerHourUsd));
    views::ScenarioPanel panel(&doc);
    showOffscreen(panel);
    auto *price =
        qobject_cast<QDoubleSpinBox *>(panel.editor(QStringLiteral("cost.price_per_hour_usd")));
    QVERIFY(price);
    QCOMPARE(price->text(), QStringLiteral("not set"));
    // a price typed in shows as itself, and the device's own price again after another device
    QVERIFY(doc.setNumber(QStringLiteral("cost.price_per_hour_usd"), 1.25));
    QTRY_VERIFY2(price->text().startsWith(QStringLiteral("1.25")), qPrintable(price->text()));
    QVERIFY(doc.setDevicePreset(QStringLiteral("nvidia-h100-sxm")));
    QTRY_VERIFY2(!price->text().contains(QStringLiteral("not set")) &&
                     !price->text().startsWith(QStringLiteral("100000")),
                 qPrintable(price->text()));
}

QTEST_MAIN(CostCompareViews)
#include "tst_costcompareviews.moc"
