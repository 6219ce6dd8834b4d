// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Private to core: strict JSON parsing and typed field reading with the parameter table's
// ranges. Failures are thrown as ReadFailure inside core's .cpp files and turned into Result at
// the public API (scenarioio.cpp, presets.cpp); nothing is thrown across that API.

#include "core/model/result.h"
#include "core/model/scenario.h"

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <map>
#include <string>
#include <string_view>

namespace core::detail {

using json = nlohmann::json;

inline constexpr int kMaxNesting = 64;

struct ReadFailure
{
    Diagnostic diagnostic;
};

[[noreturn]] void fail(const std::string &path, const std::string &message);

/** Parses `text` as JSON, refusing duplicate keys, nesting deeper than kMaxNesting, numbers
 *  that are not finite, and invalid UTF-8. Throws ReadFailure. */
json parseStrict(std::string_view text);

/** `text` fit for a message: control characters as \u001b escapes. */
std::string printable(std::string_view text);

/** "/serving/batch" from "serving" and "batch" (JSON pointer escaping applied). */
std::string childPointer(const std::string &parent, std::string_view key);

/** Reads typed fields of one JSON object and records what was given. */
class FieldReader
{
public:
    FieldReader(const json &object, std::string pointer, std::string section, Diagnostics &warnings,
                std::map<std::string, InputOrigin> *given);

    bool has(std::string_view key) const;
    const json *find(std::string_view key) const;
    const std::string &pointer() const { return m_pointer; }
    std::string pointerOf(std::string_view key) const { return childPointer(m_pointer, key); }

    /** A number checked against the parameter table row "section.key". */
    void number(std::string_view key, double &out);
    void boolean(std::string_view key, bool &out);
    void string(std::string_view key, std::string &out);
    void format(std::string_view key, NumericFormat &out, bool storage);
    void formatList(std::string_view key, std::vector<NumericFormat> &out);
    void stringMap(std::string_view key, std::map<std::string, std::string> &out);
    void numberMap(std::string_view key, std::map<std::string, double> &out);

    /** Reads every numeric input of this section from the parameter table into `scenario`
     *  (the table's accessors), except the keys in `later`, which the caller reads by rules of
     *  their own (defaults that depend on other inputs). */
    void numbers(Scenario &scenario, std::initializer_list<std::string_view> later = {});

    /** Warns about keys not in `known` ("unknown key, kept as is when saved"). */
    void warnUnknown(std::initializer_list<std::string_view> known);
    /** The same, with the section's numeric inputs from the parameter table known too. */
    void warnUnknownBesideNumbers(std::initializer_list<std::string_view> otherKeys);

private:
    void markGiven(std::string_view key);

    const json &m_object;
    std::string m_pointer;
    std::string m_section;
    Diagnostics &m_warnings;
    std::map<std::string, InputOrigin> *m_given;
};

/** Reads an inline model object (presets use the same reader). Throws ReadFailure. */
ModelSpec readModelObject(const json &object, const std::string &pointer, Diagnostics &warnings,
                          std::map<std::string, InputOrigin> *given);
/** Reads an inline device object. Throws ReadFailure. */
DeviceSpec readDeviceObject(const json &object, const std::string &pointer, Diagnostics &warnings,
                            std::map<std::string, InputOrigin> *given);

/** A number as written: whole numbers as integers ("layers": 32, not 32.0), the same double. */
json numberJson(double value);
/** Writes every numeric input of `section` from the parameter table into `out`: set values as
 *  numbers, unset ones removed (a document kept from the file keeps no stale value). */
void putNumbers(json &out, const Scenario &scenario, std::string_view section);

json modelToJson(const ModelSpec &model);
json deviceToJson(const DeviceSpec &device);

/** The preset's JSON object as shipped, or nullptr. kind: "model" | "device". */
const json *presetObject(std::string_view kind, std::string_view id);
/** Comma-separated known preset ids of a kind, for error messages. */
std::string knownPresetIds(std::string_view kind);

std::string_view familyKey(DeviceFamily family);
std::string_view deploymentKey(Deployment deployment);

} // namespace core::detail
