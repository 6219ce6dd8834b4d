// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/data/jsonread.h"

#include "core/model/architecture.h"
#include "core/model/parameters.h"
#include "core/model/units.h"
#include "core/model/weightparts.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <set>
#include <vector>

namespace core::detail {

namespace {

std::string plainNumber(double value)
{
    if (!std::isfinite(value))
        return "a number that is not finite";
    if (std::fabs(value) >= 1e7 || (value != 0.0 && std::fabs(value) < 1e-3)) {
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%g", value);
        return buffer;
    }
    return formatNumber(value, 6);
}

std::string typeName(const json &value)
{
    switch (value.type()) {
    case json::value_t::null:
        return "null";
    case json::value_t::boolean:
        return "a boolean";
    case json::value_t::string:
        return "a string";
    case json::value_t::array:
        return "an array";
    case json::value_t::object:
        return "an object";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float:
        return "a number";
    default:
        return "an unsupported value";
    }
}

/** Tracks object keys and array positions during a parse, to name where a problem is. */
class StrictParseState
{
public:
    bool onEvent(int depth, json::parse_event_t event, json &parsed)
    {
        if (depth > kMaxNesting)
            fail("", "nesting is deeper than " + std::to_string(kMaxNesting) + " levels");
        switch (event) {
        case json::parse_event_t::object_start:
            advanceArray();
            m_frames.push_back(Frame{false, -1, {}, {}});
            break;
        case json::parse_event_t::array_start:
            advanceArray();
            m_frames.push_back(Frame{true, -1, {}, {}});
            break;
        case json::parse_event_t::object_end:
        case json::parse_event_t::array_end:
            if (!m_frames.empty())
                m_frames.pop_back();
            break;
        case json::parse_event_t::key: {
            Frame &frame = m_frames.back();
            frame.key = parsed.get<std::string>();
            if (!frame.keys.insert(frame.key).second)
                fail(containerPointer(), "duplicate key \"" + frame.key + "\"");
            break;
        }
        case json::parse_event_t::value:
            advanceArray();
            if (parsed.is_number_float() && !std::isfinite(parsed.get<double>()))
                fail(pointer(), "number is out of range (not finite)");
            break;
        }
        return true;
    }

    // Pointer of the value being read: every frame's current key or index.
    std::string pointer() const
    {
        std::string out;
        for (const Frame &frame : m_frames)
            out = frame.array ? out + "/" + std::to_string(std::max(0L, frame.index))
                              : childPointer(out, frame.key);
        return out;
    }

private:
    struct Frame
    {
        bool array;
        long index;
        std::string key;
        std::set<std::string> keys;
    };

    void advanceArray()
    {
        if (!m_frames.empty() && m_frames.back().array)
            ++m_frames.back().index;
    }

    // Pointer of the innermost container (for duplicate keys).
    std::string containerPointer() const
    {
        std::string out;
        for (std::size_t i = 0; i + 1 < m_frames.size(); ++i) {
            const Frame &frame = m_frames[i];
            out = frame.array ? out + "/" + std::to_string(std::max(0L, frame.index))
                              : childPointer(out, frame.key);
        }
        return out;
    }

    std::vector<Frame> m_frames;
};

std::string cleanParseMessage(const std::string &what)
{
    // "[json.exception.parse_error.101] parse error at line 1, column 2: ..." -> "parse error ..."
    auto bracket = what.find("] ");
    return bracket == std::string::npos ? what : what.substr(bracket + 2);
}

/** "between 1 and 1,024", "above 0 and at most 1": what a parameter accepts. */
std::string allowedRange(const ParameterInfo &info)
{
    const std::string unit = info.unit.empty() ? "" : " " + std::string(info.unit);
    // "above 0 and at most 1" for (0, 1]; "between 1 and 1,024" for a closed range
    if (info.minimumExclusive)
        return "above " + plainNumber(info.minimum) + " and at most " + plainNumber(info.maximum) +
               unit;
    return "between " + plainNumber(info.minimum) + " and " + plainNumber(info.maximum) + unit;
}

} // namespace

/** Control characters from a file (an ESC that recolours the terminal, a carriage return that
 *  overwrites the line) are shown escaped in a message, never sent to the terminal raw. */
std::string printable(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte == 0x7f) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", unsigned(byte));
            out += escaped;
        } else {
            out += c;
        }
    }
    return out;
}

void fail(const std::string &path, const std::string &message)
{
    throw ReadFailure{Diagnostic{printable(path), printable(message)}};
}

json parseStrict(std::string_view text)
{
    // JSON files are UTF-8; a UTF-16 or UTF-32 file (a byte-order mark, or NUL bytes between
    // ASCII characters) otherwise fails with a parse error about an invalid literal
    const bool wideBom = text.starts_with("\xFF\xFE") || text.starts_with("\xFE\xFF");
    const bool nulBytes = text.substr(0, 4).find('\0') != std::string_view::npos;
    if (wideBom || nulBytes)
        fail("", "the file is UTF-16 or UTF-32 text: save it as UTF-8, the encoding of JSON");
    StrictParseState state;
    try {
        json::parser_callback_t callback = [&state](int depth, json::parse_event_t event,
                                                    json &parsed) {
            return state.onEvent(depth, event, parsed);
        };
        return json::parse(text.begin(), text.end(), callback, true, false);
    } catch (const json::parse_error &error) {
        fail("", cleanParseMessage(error.what()));
    } catch (const json::out_of_range &error) {
        // The lexer refuses numbers beyond double's range before any callback sees them.
        fail(state.pointer(),
             "number is out of range (not finite): " + cleanParseMessage(error.what()));
    } catch (const json::exception &error) {
        fail("", cleanParseMessage(error.what()));
    }
}

std::string childPointer(const std::string &parent, std::string_view key)
{
    std::string escaped;
    escaped.reserve(key.size());
    for (char c : key) {
        if (c == '~')
            escaped += "~0";
        else if (c == '/')
            escaped += "~1";
        else
            escaped += c;
    }
    return parent + "/" + printable(escaped); // a key is printed in messages: no raw controls
}

FieldReader::FieldReader(const json &object, std::string pointer, std::string section,
                         Diagnostics &warnings, std::map<std::string, InputOrigin> *given)
    : m_object(object)
    , m_pointer(std::move(pointer))
    , m_section(std::move(section))
    , m_warnings(warnings)
    , m_given(given)
{
    if (!m_object.is_object())
        fail(m_pointer, "must be an object, not " + typeName(m_object));
}

bool FieldReader::has(std::string_view key) const
{
    return find(key) != nullptr;
}

const json *FieldReader::find(std::string_view key) const
{
    auto it = m_object.find(std::string(key));
    return it == m_object.end() ? nullptr : &*it;
}

void FieldReader::markGiven(std::string_view key)
{
    if (m_given)
        (*m_given)[m_section + "." + std::string(key)] = InputOrigin::File;
}

void FieldReader::number(std::string_view key, double &out)
{
    const json *value = find(key);
    if (!value)
        return;
    if (!value->is_number())
        fail(pointerOf(key), "must be a number, not " + typeName(*value));
    double number = value->get<double>();
    const std::string dotted = m_section + "." + std::string(key);
    if (const ParameterInfo *info = findParameter(dotted)) {
        std::string_view problem = rangeProblem(*info, number);
        if (!problem.empty()) {
            if (problem == "must be a whole number") // as written: 8.000000000000002, not "8"
                fail(pointerOf(key), std::string(info->name) + " must be a whole number (got " +
                                         value->dump().substr(0, 40) + ")");
            fail(pointerOf(key), std::string(info->name) + " must be " + allowedRange(*info) +
                                     " (got " + plainNumber(number) + ")");
        }
    }
    out = number;
    markGiven(key);
}

void FieldReader::boolean(std::string_view key, bool &out)
{
    const json *value = find(key);
    if (!value)
        return;
    if (!value->is_boolean())
        fail(pointerOf(key), "must be true or false, not " + typeName(*value));
    out = value->get<bool>();
    markGiven(key);
}

void FieldReader::string(std::string_view key, std::string &out)
{
    const json *value = find(key);
    if (!value)
        return;
    if (!value->is_string())
        fail(pointerOf(key), "must be a string, not " + typeName(*value));
    out = value->get<std::string>();
    if (out.size() > 4096)
        fail(pointerOf(key), "is longer than 4096 characters");
    markGiven(key);
}

void FieldReader::format(std::string_view key, NumericFormat &out, bool storage)
{
    std::string text;
    string(key, text);
    if (!has(key))
        return;
    auto parsed = parseFormat(text);
    if (!parsed)
        fail(pointerOf(key), "unknown format \"" + text.substr(0, 40) + "\" (one of fp32, " +
                                 (storage ? "" : "tf32, ") +
                                 "bf16, fp16, fp8, int8, int4, nvfp4, mxfp4)");
    if (storage && !isStorageFormat(*parsed))
        fail(pointerOf(key), "tf32 is a compute format only: it cannot store weights or KV");
    out = *parsed;
}

void FieldReader::formatList(std::string_view key, std::vector<NumericFormat> &out)
{
    const json *value = find(key);
    if (!value)
        return;
    if (!value->is_array())
        fail(pointerOf(key), "must be an array of format names, not " + typeName(*value));
    out.clear();
    std::size_t index = 0;
    for (const json &item : *value) {
        std::string where = pointerOf(key) + "/" + std::to_string(index++);
        if (!item.is_string())
            fail(where, "must be a format name, not " + typeName(item));
        auto parsed = parseFormat(item.get<std::string>());
        if (!parsed)
            fail(where, "unknown format \"" + item.get<std::string>().substr(0, 40) + "\"");
        if (std::find(out.begin(), out.end(), *parsed) == out.end())
            out.push_back(*parsed);
    }
    markGiven(key);
}

void FieldReader::stringMap(std::string_view key, std::map<std::string, std::string> &out)
{
    const json *value = find(key);
    if (!value)
        return;
    if (!value->is_object())
        fail(pointerOf(key), "must be an object of strings, not " + typeName(*value));
    out.clear();
    for (auto it = value->begin(); it != value->end(); ++it) {
        if (it.value().is_string()) {
            out[it.key()] = it.value().get<std::string>();
        } else if (it.value().is_array()) {
            std::string joined;
            for (const json &part : it.value()) {
                if (!part.is_string())
                    fail(childPointer(pointerOf(key), it.key()), "must hold strings only");
                joined += (joined.empty() ? "" : "; ") + part.get<std::string>();
            }
            out[it.key()] = joined;
        } else {
            fail(childPointer(pointerOf(key), it.key()),
                 "must be a string, not " + typeName(it.value()));
        }
    }
}

void FieldReader::numberMap(std::string_view key, std::map<std::string, double> &out)
{
    const json *value = find(key);
    if (!value)
        return;
    if (!value->is_object())
        fail(pointerOf(key), "must be an object of numbers, not " + typeName(*value));
    out.clear();
    for (auto it = value->begin(); it != value->end(); ++it) {
        if (!it.value().is_number())
            fail(childPointer(pointerOf(key), it.key()),
                 "must be a number, not " + typeName(it.value()));
        double number = it.value().get<double>();
        if (number < 0.0)
            fail(childPointer(pointerOf(key), it.key()), "must not be negative");
        out[it.key()] = number;
    }
    markGiven(key);
}

void FieldReader::numbers(Scenario &scenario, std::initializer_list<std::string_view> later)
{
    for (const ParameterInfo *info : sectionParameters(m_section)) {
        if (std::find(later.begin(), later.end(), info->key()) == later.end())
            number(info->key(), *info->field(scenario));
    }
}

void FieldReader::warnUnknownBesideNumbers(std::initializer_list<std::string_view> otherKeys)
{
    const auto rows = sectionParameters(m_section);
    for (auto it = m_object.begin(); it != m_object.end(); ++it) {
        const bool numeric = std::any_of(rows.begin(), rows.end(), [&](const ParameterInfo *info) {
            return info->key() == it.key();
        });
        if (!numeric && std::find(otherKeys.begin(), otherKeys.end(), it.key()) == otherKeys.end())
            m_warnings.push_back({pointerOf(it.key()), "unknown key, kept as is when saved"});
    }
}

void FieldReader::warnUnknown(std::initializer_list<std::string_view> known)
{
    for (auto it = m_object.begin(); it != m_object.end(); ++it) {
        if (std::find(known.begin(), known.end(), it.key()) == known.end())
            m_warnings.push_back({pointerOf(it.key()), "unknown key, kept as is when saved"});
    }
}

// ---------------------------------------------------------------------------------------------

std::string_view familyKey(DeviceFamily family)
{
    switch (family) {
    case DeviceFamily::Gpu:
        return "gpu";
    case DeviceFamily::Tpu:
        return "tpu";
    case DeviceFamily::Npu:
        return "npu";
    case DeviceFamily::Asic:
        return "asic";
    case DeviceFamily::Cpu:
        return "cpu";
    case DeviceFamily::Unknown:
        break;
    }
    return "";
}

std::string_view deploymentKey(Deployment deployment)
{
    switch (deployment) {
    case Deployment::Datacenter:
        return "datacenter";
    case Deployment::Edge:
        return "edge";
    case Deployment::Client:
        return "client";
    case Deployment::Unknown:
        break;
    }
    return "";
}

namespace {

/** One number of a layer group, checked against its own range (groups are not in the parameter
 *  table: they are a list, not one value per scenario). */
double groupNumber(const json &group, const std::string &pointer, const char *key, double minimum,
                   double maximum, bool integer, bool required, const std::string &why = {})
{
    auto it = group.find(key);
    if (it == group.end() || it->is_null()) {
        if (required)
            fail(childPointer(pointer, key),
                 "missing" + (why.empty() ? std::string() : ": " + why));
        return kUnset;
    }
    if (!it->is_number())
        fail(childPointer(pointer, key), "must be a number, not " + typeName(*it));
    const double value = it->get<double>();
    if (!(value >= minimum && value <= maximum) || (integer && std::floor(value) != value))
        fail(childPointer(pointer, key), std::string("must be ") +
                                             (integer ? "a whole number " : "") + "between " +
                                             plainNumber(minimum) + " and " + plainNumber(maximum) +
                                             " (got " + plainNumber(value) + ")");
    return value;
}

template <typename Kind>
Kind groupKind(const json &group, const std::string &pointer, const char *key, Kind fallback,
               std::initializer_list<std::pair<std::string_view, Kind>> kinds)
{
    auto it = group.find(key);
    if (it == group.end() || it->is_null())
        return fallback;
    std::string names;
    for (const auto &[name, kind] : kinds) {
        if (it->is_string() && it->get<std::string>() == name)
            return kind;
        names += (names.empty() ? "" : ", ") + std::string(name);
    }
    fail(childPointer(pointer, key),
         "must be one of " + names + " (got " + it->dump().substr(0, 40) + ")");
}

std::vector<LayerGroup> readLayerGroups(const json &list, const std::string &pointer,
                                        const ModelSpec &m, Diagnostics &warnings)
{
    if (!list.is_array() || list.empty() || list.size() > 64)
        fail(pointer, "must be a list of 1 to 64 layer groups");
    std::vector<LayerGroup> groups;
    double layers = 0;
    for (std::size_t index = 0; index < list.size(); ++index) {
        const json &item = list[index];
        const std::string at = pointer + "/" + std::to_string(index);
        if (!item.is_object())
            fail(at, "a layer group must be an object");
        for (auto it = item.begin(); it != item.end(); ++it) {
            static constexpr std::string_view kKeys[] = {"layers",
                                                         "attention",
                                                         "window",
                                                         "kv_heads",
                                                         "head_dim",
                                                         "latent_dim",
                                                         "top_k",
                                                         "index_dim",
                                                         "state_bytes",
                                                         "mlp",
                                                         "intermediate_size",
                                                         "experts",
                                                         "experts_per_token",
                                                         "shared_experts",
                                                         "expert_intermediate_size",
                                                         "note"};
            if (std::find(std::begin(kKeys), std::end(kKeys), it.key()) == std::end(kKeys))
                warnings.push_back({childPointer(at, it.key()), "unknown key, ignored"});
        }
        LayerGroup g;
        g.layers = groupNumber(item, at, "layers", 1, 4096, true, true, "how many layers");
        g.attention = groupKind(item, at, "attention", AttentionKind::Full,
                                {{"full", AttentionKind::Full},
                                 {"sliding", AttentionKind::Sliding},
                                 {"chunked", AttentionKind::Chunked},
                                 {"latent", AttentionKind::Latent},
                                 {"linear", AttentionKind::Linear},
                                 {"shared", AttentionKind::Shared},
                                 {"none", AttentionKind::None}});
        const bool windowed =
            g.attention == AttentionKind::Sliding || g.attention == AttentionKind::Chunked;
        g.window = groupNumber(item, at, "window", 1, 1e8, true, windowed,
                               "a sliding or chunked group needs its window in tokens");
        g.kvHeads = groupNumber(item, at, "kv_heads", 1, 4096, true, false);
        g.headDim = groupNumber(item, at, "head_dim", 1, 1024, true, false);
        g.latentDim =
            groupNumber(item, at, "latent_dim", 1, 1e6, true, g.attention == AttentionKind::Latent,
                        "a latent group needs the elements it caches per token");
        // sparse attention (DSA): the latents each token attends to, and the indexer's key
        // within latent_dim that is read for every token
        g.topK = groupNumber(item, at, "top_k", 1, 1e8, true, false);
        g.indexDim = groupNumber(item, at, "index_dim", 1, 1e6, true, false);
        if ((isSet(g.topK) || isSet(g.indexDim)) && g.attention != AttentionKind::Latent)
            fail(childPointer(at, isSet(g.topK) ? "top_k" : "index_dim"),
                 "sparse attention's top_k and index_dim belong to a latent group");
        if (isSet(g.indexDim) && !isSet(g.topK))
            fail(childPointer(at, "index_dim"),
                 "an indexer's key is read to pick the top_k latents: give top_k with it");
        if (isSet(g.indexDim) && !(g.indexDim < g.latentDim))
            fail(childPointer(at, "index_dim"),
                 "the indexer's key is part of latent_dim and must be smaller than it");
        g.stateBytes = groupNumber(item, at, "state_bytes", 0, 1e12, false,
                                   g.attention == AttentionKind::Linear,
                                   "a linear-attention group needs its fixed state per layer");
        if (isSet(g.kvHeads) && isSet(m.attentionHeads) && g.kvHeads > m.attentionHeads)
            fail(childPointer(at, "kv_heads"), "more KV heads than the model's attention heads");
        g.mlp =
            groupKind(item, at, "mlp", MlpKind::Dense,
                      {{"dense", MlpKind::Dense}, {"moe", MlpKind::Moe}, {"none", MlpKind::None}});
        g.intermediateSize = groupNumber(item, at, "intermediate_size", 1, 1e7, true, false);
        const bool moe = g.mlp == MlpKind::Moe;
        g.experts = groupNumber(item, at, "experts", 1, 1e5, true, moe,
                                "an MoE group needs its routed experts");
        g.expertsPerToken = groupNumber(item, at, "experts_per_token", 1, 1e5, true, moe,
                                        "an MoE group needs its experts per token");
        g.sharedExperts = groupNumber(item, at, "shared_experts", 0, 1e5, true, false);
        g.expertIntermediateSize =
            groupNumber(item, at, "expert_intermediate_size", 1, 1e7, true, false);
        if (isSet(g.expertsPerToken) && isSet(g.experts) && g.expertsPerToken > g.experts)
            fail(childPointer(at, "experts_per_token"), "more experts per token than experts");
        layers += g.layers;
        groups.push_back(g);
    }
    if (isSet(m.layers) && layers != m.layers)
        fail(pointer, "the groups hold " + plainNumber(layers) + " layers but the model has " +
                          plainNumber(m.layers));
    return groups;
}

json layerGroupsToJson(const std::vector<LayerGroup> &groups)
{
    json out = json::array();
    for (const LayerGroup &g : groups) {
        json item = json::object();
        item["layers"] = numberJson(g.layers);
        item["attention"] = std::string(attentionKindKey(g.attention));
        item["mlp"] = std::string(mlpKindKey(g.mlp));
        const std::pair<const char *, double> numbers[] = {
            {"window", g.window},
            {"kv_heads", g.kvHeads},
            {"head_dim", g.headDim},
            {"latent_dim", g.latentDim},
            {"top_k", g.topK},
            {"index_dim", g.indexDim},
            {"state_bytes", g.stateBytes},
            {"intermediate_size", g.intermediateSize},
            {"experts", g.experts},
            {"experts_per_token", g.expertsPerToken},
            {"shared_experts", g.sharedExperts},
            {"expert_intermediate_size", g.expertIntermediateSize}};
        for (const auto &[key, value] : numbers) {
            if (isSet(value))
                item[key] = numberJson(value);
        }
        out.push_back(item);
    }
    return out;
}

/** A model's parameters by weight part, as an import counted them: {"embeddings": 1.16e9,
 *  "attention": ..., "mlp": ..., "experts": ..., "other": ...}, all five, summing to the
 *  model's parameters within 0.1 %. */
void readWeightParts(const json &object, const std::string &pointer, ModelSpec &m,
                     Diagnostics &warnings)
{
    if (!object.is_object())
        fail(pointer, "must be an object of parameters by part (embeddings, attention, mlp, "
                      "experts, other)");
    double sum = 0.0;
    for (auto it = object.begin(); it != object.end(); ++it) {
        const auto part = parseWeightPart(it.key());
        if (!part)
            fail(childPointer(pointer, it.key()),
                 "unknown weight part (one of embeddings, attention, mlp, experts, other)");
        if (!it->is_number() || !(it->get<double>() >= 0.0) || !std::isfinite(it->get<double>()))
            fail(childPointer(pointer, it.key()), "must be a number of parameters, 0 or more");
        m.partParameters[index(*part)] = it->get<double>();
        sum += it->get<double>();
    }
    for (WeightPart part : kWeightParts)
        if (!isSet(m.partParameters[index(part)]))
            fail(pointer, "gives no \"" + std::string(weightPartKey(part)) +
                              "\": the parts are given all five or not at all");
    if (isSet(m.parameters) && std::fabs(sum - m.parameters) > 1e-3 * m.parameters) {
        // a what-if on the parameters (--set model.parameters) keeps the import's split
        if (!(sum > 0.0))
            fail(pointer, "the parts hold no parameters");
        warnings.push_back(
            {pointer, "the parts sum to " + formatNumber(sum, 6) + " parameters, not the model's " +
                          formatNumber(m.parameters, 6) + ": each is scaled to the model's count"});
        for (double &part : m.partParameters)
            part *= m.parameters / sum;
    }
}

} // namespace

ModelSpec readModelObject(const json &object, const std::string &pointer, Diagnostics &warnings,
                          std::map<std::string, InputOrigin> *given)
{
    FieldReader r(object, pointer, "model", warnings, given);
    r.warnUnknownBesideNumbers(
        {"id", "name", "tie_embeddings", "sources", "notes", "layer_groups", "weight_parts"});
    Scenario holder; // the parameter table's accessors address a whole scenario
    ModelSpec &m = holder.model;
    r.string("id", m.presetId);
    m.presetId.clear(); // an inline object is not a preset reference, even if it carries an id
    r.string("name", m.name);
    r.numbers(holder);
    r.boolean("tie_embeddings", m.tieEmbeddings);
    r.stringMap("sources", m.sources);
    r.stringMap("notes", m.notes);

    // An inline model is never completed from the lesson's values: say what is missing.
    if (!isSet(m.parameters))
        fail(pointer, "an inline model needs \"parameters\" (the total parameter count)");
    if (!isSet(m.layers))
        fail(pointer, "an inline model needs \"layers\"");
    if (!isSet(m.kvHeads))
        fail(pointer, "an inline model needs \"kv_heads\" (key/value heads per layer)");
    if (!isSet(m.headDim)) {
        if (!isSet(m.hiddenSize) || !isSet(m.attentionHeads))
            fail(pointer, "an inline model needs \"head_dim\", or \"hidden_size\" with "
                          "\"attention_heads\"");
        m.headDim = m.hiddenSize / m.attentionHeads;
        if (std::floor(m.headDim) != m.headDim)
            fail(r.pointerOf("hidden_size"),
                 "hidden_size is not a multiple of attention_heads: give \"head_dim\" explicitly");
        // the derived value obeys the same range as a given one, or the saved file (which
        // writes head_dim out) would not read back
        if (const ParameterInfo *info = findParameter("model.head_dim");
            info && !rangeProblem(*info, m.headDim).empty())
            fail(r.pointerOf("hidden_size"),
                 "hidden_size / attention_heads gives a head dimension of " +
                     plainNumber(m.headDim) + "; it must be " + allowedRange(*info) +
                     ": give \"head_dim\" explicitly or correct the sizes");
    }
    if (isSet(m.attentionHeads) && m.kvHeads > m.attentionHeads)
        fail(r.pointerOf("kv_heads"), "kv_heads (" + plainNumber(m.kvHeads) +
                                          ") must not exceed attention_heads (" +
                                          plainNumber(m.attentionHeads) + ")");
    if (isSet(m.activeParameters) && m.activeParameters > m.parameters)
        fail(r.pointerOf("active_parameters"), "active_parameters must not exceed parameters");
    if (isSet(m.slidingWindowLayers) &&
        (!isSet(m.slidingWindow) || m.slidingWindowLayers > m.layers))
        fail(r.pointerOf("sliding_window_layers"),
             "sliding_window_layers needs sliding_window and must not exceed layers");
    if (isSet(m.expertsPerToken) && (!isSet(m.experts) || m.expertsPerToken > m.experts))
        fail(r.pointerOf("experts_per_token"), "experts_per_token needs experts and must not "
                                               "exceed it");
    if (const json *groups = r.find("layer_groups")) {
        if (isSet(m.slidingWindow) || isSet(m.kvLatentDim))
            fail(r.pointerOf("layer_groups"),
                 "give the window or the MLA latent in the layer groups, not also as the "
                 "model's sliding_window or kv_latent_dim");
        m.layerGroups = readLayerGroups(*groups, r.pointerOf("layer_groups"), m, warnings);
    }
    if (const json *parts = r.find("weight_parts"))
        readWeightParts(*parts, r.pointerOf("weight_parts"), m, warnings);
    return m;
}

namespace {

/** A device's measured ceilings: {"tflops": {"bf16": 794.5}, "bandwidth_gb_s": 2970,
 *  "allreduce_busbw_gb_s": 479}, each a positive number. */
void readMeasuredCeilings(const json &object, const std::string &pointer, DeviceSpec &d,
                          Diagnostics &warnings, std::map<std::string, InputOrigin> *given)
{
    FieldReader r(object, pointer, "device.measured", warnings, given);
    r.warnUnknown({"tflops", "bandwidth_gb_s", "allreduce_busbw_gb_s"});
    auto positive = [&](const FieldReader &reader, std::string_view key, double value) {
        if (isSet(value) && !(value > 0.0 && std::isfinite(value)))
            fail(reader.pointerOf(key), "a measured ceiling must be a positive number");
    };
    r.number("bandwidth_gb_s", d.measuredBandwidthGbPerSecond);
    positive(r, "bandwidth_gb_s", d.measuredBandwidthGbPerSecond);
    r.number("allreduce_busbw_gb_s", d.measuredAllReduceBusGbPerSecond);
    positive(r, "allreduce_busbw_gb_s", d.measuredAllReduceBusGbPerSecond);
    if (const json *tflops = r.find("tflops")) {
        FieldReader tr(*tflops, r.pointerOf("tflops"), "device.measured.tflops", warnings, given);
        tr.warnUnknown({"fp32", "tf32", "bf16", "fp16", "fp8", "int8", "int4", "nvfp4", "mxfp4"});
        for (NumericFormat f : kAllFormats) {
            double &value = d.measuredTflops[static_cast<std::size_t>(f)];
            tr.number(formatKey(f), value);
            positive(tr, formatKey(f), value);
        }
    }
}

} // namespace

DeviceSpec readDeviceObject(const json &object, const std::string &pointer, Diagnostics &warnings,
                            std::map<std::string, InputOrigin> *given)
{
    FieldReader r(object, pointer, "device", warnings, given);
    r.warnUnknownBesideNumbers({"id", "name", "family", "deployment", "peak_tflops",
                                "native_formats", "weight_only_formats", "measured", "sources",
                                "notes"});
    Scenario holder; // the parameter table's accessors address a whole scenario
    DeviceSpec &d = holder.device;
    r.string("name", d.name);
    std::string family;
    r.string("family", family);
    if (r.has("family")) {
        static const std::pair<std::string_view, DeviceFamily> families[] = {
            {"gpu", DeviceFamily::Gpu},
            {"tpu", DeviceFamily::Tpu},
            {"npu", DeviceFamily::Npu},
            {"asic", DeviceFamily::Asic},
            {"cpu", DeviceFamily::Cpu}};
        auto it = std::find_if(std::begin(families), std::end(families),
                               [&](const auto &entry) { return entry.first == family; });
        if (it == std::end(families))
            fail(r.pointerOf("family"), "unknown family \"" + family.substr(0, 40) +
                                            "\" (one of gpu, tpu, npu, asic, cpu)");
        d.family = it->second;
    }
    std::string deployment;
    r.string("deployment", deployment);
    if (r.has("deployment")) {
        if (deployment == "datacenter")
            d.deployment = Deployment::Datacenter;
        else if (deployment == "edge")
            d.deployment = Deployment::Edge;
        else if (deployment == "client")
            d.deployment = Deployment::Client;
        else
            fail(r.pointerOf("deployment"), "unknown deployment \"" + deployment.substr(0, 40) +
                                                "\" (one of datacenter, edge, client)");
    }
    r.numbers(holder);
    if (const json *peaks = r.find("peak_tflops")) {
        FieldReader pr(*peaks, r.pointerOf("peak_tflops"), "device.peak_tflops", warnings, given);
        pr.warnUnknown({"fp32", "tf32", "bf16", "fp16", "fp8", "int8", "int4", "nvfp4", "mxfp4"});
        for (NumericFormat f : kAllFormats)
            pr.number(formatKey(f), d.peakTflops[static_cast<std::size_t>(f)]);
    }
    if (const json *measured = r.find("measured"))
        readMeasuredCeilings(*measured, r.pointerOf("measured"), d, warnings, given);
    if (r.has("native_formats")) {
        d.nativeFormats.emplace();
        r.formatList("native_formats", *d.nativeFormats);
    }
    if (r.has("weight_only_formats")) {
        d.weightOnlyFormats.emplace();
        r.formatList("weight_only_formats", *d.weightOnlyFormats);
    }
    r.stringMap("sources", d.sources);
    r.stringMap("notes", d.notes);

    if (!isSet(d.memoryGb))
        fail(pointer, "an inline device needs \"memory_gb\" (device memory in decimal GB)");
    if (!isSet(d.bandwidthGbPerSecond))
        fail(pointer, "an inline device needs \"bandwidth_gb_s\" (memory bandwidth in GB/s)");
    bool anyPeak =
        std::any_of(d.peakTflops.begin(), d.peakTflops.end(), [](double v) { return isSet(v); });
    if (!anyPeak)
        fail(pointer, "an inline device needs at least one \"peak_tflops\" entry (dense "
                      "TFLOP/s, e.g. {\"bf16\": 200})");
    if (isSet(d.usableMemoryGb) && d.usableMemoryGb > d.memoryGb)
        fail(r.pointerOf("usable_memory_gb"), "usable_memory_gb must not exceed memory_gb");
    return d;
}

// Whole numbers are written as integers ("layers": 32, not 32.0), so a printed model or
// device reads like the preset files and pastes cleanly; the value is the same double.
json numberJson(double value)
{
    constexpr double kExactIntegers = 9007199254740992.0; // 2^53
    if (std::isfinite(value) && std::trunc(value) == value && std::fabs(value) < kExactIntegers)
        return static_cast<std::int64_t>(value);
    return value;
}

void putNumbers(json &out, const Scenario &scenario, std::string_view section)
{
    for (const ParameterInfo *info : sectionParameters(section)) {
        const std::string key(info->key());
        const double value = *info->field(const_cast<Scenario &>(scenario)); // read only
        if (isSet(value))
            out[key] = numberJson(value);
        else
            out.erase(key);
    }
}

namespace {

json stringMapToJson(const std::map<std::string, std::string> &map)
{
    json out = json::object();
    for (const auto &[key, value] : map)
        out[key] = value;
    return out;
}

json formatsToJson(const std::vector<NumericFormat> &formats)
{
    json out = json::array();
    for (NumericFormat f : formats)
        out.push_back(std::string(formatKey(f)));
    return out;
}

} // namespace

json modelToJson(const ModelSpec &m)
{
    json out = json::object();
    if (!m.name.empty())
        out["name"] = m.name;
    Scenario holder;
    holder.model = m;
    putNumbers(out, holder, "model");
    if (m.tieEmbeddings)
        out["tie_embeddings"] = true;
    if (!m.layerGroups.empty())
        out["layer_groups"] = layerGroupsToJson(m.layerGroups);
    if (std::all_of(m.partParameters.begin(), m.partParameters.end(),
                    [](double p) { return isSet(p); })) {
        json parts = json::object();
        for (WeightPart part : kWeightParts)
            parts[std::string(weightPartKey(part))] = numberJson(m.partParameters[index(part)]);
        out["weight_parts"] = parts;
    }
    if (!m.sources.empty())
        out["sources"] = stringMapToJson(m.sources);
    if (!m.notes.empty())
        out["notes"] = stringMapToJson(m.notes);
    return out;
}

json deviceToJson(const DeviceSpec &d)
{
    json out = json::object();
    if (!d.name.empty())
        out["name"] = d.name;
    if (d.family != DeviceFamily::Unknown)
        out["family"] = std::string(familyKey(d.family));
    if (d.deployment != Deployment::Unknown)
        out["deployment"] = std::string(deploymentKey(d.deployment));
    Scenario holder;
    holder.device = d;
    putNumbers(out, holder, "device");
    json peaks = json::object();
    for (NumericFormat f : kAllFormats) {
        if (isSet(d.peak(f)))
            peaks[std::string(formatKey(f))] = numberJson(d.peak(f));
    }
    out["peak_tflops"] = peaks;
    json measured = json::object();
    json measuredTflops = json::object();
    for (NumericFormat f : kAllFormats) {
        if (isSet(d.measuredPeak(f)))
            measuredTflops[std::string(formatKey(f))] = numberJson(d.measuredPeak(f));
    }
    if (!measuredTflops.empty())
        measured["tflops"] = measuredTflops;
    if (isSet(d.measuredBandwidthGbPerSecond))
        measured["bandwidth_gb_s"] = numberJson(d.measuredBandwidthGbPerSecond);
    if (isSet(d.measuredAllReduceBusGbPerSecond))
        measured["allreduce_busbw_gb_s"] = numberJson(d.measuredAllReduceBusGbPerSecond);
    if (!measured.empty())
        out["measured"] = measured;
    if (d.nativeFormats)
        out["native_formats"] = formatsToJson(*d.nativeFormats);
    if (d.weightOnlyFormats)
        out["weight_only_formats"] = formatsToJson(*d.weightOnlyFormats);
    if (!d.sources.empty())
        out["sources"] = stringMapToJson(d.sources);
    if (!d.notes.empty())
        out["notes"] = stringMapToJson(d.notes);
    return out;
}

} // namespace core::detail
