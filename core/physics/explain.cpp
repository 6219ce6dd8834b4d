// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/physics/explain.h"

#include "core/model/parameters.h"

#include "core/model/architecture.h"
#include "core/model/scenario.h"
#include "core/model/scenarioedits.h"
#include "core/model/weightparts.h"
#include "core/physics/estimateterms.h"

#include <cmath>

namespace core {

namespace {

using F = FigureId;

std::string sourceFor(const std::map<std::string, std::string> &sources, const std::string &key)
{
    if (auto it = sources.find(key); it != sources.end())
        return it->second;
    if (auto it = sources.find("*"); it != sources.end())
        return it->second;
    return {};
}

std::string count(double value)
{
    return formatNumber(value, 9);
}

class Builder
{
public:
    Builder(const Scenario &s, const Evaluation &e, MemoryUnits units)
        : m_s(s)
        , m_e(e)
        , m_units(units)
    {}

    std::string fig(F id) const { return formatFigure(m_e, id, m_units); }
    std::string bytes(double value) const { return formatBytes(value, m_units); }

    void input(std::string name, std::string value, std::string_view path)
    {
        m_out.inputs.push_back({std::move(name), std::move(value), provenanceOf(m_s, path)});
    }
    void derived(std::string name, F id)
    {
        m_out.inputs.push_back(
            {std::move(name), fig(id), "computed: " + std::string(figureInfo(id).key)});
    }

    Explanation &out() { return m_out; }

private:
    const Scenario &m_s;
    const Evaluation &m_e;
    MemoryUnits m_units;
    Explanation m_out;
};

} // namespace

std::string provenanceOf(const Scenario &s, std::string_view path)
{
    const std::string key(path);
    if (auto it = s.givenInputs.find(key); it != s.givenInputs.end())
        return it->second == InputOrigin::CommandLine ? "set on the command line"
               : it->second == InputOrigin::App       ? "entered in the app"
                                                      : "scenario file";
    auto fromSpec = [&](const std::string &presetId,
                        const std::map<std::string, std::string> &sources,
                        const std::map<std::string, std::string> &notes, std::string_view section) {
        std::string field = key.substr(section.size() + 1);
        if (field.starts_with("peak_tflops"))
            field = "peak_tflops";
        std::string source = sourceFor(sources, field);
        std::string origin =
            presetId.empty() ? "inline " + std::string(section) : "preset " + presetId;
        std::string text = source.empty() ? origin : origin + ": " + source;
        // a doubt recorded with the value is shown with it
        if (auto note = notes.find(field); note != notes.end())
            text += " (note: " + note->second + ")";
        return text;
    };
    if (key.starts_with("model."))
        return fromSpec(s.model.presetId, s.model.sources, s.model.notes, "model");
    if (key.starts_with("device."))
        return fromSpec(s.device.presetId, s.device.sources, s.device.notes, "device");
    // Price and power follow the device (scenarioedits.h): say which rule gave the value.
    const DeviceFollowers follow = deviceFollowers(s.device, s.wizard);
    if (key == "cost.price_per_hour_usd") {
        if (!isSet(s.cost.pricePerHourUsd) || s.wizard.prices.contains(s.device.presetId))
            return follow.priceOrigin;
        if (s.cost.pricePerHourUsd == s.device.pricePerHourUsd)
            return follow.priceOrigin + ": " + provenanceOf(s, "device.price_per_hour_usd");
    }
    if (key == "power.device_w") {
        if (isSet(s.device.powerW) && s.power.deviceW == s.device.powerW)
            return follow.powerOrigin + ": " + provenanceOf(s, "device.power_w");
        if (!isSet(s.device.powerW) && s.power.deviceW == follow.deviceW)
            return follow.powerOrigin;
    }
    // the training plan's inputs are no part of the lesson's example: their default's own source
    if (key.starts_with("training.") && !key.starts_with("training.dp_degree"))
        if (const ParameterInfo *info = findParameter(key); info && isSet(info->defaultValue))
            return "default: " + std::string(info->help);
    return "default: the lesson's running example";
}

std::string formatFigure(const Evaluation &e, FigureId id, MemoryUnits units)
{
    if (!e.available(id))
        return "n/a";
    return formatQuantity(e[id], figureInfo(id).quantity, units);
}

std::string formatQuantity(double v, Quantity quantity, MemoryUnits units)
{
    if (!std::isfinite(v))
        return "n/a";
    switch (quantity) {
    case Quantity::Bytes:
        return std::fabs(v) < 1e6 ? formatNumber(v, 6) + " B" : formatBytes(v, units);
    case Quantity::Count:
        return formatNumber(v, 9);
    case Quantity::Tokens:
        return formatNumber(v, 6) + " tokens";
    case Quantity::Flops:
        return formatFlops(v);
    case Quantity::FlopsPerSecond:
        return formatFlopRate(v);
    case Quantity::FlopsPerByte:
        return formatNumber(v, 4) + " FLOP/B";
    case Quantity::BytesPerSecond:
        return formatBandwidth(v);
    case Quantity::Seconds:
        return formatSeconds(v);
    case Quantity::TokensPerSecond:
        return formatNumber(v, 4) + " tokens/s";
    case Quantity::Usd:
        return formatUsd(v);
    case Quantity::UsdPerMillionTokens:
        return formatUsd(v) + " per million tokens";
    case Quantity::Joules:
        return formatNumber(v, 3) + " J";
    case Quantity::Watts:
        return formatNumber(v, 4) + " W";
    case Quantity::Ratio:
        return formatNumber(v, 3);
    case Quantity::Boolean:
        return v != 0.0 ? "yes" : "no";
    }
    return "n/a";
}

namespace {

constexpr double kKvPerTokenTerms = -1.0; ///< groupTerms: per token, no window applied

/** "2 x 18 x 8 x 64 x 2 B x 128 + ..." : each layer group's term of the KV rule (architecture.h),
 *  per token when `tokens` is kKvPerTokenTerms, else at that many tokens. */
std::string groupTerms(const ModelSpec &m, NumericFormat kvFormat, double tokens)
{
    const std::string bytes = formatNumber(nominalBytes(kvFormat), 3) + " B";
    std::string out;
    for (const LayerGroup &g : layerGroupsOf(m)) {
        std::string term;
        if (g.attention == AttentionKind::Latent)
            term = count(g.layers) + " x " + count(g.latentDim) + " x " + bytes;
        else if (groupKvBytesPerToken(g, 1.0) > 0.0)
            term = "2 x " + count(g.layers) + " x " + count(g.kvHeads) + " x " + count(g.headDim) +
                   " x " + bytes;
        if (!term.empty() && tokens != kKvPerTokenTerms)
            term += " x " + count(groupHeldTokens(g, tokens));
        if (isSet(g.stateBytes) && tokens != kKvPerTokenTerms)
            term = count(g.layers) + " x " + count(g.stateBytes) + " B" + " state";
        if (term.empty())
            continue;
        out += (out.empty() ? "" : " + ") + term;
    }
    return out.empty() ? "0" : out;
}

std::string efficiency(double value)
{
    return formatNumber(value, 3);
}

/** The efficiencies' inputs: the scenario's own values, or the profile they came from. */
void estimateInputs(Builder &b, const Scenario &s, const Evaluation &e)
{
    if (e.estimateMode == EstimateMode::SpeedOfLight) {
        b.input("bandwidth efficiency", efficiency(e[F::EstimateBandwidthEfficiency]),
                "serving.bandwidth_efficiency");
        b.input("compute efficiency", efficiency(e[F::EstimateComputeEfficiency]),
                "serving.compute_efficiency");
        if (e[F::EstimateStepOverheadSeconds] > 0.0)
            b.input("step overhead", formatSeconds(e[F::EstimateStepOverheadSeconds]),
                    "serving.step_overhead_s");
        return;
    }
    const std::string label = estimateLabel(s);
    b.derived("bandwidth efficiency (" + label + ")", F::EstimateBandwidthEfficiency);
    b.derived("compute efficiency (" + label + ")", F::EstimateComputeEfficiency);
    b.derived("step overhead (" + label + ")", F::EstimateStepOverheadSeconds);
    if (!estimateTerms(s).measuredCeilings)
        return;
    // the fitted share multiplies what a benchmark reached on the device (issue #43)
    const CeilingShare bandwidth = bandwidthCeiling(s.device);
    const NumericFormat format = computeFormatFor(s);
    const CeilingShare compute = computeCeiling(s.device, format);
    auto ceilingText = [](const CeilingShare &c, double spec, const std::string &unit) {
        const std::string share = formatNumber(c.share * 100.0, 3) + " % of the spec sheet's " +
                                  formatNumber(spec, 4) + " " + unit;
        if (c.sibling) // no measurement of this format: another one's share on the same units
            return share +
                   " (not measured in this format: " + c.source.substr(0, c.source.find(':')) +
                   " of its own measurement)";
        return c.measured ? formatNumber(c.ceiling, 4) + " " + unit + " measured, " + share
                          : share + " (not measured: the median of the measured devices)";
    };
    b.input("measured bandwidth ceiling",
            ceilingText(bandwidth, s.device.bandwidthGbPerSecond, "GB/s"),
            bandwidth.measured ? "device.measured.bandwidth_gb_s" : "device.bandwidth_gb_s");
    const std::string tflops = "TFLOP/s " + std::string(formatKey(format));
    b.input("measured matmul ceiling", ceilingText(compute, s.device.peak(format), tflops),
            compute.measured ? "device.measured.tflops." + std::string(formatKey(format))
                             : "device.peak_tflops." + std::string(formatKey(format)));
}

/// what the small-kernel term is and where it comes from, beside every sum that holds it
constexpr const char *kSmallKernelsNote =
    "Small kernels: each layer's two norms, two residual adds, rotary and activation, each the "
    "longer of a launch floor (2.5-5.75 us) and its activations' bytes at a share of the measured "
    "bandwidth, as profiled on A100 and H100 (Vidur); engines that fuse them pay less.";

} // namespace

std::optional<Explanation> explain(const Scenario &s, const Evaluation &e, FigureId id,
                                   MemoryUnits units)
{
    if (!e.available(id))
        return std::nullopt;
    Builder b(s, e, units);
    Explanation &x = b.out();
    const ModelSpec &m = s.model;
    const ServingConfig &sv = s.serving;
    const double shards = std::max(1.0, sv.tensorParallel) * std::max(1.0, sv.pipelineParallel);
    const std::string tp = shards > 1 ? " / " + count(shards) + " devices" : "";
    const std::string weightFormat(formatLabel(sv.weightFormat));

    switch (id) {
    case F::WeightsBytes:
    case F::BytesPerParameter:
        x.formula = "weights = parameters x bytes per parameter" +
                    std::string(shards > 1 ? " / (tensor-parallel x pipeline devices)" : "");
        x.substituted = "= " + count(m.parameters) + " x " +
                        formatNumber(e[F::BytesPerParameter], 6) + " B (" + weightFormat + ")" +
                        tp + " = " + b.fig(F::WeightsBytes);
        b.input("parameters", count(m.parameters), "model.parameters");
        b.input("weight format", weightFormat, "serving.weight_format");
        if (partsDiffer(sv)) {
            // each part in its own format (a checkpoint's, or embeddings kept at 16 bits)
            const WeightPartCounts parts = weightPartsOf(m);
            std::string terms;
            for (WeightPart part : kWeightParts) {
                if (!(parts[part] > 0.0))
                    continue;
                terms += (terms.empty() ? "" : " + ") + count(parts[part]) + " x " +
                         formatNumber(partBytesPerParameter(sv, part), 6) + " B (" +
                         std::string(weightPartLabel(part)) + ", " +
                         std::string(formatLabel(partFormat(sv, part))) + ")";
            }
            x.formula = "weights = the sum over the weight parts of parameters x their format's "
                        "bytes per parameter" +
                        std::string(shards > 1 ? " / (tensor-parallel x pipeline devices)" : "");
            x.substituted = "= (" + terms + ")" + tp + " = " + b.fig(F::WeightsBytes);
            b.input("weight formats by part", parts.counted ? "counted by the import" : "estimated",
                    "serving.weight_formats");
        }
        x.note =
            partsDiffer(sv)
                ? std::string("The checkpoint's parts in their own formats") +
                      (weightPartsOf(m).counted
                           ? ", counted by the import from the config's architecture"
                           : ", split by an estimate (embeddings from the vocabulary, experts "
                             "from the active parameters, attention from the heads)") +
                      ". The allocator adds its own overhead."
                : "A nominal figure: real quantised checkpoints add scales, keep some layers at "
                  "higher precision, and the allocator adds its own overhead. Treat it as a "
                  "lower bound.";
        break;
    case F::KvBytesPerToken:
        if (!m.layerGroups.empty()) {
            x.formula = "KV per token = the sum over layer groups of 2 (K and V) x layers x KV "
                        "heads x head dim x bytes (layers x latent width x bytes for MLA; none "
                        "for linear-attention and state-space layers)";
            x.substituted = "= " + groupTerms(m, sv.kvFormat, kKvPerTokenTerms) + " = " +
                            b.fig(F::KvBytesPerToken);
            b.input("layer groups", count(static_cast<double>(m.layerGroups.size())),
                    "model.layer_groups");
            b.input("KV format", std::string(formatLabel(sv.kvFormat)), "serving.kv_format");
            break;
        }
        if (isSet(m.kvLatentDim)) {
            x.formula = "KV per token = layers x latent width x bytes per element (multi-head "
                        "latent attention)";
            x.substituted = "= " + count(m.layers) + " x " + count(m.kvLatentDim) + " x " +
                            formatNumber(nominalBytes(sv.kvFormat), 3) +
                            " B = " + b.fig(F::KvBytesPerToken);
            b.input("latent width", count(m.kvLatentDim), "model.kv_latent_dim");
            x.note = "MLA caches one compressed latent per token and layer instead of a K and a V "
                     "per head.";
            break;
        }
        x.formula = "KV per token = 2 (K and V) x layers x KV heads x head dim x bytes per element";
        x.substituted = "= 2 x " + count(m.layers) + " x " + count(m.kvHeads) + " x " +
                        count(m.headDim) + " x " + formatNumber(nominalBytes(sv.kvFormat), 3) +
                        " B = " + b.fig(F::KvBytesPerToken);
        b.input("layers", count(m.layers), "model.layers");
        b.input("KV heads", count(m.kvHeads), "model.kv_heads");
        b.input("head dim", count(m.headDim), "model.head_dim");
        b.input("KV format", std::string(formatLabel(sv.kvFormat)), "serving.kv_format");
        break;
    case F::KvBytesPerSequence:
        if (!m.layerGroups.empty()) {
            x.formula = "KV per sequence = the sum over layer groups of the group's KV per token "
                        "x min(context, its window or chunk) + its fixed state";
            x.substituted = "= " + groupTerms(m, sv.kvFormat, sv.contextTokens) + " = " +
                            b.fig(F::KvBytesPerSequence);
            b.input("context", count(sv.contextTokens), "serving.context_tokens");
            b.input("layer groups", count(static_cast<double>(m.layerGroups.size())),
                    "model.layer_groups");
            x.note = "Windowed and chunked layers hold at most their window; latent (MLA) layers "
                     "hold one latent per token; linear-attention layers hold a fixed state "
                     "whatever the context.";
            break;
        }
        x.formula = "KV per sequence = KV per token x context tokens";
        x.substituted = "= " + b.fig(F::KvBytesPerToken) + " x " + count(sv.contextTokens) + " = " +
                        b.fig(F::KvBytesPerSequence);
        b.derived("KV per token", F::KvBytesPerToken);
        b.input("context", count(sv.contextTokens), "serving.context_tokens");
        if (isSet(m.slidingWindow) && isSet(m.slidingWindowLayers))
            x.note = count(m.slidingWindowLayers) + " of " + count(m.layers) + " layers use a " +
                     count(m.slidingWindow) +
                     "-token window and hold at most that; the others hold the whole context.";
        else if (isSet(m.slidingWindow))
            x.note = "With a sliding window each layer holds at most " + count(m.slidingWindow) +
                     " tokens (modelled as every layer windowed).";
        break;
    case F::StateBytesPerSequence:
        x.formula = "fixed state per sequence = the sum over linear-attention and state-space "
                    "layer groups of layers x state bytes per layer";
        x.substituted = "= " + b.fig(F::StateBytesPerSequence);
        b.input("layer groups", count(static_cast<double>(m.layerGroups.size())),
                "model.layer_groups");
        x.note = "Part of the KV cache per sequence: it does not grow with the context.";
        break;
    case F::StateBytesTotal:
        x.formula = "fixed state = resident sequences x fixed state per sequence (per device: "
                    "split with its heads over the tensor-parallel devices)";
        x.substituted = "= " + count(e[F::ResidentSequences]) + " x the state per sequence" + tp +
                        " = " + b.fig(F::StateBytesTotal);
        b.derived("fixed state per sequence", F::StateBytesPerSequence);
        x.note = "Part of the KV cache bar: linear-attention and state-space layers hold this "
                 "much whatever the context; the rest grows with every token.";
        break;
    case F::ResidentSequences:
        x.formula = "resident sequences = max(batch, concurrent sequences)";
        x.substituted = "= max(" + count(sv.batch) + ", " + count(sv.concurrentSequences) +
                        ") = " + b.fig(F::ResidentSequences);
        b.input("batch", count(sv.batch), "serving.batch");
        b.input("concurrent sequences", count(sv.concurrentSequences),
                "serving.concurrent_sequences");
        break;
    case F::KvBytesTotal: {
        const double kvDevices = kvDevicesPerSequence(s);
        x.formula = std::string("KV cache = KV per sequence x resident sequences") +
                    (kvDevices > 1 ? " / devices one sequence's KV is split over" : "");
        x.substituted = "= " + b.fig(F::KvBytesPerSequence) + " x " + b.fig(F::ResidentSequences) +
                        (kvDevices > 1 ? " / " + count(kvDevices) : std::string()) + " = " +
                        b.fig(F::KvBytesTotal);
        b.derived("KV per sequence", F::KvBytesPerSequence);
        b.derived("resident sequences", F::ResidentSequences);
        x.note =
            "The KV cache belongs to traffic, not to the model: it grows with every concurrent "
            "token." +
            std::string(kvDevices > 1 && kvDevices < shards
                            ? " Tensor parallelism cannot split it further: there are fewer KV "
                              "heads than devices, or one MLA latent every device keeps whole."
                            : "");
        break;
    }
    case F::FragmentationBytes:
        x.formula = "fragmentation = fraction x KV cache";
        x.substituted = "= " + formatNumber(sv.fragmentationFraction, 3) + " x " +
                        b.fig(F::KvBytesTotal) + " = " + b.fig(F::FragmentationBytes);
        b.input("fragmentation fraction", formatNumber(sv.fragmentationFraction, 3),
                "serving.fragmentation_fraction");
        break;
    case F::OverheadBytes:
        x.formula = "overhead = runtime (driver) context + workspace";
        x.substituted = "= " + b.fig(F::OverheadBytes);
        b.input("overhead", formatNumber(sv.overheadGb, 4) + " GB", "serving.overhead_gb");
        break;
    case F::ServingBytesTotal:
    case F::HeadroomBytes:
    case F::Fits:
        x.formula =
            "total = weights + KV cache + fragmentation + overhead; headroom = capacity - total";
        x.substituted = "= " + b.fig(F::WeightsBytes) + " + " + b.fig(F::KvBytesTotal) + " + " +
                        b.fig(F::FragmentationBytes) + " + " + b.fig(F::OverheadBytes) + " = " +
                        b.fig(F::ServingBytesTotal) + "; headroom = " + b.fig(F::CapacityBytes) +
                        " - " + b.fig(F::ServingBytesTotal) + " = " + b.fig(F::HeadroomBytes);
        b.derived("weights", F::WeightsBytes);
        b.derived("KV cache", F::KvBytesTotal);
        b.derived("overhead", F::OverheadBytes);
        b.derived("capacity", F::CapacityBytes);
        x.note = "Activations of the serving engine are inside the workspace figure; real "
                 "allocators also reserve more than their tensors use.";
        break;
    case F::CapacityBytes:
        x.formula = "capacity = the device memory a model can use";
        x.substituted = "= " + b.fig(F::CapacityBytes);
        b.input("memory", formatNumber(s.device.capacityGb(), 6) + " GB",
                isSet(s.device.usableMemoryGb) ? "device.usable_memory_gb" : "device.memory_gb");
        break;
    case F::KvBudgetBytes:
        x.formula = "free for KV = capacity - weights - overhead";
        x.substituted = "= " + b.fig(F::CapacityBytes) + " - " + b.fig(F::WeightsBytes) + " - " +
                        b.fig(F::OverheadBytes) + " = " + b.fig(F::KvBudgetBytes);
        b.derived("capacity", F::CapacityBytes);
        b.derived("weights", F::WeightsBytes);
        b.input("overhead", formatNumber(sv.overheadGb, 4) + " GB", "serving.overhead_gb");
        break;
    case F::MaxConcurrentSequences:
    case F::AdmissionLimit: {
        // Per device throughout: with tensor parallelism each device holds its share of the
        // weights and of every sequence's KV (issue #20: the unsplit KV per sequence was mixed
        // with per-device bytes).
        const double devices = kvDevicesPerSequence(s);
        const bool split = devices > 1.0 || sv.fragmentationFraction > 0.0;
        const std::string perSequence = split ? "(" + b.fig(F::KvBytesPerSequence) + " x (1 + " +
                                                    formatNumber(sv.fragmentationFraction, 3) +
                                                    ") / " + formatNumber(devices, 9) + ")"
                                              : b.fig(F::KvBytesPerSequence);
        x.formula = split ? "max sequences = floor((capacity - weights per device - overhead) / "
                            "(KV per sequence x (1 + fragmentation) / devices)); admission limit "
                            "= floor((1 - margin) x max sequences)"
                          : "max sequences = floor((capacity - weights - overhead) / KV per "
                            "sequence); admission limit = floor((1 - margin) x max sequences)";
        x.substituted = "= floor((" + b.fig(F::CapacityBytes) + " - " + b.fig(F::WeightsBytes) +
                        " - " + b.fig(F::OverheadBytes) + ") / " + perSequence +
                        ") = " + b.fig(F::MaxConcurrentSequences) + "; floor((1 - " +
                        formatNumber(sv.admissionMargin, 3) + ") x " +
                        b.fig(F::MaxConcurrentSequences) + ") = " + b.fig(F::AdmissionLimit);
        b.derived("capacity", F::CapacityBytes);
        b.derived(devices > 1.0 ? "weights per device" : "weights", F::WeightsBytes);
        b.derived("overhead", F::OverheadBytes);
        b.derived("KV per sequence", F::KvBytesPerSequence);
        if (split) {
            b.input("fragmentation", formatNumber(sv.fragmentationFraction, 3),
                    "serving.fragmentation_fraction");
            x.inputs.push_back({"devices one sequence's KV is split over", formatNumber(devices, 9),
                                "computed: tensor parallel (at most the KV heads; 1 for an MLA "
                                "latent) x pipeline stages"});
        }
        b.input("admission margin", formatNumber(sv.admissionMargin, 3),
                "serving.admission_margin");
        x.note = "Counts come from bytes, never from rounded display values. Fragmentation makes "
                 "real engines fail earlier.";
        break;
    }
    case F::MaxContextTokens: {
        const double devices = kvDevicesPerSequence(s);
        const bool split = devices > 1.0 || sv.fragmentationFraction > 0.0;
        x.formula = split ? "max context = floor((capacity - weights per device - overhead) / "
                            "(KV per token x (1 + fragmentation) / devices x resident sequences))"
                          : "max context = floor((capacity - weights - overhead) / (KV per token "
                            "x resident sequences))";
        x.substituted = "= floor((" + b.fig(F::CapacityBytes) + " - " + b.fig(F::WeightsBytes) +
                        " - " + b.fig(F::OverheadBytes) + ") / (" + b.fig(F::KvBytesPerToken) +
                        (split ? " x (1 + " + formatNumber(sv.fragmentationFraction, 3) + ") / " +
                                     formatNumber(devices, 9)
                               : std::string()) +
                        " x " + b.fig(F::ResidentSequences) + ")) = " + b.fig(F::MaxContextTokens);
        b.derived("KV per token", F::KvBytesPerToken);
        b.derived("resident sequences", F::ResidentSequences);
        if (split) {
            b.input("fragmentation", formatNumber(sv.fragmentationFraction, 3),
                    "serving.fragmentation_fraction");
            x.inputs.push_back({"devices one sequence's KV is split over", formatNumber(devices, 9),
                                "computed: tensor parallel (at most the KV heads; 1 for an MLA "
                                "latent) x pipeline stages"});
        }
        if (isSet(s.model.slidingWindow) || !s.model.layerGroups.empty()) {
            // the per-token division above holds only while every layer grows with the context
            x.formula = "max context = the longest context c for which resident sequences x KV "
                        "per sequence at c" +
                        std::string(split ? " x (1 + fragmentation) / devices" : "") +
                        " fits in capacity - weights - overhead (windowed and chunked layers "
                        "hold at most their window, linear layers a fixed state)";
            x.substituted = "= the longest c with " + b.fig(F::ResidentSequences) +
                            " x KV(c) <= " + b.fig(F::KvBudgetBytes) + ": " +
                            b.fig(F::MaxContextTokens);
            x.note = "A sliding window or an attention chunk caps those layers' KV, and a fixed "
                     "state does not grow: only the full-attention (and latent) layers grow with "
                     "the context, and the maximum is where their growth meets the budget.";
        }
        break;
    }
    case F::Devices:
        x.formula = "devices per replica = tensor-parallel degree x pipeline stages";
        x.substituted = "= " + count(sv.tensorParallel) + " x " + count(sv.pipelineParallel) +
                        " = " + b.fig(F::Devices);
        b.input("tensor parallel", count(sv.tensorParallel), "serving.tensor_parallel");
        b.input("pipeline stages", count(sv.pipelineParallel), "serving.pipeline_parallel");
        break;
    case F::TrainingBytesPerParameter:
    case F::TrainingStateBytes: {
        const TrainingConfig &t = s.training;
        x.formula =
            "training state = parameters x (weights + gradients + master copy + optimiser state)";
        x.substituted =
            "= " + count(m.parameters) + " x (" + formatNumber(t.weightsBytes, 3) + " + " +
            formatNumber(t.gradsBytes, 3) + " + " + formatNumber(t.masterBytes, 3) + " + " +
            formatNumber(t.optimizerBytes, 3) + ") B = " + count(m.parameters) + " x " +
            formatNumber(t.bytesPerParameter(), 3) + " B = " + b.fig(F::TrainingStateBytes);
        b.input("parameters", count(m.parameters), "model.parameters");
        b.input("recipe", t.recipe.empty() ? "custom" : t.recipe, "training.recipe");
        x.note =
            "Excludes activations, workspaces and fragmentation (the lesson's 112 GB likewise).";
        break;
    }
    case F::TrainingStateBytesPerDevice:
    case F::TrainingWeightsBytesPerDevice:
    case F::TrainingGradsBytesPerDevice:
    case F::TrainingMasterBytesPerDevice:
    case F::TrainingOptimizerBytesPerDevice:
        x.formula =
            "per device with ZeRO: stage 1 divides optimiser state (master copy included) by "
            "the data-parallel degree, stage 2 also gradients, stage 3 also weights";
        x.substituted = "= " + b.fig(F::TrainingStateBytesPerDevice) + " (stage " +
                        count(s.training.zeroStageOrNone()) + ", " + count(s.training.dpDegree) +
                        " devices)";
        b.input("ZeRO stage", count(s.training.zeroStageOrNone()), "training.zero_stage");
        b.input("data-parallel degree", count(s.training.dpDegree), "training.dp_degree");
        x.note = "Shares per Rajbhandari et al. 2020 (ZeRO), figure 1.";
        break;
    case F::TrainingActivationBytes:
        x.formula = "activations = layers x s b h (34 + 5 a s / h) without recomputation; 34 s b h "
                    "selective; 2 s b h full";
        x.substituted = "= " + b.fig(F::TrainingActivationBytes) +
                        " (s = " + count(s.training.sequenceLength) +
                        ", b = " + count(s.training.microBatchOrOne()) +
                        ", h = " + count(m.hiddenSize) + ", a = " + count(m.attentionHeads) + ")";
        b.input("sequence length", count(s.training.sequenceLength), "training.sequence_length");
        b.input("micro-batch", count(s.training.microBatchOrOne()), "training.micro_batch");
        x.note = "Korthikanti et al. 2022, 'Reducing Activation Recomputation in Large Transformer "
                 "Models', 16-bit activations, no tensor or sequence parallelism.";
        break;
    case F::TrainingTotalBytesPerDevice:
    case F::TrainingFits:
        x.formula = "training memory per device = state per device + activations";
        x.substituted = "= " + b.fig(F::TrainingStateBytesPerDevice) + " + " +
                        b.fig(F::TrainingActivationBytes) + " = " +
                        b.fig(F::TrainingTotalBytesPerDevice) + " of " + b.fig(F::CapacityBytes);
        b.derived("state per device", F::TrainingStateBytesPerDevice);
        b.derived("capacity", F::CapacityBytes);
        break;
    case F::PeakFlops:
    case F::Bandwidth:
    case F::Ridge:
        x.formula = "ridge point = peak arithmetic / memory bandwidth";
        x.substituted =
            "= " + b.fig(F::PeakFlops) + " / " + b.fig(F::Bandwidth) + " = " + b.fig(F::Ridge);
        b.input("peak (" + std::string(formatLabel(e.computeFormat)) + ", dense)",
                b.fig(F::PeakFlops),
                "device.peak_tflops." + std::string(formatKey(e.computeFormat)));
        b.input("bandwidth", b.fig(F::Bandwidth), "device.bandwidth_gb_s");
        x.note = "Kernels left of the ridge are bandwidth-bound; right of it, compute-bound.";
        break;
    case F::DecodeBatch:
        x.formula = "batch = sequences that take one decode step together";
        x.substituted = "= " + b.fig(F::DecodeBatch);
        b.input("batch", count(sv.batch), "serving.batch");
        break;
    case F::DecodeBytesPerStep:
    case F::DecodeWeightBytesPerStep:
    case F::DecodeKvBytesPerStep:
        x.formula =
            "bytes per step = weights (read once, shared by the batch) + batch x KV per sequence";
        {
            // a token passes every pipeline stage in turn: a step's time reads one TP rank's share
            // of every layer, so the KV here divides by the TP ranks that split it, not the stages
            const double kvRanks = kvDevicesPerSequence(s) / std::max(1.0, sv.pipelineParallel);
            // sparse attention (DSA) reads a sequence's indexer keys and its top-k latents only
            const SequenceCache cache =
                sequenceCache(m, nominalBytes(sv.kvFormat), sv.contextTokens, 1.0);
            const bool sparse = cache.readBytes < cache.bytes;
            if (sparse)
                x.formula = "bytes per step = weights (read once, shared by the batch) + batch x "
                            "the KV a step reads of a sequence (sparse attention: every token's "
                            "indexer key and the top-k latents it picks)";
            x.substituted = "= " + b.fig(F::DecodeWeightBytesPerStep) + " + " + count(sv.batch) +
                            " x " +
                            (sparse ? b.bytes(cache.readBytes) : b.fig(F::KvBytesPerSequence)) +
                            (kvRanks > 1 ? " / " + count(kvRanks) : std::string()) + " = " +
                            b.fig(F::DecodeBytesPerStep);
            b.derived("weights", F::WeightsBytes);
            if (!sparse)
                b.derived("KV per sequence", F::KvBytesPerSequence);
            b.input("batch", count(sv.batch), "serving.batch");
            x.note =
                std::string(sparse ? "Sparse attention: a step reads every token's indexer key "
                                     "and the latents of the top-k tokens it picks, while the "
                                     "memory holds the whole cache. "
                                   : "The lesson's toy: every step reads the whole context's KV; "
                                     "a real engine's step grows as the sequence does.") +
                std::string(sv.pipelineParallel > 1
                                ? " With pipeline stages these are one tensor-parallel rank's "
                                  "bytes over all stages, read one stage after another."
                                : "");
            break;
        }
    case F::DecodeFlopsPerStep:
        x.formula = "FLOP per step = 2 x active parameters x batch";
        x.substituted = "= 2 x " + count(m.active()) + " x " + count(sv.batch) +
                        (sv.tensorParallel > 1 ? " / " + count(sv.tensorParallel) : std::string()) +
                        " = " + b.fig(F::DecodeFlopsPerStep);
        b.input("active parameters", count(m.active()),
                isSet(m.activeParameters) ? "model.active_parameters" : "model.parameters");
        b.input("batch", count(sv.batch), "serving.batch");
        x.note = "Counts the weight-matrix operations only; attention scores are left out, as in "
                 "the lesson.";
        break;
    case F::DecodeIntensity:
    case F::DecodeRidgeDistance:
        x.formula = "intensity = FLOP per step / bytes per step";
        x.substituted = "= " + b.fig(F::DecodeFlopsPerStep) + " / " + b.fig(F::DecodeBytesPerStep) +
                        " = " + b.fig(F::DecodeIntensity) + "; the ridge is " + b.fig(F::Ridge) +
                        ", " + formatNumber(e[F::DecodeRidgeDistance], 3) + "x to the right";
        b.derived("FLOP per step", F::DecodeFlopsPerStep);
        b.derived("bytes per step", F::DecodeBytesPerStep);
        break;
    case F::DecodeIntensityLimit: {
        // sparse attention (DSA) reads a sequence's indexer keys and top-k latents, not it all
        const SequenceCache cache =
            sequenceCache(m, nominalBytes(sv.kvFormat), sv.contextTokens, 1.0);
        const bool sparse = cache.readBytes < cache.bytes;
        x.formula = sparse ? "intensity limit (infinite batch) = 2 x active parameters / the KV "
                             "bytes a step reads of one sequence (sparse attention: its indexer "
                             "keys and the top-k latents)"
                           : "intensity limit (infinite batch) = 2 x active parameters / KV bytes "
                             "of one sequence";
        x.substituted = "= 2 x " + count(m.active()) + " / " +
                        (sparse ? b.bytes(cache.readBytes) : b.fig(F::KvBytesPerSequence)) + " = " +
                        b.fig(F::DecodeIntensityLimit);
        if (!sparse)
            b.derived("KV per sequence", F::KvBytesPerSequence);
        x.note =
            "Every sequence adds its own KV read, so batching can never push decode past this.";
        break;
    }
    case F::DecodeMemorySeconds:
    case F::DecodeComputeSeconds:
    case F::DecodeCommunicationSeconds:
    case F::DecodeSmallKernelSeconds:
    case F::DecodeStepSeconds:
    case F::DecodeMemoryToComputeRatio: {
        const double overhead = e[F::EstimateStepOverheadSeconds];
        const double small = e[F::DecodeSmallKernelSeconds];
        // a profile may read the KV cache at its attention kernels' own efficiency and charge
        // each sequence its engine time (issue #43): the sum shows both where they apply
        const EstimateTerms terms = estimateTerms(s);
        const bool kvApart = terms.kvBandwidthEfficiency != terms.bandwidthEfficiency;
        const double perSequence = terms.secondsPerSequence * sv.batch;
        const std::string memory =
            kvApart
                ? "(" + b.bytes(e[F::DecodeBytesPerStep] - e[F::DecodeKvBytesPerStep]) + " / (" +
                      b.fig(F::Bandwidth) + " x " + efficiency(e[F::EstimateBandwidthEfficiency]) +
                      ") + " + b.fig(F::DecodeKvBytesPerStep) + " KV / (" + b.fig(F::Bandwidth) +
                      " x " + efficiency(terms.kvBandwidthEfficiency) + "))"
                : b.fig(F::DecodeBytesPerStep) + " / (" + b.fig(F::Bandwidth) + " x " +
                      efficiency(e[F::EstimateBandwidthEfficiency]) + ")";
        x.formula = std::string("step = max(bytes / (BW x efficiency)") +
                    (kvApart ? " + KV bytes / (BW x KV efficiency)" : "") +
                    ", FLOP / (peak x efficiency))" +
                    std::string(shards > 1 ? " + communication" : "") +
                    std::string(small > 0.0 ? " + small kernels" : "") +
                    std::string(overhead > 0.0 ? " + step overhead" : "") +
                    std::string(perSequence > 0.0 ? " + batch x time per sequence" : "");
        x.substituted =
            "= max(" + memory + ", " + b.fig(F::DecodeFlopsPerStep) + " / (" + b.fig(F::PeakFlops) +
            " x " + efficiency(e[F::EstimateComputeEfficiency]) + ")) = max(" +
            b.fig(F::DecodeMemorySeconds) + ", " + b.fig(F::DecodeComputeSeconds) + ")" +
            (shards > 1 ? " + " + b.fig(F::DecodeCommunicationSeconds) : "") +
            (small > 0.0 ? " + " + b.fig(F::DecodeSmallKernelSeconds) : "") +
            (overhead > 0.0 ? " + " + formatSeconds(overhead) : "") +
            (perSequence > 0.0
                 ? " + " + count(sv.batch) + " x " + formatSeconds(terms.secondsPerSequence)
                 : "") +
            " = " + b.fig(F::DecodeStepSeconds) + " (" + std::string(boundKey(e.decodeBound)) +
            "-bound)";
        b.derived("bytes per step", F::DecodeBytesPerStep);
        b.derived("FLOP per step", F::DecodeFlopsPerStep);
        if (small > 0.0)
            b.derived("small kernels", F::DecodeSmallKernelSeconds);
        estimateInputs(b, s, e);
        x.note = e.estimateMode == EstimateMode::SpeedOfLight
                     ? "The lesson's toy: perfect bandwidth use, no kernel overhead, no "
                       "attention-kernel inefficiency, no speculative decoding or prefix reuse. "
                       "Use it to rank, then measure."
                     : "Efficiencies and step overhead from the " + estimateLabel(s) +
                           " profile, fitted to measured runs: an expectation, not a ceiling.";
        if (small > 0.0)
            x.note += std::string(" ") + kSmallKernelsNote;
        break;
    }
    case F::DecodeTokensPerSecond:
    case F::DecodeTokensPerSecondPerSequence:
        x.formula = "tokens/s total = batch / step time; per sequence = 1 / step time";
        x.substituted = "= " + count(sv.batch) + " / " + b.fig(F::DecodeStepSeconds) + " = " +
                        b.fig(F::DecodeTokensPerSecond) + "; per sequence " +
                        b.fig(F::DecodeTokensPerSecondPerSequence);
        b.derived("step time", F::DecodeStepSeconds);
        x.note = "A ceiling from the toy model: batching raises the total but slows each user.";
        break;
    case F::DecodeAttainableFlops:
    case F::DecodeFractionOfPeak:
        x.formula = "attainable = FLOP per step / max(memory time, arithmetic time); fraction = "
                    "attainable / peak";
        x.substituted = "= " + b.fig(F::DecodeAttainableFlops) + " = " +
                        formatNumber(e[F::DecodeFractionOfPeak] * 100.0, 3) + " % of " +
                        b.fig(F::PeakFlops);
        b.derived("FLOP per step", F::DecodeFlopsPerStep);
        break;
    case F::DecodeWeightsOnlySeconds:
    case F::DecodeWeightsOnlyTokensPerSecond:
        x.formula = "toy ceiling (batch 1, weights only) = weight bytes / bandwidth";
        x.substituted = "= " + b.fig(F::WeightsBytes) + " / " + b.fig(F::Bandwidth) + " = " +
                        b.fig(F::DecodeWeightsOnlySeconds) + " per token -> " +
                        b.fig(F::DecodeWeightsOnlyTokensPerSecond);
        b.derived("weights", F::WeightsBytes);
        b.derived("bandwidth", F::Bandwidth);
        x.note = "Every weight read once per token, nothing else: an upper bound on single-stream "
                 "speed.";
        break;
    case F::PrefillTokens:
    case F::PrefillFlops:
    case F::PrefillAttentionFlops:
    case F::PrefillBytes:
    case F::PrefillIntensity:
    case F::PrefillSeconds:
    case F::PrefillSmallKernelSeconds:
    case F::PrefillAttainableFlops: {
        const double overhead = e[F::EstimateStepOverheadSeconds];
        const double small = e[F::PrefillSmallKernelSeconds];
        const bool attention = e[F::PrefillAttentionFlops] > 0.0;
        x.formula = "prefill = max((weights + prompt x KV per token) / (BW x efficiency), (2 x "
                    "active parameters x prompt" +
                    std::string(attention ? " + causal attention FLOP" : "") +
                    ") / (peak x efficiency))" +
                    std::string(small > 0.0 ? " + small kernels" : "") +
                    std::string(overhead > 0.0 ? " + step overhead" : "");
        x.substituted =
            "= max(" + b.fig(F::PrefillBytes) + " / (" + b.fig(F::Bandwidth) + " x " +
            efficiency(e[F::EstimateBandwidthEfficiency]) + "), " + b.fig(F::PrefillFlops) +
            " / (" + b.fig(F::PeakFlops) + " x " + efficiency(e[F::EstimateComputeEfficiency]) +
            "))" + (small > 0.0 ? " + " + b.fig(F::PrefillSmallKernelSeconds) : "") +
            (overhead > 0.0 ? " + " + formatSeconds(overhead) : "") + " = " +
            b.fig(F::PrefillSeconds) + " (" + std::string(boundKey(e.prefillBound)) + "-bound)";
        b.input("prompt", count(sv.promptTokens), "serving.prompt_tokens");
        if (attention)
            b.derived("attention FLOP", F::PrefillAttentionFlops);
        estimateInputs(b, s, e);
        x.note = attention ? "Attention FLOP counted: 2 x 2 x layers x heads x head dim per "
                             "attended pair, prompt^2 / 2 pairs for causal attention."
                           : "Weights-only FLOP: attention scores are left out, which "
                             "understates long prompts.";
        if (small > 0.0)
            x.note += std::string(" ") + kSmallKernelsNote;
        break;
    }
    case F::EstimateBandwidthEfficiency:
    case F::EstimateComputeEfficiency:
    case F::EstimateStepOverheadSeconds:
        x.formula = "efficiencies and step overhead of the estimate: " + estimateLabel(s);
        x.substituted = "bandwidth " + efficiency(e[F::EstimateBandwidthEfficiency]) +
                        ", compute " + efficiency(e[F::EstimateComputeEfficiency]) +
                        ", step overhead " + formatSeconds(e[F::EstimateStepOverheadSeconds]);
        estimateInputs(b, s, e);
        x.note = "Speed of light is the lesson's perfect hardware; a typical or calibrated "
                 "profile is fitted to measured runs (docs/formulas.md, Calibration).";
        break;
    case F::DecodeAttentionFlopsPerStep:
        x.formula = "attention FLOP per step = batch x 2 x 2 x layers x heads x head dim x "
                    "attended tokens";
        x.substituted = "= " + count(sv.batch) + " x ... at " + count(sv.contextTokens) +
                        " tokens = " + b.fig(F::DecodeAttentionFlopsPerStep);
        b.input("context", count(sv.contextTokens), "serving.context_tokens");
        x.note = "Counted when serving.attention_flops is 1 or a profile is applied; a window "
                 "caps the attended tokens.";
        break;
    case F::PrefillFirstDecodeSeconds:
    case F::PrefillTtftSeconds:
    case F::PrefillBurstSeconds:
        // the request's own first step, at batch 1 whatever the scenario's batch (issue #24)
        x.formula = "time to first token = prefill + one decode step at batch 1 (a request "
                    "arriving alone)";
        x.substituted = "= " + b.fig(F::PrefillSeconds) + " + " +
                        b.fig(F::PrefillFirstDecodeSeconds) + " = " + b.fig(F::PrefillTtftSeconds) +
                        "; a burst of " + count(sv.concurrentSequences) + " prefills takes " +
                        b.fig(F::PrefillBurstSeconds);
        b.derived("prefill", F::PrefillSeconds);
        if (sv.batch == 1)
            b.derived("decode step", F::DecodeStepSeconds);
        x.note = "An optimistic floor, not a p95: queueing behind other prefills (the burst bound) "
                 "is why a load test under the real mix is needed.";
        break;
    case F::CostPricePerHour:
    case F::CostUtilisation:
    case F::CostSustainedTokensPerSecond:
    case F::CostTokensPerHour:
    case F::CostUsdPerMillionTokens:
    case F::CostReplicas:
    case F::CostDevices:
    case F::CostFleetUsdPerHour:
    case F::CostFleetUsdPerMonth:
    case F::CostFleetUsdPerYear:
    case F::CostTokensPerMonth:
    case F::CostTokensFromTraffic: {
        const bool traffic = e[F::CostTokensFromTraffic] != 0.0;
        x.formula = "USD per million tokens = fleet cost per month / tokens served per month x "
                    "1e6; fleet = replicas x devices per replica x price x 730 h; tokens = " +
                    std::string(traffic ? "the traffic's generated tokens"
                                        : "utilisation x replicas x tokens per busy hour x 730 h");
        x.substituted = "= " + count(e[F::CostReplicas]) + " replicas x " +
                        count(e[F::CostDevices] / e[F::CostReplicas]) + " devices x " +
                        formatUsd(s.cost.pricePerHourUsd) +
                        "/h x 730 h = " + b.fig(F::CostFleetUsdPerMonth) + " a month; " +
                        (traffic ? "the traffic generates "
                                 : "at " + formatNumber(e[F::CostUtilisation], 3) +
                                       " utilisation the fleet serves ") +
                        b.fig(F::CostTokensPerMonth) +
                        " a month: " + formatUsd(e[F::CostUsdPerMillionTokens]) +
                        " per million tokens";
        b.input("price per device-hour", formatUsd(s.cost.pricePerHourUsd),
                "cost.price_per_hour_usd");
        b.input("minimum replicas", count(s.wizard.minReplicas), "wizard.min_replicas");
        if (!traffic)
            b.input("utilisation", formatNumber(s.cost.utilisation, 3), "cost.utilisation");
        if (isSet(s.cost.sustainedTokensPerSecond))
            b.input("sustained tokens/s", b.fig(F::CostSustainedTokensPerSecond),
                    "cost.sustained_tokens_per_second");
        else
            x.inputs.push_back({"sustained tokens/s per replica",
                                b.fig(F::CostSustainedTokensPerSecond),
                                "computed: generated tokens / (prefill + generated / "
                                "decode.tokens_per_second), x throttle factor " +
                                    formatNumber(s.cost.throttleFactor, 3)});
        x.note = "Idle hours are billed too, and the availability replica is counted. Tokens are "
                 "generated tokens, as the lesson counts. A request busies its replica for its "
                 "prefill and its output; replicas = max(the availability minimum, what the "
                 "average and the peak request rates need).";
        break;
    }
    case F::CostJoulesPerToken:
    case F::CostFleetWatts:
        x.formula = "energy per token = (P x u + P x idle fraction x (1 - u)) / (tokens/s x u)";
        x.substituted = "= " + b.fig(F::CostJoulesPerToken);
        b.input("device power", formatNumber(s.power.deviceW, 4) + " W", "power.device_w");
        b.input("idle fraction", formatNumber(s.power.idleFraction, 3), "power.idle_fraction");
        x.note = "Idle power fraction is an app assumption (0.3 by default), not a lesson figure.";
        break;
    case F::CostGeneratedTokensPerRequest:
    case F::CostSelfHostedUsdPerRequest:
    case F::CostApiUsdPerRequest:
    case F::CostBreakEvenUtilisation:
    case F::CostApiUsdPerMonth:
        x.formula =
            "break-even utilisation = self-hosted cost per request at 100 % / API cost per request";
        x.substituted = "self-hosted " + b.fig(F::CostSelfHostedUsdPerRequest) +
                        " per request at 100 %; API " + b.fig(F::CostApiUsdPerRequest) +
                        "; break-even " + b.fig(F::CostBreakEvenUtilisation);
        b.input("API input price", formatUsd(s.cost.apiUsdPerMillionInput),
                "cost.api_usd_per_million_input");
        b.input("API output price", formatUsd(s.cost.apiUsdPerMillionOutput),
                "cost.api_usd_per_million_output");
        break;
    case F::TrafficAverageTokensPerSecond:
    case F::TrafficUtilisation:
    case F::TrafficReplicasForPeak:
    case F::TrafficMonthlyCostUsd:
        x.formula =
            "average tokens/s = requests per day x generated tokens / 86,400; monthly cost = "
            "replicas x price x 730 h";
        x.substituted = "average " + b.fig(F::TrafficAverageTokensPerSecond) + ", utilisation " +
                        b.fig(F::TrafficUtilisation) + ", monthly " +
                        b.fig(F::TrafficMonthlyCostUsd);
        b.input("requests per day", formatNumber(s.traffic.requestsPerDay, 6),
                "traffic.requests_per_day");
        break;
    case F::InterconnectDevices:
    case F::InterconnectMessageBytes:
    case F::InterconnectTrafficBytesPerDevice:
    case F::InterconnectCollectivesPerStep:
    case F::InterconnectBytesPerStep:
    case F::InterconnectLinkBandwidth:
    case F::InterconnectBandwidthSeconds:
    case F::InterconnectLatencySeconds:
    case F::InterconnectSeconds:
    case F::InterconnectIntraNodeSeconds:
    case F::InterconnectInterNodeSeconds: {
        const InterconnectConfig &ic = s.interconnect;
        x.formula = "ring all-reduce traffic per device = 2(N-1)/N x message; time = collectives x "
                    "traffic / link + collectives x latency";
        x.substituted = "= 2 x (" + count(ic.devices) + " - 1) / " + count(ic.devices) + " x " +
                        b.fig(F::InterconnectMessageBytes) + " = " +
                        b.fig(F::InterconnectTrafficBytesPerDevice) + "; " +
                        count(ic.collectivesPerStep) + " x that / " +
                        b.fig(F::InterconnectLinkBandwidth) + " = " +
                        b.fig(F::InterconnectBandwidthSeconds) + "; latency " +
                        b.fig(F::InterconnectLatencySeconds);
        b.input("devices", count(ic.devices), "interconnect.devices");
        b.input("message", b.fig(F::InterconnectMessageBytes), "interconnect.message_bytes");
        b.input("latency", formatSeconds(ic.latencySeconds), "interconnect.latency_s");
        x.note =
            "Bandwidth and latency of real collectives must be measured; scaling is sub-linear.";
        break;
    }
    case F::PowerNodeWatts:
    case F::PowerNodesPerRack:
    case F::PowerDevicesPerRack: {
        const PowerConfig &p = s.power;
        x.formula = "node = devices x watts + host; nodes per rack = floor(rack limit / node)";
        x.substituted = "= " + count(p.devicesPerNode) + " x " + formatNumber(p.deviceW, 4) +
                        " W + " + formatNumber(p.hostW, 5) + " W = " + b.fig(F::PowerNodeWatts) +
                        "; floor(" + formatNumber(p.rackW, 6) + " / " + b.fig(F::PowerNodeWatts) +
                        ") = " + b.fig(F::PowerNodesPerRack);
        b.input("watts per device", formatNumber(p.deviceW, 4) + " W", "power.device_w");
        b.input("rack limit", formatNumber(p.rackW, 6) + " W", "power.rack_w");
        break;
    }
    case F::Count_:
        return std::nullopt;
    }
    return x;
}

} // namespace core
