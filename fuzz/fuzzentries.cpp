// SPDX-License-Identifier: GPL-3.0-or-later
#include "fuzzentries.h"

#include "core/calibrate/calibration.h"
#include "core/calibrate/measurements.h"
#include "core/physics/loadsim.h"

#include "core/data/hfimport.h"
#include "core/data/presets.h"
#include "core/data/safetensors.h"
#include "core/data/scenarioio.h"
#include "core/model/scenarioedits.h"
#include "core/output/evaluationjson.h"
#include "core/output/exports.h"
#include "core/physics/estimateterms.h"
#include "core/physics/evaluation.h"
#include "core/physics/explain.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <string_view>
#include <vector>

namespace fuzzentries {

namespace {

std::string_view asText(const std::uint8_t *data, std::size_t size)
{
    return {reinterpret_cast<const char *>(data), size};
}

/** True when any value in the document is null (NaN and infinity serialise as null). Text
 *  inside strings does not count: a source may well mention the word. */
bool holdsNull(const nlohmann::json &value)
{
    if (value.is_null())
        return true;
    if (value.is_structured()) {
        for (const auto &child : value)
            if (holdsNull(child))
                return true;
    }
    return false;
}

/** Every downstream consumer of a valid scenario, with the invariants users rely on. */
std::string checkScenario(const core::Scenario &scenario)
{
    const core::Evaluation e = core::evaluate(scenario);
    for (const core::FigureInfo &info : core::figureTable()) {
        const double value = e[info.id];
        if (!std::isnan(value) && !std::isfinite(value))
            return "non-finite " + std::string(info.key);
    }
    for (core::FigureId id : core::centralFigures()) {
        // present, or n/a with a reason the outputs carry (a near-zero efficiency)
        if (!e.available(id) && !e.has(core::EvalWarning::BeyondRange))
            return "missing " + std::string(core::figureInfo(id).key);
    }
    const std::string json = core::evaluationToJson(scenario, e, true, -1);
    if (holdsNull(nlohmann::json::parse(json)))
        return "null in the evaluation JSON";
    for (const core::FigureInfo &info : core::figureTable()) {
        if (auto x = core::explain(scenario, e, info.id, core::MemoryUnits::Both);
            x && (x->substituted.find("nan") != std::string::npos ||
                  x->substituted.find("inf") != std::string::npos))
            return "nan or inf in the explanation of " + std::string(info.key);
    }
    const double batches[] = {1, 3, 1024};
    for (const core::BatchPoint &p : core::sweepBatch(scenario, batches)) {
        // an infinite step only where the evaluation says a figure is beyond a number
        if (!std::isfinite(p.intensity) ||
            (!std::isfinite(p.stepSeconds) && !e.has(core::EvalWarning::BeyondRange)))
            return "non-finite sweep point";
    }
    // A save must read back, and saving again must give the same text.
    const std::string saved = core::writeScenario(scenario);
    auto again = core::readScenario(saved);
    if (!again)
        return "a saved scenario did not read back: " + again.error().path + ": " +
               again.error().message;
    if (core::writeScenario(again.value().scenario) != saved)
        return "save -> load -> save changed the file";
    return {};
}

} // namespace

std::string scenarioFile(const std::uint8_t *data, std::size_t size)
{
    auto loaded = core::readScenario(asText(data, size));
    if (!loaded)
        return loaded.error().message.empty() ? "an error without a message" : std::string();
    return checkScenario(loaded.value().scenario);
}

/** A user's preset library and a CSV sweep from the same bytes: both readers never crash, and
 *  what they accept writes out and reads back the same. */
std::string libraryAndCsv(std::string_view text)
{
    if (auto library = core::readPresetLibrary(text)) {
        (void)core::validateUserPresets(library.value());
        auto back = core::readPresetLibrary(core::presetLibraryToJson(library.value()));
        if (!back)
            return "a library that does not read back: " + back.error().path + ": " +
                   back.error().message;
        if (back->models.size() != library->models.size() ||
            back->devices.size() != library->devices.size() ||
            back->links.size() != library->links.size())
            return "a library that reads back with other entries";
    }
    if (auto table = core::sweepFromCsv(text)) {
        auto back = core::sweepFromCsv(core::sweepToCsv(table.value(), table->stamp));
        if (!back || back->values != table->values || back->figures != table->figures)
            return "a CSV sweep that does not read back the same";
    }
    return {};
}

std::string presetFile(const std::uint8_t *data, std::size_t size)
{
    if (auto problem = libraryAndCsv(asText(data, size)); !problem.empty())
        return problem;
    auto file = core::readPresetFile(asText(data, size));
    if (!file)
        return file.error().message.empty() ? "an error without a message" : std::string();
    core::Scenario scenario = core::lessonDefaultScenario();
    for (const core::ModelSpec &model : file->models) {
        core::Scenario s = scenario;
        s.model = model;
        s.model.presetId.clear(); // written inline, so the save round trip sees it
        if (auto problem = checkScenario(s); !problem.empty())
            return "model " + model.presetId + ": " + problem;
    }
    for (const core::DeviceSpec &device : file->devices) {
        core::Scenario fitting = scenario;
        // The reader refuses an overhead above the memory with a message; keep clear of it.
        // Its parts go with it: parts that sum to more than the overhead do not read back.
        if (fitting.serving.overheadGb > device.capacityGb()) {
            fitting.serving.overheadGb = 0;
            fitting.serving.overheadParts.clear();
        }
        core::Scenario s = core::onDevice(fitting, device).scenario;
        s.device.presetId.clear();
        if (auto problem = checkScenario(s); !problem.empty())
            return "device " + device.presetId + ": " + problem;
    }
    return {};
}

std::string hfConfig(const std::uint8_t *data, std::size_t size)
{
    auto imported = core::importHuggingFaceConfig(asText(data, size));
    if (!imported)
        return imported.error().message.empty() ? "an error without a message" : std::string();
    const core::ModelSpec &model = imported->model;
    if (!(model.parameters >= 1e6 && model.parameters <= 1e14) ||
        !(model.active() <= model.parameters))
        return "an imported parameter count outside the scenario's range";
    // What import-hf prints must read back as a scenario's model.
    auto scenario = core::readScenario("{\"model\": " + core::modelToJson(model, -1) + "}");
    if (!scenario)
        return "an imported model is not a valid inline model: " + scenario.error().path + ": " +
               scenario.error().message;
    return checkScenario(scenario.value().scenario);
}

std::string setOverrides(const std::uint8_t *data, std::size_t size)
{
    std::vector<std::string> overrides;
    std::string current;
    for (char c : asText(data, size)) {
        if (c == '\n') {
            overrides.push_back(current);
            current.clear();
            if (overrides.size() == 16)
                break;
        } else {
            current += c;
        }
    }
    if (overrides.size() < 16)
        overrides.push_back(current);
    auto text = core::scenarioPresetText("lesson-default");
    auto loaded = core::readScenario(*text, overrides);
    if (!loaded)
        return loaded.error().message.empty() ? "an error without a message" : std::string();
    return checkScenario(loaded.value().scenario);
}

std::string trace(const std::uint8_t *data, std::size_t size)
{
    auto rows = core::readTrace(asText(data, size), "trace.csv");
    if (!rows)
        return rows.error().message.empty() || !rows.error().path.starts_with("trace.csv")
                   ? "a trace error that does not name the file: " + rows.error().path
                   : std::string();
    std::vector<core::TraceRequest> requests = std::move(rows.value());
    if (requests.size() > 500)
        requests.resize(500);
    auto text = core::scenarioPresetText("lesson-default");
    const std::vector<std::string> overrides{"load.arrivals=trace", "load.trace_file=trace.csv"};
    auto loaded = core::readScenario(*text, overrides);
    if (!loaded)
        return "the lesson scenario with a trace did not load";
    const core::Scenario &scenario = loaded.value().scenario;
    auto setup = core::loadSetup(scenario, std::move(requests));
    if (!setup)
        return setup.error().message.empty() ? "a setup error without a message" : std::string();
    setup.value().maxEvents = 2e5;
    auto run = core::simulateLoad(scenario, setup.value());
    if (!run)
        return run.error().message.empty() ? "a run error without a message" : std::string();
    const core::LoadResult &r = run.value();
    if (r.cut ? r.cutReason.empty() : r.completed != r.requests)
        return "an uncut run left requests unfinished";
    for (double v : {r.ttft.p99, r.endToEnd.p99, r.tpotIncludingFirst.p99, r.meanInSystem,
                     r.rateTimesMeanLatency, r.outputTokensPerSecond})
        if (!std::isfinite(v) || v < 0)
            return "a non-finite or negative figure in a run";
    if (!r.cut && std::fabs(r.meanInSystem - r.rateTimesMeanLatency) >
                      1e-6 * std::max(1.0, r.rateTimesMeanLatency))
        return "Little's law does not hold";
    return {};
}

std::string measurements(const std::uint8_t *data, std::size_t size)
{
    const std::string_view text = asText(data, size);
    const auto stableProfile = [](const core::CalibrationProfile &profile) -> std::string {
        const std::string written = core::calibrationProfileToJson(profile);
        auto back = core::readCalibrationProfile(written);
        if (!back)
            return "a written profile does not read back: " + back.error().message;
        if (core::calibrationProfileToJson(back.value()) != written)
            return "a profile changes when written and read back";
        return {};
    };
    core::MeasurementDefaults defaults;
    defaults.model = "llama-2-7b";
    defaults.device = "nvidia-a100-80gb-sxm";
    auto read = core::readMeasurements(text, "m.csv", defaults);
    if (!read) {
        if (read.error().message.empty())
            return "a measurement error without a message";
    } else {
        for (const core::MeasurementProblem &p : read.value().problems)
            if (p.message.empty())
                return "a measurement problem without a message";
        std::vector<core::Measurement> rows = read.value().rows;
        for (const core::Measurement &m : rows)
            if (!std::isfinite(m.value) || !(m.value > 0.0))
                return "a measured value that is not a positive number";
        if (rows.size() > 40)
            rows.resize(40);
        if (!rows.empty()) {
            auto fit = core::calibrate(rows);
            if (fit) {
                // shares of measured ceilings: a run may beat one up to its spec sheet
                for (const core::CalibrationEntry &e : fit.value().profile.entries)
                    if (!(e.bandwidthEfficiency > 0.0 && e.bandwidthEfficiency <= 20.0) ||
                        !(e.computeEfficiency > 0.0 && e.computeEfficiency <= 20.0) ||
                        !(e.stepOverheadSeconds >= 0.0) || !std::isfinite(e.stepOverheadSeconds))
                        return "a fitted figure outside its bounds";
                for (const core::Measurement &m : rows) {
                    const core::CalibrationEntry *e = core::findCalibrationEntry(
                        fit.value().profile, m.scenario.device, m.engine);
                    if (e &&
                        (e->bandwidthEfficiency * core::bandwidthCeiling(m.scenario.device).share >
                             1.0 + 1e-9 ||
                         e->computeEfficiency *
                                 core::computeCeiling(m.scenario.device,
                                                      core::computeFormatFor(m.scenario))
                                     .share >
                             1.0 + 1e-9))
                        return "a fitted efficiency beyond a run's spec sheet";
                }
                if (auto problem = stableProfile(fit.value().profile); !problem.empty())
                    return problem;
            } else if (fit.error().message.empty()) {
                return "a fit error without a message";
            }
        }
    }
    auto profile = core::readCalibrationProfile(text);
    if (!profile)
        return profile.error().message.empty() ? "a profile error without a message"
                                               : std::string();
    if (auto problem = stableProfile(profile.value()); !problem.empty())
        return problem;
    auto lesson = core::readScenario(*core::scenarioPresetText("lesson-default"));
    if (!lesson)
        return "the lesson scenario did not load";
    core::Scenario s = lesson.value().scenario;
    s.calibration.mode = core::EstimateMode::Calibrated;
    s.calibration.profile = profile.value();
    const core::Evaluation e = core::evaluate(s);
    const double step = e[core::FigureId::DecodeStepSeconds];
    if (std::isnan(step) || step < 0.0)
        return "a calibrated step that is NaN or negative";
    return {};
}

std::string safetensorsHeader(const std::uint8_t *data, std::size_t size)
{
    const auto header = core::parseSafetensorsHeader(asText(data, size), size);
    if (!header.ok())
        return header.error().message.empty() ? "a refusal without a reason" : "";
    double bytes = 0.0;
    for (const core::SafetensorsTensor &t : header->tensors) {
        if (t.end > header->dataBytes || t.end < t.begin)
            return "tensor outside the file: " + t.name;
        const double bits = core::safetensorsDtypeBits(t.dtype);
        if (bits == 0.0 || t.bytes != std::ceil(t.elements * bits / 8.0))
            return "tensor bytes disagree with its shape: " + t.name;
        bytes += t.bytes;
    }
    if (bytes > static_cast<double>(header->dataBytes))
        return "tensors hold more bytes than the file";
    for (double layers : {0.0, 2.0}) {
        const core::CheckpointWeights w =
            core::countCheckpointWeights({header.value()}, 4.0, layers);
        for (double v :
             {w.parameters, w.bytes, w.scaleBytes, w.otherTowerParameters, w.extraLayerParameters})
            if (!std::isfinite(v) || v < 0.0)
                return "a count that is not a finite amount";
        if (w.bytes != bytes)
            return "counted bytes differ from the tensors'";
    }
    return {};
}

} // namespace fuzzentries
