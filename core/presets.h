#pragma once

// Built-in presets: models, devices and lesson scenarios, compiled into the binary from
// presets/*.json and read through the same validating reader as a user's file.

#include "result.h"
#include "scenario.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace core {

struct PresetInfo
{
    std::string id;   ///< kebab-case, e.g. "lesson-accelerator-24gb"
    std::string kind; ///< "model" | "device" | "scenario"
    std::string name;
};

/** Every preset, models first, then devices, then scenarios. */
const std::vector<PresetInfo> &presetList();

Result<ModelSpec> modelPreset(std::string_view id);
Result<DeviceSpec> devicePreset(std::string_view id);

/** The JSON text of a built-in scenario ("lesson-default", "oom-14th-request", ...). */
std::optional<std::string_view> scenarioPresetText(std::string_view id);

/** Problems found in the built-in preset files themselves (empty in a correct build). */
const Diagnostics &presetProblems();

} // namespace core
