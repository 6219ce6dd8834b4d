// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/decide/comparison.h"

#include "core/data/presetedits.h"
#include "core/data/presets.h"
#include "core/model/scenarioedits.h"
#include "core/physics/estimateterms.h"
#include "core/physics/evaluation.h"
#include "core/train/trainingplan.h"

#include <cmath>

namespace core {

namespace {

// speed and cost first: what a decision turns on; then memory; then the roofline's terms
constexpr FigureId kComparisonFigures[] = {
    FigureId::DecodeTokensPerSecond,
    FigureId::DecodeTokensPerSecondPerSequence,
    FigureId::DecodeStepSeconds,
    FigureId::PrefillTtftSeconds,
    FigureId::CostUsdPerMillionTokens,
    FigureId::ServingBytesTotal,
    FigureId::HeadroomBytes,
    FigureId::MaxConcurrentSequences,
    FigureId::WeightsBytes,
    FigureId::KvBytesTotal,
    FigureId::CapacityBytes,
    FigureId::Ridge,
    FigureId::DecodeIntensity,
    FigureId::CostJoulesPerToken,
};

} // namespace

Result<Scenario> applyVariant(const Scenario &a, const ScenarioVariant &variant)
{
    Scenario b = a;
    if (!variant.deviceId.empty()) {
        auto moved = onDevicePreset(b, variant.deviceId);
        if (!moved)
            return moved.error();
        b = std::move(moved.value().scenario); // a refused move still compares: it does not fit
    }
    if (!variant.modelId.empty()) {
        auto model = withModelPreset(b, variant.modelId);
        if (!model)
            return model.error();
        b = std::move(model.value());
    }
    return withFormats(b, variant.weightFormat.value_or(b.serving.weightFormat), variant.kvFormat);
}

std::span<const FigureId> comparisonFigures()
{
    return kComparisonFigures;
}

std::vector<ComparedFigure> compareFigures(const Evaluation &a, const Evaluation &b,
                                           std::span<const FigureId> figures)
{
    std::vector<ComparedFigure> rows;
    rows.reserve(figures.size());
    for (FigureId id : figures) {
        ComparedFigure row{id, a[id], b[id], 0, 0, false};
        const bool finite = std::isfinite(row.a) && std::isfinite(row.b);
        row.difference = finite ? row.b - row.a : std::nan("");
        // a ratio across zero (15 GB free against 9 GB short) means nothing: no ratio
        row.ratio = finite && row.a != 0 && row.a * row.b >= 0 ? row.b / row.a : std::nan("");
        const double scale = std::max(std::fabs(row.a), std::fabs(row.b));
        row.differs = !finite ? std::isfinite(row.a) != std::isfinite(row.b)
                              : std::fabs(row.difference) > 5e-4 * scale;
        rows.push_back(row);
    }
    return rows;
}

std::vector<InputDifference> differingInputs(const Scenario &a, const Scenario &b,
                                             MemoryUnits units)
{
    const auto left = keyAssumptions(a, units);
    const auto right = keyAssumptions(b, units);
    std::vector<InputDifference> out;
    for (std::size_t i = 0; i < left.size() && i < right.size(); ++i) {
        if (left[i].second != right[i].second)
            out.push_back({left[i].first, left[i].second, right[i].second});
    }
    return out;
}

std::vector<std::pair<std::string, std::string>> keyAssumptions(const Scenario &s,
                                                                MemoryUnits units)
{
    auto number = [](double value, const char *unit) {
        return isSet(value) ? formatNumber(value, 4) + unit : std::string("not given");
    };
    const ServingConfig &serving = s.serving;
    const EstimateTerms terms = estimateTerms(s);
    const std::string weights(formatLabel(serving.weightFormat));
    const std::string kv(formatLabel(serving.kvFormat));
    std::string device = s.device.name;
    if (isSet(s.device.capacityGb()))
        device += ", " + formatBytes(s.device.capacityGb() * 1e9, units);
    if (isSet(s.device.bandwidthGbPerSecond))
        device += ", " + formatBandwidth(s.device.bandwidthGbPerSecond * 1e9);
    // the share of hours busy every cost uses: with traffic the traffic's, not the input
    const Evaluation e = evaluate(s);
    const bool fromTraffic =
        e[FigureId::CostTokensFromTraffic] != 0.0 && std::isfinite(e[FigureId::CostUtilisation]);
    const std::string busy =
        fromTraffic ? formatNumber(e[FigureId::CostUtilisation] * 100, 3) + " % (the traffic's)"
                    : formatNumber(s.cost.utilisation * 100, 3) + " %";
    std::string model = s.model.name;
    if (isSet(s.model.parameters))
        model += ", " + formatNumber(s.model.parameters / 1e9, 3) + "B parameters";
    if (asksForTrainingPlan(s)) {
        // a training decision's inputs: the run, not a serving batch (issue #45)
        const TrainingConfig &t = s.training;
        auto degree = [](double value) {
            return isSet(value) ? formatCount(value) : std::string("searched");
        };
        std::string goal = isSet(t.deadlineDays)
                               ? "within " + formatNumber(t.deadlineDays, 4) + " days"
                               : std::string();
        if (isSet(t.budgetUsd))
            goal += (goal.empty() ? "within " : ", within ") + formatUsd(t.budgetUsd);
        return {
            {"Model", model},
            {"Device", device},
            {"Tokens / sequence",
             (isSet(t.tokens) ? formatCount(t.tokens) : std::string("20 per parameter")) + " / " +
                 formatCount(t.sequenceLength) + " tokens"},
            {"Deadline / budget", goal.empty() ? std::string("none") : goal},
            {"Devices / TP x PP x DP", degree(t.devices) + " / " + degree(t.tensorParallel) +
                                           " x " + degree(t.pipelineParallel) + " x " +
                                           degree(t.dataParallel)},
            {"Format", t.format == NumericFormat::Fp8 ? "FP8 matmuls, BF16 attention" : "BF16"},
            {"Price per device-hour", formatUsd(s.cost.pricePerHourUsd)},
            {"Device MTBF / restart",
             formatCount(t.deviceMtbfHours) + " h / " + formatDuration(t.restartSeconds)},
            // the matmuls' share the plan uses (the class's pooled share of the measured ceiling)
            {"Efficiency (bandwidth / matmuls)",
             formatNumber(terms.bandwidthEfficiency * 100, 3) + " % / " +
                 formatNumber(trainingComputeShare(s) * 100, 3) + " % (" + estimateLabel(s) + ")"},
            {"Network per device", formatBandwidth(t.networkGbPerSecond * 1e9)},
        };
    }
    return {
        {"Model", model},
        {"Device", device},
        {"Weights / KV cache", weights + " / " + kv},
        {"Batch", number(serving.batch, "")},
        {"Context / prompt",
         number(serving.contextTokens, "") + " / " + number(serving.promptTokens, " tokens")},
        {"Concurrent sequences", number(serving.concurrentSequences, "")},
        {"Runtime overhead", formatBytes(serving.overheadGb * 1e9, units)},
        {"Price / utilisation", formatUsd(s.cost.pricePerHourUsd) + " per hour at " + busy},
        {"Efficiency (bandwidth / compute)",
         formatNumber(terms.bandwidthEfficiency * 100, 3) + " % / " +
             formatNumber(terms.computeEfficiency * 100, 3) + " % (" + estimateLabel(s) + ")"},
        {"Step overhead", formatSeconds(terms.stepOverheadSeconds)},
    };
}

} // namespace core
