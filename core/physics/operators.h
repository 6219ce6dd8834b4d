// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The per-operator view (issue #27): one prefill or one decode step split into the operators a
// transformer layer runs (projections, attention scores, softmax, MLP, norms, residual adds) and
// the output head, each with its FLOP, bytes, intensity, bound and time on the device's roofline,
// per layer and in total. Operators follow LLM-Viewer's naming and byte accounting (weights,
// activations loaded and stored, KV loaded and stored), so the figures can be compared with its.

#include "core/model/result.h"
#include "core/physics/evaluation.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace core {

struct Scenario;

enum class Phase : std::uint8_t { Prefill, Decode };
std::string_view phaseKey(Phase phase); // "prefill" | "decode"

/** How attention runs: one fused kernel (FlashAttention-class: the scores stay on chip, the
 *  kernel reads Q, K and V and writes the output), or LLM-Viewer's accounting (QK^T, softmax and
 *  scores x V as three operators, the score matrix written and read back through memory). */
enum class AttentionKernel : std::uint8_t { Fused, Unfused };

enum class OperatorKind : std::uint8_t {
    Projection, ///< q, k, v and output projections
    Attention,  ///< attention scores, softmax, scores x values
    Mlp,        ///< gate, up, down, the activation, an MoE router and experts
    Norm,
    Elementwise, ///< residual adds
    Head,        ///< the output head (lm_head) and the embedding lookup
};
std::string_view operatorKindKey(OperatorKind kind);

/** One operator of one layer (or the head), per device. */
struct OperatorCost
{
    std::string name; ///< "q_proj", "qk_matmul", ...; prefixed "sliding: " in a mixed model
    OperatorKind kind = OperatorKind::Projection;
    double layers = 1; ///< how many times a step runs it (the layers of its group; 1: head)
    double flops = 0;
    double weightBytes = 0;
    double activationBytes = 0; ///< activations loaded and stored
    double kvBytes = 0;         ///< KV cache loaded and stored
    double seconds = 0;         ///< on the roofline: max(bytes / B, FLOP / P), efficiencies in
    Bound bound = Bound::Memory;

    double bytes() const { return weightBytes + activationBytes + kvBytes; }
    double intensity() const { return bytes() > 0.0 ? flops / bytes() : 0.0; }
    /// FLOP/s it attains on the roofline (its FLOP over its time)
    double attainableFlops() const { return seconds > 0.0 ? flops / seconds : 0.0; }
};

struct OperatorBreakdown
{
    Phase phase = Phase::Decode;
    double batch = 1;         ///< sequences (prefill: the one request the prefill figures are)
    double tokens = 1;        ///< tokens computed in the step, all sequences
    double contextTokens = 0; ///< what each new token attends to (decode), the prompt (prefill)
    double peakFlops = 0;     ///< with the compute efficiency
    double bandwidth = 0;     ///< with the bandwidth efficiency
    double kvBandwidth = 0;   ///< the KV cache's, with the attention kernels' efficiency
    AttentionKernel attentionKernel = AttentionKernel::Fused;
    std::vector<OperatorCost> operators;
    // sums over every operator x its layers
    double flops = 0;
    double bytes = 0;
    double weightBytes = 0;
    double activationBytes = 0;
    double kvBytes = 0;
    double seconds = 0;         ///< each operator on its own roof, one after another
    double rooflineSeconds = 0; ///< the sums on one roofline: max(bytes / B, FLOP / P)
    /// What the whole-model step pays beside its roofs (its all-reduces, the estimate's step
    /// overhead and time per sequence): the step's time less its roofs' (issue #43, item 6)
    double beyondRoofsSeconds = 0;
    /// The operators one after another plus beyondRoofsSeconds: the step the operators make,
    /// beside modelSeconds (what is left between them is in `differences`)
    double stepSeconds = 0;
    // the whole-model figures the evaluation prints for the same step
    double modelFlops = 0;
    double modelBytes = 0;
    double modelWeightBytes = 0;
    double modelKvBytes = 0;
    double modelSeconds = 0;
    /// Parameters the operators hold (the embedding table counted) against the model's count.
    double operatorParameters = 0;
    double modelParameters = 0;
    /// Where the operators' assumptions and the whole-model figure's differ, in words.
    std::vector<std::string> differences;
};

/**
 * The step broken into operators at the scenario's batch and context (decode) or its prompt
 * (prefill). Needs the model's hidden size, heads, KV heads and head dim; a missing FFN width is
 * inferred from the parameter count (said in `differences`). Latent (MLA) and linear-attention
 * layers are not broken down: the error says so, at "/model".
 */
Result<OperatorBreakdown> operatorBreakdown(const Scenario &scenario, Phase phase,
                                            AttentionKernel kernel = AttentionKernel::Fused);

} // namespace core
