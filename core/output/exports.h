// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Data out: parameter sweeps (batch, context, concurrency, utilisation) and the device checks as
// CSV and JSON, each stamped with the app version and the preset data date so a number in a
// spreadsheet can be traced back to what produced it. CSV reads back (sweepFromCsv).

#include "core/model/result.h"
#include "core/model/scenario.h"
#include "core/model/units.h"
#include "core/physics/evaluation.h"

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace core {

struct Selection;

/** Who produced an export: every CSV and JSON file says it. */
struct ExportStamp
{
    std::string appVersion;
    std::string presetDataDate; ///< core::presetDataDate() unless a test says otherwise
};
/** The stamp for this build's presets and `appVersion`. */
ExportStamp exportStamp(std::string_view appVersion);

enum class SweepKind { Batch, Context, Concurrency, Utilisation };
inline constexpr SweepKind kSweepKinds[] = {SweepKind::Batch, SweepKind::Context,
                                            SweepKind::Concurrency, SweepKind::Utilisation};
/** The scenario path a sweep varies ("serving.batch", ...). */
std::string_view sweepPath(SweepKind kind);
/** Short name for menus and file names: "batch", "context", "concurrency", "utilisation". */
std::string_view sweepName(SweepKind kind);
/** The values a sweep runs through: powers of two (batch 1-1024, context from the scenario's
 *  prompt length up to 131,072 tokens, concurrency 1-1024 sequences) or utilisation 5 % to
 *  100 %. */
std::vector<double> sweepValues(SweepKind kind, const Scenario &scenario);
/** The figures a sweep reports by default: memory, fit, speed, first token and cost. */
std::span<const FigureId> sweepFigures();

struct SweepTable
{
    std::string path;                      ///< the varied input
    std::vector<FigureId> figures;         ///< one column each, after the input's own column
    std::vector<double> values;            ///< the input, one row each
    std::vector<std::vector<double>> rows; ///< rows[i][j]: figures[j] at values[i]; NaN if n/a
    ExportStamp stamp;                     ///< read back from a CSV; empty when computed
};

/** Evaluates `scenario` with `path` set to each value. Bad path or value: the error, naming
 *  the value. */
[[nodiscard]] Result<SweepTable> sweepParameter(const Scenario &scenario, std::string_view path,
                                                std::span<const double> values,
                                                std::span<const FigureId> figures = sweepFigures());

/** A comment line with the stamp, a header of dotted keys in SI units, one row per value.
 *  Non-finite values are empty cells. */
std::string sweepToCsv(const SweepTable &table, const ExportStamp &stamp);
/** {"app_version", "preset_data_date", "param", "columns", "rows"}: the same table as JSON. */
std::string sweepToJson(const SweepTable &table, const ExportStamp &stamp);
/** Reads what sweepToCsv wrote (the stamp comes back in `stamp`). */
[[nodiscard]] Result<SweepTable> sweepFromCsv(std::string_view csv);

/** One row per candidate and format: device, format, verdict, replicas, monthly cost and each
 *  check's status and headline; the stamp and the recommendation as comment lines. */
std::string selectionToCsv(const Selection &selection, const ExportStamp &stamp);

/** The shortest decimal text that reads back as the same double; empty when not finite. */
std::string exactNumber(double value);

/** A JSON object's text with "app_version" and "preset_data_date" added (indent 2); text that
 *  is not an object comes back unchanged. */
std::string stampJson(const std::string &objectText, const ExportStamp &stamp);

/** RFC 4180 quoting: a field with a comma, quote or line break in quotes, quotes doubled. Text
 *  a spreadsheet would run as a formula (starting with = + - @, tab or CR) is neutralised with a
 *  leading apostrophe, inside quotes. Numbers are written with exactNumber, never through this. */
std::string csvField(std::string_view text);

} // namespace core
