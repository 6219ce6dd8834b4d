// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// evaluate(): the scenario in, every derived number out. Evaluation is a flat array of SI doubles
// indexed by FigureId, so evaluating and sweeping stay allocation-free in the common case; the
// formula text behind each figure is rendered on demand by explain.h.

#include "core/model/estimate.h"
#include "core/model/formats.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace core {

struct Scenario;

enum class Quantity : std::uint8_t {
    Bytes,
    Count,
    Tokens,
    Flops,
    FlopsPerSecond,
    FlopsPerByte,
    BytesPerSecond,
    Seconds,
    TokensPerSecond,
    Usd,
    UsdPerMillionTokens,
    Joules,
    Watts,
    Ratio,
    Boolean,
};

// One entry per derived number. Keep in the same order as kFigureTable in evaluation.cpp.
enum class FigureId : std::uint16_t {
    WeightsBytes,
    BytesPerParameter,
    KvBytesPerToken,
    KvBytesPerSequence,
    StateBytesPerSequence,
    StateBytesTotal, ///< per device: the resident sequences' fixed state, part of KvBytesTotal
    ResidentSequences,
    KvBytesTotal,
    FragmentationBytes,
    OverheadBytes,
    ServingBytesTotal,
    CapacityBytes,
    HeadroomBytes,
    Fits,
    KvBudgetBytes,
    MaxConcurrentSequences,
    AdmissionLimit,
    MaxContextTokens,
    Devices,

    TrainingBytesPerParameter,
    TrainingStateBytes,
    TrainingStateBytesPerDevice,
    TrainingWeightsBytesPerDevice,
    TrainingGradsBytesPerDevice,
    TrainingMasterBytesPerDevice,
    TrainingOptimizerBytesPerDevice,
    TrainingActivationBytes,
    TrainingTotalBytesPerDevice,
    TrainingFits,

    PeakFlops,
    Bandwidth,
    Ridge,
    EstimateBandwidthEfficiency,
    EstimateComputeEfficiency,
    EstimateStepOverheadSeconds,

    DecodeBatch,
    DecodeBytesPerStep,
    DecodeWeightBytesPerStep,
    DecodeKvBytesPerStep,
    DecodeFlopsPerStep,
    DecodeAttentionFlopsPerStep,
    DecodeIntensity,
    DecodeIntensityLimit,
    DecodeMemorySeconds,
    DecodeComputeSeconds,
    DecodeCommunicationSeconds,
    DecodeSmallKernelSeconds, ///< each layer's norms, rotary, activation, add (0: not timed)
    DecodeStepSeconds,
    DecodeTokensPerSecond,
    DecodeTokensPerSecondPerSequence,
    DecodeAttainableFlops,
    DecodeFractionOfPeak,
    DecodeRidgeDistance,
    DecodeWeightsOnlySeconds,
    DecodeWeightsOnlyTokensPerSecond,
    DecodeMemoryToComputeRatio,

    PrefillTokens,
    PrefillFlops,
    PrefillAttentionFlops,
    PrefillBytes,
    PrefillIntensity,
    PrefillSeconds,
    PrefillSmallKernelSeconds,
    PrefillAttainableFlops,
    PrefillFirstDecodeSeconds, ///< the first token's own decode step (batch 1, at the context)
    PrefillTtftSeconds,
    PrefillBurstSeconds,

    CostPricePerHour,
    CostUtilisation,
    CostSustainedTokensPerSecond,
    CostTokensPerHour,
    CostUsdPerMillionTokens,
    CostJoulesPerToken,
    CostGeneratedTokensPerRequest,
    CostSelfHostedUsdPerRequest,
    CostApiUsdPerRequest,
    CostBreakEvenUtilisation,
    CostReplicas,
    CostDevices,
    CostFleetUsdPerHour,
    CostFleetUsdPerMonth,
    CostFleetUsdPerYear,
    CostTokensPerMonth,
    CostTokensFromTraffic,
    CostApiUsdPerMonth,
    CostFleetWatts,

    TrafficAverageTokensPerSecond,
    TrafficUtilisation,
    TrafficReplicasForPeak,
    TrafficMonthlyCostUsd,

    InterconnectDevices,
    InterconnectMessageBytes,
    InterconnectTrafficBytesPerDevice,
    InterconnectCollectivesPerStep,
    InterconnectBytesPerStep,
    InterconnectLinkBandwidth,
    InterconnectBandwidthSeconds,
    InterconnectLatencySeconds,
    InterconnectSeconds,
    InterconnectIntraNodeSeconds,
    InterconnectInterNodeSeconds,

    PowerNodeWatts,
    PowerNodesPerRack,
    PowerDevicesPerRack,

    Count_
};

inline constexpr std::size_t kFigureCount = static_cast<std::size_t>(FigureId::Count_);

struct FigureInfo
{
    FigureId id;
    std::string_view key; ///< dotted output name, e.g. "memory.weights_bytes"
    Quantity quantity;
    std::string_view label; ///< short human label, e.g. "Weights"
};

std::span<const FigureInfo> figureTable();
const FigureInfo &figureInfo(FigureId id);
const FigureInfo *findFigure(std::string_view key);

enum class Bound : std::uint8_t { Memory, Compute };
std::string_view boundKey(Bound bound); // "memory" | "compute"

/** Conditions a user should be told about; rendered to text by warningText(). */
enum class EvalWarning : std::uint32_t {
    BatchExceedsConcurrency = 1u << 0,
    ComputeFormatFallback = 1u << 1,
    NoKnownFastWeightKernel = 1u << 2,
    NoKnownFastKvKernel = 1u << 3,
    ContextExceedsMaxContext = 1u << 4,
    DoesNotFit = 1u << 5,
    QuantGroupIgnored = 1u << 6,
    ActivationsNeedArchitecture = 1u << 7,
    EmbeddingsNeedArchitecture = 1u << 8,
    BeyondRange = 1u << 9, ///< a figure overflowed (a near-zero efficiency): it is n/a
    /// the tensor-parallel group is larger than the device's scale-up domain: its all-reduces
    /// cross nodes over the inter-node link
    TensorParallelBeyondDomain = 1u << 10,
    /// tensor parallelism on a device without a device link: its all-reduces go over PCIe
    TensorParallelOverHostLink = 1u << 11,
    /// more kv heads' copies than heads: each device holds a whole head (replicated KV)
    KvHeadsReplicated = 1u << 12,
    /// attention FLOP asked for, but the model has no heads or head dim: left out
    AttentionFlopsNeedArchitecture = 1u << 13,
    /// a typical or calibrated estimate asked for, but the profile has nothing for this device
    /// or its class: the scenario's own efficiencies are used
    NoCalibrationForDevice = 1u << 14,
    /// the estimate times each layer's small kernels, but the model has no hidden size to size
    /// them by: left out
    SmallKernelsNeedArchitecture = 1u << 15,
    /// a weight part has its own format but the app cannot separate its parameters (a latent
    /// attention no import counted, embeddings without vocabulary and width): not applied
    PartFormatNotApplied = 1u << 16,
};

struct Evaluation
{
    std::array<double, kFigureCount> values{}; ///< SI values; NaN = not applicable (never output)
    Bound decodeBound = Bound::Memory;
    Bound prefillBound = Bound::Compute;
    /// Which estimate the figures are (estimate.h); Typical/Calibrated only when the profile had
    /// an entry for the device.
    EstimateMode estimateMode = EstimateMode::SpeedOfLight;
    NumericFormat computeFormat = NumericFormat::Bf16;
    std::uint32_t warnings = 0;

    double operator[](FigureId id) const { return values[static_cast<std::size_t>(id)]; }
    double &operator[](FigureId id) { return values[static_cast<std::size_t>(id)]; }
    bool available(FigureId id) const { return !std::isnan((*this)[id]); }
    bool fits() const { return (*this)[FigureId::Fits] != 0.0; }
    bool has(EvalWarning warning) const
    {
        return (warnings & static_cast<std::uint32_t>(warning)) != 0;
    }
};

/** The figures every valid scenario must give or explain: weights, serving memory, decode step,
 *  decode tokens/s, time to first token. */
std::span<const FigureId> centralFigures();
/** Why `id` is n/a in `e` (nullopt when it is available): outputs list it beside the figures,
 *  so a central figure is never silently missing. */
std::optional<std::string_view> notAvailableReason(const Evaluation &e, FigureId id);

/** Computes every figure. Pure: the same scenario always gives the same evaluation. */
Evaluation evaluate(const Scenario &scenario);

/** The format a step computes in: the scenario's compute_format, else FP8/FP4 weights on units
 *  of their own, else BF16, FP16 or FP32, whichever peak the device gives first. */
NumericFormat computeFormatFor(const Scenario &scenario);

/** One decode operating point of a batch sweep (roofline trail, throughput chart). */
struct BatchPoint
{
    double batch = 0;
    double intensity = 0;       ///< FLOP/byte
    double attainableFlops = 0; ///< FLOP/s at that intensity, with efficiencies
    double stepSeconds = 0;
    double tokensPerSecond = 0;
    double tokensPerSecondPerSequence = 0;
    double servingBytes = 0; ///< memory with max(batch, concurrency) sequences resident
    bool fits = false;
    Bound bound = Bound::Memory;
};

/** The runtime overhead split as the lesson splits it (l.255): the runtime (driver) context and
 *  the framework's workspace, from `serving.overhead_parts`. Without a "workspace" part the
 *  split is unknown: `known` is false and the whole overhead is reported as runtime context. */
struct OverheadSplit
{
    double runtimeContextBytes = 0;
    double workspaceBytes = 0;
    bool known = false;
};
OverheadSplit overheadSplit(const Scenario &scenario);

/** What one sequence's KV cache is divided by on a device: the tensor-parallel ranks that split
 *  it (the KV heads when there are fewer heads than ranks, 1 for an MLA latent) x the pipeline
 *  stages. */
double kvDevicesPerSequence(const Scenario &scenario);

/** Device memory in use with `residentSequences` sequences' KV cache resident (weights +
 *  overhead + KV with fragmentation), per device: the KV-against-concurrency line. */
double servingBytesAt(const Scenario &scenario, double residentSequences);

/** Evaluates the decode step at each batch size, everything else unchanged. */
std::vector<BatchPoint> sweepBatch(const Scenario &scenario, std::span<const double> batches);

namespace detail {
struct StepBase;
}

/** What one engine step computes (load simulation, issue #26): the decoding sequences with the
 *  sum of their contexts (tokens already in their KV), and the prompt tokens prefilled beside
 *  them with the positions those tokens attend to (a chunk from position p0 of c tokens attends
 *  c x p0 + c (c + 1) / 2). */
struct StepLoad
{
    double decodeSequences = 0;
    double decodeContextTokens = 0;
    double prefillTokens = 0;
    double prefillAttentionPairs = 0;
    /// Bytes per device the step reads beside the model's weights and KV (a speculative
    /// decoder's heads, a cached prefix's KV the prompt's attention reads).
    double extraBytes = 0;
    /// FLOP per device beside 2 x active parameters per token and attention (the heads' own).
    double extraFlops = 0;
};

/** One step's cost as the roofline sees it: what it moves and computes per device, and the time
 *  each roof and the links take. seconds = max(memory, compute) + communication + overhead. */
struct StepCost
{
    double bytes = 0;
    double flops = 0;
    double memorySeconds = 0;
    double computeSeconds = 0;
    double communicationSeconds = 0;
    double smallKernelSeconds = 0; ///< each layer's norms, rotary, activation and add
    double seconds = 0;
    Bound bound = Bound::Memory;
    double intensity() const { return bytes > 0.0 ? flops / bytes : 0.0; }
    /// FLOP/s the step attains on the roofline (its FLOP over the slower roof's time)
    double attainableFlops() const
    {
        const double roof = std::max(memorySeconds, computeSeconds);
        return roof > 0.0 ? flops / roof : 0.0;
    }
};

/**
 * The decode step's rule for any mix of work, built once from a scenario: max(bytes / (B x
 * bandwidth efficiency), FLOP / (P x compute efficiency)) + the step's collectives + the step
 * overhead. Bytes are the weights the step's tokens read, each decoding sequence's KV (its context
 * x the KV per context token, so a batch at the scenario's context costs exactly
 * decode.step_seconds) and the KV the prefill tokens write; FLOP are 2 x active parameters per
 * token plus attention where the estimate counts it. Prefill alone of the scenario's prompt costs
 * exactly prefill.seconds.
 */
class StepModel
{
public:
    explicit StepModel(const Scenario &scenario);

    double seconds(const StepLoad &load) const { return cost(load).seconds; }
    StepCost cost(const StepLoad &load) const;
    /** One request's prompt prefilled alone (its own step). */
    double prefillSeconds(double promptTokens) const;
    /** Device memory one token's KV takes on one device (paged KV blocks count in these). */
    double kvBytesPerTokenPerDevice() const { return m_kvBytesPerTokenPerDevice; }
    /** Device memory left for KV per device: capacity - weights - runtime overhead. */
    double kvBudgetBytes() const { return m_kvBudgetBytes; }
    /** KV bytes one context token's attention reads per step on one device (every stage). */
    double kvBytesPerContextToken() const { return m_kvBytesPerContextToken; }
    /** Weight bytes per device for one parameter (the format with its scales). */
    double bytesPerParameterPerDevice() const;
    /** The evaluation flags building the model raised (attention FLOP unavailable, ...). */
    std::uint32_t warnings() const { return m_warnings; }

private:
    std::shared_ptr<const detail::StepBase> m_base;
    double m_kvBytesPerContextToken = 0; ///< per rank, all stages: what a decode step reads
    double m_kvBytesPerTokenPerDevice = 0;
    double m_kvBudgetBytes = 0;
    double m_attentionFlopsPerPair = 0;
    std::uint32_t m_warnings = 0;
};

/**
 * Time to first token, composed once (issue #40): a request's prefill, the transfer of its KV
 * where prefill and decode run on separate pools, then its own first decode step (batch 1). Each
 * caller brings its parts: evaluate() its prefill and batch-1 step at the scenario's context (the
 * lesson's per-step assumption; FigureId::PrefillFirstDecodeSeconds), the techniques those
 * figures with their own prefill or transfer, the load simulation's floor the median prompt's
 * (the KV its simulated first step reads).
 */
double firstTokenSeconds(double prefillSeconds, double firstDecodeStepSeconds,
                         double transferSeconds = 0.0);
/** The same with the first decode step timed by `model` at `contextTokens` of KV. */
double firstTokenSeconds(const StepModel &model, double prefillSeconds, double contextTokens,
                         double transferSeconds = 0.0);

/** Warning texts for the evaluation's flags, in words a user understands. */
std::vector<std::string_view> warningTexts(const Evaluation &evaluation);

} // namespace core
