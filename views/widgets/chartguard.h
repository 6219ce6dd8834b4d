// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a chart can draw: a valid scenario can still give figures no axis can hold (a throttle
// factor of 1e-307 makes a token cost 1e306 dollars; an infinite value on a Qt Charts log axis
// makes it lay out ticks without end). Every value goes through here before it reaches an axis
// or a series, and the view says when something was left off.

namespace views {

/** The largest magnitude a chart draws, in the axis' own unit; past it values are left off. */
inline constexpr double kLargestDrawable = 1e15;
/** The smallest positive value a log axis draws. */
inline constexpr double kSmallestOnLogAxis = 1e-12;

/** Finite and within what a chart draws (positive too, for a log axis). */
bool drawable(double value, bool logAxis);

struct AxisRange
{
    double low = 1;
    double high = 10;
};
/** A log axis range covering [low, high] in whole decades, limited to what a chart draws; an
 *  empty or invalid span gives one decade around 1. */
AxisRange logAxisRange(double low, double high);

} // namespace views
