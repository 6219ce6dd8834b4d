// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// JSON for `accel-calc train` (issue #45): the plan's layout and figures as top-level keys, its
// memory, step and reliability in detail; plain SI numbers, only finite ones written.

#include <string>

namespace core {

struct Scenario;
struct TrainingPlan;
struct TrainingSearch;

/** {"layout": {...}, "memory_per_device_bytes", "step_seconds", "mfu",
 *  "tokens_per_second_per_device", "days", "device_hours", "usd",
 *  "checkpoint_interval_seconds", "expected_interruptions", "memory": {...}, "step": {...},
 *  "reliability": {...}, ...}; with a search, its ranked shapes and rejected ones too. */
std::string trainingPlanToJson(const Scenario &scenario, const TrainingPlan &plan,
                               const TrainingSearch *search = nullptr, int indent = 2);

} // namespace core
