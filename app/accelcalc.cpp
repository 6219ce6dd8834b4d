// SPDX-License-Identifier: GPL-3.0-or-later
// accel-calc: the calculation core on the command line. Standard output carries only JSON;
// problems go to standard error as "FILE: /json/path: what is wrong" and exit with 2.

#include "core/calibrate/calibration.h"
#include "core/data/atomicfile.h"
#include "core/data/hfimport.h"
#include "core/data/presets.h"
#include "core/data/safetensors.h"
#include "core/data/scenarioio.h"
#include "core/decide/outlook.h"
#include "core/decide/selection.h"
#include "core/model/scenarioaccess.h"
#include "core/model/scenarioedits.h"
#include "core/output/evaluationjson.h"
#include "core/output/exports.h"
#include "core/output/techniquesjson.h"
#include "core/output/trainingjson.h"
#include "core/physics/evaluation.h"
#include "core/physics/loadsim.h"
#include "core/physics/operators.h"
#include "core/train/trainingplan.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr int kBadInput = 2;

const char *const kUsage =
    "usage:\n"
    "  accel-calc evaluate SCENARIO [--set PATH=VALUE ...] [--explain] [--operators]\n"
    "                  [--unfused-attention]   (operators: attention as LLM-Viewer counts it,\n"
    "                  the score matrix through memory; default one fused kernel)\n"
    "                  [--calibration PROFILE.json|typical|speed_of_light]\n"
    "  accel-calc calibrate MEASUREMENTS ... [-o PROFILE.json] [--leave-one-out]\n"
    "                  [--leave-out engine|device]   (each run predicted by a fit without\n"
    "                  its engine family or its device: the error where nobody measured)\n"
    "  accel-calc calibrate --typical [-o presets/calibration/typical.json]\n"
    "  accel-calc validate MEASUREMENTS ... [--calibration PROFILE.json|typical|speed_of_light]\n"
    "                  (without --calibration: each device's default estimate, as the app uses)\n"
    "                  (both: [--model ID] [--device ID] [--engine NAME] [--tensor-parallel N]\n"
    "                  for result files that do not name presets)\n"
    "  accel-calc sweep SCENARIO --param PATH --values V1,V2,... [--set PATH=VALUE ...]\n"
    "                  [--format jsonl|json|csv]\n"
    "  accel-calc sweep SCENARIO --kind batch|context|concurrency|utilisation\n"
    "                  [--format jsonl|json|csv]   (the app's standard sweep values)\n"
    "  accel-calc check SCENARIO [--devices ID,...] [--formats F,...] [--set PATH=VALUE ...]\n"
    "                  [--format json|csv]\n"
    "  accel-calc decide SCENARIO [-o DECIDED.json] [--set PATH=VALUE ...]   (the checks'\n"
    "                  recommendation as JSON; -o writes the scenario as decided: its device,\n"
    "                  format, shape, batch and replicas; exit 2 when no option passes)\n"
    "  accel-calc outlook SCENARIO [--set PATH=VALUE ...]   (the recommended option's cost,\n"
    "                  alternatives, sensitivity to each input's range, traffic growth plan)\n"
    "  accel-calc simulate SCENARIO [--rate R] [--requests N] [--seed S] [--curve POINTS]\n"
    "                  [--set PATH=VALUE ...] [--format json|csv]   (the load section: a\n"
    "                  continuous-batching run's TTFT, TPOT and end-to-end percentiles, or with\n"
    "                  --curve the latency against offered load, 5 % to 150 % of capacity)\n"
    "  accel-calc train SCENARIO [--search] [--set PATH=VALUE ...]   (a training run: the\n"
    "                  layout the training section states, degrees it leaves out searched;\n"
    "                  --search also tries every degree, ZeRO stage, recomputation and\n"
    "                  micro-batch and lists each shape it rejects; exit 2 when none fits)\n"
    "  accel-calc import-hf CONFIG.json|FOLDER   (a folder: its config.json and the\n"
    "                  safetensors headers of its shards, or its index's total_size)\n"
    "  accel-calc presets\n"
    "  accel-calc --version\n"
    "\n"
    "SCENARIO is a scenario file, - for standard input, or a built-in scenario id\n"
    "MEASUREMENTS is a measurement CSV (docs/scenario-format.md), llama-bench JSON/JSONL/CSV\n"
    "output, a vllm bench serve --save-result JSON, a GuideLLM report, or \"published\" for the\n"
    "measurements the app ships; problems in a row go to standard error as FILE:LINE:COLUMN.\n"
    "(accel-calc presets lists them, e.g. lesson-default).\n"
    "--set serving.batch=32 overrides any input; VALUE is parsed as JSON, else taken as a string;\n"
    "--set training.deadline_days=null takes the key out (its default).\n"
    "Output is JSON in SI units (bytes, FLOP, seconds, USD); sweep --format json and csv and\n"
    "check --format csv carry the app version and the preset data date. Exit 0 for any valid "
    "input,\n"
    "2 for bad input with FILE: /json/path: what is wrong on standard error.\n";

struct Input
{
    std::string label; ///< how errors name it: the path, "<stdin>", or "builtin:ID"
    std::string text;
};

std::string displayPath(const std::string &pointer)
{
    return pointer.empty() ? "/" : pointer;
}

/** import-hf on a model folder (issue #44, item 5): config.json and the safetensors headers. */
int importFolderCommand(const std::string &path)
{
    auto imported = core::importCheckpointFolder(path);
    if (!imported) {
        std::cerr << imported.error().path << ": " << imported.error().message << "\n";
        return kBadInput;
    }
    for (const core::Diagnostic &warning : imported->import.warnings)
        std::cerr << path << ": " << displayPath(warning.path) << ": warning: " << warning.message
                  << "\n";
    for (const core::Diagnostic &note : imported->weights.notes)
        std::cerr << path << ": note: " << note.message << "\n";
    if (auto note = imported->import.model.notes.find("weight_format");
        imported->import.checkpointFormat && note != imported->import.model.notes.end())
        std::cerr << path << ": note: " << note->second << "\n";
    if (auto note = imported->import.model.notes.find("parameters");
        note != imported->import.model.notes.end())
        std::cerr << path << ": note: " << note->second << "\n";
    std::cout << core::modelToJson(imported->import.model) << "\n";
    return 0;
}

int usageError(const std::string &message)
{
    std::cerr << "accel-calc: " << message << "\n\n" << kUsage;
    return kBadInput;
}

bool readInput(const std::string &argument, Input &input, const char *what = "a scenario file")
{
    // the same bound for regular files, pipes and devices (/dev/zero ended in bad_alloc)
    const auto bounded = [&](std::istream &in, const std::string &label) {
        input.label = label;
        if (core::readAtMost(in, core::kLargestInputBytes, input.text))
            return true;
        std::cerr << label << ": /: "
                  << (in.bad() ? std::string("cannot be read")
                               : std::string("is larger than 64 MB: not ") + what)
                  << "\n";
        return false;
    };
    if (argument == "-")
        return bounded(std::cin, "<stdin>");
    std::ifstream file(argument, std::ios::binary);
    if (file)
        return bounded(file, argument);
    if (auto builtin = core::scenarioPresetText(argument)) {
        input.label = "builtin:" + argument;
        input.text = std::string(*builtin);
        return true;
    }
    std::cerr << argument << ": /: cannot open the file (and no built-in scenario has that id)\n";
    return false;
}

/** Reads the scenario with overrides; prints the problem and returns false on bad input. */
bool load(const Input &input, const std::vector<std::string> &overrides, core::Scenario &out,
          bool printWarnings = true)
{
    auto loaded = core::readScenario(input.text, overrides);
    if (!loaded) {
        std::cerr << input.label << ": " << displayPath(loaded.error().path) << ": "
                  << loaded.error().message << "\n";
        return false;
    }
    for (const core::Diagnostic &warning : loaded.value().warnings) {
        if (!printWarnings)
            break;
        std::cerr << input.label << ": " << displayPath(warning.path)
                  << ": warning: " << warning.message << "\n";
    }
    out = std::move(loaded.value().scenario);
    return true;
}

std::vector<std::string> splitValues(const std::string &list)
{
    std::vector<std::string> values;
    std::string current;
    int depth = 0; // commas inside [..] or {..} belong to the value
    for (char c : list) {
        if (c == '[' || c == '{')
            ++depth;
        if (c == ']' || c == '}')
            --depth;
        if (c == ',' && depth <= 0) {
            values.push_back(current);
            current.clear();
        } else {
            current += c;
        }
    }
    values.push_back(current);
    return values;
}

/** Reads a calibration profile file; prints the problem and returns false on bad input. */
bool readProfile(const std::string &path, core::CalibrationProfile &out)
{
    std::ifstream file(path, std::ios::binary);
    std::string text;
    if (!file || !core::readAtMost(file, core::kLargestInputBytes, text)) {
        std::cerr << path << ": /: cannot read the calibration profile\n";
        return false;
    }
    auto profile = core::readCalibrationProfile(text);
    if (!profile) {
        std::cerr << path << ": " << displayPath(profile.error().path) << ": "
                  << profile.error().message << "\n";
        return false;
    }
    out = std::move(profile.value());
    return true;
}

/** --calibration typical | speed_of_light | PROFILE.json onto the scenario. */
bool applyCalibrationOption(const std::string &option, core::Scenario &scenario)
{
    core::CalibrationConfig &c = scenario.calibration;
    scenario.givenInputs["calibration"] = core::InputOrigin::CommandLine; // chosen, not defaulted
    if (option == "speed_of_light") {
        c.mode = core::EstimateMode::SpeedOfLight;
        return true;
    }
    if (option == "typical") {
        c.mode = core::EstimateMode::Typical;
        return true;
    }
    core::CalibrationProfile profile;
    if (!readProfile(option, profile))
        return false;
    c.mode = core::EstimateMode::Calibrated;
    c.profile = std::move(profile);
    c.profilePath.clear();
    return true;
}

/** A scenario's "calibration": "profile.json" is read from beside the scenario file. */
bool resolveScenarioProfile(const Input &input, core::Scenario &scenario)
{
    core::CalibrationConfig &c = scenario.calibration;
    if (c.profilePath.empty() || c.profile)
        return true;
    std::filesystem::path path(c.profilePath);
    if (path.is_relative() && input.label != "<stdin>" && !input.label.starts_with("builtin:"))
        path = std::filesystem::path(input.label).parent_path() / path;
    core::CalibrationProfile profile;
    if (!readProfile(path.string(), profile)) {
        std::cerr << input.label
                  << ": /calibration/profile: the profile named there cannot be "
                     "used\n";
        return false;
    }
    c.profile = std::move(profile);
    return true;
}

/** accel-calc simulate: one run of the scenario's load section, or the latency curve. */
int simulate(const Input &input, const std::vector<std::string> &overrides,
             const std::string &format, int curvePoints)
{
    core::Scenario scenario;
    if (!load(input, overrides, scenario) || !resolveScenarioProfile(input, scenario))
        return kBadInput;
    std::vector<core::TraceRequest> trace;
    if (scenario.load.arrivals == "trace") {
        std::filesystem::path path(scenario.load.traceFile);
        if (path.is_relative() && input.label != "<stdin>" && !input.label.starts_with("builtin:"))
            path = std::filesystem::path(input.label).parent_path() / path;
        std::ifstream file(path, std::ios::binary);
        std::string text;
        if (!file || !core::readAtMost(file, core::kLargestInputBytes, text)) {
            std::cerr << input.label << ": /load/trace_file: cannot read \"" << path.string()
                      << "\" (or it is larger than 64 MB)\n";
            return kBadInput;
        }
        auto rows = core::readTrace(text, path.string());
        if (!rows) {
            std::cerr << rows.error().path << ": " << rows.error().message << "\n";
            return kBadInput;
        }
        trace = std::move(rows.value());
    }
    auto setup = core::loadSetup(scenario, std::move(trace));
    if (!setup) {
        std::cerr << input.label << ": " << displayPath(setup.error().path) << ": "
                  << setup.error().message << "\n";
        return kBadInput;
    }
    const auto failed = [&input](const core::Diagnostic &error) {
        std::cerr << input.label << ": " << displayPath(error.path) << ": " << error.message
                  << "\n";
        return kBadInput;
    };
    if (curvePoints > 0) {
        auto curve = core::loadCurve(scenario, setup.value(), curvePoints, setup.value().requests);
        if (!curve)
            return failed(curve.error());
        if (format == "csv")
            std::cout << core::loadCurveToCsv(curve.value());
        else
            std::cout << core::stampJson(core::loadCurveToJson(curve.value()),
                                         core::exportStamp(ACCEL_VERSION))
                      << "\n";
        return 0;
    }
    auto result = core::simulateLoad(scenario, setup.value());
    if (!result)
        return failed(result.error());
    if (result.value().cut)
        std::cerr << input.label
                  << ": /load: warning: the run was cut: " << result.value().cutReason << "\n";
    if (format == "csv")
        std::cout << core::loadResultToCsv(result.value());
    else
        std::cout << core::stampJson(core::loadResultToJson(result.value(), setup.value()),
                                     core::exportStamp(ACCEL_VERSION))
                  << "\n";
    return 0;
}

/** --model, --device, --engine, --tensor-parallel: what a benchmark file does not say. 1 when
 *  args[i] was one (i moves past its value), -1 when its value is missing or wrong (`error` says
 *  which), 0 otherwise. */
int defaultsOption(const std::vector<std::string> &args, std::size_t &i,
                   core::MeasurementDefaults &defaults, std::string &error)
{
    const std::string &arg = args[i];
    if (arg != "--model" && arg != "--device" && arg != "--engine" && arg != "--tensor-parallel")
        return 0;
    if (i + 1 >= args.size()) {
        error = arg + " needs a value";
        return -1;
    }
    const std::string &value = args[++i];
    if (arg == "--tensor-parallel") {
        // a typo must not become "0 devices" (atof's answer to "abc")
        char *end = nullptr;
        const double devices = std::strtod(value.c_str(), &end);
        if (end == value.c_str() || *end != '\0' || !(devices >= 1.0) || devices > 4096.0 ||
            devices != std::floor(devices)) {
            error = "--tensor-parallel needs a whole number of devices from 1 to 4096, not \"" +
                    value + "\"";
            return -1;
        }
    }
    if (arg == "--model")
        defaults.model = value;
    else if (arg == "--device")
        defaults.device = value;
    else if (arg == "--engine")
        defaults.engine = value;
    else
        defaults.tensorParallel = std::atof(value.c_str());
    return 1;
}

/** Reads measurement files ("published": the shipped ones); row problems go to stderr. */
bool readMeasurementFiles(const std::vector<std::string> &files, core::MeasurementDefaults defaults,
                          std::vector<core::Measurement> &rows)
{
    for (const core::PresetInfo &info : core::presetList())
        if (info.kind == "device")
            defaults.deviceIds.push_back(info.id);
    for (const std::string &file : files) {
        if (file == "published") {
            const core::MeasurementSet &set = core::publishedMeasurements();
            rows.insert(rows.end(), set.rows.begin(), set.rows.end());
            continue;
        }
        Input input;
        if (!readInput(file, input, "a measurement file"))
            return false;
        auto set = core::readMeasurements(input.text, input.label, defaults);
        if (!set) {
            std::cerr << set.error().path << ": " << set.error().message << "\n";
            return false;
        }
        for (const core::MeasurementProblem &problem : set.value().problems)
            std::cerr << problem.text() << "\n";
        rows.insert(rows.end(), set.value().rows.begin(), set.value().rows.end());
    }
    if (rows.empty()) {
        std::cerr << "accel-calc: no usable measurement in the files given\n";
        return false;
    }
    return true;
}

nlohmann::json pointJson(const core::Measurement &m, const core::CalibrationPoint &p)
{
    // a CSV row by its line, a JSON record by its pointer (a "line" of 0 said nothing)
    return {{"file", m.file},
            {m.line > 0 ? "line" : "pointer",
             m.line > 0 ? nlohmann::json(m.line) : nlohmann::json(m.pointer)},
            {"model", m.scenario.model.presetId},
            {"device", m.scenario.device.presetId},
            {"engine", m.engine},
            {"metric", std::string(core::metricKey(m.metric))},
            {"measured", p.measured},
            {"predicted", p.predicted},
            {"predicted_uncalibrated", p.predictedUncalibrated},
            {"ratio", p.predicted / p.measured},
            {"profile_entry", p.scope}};
}

/** The share within 15 % and 25 % and the median and worst absolute relative error. */
nlohmann::json errorSummary(std::vector<double> errors)
{
    std::sort(errors.begin(), errors.end());
    const std::size_t n = errors.size();
    auto within = [&](double limit) {
        return std::count_if(errors.begin(), errors.end(), [&](double e) { return e <= limit; });
    };
    const double median = n == 0       ? 0.0
                          : n % 2 == 1 ? errors[n / 2]
                                       : 0.5 * (errors[n / 2 - 1] + errors[n / 2]);
    return {{"runs", n},
            {"within_15_percent", within(0.15)},
            {"within_25_percent", within(0.25)},
            {"median_error", median},
            {"worst_error", n == 0 ? 0.0 : errors.back()}};
}

int calibrateCommand(const std::vector<std::string> &args)
{
    std::vector<std::string> files;
    std::string output;
    bool leaveOut = false;
    std::vector<core::HoldOut> groupsOut;
    bool typical = false;
    core::MeasurementDefaults defaults;
    std::string optionError;
    for (std::size_t i = 1; i < args.size(); ++i) {
        if (args[i] == "-o" || args[i] == "--output") {
            if (i + 1 >= args.size())
                return usageError("-o needs PROFILE.json");
            output = args[++i];
        } else if (args[i] == "--leave-one-out") {
            leaveOut = true;
        } else if (args[i] == "--leave-out") {
            if (i + 1 >= args.size() || (args[i + 1] != "engine" && args[i + 1] != "device"))
                return usageError("--leave-out needs engine or device");
            groupsOut.push_back(args[++i] == "engine" ? core::HoldOut::Engine
                                                      : core::HoldOut::Device);
        } else if (args[i] == "--typical") {
            typical = true;
        } else if (const auto option = defaultsOption(args, i, defaults, optionError);
                   option != 0) {
            if (option < 0)
                return usageError(optionError);
        } else if (args[i].starts_with("--")) {
            return usageError("unknown option \"" + args[i] + "\" for calibrate");
        } else {
            files.push_back(args[i]);
        }
    }
    if (typical) {
        // the shipped profile, refitted: what presets/calibration/typical.json must hold
        if (!files.empty() || leaveOut || !groupsOut.empty())
            return usageError("calibrate --typical fits the shipped measurements and takes no "
                              "other input");
        const std::string text = core::calibrationProfileToJson(core::fitTypicalProfile());
        if (output.empty()) {
            std::cout << text;
            return 0;
        }
        const auto written = core::writeFileAtomically(output, text);
        if (!written) {
            std::cerr << output << ": /: " << written.error().message << "\n";
            return kBadInput;
        }
        return 0;
    }
    if (files.empty())
        return usageError("calibrate needs MEASUREMENTS");
    std::vector<core::Measurement> rows;
    if (!readMeasurementFiles(files, defaults, rows))
        return kBadInput;
    auto fit = core::calibrate(rows);
    if (!fit) {
        std::cerr << "accel-calc: " << fit.error().message << "\n";
        return kBadInput;
    }
    const core::CalibrationResult &r = fit.value();
    for (const std::string &note : r.profile.notes)
        std::cerr << "note: " << note << "\n";
    nlohmann::json out = nlohmann::json::parse(core::calibrationProfileToJson(r.profile));
    nlohmann::json points = nlohmann::json::array();
    for (const core::CalibrationPoint &p : r.points)
        points.push_back(pointJson(rows[p.row], p));
    nlohmann::json result = {{"profile", out},
                             {"rows", points},
                             {"median_error", r.medianAbsoluteError},
                             {"worst_error", r.worstAbsoluteError},
                             {"within_15_percent", r.within15Percent},
                             {"rows_total", r.points.size()}};
    if (leaveOut) {
        nlohmann::json held = nlohmann::json::array();
        std::size_t within = 0;
        for (const core::CalibrationPoint &p : core::leaveOneOut(rows)) {
            held.push_back(pointJson(rows[p.row], p));
            within += std::fabs(p.relativeError) <= 0.15 ? 1 : 0;
        }
        result["leave_one_out"] = {{"rows", held}, {"within_15_percent", within}};
    }
    for (core::HoldOut holdOut : groupsOut) {
        // per group: how the runs of an engine (a device) nobody else ran are predicted
        const std::vector<core::CalibrationPoint> held = core::leaveGroupOut(rows, holdOut);
        nlohmann::json points = nlohmann::json::array();
        std::map<std::string, std::vector<double>> byGroup;
        std::vector<double> all;
        for (const core::CalibrationPoint &p : held) {
            points.push_back(pointJson(rows[p.row], p));
            const core::Measurement &m = rows[p.row];
            const std::string group =
                holdOut == core::HoldOut::Engine
                    ? core::engineFamily(m.engine)
                    : (m.scenario.device.presetId.empty() ? m.scenario.device.name
                                                          : m.scenario.device.presetId);
            byGroup[group].push_back(std::fabs(p.relativeError));
            all.push_back(std::fabs(p.relativeError));
        }
        nlohmann::json groups = nlohmann::json::object();
        for (const auto &[group, errors] : byGroup)
            groups[group] = errorSummary(errors);
        nlohmann::json summary = errorSummary(all);
        summary["rows"] = points;
        summary["by_group"] = groups;
        result["leave_one_" + std::string(core::holdOutKey(holdOut)) + "_out"] = summary;
    }
    if (!output.empty()) {
        const auto written =
            core::writeFileAtomically(output, core::calibrationProfileToJson(r.profile));
        if (!written) {
            std::cerr << output << ": /: " << written.error().message << "\n";
            return kBadInput;
        }
    }
    std::cout << result.dump(2) << "\n";
    return 0;
}

int validateCommand(const std::vector<std::string> &args)
{
    std::vector<std::string> files;
    std::string calibration;
    core::MeasurementDefaults defaults;
    std::string optionError;
    for (std::size_t i = 1; i < args.size(); ++i) {
        if (args[i] == "--calibration") {
            if (i + 1 >= args.size())
                return usageError("--calibration needs PROFILE.json, typical or speed_of_light");
            calibration = args[++i];
        } else if (const auto option = defaultsOption(args, i, defaults, optionError);
                   option != 0) {
            if (option < 0)
                return usageError(optionError);
        } else if (args[i].starts_with("--")) {
            return usageError("unknown option \"" + args[i] + "\" for validate");
        } else {
            files.push_back(args[i]);
        }
    }
    if (files.empty())
        return usageError("validate needs MEASUREMENTS");
    std::vector<core::Measurement> rows;
    if (!readMeasurementFiles(files, defaults, rows))
        return kBadInput;
    nlohmann::json out = nlohmann::json::array();
    std::size_t within = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        core::Scenario scenario = rows[i].scenario;
        scenario.calibration.engine = rows[i].engine;
        if (calibration.empty()) // the estimate the app gives this device when nobody chose one
            scenario.calibration.mode =
                core::deviceFollowers(scenario.device, scenario.wizard).estimate;
        else if (!applyCalibrationOption(calibration, scenario))
            return kBadInput;
        core::CalibrationPoint p;
        p.row = i;
        p.measured = rows[i].value;
        p.predicted = core::predict(scenario, rows[i].metric);
        p.predictedUncalibrated = core::predict(rows[i].scenario, rows[i].metric);
        p.relativeError = p.predicted / p.measured - 1.0;
        p.scope = core::estimateLabel(scenario);
        within += std::fabs(p.relativeError) <= 0.15 ? 1 : 0;
        out.push_back(pointJson(rows[i], p));
    }
    std::cout << nlohmann::json{{"estimate",
                                 calibration.empty() ? "each device's default" : calibration},
                                {"rows", out},
                                {"within_15_percent", within},
                                {"rows_total", rows.size()}}
                     .dump(2)
              << "\n";
    return 0;
}

int run(const std::vector<std::string> &args)
{
    if (args.empty())
        return usageError("a command is needed");
    const std::string &command = args[0];
    if (command == "--help" || command == "-h" || command == "help") {
        std::cerr << kUsage;
        return 0;
    }
    if (command == "--version") {
        std::cout << R"({"version": ")" << ACCEL_VERSION << "\"}\n";
        return 0;
    }
    if (command == "presets") {
        if (args.size() > 1)
            return usageError("presets takes no arguments");
        std::cout << core::presetListToJson(core::presetList()) << "\n";
        return 0;
    }
    if (command == "import-hf") {
        if (args.size() != 2)
            return usageError("import-hf needs one CONFIG.json or a model FOLDER");
        std::error_code code;
        if (std::filesystem::is_directory(args[1], code) ||
            args[1].ends_with(".safetensors.index.json") || args[1].ends_with(".safetensors"))
            return importFolderCommand(args[1]);
        Input input;
        if (!readInput(args[1], input, "a model config"))
            return kBadInput;
        auto imported = core::importHuggingFaceConfig(input.text);
        if (!imported) {
            std::cerr << input.label << ": " << displayPath(imported.error().path) << ": "
                      << imported.error().message << "\n";
            return kBadInput;
        }
        for (const core::Diagnostic &warning : imported->warnings)
            std::cerr << input.label << ": " << displayPath(warning.path)
                      << ": warning: " << warning.message << "\n";
        if (auto note = imported->model.notes.find("weight_format");
            imported->checkpointFormat && note != imported->model.notes.end())
            std::cerr << input.label << ": note: " << note->second << "\n";
        std::cout << core::modelToJson(imported->model) << "\n";
        return 0;
    }
    if (command == "calibrate")
        return calibrateCommand(args);
    if (command == "validate")
        return validateCommand(args);
    if (command != "evaluate" && command != "sweep" && command != "check" && command != "outlook" &&
        command != "simulate" && command != "decide" && command != "train")
        return usageError("unknown command \"" + command + "\"");

    std::string scenarioArgument;
    std::vector<std::string> overrides;
    bool explain = false;
    bool withOperators = false;
    core::AttentionKernel attentionKernel = core::AttentionKernel::Fused;
    std::string param;
    std::string values;
    bool haveValues = false;
    std::string devices;
    std::string formats;
    std::string outputFormat;
    std::string kind;
    std::string calibration;
    int curvePoints = 0;
    std::string decidedPath;
    bool searchEverything = false;
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string &arg = args[i];
        auto next = [&](const char *option) -> const std::string * {
            if (i + 1 >= args.size())
                return nullptr;
            (void)option;
            return &args[++i];
        };
        if (arg == "--set") {
            const std::string *value = next("--set");
            if (!value)
                return usageError("--set needs PATH=VALUE");
            overrides.push_back(*value);
        } else if (arg.starts_with("--set=")) {
            overrides.push_back(arg.substr(6));
        } else if (arg == "--calibration" && command == "evaluate") {
            const std::string *value = next("--calibration");
            if (!value)
                return usageError("--calibration needs PROFILE.json, typical or speed_of_light");
            calibration = *value;
        } else if (arg == "--search" && command == "train") {
            searchEverything = true;
        } else if (arg == "--explain" && command == "evaluate") {
            explain = true;
        } else if (arg == "--operators" && command == "evaluate") {
            withOperators = true;
        } else if (arg == "--unfused-attention" && command == "evaluate") {
            attentionKernel = core::AttentionKernel::Unfused;
        } else if (arg == "--param" && command == "sweep") {
            const std::string *value = next("--param");
            if (!value)
                return usageError("--param needs a PATH");
            param = *value;
        } else if (arg == "--values" && command == "sweep") {
            const std::string *value = next("--values");
            if (!value)
                return usageError("--values needs V1,V2,...");
            values = *value;
            haveValues = true;
        } else if (command == "simulate" &&
                   (arg == "--rate" || arg == "--requests" || arg == "--seed")) {
            // the load section's own fields: validated and ranged like any --set
            const std::string *value = next(arg.c_str());
            if (!value)
                return usageError(arg + " needs a number");
            const char *key = arg == "--rate"       ? "load.rate_per_second="
                              : arg == "--requests" ? "load.requests="
                                                    : "load.seed=";
            overrides.push_back(key + *value);
        } else if (arg == "--curve" && command == "simulate") {
            const std::string *value = next("--curve");
            int count = 0;
            if (value) {
                const auto [end, problem] =
                    std::from_chars(value->data(), value->data() + value->size(), count);
                if (problem != std::errc() || end != value->data() + value->size())
                    count = 0;
            }
            if (count < 2 || count > 200)
                return usageError("--curve needs a number of load points from 2 to 200");
            curvePoints = count;
        } else if (arg == "--format" &&
                   (command == "sweep" || command == "check" || command == "simulate")) {
            const std::string *value = next("--format");
            const bool known = value && (*value == "json" || *value == "csv" ||
                                         (*value == "jsonl" && command == "sweep"));
            if (!known)
                return usageError(command == "sweep" ? "--format is jsonl, json or csv"
                                                     : "--format is json or csv");
            outputFormat = *value;
        } else if (arg == "--kind" && command == "sweep") {
            const std::string *value = next("--kind");
            if (!value)
                return usageError("--kind needs batch, context, concurrency or utilisation");
            kind = *value;
        } else if (arg == "-o" && command == "decide") {
            const std::string *value = next("-o");
            if (!value || value->empty())
                return usageError("-o needs DECIDED.json");
            decidedPath = *value;
        } else if (arg == "--devices" && command == "check") {
            const std::string *value = next("--devices");
            if (!value)
                return usageError("--devices needs ID,...");
            devices = *value;
        } else if (arg == "--formats" && command == "check") {
            const std::string *value = next("--formats");
            if (!value)
                return usageError("--formats needs F,... (bf16, fp16, fp8, int8, int4, fp32)");
            formats = *value;
        } else if (arg.starts_with("--") && arg != "-") {
            return usageError("unknown option \"" + arg + "\" for " + command);
        } else if (scenarioArgument.empty()) {
            scenarioArgument = arg;
        } else {
            return usageError("more than one scenario given");
        }
    }
    if (scenarioArgument.empty())
        return usageError(command + " needs a SCENARIO");

    Input input;
    if (!readInput(scenarioArgument, input))
        return kBadInput;

    if (command == "evaluate") {
        core::Scenario scenario;
        if (!load(input, overrides, scenario) || !resolveScenarioProfile(input, scenario))
            return kBadInput;
        if (!calibration.empty() && !applyCalibrationOption(calibration, scenario))
            return kBadInput;
        const core::Evaluation evaluation = core::evaluate(scenario);
        nlohmann::ordered_json out =
            nlohmann::ordered_json::parse(core::evaluationToJson(scenario, evaluation, explain));
        // the engine's techniques beside the plain figures, each only where the scenario has it
        const auto engine = nlohmann::ordered_json::parse(core::engineToJson(scenario));
        if (!engine.empty())
            out["engine"] = engine;
        if (withOperators) {
            nlohmann::ordered_json operators = nlohmann::ordered_json::object();
            for (core::Phase phase : {core::Phase::Prefill, core::Phase::Decode}) {
                auto breakdown = core::operatorBreakdown(scenario, phase, attentionKernel);
                if (!breakdown) {
                    std::cerr << input.label << ": " << breakdown.error().path << ": "
                              << breakdown.error().message << "\n";
                    return kBadInput;
                }
                operators[std::string(core::phaseKey(phase))] =
                    nlohmann::ordered_json::parse(core::operatorsToJson(breakdown.value()));
            }
            out["operators"] = std::move(operators);
        }
        std::cout << core::stampJson(
                         out.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace),
                         core::exportStamp(ACCEL_VERSION))
                  << "\n";
        return 0;
    }

    if (command == "simulate")
        return simulate(input, overrides, outputFormat, curvePoints);

    if (command == "train") {
        core::Scenario scenario;
        if (!load(input, overrides, scenario) || !resolveScenarioProfile(input, scenario))
            return kBadInput;
        const core::TrainingSearch search = core::searchTraining(scenario, searchEverything);
        const core::TrainingPlan plan =
            searchEverything ? core::bestTrainingPlan(scenario) : core::plannedTraining(scenario);
        if (!plan.problem.empty()) {
            // as decide: nothing on standard output, the reason (and each shape the search
            // rejected) on standard error
            std::cerr << input.label << ": /training: " << plan.problem << "\n";
            if (searchEverything)
                for (const core::RejectedShape &shape : search.rejected)
                    std::cerr << "  " << core::describeShape(shape.layout) << ": " << shape.reason
                              << "\n";
            return kBadInput;
        }
        // a plan that misses what was asked still prints; the miss is said beside it
        const core::TrainingConfig &asked = scenario.training;
        if (!plan.meetsDeadline)
            std::cerr << input.label << ": /training/deadline_days: warning: the plan takes "
                      << core::formatNumber(plan.days, 4) << " days, past the deadline of "
                      << core::formatNumber(asked.deadlineDays, 4)
                      << (plan.countReason.starts_with("no count") ? " (" + plan.countReason + ")"
                                                                   : std::string())
                      << "\n";
        if (core::isSet(asked.budgetUsd) && !core::isSet(plan.usd))
            std::cerr << input.label << ": /training/budget_usd: warning: " << scenario.device.name
                      << " has no price, so the budget cannot be checked\n";
        else if (!plan.withinBudget)
            std::cerr << input.label << ": /training/budget_usd: warning: the plan costs "
                      << core::formatNumber(plan.usd, 6) << " USD, over the budget of "
                      << core::formatNumber(asked.budgetUsd, 6) << " USD\n";
        std::cout << core::stampJson(core::trainingPlanToJson(scenario, plan,
                                                              searchEverything ? &search : nullptr),
                                     core::exportStamp(ACCEL_VERSION))
                  << "\n";
        return 0;
    }

    if (command == "outlook") {
        core::Scenario scenario;
        if (!load(input, overrides, scenario) || !resolveScenarioProfile(input, scenario))
            return kBadInput;
        const core::Selection selection = core::selectDevice(scenario);
        std::cout << core::stampJson(core::outlookToJson(scenario, selection),
                                     core::exportStamp(ACCEL_VERSION))
                  << "\n";
        return 0;
    }

    if (command == "decide") {
        core::Scenario scenario;
        if (!load(input, overrides, scenario) || !resolveScenarioProfile(input, scenario))
            return kBadInput;
        const core::Selection selection = core::selectDevice(scenario);
        if (!core::recommendedCandidate(selection)) {
            std::cerr << input.label << ": /wizard: no option passes every check";
            for (const std::string &rejected : selection.recommendation.rejected)
                std::cerr << "\n  " << rejected;
            std::cerr << "\n";
            return kBadInput;
        }
        if (!decidedPath.empty()) {
            const auto written = core::writeFileAtomically(
                decidedPath, core::writeScenario(core::decidedScenario(scenario, selection)));
            if (!written) {
                std::cerr << decidedPath << ": /: " << written.error().message << "\n";
                return kBadInput;
            }
        }
        std::cout << core::stampJson(core::decisionToJson(selection, decidedPath),
                                     core::exportStamp(ACCEL_VERSION))
                  << "\n";
        return 0;
    }

    if (command == "check") {
        core::Scenario scenario; // with its profile, as decide and outlook read it
        if (!load(input, overrides, scenario) || !resolveScenarioProfile(input, scenario))
            return kBadInput;
        std::vector<core::NumericFormat> formatList = core::defaultFormats(scenario);
        if (!formats.empty()) {
            formatList.clear();
            for (const std::string &key : splitValues(formats)) {
                const auto format = core::parseFormat(key);
                if (!format || *format == core::NumericFormat::Tf32)
                    return usageError("--formats: unknown weight format \"" + key +
                                      "\" (one of fp32, bf16, fp16, fp8, int8, int4)");
                formatList.push_back(*format);
            }
        }
        core::Diagnostics problems;
        auto candidates = devices.empty() ? core::defaultCandidates(scenario, problems)
                                          : core::resolveCandidates(splitValues(devices), problems);
        for (const core::Diagnostic &problem : problems) // reported, and the rest still checked
            std::cerr << (devices.empty() ? input.label : std::string("--devices")) << ": "
                      << displayPath(problem.path) << ": warning: " << problem.message << "\n";
        core::Selection selection = core::selectDevice(scenario, candidates, formatList);
        selection.problems = problems;
        if (outputFormat == "csv")
            std::cout << core::selectionToCsv(selection, core::exportStamp(ACCEL_VERSION));
        else
            std::cout << core::stampJson(core::selectionToJson(selection),
                                         core::exportStamp(ACCEL_VERSION))
                      << "\n";
        return 0;
    }

    // sweep: validate every value first, so bad input prints nothing on standard output.
    if (!kind.empty()) {
        if (!param.empty() || haveValues)
            return usageError("sweep takes --kind or --param with --values, not both");
        std::optional<core::SweepKind> sweepKind;
        for (core::SweepKind k : core::kSweepKinds) {
            if (core::sweepName(k) == kind)
                sweepKind = k;
        }
        if (!sweepKind)
            return usageError("--kind is batch, context, concurrency or utilisation");
        core::Scenario scenario;
        if (!load(input, overrides, scenario, false))
            return kBadInput;
        param = std::string(core::sweepPath(*sweepKind));
        values.clear();
        for (double v : core::sweepValues(*sweepKind, scenario))
            values += (values.empty() ? "" : ",") + core::exactNumber(v);
        haveValues = true;
    }
    if (param.empty() || !haveValues)
        return usageError("sweep needs --param PATH and --values V1,V2,... (or --kind)");
    if (outputFormat == "json" || outputFormat == "csv") {
        core::Scenario scenario;
        if (!load(input, overrides, scenario))
            return kBadInput;
        std::vector<double> numbers;
        for (const std::string &value : splitValues(values)) {
            // decimal only: strtod also took "0x10" as 16 and "inf"
            double number = 0;
            const auto [end, problem] =
                std::from_chars(value.data(), value.data() + value.size(), number);
            if (problem != std::errc() || end != value.data() + value.size() ||
                !std::isfinite(number))
                return usageError("--values: \"" + value +
                                  "\" is not a number (json and csv "
                                  "sweeps take decimal numbers)");
            numbers.push_back(number);
        }
        auto table = core::sweepParameter(scenario, param, numbers);
        if (!table) {
            std::cerr << input.label << ": " << displayPath(table.error().path) << ": "
                      << table.error().message << "\n";
            return kBadInput;
        }
        const core::ExportStamp stamp = core::exportStamp(ACCEL_VERSION);
        std::cout << (outputFormat == "csv" ? core::sweepToCsv(table.value(), stamp)
                                            : core::sweepToJson(table.value(), stamp) + "\n");
        return 0;
    }
    const std::vector<std::string> valueList = splitValues(values);
    if (valueList.size() > 100000)
        return usageError("at most 100,000 values");
    // a --param the scenario does not have would only be warned about as an unknown key, and
    // every row would be the same scenario: refused instead
    {
        std::vector<std::string> withFirst = overrides;
        withFirst.push_back(param + "=" + valueList.front());
        std::string pointer = "/" + param;
        std::replace(pointer.begin(), pointer.end(), '.', '/');
        if (auto probe = core::readScenario(input.text, withFirst)) {
            for (const core::Diagnostic &warning : probe.value().warnings)
                if (warning.path == pointer)
                    return usageError("--param " + param + ": the scenario has no such input");
        }
    }
    std::vector<std::string> lines;
    lines.reserve(valueList.size());
    // a numeric input: each value applied to the one scenario read, as --set would read it
    // (issue #46: a scenario that set every key swept twice as slowly, read once per value)
    core::Scenario parsed;
    if (!load(input, overrides, parsed))
        return kBadInput;
    const bool numeric = core::numberAt(parsed, param).has_value();
    for (const std::string &value : valueList) {
        double number = 0;
        const auto [end, problem] =
            std::from_chars(value.data(), value.data() + value.size(), number);
        if (numeric && problem == std::errc() && end == value.data() + value.size() &&
            std::isfinite(number)) {
            core::Scenario point = parsed;
            if (auto set = core::setNumberAsRead(point, param, number); !set) {
                std::string pointer = "/" + set.error().path;
                std::replace(pointer.begin(), pointer.end(), '.', '/');
                std::cerr << input.label << ": " << displayPath(pointer) << ": "
                          << set.error().message << "\n";
                return kBadInput;
            }
            lines.push_back(core::sweepLineToJson(param, value, point, core::evaluate(point)));
            continue;
        }
        // a word (a format, a preset) or text for the reader to judge: read with the value set
        std::vector<std::string> withValue = overrides;
        withValue.push_back(param + "=" + value);
        core::Scenario scenario;
        if (!load(input, withValue, scenario, false)) // warned once above
            return kBadInput;
        lines.push_back(core::sweepLineToJson(param, value, scenario, core::evaluate(scenario)));
    }
    for (const std::string &line : lines)
        std::cout << line << "\n";
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    try {
        std::vector<std::string> args(argv + 1, argv + argc);
        return run(args);
    } catch (const std::exception &error) {
        std::cerr << "accel-calc: internal error: " << error.what() << "\n";
        return 70;
    } catch (...) {
        std::cerr << "accel-calc: internal error\n";
        return 70;
    }
}
