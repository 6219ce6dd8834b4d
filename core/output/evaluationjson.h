// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The `accel-calc evaluate` output: one JSON object of groups of plain SI numbers, booleans and
// strings. Only finite numbers are written; a figure that is not applicable is left out.

#include <string>
#include <vector>

namespace core {

struct Scenario;
struct Evaluation;
struct PresetInfo;

/** {"memory": {"weights_bytes": 14000000000, ...}, "decode": {...}, ..., "warnings": [...]}.
 *  With `withExplain`, adds "explain": {"decode.step_seconds": {"formula", "substituted",
 *  "inputs"}, ...}. `indent` < 0 writes one line. */
std::string evaluationToJson(const Scenario &scenario, const Evaluation &evaluation,
                             bool withExplain, int indent = 2);

/** The same as one line with {"param": PATH, "value": V, "result": {...}} around it. */
std::string sweepLineToJson(const std::string &param, const std::string &valueJson,
                            const Scenario &scenario, const Evaluation &evaluation);

/** A JSON array of {"id", "kind", "name"}. */
std::string presetListToJson(const std::vector<PresetInfo> &presets);

} // namespace core
