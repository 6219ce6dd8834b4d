// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/scenarioedits.h"

#include "core/model/scenarioaccess.h"

#include "core/model/parameters.h"
#include "core/model/units.h"

#include <iterator>

namespace core {

namespace {

/** Forgets what the file or command line said about inputs that belong to the old device. */
void forgetDeviceClaims(Scenario &s)
{
    for (auto it = s.givenInputs.begin(); it != s.givenInputs.end();) {
        const std::string &path = it->first;
        const bool deviceBound = path.starts_with("device.") || path == "cost.price_per_hour_usd" ||
                                 path == "power.device_w" ||
                                 path == "cost.sustained_tokens_per_second";
        it = deviceBound ? s.givenInputs.erase(it) : std::next(it);
    }
}

std::string deviceName(const DeviceSpec &device)
{
    return device.name.empty() ? std::string("the device") : device.name;
}

} // namespace

DeviceFollowers deviceFollowers(const DeviceSpec &device, const WizardConfig &wizard)
{
    DeviceFollowers f;
    const std::string &key = device.presetId.empty() ? device.name : device.presetId;
    if (auto negotiated = wizard.prices.find(key); negotiated != wizard.prices.end()) {
        f.pricePerHourUsd = negotiated->second;
        f.negotiated = true;
        f.priceOrigin = "negotiated price (wizard.prices)";
    } else if (isSet(device.pricePerHourUsd)) {
        f.pricePerHourUsd = device.pricePerHourUsd;
        f.priceOrigin = "device's price";
    } else {
        f.priceOrigin = "price needed: " + deviceName(device) + " has no price";
    }
    if (isSet(device.powerW)) {
        f.deviceW = device.powerW;
        f.powerOrigin = "device's power";
    } else {
        f.deviceW = findParameter("power.device_w")->defaultValue;
        f.powerOrigin = "the lesson's illustrative " + formatNumber(f.deviceW, 6) +
                        " W: " + deviceName(device) + " has no power figure";
    }
    f.estimate = device.referencePreset ? EstimateMode::Typical : EstimateMode::SpeedOfLight;
    return f;
}

DeviceMove onDevice(Scenario scenario, const DeviceSpec &device)
{
    DeviceMove move;
    const std::string oldDevice = deviceName(scenario.device);
    const bool measured = isSet(scenario.cost.sustainedTokensPerSecond);
    // the device it is on already: a price the user typed for it stays (the wizard priced the
    // scenario's own H100 at its preset $4.26 beside the Cost tab's typed $2.00, issue #42)
    const bool sameDevice = device.presetId.empty() ? device.name == scenario.device.name
                                                    : device.presetId == scenario.device.presetId;
    const auto typed = scenario.givenInputs.find("cost.price_per_hour_usd");
    const bool priceTyped = typed != scenario.givenInputs.end();
    const InputOrigin typedOrigin = priceTyped ? typed->second : InputOrigin::App;
    Scenario &s = move.scenario;
    s = std::move(scenario);
    s.device = device;
    forgetDeviceClaims(s);
    const DeviceFollowers follow = deviceFollowers(device, s.wizard);
    if (sameDevice && priceTyped) // typed for this device: it wins over the wizard's list too
        s.givenInputs["cost.price_per_hour_usd"] = typedOrigin; // still the user's
    else
        s.cost.pricePerHourUsd = follow.pricePerHourUsd;
    s.power.deviceW = follow.deviceW;
    if (!s.givenInputs.contains("calibration"))
        s.calibration.mode = follow.estimate; // an estimate nobody chose follows the device
    if (!isSet(follow.pricePerHourUsd))
        move.notes.push_back(follow.priceOrigin + ": every cost figure needs one");
    if (measured) {
        s.cost.sustainedTokensPerSecond = kUnset;
        move.notes.push_back("the sustained tokens/s measured on " + oldDevice +
                             " no longer applies: the estimate for " + deviceName(device) +
                             " is used");
    }
    if (s.serving.computeFormat && !isSet(device.peak(*s.serving.computeFormat))) {
        move.notes.push_back("compute format " + std::string(formatKey(*s.serving.computeFormat)) +
                             " dropped: " + deviceName(device) +
                             " has no peak for it, so its best format is used");
        s.serving.computeFormat.reset();
    }
    if (isSet(device.capacityGb()) && s.serving.overheadGb > device.capacityGb())
        move.refusal = Diagnostic{"/serving/overhead_gb",
                                  "the runtime overhead (" + formatNumber(s.serving.overheadGb, 6) +
                                      " GB) is larger than " + deviceName(device) + "'s " +
                                      formatNumber(device.capacityGb(), 6) + " GB of memory"};
    else if (auto problem = parallelismProblem(s)) // the one rule: no link, no split
        move.refusal = std::move(problem);
    return move;
}

Scenario withModel(Scenario scenario, ModelSpec model)
{
    scenario.model = std::move(model);
    for (auto it = scenario.givenInputs.begin(); it != scenario.givenInputs.end();)
        it = it->first.starts_with("model.") ? scenario.givenInputs.erase(it) : std::next(it);
    // the parts' own formats were the old checkpoint's: the new model's import sets its own
    scenario.serving.partFormats = {};
    scenario.givenInputs.erase("serving.weight_formats");
    resetParallelismIfInvalid(scenario); // the old split may not fit the new architecture
    return scenario;
}

Scenario withFormats(Scenario scenario, NumericFormat weights, std::optional<NumericFormat> kv)
{
    scenario.serving.weightFormat = weights;
    if (kv)
        scenario.serving.kvFormat = *kv;
    return scenario;
}

std::optional<NumericFormat> nextSmallerWeightFormat(NumericFormat format)
{
    if (nominalBytes(format) >= 2.0)
        return NumericFormat::Int8;
    if (nominalBytes(format) >= 1.0)
        return NumericFormat::Int4;
    return std::nullopt;
}

Result<Scenario> withTrainingRecipe(const Scenario &scenario, std::string_view key)
{
    const TrainingRecipe *recipe = findTrainingRecipe(key);
    if (!recipe)
        return Diagnostic{"/training/recipe", "unknown recipe \"" + std::string(key) + "\""};
    Scenario s = scenario;
    s.training.recipe = std::string(recipe->key);
    s.training.weightsBytes = recipe->weightsBytes;
    s.training.gradsBytes = recipe->gradsBytes;
    s.training.masterBytes = recipe->masterBytes;
    s.training.optimizerBytes = recipe->optimizerBytes;
    return s;
}

} // namespace core
