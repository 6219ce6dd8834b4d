// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The yardstick the GUI benchmarks compare the app with (docs/benchmarks.md): a main window
// holding one chart of two points, the least a Qt Charts window does.

#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QMainWindow>

namespace bench {

/** Gives `window` one line chart of two points as its central widget. */
inline void makeBare(QMainWindow &window)
{
    auto *chart = new QChart;
    auto *series = new QLineSeries;
    series->append(0, 0);
    series->append(1, 1);
    chart->addSeries(series);
    chart->createDefaultAxes();
    window.setCentralWidget(new QChartView(chart));
}

} // namespace bench
