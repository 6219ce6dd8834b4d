// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/data/presetedits.h"

#include "core/data/presets.h"

#include <string>

namespace core {

Result<DeviceMove> onDevicePreset(const Scenario &scenario, std::string_view id)
{
    auto device = devicePreset(id);
    if (!device)
        return Diagnostic{"/device", device.error().message};
    return onDevice(scenario, device.value());
}

Result<Scenario> withModelPreset(const Scenario &scenario, std::string_view id)
{
    auto model = modelPreset(id);
    if (!model)
        return Diagnostic{"/model", model.error().message};
    return withModel(scenario, std::move(model.value()));
}

Result<Scenario> withLinkPreset(const Scenario &scenario, LinkTier tier, std::string_view id)
{
    const auto link = linkPreset(id);
    if (!link)
        return Diagnostic{"/interconnect", "no link preset \"" + std::string(id) + "\""};
    Scenario s = scenario;
    (tier == LinkTier::IntraNode ? s.interconnect.intraLinkGbPerSecond
                                 : s.interconnect.interLinkGbPerSecond) =
        link->perDirectionGbPerSecond;
    if (isSet(link->latencySeconds))
        s.interconnect.latencySeconds = link->latencySeconds;
    return s;
}

} // namespace core
