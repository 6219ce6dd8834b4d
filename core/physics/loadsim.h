// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Tail latency under load (issue #26): a deterministic discrete-event simulation of replicas
// serving a request stream with iteration-level (continuous) batching, chunked or
// prefill-first scheduling and paged KV, each step timed by the core's StepModel. The lesson's
// latency check stops at a single-request floor; this gives p50..p99 with the queueing in it.

#include "core/model/result.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace core {

struct Scenario;

enum class ArrivalKind : std::uint8_t { Poisson, Gamma, Trace };
enum class LengthKind : std::uint8_t { Fixed, Uniform, LogNormal };
enum class RouterKind : std::uint8_t { RoundRobin, LeastOutstanding };

std::string_view arrivalKey(ArrivalKind kind); // "poisson" | "gamma" | "trace"
std::string_view lengthKey(LengthKind kind);   // "fixed" | "uniform" | "lognormal"
std::string_view routerKey(RouterKind kind);   // "round_robin" | "least_outstanding"

/** One request of a trace file: when it arrives and how long it is. */
struct TraceRequest
{
    double arrivalSeconds = 0;
    double promptTokens = 0;
    double outputTokens = 0;
};

/**
 * A trace in CSV: a header naming `timestamp` (seconds), `prompt_tokens` and `output_tokens`
 * in any order, then one request per line, timestamps never decreasing. Errors name the file,
 * the line and the column.
 */
Result<std::vector<TraceRequest>> readTrace(std::string_view text, std::string_view fileName);

/** What the simulator measured in one run's latencies: each as p50/p90/p95/p99 and mean. */
struct Percentiles
{
    double p50 = 0;
    double p90 = 0;
    double p95 = 0;
    double p99 = 0;
    double mean = 0;
};

/** One sample of a run's timeline (every replica together). */
struct TimelinePoint
{
    double seconds = 0;
    double waiting = 0;    ///< requests queued, not yet admitted
    double running = 0;    ///< sequences in the running batch (prefilling or decoding)
    double kvFraction = 0; ///< KV blocks in use / blocks there are
    double arrived = 0;    ///< requests arrived so far
};

struct LoadResult
{
    double offeredRatePerSecond = 0; ///< requests / the span of their arrivals
    std::size_t requests = 0;
    std::size_t completed = 0;
    std::size_t steps = 0;
    std::size_t preemptions = 0;
    bool cut = false; ///< stopped at the event bound before every request finished
    std::string cutReason;

    Percentiles ttft;               ///< arrival to first output token
    Percentiles tpotExcludingFirst; ///< (end - first token) / (outputs - 1), outputs > 1 only
    Percentiles tpotIncludingFirst; ///< end-to-end / outputs
    Percentiles endToEnd;           ///< arrival to last token
    Percentiles queueWait;          ///< arrival to admission (first admission)

    double spanSeconds = 0; ///< first arrival to last completion
    double requestsPerSecond = 0;
    double outputTokensPerSecond = 0;
    double goodputRequestsPerSecond = 0; ///< requests meeting both targets, per second
    double goodputFraction = 0;
    double ttftTargetSeconds = 0;
    double tpotTargetSeconds = 0;

    /// Little's law, two ways: the time-average of requests in the system (N(t) integrated at
    /// every event) and the completion rate x the mean time in the system.
    double meanInSystem = 0;
    double rateTimesMeanLatency = 0;

    double ttftFloorSeconds = 0; ///< one request alone: its prefill, then one decode step
    double kvBlocks = 0;         ///< blocks per replica
    std::vector<TimelinePoint> timeline;
};

/** The engine and the stream, resolved from the scenario's `load` section (scenario.h). */
struct LoadSetup
{
    ArrivalKind arrivals = ArrivalKind::Poisson;
    double ratePerSecond = 1;
    double burstiness = 1; ///< coefficient of variation of Gamma inter-arrival times
    std::vector<TraceRequest> trace;
    LengthKind promptKind = LengthKind::Fixed;
    double promptMean = 512;
    double promptSpread = 0;
    LengthKind outputKind = LengthKind::Fixed;
    double outputMean = 128;
    double outputSpread = 0;
    double contextLimit = 4096; ///< prompt + output never exceed it (clipped)
    std::size_t requests = 1000;
    /// The arrivals of this span only (load.duration_s; infinite: `requests` of them)
    double durationSeconds = std::numeric_limits<double>::infinity();
    std::uint64_t seed = 1;
    double maxSequences = 256;
    double tokenBudget = 8192;
    bool chunkedPrefill = true;
    double blockTokens = 16;
    double replicas = 1;
    RouterKind router = RouterKind::RoundRobin;
    double ttftTargetSeconds = 1.5;
    double tpotTargetSeconds = 0.1;
    std::size_t timelinePoints = 2000; ///< the timeline is thinned to at most this many
    /// Events the run may take before it is cut (and says so): the wizard's checks, run for
    /// every candidate on every edit, take a smaller bound than a run asked for by name.
    double maxEvents = 5e7;
};

/** The setup the scenario's load section describes (trace rows passed in, read by the caller
 *  from load.trace_file). Errors name the field. */
Result<LoadSetup> loadSetup(const Scenario &scenario, std::vector<TraceRequest> trace = {});

/** Runs one simulation. Deterministic: the same scenario and setup give the same result bit
 *  for bit. Errors (an engine that admits nothing, a KV cache too small for one request) name
 *  the field. `cancel`, when set and true, stops the run early (result cut). */
Result<LoadResult> simulateLoad(const Scenario &scenario, const LoadSetup &setup,
                                const std::atomic<bool> *cancel = nullptr);

/** One point of the latency-against-load curve. */
struct LoadPoint
{
    double ratePerSecond = 0;
    LoadResult result; ///< timeline left empty
};

struct LoadCurve
{
    std::vector<LoadPoint> points;
    /// Where p95 TTFT turns from flat to climbing (kneeOf); the last rate when it never climbs.
    double kneeRatePerSecond = 0;
    /// The highest rate at which p95 TTFT and p95 TPOT (excluding the first) meet the targets.
    double maxRateMeetingTargets = 0;
    double estimatedCapacityPerSecond = 0; ///< what the rates were spread over
    /// Requests simulated at each rate: those asked for, or fewer where the lightest load's
    /// steps per request would run the curve past its work bound (long outputs, small budgets)
    std::size_t requestsPerPoint = 0;
    bool cancelled = false;
};

/// Engine steps one curve may simulate in all (about 1 s on the development machine).
inline constexpr double kCurveStepBudget = 1e7;

/** The knee of a latency curve: with the rates and log p95 TTFT scaled to 0..1 between the
 *  first and the last point, the point farthest below the chord ("Kneedle", Satopaa et al.
 *  2011); the last rate when p95 TTFT does not double over the curve. */
double kneeOf(const std::vector<LoadPoint> &points);

/** Requests per second a setup's replicas can sustain, from the step model: the batch limit's
 *  decode steps for the mean output plus each request's prefill (the curve's x range). */
double estimatedCapacity(const Scenario &scenario, const LoadSetup &setup);

/** Runs `points` rates from 5 % to 150 % of the estimated capacity, `requests` each (fewer
 *  after the first point when the steps it took per request would pass kCurveStepBudget).
 * `progress` is called after each point with (done, total); `cancel` stops between and within
 * points. */
Result<LoadCurve> loadCurve(const Scenario &scenario, const LoadSetup &setup, int points,
                            std::size_t requests, const std::atomic<bool> *cancel = nullptr,
                            const std::function<void(int, int)> &progress = {});

/** The result as JSON (accel-calc simulate) and as CSV rows (one per request is too many: the
 *  summary figures as key,value). */
std::string loadResultToJson(const LoadResult &result, const LoadSetup &setup);
std::string loadResultToCsv(const LoadResult &result);
std::string loadCurveToJson(const LoadCurve &curve);
std::string loadCurveToCsv(const LoadCurve &curve);

} // namespace core
