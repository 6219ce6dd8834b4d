// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// From speed of light to what engines measure: the efficiencies, step overhead and model terms
// one evaluation uses (the scenario's own, the typical profile's or the user's calibration) and
// the label every figure carries. docs/formulas.md, "Calibration", says how.

#include "core/model/estimate.h"

#include <limits>
#include <string>
#include <string_view>

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
/** The same by the device's key (preset id, else name) and class ("datacenter", ...). */
const CalibrationEntry *findCalibrationEntry(const CalibrationProfile &profile,
                                             std::string_view deviceKey,
                                             std::string_view deviceClass, std::string_view engine);

/** The class a profile pools a device in: its deployment ("datacenter", "edge", "client"). */
std::string calibrationClassOf(const DeviceSpec &device);

} // namespace core
