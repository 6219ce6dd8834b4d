// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The lesson's device-selection walkthrough (l.204-237) as a calculation: for each candidate
// device and weight format, six checks (compatibility, memory headroom, throughput and latency,
// availability, developer effort, energy and cost), each with a status, its key figures and a
// sentence saying why; then a recommendation. Online inference, training and edge each ask the
// six questions in their own terms (l.195-200).

#include "core/model/formats.h"
#include "core/model/result.h"
#include "core/model/scenario.h"
#include "core/model/scenarioedits.h"
#include "core/train/trainingplan.h"

#include <limits>
#include <optional>
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
/** The same in a regime's words: a training decision's checks are of a run ("Time to train",
 *  "Failures and checkpoints", "Run cost and energy"), not of a serving fleet. */
std::string_view checkTitle(CheckKind kind, Regime regime);

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
    /// The replica shape the checks chose: the smallest tensor-parallel group (then pipeline
    /// stages) whose per-device memory fits and that meets the latency targets.
    double tensorParallel = 1;
    double pipelineParallel = 1;
    double replicas = 0;      ///< replicas (training: devices in the data-parallel group)
    double devices = 0;       ///< replicas x TP x PP
    double capacityBytes = 0; ///< per device
    double memoryPerDeviceBytes = 0;
    double usdPerHour = 0;          ///< the fleet; NaN without a price
    double monthlyCostUsd = 0;      ///< the fleet, 730 h; NaN without a price
    double usdPerMillionTokens = 0; ///< the fleet's month / the tokens it serves; NaN: no price
    std::string verdict;            ///< "passes", "passes with warnings: ...", "fails: ..."
    /// Why the split: what one device, and the next smaller shape tried, would need per device
    /// (NaN when not tried)
    double oneDeviceBytes = std::numeric_limits<double>::quiet_NaN();
    double smallerShapeBytes = std::numeric_limits<double>::quiet_NaN();
    double smallerShapeTp = 1;
    double smallerShapePp = 1;
    /// Training regime: the run's best plan on this device (core/train), what its memory,
    /// step, interruption and cost checks say; empty in the other regimes
    std::optional<TrainingPlan> trainingPlan;

    double devicesPerReplica() const { return tensorParallel * pipelineParallel; }

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
    double tensorParallel = 1;
    double pipelineParallel = 1;
    double devices = 0;
    std::string shape;       ///< "16 devices = 2 replicas x TP 8"
    std::string reason;      ///< why this one: the rule and its numbers
    std::string apiFallback; ///< the hosted-API fallback, or why there is none
    std::string flip;        ///< which assumption would change the verdict, and at what value
    std::vector<std::string> rejected;       ///< each other option and what it lacks
    std::vector<std::string> engineSettings; ///< serving-engine limits that enforce the decision
    /// Prefill and decode on separate pools against the colocated fleet (techniques.h): proposed
    /// when cheaper for the same traffic and first-token target, else why colocated stays; empty
    /// without traffic or a price.
    std::string split;
};

struct Selection
{
    Regime regime = Regime::Online;
    std::vector<Candidate> candidates;
    Recommendation recommendation;
    Diagnostics problems; ///< candidates that could not be checked (unknown preset id, ...)
};

/** The replica shape in a few words: "TP 4", "TP 8 x PP 2", "1 device". */
std::string shapeLabel(double tensorParallel, double pipelineParallel);
/** The fleet as engineers say it: "16 devices = 2 replicas x TP 8". */
std::string fleetLabel(const Candidate &candidate);

/** The tensor-parallel degrees the checks try on a device, smallest first: 1, 2, 4, 8 up to the
 *  wizard's limit and the device's scale-up domain (a datacenter card without a device link
 *  talks over PCIe inside one 8-card server; a client or edge device has no group). */
std::vector<double> tensorParallelChoices(const DeviceSpec &device, const WizardConfig &wizard);

/** Which speed estimates the options rest on: one for all, or typical for the real devices and
 *  the speed of light for the lesson's when a scenario without a chosen estimate checks both
 *  kinds (each device's own default), or a mix with a calibration. */
enum class EstimatesUsed { SpeedOfLight, Typical, Calibrated, TypicalAndSpeedOfLight, Mixed };
EstimatesUsed estimatesUsed(const Selection &selection);
/** "speed of light", "typical", "calibrated", "typical for the real devices, speed of light
 *  for the lesson's hypothetical ones", "mixed (calibrated where the profile has the device)". */
std::string_view estimatesUsedText(EstimatesUsed used);

/** The recommended candidate, or nullptr when none passes. */
const Candidate *recommendedCandidate(const Selection &selection);

/** The scenario with a device-selection candidate applied: its device (as onDevice) and its
 *  weight format. The candidate's device carries any negotiated price already. */
DeviceMove withCandidate(const Scenario &scenario, const Candidate &candidate);

/** True when the scenario already runs the candidate (device, weight format, shape and batch). */
bool runsCandidate(const Scenario &scenario, const Candidate &candidate);
/** The candidate the scenario already runs (runsCandidate), or nullptr: the wizard's answer for
 *  the setup on screen, to set beside the scenario's own fleet. */
const Candidate *candidateRunning(const Selection &selection, const Scenario &scenario);

/**
 * The scenario as the decision leaves it, the one rule behind the wizard's Apply, the decision
 * view, the report, the slides and `accel-calc decide`: the candidate's device (price and power
 * follow it), weight format and replica shape; the batch the checks sized it at (the resident
 * sequences, serving.concurrent_sequences); the fleet the peak under load needed
 * (serving.replicas, when more than the throughput's); and a name that says the fleet
 * ("Llama-3.1-70B on 2 x AMD MI300X, FP8"). evaluate() of it gives the candidate's replicas,
 * devices, utilisation and money, and the load simulation runs those replicas (loadSetup).
 */
Scenario decidedScenario(const Scenario &scenario, const Candidate &candidate);
/** The same with the recommendation; the scenario unchanged when nothing passes. */
Scenario decidedScenario(const Scenario &scenario, const Selection &selection);

/** "Llama-3.1-70B on 2 x AMD MI300X, FP8" (with the shape when a replica spans devices). */
std::string decisionName(const Candidate &candidate);

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

/** The device presets the checks compare: `wizard.candidates` as listed (a file's list, the
 *  wizard's ticks) or, when none is listed, chosen from the model and the regime: the lesson's
 *  three accelerators for the lesson's model; for any other model six widely rented data-centre
 *  GPUs, H100, H200, B200, MI300X, L40S and A100 80 GB (online, training), or the edge and client
 *  presets (edge), with the scenario's own device first
 *  unless it is one of the lesson's hypothetical parts. */
std::vector<std::string> candidateIds(const Scenario &scenario);

/** The candidates of candidateIds resolved, plus the scenario's own device when it is no preset
 *  (it has no box to tick) and the custom devices. A price negotiated in `wizard.prices` is applied
 * where each is checked, by the one rule of core::deviceFollowers. */
std::vector<CandidateDevice> defaultCandidates(const Scenario &scenario, Diagnostics &problems);
/**
 * Concurrent sequences from the traffic, by Little's law: L = rate x the time a request stays
 * (its time to first token, then its answer at the per-sequence decode speed of a batch of L).
 * The speed depends on L, so L is found by repeating until it stops changing; whole sequences.
 */
struct SequencesInFlight
{
    bool available = false;     ///< false without a peak rate, or when no speed is known
    double ratePerSecond = 0;   ///< the peak the fleet is sized for
    double secondsInSystem = 0; ///< first token + output / per-sequence tokens per second
    double sequences = 0;       ///< ceil(rate x seconds), across the fleet
    std::string reasoning;      ///< the sum in words, for the wizard beside its button
};
SequencesInFlight sequencesInFlight(const Scenario &scenario);

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

/** The `accel-calc decide` JSON document: the recommendation (as in `check`, with the batch,
 *  the utilisation and the decided scenario's name) and where the decided scenario was
 *  written (null when it was not). */
std::string decisionToJson(const Selection &selection, const std::string &writtenPath);

} // namespace core
