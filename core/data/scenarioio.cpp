// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/data/scenarioio.h"

#include "core/data/calibrationprofile.h"
#include "core/data/jsonread.h"
#include "core/data/presets.h"
#include "core/model/parameters.h"
#include "core/model/scenarioaccess.h"
#include "core/model/scenarioedits.h"
#include "core/model/units.h"
#include "core/model/weightparts.h"

#include <algorithm>
#include <cmath>
#include <istream>
#include <iterator>
#include <ostream>
#include <sstream>

namespace core {

namespace {

using detail::fail;
using detail::FieldReader;
using detail::json;

constexpr std::string_view kDefaultModel = "lesson-7b";
constexpr std::string_view kDefaultDevice = "lesson-accelerator";

std::vector<std::string> splitDotted(const std::string &path)
{
    std::vector<std::string> parts;
    std::string part;
    for (char c : path) {
        if (c == '.') {
            parts.push_back(part);
            part.clear();
        } else {
            part += c;
        }
    }
    parts.push_back(part);
    return parts;
}

/** Replaces a preset id (or an absent model/device) by the preset's inline object. */
void materialise(json &doc, const std::string &section)
{
    auto it = doc.find(section);
    std::string id = section == "model" ? std::string(kDefaultModel) : std::string(kDefaultDevice);
    if (it != doc.end()) {
        if (it->is_object())
            return;
        if (!it->is_string())
            return; // the reader reports the type error
        id = it->get<std::string>();
    }
    const json *preset = detail::presetObject(section, id);
    if (!preset)
        fail("/" + section, "unknown " + section + " preset \"" + id.substr(0, 80) +
                                "\" (known: " + detail::knownPresetIds(section) + ")");
    json copy = *preset;
    copy.erase("id");
    doc[section] = std::move(copy);
}

/** A --set on a device's spec figure moves its measured ceiling with it, by the app's own rule
 *  (core/model/scenarioaccess.h, measuredCeilingPath and followedCeiling). */
void scaleMeasuredCeiling(json &doc, const std::string &path, const json &parent,
                          const std::string &key, const json &value)
{
    const auto measured = measuredCeilingPath(path);
    const auto old = parent.find(key);
    if (!measured || !value.is_number() || old == parent.end() || !old->is_number())
        return;
    json *ceiling = &doc;
    for (const std::string &part : splitDotted(*measured)) {
        if (!ceiling->is_object() || !ceiling->contains(part))
            return; // no measurement to follow
        ceiling = &(*ceiling)[part];
    }
    if (ceiling->is_number())
        *ceiling = followedCeiling(ceiling->get<double>(), old->get<double>(), value.get<double>());
}

void applyOverride(json &doc, const std::string &assignment)
{
    const auto equals = assignment.find('=');
    if (equals == std::string::npos || equals == 0)
        fail("",
             "--set " + assignment.substr(0, 80) + ": expected PATH=VALUE, e.g. serving.batch=32");
    const std::string path = assignment.substr(0, equals);
    const std::string valueText = assignment.substr(equals + 1);
    const std::vector<std::string> parts = splitDotted(path);
    for (const std::string &part : parts) {
        if (part.empty() || part.size() > 64)
            fail("", "--set " + path.substr(0, 80) + ": the path has an empty or overlong part");
    }
    json value;
    try {
        value = detail::parseStrict(valueText);
    } catch (const detail::ReadFailure &) {
        value = valueText; // not JSON: take it as a string
    }
    if ((parts[0] == "model" || parts[0] == "device") && parts.size() > 1)
        materialise(doc, parts[0]);
    json *node = &doc;
    std::string pointer;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
        pointer = detail::childPointer(pointer, parts[i]);
        auto it = node->find(parts[i]);
        if (it == node->end()) {
            (*node)[parts[i]] = json::object();
            it = node->find(parts[i]);
        } else if (!it->is_object()) {
            fail(pointer, "--set " + path + ": \"" + parts[i] + "\" is not an object");
        }
        node = &*it;
    }
    // null takes the key out: the input returns to its default (a deadline or a budget
    // cleared, a searched degree searched again)
    if (value.is_null()) {
        node->erase(parts.back());
        return;
    }
    scaleMeasuredCeiling(doc, path, *node, parts.back(), value);
    (*node)[parts.back()] = std::move(value);
}

void readModel(const json &doc, Scenario &s, Diagnostics &warnings)
{
    auto it = doc.find("model");
    if (it == doc.end() || it->is_string()) {
        std::string id = it == doc.end() ? std::string(kDefaultModel) : it->get<std::string>();
        auto preset = modelPreset(id);
        if (!preset)
            fail("/model", preset.error().message);
        s.model = preset.value();
        if (it != doc.end())
            s.givenInputs["model"] = InputOrigin::File;
        return;
    }
    s.model = detail::readModelObject(*it, "/model", warnings, &s.givenInputs);
    s.givenInputs["model"] = InputOrigin::File;
}

void readDevice(const json &doc, Scenario &s, Diagnostics &warnings)
{
    auto it = doc.find("device");
    if (it == doc.end() || it->is_string()) {
        std::string id = it == doc.end() ? std::string(kDefaultDevice) : it->get<std::string>();
        auto preset = devicePreset(id);
        if (!preset)
            fail("/device", preset.error().message);
        s.device = preset.value();
        if (it != doc.end())
            s.givenInputs["device"] = InputOrigin::File;
        return;
    }
    s.device = detail::readDeviceObject(*it, "/device", warnings, &s.givenInputs);
    s.givenInputs["device"] = InputOrigin::File;
}

const json &sectionOrEmpty(const json &doc, const char *key)
{
    static const json empty = json::object();
    auto it = doc.find(key);
    return it == doc.end() ? empty : *it;
}

void readServing(const json &doc, Scenario &s, Diagnostics &warnings)
{
    FieldReader r(sectionOrEmpty(doc, "serving"), "/serving", "serving", warnings, &s.givenInputs);
    r.warnUnknownBesideNumbers({"weight_format", "kv_format", "compute_format",
                                "keep_embeddings_16bit", "overhead_parts", "weight_formats"});
    ServingConfig &sv = s.serving;
    r.format("weight_format", sv.weightFormat, true);
    if (const json *parts = r.find("weight_formats")) {
        // a checkpoint's parts in their own formats: {"experts": "mxfp4"}; the rest follow
        // weight_format (weightparts.h)
        if (!parts->is_object())
            fail(r.pointerOf("weight_formats"),
                 "must be an object of formats by weight part, as {\"experts\": \"mxfp4\"}");
        FieldReader pr(*parts, r.pointerOf("weight_formats"), "serving.weight_formats", warnings,
                       nullptr);
        for (auto it = parts->begin(); it != parts->end(); ++it)
            if (!parseWeightPart(it.key()))
                fail(pr.pointerOf(it.key()),
                     "unknown weight part (one of embeddings, attention, mlp, experts, other)");
        for (WeightPart part : kWeightParts) {
            if (!pr.has(weightPartKey(part)))
                continue;
            NumericFormat format = sv.weightFormat;
            pr.format(weightPartKey(part), format, true);
            sv.partFormats[index(part)] = format;
        }
        s.givenInputs["serving.weight_formats"] = InputOrigin::File;
    }
    r.format("kv_format", sv.kvFormat, true);
    if (r.has("compute_format")) {
        NumericFormat compute = NumericFormat::Bf16;
        r.format("compute_format", compute, false);
        if (!isSet(s.device.peak(compute)))
            fail(r.pointerOf("compute_format"),
                 "the device has no " + std::string(formatLabel(compute)) +
                     " peak: choose a compute format it has a figure for");
        sv.computeFormat = compute;
    }
    // every plain number from the parameter table; the rest below by their own rules
    r.numbers(s, {"batch", "prompt_tokens", "overhead_gb"});
    if (sv.quant.groupSize > 0 && !anyPartTakesGroupScales(sv))
        warnings.push_back({r.pointerOf("quant_group_size"),
                            "quantisation groups apply to fp8, int8 and int4 only: ignored"});
    r.boolean("keep_embeddings_16bit", sv.keepEmbeddings16Bit);

    // batch and concurrency: if batch is omitted it equals the concurrency; both omitted: 8, 32.
    if (r.has("batch"))
        r.number("batch", sv.batch);
    else if (r.has("concurrent_sequences"))
        sv.batch = std::max(1.0, sv.concurrentSequences);
    sv.promptTokens = sv.contextTokens;
    r.number("prompt_tokens", sv.promptTokens);
    if (sv.promptTokens > sv.contextTokens)
        fail(r.pointerOf("prompt_tokens"), "prompt_tokens (" + formatNumber(sv.promptTokens, 9) +
                                               ") must not exceed context_tokens (" +
                                               formatNumber(sv.contextTokens, 9) + ")");

    r.numberMap("overhead_parts", sv.overheadParts);
    if (r.has("overhead_gb")) {
        r.number("overhead_gb", sv.overheadGb);
    } else if (r.has("overhead_parts")) {
        double sum = 0.0;
        for (const auto &[label, gb] : sv.overheadParts)
            sum += gb;
        sv.overheadGb = sum;
    }
    if (r.has("overhead_parts")) {
        double sum = 0.0;
        for (const auto &[label, gb] : sv.overheadParts)
            sum += gb;
        if (std::fabs(sum - sv.overheadGb) > 1e-9 * std::max(1.0, sv.overheadGb))
            fail(r.pointerOf("overhead_parts"),
                 "the parts sum to " + formatNumber(sum, 6) + " GB but overhead_gb is " +
                     formatNumber(sv.overheadGb, 6) + " GB: they must agree");
    }
    if (sv.overheadGb > s.device.capacityGb())
        fail(r.pointerOf("overhead_gb"), "the overhead (" + formatNumber(sv.overheadGb, 6) +
                                             " GB) is larger than the device memory (" +
                                             formatNumber(s.device.capacityGb(), 6) + " GB)");
    if (auto problem = parallelismProblem(s))
        fail(problem->path, problem->message);
}

void readTraining(const json &doc, Scenario &s, Diagnostics &warnings)
{
    FieldReader r(sectionOrEmpty(doc, "training"), "/training", "training", warnings,
                  &s.givenInputs);
    r.warnUnknownBesideNumbers({"recipe", "recompute", "format"});
    TrainingConfig &t = s.training;
    r.string("recipe", t.recipe);
    const TrainingRecipe *recipe = findTrainingRecipe(t.recipe);
    if (!recipe) {
        std::string known;
        for (const auto &entry : trainingRecipes())
            known += (known.empty() ? "" : ", ") + std::string(entry.key);
        fail(r.pointerOf("recipe"),
             "unknown recipe \"" + t.recipe.substr(0, 60) + "\" (one of " + known + ")");
    }
    t.weightsBytes = recipe->weightsBytes;
    t.gradsBytes = recipe->gradsBytes;
    t.masterBytes = recipe->masterBytes;
    t.optimizerBytes = recipe->optimizerBytes;
    bool custom = false;
    for (const char *key : {"weights_bytes", "grads_bytes", "master_bytes", "optimizer_bytes"})
        custom = custom || r.has(key);
    r.numbers(s); // over the recipe's bytes where the file gives its own
    if (custom && !r.has("recipe"))
        t.recipe.clear(); // components given inline: no named recipe
    std::string recompute = "none";
    t.recomputeStated = r.has("recompute"); // else the training plan searches it
    r.string("recompute", recompute);
    if (recompute == "none")
        t.recompute = RecomputeMode::None;
    else if (recompute == "selective")
        t.recompute = RecomputeMode::Selective;
    else if (recompute == "full")
        t.recompute = RecomputeMode::Full;
    else
        fail(r.pointerOf("recompute"), "unknown recompute mode \"" + recompute.substr(0, 40) +
                                           "\" (one of none, selective, full)");
    std::string format = "bf16";
    r.string("format", format);
    if (format == "bf16")
        t.format = NumericFormat::Bf16;
    else if (format == "fp8")
        t.format = NumericFormat::Fp8;
    else
        fail(r.pointerOf("format"), "unknown training format \"" + format.substr(0, 40) +
                                        "\" (one of bf16, fp8: the matmuls' format)");
}

void readCost(const json &doc, Scenario &s, Diagnostics &warnings)
{
    FieldReader r(sectionOrEmpty(doc, "cost"), "/cost", "cost", warnings, &s.givenInputs);
    r.warnUnknownBesideNumbers({});
    r.numbers(s);

    FieldReader t(sectionOrEmpty(doc, "traffic"), "/traffic", "traffic", warnings, &s.givenInputs);
    t.warnUnknownBesideNumbers({});
    t.numbers(s);

    FieldReader v(sectionOrEmpty(doc, "sensitivity"), "/sensitivity", "sensitivity", warnings,
                  &s.givenInputs);
    v.warnUnknownBesideNumbers({});
    v.numbers(s);
    const SensitivityConfig &ranges = s.sensitivity;
    if (isSet(ranges.efficiencyLow) && isSet(ranges.efficiencyHigh) &&
        ranges.efficiencyLow > ranges.efficiencyHigh)
        fail("/sensitivity/efficiency_low", "is above efficiency_high: a range runs low to high");
    if (ranges.growthLow > ranges.growthHigh)
        fail("/sensitivity/growth_low", "is above growth_high: a range runs low to high");
}

void readLoad(const json &doc, Scenario &s, Diagnostics &warnings)
{
    LoadConfig &l = s.load;
    l.present = doc.contains("load");
    FieldReader r(sectionOrEmpty(doc, "load"), "/load", "load", warnings, &s.givenInputs);
    r.warnUnknownBesideNumbers(
        {"arrivals", "trace_file", "prompt_distribution", "output_distribution", "router"});
    r.numbers(s);
    // the words each accepts: the one list the editors use too (core::choiceTable)
    const auto oneOf = [&r](std::string_view key, std::string &value) {
        r.string(key, value);
        const ChoiceInfo *choice = findChoice("load." + std::string(key));
        if (std::find(choice->options.begin(), choice->options.end(), value) !=
            choice->options.end())
            return;
        std::string list;
        for (std::string_view option : choice->options)
            list += (list.empty() ? "" : ", ") + std::string(option);
        fail(r.pointerOf(key), "is \"" + value.substr(0, 40) + "\", expected one of " + list);
    };
    oneOf("arrivals", l.arrivals);
    oneOf("prompt_distribution", l.promptDistribution);
    oneOf("output_distribution", l.outputDistribution);
    oneOf("router", l.router);
    r.string("trace_file", l.traceFile);
    if (l.arrivals == "trace" && l.traceFile.empty())
        fail("/load/trace_file", "is needed for arrivals \"trace\" (a CSV of timestamp, "
                                 "prompt_tokens, output_tokens)");
}

void readEngine(const json &doc, Scenario &s, Diagnostics &warnings)
{
    EngineConfig &engine = s.engine;
    engine.present = doc.contains("engine");
    FieldReader r(sectionOrEmpty(doc, "engine"), "/engine", "engine", warnings, &s.givenInputs);
    r.warnUnknownBesideNumbers({"draft_kind", "draft_model", "prefill_device"});
    r.numbers(s);
    r.string("draft_kind", engine.draftKind);
    if (engine.draftKind != "model" && engine.draftKind != "heads")
        fail("/engine/draft_kind",
             "is \"" + engine.draftKind.substr(0, 40) + "\", expected one of model, heads");
    r.string("draft_model", engine.draftModel);
    r.string("prefill_device", engine.prefillDevice);
}

void readInterconnect(const json &doc, Scenario &s, Diagnostics &warnings)
{
    FieldReader r(sectionOrEmpty(doc, "interconnect"), "/interconnect", "interconnect", warnings,
                  &s.givenInputs);
    r.warnUnknownBesideNumbers({"latency_model", "algorithm"});
    InterconnectConfig &ic = s.interconnect;
    std::string algorithm = "ring";
    r.string("algorithm", algorithm);
    if (algorithm != "ring")
        fail(r.pointerOf("algorithm"), "only the ring all-reduce is modelled (\"ring\")");
    r.numbers(s);
    std::string model = "per_collective";
    r.string("latency_model", model);
    if (model == "per_collective")
        ic.latencyModel = LatencyModel::PerCollective;
    else if (model == "per_hop")
        ic.latencyModel = LatencyModel::PerHop;
    else
        fail(r.pointerOf("latency_model"), "unknown latency model \"" + model.substr(0, 40) +
                                               "\" (one of per_collective, per_hop)");
}

void readPower(const json &doc, Scenario &s, Diagnostics &warnings)
{
    FieldReader r(sectionOrEmpty(doc, "power"), "/power", "power", warnings, &s.givenInputs);
    r.warnUnknownBesideNumbers({});
    r.numbers(s);
}

/** "calibration": a profile file's path, or {"mode", "engine", "profile": path or inline}. */
void readCalibration(const json &doc, Scenario &s)
{
    const auto it = doc.find("calibration");
    if (it == doc.end())
        return;
    s.givenInputs["calibration"] = InputOrigin::File; // chosen: it no longer follows the device
    CalibrationConfig &c = s.calibration;
    if (it->is_string()) {
        c.mode = EstimateMode::Calibrated;
        c.profilePath = it->get<std::string>();
        if (c.profilePath.empty())
            fail("/calibration", "names a profile file; it is empty");
        return;
    }
    if (!it->is_object())
        fail("/calibration", "must be a profile file's path or an object with mode, engine and "
                             "profile");
    for (const auto &[key, value] : it->items())
        if (key != "mode" && key != "engine" && key != "profile")
            fail("/calibration/" + key, "unknown key (mode, engine and profile are known)");
    std::string mode = it->value("mode", std::string());
    if (const auto m = it->find("mode"); m != it->end() && !m->is_string())
        fail("/calibration/mode", "must be speed_of_light, typical or calibrated");
    if (const auto e = it->find("engine"); e != it->end()) {
        if (!e->is_string())
            fail("/calibration/engine", "must be the engine's name, as in the measurements");
        c.engine = e->get<std::string>();
    }
    if (const auto p = it->find("profile"); p != it->end()) {
        if (p->is_string()) {
            c.profilePath = p->get<std::string>();
        } else if (p->is_object()) {
            auto profile = readCalibrationProfile(p->dump());
            if (!profile)
                fail("/calibration/profile" + profile.error().path, profile.error().message);
            c.profile = std::move(profile.value());
        } else {
            fail("/calibration/profile", "must be a profile file's path or an inline profile");
        }
    }
    if (mode.empty())
        mode = c.profile || !c.profilePath.empty() ? "calibrated" : "speed_of_light";
    if (mode == "speed_of_light")
        c.mode = EstimateMode::SpeedOfLight;
    else if (mode == "typical")
        c.mode = EstimateMode::Typical;
    else if (mode == "calibrated")
        c.mode = EstimateMode::Calibrated;
    else
        fail("/calibration/mode", "unknown mode \"" + mode.substr(0, 40) +
                                      "\" (one of speed_of_light, typical, calibrated)");
    if (c.mode == EstimateMode::Calibrated && !c.profile && c.profilePath.empty())
        fail("/calibration/profile", "a calibrated estimate needs a profile (accel-calc calibrate "
                                     "writes one)");
}

void readWizard(const json &doc, Scenario &s, Diagnostics &warnings)
{
    FieldReader r(sectionOrEmpty(doc, "wizard"), "/wizard", "wizard", warnings, &s.givenInputs);
    r.warnUnknownBesideNumbers(
        {"regime", "candidates", "formats", "data_on_premises", "prices", "custom_devices"});
    WizardConfig &w = s.wizard;
    std::string regime = "online";
    r.string("regime", regime);
    if (regime == "online")
        w.regime = Regime::Online;
    else if (regime == "training")
        w.regime = Regime::Training;
    else if (regime == "edge")
        w.regime = Regime::Edge;
    else
        fail(r.pointerOf("regime"),
             "unknown regime \"" + regime.substr(0, 40) + "\" (one of online, training, edge)");
    if (const json *candidates = r.find("candidates")) {
        if (!candidates->is_array())
            fail(r.pointerOf("candidates"), "must be an array of device preset ids");
        w.candidates.emplace();
        std::size_t index = 0;
        for (const json &item : *candidates) {
            std::string where = r.pointerOf("candidates") + "/" + std::to_string(index++);
            if (!item.is_string())
                fail(where, "must be a device preset id");
            std::string id = item.get<std::string>();
            if (!devicePreset(id))
                fail(where, devicePreset(id).error().message);
            w.candidates->push_back(id);
        }
    }
    r.formatList("formats", w.formats);
    for (NumericFormat f : w.formats) {
        if (!isStorageFormat(f))
            fail(r.pointerOf("formats"), "tf32 cannot store weights");
    }
    r.numbers(s);
    r.boolean("data_on_premises", w.dataOnPremises);
    r.numberMap("prices", w.prices);
    for (const auto &[id, price] : w.prices) {
        if (price > 1e5)
            fail(r.pointerOf("prices") + "/" + id, "must be at most 100,000 USD per hour");
    }
    if (const json *custom = r.find("custom_devices")) {
        if (!custom->is_array())
            fail(r.pointerOf("custom_devices"), "must be an array of inline devices");
        w.customDevices.clear();
        std::size_t index = 0;
        for (const json &item : *custom) {
            const std::string where = r.pointerOf("custom_devices") + "/" + std::to_string(index++);
            if (!item.is_object())
                fail(where, "must be an inline device object");
            w.customDevices.push_back(detail::readDeviceObject(item, where, warnings, nullptr));
        }
    }
}

void readDocument(const json &doc, Scenario &s, Diagnostics &warnings)
{
    if (!doc.is_object())
        fail("", "a scenario must be a JSON object");
    // A Hugging Face config.json is a JSON object too: read as a scenario it would be the
    // lesson's defaults under the config's name (issue #20). It has no key a scenario has.
    if (const auto type = doc.find("model_type"); type != doc.end()) {
        const bool scenarioKeys =
            std::any_of(doc.items().begin(), doc.items().end(), [](const auto &item) {
                return item.key() == "format" || item.key() == "model" || item.key() == "device" ||
                       item.key() == "serving" || item.key() == "training";
            });
        if (!scenarioKeys)
            fail("/model_type",
                 "this is a model's config.json (model_type " +
                     (type->is_string() ? "\"" + type->get<std::string>().substr(0, 40) + "\""
                                        : type->dump().substr(0, 40)) +
                     "), not a scenario: import it as the model (accel-calc import-hf, or File > "
                     "Import Hugging Face config.json as Model in the app)");
    }
    FieldReader root(doc, "", "", warnings, nullptr);
    root.warnUnknown({"format", "version", "name", "description", "model", "device", "serving",
                      "training", "cost", "traffic", "interconnect", "power", "wizard",
                      "calibration", "sensitivity", "load", "engine"});
    std::string format;
    root.string("format", format);
    if (root.has("format") && format != kScenarioFormat)
        fail("/format", "is \"" + format.substr(0, 60) + "\", expected \"" +
                            std::string(kScenarioFormat) + "\"");
    if (const json *version = root.find("version")) {
        // 1.0 is 1, as 8.0 is a whole batch of 8
        if (!version->is_number() || std::floor(version->get<double>()) != version->get<double>())
            fail("/version", "must be a whole number");
        if (version->get<double>() > kScenarioVersion)
            fail("/version", "version " + version->dump() +
                                 " was written by a newer Accelerator "
                                 "Explorer; this one reads version 1");
        if (version->get<double>() < 1)
            fail("/version", "must be 1");
    }
    root.string("name", s.name);
    if (const json *model = root.find("model"); model && !model->is_string() && !model->is_object())
        fail("/model", "must be a preset id or an inline model object");
    if (const json *device = root.find("device");
        device && !device->is_string() && !device->is_object())
        fail("/device", "must be a preset id or an inline device object");
    readModel(doc, s, warnings);
    readDevice(doc, s, warnings);
    readServing(doc, s, warnings);
    readTraining(doc, s, warnings);
    readCost(doc, s, warnings);
    readInterconnect(doc, s, warnings);
    readLoad(doc, s, warnings);
    readEngine(doc, s, warnings);
    readPower(doc, s, warnings);
    readWizard(doc, s, warnings);
    readCalibration(doc, s);
    // Without a price or power in the file they follow the device, by the rule every other
    // "this scenario on that device" uses: a price is never borrowed from the lesson's default.
    const DeviceFollowers follow = deviceFollowers(s.device, s.wizard);
    if (!s.givenInputs.contains("cost.price_per_hour_usd"))
        s.cost.pricePerHourUsd = follow.pricePerHourUsd;
    if (!s.givenInputs.contains("power.device_w"))
        s.power.deviceW = follow.deviceW;
    if (!s.givenInputs.contains("calibration"))
        s.calibration.mode = follow.estimate;
}

// ---------------------------------------------------------------------------------------------

json &sectionFor(json &doc, const char *key)
{
    auto it = doc.find(key);
    if (it == doc.end() || !it->is_object())
        doc[key] = json::object();
    return doc[key];
}

/** Copies into an inline model or device `written` the keys of `original` (what the file had) that
 *  it lacks: the keys this version does not know, which reading warned about as "kept as is when
 *  saved". Into the peak table too, where a format key it lacks is one the device has no figure
 *  for (and stays out), and anything else is unknown (issue #20: those were dropped). */
void keepUnknownKeys(json &written, const json &original)
{
    if (!written.is_object() || !original.is_object())
        return;
    for (auto kv = original.begin(); kv != original.end(); ++kv) {
        if (kv.key() == "id" || kv.key() == "layer_groups") // groups are the model's, never stale
            continue;
        const auto it = written.find(kv.key());
        if (it == written.end()) {
            written[kv.key()] = kv.value();
        } else if (kv.key() == "peak_tflops" && it->is_object() && kv.value().is_object()) {
            for (auto peak = kv.value().begin(); peak != kv.value().end(); ++peak)
                if (!parseFormat(peak.key()) && !it->contains(peak.key()))
                    (*it)[peak.key()] = peak.value();
        }
    }
}

json formatsJson(const std::vector<NumericFormat> &formats)
{
    json out = json::array();
    for (NumericFormat f : formats)
        out.push_back(std::string(formatKey(f)));
    return out;
}

json toJson(const Scenario &s)
{
    json doc = json::object();
    if (!s.document.empty()) {
        try {
            doc = detail::parseStrict(s.document);
        } catch (const detail::ReadFailure &) {
            doc = json::object();
        }
        if (!doc.is_object())
            doc = json::object();
    }
    doc["format"] = std::string(kScenarioFormat);
    doc["version"] = kScenarioVersion;
    if (!s.name.empty())
        doc["name"] = s.name;
    // a user preset is written inline: the file opens on machines without that preset
    if (s.model.presetId.empty() || !isBuiltinPreset(s.model.presetId)) {
        json model = detail::modelToJson(s.model);
        if (auto it = doc.find("model"); it != doc.end())
            keepUnknownKeys(model, *it);
        doc["model"] = model;
    } else {
        doc["model"] = s.model.presetId;
    }
    if (s.device.presetId.empty() || !isBuiltinPreset(s.device.presetId)) {
        json device = detail::deviceToJson(s.device);
        if (auto it = doc.find("device"); it != doc.end())
            keepUnknownKeys(device, *it);
        doc["device"] = device;
    } else {
        doc["device"] = s.device.presetId;
    }

    const ServingConfig &sv = s.serving;
    json &serving = sectionFor(doc, "serving");
    serving["weight_format"] = std::string(formatKey(sv.weightFormat));
    serving["kv_format"] = std::string(formatKey(sv.kvFormat));
    if (sv.computeFormat)
        serving["compute_format"] = std::string(formatKey(*sv.computeFormat));
    else
        serving.erase("compute_format");
    serving["keep_embeddings_16bit"] = sv.keepEmbeddings16Bit;
    json partFormats = json::object();
    for (WeightPart part : kWeightParts)
        if (const auto &format = sv.partFormats[index(part)])
            partFormats[std::string(weightPartKey(part))] = std::string(formatKey(*format));
    if (partFormats.empty())
        serving.erase("weight_formats");
    else
        serving["weight_formats"] = partFormats;
    detail::putNumbers(serving, s, "serving");
    if (!sv.overheadParts.empty()) {
        json parts = json::object();
        for (const auto &[label, gb] : sv.overheadParts)
            parts[label] = gb;
        serving["overhead_parts"] = parts;
    } else {
        serving.erase("overhead_parts");
    }

    const TrainingConfig &t = s.training;
    json &training = sectionFor(doc, "training");
    if (!t.recipe.empty())
        training["recipe"] = t.recipe;
    else
        training.erase("recipe");
    detail::putNumbers(training, s, "training");
    if (t.recomputeStated)
        training["recompute"] = t.recompute == RecomputeMode::None        ? "none"
                                : t.recompute == RecomputeMode::Selective ? "selective"
                                                                          : "full";
    else
        training.erase("recompute");
    training["format"] = t.format == NumericFormat::Fp8 ? "fp8" : "bf16";

    detail::putNumbers(sectionFor(doc, "cost"), s, "cost");

    const TrafficConfig plainTraffic;
    if (isSet(s.traffic.requestsPerDay) || isSet(s.traffic.peakRequestsPerSecond) ||
        s.traffic.growthPerMonth != plainTraffic.growthPerMonth ||
        s.traffic.horizonMonths != plainTraffic.horizonMonths || doc.contains("traffic")) {
        detail::putNumbers(sectionFor(doc, "traffic"), s, "traffic");
    }
    // the ranges only where one differs from the defaults (or the file had the section)
    bool rangesGiven = doc.contains("sensitivity");
    const Scenario plain;
    for (const ParameterInfo *info : sectionParameters("sensitivity")) {
        const double mine = *info->field(const_cast<Scenario &>(s)); // read only
        const double standard = *info->field(const_cast<Scenario &>(plain));
        rangesGiven = rangesGiven || !(mine == standard || (!isSet(mine) && !isSet(standard)));
    }
    if (rangesGiven)
        detail::putNumbers(sectionFor(doc, "sensitivity"), s, "sensitivity");

    if (s.load.present) {
        json &load = sectionFor(doc, "load");
        load["arrivals"] = s.load.arrivals;
        load["prompt_distribution"] = s.load.promptDistribution;
        load["output_distribution"] = s.load.outputDistribution;
        load["router"] = s.load.router;
        if (!s.load.traceFile.empty())
            load["trace_file"] = s.load.traceFile;
        detail::putNumbers(load, s, "load");
    }

    if (s.engine.present) {
        json &engine = sectionFor(doc, "engine");
        engine["draft_kind"] = s.engine.draftKind;
        if (!s.engine.draftModel.empty())
            engine["draft_model"] = s.engine.draftModel;
        if (!s.engine.prefillDevice.empty())
            engine["prefill_device"] = s.engine.prefillDevice;
        detail::putNumbers(engine, s, "engine");
    }

    const InterconnectConfig &ic = s.interconnect;
    json &interconnect = sectionFor(doc, "interconnect");
    interconnect["algorithm"] = "ring";
    detail::putNumbers(interconnect, s, "interconnect");
    interconnect["latency_model"] =
        ic.latencyModel == LatencyModel::PerHop ? "per_hop" : "per_collective";

    detail::putNumbers(sectionFor(doc, "power"), s, "power");

    const WizardConfig &w = s.wizard;
    json &wizard = sectionFor(doc, "wizard");
    wizard["regime"] = w.regime == Regime::Online     ? "online"
                       : w.regime == Regime::Training ? "training"
                                                      : "edge";
    if (w.candidates)
        wizard["candidates"] = *w.candidates;
    else
        wizard.erase("candidates"); // chosen from the model and the regime (candidateIds)
    wizard["formats"] = formatsJson(w.formats);
    detail::putNumbers(wizard, s, "wizard");
    wizard["data_on_premises"] = w.dataOnPremises;
    if (w.prices.empty()) {
        wizard.erase("prices");
    } else {
        json prices = json::object();
        for (const auto &[id, price] : w.prices)
            prices[id] = detail::numberJson(price);
        wizard["prices"] = prices;
    }
    if (w.customDevices.empty()) {
        wizard.erase("custom_devices");
    } else {
        // a custom device keeps its unknown keys: found in the file by its name
        const json original = wizard.value("custom_devices", json::array());
        json custom = json::array();
        for (const DeviceSpec &device : w.customDevices) {
            json written = detail::deviceToJson(device);
            if (original.is_array())
                for (const json &item : original)
                    if (item.is_object() && item.value("name", std::string()) == device.name)
                        keepUnknownKeys(written, item);
            custom.push_back(written);
        }
        wizard["custom_devices"] = custom;
    }

    const CalibrationConfig &c = s.calibration;
    if (!c.active() && c.profilePath.empty() && !c.profile &&
        !s.givenInputs.contains("calibration")) {
        doc.erase("calibration");
    } else {
        json calibration = {{"mode", std::string(estimateModeKey(c.mode))}};
        if (!c.engine.empty())
            calibration["engine"] = c.engine;
        if (!c.profilePath.empty())
            calibration["profile"] = c.profilePath;
        else if (c.profile)
            calibration["profile"] = json::parse(calibrationProfileToJson(*c.profile));
        doc["calibration"] = calibration;
    }
    return doc;
}

} // namespace

Result<LoadedScenario> readScenario(std::string_view text, std::span<const std::string> overrides)
{
    try {
        json doc = detail::parseStrict(text);
        if (!doc.is_object())
            fail("", "a scenario must be a JSON object");
        bool overheadSet = false;
        bool partsSet = false;
        for (const std::string &assignment : overrides) {
            applyOverride(doc, assignment);
            overheadSet = overheadSet || assignment.starts_with("serving.overhead_gb=");
            partsSet = partsSet || assignment.starts_with("serving.overhead_parts");
        }
        // A new overhead total makes the file's breakdown of the old one meaningless.
        if (overheadSet && !partsSet && doc.contains("serving") && doc["serving"].is_object())
            doc["serving"].erase("overhead_parts");
        LoadedScenario loaded;
        readDocument(doc, loaded.scenario, loaded.warnings);
        for (const std::string &assignment : overrides) {
            std::string path = assignment.substr(0, assignment.find('='));
            loaded.scenario.givenInputs[path] = InputOrigin::CommandLine;
        }
        loaded.scenario.document = doc.dump(-1, ' ', false, json::error_handler_t::replace);
        return loaded;
    } catch (const detail::ReadFailure &failure) {
        return failure.diagnostic;
    } catch (const std::exception &error) {
        return Diagnostic{"", std::string("could not read the scenario: ") + error.what()};
    }
}

bool readAtMost(std::istream &in, std::size_t limit, std::string &text)
{
    text.clear();
    char chunk[65536];
    while (in && text.size() <= limit) {
        in.read(chunk, std::streamsize(std::min(sizeof chunk, limit + 1 - text.size())));
        text.append(chunk, std::size_t(in.gcount()));
    }
    if (text.size() > limit) {
        text.resize(limit);
        return false;
    }
    return !in.bad();
}

Result<LoadedScenario> readScenario(std::istream &in, std::span<const std::string> overrides)
{
    std::string text;
    if (!readAtMost(in, kLargestInputBytes, text))
        return Diagnostic{"", in.bad() ? "could not read the input"
                                       : "is larger than 64 MB: not a scenario file"};
    return readScenario(text, overrides);
}

Scenario lessonDefaultScenario()
{
    auto text = scenarioPresetText("lesson-default");
    auto loaded = text ? readScenario(*text) : readScenario(std::string_view("{}"));
    if (loaded)
        return loaded.value().scenario;
    return Scenario{}; // unreachable in a correct build: the preset tests guard it
}

std::string writeScenario(const Scenario &scenario)
{
    return toJson(scenario).dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

bool writeScenario(std::ostream &out, const Scenario &scenario)
{
    out << writeScenario(scenario);
    return static_cast<bool>(out);
}

} // namespace core
