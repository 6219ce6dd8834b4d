// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The calibration profile file (format "accel-explorer/calibration"): reading, writing, and the
// typical profile the app ships (presets/calibration/typical.json, the fit of the published
// measurements; tests/core/tst_calibration checks it is still that fit). The fit itself is in
// core/calibrate; the terms an evaluation takes from a profile are in core/physics/estimateterms.

#include "core/model/estimate.h"
#include "core/model/result.h"

#include <string>
#include <string_view>

namespace core {

inline constexpr std::string_view kCalibrationFormat = "accel-explorer/calibration";

[[nodiscard]] Result<CalibrationProfile> readCalibrationProfile(std::string_view text);
std::string calibrationProfileToJson(const CalibrationProfile &profile);

/** The built-in "typical" profile: fitted to presets/measurements/published.csv (the published
 *  measurements the app ships, each with its source) and shipped as
 *  presets/calibration/typical.json. */
const CalibrationProfile &typicalProfile();

/** Where the typical profile is kept, relative to presets/. */
inline constexpr std::string_view kTypicalProfilePath = "calibration/typical.json";

std::string_view estimateModeKey(EstimateMode mode); ///< "speed_of_light" | "typical" | ...

} // namespace core
