// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Numeric formats: how many bytes a stored value costs, and what group quantisation does to a
// vector of weights (the lesson's [0.020, -0.500, 1.270, 0.003] example).

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace core {

/** Nvfp4: E2M1 values with one E4M3 scale per 16 (4.5 bits per weight, NVIDIA Blackwell);
 *  Mxfp4: E2M1 with one E8M0 scale per 32 (4.25 bits, the OCP microscaling format). */
enum class NumericFormat : std::uint8_t { Fp32, Tf32, Bf16, Fp16, Fp8, Int8, Int4, Nvfp4, Mxfp4 };

inline constexpr std::array<NumericFormat, 9> kAllFormats = {
    NumericFormat::Fp32, NumericFormat::Tf32,  NumericFormat::Bf16,
    NumericFormat::Fp16, NumericFormat::Fp8,   NumericFormat::Int8,
    NumericFormat::Int4, NumericFormat::Nvfp4, NumericFormat::Mxfp4};

/** "fp32", "tf32", "bf16", "fp16", "fp8", "int8", "int4", "nvfp4", "mxfp4": the one spelling
 *  used in files. */
std::string_view formatKey(NumericFormat format);
/** "BF16", "INT4", ... for display. */
std::string_view formatLabel(NumericFormat format);
std::optional<NumericFormat> parseFormat(std::string_view key);

/** Bytes per stored element before any scales: fp32 4, bf16/fp16 2, fp8/int8 1, int4, nvfp4 and
 *  mxfp4 0.5.
 *  tf32 is a compute format stored in 4 bytes. */
double nominalBytes(NumericFormat format);

/** tf32 exists only inside the matrix units; it cannot hold weights or KV. */
bool isStorageFormat(NumericFormat format);

/** Group scales apply to the 8- and 4-bit formats only (the microscaling formats fix theirs). */
bool takesGroupScales(NumericFormat format);

/** Per-group metadata of a quantised format: one scale (and optional zero point) per group. */
struct QuantLayout
{
    double groupSize = 0;  ///< weights per group; 0 = no per-group metadata
    double scaleBits = 16; ///< bits of each scale
    double zeroBits = 0;   ///< bits of each zero point (0 = symmetric)
};

/** Bytes per parameter including group metadata: int4 with a 16-bit scale per 128 weights is
 *  0.5 + 2/128 = 0.515625 (lesson line 49). Metadata is ignored for 16/32-bit formats. The
 *  microscaling formats carry their own fixed blocks: NVFP4 0.5 + 1/16 = 0.5625 bytes, MXFP4
 *  0.5 + 1/32 = 0.53125 bytes (OCP Microscaling Formats v1.0; NVIDIA's NVFP4 description). */
double bytesPerParameter(NumericFormat format, const QuantLayout &layout);

/** The result of quantising a vector with integer codes, group by group. */
struct Quantisation
{
    std::vector<double> scales;      ///< one per group
    std::vector<double> zeroPoints;  ///< one per group (0 when symmetric)
    std::vector<std::int64_t> codes; ///< one per weight
    std::vector<double> dequantised; ///< codes mapped back to real values
    std::vector<double> errors;      ///< dequantised - original, per weight
    double maxAbsError = 0.0;
    double rmsError = 0.0;
};

/**
 * Integer quantisation of `weights` with `bits` bits (2..16), one scale per group of
 * `groupSize` weights (0 = one group for the whole vector).
 * Symmetric: scale = max|w| / (2^(bits-1) - 1), code = round(w / scale).
 * Asymmetric: scale = (max - min) / (2^bits - 1), zero = round(-min / scale),
 * code = clamp(round(w / scale) + zero, 0, 2^bits - 1). Non-finite weights are treated as 0.
 */
Quantisation quantise(std::span<const double> weights, int bits, bool symmetric, int groupSize = 0);

} // namespace core
