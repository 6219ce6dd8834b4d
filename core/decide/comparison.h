// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Two scenarios side by side: two devices, BF16 against 1-byte weights, or two models. The key
// figures of each with the difference and the ratio, and which inputs differ, so a view can
// highlight what changed and by how much.

#include "core/model/formats.h"
#include "core/model/result.h"
#include "core/model/scenario.h"
#include "core/model/units.h"
#include "core/physics/evaluation.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace core {

/** Scenario B as scenario A with some inputs swapped: a device or model preset, a format. */
struct ScenarioVariant
{
    std::string deviceId;                      ///< empty: A's device
    std::string modelId;                       ///< empty: A's model
    std::optional<NumericFormat> weightFormat; ///< nullopt: A's
    std::optional<NumericFormat> kvFormat;     ///< nullopt: A's

    bool isEmpty() const
    {
        return deviceId.empty() && modelId.empty() && !weightFormat && !kvFormat;
    }
    bool operator==(const ScenarioVariant &) const = default;
};

/** A with the variant's changes; an unknown preset id is the error. */
[[nodiscard]] Result<Scenario> applyVariant(const Scenario &a, const ScenarioVariant &variant);

struct ComparedFigure
{
    FigureId id;
    double a = 0;
    double b = 0;
    double difference = 0; ///< b - a
    double ratio = 0;      ///< b / a; NaN when a is 0, the signs differ or either is not finite
    bool differs = false;  ///< more than 0.05 % apart (or one is missing)
};

/** The figures a comparison shows: memory, fit, roofline, speed, first token and cost. */
std::span<const FigureId> comparisonFigures();

/** Each figure in A and in B, with B - A and B / A. */
std::vector<ComparedFigure> compareFigures(const Evaluation &a, const Evaluation &b,
                                           std::span<const FigureId> figures = comparisonFigures());

struct InputDifference
{
    std::string label; ///< as keyAssumptions() names it
    std::string a;
    std::string b;
};
/** The key assumptions that differ between A and B, as shown to the user. */
std::vector<InputDifference> differingInputs(const Scenario &a, const Scenario &b,
                                             MemoryUnits units);

/** A scenario's key assumptions, label and value, for a slide's footer or a comparison:
 *  model, device, formats, batch, context, concurrency, overhead, price, efficiency. */
std::vector<std::pair<std::string, std::string>> keyAssumptions(const Scenario &scenario,
                                                                MemoryUnits units);

} // namespace core
