// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/physics/scaling.h"

#include "core/model/scenario.h"
#include "core/physics/evaluation.h"

#include <algorithm>

namespace core {

double trainingWorkSeconds(const Scenario &s)
{
    const Evaluation e = evaluate(s);
    const double tokens = s.training.microBatchOrOne() * s.training.sequenceLength *
                          std::max(1.0, s.interconnect.devices);
    const double flops = 6.0 * s.model.active() * tokens; // forward 2 + backward 4 per parameter
    return flops / (e[FigureId::PeakFlops] * e[FigureId::EstimateComputeEfficiency]);
}

std::vector<ScalingPoint> scalingCurve(const Scenario &scenario, const std::vector<double> &devices)
{
    const double work = trainingWorkSeconds(scenario);
    std::vector<ScalingPoint> points;
    for (const double n : devices) {
        ScalingPoint p;
        p.devices = std::max(1.0, n);
        p.computeSeconds = work / p.devices;
        if (p.devices > 1) {
            Scenario s = scenario;
            s.interconnect.devices = p.devices;
            p.communicationSeconds = evaluate(s)[FigureId::InterconnectSeconds];
        }
        p.interNode = p.devices > scenario.interconnect.devicesPerNode;
        p.stepSeconds = p.computeSeconds + p.communicationSeconds;
        p.speedup = work / p.stepSeconds;
        p.efficiency = p.speedup / p.devices;
        points.push_back(p);
    }
    return points;
}

bool isTensorParallelSync(const Scenario &scenario)
{
    return scenario.interconnect.collectivesPerStep > 1;
}

std::vector<ScalingPoint> decodeScalingCurve(const Scenario &scenario,
                                             const std::vector<double> &devices)
{
    // the one-device step, without any tensor parallelism of the scenario's own
    Scenario one = scenario;
    one.serving.tensorParallel = 1;
    const double single = evaluate(one)[FigureId::DecodeStepSeconds];
    std::vector<ScalingPoint> points;
    for (const double n : devices) {
        ScalingPoint p;
        p.devices = std::max(1.0, n);
        p.computeSeconds = single / p.devices;
        if (p.devices > 1) {
            Scenario s = scenario;
            s.interconnect.devices = p.devices;
            p.communicationSeconds = evaluate(s)[FigureId::InterconnectSeconds];
        }
        p.interNode = p.devices > scenario.interconnect.devicesPerNode;
        p.stepSeconds = p.computeSeconds + p.communicationSeconds;
        p.speedup = single / p.stepSeconds;
        p.efficiency = p.speedup / p.devices;
        points.push_back(p);
    }
    return points;
}

} // namespace core
