// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/output/trainingjson.h"

#include "core/model/scenario.h"
#include "core/physics/estimateterms.h"
#include "core/train/trainingplan.h"

#include <nlohmann/json.hpp>

#include <algorithm>
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

std::string_view recomputeKey(RecomputeMode mode)
{
    return mode == RecomputeMode::None        ? "none"
           : mode == RecomputeMode::Selective ? "selective"
                                              : "full";
}

json layoutJson(const TrainingLayout &l, double globalBatch)
{
    json out = json::object();
    put(out, "tensor_parallel", l.tensor);
    put(out, "pipeline_parallel", l.pipeline);
    put(out, "data_parallel", l.data);
    put(out, "context_parallel", l.context);
    put(out, "expert_parallel", l.expert);
    put(out, "zero_stage", l.zeroStage);
    out["recompute"] = recomputeKey(l.recompute);
    put(out, "micro_batch", l.microBatch);
    put(out, "global_batch", globalBatch);
    return out;
}

json summaryJson(const TrainingPlan &plan)
{
    json out = json::object();
    out["layout"] = layoutJson(plan.layout, plan.globalBatch);
    out["description"] = describeLayout(plan.layout);
    put(out, "memory_per_device_bytes", plan.memory.total);
    put(out, "step_seconds", plan.step.total);
    put(out, "mfu", plan.mfu);
    put(out, "days", plan.days);
    put(out, "usd", plan.usd);
    return out;
}

} // namespace

std::string trainingPlanToJson(const Scenario &scenario, const TrainingPlan &plan,
                               const TrainingSearch *search, int indent)
{
    json out = json::object();
    out["model"] = scenario.model.name;
    out["device"] = scenario.device.name;
    out["estimate"] = estimateLabel(scenario);
    if (!plan.problem.empty())
        out["problem"] = plan.problem;
    out["layout"] = layoutJson(plan.layout, plan.globalBatch);
    out["description"] = describeLayout(plan.layout);
    put(out, "devices", plan.devices);
    put(out, "memory_per_device_bytes", plan.memory.total);
    put(out, "step_seconds", plan.step.total);
    put(out, "mfu", plan.mfu);
    put(out, "tokens_per_second_per_device", plan.tokensPerSecondPerDevice);
    put(out, "days", plan.days);
    put(out, "device_hours", plan.deviceHours);
    put(out, "usd", plan.usd);
    put(out, "checkpoint_interval_seconds", plan.reliability.intervalSeconds);
    put(out, "expected_interruptions", plan.reliability.expectedInterruptions);
    put(out, "tokens", plan.tokens);
    if (plan.tokensAssumed)
        out["tokens_assumed"] = "20 tokens per parameter (no training.tokens given)";
    put(out, "tokens_per_second", plan.tokensPerSecond);
    put(out, "steps", plan.steps);
    put(out, "sequence_length", plan.sequenceLength);
    out["format"] = plan.format == NumericFormat::Fp8 ? "fp8" : "bf16";
    put(out, "model_flops_per_token", plan.modelFlopsPerToken);
    put(out, "compute_seconds", plan.computeSeconds);
    put(out, "wall_seconds", plan.wallSeconds);
    put(out, "energy_kwh", plan.energyKwh);
    put(out, "price_per_device_hour_usd", plan.pricePerDeviceHour);
    out["meets_deadline"] = plan.meetsDeadline;
    out["within_budget"] = plan.withinBudget;
    if (!plan.countReason.empty())
        out["device_count_reason"] = plan.countReason;

    const TrainingMemory &m = plan.memory;
    json memory = json::object();
    put(memory, "weights_bytes", m.weights);
    put(memory, "gradients_bytes", m.gradients);
    put(memory, "master_bytes", m.master);
    put(memory, "optimizer_bytes", m.optimizer);
    put(memory, "activations_bytes", m.activations);
    put(memory, "logits_bytes", m.logits);
    put(memory, "overhead_bytes", m.overhead);
    put(memory, "total_bytes", m.total);
    put(memory, "capacity_bytes", m.capacity);
    put(memory, "micro_batches_in_flight", m.microBatchesInFlight);
    memory["fits"] = m.fits;
    out["memory"] = std::move(memory);

    const TrainingStep &s = plan.step;
    json step = json::object();
    put(step, "micro_batches", s.microBatches);
    put(step, "micro_batch_seconds", s.microBatchSeconds);
    put(step, "matmul_seconds", s.matmulSeconds);
    put(step, "attention_seconds", s.attentionSeconds);
    put(step, "elementwise_seconds", s.elementwiseSeconds);
    put(step, "tensor_parallel_seconds", s.tensorParallelSeconds);
    put(step, "expert_parallel_seconds", s.expertParallelSeconds);
    put(step, "context_parallel_seconds", s.contextParallelSeconds);
    put(step, "pipeline_send_seconds", s.pipelineSendSeconds);
    put(step, "bubble_seconds", s.bubbleSeconds);
    put(step, "bubble_fraction", s.bubbleFraction);
    put(step, "data_parallel_seconds", s.dataParallelSeconds);
    put(step, "data_parallel_exposed_seconds", s.dataParallelExposedSeconds);
    put(step, "optimizer_seconds", s.optimizerSeconds);
    put(step, "total_seconds", s.total);
    out["step"] = std::move(step);

    const TrainingReliability &r = plan.reliability;
    json reliability = json::object();
    put(reliability, "checkpoint_bytes", r.checkpointBytes);
    put(reliability, "checkpoint_seconds", r.checkpointSeconds);
    put(reliability, "job_mtbf_hours", r.jobMtbfHours);
    put(reliability, "interval_seconds", r.intervalSeconds);
    put(reliability, "expected_interruptions", r.expectedInterruptions);
    put(reliability, "overhead_fraction", r.overheadFraction);
    put(reliability, "goodput", r.goodput);
    out["reliability"] = std::move(reliability);
    out["notes"] = plan.notes;

    if (search) {
        json searched = json::object();
        put(searched, "devices", search->devices);
        searched["device_count"] = search->deviceCountReason;
        searched["layouts_tried"] = search->layoutsTried;
        json ranked = json::array();
        for (const TrainingPlan &candidate : search->ranked)
            ranked.push_back(summaryJson(candidate));
        searched["ranked"] = std::move(ranked);
        json rejected = json::array();
        for (const RejectedShape &shape : search->rejected) {
            json row = layoutJson(shape.layout, kUnset);
            for (const char *key : {"zero_stage", "recompute", "micro_batch"})
                row.erase(key);
            row["description"] = describeShape(shape.layout);
            row["reason"] = shape.reason;
            rejected.push_back(std::move(row));
        }
        searched["rejected"] = std::move(rejected);
        out["search"] = std::move(searched);
    }
    return out.dump(indent, ' ', false, json::error_handler_t::replace);
}

} // namespace core
