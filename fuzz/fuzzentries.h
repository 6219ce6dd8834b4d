// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One entry per parser of outside input. Each runs the parser and everything downstream of it
// on arbitrary bytes and returns a description of any broken invariant (empty when all held).
// The libFuzzer targets abort on a non-empty answer; tst_fuzzregressions replays every saved
// finding through the same functions in the ordinary test run.

#include <cstddef>
#include <cstdint>
#include <string>

namespace fuzzentries {

/** Scenario file text: read, evaluate, explain, serialise, save and read back. */
std::string scenarioFile(const std::uint8_t *data, std::size_t size);

/** Preset file text (models or devices): read and evaluate each entry in the lesson scenario;
 *  the same bytes as a user preset library and as a CSV sweep read back what they write. */
std::string presetFile(const std::uint8_t *data, std::size_t size);

/** Hugging Face config.json text: import, then evaluate the model in the lesson scenario. */
std::string hfConfig(const std::uint8_t *data, std::size_t size);

/** --set assignments, one per line (at most 16), applied to the lesson's default scenario. */
std::string setOverrides(const std::uint8_t *data, std::size_t size);

/** A load trace CSV (issue #26): read it, then serve its first 500 requests with the lesson's
 *  engine; an error names the file, a run finishes (or says why it was cut) and obeys Little's
 *  law with finite percentiles. */
std::string trace(const std::uint8_t *data, std::size_t size);

/** Measured runs and calibration profiles (issue #41): the bytes as a measurement file (every
 *  reader, by content), its rows fitted (the first 40) and the fitted profile written and read
 *  back unchanged; the same bytes as a calibration profile, read, written and read back
 *  unchanged, and applied to the lesson's scenario with no NaN or negative step. */
std::string measurements(const std::uint8_t *data, std::size_t size);

/** A safetensors file's first bytes (issue #44): the header read as if the bytes were the whole
 *  file; a header that reads has every tensor inside the file, as long as its shape and dtype
 *  say, and counts into finite parameters and bytes. */
std::string safetensorsHeader(const std::uint8_t *data, std::size_t size);

} // namespace fuzzentries
