// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// "Show your work": the formula behind a figure, the same formula with the numbers put in, and
// where each input came from. Rendered on demand (explanation panel, --explain, reports), never
// during evaluate(), so evaluation and sweeps stay cheap.

#include "core/model/units.h"
#include "core/physics/evaluation.h"

#include <optional>
#include <string>
#include <vector>

namespace core {

struct Scenario;

struct ExplainedInput
{
    std::string name;       ///< "weights", "bandwidth", ...
    std::string value;      ///< formatted with its unit
    std::string provenance; ///< "preset lesson-accelerator: lesson l.93", "scenario file", ...
};

struct Explanation
{
    std::string formula;     ///< "step = max(bytes / BW, FLOP / peak)"
    std::string substituted; ///< "= max(18.29 GB / 1,000 GB/s, 112 GFLOP / 200 TFLOP/s) = 18.29 ms"
    std::vector<ExplainedInput> inputs;
    std::string note; ///< what the lesson's toy leaves out, where it matters
};

/** Where a scenario input came from ("model.layers", "serving.batch", ...). */
std::string provenanceOf(const Scenario &scenario, std::string_view path);

/** The explanation of one figure; nullopt when the figure is not applicable. */
std::optional<Explanation> explain(const Scenario &scenario, const Evaluation &evaluation,
                                   FigureId id, MemoryUnits units = MemoryUnits::GB);

/** A value of a quantity with its unit ("14 GB", "18.29 ms", "437 tokens/s"); "n/a" when it
 *  is not finite. */
std::string formatQuantity(double value, Quantity quantity, MemoryUnits units = MemoryUnits::GB);

/** A figure's value formatted with its unit ("14 GB", "18.29 ms", "437 tokens/s"). */
std::string formatFigure(const Evaluation &evaluation, FigureId id,
                         MemoryUnits units = MemoryUnits::GB);

} // namespace core
