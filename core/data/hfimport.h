// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Hugging Face config.json import: the architecture's fields (under each family's names) become
// an inline model, and the parameter count is computed from the architecture, never taken from
// a marketing size label. The layers become layer groups (architecture.h) where they differ:
// sliding, chunked, latent (MLA) or linear attention, dense or MoE MLP. Unknown architectures,
// and families whose pattern the core cannot express yet, are refused with the reason.

#include "core/model/result.h"
#include "core/model/scenario.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace core {

struct HfImport
{
    ModelSpec model;
    std::string family; ///< "llama", "mixtral", "qwen2", "gemma2", "phi3", "falcon", "gpt2", ...
    Diagnostics warnings;
    /// The checkpoint's own weight format from quantization_config (FP8, MXFP4, NVFP4, AWQ...)
    std::optional<NumericFormat> checkpointFormat;
    double checkpointGroupSize = kUnset; ///< AWQ/GPTQ group size, where given
    /// The parts the checkpoint leaves unconverted, at its 16 bits (serving.weight_formats):
    /// the embeddings, output head and norms of every quantised checkpoint, everything but the
    /// experts of an MXFP4 one, attention where the file's lists keep it
    std::array<std::optional<NumericFormat>, kWeightParts.size()> partFormats{};
    bool quantised = false;          ///< the file has a quantization_config
    double checkpointBits = kUnset;  ///< bits a quantised weight takes, where known
    double torchDtypeBytes = kUnset; ///< torch_dtype's width (bfloat16 2), where given
    double visionParameters = 0;     ///< a multimodal model's vision tower, estimated; not counted
};

/** Reads a config.json. Errors name the JSON pointer of the field that is missing or wrong. */
[[nodiscard]] Result<HfImport> importHuggingFaceConfig(std::string_view configJson);

/** The model as an inline JSON object, ready to paste as a scenario's "model". */
std::string modelToJson(const ModelSpec &model, int indent = 2);

} // namespace core
