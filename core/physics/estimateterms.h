// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// From speed of light to what engines measure: the efficiencies, step overhead and model terms
// one evaluation uses (the scenario's own, the typical profile's or the user's calibration) and
// the label every figure carries. docs/formulas.md, "Calibration", says how.

#include "core/model/architecture.h"
#include "core/model/estimate.h"
#include "core/model/formats.h"

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
    /// a decode step's KV traffic (the attention kernels): the bandwidth's unless a profile
    /// fitted its own
    double kvBandwidthEfficiency = 1.0;
    double secondsPerSequence = 0.0; ///< per generated token per decode step
    double collectiveLatencySeconds = std::numeric_limits<double>::quiet_NaN(); ///< NaN: the link's
    bool attentionFlops = false;
    bool kvWrite = false;
    /// each layer's norms, rotary, activation and residual add timed apart (smallKernelCost)
    bool smallKernels = false;
    /// the device's measured bandwidth over its spec (what the small kernels' shares are of)
    double bandwidthCeilingShare = 1.0;
    /// The profile's efficiencies are shares of the device's measured ceilings (CeilingShare):
    /// the two efficiencies above are their products, shares of the spec sheet (at most 1)
    bool measuredCeilings = false;
    EstimateMode mode = EstimateMode::SpeedOfLight;
    const CalibrationEntry *entry = nullptr; ///< the profile entry used, if any
    bool missingProfileEntry = false; ///< a profile asked for, none for this device: own values
};

/** What one small kernel costs (issue #43): a launch floor, and its bytes at a share of the
 *  device's measured bandwidth, whichever is longer. Fitted to Vidur's profiled A100 and H100
 *  layers (13 tables, 1 to 8,192 tokens, TP 1-8: scripts/small_kernels.py, docs/research/
 *  small-kernels.md); one table for both devices, applied to every device. */
struct SmallKernelCost
{
    double floorSeconds = 0;
    double bandwidthShare = 1; ///< of the measured bandwidth ceiling
};
SmallKernelCost smallKernelCost(SmallKernel kind);

/** One run of a small kernel over `tokens` tokens: max(floor, tokens x bytes per token /
 *  (measured bandwidth x share)). */
double smallKernelRunSeconds(SmallKernel kind, double bytesPerToken, double tokens,
                             double measuredBytesPerSecond);
/** The small kernels of a step of `tokens` tokens: each run's, times how often it runs. */
double smallKernelSeconds(std::span<const SmallKernelRun> runs, double tokens,
                          double measuredBytesPerSecond);

/** Speed of light: the scenario's serving efficiencies, overhead and terms; typical or
 *  calibrated: the profile's entry for the device (and the scenario's engine), else its class. */
EstimateTerms estimateTerms(const Scenario &scenario);

/** How far from the estimate an engine's measured speed may lie (issue #43, item 5): a factor on
 *  the speed either side, twice the applied profile entry's median error (about the 80th
 *  percentile of errors spread normally; an entry's errors are of the runs it predicts, a class's
 *  of devices held out), clamped to 5-90 % and at most the speed of light above. No range at the
 *  speed of light or for an entry without errors (a user's profile fitted on one run). */
struct EstimateRange
{
    double low = 1.0;                                              ///< speed factor at the slow end
    double high = 1.0;                                             ///< at the fast end
    double medianError = std::numeric_limits<double>::quiet_NaN(); ///< the entry's
    bool known() const { return medianError == medianError; }      // not NaN
};
EstimateRange estimateRange(const EstimateTerms &terms);

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

/** What share of a spec figure a device reaches at best, measured (issue #43): a benchmark's
 *  fastest dense matmul over the dense peak, a stream benchmark's bandwidth over the spec
 *  sheet's. A device (or format) with no measurement takes the median share of the reference
 *  devices that have one, said so by `measured` false. */
struct CeilingShare
{
    double share = 1.0;    ///< in [0.05, 1]
    bool measured = false; ///< from this device's own measurement (of this format, or a sibling)
    /// the share of another format's measurement on the same units (FP16 from BF16): `ceiling`
    /// is that share of this format's peak, not a measurement of it
    bool sibling = false;
    double ceiling = 0.0; ///< the measured figure (TFLOP/s or GB/s); 0 when not measured
    std::string source;   ///< where the measurement comes from; empty when not measured
};

/** `described` false skips the source (the estimate's per-evaluation path). */
CeilingShare bandwidthCeiling(const DeviceSpec &device, bool described = true);
CeilingShare computeCeiling(const DeviceSpec &device, NumericFormat format, bool described = true);

/** The class a profile pools a device in: its deployment ("datacenter", "edge", "client"). */
std::string calibrationClassOf(const DeviceSpec &device);

} // namespace core
