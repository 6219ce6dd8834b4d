// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Helpers shared by the view tests (one program per tab): a widget laid out off screen at a
// given size, a relative comparison, and the settings every view test starts from.

#include <QCoreApplication>
#include <QSize>
#include <QStandardPaths>
#include <QString>
#include <QTest>
#include <QWidget>

#include <algorithm>
#include <cmath>

namespace viewtestsupport {

/** Autosave and settings stay out of the user's folders; each program keeps its own. */
inline void initViewTests(const QString &program)
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("AcceleratorExplorerTests"));
    QCoreApplication::setApplicationName(program);
}

inline void showOffscreen(QWidget &widget, QSize size = {1280, 800})
{
    widget.setAttribute(Qt::WA_DontShowOnScreen);
    widget.resize(size);
    widget.show();
    QCoreApplication::processEvents();
}

inline bool near(double a, double b, double relative = 1e-9)
{
    return std::fabs(a - b) <= relative * std::max(std::fabs(a), std::fabs(b));
}

} // namespace viewtestsupport

#define ACCEL_COMPARE_NEAR_VIEWS(actual, expected)                                                 \
    QVERIFY2(std::fabs((actual) - (expected)) <= 1e-9 * std::fabs(expected),                       \
             qPrintable(QString::number(actual, 'g', 12)))
