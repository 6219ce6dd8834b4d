// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/data/calibrationprofile.h"

#include "core/data/embeddedfiles.h"
#include "core/data/jsonread.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace core {

namespace {

using json = nlohmann::json;

/** An efficiency: a share of the spec sheet, at most 1; or of a measured ceiling, which an
 *  engine may beat up to the spec sheet (at most 1 / 0.05, the lowest share a ceiling takes). */
double readEfficiency(const json &entry, const char *key, const std::string &where,
                      bool ofMeasuredCeiling)
{
    if (!entry.contains(key))
        return 1.0;
    const json &v = entry.at(key);
    const double most = ofMeasuredCeiling ? 20.0 : 1.0;
    if (!v.is_number() || !(v.get<double>() > 0.0) || v.get<double>() > most)
        detail::fail(where + "/" + key, ofMeasuredCeiling
                                            ? "must be a number in (0, 20] (a share of the "
                                              "device's measured ceiling)"
                                            : "must be a number in (0, 1]");
    return v.get<double>();
}

} // namespace

std::string_view estimateModeKey(EstimateMode mode)
{
    switch (mode) {
    case EstimateMode::SpeedOfLight:
        return "speed_of_light";
    case EstimateMode::Typical:
        return "typical";
    case EstimateMode::Calibrated:
        return "calibrated";
    }
    return "speed_of_light";
}

Result<CalibrationProfile> readCalibrationProfile(std::string_view text)
{
    try {
        const json doc = detail::parseStrict(text);
        if (!doc.is_object())
            detail::fail("", "a calibration profile is a JSON object");
        if (doc.value("format", std::string()) != kCalibrationFormat)
            detail::fail("/format", "must be \"" + std::string(kCalibrationFormat) + "\"");
        CalibrationProfile p;
        p.name = doc.value("name", std::string());
        p.created = doc.value("created", std::string());
        if (doc.contains("sources") && doc["sources"].is_array())
            for (const json &s : doc["sources"])
                if (s.is_string())
                    p.sources.push_back(s.get<std::string>());
        if (doc.contains("notes") && doc["notes"].is_array())
            for (const json &s : doc["notes"])
                if (s.is_string())
                    p.notes.push_back(s.get<std::string>());
        if (doc.contains("terms")) {
            const json &terms = doc["terms"];
            if (!terms.is_object())
                detail::fail("/terms", "must be an object");
            for (const char *key :
                 {"attention_flops", "kv_write", "measured_ceilings", "small_kernels"})
                if (terms.contains(key) && !terms[key].is_boolean())
                    detail::fail(std::string("/terms/") + key, "must be true or false");
            p.attentionFlops = terms.value("attention_flops", true);
            p.kvWrite = terms.value("kv_write", true);
            p.measuredCeilings = terms.value("measured_ceilings", false);
            p.smallKernels = terms.value("small_kernels", false);
        }
        if (!doc.contains("entries") || !doc["entries"].is_array() || doc["entries"].empty())
            detail::fail("/entries", "a profile needs at least one entry");
        for (std::size_t i = 0; i < doc["entries"].size(); ++i) {
            const json &e = doc["entries"][i];
            const std::string where = "/entries/" + std::to_string(i);
            if (!e.is_object())
                detail::fail(where, "an entry is an object");
            CalibrationEntry entry;
            entry.device = e.value("device", std::string());
            entry.deviceClass = e.value("class", std::string());
            entry.engine = e.value("engine", std::string());
            if (entry.device.empty() && entry.deviceClass.empty())
                detail::fail(where, "an entry names a device or a class");
            entry.bandwidthEfficiency =
                readEfficiency(e, "bandwidth_efficiency", where, p.measuredCeilings);
            entry.computeEfficiency =
                readEfficiency(e, "compute_efficiency", where, p.measuredCeilings);
            if (e.contains("step_overhead_s")) {
                const json &v = e["step_overhead_s"];
                if (!v.is_number() || v.get<double>() < 0.0 || v.get<double>() > 10.0)
                    detail::fail(where + "/step_overhead_s",
                                 "must be a number of seconds from 0 to 10");
                entry.stepOverheadSeconds = v.get<double>();
            }
            if (e.contains("kv_bandwidth_efficiency"))
                entry.kvBandwidthEfficiency =
                    readEfficiency(e, "kv_bandwidth_efficiency", where, p.measuredCeilings);
            if (e.contains("step_seconds_per_sequence")) {
                const json &v = e["step_seconds_per_sequence"];
                if (!v.is_number() || v.get<double>() < 0.0 || v.get<double>() > 1e-2)
                    detail::fail(where + "/step_seconds_per_sequence",
                                 "must be a number of seconds from 0 to 0.01");
                entry.secondsPerSequence = v.get<double>();
            }
            if (e.contains("collective_latency_s")) {
                const json &v = e["collective_latency_s"];
                if (!v.is_number() || v.get<double>() < 0.0 || v.get<double>() > 1e-3)
                    detail::fail(where + "/collective_latency_s",
                                 "must be a number of seconds from 0 to 0.001");
                entry.collectiveLatencySeconds = v.get<double>();
            }
            if (e.contains("fitted") && e["fitted"].is_object()) {
                const json &f = e["fitted"];
                entry.bandwidthFitted = f.value("bandwidth_efficiency", false);
                entry.computeFitted = f.value("compute_efficiency", false);
                entry.overheadFitted = f.value("step_overhead_s", false);
                entry.latencyFitted = f.value("collective_latency_s", false);
                entry.kvFitted = f.value("kv_bandwidth_efficiency", false);
                entry.perSequenceFitted = f.value("step_seconds_per_sequence", false);
            }
            entry.points = e.value("points", 0.0);
            if (e.contains("median_error") && e["median_error"].is_number())
                entry.medianRelativeError = e["median_error"].get<double>();
            if (e.contains("worst_error") && e["worst_error"].is_number())
                entry.worstRelativeError = e["worst_error"].get<double>();
            p.entries.push_back(entry);
        }
        return p;
    } catch (const detail::ReadFailure &failure) {
        return failure.diagnostic;
    } catch (const json::exception &error) {
        return Diagnostic{"", error.what()};
    }
}

std::string calibrationProfileToJson(const CalibrationProfile &p)
{
    json doc = {{"format", kCalibrationFormat}, {"version", 1}, {"name", p.name}};
    if (!p.created.empty())
        doc["created"] = p.created;
    doc["sources"] = p.sources;
    doc["terms"] = {{"attention_flops", p.attentionFlops},
                    {"kv_write", p.kvWrite},
                    {"measured_ceilings", p.measuredCeilings},
                    {"small_kernels", p.smallKernels}};
    json entries = json::array();
    for (const CalibrationEntry &e : p.entries) {
        json entry = json::object();
        if (!e.device.empty())
            entry["device"] = e.device;
        entry["class"] = e.deviceClass;
        if (!e.engine.empty())
            entry["engine"] = e.engine;
        entry["bandwidth_efficiency"] = e.bandwidthEfficiency;
        entry["compute_efficiency"] = e.computeEfficiency;
        entry["step_overhead_s"] = e.stepOverheadSeconds;
        if (std::isfinite(e.collectiveLatencySeconds))
            entry["collective_latency_s"] = e.collectiveLatencySeconds;
        if (std::isfinite(e.kvBandwidthEfficiency))
            entry["kv_bandwidth_efficiency"] = e.kvBandwidthEfficiency;
        if (e.secondsPerSequence > 0.0)
            entry["step_seconds_per_sequence"] = e.secondsPerSequence;
        entry["fitted"] = {{"bandwidth_efficiency", e.bandwidthFitted},
                           {"compute_efficiency", e.computeFitted},
                           {"step_overhead_s", e.overheadFitted},
                           {"collective_latency_s", e.latencyFitted},
                           {"kv_bandwidth_efficiency", e.kvFitted},
                           {"step_seconds_per_sequence", e.perSequenceFitted}};
        entry["points"] = e.points;
        if (std::isfinite(e.medianRelativeError))
            entry["median_error"] = e.medianRelativeError;
        if (std::isfinite(e.worstRelativeError))
            entry["worst_error"] = e.worstRelativeError;
        entries.push_back(entry);
    }
    doc["entries"] = entries;
    doc["notes"] = p.notes;
    // names come from measurement files: never throw on a byte that is not UTF-8
    return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

const CalibrationProfile &typicalProfile()
{
    static const CalibrationProfile profile = [] {
        for (const EmbeddedFile &file : embeddedPresetFiles()) {
            if (file.path == kTypicalProfilePath) {
                auto read = readCalibrationProfile(file.text);
                if (read)
                    return std::move(read.value());
            }
        }
        return CalibrationProfile{}; // tst_calibration fails on this: no entry, speed of light
    }();
    return profile;
}

} // namespace core
