// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One line that says what a model's layer groups hold per sequence ("52 sliding-window layers
// (1,024 tokens): 0.44 GB + 10 full-attention layers: 2.68 GB"), for the memory views. Empty for
// a model of one full-attention group (the lesson's), where the KV rule needs no breakdown.

#include <QString>

namespace core {
struct Scenario;
enum class MemoryUnits;
} // namespace core

namespace views {

QString layerGroupSummary(const core::Scenario &scenario, core::MemoryUnits units);

} // namespace views
