#include "scenarioaccess.h"

#include "parameters.h"
#include "scenario.h"
#include "units.h"

#include <array>
#include <string>

namespace core {

namespace {

struct Accessor
{
    std::string_view path;
    double *(*field)(Scenario &);
};

// clang-format off
#define ACCEL_FIELD(path, expr) Accessor{path, [](Scenario &s) -> double * { return &s.expr; }}
const std::array kAccessors = {
    ACCEL_FIELD("model.parameters", model.parameters),
    ACCEL_FIELD("model.active_parameters", model.activeParameters),
    ACCEL_FIELD("model.layers", model.layers),
    ACCEL_FIELD("model.hidden_size", model.hiddenSize),
    ACCEL_FIELD("model.attention_heads", model.attentionHeads),
    ACCEL_FIELD("model.kv_heads", model.kvHeads),
    ACCEL_FIELD("model.head_dim", model.headDim),
    ACCEL_FIELD("model.intermediate_size", model.intermediateSize),
    ACCEL_FIELD("model.vocab_size", model.vocabSize),
    ACCEL_FIELD("model.experts", model.experts),
    ACCEL_FIELD("model.experts_per_token", model.expertsPerToken),
    ACCEL_FIELD("model.max_context", model.maxContext),
    ACCEL_FIELD("model.sliding_window", model.slidingWindow),
    ACCEL_FIELD("model.sliding_window_layers", model.slidingWindowLayers),
    ACCEL_FIELD("model.kv_latent_dim", model.kvLatentDim),
    ACCEL_FIELD("device.memory_gb", device.memoryGb),
    ACCEL_FIELD("device.usable_memory_gb", device.usableMemoryGb),
    ACCEL_FIELD("device.bandwidth_gb_s", device.bandwidthGbPerSecond),
    ACCEL_FIELD("device.power_w", device.powerW),
    ACCEL_FIELD("device.price_per_hour_usd", device.pricePerHourUsd),
    ACCEL_FIELD("device.host_link_gb_s", device.hostLinkGbPerSecond),
    ACCEL_FIELD("device.device_link_gb_s", device.deviceLinkGbPerSecond),
    ACCEL_FIELD("device.device_link_latency_s", device.deviceLinkLatencySeconds),
    ACCEL_FIELD("device.sram_mb", device.sramMb),
    ACCEL_FIELD("device.peak_tflops.fp32", device.peakTflops[0]),
    ACCEL_FIELD("device.peak_tflops.tf32", device.peakTflops[1]),
    ACCEL_FIELD("device.peak_tflops.bf16", device.peakTflops[2]),
    ACCEL_FIELD("device.peak_tflops.fp16", device.peakTflops[3]),
    ACCEL_FIELD("device.peak_tflops.fp8", device.peakTflops[4]),
    ACCEL_FIELD("device.peak_tflops.int8", device.peakTflops[5]),
    ACCEL_FIELD("device.peak_tflops.int4", device.peakTflops[6]),
    ACCEL_FIELD("serving.quant_group_size", serving.quant.groupSize),
    ACCEL_FIELD("serving.quant_scale_bits", serving.quant.scaleBits),
    ACCEL_FIELD("serving.quant_zero_bits", serving.quant.zeroBits),
    ACCEL_FIELD("serving.concurrent_sequences", serving.concurrentSequences),
    ACCEL_FIELD("serving.batch", serving.batch),
    ACCEL_FIELD("serving.context_tokens", serving.contextTokens),
    ACCEL_FIELD("serving.prompt_tokens", serving.promptTokens),
    ACCEL_FIELD("serving.overhead_gb", serving.overheadGb),
    ACCEL_FIELD("serving.fragmentation_fraction", serving.fragmentationFraction),
    ACCEL_FIELD("serving.admission_margin", serving.admissionMargin),
    ACCEL_FIELD("serving.bandwidth_efficiency", serving.bandwidthEfficiency),
    ACCEL_FIELD("serving.compute_efficiency", serving.computeEfficiency),
    ACCEL_FIELD("serving.tensor_parallel", serving.tensorParallel),
    ACCEL_FIELD("serving.ttft_target_s", serving.ttftTargetSeconds),
    ACCEL_FIELD("serving.pacing_target_tokens_s", serving.pacingTargetTokensPerSecond),
    ACCEL_FIELD("training.weights_bytes", training.weightsBytes),
    ACCEL_FIELD("training.grads_bytes", training.gradsBytes),
    ACCEL_FIELD("training.master_bytes", training.masterBytes),
    ACCEL_FIELD("training.optimizer_bytes", training.optimizerBytes),
    ACCEL_FIELD("training.zero_stage", training.zeroStage),
    ACCEL_FIELD("training.dp_degree", training.dpDegree),
    ACCEL_FIELD("training.micro_batch", training.microBatch),
    ACCEL_FIELD("training.sequence_length", training.sequenceLength),
    ACCEL_FIELD("cost.price_per_hour_usd", cost.pricePerHourUsd),
    ACCEL_FIELD("cost.utilisation", cost.utilisation),
    ACCEL_FIELD("cost.sustained_tokens_per_second", cost.sustainedTokensPerSecond),
    ACCEL_FIELD("cost.throttle_factor", cost.throttleFactor),
    ACCEL_FIELD("cost.api_usd_per_million_input", cost.apiUsdPerMillionInput),
    ACCEL_FIELD("cost.api_usd_per_million_output", cost.apiUsdPerMillionOutput),
    ACCEL_FIELD("traffic.requests_per_day", traffic.requestsPerDay),
    ACCEL_FIELD("traffic.peak_requests_per_second", traffic.peakRequestsPerSecond),
    ACCEL_FIELD("interconnect.message_bytes", interconnect.messageBytes),
    ACCEL_FIELD("interconnect.devices", interconnect.devices),
    ACCEL_FIELD("interconnect.devices_per_node", interconnect.devicesPerNode),
    ACCEL_FIELD("interconnect.intra_link_gb_s", interconnect.intraLinkGbPerSecond),
    ACCEL_FIELD("interconnect.inter_link_gb_s", interconnect.interLinkGbPerSecond),
    ACCEL_FIELD("interconnect.latency_s", interconnect.latencySeconds),
    ACCEL_FIELD("interconnect.collectives_per_step", interconnect.collectivesPerStep),
    ACCEL_FIELD("power.devices_per_node", power.devicesPerNode),
    ACCEL_FIELD("power.device_w", power.deviceW),
    ACCEL_FIELD("power.host_w", power.hostW),
    ACCEL_FIELD("power.rack_w", power.rackW),
    ACCEL_FIELD("power.idle_fraction", power.idleFraction),
    ACCEL_FIELD("wizard.min_replicas", wizard.minReplicas),
};
#undef ACCEL_FIELD
// clang-format on

const Accessor *findAccessor(std::string_view path)
{
    for (const Accessor &accessor : kAccessors) {
        if (accessor.path == path)
            return &accessor;
    }
    return nullptr;
}

} // namespace

std::optional<double> numberAt(const Scenario &scenario, std::string_view path)
{
    const Accessor *accessor = findAccessor(path);
    if (!accessor)
        return std::nullopt;
    // The accessor table is written once for both directions; reading does not modify.
    return *accessor->field(const_cast<Scenario &>(scenario));
}

Result<bool> setNumberAt(Scenario &scenario, std::string_view path, double value)
{
    const Accessor *accessor = findAccessor(path);
    if (!accessor)
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
    if (path.starts_with("model."))
        scenario.model.presetId.clear();
    if (path.starts_with("device."))
        scenario.device.presetId.clear();
    *accessor->field(scenario) = value;
    scenario.givenInputs[std::string(path)] = InputOrigin::App;
    if (path == "serving.overhead_gb")
        scenario.serving.overheadParts.clear(); // the breakdown described the old total
    if (path == "serving.context_tokens" && scenario.serving.promptTokens > value)
        scenario.serving.promptTokens = value;
    return true;
}

} // namespace core
