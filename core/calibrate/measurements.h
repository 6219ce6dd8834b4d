// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Measured runs: what an engine achieved for a model on a device at a batch, context and prompt,
// read from the app's CSV format (docs/scenario-format.md, "Measurements"), llama-bench's and
// `vllm bench serve`'s result files. Each run becomes a
// Scenario (presets plus the row's settings), so predictions for it come from core::evaluate.

#include "core/model/result.h"
#include "core/model/scenario.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace core {

enum class MeasuredMetric {
    DecodeTokensPerSecondPerSequence,
    DecodeTokensPerSecond,
    StepSeconds,
    TtftSeconds,
    PrefillSeconds,
};

std::string_view metricKey(MeasuredMetric metric);

struct Measurement
{
    Scenario scenario; ///< the run's model, device and settings; estimate: speed of light
    MeasuredMetric metric = MeasuredMetric::DecodeTokensPerSecondPerSequence;
    double value = 0;
    std::string engine;
    std::string source;
    std::string file;    ///< where it was read, for messages
    int line = 0;        ///< 1-based line (CSV) or 0 (JSON)
    std::string pointer; ///< the record's JSON pointer (JSON sources; "line 0" said nothing)
    /** "runs.csv:12" or "bench.json:/benchmarks/3": where the row is, for messages. */
    std::string where() const;
};

/** A problem with one input row: the file, line and column (1-based; 0 when not known). */
struct MeasurementProblem
{
    std::string file;
    int line = 0;
    int column = 0;
    std::string columnName;
    std::string message;
    std::string text() const; ///< "file:line:column (name): message"
};

struct MeasurementSet
{
    std::vector<Measurement> rows;
    std::vector<MeasurementProblem> problems; ///< rows left out, and why; the rest are used
};

/** The CSV header columns, in order. */
std::vector<std::string_view> measurementColumns();

/** Reads a measurement CSV (header row, then one run per line; quoted fields allowed). A row
 *  with an unknown metric, a model or device that is no preset, a value that is not a positive
 *  number or one faster than the device allows at 100 % of its peaks, or settings the scenario
 *  reader refuses, is reported and left out; rows that contradict each other (same run, values
 *  more than 2x apart) are reported and both kept. Fails only when nothing can be read (no
 *  header, a missing column). */
[[nodiscard]] Result<MeasurementSet> readMeasurementsCsv(std::string_view text,
                                                         const std::string &file);

/** What a benchmark result file does not say: the model and device presets it ran (llama-bench
 *  and vLLM name a file or a Hugging Face id, not a preset), the engine, the TP degree. */
struct MeasurementDefaults
{
    std::string model;
    std::string device;
    std::string engine;
    double tensorParallel = 0;          ///< 0: the file's or 1
    std::vector<std::string> deviceIds; ///< presets a GPU name may match (llama-bench gpu_info)
};

/** Reads any supported measurement file by its content: the app's CSV (above), llama-bench's
 *  JSON, JSONL or CSV output (pp tests become prefill_seconds, tg tests
 *  decode_tokens_per_second_per_sequence, weights' bits from the GGUF size), or a `vllm bench
 *  serve --save-result` JSON (the median TPOT as the step time at max_concurrency; the TTFT only
 *  at concurrency 1, where no queueing is in it), or a GuideLLM report (each benchmark's median
 *  inter-token latency as the step at its median concurrency; the TTFT when synchronous). */
[[nodiscard]] Result<MeasurementSet> readMeasurements(std::string_view text,
                                                      const std::string &file,
                                                      const MeasurementDefaults &defaults);

/** A measured decode run where the charts draw it: its batch and tokens/s (all sequences) on the
 *  throughput view, its intensity and the FLOP/s it reached (its FLOP per step over the measured
 *  step) on the roofline. Nullopt for prefill and TTFT runs. */
struct MeasuredDecodePoint
{
    double batch = 0;
    double tokensPerSecond = 0;
    double intensity = 0;
    double attainableFlops = 0;
};
std::optional<MeasuredDecodePoint> measuredDecodePoint(const Measurement &measurement);

/** True when a measured run is of the scenario's model, device and weight format (the charts
 *  draw only those beside the scenario's curves). */
bool sameSetup(const Scenario &run, const Scenario &scenario);

/** The prediction for one run with the scenario's estimate (speed of light, typical or a
 *  profile applied to `scenario.calibration`). */
double predict(const Scenario &scenario, MeasuredMetric metric);

} // namespace core
