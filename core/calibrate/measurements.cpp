// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/calibrate/measurements.h"

#include "core/data/scenarioio.h"
#include "core/model/units.h"
#include "core/physics/evaluation.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <optional>

namespace core {

namespace {

/** The run on the device's fastest arithmetic where its weights are narrower than 16 bits: engines
 *  compute such prompts in INT8 or FP8 where the device has it (llama.cpp's quantised prefill on
 *  CUDA), so a plausible run may beat the 16-bit peak, never that one. */
Scenario fastestArithmetic(Scenario scenario)
{
    if (nominalBytes(scenario.serving.weightFormat) >= 2.0)
        return scenario;
    double best = scenario.serving.computeFormat
                      ? scenario.device.peak(*scenario.serving.computeFormat)
                      : 0.0;
    if (!isSet(best))
        best = 0.0;
    for (const NumericFormat format : kAllFormats)
        if (const double peak = scenario.device.peak(format); isSet(peak) && peak > best) {
            best = peak;
            scenario.serving.computeFormat = format;
        }
    return scenario;
}

using json = nlohmann::json;

constexpr std::array<std::string_view, 16> kColumns = {"model",
                                                       "device",
                                                       "weight_format",
                                                       "kv_format",
                                                       "compute_format",
                                                       "quant_group_size",
                                                       "quant_scale_bits",
                                                       "quant_zero_bits",
                                                       "batch",
                                                       "context_tokens",
                                                       "prompt_tokens",
                                                       "tensor_parallel",
                                                       "metric",
                                                       "value",
                                                       "engine",
                                                       "source"};

constexpr std::array<std::pair<MeasuredMetric, std::string_view>, 5> kMetrics = {{
    {MeasuredMetric::DecodeTokensPerSecondPerSequence, "decode_tokens_per_second_per_sequence"},
    {MeasuredMetric::DecodeTokensPerSecond, "decode_tokens_per_second"},
    {MeasuredMetric::StepSeconds, "step_seconds"},
    {MeasuredMetric::TtftSeconds, "ttft_seconds"},
    {MeasuredMetric::PrefillSeconds, "prefill_seconds"},
}};

/** A CSV field and the 1-based column (in characters) it starts at. */
struct Field
{
    std::string text;
    int column = 1;
};

/** `text` with every byte that does not start a valid UTF-8 sequence (overlong forms,
 *  surrogates and code points above U+10FFFF included) replaced by U+FFFD. */
std::string withValidUtf8(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
        const unsigned char lead = byte(i);
        std::size_t length = 0;
        std::uint32_t point = 0;
        if (lead < 0x80) {
            length = 1;
            point = lead;
        } else if (lead >= 0xC2 && lead <= 0xDF) {
            length = 2;
            point = lead & 0x1Fu;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            length = 3;
            point = lead & 0x0Fu;
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            length = 4;
            point = lead & 0x07u;
        }
        bool valid = length > 0 && i + length <= text.size();
        for (std::size_t k = 1; valid && k < length; ++k) {
            valid = (byte(i + k) & 0xC0u) == 0x80u;
            point = (point << 6) | (byte(i + k) & 0x3Fu);
        }
        if (valid && length > 1) {
            const std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
            valid = point >= smallest[length] && point <= 0x10FFFF &&
                    !(point >= 0xD800 && point <= 0xDFFF);
        }
        if (valid) {
            out.append(text.substr(i, length));
            i += length;
        } else {
            out += "\xEF\xBF\xBD";
            ++i;
        }
    }
    return out;
}

/** The fields of one CSV line; `unterminated` set when a quote opens and never closes. */
std::vector<Field> splitLine(std::string_view line, bool *unterminated = nullptr)
{
    std::vector<Field> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                fields.back().text += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                fields.back().text += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.push_back(Field{{}, static_cast<int>(i) + 2});
        } else if (c != '\r') {
            fields.back().text += c;
        }
    }
    if (unterminated)
        *unterminated = quoted;
    // a cell's bytes are the file's: invalid UTF-8 becomes U+FFFD here, once, so that no name,
    // engine or source carries it into a profile or a JSON answer (a fuzzed CSV made the JSON
    // writers throw, issue #41)
    for (Field &f : fields)
        f.text = withValidUtf8(f.text);
    for (Field &f : fields) { // surrounding blanks are not part of a value
        const auto first = f.text.find_first_not_of(" \t");
        const auto last = f.text.find_last_not_of(" \t");
        f.text =
            first == std::string::npos ? std::string() : f.text.substr(first, last - first + 1);
    }
    return fields;
}

/** The lines of `text` without their '\n': line N is element N - 1. */
std::vector<std::string_view> linesOf(std::string_view text)
{
    std::vector<std::string_view> lines;
    for (std::size_t start = 0; start <= text.size();) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

bool isBlank(std::string_view line)
{
    return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

/** A decimal number as a measurement writes it; strtod's hexadecimal ("0x10"), "inf" and "nan"
 *  are no measurement (issue #41). */
std::optional<double> parseNumber(const std::string &text)
{
    if (text.empty() || text.find_first_not_of("0123456789+-.eE") != std::string::npos)
        return std::nullopt;
    char *end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || !std::isfinite(value))
        return std::nullopt;
    return value;
}

std::optional<MeasuredMetric> parseMetric(std::string_view key)
{
    for (const auto &[metric, name] : kMetrics)
        if (name == key)
            return metric;
    return std::nullopt;
}

/** Which column a scenario reader's pointer ("/serving/batch") is about. */
std::string columnOfPointer(const std::string &pointer)
{
    std::string tail = pointer.substr(pointer.find_last_of('/') + 1);
    if (pointer == "/model" || pointer.starts_with("/model/"))
        return "model";
    if (pointer == "/device" || pointer.starts_with("/device/"))
        return "device";
    if (tail == "concurrent_sequences")
        return "batch";
    return tail;
}

/** The run a measurement describes, and the key two rows of the same run share. */
std::string runKey(const std::map<std::string, std::string> &cells)
{
    std::string key;
    for (std::string_view column : kColumns)
        if (column != "value" && column != "source")
            key += cells.at(std::string(column)) + '\x1f';
    return key;
}

/** One run from its cells (the CSV's columns by name): checked, turned into a scenario, and
 *  added to `set`, or reported there and left out. */
void addRun(MeasurementSet &set, std::map<std::string, std::string> cells,
            const std::map<std::string, int> &cellColumn, const std::string &file, int lineNumber,
            const std::string &where, std::map<std::string, std::pair<double, int>> &seenRuns)
{
    auto problem = [&](int column, std::string name, std::string message) {
        if (!where.empty())
            name = where + (name.empty() ? "" : "/" + name);
        set.problems.push_back({file, lineNumber, column, std::move(name), std::move(message)});
    };
    auto columnProblem = [&](const std::string &name, std::string message) {
        problem(cellColumn.contains(name) ? cellColumn.at(name) : 0, name, std::move(message));
    };
    const auto metric = parseMetric(cells["metric"]);
    if (!metric) {
        std::string known;
        for (const auto &[m, name] : kMetrics)
            known += (known.empty() ? "" : ", ") + std::string(name);
        columnProblem("metric", "unknown metric \"" + cells["metric"] + "\" (one of " + known +
                                    "): row left out");
        return;
    }
    const auto value = parseNumber(cells["value"]);
    if (!value || *value <= 0.0) {
        columnProblem("value", "\"" + cells["value"] + "\" is not a positive number: row left out");
        return;
    }
    if (*value < 1e-12) { // below a picosecond or a token a millennium: a unit slip, no run
        columnProblem("value", "\"" + cells["value"] +
                                   "\" is too small to be a measured time or rate: row left out");
        return;
    }
    bool numbersOk = true;
    json serving = json::object();
    for (const char *column : {"weight_format", "kv_format", "compute_format"})
        if (!cells[column].empty())
            serving[column] = cells[column];
    for (const char *column : {"quant_group_size", "quant_scale_bits", "quant_zero_bits", "batch",
                               "context_tokens", "prompt_tokens", "tensor_parallel"}) {
        if (cells[column].empty())
            continue;
        const auto number = parseNumber(cells[column]);
        if (!number) {
            columnProblem(column, "\"" + cells[column] + "\" is not a number: row left out");
            numbersOk = false;
            break;
        }
        serving[column] = *number;
    }
    if (!numbersOk)
        return;
    if (serving.contains("batch"))
        serving["concurrent_sequences"] = serving["batch"];
    if (serving.contains("context_tokens") && !serving.contains("prompt_tokens"))
        serving["prompt_tokens"] = serving["context_tokens"];
    if (cells["model"].empty() || cells["device"].empty()) {
        columnProblem(cells["model"].empty() ? "model" : "device",
                      "empty: a measurement names the model and device presets it ran");
        return;
    }
    const json doc = {{"format", "accel-explorer/scenario"},
                      {"version", 1},
                      {"model", cells["model"]},
                      {"device", cells["device"]},
                      {"serving", serving},
                      // the run as the speed of light sees it: a fit or a profile's prediction
                      // starts there, never from the typical estimate (fitted on these runs)
                      {"calibration", {{"mode", "speed_of_light"}}}};
    // a cell's bytes are the file's: invalid UTF-8 is replaced, not thrown (a fuzzed CSV crashed
    // the reader, issue #41); the model or device then reads as unknown, named by its line
    constexpr auto kReplace = json::error_handler_t::replace;
    auto read = readScenario(doc.dump(-1, ' ', false, kReplace));
    if (!read && read.error().path == "/serving/compute_format") {
        // the arithmetic runs in a format the preset has no peak for (Apple's GPUs publish
        // none): the device's own compute format stands in; decode hardly depends on it
        columnProblem("compute_format",
                      read.error().message + ": the device's own compute format used, row kept");
        json without = doc;
        without["serving"].erase("compute_format");
        read = readScenario(without.dump(-1, ' ', false, kReplace));
    }
    if (!read) {
        const std::string column = columnOfPointer(read.error().path);
        const bool known = cellColumn.contains(column);
        problem(known ? cellColumn.at(column) : 0, known ? column : std::string(),
                read.error().message + ": row left out");
        return;
    }
    Measurement m;
    m.scenario = std::move(read.value().scenario);
    m.scenario.name = cells["model"] + " on " + cells["device"];
    m.metric = *metric;
    m.value = *value;
    m.engine = cells["engine"];
    m.source = cells["source"];
    m.file = file;
    m.line = lineNumber;
    m.pointer = where;

    // faster than the device allows at 100 % of its bandwidth and peak: a typo or a unit slip
    const double ceiling = predict(fastestArithmetic(m.scenario), m.metric);
    const bool isRate = m.metric == MeasuredMetric::DecodeTokensPerSecond ||
                        m.metric == MeasuredMetric::DecodeTokensPerSecondPerSequence;
    if (std::isfinite(ceiling) && (isRate ? *value > 1.1 * ceiling : *value < ceiling / 1.1)) {
        columnProblem("value", formatNumber(*value, 4) + " is faster than " +
                                   m.scenario.device.name + " allows at 100 % of its " +
                                   "bandwidth and peak (" + formatNumber(ceiling, 4) +
                                   "): row left out");
        return;
    }
    const std::string key = runKey(cells);
    if (auto it = seenRuns.find(key); it != seenRuns.end()) {
        const double ratio = *value / it->second.first;
        if (ratio > 2.0 || ratio < 0.5)
            columnProblem("value", "the same run as line " + std::to_string(it->second.second) +
                                       " measured " + formatNumber(ratio, 3) +
                                       "x apart: both kept, check which is right");
    } else {
        seenRuns[key] = {*value, lineNumber};
    }
    set.rows.push_back(std::move(m));
}

} // namespace

std::string_view metricKey(MeasuredMetric metric)
{
    for (const auto &[m, name] : kMetrics)
        if (m == metric)
            return name;
    return "decode_tokens_per_second_per_sequence";
}

std::string Measurement::where() const
{
    if (line > 0)
        return file + ":" + std::to_string(line);
    return pointer.empty() ? file : file + ":" + pointer;
}

std::string MeasurementProblem::text() const
{
    std::string out = file;
    if (line > 0)
        out += ":" + std::to_string(line);
    if (column > 0)
        out += ":" + std::to_string(column);
    if (!columnName.empty())
        out += " (" + columnName + ")";
    return out + ": " + message;
}

std::vector<std::string_view> measurementColumns()
{
    return {kColumns.begin(), kColumns.end()};
}

double predict(const Scenario &scenario, MeasuredMetric metric)
{
    const Evaluation e = evaluate(scenario);
    switch (metric) {
    case MeasuredMetric::DecodeTokensPerSecondPerSequence:
        return e[FigureId::DecodeTokensPerSecondPerSequence];
    case MeasuredMetric::DecodeTokensPerSecond:
        return e[FigureId::DecodeTokensPerSecond];
    case MeasuredMetric::StepSeconds:
        return e[FigureId::DecodeStepSeconds];
    case MeasuredMetric::TtftSeconds:
        return e[FigureId::PrefillTtftSeconds];
    case MeasuredMetric::PrefillSeconds:
        return e[FigureId::PrefillSeconds];
    }
    return std::numeric_limits<double>::quiet_NaN();
}

bool sameSetup(const Scenario &run, const Scenario &scenario)
{
    return !run.model.presetId.empty() && run.model.presetId == scenario.model.presetId &&
           run.device.presetId == scenario.device.presetId &&
           run.serving.weightFormat == scenario.serving.weightFormat &&
           run.serving.tensorParallel == scenario.serving.tensorParallel;
}

std::optional<MeasuredDecodePoint> measuredDecodePoint(const Measurement &m)
{
    const double batch = m.scenario.serving.batch;
    double step = 0.0;
    switch (m.metric) {
    case MeasuredMetric::DecodeTokensPerSecondPerSequence:
        step = 1.0 / m.value;
        break;
    case MeasuredMetric::DecodeTokensPerSecond:
        step = batch / m.value;
        break;
    case MeasuredMetric::StepSeconds:
        step = m.value;
        break;
    default:
        return std::nullopt;
    }
    const Evaluation e = evaluate(m.scenario);
    MeasuredDecodePoint point;
    point.batch = batch;
    point.tokensPerSecond = batch / step;
    point.intensity = e[FigureId::DecodeIntensity];
    point.attainableFlops = e[FigureId::DecodeFlopsPerStep] / step;
    return point;
}

Result<MeasurementSet> readMeasurementsCsv(std::string_view text, const std::string &file)
{
    // a spreadsheet's "CSV UTF-8" starts with a byte-order mark: the header is what follows it
    if (text.starts_with("\xEF\xBB\xBF"))
        text.remove_prefix(3);
    MeasurementSet set;
    std::map<std::string, int> columnIndex;
    std::map<std::string, std::pair<double, int>> seenRuns; // run -> (value, line)
    std::size_t headerSize = 0;
    int lineNumber = 0;
    for (const std::string_view line : linesOf(text)) {
        ++lineNumber;
        if (line.empty() || line == "\r" || line.starts_with('#'))
            continue;
        bool unterminated = false;
        const std::vector<Field> fields = splitLine(line, &unterminated);
        if (columnIndex.empty()) {
            for (std::size_t i = 0; i < fields.size(); ++i) {
                // the first of a duplicate column is used, the second named (the last won)
                const auto [at, added] =
                    columnIndex.try_emplace(fields[i].text, static_cast<int>(i));
                if (!added)
                    set.problems.push_back(
                        {file, lineNumber, fields[i].column, fields[i].text,
                         "duplicate column (also column " +
                             std::to_string(fields[std::size_t(at->second)].column) +
                             "): the first is used"});
            }
            for (std::string_view column : kColumns)
                if (!columnIndex.contains(std::string(column)))
                    return Diagnostic{file + ":" + std::to_string(lineNumber),
                                      "the header has no \"" + std::string(column) +
                                          "\" column (a measurement file starts with: " +
                                          "model,device,...,metric,value,engine,source)"};
            for (const Field &f : fields)
                if (std::find(kColumns.begin(), kColumns.end(), f.text) == kColumns.end())
                    set.problems.push_back(
                        {file, lineNumber, f.column, f.text, "unknown column: ignored"});
            headerSize = fields.size();
            continue;
        }
        if (unterminated) {
            set.problems.push_back({file,
                                    lineNumber,
                                    fields.back().column,
                                    {},
                                    "a quote opens and never closes: row left out"});
            continue;
        }
        if (fields.size() > headerSize)
            set.problems.push_back({file,
                                    lineNumber,
                                    fields[headerSize].column,
                                    {},
                                    std::to_string(fields.size() - headerSize) +
                                        " cells beyond the header's " + std::to_string(headerSize) +
                                        " columns: ignored"});
        std::map<std::string, std::string> cells;
        std::map<std::string, int> cellColumn;
        for (std::string_view column : kColumns) {
            const int index = columnIndex.at(std::string(column));
            const bool present = index < static_cast<int>(fields.size());
            cells[std::string(column)] = present ? fields[std::size_t(index)].text : std::string();
            cellColumn[std::string(column)] =
                present ? fields[std::size_t(index)].column : static_cast<int>(line.size()) + 1;
        }
        addRun(set, cells, cellColumn, file, lineNumber, {}, seenRuns);
    }
    if (columnIndex.empty())
        return Diagnostic{file, "empty: no header row"};
    return set;
}

namespace {

/** The cells of a run with every column present (empty where not known). */
std::map<std::string, std::string> emptyCells()
{
    std::map<std::string, std::string> cells;
    for (std::string_view column : kColumns)
        cells[std::string(column)] = std::string();
    return cells;
}

std::string numberText(double value)
{
    std::array<char, 64> buffer{};
    std::snprintf(buffer.data(), buffer.size(), "%.10g", value);
    return buffer.data();
}

void applyDefaults(std::map<std::string, std::string> &cells, const MeasurementDefaults &d)
{
    if (cells["model"].empty())
        cells["model"] = d.model;
    if (cells["device"].empty())
        cells["device"] = d.device;
    if (!d.engine.empty())
        cells["engine"] = d.engine;
    if (cells["tensor_parallel"].empty() && d.tensorParallel > 0)
        cells["tensor_parallel"] = numberText(d.tensorParallel);
}

double numberOr(const json &object, const char *key, double fallback)
{
    const auto it = object.find(key);
    if (it == object.end())
        return fallback;
    if (it->is_number())
        return it->get<double>();
    if (it->is_string()) { // llama-bench's CSV quotes every field; its JSONL does not
        char *end = nullptr;
        const std::string text = it->get<std::string>();
        const double value = std::strtod(text.c_str(), &end);
        if (!text.empty() && end == text.c_str() + text.size())
            return value;
    }
    return fallback;
}

std::string stringOr(const json &object, const char *key)
{
    const auto it = object.find(key);
    if (it == object.end())
        return {};
    if (it->is_string())
        return it->get<std::string>();
    if (it->is_number())
        return it->dump();
    return {};
}

/** "NVIDIA GeForce RTX 4090" -> the device preset "nvidia-rtx-4090", when one matches. */
std::string deviceFromName(const std::string &name, const std::vector<std::string> &deviceIds)
{
    std::string slug;
    for (char c : name) {
        const char lower = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (std::isalnum(static_cast<unsigned char>(lower)))
            slug += lower;
        else if (!slug.empty() && slug.back() != '-')
            slug += '-';
    }
    for (const char *noise : {"geforce-", "-gpu"}) {
        const auto at = slug.find(noise);
        if (at != std::string::npos)
            slug.erase(at, std::string_view(noise).size());
    }
    while (!slug.empty() && slug.back() == '-')
        slug.pop_back();
    for (const std::string &id : deviceIds)
        if (!slug.empty() && id == slug)
            return id;
    return {};
}

/** llama.cpp's GGUF types as the app's formats: the bits per weight from the file's own size
 *  and parameter count, so K-quants' mixed blocks count what they really store. */
void llamaWeightFormat(const json &entry, std::map<std::string, std::string> &cells)
{
    const std::string type = stringOr(entry, "model_type");
    const double size = numberOr(entry, "model_size", 0.0);
    const double parameters = numberOr(entry, "model_n_params", 0.0);
    const double bits = parameters > 0.0 ? size * 8.0 / parameters : 0.0;
    if (type.find("BF16") != std::string::npos) {
        cells["weight_format"] = "bf16";
    } else if (type.find("F16") != std::string::npos) {
        cells["weight_format"] = "fp16";
    } else if (type.find("F32") != std::string::npos || type.find("all F32") != std::string::npos) {
        cells["weight_format"] = "fp32";
    } else if (bits > 6.0) {
        cells["weight_format"] = "int8";
        cells["quant_group_size"] = "32";
        cells["quant_scale_bits"] =
            numberText(std::clamp(std::round((bits - 8.0) * 32.0), 0.0, 64.0));
        cells["quant_zero_bits"] = "0";
    } else if (bits > 0.0) {
        cells["weight_format"] = "int4";
        cells["quant_group_size"] = "32";
        cells["quant_scale_bits"] =
            numberText(std::clamp(std::round((bits - 4.0) * 32.0), 0.0, 64.0));
        cells["quant_zero_bits"] = "0";
    }
}

std::string llamaCacheFormat(const std::string &type)
{
    if (type == "f16")
        return "fp16";
    if (type == "bf16")
        return "bf16";
    if (type == "f32")
        return "fp32";
    if (type == "q8_0")
        return "int8";
    if (type == "q4_0" || type == "q4_1")
        return "int4";
    return {};
}

/** One llama-bench test (a JSON object, a JSONL line or a CSV row as an object). */
void addLlamaBenchTest(MeasurementSet &set, const json &entry, const std::string &file, int line,
                       const std::string &where, const MeasurementDefaults &defaults,
                       std::map<std::string, std::pair<double, int>> &seenRuns)
{
    auto cells = emptyCells();
    applyDefaults(cells, defaults);
    if (cells["device"].empty())
        cells["device"] = deviceFromName(stringOr(entry, "gpu_info"), defaults.deviceIds);
    auto report = [&](std::string message) {
        set.problems.push_back({file, line, 0, where, std::move(message)});
    };
    if (cells["model"].empty()) {
        report("llama-bench names the model \"" + stringOr(entry, "model_type") +
               "\", not a preset: give the model preset (accel-calc --model ID): left out");
        return;
    }
    if (cells["device"].empty()) {
        report("the GPU \"" + stringOr(entry, "gpu_info") +
               "\" matches no device preset: give it (accel-calc --device ID): left out");
        return;
    }
    llamaWeightFormat(entry, cells);
    const std::string kvType = stringOr(entry, "type_k");
    cells["kv_format"] = llamaCacheFormat(kvType);
    if (cells["kv_format"].empty() && !kvType.empty())
        report("KV cache type " + kvType + " has no app format: taken as fp16");
    if (cells["kv_format"].empty())
        cells["kv_format"] = "fp16";
    const double prompt = numberOr(entry, "n_prompt", 0.0);
    const double generated = numberOr(entry, "n_gen", 0.0);
    const double depth = numberOr(entry, "n_depth", 0.0);
    const double averageNs = numberOr(entry, "avg_ns", 0.0);
    const double averageTs = numberOr(entry, "avg_ts", 0.0);
    cells["batch"] = "1";
    if (prompt > 0.0 && generated == 0.0) {
        cells["metric"] = "prefill_seconds";
        cells["value"] = numberText(averageNs > 0.0 ? averageNs / 1e9 : prompt / averageTs);
        cells["prompt_tokens"] = numberText(prompt);
        cells["context_tokens"] = numberText(depth + prompt);
    } else if (generated > 0.0 && prompt == 0.0) {
        cells["metric"] = "decode_tokens_per_second_per_sequence";
        cells["value"] = numberText(averageTs);
        cells["prompt_tokens"] = numberText(depth);
        cells["context_tokens"] = numberText(depth + generated);
    } else {
        report("a combined prompt + generation test (pg) is not one metric: left out");
        return;
    }
    if (defaults.engine.empty())
        cells["engine"] = "llama.cpp " + stringOr(entry, "build_commit") + " (" +
                          stringOr(entry, "backends") + ")";
    cells["source"] = file + " (llama-bench " + stringOr(entry, "test_time") + ")";
    addRun(set, cells, {}, file, line, where, seenRuns);
}

/** `vllm bench serve --save-result`: one serving run at a fixed concurrency. */
void addVllmResult(MeasurementSet &set, const json &doc, const std::string &file,
                   const MeasurementDefaults &defaults,
                   std::map<std::string, std::pair<double, int>> &seenRuns)
{
    auto cells = emptyCells();
    applyDefaults(cells, defaults);
    auto report = [&](std::string where, std::string message) {
        set.problems.push_back({file, 0, 0, std::move(where), std::move(message)});
    };
    if (cells["model"].empty() || cells["device"].empty()) {
        report(cells["model"].empty() ? "/model_id" : "",
               "a vLLM result names the model \"" + stringOr(doc, "model_id") +
                   "\" and no device: give the model and device presets (accel-calc --model ID "
                   "--device ID)");
        return;
    }
    const double completed = numberOr(doc, "completed", 0.0);
    const double concurrency = numberOr(doc, "max_concurrency", 0.0);
    if (!(completed > 0.0)) {
        report("/completed", "no completed request: nothing measured");
        return;
    }
    if (!(concurrency >= 1.0)) {
        report("/max_concurrency", "not set: the batch the server ran is unknown (rerun with "
                                   "--max-concurrency N): left out");
        return;
    }
    const double prompt = std::round(numberOr(doc, "total_input_tokens", 0.0) / completed);
    const double output = std::round(numberOr(doc, "total_output_tokens", 0.0) / completed);
    cells["batch"] = numberText(concurrency);
    cells["prompt_tokens"] = numberText(prompt);
    // the KV a decode step reads grows from the prompt to prompt + output: its mean
    cells["context_tokens"] = numberText(prompt + std::round(output / 2.0));
    if (defaults.engine.empty())
        cells["engine"] = "vLLM";
    cells["source"] = file + " (vllm bench serve " + stringOr(doc, "date") + ")";
    const double tpot = numberOr(doc, "median_tpot_ms", numberOr(doc, "mean_tpot_ms", 0.0));
    if (tpot > 0.0) {
        auto decode = cells;
        decode["metric"] = "step_seconds";
        decode["value"] = numberText(tpot / 1000.0);
        addRun(set, decode, {}, file, 0, "/median_tpot_ms", seenRuns);
    } else {
        report("/median_tpot_ms", "missing: no decode step time in the result");
    }
    const double ttft = numberOr(doc, "median_ttft_ms", 0.0);
    if (ttft > 0.0 && concurrency == 1.0) {
        auto first = cells;
        first["metric"] = "ttft_seconds";
        first["value"] = numberText(ttft / 1000.0);
        first["context_tokens"] = numberText(prompt + 1.0);
        addRun(set, first, {}, file, 0, "/median_ttft_ms", seenRuns);
    } else if (ttft > 0.0) {
        report("/median_ttft_ms", "measured at concurrency " + numberText(concurrency) +
                                      ": it includes queueing behind other prompts, so it is "
                                      "not a single request's time to first token: not fitted");
    }
}

/** A GuideLLM distribution's median: {"successful": {"median": m, "percentiles": {"p50"}}}. */
double guideMedian(const json &metrics, const char *name)
{
    const auto it = metrics.find(name);
    if (it == metrics.end() || !it->is_object())
        return 0.0;
    const json *summary = &*it;
    if (const auto successful = it->find("successful");
        successful != it->end() && successful->is_object())
        summary = &*successful;
    if (const double median = numberOr(*summary, "median", 0.0); median > 0.0)
        return median;
    if (const auto percentiles = summary->find("percentiles");
        percentiles != summary->end() && percentiles->is_object())
        return numberOr(*percentiles, "p50", 0.0);
    return numberOr(*summary, "mean", 0.0);
}

/** One GuideLLM benchmark (a strategy run at one concurrency or rate): the median inter-token
 *  latency as the step at the median concurrency; the TTFT only when synchronous (one request
 *  at a time, no queueing in it). */
void addGuideLlmBenchmark(MeasurementSet &set, const json &benchmark, const std::string &file,
                          const std::string &where, const MeasurementDefaults &defaults,
                          std::map<std::string, std::pair<double, int>> &seenRuns)
{
    auto cells = emptyCells();
    applyDefaults(cells, defaults);
    auto report = [&](const std::string &field, std::string message) {
        set.problems.push_back({file, 0, 0, where + field, std::move(message)});
    };
    if (cells["model"].empty() || cells["device"].empty()) {
        report("", "a GuideLLM report names no model or device preset: give them (accel-calc "
                   "--model ID --device ID)");
        return;
    }
    const json metrics = benchmark.value("metrics", json::object());
    std::string strategy; // under "config" since GuideLLM 0.3, under "args" before
    for (const char *holder : {"config", "args"})
        if (const auto config = benchmark.find(holder);
            strategy.empty() && config != benchmark.end() && config->is_object())
            if (const auto s = config->find("strategy"); s != config->end() && s->is_object())
                strategy = s->value("type_", s->value("kind", std::string()));
    const double concurrency = std::round(guideMedian(metrics, "request_concurrency"));
    const double prompt = std::round(guideMedian(metrics, "prompt_token_count"));
    const double output = std::round(guideMedian(metrics, "output_token_count"));
    if (!(concurrency >= 1.0)) {
        report("/metrics/request_concurrency", "no concurrency: the batch is unknown: left out");
        return;
    }
    cells["batch"] = numberText(concurrency);
    cells["prompt_tokens"] = numberText(prompt);
    cells["context_tokens"] = numberText(prompt + std::round(output / 2.0));
    if (defaults.engine.empty())
        cells["engine"] = "GuideLLM run";
    cells["source"] = file + " (GuideLLM " + (strategy.empty() ? "benchmark" : strategy) + ")";
    const double itl = guideMedian(metrics, "inter_token_latency_ms");
    if (itl > 0.0) {
        auto decode = cells;
        decode["metric"] = "step_seconds";
        decode["value"] = numberText(itl / 1000.0);
        addRun(set, decode, {}, file, 0, where + "/metrics/inter_token_latency_ms", seenRuns);
    } else {
        report("/metrics/inter_token_latency_ms", "missing: no decode step time");
    }
    const double ttft = guideMedian(metrics, "time_to_first_token_ms");
    if (ttft > 0.0 && (strategy == "synchronous" || concurrency == 1.0)) {
        auto first = cells;
        first["metric"] = "ttft_seconds";
        first["value"] = numberText(ttft / 1000.0);
        first["batch"] = "1";
        first["context_tokens"] = numberText(prompt + 1.0);
        addRun(set, first, {}, file, 0, where + "/metrics/time_to_first_token_ms", seenRuns);
    } else if (ttft > 0.0) {
        report("/metrics/time_to_first_token_ms",
               "measured at concurrency " + numberText(concurrency) +
                   ": it includes queueing, so it is not one request's first token: not fitted");
    }
}

} // namespace

Result<MeasurementSet> readMeasurements(std::string_view text, const std::string &file,
                                        const MeasurementDefaults &defaults)
{
    if (text.starts_with("\xEF\xBB\xBF")) // a UTF-8 byte-order mark, as spreadsheets write
        text.remove_prefix(3);
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return Diagnostic{file, "empty: no measurement"};
    MeasurementSet set;
    std::map<std::string, std::pair<double, int>> seenRuns;
    if (text[first] == '[' || text[first] == '{') {
        json doc;
        try {
            doc = json::parse(text);
        } catch (const json::exception &) {
            // llama-bench -o jsonl: one object per line
            int line = 0;
            for (const std::string_view row : linesOf(text)) {
                ++line;
                if (isBlank(row))
                    continue;
                try {
                    const json entry = json::parse(row);
                    if (!entry.is_object() || !entry.contains("avg_ts"))
                        return Diagnostic{file + ":" + std::to_string(line),
                                          "not a llama-bench JSONL line"};
                    addLlamaBenchTest(set, entry, file, line, {}, defaults, seenRuns);
                } catch (const json::exception &error) {
                    return Diagnostic{file + ":" + std::to_string(line),
                                      std::string("not JSON: ") + error.what()};
                }
            }
            return set;
        }
        if (doc.is_array()) {
            for (std::size_t i = 0; i < doc.size(); ++i) {
                if (!doc[i].is_object() || !doc[i].contains("avg_ts"))
                    return Diagnostic{file + ": /" + std::to_string(i),
                                      "not a llama-bench test (no avg_ts)"};
                addLlamaBenchTest(set, doc[i], file, 0, "/" + std::to_string(i), defaults,
                                  seenRuns);
            }
            return set;
        }
        if (doc.contains("benchmarks") && doc["benchmarks"].is_array()) { // GuideLLM
            for (std::size_t i = 0; i < doc["benchmarks"].size(); ++i)
                if (doc["benchmarks"][i].is_object())
                    addGuideLlmBenchmark(set, doc["benchmarks"][i], file,
                                         "/benchmarks/" + std::to_string(i), defaults, seenRuns);
            return set;
        }
        if (doc.contains("median_tpot_ms") || doc.contains("mean_tpot_ms") ||
            doc.contains("median_ttft_ms")) {
            addVllmResult(set, doc, file, defaults, seenRuns);
            return set;
        }
        return Diagnostic{file, "a JSON file the app does not know: a measurement is a "
                                "`vllm bench serve --save-result` result, llama-bench -o json or "
                                "a GuideLLM report"};
    }
    const std::string_view header = text.substr(first, text.find('\n', first) - first);
    if (header.find("avg_ts") != std::string_view::npos &&
        header.find("n_prompt") != std::string_view::npos) {
        // llama-bench -o csv: every field quoted; each row as an object, by the header's names
        std::vector<std::string> names;
        for (const Field &f : splitLine(header))
            names.push_back(f.text);
        int line = 0;
        for (const std::string_view row : linesOf(text)) {
            ++line;
            if (row.data() <= header.data() || isBlank(row)) // the header and what precedes it
                continue;
            const std::vector<Field> fields = splitLine(row);
            json entry = json::object();
            for (std::size_t i = 0; i < names.size() && i < fields.size(); ++i)
                entry[names[i]] = fields[i].text;
            addLlamaBenchTest(set, entry, file, line, {}, defaults, seenRuns);
        }
        return set;
    }
    return readMeasurementsCsv(text, file);
}

} // namespace core
