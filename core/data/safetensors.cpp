// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/data/safetensors.h"

#include "core/data/jsonread.h"

#include "core/model/units.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <utility>

namespace core {

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

/// 2^53: beyond it a double no longer counts elements exactly
constexpr double kMaxElements = 9007199254740992.0;

struct DtypeBits
{
    std::string_view name;
    double bits;
};
constexpr std::array<DtypeBits, 20> kDtypes = {{
    {"BOOL", 8},    {"U8", 8},   {"I8", 8},      {"F8_E4M3", 8}, {"F8_E5M2", 8},
    {"F8_E8M0", 8}, {"I16", 16}, {"U16", 16},    {"F16", 16},    {"BF16", 16},
    {"I32", 32},    {"U32", 32}, {"F32", 32},    {"F64", 64},    {"I64", 64},
    {"U64", 64},    {"F4", 4},   {"F6_E2M3", 6}, {"F6_E3M2", 6}, {"C64", 64},
}};

Result<SafetensorsHeader> fail(const std::string &where, const std::string &message)
{
    return Result<SafetensorsHeader>::failure(where, message);
}

/** `name`'s first `bytes` bytes or fewer, cut on a UTF-8 character boundary. */
std::string_view cutAtCharacter(std::string_view name, std::size_t bytes)
{
    std::size_t end = std::min(name.size(), bytes);
    while (end > 0 && end < name.size() && (static_cast<unsigned char>(name[end]) & 0xC0) == 0x80)
        --end; // not inside a UTF-8 sequence
    return name.substr(0, end);
}

/** A name from a file fit for a message: cut short, control characters escaped. */
std::string printable(const std::string &name, std::size_t bytes = 120)
{
    return detail::printable(cutAtCharacter(name, bytes));
}

std::string tensorPointer(const std::string &name)
{
    return detail::childPointer("", cutAtCharacter(name, 120));
}

/** The deepest nesting of arrays and objects in JSON text, outside strings: a header is three
 *  deep and an index two; deeper text is refused before a parser builds it (a 99 MB header of
 *  '[' took 7 GB). */
int nestingDepth(std::string_view text)
{
    int depth = 0, deepest = 0;
    bool inString = false, escaped = false;
    for (char c : text) {
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return deepest;
}

/** JSON whose top-level keys are all different (the format's readers keep one of two alike,
 *  silently); `duplicate` names the first repeated one. */
json parseUniqueKeys(std::string_view text, std::string &duplicate)
{
    std::set<std::string> keys;
    return json::parse(
        text,
        [&](int depth, json::parse_event_t event, json &parsed) {
            if (depth == 1 && event == json::parse_event_t::key && duplicate.empty() &&
                !keys.insert(parsed.get<std::string>()).second)
                duplicate = parsed.get<std::string>();
            return true;
        },
        false);
}

bool endsWithAny(std::string_view name, std::initializer_list<std::string_view> suffixes)
{
    return std::any_of(suffixes.begin(), suffixes.end(),
                       [name](std::string_view s) { return name.ends_with(s); });
}

bool containsAny(std::string_view name, std::initializer_list<std::string_view> parts)
{
    return std::any_of(parts.begin(), parts.end(), [name](std::string_view p) {
        return name.find(p) != std::string_view::npos;
    });
}

/** The layer index in "model.layers.12.mlp..." (the first "layers.<n>."), or -1. */
double layerIndex(std::string_view name)
{
    for (std::size_t at = name.find("layers."); at != std::string_view::npos;
         at = name.find("layers.", at + 1)) {
        if (at > 0 && name[at - 1] != '.')
            continue;
        std::size_t i = at + 7;
        double index = 0;
        std::size_t digits = 0;
        while (i < name.size() && name[i] >= '0' && name[i] <= '9' && digits < 9) {
            index = index * 10 + (name[i] - '0');
            ++i;
            ++digits;
        }
        if (digits > 0 && i < name.size() && name[i] == '.')
            return index;
    }
    return -1;
}

std::string readAtMost(const fs::path &path, std::uintmax_t limit, std::string &error)
{
    std::error_code code;
    const std::uintmax_t size = fs::file_size(path, code);
    if (code) {
        error = "cannot be read: " + code.message();
        return {};
    }
    if (size > limit) {
        error = "is " + std::to_string(size) + " bytes: more than the " + std::to_string(limit) +
                " this reader takes";
        return {};
    }
    std::ifstream in(path, std::ios::binary);
    std::string text(static_cast<std::size_t>(size), '\0');
    if (!in || !in.read(text.data(), static_cast<std::streamsize>(size))) {
        error = "cannot be read";
        return {};
    }
    return text;
}

} // namespace

double safetensorsDtypeBits(std::string_view dtype)
{
    for (const DtypeBits &d : kDtypes)
        if (d.name == dtype)
            return d.bits;
    return 0.0;
}

Result<SafetensorsHeader> parseSafetensorsHeader(std::string_view prefix, std::uint64_t fileSize)
{
    if (fileSize < 8 || prefix.size() < 8)
        return fail("", "the file is " + std::to_string(fileSize) +
                            " bytes: a safetensors file starts with an 8-byte header length");
    std::uint64_t length = 0;
    for (int i = 7; i >= 0; --i)
        length = (length << 8) | static_cast<unsigned char>(prefix[static_cast<std::size_t>(i)]);
    if (length > kSafetensorsHeaderLimit)
        return fail("",
                    "the header claims " + std::to_string(length) +
                        " bytes: more than the format's 100 MB limit (not a safetensors file?)");
    if (length > fileSize - 8)
        return fail("", "the header claims " + std::to_string(length) + " bytes, the file holds " +
                            std::to_string(fileSize - 8) + " after its length: it is cut short");
    if (prefix.size() < 8 + length)
        return fail("", "the file ends inside its header (" + std::to_string(prefix.size() - 8) +
                            " of " + std::to_string(length) + " bytes)");
    SafetensorsHeader header;
    header.headerBytes = length;
    header.dataBytes = fileSize - 8 - length;
    std::string_view text = prefix.substr(8, length);
    // as the format's own reader: the JSON starts the header, spaces may pad its end
    while (!text.empty() && text.back() == ' ')
        text.remove_suffix(1);
    if (text.empty() || text.front() != '{' || text.back() != '}')
        return fail("", "the header must be one JSON object, from its first byte (padded with "
                        "spaces only)");
    if (nestingDepth(text) > 3)
        return fail("", "the header nests deeper than a tensor's shape: not a safetensors header");
    std::string duplicate;
    const json doc = parseUniqueKeys(text, duplicate);
    if (doc.is_discarded())
        return fail("", "the header is not JSON");
    if (!duplicate.empty())
        return fail(tensorPointer(duplicate), "named twice in the header");
    if (!doc.is_object())
        return fail("", "the header must be a JSON object of tensors");
    for (auto it = doc.begin(); it != doc.end(); ++it) {
        const std::string &name = it.key();
        const std::string where = tensorPointer(name);
        const json &entry = it.value();
        if (name == "__metadata__") {
            if (!entry.is_object())
                return fail(where, "must be an object of strings");
            for (auto m = entry.begin(); m != entry.end(); ++m) {
                if (!m.value().is_string())
                    return fail(where + "/" + printable(m.key(), 60), "must be a string");
                header.metadata[m.key()] = m.value().get<std::string>();
            }
            continue;
        }
        if (!entry.is_object())
            return fail(where, "a tensor is an object with dtype, shape and data_offsets");
        SafetensorsTensor t;
        t.name = name;
        if (!entry.contains("dtype") || !entry["dtype"].is_string())
            return fail(where + "/dtype", "missing or not a string");
        t.dtype = entry["dtype"].get<std::string>();
        const double bits = safetensorsDtypeBits(t.dtype);
        if (bits == 0.0)
            return fail(where + "/dtype",
                        "\"" + printable(t.dtype, 20) + "\" is not a dtype this reader knows");
        if (!entry.contains("shape") || !entry["shape"].is_array())
            return fail(where + "/shape", "missing or not an array");
        if (entry["shape"].size() > 16)
            return fail(where + "/shape", "more than 16 dimensions");
        t.elements = 1.0;
        for (std::size_t i = 0; i < entry["shape"].size(); ++i) {
            const json &dim = entry["shape"][i];
            if (!dim.is_number_unsigned())
                return fail(where + "/shape/" + std::to_string(i),
                            "must be a whole number, 0 or more");
            const double value = static_cast<double>(dim.get<std::uint64_t>());
            t.shape.push_back(value);
            t.elements *= value;
            if (t.elements > kMaxElements)
                return fail(where + "/shape",
                            "more than 2^53 elements: no real tensor is that large");
        }
        const json &offsets = entry.contains("data_offsets") ? entry["data_offsets"] : json();
        if (!offsets.is_array() || offsets.size() != 2 || !offsets[0].is_number_unsigned() ||
            !offsets[1].is_number_unsigned())
            return fail(where + "/data_offsets", "must be [begin, end], two whole numbers");
        t.begin = offsets[0].get<std::uint64_t>();
        t.end = offsets[1].get<std::uint64_t>();
        if (t.end < t.begin)
            return fail(where + "/data_offsets", "ends before it begins");
        if (t.end > header.dataBytes)
            return fail(where + "/data_offsets",
                        "ends at byte " + std::to_string(t.end) + " of the data, which holds " +
                            std::to_string(header.dataBytes) + ": beyond the file");
        t.bytes = static_cast<double>(t.end - t.begin);
        const double expected = std::ceil(t.elements * bits / 8.0);
        if (t.bytes != expected)
            return fail(where + "/data_offsets",
                        "holds " + std::to_string(t.end - t.begin) + " bytes where " +
                            formatNumber(t.elements, 15) + " " + t.dtype + " elements take " +
                            formatNumber(expected, 15));
        header.tensors.push_back(std::move(t));
    }
    std::vector<const SafetensorsTensor *> byOffset;
    for (const SafetensorsTensor &t : header.tensors)
        if (t.end > t.begin)
            byOffset.push_back(&t);
    std::sort(
        byOffset.begin(), byOffset.end(),
        [](const SafetensorsTensor *a, const SafetensorsTensor *b) { return a->begin < b->begin; });
    std::uint64_t covered = 0;
    for (std::size_t i = 0; i < byOffset.size(); ++i) {
        if (i > 0 && byOffset[i]->begin < byOffset[i - 1]->end)
            return fail(tensorPointer(byOffset[i]->name) + "/data_offsets",
                        "overlaps \"" + printable(byOffset[i - 1]->name, 80) + "\"");
        covered += byOffset[i]->end - byOffset[i]->begin;
    }
    // the format's reader refuses data no tensor claims (a tiny tensor in a 16 GB file)
    if (covered != header.dataBytes)
        return fail("", std::to_string(header.dataBytes - covered) + " of the " +
                            std::to_string(header.dataBytes) +
                            " data bytes belong to no tensor: the header does not describe the "
                            "file");
    return header;
}

Result<SafetensorsHeader> readSafetensorsFile(const std::string &path)
{
    std::error_code code;
    const std::uintmax_t size = fs::file_size(fs::path(path), code);
    if (code)
        return fail("", "cannot be read: " + code.message());
    std::ifstream in(fs::path(path), std::ios::binary);
    std::string prefix(8, '\0');
    if (!in || !in.read(prefix.data(), 8))
        return parseSafetensorsHeader(std::string_view(), size);
    std::uint64_t length = 0;
    for (int i = 7; i >= 0; --i)
        length = (length << 8) | static_cast<unsigned char>(prefix[static_cast<std::size_t>(i)]);
    if (length <= kSafetensorsHeaderLimit && length <= size - 8) {
        prefix.resize(8 + length);
        if (!in.read(prefix.data() + 8, static_cast<std::streamsize>(length)))
            return fail("", "cannot be read past its first 8 bytes");
    }
    return parseSafetensorsHeader(prefix, size);
}

CheckpointWeights countCheckpointWeights(const std::vector<SafetensorsHeader> &shards,
                                         double quantBits, double hiddenLayers)
{
    CheckpointWeights w;
    w.shards = static_cast<double>(shards.size());
    std::set<std::string> names;
    for (const SafetensorsHeader &shard : shards)
        for (const SafetensorsTensor &t : shard.tensors)
            names.insert(t.name);
    double packedTensors = 0, gptqTensors = 0, byteTensors = 0, towers = 0, extra = 0;
    std::set<std::string> seen;
    for (const SafetensorsHeader &shard : shards) {
        for (const SafetensorsTensor &t : shard.tensors) {
            if (!seen.insert(t.name).second)
                continue; // the same tensor in two shards counts once
            w.tensors += 1;
            w.bytes += t.bytes;
            w.bytesByDtype[t.dtype] += t.bytes;
            // scales, zero points, indices and shapes: quantisation's bookkeeping, no parameters
            // (GPTQ/AWQ, FP8 block, NVFP4, compressed-tensors' weight_shape, bitsandbytes' state)
            if (endsWithAny(t.name, {"_scales",
                                     ".scales",
                                     "weight_scale",
                                     "weight_scale_inv",
                                     "weight_scale_2",
                                     "input_scale",
                                     "k_scale",
                                     "v_scale",
                                     "qzeros",
                                     "g_idx",
                                     ".zeros",
                                     "_zeros",
                                     "scale_inv",
                                     "weight_shape",
                                     "global_scale",
                                     "zero_point",
                                     ".absmax",
                                     ".quant_map",
                                     ".nested_absmax",
                                     ".nested_quant_map",
                                     ".SCB",
                                     "weight_format",
                                     "bitsandbytes__nf4",
                                     "bitsandbytes__fp4"})) {
                w.scaleBytes += t.bytes;
                continue;
            }
            double parameters = t.elements;
            const bool bitsandbytes4 = names.contains(t.name + ".absmax") ||
                                       names.contains(t.name + ".quant_state.bitsandbytes__nf4") ||
                                       names.contains(t.name + ".quant_state.bitsandbytes__fp4");
            if (t.dtype == "U8" && (t.name.ends_with("_blocks") || t.name.ends_with("_packed") ||
                                    names.contains(t.name + "_scale") || bitsandbytes4)) {
                // MXFP4 blocks, NVFP4 weights, compressed-tensors' nvfp4 packing, bitsandbytes'
                // NF4: two 4-bit values a byte
                parameters *= 2.0;
                packedTensors += 1;
            } else if (t.dtype == "I32" &&
                       (t.name.ends_with("qweight") || t.name.ends_with("_packed"))) {
                parameters *= 32.0 / quantBits; // GPTQ/AWQ, compressed-tensors: 32 / bits a word
                gptqTensors += 1;
            } else if (t.dtype == "U8") {
                byteTensors += 1;
            }
            if (containsAny(t.name, {"visual.", "vision_tower", "vision_model", "vision_embed",
                                     "multi_modal_projector", "mm_projector", "audio_tower",
                                     "audio_model", "image_newline"})) {
                w.otherTowerParameters += parameters;
                towers += 1;
                continue;
            }
            // multi-token prediction: layers past the model's (DeepSeek, GLM), or named so
            // (Qwen3-Next's mtp.layers, MiMo's mtp_layers)
            if ((hiddenLayers > 0 && layerIndex(t.name) >= hiddenLayers) ||
                t.name.starts_with("mtp.") || containsAny(t.name, {".mtp.", "mtp_layers"})) {
                w.extraLayerParameters += parameters;
                extra += 1;
                continue;
            }
            w.parameters += parameters;
            w.parametersByDtype[t.dtype] += parameters;
        }
    }
    auto note = [&w](std::string path, std::string message) {
        w.notes.push_back({std::move(path), std::move(message)});
    };
    if (packedTensors > 0)
        note("/tensors", formatNumber(packedTensors, 6) +
                             " U8 tensors read as packed 4-bit weights (MXFP4 blocks or NVFP4 "
                             "beside a weight_scale): two parameters a byte");
    if (gptqTensors > 0)
        note("/tensors", formatNumber(gptqTensors, 6) + " int32 packed tensors read as " +
                             formatNumber(32.0 / quantBits, 3) + " values of " +
                             formatNumber(quantBits, 3) + " bits a word");
    if (byteTensors > 0)
        note("/tensors", formatNumber(byteTensors, 6) +
                             " other U8 tensors counted one parameter a byte (a packing the "
                             "reader does not know would count fewer than there are)");
    if (w.scaleBytes > 0)
        note("/tensors", "quantisation scales, zero points and indices: " +
                             formatBytes(w.scaleBytes) + " of the weights, no parameters");
    if (towers > 0)
        note("/tensors", formatNumber(towers, 6) + " vision, audio or projector tensors (" +
                             formatNumber(w.otherTowerParameters, 6) +
                             " parameters) set apart from the language model");
    if (extra > 0)
        note("/tensors", formatNumber(extra, 6) + " tensors of layers past num_hidden_layers (" +
                             formatNumber(w.extraLayerParameters, 6) +
                             " parameters: multi-token prediction) set apart");
    w.parameters = std::round(w.parameters); // a packing whose words do not divide evenly
    return w;
}

namespace {

/** The folder import proper; importCheckpointFolder catches what the filesystem throws. */
Result<CheckpointImport> importFolder(const std::string &given)
{
    using R = Result<CheckpointImport>;
    std::error_code code;
    fs::path folder(given);
    if (!fs::is_directory(folder, code)) {
        if (!fs::exists(folder, code))
            return R::failure(given, "does not exist");
        folder = folder.parent_path();
    }
    if (folder.empty())
        folder = ".";
    if (!fs::is_directory(folder, code))
        return R::failure(given, "is not a folder, nor a file inside one");
    const fs::path configPath = folder / "config.json";
    if (!fs::exists(configPath, code))
        return R::failure(folder.string(),
                          "holds no config.json: the architecture comes from it (download it "
                          "beside the weights)");
    std::string error;
    const std::string configText = readAtMost(configPath, std::uintmax_t{16} * 1024 * 1024, error);
    if (!error.empty())
        return R::failure(configPath.string(), error);
    auto imported = importHuggingFaceConfig(configText);
    if (!imported)
        return R::failure(configPath.string() + (imported.error().path.empty()
                                                     ? std::string()
                                                     : ": " + imported.error().path),
                          imported.error().message);
    // what the config's own reader found (Python's Infinity and all): the bits of a packed
    // word, whether the checkpoint is quantised, torch_dtype's width
    const double quantBits = isSet(imported->checkpointBits) ? imported->checkpointBits : 4.0;
    const bool quantised = imported->quantised;
    const double dtypeBytes = isSet(imported->torchDtypeBytes) ? imported->torchDtypeBytes : 0.0;

    CheckpointImport out;
    out.configParameters = imported->model.parameters;
    Diagnostics &warnings = imported->warnings;

    // the shards: the index's, else every *.safetensors in the folder
    std::vector<fs::path> shardPaths;
    std::map<std::string, std::string> weightMap; // tensor -> shard file, as the index says
    double missing = 0;
    double indexTotal = -1;
    const fs::path indexPath = folder / "model.safetensors.index.json";
    if (fs::exists(indexPath, code)) {
        const std::string indexText =
            readAtMost(indexPath, std::uintmax_t{64} * 1024 * 1024, error);
        if (!error.empty())
            return R::failure(indexPath.string(), error);
        if (nestingDepth(indexText) > 4)
            return R::failure(indexPath.string(), "nests deeper than an index does");
        const json index = json::parse(indexText, nullptr, false);
        if (!index.is_object() || !index.contains("weight_map") || !index["weight_map"].is_object())
            return R::failure(indexPath.string() + ": /weight_map",
                              "missing or not an object of tensor -> shard");
        if (index.contains("metadata") && index["metadata"].is_object() &&
            index["metadata"].contains("total_size")) {
            const json &total = index["metadata"]["total_size"];
            const double value = total.is_number() ? total.get<double>() : -1.0;
            if (value > 0 && value < 1e15 && std::floor(value) == value)
                indexTotal = value;
            else
                warnings.push_back({"/metadata/total_size", "in " + indexPath.filename().string() +
                                                                ": not a size in bytes (" +
                                                                total.dump().substr(0, 30) +
                                                                "), not used"});
        }
        std::set<std::string> files;
        for (auto it = index["weight_map"].begin(); it != index["weight_map"].end(); ++it) {
            if (!it.value().is_string())
                return R::failure(indexPath.string() + ": /weight_map" + tensorPointer(it.key()),
                                  "must name a shard file");
            const std::string file = it.value().get<std::string>();
            if (file.empty() || file.find('/') != std::string::npos ||
                file.find('\\') != std::string::npos || file == "." || file == ".." ||
                file.find('\0') != std::string::npos)
                return R::failure(indexPath.string() + ": /weight_map" + tensorPointer(it.key()),
                                  "names a file outside the folder: " + printable(file, 80));
            files.insert(file);
            weightMap[it.key()] = file;
        }
        for (const std::string &file : files) {
            if (fs::is_regular_file(folder / file, code))
                shardPaths.push_back(folder / file);
            else
                missing += 1;
        }
    }
    if (weightMap.empty()) { // no index, or one that maps nothing: the folder's shards
        for (fs::directory_iterator it(folder, code), end; !code && it != end; it.increment(code)) {
            std::error_code kind;
            if (it->path().extension() == ".safetensors" && it->is_regular_file(kind))
                shardPaths.push_back(it->path());
        }
        std::sort(shardPaths.begin(), shardPaths.end());
    }
    if (shardPaths.empty() && indexTotal < 0)
        return R::failure(folder.string(),
                          weightMap.empty()
                              ? "holds no *.safetensors shard and no model.safetensors.index.json "
                                "with a total_size: nothing to count the weights from"
                              : "holds none of its index's shards, and the index's total_size is "
                                "missing or not a size in bytes: nothing to count the weights "
                                "from");

    std::vector<SafetensorsHeader> headers;
    std::map<std::string, std::pair<std::string, const SafetensorsTensor *>> where; // name
    for (const fs::path &shard : shardPaths) {
        auto header = readSafetensorsFile(shard.string());
        if (!header)
            return R::failure(shard.string() + (header.error().path.empty()
                                                    ? std::string()
                                                    : ": " + header.error().path),
                              header.error().message);
        headers.push_back(std::move(header).value());
    }
    // one tensor, one shape: the same name in two shards must be the same tensor
    for (std::size_t i = 0; i < headers.size(); ++i) {
        for (const SafetensorsTensor &t : headers[i].tensors) {
            const std::string file = shardPaths[i].filename().string();
            auto [it, fresh] = where.try_emplace(t.name, file, &t);
            if (!fresh &&
                (it->second.second->dtype != t.dtype || it->second.second->shape != t.shape))
                return R::failure(shardPaths[i].string() + ": " + tensorPointer(t.name),
                                  "also in " + printable(it->second.first) +
                                      " with another dtype or shape: which is the model's?");
        }
    }
    // the index against the headers: a tensor it maps that its shard does not hold
    double absent = 0;
    std::string firstAbsent;
    for (const auto &[name, file] : weightMap) {
        auto found = where.find(name);
        const bool shardHere = fs::is_regular_file(folder / file, code);
        if (shardHere && (found == where.end() || found->second.first != file)) {
            absent += 1;
            if (firstAbsent.empty())
                firstAbsent = printable(name) + " (" + printable(file) + ")";
        }
    }
    const double layers = isSet(imported->model.layers) ? imported->model.layers : 0.0;
    out.weights = countCheckpointWeights(headers, quantBits, layers);
    out.weights.missingShards = missing;
    out.weights.indexTotalSize = indexTotal;
    ModelSpec &model = imported->model;
    const std::string files =
        formatNumber(out.weights.shards, 6) + " shard" + (out.weights.shards == 1 ? "" : "s");
    const double rule = out.configParameters;
    bool keepRule = false;
    if (absent > 0) {
        warnings.push_back(
            {"/weight_map", "the index maps " + formatNumber(absent, 9) +
                                " tensors their shard does not hold (the first: " + firstAbsent +
                                "): the headers are not the whole model, so the "
                                "config's rule stays"});
        keepRule = true;
    }
    if (indexTotal >= 0 && missing == 0 && !headers.empty() &&
        std::abs(out.weights.bytes - indexTotal) > 0.001 * indexTotal) {
        warnings.push_back(
            {"/metadata/total_size", "the index says the weights take " + formatBytes(indexTotal) +
                                         ", the shards' headers " + formatBytes(out.weights.bytes) +
                                         ": the config's rule stays"});
        keepRule = true;
    }
    if (headers.empty() || missing > 0) {
        out.weights.fromIndexOnly = headers.empty();
        if (headers.empty())
            out.weights.bytes = indexTotal;
        const double named = missing + out.weights.shards;
        std::string note =
            (headers.empty() ? std::string("no shard of the index is in the folder")
                             : formatNumber(missing, 6) + " of the index's " +
                                   formatNumber(named, 6) + " shards are not in the folder") +
            ": the parameters stay the config's rule";
        if (indexTotal >= 0) {
            note += "; the index says the weights take " + formatBytes(indexTotal);
            // an unquantised checkpoint's total is its parameters at torch_dtype's width
            if (!quantised && dtypeBytes > 0 && isSet(rule) && rule > 0) {
                const double held = indexTotal / dtypeBytes;
                const double difference = held / rule - 1.0;
                note += ", " + formatNumber(held, 15) + " parameters at " +
                        formatNumber(dtypeBytes, 2) + " bytes (torch_dtype): " +
                        (std::abs(difference) <= 0.001
                             ? std::string("the config's rule agrees")
                             : formatNumber(100.0 * difference, 3) + " % against the rule");
            }
        }
        out.weights.notes.push_back({"/weight_map", note});
    } else {
        const double counted = out.weights.parameters;
        const double difference = isSet(rule) && rule > 0 ? counted / rule - 1.0 : 0.0;
        // a quantised checkpoint packs values in ways this reader may not know: where its count
        // and the rule's differ, the rule stays and the difference is said
        // and so does a count a tenth or more off: a partial or mislabelled folder, not a rule
        // that missed a tenth of the model
        keepRule = keepRule || (quantised && std::abs(difference) > 0.01) ||
                   std::abs(difference) > 0.1 || counted <= 0;
        std::string note = "Counted from the safetensors headers of " + files + " (" +
                           formatNumber(out.weights.tensors, 9) + " tensors, " +
                           formatBytes(out.weights.bytes) + "): " + formatNumber(counted, 15) +
                           " parameters; the config's rule gives " + formatNumber(rule, 15);
        if (std::abs(difference) > 0.001)
            note += " (" + formatNumber(100.0 * difference, 3) +
                    (difference > 0 ? " %: the checkpoint holds more than the config's rule counts"
                                    : " %: the headers hold less than the config's rule counts") +
                    ")";
        if (keepRule) {
            note += "; the config's rule is kept";
            model.notes["parameters"] =
                (model.notes.count("parameters") ? model.notes["parameters"] + " " : "") + note;
        } else {
            model.parameters = counted;
            // the parts keep the rule's split, scaled to the headers' count
            for (double &part : model.partParameters)
                part = isSet(rule) && rule > 0 ? part * counted / rule : kUnset;
            model.sources["parameters"] = "safetensors headers";
            model.notes["parameters"] = note;
            if (isSet(model.activeParameters) && model.activeParameters > counted)
                model.activeParameters = counted;
        }
        if (std::abs(difference) > 0.01)
            warnings.push_back(
                {"/parameters",
                 "the headers count " + formatNumber(counted, 15) +
                     " parameters, the config's rule " + formatNumber(rule, 15) + ": " +
                     formatNumber(100.0 * difference, 3) + " %" +
                     (keepRule ? (quantised ? " (a quantised checkpoint: a packing this reader "
                                              "does not know counts wrong, so the rule stays)"
                                            : " (the rule stays)")
                               : std::string())});
    }
    out.import = std::move(imported).value();
    return out;
}

} // namespace

Result<CheckpointImport> importCheckpointFolder(const std::string &given)
{
    try {
        return importFolder(given);
    } catch (const std::exception &failure) { // a symlink loop, a folder that vanished
        return Result<CheckpointImport>::failure(given,
                                                 std::string("cannot be read: ") + failure.what());
    }
}

} // namespace core
