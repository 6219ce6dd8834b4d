// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/output/techniquesjson.h"

#include "core/model/scenario.h"
#include "core/physics/operators.h"
#include "core/physics/techniques.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace core {

namespace {

using json = nlohmann::ordered_json;

/** Sets key to value only when it is finite: outputs never carry NaN or infinity. */
void put(json &object, const char *key, double value)
{
    if (std::isfinite(value))
        object[key] = value;
}

json stepJson(const StepCost &c)
{
    json out = json::object();
    put(out, "bytes", c.bytes);
    put(out, "flops", c.flops);
    put(out, "intensity_flops_per_byte", c.intensity());
    put(out, "attainable_flops_per_second", c.attainableFlops());
    put(out, "seconds", c.seconds);
    out["bound"] = boundKey(c.bound);
    return out;
}

json errorJson(const Diagnostic &d)
{
    return {{"error", {{"path", d.path}, {"message", d.message}}}};
}

json speculativeJson(const Scenario &s)
{
    auto a = analyseSpeculative(s);
    if (!a)
        return errorJson(a.error());
    json out = json::object();
    put(out, "proposals", a->proposals);
    put(out, "acceptance_rate", a->acceptance);
    out["draft"] = a->draftName;
    put(out, "draft_weight_bytes_per_device", a->draftWeightBytesPerDevice);
    put(out, "draft_kv_bytes_per_sequence_per_device", a->draftKvBytesPerSequencePerDevice);
    const SpeculativePoint &p = a->atBatch;
    put(out, "batch", p.batch);
    put(out, "tokens_per_verify_step", p.tokensPerVerify);
    out["verify_step"] = stepJson(p.verify);
    put(out, "draft_seconds", p.draftSeconds);
    put(out, "cycle_seconds", p.cycleSeconds);
    put(out, "tokens_per_second_per_sequence", p.tokensPerSecondPerSequence);
    put(out, "tokens_per_second", p.tokensPerSecond);
    out["plain_step"] = stepJson(p.plain);
    put(out, "plain_tokens_per_second", p.plainTokensPerSecond);
    put(out, "speedup", p.speedup);
    put(out, "last_paying_batch", a->lastPayingBatch);
    return out;
}

json prefixJson(const Scenario &s)
{
    auto a = analysePrefixCache(s);
    if (!a)
        return errorJson(a.error());
    json out = json::object();
    put(out, "prompt_tokens", a->promptTokens);
    put(out, "prefix_tokens", a->prefixTokens);
    put(out, "hit_rate", a->hitRate);
    put(out, "tokens_prefilled_without", a->tokensPrefilledWithout);
    put(out, "tokens_prefilled_with", a->tokensPrefilledWith);
    put(out, "flops_without", a->flopsWithout);
    put(out, "flops_with", a->flopsWith);
    put(out, "bytes_without", a->bytesWithout);
    put(out, "bytes_with", a->bytesWith);
    put(out, "prefill_seconds_without", a->prefillSecondsWithout);
    put(out, "prefill_seconds_with", a->prefillSecondsWith);
    put(out, "ttft_seconds_without", a->ttftSecondsWithout);
    put(out, "ttft_seconds_with", a->ttftSecondsWith);
    put(out, "usd_per_request_without", a->usdPerRequestWithout);
    put(out, "usd_per_request_with", a->usdPerRequestWith);
    put(out, "cached_kv_bytes_per_device", a->cachedKvBytesPerDevice);
    put(out, "max_concurrent_sequences_without", a->maxConcurrentWithout);
    put(out, "max_concurrent_sequences_with", a->maxConcurrentWith);
    out["fits_with"] = a->fitsWith;
    return out;
}

json disaggregationJson(const Scenario &s)
{
    auto a = analyseDisaggregation(s);
    if (!a)
        return errorJson(a.error());
    json out = json::object();
    out["prefill_device"] = a->prefillDeviceName;
    put(out, "kv_bytes_per_request", a->kvBytesPerRequest);
    put(out, "link_bytes_per_second", a->linkBytesPerSecond);
    put(out, "transfer_seconds", a->transferSeconds);
    put(out, "prefill_seconds", a->prefillSeconds);
    put(out, "decode_step_seconds", a->decodeStepSeconds);
    put(out, "ttft_seconds_colocated", a->ttftSecondsColocated);
    put(out, "ttft_seconds_disaggregated", a->ttftSecondsDisaggregated);
    put(out, "output_tokens_per_request", a->outputTokensPerRequest);
    put(out, "prefill_pool_requests_per_second", a->prefillPoolRequestsPerSecond);
    put(out, "decode_pool_requests_per_second", a->decodePoolRequestsPerSecond);
    put(out, "disaggregated_requests_per_second", a->disaggregatedRequestsPerSecond);
    put(out, "colocated_requests_per_second", a->colocatedRequestsPerSecond);
    put(out, "devices", a->devicesDisaggregated);
    put(out, "usd_per_hour_disaggregated", a->usdPerHourDisaggregated);
    put(out, "usd_per_hour_colocated", a->usdPerHourColocated);
    return out;
}

} // namespace

std::string operatorsToJson(const OperatorBreakdown &b, int indent)
{
    json out = json::object();
    out["phase"] = phaseKey(b.phase);
    out["attention_kernel"] = b.attentionKernel == AttentionKernel::Fused ? "fused" : "unfused";
    put(out, "batch", b.batch);
    put(out, "tokens", b.tokens);
    put(out, "context_tokens", b.contextTokens);
    put(out, "peak_flops_per_second", b.peakFlops);
    put(out, "bandwidth_bytes_per_second", b.bandwidth);
    json operators = json::array();
    for (const OperatorCost &op : b.operators) {
        json o = json::object();
        o["name"] = op.name;
        o["kind"] = operatorKindKey(op.kind);
        put(o, "layers", op.layers);
        put(o, "flops", op.flops);
        put(o, "weight_bytes", op.weightBytes);
        put(o, "activation_bytes", op.activationBytes);
        put(o, "kv_bytes", op.kvBytes);
        put(o, "bytes", op.bytes());
        put(o, "intensity_flops_per_byte", op.intensity());
        o["bound"] = boundKey(op.bound);
        put(o, "seconds", op.seconds);
        put(o, "seconds_all_layers", op.seconds * op.layers);
        operators.push_back(std::move(o));
    }
    out["operators"] = std::move(operators);
    json totals = json::object();
    put(totals, "flops", b.flops);
    put(totals, "bytes", b.bytes);
    put(totals, "weight_bytes", b.weightBytes);
    put(totals, "activation_bytes", b.activationBytes);
    put(totals, "kv_bytes", b.kvBytes);
    put(totals, "seconds", b.seconds);
    put(totals, "roofline_seconds", b.rooflineSeconds);
    put(totals, "beyond_roofs_seconds", b.beyondRoofsSeconds);
    put(totals, "step_seconds", b.stepSeconds);
    put(totals, "parameters", b.operatorParameters);
    out["totals"] = std::move(totals);
    json model = json::object();
    put(model, "flops", b.modelFlops);
    put(model, "bytes", b.modelBytes);
    put(model, "weight_bytes", b.modelWeightBytes);
    put(model, "kv_bytes", b.modelKvBytes);
    put(model, "seconds", b.modelSeconds);
    put(model, "parameters", b.modelParameters);
    out["model"] = std::move(model);
    out["differences"] = b.differences;
    return out.dump(indent, ' ', false, json::error_handler_t::replace);
}

std::string engineToJson(const Scenario &s, int indent)
{
    json out = json::object();
    if (s.engine.speculativeTokens >= 1.0)
        out["speculative"] = speculativeJson(s);
    if (s.engine.prefixTokens >= 1.0)
        out["prefix_cache"] = prefixJson(s);
    if (s.engine.disaggregated == 1.0)
        out["disaggregation"] = disaggregationJson(s);
    return out.dump(indent, ' ', false, json::error_handler_t::replace);
}

} // namespace core
