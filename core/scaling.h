// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Scaling a training step over more devices (lesson l.150-160): the step is the work divided
// among N devices plus the ring all-reduce that keeps them in step, which crosses from the fast
// intra-node link to the network once N exceeds a node.

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

} // namespace core
