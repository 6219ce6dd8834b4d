// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/output/evaluationjson.h"

#include "core/calibrate/calibration.h"

#include "core/data/calibrationprofile.h"
#include "core/data/presets.h"
#include "core/model/scenario.h"
#include "core/physics/estimateterms.h"
#include "core/physics/evaluation.h"
#include "core/physics/explain.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace core {

namespace {

using json = nlohmann::json;

json numberValue(double value)
{
    // Whole numbers print without a fraction (14000000000, not 14000000000.0).
    if (std::fabs(value) < 9.007199254740992e15 && std::floor(value) == value)
        return static_cast<std::int64_t>(value);
    return value;
}

json toJsonObject(const Scenario &scenario, const Evaluation &e, bool withExplain)
{
    json out = json::object();
    for (const FigureInfo &info : figureTable()) {
        if (!e.available(info.id))
            continue;
        const double value = e[info.id];
        if (!std::isfinite(value))
            continue; // evaluate() never leaves one; belt and braces before serialising
        const auto dot = info.key.find('.');
        const std::string group(info.key.substr(0, dot));
        const std::string name(info.key.substr(dot + 1));
        if (info.quantity == Quantity::Boolean)
            out[group][name] = value != 0.0;
        else
            out[group][name] = numberValue(value);
    }
    out["decode"]["bound"] = std::string(boundKey(e.decodeBound));
    out["prefill"]["bound"] = std::string(boundKey(e.prefillBound));
    out["estimate"]["mode"] = std::string(estimateModeKey(e.estimateMode));
    out["estimate"]["label"] = estimateLabel(scenario);
    // how near its data the estimate lies: a device outside the fit says so (issue #43)
    const ReachInfo reach = estimateReach(scenario);
    out["estimate"]["reach"] = std::string(estimateReachKey(reach.reach));
    out["estimate"]["reach_text"] = reach.text;
    {
        // the terms beside the efficiencies (issue #43): the KV cache's and the engine's per
        // sequence, so a reader can redo the step's sum
        const EstimateTerms terms = estimateTerms(scenario);
        out["estimate"]["kv_bandwidth_efficiency"] = terms.kvBandwidthEfficiency;
        out["estimate"]["step_seconds_per_sequence"] = terms.secondsPerSequence;
        // the range the roofline draws and the sensitivity varies: a factor on every speed
        if (const EstimateRange range = estimateRange(terms); range.known()) {
            out["estimate"]["speed_factor_low"] = range.low;
            out["estimate"]["speed_factor_high"] = range.high;
        }
    }
    out["roofline"]["compute_format"] = std::string(formatKey(e.computeFormat));
    json warnings = json::array();
    for (std::string_view text : warningTexts(e))
        warnings.push_back(std::string(text));
    out["warnings"] = warnings;
    // a central figure is there, or listed here with the reason it is not (never just missing)
    json notAvailable = json::object();
    for (FigureId id : centralFigures())
        if (auto reason = notAvailableReason(e, id))
            notAvailable[std::string(figureInfo(id).key)] = std::string(*reason);
    if (!notAvailable.empty())
        out["not_available"] = notAvailable;

    if (withExplain) {
        json explained = json::object();
        for (const FigureInfo &info : figureTable()) {
            auto x = explain(scenario, e, info.id);
            if (!x)
                continue;
            json inputs = json::object();
            for (const ExplainedInput &input : x->inputs)
                inputs[input.name] = {{"value", input.value}, {"source", input.provenance}};
            json entry = {
                {"formula", x->formula}, {"substituted", x->substituted}, {"inputs", inputs}};
            if (!x->note.empty())
                entry["note"] = x->note;
            explained[std::string(info.key)] = entry;
        }
        out["explain"] = explained;
    }
    return out;
}

std::string dump(const json &value, int indent)
{
    return value.dump(indent, ' ', false, json::error_handler_t::replace);
}

} // namespace

std::string evaluationToJson(const Scenario &scenario, const Evaluation &evaluation,
                             bool withExplain, int indent)
{
    return dump(toJsonObject(scenario, evaluation, withExplain), indent);
}

std::string sweepLineToJson(const std::string &param, const std::string &valueJson,
                            const Scenario &scenario, const Evaluation &evaluation)
{
    json value = json::parse(valueJson, nullptr, false);
    if (value.is_discarded())
        value = valueJson;
    if (value.is_number_float() && !std::isfinite(value.get<double>()))
        value = valueJson;
    json line = {
        {"param", param}, {"value", value}, {"result", toJsonObject(scenario, evaluation, false)}};
    return dump(line, -1);
}

std::string presetListToJson(const std::vector<PresetInfo> &presets)
{
    json out = json::array();
    for (const PresetInfo &info : presets)
        out.push_back({{"id", info.id}, {"kind", info.kind}, {"name", info.name}});
    return dump(out, 2);
}

} // namespace core
