#pragma once

// Parameter metadata: one row per numeric input (path, name, unit, range, default, help, lesson
// section). Validation uses it now; the GUI's editors, tooltips and axis labels are generated
// from it later, so nothing repeats these facts.

#include <span>
#include <string_view>

namespace core {

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
};

std::span<const ParameterInfo> parameterTable();

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
