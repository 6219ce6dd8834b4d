// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/architecture.h"

#include "core/model/units.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace core {

namespace {

bool cachesPerToken(AttentionKind kind)
{
    return kind == AttentionKind::Full || kind == AttentionKind::Sliding ||
           kind == AttentionKind::Chunked || kind == AttentionKind::Latent;
}

bool capped(const LayerGroup &group)
{
    return (group.attention == AttentionKind::Sliding ||
            group.attention == AttentionKind::Chunked) &&
           isSet(group.window);
}

/** A group's fixed recurrent state per sequence (all its layers); 0 without one. */
double groupStateBytes(const LayerGroup &group)
{
    return isSet(group.stateBytes) ? group.layers * group.stateBytes : 0.0;
}

} // namespace

void completeGroup(const ModelSpec &model, LayerGroup &group)
{
    if (!isSet(group.kvHeads))
        group.kvHeads = model.kvHeads;
    if (!isSet(group.headDim))
        group.headDim = model.headDim;
    if (!isSet(group.intermediateSize) && group.mlp == MlpKind::Dense)
        group.intermediateSize = model.intermediateSize;
}

std::vector<LayerGroup> layerGroupsOf(const ModelSpec &model)
{
    std::vector<LayerGroup> groups;
    groups.reserve(std::max<std::size_t>(model.layerGroups.size(), 2));
    forEachLayerGroup(model, [&groups](const LayerGroup &group) { groups.push_back(group); });
    return groups;
}

std::string_view attentionKindKey(AttentionKind kind)
{
    switch (kind) {
    case AttentionKind::Full:
        return "full";
    case AttentionKind::Sliding:
        return "sliding";
    case AttentionKind::Chunked:
        return "chunked";
    case AttentionKind::Latent:
        return "latent";
    case AttentionKind::Linear:
        return "linear";
    case AttentionKind::Shared:
        return "shared";
    case AttentionKind::None:
        return "none";
    }
    return "full";
}

std::string_view mlpKindKey(MlpKind kind)
{
    switch (kind) {
    case MlpKind::Dense:
        return "dense";
    case MlpKind::Moe:
        return "moe";
    case MlpKind::None:
        return "none";
    }
    return "dense";
}

double groupKvBytesPerToken(const LayerGroup &group, double bytesPerElement)
{
    if (!cachesPerToken(group.attention))
        return 0.0;
    if (group.attention == AttentionKind::Latent)
        return group.layers * group.latentDim * bytesPerElement;
    return 2.0 * group.layers * group.kvHeads * group.headDim * bytesPerElement;
}

double groupHeldTokens(const LayerGroup &group, double tokens)
{
    if (!cachesPerToken(group.attention))
        return 0.0;
    return capped(group) ? std::min(tokens, group.window) : tokens;
}

double groupKvReadBytes(const LayerGroup &group, double bytesPerElement, double tokens)
{
    const double held = groupHeldTokens(group, tokens);
    const double perToken = groupKvBytesPerToken(group, bytesPerElement);
    if (group.attention != AttentionKind::Latent || !isSet(group.topK) || !(group.latentDim > 0.0))
        return perToken * held;
    // the indexer's keys of every token, the latents of the top-k it picks
    const double index = isSet(group.indexDim) ? std::min(group.indexDim, group.latentDim) : 0.0;
    const double indexShare = index / group.latentDim;
    return perToken * (held * indexShare + std::min(held, group.topK) * (1.0 - indexShare));
}

namespace {

/** Per-layer FLOP per attended token, and the window a group attends within (inf: none). */
bool attends(AttentionKind kind)
{
    return cachesPerToken(kind) || kind == AttentionKind::Shared;
}

double attentionFlops(const ModelSpec &model, const auto &attendedTokens)
{
    if (!isSet(model.attentionHeads))
        return std::numeric_limits<double>::quiet_NaN();
    double flops = 0.0;
    forEachLayerGroup(model, [&](const LayerGroup &group) {
        if (!attends(group.attention))
            return;
        if (!isSet(group.headDim)) {
            flops = std::numeric_limits<double>::quiet_NaN();
            return;
        }
        // a window, or the top-k latents sparse attention (DSA) picks, caps what a token attends
        const double window = capped(group) ? group.window
                              : isSet(group.topK) && group.attention == AttentionKind::Latent
                                  ? group.topK
                                  : std::numeric_limits<double>::infinity();
        flops += 4.0 * group.layers * model.attentionHeads * group.headDim * attendedTokens(window);
    });
    return flops;
}

} // namespace

double attentionFlopsPerToken(const ModelSpec &model, double context)
{
    return attentionFlops(model, [context](double window) { return std::min(context, window); });
}

double prefillAttentionFlops(const ModelSpec &model, double tokens)
{
    // sum over i = 1..tokens of min(i, window)
    return attentionFlops(model, [tokens](double window) {
        if (tokens <= window)
            return tokens * (tokens + 1.0) / 2.0;
        return window * (window + 1.0) / 2.0 + (tokens - window) * window;
    });
}

GroupSmallKernels groupSmallKernels(const ModelSpec &model, const LayerGroup &group,
                                    double tensorParallel)
{
    GroupSmallKernels out;
    auto push = [&out](SmallKernel kind, double runs, double bytesPerToken) {
        out.runs[out.count++] = {kind, runs, bytesPerToken};
    };
    if (!isSet(model.hiddenSize) || !isSet(group.layers) || group.layers <= 0.0)
        return out;
    constexpr double kActivationBytes = 2.0;
    const double tp = std::max(1.0, tensorParallel);
    const double hidden = model.hiddenSize * kActivationBytes;
    // a norm and a residual add around each block: two a layer of attention (or a mixer) and
    // an MLP, one where a layer is one block (Nemotron-H's Mamba, attention or MLP layers)
    const double blocks = (group.attention != AttentionKind::None ? 1.0 : 0.0) +
                          (group.mlp != MlpKind::None ? 1.0 : 0.0);
    if (blocks > 0) {
        push(SmallKernel::Norm, blocks * group.layers, 2.0 * hidden);
        push(SmallKernel::ResidualAdd, blocks * group.layers, 3.0 * hidden);
    }
    if (attends(group.attention) && isSet(model.attentionHeads) && isSet(group.headDim)) {
        const double kvHeads =
            group.attention == AttentionKind::Shared || !isSet(group.kvHeads) ? 0.0 : group.kvHeads;
        push(SmallKernel::Rotary, group.layers,
             2.0 * (model.attentionHeads + kvHeads) * group.headDim * kActivationBytes / tp);
    }
    double width = 0.0;
    if (group.mlp == MlpKind::Dense) {
        width = isSet(group.intermediateSize) ? group.intermediateSize : model.intermediateSize;
    } else if (group.mlp == MlpKind::Moe && isSet(group.expertIntermediateSize) &&
               isSet(group.expertsPerToken)) {
        const double shared = isSet(group.sharedExperts) ? group.sharedExperts : 0.0;
        width = group.expertIntermediateSize * (group.expertsPerToken + shared);
    }
    if (isSet(width) && width > 0.0)
        push(SmallKernel::Activation, group.layers, 3.0 * width * kActivationBytes / tp);
    return out;
}

double groupKvShards(const LayerGroup &group, double tensorParallel)
{
    const double tp = std::max(1.0, tensorParallel);
    if (group.attention == AttentionKind::Latent)
        return 1.0;
    if (cachesPerToken(group.attention) && isSet(group.kvHeads))
        return std::min(tp, group.kvHeads);
    return tp;
}

SequenceCache sequenceCache(const ModelSpec &model, double bytesPerElement, double tokens,
                            double tensorParallel)
{
    SequenceCache cache;
    forEachLayerGroup(model, [&](const LayerGroup &group) {
        const double shards = groupKvShards(group, tensorParallel);
        const double perToken = groupKvBytesPerToken(group, bytesPerElement);
        const double state = groupStateBytes(group);
        const double bytes = perToken * groupHeldTokens(group, tokens) + state;
        const double read = groupKvReadBytes(group, bytesPerElement, tokens) + state;
        cache.readBytes += read;
        cache.readBytesPerDevice += read / shards;
        cache.bytes += bytes;
        cache.stateBytes += state;
        cache.stateBytesPerDevice += state / shards;
        cache.bytesPerDevice += bytes / shards;
        cache.perTokenUncapped += perToken;
        cache.perTokenUncappedPerDevice += perToken / shards;
    });
    return cache;
}

std::vector<GroupCache> sequenceCacheByGroup(const ModelSpec &model, double bytesPerElement,
                                             double tokens)
{
    std::vector<GroupCache> out;
    for (const LayerGroup &group : layerGroupsOf(model)) {
        out.push_back(
            {group, groupKvBytesPerToken(group, bytesPerElement) * groupHeldTokens(group, tokens) +
                        groupStateBytes(group)});
    }
    return out;
}

std::string describeGroup(const LayerGroup &group)
{
    std::string kind;
    switch (group.attention) {
    case AttentionKind::Full:
        kind = "full-attention";
        break;
    case AttentionKind::Sliding:
        kind = "sliding-window";
        break;
    case AttentionKind::Chunked:
        kind = "chunked-attention";
        break;
    case AttentionKind::Latent:
        kind = "latent (MLA)";
        break;
    case AttentionKind::Linear: // DeltaNet's linear attention or a Mamba mixer: both recurrent
        kind = "linear-attention or state-space";
        break;
    case AttentionKind::Shared:
        kind = "KV-sharing";
        break;
    case AttentionKind::None:
        kind = "attention-free";
        break;
    }
    std::string text = formatNumber(group.layers, 9) + " " + kind +
                       (group.mlp == MlpKind::Moe ? " MoE" : "") +
                       (group.layers == 1 ? " layer" : " layers");
    if (isSet(group.window) &&
        (group.attention == AttentionKind::Sliding || group.attention == AttentionKind::Chunked))
        text += " (" + formatNumber(group.window, 9) + " tokens)";
    if (group.attention == AttentionKind::Linear)
        text += " (fixed state)";
    if (group.attention == AttentionKind::Latent && isSet(group.topK))
        text += " (sparse: attends " + formatNumber(group.topK, 9) + " tokens)";
    return text;
}

double longestSequenceWithin(const ModelSpec &model, double bytesPerElement, double tensorParallel,
                             double sequences, double chargeFactor, double budgetBytes)
{
    // cost(t) = scale x (sum of perToken_g x min(t, window_g) + state): piecewise linear and
    // non-decreasing, so walk the windows in order and solve the segment the budget ends in.
    const double scale = sequences * chargeFactor;
    double state = 0.0;
    forEachLayerGroup(model, [&](const LayerGroup &group) {
        state += groupStateBytes(group) / groupKvShards(group, tensorParallel);
    });

    double start = 0.0;
    double cost = scale * state;
    if (!(scale > 0.0) || cost > budgetBytes)
        return cost > budgetBytes ? 0.0 : std::numeric_limits<double>::infinity();
    for (;;) {
        // the segment [start, end): up to the next window past start, the groups still growing
        double end = std::numeric_limits<double>::infinity();
        double slope = 0.0; // bytes per extra token of context
        forEachLayerGroup(model, [&](const LayerGroup &group) {
            const double perToken = groupKvBytesPerToken(group, bytesPerElement);
            if (!(perToken > 0.0) || (capped(group) && group.window <= start))
                return;
            slope += scale * perToken / groupKvShards(group, tensorParallel);
            if (capped(group))
                end = std::min(end, group.window);
        });
        if (slope <= 0.0)
            return std::numeric_limits<double>::infinity();
        const double reach = start + (budgetBytes - cost) / slope;
        if (reach <= end)
            return std::floor(reach);
        if (std::isinf(end))
            return std::numeric_limits<double>::infinity();
        cost += slope * (end - start);
        start = end;
    }
}

} // namespace core
