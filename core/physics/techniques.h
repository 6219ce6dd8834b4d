// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What serving engines do to the roofline (issue #27): speculative decoding, prefix caching and
// prefill and decode on separate pools. Each is worked out with the decode step's own rule
// (StepModel), so a technique switched off gives back the plain figures exactly.

#include "core/model/result.h"
#include "core/physics/evaluation.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace core {

struct Scenario;

/** Expected tokens one verify step yields when each of K proposals is accepted with chance a,
 *  independently, up to the first rejection, plus the target's own token:
 *  (1 - a^(K+1)) / (1 - a) (Leviathan, Kalman, Matias 2023, eq. 1); K + 1 at a = 1. */
double expectedTokensPerVerify(double acceptance, double proposals);

/** Speculative decoding at one batch size, beside plain decode at the same batch. */
struct SpeculativePoint
{
    double batch = 0;
    double tokensPerVerify = 0;
    StepCost verify;         ///< the target's step over K + 1 tokens per sequence
    double draftSeconds = 0; ///< the draft model's K proposal steps (heads: inside verify)
    double cycleSeconds = 0; ///< draft + verify
    double tokensPerSecondPerSequence = 0;
    double tokensPerSecond = 0;
    StepCost plain; ///< plain decode at the same batch
    double plainTokensPerSecond = 0;
    double speedup = 0; ///< tokens/s with speculation over tokens/s without
};

struct SpeculativeAnalysis
{
    double proposals = 0;
    double acceptance = 0;
    std::string draftName;                ///< the draft model's name, or "heads"
    double draftWeightBytesPerDevice = 0; ///< memory the draft takes beside the target
    double draftKvBytesPerSequencePerDevice = 0;
    SpeculativePoint atBatch; ///< at the scenario's batch
    /// The largest batch (1..kBatchAxisMaximum) at which speculation still pays (speedup >= 1);
    /// 0 when it pays at no batch.
    double lastPayingBatch = 0;
};

/** The scenario's engine.speculative_* settings worked out; an error names the field when
 *  speculation is off (K = 0) or its draft is missing or unknown. */
Result<SpeculativeAnalysis> analyseSpeculative(const Scenario &scenario);
/** The same at each batch (the throughput view's two curves). */
Result<std::vector<SpeculativePoint>> sweepSpeculative(const Scenario &scenario,
                                                       std::span<const double> batches);

/** One request's prefill with and without a cached shared prefix. Expected values over the hit
 *  rate: a hit prefills only the rest of the prompt (which still attends to the prefix, whose
 *  cached KV it reads); a miss prefills the whole prompt. */
struct PrefixCacheAnalysis
{
    double promptTokens = 0;
    double prefixTokens = 0; ///< at most the prompt
    double hitRate = 0;
    double tokensPrefilledWithout = 0;
    double tokensPrefilledWith = 0; ///< expected
    double flopsWithout = 0;        ///< per device
    double flopsWith = 0;
    double bytesWithout = 0;
    double bytesWith = 0;
    double prefillSecondsWithout = 0;
    double prefillSecondsWith = 0;
    double ttftSecondsWithout = 0; ///< prefill + one decode step at batch 1
    double ttftSecondsWith = 0;
    double usdPerRequestWithout = 0; ///< the prefill's share of a replica-hour; NaN: no price
    double usdPerRequestWith = 0;
    double cachedKvBytesPerDevice = 0; ///< every cached prefix's KV, held against capacity
    double maxConcurrentWithout = 0;
    double maxConcurrentWith = 0;
    bool fitsWith = false; ///< the scenario's resident sequences still fit beside the prefixes
};

Result<PrefixCacheAnalysis> analysePrefixCache(const Scenario &scenario);

/** Prefill on one pool, decode on another, each request's KV moved between them. */
struct DisaggregationAnalysis
{
    std::string prefillDeviceName;
    double kvBytesPerRequest = 0; ///< the prompt's KV, every layer (what crosses the link)
    double linkBytesPerSecond = 0;
    double transferSeconds = 0;
    double prefillSeconds = 0; ///< on the prefill pool's device
    double decodeStepSeconds = 0;
    double ttftSecondsColocated = 0; ///< prefill.ttft_seconds
    double ttftSecondsDisaggregated = 0;
    double outputTokensPerRequest = 0;
    /// Requests/s each pool sustains: prefill replicas / prefill seconds; decode replicas x decode
    /// tokens/s / output tokens. The split serves the smaller.
    double prefillPoolRequestsPerSecond = 0;
    double decodePoolRequestsPerSecond = 0;
    double disaggregatedRequestsPerSecond = 0;
    /// The same devices colocated: each replica spends a request's prefill alone, then its share
    /// of decode steps at the scenario's batch.
    double colocatedRequestsPerSecond = 0;
    double devicesDisaggregated = 0;
    double usdPerHourDisaggregated = 0; ///< NaN where a pool's device has no price
    double usdPerHourColocated = 0;     ///< the same device count of the scenario's device
};

Result<DisaggregationAnalysis> analyseDisaggregation(const Scenario &scenario);

/** A device, format and replica shape that could run the prefill pool (a passing candidate of
 *  the wizard). */
struct SplitOption
{
    std::string name; ///< "H100 SXM, FP8, TP 2"
    const Scenario *scenario = nullptr;
};

/** The wizard's split proposal: both pools sized for the traffic, against colocated replicas
 *  sized by the same rule. */
struct SplitProposal
{
    bool cheaper = false; ///< the split costs less for the same traffic and first-token target
    std::string prefillOption;
    double requestsPerSecond = 0;
    double prefillReplicas = 0;
    double decodeReplicas = 0;
    double colocatedReplicas = 0;
    double usdPerHourSplit = 0;
    double usdPerHourColocated = 0;
    double ttftSeconds = 0; ///< prefill on the prefill pool + KV transfer + the first decode step
    double transferSeconds = 0;
    std::string text; ///< what the wizard says, with its numbers
};

/**
 * Sizes prefill and decode on separate pools for the scenario's peak requests/s (else its
 * average) and compares them with colocated replicas of `decodeSide`. Each request costs a
 * colocated replica its prefill and its share of decode steps at the scenario's batch
 * (prefill + output tokens / decode tokens/s); a prefill replica only its prefill, a decode
 * replica only the decode share. Each pool keeps the wizard's minimum replicas, a split whose
 * first token (prefill + KV over `engine.kv_link_gb_s` + one decode step) misses the target is
 * not proposed. Nothing (nullopt) without traffic, output tokens or a price.
 */
std::optional<SplitProposal> proposeSplit(const Scenario &decodeSide,
                                          std::span<const SplitOption> prefillOptions);

} // namespace core
