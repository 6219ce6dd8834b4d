// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Scenario files (format "accel-explorer/scenario", version 1): read with validation and the
// lesson's defaults, write back with unknown keys preserved. Streams and strings only; the app
// wraps these with QSaveFile.

#include "core/model/result.h"
#include "core/model/scenario.h"

#include <iosfwd>
#include <span>
#include <string>
#include <string_view>

namespace core {

inline constexpr std::string_view kScenarioFormat = "accel-explorer/scenario";
inline constexpr int kScenarioVersion = 1;

struct LoadedScenario
{
    Scenario scenario;
    Diagnostics warnings; ///< unknown keys, ignored settings: worth telling, not fatal
};

/**
 * Reads a scenario from JSON text. `overrides` are "PATH=VALUE" assignments (accel-calc --set):
 * PATH is dotted ("serving.batch", "device.bandwidth_gb_s"); VALUE is parsed as JSON, else
 * taken as a string. A preset model or device is materialised inline before a key inside it is
 * changed. Every rule of the file format is checked; the first problem is returned.
 */
[[nodiscard]] Result<LoadedScenario> readScenario(std::string_view text,
                                                  std::span<const std::string> overrides = {});
[[nodiscard]] Result<LoadedScenario> readScenario(std::istream &in,
                                                  std::span<const std::string> overrides = {});

/** The most any input file may hold (a scenario, a config, an autosave): far above any real one,
 *  and the bound that keeps /dev/zero or a huge sparse file from exhausting memory. */
inline constexpr std::size_t kLargestInputBytes = std::size_t(64) * 1024 * 1024;

/** Reads `in` to its end into `text`, but never more than `limit` bytes: false when there is
 *  more (then `text` holds the first `limit` bytes), or when the stream fails. Regular files,
 *  pipes and devices alike: it never asks how large the input is. */
[[nodiscard]] bool readAtMost(std::istream &in, std::size_t limit, std::string &text);

/** The built-in scenario "lesson-default": the lesson's running example. */
Scenario lessonDefaultScenario();

/** Writes the scenario as indented JSON: every known value explicit, preset references kept as
 *  ids, and keys this version does not know carried over from the file it was read from. */
std::string writeScenario(const Scenario &scenario);
[[nodiscard]] bool writeScenario(std::ostream &out, const Scenario &scenario);

} // namespace core
