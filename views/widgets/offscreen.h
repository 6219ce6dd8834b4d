// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The one way to lay out a widget that is never shown on screen (snapshots, slides, reports,
// handouts): a never-shown chart renders as a thumbnail, and Qt Charts lays out its legend and
// queues its scene updates a pass or two after a change.

class QSize;
class QWidget;

namespace views {

/** Shows `widget` off screen (Qt::WA_DontShowOnScreen) at `size`, brings a view up to date and
 *  runs the event loop until it is laid out as it would be on screen. */
void layOutOffscreen(QWidget &widget, const QSize &size);

/** Runs the event loop until deferred layout has settled, after a change to a laid-out widget. */
void settleOffscreen();

} // namespace views
