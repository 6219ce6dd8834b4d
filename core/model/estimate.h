// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Which estimate the figures are: the lesson's speed of light (the toy's perfect hardware), a
// "typical" profile fitted to published measurements, or the user's own calibration. Plain values:
// the profile a fit produces (calibration.h) and the scenario's choice (scenario.h) are here so
// the scenario can hold them without pulling in the fit.

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace core {

enum class EstimateMode { SpeedOfLight, Typical, Calibrated };

/** Fitted figures for one device (and engine), or pooled for a device class. */
struct CalibrationEntry
{
    std::string device;      ///< device preset id; empty for a class-wide entry
    std::string deviceClass; ///< "datacenter" | "edge" | "client" (the device's deployment)
    std::string engine;      ///< empty: any engine
    double bandwidthEfficiency = 1.0;
    double computeEfficiency = 1.0;
    double stepOverheadSeconds = 0.0;
    /// Time per tensor-parallel all-reduce, fitted from runs at TP > 1; NaN: the device link's
    /// own (10 us where the preset gives none)
    double collectiveLatencySeconds = std::numeric_limits<double>::quiet_NaN();
    /// Bandwidth efficiency of a decode step's KV traffic (attention kernels reading the cache),
    /// fitted where runs' KV shares differ enough to separate it; NaN: the weights' (issue #43)
    double kvBandwidthEfficiency = std::numeric_limits<double>::quiet_NaN();
    /// Engine time per generated token per decode step (sampling, scheduling, detokenising):
    /// a step of batch b pays b x this beside the fixed overhead (issue #43)
    double secondsPerSequence = 0.0;
    /// false where the measurements could not determine the figure and it came from the class
    /// (or stayed at the speed of light): said beside the number
    bool bandwidthFitted = false;
    bool computeFitted = false;
    bool overheadFitted = false;
    bool latencyFitted = false;
    bool kvFitted = false;
    bool perSequenceFitted = false;
    double points = 0; ///< measurements fitted
    double medianRelativeError = std::numeric_limits<double>::quiet_NaN();
    double worstRelativeError = std::numeric_limits<double>::quiet_NaN();

    std::string scopeLabel() const
    {
        std::string label = device.empty() ? deviceClass + " devices" : device;
        if (!engine.empty())
            label += " with " + engine;
        return label;
    }
};

/** A calibration profile: what `accel-calc calibrate` writes and a scenario applies. */
struct CalibrationProfile
{
    std::string name;
    std::string created;              ///< ISO date
    std::vector<std::string> sources; ///< measurement files and what they cite
    std::vector<CalibrationEntry> entries;
    std::vector<std::string> notes; ///< what the fit could not determine, and which run would
    /// The model terms the fit assumed (and so every prediction with this profile uses).
    bool attentionFlops = true;
    bool kvWrite = true;
    /// Each layer's small kernels timed beside the roofs (issue #43): profiles fitted since then.
    bool smallKernels = false;
    /// The efficiencies are shares of each device's measured ceilings (estimateterms.h,
    /// CeilingShare), not of its spec sheet: profiles fitted since issue #43. A file without the
    /// term was fitted against the spec sheet and is read so.
    bool measuredCeilings = false;
};

struct CalibrationConfig
{
    EstimateMode mode = EstimateMode::SpeedOfLight;
    std::string engine;      ///< prefer this engine's entries; empty: the device's own
    std::string profilePath; ///< as the scenario wrote it (a file beside it); empty: inline
    std::optional<CalibrationProfile> profile; ///< the user's profile (Calibrated)
    /// What the engine delivers against the estimate: every efficiency times this (capped at 1).
    /// The sensitivity's efficiency row varies it; never read from or written to a file.
    double efficiencyFactor = 1.0;

    bool active() const { return mode != EstimateMode::SpeedOfLight; }
};

} // namespace core
