// SPDX-License-Identifier: GPL-3.0-or-later
#include "measurements.h"

#include "evaluation.h"
#include "scenarioio.h"
#include "units.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <optional>

namespace core {

namespace {

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

std::vector<Field> splitLine(std::string_view line)
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
    for (Field &f : fields) { // surrounding blanks are not part of a value
        const auto first = f.text.find_first_not_of(" \t");
        const auto last = f.text.find_last_not_of(" \t");
        f.text =
            first == std::string::npos ? std::string() : f.text.substr(first, last - first + 1);
    }
    return fields;
}

std::optional<double> parseNumber(const std::string &text)
{
    if (text.empty())
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
    return line > 0 ? file + ":" + std::to_string(line) : file;
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

Result<MeasurementSet> readMeasurementsCsv(std::string_view text, const std::string &file)
{
    MeasurementSet set;
    std::map<std::string, int> columnIndex;
    std::map<std::string, std::pair<double, int>> seenRuns; // run -> (value, line)
    int lineNumber = 0;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        const std::string_view line = text.substr(start, end - start);
        start = end + 1;
        ++lineNumber;
        if (line.empty() || line == "\r" || line.starts_with('#'))
            continue;
        const std::vector<Field> fields = splitLine(line);
        auto problem = [&](int column, std::string name, std::string message) {
            set.problems.push_back({file, lineNumber, column, std::move(name), std::move(message)});
        };
        if (columnIndex.empty()) {
            for (std::size_t i = 0; i < fields.size(); ++i)
                columnIndex[fields[i].text] = static_cast<int>(i);
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
            continue;
        }
        std::map<std::string, std::string> cells;
        std::map<std::string, int> cellColumn;
        for (std::string_view column : kColumns) {
            const int index = columnIndex.at(std::string(column));
            const bool present = index < static_cast<int>(fields.size());
            cells[std::string(column)] = present ? fields[std::size_t(index)].text : std::string();
            cellColumn[std::string(column)] =
                present ? fields[std::size_t(index)].column : static_cast<int>(line.size()) + 1;
        }
        auto columnProblem = [&](const std::string &name, std::string message) {
            problem(cellColumn.at(name), name, std::move(message));
        };
        const auto metric = parseMetric(cells["metric"]);
        if (!metric) {
            std::string known;
            for (const auto &[m, name] : kMetrics)
                known += (known.empty() ? "" : ", ") + std::string(name);
            columnProblem("metric", "unknown metric \"" + cells["metric"] + "\" (one of " + known +
                                        "): row left out");
            continue;
        }
        const auto value = parseNumber(cells["value"]);
        if (!value || *value <= 0.0) {
            columnProblem("value",
                          "\"" + cells["value"] + "\" is not a positive number: row left out");
            continue;
        }
        bool numbersOk = true;
        json serving = json::object();
        for (const char *column : {"weight_format", "kv_format", "compute_format"})
            if (!cells[column].empty())
                serving[column] = cells[column];
        for (const char *column : {"quant_group_size", "quant_scale_bits", "quant_zero_bits",
                                   "batch", "context_tokens", "prompt_tokens", "tensor_parallel"}) {
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
            continue;
        if (serving.contains("batch"))
            serving["concurrent_sequences"] = serving["batch"];
        if (serving.contains("context_tokens") && !serving.contains("prompt_tokens"))
            serving["prompt_tokens"] = serving["context_tokens"];
        if (cells["model"].empty() || cells["device"].empty()) {
            columnProblem(cells["model"].empty() ? "model" : "device",
                          "empty: a measurement names the model and device presets it ran");
            continue;
        }
        const json doc = {{"format", "accel-explorer/scenario"},
                          {"version", 1},
                          {"model", cells["model"]},
                          {"device", cells["device"]},
                          {"serving", serving}};
        auto read = readScenario(doc.dump());
        if (!read && read.error().path == "/serving/compute_format") {
            // the arithmetic runs in a format the preset has no peak for (Apple's GPUs publish
            // none): the device's own compute format stands in; decode hardly depends on it
            columnProblem("compute_format", read.error().message +
                                                ": the device's own compute format used, row kept");
            json without = doc;
            without["serving"].erase("compute_format");
            read = readScenario(without.dump());
        }
        if (!read) {
            const std::string column = columnOfPointer(read.error().path);
            const bool known = cellColumn.contains(column);
            problem(known ? cellColumn.at(column) : 0, known ? column : std::string(),
                    read.error().message + ": row left out");
            continue;
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

        // faster than the device allows at 100 % of its bandwidth and peak: a typo or a unit slip
        const double ceiling = predict(m.scenario, m.metric);
        const bool isRate = m.metric == MeasuredMetric::DecodeTokensPerSecond ||
                            m.metric == MeasuredMetric::DecodeTokensPerSecondPerSequence;
        if (std::isfinite(ceiling) && (isRate ? *value > 1.1 * ceiling : *value < ceiling / 1.1)) {
            columnProblem("value", formatNumber(*value, 4) + " is faster than " +
                                       m.scenario.device.name + " allows at 100 % of its " +
                                       "bandwidth and peak (" + formatNumber(ceiling, 4) +
                                       "): row left out");
            continue;
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
    if (columnIndex.empty())
        return Diagnostic{file, "empty: no header row"};
    return set;
}

} // namespace core
