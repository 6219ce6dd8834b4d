// SPDX-License-Identifier: GPL-3.0-or-later
#include "chartguard.h"

#include <algorithm>
#include <cmath>

namespace views {

bool drawable(double value, bool logAxis)
{
    if (!std::isfinite(value) || std::fabs(value) > kLargestDrawable)
        return false;
    return !logAxis || value >= kSmallestOnLogAxis;
}

AxisRange logAxisRange(double low, double high)
{
    if (!drawable(low, true) || !drawable(high, true) || high < low)
        return {};
    const double bottom = std::pow(10.0, std::floor(std::log10(low * 0.8)));
    const double top = std::pow(10.0, std::ceil(std::log10(high * 1.2)));
    return {std::max(bottom, kSmallestOnLogAxis / 10), std::min(top, kLargestDrawable * 10)};
}

} // namespace views
