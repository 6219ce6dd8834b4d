// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// From speed of light to what engines measure: which efficiencies and step overhead a scenario's
// figures use (the scenario's own, a typical profile fitted to the shipped published measurements,
// or the user's calibration), the fit that makes a profile from measurements, and the profile
// file (format "accel-explorer/calibration"). docs/formulas.md, "Calibration", says how.

#include "estimate.h"
#include "measurements.h"
#include "result.h"

#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace core {

struct Scenario;
struct DeviceSpec;

/** The efficiencies and terms one evaluation uses. */
struct EstimateTerms
{
    double bandwidthEfficiency = 1.0;
    double computeEfficiency = 1.0;
    double stepOverheadSeconds = 0.0;
    double collectiveLatencySeconds = std::numeric_limits<double>::quiet_NaN(); ///< NaN: the link's
    bool attentionFlops = false;
    bool kvWrite = false;
    EstimateMode mode = EstimateMode::SpeedOfLight;
    const CalibrationEntry *entry = nullptr; ///< the profile entry used, if any
    bool missingProfileEntry = false; ///< a profile asked for, none for this device: own values
};

/** Speed of light: the scenario's serving efficiencies, overhead and terms; typical or
 *  calibrated: the profile's entry for the device (and the scenario's engine), else its class. */
EstimateTerms estimateTerms(const Scenario &scenario);

/** "speed of light", "typical: nvidia-a100-80gb-sxm", "calibrated: datacenter devices": what
 *  every figure says it is. */
std::string estimateLabel(const Scenario &scenario);

/** The entry for `device` run by `engine`: device and engine, device, then the device class. */
const CalibrationEntry *findCalibrationEntry(const CalibrationProfile &profile,
                                             const DeviceSpec &device, std::string_view engine);

/** The built-in "typical" profile: fitted once to presets/measurements/published.csv (the
 *  published measurements the app ships, each with its source). */
const CalibrationProfile &typicalProfile();
/** The shipped measurements themselves. */
const MeasurementSet &publishedMeasurements();

/** One measurement against the fit. */
struct CalibrationPoint
{
    std::size_t row = 0; ///< index into the measurements
    double measured = 0;
    double predicted = 0;             ///< with the fitted profile
    double predictedUncalibrated = 0; ///< speed of light (the lesson's model)
    double relativeError = 0;         ///< predicted / measured - 1
    std::string scope;                ///< the entry that predicted it
};

struct CalibrationResult
{
    CalibrationProfile profile;
    std::vector<CalibrationPoint> points;
    double medianAbsoluteError = 0;
    double worstAbsoluteError = 0;
    std::size_t within15Percent = 0;
};

/** Fits bandwidth efficiency, compute efficiency and step overhead by bounded weighted least
 *  squares on relative error (core/fit.h): per device class, then per device with two or more
 *  measurements, then per device and engine where a device ran several engines. A figure the
 *  data cannot determine (every run memory-bound, one run only) is taken from the level above
 *  and a note says which measurement would determine it. Fails when there is nothing to fit. */
[[nodiscard]] Result<CalibrationResult> calibrate(std::span<const Measurement> measurements,
                                                  const std::string &name = "calibration");

/** Each measurement predicted by a fit of all the others: an honest accuracy figure. */
std::vector<CalibrationPoint> leaveOneOut(std::span<const Measurement> measurements);

/** `measurement`'s scenario with `profile` applied (its engine preferred). */
Scenario calibratedScenario(const Measurement &measurement, const CalibrationProfile &profile);

inline constexpr std::string_view kCalibrationFormat = "accel-explorer/calibration";

[[nodiscard]] Result<CalibrationProfile> readCalibrationProfile(std::string_view text);
std::string calibrationProfileToJson(const CalibrationProfile &profile);

std::string_view estimateModeKey(EstimateMode mode); ///< "speed_of_light" | "typical" | ...

} // namespace core
