#include "presets.h"

#include "embeddedfiles.h"
#include "jsonread.h"

#include <algorithm>
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
    std::map<std::string, LinkSpec, std::less<>> links;
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
                } else if (path == "links.json") {
                    readLinks(path, file.text);
                } else if (path.find('/') == std::string::npos &&
                           (path.ends_with("models.json") || path.ends_with("devices.json"))) {
                    readList(path, file.text);
                }
            } catch (const detail::ReadFailure &failure) {
                problems.push_back(
                    {path + ":" + failure.diagnostic.path, failure.diagnostic.message});
            }
        }
        list.insert(list.end(), scenarioInfos.begin(), scenarioInfos.end());
        auto rank = [](const PresetInfo &info) {
            return info.kind == "model"    ? 0
                   : info.kind == "device" ? 1
                   : info.kind == "link"   ? 2
                                           : 3;
        };
        std::stable_sort(list.begin(), list.end(), [&](const PresetInfo &a, const PresetInfo &b) {
            return rank(a) < rank(b);
        });
    }

    void readList(const std::string &path, std::string_view text);
    void readLinks(const std::string &path, std::string_view text);
};

void Registry::readLinks(const std::string &path, std::string_view text)
{
    const json doc = detail::parseStrict(text);
    if (!doc.is_object() || !doc.contains("links") || !doc["links"].is_array())
        detail::fail("", R"(expected an object with an array "links")");
    std::size_t index = 0;
    for (const json &entry : doc["links"]) {
        const std::string pointer = "/links/" + std::to_string(index++);
        Diagnostics warnings;
        detail::FieldReader r(entry, pointer, "link", warnings, nullptr);
        r.warnUnknown({"id", "name", "kind", "per_direction_gb_s", "bidirectional_gb_s",
                       "latency_s", "sources", "notes"});
        LinkSpec link;
        r.string("id", link.presetId);
        r.string("name", link.name);
        r.string("kind", link.kind);
        r.number("per_direction_gb_s", link.perDirectionGbPerSecond);
        r.number("bidirectional_gb_s", link.bidirectionalGbPerSecond);
        r.number("latency_s", link.latencySeconds);
        r.stringMap("sources", link.sources);
        r.stringMap("notes", link.notes);
        if (link.presetId.empty() || !isSet(link.perDirectionGbPerSecond) ||
            !(link.perDirectionGbPerSecond > 0))
            detail::fail(pointer, R"(a link needs an "id" and a positive "per_direction_gb_s")");
        if (link.kind != "host" && link.kind != "device" && link.kind != "network")
            detail::fail(pointer + "/kind", "one of host, device, network");
        for (const Diagnostic &w : warnings)
            problems.push_back({path + ":" + w.path, w.message});
        list.push_back({link.presetId, "link", link.name});
        links.emplace(link.presetId, std::move(link));
    }
}

bool isKebabCase(const std::string &id)
{
    if (id.empty() || id.size() > 80 || id.front() == '-' || id.back() == '-')
        return false;
    return std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.';
    });
}

/** Reads a models or devices preset document; throws ReadFailure on the first problem. */
PresetFile readPresetDocument(const json &doc, std::vector<json> *objects)
{
    if (!doc.is_object())
        detail::fail("", "a preset file must be a JSON object");
    const bool models = doc.contains("models");
    const bool devices = doc.contains("devices");
    if (models == devices)
        detail::fail("", R"(a preset file needs exactly one of "models" or "devices")");
    const char *arrayKey = models ? "models" : "devices";
    if (auto format = doc.find("format"); format != doc.end()) {
        const std::string expected = std::string("accel-explorer/") + arrayKey;
        if (!format->is_string() || format->get<std::string>() != expected)
            detail::fail("/format", "expected \"" + expected + "\"");
    }
    const json &list = doc[arrayKey];
    if (!list.is_array())
        detail::fail(std::string("/") + arrayKey, "must be an array");
    PresetFile file;
    std::size_t index = 0;
    for (const json &entry : list) {
        const std::string pointer = std::string("/") + arrayKey + "/" + std::to_string(index++);
        if (!entry.is_object() || !entry.contains("id") || !entry["id"].is_string())
            detail::fail(pointer, "a preset needs a string \"id\"");
        const std::string id = entry["id"].get<std::string>();
        if (!isKebabCase(id))
            detail::fail(pointer + "/id", "preset ids are kebab-case (a-z, 0-9, '-', '.'), got \"" +
                                              id.substr(0, 80) + "\"");
        if (models) {
            ModelSpec spec = detail::readModelObject(entry, pointer, file.warnings, nullptr);
            spec.presetId = id;
            file.models.push_back(std::move(spec));
        } else {
            DeviceSpec spec = detail::readDeviceObject(entry, pointer, file.warnings, nullptr);
            spec.presetId = id;
            file.devices.push_back(std::move(spec));
        }
        if (objects)
            objects->push_back(entry);
    }
    return file;
}

void Registry::readList(const std::string &path, std::string_view text)
{
    std::vector<json> objects;
    PresetFile file;
    try {
        file = readPresetDocument(detail::parseStrict(text), &objects);
    } catch (const detail::ReadFailure &failure) {
        problems.push_back({path + ":" + failure.diagnostic.path, failure.diagnostic.message});
        return;
    }
    for (const Diagnostic &w : file.warnings)
        problems.push_back({path + ":" + w.path, w.message});
    for (std::size_t i = 0; i < file.models.size(); ++i) {
        list.push_back({file.models[i].presetId, "model", file.models[i].name});
        modelObjects.emplace(file.models[i].presetId, objects[i]);
        models.emplace(file.models[i].presetId, std::move(file.models[i]));
    }
    for (std::size_t i = 0; i < file.devices.size(); ++i) {
        list.push_back({file.devices[i].presetId, "device", file.devices[i].name});
        deviceObjects.emplace(file.devices[i].presetId, objects[i]);
        devices.emplace(file.devices[i].presetId, std::move(file.devices[i]));
    }
}

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

Result<LinkSpec> linkPreset(std::string_view id)
{
    const auto &links = registry().links;
    auto it = links.find(id);
    if (it == links.end())
        return Result<LinkSpec>::failure("", "unknown link preset \"" +
                                                 std::string(id.substr(0, 80)) + "\"");
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

Result<PresetFile> readPresetFile(std::string_view text)
{
    try {
        return readPresetDocument(detail::parseStrict(text), nullptr);
    } catch (const detail::ReadFailure &failure) {
        return failure.diagnostic;
    } catch (const std::exception &error) {
        return Diagnostic{"", std::string("could not read the preset file: ") + error.what()};
    }
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

std::string_view presetDataDate()
{
    return "2026-12-02"; // update with scripts/convert_reference.py's output
}

} // namespace core
