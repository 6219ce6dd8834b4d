// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The numeric inputs: one row each (path, name, unit, range, default, help, lesson section, the
// struct field that holds it, and a slider's range). The scenario reader, its unknown-key check,
// the writer, setNumberAt(), the editors' ranges and tooltips and the sliders all read this
// table, so a new numeric input is one row here and one field in scenario.h.

#include <cmath>
#include <limits>
#include <span>
#include <string_view>
#include <vector>

namespace core {

struct Scenario;

/** The largest batch the batch axis shows (sliders, sweeps, the roofline's trail). */
inline constexpr double kBatchAxisMaximum = 1024;
inline constexpr double kNoSlider = std::numeric_limits<double>::quiet_NaN();

struct ParameterInfo
{
    std::string_view path; ///< dotted scenario path, e.g. "serving.batch"
    std::string_view name; ///< short human name, e.g. "Batch size"
    std::string_view unit; ///< e.g. "GB", "tokens", "" for pure numbers
    double minimum;
    double maximum;
    bool minimumExclusive; ///< true for (0, 1] ranges such as utilisation
    bool integer;          ///< must hold an integer value (32.0 is accepted, 3.5 is not)
    double defaultValue;   ///< kUnset-like NaN where there is no default (model, device)
    std::string_view help;
    std::string_view lessonSection;
    /// Where the value lives in a Scenario; nullptr for the peak row (one value per format).
    double *(*field)(Scenario &) = nullptr;
    double sliderMinimum = kNoSlider; ///< a logarithmic slider's range, where the input has one
    double sliderMaximum = kNoSlider;

    std::string_view section() const { return path.substr(0, path.find('.')); }
    std::string_view key() const { return path.substr(path.find('.') + 1); }
    bool hasSlider() const { return !std::isnan(sliderMinimum); }
};

std::span<const ParameterInfo> parameterTable();

/** The rows of one section ("serving", "model", ...) that hold a value, in table order. */
std::span<const ParameterInfo *const> sectionParameters(std::string_view section);

/** The row for a dotted path, or nullptr. Peaks share one row: "device.peak_tflops.*". */
const ParameterInfo *findParameter(std::string_view path);

/** Why `value` is not acceptable for `info`, or an empty string when it is. */
std::string_view rangeProblem(const ParameterInfo &info, double value);

} // namespace core

namespace core {

/** A named training-memory recipe: bytes per parameter of each component. */
struct TrainingRecipe
{
    std::string_view key;
    std::string_view label;
    double weightsBytes;
    double gradsBytes;
    double masterBytes;
    double optimizerBytes;
    std::string_view note;
};

/** "mixed-bf16-adam" (the lesson's 16 B/param) first; then the other common conventions. */
std::span<const TrainingRecipe> trainingRecipes();
const TrainingRecipe *findTrainingRecipe(std::string_view key);

} // namespace core
