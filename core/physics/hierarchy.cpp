// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/physics/hierarchy.h"

#include "core/data/presets.h"
#include "core/model/scenario.h"
#include "core/model/units.h"
#include "core/physics/evaluation.h"

#include <algorithm>

namespace core {

namespace {

constexpr const char *kTypical =
    "typical order of magnitude, not a specification (the lesson's diagram labels are orders of "
    "magnitude, l.33)";

TierFigure typical(double value, const std::string &why = kTypical)
{
    return {value, FigureOrigin::Typical, why};
}

std::string sourceOf(const DeviceSpec &device, const std::string &field)
{
    if (auto it = device.sources.find(field); it != device.sources.end())
        return it->second;
    if (auto it = device.sources.find("*"); it != device.sources.end())
        return it->second;
    return device.presetId.empty() ? "the scenario's device" : "preset " + device.presetId;
}

TierFigure fromDevice(const DeviceSpec &device, double value, const std::string &field)
{
    return {value, FigureOrigin::Device, sourceOf(device, field)};
}

TierFigure fromLink(std::string_view id)
{
    const auto link = linkPreset(id);
    if (!link)
        return typical(0);
    std::string source = link->name;
    if (auto it = link->sources.find("*"); it != link->sources.end())
        source += ": " + it->second;
    return {link->perDirectionGbPerSecond * kGB, FigureOrigin::Link, source};
}

/** The host link: the device's own figure, else PCIe 4.0 x16 as the common case. */
TierFigure hostLink(const DeviceSpec &device)
{
    if (isSet(device.hostLinkGbPerSecond))
        return fromDevice(device, device.hostLinkGbPerSecond * kGB, "host_link_gb_s");
    TierFigure pcie = fromLink("pcie-4-x16");
    pcie.source = "the device preset gives no host link; assumed " + pcie.source;
    return pcie;
}

} // namespace

std::vector<MemoryTier> memoryHierarchy(const Scenario &s)
{
    const DeviceSpec &d = s.device;
    std::vector<MemoryTier> tiers;
    MemoryTier sram{"On-chip SRAM", "the tiles being reused: registers, shared memory, caches",
                    isSet(d.sramMb) ? fromDevice(d, d.sramMb * 1e6, "sram_mb") : typical(5e7),
                    typical(1e14), typical(3e-8)};
    tiers.push_back(sram);
    tiers.push_back({"HBM (device memory)", "weights, KV cache, activations, optimiser state",
                     fromDevice(d, d.capacityGb() * kGB, "memory_gb"),
                     isSet(d.bandwidthGbPerSecond)
                         ? fromDevice(d, d.bandwidthGbPerSecond * kGB, "bandwidth_gb_s")
                         : typical(1e12),
                     typical(5e-7)});
    tiers.push_back({"Host DRAM (across the host link)",
                     "what spills, and the weights on their way in", typical(1e12), hostLink(d),
                     typical(2e-6)});
    tiers.push_back({"Local storage (NVMe)", "model files cached on the server", typical(1e13),
                     typical(5e9), typical(1e-4)});
    tiers.push_back({"Network or object storage", "the model repository", typical(1e15),
                     fromLink("ethernet-100g"), typical(2e-2)});
    return tiers;
}

ColdStart coldStart(const Scenario &s)
{
    ColdStart c;
    const Evaluation e = evaluate(s);
    c.bytes = e[FigureId::WeightsBytes];
    TierFigure network = fromLink("ethernet-100g");
    network.source += " (the port's line rate; an object store often delivers less to one client)";
    c.hops.push_back({"Object storage", "Host DRAM", network, 0});
    c.hops.push_back({"Host DRAM", "HBM", hostLink(s.device), 0});
    for (ColdStartHop &hop : c.hops) {
        hop.seconds = c.bytes / hop.bandwidthBytesPerSecond.value;
        c.totalSeconds += hop.seconds;
    }
    c.slowestHop = std::size_t(std::max_element(c.hops.begin(), c.hops.end(),
                                                [](const ColdStartHop &a, const ColdStartHop &b) {
                                                    return a.seconds < b.seconds;
                                                }) -
                               c.hops.begin());
    c.leftOut = "Hops one after another at full link rate. Left out: starting the engine (process, "
                "runtime context, kernel compilation or graph capture) and a real object store's "
                "lower per-client throughput, which together make the lesson's \"tens of seconds "
                "to minutes\" (l.33).";
    return c;
}

Spill spill(const Scenario &s)
{
    Spill out;
    const Evaluation e = evaluate(s);
    out.stepBytes = e[FigureId::DecodeBytesPerStep];
    out.hbmBandwidth = e[FigureId::Bandwidth] * e[FigureId::EstimateBandwidthEfficiency];
    out.hostLink = hostLink(s.device);
    out.hostLinkBandwidth = out.hostLink.value;
    const double shortfall = -e[FigureId::HeadroomBytes];
    out.spills = shortfall > 0;
    out.hypothetical = !out.spills;
    // what does not fit is read across the host link every step (weights and KV are read every
    // step); when it fits, a 10 % spill shows the price
    out.spilledBytes = std::min(out.spills ? shortfall : 0.1 * out.stepBytes, out.stepBytes);
    // the step's own memory roof (its KV at the attention kernels' efficiency), not a second rule
    out.allInHbmSeconds = e[FigureId::DecodeMemorySeconds];
    out.spillSeconds =
        out.allInHbmSeconds * (out.stepBytes - out.spilledBytes) / std::max(out.stepBytes, 1.0) +
        out.spilledBytes / out.hostLinkBandwidth;
    out.slowdown = out.spillSeconds / out.allInHbmSeconds;
    return out;
}

} // namespace core
