// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Scaling a step over more devices (lesson l.150-175): the step is the work divided among N
// devices plus the ring all-reduces that keep them in step, which cross from the fast intra-node
// link to the network once N exceeds a node. A training step syncs one large gradient; a
// tensor-parallel decode step syncs many tiny messages.

#include <vector>

namespace core {

struct Scenario;

struct ScalingPoint
{
    double devices = 1;
    double computeSeconds = 0;       ///< work / N
    double communicationSeconds = 0; ///< the all-reduce at N devices
    double stepSeconds = 0;
    double speedup = 1;    ///< the one-device step / this step
    double efficiency = 1; ///< speedup / N
    bool interNode = false;
};

/** One training step's arithmetic for the scenario's global batch (micro-batch x sequence x the
 *  interconnect's device count), at the device's peak times the compute efficiency. */
double trainingWorkSeconds(const Scenario &scenario);

/** The step at each device count, the all-reduce from the scenario's interconnect section. */
std::vector<ScalingPoint> scalingCurve(const Scenario &scenario,
                                       const std::vector<double> &devices);

/** True when the interconnect section describes tensor parallelism: several collectives a step
 *  (after every layer or sub-block, lesson l.152 and l.166-171) rather than one gradient sync. */
bool isTensorParallelSync(const Scenario &scenario);

/** Tensor-parallel decode over more devices (lesson l.166-175): each device reads 1/N of the
 *  one-device decode step's bytes and does 1/N of its arithmetic, then the step's all-reduces
 *  (from the interconnect section) at N devices, over the network beyond a node. The tiny
 *  messages make the collectives' fixed latency, not the bandwidth, what stops the scaling. */
std::vector<ScalingPoint> decodeScalingCurve(const Scenario &scenario,
                                             const std::vector<double> &devices);

} // namespace core
