// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/weightparts.h"

#include "core/model/architecture.h"

#include <algorithm>
#include <vector>

namespace core {

std::string_view weightPartKey(WeightPart part)
{
    switch (part) {
    case WeightPart::Embeddings:
        return "embeddings";
    case WeightPart::Attention:
        return "attention";
    case WeightPart::Mlp:
        return "mlp";
    case WeightPart::Experts:
        return "experts";
    case WeightPart::Other:
        return "other";
    }
    return "other";
}

std::string_view weightPartLabel(WeightPart part)
{
    switch (part) {
    case WeightPart::Embeddings:
        return "embeddings and output head";
    case WeightPart::Attention:
        return "attention";
    case WeightPart::Mlp:
        return "dense MLPs and shared experts";
    case WeightPart::Experts:
        return "routed experts";
    case WeightPart::Other:
        return "norms, routers and biases";
    }
    return "other";
}

std::optional<WeightPart> parseWeightPart(std::string_view key)
{
    for (WeightPart part : kWeightParts)
        if (weightPartKey(part) == key)
            return part;
    return std::nullopt;
}

namespace {

/** q, k, v and o of one layer of ordinary attention; 0 where the heads are not known or the
 *  layer's attention is of another kind (latent, linear, state-space, shared). */
double attentionParametersOf(const ModelSpec &m, const LayerGroup &group)
{
    const bool ordinary = group.attention == AttentionKind::Full ||
                          group.attention == AttentionKind::Sliding ||
                          group.attention == AttentionKind::Chunked;
    const double kv = isSet(group.kvHeads) ? group.kvHeads : m.kvHeads;
    const double headDim = isSet(group.headDim) ? group.headDim
                           : isSet(m.headDim)   ? m.headDim
                           : isSet(m.attentionHeads) && isSet(m.hiddenSize)
                               ? m.hiddenSize / m.attentionHeads
                               : kUnset;
    if (!ordinary || !isSet(m.hiddenSize) || !isSet(m.attentionHeads) || !isSet(kv) ||
        !isSet(headDim) || !isSet(group.layers))
        return 0.0;
    return group.layers * 2.0 * m.hiddenSize * headDim * (m.attentionHeads + kv);
}

} // namespace

WeightPartCounts weightPartsOf(const ModelSpec &m)
{
    WeightPartCounts out;
    const double total = isSet(m.parameters) ? std::max(0.0, m.parameters) : 0.0;
    const bool allCounted = std::all_of(m.partParameters.begin(), m.partParameters.end(),
                                        [](double p) { return isSet(p) && p >= 0.0; });
    if (allCounted) {
        out.parameters = m.partParameters;
        out.counted = true;
        return out;
    }
    auto &p = out.parameters;
    if (isSet(m.vocabSize) && isSet(m.hiddenSize))
        p[index(WeightPart::Embeddings)] =
            std::min(total, m.vocabSize * m.hiddenSize * (m.tieEmbeddings ? 1.0 : 2.0));
    const double active = m.active();
    if (isSet(m.experts) && isSet(m.expertsPerToken) && m.experts > m.expertsPerToken &&
        active < total)
        p[index(WeightPart::Experts)] =
            m.experts * (total - active) / (m.experts - m.expertsPerToken);
    double attention = 0.0;
    forEachLayerGroup(
        m, [&](const LayerGroup &group) { attention += attentionParametersOf(m, group); });
    const double left =
        std::max(0.0, total - p[index(WeightPart::Embeddings)] - p[index(WeightPart::Experts)]);
    p[index(WeightPart::Attention)] = std::min(attention, left);
    p[index(WeightPart::Mlp)] = left - p[index(WeightPart::Attention)];
    return out;
}

NumericFormat partFormat(const ServingConfig &sv, WeightPart part)
{
    if (const auto &own = sv.partFormats[index(part)])
        return *own;
    if (part == WeightPart::Embeddings && sv.keepEmbeddings16Bit &&
        nominalBytes(sv.weightFormat) < 2.0)
        return NumericFormat::Bf16;
    return sv.weightFormat;
}

double partBytesPerParameter(const ServingConfig &sv, WeightPart part)
{
    return bytesPerParameter(partFormat(sv, part), sv.quant);
}

bool partsDiffer(const ServingConfig &sv)
{
    // the lesson's case, asked on every evaluation: no part's own format, no 16-bit embeddings
    const bool anyOwn = std::any_of(sv.partFormats.begin(), sv.partFormats.end(),
                                    [](const auto &own) { return own.has_value(); });
    if (!anyOwn && !(sv.keepEmbeddings16Bit && nominalBytes(sv.weightFormat) < 2.0))
        return false;
    return std::any_of(kWeightParts.begin(), kWeightParts.end(),
                       [&](WeightPart part) { return partFormat(sv, part) != sv.weightFormat; });
}

std::string weightFormatsLabel(const ServingConfig &sv)
{
    std::string label(formatLabel(sv.weightFormat));
    std::vector<NumericFormat> seen{sv.weightFormat};
    for (WeightPart part : kWeightParts) {
        const NumericFormat format = partFormat(sv, part);
        if (std::find(seen.begin(), seen.end(), format) != seen.end())
            continue;
        seen.push_back(format);
        label += " + " + std::string(formatLabel(format));
    }
    return label;
}

std::string describePartFormats(const ModelSpec &model, const ServingConfig &sv)
{
    if (!partsDiffer(sv))
        return {};
    const WeightPartCounts parts = weightPartsOf(model);
    std::vector<NumericFormat> formats{sv.weightFormat};
    for (WeightPart part : kWeightParts)
        if (std::find(formats.begin(), formats.end(), partFormat(sv, part)) == formats.end())
            formats.push_back(partFormat(sv, part));
    std::string out;
    for (NumericFormat format : formats) {
        std::vector<std::string> names;
        for (WeightPart part : kWeightParts)
            if (partFormat(sv, part) == format && parts[part] > 0.0)
                names.emplace_back(weightPartLabel(part));
        if (names.empty())
            continue;
        std::string list;
        for (std::size_t i = 0; i < names.size(); ++i)
            list += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
        out += (out.empty() ? "" : "; ") + list + " " + std::string(formatLabel(format));
    }
    return out;
}

bool anyPartTakesGroupScales(const ServingConfig &sv)
{
    return std::any_of(kWeightParts.begin(), kWeightParts.end(),
                       [&](WeightPart part) { return takesGroupScales(partFormat(sv, part)); });
}

std::vector<WeightPart> unsizedPartsWithFormats(const ModelSpec &model, const ServingConfig &sv)
{
    std::vector<WeightPart> out;
    const WeightPartCounts parts = weightPartsOf(model);
    for (WeightPart part : kWeightParts)
        if (sv.partFormats[index(part)] && *sv.partFormats[index(part)] != sv.weightFormat &&
            !(parts[part] > 0.0))
            out.push_back(part);
    return out;
}

bool anyPartFormatUnsized(const ModelSpec &model, const ServingConfig &sv)
{
    // most scenarios state no part's format: nothing to count (evaluate asks on every step)
    const bool anyOwn = std::any_of(kWeightParts.begin(), kWeightParts.end(), [&](WeightPart part) {
        return sv.partFormats[index(part)] && *sv.partFormats[index(part)] != sv.weightFormat;
    });
    return anyOwn && !unsizedPartsWithFormats(model, sv).empty();
}

double weightBytesOf(const ModelSpec &m, const ServingConfig &sv)
{
    const double uniform = m.parameters * bytesPerParameter(sv.weightFormat, sv.quant);
    if (!partsDiffer(sv))
        return uniform; // one format: the lesson's parameters x bytes, exactly
    const WeightPartCounts parts = weightPartsOf(m);
    double bytes = uniform;
    for (WeightPart part : kWeightParts)
        bytes += parts[part] *
                 (partBytesPerParameter(sv, part) - bytesPerParameter(sv.weightFormat, sv.quant));
    return bytes;
}

} // namespace core
