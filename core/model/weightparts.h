// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A model's weights by part (embeddings, attention, MLP, routed experts, the rest) and the format
// each part is stored in: a checkpoint is rarely one format (issue #44). gpt-oss keeps 98 % of
// its parameters, the experts, in MXFP4 and the rest in BF16; AWQ, GPTQ and FP8 checkpoints
// leave the embedding table, the output head and the norms at 16 bits.

#include "core/model/scenario.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace core {

std::string_view weightPartKey(WeightPart part);   ///< "embeddings", "attention", "mlp", ...
std::string_view weightPartLabel(WeightPart part); ///< "embeddings and output head", ...
std::optional<WeightPart> parseWeightPart(std::string_view key);

/** Parameters in each part, summing to the model's parameters. */
struct WeightPartCounts
{
    std::array<double, kWeightParts.size()> parameters{};
    /// counted by an import from the architecture; false: estimated here from the model's
    /// fields (embeddings from the vocabulary and width, experts from the active parameters,
    /// attention from the heads; what an unusual attention holds falls to the MLP part)
    bool counted = false;
    double operator[](WeightPart part) const { return parameters[index(part)]; }
};
WeightPartCounts weightPartsOf(const ModelSpec &model);

/** The format `part` is stored in: its own, else 16 bits for the embeddings where
 *  keepEmbeddings16Bit asks and the weight format is narrower, else the weight format. */
NumericFormat partFormat(const ServingConfig &serving, WeightPart part);
/** Bytes per parameter of `part`, group scales included (formats.h). */
double partBytesPerParameter(const ServingConfig &serving, WeightPart part);
/** Whether any part is stored apart from the weight format (its own format, or the
 *  embeddings kept at 16 bits). */
bool partsDiffer(const ServingConfig &serving);

/** "MXFP4" for one format; "MXFP4 + BF16" where parts keep their own (the weight format
 *  first). */
std::string weightFormatsLabel(const ServingConfig &serving);
/** "routed experts MXFP4; embeddings and output head, attention and norms, routers and biases
 *  BF16": each format with the parts in it, parts without parameters left out; empty for one
 *  format. */
std::string describePartFormats(const ModelSpec &model, const ServingConfig &serving);

/** Whether any part's format takes group scales (quant_group_size applies to it). */
bool anyPartTakesGroupScales(const ServingConfig &serving);
/** The parts given their own format that hold no parameters the app could separate (a latent
 *  or linear attention, or embeddings without vocabulary and width, on a model no import
 *  counted; experts on a dense model): their format changes nothing, which a warning says. */
std::vector<WeightPart> unsizedPartsWithFormats(const ModelSpec &model,
                                                const ServingConfig &serving);
/** Whether that list is not empty, without building it where no part has its own format. */
bool anyPartFormatUnsized(const ModelSpec &model, const ServingConfig &serving);

/** The weights' bytes, all parts together (not divided over devices). */
double weightBytesOf(const ModelSpec &model, const ServingConfig &serving);

} // namespace core
