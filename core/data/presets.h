// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Built-in presets: models, devices and lesson scenarios, compiled into the binary from
// presets/*.json and read through the same validating reader as a user's file.

#include "core/model/result.h"
#include "core/model/scenario.h"

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
    std::vector<LinkSpec> links;
    Diagnostics warnings;
};

/** Reads a preset file: {"format": "accel-explorer/models", "models": [...]} or
 *  {"format": "accel-explorer/devices", "devices": [...]}; each entry needs a kebab-case "id"
 *  and is validated like an inline model or device. The first problem is returned. */
[[nodiscard]] Result<PresetFile> readPresetFile(std::string_view text);

/** Reads a preset library, the user's own presets or a shared file:
 *  {"format": "accel-explorer/presets", "models": [...], "devices": [...], "links": [...]},
 *  any of the three lists; a models-only or devices-only file (readPresetFile) is accepted too.
 *  Each entry is validated as the built-ins are; the first problem is returned with its path. */
[[nodiscard]] Result<PresetFile> readPresetLibrary(std::string_view text);
/** The library as JSON text that readPresetLibrary() reads back. */
std::string presetLibraryToJson(const PresetFile &library);

/** Makes the user's presets available beside the built-ins: in presetList() (after them),
 *  modelPreset(), devicePreset(), linkPreset() and scenarios that name them. Replaces the
 *  previous user presets. An id used twice, or one a built-in has, is refused (nothing
 *  changes). */
[[nodiscard]] Result<bool> setUserPresets(const PresetFile &library);
/** What setUserPresets() would refuse, without changing anything (an editor's check). */
[[nodiscard]] Result<bool> validateUserPresets(const PresetFile &library);
/** The user presets now in use (empty until setUserPresets()). */
const PresetFile &userPresets();
/** True for an id among the user presets (scenarios that use one are saved with it inline). */
bool isUserPreset(std::string_view id);
/** True for a built-in preset id of any kind. */
bool isBuiltinPreset(std::string_view id);
/** A real device among the built-in presets (reference-devices.json: published figures with
 *  their sources), not the lesson's hypothetical accelerators or an illustrative one. */
bool isReferenceDevice(std::string_view id);

/** When the built-in presets were last converted from the project's reference
 *  (scripts/convert_reference.py); reports print it beside the app version. */
std::string_view presetDataDate();

/** Problems found in the built-in preset files themselves (empty in a correct build). */
const Diagnostics &presetProblems();

} // namespace core
