// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A downloaded model folder (issue #44, item 5): the safetensors headers of its shards (each
// file's first bytes: every tensor's name, dtype, shape and offsets; no weight is read) give
// the checkpoint's exact parameter count and weight bytes for any architecture, checked against
// what the config.json's rules count. Without its shards, the index's total_size alone.

#include "core/data/hfimport.h"
#include "core/model/result.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace core {

/** One tensor as a safetensors header declares it. */
struct SafetensorsTensor
{
    std::string name;
    std::string dtype;         ///< "BF16", "F8_E4M3", "U8", ...
    std::vector<double> shape; ///< each dimension (0 allowed: an empty tensor)
    double elements = 0;       ///< the product of the shape (1 for a scalar)
    double bytes = 0;          ///< data_offsets' end - begin, checked against the dtype
    std::uint64_t begin = 0;   ///< data_offsets, from the start of the data
    std::uint64_t end = 0;
};

struct SafetensorsHeader
{
    std::vector<SafetensorsTensor> tensors;
    std::map<std::string, std::string> metadata; ///< "__metadata__" (format, ...)
    std::uint64_t headerBytes = 0;               ///< the JSON's length
    std::uint64_t dataBytes = 0;                 ///< the file's bytes after the header
};

/** Largest header the reader accepts (the format's own limit is 100 MB). */
inline constexpr std::uint64_t kSafetensorsHeaderLimit = 100'000'000;

/** Reads a header from the first bytes of a file of `fileSize` bytes (`prefix` holds at least
 *  the 8-byte length and the JSON, or says the file ends inside them). Every tensor's dtype must
 *  be known, its shape whole numbers, its offsets inside the file and as long as its shape and
 *  dtype say, and no two may overlap. Errors name the tensor and the field. */
[[nodiscard]] Result<SafetensorsHeader> parseSafetensorsHeader(std::string_view prefix,
                                                               std::uint64_t fileSize);

/** The same from a file on disk: reads only the length and the header. */
[[nodiscard]] Result<SafetensorsHeader> readSafetensorsFile(const std::string &path);

/** Bits one element of a safetensors dtype takes; 0 for an unknown dtype. */
double safetensorsDtypeBits(std::string_view dtype);

/** What a checkpoint's tensors hold, counted from their headers. */
struct CheckpointWeights
{
    double shards = 0;        ///< shard files whose headers were read
    double missingShards = 0; ///< named by the index, not in the folder
    double tensors = 0;
    /// the language model's parameters: packed 4-bit tensors count two per byte, quantisation
    /// scales and zero points none, other towers and extra layers apart
    double parameters = 0;
    double otherTowerParameters = 0; ///< vision, audio, projector tensors
    double extraLayerParameters = 0; ///< layers past num_hidden_layers (multi-token prediction)
    double scaleBytes = 0;           ///< quantisation scales, zero points, indices
    double bytes = 0;                ///< every tensor's data, as stored
    double indexTotalSize = -1;      ///< the index's metadata.total_size; -1 when absent
    std::map<std::string, double> bytesByDtype;
    std::map<std::string, double> parametersByDtype; ///< the language model's
    bool fromIndexOnly = false; ///< no shard present: bytes are the index's total_size
    Diagnostics notes;          ///< packing assumed, towers and layers set apart, differences
};

/** A model folder imported: its config.json through the Hugging Face reader, then the
 *  parameter count replaced by the headers' where they were read (the config's rule kept in the
 *  note, with the difference); the weights' own count and bytes beside it. */
struct CheckpointImport
{
    HfImport import;
    CheckpointWeights weights;
    double configParameters = 0; ///< what the config's rules counted
};

/** `path` is a folder (config.json, model.safetensors.index.json or *.safetensors), or an
 *  index or a config inside one. Errors name the file and what is wrong. */
[[nodiscard]] Result<CheckpointImport> importCheckpointFolder(const std::string &path);

/** The weights counted from a config's quantisation bits (GPTQ/AWQ int32 words hold 32 / bits
 *  values) and layer count: the part importCheckpointFolder does after reading the files. */
CheckpointWeights countCheckpointWeights(const std::vector<SafetensorsHeader> &shards,
                                         double quantBits, double hiddenLayers);

} // namespace core
