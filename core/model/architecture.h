// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A model's layers as groups that share an attention kind and an MLP kind, and the one rule for
// how much KV (and fixed recurrent state) a sequence holds across them. A model without explicit
// groups is one group built from its top-level fields (the lesson's case), so every earlier
// scenario reads and computes as before.

#include "core/model/scenario.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace core {

/** The layers of a model, each group with its own attention and MLP (see scenario.h). A group's
 *  unset KV heads and head dim are the model's. */
std::vector<LayerGroup> layerGroupsOf(const ModelSpec &model);

/** Fills a group's unset KV heads, head dim and (dense) MLP width with the model's. */
void completeGroup(const ModelSpec &model, LayerGroup &group);

/** The groups layerGroupsOf gives, one at a time and in the same order, without building the
 *  list: evaluate() walks them several times per slider step (issue #46: the copies were a
 *  third of an evaluation). A model without stated groups is one group, or two where a window
 *  covers some of its layers. */
template <typename Visit> void forEachLayerGroup(const ModelSpec &model, Visit &&visit)
{
    if (!model.layerGroups.empty()) {
        for (const LayerGroup &stated : model.layerGroups) {
            LayerGroup group = stated;
            completeGroup(model, group);
            visit(std::as_const(group));
        }
        return;
    }
    LayerGroup all;
    all.layers = model.layers;
    if (isSet(model.kvLatentDim)) {
        all.attention = AttentionKind::Latent;
        all.latentDim = model.kvLatentDim;
    }
    if (isSet(model.experts) && isSet(model.expertsPerToken)) {
        all.mlp = MlpKind::Moe;
        all.experts = model.experts;
        all.expertsPerToken = model.expertsPerToken;
    }
    if (isSet(model.slidingWindow) && !isSet(model.kvLatentDim)) {
        LayerGroup windowed = all;
        windowed.attention = AttentionKind::Sliding;
        windowed.window = model.slidingWindow;
        windowed.layers = isSet(model.slidingWindowLayers)
                              ? std::min(model.slidingWindowLayers, model.layers)
                              : model.layers;
        all.layers = model.layers - windowed.layers;
        completeGroup(model, windowed);
        visit(std::as_const(windowed));
        if (all.layers > 0) {
            completeGroup(model, all);
            visit(std::as_const(all));
        }
        return;
    }
    completeGroup(model, all);
    visit(std::as_const(all));
}

std::string_view attentionKindKey(AttentionKind kind);
std::string_view mlpKindKey(MlpKind kind);

/** Bytes per token one group's attention cache grows by before any window caps it: 2 (K and V)
 *  x layers x KV heads x head dim x bytes, or layers x latent width x bytes for MLA; 0 for
 *  linear attention, state-space and attention-free layers. */
double groupKvBytesPerToken(const LayerGroup &group, double bytesPerElement);

/** Bytes a decode step reads of one group's cache for a sequence of `tokens`: what it holds,
 *  except sparse attention's (DSA): min(tokens, top-k) latents and every token's indexer key. */
double groupKvReadBytes(const LayerGroup &group, double bytesPerElement, double tokens);

/** Tokens a group's cache holds for a sequence of `tokens`: the whole sequence for full and
 *  latent attention, at most the window or chunk for sliding and chunked attention, none for
 *  the others. */
double groupHeldTokens(const LayerGroup &group, double tokens);

/** Causal attention's FLOP for one token that attends to `context` earlier tokens: QK^T and AV,
 *  2 x 2 x query heads x head dim per layer and attended token, a window or chunk capping what
 *  a layer attends to; linear-attention, state-space and attention-free layers add none. The
 *  decode step's attention term. NaN when the model has no query heads or head dim. */
double attentionFlopsPerToken(const ModelSpec &model, double context);

/** The same for a prompt of `tokens` processed causally (token i attends to i tokens): the
 *  prefill's attention term, about tokens^2 / 2 attended pairs per layer without a window. */
double prefillAttentionFlops(const ModelSpec &model, double tokens);

/** The small kernels of a layer beside its matmuls and attention (issue #43), as a profiler
 *  times a transformer layer (Vidur): the two norms, the rotary embedding of queries and keys,
 *  the MLP's gated activation and the residual add. Each is memory-bound on activations, and at
 *  a few tokens a kernel takes a floor of microseconds whatever it moves. */
enum class SmallKernel { Norm, Rotary, Activation, ResidualAdd };
inline constexpr std::size_t kSmallKernelKinds = 4;

/** One kind of small kernel in one layer group: how many times the group runs it (layers x
 *  kernels per layer) and the bytes one run moves per token (read and written, 16-bit
 *  activations) on one tensor-parallel rank. */
struct SmallKernelRun
{
    SmallKernel kind = SmallKernel::Norm;
    double runs = 0;
    double bytesPerToken = 0;
};

/** One group's small kernels: a norm (over the hidden size, each rank holds it whole) and a
 *  residual add (two read, one written) around each block of a layer, two where a layer has
 *  attention (or a mixer) and an MLP, rotary over the query and KV heads on
 *  attention layers (split over the tensor-parallel ranks), the activation over 3 x the MLP's
 *  width (the gate and up halves read, the product written; a mixture's active and shared
 *  experts) on layers with an MLP. None when the model has no hidden size. Linear-attention and
 *  state-space layers run kernels of their own, not counted. A fixed array: an evaluation reads
 *  it on every slider step. */
struct GroupSmallKernels
{
    std::array<SmallKernelRun, kSmallKernelKinds> runs{};
    std::size_t count = 0;
    std::span<const SmallKernelRun> view() const & { return {runs.data(), count}; }
    /// a temporary's runs end with it: name it first (ASan found a range-for over one)
    std::span<const SmallKernelRun> view() const && = delete;
};
GroupSmallKernels groupSmallKernels(const ModelSpec &model, const LayerGroup &group,
                                    double tensorParallel);

/** Devices of one tensor-parallel group that share a layer group's cache: K and V split by head
 *  (each device keeps a whole head when there are fewer KV heads than devices), an MLA latent is
 *  kept whole on every device, a recurrent state splits with its heads over the TP degree. */
double groupKvShards(const LayerGroup &group, double tensorParallel);

/** One sequence's cache: the attention KV plus the fixed recurrent state, whole and per device
 *  of one tensor-parallel group (before pipeline stages divide the layers). */
struct SequenceCache
{
    double bytes = 0; ///< attention KV + fixed state
    /// What a decode step reads of it: the same, except where sparse attention (DSA) reads
    /// its top-k latents and every token's indexer key
    double readBytes = 0;
    double readBytesPerDevice = 0;
    double stateBytes = 0;          ///< the fixed part (linear attention, state-space layers)
    double stateBytesPerDevice = 0; ///< the same on one tensor-parallel rank
    double bytesPerDevice = 0;      ///< per tensor-parallel rank
    double perTokenUncapped = 0;    ///< sum of every group's bytes per token
    double perTokenUncappedPerDevice = 0;
};

SequenceCache sequenceCache(const ModelSpec &model, double bytesPerElement, double tokens,
                            double tensorParallel);

/** One layer group's part of a sequence's cache, for the views that show the groups. */
struct GroupCache
{
    LayerGroup group;
    double bytes = 0; ///< KV at the tokens asked (at most the window) + fixed state, whole
};
std::vector<GroupCache> sequenceCacheByGroup(const ModelSpec &model, double bytesPerElement,
                                             double tokens);

/** "52 sliding-window layers (1,024 tokens)", "58 latent (MLA) MoE layers", "36 linear-attention
 *  or state-space layers (fixed state)": what a group is, in words. */
std::string describeGroup(const LayerGroup &group);

/** The longest sequence whose per-device cache, times `sequences` and (1 + fragmentation), fits
 *  in `budgetBytes`; infinity when every group's cache is capped (windows, fixed state) and the
 *  capped total fits; 0 when not even the fixed state fits. */
double longestSequenceWithin(const ModelSpec &model, double bytesPerElement, double tensorParallel,
                             double sequences, double chargeFactor, double budgetBytes);

} // namespace core
