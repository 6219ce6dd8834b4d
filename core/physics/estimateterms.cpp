// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/physics/estimateterms.h"

#include "core/data/calibrationprofile.h"
#include "core/data/jsonread.h"
#include "core/model/scenario.h"

namespace core {

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

EstimateTerms estimateTerms(const Scenario &s)
{
    EstimateTerms t;
    t.bandwidthEfficiency = s.serving.bandwidthEfficiency;
    t.computeEfficiency = s.serving.computeEfficiency;
    t.stepOverheadSeconds = s.serving.stepOverheadSeconds;
    t.attentionFlops = s.serving.attentionFlops != 0.0;
    t.kvWrite = s.serving.kvWrite != 0.0;
    const CalibrationConfig &c = s.calibration;
    if (!c.active())
        return t;
    const CalibrationProfile *profile = nullptr;
    if (c.mode == EstimateMode::Typical)
        profile = &typicalProfile();
    else if (c.profile)
        profile = &*c.profile;
    const CalibrationEntry *entry =
        profile ? findCalibrationEntry(*profile, s.device, c.engine) : nullptr;
    if (!entry) {
        t.missingProfileEntry = true;
        return t;
    }
    t.mode = c.mode;
    t.entry = entry;
    t.bandwidthEfficiency = entry->bandwidthEfficiency;
    t.computeEfficiency = entry->computeEfficiency;
    t.stepOverheadSeconds = entry->stepOverheadSeconds;
    t.collectiveLatencySeconds = entry->collectiveLatencySeconds;
    t.attentionFlops = profile->attentionFlops;
    t.kvWrite = profile->kvWrite;
    return t;
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
