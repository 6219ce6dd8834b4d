// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The fit that makes a calibration profile from measured runs, its accuracy (leave one out) and
// the shipped published measurements. What a profile does to a scenario's figures is
// core/physics/estimateterms; the profile file is core/data/calibrationprofile.
// docs/formulas.md, "Calibration", says how.

#include "core/calibrate/measurements.h"
#include "core/data/calibrationprofile.h"
#include "core/model/estimate.h"
#include "core/model/result.h"
#include "core/physics/estimateterms.h"

#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace core {

struct Scenario;
struct DeviceSpec;

/** The typical profile as the fit of the shipped measurements makes it today: what
 *  presets/calibration/typical.json must hold (tst_calibration compares them; `accel-calc
 *  calibrate --typical -o presets/calibration/typical.json` writes it after a refit). */
CalibrationProfile fitTypicalProfile();
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
 *  squares on relative error (core/calibrate/fit.h): per device class, then per device with two or
 * more measurements, then per device and engine where a device ran several engines. A figure the
 *  data cannot determine (every run memory-bound, one run only) is taken from the level above
 *  and a note says which measurement would determine it. Fails when there is nothing to fit. */
[[nodiscard]] Result<CalibrationResult> calibrate(std::span<const Measurement> measurements,
                                                  const std::string &name = "calibration");

/** Each measurement predicted by a fit of all the others: an honest accuracy figure. */
std::vector<CalibrationPoint> leaveOneOut(std::span<const Measurement> measurements);

/** What a held-out group shares: one run, an engine family or a device. */
enum class HoldOut { Run, Engine, Device };
std::string_view holdOutKey(HoldOut holdOut); ///< "run", "engine", "device"

/** "tensorrt-llm" for "TensorRT-LLM 0.6.1", "vllm" for "vLLM (ROCm, 2024)", "llama.cpp" for
 *  "llama.cpp (May 2024)": the first word, lower case, what a leave-one-engine-out holds out. */
std::string engineFamily(std::string_view engine);

/** Each measurement predicted by a fit without its whole group: every run of its engine family
 *  (the estimate for an engine nobody measured) or of its device (for a device nobody measured).
 *  The points come in the measurements' order. */
std::vector<CalibrationPoint> leaveGroupOut(std::span<const Measurement> measurements,
                                            HoldOut holdOut);

/** How near an estimate lies to the data behind it (issue #43): the lesson's ceiling, a fit
 *  of this device with this engine, of this device, of its class with or without this device
 *  among the fitted runs, or no data at all (the speed of light stands in). */
enum class EstimateReach { Lesson, DeviceAndEngine, Device, ClassWithDevice, ClassOnly, NoData };

struct ReachInfo
{
    EstimateReach reach = EstimateReach::Lesson;
    std::string text; ///< one sentence for a reader: the runs, their errors, what is outside
};

std::string_view estimateReachKey(EstimateReach reach); ///< "lesson", "device_and_engine", ...

/** Where `scenario`'s estimate comes from, said in a sentence. For the typical profile the
 *  fitted devices and engines are the shipped measurements'; a user's profile names none. */
ReachInfo estimateReach(const Scenario &scenario);

/** `measurement`'s scenario with `profile` applied (its engine preferred). */
Scenario calibratedScenario(const Measurement &measurement, const CalibrationProfile &profile);

} // namespace core
