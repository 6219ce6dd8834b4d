// SPDX-License-Identifier: GPL-3.0-or-later
// The Load tab (issue #26): the latency curve and one run's timeline follow the scenario, run
// off the GUI thread, drop stale runs, show a bad load section's error instead of a curve, and
// survive being closed while a run is in flight.

#include "viewtestsupport.h"

#include "views/document/scenariodocument.h"
#include "views/export/report.h"
#include "views/load/loadrunner.h"
#include "views/load/loadviews.h"
#include "views/viewregistry.h"
#include "views/widgets/offscreen.h"

#include "core/data/presets.h"
#include "core/data/scenarioio.h"
#include "core/decide/selection.h"
#include "core/physics/loadsim.h"

#include <QBuffer>
#include <QPainter>
#include <QSignalSpy>
#include <QSvgGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <memory>

class LoadViews : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void curveFollowsTheScenario();
    void axisStaysPutWhenTheCurveDoes();
    void curveRunsOffTheGuiThread();
    void progressNeverOverwritesTheResult();
    void staleRunsAreNeverShown();
    void badLoadSectionShowsTheError();
    void timelineShowsOneRun();
    void closingMidRunIsSafe();
    void editingALoadInputMakesTheSectionPresent();
    void aCurveSimulatedOnceIsNotSimulatedAgain();
};

namespace {

/** A document of its own showing `scenario` on a load curve, laid out at 1280 x 800; the run
 *  waited for when `finish` (else whatever the refresh left). */
struct ShownCurve
{
    views::ScenarioDocument document;
    std::unique_ptr<views::LoadCurveView> view;

    explicit ShownCurve(const core::Scenario &scenario, bool finish = true)
    {
        document.reset(scenario);
        view = std::make_unique<views::LoadCurveView>(&document);
        views::layOutOffscreen(*view, QSize(1280, 800));
        view->ensureCurrent();
        if (finish)
            view->runner()->wait();
    }
};

core::Scenario lessonWith(const std::vector<std::string> &overrides)
{
    auto loaded =
        core::readScenario(std::string(*core::scenarioPresetText("lesson-default")), overrides);
    if (!loaded)
        qFatal("%s", loaded.error().message.c_str());
    return loaded.value().scenario;
}

bool drawsNoNan(views::View &view)
{
    QBuffer svg;
    svg.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&svg);
    generator.setSize(view.size());
    QPainter painter(&generator);
    view.render(painter, QRectF(QPointF(), QSizeF(view.size())));
    painter.end();
    const QString text = QString::fromUtf8(svg.data());
    return !text.contains(QStringLiteral("nan"), Qt::CaseInsensitive) &&
           !text.contains(QStringLiteral("\"inf"), Qt::CaseInsensitive);
}

} // namespace

void LoadViews::initTestCase()
{
    viewtestsupport::initViewTests(QStringLiteral("tst_loadviews"));
}

// The curve drawn is the core's curve for the document's scenario: the same knee, one point per
// rate, the targets as lines; a new target moves the line and the summary with it.
void LoadViews::curveFollowsTheScenario()
{
    views::ScenarioDocument doc;
    doc.reset(lessonWith({"serving.prompt_tokens=1000", "load.output_mean=200"}));
    views::LoadCurveView view(&doc);
    views::layOutOffscreen(view, QSize(1280, 800));
    view.ensureCurrent();
    view.runner()->wait();
    QVERIFY(view.runner()->curve());
    const core::LoadCurve &curve = *view.runner()->curve();
    QCOMPARE(view.ttftP95().size(), qsizetype(curve.points.size()));
    QCOMPARE(view.ttftP95().size(), 6); // limitForTests
    for (qsizetype i = 0; i < view.ttftP95().size(); ++i) {
        QCOMPARE(view.ttftP95()[i].x(), curve.points[std::size_t(i)].ratePerSecond);
        QCOMPARE(view.ttftP95()[i].y(), curve.points[std::size_t(i)].result.ttft.p95);
    }
    QCOMPARE(view.kneeDrawnAt(), curve.kneeRatePerSecond);
    QVERIFY2(view.summaryText().contains(QStringLiteral("first token 1.5 s")),
             qPrintable(view.summaryText()));
    QVERIFY(drawsNoNan(view));

    QVERIFY(doc.setNumber(QStringLiteral("serving.ttft_target_s"), 0.75));
    doc.flush();
    view.ensureCurrent();
    view.runner()->wait();
    QVERIFY2(view.summaryText().contains(QStringLiteral("first token 750 ms")),
             qPrintable(view.summaryText()));
}

// An input the stream does not depend on (the decode batch) gives the same curve on the same
// axis: applyNiceNumbers() once widened it on every refresh, 0-3 then 0-4 (support-assistant).
void LoadViews::axisStaysPutWhenTheCurveDoes()
{
    views::ScenarioDocument doc;
    auto loaded = core::readScenario(std::string(*core::scenarioPresetText("support-assistant")));
    QVERIFY(loaded);
    doc.reset(loaded.value().scenario);
    views::LoadCurveView view(&doc);
    views::layOutOffscreen(view, QSize(1280, 800));
    view.ensureCurrent();
    view.runner()->wait();
    const QList<QPointF> before = view.ttftP95();
    const QString axisBefore = view.axisRangeText();
    for (const double batch : {64.0, 776.0}) {
        QVERIFY(doc.setNumber(QStringLiteral("serving.batch"), batch));
        doc.flush();
        view.ensureCurrent();
        view.runner()->wait();
        QCOMPARE(view.ttftP95(), before);
        QCOMPARE(view.axisRangeText(), axisBefore);
    }
}

// A refresh returns at once and the result arrives later through the event loop: the window
// keeps painting while the curve is simulated.
void LoadViews::curveRunsOffTheGuiThread()
{
    views::LoadRunner::limitForTests(20, 2000); // 20 rates, as the app runs them
    views::ScenarioDocument doc;
    doc.reset(lessonWith({"serving.prompt_tokens=1000", "load.output_mean=200"}));
    views::LoadCurveView view(&doc);
    views::layOutOffscreen(view, QSize(1280, 800));
    QSignalSpy finished(view.runner(), &views::LoadRunner::finished);
    QSignalSpy progress(view.runner(), &views::LoadRunner::progress);
    view.ensureCurrent();
    // the refresh has returned and nothing is shown yet: the run goes on behind the event loop
    QVERIFY(view.runner()->busy());
    QVERIFY(!view.runner()->curve());
    QVERIFY(view.summaryText().startsWith(QStringLiteral("Simulating")));
    QVERIFY(finished.wait(20000));
    views::LoadRunner::limitForTests(6, 300);
    QCOMPARE(progress.size(), 20);
    QCOMPARE(progress.last().at(0).toInt(), 20);
    QVERIFY(view.summaryText().contains(QStringLiteral("20 rates x 2,000 requests")));
}

// wait() shows a run at once (the report takes its caption then): progress the worker posted
// before it finished must not overwrite the result when the events are processed afterwards.
void LoadViews::progressNeverOverwritesTheResult()
{
    views::LoadRunner::limitForTests(20, 3000);
    views::ScenarioDocument doc;
    doc.reset(lessonWith({"serving.prompt_tokens=1000", "load.output_mean=200"}));
    views::LoadCurveView view(&doc);
    views::layOutOffscreen(view, QSize(1280, 800));
    view.ensureCurrent();
    QTest::qWait(150); // the run has started and is posting progress
    view.runner()->wait();
    const QString shown = view.summaryText();
    QTest::qWait(50);
    views::LoadRunner::limitForTests(6, 300);
    QVERIFY2(shown.startsWith(QStringLiteral("Knee at")), qPrintable(shown));
    QCOMPARE(view.summaryText(), shown);
}

// A drag sends many scenarios: the runner starts few runs and shows only the last one's result.
void LoadViews::staleRunsAreNeverShown()
{
    views::ScenarioDocument doc;
    doc.reset(lessonWith({"serving.prompt_tokens=1000", "load.output_mean=200"}));
    views::LoadTimelineView view(&doc);
    views::layOutOffscreen(view, QSize(1280, 800));
    view.ensureCurrent();
    for (int rate = 1; rate <= 12; ++rate) {
        QVERIFY(doc.setNumber(QStringLiteral("load.rate_per_second"), rate));
        doc.flush();
        view.ensureCurrent();
        QTest::qWait(rate % 4 == 0 ? 200 : 10); // now and then a pause long enough to start
    }
    view.runner()->wait();
    QVERIFY(view.runner()->setup());
    QCOMPARE(view.runner()->setup()->ratePerSecond, 12.0);
    QVERIFY2(view.runner()->started() < 12, qPrintable(QString::number(view.runner()->started())));
    QVERIFY(view.summaryText().contains(QStringLiteral("at 12/s")));
}

void LoadViews::badLoadSectionShowsTheError()
{
    views::ScenarioDocument doc;
    doc.reset(lessonWith({"model.max_context=4096", "load.prompt_mean=5000"}));
    views::LoadCurveView curve(&doc);
    views::LoadTimelineView timeline(&doc);
    for (views::View *view :
         {static_cast<views::View *>(&curve), static_cast<views::View *>(&timeline)}) {
        views::layOutOffscreen(*view, QSize(1280, 800));
        view->ensureCurrent();
        QVERIFY(drawsNoNan(*view)); // waits for the run
    }
    QVERIFY(!curve.runner()->curve());
    QVERIFY2(curve.summaryText().contains(QStringLiteral("/load/prompt_mean")),
             qPrintable(curve.summaryText()));
    QVERIFY(curve.ttftP95().isEmpty());
    QVERIFY2(timeline.summaryText().contains(QStringLiteral("4096-token context limit")),
             qPrintable(timeline.summaryText()));
    QVERIFY(timeline.csv().isEmpty());
}

void LoadViews::timelineShowsOneRun()
{
    views::ScenarioDocument doc;
    doc.reset(lessonWith(
        {"serving.prompt_tokens=1000", "load.output_mean=200", "load.rate_per_second=4"}));
    views::LoadTimelineView view(&doc);
    views::layOutOffscreen(view, QSize(1280, 800));
    view.ensureCurrent();
    view.runner()->wait();
    QVERIFY(view.runner()->run());
    const core::LoadResult &r = *view.runner()->run();
    QCOMPARE(r.requests, std::size_t(300)); // limitForTests
    QCOMPARE(r.completed, r.requests);
    const QStringList lines = view.csv().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.first(), QStringLiteral("seconds,waiting,running,kv_fraction,arrived"));
    QCOMPARE(lines.size(), qsizetype(r.timeline.size() + 1));
    QVERIFY2(view.summaryText().contains(QStringLiteral("Little's law")),
             qPrintable(view.summaryText()));
    QVERIFY(drawsNoNan(view));
}

// The view goes while its run is in flight (a tab rebuilt, the window closed): the worker
// finishes into nothing.
void LoadViews::closingMidRunIsSafe()
{
    views::LoadRunner::limitForTests(20, 10000);
    views::ScenarioDocument doc;
    doc.reset(lessonWith({"serving.prompt_tokens=1000", "load.output_mean=200"}));
    for (int i = 0; i < 3; ++i) {
        auto view = std::make_unique<views::LoadCurveView>(&doc);
        views::layOutOffscreen(*view, QSize(800, 500));
        view->ensureCurrent();
        QTest::qWait(150); // past the pause: the run has started
        view.reset();
    }
    QTest::qWait(1500); // the workers end (cancelled) and post to no one
    views::LoadRunner::limitForTests(6, 300);
    QVERIFY(true);
}

// Moving a load input in the app makes the section the scenario's own: saved with it, and the
// wizard's latency check then simulates.
void LoadViews::editingALoadInputMakesTheSectionPresent()
{
    views::ScenarioDocument doc;
    doc.reset(core::lessonDefaultScenario());
    QVERIFY(!doc.scenario().load.present);
    QVERIFY(doc.setNumber(QStringLiteral("load.rate_per_second"), 3));
    doc.flush();
    QVERIFY(doc.scenario().load.present);
    QVERIFY(QString::fromStdString(core::writeScenario(doc.scenario()))
                .contains(QStringLiteral("\"rate_per_second\": 3")));
}

// Issue #46: the report simulated the load curve the Load tab had just shown (half of the
// report's time). A curve simulated once is shown again at once, by any view, as long as the
// scenario is the same; a changed one runs.
void LoadViews::aCurveSimulatedOnceIsNotSimulatedAgain()
{
    const core::Scenario asked =
        lessonWith({"serving.prompt_tokens=1000", "load.output_mean=200", "load.requests=250"});
    // as the decision's Apply leaves the document: the report decides it to the same scenario
    const core::Scenario decided = core::decidedScenario(asked, core::selectDevice(asked));
    const ShownCurve tab(decided);
    const views::LoadCurveView &shown = *tab.view;
    QVERIFY(shown.runner()->curve());
    const int runs = views::LoadRunner::startedInProcess();

    ShownCurve other(decided, false); // another document, another view: the same scenario
    views::LoadCurveView &again = *other.view;
    QVERIFY(again.runner()->curve()); // at once: no wait, no run
    QCOMPARE(again.runner()->started(), 0);
    QCOMPARE(again.ttftP95(), shown.ttftP95());
    QCOMPARE(again.summaryText(), shown.summaryText());

    QTemporaryDir dir;
    QString error;
    QVERIFY2(views::writeReport(decided, core::MemoryUnits::GB,
                                dir.filePath(QStringLiteral("report.pdf")), &error),
             qPrintable(error));
    QCOMPARE(views::LoadRunner::startedInProcess(), runs);

    QVERIFY(other.document.setNumber(QStringLiteral("load.output_mean"), 150));
    other.document.flush();
    again.ensureCurrent();
    again.runner()->wait();
    QCOMPARE(views::LoadRunner::startedInProcess(), runs + 1);
    QVERIFY(again.ttftP95() != shown.ttftP95());

    // a figure of a load section the file did not give (not saved with it) still tells two
    // runs apart
    for (const int more : {1, 2}) {
        core::Scenario reseeded = decided;
        reseeded.load.present = false;
        reseeded.load.seed = decided.load.seed + more;
        const ShownCurve seeded(reseeded);
        QCOMPARE(views::LoadRunner::startedInProcess(), runs + 1 + more);
    }

    // replicas left to the fleet and replicas stated as 1 save alike ("replicas": 1) and
    // simulate apart: two runs
    const int before = views::LoadRunner::startedInProcess();
    for (const bool stated : {false, true}) {
        core::Scenario s = decided;
        s.load.present = true;
        s.load.seed = decided.load.seed + 10; // a curve not simulated above
        s.load.replicas = 1;
        if (stated)
            s.givenInputs["load.replicas"] = core::InputOrigin::App;
        else
            s.givenInputs.erase("load.replicas");
        const ShownCurve fleetOrOne(s);
    }
    QCOMPARE(views::LoadRunner::startedInProcess(), before + 2);
}

QTEST_MAIN(LoadViews)
#include "tst_loadviews.moc"
