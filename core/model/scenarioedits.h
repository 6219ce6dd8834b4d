// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Every way one scenario is derived from another, written once: the same scenario on another
// device, with another model or weight format, with a training recipe applied, and the next
// smaller weight format. The same by preset id is core/data/presetedits; with a device-selection
// candidate applied, core/decide/selection. The scenario panel, a file
// being read, the Compare tab, the roofline overlay, the cost curves, the checks, the CLI and the
// fuzzer all call these, so "this scenario on device X" costs the same wherever it is asked.

#include "core/model/formats.h"
#include "core/model/result.h"
#include "core/model/scenario.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace core {

/** What follows a device into a scenario: its price and power, and where each came from. */
struct DeviceFollowers
{
    double pricePerHourUsd = kUnset; ///< unset: the device has no price (never borrowed)
    double deviceW = kUnset;         ///< the device's power, else the lesson's default
    bool negotiated = false;         ///< the price is the user's, from `wizard.prices`
    std::string priceOrigin;         ///< "negotiated price (wizard)", "device's price", ...
    std::string powerOrigin;
    /// The estimate a scenario on it uses unless one was chosen (issue #40): typical for a real
    /// device preset, the speed of light (the lesson's toy) for the lesson's hypothetical
    /// accelerators, illustrative and custom devices.
    EstimateMode estimate = EstimateMode::SpeedOfLight;
};

/** The rule: a price negotiated in `wizard.prices` for the device, else the device's own price,
 *  else none; the device's own power, else the power section's default (the lesson's 500 W); the
 *  typical estimate on a real device preset, else the speed of light. */
DeviceFollowers deviceFollowers(const DeviceSpec &device, const WizardConfig &wizard);

/** A scenario put on another device, with what changed beside the device. */
struct DeviceMove
{
    Scenario scenario;
    std::vector<std::string> notes; ///< what else changed and why ("compute format fp8 ...")
    /// Why the moved scenario cannot be used as the current one (its overhead is larger than the
    /// device's memory, tensor parallelism on a device without a link): the checks still run on
    /// it and fail, a document refuses it.
    std::optional<Diagnostic> refusal;
};

/** The scenario on `device`: price and power follow the device (deviceFollowers), a compute
 *  format the device has no peak for falls back to the device's best, a sustained tokens/s
 *  measured on the old device is dropped, and the file's or command line's claims on price and
 *  power are forgotten (they were about the old device). Everything else is kept. */
DeviceMove onDevice(Scenario scenario, const DeviceSpec &device); // by value: callers may move

/** The one "another model" rule (issue #40): the scenario with `model`, the old model's input
 *  provenance cleared (its layers were not the new model's) and a tensor or pipeline split the
 *  new model cannot run reset to one device (core::resetParallelismIfInvalid). The document,
 *  the comparison and the speculative draft use it. */
Scenario withModel(Scenario scenario, ModelSpec model); // by value: callers may move

/** The scenario with other weights (and KV when given): formats only, nothing else moves. */
Scenario withFormats(Scenario scenario, NumericFormat weights,
                     std::optional<NumericFormat> kv = std::nullopt);

/** The next smaller weight format a memory comparison shows: 2+ bytes -> INT8, 1 byte -> INT4;
 *  none below 4 bits. */
std::optional<NumericFormat> nextSmallerWeightFormat(NumericFormat format);

/** The scenario with a named training recipe's bytes per parameter (unknown key: the error). */
[[nodiscard]] Result<Scenario> withTrainingRecipe(const Scenario &scenario, std::string_view key);

} // namespace core
