// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/data/presets.h"

#include "core/data/embeddedfiles.h"
#include "core/data/jsonread.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

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
    std::set<std::string, std::less<>> referenceDevices; ///< real devices, with published sources
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

/** One link object; throws ReadFailure on a problem. */
LinkSpec readLinkObject(const json &entry, const std::string &pointer, Diagnostics &warnings)
{
    detail::FieldReader r(entry, pointer, "link", warnings, nullptr);
    r.warnUnknown({"id", "name", "kind", "per_direction_gb_s", "bidirectional_gb_s", "latency_s",
                   "sources", "notes"});
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
    return link;
}

json linkToJson(const LinkSpec &link)
{
    json out = {{"id", link.presetId},
                {"name", link.name},
                {"kind", link.kind},
                {"per_direction_gb_s", link.perDirectionGbPerSecond}};
    if (isSet(link.bidirectionalGbPerSecond))
        out["bidirectional_gb_s"] = link.bidirectionalGbPerSecond;
    if (isSet(link.latencySeconds))
        out["latency_s"] = link.latencySeconds;
    if (!link.sources.empty())
        out["sources"] = link.sources;
    if (!link.notes.empty())
        out["notes"] = link.notes;
    return out;
}

void Registry::readLinks(const std::string &path, std::string_view text)
{
    const json doc = detail::parseStrict(text);
    if (!doc.is_object() || !doc.contains("links") || !doc["links"].is_array())
        detail::fail("", R"(expected an object with an array "links")");
    std::size_t index = 0;
    for (const json &entry : doc["links"]) {
        const std::string pointer = "/links/" + std::to_string(index++);
        Diagnostics warnings;
        LinkSpec link = readLinkObject(entry, pointer, warnings);
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
        if (path.starts_with("reference-")) {
            referenceDevices.insert(file.devices[i].presetId);
            file.devices[i].referencePreset = true;
        }
        deviceObjects.emplace(file.devices[i].presetId, objects[i]);
        devices.emplace(file.devices[i].presetId, std::move(file.devices[i]));
    }
}

const Registry &registry()
{
    static const Registry instance;
    return instance;
}

/** The user's presets: replaced as a whole by setUserPresets() (GUI thread only). */
struct UserLayer
{
    PresetFile library;
    std::vector<PresetInfo> combinedList; ///< built-ins, then the user's
    std::map<std::string, json, std::less<>> modelObjects;
    std::map<std::string, json, std::less<>> deviceObjects;
};

UserLayer &userLayer()
{
    static UserLayer layer;
    return layer;
}

template <typename Spec> const Spec *findUser(const std::vector<Spec> &specs, std::string_view id)
{
    for (const Spec &spec : specs) {
        if (spec.presetId == id)
            return &spec;
    }
    return nullptr;
}

/** A preset's JSON object as the built-in files write it: the spec's keys and its "id". */
json modelObject(const ModelSpec &model)
{
    json object = detail::modelToJson(model);
    object["id"] = model.presetId;
    return object;
}

json deviceObject(const DeviceSpec &device)
{
    json object = detail::deviceToJson(device);
    object["id"] = device.presetId;
    return object;
}

/** Reads a library document; throws ReadFailure on the first problem. */
PresetFile readLibraryDocument(const json &doc)
{
    if (!doc.is_object())
        detail::fail("", "a preset file must be a JSON object");
    if (auto format = doc.find("format"); format != doc.end()) {
        const bool known =
            format->is_string() && (format->get<std::string>() == "accel-explorer/presets" ||
                                    format->get<std::string>() == "accel-explorer/models" ||
                                    format->get<std::string>() == "accel-explorer/devices" ||
                                    format->get<std::string>() == "accel-explorer/links");
        if (!known)
            detail::fail("/format", "expected \"accel-explorer/presets\"");
    }
    if (!doc.contains("models") && !doc.contains("devices") && !doc.contains("links"))
        detail::fail("", R"(a preset file needs "models", "devices" or "links")");
    PresetFile library;
    for (const char *key : {"models", "devices"}) {
        if (!doc.contains(key))
            continue;
        json single = json::object();
        single[key] = doc[key];
        PresetFile part = readPresetDocument(single, nullptr);
        for (ModelSpec &m : part.models)
            library.models.push_back(std::move(m));
        for (DeviceSpec &d : part.devices)
            library.devices.push_back(std::move(d));
        library.warnings.insert(library.warnings.end(), part.warnings.begin(), part.warnings.end());
    }
    if (doc.contains("links")) {
        if (!doc["links"].is_array())
            detail::fail("/links", "must be an array");
        std::size_t index = 0;
        for (const json &entry : doc["links"]) {
            const std::string pointer = "/links/" + std::to_string(index++);
            if (!entry.is_object() || !entry.contains("id") || !entry["id"].is_string())
                detail::fail(pointer, "a preset needs a string \"id\"");
            if (!isKebabCase(entry["id"].get<std::string>()))
                detail::fail(pointer + "/id", "preset ids are kebab-case (a-z, 0-9, '-', '.')");
            library.links.push_back(readLinkObject(entry, pointer, library.warnings));
        }
    }
    return library;
}

} // namespace

const std::vector<PresetInfo> &presetList()
{
    const UserLayer &user = userLayer();
    return user.combinedList.empty() ? registry().list : user.combinedList;
}

Result<PresetFile> readPresetLibrary(std::string_view text)
{
    try {
        return readLibraryDocument(detail::parseStrict(text));
    } catch (const detail::ReadFailure &failure) {
        return failure.diagnostic;
    } catch (const std::exception &error) {
        return Diagnostic{"", std::string("could not read the preset file: ") + error.what()};
    }
}

std::string presetLibraryToJson(const PresetFile &library)
{
    json models = json::array();
    for (const ModelSpec &m : library.models)
        models.push_back(modelObject(m));
    json devices = json::array();
    for (const DeviceSpec &d : library.devices)
        devices.push_back(deviceObject(d));
    json links = json::array();
    for (const LinkSpec &l : library.links)
        links.push_back(linkToJson(l));
    json doc = {{"format", "accel-explorer/presets"}, {"version", 1}};
    if (!models.empty())
        doc["models"] = std::move(models);
    if (!devices.empty())
        doc["devices"] = std::move(devices);
    if (!links.empty())
        doc["links"] = std::move(links);
    if (library.models.empty() && library.devices.empty() && library.links.empty())
        doc["devices"] = json::array(); // an empty library still reads back
    return doc.dump(2) + "\n";
}

bool isBuiltinPreset(std::string_view id)
{
    const Registry &r = registry();
    return r.models.count(id) || r.devices.count(id) || r.links.count(id) || r.scenarios.count(id);
}

bool isReferenceDevice(std::string_view id)
{
    return registry().referenceDevices.count(id) > 0;
}

bool isUserPreset(std::string_view id)
{
    const PresetFile &library = userLayer().library;
    return findUser(library.models, id) || findUser(library.devices, id) ||
           findUser(library.links, id);
}

const PresetFile &userPresets()
{
    return userLayer().library;
}

Result<bool> validateUserPresets(const PresetFile &library)
{
    std::set<std::string, std::less<>> seen;
    auto check = [&](const std::string &id, const std::string &where) -> std::optional<Diagnostic> {
        if (!isKebabCase(id))
            return Diagnostic{where + "/id",
                              "preset ids are kebab-case (a-z, 0-9, '-', '.'), got \"" +
                                  id.substr(0, 80) + "\""};
        if (isBuiltinPreset(id))
            return Diagnostic{where + "/id",
                              "\"" + id + "\" is a built-in preset: give yours another id"};
        if (!seen.insert(id).second)
            return Diagnostic{where + "/id", "\"" + id + "\" is used twice"};
        return std::nullopt;
    };
    for (std::size_t i = 0; i < library.models.size(); ++i)
        if (auto problem = check(library.models[i].presetId, "/models/" + std::to_string(i)))
            return *problem;
    for (std::size_t i = 0; i < library.devices.size(); ++i)
        if (auto problem = check(library.devices[i].presetId, "/devices/" + std::to_string(i)))
            return *problem;
    for (std::size_t i = 0; i < library.links.size(); ++i)
        if (auto problem = check(library.links[i].presetId, "/links/" + std::to_string(i)))
            return *problem;

    return true;
}

Result<bool> setUserPresets(const PresetFile &library)
{
    if (auto valid = validateUserPresets(library); !valid)
        return valid;
    UserLayer layer;
    layer.library = library;
    layer.library.warnings.clear();
    const Registry &r = registry();
    // built-in models, devices, links, then the user's of each kind, then the scenarios
    auto builtIn = [&](std::string_view kind) {
        for (const PresetInfo &info : r.list)
            if (info.kind == kind)
                layer.combinedList.push_back(info);
    };
    builtIn("model");
    for (const ModelSpec &m : library.models) {
        layer.combinedList.push_back({m.presetId, "model", m.name});
        layer.modelObjects.emplace(m.presetId, modelObject(m));
    }
    builtIn("device");
    for (const DeviceSpec &d : library.devices) {
        layer.combinedList.push_back({d.presetId, "device", d.name});
        layer.deviceObjects.emplace(d.presetId, deviceObject(d));
    }
    builtIn("link");
    for (const LinkSpec &l : library.links)
        layer.combinedList.push_back({l.presetId, "link", l.name});
    builtIn("scenario");
    if (library.models.empty() && library.devices.empty() && library.links.empty())
        layer.combinedList.clear(); // back to the built-in list itself
    userLayer() = std::move(layer);
    return true;
}

Result<ModelSpec> modelPreset(std::string_view id)
{
    const auto &models = registry().models;
    auto it = models.find(id);
    if (it == models.end() && findUser(userLayer().library.models, id))
        return *findUser(userLayer().library.models, id);
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
    if (it == devices.end() && findUser(userLayer().library.devices, id))
        return *findUser(userLayer().library.devices, id);
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
    if (it == links.end() && findUser(userLayer().library.links, id))
        return *findUser(userLayer().library.links, id);
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
    if (it != objects.end())
        return &it->second;
    const auto &user = kind == "model" ? userLayer().modelObjects : userLayer().deviceObjects;
    auto mine = user.find(id);
    return mine == user.end() ? nullptr : &mine->second;
}

std::string knownPresetIds(std::string_view kind)
{
    std::string ids;
    for (const PresetInfo &info : presetList()) {
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
