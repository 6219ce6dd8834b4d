// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/physics/estimateterms.h"

#include "core/data/calibrationprofile.h"
#include "core/data/jsonread.h"
#include "core/data/presets.h"
#include "core/model/scenario.h"
#include "core/physics/evaluation.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace core {

namespace {

constexpr double kLowestShare = 0.05;

double clampShare(double share)
{
    return std::clamp(share, kLowestShare, 1.0);
}

double median(std::vector<double> values)
{
    if (values.empty())
        return 1.0;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

/** The share of `format`'s peak the device's own measurements give: that format's, else a
 *  sibling's on the same units (bf16 and fp16, fp8 and int8), else its 16-bit one. */
CeilingShare ownComputeShare(const DeviceSpec &device, NumericFormat format, bool described)
{
    auto shareOf = [&](NumericFormat f) -> std::optional<CeilingShare> {
        const double measured = device.measuredPeak(f);
        const double peak = device.peak(f);
        if (!isSet(measured) || !(peak > 0.0))
            return std::nullopt;
        CeilingShare c;
        c.share = clampShare(measured / peak);
        c.measured = true;
        c.ceiling = f == format ? measured : c.share * device.peak(format);
        if (!described) // the estimate's hot path: no strings
            return c;
        const auto source = device.sources.find("measured.tflops." + std::string(formatKey(f)));
        if (source != device.sources.end())
            c.source = source->second;
        c.sibling = f != format;
        if (f != format)
            c.source = "the " + std::string(formatKey(f)) + " share: " + c.source;
        return c;
    };
    using F = NumericFormat;
    // its own format, its sibling on the same units, then the 16-bit ones (a fixed list: the
    // estimate asks on every evaluation)
    std::array<F, 4> order{format, format, F::Bf16, F::Fp16};
    if (format == F::Bf16 || format == F::Fp16)
        order[1] = format == F::Bf16 ? F::Fp16 : F::Bf16;
    else if (format == F::Fp8 || format == F::Int8)
        order[1] = format == F::Fp8 ? F::Int8 : F::Fp8;
    for (F f : order)
        if (auto c = shareOf(f))
            return *c;
    return CeilingShare{};
}

/** The median shares of the reference devices with measurements: what a device without one is
 *  assumed to reach (0.85 of the bandwidth and 0.78 of the matmul peak with the 2026-12 data). */
struct MedianShares
{
    double bandwidth = 1.0;
    double compute = 1.0;
};

const MedianShares &medianShares()
{
    static const MedianShares shares = [] {
        std::vector<double> bandwidth;
        std::vector<double> compute;
        for (const PresetInfo &info : presetList()) {
            if (info.kind != "device" || !isReferenceDevice(info.id))
                continue;
            const auto device = devicePreset(info.id);
            if (!device)
                continue;
            if (isSet(device->measuredBandwidthGbPerSecond) && device->bandwidthGbPerSecond > 0.0)
                bandwidth.push_back(clampShare(device->measuredBandwidthGbPerSecond /
                                               device->bandwidthGbPerSecond));
            const CeilingShare c = ownComputeShare(device.value(), NumericFormat::Bf16, false);
            if (c.measured)
                compute.push_back(c.share);
        }
        return MedianShares{median(bandwidth), median(compute)};
    }();
    return shares;
}

/** The terms with every efficiency times `factor` (a sensitivity's end), none above 1. */
EstimateTerms scaled(EstimateTerms t, double factor)
{
    if (factor == 1.0)
        return t;
    t.bandwidthEfficiency = std::min(1.0, t.bandwidthEfficiency * factor);
    t.kvBandwidthEfficiency = std::min(1.0, t.kvBandwidthEfficiency * factor);
    t.computeEfficiency = std::min(1.0, t.computeEfficiency * factor);
    return t;
}

} // namespace

CeilingShare bandwidthCeiling(const DeviceSpec &device, bool described)
{
    CeilingShare c;
    if (isSet(device.measuredBandwidthGbPerSecond) && device.bandwidthGbPerSecond > 0.0) {
        c.share = clampShare(device.measuredBandwidthGbPerSecond / device.bandwidthGbPerSecond);
        c.measured = true;
        c.ceiling = device.measuredBandwidthGbPerSecond;
        if (!described)
            return c;
        if (const auto it = device.sources.find("measured.bandwidth_gb_s");
            it != device.sources.end())
            c.source = it->second;
        return c;
    }
    c.share = medianShares().bandwidth;
    return c;
}

CeilingShare computeCeiling(const DeviceSpec &device, NumericFormat format, bool described)
{
    CeilingShare c = ownComputeShare(device, format, described);
    if (!c.measured)
        c.share = medianShares().compute;
    return c;
}

std::string calibrationClassOf(const DeviceSpec &device)
{
    return std::string(detail::deploymentKey(device.deployment));
}

const CalibrationEntry *findCalibrationEntry(const CalibrationProfile &profile,
                                             std::string_view device, std::string_view deviceClass,
                                             std::string_view engine)
{
    const CalibrationEntry *deviceEntry = nullptr;
    const CalibrationEntry *classEntry = nullptr;
    for (const CalibrationEntry &entry : profile.entries) {
        if (!entry.device.empty() && entry.device == device) {
            if (!engine.empty() && entry.engine == engine)
                return &entry;
            if (entry.engine.empty())
                deviceEntry = &entry;
        } else if (entry.device.empty() && entry.deviceClass == deviceClass &&
                   entry.engine.empty()) {
            classEntry = &entry;
        }
    }
    return deviceEntry ? deviceEntry : classEntry;
}

const CalibrationEntry *findCalibrationEntry(const CalibrationProfile &profile,
                                             const DeviceSpec &device, std::string_view engine)
{
    return findCalibrationEntry(profile, device.presetId.empty() ? device.name : device.presetId,
                                calibrationClassOf(device), engine);
}

namespace {

/** The typical profile's entry for a device and engine, remembered for the last device asked
 *  (the profile is built once and never changes; a slider step asks for the same device each
 *  time, and the search of every entry was a sixth of an evaluation, issue #46). One memo per
 *  thread: the load simulation evaluates on a worker. */
const CalibrationEntry *typicalEntryFor(const DeviceSpec &device, std::string_view engine)
{
    struct Memo
    {
        std::string device;
        Deployment deployment = Deployment::Unknown;
        std::string engine;
        const CalibrationEntry *entry = nullptr;
        bool valid = false;
    };
    thread_local Memo memo;
    const std::string_view key = device.presetId.empty() ? device.name : device.presetId;
    if (memo.valid && memo.deployment == device.deployment && memo.device == key &&
        memo.engine == engine)
        return memo.entry;
    memo.entry = findCalibrationEntry(typicalProfile(), device, engine);
    memo.device.assign(key);
    memo.deployment = device.deployment;
    memo.engine.assign(engine);
    memo.valid = true;
    return memo.entry;
}

} // namespace

EstimateTerms estimateTerms(const Scenario &s)
{
    EstimateTerms t;
    t.bandwidthEfficiency = s.serving.bandwidthEfficiency;
    t.computeEfficiency = s.serving.computeEfficiency;
    t.stepOverheadSeconds = s.serving.stepOverheadSeconds;
    t.kvBandwidthEfficiency = t.bandwidthEfficiency;
    t.attentionFlops = s.serving.attentionFlops != 0.0;
    t.kvWrite = s.serving.kvWrite != 0.0;
    t.smallKernels = s.serving.smallKernels != 0.0;
    if (t.smallKernels)
        t.bandwidthCeilingShare = bandwidthCeiling(s.device, false).share;
    const CalibrationConfig &c = s.calibration;
    if (!c.active())
        return scaled(t, c.efficiencyFactor);
    const CalibrationProfile *profile = nullptr;
    if (c.mode == EstimateMode::Typical)
        profile = &typicalProfile();
    else if (c.profile)
        profile = &*c.profile;
    const CalibrationEntry *entry = nullptr;
    if (c.mode == EstimateMode::Typical)
        entry = typicalEntryFor(s.device, c.engine);
    else if (profile)
        entry = findCalibrationEntry(*profile, s.device, c.engine);
    if (!entry) {
        t.missingProfileEntry = true;
        return t;
    }
    t.mode = c.mode;
    t.entry = entry;
    t.bandwidthEfficiency = entry->bandwidthEfficiency;
    t.computeEfficiency = entry->computeEfficiency;
    t.kvBandwidthEfficiency = std::isfinite(entry->kvBandwidthEfficiency)
                                  ? entry->kvBandwidthEfficiency
                                  : entry->bandwidthEfficiency;
    t.secondsPerSequence = entry->secondsPerSequence;
    if (profile->measuredCeilings) { // the entry's shares are of the measured ceilings
        const double bandwidthShare = bandwidthCeiling(s.device, false).share;
        t.bandwidthCeilingShare = bandwidthShare;
        t.kvBandwidthEfficiency = std::min(1.0, t.kvBandwidthEfficiency * bandwidthShare);
        t.bandwidthEfficiency = std::min(1.0, t.bandwidthEfficiency * bandwidthShare);
        t.computeEfficiency = std::min(
            1.0, t.computeEfficiency * computeCeiling(s.device, computeFormatFor(s), false).share);
    }
    t.stepOverheadSeconds = entry->stepOverheadSeconds;
    t.collectiveLatencySeconds = entry->collectiveLatencySeconds;
    t.attentionFlops = profile->attentionFlops;
    t.kvWrite = profile->kvWrite;
    t.smallKernels = profile->smallKernels;
    if (t.smallKernels && !profile->measuredCeilings)
        t.bandwidthCeilingShare = bandwidthCeiling(s.device, false).share;
    t.measuredCeilings = profile->measuredCeilings;
    return scaled(t, c.efficiencyFactor);
}

SmallKernelCost smallKernelCost(SmallKernel kind)
{
    // scripts/small_kernels.py on Vidur's A100 and H100 layer profiles: one floor and one share
    // of the measured bandwidth per kind fit both devices within 5-12 % (median; 90th
    // percentile 23-33 %). A residual add beats the stream benchmark: its operands sit in L2.
    switch (kind) {
    case SmallKernel::Norm:
        return {5.75e-6, 0.42};
    case SmallKernel::Rotary:
        return {3.75e-6, 0.48};
    case SmallKernel::Activation:
        return {4.0e-6, 0.57};
    case SmallKernel::ResidualAdd:
        return {2.5e-6, 1.09};
    }
    return {};
}

double smallKernelRunSeconds(SmallKernel kind, double bytesPerToken, double tokens,
                             double measuredBytesPerSecond)
{
    const SmallKernelCost cost = smallKernelCost(kind);
    return std::max(cost.floorSeconds,
                    tokens * bytesPerToken / (measuredBytesPerSecond * cost.bandwidthShare));
}

double smallKernelSeconds(std::span<const SmallKernelRun> runs, double tokens,
                          double measuredBytesPerSecond)
{
    double seconds = 0.0;
    for (const SmallKernelRun &run : runs)
        seconds += run.runs * smallKernelRunSeconds(run.kind, run.bytesPerToken, tokens,
                                                    measuredBytesPerSecond);
    return seconds;
}

EstimateRange estimateRange(const EstimateTerms &terms)
{
    EstimateRange range;
    if (!terms.entry || !std::isfinite(terms.entry->medianRelativeError))
        return range;
    // since issue #43 an entry's worst error is a held-out device's (a 2024 ROCm engine: 154 %),
    // which would stretch every range to x0.1: the median's double instead
    const double error = std::clamp(2.0 * terms.entry->medianRelativeError, 0.05, 0.9);
    const double ceiling = 1.0 / std::max(terms.bandwidthEfficiency, terms.computeEfficiency);
    range.medianError = terms.entry->medianRelativeError;
    range.low = 1.0 - error;
    range.high = std::max(1.0, std::min(ceiling, 1.0 + error));
    return range;
}

std::string estimateLabel(const Scenario &s)
{
    const EstimateTerms t = estimateTerms(s);
    if (t.mode == EstimateMode::SpeedOfLight) {
        const bool toy = t.bandwidthEfficiency == 1.0 && t.computeEfficiency == 1.0 &&
                         t.stepOverheadSeconds == 0.0;
        std::string label = toy ? "speed of light"
                                : "speed of light with the scenario's "
                                  "efficiencies";
        if (t.missingProfileEntry)
            label += " (the profile has no entry for " + s.device.name + ")";
        return label;
    }
    return std::string(t.mode == EstimateMode::Typical ? "typical" : "calibrated") + ": " +
           t.entry->scopeLabel();
}

} // namespace core
