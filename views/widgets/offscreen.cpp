// SPDX-License-Identifier: GPL-3.0-or-later
#include "offscreen.h"

#include "views/widgets/view.h"

#include <QApplication>
#include <QSize>
#include <QWidget>

namespace views {

namespace {
// The coalescing timer, Qt Charts' queued scene updates, then its legend layout.
constexpr int kLayoutPasses = 3;
} // namespace

void settleOffscreen()
{
    for (int pass = 0; pass < kLayoutPasses; ++pass)
        QApplication::processEvents();
}

void layOutOffscreen(QWidget &widget, const QSize &size)
{
    widget.setAttribute(Qt::WA_DontShowOnScreen);
    widget.resize(size);
    widget.show();
    QApplication::processEvents();
    if (auto *view = qobject_cast<View *>(&widget))
        view->ensureCurrent();
    settleOffscreen();
}

} // namespace views
