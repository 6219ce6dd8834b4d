// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Reading and writing a scenario's numeric inputs by their dotted path ("serving.batch"), so
// editors, sweeps and undo commands share one way to change an input, checked against the
// parameter table's range.

#include "core/model/result.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace core {

struct Scenario;
struct ModelSpec;
struct DeviceSpec;

/** The value at a dotted numeric path, or nullopt for an unknown path. */
std::optional<double> numberAt(const Scenario &scenario, std::string_view path);

/**
 * Sets a numeric input, refusing values outside the parameter table's range with the reason.
 * Changing a model or device figure turns a preset into an inline copy (presetId cleared).
 * Dependent inputs follow so the scenario stays valid: a context shorter than the prompt
 * shortens the prompt.
 */
[[nodiscard]] Result<bool> setNumberAt(Scenario &scenario, std::string_view path, double value);

/** What `--set PATH=VALUE` makes of a read scenario for a numeric input: the value, as
 *  setNumberAt sets it, and the inputs the file left out that follow it when a file is read (the
 *  prompt follows the context, the batch the concurrent sequences). A sweep's rows are these,
 *  in every format, so they match `accel-calc evaluate --set` value for value. */
[[nodiscard]] Result<bool> setNumberAsRead(Scenario &scenario, std::string_view path, double value);

/** Makes `point`, a copy of `read` that setNumberAsRead changed at `path`, again what `read` is
 *  in everything that setting `path` reads or changes, so that the next value applied to it
 *  gives what it gives applied to `read` (a sweep's 2,000 values: one copy of the scenario, not
 *  one each; issue #46). What stays changed is the same for every value: preset ids cleared,
 *  a section made present, the input's origin. */
void undoNumberAsRead(Scenario &point, const Scenario &read, std::string_view path);

/** A what-if on a spec figure moves its measured ceiling with it (issue #43): twice the
 *  bandwidth is assumed to reach the same share of it, not the old measurement, which would make
 *  a slower device more efficient. The one rule for the app's edits and `--set`: the measured
 *  figure's path for a spec path ("device.bandwidth_gb_s" gives "device.measured.bandwidth_gb_s",
 *  "device.peak_tflops.fp8" gives "device.measured.tflops.fp8"), nullopt for any other path. */
std::optional<std::string> measuredCeilingPath(std::string_view specPath);
/** The measured ceiling once its spec figure moves from `before` to `after`: the same share of
 *  it; unchanged where `before` is no figure to take a share of. */
double followedCeiling(double measured, double before, double after);

/** An input that takes one of a few words ("load.arrivals": poisson, gamma or trace): the
 *  scenario reader, the All Inputs panel and edits share its list of words. */
struct ChoiceInfo
{
    std::string_view path;
    std::string_view name;
    std::string_view help;
    std::vector<std::string_view> options;
};
const std::vector<ChoiceInfo> &choiceTable();
const ChoiceInfo *findChoice(std::string_view path);
/** The word at a choice path, or nullopt for an unknown path. */
std::optional<std::string> choiceAt(const Scenario &scenario, std::string_view path);
/** Sets a choice, refusing a word not in its list, and arrivals "trace" without a trace file
 *  (the checks read no files: the file is named in the scenario file). */
[[nodiscard]] Result<bool> setChoiceAt(Scenario &scenario, std::string_view path,
                                       std::string_view value);

/**
 * Why the scenario's tensor-parallel degree or pipeline stages cannot run its model on its device
 * (a JSON pointer and a sentence), or nullopt. Tensor parallelism splits attention heads, so the
 * degree must divide them, and the KV heads must divide it or be divided by it; it needs the
 * hidden size (the message size) and a link (the device link, else the host link); pipeline
 * stages cannot outnumber layers. Read by the scenario reader and every edit.
 */
std::optional<Diagnostic> parallelismProblem(const Scenario &scenario);

/** Why `model` cannot be split over a tensor-parallel group of `tp` devices (the hidden size,
 *  a link, whole query and KV heads on each device), or nullopt: the one rule for serving
 *  replicas and training layouts. */
std::optional<std::string> tensorSplitProblem(const ModelSpec &model, const DeviceSpec &device,
                                              double tp);

/** After a model change: one device per replica again when the old split does not fit the new
 *  architecture (a TP degree that does not divide its heads, more stages than layers). Returns
 *  whether it reset them. */
bool resetParallelismIfInvalid(Scenario &scenario);

} // namespace core
