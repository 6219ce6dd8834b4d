// SPDX-License-Identifier: GPL-3.0-or-later
// How the linked views feel: one batch-slider step through to the changed views repainted, against
// exactly those repaints with nothing recomputed; the same step followed by a whole-window render
// to an image, against that render alone; process start to first painted window against a bare
// QMainWindow with one QChartView; peak memory. Offscreen; prints, never asserts.
//   bench_gui            run everything (starts itself as a child for the start-up figures)
//   bench_gui --child app|bare   start, paint, say so on stdout, exit (for the start-up figures)
//   bench_gui --window-png FILE [WxH]   save a picture of the whole main window (for reviews)
//   bench_gui --wizard [N] [fleet]   the Wizard-tab step alone (fleet: the 70B case, 7 formats)
//   bench_gui --wizard [N] fleet:ID  the same for the shipped scenario ID
//   bench_gui --wizard [N] all       the same for every shipped scenario, 7 formats each

#include "app/mainwindow.h"
#include "benchmarks/barewindow.h"
#include "views/document/scenariodocument.h"

#include "core/data/presets.h"
#include "core/data/scenarioio.h"
#include "core/model/scenario.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QMainWindow>
#include <QPaintEvent>
#include <QPainter>
#include <QPointer>
#include <QProcess>

#include <sys/resource.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

struct Summary
{
    double median;
    double p99;
};

Summary summarise(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return {values[values.size() / 2],
            values[std::min(values.size() - 1, values.size() * 99 / 100)]};
}

void paint(QWidget &window, QImage &image)
{
    QPainter painter(&image);
    window.render(&painter);
}

// Records which widgets are repainted, and where, while recording is on.
class PaintRecorder : public QObject
{
public:
    struct Paint
    {
        QPointer<QWidget> widget;
        QRegion region;
    };
    bool recording = false;
    std::vector<Paint> painted;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (recording && event->type() == QEvent::Paint && watched->isWidgetType())
            painted.push_back(
                {static_cast<QWidget *>(watched), static_cast<QPaintEvent *>(event)->region()});
        return false;
    }
};

// Runs the event loop until a pass repaints nothing: the coalesced evaluation, Qt Charts' deferred
// layout and the widgets' repaints each take a pass. Returns the passes that did work.
int processUntilPainted(PaintRecorder &recorder)
{
    int passes = 0;
    for (;;) {
        const size_t before = recorder.painted.size();
        QApplication::processEvents();
        ++passes;
        if (passes > 1 && recorder.painted.size() == before)
            return passes - 1;
    }
}

int child(const QString &kind)
{
    QMainWindow *window = nullptr;
    if (kind == QStringLiteral("bare")) {
        window = new QMainWindow;
        bench::makeBare(*window);
    } else {
        window = new MainWindow;
    }
    PaintRecorder recorder;
    recorder.recording = true;
    QApplication::instance()->installEventFilter(&recorder);
    // Shown as the app shows itself (the offscreen platform puts nothing on a screen anyway):
    // WA_DontShowOnScreen takes another path through QWidget::show that paints this window
    // twice, once before and once after its first layout (docs/benchmarks.md).
    window->resize(1280, 800);
    window->show();
    processUntilPainted(recorder);
    // the parent's clock stops here: tearing down is not part of starting
    std::printf("painted %zu\n", recorder.painted.size());
    std::fflush(stdout);
    delete window;
    return 0;
}

Summary startup(const QString &program, const QString &kind, long &peakKb)
{
    std::vector<double> ms;
    peakKb = 0;
    for (int i = 0; i < 11; ++i) {
        QElapsedTimer timer;
        timer.start();
        QProcess process;
        process.start(program, {QStringLiteral("--child"), kind});
        while (!process.canReadLine() && process.waitForReadyRead(60000)) {
        }
        ms.push_back(double(timer.nsecsElapsed()) / 1e6);
        process.waitForFinished(60000);
    }
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    peakKb = usage.ru_maxrss;
    return summarise(ms);
}

/** One step of the Wizard tab's drag, to the screen (a function of its own for a profiler:
 *  valgrind --toggle-collect='*concurrencyStep*'). */
[[gnu::noinline]] void concurrencyStep(views::ScenarioDocument *document, PaintRecorder &recorder,
                                       int sequences)
{
    document->setNumber(QStringLiteral("serving.concurrent_sequences"), sequences);
    processUntilPainted(recorder);
}

/** The Wizard tab with every device preset as a candidate: a concurrency step recomputes the
 *  checks (devices x formats) and refreshes the checks table and the decision. */
void wizardStep(MainWindow &window, views::ScenarioDocument *document, PaintRecorder &recorder,
                int steps, bool fleet = false, const std::string &presetScenario = {})
{
    core::Scenario wide = document->scenario();
    if (fleet) { // issue #21: the 70B fleet, every storage format, most devices needing a split
        const std::string id = presetScenario.empty() ? "llama-70b-fleet" : presetScenario;
        wide = core::readScenario(*core::scenarioPresetText(id)).value().scenario;
        wide.wizard.formats = {core::NumericFormat::Bf16, core::NumericFormat::Fp16,
                               core::NumericFormat::Fp8,  core::NumericFormat::Int8,
                               core::NumericFormat::Int4, core::NumericFormat::Nvfp4,
                               core::NumericFormat::Mxfp4};
    }
    wide.wizard.candidates.emplace();
    for (const core::PresetInfo &info : core::presetList()) {
        if (info.kind == "device")
            wide.wizard.candidates->push_back(info.id);
    }
    document->applyScenario(wide, QStringLiteral("All devices"));
    window.showView(QStringLiteral("checks"));
    processUntilPainted(recorder);
    const int runsBefore = document->selectionRuns();
    std::vector<double> wizardMs;
    recorder.recording = true;
    for (int i = 0; i < steps; ++i) {
        recorder.painted.clear();
        QElapsedTimer timer;
        timer.start();
        concurrencyStep(document, recorder, fleet ? 40 + i % 40 : 20 + i % 40);
        wizardMs.push_back(double(timer.nsecsElapsed()) / 1e6);
        if (qEnvironmentVariableIsSet("BENCH_EACH_STEP")) // which steps are the slow ones
            std::printf("  step %d: %.2f ms\n", i, wizardMs.back());
        if (i == steps - 1 && qEnvironmentVariableIsSet("BENCH_LIST_PAINTS")) {
            for (const PaintRecorder::Paint &painted : recorder.painted) {
                if (painted.widget)
                    std::printf("  painted %s %s %d x %d\n",
                                painted.widget->metaObject()->className(),
                                qPrintable(painted.widget->objectName()),
                                painted.region.boundingRect().width(),
                                painted.region.boundingRect().height());
            }
        }
    }
    recorder.recording = false;
    const Summary wizard = summarise(wizardMs);
    const std::string label = presetScenario.empty() ? "70B fleet" : presetScenario;
    std::printf("Wizard tab%s%s%s, %zu device candidates x %zu formats, a concurrency step to the "
                "screen: median %.2f ms, p99 %.2f ms; %.2f selections per step\n",
                fleet ? " (" : "", fleet ? label.c_str() : "", fleet ? ", TP shapes)" : "",
                wide.wizard.candidates->size(), wide.wizard.formats.size(), wizard.median,
                wizard.p99, double(document->selectionRuns() - runsBefore) / steps);
}

/** Process start to the first painted window: the app against a bare window with one chart. */
void startupRatio(long &appKb, long &bareKb)
{
    const Summary appStart =
        startup(QApplication::applicationFilePath(), QStringLiteral("app"), appKb);
    const Summary bareStart =
        startup(QApplication::applicationFilePath(), QStringLiteral("bare"), bareKb);
    std::printf("process start -> first painted window: accel-explorer median %.0f ms (p99 %.0f), "
                "bare QMainWindow + QChartView median %.0f ms (p99 %.0f); ratio %.2fx\n",
                appStart.median, appStart.p99, bareStart.median, bareStart.p99,
                appStart.median / bareStart.median);
}

} // namespace

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("AcceleratorExplorerBench"));
    QApplication::setApplicationName(QStringLiteral("bench_gui"));
    const QStringList args = QApplication::arguments();
    if (args.size() == 3 && args[1] == QStringLiteral("--child"))
        return child(args[2]);
    if (args.size() == 2 && args[1] == QStringLiteral("--startup")) { // that line alone
        long appKb = 0;
        long bareKb = 0;
        startupRatio(appKb, bareKb);
        return 0;
    }
    if (args.size() >= 3 && args[1] == QStringLiteral("--window-png")) {
        MainWindow window;
        window.setAttribute(Qt::WA_DontShowOnScreen);
        const QStringList size = args.value(3, QStringLiteral("1280x800")).split(QLatin1Char('x'));
        window.resize(size.value(0).toInt(), size.value(1).toInt());
        window.show();
        QApplication::processEvents();
        window.document()->flush();
        QApplication::processEvents();
        return window.grab().save(args[2]) ? 0 : 1;
    }

    MainWindow window;
    window.setAttribute(Qt::WA_DontShowOnScreen);
    window.resize(1280, 800);
    window.show();
    QApplication::processEvents();
    QImage image(window.size(), QImage::Format_ARGB32_Premultiplied);
    views::ScenarioDocument *document = window.document();

    constexpr int kSteps = 500;
    PaintRecorder recorder;
    app.installEventFilter(&recorder);
    if (args.size() >= 2 && args[1] == QStringLiteral("--wizard")) { // for a profiler: this alone
        const int steps = args.value(2, QStringLiteral("200")).toInt();
        if (args.value(3) == QStringLiteral("all")) { // issue #46: every shipped scenario
            for (const core::PresetInfo &info : core::presetList()) {
                if (info.kind == "scenario")
                    wizardStep(window, document, recorder, steps, true, info.id);
            }
            return 0;
        }
        // "fleet": the 70B fleet; "fleet:ID" another shipped scenario, 7 formats the same way
        const bool fleet = args.value(3).startsWith(QStringLiteral("fleet"));
        wizardStep(window, document, recorder, steps, fleet,
                   fleet ? args.value(3).mid(6).toStdString() : std::string());
        return 0;
    }
    // warm-up
    for (int i = 0; i < 20; ++i) {
        document->setNumber(QStringLiteral("serving.batch"), 1 + i % 64);
        QApplication::processEvents();
        paint(window, image);
    }

    // To the screen: the edit, the coalesced evaluate, every linked view's refresh, Qt Charts'
    // deferred layout and the repaint of what changed all happen in processEvents. Recorded: which
    // widgets each step repainted, and where, so the baseline repaints exactly those.
    std::vector<double> stepMs;
    std::vector<double> repaintMs;
    size_t widgetRepaints = 0;
    int passesMax = 0;
    recorder.recording = true;
    for (int i = 0; i < kSteps; ++i) {
        recorder.painted.clear();
        QElapsedTimer timer;
        timer.start();
        document->setNumber(QStringLiteral("serving.batch"), 1 + (i * 7) % 1024);
        passesMax = std::max(passesMax, processUntilPainted(recorder));
        stepMs.push_back(double(timer.nsecsElapsed()) / 1e6);

        // the baseline right after, so both see the same machine: the same repaints, no edit
        const std::vector<PaintRecorder::Paint> paints = std::move(recorder.painted);
        widgetRepaints += paints.size();
        recorder.painted.clear();
        timer.restart();
        for (const PaintRecorder::Paint &painted : paints) {
            if (painted.widget)
                painted.widget->update(painted.region);
        }
        processUntilPainted(recorder);
        repaintMs.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    recorder.recording = false;

    // To an image (as an export does): the step, then the whole window rendered, against the whole
    // window rendered with nothing recomputed.
    std::vector<double> stepImageMs;
    for (int i = 0; i < kSteps; ++i) {
        QElapsedTimer timer;
        timer.start();
        document->setNumber(QStringLiteral("serving.batch"), 1 + (i * 7) % 1024);
        QApplication::processEvents();
        paint(window, image);
        stepImageMs.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    std::vector<double> renderMs;
    for (int i = 0; i < kSteps; ++i) {
        QElapsedTimer timer;
        timer.start();
        QApplication::processEvents();
        paint(window, image);
        renderMs.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    const Summary step = summarise(stepMs);
    const Summary repaint = summarise(repaintMs);
    const Summary stepImage = summarise(stepImageMs);
    const Summary render = summarise(renderMs);
    std::printf("slider step -> changed views repainted (1280x800):  median %.2f ms, p99 %.2f ms\n",
                step.median, step.p99);
    std::printf("same repaints, nothing recomputed:                  median %.2f ms, p99 %.2f ms\n",
                repaint.median, repaint.p99);
    std::printf("  ratio (median): %.2fx; %.1f widget repaints per step, done in at most %d "
                "passes of the event loop; one 60 Hz frame is 16.7 ms\n",
                step.median / repaint.median, double(widgetRepaints) / kSteps, passesMax);
    std::printf(
        "slider step, then whole window rendered to an image: median %.2f ms, p99 %.2f ms\n",
        stepImage.median, stepImage.p99);
    std::printf(
        "whole window rendered, nothing recomputed:           median %.2f ms, p99 %.2f ms\n",
        render.median, render.p99);
    std::printf("  ratio (median): %.2fx\n", stepImage.median / render.median);

    wizardStep(window, document, recorder, 200);
    wizardStep(window, document, recorder, 100, true);

    long appKb = 0;
    long bareKb = 0;
    startupRatio(appKb, bareKb);
    rusage self{};
    getrusage(RUSAGE_SELF, &self);
    std::printf("peak memory: this process (main window, 1,000 slider steps) %.1f MB; largest "
                "child %.1f MB\n",
                self.ru_maxrss / 1024.0, std::max(appKb, bareKb) / 1024.0);
    return 0;
}
