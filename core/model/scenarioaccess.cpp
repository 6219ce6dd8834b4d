// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/scenarioaccess.h"

#include "core/model/formats.h"
#include "core/model/parameters.h"
#include "core/model/scenario.h"
#include "core/model/units.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace core {

namespace {

/** The field behind a dotted path: the table's own, or one peak per format. */
double *fieldAt(Scenario &scenario, std::string_view path)
{
    constexpr std::string_view peakPrefix = "device.peak_tflops.";
    if (path.starts_with(peakPrefix)) {
        const auto format = parseFormat(path.substr(peakPrefix.size()));
        return format ? &scenario.device.peakTflops[static_cast<std::size_t>(*format)] : nullptr;
    }
    const ParameterInfo *info = findParameter(path);
    return info && info->field ? info->field(scenario) : nullptr;
}

/** The app's edit of a spec figure moves the device's measured ceiling (measuredCeilingPath). */
void scaleMeasuredCeiling(DeviceSpec &device, std::string_view path, double before, double after)
{
    const auto measured = measuredCeilingPath(path);
    if (!measured)
        return;
    constexpr std::string_view tflopsPrefix = "device.measured.tflops.";
    double *ceiling = nullptr;
    if (*measured == "device.measured.bandwidth_gb_s")
        ceiling = &device.measuredBandwidthGbPerSecond;
    else if (const auto format =
                 parseFormat(std::string_view(*measured).substr(tflopsPrefix.size())))
        ceiling = &device.measuredTflops[static_cast<std::size_t>(*format)];
    if (ceiling && isSet(*ceiling))
        *ceiling = followedCeiling(*ceiling, before, after);
}

} // namespace

std::optional<std::string> measuredCeilingPath(std::string_view specPath)
{
    constexpr std::string_view peakPrefix = "device.peak_tflops.";
    if (specPath == "device.bandwidth_gb_s")
        return std::string("device.measured.bandwidth_gb_s");
    if (specPath.starts_with(peakPrefix) && specPath.size() > peakPrefix.size())
        return "device.measured.tflops." + std::string(specPath.substr(peakPrefix.size()));
    return std::nullopt;
}

double followedCeiling(double measured, double before, double after)
{
    return before > 0.0 && std::isfinite(before) ? measured * after / before : measured;
}

std::optional<double> numberAt(const Scenario &scenario, std::string_view path)
{
    // The table's accessors serve both directions; reading does not modify.
    const double *field = fieldAt(const_cast<Scenario &>(scenario), path);
    if (!field)
        return std::nullopt;
    return *field;
}

Result<bool> setNumberAsRead(Scenario &scenario, std::string_view path, double value)
{
    const bool promptFollows =
        path == "serving.context_tokens" && !scenario.givenInputs.contains("serving.prompt_tokens");
    const bool batchFollows =
        path == "serving.concurrent_sequences" && !scenario.givenInputs.contains("serving.batch");
    auto set = setNumberAt(scenario, path, value);
    if (!set)
        return set;
    // the reader's defaults (scenarioio.cpp, readServing) for what the file did not give
    if (promptFollows)
        scenario.serving.promptTokens = scenario.serving.contextTokens;
    if (batchFollows)
        scenario.serving.batch = std::max(1.0, scenario.serving.concurrentSequences);
    return set;
}

void undoNumberAsRead(Scenario &point, const Scenario &read, std::string_view path)
{
    // every field setNumberAt and setNumberAsRead write, or scale from, beside preset ids, the
    // present flags and the input's origin; a new side effect there belongs here too
    // (tst_exports sweepOfOneCopyIsSweepOfFreshCopies tries every numeric input)
    if (double *field = fieldAt(point, path))
        *field = *fieldAt(const_cast<Scenario &>(read), path);
    point.serving.promptTokens = read.serving.promptTokens;
    point.model.partParameters = read.model.partParameters;
    point.device.measuredBandwidthGbPerSecond = read.device.measuredBandwidthGbPerSecond;
    point.device.measuredTflops = read.device.measuredTflops;
}

Result<bool> setNumberAt(Scenario &scenario, std::string_view path, double value)
{
    double *field = fieldAt(scenario, path);
    if (!field)
        return Result<bool>::failure(std::string(path), "not a numeric input");
    if (const ParameterInfo *info = findParameter(path)) {
        std::string_view problem = rangeProblem(*info, value);
        if (!problem.empty())
            return Result<bool>::failure(std::string(path),
                                         std::string(info->name) + " " + std::string(problem) +
                                             " (" + formatNumber(info->minimum, 6) + " to " +
                                             formatNumber(info->maximum, 6) + ")");
    }
    if (path == "serving.prompt_tokens" && value > scenario.serving.contextTokens)
        return Result<bool>::failure(std::string(path),
                                     "the prompt cannot be longer than the context");
    if (path == "serving.overhead_gb" && value > scenario.device.capacityGb())
        return Result<bool>::failure(std::string(path),
                                     "the overhead cannot exceed the device memory");
    // A model given as layer groups holds its layer count, windows and latent in the groups;
    // a top-level edit would contradict them and the saved file would not read back.
    if (!scenario.model.layerGroups.empty() &&
        (path == "model.layers" || path == "model.sliding_window" ||
         path == "model.sliding_window_layers" || path == "model.kv_latent_dim"))
        return Result<bool>::failure(std::string(path),
                                     "this model is described layer group by layer group "
                                     "(model.layer_groups): change the groups in the scenario "
                                     "file, or import the model's config.json again");
    if (path == "serving.tensor_parallel" || path == "serving.pipeline_parallel") {
        Scenario trial = scenario;
        *fieldAt(trial, path) = value;
        if (auto problem = parallelismProblem(trial))
            return Result<bool>::failure(std::string(path), problem->message);
    }
    if (path.starts_with("model."))
        scenario.model.presetId.clear();
    if (path.starts_with("device.")) {
        scenario.device.presetId.clear();
        scenario.device.referencePreset = false;
        scaleMeasuredCeiling(scenario.device, path, *field, value);
    }
    if (path.starts_with("load.")) // an edited stream is one the scenario now describes
        scenario.load.present = true;
    if (path.starts_with("engine."))
        scenario.engine.present = true;
    // the import's weight parts (model.weight_parts) describe the model as it was counted: a
    // new parameter count keeps their split, any other model figure makes them an estimate
    // again; a stale split would not read back (issue #44)
    auto &parts = scenario.model.partParameters;
    static constexpr std::string_view kSizing[] = {
        "model.parameters",  "model.active_parameters", "model.layers",
        "model.hidden_size", "model.attention_heads",   "model.kv_heads",
        "model.head_dim",    "model.intermediate_size", "model.vocab_size",
        "model.experts",     "model.experts_per_token"};
    if (isSet(parts[0]) &&
        std::find(std::begin(kSizing), std::end(kSizing), path) != std::end(kSizing)) {
        const double before = scenario.model.parameters;
        for (double &part : parts)
            part = path == "model.parameters" && before > 0.0 ? part * value / before : kUnset;
    }
    *field = value;
    scenario.givenInputs[std::string(path)] = InputOrigin::App;
    if (path == "serving.overhead_gb")
        scenario.serving.overheadParts.clear(); // the breakdown described the old total
    if (path == "serving.context_tokens" && scenario.serving.promptTokens > value)
        scenario.serving.promptTokens = value;
    return true;
}

const std::vector<ChoiceInfo> &choiceTable()
{
    static const std::vector<ChoiceInfo> table = {
        {"load.arrivals",
         "Arrivals",
         "How requests arrive: poisson (independent), gamma (burstier with load.burstiness > 1) "
         "or trace (the timestamps of load.trace_file).",
         {"poisson", "gamma", "trace"}},
        {"load.prompt_distribution",
         "Prompt lengths",
         "fixed (every prompt load.prompt_mean), uniform (+- load.prompt_spread) or lognormal "
         "(coefficient of variation load.prompt_spread).",
         {"fixed", "uniform", "lognormal"}},
        {"load.output_distribution",
         "Output lengths",
         "fixed, uniform or lognormal, as the prompt lengths, around load.output_mean.",
         {"fixed", "uniform", "lognormal"}},
        {"load.router",
         "Router",
         "How requests reach replicas: round_robin, or least_outstanding (the replica with the "
         "fewest requests in flight).",
         {"round_robin", "least_outstanding"}},
        {"engine.draft_kind",
         "Draft",
         "What proposes the speculative tokens: a separate draft model, or heads on the model "
         "itself (Medusa, EAGLE).",
         {"model", "heads"}},
    };
    return table;
}

const ChoiceInfo *findChoice(std::string_view path)
{
    for (const ChoiceInfo &choice : choiceTable())
        if (choice.path == path)
            return &choice;
    return nullptr;
}

namespace {

std::string *choiceField(Scenario &s, std::string_view path)
{
    if (path == "load.arrivals")
        return &s.load.arrivals;
    if (path == "load.prompt_distribution")
        return &s.load.promptDistribution;
    if (path == "load.output_distribution")
        return &s.load.outputDistribution;
    if (path == "load.router")
        return &s.load.router;
    if (path == "engine.draft_kind")
        return &s.engine.draftKind;
    return nullptr;
}

} // namespace

std::optional<std::string> choiceAt(const Scenario &scenario, std::string_view path)
{
    if (const std::string *field = choiceField(const_cast<Scenario &>(scenario), path))
        return *field;
    return std::nullopt;
}

Result<bool> setChoiceAt(Scenario &scenario, std::string_view path, std::string_view value)
{
    const ChoiceInfo *info = findChoice(path);
    std::string *field = choiceField(scenario, path);
    if (!info || !field)
        return Result<bool>::failure(std::string(path), "not a choice input");
    if (std::find(info->options.begin(), info->options.end(), value) == info->options.end()) {
        std::string list;
        for (std::string_view option : info->options)
            list += (list.empty() ? "" : ", ") + std::string(option);
        return Result<bool>::failure(std::string(path), "is \"" + std::string(value.substr(0, 40)) +
                                                            "\", expected one of " + list);
    }
    if (path == "load.arrivals" && value == "trace" && scenario.load.traceFile.empty())
        return Result<bool>::failure(std::string(path),
                                     "trace arrivals need load.trace_file, a CSV of timestamp, "
                                     "prompt_tokens, output_tokens named in the scenario file");
    if (path.starts_with("load."))
        scenario.load.present = true;
    if (path.starts_with("engine."))
        scenario.engine.present = true;
    *field = std::string(value);
    scenario.givenInputs[std::string(path)] = InputOrigin::App;
    return true;
}

std::optional<std::string> tensorSplitProblem(const ModelSpec &m, const DeviceSpec &device,
                                              double tp)
{
    if (!(tp > 1.0))
        return std::nullopt;
    const std::string tpText = "tensor_parallel " + formatNumber(tp, 9);
    if (!isSet(m.hiddenSize))
        return "tensor parallelism needs the model's hidden_size (it sets the message size)";
    if (!isSet(device.deviceLinkGbPerSecond) && !isSet(device.hostLinkGbPerSecond))
        return "tensor parallelism needs the device's device_link_gb_s or, for a card without "
               "one, host_link_gb_s (the link it talks over)";
    if (isSet(m.attentionHeads) && std::fmod(m.attentionHeads, tp) != 0.0)
        return tpText + " does not divide the model's " + formatNumber(m.attentionHeads, 9) +
               " attention heads: each device must hold whole heads";
    if (isSet(m.kvHeads) && !isSet(m.kvLatentDim) && std::fmod(m.kvHeads, tp) != 0.0 &&
        std::fmod(tp, m.kvHeads) != 0.0)
        return tpText + " and the model's " + formatNumber(m.kvHeads, 9) +
               " KV heads: one must divide the other, so each device holds whole KV heads";
    return std::nullopt;
}

std::optional<Diagnostic> parallelismProblem(const Scenario &s)
{
    const ModelSpec &m = s.model;
    if (auto problem = tensorSplitProblem(m, s.device, s.serving.tensorParallel))
        return Diagnostic{"/serving/tensor_parallel", *problem};
    const double pp = s.serving.pipelineParallel;
    if (pp > 1.0 && isSet(m.layers) && pp > m.layers)
        return Diagnostic{"/serving/pipeline_parallel", "pipeline_parallel " + formatNumber(pp, 9) +
                                                            " is more stages than the "
                                                            "model's " +
                                                            formatNumber(m.layers, 9) + " layers"};
    return std::nullopt;
}

bool resetParallelismIfInvalid(Scenario &scenario)
{
    if (!parallelismProblem(scenario))
        return false;
    scenario.serving.tensorParallel = 1;
    scenario.serving.pipelineParallel = 1;
    return true;
}

} // namespace core
