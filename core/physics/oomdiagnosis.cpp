// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/physics/oomdiagnosis.h"

#include "core/model/scenario.h"
#include "core/model/units.h"
#include "core/physics/evaluation.h"

#include <algorithm>
#include <cmath>

namespace core {

namespace {

double maxSequencesWith(Scenario s, void (*change)(Scenario &))
{
    change(s);
    return evaluate(s)[FigureId::MaxConcurrentSequences];
}

} // namespace

OomDiagnosis diagnoseOom(const Scenario &scenario)
{
    const Evaluation e = evaluate(scenario);
    OomDiagnosis d;
    // Without a breakdown the whole overhead is treated as reserved by the framework.
    const OverheadSplit split = overheadSplit(scenario);
    const double workspace = split.known ? split.workspaceBytes : split.runtimeContextBytes;
    d.tensorBytes = e[FigureId::WeightsBytes] + e[FigureId::KvBytesTotal];
    d.reservedBytes = d.tensorBytes + workspace + e[FigureId::FragmentationBytes];
    d.deviceBytes = e[FigureId::ServingBytesTotal];
    d.capacityBytes = e[FigureId::CapacityBytes];
    d.weightsBytes = e[FigureId::WeightsBytes];
    d.overheadBytes = e[FigureId::OverheadBytes];
    d.freeForKvBytes = e[FigureId::KvBudgetBytes];
    d.kvBytesPerSequence = e[FigureId::KvBytesPerSequence];
    d.devices = e[FigureId::Devices];
    // per device, as the free bytes are: the same division that gives sequencesFit, by the
    // ranks that really split a sequence's KV (a whole KV head each at most; issue #41: TP 16
    // over 8 KV heads said 2,283.6 beside the 1,141 that fit)
    d.kvBytesPerSequencePerDevice = d.kvBytesPerSequence *
                                    (1.0 + scenario.serving.fragmentationFraction) /
                                    kvDevicesPerSequence(scenario);
    d.sequencesExact = d.kvBytesPerSequencePerDevice > 0
                           ? std::max(0.0, d.freeForKvBytes) / d.kvBytesPerSequencePerDevice
                           : 0;
    d.sequencesFit = e[FigureId::MaxConcurrentSequences];
    d.firstFailing = d.sequencesFit + 1;
    d.configured = e[FigureId::ResidentSequences];
    d.admissionLimit = e[FigureId::AdmissionLimit];
    d.configuredFits = e.fits();

    d.levers.push_back(
        {"Lower the concurrency limit so admission control queues work instead of crashing",
         d.admissionLimit, "queued requests wait: p95 latency rises at peak"});
    const double halfContext = std::max(1.0, std::floor(scenario.serving.contextTokens / 2));
    Scenario shorter = scenario;
    shorter.serving.contextTokens = halfContext;
    shorter.serving.promptTokens = std::min(shorter.serving.promptTokens, halfContext);
    d.levers.push_back({"Halve the context budget (" +
                            formatNumber(scenario.serving.contextTokens, 9) + " to " +
                            formatNumber(halfContext, 9) + " tokens)",
                        evaluate(shorter)[FigureId::MaxConcurrentSequences],
                        "fewer retrieved passages per answer: quality may drop"});
    if (nominalBytes(scenario.serving.weightFormat) > 1.0) {
        d.levers.push_back(
            {"Use 1-byte weights (INT8 or FP8)",
             maxSequencesWith(scenario,
                              [](Scenario &s) { s.serving.weightFormat = NumericFormat::Int8; }),
             "quality must be re-validated; needs a fast kernel on the device"});
    }
    if (nominalBytes(scenario.serving.kvFormat) > 1.0) {
        d.levers.push_back(
            {"Quantise the KV cache to 8 bits",
             maxSequencesWith(scenario,
                              [](Scenario &s) { s.serving.kvFormat = NumericFormat::Fp8; }),
             "attention quality must be re-validated; needs kernel support"});
    }
    // A larger device: the memory the configured concurrency needs.
    d.levers.push_back({"Move to a device with at least " + formatBytes(d.deviceBytes) +
                            " for the configured " + formatNumber(d.configured, 9) + " sequences",
                        d.configured, "a higher price per hour"});
    if (isSet(scenario.model.hiddenSize) && isSet(scenario.device.deviceLinkGbPerSecond)) {
        Scenario sharded = scenario;
        sharded.serving.tensorParallel = std::max(2.0, scenario.serving.tensorParallel * 2);
        d.levers.push_back({"Shard the model across " +
                                formatNumber(sharded.serving.tensorParallel, 3) + " devices",
                            evaluate(sharded)[FigureId::MaxConcurrentSequences],
                            "twice the devices, and collectives on every step (latency)"});
    }
    return d;
}

} // namespace core
