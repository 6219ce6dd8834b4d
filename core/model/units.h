// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Units: every value inside the core is an SI double (bytes, FLOP, seconds, watts, USD).
// Decimal GB (1e9) is what files and the lesson use; binary GiB (2^30) is what allocators and
// nvidia-smi print. The GB / GiB / both choice changes display only, never a computation.

#include <string>

namespace core {

/// At or above this a count, a price, a time or an energy is no real figure (issue #41): a
/// quadrillion replicas or dollars, 32 million years. Text says so instead of printing 100
/// digits (a growth of 1000 % a month for ten years asked for 9.27e124 replicas), and the
/// evaluation lists such a figure as not available.
inline constexpr double kBeyondAnyRealFigure = 1e15;
inline constexpr double kGB = 1e9;
inline constexpr double kGiB = 1073741824.0; // 2^30
inline constexpr double kKiB = 1024.0;
inline constexpr double kTera = 1e12;

enum class MemoryUnits { GB, GiB, Both };

/** "14 GB", "13.04 GiB", or "14 GB (13.04 GiB)". Non-finite values render as "n/a". */
std::string formatBytes(double bytes, MemoryUnits units = MemoryUnits::GB);

/** A message size in the unit a reader of the lesson expects: "262,144 B" below a megabyte,
 *  "25.17 MB" below a gigabyte, then as formatBytes ("24.5 GB"). */
std::string formatMessageBytes(double bytes);

/** A plain number with at most `significant` significant figures, trailing zeros trimmed, and
 *  thousands separators for large values ("1,026", "0.537"). Non-finite: "n/a". */
std::string formatNumber(double value, int significant = 4);

/** Seconds with a readable prefix: "14.54 ms", "0.07 ms" stays ms for < 1 s, "1.96 s", "640 us". */
std::string formatSeconds(double seconds);

/** FLOP/s as "200 TFLOP/s", "14 GFLOP/s". */
std::string formatFlopRate(double flopsPerSecond);

/** FLOP counts as "14 GFLOP", "112 GFLOP". */
std::string formatFlops(double flops);

/** Bandwidth in decimal GB/s: "1,000 GB/s". */
std::string formatBandwidth(double bytesPerSecond);

std::string formatUsd(double usd);

/** How long a run takes, in the unit that reads best: "25 min" below two hours, "10.5 h" below
 *  two days, then "51.7 days". */
std::string formatDuration(double seconds);

/** A large count the way a plan names it: "15 T", "1.3 B", "200 M"; below a million whole
 *  from a thousand ("131,072", "429,587" device-hours), four figures below ("635", "12.5"). */
std::string formatCount(double count);

} // namespace core
