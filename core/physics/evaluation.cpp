// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/physics/evaluation.h"

#include "core/model/architecture.h"
#include "core/model/calc.h"
#include "core/model/fleet.h"
#include "core/model/scenario.h"
#include "core/model/units.h"
#include "core/model/weightparts.h"
#include "core/physics/estimateterms.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace core {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInfinity = std::numeric_limits<double>::infinity();

using Q = Quantity;
using F = FigureId;

// clang-format off
constexpr std::array<FigureInfo, kFigureCount> kFigureTable = {{
    {F::WeightsBytes, "memory.weights_bytes", Q::Bytes, "Weights"},
    {F::BytesPerParameter, "memory.bytes_per_parameter", Q::Bytes, "Bytes per parameter"},
    {F::KvBytesPerToken, "memory.kv_bytes_per_token", Q::Bytes, "KV cache per token"},
    {F::KvBytesPerSequence, "memory.kv_bytes_per_sequence", Q::Bytes, "KV cache per sequence"},
    {F::StateBytesPerSequence, "memory.state_bytes_per_sequence", Q::Bytes, "Fixed state per sequence"},
    {F::StateBytesTotal, "memory.state_bytes_total", Q::Bytes, "Fixed state, resident sequences"},
    {F::ResidentSequences, "memory.resident_sequences", Q::Count, "Resident sequences"},
    {F::KvBytesTotal, "memory.kv_bytes_total", Q::Bytes, "KV cache"},
    {F::FragmentationBytes, "memory.fragmentation_bytes", Q::Bytes, "Fragmentation"},
    {F::OverheadBytes, "memory.overhead_bytes", Q::Bytes, "Runtime overhead"},
    {F::ServingBytesTotal, "memory.serving_bytes_total", Q::Bytes, "Serving memory"},
    {F::CapacityBytes, "memory.capacity_bytes", Q::Bytes, "Device memory"},
    {F::HeadroomBytes, "memory.headroom_bytes", Q::Bytes, "Headroom"},
    {F::Fits, "memory.fits", Q::Boolean, "Fits"},
    {F::KvBudgetBytes, "memory.kv_budget_bytes", Q::Bytes, "Free for KV cache"},
    {F::MaxConcurrentSequences, "memory.max_concurrent_sequences", Q::Count, "Maximum sequences"},
    {F::AdmissionLimit, "memory.admission_limit", Q::Count, "Admission limit"},
    {F::MaxContextTokens, "memory.max_context_tokens", Q::Tokens, "Maximum context"},
    {F::Devices, "memory.devices", Q::Count, "Devices"},

    {F::TrainingBytesPerParameter, "training.bytes_per_parameter", Q::Bytes, "Training bytes per parameter"},
    {F::TrainingStateBytes, "training.state_bytes", Q::Bytes, "Training state"},
    {F::TrainingStateBytesPerDevice, "training.state_bytes_per_device", Q::Bytes, "Training state per device"},
    {F::TrainingWeightsBytesPerDevice, "training.weights_bytes_per_device", Q::Bytes, "Working weights"},
    {F::TrainingGradsBytesPerDevice, "training.grads_bytes_per_device", Q::Bytes, "Gradients"},
    {F::TrainingMasterBytesPerDevice, "training.master_bytes_per_device", Q::Bytes, "FP32 master copy"},
    {F::TrainingOptimizerBytesPerDevice, "training.optimizer_bytes_per_device", Q::Bytes, "Optimiser moments"},
    {F::TrainingActivationBytes, "training.activation_bytes", Q::Bytes, "Activations"},
    {F::TrainingTotalBytesPerDevice, "training.total_bytes_per_device", Q::Bytes, "Training memory per device"},
    {F::TrainingFits, "training.fits", Q::Boolean, "Training fits"},

    {F::PeakFlops, "roofline.peak_flops_per_second", Q::FlopsPerSecond, "Peak arithmetic"},
    {F::Bandwidth, "roofline.bandwidth_bytes_per_second", Q::BytesPerSecond, "Memory bandwidth"},
    {F::Ridge, "roofline.ridge_flops_per_byte", Q::FlopsPerByte, "Ridge point"},
    {F::EstimateBandwidthEfficiency, "estimate.bandwidth_efficiency", Q::Ratio, "Bandwidth efficiency"},
    {F::EstimateComputeEfficiency, "estimate.compute_efficiency", Q::Ratio, "Compute efficiency"},
    {F::EstimateStepOverheadSeconds, "estimate.step_overhead_seconds", Q::Seconds, "Step overhead"},

    {F::DecodeBatch, "decode.batch", Q::Count, "Batch"},
    {F::DecodeBytesPerStep, "decode.bytes_per_step", Q::Bytes, "Bytes per step"},
    {F::DecodeWeightBytesPerStep, "decode.weight_bytes_per_step", Q::Bytes, "Weight bytes per step"},
    {F::DecodeKvBytesPerStep, "decode.kv_bytes_per_step", Q::Bytes, "KV bytes per step"},
    {F::DecodeFlopsPerStep, "decode.flops_per_step", Q::Flops, "FLOP per step"},
    {F::DecodeAttentionFlopsPerStep, "decode.attention_flops_per_step", Q::Flops, "Attention FLOP per step"},
    {F::DecodeIntensity, "decode.intensity_flops_per_byte", Q::FlopsPerByte, "Arithmetic intensity"},
    {F::DecodeIntensityLimit, "decode.intensity_limit_flops_per_byte", Q::FlopsPerByte, "Intensity limit (infinite batch)"},
    {F::DecodeMemorySeconds, "decode.memory_seconds", Q::Seconds, "Memory time"},
    {F::DecodeComputeSeconds, "decode.compute_seconds", Q::Seconds, "Arithmetic time"},
    {F::DecodeCommunicationSeconds, "decode.communication_seconds", Q::Seconds, "Communication time"},
    {F::DecodeSmallKernelSeconds, "decode.small_kernel_seconds", Q::Seconds, "Small kernels"},
    {F::DecodeStepSeconds, "decode.step_seconds", Q::Seconds, "Step time"},
    {F::DecodeTokensPerSecond, "decode.tokens_per_second", Q::TokensPerSecond, "Tokens/s total"},
    {F::DecodeTokensPerSecondPerSequence, "decode.tokens_per_second_per_sequence", Q::TokensPerSecond, "Tokens/s per sequence"},
    {F::DecodeAttainableFlops, "decode.attainable_flops_per_second", Q::FlopsPerSecond, "Attainable FLOP/s"},
    {F::DecodeFractionOfPeak, "decode.fraction_of_peak", Q::Ratio, "Fraction of peak arithmetic"},
    {F::DecodeRidgeDistance, "decode.ridge_distance", Q::Ratio, "Ridge / intensity"},
    {F::DecodeWeightsOnlySeconds, "decode.weights_only_seconds", Q::Seconds, "Weights-only step (batch 1)"},
    {F::DecodeWeightsOnlyTokensPerSecond, "decode.weights_only_tokens_per_second", Q::TokensPerSecond, "Weights-only ceiling"},
    {F::DecodeMemoryToComputeRatio, "decode.memory_to_compute_ratio", Q::Ratio, "Memory time / arithmetic time"},

    {F::PrefillTokens, "prefill.tokens", Q::Tokens, "Prompt tokens"},
    {F::PrefillFlops, "prefill.flops", Q::Flops, "Prefill FLOP"},
    {F::PrefillAttentionFlops, "prefill.attention_flops", Q::Flops, "Prefill attention FLOP"},
    {F::PrefillBytes, "prefill.bytes", Q::Bytes, "Prefill bytes"},
    {F::PrefillIntensity, "prefill.intensity_flops_per_byte", Q::FlopsPerByte, "Prefill intensity"},
    {F::PrefillSeconds, "prefill.seconds", Q::Seconds, "Prefill time"},
    {F::PrefillSmallKernelSeconds, "prefill.small_kernel_seconds", Q::Seconds, "Prefill small kernels"},
    {F::PrefillAttainableFlops, "prefill.attainable_flops_per_second", Q::FlopsPerSecond, "Prefill attainable FLOP/s"},
    {F::PrefillFirstDecodeSeconds, "prefill.first_decode_step_seconds", Q::Seconds, "First token's decode step"},
    {F::PrefillTtftSeconds, "prefill.ttft_seconds", Q::Seconds, "Time to first token (floor)"},
    {F::PrefillBurstSeconds, "prefill.burst_seconds", Q::Seconds, "Burst of prefills"},

    {F::CostPricePerHour, "cost.price_per_hour_usd", Q::Usd, "Price per hour"},
    {F::CostUtilisation, "cost.utilisation", Q::Ratio, "Utilisation"},
    {F::CostSustainedTokensPerSecond, "cost.sustained_tokens_per_second", Q::TokensPerSecond, "Sustained tokens/s"},
    {F::CostTokensPerHour, "cost.tokens_per_hour", Q::Tokens, "Tokens per busy hour"},
    {F::CostUsdPerMillionTokens, "cost.usd_per_million_tokens", Q::UsdPerMillionTokens, "Cost per million tokens"},
    {F::CostJoulesPerToken, "cost.joules_per_token", Q::Joules, "Energy per token"},
    {F::CostGeneratedTokensPerRequest, "cost.generated_tokens_per_request", Q::Tokens, "Generated tokens per request"},
    {F::CostSelfHostedUsdPerRequest, "cost.self_hosted_usd_per_request", Q::Usd, "Self-hosted cost per request (100 % busy)"},
    {F::CostApiUsdPerRequest, "cost.api_usd_per_request", Q::Usd, "API cost per request"},
    {F::CostBreakEvenUtilisation, "cost.break_even_utilisation", Q::Ratio, "Break-even utilisation"},
    {F::CostReplicas, "cost.replicas", Q::Count, "Replicas"},
    {F::CostDevices, "cost.devices", Q::Count, "Devices in the fleet"},
    {F::CostFleetUsdPerHour, "cost.fleet_usd_per_hour", Q::Usd, "Fleet cost per hour"},
    {F::CostFleetUsdPerMonth, "cost.fleet_usd_per_month", Q::Usd, "Fleet cost per month"},
    {F::CostFleetUsdPerYear, "cost.fleet_usd_per_year", Q::Usd, "Fleet cost per year"},
    {F::CostTokensPerMonth, "cost.tokens_per_month", Q::Tokens, "Tokens served per month"},
    {F::CostTokensFromTraffic, "cost.tokens_from_traffic", Q::Boolean, "Tokens from the traffic"},
    {F::CostApiUsdPerMonth, "cost.api_usd_per_month", Q::Usd, "Hosted API for the same tokens"},
    {F::CostFleetWatts, "cost.fleet_watts", Q::Watts, "Fleet power"},

    {F::TrafficAverageTokensPerSecond, "traffic.average_tokens_per_second", Q::TokensPerSecond, "Average generated tokens/s"},
    {F::TrafficUtilisation, "traffic.utilisation", Q::Ratio, "Utilisation from traffic"},
    {F::TrafficReplicasForPeak, "traffic.replicas_for_peak", Q::Count, "Replicas for peak"},
    {F::TrafficMonthlyCostUsd, "traffic.monthly_cost_usd", Q::Usd, "Monthly cost"},

    {F::InterconnectDevices, "interconnect.devices", Q::Count, "Devices in the ring"},
    {F::InterconnectMessageBytes, "interconnect.message_bytes", Q::Bytes, "Message"},
    {F::InterconnectTrafficBytesPerDevice, "interconnect.traffic_bytes_per_device", Q::Bytes, "Ring traffic per device"},
    {F::InterconnectCollectivesPerStep, "interconnect.collectives_per_step", Q::Count, "Collectives per step"},
    {F::InterconnectBytesPerStep, "interconnect.bytes_per_step", Q::Bytes, "Bytes per step"},
    {F::InterconnectLinkBandwidth, "interconnect.link_bytes_per_second", Q::BytesPerSecond, "Link bandwidth used"},
    {F::InterconnectBandwidthSeconds, "interconnect.bandwidth_seconds", Q::Seconds, "Bandwidth time"},
    {F::InterconnectLatencySeconds, "interconnect.latency_seconds", Q::Seconds, "Latency time"},
    {F::InterconnectSeconds, "interconnect.seconds", Q::Seconds, "Communication per step"},
    {F::InterconnectIntraNodeSeconds, "interconnect.intra_node_seconds", Q::Seconds, "Bandwidth time inside a node"},
    {F::InterconnectInterNodeSeconds, "interconnect.inter_node_seconds", Q::Seconds, "Bandwidth time between nodes"},

    {F::PowerNodeWatts, "power.node_watts", Q::Watts, "Node power"},
    {F::PowerNodesPerRack, "power.nodes_per_rack", Q::Count, "Nodes per rack"},
    {F::PowerDevicesPerRack, "power.devices_per_rack", Q::Count, "Devices per rack"},
}};
// clang-format on

constexpr bool tableMatchesEnum()
{
    for (std::size_t i = 0; i < kFigureTable.size(); ++i) {
        if (static_cast<std::size_t>(kFigureTable[i].id) != i)
            return false;
    }
    return true;
}
static_assert(tableMatchesEnum(), "kFigureTable must list FigureId in order");

/** A time, price, energy or count: a figure a plan holds, never 10^15 or more (bytes, FLOP and
 *  tokens may be that large and real). */
constexpr bool plannable(Quantity quantity)
{
    return quantity == Q::Seconds || quantity == Q::Usd || quantity == Q::UsdPerMillionTokens ||
           quantity == Q::Joules || quantity == Q::Count;
}

// Every figure not applicable: what an evaluation starts from (one copy, not a fill)
constexpr std::array<double, kFigureCount> kNoFigures = [] {
    std::array<double, kFigureCount> out{};
    out.fill(kNaN);
    return out;
}();

// Each figure's largest magnitude a user can act on: 10^15 for what a plan holds, else any
// finite value. One comparison per figure on every evaluation (NaN compares false: it stays).
constexpr std::array<double, kFigureCount> kLargestFigure = [] {
    std::array<double, kFigureCount> out{};
    for (std::size_t i = 0; i < kFigureTable.size(); ++i)
        out[i] = plannable(kFigureTable[i].quantity) ? kBeyondAnyRealFigure : kInfinity;
    return out;
}();

/** Whether any figure is beyond what a user can act on (infinity >= infinity; NaN is not). */
bool anyBeyond(const std::array<double, kFigureCount> &values)
{
    // four figures a pass, each into its own flag: no branch, no chain between them
    static_assert(kFigureCount % 4 == 0);
    bool a = false;
    bool b = false;
    bool c = false;
    bool d = false;
    for (std::size_t i = 0; i < kFigureCount; i += 4) {
        a |= std::abs(values[i]) >= kLargestFigure[i];
        b |= std::abs(values[i + 1]) >= kLargestFigure[i + 1];
        c |= std::abs(values[i + 2]) >= kLargestFigure[i + 2];
        d |= std::abs(values[i + 3]) >= kLargestFigure[i + 3];
    }
    return a || b || c || d;
}

void warn(Evaluation &e, EvalWarning warning)
{
    e.warnings |= static_cast<std::uint32_t>(warning);
}

bool listed(const std::optional<std::vector<NumericFormat>> &formats, NumericFormat format)
{
    return formats && std::find(formats->begin(), formats->end(), format) != formats->end();
}

} // namespace

namespace detail {
/** Everything the decode step needs that does not depend on the batch size. */
struct StepBase
{
    double tensorParallel = 1;
    double pipelineParallel = 1;
    /// Devices of one stage one sequence's KV is spread over: the TP degree, fewer when there
    /// are fewer KV heads than devices (each holds a whole, replicated head), 1 for an MLA latent.
    double kvShards = 1;
    double parameters = 0;
    double active = 0;
    double effectiveBytesPerParameter = 0;
    double sharedBytesPerParameter = 0; ///< MoE: everything but the routed experts
    double expertBytesPerParameter = 0; ///< MoE: the routed experts
    double weightsBytes = 0;            ///< per tensor-parallel rank, all pipeline stages together
    double kvPerToken = 0;              ///< every layer's KV per token, before windows cap it
    double kvPerTokenPerRank = 0;       ///< the same on one tensor-parallel rank
    double kvPerSequence = 0;           ///< attention KV at the context + fixed state
    double kvReadPerSequence = 0;       ///< what a decode step reads of it (DSA: top-k)
    double kvPerSequencePerRank = 0;
    double kvReadPerSequencePerRank = 0; ///< what a decode step reads of it (DSA: top-k)
    double statePerSequence = 0;
    double statePerSequencePerRank = 0;
    double peak = 0;      ///< FLOP/s of the compute format
    double bandwidth = 0; ///< bytes/s
    double bandwidthEfficiency = 1;
    double computeEfficiency = 1;
    double stepOverhead = 0;          ///< seconds per forward pass
    double kvBandwidthEfficiency = 1; ///< a decode step's KV traffic (attention kernels)
    double secondsPerSequence = 0;    ///< per generated token per decode step
    bool kvWrite = false;
    bool attentionFlops = false;
    /// each layer's norms, rotary, activation and residual adds (none: not timed); a fixed
    /// array, since the slider evaluates on every step: runs alike are merged, and a model with
    /// more distinct group shapes than it holds merges the rest into its kind's last entry
    std::array<SmallKernelRun, 16> smallKernels{};
    std::size_t smallKernelCount = 0;
    double measuredBandwidth = 0;      ///< bytes/s: what the small kernels' shares are of
    double attentionFlopsPerToken = 0; ///< whole model, one token at the scenario's context
    double prefillAttentionFlops = 0;  ///< whole model, the scenario's prompt
    /// Embedding-table bytes per device a step need not read: the rows no token looks up (a
    /// separate input embedding is gathered, not streamed); bytes per row alongside.
    double embeddingBytes = 0;
    double embeddingRowBytes = 0;
    double activationBytes = 2; ///< bytes per activation element in collectives
    NumericFormat computeFormat = NumericFormat::Bf16;
    bool computeFallback = false;
    // MoE
    bool moe = false;
    double experts = 0;
    double expertsPerToken = 0;
    double perExpertParameters = 0;
    double sharedParameters = 0;
    // tensor parallelism
    double collectivesPerStep = 0;
    double hiddenSize = 0;
    double linkBandwidth = 0;
    double linkLatency = 0;
    // pipeline parallelism: activations handed from stage to stage over the inter-node link
    double stageHops = 0;
    double stageLinkBandwidth = 0;
    double stageLinkLatency = 0;
    // memory budget
    double capacity = 0;
    double overhead = 0;
    double fragmentation = 0;
    double concurrent = 0;
};
} // namespace detail

namespace {

using Base = detail::StepBase;

NumericFormat chooseComputeFormat(const Scenario &s, bool &fallback)
{
    fallback = false;
    if (s.serving.computeFormat)
        return *s.serving.computeFormat;
    // FP8 and FP4 weights run on the device's own FP8/FP4 units where it has them (W8A8, W4A4):
    // the compute roof is that format's peak. Integer weights are dequantised to 16 bit.
    const NumericFormat weights = s.serving.weightFormat;
    if ((weights == NumericFormat::Fp8 || weights == NumericFormat::Nvfp4 ||
         weights == NumericFormat::Mxfp4) &&
        isSet(s.device.peak(weights)) && listed(s.device.nativeFormats, weights))
        return weights;
    for (NumericFormat f : {NumericFormat::Bf16, NumericFormat::Fp16, NumericFormat::Fp32}) {
        if (isSet(s.device.peak(f))) {
            fallback = f != NumericFormat::Bf16;
            return f;
        }
    }
    // The reader guarantees at least one peak; take the first one there is.
    for (NumericFormat f : kAllFormats) {
        if (isSet(s.device.peak(f))) {
            fallback = true;
            return f;
        }
    }
    return NumericFormat::Bf16;
}

/** One more small-kernel run in the base's fixed array: merged with a run of its kind and bytes,
 *  else a new entry, else (the array full) folded into its kind's last entry at the runs'
 *  weighted bytes. */
void addSmallKernelRun(Base &b, const SmallKernelRun &run)
{
    SmallKernelRun *sameKind = nullptr;
    for (std::size_t i = 0; i < b.smallKernelCount; ++i) {
        SmallKernelRun &have = b.smallKernels[i];
        if (have.kind != run.kind)
            continue;
        if (have.bytesPerToken == run.bytesPerToken) {
            have.runs += run.runs;
            return;
        }
        sameKind = &have;
    }
    if (b.smallKernelCount < b.smallKernels.size()) {
        b.smallKernels[b.smallKernelCount++] = run;
    } else if (sameKind) {
        const double runs = sameKind->runs + run.runs;
        sameKind->bytesPerToken =
            (sameKind->bytesPerToken * sameKind->runs + run.bytesPerToken * run.runs) / runs;
        sameKind->runs = runs;
    }
}

Base makeBase(const Scenario &s, Evaluation &e)
{
    const ModelSpec &m = s.model;
    const ServingConfig &sv = s.serving;
    Base b;
    b.tensorParallel = std::max(1.0, sv.tensorParallel);
    b.pipelineParallel = std::max(1.0, sv.pipelineParallel);
    b.parameters = m.parameters;
    b.active = m.active();

    // each weight part in its own format where the checkpoint (or keep_embeddings_16bit) says so
    if (sv.keepEmbeddings16Bit && nominalBytes(sv.weightFormat) < 2.0 &&
        !sv.partFormats[index(WeightPart::Embeddings)] &&
        !(isSet(m.vocabSize) && isSet(m.hiddenSize)))
        warn(e, EvalWarning::EmbeddingsNeedArchitecture);
    if (sv.quant.groupSize > 0 && !anyPartTakesGroupScales(sv))
        warn(e, EvalWarning::QuantGroupIgnored);
    if (anyPartFormatUnsized(m, sv))
        warn(e, EvalWarning::PartFormatNotApplied);
    const double totalWeightBytes = weightBytesOf(m, sv);
    b.effectiveBytesPerParameter = totalWeightBytes / m.parameters;
    b.weightsBytes = totalWeightBytes / b.tensorParallel;

    // Each layer group's cache (architecture.h): K and V per KV head, one latent for MLA, at
    // most the window on windowed layers, a fixed state on linear-attention layers.
    const SequenceCache cache =
        sequenceCache(m, nominalBytes(sv.kvFormat), sv.contextTokens, b.tensorParallel);
    b.kvPerToken = cache.perTokenUncapped;
    b.kvPerTokenPerRank = cache.perTokenUncappedPerDevice;
    b.kvPerSequence = cache.bytes;
    b.kvReadPerSequence = cache.readBytes;
    b.statePerSequence = cache.stateBytes;
    b.statePerSequencePerRank = cache.stateBytesPerDevice;
    b.kvPerSequencePerRank = cache.bytesPerDevice;
    b.kvReadPerSequencePerRank = cache.readBytesPerDevice;
    b.kvShards = cache.bytesPerDevice > 0.0 ? cache.bytes / cache.bytesPerDevice : 1.0;
    forEachLayerGroup(m, [&](const LayerGroup &group) {
        if (groupKvBytesPerToken(group, 1.0) > 0.0 && group.attention != AttentionKind::Latent &&
            groupKvShards(group, b.tensorParallel) < b.tensorParallel)
            warn(e, EvalWarning::KvHeadsReplicated);
    });

    b.computeFormat = chooseComputeFormat(s, b.computeFallback);
    b.peak = s.device.peak(b.computeFormat) * kTera;
    b.bandwidth = s.device.bandwidthGbPerSecond * kGB;
    const EstimateTerms terms = estimateTerms(s);
    if (terms.missingProfileEntry)
        warn(e, EvalWarning::NoCalibrationForDevice);
    e.estimateMode = terms.mode;
    b.bandwidthEfficiency = terms.bandwidthEfficiency;
    b.computeEfficiency = terms.computeEfficiency;
    b.stepOverhead = terms.stepOverheadSeconds;
    b.kvBandwidthEfficiency = terms.kvBandwidthEfficiency;
    b.secondsPerSequence = terms.secondsPerSequence;
    b.kvWrite = terms.kvWrite;
    b.attentionFlops = terms.attentionFlops;
    if (terms.smallKernels && !isSet(m.hiddenSize))
        warn(e, EvalWarning::SmallKernelsNeedArchitecture);
    if (terms.smallKernels) {
        forEachLayerGroup(m, [&](const LayerGroup &group) {
            // a named local: a range-for over a temporary's view would outlive the temporary
            const GroupSmallKernels kernels = groupSmallKernels(m, group, b.tensorParallel);
            for (const SmallKernelRun &run : kernels.view())
                addSmallKernelRun(b, run);
        });
        b.measuredBandwidth = b.bandwidth * terms.bandwidthCeilingShare;
    }
    if (b.attentionFlops) {
        b.attentionFlopsPerToken = attentionFlopsPerToken(m, sv.contextTokens);
        b.prefillAttentionFlops = prefillAttentionFlops(m, sv.promptTokens);
        if (std::isnan(b.attentionFlopsPerToken) || std::isnan(b.prefillAttentionFlops)) {
            warn(e, EvalWarning::AttentionFlopsNeedArchitecture);
            b.attentionFlopsPerToken = 0.0;
            b.prefillAttentionFlops = 0.0;
        }
    }
    // A separate input embedding is a table lookup: a step reads the rows of its tokens, not the
    // table (+2 % to +7 % of decode bytes for Llama 2 7B and Llama 3 8B, issue #24). A tied
    // table is also the output head, read whole, so nothing changes there.
    if (!m.tieEmbeddings && isSet(m.vocabSize) && isSet(m.hiddenSize)) {
        const double perParameter = partBytesPerParameter(sv, WeightPart::Embeddings);
        // at most half the model: with an untied output head of the same size beside it
        const double rows = std::min(m.vocabSize, 0.5 * m.parameters / m.hiddenSize);
        b.embeddingRowBytes = m.hiddenSize * perParameter / b.tensorParallel;
        b.embeddingBytes = rows * b.embeddingRowBytes;
    }
    b.activationBytes = std::max(2.0, nominalBytes(b.computeFormat));

    if (isSet(m.experts) && isSet(m.expertsPerToken) && m.experts > m.expertsPerToken &&
        b.active < b.parameters) {
        b.moe = true;
        b.experts = m.experts;
        b.expertsPerToken = m.expertsPerToken;
        b.perExpertParameters = (b.parameters - b.active) / (m.experts - m.expertsPerToken);
        b.sharedParameters = std::max(0.0, b.parameters - m.experts * b.perExpertParameters);
        // the experts in their format, the rest in theirs (gpt-oss: MXFP4 beside BF16)
        b.expertBytesPerParameter = partsDiffer(sv) ? partBytesPerParameter(sv, WeightPart::Experts)
                                                    : b.effectiveBytesPerParameter;
        const double expertBytes = m.experts * b.perExpertParameters * b.expertBytesPerParameter;
        b.sharedBytesPerParameter =
            b.sharedParameters > 0.0
                ? std::max(0.0, totalWeightBytes - expertBytes) / b.sharedParameters
                : b.effectiveBytesPerParameter;
    }

    b.hiddenSize = isSet(m.hiddenSize) ? m.hiddenSize : 0.0;
    if (b.tensorParallel > 1.0) {
        b.collectivesPerStep = 2.0 * m.layers;
        const DeviceSpec &d = s.device;
        b.linkLatency = isSet(d.deviceLinkLatencySeconds) ? d.deviceLinkLatencySeconds
                                                          : s.interconnect.latencySeconds;
        // a profile fitted to TP runs knows what an all-reduce really costs (about 28 us on
        // A100 NVLink against the 10 us assumed, issue #24)
        if (!std::isnan(terms.collectiveLatencySeconds))
            b.linkLatency = terms.collectiveLatencySeconds;
        if (isSet(d.deviceLinkGbPerSecond)) {
            b.linkBandwidth = d.deviceLinkGbPerSecond * kGB;
            // a profile fitted on measured ceilings runs its all-reduces at the bus bandwidth
            // nccl-tests measured (A100 232 GB/s against its link's 300; an H100's NVLink
            // switch reduces in the fabric: 479 against 450)
            if (terms.measuredCeilings && isSet(d.measuredAllReduceBusGbPerSecond))
                b.linkBandwidth = d.measuredAllReduceBusGbPerSecond * kGB;
        } else if (isSet(d.hostLinkGbPerSecond)) {
            // a PCIe card without a fast link: its all-reduces go through the host interface
            b.linkBandwidth = d.hostLinkGbPerSecond * kGB;
            warn(e, EvalWarning::TensorParallelOverHostLink);
        }
        if (isSet(d.scaleUpDevices) && b.tensorParallel > d.scaleUpDevices) {
            // the group spans nodes: every all-reduce pays the slower link between them
            b.linkBandwidth = std::min(b.linkBandwidth > 0.0 ? b.linkBandwidth : kInfinity,
                                       s.interconnect.interLinkGbPerSecond * kGB);
            b.linkLatency = std::max(b.linkLatency, s.interconnect.latencySeconds);
            warn(e, EvalWarning::TensorParallelBeyondDomain);
        }
    }
    if (b.pipelineParallel > 1.0) {
        b.stageHops = b.pipelineParallel - 1.0;
        b.stageLinkBandwidth = s.interconnect.interLinkGbPerSecond * kGB;
        b.stageLinkLatency = s.interconnect.latencySeconds;
    }

    b.capacity = s.device.capacityGb() * kGB;
    b.overhead = sv.overheadGb * kGB;
    b.fragmentation = sv.fragmentationFraction;
    b.concurrent = sv.concurrentSequences;
    return b;
}

/** Weight bytes one step reads for `tokens` tokens: all of a dense model; for MoE the shared
 *  weights plus the experts those tokens are expected to touch. Per device. */
double weightBytesRead(const Base &b, double tokens)
{
    const double rowsSkipped =
        std::max(0.0, b.embeddingBytes - std::min(tokens, 1e12) * b.embeddingRowBytes);
    // the table is part of what is always read (the shared weights of an MoE): never more than
    // half of that is skipped, whatever vocabulary a file claims
    if (!b.moe)
        return b.weightsBytes - std::min(rowsSkipped, 0.5 * b.weightsBytes);
    const double distinct = expectedDistinctExperts(b.experts, b.expertsPerToken, tokens);
    const double shared = b.sharedParameters * b.sharedBytesPerParameter / b.tensorParallel;
    return shared +
           distinct * b.perExpertParameters * b.expertBytesPerParameter / b.tensorParallel -
           std::min(rowsSkipped, 0.5 * shared);
}

/** Per-device memory holds one stage's layers: the weights and KV of 1/PP of the model. */
double weightsPerDevice(const Base &b)
{
    return b.weightsBytes / b.pipelineParallel;
}
double kvPerSequencePerDevice(const Base &b)
{
    return b.kvPerSequencePerRank / b.pipelineParallel;
}

/** Time on the links per step: the tensor-parallel all-reduces (two per layer, each a ring over
 *  the group plus a fixed latency) and the pipeline's hand-offs (one activation per boundary). */
double communicationSeconds(const Base &b, double tokens)
{
    double seconds = 0.0;
    const double message = tokens * b.hiddenSize * b.activationBytes;
    if (b.tensorParallel > 1.0 && b.linkBandwidth > 0.0) {
        const double traffic = ringAllReduceTrafficPerDevice(message, b.tensorParallel);
        seconds += b.collectivesPerStep * (traffic / b.linkBandwidth + b.linkLatency);
    }
    if (b.stageHops > 0.0 && b.stageLinkBandwidth > 0.0)
        seconds += b.stageHops * (message / b.stageLinkBandwidth + b.stageLinkLatency);
    return seconds;
}

/** The one memory roof of a step: its KV traffic (decode attention reading the cache) at the
 *  attention kernels' efficiency, the rest at the bandwidth efficiency. At the speed of light both
 *  are the scenario's one efficiency: bytes / (BW x e). */
double memorySecondsOf(const Base &b, double bytes, double decodeKvBytes)
{
    const double other = std::max(0.0, bytes - decodeKvBytes);
    return other / (b.bandwidth * b.bandwidthEfficiency) +
           decodeKvBytes / (b.bandwidth * b.kvBandwidthEfficiency);
}

/** What a forward pass pays beside its roofs: the fixed overhead and, per sequence that
 *  generates a token in it, the engine's per-sequence work. */
double fixedSecondsOf(const Base &b, double decodeSequences)
{
    return b.stepOverhead + decodeSequences * b.secondsPerSequence;
}

/** Each layer's small kernels for a step of `tokens` tokens (0 unless the estimate times them). */
double smallKernelSecondsOf(const Base &b, double tokens)
{
    return b.smallKernelCount == 0 ? 0.0
                                   : smallKernelSeconds({b.smallKernels.data(), b.smallKernelCount},
                                                        tokens, b.measuredBandwidth);
}

struct Step
{
    double weightBytes = 0;
    double kvBytes = 0;
    double bytes = 0;
    double flops = 0;
    double attentionFlops = 0;
    double memorySeconds = 0;
    double computeSeconds = 0;
    double communicationSeconds = 0;
    double smallKernelSeconds = 0;
    double seconds = 0;
    Bound bound = Bound::Memory;
};

Step decodeStep(const Base &b, double batch)
{
    Step st;
    st.weightBytes = weightBytesRead(b, batch);
    // with kv_write, each sequence also writes its new token's K and V
    st.kvBytes = batch * (b.kvReadPerSequencePerRank + (b.kvWrite ? b.kvPerTokenPerRank : 0.0));
    st.bytes = st.weightBytes + st.kvBytes;
    st.attentionFlops = batch * b.attentionFlopsPerToken / b.tensorParallel;
    st.flops = 2.0 * b.active * batch / b.tensorParallel + st.attentionFlops;
    st.memorySeconds = memorySecondsOf(b, st.bytes, st.kvBytes);
    st.computeSeconds = st.flops / (b.peak * b.computeEfficiency);
    st.communicationSeconds = communicationSeconds(b, batch);
    st.smallKernelSeconds = smallKernelSecondsOf(b, batch);
    st.seconds = std::max(st.memorySeconds, st.computeSeconds) + st.communicationSeconds +
                 st.smallKernelSeconds + fixedSecondsOf(b, batch);
    st.bound = st.computeSeconds > st.memorySeconds ? Bound::Compute : Bound::Memory;
    return st;
}

double servingBytes(const Base &b, double batch)
{
    double resident = std::max(batch, b.concurrent);
    double kv = kvPerSequencePerDevice(b) * resident;
    return weightsPerDevice(b) + kv * (1.0 + b.fragmentation) + b.overhead;
}

void evaluateMemory(const Scenario &s, const Base &b, Evaluation &e)
{
    const ServingConfig &sv = s.serving;
    const double resident = std::max(sv.batch, sv.concurrentSequences);
    if (sv.batch > sv.concurrentSequences)
        warn(e, EvalWarning::BatchExceedsConcurrency);
    e[F::WeightsBytes] = weightsPerDevice(b);
    e[F::BytesPerParameter] = b.effectiveBytesPerParameter;
    e[F::KvBytesPerToken] = b.kvPerToken;
    e[F::KvBytesPerSequence] = b.kvPerSequence;
    e[F::StateBytesPerSequence] = b.statePerSequence;
    e[F::ResidentSequences] = resident;
    e[F::KvBytesTotal] = kvPerSequencePerDevice(b) * resident;
    // the fixed part of it: recurrent state that does not grow with the context (issue #44)
    e[F::StateBytesTotal] = b.statePerSequencePerRank / b.pipelineParallel * resident;
    e[F::FragmentationBytes] = e[F::KvBytesTotal] * b.fragmentation;
    e[F::OverheadBytes] = b.overhead;
    e[F::ServingBytesTotal] = servingBytes(b, sv.batch);
    e[F::CapacityBytes] = b.capacity;
    e[F::HeadroomBytes] = b.capacity - e[F::ServingBytesTotal];
    e[F::Fits] = e[F::HeadroomBytes] >= 0.0 ? 1.0 : 0.0;
    if (!e.fits())
        warn(e, EvalWarning::DoesNotFit);

    const double freeForKv = b.capacity - weightsPerDevice(b) - b.overhead;
    e[F::KvBudgetBytes] = freeForKv;
    const double kvPerSequenceCharged = kvPerSequencePerDevice(b) * (1.0 + b.fragmentation);
    e[F::MaxConcurrentSequences] = maxSequences(freeForKv, kvPerSequenceCharged);
    e[F::AdmissionLimit] = std::floor((1.0 - sv.admissionMargin) * e[F::MaxConcurrentSequences]);
    // The longest context every resident sequence can reach; a cache every layer of which a
    // window or a fixed state caps has no such limit (NaN: any context fits).
    const double longest =
        resident > 0.0
            ? longestSequenceWithin(s.model, nominalBytes(sv.kvFormat), b.tensorParallel,
                                    resident / b.pipelineParallel, 1.0 + b.fragmentation, freeForKv)
            : kNaN;
    e[F::MaxContextTokens] = std::isinf(longest) ? kNaN : longest;
    e[F::Devices] = b.tensorParallel * b.pipelineParallel;
    if (isSet(s.model.maxContext) && sv.contextTokens > s.model.maxContext)
        warn(e, EvalWarning::ContextExceedsMaxContext);

    const DeviceSpec &d = s.device;
    if (nominalBytes(sv.weightFormat) < 2.0 && (d.nativeFormats || d.weightOnlyFormats) &&
        !listed(d.nativeFormats, sv.weightFormat) && !listed(d.weightOnlyFormats, sv.weightFormat))
        warn(e, EvalWarning::NoKnownFastWeightKernel);
    if (nominalBytes(sv.kvFormat) < 2.0 && d.nativeFormats &&
        !listed(d.nativeFormats, sv.kvFormat) && !listed(d.weightOnlyFormats, sv.kvFormat))
        warn(e, EvalWarning::NoKnownFastKvKernel);
}

void evaluateTraining(const Scenario &s, const Base &b, Evaluation &e)
{
    const TrainingConfig &t = s.training;
    const double p = b.parameters;
    e[F::TrainingBytesPerParameter] = t.bytesPerParameter();
    e[F::TrainingStateBytes] = p * t.bytesPerParameter();
    // ZeRO (Rajbhandari et al. 2020, fig. 1): stage 1 shards optimiser state (the FP32 master
    // copy counts as optimiser state), stage 2 also gradients, stage 3 also weights.
    double weights = p * t.weightsBytes;
    double grads = p * t.gradsBytes;
    double master = p * t.masterBytes;
    double moments = p * t.optimizerBytes;
    const double dp = std::max(1.0, t.dpDegree);
    const double zeroStage = t.zeroStageOrNone();
    if (zeroStage >= 1) {
        master /= dp;
        moments /= dp;
    }
    if (zeroStage >= 2)
        grads /= dp;
    if (zeroStage >= 3)
        weights /= dp;
    e[F::TrainingStateBytesPerDevice] = weights + grads + master + moments;
    e[F::TrainingWeightsBytesPerDevice] = weights;
    e[F::TrainingGradsBytesPerDevice] = grads;
    e[F::TrainingMasterBytesPerDevice] = master;
    e[F::TrainingOptimizerBytesPerDevice] = moments;
    const ModelSpec &m = s.model;
    if (isSet(m.hiddenSize) && isSet(m.attentionHeads)) {
        e[F::TrainingActivationBytes] =
            m.layers * activationBytesPerLayer(t.sequenceLength, t.microBatchOrOne(), m.hiddenSize,
                                               m.attentionHeads, t.recompute);
    } else {
        warn(e, EvalWarning::ActivationsNeedArchitecture);
        e[F::TrainingActivationBytes] = kNaN;
    }
    double activations =
        e.available(F::TrainingActivationBytes) ? e[F::TrainingActivationBytes] : 0.0;
    e[F::TrainingTotalBytesPerDevice] = e[F::TrainingStateBytesPerDevice] + activations;
    e[F::TrainingFits] = e[F::TrainingTotalBytesPerDevice] <= b.capacity ? 1.0 : 0.0;
}

void evaluateDecodeAndPrefill(const Scenario &s, const Base &b, Evaluation &e)
{
    const ServingConfig &sv = s.serving;
    e.computeFormat = b.computeFormat;
    if (b.computeFallback)
        warn(e, EvalWarning::ComputeFormatFallback);
    e[F::PeakFlops] = b.peak;
    e[F::Bandwidth] = b.bandwidth;
    e[F::Ridge] = b.peak / b.bandwidth;
    e[F::EstimateBandwidthEfficiency] = b.bandwidthEfficiency;
    e[F::EstimateComputeEfficiency] = b.computeEfficiency;
    e[F::EstimateStepOverheadSeconds] = b.stepOverhead;

    const Step st = decodeStep(b, sv.batch);
    e.decodeBound = st.bound;
    e[F::DecodeBatch] = sv.batch;
    e[F::DecodeBytesPerStep] = st.bytes;
    e[F::DecodeWeightBytesPerStep] = st.weightBytes;
    e[F::DecodeKvBytesPerStep] = st.kvBytes;
    e[F::DecodeFlopsPerStep] = st.flops;
    e[F::DecodeAttentionFlopsPerStep] = st.attentionFlops;
    e[F::DecodeIntensity] = st.flops / st.bytes;
    e[F::DecodeIntensityLimit] = 2.0 * b.active / b.kvReadPerSequence;
    e[F::DecodeMemorySeconds] = st.memorySeconds;
    e[F::DecodeComputeSeconds] = st.computeSeconds;
    e[F::DecodeCommunicationSeconds] = st.communicationSeconds;
    e[F::DecodeSmallKernelSeconds] = st.smallKernelSeconds;
    e[F::DecodeStepSeconds] = st.seconds;
    e[F::DecodeTokensPerSecond] = sv.batch / st.seconds;
    e[F::DecodeTokensPerSecondPerSequence] = 1.0 / st.seconds;
    e[F::DecodeAttainableFlops] = st.flops / std::max(st.memorySeconds, st.computeSeconds);
    e[F::DecodeFractionOfPeak] = e[F::DecodeAttainableFlops] / b.peak;
    e[F::DecodeRidgeDistance] = e[F::Ridge] / e[F::DecodeIntensity];
    const double weightsOnly = weightBytesRead(b, 1.0) / (b.bandwidth * b.bandwidthEfficiency);
    e[F::DecodeWeightsOnlySeconds] = weightsOnly;
    e[F::DecodeWeightsOnlyTokensPerSecond] = 1.0 / weightsOnly;
    e[F::DecodeMemoryToComputeRatio] = st.memorySeconds / st.computeSeconds;

    // Prefill of one request: the prompt's tokens share every weight read (weights-only FLOP;
    // attention scores are left out, as the lesson's toy does, unless attention_flops is on).
    const double prompt = sv.promptTokens;
    const double prefillAttention = b.prefillAttentionFlops / b.tensorParallel;
    const double prefillFlops = 2.0 * b.active * prompt / b.tensorParallel + prefillAttention;
    const double prefillBytes =
        weightBytesRead(b, std::max(prompt, 1.0)) + prompt * b.kvPerTokenPerRank;
    const double prefillMemory = memorySecondsOf(b, prefillBytes, 0.0);
    const double prefillCompute = prefillFlops / (b.peak * b.computeEfficiency);
    e.prefillBound = prefillCompute > prefillMemory ? Bound::Compute : Bound::Memory;
    e[F::PrefillTokens] = prompt;
    e[F::PrefillFlops] = prefillFlops;
    e[F::PrefillAttentionFlops] = prefillAttention;
    e[F::PrefillBytes] = prefillBytes;
    e[F::PrefillIntensity] = prefillFlops / prefillBytes;
    e[F::PrefillSmallKernelSeconds] = smallKernelSecondsOf(b, std::max(prompt, 1.0));
    e[F::PrefillSeconds] = std::max(prefillMemory, prefillCompute) +
                           communicationSeconds(b, std::max(prompt, 1.0)) +
                           e[F::PrefillSmallKernelSeconds] + fixedSecondsOf(b, 0.0);
    e[F::PrefillAttainableFlops] = prefillFlops / std::max(prefillMemory, prefillCompute);
    // The first token of one request: its prefill and one decode step of its own (batch 1).
    // The scenario's batch made the "single request" figure grow with it (0.301 s at batch 1,
    // 0.335 s at batch 64 for lesson-default, issue #24).
    e[F::PrefillFirstDecodeSeconds] = sv.batch == 1 ? st.seconds : decodeStep(b, 1.0).seconds;
    e[F::PrefillTtftSeconds] =
        firstTokenSeconds(e[F::PrefillSeconds], e[F::PrefillFirstDecodeSeconds]);
    e[F::PrefillBurstSeconds] = sv.concurrentSequences * e[F::PrefillSeconds];
}

/**
 * The one cost model (docs/formulas.md, "Cost"): every view, check, report and the CLI read these
 * figures, and the fleet's rules are core/model/fleet.h's. A replica is TP x PP devices; each
 * request busies it for its prefill and its output at the batch's decode rate. The fleet is max(the
 * availability minimum, the replicas the average and the peak request rates need) replicas.
 * Tokens per month come from the traffic when it is given, else from utilisation x the fleet's
 * capacity (labelled as such). The cost per million tokens is the fleet's hour over the tokens an
 * hour serves, so tokens x $/M = the month.
 */
void evaluateCost(const Scenario &s, const Base &b, Evaluation &e)
{
    const CostConfig &c = s.cost;
    const double devicesPerReplica = b.tensorParallel * b.pipelineParallel;
    const double replicaPrice = c.pricePerHourUsd * devicesPerReplica; // unset: price needed
    e[F::CostPricePerHour] = replicaPrice;
    const ReplicaWork work = replicaWork(s, e[F::PrefillSeconds], e[F::DecodeTokensPerSecond]);
    const double secondsPerRequest = work.secondsPerRequest();
    const double sustained = work.tokensPerBusySecond();
    e[F::CostSustainedTokensPerSecond] = sustained;
    e[F::CostTokensPerHour] = sustained * 3600.0;

    const double minimum = minimumReplicas(s);
    double replicas = minimum;
    double utilisation = c.utilisation;
    const double generated = work.outputTokens;
    const TrafficConfig &t = s.traffic;
    const bool fromTraffic = generated > 0.0 && isSet(t.requestsPerDay);
    if (generated > 0.0 && isSet(peakRequestsPerSecond(t))) {
        e[F::TrafficReplicasForPeak] =
            replicasForRate(peakRequestsPerSecond(t), secondsPerRequest, 1.0);
        replicas = std::max(replicas, e[F::TrafficReplicasForPeak]);
    }
    double servedTokensPerSecond = kNaN;
    if (fromTraffic) {
        const double average = averageRequestsPerSecond(t);
        e[F::TrafficAverageTokensPerSecond] = average * generated;
        replicas = std::max(replicas, replicasForRate(average, secondsPerRequest, 1.0));
        servedTokensPerSecond = average * generated;
        utilisation = average * secondsPerRequest / replicas; // of the fleet that is paid for
        e[F::TrafficUtilisation] = utilisation;
    } else {
        servedTokensPerSecond = utilisation * replicas * sustained;
    }
    e[F::CostUtilisation] = utilisation;
    e[F::CostReplicas] = replicas;
    e[F::CostDevices] = replicas * devicesPerReplica;
    e[F::CostTokensFromTraffic] = fromTraffic ? 1.0 : 0.0;
    e[F::CostFleetUsdPerHour] = replicas * replicaPrice;
    e[F::CostFleetUsdPerMonth] = usdPerMonth(e[F::CostFleetUsdPerHour]);
    e[F::CostFleetUsdPerYear] = e[F::CostFleetUsdPerMonth] * 12.0;
    e[F::CostTokensPerMonth] = servedTokensPerSecond * 3600.0 * kHoursPerMonth;
    e[F::CostUsdPerMillionTokens] =
        usdPerMillionTokens(replicaPrice, e[F::CostTokensPerHour], utilisation);
    e[F::CostFleetWatts] = s.power.deviceW * e[F::CostDevices];
    e[F::CostJoulesPerToken] = joulesPerToken(e[F::CostFleetWatts], s.power.idleFraction,
                                              sustained * replicas, utilisation);
    if (fromTraffic)
        e[F::TrafficMonthlyCostUsd] = e[F::CostFleetUsdPerMonth];

    if (generated > 0.0) {
        e[F::CostGeneratedTokensPerRequest] = generated;
        e[F::CostSelfHostedUsdPerRequest] = replicaPrice / 3600.0 * secondsPerRequest;
        if (isSet(c.apiUsdPerMillionInput) && isSet(c.apiUsdPerMillionOutput)) {
            e[F::CostApiUsdPerRequest] = (s.serving.promptTokens * c.apiUsdPerMillionInput +
                                          generated * c.apiUsdPerMillionOutput) /
                                         1e6;
            // the same requests, input and output priced apart
            e[F::CostApiUsdPerMonth] =
                e[F::CostTokensPerMonth] / generated * e[F::CostApiUsdPerRequest];
            if (e[F::CostApiUsdPerRequest] > 0.0)
                e[F::CostBreakEvenUtilisation] =
                    e[F::CostSelfHostedUsdPerRequest] / e[F::CostApiUsdPerRequest];
        }
    }
}

void evaluateInterconnect(const Scenario &s, Evaluation &e)
{
    const InterconnectConfig &ic = s.interconnect;
    const double message =
        isSet(ic.messageBytes) ? ic.messageBytes : s.model.parameters * s.training.gradsBytes;
    const double traffic = ringAllReduceTrafficPerDevice(message, ic.devices);
    const double bytesPerStep = traffic * ic.collectivesPerStep;
    const bool insideNode = ic.devices <= ic.devicesPerNode;
    const double link = (insideNode ? ic.intraLinkGbPerSecond : ic.interLinkGbPerSecond) * kGB;
    const double latencyEvents = ic.latencyModel == LatencyModel::PerHop
                                     ? ic.collectivesPerStep * 2.0 * (ic.devices - 1.0)
                                     : ic.collectivesPerStep;
    e[F::InterconnectDevices] = ic.devices;
    e[F::InterconnectMessageBytes] = message;
    e[F::InterconnectTrafficBytesPerDevice] = traffic;
    e[F::InterconnectCollectivesPerStep] = ic.collectivesPerStep;
    e[F::InterconnectBytesPerStep] = bytesPerStep;
    e[F::InterconnectLinkBandwidth] = link;
    e[F::InterconnectBandwidthSeconds] = bytesPerStep / link;
    e[F::InterconnectLatencySeconds] = ic.devices > 1.0 ? latencyEvents * ic.latencySeconds : 0.0;
    e[F::InterconnectSeconds] =
        e[F::InterconnectBandwidthSeconds] + e[F::InterconnectLatencySeconds];
    e[F::InterconnectIntraNodeSeconds] = bytesPerStep / (ic.intraLinkGbPerSecond * kGB);
    e[F::InterconnectInterNodeSeconds] = bytesPerStep / (ic.interLinkGbPerSecond * kGB);
}

void evaluatePower(const Scenario &s, Evaluation &e)
{
    const PowerConfig &p = s.power;
    e[F::PowerNodeWatts] = p.devicesPerNode * p.deviceW + p.hostW;
    e[F::PowerNodesPerRack] =
        e[F::PowerNodeWatts] > 0.0 ? std::floor(p.rackW / e[F::PowerNodeWatts]) : kNaN;
    e[F::PowerDevicesPerRack] = e[F::PowerNodesPerRack] * p.devicesPerNode;
}

} // namespace

std::span<const FigureInfo> figureTable()
{
    return kFigureTable;
}

const FigureInfo &figureInfo(FigureId id)
{
    return kFigureTable[static_cast<std::size_t>(id)];
}

const FigureInfo *findFigure(std::string_view key)
{
    for (const auto &info : kFigureTable) {
        if (info.key == key)
            return &info;
    }
    return nullptr;
}

std::string_view boundKey(Bound bound)
{
    return bound == Bound::Compute ? "compute" : "memory";
}

NumericFormat computeFormatFor(const Scenario &scenario)
{
    bool fallback = false;
    return chooseComputeFormat(scenario, fallback);
}

Evaluation evaluate(const Scenario &scenario)
{
    Evaluation e{kNoFigures};
    const Base base = makeBase(scenario, e);
    evaluateMemory(scenario, base, e);
    evaluateTraining(scenario, base, e);
    evaluateDecodeAndPrefill(scenario, base, e);
    evaluateCost(scenario, base, e);
    evaluateInterconnect(scenario, e);
    evaluatePower(scenario, e);
    // A value that is not finite is not a number a user can act on: mark it not applicable,
    // so no NaN or infinity ever reaches a view or an output file, and say why (issue #20: the
    // step time of a 5e-324 efficiency vanished from the output without a word). A time, price,
    // energy or count of 10^15 or more (31 million years, a quadrillion dollars) is no figure a
    // plan can hold either (issue #41: $3.8e305 per million tokens at 1e-300 requests a day).
    // one pass that only compares (a reduction the compiler can do two figures at a time),
    // a second only where one is beyond
    if (anyBeyond(e.values)) {
        warn(e, EvalWarning::BeyondRange);
        for (std::size_t i = 0; i < kFigureCount; ++i)
            if (std::abs(e.values[i]) >= kLargestFigure[i])
                e.values[i] = kNaN;
    }
    // no tokens at all (a step that never ends): a cost or an energy per token is not zero
    if (e.available(F::CostTokensPerHour) && e[F::CostTokensPerHour] <= 0.0) {
        warn(e, EvalWarning::BeyondRange);
        for (F id :
             {F::CostUsdPerMillionTokens, F::CostJoulesPerToken, F::CostSelfHostedUsdPerRequest,
              F::CostBreakEvenUtilisation, F::CostTokensPerMonth, F::CostApiUsdPerMonth})
            e[id] = kNaN;
    }
    return e;
}

OverheadSplit overheadSplit(const Scenario &scenario)
{
    OverheadSplit split;
    const double overhead = scenario.serving.overheadGb * kGB;
    split.runtimeContextBytes = overhead;
    if (auto it = scenario.serving.overheadParts.find("workspace");
        it != scenario.serving.overheadParts.end()) {
        split.workspaceBytes = std::min(overhead, it->second * kGB);
        split.runtimeContextBytes = overhead - split.workspaceBytes;
        split.known = true;
    }
    return split;
}

double kvDevicesPerSequence(const Scenario &scenario)
{
    Evaluation scratch;
    const Base base = makeBase(scenario, scratch);
    return base.kvShards * base.pipelineParallel;
}

double servingBytesAt(const Scenario &scenario, double residentSequences)
{
    Evaluation scratch;
    Base base = makeBase(scenario, scratch);
    base.concurrent = std::max(0.0, residentSequences);
    return servingBytes(base, base.concurrent);
}

// One scalar loop over decodeStep(): written as Eigen arrays (the same operations per element)
// it measured 29-32 us per 1,024 points against 13-18 us for this loop (docs/benchmarks.md,
// run 6), so Eigen is used where it pays, in core/calibrate/fit.cpp.
std::vector<BatchPoint> sweepBatch(const Scenario &scenario, std::span<const double> batches)
{
    Evaluation scratch;
    const Base base = makeBase(scenario, scratch);
    std::vector<BatchPoint> points;
    points.reserve(batches.size());
    for (double batch : batches) {
        if (!(batch >= 1.0) || !std::isfinite(batch))
            continue;
        const Step st = decodeStep(base, batch);
        BatchPoint p;
        p.batch = batch;
        p.intensity = st.flops / st.bytes;
        p.attainableFlops = st.flops / std::max(st.memorySeconds, st.computeSeconds);
        p.stepSeconds = st.seconds;
        p.tokensPerSecond = batch / st.seconds;
        p.tokensPerSecondPerSequence = 1.0 / st.seconds;
        p.servingBytes = servingBytes(base, batch);
        p.fits = p.servingBytes <= base.capacity;
        p.bound = st.bound;
        points.push_back(p);
    }
    return points;
}

StepModel::StepModel(const Scenario &scenario)
{
    Evaluation scratch;
    auto base = std::make_shared<Base>(makeBase(scenario, scratch));
    m_warnings = scratch.warnings;
    const double context = std::max(1.0, scenario.serving.contextTokens);
    m_kvBytesPerContextToken = base->kvReadPerSequencePerRank / context;
    m_kvBytesPerTokenPerDevice = kvPerSequencePerDevice(*base) / context;
    m_kvBudgetBytes = base->capacity - weightsPerDevice(*base) - base->overhead;
    // attention per (token, position attended) pair: linear in the context without windows
    m_attentionFlopsPerPair = base->attentionFlopsPerToken / context;
    m_base = std::move(base);
}

StepCost StepModel::cost(const StepLoad &load) const
{
    const Base &b = *m_base;
    const double tokens = std::max(1.0, load.decodeSequences + load.prefillTokens);
    StepCost c;
    c.bytes =
        weightBytesRead(b, tokens) + load.decodeContextTokens * m_kvBytesPerContextToken +
        (load.prefillTokens + (b.kvWrite ? load.decodeSequences : 0.0)) * b.kvPerTokenPerRank +
        load.extraBytes;
    const double attention =
        (load.decodeContextTokens + load.prefillAttentionPairs) * m_attentionFlopsPerPair;
    c.flops = (2.0 * b.active * tokens + attention) / b.tensorParallel + load.extraFlops;
    const double decodeKv = load.decodeContextTokens * m_kvBytesPerContextToken +
                            (b.kvWrite ? load.decodeSequences : 0.0) * b.kvPerTokenPerRank;
    c.memorySeconds = memorySecondsOf(b, c.bytes, decodeKv);
    c.computeSeconds = c.flops / (b.peak * b.computeEfficiency);
    c.communicationSeconds = communicationSeconds(b, tokens);
    c.smallKernelSeconds = smallKernelSecondsOf(b, tokens);
    c.seconds = std::max(c.memorySeconds, c.computeSeconds) + c.communicationSeconds +
                c.smallKernelSeconds + fixedSecondsOf(b, load.decodeSequences);
    c.bound = c.computeSeconds > c.memorySeconds ? Bound::Compute : Bound::Memory;
    return c;
}

double StepModel::bytesPerParameterPerDevice() const
{
    return m_base->effectiveBytesPerParameter / m_base->tensorParallel;
}

double firstTokenSeconds(double prefillSeconds, double firstDecodeStepSeconds,
                         double transferSeconds)
{
    return prefillSeconds + transferSeconds + firstDecodeStepSeconds;
}

double firstTokenSeconds(const StepModel &model, double prefillSeconds, double contextTokens,
                         double transferSeconds)
{
    return firstTokenSeconds(prefillSeconds, model.seconds({1.0, contextTokens, 0.0, 0.0}),
                             transferSeconds);
}

double StepModel::prefillSeconds(double promptTokens) const
{
    const double prompt = std::max(1.0, promptTokens);
    return seconds({0.0, 0.0, prompt, prompt * (prompt + 1.0) / 2.0});
}

std::span<const FigureId> centralFigures()
{
    static constexpr FigureId kCentral[] = {F::WeightsBytes, F::ServingBytesTotal,
                                            F::DecodeStepSeconds, F::DecodeTokensPerSecond,
                                            F::PrefillTtftSeconds};
    return kCentral;
}

std::optional<std::string_view> notAvailableReason(const Evaluation &e, FigureId id)
{
    if (e.available(id))
        return std::nullopt;
    if (e.has(EvalWarning::BeyondRange))
        return "beyond any real figure (10^15 or more, or infinite): an efficiency, throttle, "
               "sustained rate or traffic this close to zero, or a fleet this large, makes it so";
    return "not applicable to this scenario";
}

std::vector<std::string_view> warningTexts(const Evaluation &e)
{
    std::vector<std::string_view> texts;
    auto add = [&](EvalWarning w, std::string_view text) {
        if (e.has(w))
            texts.push_back(text);
    };
    add(EvalWarning::DoesNotFit,
        "does not fit: weights, KV cache and overhead exceed the device memory");
    add(EvalWarning::BatchExceedsConcurrency,
        "the batch is larger than the concurrent sequences: memory holds the batch, since a "
        "sequence must be resident to decode");
    add(EvalWarning::ComputeFormatFallback,
        "the device has no BF16 peak: arithmetic uses the next format it has a figure for");
    add(EvalWarning::NoKnownFastWeightKernel,
        "no fast kernel is known for this weight format on this device: a slow fallback may "
        "undo the saving");
    add(EvalWarning::NoKnownFastKvKernel,
        "no fast kernel is known for this KV-cache format on this device");
    add(EvalWarning::ContextExceedsMaxContext,
        "the context is longer than the model's maximum context");
    add(EvalWarning::QuantGroupIgnored,
        "quantisation groups apply to 8- and 4-bit formats only: ignored for this weight format");
    add(EvalWarning::ActivationsNeedArchitecture,
        "training activations need the model's hidden size and attention heads: not included");
    add(EvalWarning::BeyondRange,
        "beyond any real figure: an efficiency, throttle, sustained rate or traffic this close to "
        "zero (or a fleet this large) makes a time, cost, energy or count 10^15 or more: those "
        "figures are n/a");
    add(EvalWarning::TensorParallelBeyondDomain,
        "serving.tensor_parallel is larger than the device's scale-up domain "
        "(device.scale_up_devices): its all-reduces cross nodes over the inter-node link "
        "(interconnect.inter_link_gb_s)");
    add(EvalWarning::TensorParallelOverHostLink,
        "the device has no device link (device.device_link_gb_s): serving.tensor_parallel's "
        "all-reduces go over the host link (device.host_link_gb_s, PCIe)");
    add(EvalWarning::KvHeadsReplicated,
        "fewer model.kv_heads than serving.tensor_parallel devices: each device holds a whole "
        "head, so the KV cache divides by the KV heads, not by the devices");
    add(EvalWarning::SmallKernelsNeedArchitecture,
        "each layer's small kernels (norms, rotary, activation, adds) need the model's hidden "
        "size: left out, so the step is a little faster than the estimate's own rule");
    add(EvalWarning::EmbeddingsNeedArchitecture,
        "keeping embeddings at 16 bit needs the model's vocabulary and hidden size: ignored");
    add(EvalWarning::PartFormatNotApplied,
        "serving.weight_formats gives a part its own format, but the model's parameters in that "
        "part are not known apart (a latent or linear attention, embeddings without "
        "vocab_size and hidden_size, experts on a dense model): not applied; import the "
        "model's config.json to count its parts (model.weight_parts)");
    return texts;
}

} // namespace core
