// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A slide for a stakeholder deck: one view at 1920x1080 with a title, the scenario's key
// assumptions underneath and the app version and preset data date in the corner.

#include "core/model/units.h"

#include <QString>
#include <QStringList>

class QPainter;
class QRectF;

namespace core {
struct Scenario;
}

namespace views {

inline constexpr int kSlideWidth = 1920;
inline constexpr int kSlideHeight = 1080;

/** Rich text (a table, a diagnosis) drawn to fit `box`: its type shrinks from 26 px down to
 *  12 px until it fits, then the whole is scaled into the box, never cut. Returns the height it
 *  took (at most the box's). */
double drawFittedHtml(QPainter &painter, const QString &html, const QRectF &box);
/** The type size (pixels on a 1920x1080 slide) a view's text figure prints at beside the key
 *  numbers. */
double slideTextPixels(const QString &html);
/** The words drawFittedHtml would break across lines for `box` (none: it never does). */
QStringList wordsBrokenInFittedHtml(const QString &html, const QRectF &box);

/** Writes the slide for view `viewName` (a --snapshot name) to `path` (.png, .svg or .pdf).
 *  `title` empty: the view's title and the scenario's name. False with `error` set. */
bool writeSlide(const core::Scenario &scenario, core::MemoryUnits units, const QString &viewName,
                const QString &path, QString *error, const QString &title = QString());

} // namespace views
