#include "presets.h"

#include "embeddedfiles.h"
#include "jsonread.h"

#include <map>

namespace core {

namespace {

using detail::json;

/** The parsed built-in presets. Immutable after construction, built once on first use. */
struct Registry
{
    std::vector<PresetInfo> list;
    std::map<std::string, json, std::less<>> modelObjects;
    std::map<std::string, json, std::less<>> deviceObjects;
    std::map<std::string, ModelSpec, std::less<>> models;
    std::map<std::string, DeviceSpec, std::less<>> devices;
    std::map<std::string, std::string_view, std::less<>> scenarios;
    Diagnostics problems;

    Registry()
    {
        std::vector<PresetInfo> scenarioInfos;
        for (const EmbeddedFile &file : embeddedPresetFiles()) {
            const std::string path(file.path);
            try {
                if (path.starts_with("scenarios/")) {
                    std::string id = path.substr(10, path.size() - 10 - 5); // drop ".json"
                    json doc = detail::parseStrict(file.text);
                    std::string name =
                        doc.is_object() && doc.contains("name") && doc["name"].is_string()
                            ? doc["name"].get<std::string>()
                            : id;
                    scenarios.emplace(id, file.text);
                    scenarioInfos.push_back({id, "scenario", name});
                } else if (path == "models.json") {
                    readList(path, file.text, "models", "model");
                } else if (path == "devices.json") {
                    readList(path, file.text, "devices", "device");
                }
            } catch (const detail::ReadFailure &failure) {
                problems.push_back(
                    {path + ":" + failure.diagnostic.path, failure.diagnostic.message});
            }
        }
        list.insert(list.end(), scenarioInfos.begin(), scenarioInfos.end());
    }

    void readList(const std::string &path, std::string_view text, const char *arrayKey,
                  const std::string &kind)
    {
        json doc = detail::parseStrict(text);
        if (!doc.is_object() || !doc.contains(arrayKey) || !doc[arrayKey].is_array())
            detail::fail("", std::string("expected an object with an array \"") + arrayKey + "\"");
        std::size_t index = 0;
        for (const json &entry : doc[arrayKey]) {
            std::string pointer = std::string("/") + arrayKey + "/" + std::to_string(index++);
            try {
                if (!entry.is_object() || !entry.contains("id") || !entry["id"].is_string())
                    detail::fail(pointer, "a preset needs a string \"id\"");
                std::string id = entry["id"].get<std::string>();
                Diagnostics warnings;
                if (kind == "model") {
                    ModelSpec spec = detail::readModelObject(entry, pointer, warnings, nullptr);
                    spec.presetId = id;
                    list.push_back({id, kind, spec.name});
                    models.emplace(id, std::move(spec));
                    modelObjects.emplace(id, entry);
                } else {
                    DeviceSpec spec = detail::readDeviceObject(entry, pointer, warnings, nullptr);
                    spec.presetId = id;
                    list.push_back({id, kind, spec.name});
                    devices.emplace(id, std::move(spec));
                    deviceObjects.emplace(id, entry);
                }
                for (const Diagnostic &w : warnings)
                    problems.push_back({path + ":" + w.path, w.message});
            } catch (const detail::ReadFailure &failure) {
                problems.push_back(
                    {path + ":" + failure.diagnostic.path, failure.diagnostic.message});
            }
        }
    }
};

const Registry &registry()
{
    static const Registry instance;
    return instance;
}

} // namespace

const std::vector<PresetInfo> &presetList()
{
    return registry().list;
}

Result<ModelSpec> modelPreset(std::string_view id)
{
    const auto &models = registry().models;
    auto it = models.find(id);
    if (it == models.end())
        return Result<ModelSpec>::failure(
            "", "unknown model preset \"" + std::string(id.substr(0, 80)) +
                    "\" (known: " + detail::knownPresetIds("model") + ")");
    return it->second;
}

Result<DeviceSpec> devicePreset(std::string_view id)
{
    const auto &devices = registry().devices;
    auto it = devices.find(id);
    if (it == devices.end())
        return Result<DeviceSpec>::failure(
            "", "unknown device preset \"" + std::string(id.substr(0, 80)) +
                    "\" (known: " + detail::knownPresetIds("device") + ")");
    return it->second;
}

std::optional<std::string_view> scenarioPresetText(std::string_view id)
{
    const auto &scenarios = registry().scenarios;
    auto it = scenarios.find(id);
    if (it == scenarios.end())
        return std::nullopt;
    return it->second;
}

const Diagnostics &presetProblems()
{
    return registry().problems;
}

namespace detail {

const json *presetObject(std::string_view kind, std::string_view id)
{
    const auto &objects = kind == "model" ? registry().modelObjects : registry().deviceObjects;
    auto it = objects.find(id);
    return it == objects.end() ? nullptr : &it->second;
}

std::string knownPresetIds(std::string_view kind)
{
    std::string ids;
    for (const PresetInfo &info : registry().list) {
        if (info.kind == kind)
            ids += (ids.empty() ? "" : ", ") + info.id;
    }
    return ids;
}

} // namespace detail

} // namespace core
