// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The scenario edits of core/model/scenarioedits by preset id: the id looked up in the presets
// (built-in and the user's), then the one rule applied. An unknown id is the error.

#include "core/model/result.h"
#include "core/model/scenarioedits.h"

#include <string_view>

namespace core {

/** onDevice with a device preset id; an unknown id is the error, at "/device". */
[[nodiscard]] Result<DeviceMove> onDevicePreset(const Scenario &scenario, std::string_view id);

/** withModel with a preset id (unknown is the error, at "/model"). */
[[nodiscard]] Result<Scenario> withModelPreset(const Scenario &scenario, std::string_view id);

enum class LinkTier { IntraNode, InterNode };
/** The interconnect explorer with a link preset as its intra- or inter-node link: the link's
 *  bandwidth per direction and, where the preset gives one, its latency (unknown id: the error). */
[[nodiscard]] Result<Scenario> withLinkPreset(const Scenario &scenario, LinkTier tier,
                                              std::string_view id);

} // namespace core
