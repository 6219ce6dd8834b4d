// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <span>
#include <string_view>

namespace core {

/** A preset file compiled into the binary (see cmake/EmbedFiles.cmake). */
struct EmbeddedFile
{
    std::string_view path; ///< relative to presets/, e.g. "scenarios/lesson-default.json"
    std::string_view text;
};

std::span<const EmbeddedFile> embeddedPresetFiles();

} // namespace core
