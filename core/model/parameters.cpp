// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/parameters.h"

#include "core/model/scenario.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace core {

namespace {

constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

#define ACCEL_FIELD(expr) ([](Scenario &s) -> double * { return &s.expr; })

// clang-format off
constexpr std::array kParameters = std::to_array<ParameterInfo>({
    // model
    {"model.parameters", "Parameters", "", 1e6, 1e14, false, false, kNone, "Total parameter count (all experts of an MoE model). Sizes weight memory.", "What occupies device memory", ACCEL_FIELD(model.parameters)},
    {"model.active_parameters", "Active parameters", "", 1e6, 1e14, false, false, kNone, "Parameters used per token (MoE); sets FLOP per token. Defaults to the total.", "Roofline and decode", ACCEL_FIELD(model.activeParameters)},
    {"model.layers", "Layers", "", 1, 4096, false, true, kNone, "Transformer layers; each holds one K and one V per KV head per token.", "KV cache", ACCEL_FIELD(model.layers)},
    {"model.hidden_size", "Hidden size", "", 1, 1e6, false, true, kNone, "Width of the residual stream; sets tensor-parallel message size.", "Interconnect", ACCEL_FIELD(model.hiddenSize)},
    {"model.attention_heads", "Attention heads", "", 1, 4096, false, true, kNone, "Query heads per layer.", "KV cache", ACCEL_FIELD(model.attentionHeads)},
    {"model.kv_heads", "KV heads", "", 1, 4096, false, true, kNone, "Key/value heads per layer (fewer than query heads with grouped-query attention).", "KV cache", ACCEL_FIELD(model.kvHeads)},
    {"model.head_dim", "Head dimension", "", 1, 1024, false, true, kNone, "Elements per head vector.", "KV cache", ACCEL_FIELD(model.headDim)},
    {"model.intermediate_size", "FFN size", "", 1, 1e7, false, true, kNone, "Width of the feed-forward layer.", "What occupies device memory", ACCEL_FIELD(model.intermediateSize)},
    {"model.vocab_size", "Vocabulary", "tokens", 1, 1e8, false, true, kNone, "Vocabulary size; sets embedding and output-head size.", "What occupies device memory", ACCEL_FIELD(model.vocabSize)},
    {"model.experts", "Experts", "", 1, 4096, false, true, kNone, "MoE experts per layer.", "Roofline and decode", ACCEL_FIELD(model.experts)},
    {"model.experts_per_token", "Experts per token", "", 1, 4096, false, true, kNone, "MoE experts each token is routed to.", "Roofline and decode", ACCEL_FIELD(model.expertsPerToken)},
    {"model.max_context", "Maximum context", "tokens", 1, 1e8, false, true, kNone, "Longest context the model was trained for.", "KV cache", ACCEL_FIELD(model.maxContext)},
    {"model.sliding_window", "Sliding window", "tokens", 1, 1e8, false, true, kNone, "Attention window: a layer with a window holds at most this many tokens of KV.", "KV cache", ACCEL_FIELD(model.slidingWindow)},
    {"model.sliding_window_layers", "Windowed layers", "layers", 0, 4096, false, true, kNone, "Layers that use the sliding window (the rest attend globally); default: all.", "KV cache", ACCEL_FIELD(model.slidingWindowLayers)},
    {"model.kv_latent_dim", "KV latent width", "", 1, 1e6, false, true, kNone, "Multi-head latent attention: elements cached per token and layer (replaces 2 x KV heads x head dim).", "KV cache", ACCEL_FIELD(model.kvLatentDim)},
    // device
    {"device.memory_gb", "Device memory", "GB", 0.001, 1e6, false, false, kNone, "Nominal device memory in decimal GB (1e9 bytes).", "What occupies device memory", ACCEL_FIELD(device.memoryGb)},
    {"device.usable_memory_gb", "Usable memory", "GB", 0.001, 1e6, false, false, kNone, "Memory a model can really use (shared memory beside the OS, reserved space).", "What occupies device memory", ACCEL_FIELD(device.usableMemoryGb)},
    {"device.bandwidth_gb_s", "Memory bandwidth", "GB/s", 0.001, 1e6, false, false, kNone, "Peak device-memory bandwidth in decimal GB/s.", "Roofline and decode", ACCEL_FIELD(device.bandwidthGbPerSecond)},
    {"device.peak_tflops.*", "Dense peak", "TFLOP/s", 1e-6, 1e7, false, false, kNone, "Dense (not 2:4-sparse) peak arithmetic for one format, in TFLOP/s (TOPS for integers).", "Roofline and decode", nullptr}, // one value per format: peakAt()
    {"device.power_w", "Device power", "W", 0.001, 1e6, false, false, kNone, "Board power under load.", "Power and cost", ACCEL_FIELD(device.powerW)},
    {"device.price_per_hour_usd", "Price per hour", "USD/h", 0, 1e5, false, false, kNone, "Illustrative rental price per device-hour.", "Power and cost", ACCEL_FIELD(device.pricePerHourUsd)},
    {"device.price_low_usd", "Price range low", "USD/h", 0, 1e5, false, false, kNone, "The low end of the published on-demand prices per device-hour the preset's price sits in.", "Power and cost", ACCEL_FIELD(device.priceLowUsd)},
    {"device.price_high_usd", "Price range high", "USD/h", 0, 1e5, false, false, kNone, "The high end of the published on-demand prices per device-hour.", "Power and cost", ACCEL_FIELD(device.priceHighUsd)},
    {"device.host_link_gb_s", "Host link", "GB/s", 0.001, 1e6, false, false, kNone, "Host interface bandwidth per direction.", "Memory hierarchy", ACCEL_FIELD(device.hostLinkGbPerSecond)},
    {"device.device_link_gb_s", "Device link", "GB/s", 0.001, 1e6, false, false, kNone, "Device-to-device link bandwidth per direction.", "Interconnect", ACCEL_FIELD(device.deviceLinkGbPerSecond)},
    {"device.device_link_latency_s", "Link latency", "s", 0, 1, false, false, kNone, "Fixed cost of one collective over the device link.", "Interconnect", ACCEL_FIELD(device.deviceLinkLatencySeconds)},
    {"device.scale_up_devices", "Scale-up domain", "devices", 1, 1e5, false, true, kNone, "Devices joined by the device link (NVLink, Infinity Fabric, ICI): the largest tensor-parallel group that stays on it.", "Interconnect", ACCEL_FIELD(device.scaleUpDevices)},
    {"device.sram_mb", "On-chip SRAM", "MB", 0, 1e6, false, false, kNone, "On-chip SRAM (L2, shared memory, scratchpad).", "Memory hierarchy", ACCEL_FIELD(device.sramMb)},
    // serving
    {"serving.quant_group_size", "Quantisation group", "weights", 0, 1e9, false, true, 0, "Weights sharing one scale (0 = no per-group metadata).", "What occupies device memory", ACCEL_FIELD(serving.quant.groupSize)},
    {"serving.quant_scale_bits", "Scale bits", "bits", 0, 64, false, true, 16, "Bits of each group scale.", "What occupies device memory", ACCEL_FIELD(serving.quant.scaleBits)},
    {"serving.quant_zero_bits", "Zero-point bits", "bits", 0, 64, false, true, 0, "Bits of each group zero point (0 = symmetric).", "What occupies device memory", ACCEL_FIELD(serving.quant.zeroBits)},
    {"serving.concurrent_sequences", "Concurrent sequences", "sequences", 0, 1e6, false, true, 32, "Sequences resident in device memory at once; sizes the KV cache.", "KV cache", ACCEL_FIELD(serving.concurrentSequences)},
    {"serving.batch", "Batch size", "sequences", 1, 1e6, false, true, 8, "Sequences that take one decode step together; sets bytes and FLOP per step.", "Why batching changes the picture", ACCEL_FIELD(serving.batch), 1, kBatchAxisMaximum},
    {"serving.context_tokens", "Context", "tokens", 1, 1e8, false, true, 4096, "Tokens per sequence held in the KV cache (prompt + generated).", "KV cache", ACCEL_FIELD(serving.contextTokens), 128, 131072},
    {"serving.prompt_tokens", "Prompt", "tokens", 0, 1e8, false, true, 4096, "Tokens processed by one prefill; defaults to the context.", "Prefill", ACCEL_FIELD(serving.promptTokens)},
    {"serving.overhead_gb", "Runtime overhead", "GB", 0, 1e6, false, false, 2.5, "Runtime (driver) context plus workspace, in GB.", "OOM diagnosis", ACCEL_FIELD(serving.overheadGb)},
    {"serving.fragmentation_fraction", "Fragmentation", "", 0, 1, false, false, 0, "Fraction of KV bytes lost to allocator fragmentation.", "OOM diagnosis", ACCEL_FIELD(serving.fragmentationFraction)},
    {"serving.admission_margin", "Admission margin", "", 0, 1, false, false, 0.10, "Safety margin below the theoretical maximum of sequences.", "OOM diagnosis", ACCEL_FIELD(serving.admissionMargin)},
    {"serving.bandwidth_efficiency", "Bandwidth efficiency", "", 0.01, 1, false, false, 1.0, "Fraction of peak bandwidth delivered (1 = the lesson's toy: perfect use).", "A toy decode estimate", ACCEL_FIELD(serving.bandwidthEfficiency)},
    {"serving.compute_efficiency", "Compute efficiency", "", 0.01, 1, false, false, 1.0, "Fraction of peak arithmetic delivered (1 = the toy).", "A toy decode estimate", ACCEL_FIELD(serving.computeEfficiency)},
    {"serving.step_overhead_s", "Step overhead", "s", 0, 10, false, false, 0, "Fixed time per forward pass: kernel launches, scheduling, sampling (0 = the lesson's toy; engines measure a few ms).", "A toy decode estimate", ACCEL_FIELD(serving.stepOverheadSeconds)},
    {"serving.attention_flops", "Attention FLOP", "", 0, 1, false, true, 0, "1 counts causal attention's FLOP (QK^T and AV) in prefill and decode; 0 = the toy's weights-only FLOP.", "A toy decode estimate", ACCEL_FIELD(serving.attentionFlops)},
    {"serving.kv_write", "KV write", "", 0, 1, false, true, 0, "1 counts the write of each new token's K and V in a decode step's bytes; 0 = the toy (reads only).", "A toy decode estimate", ACCEL_FIELD(serving.kvWrite)},
    {"serving.small_kernels", "Small kernels", "", 0, 1, false, true, 0, "1 times each layer's norms, rotary, activation and residual add beside the roofs (a floor of microseconds each, or their bytes at a share of the measured bandwidth); 0 = the toy (none).", "A toy decode estimate", ACCEL_FIELD(serving.smallKernels)},
    {"serving.tensor_parallel", "Tensor parallel", "devices", 1, 4096, false, true, 1, "Devices one model is split across.", "Interconnect", ACCEL_FIELD(serving.tensorParallel)},
    {"serving.pipeline_parallel", "Pipeline stages", "", 1, 4096, false, true, 1, "Stages the layers are split into, each on its own tensor-parallel group (usually one node each).", "Interconnect", ACCEL_FIELD(serving.pipelineParallel)},
    {"serving.ttft_target_s", "TTFT target", "s", 0.001, 3600, false, false, 1.5, "Time-to-first-token target.", "Device selection", ACCEL_FIELD(serving.ttftTargetSeconds)},
    {"serving.replicas", "Fleet replicas", "replicas", 1, 1e6, false, true, kNone, "Replicas the fleet runs at least (default: what the traffic and wizard.min_replicas need; a decision sets the fleet whose simulated p95 meets the targets at the peak).", "Device selection", ACCEL_FIELD(serving.replicas)},
    {"serving.pacing_target_tokens_s", "Pacing target", "tokens/s", 0.01, 1e6, false, false, 10, "Per-user token pacing target (app assumption: about reading speed).", "Device selection", ACCEL_FIELD(serving.pacingTargetTokensPerSecond)},
    // training
    {"training.weights_bytes", "Weight bytes", "B/param", 0, 64, false, false, 2, "Working weight copy per parameter.", "Training the same model", ACCEL_FIELD(training.weightsBytes)},
    {"training.grads_bytes", "Gradient bytes", "B/param", 0, 64, false, false, 2, "Gradient per parameter.", "Training the same model", ACCEL_FIELD(training.gradsBytes)},
    {"training.master_bytes", "Master-copy bytes", "B/param", 0, 64, false, false, 4, "FP32 master weight per parameter (0 = no master copy).", "Training the same model", ACCEL_FIELD(training.masterBytes)},
    {"training.optimizer_bytes", "Optimiser bytes", "B/param", 0, 64, false, false, 8, "Optimiser state per parameter (Adam: two FP32 moments = 8).", "Training the same model", ACCEL_FIELD(training.optimizerBytes)},
    {"training.zero_stage", "ZeRO stage", "", 0, 3, false, true, kNone, "0 none; 1 shards optimiser state; 2 also gradients; 3 also weights (default: searched by the training plan; the one-device memory check takes 0).", "Training the same model", ACCEL_FIELD(training.zeroStage)},
    {"training.dp_degree", "Data-parallel degree", "devices", 1, 1e6, false, true, 1, "Devices the ZeRO shards are spread over.", "Training the same model", ACCEL_FIELD(training.dpDegree)},
    {"training.micro_batch", "Micro-batch", "sequences", 1, 1e6, false, true, kNone, "Sequences per device per step (activations; default: searched by the training plan, 1 for the memory check).", "Training the same model", ACCEL_FIELD(training.microBatch)},
    {"training.sequence_length", "Sequence length", "tokens", 1, 1e8, false, true, 4096, "Tokens per training sequence (activations).", "Training the same model", ACCEL_FIELD(training.sequenceLength)},
    // the training plan (core/train, issue #45): a degree left out is searched
    {"training.tokens", "Training tokens", "tokens", 1, 1e14, false, true, kNone, "Tokens the run trains on (default: 20 per parameter, the compute-optimal ratio of Hoffmann et al. 2022).", "Training the same model", ACCEL_FIELD(training.tokens)},
    {"training.devices", "Training devices", "devices", 1, 1e6, false, true, kNone, "Devices the run uses (default: the fewest that meet the deadline, the fastest within the budget, else the stated degrees' product).", "Training the same model", ACCEL_FIELD(training.devices)},
    {"training.tensor_parallel", "Tensor parallel", "devices", 1, 4096, false, true, kNone, "Devices each layer's matrices are split across, within the scale-up domain (default: searched).", "Training the same model", ACCEL_FIELD(training.tensorParallel)},
    {"training.pipeline_parallel", "Pipeline stages", "stages", 1, 4096, false, true, kNone, "Stages the layers are split into, 1F1B schedule (default: searched).", "Training the same model", ACCEL_FIELD(training.pipelineParallel)},
    {"training.data_parallel", "Data parallel", "replicas", 1, 1e6, false, true, kNone, "Model replicas that each take a share of the global batch; ZeRO shards over them (default: searched).", "Training the same model", ACCEL_FIELD(training.dataParallel)},
    {"training.context_parallel", "Context parallel", "devices", 1, 4096, false, true, kNone, "Devices each sequence is split across, ring attention (default: searched).", "Training the same model", ACCEL_FIELD(training.contextParallel)},
    {"training.expert_parallel", "Expert parallel", "devices", 1, 4096, false, true, kNone, "Devices the routed experts are spread over, within the data-parallel replicas (default: searched).", "Training the same model", ACCEL_FIELD(training.expertParallel)},
    {"training.global_batch", "Global batch", "sequences", 1, 1e8, false, true, kNone, "Sequences per optimiser step (default: about 4 M tokens, the batch of Llama 2 and 3).", "Training the same model", ACCEL_FIELD(training.globalBatch)},
    {"training.deadline_days", "Deadline", "days", 0.001, 1e5, false, false, kNone, "Days the run must finish in; with no device count, the plan takes the fewest devices that meet it.", "Training the same model", ACCEL_FIELD(training.deadlineDays)},
    {"training.budget_usd", "Budget", "USD", 0, 1e13, false, false, kNone, "Most the run may cost; with no device count, the plan takes the fastest that stays within it.", "Training the same model", ACCEL_FIELD(training.budgetUsd)},
    {"training.network_gb_s", "Network per device", "GB/s", 0.001, 1e6, false, false, 50, "Bandwidth per device between nodes, per direction (app assumption: one 400 Gb/s NIC per device, as DGX H100).", "Training the same model", ACCEL_FIELD(training.networkGbPerSecond)},
    {"training.device_mtbf_hours", "Device MTBF", "h", 1, 1e12, false, false, 50677, "Mean device-hours between interruptions, per device (Llama 3: 419 unexpected interruptions in 54 days on 16,384 H100s = 50,677).", "Training the same model", ACCEL_FIELD(training.deviceMtbfHours)},
    {"training.checkpoint_gb_s", "Checkpoint write", "GB/s", 0.001, 1e6, false, false, 1, "Each device's write of its shard of a checkpoint to storage, all in parallel (app assumption).", "Training the same model", ACCEL_FIELD(training.checkpointGbPerSecond)},
    {"training.storage_gb_s", "Storage write", "GB/s", 0.001, 1e7, false, false, 2000, "What the cluster's storage takes from all devices writing a checkpoint together (Llama 3's Tectonic: 2 TB/s sustained, 7 TB/s peak).", "Training the same model", ACCEL_FIELD(training.storageGbPerSecond)},
    {"training.fused_attention", "Fused attention", "", 0, 1, false, true, 1, "1: FlashAttention-class kernels, no score matrix in memory; 0: the score matrix through memory (software before 2022).", "Training the same model", ACCEL_FIELD(training.fusedAttention)},
    {"training.restart_s", "Restart time", "s", 0, 1e7, false, false, 600, "From an interruption to training again: detection, rescheduling, reloading the checkpoint (app assumption).", "Training the same model", ACCEL_FIELD(training.restartSeconds)},
    // cost
    {"cost.price_per_hour_usd", "Price per hour", "USD/h", 0, 1e5, false, false, kNone, "Price of one device-hour; follows the device's own price (none: price needed).", "Power and cost", ACCEL_FIELD(cost.pricePerHourUsd)},
    {"cost.utilisation", "Utilisation", "", 0.01, 1, false, false, 0.70, "Fraction of paid hours the device is busy.", "Power and cost", ACCEL_FIELD(cost.utilisation)},
    {"cost.sustained_tokens_per_second", "Sustained tokens/s", "tokens/s", 0.001, 1e9, false, false, kNone, "Measured tokens/s while busy (default: the decode estimate x throttle).", "Power and cost", ACCEL_FIELD(cost.sustainedTokensPerSecond)},
    {"cost.throttle_factor", "Throttle factor", "", 0.05, 1, false, false, 1.0, "Sustained fraction of benchmark throughput (thermal throttling).", "Power and cost", ACCEL_FIELD(cost.throttleFactor)},
    {"cost.api_usd_per_million_input", "API input price", "USD/M tokens", 0, 1e6, false, false, kNone, "Hosted API price per million prompt tokens.", "Power and cost", ACCEL_FIELD(cost.apiUsdPerMillionInput)},
    {"cost.api_usd_per_million_output", "API output price", "USD/M tokens", 0, 1e6, false, false, kNone, "Hosted API price per million generated tokens.", "Power and cost", ACCEL_FIELD(cost.apiUsdPerMillionOutput)},
    // traffic
    {"traffic.requests_per_day", "Requests per day", "requests", 0, 1e12, false, false, kNone, "Average daily requests.", "Power and cost", ACCEL_FIELD(traffic.requestsPerDay)},
    {"traffic.peak_requests_per_second", "Peak requests/s", "requests/s", 0, 1e9, false, false, kNone, "Requests per second at peak.", "Power and cost", ACCEL_FIELD(traffic.peakRequestsPerSecond)},
    {"traffic.growth_per_month", "Traffic growth", "/month", 0, 1, false, false, 0, "Compound growth of the requests per month (0.05 = 5 % a month, at most 1: doubling every month; app assumption: 0).", "Power and cost", ACCEL_FIELD(traffic.growthPerMonth)},
    {"traffic.horizon_months", "Planning horizon", "months", 1, 60, false, true, 24, "How many months the growth plan looks ahead (at most five years; app assumption: 24).", "Power and cost", ACCEL_FIELD(traffic.horizonMonths)},
    // load: the request stream and the engine of the load simulation (issue #26)
    {"load.rate_per_second", "Arrival rate", "requests/s", 1e-6, 1e9, false, false, kNone, "Requests per second arriving (default: traffic.peak_requests_per_second, else the daily average, else 1).", "Device selection", ACCEL_FIELD(load.ratePerSecond)},
    {"load.burstiness", "Burstiness", "CV", 0.05, 100, false, false, 1, "Gamma arrivals: coefficient of variation of the gaps between requests (1 = Poisson, above 1 = bursts).", "Device selection", ACCEL_FIELD(load.burstiness)},
    {"load.prompt_mean", "Prompt length", "tokens", 1, 1e8, false, true, kNone, "Mean prompt tokens per request (default: serving.prompt_tokens).", "Device selection", ACCEL_FIELD(load.promptMean)},
    {"load.prompt_spread", "Prompt spread", "", 0, 100, false, false, 0, "Uniform: +- this fraction of the mean (at most 1); lognormal: coefficient of variation.", "Device selection", ACCEL_FIELD(load.promptSpread)},
    {"load.output_mean", "Output length", "tokens", 1, 1e8, false, true, kNone, "Mean generated tokens per request (default: context - prompt, else 128).", "Device selection", ACCEL_FIELD(load.outputMean)},
    {"load.output_spread", "Output spread", "", 0, 100, false, false, 0, "Uniform: +- this fraction of the mean (at most 1); lognormal: coefficient of variation.", "Device selection", ACCEL_FIELD(load.outputSpread)},
    {"load.requests", "Requests simulated", "requests", 1, 1e6, false, true, 2000, "Requests in one simulated run.", "Device selection", ACCEL_FIELD(load.requests)},
    {"load.duration_s", "Duration", "s", 0.001, 1e7, false, false, kNone, "Simulate the requests arriving in this many seconds (at most 1,000,000 requests) instead of a count.", "Device selection", ACCEL_FIELD(load.durationSeconds)},
    {"load.seed", "Seed", "", 0, 4e9, false, true, 1, "Seed of the random stream: the same seed gives the same run.", "Device selection", ACCEL_FIELD(load.seed)},
    {"load.max_sequences", "Engine sequences", "sequences", 1, 1e6, false, true, kNone, "Most sequences in one running batch (default: serving.concurrent_sequences).", "Device selection", ACCEL_FIELD(load.maxSequences)},
    {"load.token_budget", "Token budget", "tokens", 16, 1e8, false, true, 8192, "Most tokens (decode + prefill) one engine step computes.", "Device selection", ACCEL_FIELD(load.tokenBudget)},
    {"load.chunked_prefill", "Chunked prefill", "", 0, 1, false, true, 1, "1 mixes prompt chunks into decode steps up to the token budget; 0 runs prefills first, alone.", "Device selection", ACCEL_FIELD(load.chunkedPrefill)},
    {"load.block_tokens", "KV block", "tokens", 1, 4096, false, true, 16, "Tokens per paged-KV block.", "Device selection", ACCEL_FIELD(load.blockTokens)},
    {"load.replicas", "Replicas simulated", "replicas", 1, 4096, false, true, 1, "Replicas behind the router; unless given, the scenario's fleet (the Cost tab's replicas).", "Device selection", ACCEL_FIELD(load.replicas)},
    // engine: serving techniques (issue #27)
    {"engine.speculative_tokens", "Proposed tokens (K)", "tokens", 0, 16, false, true, 0, "Speculative decoding: tokens the draft proposes per verify step (0 = off).", "Roofline and decode", ACCEL_FIELD(engine.speculativeTokens)},
    {"engine.acceptance_rate", "Acceptance rate", "", 0, 0.99, false, false, 0.7, "Speculative decoding: chance each proposed token is accepted (app assumption: 0.7).", "Roofline and decode", ACCEL_FIELD(engine.acceptanceRate)},
    {"engine.draft_parameters", "Draft heads' parameters", "", 1e3, 1e13, false, false, kNone, "Speculative decoding with heads (MTP, Medusa): the parameters the extra heads add.", "Roofline and decode", ACCEL_FIELD(engine.draftParameters)},
    {"engine.prefix_tokens", "Shared prefix", "tokens", 0, 1e8, false, true, 0, "Prefix caching: prompt tokens shared with earlier requests (a system prompt); 0 = off.", "Roofline and decode", ACCEL_FIELD(engine.prefixTokens)},
    {"engine.prefix_hit_rate", "Prefix hit rate", "", 0, 1, false, false, 0.5, "Prefix caching: share of requests that find their prefix cached (app assumption: 0.5).", "Roofline and decode", ACCEL_FIELD(engine.prefixHitRate)},
    {"engine.cached_prefixes", "Cached prefixes", "prefixes", 1, 1e6, false, true, 1, "Prefix caching: distinct prefixes kept resident, each holding its KV.", "Roofline and decode", ACCEL_FIELD(engine.cachedPrefixes)},
    {"engine.disaggregated", "Disaggregated", "", 0, 1, false, true, 0, "1 runs prefill and decode on separate pools, moving each request's KV between them.", "Roofline and decode", ACCEL_FIELD(engine.disaggregated)},
    {"engine.prefill_replicas", "Prefill replicas", "replicas", 1, 4096, false, true, 1, "Disaggregated: replicas (each TP x PP devices) in the prefill pool.", "Roofline and decode", ACCEL_FIELD(engine.prefillReplicas)},
    {"engine.decode_replicas", "Decode replicas", "replicas", 1, 4096, false, true, 1, "Disaggregated: replicas in the decode pool.", "Roofline and decode", ACCEL_FIELD(engine.decodeReplicas)},
    {"engine.kv_link_gb_s", "KV transfer link", "GB/s", 0.001, 1e6, false, false, 50, "Disaggregated: bandwidth per direction between the pools (50 GB/s = 400 Gb/s).", "Interconnect", ACCEL_FIELD(engine.kvLinkGbPerSecond)},
    // sensitivity: each input's range, as factors on its value (app assumptions, issue #25)
    {"sensitivity.efficiency_low", "Efficiency, low", "x", 0.01, 1, false, false, kNone, "Low end of the delivered speed, as a factor on the estimate (default: the profile's worst fit error, or the typical profile's efficiency below the speed of light).", "Power and cost", ACCEL_FIELD(sensitivity.efficiencyLow)},
    {"sensitivity.efficiency_high", "Efficiency, high", "x", 0.01, 10, false, false, kNone, "High end of the delivered speed, as a factor on the estimate (capped at the speed of light).", "Power and cost", ACCEL_FIELD(sensitivity.efficiencyHigh)},
    {"sensitivity.traffic_low", "Traffic, low", "x", 0.01, 1, false, false, 0.5, "Low end of the traffic (or utilisation) as a factor.", "Power and cost", ACCEL_FIELD(sensitivity.trafficLow)},
    {"sensitivity.traffic_high", "Traffic, high", "x", 1, 100, false, false, 2, "High end of the traffic (or utilisation, at most 100 % busy) as a factor.", "Power and cost", ACCEL_FIELD(sensitivity.trafficHigh)},
    {"sensitivity.context_low", "Context, low", "x", 0.01, 1, false, false, 0.5, "Low end of the tokens per sequence (prompt in proportion) as a factor.", "Power and cost", ACCEL_FIELD(sensitivity.contextLow)},
    {"sensitivity.context_high", "Context, high", "x", 1, 100, false, false, 2, "High end of the tokens per sequence as a factor.", "Power and cost", ACCEL_FIELD(sensitivity.contextHigh)},
    {"sensitivity.concurrency_low", "Concurrency, low", "x", 0.01, 1, false, false, 0.5, "Low end of the peak concurrent sequences as a factor.", "Power and cost", ACCEL_FIELD(sensitivity.concurrencyLow)},
    {"sensitivity.concurrency_high", "Concurrency, high", "x", 1, 100, false, false, 2, "High end of the peak concurrent sequences as a factor.", "Power and cost", ACCEL_FIELD(sensitivity.concurrencyHigh)},
    {"sensitivity.price_low", "Price, low", "x", 0.01, 1, false, false, 0.7, "Low end of the price per device-hour as a factor (a negotiated discount).", "Power and cost", ACCEL_FIELD(sensitivity.priceLow)},
    {"sensitivity.price_high", "Price, high", "x", 1, 100, false, false, 1.3, "High end of the price per device-hour as a factor.", "Power and cost", ACCEL_FIELD(sensitivity.priceHigh)},
    {"sensitivity.growth_low", "Growth, low", "/month", 0, 10, false, false, 0, "Low end of the traffic growth per month.", "Power and cost", ACCEL_FIELD(sensitivity.growthLow)},
    {"sensitivity.growth_high", "Growth, high", "/month", 0, 10, false, false, 0.1, "High end of the traffic growth per month.", "Power and cost", ACCEL_FIELD(sensitivity.growthHigh)},
    // interconnect
    {"interconnect.message_bytes", "Message", "B", 0, 1e13, false, false, kNone, "Bytes all-reduced per collective (default: one full gradient; at most 10 TB, the FP32 gradients of a 2.5-trillion-parameter model).", "Two toy communication estimates", ACCEL_FIELD(interconnect.messageBytes)},
    {"interconnect.devices", "Devices", "devices", 1, 1e6, false, true, 8, "Devices in the ring.", "Two toy communication estimates", ACCEL_FIELD(interconnect.devices)},
    {"interconnect.devices_per_node", "Devices per node", "devices", 1, 1e6, false, true, 8, "Devices sharing the fast intra-node fabric.", "Two toy communication estimates", ACCEL_FIELD(interconnect.devicesPerNode)},
    {"interconnect.intra_link_gb_s", "Intra-node link", "GB/s", 0.001, 1e6, false, false, 100, "Per-direction bandwidth inside a node.", "Two toy communication estimates", ACCEL_FIELD(interconnect.intraLinkGbPerSecond)},
    {"interconnect.inter_link_gb_s", "Inter-node link", "GB/s", 0.001, 1e6, false, false, 12.5, "Per-direction bandwidth between nodes (100 Gbit/s = 12.5 GB/s).", "Two toy communication estimates", ACCEL_FIELD(interconnect.interLinkGbPerSecond)},
    {"interconnect.latency_s", "Latency", "s", 0, 10, false, false, 10e-6, "Fixed cost per collective (or per hop).", "Two toy communication estimates", ACCEL_FIELD(interconnect.latencySeconds)},
    {"interconnect.collectives_per_step", "Collectives per step", "", 0, 1e9, false, true, 1, "All-reduces per step (tensor-parallel decode: 2 per layer).", "Two toy communication estimates", ACCEL_FIELD(interconnect.collectivesPerStep)},
    // power
    {"power.devices_per_node", "Devices per node", "devices", 1, 1e4, false, true, 8, "Accelerators in one server.", "Power", ACCEL_FIELD(power.devicesPerNode)},
    {"power.device_w", "Watts per device", "W", 0, 1e5, false, false, 500, "Power per accelerator.", "Power", ACCEL_FIELD(power.deviceW)},
    {"power.host_w", "Host watts", "W", 0, 1e6, false, false, 1000, "Host CPU, memory and networking per node.", "Power", ACCEL_FIELD(power.hostW)},
    {"power.rack_w", "Rack limit", "W", 1, 1e7, false, false, 40000, "Power the rack feed and cooling allow.", "Power", ACCEL_FIELD(power.rackW)},
    {"power.idle_fraction", "Idle power fraction", "", 0, 1, false, false, 0.3, "Idle power as a fraction of busy power (app assumption).", "Power and cost", ACCEL_FIELD(power.idleFraction)},
    // wizard
    {"wizard.min_replicas", "Minimum replicas", "replicas", 1, 1e4, false, true, 2, "Replicas required for redundancy.", "Device selection", ACCEL_FIELD(wizard.minReplicas)},
    {"wizard.max_tensor_parallel", "Largest TP group", "devices", 1, 64, false, true, 8, "The largest tensor-parallel group the checks try per replica (1, 2, 4, 8, ... up to the device's scale-up domain).", "Device selection", ACCEL_FIELD(wizard.maxTensorParallel)},
    {"wizard.max_pipeline_parallel", "Most pipeline stages", "stages", 1, 64, false, true, 4, "The most pipeline stages (one node each) the checks try when a model does not fit one scale-up domain.", "Device selection", ACCEL_FIELD(wizard.maxPipelineParallel)},
});
#undef ACCEL_FIELD
// clang-format on

} // namespace

std::span<const ParameterInfo> parameterTable()
{
    return kParameters;
}

std::span<const ParameterInfo *const> sectionParameters(std::string_view section)
{
    // Each section's rows, gathered once from the immutable table: a file read asks twice per
    // section.
    static const auto sections = [] {
        std::vector<std::pair<std::string_view, std::vector<const ParameterInfo *>>> out;
        for (const auto &info : kParameters) {
            if (!info.field)
                continue;
            auto it = std::find_if(out.begin(), out.end(), [&](const auto &entry) {
                return entry.first == info.section();
            });
            if (it == out.end())
                it = out.insert(out.end(), {info.section(), {}});
            it->second.push_back(&info);
        }
        return out;
    }();
    for (const auto &[name, rows] : sections) {
        if (name == section)
            return rows;
    }
    return {};
}

const ParameterInfo *findParameter(std::string_view path)
{
    constexpr std::string_view peakPrefix = "device.peak_tflops.";
    if (path.starts_with(peakPrefix))
        path = "device.peak_tflops.*";
    for (const auto &info : kParameters) {
        if (info.path == path)
            return &info;
    }
    return nullptr;
}

std::string_view rangeProblem(const ParameterInfo &info, double value)
{
    if (!std::isfinite(value))
        return "must be a finite number";
    if (info.minimumExclusive ? value <= info.minimum : value < info.minimum)
        return info.minimumExclusive ? "is too small: it must be above the minimum"
                                     : "is below the minimum";
    if (value > info.maximum)
        return "is above the maximum";
    if (info.integer && std::floor(value) != value)
        return "must be a whole number";
    return {};
}

} // namespace core

namespace core {

namespace {

// clang-format off
constexpr std::array kRecipes = std::to_array<TrainingRecipe>({
    {"mixed-bf16-adam", "Mixed precision BF16 + Adam (16 B/param)", 2, 2, 4, 8,
     "The lesson's recipe (lines 52-63): BF16 weight and gradient, FP32 master copy, two FP32 Adam moments."},
    {"mixed-bf16-adam-fp32-grads", "Mixed precision, FP32 gradients + Adam (18 B/param)", 2, 4, 4, 8,
     "Frameworks that accumulate gradients in FP32 count 4 bytes for the gradient: 2 + 4 + 4 + 8 = 18. Tools differ by this convention, not by arithmetic."},
    {"fp32-adam", "FP32 + Adam (16 B/param)", 4, 4, 0, 8,
     "Full FP32 training: no separate master copy; weights, gradients and two moments at 4 bytes."},
    {"mixed-bf16-sgd-momentum", "Mixed precision + SGD with momentum (12 B/param)", 2, 2, 4, 4,
     "SGD keeps one FP32 momentum per parameter instead of Adam's two moments."},
    {"mixed-bf16-adam-8bit", "Mixed precision + 8-bit Adam (10 B/param)", 2, 2, 4, 2,
     "8-bit Adam (Dettmers et al. 2022) stores both moments in one byte each (block scales ignored)."},
    {"mixed-bf16-adamw", "Mixed precision BF16 + AdamW (16 B/param)", 2, 2, 4, 8,
     "AdamW (Loshchilov and Hutter 2019) decouples weight decay; its state is Adam's: two FP32 moments."},
    {"mixed-bf16-no-master-adam", "BF16 + Adam, no FP32 master copy (12 B/param)", 2, 2, 0, 8,
     "Pure-BF16 recipes update the BF16 weights directly (with stochastic rounding or Kahan summation)."},
    {"mixed-bf16-adafactor", "Mixed precision + Adafactor, approximation (about 8 B/param)", 2, 2, 4, 0,
     "APPROXIMATION: Adafactor (Shazeer and Stern 2018) without momentum keeps only factored second-moment "
     "row and column sums, O(rows + columns) per matrix: negligible beside the 8 bytes of the other parts."},
});
// clang-format on

} // namespace

std::span<const TrainingRecipe> trainingRecipes()
{
    return kRecipes;
}

const TrainingRecipe *findTrainingRecipe(std::string_view key)
{
    for (const auto &recipe : kRecipes) {
        if (recipe.key == key)
            return &recipe;
    }
    return nullptr;
}

} // namespace core
