// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A slide for a stakeholder deck: one view at 1920x1080 with a title, the scenario's key
// assumptions underneath and the app version and preset data date in the corner.

#include "core/units.h"

#include <QString>

namespace core {
struct Scenario;
}

namespace views {

inline constexpr int kSlideWidth = 1920;
inline constexpr int kSlideHeight = 1080;

/** Writes the slide for view `viewName` (a --snapshot name) to `path` (.png, .svg or .pdf).
 *  `title` empty: the view's title and the scenario's name. False with `error` set. */
bool writeSlide(const core::Scenario &scenario, core::MemoryUnits units, const QString &viewName,
                const QString &path, QString *error, const QString &title = QString());

} // namespace views
