// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The scenario: plain values, nothing computed. core::readScenario fills it from JSON (with the
// lesson's running example as defaults, taken from the parameter table in parameters.cpp) and
// core::evaluate turns it into an Evaluation.

#include "core/model/estimate.h"
#include "core/model/formats.h"

#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace core {

inline constexpr double kUnset = std::numeric_limits<double>::quiet_NaN();
inline bool isSet(double value)
{
    return !std::isnan(value);
}

/// Shared: the layer attends with the KV an earlier layer cached (Gemma 4's KV-sharing layers)
/// and holds none of its own; None: no attention at all.
enum class AttentionKind { Full, Sliding, Chunked, Latent, Linear, Shared, None };
enum class MlpKind { Dense, Moe, None };

/** Consecutive-or-not layers that share an attention kind and an MLP kind. Gemma 3 is 10 groups'
 *  worth of one pattern (5 sliding : 1 full), gpt-oss alternates sliding and full, DeepSeek-V3
 *  has 3 dense MLA layers then 58 MoE MLA layers, Qwen3-Next 3 linear (DeltaNet) : 1 full. */
struct LayerGroup
{
    double layers = kUnset;
    AttentionKind attention = AttentionKind::Full;
    double window = kUnset;    ///< sliding window or attention chunk, tokens
    double kvHeads = kUnset;   ///< unset: the model's
    double headDim = kUnset;   ///< unset: the model's
    double latentDim = kUnset; ///< MLA: elements cached per token and layer (latent + RoPE key)
    /// Sparse attention (DeepSeek's DSA): the latents a token attends to, picked by an indexer
    /// whose key of indexDim elements (part of latentDim) is cached and read for every token;
    /// unset: every cached token is attended
    double topK = kUnset;
    double indexDim = kUnset;
    double stateBytes =
        kUnset; ///< linear attention / state-space: fixed bytes per sequence per layer
    MlpKind mlp = MlpKind::Dense;
    double intermediateSize = kUnset; ///< dense MLP width; unset: the model's
    double experts = kUnset;          ///< MoE: routed experts
    double expertsPerToken = kUnset;
    double sharedExperts = kUnset;
    double expertIntermediateSize = kUnset; ///< width of one routed (and shared) expert
};

/** The parts of a model's weights a checkpoint may keep in different formats (issue #44):
 *  gpt-oss stores its routed experts in MXFP4 and the rest in BF16; AWQ, GPTQ and FP8
 *  checkpoints leave the embedding table and the output head (and the norms) at 16 bits;
 *  NVFP4 checkpoints may leave attention in BF16. Mlp is the dense MLPs and shared experts;
 *  Other the norms, routers and biases. */
enum class WeightPart : std::uint8_t { Embeddings, Attention, Mlp, Experts, Other };
inline constexpr std::array<WeightPart, 5> kWeightParts = {WeightPart::Embeddings,
                                                           WeightPart::Attention, WeightPart::Mlp,
                                                           WeightPart::Experts, WeightPart::Other};
inline constexpr std::size_t index(WeightPart part)
{
    return static_cast<std::size_t>(part);
}

/** A model architecture. Counts are doubles so formulas stay in one type; the reader checks
 *  that count fields hold integers. kUnset marks an optional field the file did not give. */
struct ModelSpec
{
    std::string presetId; ///< non-empty when the model is a built-in preset used as is
    std::string name;
    double parameters = kUnset;
    double activeParameters = kUnset; ///< MoE: parameters used per token; unset = parameters
    double layers = kUnset;
    double hiddenSize = kUnset;
    double attentionHeads = kUnset;
    double kvHeads = kUnset;
    double headDim = kUnset;
    double intermediateSize = kUnset;
    double vocabSize = kUnset;
    bool tieEmbeddings = false;
    double experts = kUnset;
    double expertsPerToken = kUnset;
    double maxContext = kUnset;
    double slidingWindow = kUnset;
    /// Layers that use the window (Gemma 2 alternates: half); unset = every layer.
    double slidingWindowLayers = kUnset;
    /// Multi-head latent attention (DeepSeek-V3): the cache holds one latent of this width per
    /// token and layer instead of K and V per KV head; unset = ordinary attention.
    double kvLatentDim = kUnset;
    /// Explicit layer groups (architecture.h); empty: one group from the fields above.
    std::vector<LayerGroup> layerGroups;
    /// Parameters in each weight part, as an import counted them (weightparts.h); unset:
    /// estimated from the fields above where a part's format differs.
    std::array<double, kWeightParts.size()> partParameters{kUnset, kUnset, kUnset, kUnset, kUnset};
    std::map<std::string, std::string> sources; ///< field key -> where the value comes from
    std::map<std::string, std::string> notes;   ///< field key -> a doubt or caveat

    double active() const { return isSet(activeParameters) ? activeParameters : parameters; }
};

enum class DeviceFamily { Gpu, Tpu, Npu, Asic, Cpu, Unknown };
enum class Deployment { Datacenter, Edge, Client, Unknown };

struct DeviceSpec
{
    std::string presetId;
    /// A real device preset with published sources (the registry sets it; an edited or inline
    /// device is not one): a scenario on it follows the typical estimate (deviceFollowers)
    bool referencePreset = false;
    std::string name;
    DeviceFamily family = DeviceFamily::Unknown;
    Deployment deployment = Deployment::Unknown;
    double memoryGb = kUnset;
    double usableMemoryGb = kUnset;
    double bandwidthGbPerSecond = kUnset;
    /// Dense peak TFLOP/s (TOPS for integer formats) by format; kUnset where unknown.
    std::array<double, kAllFormats.size()> peakTflops{kUnset, kUnset, kUnset, kUnset, kUnset,
                                                      kUnset, kUnset, kUnset, kUnset};
    std::optional<std::vector<NumericFormat>> nativeFormats;     ///< nullopt = unknown
    std::optional<std::vector<NumericFormat>> weightOnlyFormats; ///< nullopt = unknown
    double powerW = kUnset;
    double pricePerHourUsd = kUnset;
    double priceLowUsd = kUnset; ///< the published range the preset's price sits in
    double priceHighUsd = kUnset;
    double hostLinkGbPerSecond = kUnset;
    double deviceLinkGbPerSecond = kUnset; ///< per direction
    double deviceLinkLatencySeconds = kUnset;
    /// Devices joined by the device link (an NVLink, Infinity Fabric or ICI group): the largest
    /// tensor-parallel group that stays on it. Unset: unknown (1 when there is no device link).
    double scaleUpDevices = kUnset;
    double sramMb = kUnset;
    /// Measured ceilings (issue #43): the fastest dense matmul a benchmark reached per format
    /// (TFLOP/s), a stream benchmark's bandwidth (GB/s) and an 8-device all-reduce's bus
    /// bandwidth (GB/s); kUnset where nothing citable was found. Their sources are
    /// sources["measured.*"]. The spec sheet's peaks above stay the lesson's.
    std::array<double, kAllFormats.size()> measuredTflops{kUnset, kUnset, kUnset, kUnset, kUnset,
                                                          kUnset, kUnset, kUnset, kUnset};
    double measuredBandwidthGbPerSecond = kUnset;
    double measuredAllReduceBusGbPerSecond = kUnset;
    std::map<std::string, std::string> sources;
    std::map<std::string, std::string> notes;

    double peak(NumericFormat format) const { return peakTflops[static_cast<std::size_t>(format)]; }
    double measuredPeak(NumericFormat format) const
    {
        return measuredTflops[static_cast<std::size_t>(format)];
    }
    double capacityGb() const { return isSet(usableMemoryGb) ? usableMemoryGb : memoryGb; }
};

enum class RecomputeMode { None, Selective, Full };

struct ServingConfig
{
    NumericFormat weightFormat = NumericFormat::Bf16;
    NumericFormat kvFormat = NumericFormat::Bf16;
    std::optional<NumericFormat> computeFormat; ///< nullopt: bf16, then fp16, then fp32
    QuantLayout quant;
    bool keepEmbeddings16Bit = false;
    /// A weight part's own format (the checkpoint's: weightparts.h); unset parts take
    /// weightFormat, the embeddings 16 bits where keepEmbeddings16Bit says so.
    std::array<std::optional<NumericFormat>, kWeightParts.size()> partFormats{};
    double concurrentSequences = 32;
    double batch = 8;
    double contextTokens = 4096;
    double promptTokens = 4096;
    double overheadGb = 2.5;
    std::map<std::string, double> overheadParts; ///< labels only; sums to overheadGb
    double fragmentationFraction = 0.0;
    double admissionMargin = 0.10;
    double bandwidthEfficiency = 1.0;
    double computeEfficiency = 1.0;
    /// Fixed time per forward pass (kernel launches, scheduling, sampling): 0 in the lesson's toy.
    double stepOverheadSeconds = 0.0;
    /// Count causal attention's FLOP (QK^T and AV) in prefill and decode: 0 = the toy's
    /// weights-only FLOP, 1 = counted. A number so it sits in the parameter table.
    double attentionFlops = 0;
    /// Count the write of each decoded token's K and V in the step's bytes: 0 = the toy.
    double kvWrite = 0;
    /// Time each layer's small kernels (norms, rotary, activation, residual add) beside the
    /// roofs: 0 = the toy (none), 1 = timed (issue #43).
    double smallKernels = 0;
    double tensorParallel = 1;
    double pipelineParallel = 1; ///< stages, each on its own TP group (usually across nodes)
    double ttftTargetSeconds = 1.5;
    double pacingTargetTokensPerSecond = 10;
    /// The fleet runs at least this many replicas (unset: what the traffic and the availability
    /// minimum need). A decision writes the fleet it sized when the load at the peak needed more
    /// replicas than the throughput alone (core/model/fleet.h, issue #40).
    double replicas = kUnset;
};

struct TrainingConfig
{
    std::string recipe = "mixed-bf16-adam"; ///< empty when the components were given inline
    double weightsBytes = 2;
    double gradsBytes = 2;
    double masterBytes = 4;
    double optimizerBytes = 8;
    /// Unset: the training plan searches it (0-3) and the one-device memory check takes 0.
    double zeroStage = kUnset;
    double dpDegree = 1;
    /// Unset: the training plan searches it (1-8) and the memory check takes 1.
    double microBatch = kUnset;
    double sequenceLength = 4096;
    RecomputeMode recompute = RecomputeMode::None;
    /// False: the training plan searches the recomputation; the memory check takes `recompute`.
    bool recomputeStated = false;

    // The training plan (core/train, issue #45). A degree left unset is searched; the count
    // unset is the deadline's or the budget's, else the stated degrees' product.
    double tokens = kUnset; ///< the run's token budget; unset: 20 per parameter (Chinchilla)
    double devices = kUnset;
    double tensorParallel = kUnset;
    double pipelineParallel = kUnset;
    double dataParallel = kUnset;
    double contextParallel = kUnset;
    double expertParallel = kUnset;
    double globalBatch = kUnset; ///< sequences per optimiser step; unset: about 4 M tokens
    NumericFormat format = NumericFormat::Bf16; ///< the matmuls' format: bf16 or fp8
    double deadlineDays = kUnset;
    double budgetUsd = kUnset;
    double networkGbPerSecond = 50;   ///< per device, between nodes (one 400 Gb/s NIC each)
    double deviceMtbfHours = 50677;   ///< mean device-hours between interruptions, per device
    double checkpointGbPerSecond = 1; ///< each device's write to storage, in parallel
    double storageGbPerSecond = 2000; ///< what the storage takes from all writers together
    double restartSeconds = 600;      ///< from a failure to training again, reload included
    /// 1: FlashAttention-class kernels (no score matrix in memory); 0: the score matrix written
    /// and read through memory, as Megatron-LM before 2022 (what published runs of then used)
    double fusedAttention = 1;

    double bytesPerParameter() const
    {
        return weightsBytes + gradsBytes + masterBytes + optimizerBytes;
    }
    /** The ZeRO stage and micro-batch the memory check uses: the stated ones, else 0 and 1. */
    double zeroStageOrNone() const { return zeroStage == zeroStage ? zeroStage : 0.0; }
    double microBatchOrOne() const { return microBatch == microBatch ? microBatch : 1.0; }
};

struct CostConfig
{
    double pricePerHourUsd = kUnset; ///< follows the device (scenarioedits.h); unset: none
    double utilisation = 0.70;
    double sustainedTokensPerSecond = kUnset; ///< unset: the decode estimate x throttle
    double throttleFactor = 1.0;
    double apiUsdPerMillionInput = kUnset;
    double apiUsdPerMillionOutput = kUnset;
};

struct TrafficConfig
{
    double requestsPerDay = kUnset;
    double peakRequestsPerSecond = kUnset;
    double growthPerMonth = 0; ///< compound growth of the requests (0.05: 5 % a month)
    double horizonMonths = 24; ///< how far the growth plan looks
};

/** The ranges a sensitivity analysis varies each input over (outlook.h): factors on the
 *  scenario's value, low and high. An unset efficiency range comes from the estimate: the
 *  profile's worst fit error, or the typical profile's efficiency below the speed of light. */
struct SensitivityConfig
{
    double efficiencyLow = kUnset;
    double efficiencyHigh = kUnset;
    double trafficLow = 0.5;
    double trafficHigh = 2.0;
    double contextLow = 0.5;
    double contextHigh = 2.0;
    double concurrencyLow = 0.5;
    double concurrencyHigh = 2.0;
    double priceLow = 0.7;
    double priceHigh = 1.3;
    double growthLow = 0;    ///< growth per month at the low end
    double growthHigh = 0.1; ///< growth per month at the high end
};

/** A request stream and the engine serving it, for the load simulation (loadsim.h, issue #26).
 *  Unset numbers follow the scenario: the rate its peak traffic, the prompt its prompt, the
 *  output its context - prompt, the sequences its concurrent sequences. */
struct LoadConfig
{
    bool present = false;             ///< the file (or an edit) gave a load section
    std::string arrivals = "poisson"; ///< poisson | gamma | trace
    double ratePerSecond = kUnset;
    double burstiness = 1; ///< gamma: coefficient of variation of the gaps
    std::string traceFile; ///< arrivals "trace": CSV, relative to the scenario file
    std::string promptDistribution = "fixed"; ///< fixed | uniform | lognormal
    double promptMean = kUnset;
    double promptSpread = 0; ///< uniform: +- this fraction of the mean; lognormal: CV
    std::string outputDistribution = "fixed";
    double outputMean = kUnset;
    double outputSpread = 0;
    double requests = 2000;
    double durationSeconds = kUnset; ///< set: the arrivals of this long a span (at most 1e6)
    double seed = 1;
    double maxSequences = kUnset;
    double tokenBudget = 8192;
    double chunkedPrefill = 1; ///< 1: prompt chunks mixed into decode steps; 0: prefill first
    double blockTokens = 16;
    double replicas = 1;
    std::string router = "round_robin"; ///< round_robin | least_outstanding
};

/** What the serving engine does beyond plain continuous batching (techniques.h, issue #27):
 *  speculative decoding, prefix caching, prefill and decode on separate pools. Each is off at
 *  its default (0 proposals, 0 prefix tokens, not disaggregated). */
struct EngineConfig
{
    bool present = false; ///< the file (or an edit) gave an engine section
    // speculative decoding
    double speculativeTokens = 0;    ///< K tokens proposed per verify step; 0: off
    double acceptanceRate = 0.7;     ///< a: chance each proposed token is accepted
    std::string draftKind = "model"; ///< model (a smaller model preset) | heads (MTP, Medusa)
    std::string draftModel;          ///< kind model: a model preset id
    double draftParameters = kUnset; ///< kind heads: the extra heads' or layers' parameters
    // prefix caching
    double prefixTokens = 0; ///< prompt tokens shared with earlier requests; 0: off
    double prefixHitRate = 0.5;
    double cachedPrefixes = 1; ///< distinct prefixes kept resident
    // disaggregated prefill and decode
    double disaggregated = 0;  ///< 1: prefill and decode on separate pools of replicas
    std::string prefillDevice; ///< device preset id of the prefill pool; empty: the scenario's
    double prefillReplicas = 1;
    double decodeReplicas = 1;
    double kvLinkGbPerSecond = 50; ///< GB/s per direction between the pools (400 Gb/s)
};

enum class LatencyModel { PerCollective, PerHop };

struct InterconnectConfig
{
    double messageBytes = kUnset; ///< unset: one full gradient of the model (data-parallel sync)
    double devices = 8;
    double devicesPerNode = 8;
    double intraLinkGbPerSecond = 100;
    double interLinkGbPerSecond = 12.5;
    double latencySeconds = 10e-6;
    double collectivesPerStep = 1;
    LatencyModel latencyModel = LatencyModel::PerCollective;
};

struct PowerConfig
{
    double devicesPerNode = 8;
    double deviceW = 500;
    double hostW = 1000;
    double rackW = 40000;
    double idleFraction = 0.3;
};

enum class Regime { Online, Training, Edge };

struct WizardConfig
{
    Regime regime = Regime::Online;
    /// The device presets checked, as listed (the file's `candidates`, the wizard's ticks).
    /// None listed: core::candidateIds chooses them from the model and the regime.
    std::optional<std::vector<std::string>> candidates;
    /// The weight formats tried: the 16-bit baseline, the 8-bit and the 4-bit ones (FP8, INT8,
    /// INT4 with group scales, NVFP4, MXFP4); each device's kernels decide which run natively.
    std::vector<NumericFormat> formats = {NumericFormat::Bf16,  NumericFormat::Fp8,
                                          NumericFormat::Int8,  NumericFormat::Int4,
                                          NumericFormat::Nvfp4, NumericFormat::Mxfp4};
    double minReplicas = 2;
    /// The largest tensor-parallel group and pipeline split the checks try per replica (each
    /// also limited by the device's scale-up domain and the model's heads and layers).
    double maxTensorParallel = 8;
    double maxPipelineParallel = 4;
    bool dataOnPremises = false;
    /// Price per device-hour by candidate id, overriding the preset's (a negotiated rate).
    std::map<std::string, double> prices;
    /// Devices that are no preset (a quote, a future part), checked beside the candidates.
    std::vector<DeviceSpec> customDevices;
};

/** Where an input's value came from, for the "show your work" trail. */
enum class InputOrigin { File, CommandLine, App };

struct Scenario
{
    std::string name;
    ModelSpec model;
    DeviceSpec device;
    ServingConfig serving;
    TrainingConfig training;
    CostConfig cost;
    TrafficConfig traffic;
    InterconnectConfig interconnect;
    PowerConfig power;
    WizardConfig wizard;
    SensitivityConfig sensitivity;
    LoadConfig load;
    EngineConfig engine;
    /// Speed of light (the lesson's model), typical or calibrated efficiencies (estimate.h).
    CalibrationConfig calibration;

    /// Dotted paths ("serving.batch") the file, the command line or an edit in the app set;
    /// everything else is a preset's value, follows the device, or is the lesson's default.
    std::map<std::string, InputOrigin> givenInputs;
    /// The JSON document as read (compact text), so a save keeps keys this version does not know.
    std::string document;
};

} // namespace core
