// SPDX-License-Identifier: GPL-3.0-or-later
// What the exports cost (issue #46): the tour handout (student's and teacher's copy) and the
// decision report (PDF and HTML), each written to a temporary folder, timed in this process
// beside a bare window (a QMainWindow with one QChartView, laid out, shown and rendered to an
// image) so that the ratio holds across machines. Prints medians; measures, never asserts.
//   bench_exports [RUNS]   every export RUNS times (default 3), interleaved with the bare window
//   bench_exports --report-after-load   a report right after the Load tab showed its curve

#include "benchmarks/barewindow.h"
#include "views/document/scenariodocument.h"
#include "views/export/handout.h"
#include "views/export/report.h"
#include "views/load/loadviews.h"
#include "views/widgets/offscreen.h"

#include "core/data/presets.h"
#include "core/data/scenarioio.h"
#include "core/decide/selection.h"
#include "core/model/scenario.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QMainWindow>
#include <QPainter>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace {

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

/** Milliseconds `work` takes. */
double timed(const std::function<void()> &work)
{
    QElapsedTimer timer;
    timer.start();
    work();
    return double(timer.nsecsElapsed()) / 1e6;
}

/** The unit of comparison: a bare window with one chart, laid out, shown and drawn. */
void bareWindow()
{
    QMainWindow window;
    bench::makeBare(window);
    views::layOutOffscreen(window, QSize(1280, 800));
    QImage image(window.size(), QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&image);
    window.render(&painter);
}

core::Scenario preset(const char *id)
{
    return core::readScenario(*core::scenarioPresetText(id)).value().scenario;
}

} // namespace

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("AcceleratorExplorerBench"));
    QApplication::setApplicationName(QStringLiteral("bench_exports"));
    const QStringList args = QApplication::arguments();
    QTemporaryDir dir;
    const core::Scenario lesson = preset("lesson-default");
    QString error;

    if (args.value(1) == QStringLiteral("--report-after-load")) {
        // the decision applied, the Load tab shown, then the report: its curve is the tab's
        views::writeReport(lesson, core::MemoryUnits::GB, dir.filePath(QStringLiteral("w.pdf")),
                           &error); // warm-up: fonts, the PDF writer
        const auto decide = [](core::Scenario s, double seed) {
            s.load.seed = seed; // the same work, a curve nobody simulated yet
            return core::decidedScenario(s, core::selectDevice(s));
        };
        const core::Scenario other = decide(lesson, 7);
        const core::Scenario decided = decide(lesson, 11);
        const double cold = timed([&] {
            views::writeReport(other, core::MemoryUnits::GB,
                               dir.filePath(QStringLiteral("cold.pdf")), &error);
        });
        views::ScenarioDocument document;
        document.reset(decided);
        views::LoadCurveView tab(&document);
        const double shown = timed([&] {
            views::layOutOffscreen(tab, QSize(1280, 800));
            tab.figureWidget(); // waits for the curve
        });
        const double report = timed([&] {
            views::writeReport(decided, core::MemoryUnits::GB,
                               dir.filePath(QStringLiteral("after.pdf")), &error);
        });
        std::printf("a report whose curve nobody simulated %.0f ms; the Load tab's curve %.0f ms; "
                    "the report right after it %.0f ms\n",
                    cold, shown, report);
        return 0;
    }

    const int runs = std::max(1, args.value(1, QStringLiteral("3")).toInt());
    struct Export
    {
        const char *name;
        std::function<bool()> write;
        std::vector<double> ms;
    };
    std::vector<Export> exports = {
        {"handout, student's copy",
         [&] {
             return views::writeTourHandout(dir.filePath(QStringLiteral("s.pdf")), false, &error);
         },
         {}},
        {"handout, teacher's copy",
         [&] {
             return views::writeTourHandout(dir.filePath(QStringLiteral("t.pdf")), true, &error);
         },
         {}},
        // a report is made once per scenario: each run its own (the runner remembers curves)
        {"report, PDF (lesson-default)",
         [&] {
             static int run = 0;
             core::Scenario s = lesson;
             s.name += " " + std::to_string(++run); // another scenario each time: none remembered
             return views::writeReport(s, core::MemoryUnits::GB,
                                       dir.filePath(QStringLiteral("r.pdf")), &error);
         },
         {}},
        {"report, HTML (lesson-default)",
         [&] {
             static int run = 0;
             core::Scenario s = lesson;
             s.name += " html " + std::to_string(++run);
             return views::writeReport(s, core::MemoryUnits::GB,
                                       dir.filePath(QStringLiteral("r.html")), &error);
         },
         {}},
    };
    std::vector<double> bare;
    bareWindow(); // warm-up: fonts, the chart plugin, the first layout
    for (int r = 0; r < runs; ++r) {
        bare.push_back(timed(bareWindow));
        for (Export &e : exports) {
            bool ok = true;
            e.ms.push_back(timed([&] { ok = e.write(); }));
            if (!ok) {
                std::printf("%s failed: %s\n", e.name, qPrintable(error));
                return 1;
            }
        }
    }
    const double unit = median(bare);
    std::printf("bare window (one chart, laid out and drawn): median %.1f ms\n", unit);
    for (const Export &e : exports)
        std::printf("%-32s median %7.0f ms  (%.0fx the bare window)\n", e.name, median(e.ms),
                    median(e.ms) / unit);
    return 0;
}
