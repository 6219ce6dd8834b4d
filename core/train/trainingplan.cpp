// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/train/trainingplan.h"

#include "core/data/calibrationprofile.h"
#include "core/model/architecture.h"
#include "core/model/calc.h"
#include "core/model/scenario.h"
#include "core/model/scenarioaccess.h"
#include "core/model/units.h"
#include "core/model/weightparts.h"
#include "core/physics/estimateterms.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

namespace core {

namespace {

constexpr double kGB = 1e9;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
/// Llama 2's and 3's batch: 4 M tokens a step (Touvron et al. 2023, table 1; Dubey et al. 2024)
constexpr double kDefaultBatchTokens = 4.0 * 1024 * 1024;
/// Hoffmann et al. 2022 (Chinchilla): about 20 training tokens per parameter is compute-optimal
constexpr double kTokensPerParameter = 20;
/// FlashAttention-2 reaches 50-73 % of an A100's peak in the forward pass and less in the
/// backward (Dao 2023, fig. 4-6); FlashAttention-3 75 % forward on H100 (Shah et al. 2024).
/// Forward and backward together at half the dense peak: app assumption.
constexpr double kAttentionShareOfPeak = 0.5;
/// Bytes per parameter the optimiser step moves: reads the gradient, reads and writes the FP32
/// master and both moments, writes the working weight (the recipe's widths; Adam's 28 at 2 B).
double optimizerBytesPerParameter(const TrainingConfig &t)
{
    return t.gradsBytes + 2.0 * (t.masterBytes + t.optimizerBytes) + t.weightsBytes;
}
constexpr double kDefaultLinkLatency = 10e-6;
/// The largest count a search without one tries (powers of two): 131,072 devices
constexpr double kMostDevices = 131072;

/** What the plan needs of the scenario, worked out once for every layout a search tries. */
struct Prepared
{
    const Scenario *scenario = nullptr;
    std::string problem; // the scenario itself cannot be planned
    // model
    double parameters = 0;
    double active = 0;
    double layers = 1;
    double hidden = 0;
    double heads = 1;
    double kvHeads = 1;
    double kvDim = 0; ///< K (or V) elements per token and layer
    double headDim = 0;
    bool fusedAttention = true;
    double vocab = 0;
    double embeddingIn = 0;     ///< the input table (a lookup, no matmul)
    double head = 0;            ///< the output head's parameters (a matmul, on the last stage)
    double embeddingTables = 0; ///< in the parameter count: one table if tied, else two
    double routedExperts = 0;   ///< parameters in routed experts (split over expert parallel)
    double activeRouted = 0;    ///< of them, what one token uses
    double experts = 0;         ///< routed experts per MoE layer (0: dense)
    double expertsPerToken = 0;
    double moeLayers = 0;
    double mlpWidth = 0;                  ///< the dense MLP's (or one expert's) intermediate size
    double attentionFlopsPerSequence = 0; ///< forward, causal, the whole model
    double elementwiseBytesPerToken = 0;  ///< forward, the whole model, one TP rank of 1
    bool activationsKnown = false;
    // device
    double peak = 0;          ///< dense FLOP/s of the format, the spec sheet's
    double matmulRate = 0;    ///< FLOP/s the matmuls reach
    double attentionRate = 0; ///< FLOP/s fused attention reaches
    double memoryRate = 0;    ///< bytes/s elementwise kernels and the optimiser reach
    bool elementwiseTimed = false;
    double scaleUp = 8;
    double scaleUpBusBandwidth = 0;  ///< bytes/s an all-reduce in the domain reaches
    double scaleUpLinkBandwidth = 0; ///< bytes/s per direction of the device link
    double linkLatency = kDefaultLinkLatency;
    double network = 0; ///< bytes/s per device between nodes
    double capacity = 0;
    double overhead = 0;
    double devicesPerNode = 8;
    double deviceWatts = 0;
    double hostWatts = 0;
    double price = kNaN;
    // run
    double sequenceLength = 0;
    double batchTokens = 0; ///< the global batch in tokens, where the scenario sets it
    double globalBatch = kNaN;
    double tokens = 0;
    bool tokensAssumed = false;
    std::vector<std::string> notes;
};

double deviceCapacityBytes(const Scenario &s)
{
    return s.device.capacityGb() * kGB;
}

/** The share of the BF16 peak a training step's matmuls reach. The typical estimate's device
 *  entries are fitted on inference engines (an H200 on 2 runs, an MI300X on vLLM for ROCm in
 *  2024, an L40S past its measured ceiling), whose kernels and shapes are not a training step's:
 *  an H200 planned slower than an H100. Training's large matmuls take the device's measured
 *  ceiling at its class's pooled compute share instead (datacenter: 63 runs); a user's own
 *  calibration and the speed of light stay as they are. */
double computeShareOf(const Scenario &s, const EstimateTerms &terms)
{
    if (terms.mode != EstimateMode::Typical || !terms.measuredCeilings)
        return terms.computeEfficiency;
    const CalibrationEntry *pooled =
        findCalibrationEntry(typicalProfile(), "", calibrationClassOf(s.device), "");
    if (!pooled)
        return terms.computeEfficiency;
    const CeilingShare ceiling = computeCeiling(s.device, NumericFormat::Bf16, false);
    return std::min(1.0, ceiling.share * std::min(1.0, pooled->computeEfficiency) *
                             s.calibration.efficiencyFactor);
}

Prepared prepare(const Scenario &s)
{
    Prepared p;
    p.scenario = &s;
    const ModelSpec &m = s.model;
    const TrainingConfig &t = s.training;
    p.parameters = m.parameters;
    p.active = m.active();
    p.layers = isSet(m.layers) ? m.layers : 1.0;
    p.hidden = isSet(m.hiddenSize) ? m.hiddenSize : 0.0;
    p.heads = isSet(m.attentionHeads) ? m.attentionHeads : 1.0;
    p.kvHeads = isSet(m.kvHeads) ? m.kvHeads : p.heads;
    const double headDim = isSet(m.headDim) ? m.headDim : (p.hidden > 0 ? p.hidden / p.heads : 0);
    p.headDim = headDim;
    p.fusedAttention = t.fusedAttention != 0.0;
    p.kvDim = isSet(m.kvLatentDim) ? m.kvLatentDim / 2.0 : p.kvHeads * headDim;
    p.vocab = isSet(m.vocabSize) ? m.vocabSize : 0.0;
    p.activationsKnown = isSet(m.hiddenSize) && isSet(m.attentionHeads) && isSet(m.layers);
    p.mlpWidth = isSet(m.intermediateSize) ? m.intermediateSize : 4.0 * p.hidden;
    if (!p.activationsKnown)
        p.notes.push_back("the model states no hidden size, heads or layers: its activations, "
                          "attention and collectives are left out");
    p.embeddingIn = p.vocab * p.hidden;
    p.head = p.embeddingIn; // tied or not, the head is a vocab x hidden matmul
    p.embeddingTables = p.embeddingIn + (m.tieEmbeddings ? 0.0 : p.head);
    const WeightPartCounts parts = weightPartsOf(m);
    p.routedExperts = parts[WeightPart::Experts];
    if (isSet(m.experts) && isSet(m.expertsPerToken) && m.experts > 0 && p.routedExperts > 0) {
        p.experts = m.experts;
        p.expertsPerToken = m.expertsPerToken;
        p.activeRouted = p.routedExperts * m.expertsPerToken / m.experts;
    }
    forEachLayerGroup(m, [&](const LayerGroup &group) {
        if (group.mlp == MlpKind::Moe)
            p.moeLayers += group.layers;
        const GroupSmallKernels kernels = groupSmallKernels(m, group, 1.0);
        for (const SmallKernelRun &run : kernels.view())
            p.elementwiseBytesPerToken += run.runs * run.bytesPerToken;
    });
    if (p.experts > 0 && p.moeLayers == 0)
        p.moeLayers = p.layers;
    p.sequenceLength = t.sequenceLength;
    const double attention = prefillAttentionFlops(m, t.sequenceLength);
    p.attentionFlopsPerSequence = std::isfinite(attention) ? attention : 0.0;

    const DeviceSpec &d = s.device;
    const double peakTflops = d.peak(t.format);
    if (!isSet(peakTflops) || peakTflops <= 0) {
        p.problem = std::string(d.name.empty() ? "the device" : d.name) + " states no " +
                    std::string(formatLabel(t.format)) + " peak to train in";
        return p;
    }
    p.peak = peakTflops * 1e12;
    const EstimateTerms terms = estimateTerms(s);
    const bool typical = terms.mode != EstimateMode::SpeedOfLight;
    // The matmuls at the estimate's compute share (typical: the measured ceiling's share of the
    // spec; speed of light: the peak); fused attention at its kernels' share where the
    // estimate is typical; the elementwise kernels where it times small kernels.
    p.matmulRate = p.peak * computeShareOf(s, terms);
    // attention runs in BF16 under FP8 training (Transformer Engine casts the matmuls only)
    const double bf16Peak =
        isSet(d.peak(NumericFormat::Bf16)) ? d.peak(NumericFormat::Bf16) * 1e12 : p.peak;
    p.attentionRate = (t.format == NumericFormat::Fp8 ? bf16Peak : p.peak) *
                      (typical ? kAttentionShareOfPeak : terms.computeEfficiency);
    if (typical && t.format != NumericFormat::Bf16) {
        // the profile's efficiency is a share of the BF16 ceiling; FP8 reaches less of its peak
        // (an H100's fastest FP8 matmul is a smaller share of 1,979 than BF16's of 989)
        const CeilingShare bf16 = computeCeiling(d, NumericFormat::Bf16, false);
        const CeilingShare own = computeCeiling(d, t.format, false);
        if (bf16.share > 0.0)
            p.matmulRate =
                p.peak * own.share * std::min(1.0, computeShareOf(s, terms) / bf16.share);
    }
    p.memoryRate = d.bandwidthGbPerSecond * kGB * terms.bandwidthEfficiency;
    p.elementwiseTimed = terms.smallKernels;
    p.scaleUp =
        isSet(d.scaleUpDevices) ? d.scaleUpDevices : (isSet(d.deviceLinkGbPerSecond) ? 8.0 : 1.0);
    p.scaleUpLinkBandwidth = isSet(d.deviceLinkGbPerSecond) ? d.deviceLinkGbPerSecond * kGB
                             : isSet(d.hostLinkGbPerSecond) ? d.hostLinkGbPerSecond * kGB
                                                            : t.networkGbPerSecond * kGB;
    p.scaleUpBusBandwidth = typical && isSet(d.measuredAllReduceBusGbPerSecond)
                                ? d.measuredAllReduceBusGbPerSecond * kGB
                                : p.scaleUpLinkBandwidth;
    if (isSet(d.deviceLinkLatencySeconds))
        p.linkLatency = d.deviceLinkLatencySeconds;
    if (!std::isnan(terms.collectiveLatencySeconds))
        p.linkLatency = terms.collectiveLatencySeconds;
    p.network = t.networkGbPerSecond * kGB;
    p.capacity = deviceCapacityBytes(s);
    p.overhead = s.serving.overheadGb * kGB;
    p.devicesPerNode = std::max(1.0, s.power.devicesPerNode);
    p.deviceWatts = isSet(d.powerW) ? d.powerW : s.power.deviceW;
    p.hostWatts = s.power.hostW;
    p.price = isSet(s.cost.pricePerHourUsd) ? s.cost.pricePerHourUsd : d.pricePerHourUsd;

    p.globalBatch = t.globalBatch;
    p.tokens = t.tokens;
    if (!isSet(p.tokens)) {
        p.tokens = kTokensPerParameter * p.parameters;
        p.tokensAssumed = true;
    }
    if (t.format == NumericFormat::Fp8)
        p.notes.push_back("FP8 runs the matmuls at the FP8 peak's share; weights, gradients and "
                          "optimiser state keep the recipe's widths");
    if (p.experts > 0)
        p.notes.push_back("the experts' tokens are taken as evenly spread (no routing imbalance), "
                          "their all-to-alls not overlapped");
    if (s.givenInputs.contains("training.dp_degree") && !isSet(t.dataParallel))
        p.notes.push_back("training.dp_degree is the memory check's shard count; the plan "
                          "searches its own data-parallel degree (training.data_parallel)");
    p.notes.push_back("one pipeline stage per device group (1F1B, no interleaving): an "
                      "interleaved schedule has a smaller bubble and holds more activations");
    return p;
}

/** The busiest stage's share of the layers: stages hold whole layers, so where the stages do not
 *  divide them, some hold one more (BLOOM: 70 layers over 12 stages, 6 on the busiest). */
double busiestStageShare(double layers, double stages)
{
    return std::ceil(layers / stages) / layers;
}

bool divides(double divisor, double value)
{
    return divisor >= 1.0 && std::fmod(value, divisor) == 0.0;
}

std::string count(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.0f", value);
    return text;
}

std::string gigabytes(double bytes)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GB", bytes / kGB);
    return text;
}

/** The global batch a layout runs: the scenario's, else about 4 M tokens taken down to a
 *  multiple of micro-batch x data parallel (never up: a layout must not win by a larger batch),
 *  at least one such unit. */
double globalBatchOf(const Prepared &p, const TrainingLayout &layout)
{
    if (isSet(p.globalBatch))
        return p.globalBatch;
    const double unit = layout.microBatch * layout.data;
    const double target = std::max(1.0, std::round(kDefaultBatchTokens / p.sequenceLength));
    return unit * std::max(1.0, std::floor(target / unit));
}

std::string structuralProblem(const Prepared &p, const TrainingLayout &l)
{
    if (!p.problem.empty())
        return p.problem;
    for (double degree : {l.tensor, l.pipeline, l.data, l.context, l.expert, l.microBatch})
        if (!(degree >= 1.0) || std::floor(degree) != degree)
            return "every degree and the micro-batch are whole numbers of at least 1";
    if (l.tensor > p.scaleUp)
        return "tensor parallel " + count(l.tensor) + " spans more than the scale-up domain (" +
               count(p.scaleUp) + " devices): its all-reduces would cross the network";
    if (auto problem = tensorSplitProblem(p.scenario->model, p.scenario->device, l.tensor))
        return *problem;
    if (l.pipeline > p.layers)
        return "pipeline " + count(l.pipeline) + " is more stages than the " + count(p.layers) +
               " layers";
    if (!divides(l.context, p.sequenceLength))
        return "context parallel " + count(l.context) + " does not divide the " +
               count(p.sequenceLength) + "-token sequence";
    if (l.expert > 1.0) {
        if (p.experts <= 0)
            return "expert parallel " + count(l.expert) + " on a model without routed experts";
        if (!divides(l.expert, p.experts))
            return "expert parallel " + count(l.expert) + " does not divide the " +
                   count(p.experts) + " experts";
        if (!divides(l.expert, l.data * l.context))
            return "expert parallel " + count(l.expert) +
                   " does not divide data x context parallel (" + count(l.data * l.context) + ")";
    }
    if (!isSet(p.globalBatch) &&
        l.microBatch * l.data > std::max(1.0, std::round(kDefaultBatchTokens / p.sequenceLength)))
        return "micro-batch " + count(l.microBatch) + " x data parallel " + count(l.data) +
               " is more sequences than a step of about 4 M tokens holds (" +
               count(std::max(1.0, std::round(kDefaultBatchTokens / p.sequenceLength))) +
               "): set training.global_batch for a larger batch";
    const double batch = globalBatchOf(p, l);
    if (!divides(l.microBatch * l.data, batch))
        return "the global batch of " + count(batch) +
               " sequences is not a multiple of micro-batch " + count(l.microBatch) +
               " x data parallel " + count(l.data);
    return {};
}

/** Bandwidth of a collective among `group` devices laid out after `inner` devices of the
 *  inner degrees: within the scale-up domain at its bus bandwidth, else across the network. */
double collectiveBandwidth(const Prepared &p, double inner, double group, bool allReduce)
{
    if (inner * group <= p.scaleUp)
        return allReduce ? p.scaleUpBusBandwidth : p.scaleUpLinkBandwidth;
    return p.network;
}

double seconds(double bytes, double bytesPerSecond)
{
    return bytes > 0.0 && bytesPerSecond > 0.0 ? bytes / bytesPerSecond : 0.0;
}

TrainingMemory memoryOf(const Prepared &p, const TrainingLayout &l, double microBatches)
{
    const Scenario &s = *p.scenario;
    const TrainingConfig &t = s.training;
    TrainingMemory mem;
    mem.capacity = p.capacity;
    mem.overhead = p.overhead;
    // parameters one device holds on the first and on the last stage: its share of the layers
    // (the routed experts further split over expert parallel), the embedding table on the
    // first, the output head on the last (Megatron keeps a copy there when they are tied)
    const double layerParameters = std::max(0.0, p.parameters - p.embeddingTables);
    const double routed = std::min(p.routedExperts, layerParameters);
    const double stageShare = busiestStageShare(p.layers, l.pipeline);
    const double denseStage = (layerParameters - routed) * stageShare;
    const double routedStage = routed * stageShare / l.expert;
    const double shards = l.data * l.context;      // ZeRO's group for dense parameters
    const double expertShards = shards / l.expert; // and for the experts
    auto stateOf = [&](double dense, double experts, TrainingMemory &out) {
        dense /= l.tensor;
        experts /= l.tensor;
        auto sharded = [&](double bytes, double stage) {
            const bool divide = l.zeroStage >= stage;
            return dense * bytes / (divide ? shards : 1.0) +
                   experts * bytes / (divide ? expertShards : 1.0);
        };
        out.master = sharded(t.masterBytes, 1);
        out.optimizer = sharded(t.optimizerBytes, 1);
        out.gradients = sharded(t.gradsBytes, 2);
        out.weights = sharded(t.weightsBytes, 3);
    };
    const double inFlight = std::min(l.pipeline, microBatches);
    mem.microBatchesInFlight = inFlight;
    double layerActivations = 0;
    double workingLayer = 0;
    if (p.activationsKnown) {
        // Korthikanti et al. 2022, eq. 1-2 with sequence parallelism: every term split over the
        // tensor-parallel group; context parallelism splits the sequence
        const double sequence = p.sequenceLength / l.context;
        // fused attention keeps no score matrix for the backward pass (it recomputes it in the
        // kernel): without recomputation it stores what selective recomputation would
        const RecomputeMode stored = p.fusedAttention && l.recompute == RecomputeMode::None
                                         ? RecomputeMode::Selective
                                         : l.recompute;
        layerActivations =
            activationBytesPerLayer(sequence, l.microBatch, p.hidden, p.heads, stored) / l.tensor;
        // full recomputation rebuilds one layer's activations during its backward pass
        if (l.recompute == RecomputeMode::Full)
            workingLayer = activationBytesPerLayer(sequence, l.microBatch, p.hidden, p.heads,
                                                   p.fusedAttention ? RecomputeMode::Selective
                                                                    : RecomputeMode::None) /
                           l.tensor;
    }
    const double stageLayers = p.layers * busiestStageShare(p.layers, l.pipeline);
    TrainingMemory first = mem;
    stateOf(denseStage + (l.pipeline == 1.0 ? p.embeddingTables : p.embeddingIn), routedStage,
            first);
    first.activations = stageLayers * layerActivations * inFlight + workingLayer;
    TrainingMemory last = mem;
    stateOf(denseStage + p.head, routedStage, last);
    last.activations = stageLayers * layerActivations + workingLayer;
    // the output head's logits in FP32 for the loss (Korthikanti et al. 2022, 4 s b v / t)
    const double logits = 4.0 * p.sequenceLength / l.context * l.microBatch * p.vocab / l.tensor;
    if (l.pipeline == 1.0)
        first.logits = logits;
    else
        last.logits = logits;
    auto totalOf = [](TrainingMemory &m) {
        m.total = m.weights + m.gradients + m.master + m.optimizer + m.activations + m.logits +
                  m.overhead;
    };
    totalOf(first);
    totalOf(last);
    mem = last.total > first.total ? last : first;
    mem.fits = mem.total <= mem.capacity;
    return mem;
}

TrainingPlan planOf(const Prepared &p, const TrainingLayout &l)
{
    const Scenario &s = *p.scenario;
    const TrainingConfig &t = s.training;
    TrainingPlan plan;
    plan.layout = l;
    plan.devices = l.devices();
    plan.sequenceLength = p.sequenceLength;
    plan.format = t.format;
    plan.tokens = p.tokens;
    plan.tokensAssumed = p.tokensAssumed;
    plan.notes = p.notes;
    plan.pricePerDeviceHour = p.price;
    plan.problem = structuralProblem(p, l);
    if (!plan.problem.empty())
        return plan;
    plan.globalBatch = globalBatchOf(p, l);

    TrainingStep &step = plan.step;
    step.microBatches = plan.globalBatch / (l.microBatch * l.data);
    plan.memory = memoryOf(p, l, step.microBatches);

    // one micro-batch's forward and backward on the slowest stage (the last: it has the head)
    const double tokensPerRank = l.microBatch * p.sequenceLength / l.context;
    const double stageShare = busiestStageShare(p.layers, l.pipeline);
    const double layerMatmulParameters = std::max(0.0, p.active - p.embeddingTables);
    const bool full = l.recompute == RecomputeMode::Full;
    const bool recomputesAttention = l.recompute != RecomputeMode::None;
    const double matmulFlops =
        (6.0 + (full ? 2.0 : 0.0)) * layerMatmulParameters * stageShare * tokensPerRank / l.tensor +
        6.0 * p.head * tokensPerRank / l.tensor;
    const double attentionFlops = (3.0 + (recomputesAttention ? 1.0 : 0.0)) *
                                  p.attentionFlopsPerSequence * l.microBatch * stageShare /
                                  (l.tensor * l.context);
    const double elementwiseBytes = p.elementwiseTimed
                                        ? (3.0 + (full ? 1.0 : 0.0)) * p.elementwiseBytesPerToken *
                                              stageShare * tokensPerRank / l.tensor
                                        : 0.0;
    const double matmul = seconds(matmulFlops, p.matmulRate);
    double attention = seconds(attentionFlops, p.attentionRate);
    if (!p.fusedAttention && p.activationsKnown) {
        // the score matrix through memory (Korthikanti et al. 2022, section 4.1): every query
        // against every key, masked rather than skipped, as batched matmuls; per score element
        // forward about 13 bytes (QK^T written, softmax read and written, dropout read, written
        // and its mask, AV read), backward twice that, a recomputed forward again
        const double scores = l.microBatch * p.heads / l.tensor * p.sequenceLength *
                              p.sequenceLength / l.context * stageShare * p.layers;
        const double passes = 3.0 + (recomputesAttention ? 1.0 : 0.0);
        attention = seconds(passes * 2.0 * scores * 2.0 * p.headDim, p.matmulRate) +
                    seconds((39.0 + (recomputesAttention ? 13.0 : 0.0)) * scores, p.memoryRate);
    }
    const double elementwise = seconds(elementwiseBytes, p.memoryRate);
    const double compute = matmul + attention + elementwise;
    const double stageLayers = p.layers * stageShare;

    // tensor parallel with sequence parallelism: per layer two all-reduce volumes forward and
    // two backward (and two more to recompute), none hidden (Korthikanti et al. 2022, 4.2.2)
    double tensorComm = 0;
    const double activationMessage = tokensPerRank * p.hidden * 2.0;
    if (l.tensor > 1.0 && p.activationsKnown) {
        const double perCollective =
            seconds(ringAllReduceTrafficPerDevice(activationMessage, l.tensor),
                    collectiveBandwidth(p, 1.0, l.tensor, true)) +
            p.linkLatency;
        tensorComm = stageLayers * (4.0 + (full ? 2.0 : 0.0)) * perCollective;
    }
    // expert parallel: two all-to-alls forward (dispatch, combine) and two backward per MoE
    // layer, each device sending its tokens' k copies to other devices
    double expertComm = 0;
    if (l.expert > 1.0 && p.expertsPerToken > 0) {
        const double bytes = tokensPerRank / l.tensor * p.expertsPerToken * p.hidden * 2.0 *
                             (l.expert - 1.0) / l.expert;
        const double perAllToAll =
            seconds(bytes, collectiveBandwidth(p, l.tensor, l.expert, false)) + p.linkLatency;
        expertComm = p.moeLayers * stageShare * 4.0 * perAllToAll;
    }
    // context parallel (ring attention): each layer passes K and V round the ring forward and K,
    // V and their gradients backward, overlapped with the layer's attention
    double contextComm = 0;
    if (l.context > 1.0 && p.activationsKnown) {
        const double kv = l.microBatch * p.sequenceLength / l.context * 2.0 * p.kvDim * 2.0 /
                          std::min(l.tensor, p.kvHeads);
        const double ring = seconds(3.0 * kv * (l.context - 1.0),
                                    collectiveBandwidth(p, l.tensor, l.context, false));
        const double hiddenBy = attention / std::max(1.0, stageLayers);
        contextComm = stageLayers * std::max(0.0, ring - hiddenBy);
    }
    // pipeline: each micro-batch's activations forward and their gradients back, split over
    // the tensor-parallel ranks (Narayanan et al. 2021, scatter/gather)
    double pipelineSend = 0;
    if (l.pipeline > 1.0 && p.activationsKnown)
        pipelineSend =
            2.0 *
            (seconds(activationMessage / l.tensor,
                     collectiveBandwidth(p, l.tensor * l.context * l.data, l.pipeline, false)) +
             kDefaultLinkLatency);
    step.microBatchSeconds = compute + tensorComm + expertComm + contextComm + pipelineSend;
    if (p.hidden > 0.0 && p.mlpWidth > 0.0) {
        // (M x K) times (K x N) reads M K + K N elements and writes M N
        const double gm = tokensPerRank;
        const double gk = p.hidden;
        const double gn = p.mlpWidth / l.tensor;
        const double elementBytes = plan.format == NumericFormat::Fp8 ? 1.0 : 2.0;
        auto intensity = [&](double k, double n) {
            return 2.0 * gm * k * n / (elementBytes * (gm * k + k * n + gm * n));
        };
        auto gemm = [&](const char *name, double k, double n) {
            const double i = intensity(k, n);
            plan.gemms.push_back({name, i, std::min(p.matmulRate, i * p.memoryRate)});
        };
        gemm("MLP up", gk, gn);
        gemm("QKV projection", gk, (p.hidden + 2.0 * p.kvDim) / l.tensor);
        gemm("attention output", p.hidden / l.tensor, p.hidden);
        gemm("MLP down", gn, gk);
        plan.gemmTokens = gm;
        plan.gemmIntensity = plan.gemms.front().intensity;
        plan.gemmFlopsPerSecond = plan.gemms.front().flopsPerSecond;
    }
    const double slots = step.microBatches + l.pipeline - 1.0;
    step.matmulSeconds = slots * matmul;
    step.attentionSeconds = slots * attention;
    step.elementwiseSeconds = slots * elementwise;
    step.tensorParallelSeconds = slots * tensorComm;
    step.expertParallelSeconds = slots * expertComm;
    step.contextParallelSeconds = slots * contextComm;
    step.pipelineSendSeconds = slots * pipelineSend;
    step.bubbleSeconds = (l.pipeline - 1.0) * step.microBatchSeconds;
    step.bubbleFraction = (l.pipeline - 1.0) / slots;

    // data parallel: the gradients reduced over data x context parallel (the experts' over
    // their own replicas); ZeRO-0 and 1 once a step, hidden behind the last backward pass;
    // ZeRO-2 reduce-scatters every micro-batch; ZeRO-3 also gathers the weights for each
    // micro-batch's forward and backward, prefetched behind the compute
    const double layerParameters = std::max(0.0, p.parameters - p.embeddingTables);
    const double routed = std::min(p.routedExperts, layerParameters);
    const double denseDevice =
        ((layerParameters - routed) * stageShare + p.head) / l.tensor; // the last stage's
    const double routedDevice = routed * stageShare / l.expert / l.tensor;
    const double replicas = l.data * l.context;
    const double inner = l.tensor;
    const double dpBandwidth = collectiveBandwidth(p, inner, replicas, true);
    auto reduceSeconds = [&](double bytesPerParameter, double share) {
        return seconds(share *
                           ringAllReduceTrafficPerDevice(denseDevice * bytesPerParameter, replicas),
                       dpBandwidth) +
               seconds(share * ringAllReduceTrafficPerDevice(routedDevice * bytesPerParameter,
                                                             replicas / l.expert),
                       dpBandwidth);
    };
    const double backward = compute * 2.0 / 3.0;
    if (replicas > 1.0) {
        if (l.zeroStage >= 2) {
            // a reduce-scatter (half an all-reduce's traffic) each micro-batch, then the
            // updated weights gathered once (the other half)
            // ZeRO-3 also gathers the weights before each micro-batch's forward and backward;
            // the one compute hides what it can of all of it, once
            const double scatter = reduceSeconds(t.gradsBytes, 0.5);
            const double gather = reduceSeconds(t.weightsBytes, 0.5);
            const double gathers = l.zeroStage >= 3 ? 2.0 * gather : 0.0;
            const double perMicroBatch = scatter + gathers;
            const double cover = l.zeroStage >= 3 ? compute : backward;
            step.dataParallelSeconds = step.microBatches * perMicroBatch + gather;
            step.dataParallelExposedSeconds =
                step.microBatches * std::max(0.0, perMicroBatch - cover) + gather;
        } else {
            step.dataParallelSeconds = reduceSeconds(t.gradsBytes, 1.0);
            step.dataParallelExposedSeconds = std::max(0.0, step.dataParallelSeconds - backward);
        }
    }
    const double updated = (denseDevice + routedDevice) / (l.zeroStage >= 1 ? replicas : 1.0);
    step.optimizerSeconds = seconds(updated * optimizerBytesPerParameter(t), p.memoryRate);
    step.total =
        slots * step.microBatchSeconds + step.dataParallelExposedSeconds + step.optimizerSeconds;

    // the run
    // every parameter that multiplies (the input table is looked up, not multiplied) and causal
    // attention: so at the speed of light MFU is at most 1
    plan.modelFlopsPerToken = 6.0 * (std::max(0.0, p.active - p.embeddingTables) + p.head) +
                              3.0 * p.attentionFlopsPerSequence / p.sequenceLength;
    const double tokensPerStep = plan.globalBatch * p.sequenceLength;
    plan.tokensPerSecond = step.total > 0.0 ? tokensPerStep / step.total : 0.0;
    plan.tokensPerSecondPerDevice = plan.tokensPerSecond / plan.devices;
    plan.peakFlops = p.peak;
    plan.mfu = plan.modelFlopsPerToken * plan.tokensPerSecond / (plan.devices * p.peak);
    plan.steps = std::ceil(p.tokens / tokensPerStep);
    plan.computeSeconds = plan.steps * step.total;

    // interruptions (lesson l.287): each device writes its shard of a checkpoint in parallel;
    // the job fails devices times as often as one device; Daly 2006's first-order interval
    TrainingReliability &r = plan.reliability;
    r.checkpointBytes = p.parameters * (t.weightsBytes + t.masterBytes + t.optimizerBytes);
    r.checkpointSeconds =
        r.checkpointBytes /
        (std::min(plan.devices * t.checkpointGbPerSecond, t.storageGbPerSecond) * kGB);
    const double mtbf = t.deviceMtbfHours * 3600.0 / plan.devices;
    r.jobMtbfHours = mtbf / 3600.0;
    const double delta = r.checkpointSeconds;
    r.intervalSeconds = delta < 2.0 * mtbf ? std::sqrt(2.0 * delta * mtbf) - delta : mtbf;
    r.intervalSeconds = std::max(r.intervalSeconds, delta);
    // per interval: the checkpoint's write; per interruption: half an interval's work lost, the
    // restart and the checkpoint read back
    r.overheadFraction = delta / (r.intervalSeconds + delta) +
                         (r.intervalSeconds / 2.0 + t.restartSeconds + delta) / mtbf;
    if (r.overheadFraction >= 0.95) {
        plan.problem = "interruptions come faster than the run can checkpoint and restart "
                       "(one every " +
                       count(mtbf / 60.0) + " minutes on " + count(plan.devices) + " devices)";
        r.goodput = 0.0;
        return plan;
    }
    r.goodput = 1.0 - r.overheadFraction;
    // the run also starts once: scheduling, loading the model and its state, the first
    // collectives (the restart time), paid by every device, so a huge count for a short run
    // does not come free
    plan.wallSeconds = plan.computeSeconds / r.goodput + t.restartSeconds;
    r.expectedInterruptions = plan.wallSeconds / mtbf;
    plan.days = plan.wallSeconds / 86400.0;
    plan.deviceHours = plan.devices * plan.wallSeconds / 3600.0;
    plan.energyKwh =
        (plan.devices * p.deviceWatts + plan.devices / p.devicesPerNode * p.hostWatts) *
        plan.wallSeconds / 3.6e6;
    plan.usd = isSet(p.price) ? plan.deviceHours * p.price : kNaN;
    plan.meetsDeadline = !isSet(t.deadlineDays) || plan.days <= t.deadlineDays;
    plan.withinBudget = !isSet(t.budgetUsd) || (isSet(plan.usd) && plan.usd <= t.budgetUsd);
    return plan;
}

std::vector<double> powersOfTwoUpTo(double limit)
{
    std::vector<double> out;
    for (double v = 1; v <= limit; v *= 2)
        out.push_back(v);
    return out;
}

std::vector<double> divisorsOf(double value, double limit)
{
    std::vector<double> out;
    for (double v = 1; v <= std::min(value, limit); ++v)
        if (std::fmod(value, v) == 0.0)
            out.push_back(v);
    return out;
}

std::vector<double> stated(double value, std::vector<double> otherwise)
{
    if (isSet(value))
        return {value};
    return otherwise;
}

struct ShapeKey
{
    double t, p, d, c, e;
    bool operator<(const ShapeKey &o) const
    {
        return std::tie(t, p, d, c, e) < std::tie(o.t, o.p, o.d, o.c, o.e);
    }
};

/** Parallel degrees above 1: fewer is a simpler job to run and debug. */
int splitDimensions(const TrainingLayout &l)
{
    int count = 0;
    for (double degree : {l.tensor, l.pipeline, l.context, l.expert})
        count += degree > 1.0 ? 1 : 0;
    return count;
}

/** Faster first; within 0.5 % of each other (the model's resolution), the simpler layout: fewer
 *  split dimensions, a lower ZeRO stage, less recomputation, a smaller micro-batch. */
bool fasterOrSimpler(const TrainingPlan &a, const TrainingPlan &b)
{
    if (std::abs(a.wallSeconds - b.wallSeconds) > 0.005 * std::min(a.wallSeconds, b.wallSeconds))
        return a.wallSeconds < b.wallSeconds;
    const TrainingLayout &x = a.layout;
    const TrainingLayout &y = b.layout;
    return std::make_tuple(splitDimensions(x), x.zeroStage, static_cast<int>(x.recompute),
                           x.microBatch, a.wallSeconds) <
           std::make_tuple(splitDimensions(y), y.zeroStage, static_cast<int>(y.recompute),
                           y.microBatch, b.wallSeconds);
}

/** The search at one device count. */
TrainingSearch searchAt(const Prepared &p, double devices, bool everything)
{
    const TrainingConfig &t = p.scenario->training;
    TrainingSearch out;
    out.devices = devices;
    auto keep = [&](double value, std::vector<double> options) {
        return everything ? options : stated(value, std::move(options));
    };
    const std::vector<double> tensors =
        keep(t.tensorParallel, powersOfTwoUpTo(std::min(devices, 64.0)));
    const std::vector<double> contexts =
        keep(t.contextParallel,
             powersOfTwoUpTo(std::max(1.0, std::min({devices, 32.0, p.sequenceLength / 1024.0}))));
    // the search tries stages that divide the layers; a stated uneven split is planned as given
    const std::vector<double> pipelines = keep(t.pipelineParallel, divisorsOf(p.layers, devices));
    const std::vector<double> zeroStages = everything || !isSet(t.zeroStage)
                                               ? std::vector<double>{0, 1, 2, 3}
                                               : std::vector<double>{t.zeroStage};
    const std::vector<RecomputeMode> recomputes =
        everything || !t.recomputeStated
            ? std::vector<RecomputeMode>{RecomputeMode::None, RecomputeMode::Selective,
                                         RecomputeMode::Full}
            : std::vector<RecomputeMode>{t.recompute};
    const std::vector<double> microBatches = everything || !isSet(t.microBatch)
                                                 ? std::vector<double>{1, 2, 4, 8}
                                                 : std::vector<double>{t.microBatch};

    std::map<ShapeKey, TrainingPlan> best;
    std::map<ShapeKey, TrainingPlan> nearest; // the least memory short, where none fits
    std::map<ShapeKey, std::string> structural;
    for (double tp : tensors)
        for (double cp : contexts)
            for (double pp : pipelines) {
                const double rest = devices / (tp * cp * pp);
                if (rest < 1.0 || std::floor(rest) != rest)
                    continue;
                if (!everything && isSet(t.dataParallel) && t.dataParallel != rest)
                    continue;
                std::vector<double> expertOptions = {1.0};
                if (p.experts > 0)
                    expertOptions = keep(t.expertParallel, divisorsOf(p.experts, rest * cp));
                else if (!everything && isSet(t.expertParallel))
                    expertOptions = {t.expertParallel};
                for (double ep : expertOptions) {
                    const ShapeKey key{tp, pp, rest, cp, ep};
                    for (double zero : zeroStages)
                        for (RecomputeMode recompute : recomputes)
                            for (double micro : microBatches) {
                                TrainingLayout layout{tp, pp, rest, cp, ep, zero, recompute, micro};
                                ++out.layoutsTried;
                                TrainingPlan plan = planOf(p, layout);
                                if (!plan.problem.empty()) {
                                    structural.emplace(key, plan.problem);
                                    continue;
                                }
                                if (!plan.memory.fits) {
                                    auto [at, fresh] = nearest.emplace(key, plan);
                                    if (!fresh && plan.memory.total < at->second.memory.total)
                                        at->second = std::move(plan);
                                    continue;
                                }
                                auto [at, fresh] = best.emplace(key, plan);
                                if (!fresh && fasterOrSimpler(plan, at->second))
                                    at->second = std::move(plan);
                            }
                }
            }
    for (auto &[key, plan] : best)
        out.ranked.push_back(std::move(plan));
    std::sort(out.ranked.begin(), out.ranked.end(), fasterOrSimpler);
    for (auto &[key, plan] : nearest) {
        if (best.count(key))
            continue;
        out.rejected.push_back({plan.layout,
                                "needs " + gigabytes(plan.memory.total) + " per device of " +
                                    gigabytes(plan.memory.capacity) + " at its smallest (" +
                                    describeLayout(plan.layout) + ")",
                                plan.memory.total});
    }
    for (auto &[key, reason] : structural) {
        if (best.count(key) || nearest.count(key))
            continue;
        TrainingLayout layout{key.t, key.p, key.d, key.c, key.e};
        out.rejected.push_back({layout, reason});
    }
    return out;
}

/** Why the stated degrees cannot make `devices` devices, or empty. */
std::string countProblem(const TrainingConfig &t, double devices)
{
    double stated = 1;
    bool all = true;
    std::string product;
    for (auto [name, degree] :
         {std::pair{"tensor", t.tensorParallel}, std::pair{"pipeline", t.pipelineParallel},
          std::pair{"data", t.dataParallel}, std::pair{"context", t.contextParallel}}) {
        if (!isSet(degree)) {
            all = false;
            continue;
        }
        stated *= degree;
        product += (product.empty() ? "" : " x ") + std::string(name) + " " + count(degree);
    }
    if (all && stated != devices)
        return product + " = " + count(stated) + " devices, not the " + count(devices) +
               " of training.devices";
    if (!all && !divides(stated, devices))
        return product + " = " + count(stated) + " devices does not divide the " + count(devices) +
               " of training.devices";
    return {};
}

/** Why the degrees the scenario states cannot run at any count (tensor parallel 3 against 32
 *  heads), or empty: said as such, not as a count that meets no deadline. */
std::string statedDegreeProblem(const Prepared &p, const TrainingConfig &t)
{
    TrainingLayout l;
    l.tensor = isSet(t.tensorParallel) ? t.tensorParallel : 1.0;
    l.pipeline = isSet(t.pipelineParallel) ? t.pipelineParallel : 1.0;
    l.context = isSet(t.contextParallel) ? t.contextParallel : 1.0;
    l.expert = isSet(t.expertParallel) ? t.expertParallel : 1.0;
    l.data = isSet(t.dataParallel) ? t.dataParallel : l.expert;
    l.microBatch = isSet(t.microBatch) ? t.microBatch : 1.0;
    std::string problem = structuralProblem(p, l);
    // the batch's rules depend on the degrees still searched: only what no count mends. More
    // sequences than a step holds at the least data parallelism stays so at any (a stated
    // micro-batch of 1,000 against 512 read "no count meets the deadline"); a batch that is no
    // multiple of micro-batch x data parallel may be one at another degree
    if (problem.find("global batch") != std::string::npos &&
        !(isSet(t.dataParallel) && isSet(t.microBatch)))
        return {};
    return problem;
}

} // namespace

double trainingComputeShare(const Scenario &scenario)
{
    return computeShareOf(scenario, estimateTerms(scenario));
}

std::string layoutProblem(const Scenario &scenario, const TrainingLayout &layout)
{
    return structuralProblem(prepare(scenario), layout);
}

TrainingPlan planTraining(const Scenario &scenario, const TrainingLayout &layout)
{
    return planOf(prepare(scenario), layout);
}

TrainingSearch searchTraining(const Scenario &scenario, bool everything)
{
    const Prepared p = prepare(scenario);
    const TrainingConfig &t = scenario.training;
    if (isSet(t.devices)) {
        TrainingSearch out = searchAt(p, t.devices, everything);
        out.deviceCountReason = "the scenario's count";
        return out;
    }
    const bool allStated = isSet(t.tensorParallel) && isSet(t.pipelineParallel) &&
                           isSet(t.dataParallel) && isSet(t.contextParallel);
    if (!isSet(t.deadlineDays) && !isSet(t.budgetUsd) && allStated) {
        TrainingSearch out =
            searchAt(p, t.tensorParallel * t.pipelineParallel * t.dataParallel * t.contextParallel,
                     everything);
        out.deviceCountReason = "the stated degrees' product";
        return out;
    }
    if (!isSet(t.deadlineDays) && !isSet(t.budgetUsd)) {
        // no count, deadline or budget: the fewest devices that hold the run
        int tried = 0;
        for (double devices = 1; devices <= kMostDevices; devices *= 2) {
            TrainingSearch at = searchAt(p, devices, everything);
            tried += at.layoutsTried;
            if (!at.ranked.empty() || devices * 2 > kMostDevices) {
                at.layoutsTried = tried;
                at.deviceCountReason = at.ranked.empty()
                                           ? "no count up to 131,072 devices holds the run"
                                           : "the fewest devices (powers of two) that hold the run";
                return at;
            }
        }
    }
    // the fewest devices that meet the deadline; the fastest within the budget; where none does,
    // the nearest: the fastest run (a deadline) or the cheapest (a budget), which says it misses
    TrainingSearch chosen;
    TrainingSearch nearest;
    bool found = false;
    bool anyRuns = false;
    int tried = 0;
    auto better = [&](const TrainingPlan &a, const TrainingPlan &b) {
        if (isSet(t.deadlineDays))
            return a.wallSeconds < b.wallSeconds;
        const double inf = std::numeric_limits<double>::infinity();
        return (isSet(a.usd) ? a.usd : inf) < (isSet(b.usd) ? b.usd : inf);
    };
    for (double devices = 1; devices <= kMostDevices; devices *= 2) {
        TrainingSearch at = searchAt(p, devices, everything);
        tried += at.layoutsTried;
        if (at.ranked.empty())
            continue;
        const TrainingPlan &fastest = at.ranked.front();
        const bool meets = fastest.meetsDeadline && fastest.withinBudget;
        if (isSet(t.deadlineDays) && isSet(t.budgetUsd) && fastest.meetsDeadline && !meets) {
            // the deadline is met but not within the budget, and more devices only cost more:
            // the fewest devices that meet the deadline are the nearest, over the budget
            nearest = std::move(at);
            anyRuns = true;
            break;
        }
        if (meets && isSet(t.deadlineDays)) {
            chosen = std::move(at);
            chosen.deviceCountReason = "the fewest devices (powers of two) that meet the deadline";
            found = true;
            break;
        }
        if (meets && (!found || fastest.wallSeconds < chosen.ranked.front().wallSeconds)) {
            chosen = std::move(at);
            chosen.deviceCountReason = "the fastest plan (powers of two) within the budget";
            found = true;
            continue;
        }
        if (!anyRuns || better(fastest, nearest.ranked.front())) {
            nearest = std::move(at);
            anyRuns = true;
        }
    }
    if (!found) {
        const bool deadlineMet =
            anyRuns && isSet(t.deadlineDays) && nearest.ranked.front().meetsDeadline;
        const std::string what = deadlineMet || !isSet(t.deadlineDays) ? "stays within the budget"
                                 : isSet(t.budgetUsd) ? "meets the deadline within the budget"
                                                      : "meets the deadline";
        chosen = anyRuns ? std::move(nearest) : searchAt(p, 1, everything);
        chosen.deviceCountReason =
            "no count up to 131,072 devices " + what +
            (!anyRuns      ? std::string()
             : deadlineMet ? std::string(": the fewest devices that meet the deadline shown")
             : isSet(t.deadlineDays) ? std::string(": the fastest shown")
                                     : std::string(": the cheapest shown"));
    }
    chosen.layoutsTried = tried;
    return chosen;
}

namespace {

/** The fastest plan of a search (everything: every degree and setting; else the unset degrees
 *  only), or, when none runs, the nearest miss with its problem: the shape that comes nearest to
 *  fitting, else the first reason, else the count's. */
TrainingPlan chosenPlan(const Scenario &scenario, bool everything)
{
    const TrainingConfig &given = scenario.training;
    if (isSet(given.devices)) {
        if (std::string problem = countProblem(given, given.devices); !problem.empty()) {
            TrainingPlan plan;
            plan.devices = given.devices;
            plan.problem = problem;
            return plan;
        }
    }
    if (!everything) {
        if (std::string problem = statedDegreeProblem(prepare(scenario), given); !problem.empty()) {
            TrainingPlan plan;
            plan.devices = isSet(given.devices) ? given.devices : 0.0;
            plan.problem = problem;
            return plan;
        }
    }
    TrainingSearch search = searchTraining(scenario, everything);
    if (!search.ranked.empty()) {
        TrainingPlan plan = std::move(search.ranked.front());
        plan.countReason = search.deviceCountReason;
        // a run of minutes on thousands of devices is priced per second of use; clouds bill
        // whole hours, at least (2,048 B200s for 18.6 min: $3,346 by the second)
        if (plan.wallSeconds < 86400.0 && std::isfinite(plan.usd) &&
            std::isfinite(plan.pricePerDeviceHour)) {
            const double hours = std::ceil(plan.wallSeconds / 3600.0);
            plan.notes.push_back("the run is priced per second of use (" + formatUsd(plan.usd) +
                                 "); billed by the whole hour, " + formatCount(plan.devices) +
                                 " devices for " + count(hours) +
                                 (hours == 1 ? " hour" : " hours") + " cost " +
                                 formatUsd(plan.devices * hours * plan.pricePerDeviceHour));
        }
        return plan;
    }
    const RejectedShape *nearest = nullptr;
    for (const RejectedShape &shape : search.rejected)
        if (std::isfinite(shape.bytesNeeded) &&
            (!nearest || shape.bytesNeeded < nearest->bytesNeeded))
            nearest = &shape;
    if (nearest) {
        TrainingPlan plan = planOf(prepare(scenario), nearest->layout);
        // a count the scenario did not give is not its answer: say that none held it
        const std::string where = search.deviceCountReason.starts_with("no count")
                                      ? search.deviceCountReason + "; on " + count(search.devices) +
                                            (search.devices == 1.0 ? " device" : " devices")
                                      : "does not fit on " + count(search.devices) +
                                            (search.devices == 1.0 ? " device" : " devices");
        plan.problem = where + ": the nearest, " + describeLayout(nearest->layout) + ", needs " +
                       gigabytes(plan.memory.total) + " per device of " +
                       gigabytes(plan.memory.capacity);
        return plan;
    }
    TrainingPlan plan;
    plan.devices = search.devices;
    plan.problem = search.deviceCountReason.starts_with("no count") ? search.deviceCountReason
                   : !search.rejected.empty()
                       ? search.rejected.front().reason
                       : "no layout of " + count(search.devices) + " devices can run it";
    return plan;
}

} // namespace

TrainingPlan plannedTraining(const Scenario &scenario)
{
    return chosenPlan(scenario, false);
}

TrainingPlan bestTrainingPlan(const Scenario &scenario)
{
    return chosenPlan(scenario, true);
}

Scenario withTrainingLayout(const Scenario &scenario, const TrainingPlan &plan)
{
    Scenario s = scenario;
    TrainingConfig &t = s.training;
    const TrainingLayout &l = plan.layout;
    t.devices = plan.devices;
    t.tensorParallel = l.tensor;
    t.pipelineParallel = l.pipeline;
    t.dataParallel = l.data;
    t.contextParallel = l.context;
    t.expertParallel = l.expert;
    t.zeroStage = l.zeroStage;
    t.recompute = l.recompute;
    t.recomputeStated = true;
    t.microBatch = l.microBatch;
    t.globalBatch = plan.globalBatch;
    // the ZeRO shards of the memory check: over the data-parallel replicas
    t.dpDegree = l.data * l.context;
    for (const char *path :
         {"training.devices", "training.tensor_parallel", "training.pipeline_parallel",
          "training.data_parallel", "training.context_parallel", "training.expert_parallel",
          "training.zero_stage", "training.micro_batch", "training.global_batch",
          "training.dp_degree"})
        s.givenInputs[path] = InputOrigin::App;
    return s;
}

bool asksForTrainingPlan(const Scenario &scenario)
{
    return scenario.wizard.regime == Regime::Training || isSet(scenario.training.tokens);
}

std::vector<TimelinePart> stepTimeline(const TrainingPlan &plan)
{
    std::vector<TimelinePart> parts;
    if (!plan.problem.empty() || !(plan.step.total > 0.0))
        return parts;
    const TrainingStep &st = plan.step;
    // the per-step fields count every slot of the schedule, the bubble's too: the work is the
    // micro-batches' share of them, the bubble the rest
    const double slots = st.microBatches + plan.layout.pipeline - 1.0;
    const double work = slots > 0.0 ? st.microBatches / slots : 0.0;
    using K = TimelinePart::Kind;
    auto add = [&](const char *name, double seconds, K kind) {
        if (seconds > 0.0 && std::isfinite(seconds))
            parts.push_back({name, seconds, kind});
    };
    add("Matmuls", st.matmulSeconds * work, K::Compute);
    add("Attention", st.attentionSeconds * work, K::Compute);
    add("Small kernels", st.elementwiseSeconds * work, K::Compute);
    add("Tensor-parallel all-reduces", st.tensorParallelSeconds * work, K::Communication);
    add("Expert all-to-alls", st.expertParallelSeconds * work, K::Communication);
    add("Context-parallel ring", st.contextParallelSeconds * work, K::Communication);
    add("Pipeline sends", st.pipelineSendSeconds * work, K::Communication);
    add("Pipeline bubble", st.bubbleSeconds, K::Idle);
    add("Gradient reduction (exposed)", st.dataParallelExposedSeconds, K::Communication);
    add("Optimiser", st.optimizerSeconds, K::Compute);
    // interruptions, averaged over the steps: each interval ends in a checkpoint write; each
    // interruption loses half an interval, restarts and reads the checkpoint back
    const TrainingReliability &r = plan.reliability;
    if (r.goodput > 0.0 && r.goodput < 1.0) {
        const double wallPerStep = st.total / r.goodput;
        const double mtbf = r.jobMtbfHours * 3600.0;
        const double writes = r.checkpointSeconds / (r.intervalSeconds + r.checkpointSeconds);
        const double lost = mtbf > 0.0 ? r.intervalSeconds / 2.0 / mtbf : 0.0;
        const double rest = std::max(0.0, r.overheadFraction - writes - lost);
        add("Checkpoint writes", wallPerStep * writes, K::Resilience);
        add("Work lost to interruptions", wallPerStep * lost, K::Resilience);
        add("Restarts", wallPerStep * rest, K::Resilience);
    }
    return parts;
}

std::vector<TrainingFormula> explainTraining(const TrainingPlan &plan)
{
    std::vector<TrainingFormula> out;
    if (!plan.problem.empty())
        return out;
    const TrainingMemory &m = plan.memory;
    const TrainingStep &st = plan.step;
    const TrainingReliability &r = plan.reliability;
    const std::string n = count(plan.devices);
    out.push_back(
        {"Memory per device",
         "weights + gradients + FP32 master + optimiser moments (after the layout's sharding) + "
         "activations of the micro-batches in flight + logits + overhead",
         formatBytes(m.weights) + " + " + formatBytes(m.gradients) + " + " + formatBytes(m.master) +
             " + " + formatBytes(m.optimizer) + " + " + formatBytes(m.activations) + " + " +
             formatBytes(m.logits) + " + " + formatBytes(m.overhead) + " = " +
             formatBytes(m.total) + " of " + formatBytes(m.capacity),
         "Activations by Korthikanti et al. 2022; micro-batches in flight on the first stage "
         "(1F1B): " +
             formatNumber(m.microBatchesInFlight, 3) + "."});
    const double slots = st.microBatches + plan.layout.pipeline - 1.0;
    out.push_back({"Step time",
                   "step = (micro-batches + stages - 1) x micro-batch time + exposed gradient "
                   "reduction + optimiser",
                   "(" + formatNumber(st.microBatches, 6) + " + " +
                       formatNumber(plan.layout.pipeline, 4) + " - 1) x " +
                       formatSeconds(st.microBatchSeconds) + " + " +
                       formatSeconds(st.dataParallelExposedSeconds) + " + " +
                       formatSeconds(st.optimizerSeconds) + " = " + formatSeconds(st.total),
                   "The bubble is " + formatNumber(st.bubbleFraction * 100, 3) + " % of the " +
                       formatNumber(slots, 6) + " slots (Narayanan et al. 2021)."});
    out.push_back({"Model FLOP utilisation",
                   "MFU = model FLOP per token x tokens per second / (devices x peak)",
                   formatFlops(plan.modelFlopsPerToken) + " x " +
                       formatNumber(plan.tokensPerSecond, 4) + " tokens/s / (" + n + " x " +
                       formatFlopRate(plan.peakFlops) + ") = " + formatNumber(plan.mfu * 100, 3) +
                       " %",
                   "Model FLOP: 6 per multiplying parameter per token plus causal attention; "
                   "recomputation is work the MFU does not count."});
    out.push_back(
        {"Checkpoint interval",
         "interval = sqrt(2 x checkpoint write x job MTBF) - checkpoint write (Daly 2006)",
         "sqrt(2 x " + formatSeconds(r.checkpointSeconds) + " x " +
             formatDuration(r.jobMtbfHours * 3600.0) + ") - " + formatSeconds(r.checkpointSeconds) +
             " = " + formatDuration(r.intervalSeconds) + "; goodput " +
             formatNumber(r.goodput * 100, 4) + " %",
         "Job MTBF = device MTBF / devices; each interruption loses half an interval, "
         "a restart and a checkpoint read."});
    out.push_back({"Time to train", "wall-clock = steps x step time / goodput + one start",
                   formatNumber(plan.steps, 9) + " x " + formatSeconds(st.total) + " / " +
                       formatNumber(r.goodput, 4) +
                       " + start = " + formatDuration(plan.wallSeconds),
                   "Steps = tokens / (global batch x sequence length)."});
    TrainingFormula money{"Device-hours and cost",
                          "device-hours = devices x wall-clock hours; cost = device-hours x price",
                          n + " x " + formatNumber(plan.wallSeconds / 3600.0, 5) +
                              " h = " + formatCount(plan.deviceHours) + " device-hours",
                          "Energy: " + formatCount(plan.energyKwh) +
                              " kWh for the devices and their hosts' share."};
    if (std::isfinite(plan.usd))
        money.substituted +=
            " x " + formatUsd(plan.pricePerDeviceHour) + " = " + formatUsd(plan.usd);
    out.push_back(money);
    return out;
}

std::string describeShape(const TrainingLayout &l)
{
    std::string text =
        "TP " + count(l.tensor) + " x PP " + count(l.pipeline) + " x DP " + count(l.data);
    if (l.context > 1.0)
        text += " x CP " + count(l.context);
    if (l.expert > 1.0)
        text += ", EP " + count(l.expert);
    return text;
}

std::string describeLayout(const TrainingLayout &l)
{
    std::string text = describeShape(l);
    text += ", ZeRO-" + count(l.zeroStage);
    text += l.recompute == RecomputeMode::None        ? ", no recomputation"
            : l.recompute == RecomputeMode::Selective ? ", selective recomputation"
                                                      : ", full recomputation";
    text += ", micro-batch " + count(l.microBatch);
    return text;
}

} // namespace core
