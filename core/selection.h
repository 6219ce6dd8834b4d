// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The lesson's device-selection walkthrough (l.204-237) as a calculation: for each candidate
// device and weight format, six checks (compatibility, memory headroom, throughput and latency,
// availability, developer effort, energy and cost), each with a status, its key figures and a
// sentence saying why; then a recommendation. Online inference, training and edge each ask the
// six questions in their own terms (l.195-200).

#include "formats.h"
#include "result.h"
#include "scenario.h"

#include <string>
#include <utility>
#include <vector>

namespace core {

enum class CheckStatus { Pass, Warn, Fail, NotApplicable };
std::string_view checkStatusKey(CheckStatus status); ///< "pass" | "warn" | "fail" | "n/a"

enum class CheckKind { Compatibility, Memory, Latency, Availability, Effort, Cost };
inline constexpr std::size_t kCheckCount = 6;
std::string_view checkKey(CheckKind kind);   ///< "compatibility" | "memory" | ... | "cost"
std::string_view checkTitle(CheckKind kind); ///< "Memory headroom", for tables and reports

struct CheckResult
{
    CheckKind kind = CheckKind::Compatibility;
    CheckStatus status = CheckStatus::NotApplicable;
    std::string headline; ///< the key figure in a few words, for a table cell ("15.27 GB headroom")
    std::string summary;  ///< one or two sentences: the verdict and why
    /// Key figures in SI units, keyed as in the JSON output ("headroom_bytes"); finite only.
    std::vector<std::pair<std::string, double>> figures;

    double figure(std::string_view key) const; ///< NaN when absent
};

struct Candidate
{
    std::string deviceId; ///< preset id, or the device's name for a custom one
    DeviceSpec device;
    NumericFormat weightFormat = NumericFormat::Bf16;
    /// The workload on this device in this format, as the checks used it (without the file's
    /// text and input provenance: derive a scenario to use with core::withCandidate)
    Scenario scenario;
    std::vector<CheckResult> checks; ///< one per CheckKind, in CheckKind order
    bool passes = false;             ///< no check failed
    double replicas = 0;             ///< devices (training: the data-parallel group) to run it
    double capacityBytes = 0;        ///< per device
    double monthlyCostUsd = 0;       ///< replicas x price x 730 h
    std::string verdict;             ///< "passes", "passes with warnings: ...", "fails: ..."

    const CheckResult &check(CheckKind kind) const
    {
        return checks[static_cast<std::size_t>(kind)];
    }
};

struct Recommendation
{
    bool found = false;
    std::string deviceId;
    NumericFormat weightFormat = NumericFormat::Bf16;
    double replicas = 0;
    std::string reason;      ///< why this one: the rule and its numbers
    std::string apiFallback; ///< the hosted-API fallback, or why there is none
    std::string flip;        ///< which assumption would change the verdict, and at what value
    std::vector<std::string> rejected;       ///< each other option and what it lacks
    std::vector<std::string> engineSettings; ///< serving-engine limits that enforce the decision
};

struct Selection
{
    Regime regime = Regime::Online;
    std::vector<Candidate> candidates;
    Recommendation recommendation;
    Diagnostics problems; ///< candidates that could not be checked (unknown preset id, ...)
};

/** The recommended candidate, or nullptr when none passes. */
const Candidate *recommendedCandidate(const Selection &selection);

/** One candidate device to check: a preset id, or a custom device (no id). */
struct CandidateDevice
{
    std::string id;
    DeviceSpec device;
};

/** The wizard's candidates (`wizard.candidates`) resolved against the presets; an unknown id
 *  goes to `problems`, named by its position in the list. */
std::vector<CandidateDevice> resolveCandidates(const std::vector<std::string> &ids,
                                               Diagnostics &problems);

/** The wizard's candidates plus the scenario's own device (first, unless it is listed) and the
 *  custom devices. A price negotiated in `wizard.prices` is applied where each is checked, by
 *  the one rule of core::deviceFollowers. */
std::vector<CandidateDevice> defaultCandidates(const Scenario &scenario, Diagnostics &problems);
/** The wizard's formats plus the scenario's own weight format (first, unless it is listed). */
std::vector<NumericFormat> defaultFormats(const Scenario &scenario);

/** Runs the checks for every device x format and recommends one. Never throws; a device with
 *  missing data gets n/a or failing checks that say what is missing. */
Selection selectDevice(const Scenario &scenario, const std::vector<CandidateDevice> &devices,
                       const std::vector<NumericFormat> &formats);

/** The defaults above: what the wizard opens with and `accel-calc check` runs without options. */
Selection selectDevice(const Scenario &scenario);

/** The `accel-calc check` JSON document (see docs/scenario-format.md). */
std::string selectionToJson(const Selection &selection);

} // namespace core
