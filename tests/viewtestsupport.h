// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Helpers shared by the view tests (one program per tab): a widget laid out off screen at a
// given size, a relative comparison, and the settings every view test starts from.

#include "views/load/loadrunner.h"
#include "views/widgets/style.h"

#include <QApplication>
#include <QCoreApplication>
#include <QFont>
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
    // the load views simulate 6 rates x 300 requests here: these tests look at the drawing and
    // the linking (tst_loadsim checks the numbers at full size)
    views::LoadRunner::limitForTests(6, 300);
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

/** Presenter size for as long as it lives (1.6x scale and fonts), then back, even when a check
 *  fails half-way: the next test starts at 1x. */
class PresenterScale
{
public:
    explicit PresenterScale(bool presenter)
        : m_font(QApplication::font())
    {
        if (presenter) {
            views::style::setScale(1.6);
            QApplication::setFont(views::style::scaledFont(m_font, 1.6));
        }
    }
    ~PresenterScale()
    {
        views::style::setScale(1.0);
        QApplication::setFont(m_font);
    }
    PresenterScale(const PresenterScale &) = delete;
    PresenterScale &operator=(const PresenterScale &) = delete;

private:
    QFont m_font;
};

} // namespace viewtestsupport

#define ACCEL_COMPARE_NEAR_VIEWS(actual, expected)                                                 \
    QVERIFY2(std::fabs((actual) - (expected)) <= 1e-9 * std::fabs(expected),                       \
             qPrintable(QString::number(actual, 'g', 12)))
