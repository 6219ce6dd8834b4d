// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/physics/operators.h"

#include "core/model/architecture.h"
#include "core/model/calc.h"
#include "core/model/scenario.h"
#include "core/model/units.h"
#include "core/physics/estimateterms.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace core {

namespace {

// LLM-Viewer's element-wise operation counts (model_analyzer.py): a norm is 7 operations per
// element (sum, sub, pow, sum, div, mul, add), softmax 5 (max, sub, exp, sum, div), an add 1.
constexpr double kNormOpsPerElement = 7.0;
constexpr double kSoftmaxOpsPerElement = 5.0;
constexpr double kActivationOpsPerElement = 2.0; // SiLU(gate) x up
constexpr double kRotaryOpsPerElement = 3.0;     // x cos + rotate(x) sin

struct Builder
{
    double tensorParallel = 1;
    double bytesPerParameter = 2;
    double peak = 0;
    double bandwidth = 0;
    double kvBandwidth = 0;
    std::string prefix;
    std::vector<OperatorCost> operators;
    double parameters = 0; ///< whole model, every layer

    /** `layerParameters` held per layer; the step reads `readParameters` of them (all unless
     *  given: an MoE layer reads the experts its tokens route to, a lookup its tokens' rows).
     *  FLOP and bytes for the whole tensor-parallel group. */
    void add(std::string_view name, OperatorKind kind, double layers, double flops,
             double layerParameters, double activationBytes, double kvBytes,
             double readParameters = -1.0)
    {
        OperatorCost op;
        op.name = prefix + std::string(name);
        op.kind = kind;
        op.layers = layers;
        op.flops = flops / tensorParallel;
        const double read = readParameters >= 0.0 ? readParameters : layerParameters;
        op.weightBytes = read * bytesPerParameter / tensorParallel;
        op.activationBytes = activationBytes / tensorParallel;
        op.kvBytes = kvBytes / tensorParallel;
        // the KV cache at the attention kernels' efficiency, as the step reads it
        const double memory =
            (op.weightBytes + op.activationBytes) / bandwidth + op.kvBytes / kvBandwidth;
        const double compute = op.flops / peak;
        op.seconds = std::max(memory, compute);
        op.bound = compute > memory ? Bound::Compute : Bound::Memory;
        parameters += layerParameters * layers;
        operators.push_back(std::move(op));
    }
};

/** The small kernels of one layer group (the ops from `first` on) at the step's rule: each
 *  norm, add and activation takes its run's time; a mixture's activation is inside its experts'
 *  kernel; rotary becomes an operator of its own. */
void timeSmallKernels(Builder &b, std::span<const SmallKernelRun> runs, std::size_t first,
                      double tokens, double measuredBandwidth, double rotaryDim, double actBytes)
{
    const std::size_t last = b.operators.size();
    for (const SmallKernelRun &run : runs) {
        const double seconds =
            smallKernelRunSeconds(run.kind, run.bytesPerToken, tokens, measuredBandwidth);
        if (run.kind == SmallKernel::Rotary) {
            b.add("rotary", OperatorKind::Elementwise, b.operators[first].layers,
                  kRotaryOpsPerElement * tokens * rotaryDim, 0.0,
                  2.0 * tokens * rotaryDim * actBytes, 0.0);
            b.operators.back().seconds = seconds;
            continue;
        }
        for (std::size_t i = first; i < last; ++i) {
            OperatorCost &op = b.operators[i];
            const bool match =
                (run.kind == SmallKernel::Norm && op.kind == OperatorKind::Norm) ||
                (run.kind == SmallKernel::ResidualAdd && op.kind == OperatorKind::Elementwise) ||
                (run.kind == SmallKernel::Activation && op.name.ends_with("mlp_act"));
            if (match) {
                op.seconds = seconds;
                op.bound = Bound::Memory;
            } else if (run.kind == SmallKernel::Activation && op.name.ends_with("experts") &&
                       !op.name.ends_with("shared_experts")) {
                op.seconds += seconds;
            }
        }
    }
}

Result<OperatorBreakdown> refuse(const ModelSpec &m, const std::string &why)
{
    return Result<OperatorBreakdown>::failure("/model", "\"" + m.name.substr(0, 60) + "\" " + why);
}

/** Positions one prompt's tokens attend to in total, causal, within a window. */
double causalPairs(double tokens, double window)
{
    if (tokens <= window)
        return tokens * (tokens + 1.0) / 2.0;
    return window * (window + 1.0) / 2.0 + (tokens - window) * window;
}

bool windowed(const LayerGroup &g)
{
    return (g.attention == AttentionKind::Sliding || g.attention == AttentionKind::Chunked) &&
           isSet(g.window);
}

} // namespace

std::string_view phaseKey(Phase phase)
{
    return phase == Phase::Prefill ? "prefill" : "decode";
}

std::string_view operatorKindKey(OperatorKind kind)
{
    switch (kind) {
    case OperatorKind::Projection:
        return "projection";
    case OperatorKind::Attention:
        return "attention";
    case OperatorKind::Mlp:
        return "mlp";
    case OperatorKind::Norm:
        return "norm";
    case OperatorKind::Elementwise:
        return "elementwise";
    case OperatorKind::Head:
        return "head";
    }
    return "projection";
}

Result<OperatorBreakdown> operatorBreakdown(const Scenario &s, Phase phase, AttentionKernel kernel)
{
    const ModelSpec &m = s.model;
    if (!isSet(m.hiddenSize) || !isSet(m.attentionHeads) || !isSet(m.kvHeads) ||
        !isSet(m.headDim) || !isSet(m.layers))
        return refuse(m, "has no hidden_size, attention_heads, kv_heads and head_dim: the "
                         "operators need the architecture (import its config.json)");
    const std::vector<LayerGroup> groups = layerGroupsOf(m);
    for (const LayerGroup &g : groups) {
        if (g.attention == AttentionKind::Latent || g.attention == AttentionKind::Linear ||
            g.attention == AttentionKind::None || g.mlp == MlpKind::None)
            return refuse(m, "has " + describeGroup(g) +
                                 ": latent (MLA), linear-attention, state-space and "
                                 "attention-free layers and layers without an MLP are not broken "
                                 "into operators yet");
    }

    const Evaluation e = evaluate(s);
    const ServingConfig &sv = s.serving;
    const double h = m.hiddenSize;
    const double heads = m.attentionHeads;
    const double actBytes = nominalBytes(e.computeFormat);
    const double kvBytes = nominalBytes(sv.kvFormat);

    OperatorBreakdown out;
    out.phase = phase;
    out.batch = phase == Phase::Decode ? std::max(1.0, sv.batch) : 1.0;
    out.tokens = phase == Phase::Decode ? out.batch : std::max(1.0, sv.promptTokens);
    out.contextTokens = phase == Phase::Decode ? sv.contextTokens : out.tokens;
    out.peakFlops = e[FigureId::PeakFlops] * e[FigureId::EstimateComputeEfficiency];
    out.bandwidth = e[FigureId::Bandwidth] * e[FigureId::EstimateBandwidthEfficiency];
    out.kvBandwidth = e[FigureId::Bandwidth] * estimateTerms(s).kvBandwidthEfficiency;
    out.attentionKernel = kernel;
    out.modelParameters = m.parameters;

    Builder b;
    b.tensorParallel = std::max(1.0, sv.tensorParallel);
    b.bytesPerParameter = e[FigureId::BytesPerParameter];
    b.peak = out.peakFlops;
    b.bandwidth = out.bandwidth;
    // a decode step reads the cache at the attention kernels' efficiency; a prefill's KV writes
    // go with the other bytes, as in the step (evaluation.cpp, memorySecondsOf)
    b.kvBandwidth = phase == Phase::Decode ? out.kvBandwidth : out.bandwidth;
    const double T = out.tokens;

    // Parameters every layer's attention and norms hold; the MLP's are what is left of the count
    // when the file gives no FFN width (the lesson's 7B has none).
    double fixedParameters = 0.0;
    const bool hasVocabulary = isSet(m.vocabSize);
    if (hasVocabulary)
        fixedParameters += h * m.vocabSize * (m.tieEmbeddings ? 1.0 : 2.0) + h; // + final norm
    double moeLayers = 0.0;
    double unknownWidthLayers = 0.0;
    double knownMlpParameters = 0.0;
    for (const LayerGroup &g : groups) {
        const double kvDim = g.kvHeads * g.headDim;
        const double qDim = heads * g.headDim;
        const double kvProjections = g.attention == AttentionKind::Shared ? 0.0 : 2.0 * h * kvDim;
        fixedParameters += g.layers * (2.0 * h * qDim + kvProjections + 2.0 * h);
        if (g.mlp == MlpKind::Moe) {
            moeLayers += g.layers;
            fixedParameters += g.layers * h * g.experts; // the router
        } else if (isSet(g.intermediateSize)) {
            knownMlpParameters += g.layers * 3.0 * h * g.intermediateSize;
        } else {
            unknownWidthLayers += g.layers;
        }
    }
    double perExpert = 0.0; // one routed expert in one layer
    double sharedMoe = 0.0; // the always-on part of an MoE layer (shared experts)
    double inferredWidth = 0.0;
    double rest = m.parameters - fixedParameters - knownMlpParameters;
    if (moeLayers > 0.0) {
        const LayerGroup &moe =
            *std::find_if(groups.begin(), groups.end(),
                          [](const LayerGroup &g) { return g.mlp == MlpKind::Moe; });
        if (!(m.active() < m.parameters) || !(moe.experts > moe.expertsPerToken))
            return refuse(m, "is a mixture of experts without active_parameters below its "
                             "parameters: the experts' size is unknown");
        perExpert = (m.parameters - m.active()) / (moe.experts - moe.expertsPerToken) / moeLayers;
        rest -= perExpert * moe.experts * moeLayers;
        if (unknownWidthLayers == 0.0)
            sharedMoe = std::max(0.0, rest) / moeLayers;
    }
    if (unknownWidthLayers > 0.0) {
        inferredWidth = rest / (unknownWidthLayers * 3.0 * h);
        if (!(inferredWidth >= 1.0))
            return refuse(m, "gives no intermediate_size and its parameter count leaves none for "
                             "the MLP: the operators need the FFN width");
        char width[32];
        std::snprintf(width, sizeof width, "%.0f", inferredWidth);
        out.differences.push_back(
            "FFN width inferred from the parameter count: " + std::string(width) +
            " (the model gives no intermediate_size; a gated MLP of three "
            "matrices assumed)");
    }

    // the fused kernel's matrix products and softmax, and the score matrix it keeps on chip
    double fusedMatmulFlops = 0.0;
    double fusedSoftmaxFlops = 0.0;
    double scoreBytes = 0.0;
    // The estimate times each layer's small kernels as the step does (a launch floor or their
    // bytes at a share of the measured bandwidth, issue #43): the norms, adds and activation
    // here take that time instead of their roofline's, and the rotary the step counts is shown.
    const bool timesSmallKernels =
        e[FigureId::DecodeSmallKernelSeconds] > 0.0 || e[FigureId::PrefillSmallKernelSeconds] > 0.0;
    const double measuredBandwidth =
        e[FigureId::Bandwidth] * bandwidthCeiling(s.device, false).share;
    for (const LayerGroup &g : groups) {
        const std::size_t first = b.operators.size();
        b.prefix = groups.size() > 1 ? std::string(attentionKindKey(g.attention)) + " " +
                                           std::string(mlpKindKey(g.mlp)) + ": "
                                     : std::string();
        const double L = g.layers;
        const double kvDim = g.kvHeads * g.headDim;
        const double qDim = heads * g.headDim;
        const double window = windowed(g) ? g.window : INFINITY;
        // pairs of (new token, position attended) and the keys and values read
        double pairs = 0.0;
        double keysRead = 0.0;
        if (phase == Phase::Decode) {
            const double attended = std::min(out.contextTokens, window);
            pairs = T * attended;
            keysRead = T * attended;
        } else {
            pairs = causalPairs(T, window);
            keysRead = T;
        }
        b.add("attn_norm", OperatorKind::Norm, L, kNormOpsPerElement * T * h, h,
              2.0 * T * h * actBytes, 0.0);
        b.add("q_proj", OperatorKind::Projection, L, 2.0 * T * h * qDim, h * qDim,
              (T * h + T * qDim) * actBytes, 0.0);
        if (g.attention != AttentionKind::Shared) {
            for (std::string_view name : {"k_proj", "v_proj"})
                b.add(name, OperatorKind::Projection, L, 2.0 * T * h * kvDim, h * kvDim,
                      T * h * actBytes, T * kvDim * kvBytes);
        }
        if (kernel == AttentionKernel::Fused) {
            fusedMatmulFlops += L * 4.0 * g.headDim * heads * pairs / b.tensorParallel;
            fusedSoftmaxFlops += L * kSoftmaxOpsPerElement * heads * pairs / b.tensorParallel;
            scoreBytes += L * 4.0 * heads * pairs * actBytes / b.tensorParallel;
            // one kernel: Q in, the output out, K and V read once; the scores never leave the
            // chip (FlashAttention, FlashInfer: compute-bound on long prompts)
            b.add("attention", OperatorKind::Attention, L,
                  (4.0 * g.headDim + kSoftmaxOpsPerElement) * heads * pairs, 0.0,
                  2.0 * T * qDim * actBytes, 2.0 * keysRead * kvDim * kvBytes);
        } else {
            b.add("qk_matmul", OperatorKind::Attention, L, 2.0 * heads * g.headDim * pairs, 0.0,
                  (T * qDim + heads * pairs) * actBytes, keysRead * kvDim * kvBytes);
            b.add("softmax", OperatorKind::Attention, L, kSoftmaxOpsPerElement * heads * pairs, 0.0,
                  2.0 * heads * pairs * actBytes, 0.0);
            b.add("sv_matmul", OperatorKind::Attention, L, 2.0 * heads * g.headDim * pairs, 0.0,
                  (heads * pairs + T * qDim) * actBytes, keysRead * kvDim * kvBytes);
        }
        b.add("out_proj", OperatorKind::Projection, L, 2.0 * T * qDim * h, qDim * h,
              (T * qDim + T * h) * actBytes, 0.0);
        b.add("attn_add", OperatorKind::Elementwise, L, T * h, 0.0, 2.0 * T * h * actBytes, 0.0);
        b.add("mlp_norm", OperatorKind::Norm, L, kNormOpsPerElement * T * h, h,
              2.0 * T * h * actBytes, 0.0);
        if (g.mlp == MlpKind::Moe) {
            const double k = g.expertsPerToken;
            const double distinct = expectedDistinctExperts(g.experts, k, T);
            b.add("router", OperatorKind::Mlp, L, 2.0 * T * h * g.experts, h * g.experts,
                  (T * h + T * g.experts) * actBytes, 0.0);
            // the parameters are every expert's; the step reads the ones its tokens route to
            b.add("experts", OperatorKind::Mlp, L, 2.0 * T * k * perExpert, g.experts * perExpert,
                  2.0 * T * k * h * actBytes, 0.0, distinct * perExpert);
            if (sharedMoe > 0.0)
                b.add("shared_experts", OperatorKind::Mlp, L, 2.0 * T * sharedMoe, sharedMoe,
                      2.0 * T * h * actBytes, 0.0);
        } else {
            const double width = isSet(g.intermediateSize) ? g.intermediateSize : inferredWidth;
            for (std::string_view name : {"gate_proj", "up_proj"})
                b.add(name, OperatorKind::Mlp, L, 2.0 * T * h * width, h * width,
                      (T * h + T * width) * actBytes, 0.0);
            b.add("mlp_act", OperatorKind::Mlp, L, kActivationOpsPerElement * T * width, 0.0,
                  3.0 * T * width * actBytes, 0.0);
            b.add("down_proj", OperatorKind::Mlp, L, 2.0 * T * width * h, width * h,
                  (T * width + T * h) * actBytes, 0.0);
        }
        b.add("mlp_add", OperatorKind::Elementwise, L, T * h, 0.0, 2.0 * T * h * actBytes, 0.0);
        if (timesSmallKernels) {
            const GroupSmallKernels kernels = groupSmallKernels(m, g, b.tensorParallel);
            timeSmallKernels(b, kernels.view(), first, T, measuredBandwidth,
                             qDim + (g.attention == AttentionKind::Shared ? 0.0 : kvDim), actBytes);
        }
    }
    b.prefix.clear();

    // The head: prefill needs the logits of the prompt's last token only.
    const double logitTokens = phase == Phase::Decode ? T : 1.0;
    double embeddingFlopsInModel = 0.0;
    if (hasVocabulary) {
        const double V = m.vocabSize;
        b.add("final_norm", OperatorKind::Norm, 1.0, kNormOpsPerElement * logitTokens * h, h,
              2.0 * logitTokens * h * actBytes, 0.0);
        b.add("lm_head", OperatorKind::Head, 1.0, 2.0 * logitTokens * h * V, h * V,
              (logitTokens * h + logitTokens * V) * actBytes, 0.0);
        if (!m.tieEmbeddings) {
            // a lookup: the step reads its tokens' rows, not the table, and multiplies nothing
            b.add("embed_tokens", OperatorKind::Head, 1.0, 0.0, h * V, T * h * actBytes, 0.0,
                  std::min(T, V) * h);
            embeddingFlopsInModel = 2.0 * T * h * V / b.tensorParallel;
        }
    } else {
        out.differences.push_back("No output head: the model gives no vocab_size");
    }
    out.operatorParameters = b.parameters;
    out.operators = std::move(b.operators);

    for (const OperatorCost &op : out.operators) {
        out.flops += op.flops * op.layers;
        out.weightBytes += op.weightBytes * op.layers;
        out.activationBytes += op.activationBytes * op.layers;
        out.kvBytes += op.kvBytes * op.layers;
        out.seconds += op.seconds * op.layers;
    }
    out.bytes = out.weightBytes + out.activationBytes + out.kvBytes;
    out.rooflineSeconds = std::max((out.weightBytes + out.activationBytes) / out.bandwidth +
                                       out.kvBytes / b.kvBandwidth,
                                   out.flops / out.peakFlops);

    const double kvPerTokenPerRank =
        sequenceCache(m, kvBytes, 1.0, b.tensorParallel).perTokenUncappedPerDevice;
    if (phase == Phase::Decode) {
        out.modelFlops = e[FigureId::DecodeFlopsPerStep];
        out.modelBytes = e[FigureId::DecodeBytesPerStep];
        out.modelWeightBytes = e[FigureId::DecodeWeightBytesPerStep];
        out.modelKvBytes = e[FigureId::DecodeKvBytesPerStep];
        out.modelSeconds = e[FigureId::DecodeStepSeconds];
    } else {
        out.modelFlops = e[FigureId::PrefillFlops];
        out.modelBytes = e[FigureId::PrefillBytes];
        out.modelKvBytes = T * kvPerTokenPerRank;
        out.modelWeightBytes = out.modelBytes - out.modelKvBytes;
        out.modelSeconds = e[FigureId::PrefillSeconds];
    }
    // the step's roofs, its FLOP over the FLOP/s it attains: the rest of its time is links and
    // the engine's fixed costs, which the operators pay too
    const double modelRoof =
        phase == Phase::Decode
            ? e[FigureId::DecodeFlopsPerStep] / e[FigureId::DecodeAttainableFlops]
            : e[FigureId::PrefillFlops] / e[FigureId::PrefillAttainableFlops];
    // the small kernels are operators of their own above (when the estimate times them)
    const double smallKernels = phase == Phase::Decode ? e[FigureId::DecodeSmallKernelSeconds]
                                                       : e[FigureId::PrefillSmallKernelSeconds];
    out.beyondRoofsSeconds =
        std::isfinite(modelRoof) ? std::max(0.0, out.modelSeconds - modelRoof - smallKernels) : 0.0;
    out.stepSeconds = out.seconds + out.beyondRoofsSeconds;

    // What the two accountings count differently, each with its size.
    double attentionFlops = 0.0;
    double elementwiseFlops = 0.0;
    attentionFlops += fusedMatmulFlops;
    elementwiseFlops += fusedSoftmaxFlops;
    for (const OperatorCost &op : out.operators) {
        if (op.name.ends_with("qk_matmul") || op.name.ends_with("sv_matmul"))
            attentionFlops += op.flops * op.layers;
        else if (op.kind == OperatorKind::Norm || op.kind == OperatorKind::Elementwise ||
                 op.name.ends_with("softmax") || op.name.ends_with("mlp_act"))
            elementwiseFlops += op.flops * op.layers;
    }
    if (e[FigureId::DecodeAttentionFlopsPerStep] == 0.0)
        out.differences.push_back(
            "Attention scores (QK^T and scores x V): " + formatFlops(attentionFlops) +
            " the whole-model figure leaves out (serving.attention_flops is 0, the lesson's "
            "weights-only FLOP)");
    out.differences.push_back("Norms, softmax, the activation function and residual adds: " +
                              formatFlops(elementwiseFlops) +
                              " the whole-model figure does not count");
    if (kernel == AttentionKernel::Fused)
        out.differences.push_back(
            "Attention as one fused kernel (FlashAttention-class): the score matrix, " +
            formatBytes(scoreBytes) +
            " written and read back by separate QK^T, softmax and scores x V operators, stays on "
            "chip (LLM-Viewer's accounting moves it: accel-calc evaluate --operators "
            "--unfused-attention)");
    out.differences.push_back(
        "Activations loaded and stored between operators: " + formatBytes(out.activationBytes) +
        " the whole-model figure does not count (fused kernels keep "
        "most of them on chip)");
    if (embeddingFlopsInModel > 0.0)
        out.differences.push_back(
            "The embedding is a lookup with no FLOP; the whole-model 2 x parameters x tokens "
            "counts " +
            formatFlops(embeddingFlopsInModel) + " for it");
    if (phase == Phase::Prefill && hasVocabulary)
        out.differences.push_back("The output head computes the prompt's last token only; the "
                                  "whole-model figure counts it for every prompt token");
    if (out.kvBytes > out.modelKvBytes * (1.0 + 1e-9))
        out.differences.push_back(
            "KV cache: the operators load and store " + formatBytes(out.kvBytes) +
            ", the whole-model figure counts " + formatBytes(out.modelKvBytes) +
            (phase == Phase::Decode
                 ? " (k_proj and v_proj write each new token's KV; serving.kv_write is 0)"
                 : " (the prompt's KV written, not read back by its own attention)"));
    if (b.tensorParallel > 1.0)
        out.differences.push_back("Per device: every operator's share of one tensor-parallel "
                                  "rank (norms and adds, replicated in practice, shown split)");
    if (std::abs(out.operatorParameters - m.parameters) > 0.005 * m.parameters)
        out.differences.push_back("The operators hold " + formatNumber(out.operatorParameters, 3) +
                                  " parameters, the model counts " + formatNumber(m.parameters, 3));
    out.differences.push_back(
        "Each operator on its own roof" +
        std::string(timesSmallKernels ? " (norms, adds, activation and rotary at their launch "
                                        "floors or shares of the measured bandwidth, as the step "
                                        "times them)"
                                      : "") +
        ", one after another: " + formatSeconds(out.seconds) +
        "; the same totals on one roofline: " + formatSeconds(out.rooflineSeconds) +
        (out.beyondRoofsSeconds > 0.0
             ? "; with the links and the engine's fixed costs the step pays beside its roofs (" +
                   formatSeconds(out.beyondRoofsSeconds) + "): " + formatSeconds(out.stepSeconds)
             : std::string()) +
        "; the whole-model step: " + formatSeconds(out.modelSeconds));
    return out;
}

} // namespace core
