// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparison.h"

#include "exports.h"
#include "presets.h"
#include "scenarioedits.h"

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

} // namespace core
