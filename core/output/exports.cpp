// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/output/exports.h"

#include "core/data/presets.h"
#include "core/decide/selection.h"
#include "core/model/formats.h"
#include "core/model/parameters.h"
#include "core/model/scenarioaccess.h"
#include "core/model/units.h"
#include "core/physics/estimateterms.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace core {

namespace {

using json = nlohmann::json;

constexpr FigureId kSweepFigures[] = {
    FigureId::ServingBytesTotal,
    FigureId::HeadroomBytes,
    FigureId::Fits,
    FigureId::MaxConcurrentSequences,
    FigureId::DecodeIntensity,
    FigureId::DecodeStepSeconds,
    FigureId::DecodeTokensPerSecond,
    FigureId::DecodeTokensPerSecondPerSequence,
    FigureId::PrefillTtftSeconds,
    FigureId::CostUsdPerMillionTokens,
};

} // namespace

std::string exactNumber(double value)
{
    if (!std::isfinite(value))
        return {};
    char buffer[32];
    for (int precision = 6; precision <= 17; ++precision) {
        std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
        if (std::strtod(buffer, nullptr) == value)
            break;
    }
    return buffer;
}

namespace {

std::string stampLine(const ExportStamp &stamp)
{
    return "# Accelerator Explorer " + stamp.appVersion + "; preset data " + stamp.presetDataDate +
           "; SI units (bytes, seconds, FLOP, USD)\n";
}

std::vector<std::string> splitCsvLine(std::string_view line)
{
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                fields.back() += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                fields.back() += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.emplace_back();
        } else if (c != '\r') {
            fields.back() += c;
        }
    }
    return fields;
}

} // namespace

ExportStamp exportStamp(std::string_view appVersion)
{
    return {std::string(appVersion), std::string(presetDataDate())};
}

std::string_view sweepPath(SweepKind kind)
{
    switch (kind) {
    case SweepKind::Batch:
        return "serving.batch";
    case SweepKind::Context:
        return "serving.context_tokens";
    case SweepKind::Concurrency:
        return "serving.concurrent_sequences";
    case SweepKind::Utilisation:
        return "cost.utilisation";
    }
    return "serving.batch";
}

std::string_view sweepName(SweepKind kind)
{
    switch (kind) {
    case SweepKind::Batch:
        return "batch";
    case SweepKind::Context:
        return "context";
    case SweepKind::Concurrency:
        return "concurrency";
    case SweepKind::Utilisation:
        return "utilisation";
    }
    return "batch";
}

std::vector<double> sweepValues(SweepKind kind, const Scenario &scenario)
{
    std::vector<double> values;
    switch (kind) {
    case SweepKind::Batch:
    case SweepKind::Concurrency:
        for (double v = 1; v <= kBatchAxisMaximum; v *= 2)
            values.push_back(v);
        break;
    case SweepKind::Context: {
        // A context shorter than the prompt is not a scenario: start at the prompt. Up to 128k
        // tokens, or to four times a longer prompt (a 200k prompt was left with no values).
        const double prompt = std::max(1.0, scenario.serving.promptTokens);
        double v = 256;
        while (v < prompt)
            v *= 2;
        const double last = std::max(131072.0, v * 4);
        if (v != prompt)
            values.push_back(prompt);
        for (; v <= last; v *= 2)
            values.push_back(v);
        break;
    }
    case SweepKind::Utilisation:
        for (int percent = 5; percent <= 100; percent += 5)
            values.push_back(percent / 100.0);
        break;
    }
    return values;
}

std::span<const FigureId> sweepFigures()
{
    return kSweepFigures;
}

Result<SweepTable> sweepParameter(const Scenario &scenario, std::string_view path,
                                  std::span<const double> values, std::span<const FigureId> figures)
{
    SweepTable table;
    table.path = std::string(path);
    table.figures.assign(figures.begin(), figures.end());
    Scenario point = scenario; // one copy, each value applied to it as to the scenario read
    for (double value : values) {
        undoNumberAsRead(point, scenario, path);
        auto set = setNumberAsRead(point, path, value); // as `--set` would have read it
        if (!set) {
            // named as every other input error is: a JSON pointer ("/serving/batch")
            std::string pointer = "/" + set.error().path;
            std::replace(pointer.begin(), pointer.end(), '.', '/');
            return Diagnostic{pointer, set.error().message + " (sweep value " +
                                           formatNumber(value, 6) + ")"};
        }
        const Evaluation evaluation = evaluate(point);
        std::vector<double> row;
        row.reserve(figures.size());
        for (FigureId id : figures)
            row.push_back(evaluation[id]);
        table.values.push_back(value);
        table.rows.push_back(std::move(row));
    }
    return table;
}

std::string sweepToCsv(const SweepTable &table, const ExportStamp &stamp)
{
    std::string out = stampLine(stamp);
    out += csvField(table.path);
    for (FigureId id : table.figures)
        out += ',' + csvField(figureInfo(id).key);
    out += '\n';
    for (std::size_t i = 0; i < table.values.size(); ++i) {
        out += exactNumber(table.values[i]);
        for (double cell : table.rows[i])
            out += ',' + exactNumber(cell);
        out += '\n';
    }
    return out;
}

std::string sweepToJson(const SweepTable &table, const ExportStamp &stamp)
{
    json columns = json::array();
    for (FigureId id : table.figures)
        columns.push_back(std::string(figureInfo(id).key));
    json rows = json::array();
    for (std::size_t i = 0; i < table.values.size(); ++i) {
        json row = json::object();
        row[table.path] = table.values[i];
        for (std::size_t j = 0; j < table.figures.size(); ++j) {
            const double cell = table.rows[i][j];
            row[std::string(figureInfo(table.figures[j]).key)] =
                std::isfinite(cell) ? json(cell) : json(nullptr);
        }
        rows.push_back(std::move(row));
    }
    json document = {{"app_version", stamp.appVersion},
                     {"preset_data_date", stamp.presetDataDate},
                     {"param", table.path},
                     {"columns", columns},
                     {"units", "SI (bytes, seconds, FLOP, USD)"},
                     {"rows", rows}};
    return document.dump(2);
}

Result<SweepTable> sweepFromCsv(std::string_view csv)
{
    SweepTable table;
    std::istringstream in{std::string(csv)};
    std::string line;
    int lineNumber = 0;
    bool haveHeader = false;
    while (std::getline(in, line)) {
        ++lineNumber;
        const std::string where = "line " + std::to_string(lineNumber);
        if (line.empty() || line == "\r")
            continue;
        if (line.starts_with('#')) {
            const std::string marker = "# Accelerator Explorer ";
            if (line.starts_with(marker)) {
                const auto semicolon = line.find(';');
                table.stamp.appVersion = line.substr(marker.size(), semicolon - marker.size());
                const std::string data = "preset data ";
                const auto at = line.find(data);
                if (at != std::string::npos)
                    table.stamp.presetDataDate =
                        line.substr(at + data.size(), line.find(';', at) - at - data.size());
            }
            continue;
        }
        const std::vector<std::string> fields = splitCsvLine(line);
        if (!haveHeader) {
            table.path = fields.front();
            if (table.path.empty())
                return Diagnostic{where, "the header's first column must name the varied input"};
            for (std::size_t j = 1; j < fields.size(); ++j) {
                const FigureInfo *info = findFigure(fields[j]);
                if (!info)
                    return Diagnostic{where, "unknown column \"" + fields[j] + "\""};
                table.figures.push_back(info->id);
            }
            haveHeader = true;
            continue;
        }
        if (fields.size() != table.figures.size() + 1)
            return Diagnostic{where, "has " + std::to_string(fields.size()) +
                                         " fields, the header " +
                                         std::to_string(table.figures.size() + 1)};
        std::vector<double> numbers;
        for (const std::string &field : fields) {
            if (field.empty()) {
                numbers.push_back(std::nan(""));
                continue;
            }
            char *end = nullptr;
            const double value = std::strtod(field.c_str(), &end);
            if (end == field.c_str() || *end != '\0' || !std::isfinite(value))
                return Diagnostic{where, "\"" + field + "\" is not a number"};
            numbers.push_back(value);
        }
        if (!std::isfinite(numbers.front()))
            return Diagnostic{where, "the input column is empty"};
        table.values.push_back(numbers.front());
        table.rows.emplace_back(numbers.begin() + 1, numbers.end());
    }
    if (!haveHeader)
        return Diagnostic{"line 1", "no header row"};
    return table;
}

std::string stampJson(const std::string &objectText, const ExportStamp &stamp)
{
    json document = json::parse(objectText, nullptr, false);
    if (!document.is_object())
        return objectText;
    document["app_version"] = stamp.appVersion;
    document["preset_data_date"] = stamp.presetDataDate;
    return document.dump(2, ' ', false, json::error_handler_t::replace);
}

std::string csvField(std::string_view text)
{
    // A spreadsheet runs a cell that starts with = + - @ (or tab or CR before one) as a formula:
    // such text gets a leading apostrophe, which spreadsheets show as text (OWASP's advice).
    const bool formulaLike =
        !text.empty() && std::string_view("=+-@\t\r").find(text.front()) != std::string_view::npos;
    // a leading '#' would read back as a comment line
    if (!formulaLike && text.find_first_of(",\"\n\r") == std::string_view::npos &&
        !text.starts_with('#'))
        return std::string(text);
    std::string out = formulaLike ? "\"'" : "\"";
    for (char c : text) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out + '"';
}

namespace {

/** Text for a '#' comment line: a line break in a name would end the comment there. */
std::string oneLine(std::string text)
{
    std::replace_if(
        text.begin(), text.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    return text;
}

} // namespace

std::string selectionToCsv(const Selection &selection, const ExportStamp &stamp)
{
    std::string out = stampLine(stamp);
    const Recommendation &r = selection.recommendation;
    out += "# recommendation: " +
           (r.found ? oneLine(csvField(r.deviceId)) + " " + std::string(formatKey(r.weightFormat)) +
                          ", " + oneLine(csvField(r.shape))
                    : std::string("none passes every check")) +
           "\n";
    out += "device,weights,verdict,passes,tensor_parallel,pipeline_parallel,replicas,devices,"
           "memory_per_device_bytes,capacity_bytes,usd_per_hour,monthly_cost_usd,"
           "usd_per_million_tokens";
    for (std::size_t k = 0; k < kCheckCount; ++k) {
        const std::string key(checkKey(CheckKind(k)));
        out += ',' + key + "_status," + key + "_headline";
    }
    out += '\n';
    for (const Candidate &c : selection.candidates) {
        out += csvField(c.deviceId) + ',' + std::string(formatKey(c.weightFormat)) + ',' +
               csvField(c.verdict) + ',' + (c.passes ? "true" : "false") + ',' +
               exactNumber(c.tensorParallel) + ',' + exactNumber(c.pipelineParallel) + ',' +
               exactNumber(c.replicas) + ',' + exactNumber(c.devices) + ',' +
               exactNumber(c.memoryPerDeviceBytes) + ',' + exactNumber(c.capacityBytes) + ',' +
               exactNumber(c.usdPerHour) + ',' + exactNumber(c.monthlyCostUsd) + ',' +
               exactNumber(c.usdPerMillionTokens);
        for (const CheckResult &check : c.checks)
            out += ',' + std::string(checkStatusKey(check.status)) + ',' + csvField(check.headline);
        out += '\n';
    }
    return out;
}

} // namespace core
