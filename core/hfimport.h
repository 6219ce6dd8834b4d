// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Hugging Face config.json import: the architecture's fields (under each family's names) become
// an inline model, and the parameter count is computed from the architecture, never taken from
// a marketing size label. Unknown architectures, and MLA attention (whose cache is a latent, not
// per-head K and V), are refused with a clear message rather than guessed.

#include "result.h"
#include "scenario.h"

#include <string>
#include <string_view>

namespace core {

struct HfImport
{
    ModelSpec model;
    std::string family; ///< "llama", "mixtral", "qwen2", "gemma2", "phi3", "falcon", "gpt2", ...
    Diagnostics warnings;
};

/** Reads a config.json. Errors name the JSON pointer of the field that is missing or wrong. */
[[nodiscard]] Result<HfImport> importHuggingFaceConfig(std::string_view configJson);

/** The model as an inline JSON object, ready to paste as a scenario's "model". */
std::string modelToJson(const ModelSpec &model, int indent = 2);

} // namespace core
