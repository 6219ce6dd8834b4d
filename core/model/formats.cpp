// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/formats.h"

#include <algorithm>
#include <cmath>

namespace core {

namespace {

struct FormatInfo
{
    NumericFormat format;
    std::string_view key;
    std::string_view label;
    double bytes;
};

constexpr std::array<FormatInfo, kAllFormats.size()> kFormatInfo = {{
    {NumericFormat::Fp32, "fp32", "FP32", 4.0},
    {NumericFormat::Tf32, "tf32", "TF32", 4.0},
    {NumericFormat::Bf16, "bf16", "BF16", 2.0},
    {NumericFormat::Fp16, "fp16", "FP16", 2.0},
    {NumericFormat::Fp8, "fp8", "FP8", 1.0},
    {NumericFormat::Int8, "int8", "INT8", 1.0},
    {NumericFormat::Int4, "int4", "INT4", 0.5},
    {NumericFormat::Nvfp4, "nvfp4", "NVFP4", 0.5},
    {NumericFormat::Mxfp4, "mxfp4", "MXFP4", 0.5},
}};

const FormatInfo &info(NumericFormat format)
{
    return kFormatInfo[static_cast<std::size_t>(format)];
}

double finiteOrZero(double value)
{
    return std::isfinite(value) ? value : 0.0;
}

} // namespace

std::string_view formatKey(NumericFormat format)
{
    return info(format).key;
}

std::string_view formatLabel(NumericFormat format)
{
    return info(format).label;
}

std::optional<NumericFormat> parseFormat(std::string_view key)
{
    for (const auto &entry : kFormatInfo) {
        if (entry.key == key)
            return entry.format;
    }
    return std::nullopt;
}

double nominalBytes(NumericFormat format)
{
    return info(format).bytes;
}

bool isStorageFormat(NumericFormat format)
{
    return format != NumericFormat::Tf32;
}

bool takesGroupScales(NumericFormat format)
{
    return format == NumericFormat::Fp8 || format == NumericFormat::Int8 ||
           format == NumericFormat::Int4;
}

double bytesPerParameter(NumericFormat format, const QuantLayout &layout)
{
    double bytes = nominalBytes(format);
    if (format == NumericFormat::Nvfp4)
        return bytes + 1.0 / 16.0; // one 8-bit E4M3 scale per 16 values
    if (format == NumericFormat::Mxfp4)
        return bytes + 1.0 / 32.0; // one 8-bit E8M0 scale per 32 values
    if (takesGroupScales(format) && layout.groupSize > 0)
        bytes += (layout.scaleBits + layout.zeroBits) / 8.0 / layout.groupSize;
    return bytes;
}

Quantisation quantise(std::span<const double> weights, int bits, bool symmetric, int groupSize)
{
    Quantisation result;
    bits = std::clamp(bits, 2, 16);
    const std::size_t count = weights.size();
    const std::size_t group =
        groupSize > 0 ? static_cast<std::size_t>(groupSize) : std::max<std::size_t>(count, 1);
    result.codes.reserve(count);
    result.dequantised.reserve(count);
    result.errors.reserve(count);

    const double symmetricMax = std::ldexp(1.0, bits - 1) - 1.0; // 127 for 8 bits
    const double asymmetricMax = std::ldexp(1.0, bits) - 1.0;    // 255 for 8 bits
    double squaredErrorSum = 0.0;

    for (std::size_t begin = 0; begin < count; begin += group) {
        const std::size_t end = std::min(count, begin + group);
        double lowest = 0.0;
        double highest = 0.0;
        double largestMagnitude = 0.0;
        for (std::size_t i = begin; i < end; ++i) {
            double w = finiteOrZero(weights[i]);
            lowest = std::min(lowest, w);
            highest = std::max(highest, w);
            largestMagnitude = std::max(largestMagnitude, std::fabs(w));
        }
        double scale = 0.0;
        double zero = 0.0;
        if (symmetric) {
            scale = largestMagnitude / symmetricMax;
        } else {
            scale = (highest - lowest) / asymmetricMax;
            zero = scale > 0.0 ? std::round(-lowest / scale) : 0.0;
        }
        result.scales.push_back(scale);
        result.zeroPoints.push_back(zero);
        for (std::size_t i = begin; i < end; ++i) {
            double w = finiteOrZero(weights[i]);
            double code = 0.0;
            if (scale > 0.0) {
                code = std::round(w / scale);
                code = symmetric ? std::clamp(code, -symmetricMax, symmetricMax)
                                 : std::clamp(code + zero, 0.0, asymmetricMax);
            } else if (!symmetric) {
                code = zero;
            }
            double restored = symmetric ? code * scale : (code - zero) * scale;
            double error = restored - w;
            result.codes.push_back(static_cast<std::int64_t>(code));
            result.dequantised.push_back(restored);
            result.errors.push_back(error);
            result.maxAbsError = std::max(result.maxAbsError, std::fabs(error));
            squaredErrorSum += error * error;
        }
    }
    if (count > 0)
        result.rmsError = std::sqrt(squaredErrorSum / static_cast<double>(count));
    return result;
}

} // namespace core
