// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The numbers the lesson prints, with the conditions under which the current scenario
// reproduces them, so views can put a small "lesson: 437" badge beside a figure and defuse
// "the app disagrees with the slide".

#include "core/physics/evaluation.h"

#include <optional>
#include <string>

namespace core {

struct Scenario;

struct LessonBadge
{
    std::string printed; ///< as the lesson prints it: "437", "18.29 GB"
    int line = 0;        ///< line in ai-accelerators.txt
};

/** The lesson's printed value of `id` if this scenario is the lesson's setting for it. */
std::optional<LessonBadge> lessonBadge(const Scenario &scenario, FigureId id);

} // namespace core
