// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/units.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace core {

namespace {

constexpr double kBeyondReal = kBeyondAnyRealFigure;

std::string beyond(const char *unit)
{
    return std::string("beyond any real figure (over ") + unit + ")";
}

std::string withThousandsSeparators(const std::string &plain)
{
    // plain is "-1234567.89" or "1234"; group the integer digits.
    std::size_t start = (!plain.empty() && plain[0] == '-') ? 1 : 0;
    std::size_t dot = plain.find('.');
    std::size_t intEnd = dot == std::string::npos ? plain.size() : dot;
    std::string out = plain.substr(0, start);
    std::size_t digits = intEnd - start;
    for (std::size_t i = 0; i < digits; ++i) {
        out += plain[start + i];
        std::size_t remaining = digits - i - 1;
        if (remaining > 0 && remaining % 3 == 0)
            out += ',';
    }
    out += plain.substr(intEnd);
    return out;
}

std::string scaled(double value, double unit, const char *suffix, int significant = 4)
{
    if (std::isfinite(value) && std::fabs(value / unit) >= kBeyondReal)
        return beyond((std::string("10^15") + suffix).c_str());
    return formatNumber(value / unit, significant) + suffix;
}

} // namespace

namespace {

/** floor(log10(v)) for v > 0, by comparison with exact powers of ten where they are exact
 *  (1e0..1e22) and their neighbours: log10 was a sixth of a Wizard-tab step. */
int decimalMagnitude(double v)
{
    static constexpr double kPowers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                         1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                         1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    if (v >= 1.0 && v < 1e22) {
        int m = 0;
        while (v >= kPowers[m + 1])
            ++m;
        return m;
    }
    return static_cast<int>(std::floor(std::log10(v)));
}

} // namespace

std::string formatNumber(double value, int significant)
{
    if (!std::isfinite(value))
        return "n/a";
    if (value == 0.0)
        return "0";
    if (std::fabs(value) >= kBeyondReal)
        return beyond("10^15");
    int magnitude = decimalMagnitude(std::fabs(value));
    int decimals = significant - 1 - magnitude;
    if (decimals < 0)
        decimals = 0;
    if (decimals > 12)
        decimals = 12;
    // to_chars rounds as printf does and is several times faster: a Wizard-tab step formats
    // thousands of numbers. 400 characters hold DBL_MAX with 12 decimals.
    char buffer[400];
    const std::to_chars_result written =
        std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, decimals);
    std::string text(buffer, written.ptr);
    if (text.find('.') != std::string::npos) {
        while (text.back() == '0')
            text.pop_back();
        if (text.back() == '.')
            text.pop_back();
    }
    if (text == "-0")
        text = "0";
    return withThousandsSeparators(text);
}

std::string formatBytes(double bytes, MemoryUnits units)
{
    if (!std::isfinite(bytes))
        return "n/a";
    switch (units) {
    case MemoryUnits::GB:
        return scaled(bytes, kGB, " GB");
    case MemoryUnits::GiB:
        return scaled(bytes, kGiB, " GiB");
    case MemoryUnits::Both:
        return scaled(bytes, kGB, " GB") + " (" + scaled(bytes, kGiB, " GiB") + ")";
    }
    return "n/a";
}

std::string formatMessageBytes(double bytes)
{
    if (!std::isfinite(bytes))
        return "n/a";
    const double magnitude = std::fabs(bytes);
    if (magnitude < 1e6)
        return formatNumber(bytes, 7) + " B";
    if (magnitude < kGB)
        return scaled(bytes, 1e6, " MB");
    return formatBytes(bytes);
}

std::string formatSeconds(double seconds)
{
    if (!std::isfinite(seconds))
        return "n/a";
    double magnitude = std::fabs(seconds);
    if (magnitude >= 1.0 || magnitude == 0.0)
        return scaled(seconds, 1.0, " s");
    if (magnitude >= 1e-3)
        return scaled(seconds, 1e-3, " ms");
    if (magnitude >= 1e-6)
        return scaled(seconds, 1e-6, " µs");
    return scaled(seconds, 1e-9, " ns");
}

std::string formatFlopRate(double flopsPerSecond)
{
    if (!std::isfinite(flopsPerSecond))
        return "n/a";
    double magnitude = std::fabs(flopsPerSecond);
    if (magnitude >= 1e15)
        return scaled(flopsPerSecond, 1e15, " PFLOP/s");
    if (magnitude >= 1e12)
        return scaled(flopsPerSecond, 1e12, " TFLOP/s");
    if (magnitude >= 1e9)
        return scaled(flopsPerSecond, 1e9, " GFLOP/s");
    return scaled(flopsPerSecond, 1e6, " MFLOP/s");
}

std::string formatDuration(double seconds)
{
    if (!std::isfinite(seconds))
        return "n/a";
    if (seconds < 2 * 3600.0)
        return formatNumber(seconds / 60.0, 3) + " min";
    if (seconds < 2 * 86400.0)
        return formatNumber(seconds / 3600.0, 3) + " h";
    return formatNumber(seconds / 86400.0, 3) + " days";
}

std::string formatCount(double count)
{
    if (!std::isfinite(count))
        return "n/a";
    const double magnitude = std::fabs(count);
    if (magnitude >= 1e12)
        return scaled(count, 1e12, " T");
    if (magnitude >= 1e9)
        return scaled(count, 1e9, " B");
    if (magnitude >= 1e6)
        return scaled(count, 1e6, " M");
    // a count of things is whole ("131,072"); a measured one (device-hours, kWh) reads as a
    // plan gives it, not to the thousandth: whole from a thousand, four figures below
    if (magnitude >= 1000.0)
        return formatNumber(std::round(count), 9);
    return formatNumber(count, 4);
}

std::string formatFlops(double flops)
{
    if (!std::isfinite(flops))
        return "n/a";
    double magnitude = std::fabs(flops);
    if (magnitude >= 1e15)
        return scaled(flops, 1e15, " PFLOP");
    if (magnitude >= 1e12)
        return scaled(flops, 1e12, " TFLOP");
    if (magnitude >= 1e9)
        return scaled(flops, 1e9, " GFLOP");
    if (magnitude >= 1e6)
        return scaled(flops, 1e6, " MFLOP");
    return scaled(flops, 1.0, " FLOP");
}

std::string formatBandwidth(double bytesPerSecond)
{
    return scaled(bytesPerSecond, kGB, " GB/s");
}

std::string formatUsd(double usd)
{
    if (!std::isfinite(usd))
        return "n/a";
    // cents, except below a cent: three significant digits, so a price per request reads
    // "$0.00144" and never "$0.00" (issue #40)
    const double magnitude = std::fabs(usd);
    if (magnitude >= kBeyondReal)
        return beyond("$10^15");
    int decimals = 2;
    if (magnitude > 0.0 && magnitude < 0.00995)
        decimals = std::min(12, 2 - int(std::floor(std::log10(magnitude))));
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, usd);
    std::string text = withThousandsSeparators(buffer);
    if (text[0] == '-')
        return "-$" + text.substr(1);
    return "$" + text;
}

} // namespace core
