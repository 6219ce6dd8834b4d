// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/physics/precision.h"

#include <algorithm>
#include <cmath>

namespace core {

namespace {

BitLayout ieee(std::string_view key, std::string_view name, int exponent, int mantissa)
{
    BitLayout l;
    l.key = key;
    l.name = name;
    l.exponent = exponent;
    l.mantissa = mantissa;
    l.bias = (1 << (exponent - 1)) - 1;
    const int emax = (1 << exponent) - 2 - l.bias; // the all-ones exponent is inf and NaN
    l.maxFinite = (2.0 - std::ldexp(1.0, -mantissa)) * std::ldexp(1.0, emax);
    l.minNormal = std::ldexp(1.0, 1 - l.bias);
    l.minSubnormal = std::ldexp(1.0, 1 - l.bias - mantissa);
    l.epsilon = std::ldexp(1.0, -mantissa);
    l.note = "IEEE 754: overflow rounds to infinity";
    return l;
}

BitLayout integer(std::string_view key, std::string_view name, int bits)
{
    BitLayout l;
    l.key = key;
    l.name = name;
    l.integer = true;
    l.mantissa = bits - 1;
    l.maxFinite = std::ldexp(1.0, bits - 1) - 1;
    l.minValue = -std::ldexp(1.0, bits - 1);
    l.minNormal = 1;
    l.minSubnormal = 1;
    l.epsilon = 1;
    l.note = "two's complement: values beyond the range saturate (with a scale, see quantisation)";
    return l;
}

std::vector<BitLayout> makeLayouts()
{
    std::vector<BitLayout> layouts;
    layouts.push_back(ieee("fp32", "FP32", 8, 23));
    BitLayout tf32 = ieee("tf32", "TF32", 8, 10);
    tf32.note = "compute only: FP32's range with FP16's precision, stored in 32 bits";
    layouts.push_back(tf32);
    layouts.push_back(ieee("bf16", "BF16", 8, 7));
    layouts.push_back(ieee("fp16", "FP16", 5, 10));
    // OCP 8-bit floating point (v1.0): E4M3 has no infinities; S.1111.111 is NaN, so the largest
    // finite value is 1.75 x 2^8 = 448. E5M2 follows IEEE 754 conventions.
    BitLayout e4m3 = ieee("fp8-e4m3", "FP8 E4M3", 4, 3);
    e4m3.maxFinite = 448;
    e4m3.note = "OCP FP8: no infinities; overflow saturates to 448 or becomes NaN by mode";
    layouts.push_back(e4m3);
    BitLayout e5m2 = ieee("fp8-e5m2", "FP8 E5M2", 5, 2);
    e5m2.note = "OCP FP8: IEEE-like, overflow rounds to infinity";
    layouts.push_back(e5m2);
    layouts.push_back(integer("int8", "INT8", 8));
    layouts.push_back(integer("int4", "INT4", 4));
    return layouts;
}

double roundHalfEven(double x)
{
    return std::nearbyint(x); // the default rounding mode is to nearest, ties to even
}

} // namespace

const std::vector<BitLayout> &bitLayouts()
{
    static const std::vector<BitLayout> layouts = makeLayouts();
    return layouts;
}

const BitLayout *findBitLayout(std::string_view key)
{
    for (const BitLayout &l : bitLayouts()) {
        if (l.key == key)
            return &l;
    }
    return nullptr;
}

Rounded roundTo(double value, const BitLayout &l)
{
    Rounded r;
    if (!std::isfinite(value) || value == 0.0)
        return r;
    if (l.integer) {
        const double rounded = roundHalfEven(value);
        r.value = std::clamp(rounded, l.minValue, l.maxFinite);
        r.overflow = rounded != r.value;
        r.underflow = r.value == 0.0; // without a scale, small values vanish
    } else {
        const double a = std::fabs(value);
        const int e = std::max(std::ilogb(a), 1 - l.bias); // below the normals: fixed quantum
        const double quantum = std::ldexp(1.0, e - l.mantissa);
        double magnitude = roundHalfEven(a / quantum) * quantum;
        // past the largest finite value by at least half a step: overflow
        if (magnitude > l.maxFinite) {
            r.overflow = true;
            magnitude = l.maxFinite;
        }
        r.underflow = magnitude == 0.0;
        r.subnormal = !r.underflow && a < l.minNormal;
        r.value = std::copysign(magnitude, value);
    }
    r.error = r.value - value;
    r.relativeError = std::fabs(r.error) / std::fabs(value);
    return r;
}

} // namespace core
