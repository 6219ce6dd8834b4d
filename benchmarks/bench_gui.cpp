// How the linked views feel: one batch-slider step through to every visible view rendered,
// against the same render with no recomputation; process start to first painted window against
// a bare QMainWindow with one QChartView; peak memory. Offscreen; prints, never asserts.
//   bench_gui            run everything (starts itself as a child for the start-up figures)
//   bench_gui --child app|bare   start, paint once, exit (used by the start-up measurement)
//   bench_gui --window-png FILE [WxH]   save a picture of the whole main window (for reviews)

#include "app/mainwindow.h"
#include "views/scenariodocument.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QElapsedTimer>
#include <QImage>
#include <QLineSeries>
#include <QMainWindow>
#include <QPainter>
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

int child(const QString &kind)
{
    QMainWindow *window = nullptr;
    if (kind == QStringLiteral("bare")) {
        window = new QMainWindow;
        auto *chart = new QChart;
        auto *series = new QLineSeries;
        series->append(0, 0);
        series->append(1, 1);
        chart->addSeries(series);
        chart->createDefaultAxes();
        window->setCentralWidget(new QChartView(chart));
    } else {
        window = new MainWindow;
    }
    window->setAttribute(Qt::WA_DontShowOnScreen);
    window->resize(1280, 800);
    window->show();
    QApplication::processEvents();
    QImage image(window->size(), QImage::Format_ARGB32_Premultiplied);
    paint(*window, image);
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
        process.waitForFinished(60000);
        ms.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    peakKb = usage.ru_maxrss;
    return summarise(ms);
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
    std::vector<double> stepMs;
    std::vector<double> renderMs;
    std::vector<double> refreshMs;
    // warm-up
    for (int i = 0; i < 20; ++i) {
        document->setNumber(QStringLiteral("serving.batch"), 1 + i % 64);
        QApplication::processEvents();
        paint(window, image);
    }
    for (int i = 0; i < kSteps; ++i) {
        QElapsedTimer timer;
        timer.start();
        document->setNumber(QStringLiteral("serving.batch"), 1 + (i * 7) % 1024);
        QApplication::processEvents(); // the coalesced evaluate and every linked view's refresh
        refreshMs.push_back(double(timer.nsecsElapsed()) / 1e6);
        paint(window, image); // Qt Charts lays out lazily: only a render measures it
        stepMs.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    for (int i = 0; i < kSteps; ++i) {
        QElapsedTimer timer;
        timer.start();
        QApplication::processEvents();
        paint(window, image);
        renderMs.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    const Summary step = summarise(stepMs);
    const Summary refresh = summarise(refreshMs);
    const Summary render = summarise(renderMs);
    std::printf(
        "slider step -> all visible views rendered (1280x800): median %.2f ms, p99 %.2f ms\n",
        step.median, step.p99);
    std::printf(
        "  of which edit, evaluate and every view's refresh:  median %.2f ms, p99 %.2f ms\n",
        refresh.median, refresh.p99);
    std::printf(
        "same render, no recomputation:                       median %.2f ms, p99 %.2f ms\n",
        render.median, render.p99);
    std::printf("ratio (median): %.2fx; one 60 Hz frame is 16.7 ms\n", step.median / render.median);

    long appKb = 0;
    long bareKb = 0;
    const Summary appStart =
        startup(QApplication::applicationFilePath(), QStringLiteral("app"), appKb);
    const Summary bareStart =
        startup(QApplication::applicationFilePath(), QStringLiteral("bare"), bareKb);
    std::printf("process start -> first painted window: accel-explorer median %.0f ms (p99 %.0f), "
                "bare QMainWindow + QChartView median %.0f ms (p99 %.0f); ratio %.2fx\n",
                appStart.median, appStart.p99, bareStart.median, bareStart.p99,
                appStart.median / bareStart.median);
    rusage self{};
    getrusage(RUSAGE_SELF, &self);
    std::printf(
        "peak memory: this process (main window + 1000 steps) %.1f MB; largest child %.1f MB\n",
        self.ru_maxrss / 1024.0, std::max(appKb, bareKb) / 1024.0);
    return 0;
}
