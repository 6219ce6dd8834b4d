// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Number formats bit by bit (lesson l.128-137): the layouts of fp32, tf32, bf16, fp16, the two
// OCP FP8 formats and the integers, their largest finite value, smallest normal and machine
// epsilon, and the nearest representation of any value with its rounding error, overflow and
// underflow.

#include <string_view>
#include <vector>

namespace core {

struct BitLayout
{
    std::string_view key;  ///< "fp8-e4m3"
    std::string_view name; ///< "FP8 E4M3"
    bool integer = false;
    int sign = 1;
    int exponent = 0; ///< bits
    int mantissa = 0; ///< stored fraction bits (integers: value bits)
    int bias = 0;
    double maxFinite = 0;
    double minNormal = 0;    ///< floats; 1 for integers
    double minSubnormal = 0; ///< floats; 1 for integers
    double epsilon = 0;      ///< 2^-mantissa: the gap above 1 (floats; 1 for integers)
    double minValue = 0;     ///< integers: the most negative value
    std::string_view note;   ///< what the standard says about overflow
    int bits() const { return sign + exponent + mantissa; }
};

/** fp32, tf32, bf16, fp16, fp8 E4M3, fp8 E5M2 (OCP), int8, int4. */
const std::vector<BitLayout> &bitLayouts();
const BitLayout *findBitLayout(std::string_view key);

struct Rounded
{
    double value = 0;         ///< the nearest representable value (saturated on overflow)
    double error = 0;         ///< value - input
    double relativeError = 0; ///< |error| / |input| (0 for 0)
    bool overflow = false;    ///< beyond the largest finite value
    bool underflow = false;   ///< a non-zero input that rounds to zero
    bool subnormal = false;   ///< below the smallest normal, kept with fewer bits
};

/** Round to nearest, ties to even, as the format stores it. */
Rounded roundTo(double value, const BitLayout &layout);

} // namespace core
