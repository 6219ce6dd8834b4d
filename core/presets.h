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
    std::string kind; ///< "model" | "device" | "link" | "scenario"
    std::string name;
};

/** Every preset, models first, then devices, links and scenarios. */
const std::vector<PresetInfo> &presetList();

Result<ModelSpec> modelPreset(std::string_view id);
Result<DeviceSpec> devicePreset(std::string_view id);

/** A link between devices or to the host: bandwidth per direction (what one transfer sees). */
struct LinkSpec
{
    std::string presetId;
    std::string name;
    std::string kind; ///< "host" | "device" | "network"
    double perDirectionGbPerSecond = kUnset;
    double bidirectionalGbPerSecond = kUnset; ///< the vendor headline, both directions added
    double latencySeconds = kUnset;
    std::map<std::string, std::string> sources;
    std::map<std::string, std::string> notes;
};

Result<LinkSpec> linkPreset(std::string_view id);

/** The JSON text of a built-in scenario ("lesson-default", "oom-14th-request", ...). */
std::optional<std::string_view> scenarioPresetText(std::string_view id);

/** A preset file read from outside (a user's presets, a shared file): every entry with its id. */
struct PresetFile
{
    std::vector<ModelSpec> models;
    std::vector<DeviceSpec> devices;
    Diagnostics warnings;
};

/** Reads a preset file: {"format": "accel-explorer/models", "models": [...]} or
 *  {"format": "accel-explorer/devices", "devices": [...]}; each entry needs a kebab-case "id"
 *  and is validated like an inline model or device. The first problem is returned. */
[[nodiscard]] Result<PresetFile> readPresetFile(std::string_view text);

/** When the built-in presets were last converted from the project's reference
 *  (scripts/convert_reference.py); reports print it beside the app version. */
std::string_view presetDataDate();

/** Problems found in the built-in preset files themselves (empty in a correct build). */
const Diagnostics &presetProblems();

} // namespace core
