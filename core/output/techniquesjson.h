// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// JSON for `accel-calc evaluate --operators` and the engine section's techniques (issue #27):
// plain SI numbers, only finite ones written.

#include <string>

namespace core {

struct Scenario;
struct OperatorBreakdown;

/** {"phase", "batch", "tokens", ..., "operators": [{"name", "kind", "layers", "flops", ...}],
 *  "totals": {...}, "model": {...}, "differences": [...]} */
std::string operatorsToJson(const OperatorBreakdown &breakdown, int indent = 2);

/** {"speculative": {...}, "prefix_cache": {...}, "disaggregation": {...}}: each technique the
 *  scenario's engine section switches on, worked out, or {"error": {"path", "message"}}. Empty
 *  object when none is on. */
std::string engineToJson(const Scenario &scenario, int indent = 2);

} // namespace core
