// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Inside the device (lesson l.15-33): the memory hierarchy from on-chip SRAM to object storage
// with capacity, bandwidth and latency per tier; the cold start that carries the weights from
// object storage into HBM hop by hop; and what a decode step costs when part of the working set
// spills to host memory across the host link.

#include <string>
#include <vector>

namespace core {

struct Scenario;

/** Where a tier's figure came from: the device preset, a link preset, or a typical order of
 *  magnitude (the lesson's diagram labels are orders of magnitude, l.33). */
enum class FigureOrigin { Device, Link, Typical };

struct TierFigure
{
    double value = 0;
    FigureOrigin origin = FigureOrigin::Typical;
    std::string source; ///< the preset's source, or why the typical value is what it is
};

struct MemoryTier
{
    std::string name; ///< "HBM (device memory)"
    std::string role; ///< what lives there
    TierFigure capacityBytes;
    TierFigure bandwidthBytesPerSecond; ///< into the tier above (per direction)
    TierFigure latencySeconds;
};

/** The tiers, closest to the arithmetic first. */
std::vector<MemoryTier> memoryHierarchy(const Scenario &scenario);

struct ColdStartHop
{
    std::string from;
    std::string to;
    TierFigure bandwidthBytesPerSecond;
    double seconds = 0;
};

struct ColdStart
{
    double bytes = 0; ///< the weights that must travel
    std::vector<ColdStartHop> hops;
    double totalSeconds = 0; ///< hops one after another
    std::size_t slowestHop = 0;
    std::string leftOut; ///< what the estimate does not include
};

ColdStart coldStart(const Scenario &scenario);

struct Spill
{
    bool spills = false;       ///< the scenario does not fit device memory
    bool hypothetical = false; ///< it fits: the figures show a 10 % spill for illustration
    double spilledBytes = 0;   ///< read from host memory every decode step
    double stepBytes = 0;      ///< a decode step's bytes in all
    double hbmBandwidth = 0;   ///< bytes/s
    double hostLinkBandwidth = 0;
    TierFigure hostLink;
    double allInHbmSeconds = 0; ///< the step if everything were in HBM
    double spillSeconds = 0;    ///< HBM part plus the spilled part across the host link
    double slowdown = 0;        ///< spillSeconds / allInHbmSeconds
};

Spill spill(const Scenario &scenario);

} // namespace core
