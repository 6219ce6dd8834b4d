// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a capacity decision rests on, for the people who sign it (issue #25): the recommended
// option's cost in one table, the alternatives beside it, how far each uncertain input moves the
// monthly cost and the binding check's margin (a tornado, each input varied over a stated range),
// and traffic growth month by month against what the fleet can serve. Every figure is the checks'
// own: each end of each range re-runs the device-selection checks on the recommended device and
// format with that one input changed.

#include "core/decide/selection.h"

#include <limits>
#include <string>
#include <vector>

namespace core {

/** The fleet's money in one place: devices x price -> hour, month and year -> tokens a month ->
 *  cost per million tokens, beside the hosted API's month for the same requests. */
struct CostSummary
{
    bool priced = false; ///< false: the device has no price (never another's)
    std::string fleet;   ///< "16 devices = 2 replicas x TP 8"
    double devices = 0;
    double pricePerDeviceHour = std::numeric_limits<double>::quiet_NaN();
    double usdPerHour = std::numeric_limits<double>::quiet_NaN();
    double usdPerMonth = std::numeric_limits<double>::quiet_NaN(); ///< 730 hours
    double usdPerYear = std::numeric_limits<double>::quiet_NaN();
    double tokensPerMonth = std::numeric_limits<double>::quiet_NaN(); ///< generated, served
    double usdPerMillionTokens = std::numeric_limits<double>::quiet_NaN();
    double apiUsdPerMonth = std::numeric_limits<double>::quiet_NaN(); ///< NaN: no API prices
    double apiUsdPerMillionTokens = std::numeric_limits<double>::quiet_NaN();
    double utilisation = std::numeric_limits<double>::quiet_NaN(); ///< of the paid hours
    bool fromTraffic = false; ///< the tokens come from the traffic given, not a utilisation
};

CostSummary costSummary(const Candidate &candidate);

/** The options a decision compares: the recommended one first, then the best of each other
 *  device (passing before failing, cheaper first), at most `count`. */
std::vector<const Candidate *> alternatives(const Selection &selection, std::size_t count = 4);

/** The one risk a reader must know about an option, in words: its first failing check's reason,
 *  else its first warning's, else "none found by the six checks". */
std::string mainRisk(const Candidate &candidate);
/** The same risk in a few words, the check's own headline ("Throughput and latency: a burst
 *  waits 39.46 s"): a summary page's table, whose reader finds the reasoning further on. */
std::string mainRiskInBrief(const Candidate &candidate);
/** Why a check warns or fails, in one line from its figures ("if all 40 prompts arrive at once
 *  the last waits 7.1 s against the 1.5 s first-token target"); empty when it passes. */
std::string checkReason(const CheckResult &check, const Candidate &candidate);

enum class MarginKind { Memory, FirstToken, Pacing };

/** How much room a check leaves, as a fraction: memory headroom / capacity, first-token target /
 *  estimate - 1, tokens/s per user / pacing target - 1. Negative: the check fails. */
struct Margin
{
    MarginKind kind = MarginKind::Memory;
    std::string label; ///< "memory headroom", "first token", "pace per user"
    double value = std::numeric_limits<double>::quiet_NaN();
};

/** The margin of one kind for a candidate (from its checks' figures). */
Margin marginOf(const Candidate &candidate, MarginKind kind);
/** The smallest of the three: the check that binds the decision. */
Margin bindingMargin(const Candidate &candidate);

/** One uncertain input and the range it is varied over. */
struct SensitivityRange
{
    std::string key;      ///< "efficiency", "traffic", "context", "concurrency", "price", "growth"
    std::string label;    ///< "Efficiency (delivered speed)"
    std::string lowText;  ///< the low end in the input's terms: "x0.52 (typical HBM fit)"
    std::string highText; ///< "x1 (speed of light)"
    std::string origin;   ///< where the range comes from: "sensitivity.price_low/high"
    double low = 1;       ///< factor (growth: the rate per month)
    double high = 1;
};

/** One bar of the tornado: the monthly cost and the binding margin at each end. */
struct TornadoBar
{
    SensitivityRange range;
    double costLow = std::numeric_limits<double>::quiet_NaN();
    double costHigh = std::numeric_limits<double>::quiet_NaN();
    double marginLow = std::numeric_limits<double>::quiet_NaN();
    double marginHigh = std::numeric_limits<double>::quiet_NaN();
    bool passesLow = true; ///< the option still passes every check at that end
    bool passesHigh = true;
    double costSwing() const;   ///< |high - low| (0 when either is not a number)
    double marginSwing() const; ///< |high - low|
};

struct Sensitivity
{
    bool available = false; ///< false: no recommended option (or training: no serving inputs)
    std::string why;        ///< when not available
    std::string option;     ///< "NVIDIA H100 SXM, FP8: 16 devices = 2 replicas x TP 8"
    double baseCost = std::numeric_limits<double>::quiet_NaN();
    Margin baseMargin;
    std::vector<TornadoBar> bars; ///< widest cost swing first
    /// low / base / high: the month's cost over every input's ends; today's fleet's capacity
    /// (its replicas, tokens a month at 100 % busy) over the efficiency range
    double costLow = std::numeric_limits<double>::quiet_NaN();
    double costHigh = std::numeric_limits<double>::quiet_NaN();
    double capacityLow = std::numeric_limits<double>::quiet_NaN();
    double capacityBase = std::numeric_limits<double>::quiet_NaN();
    double capacityHigh = std::numeric_limits<double>::quiet_NaN();
    std::string mainUncertainty; ///< one sentence: the widest bar and what it spans
};

/** The ranges for `scenario` (its sensitivity section, the efficiency range from its estimate)
 *  as they apply to `best`. */
std::vector<SensitivityRange> sensitivityRanges(const Scenario &scenario, const Candidate &best);

/** `scenario` with one input moved to `factor` (growth: the rate, applied over the horizon). */
Scenario varied(const Scenario &scenario, const Candidate &best, const SensitivityRange &range,
                double factor);

/** The recommended option re-checked on `scenario` (its device and format, the shape the checks
 *  choose for it there). */
Candidate recheck(const Scenario &scenario, const Candidate &best);

/** The tornado for the recommended option of `selection` (made from `scenario`). */
Sensitivity sensitivity(const Scenario &scenario, const Selection &selection);

/** One month of the growth plan. */
struct GrowthMonth
{
    int month = 0;
    double demandFactor = 1;          ///< (1 + growth)^month
    double demandTokensPerSecond = 0; ///< generated tokens, the month's average
    double replicas = 0;              ///< what the checks need that month
    double usdPerMonth = std::numeric_limits<double>::quiet_NaN();
    double capacityTokensPerSecond = 0; ///< today's fleet, sustained
};

struct GrowthPlan
{
    bool available = false;
    std::string why; ///< when not available
    double growthPerMonth = 0;
    int horizonMonths = 0;
    std::vector<GrowthMonth> months;   ///< month 0 (today) to the horizon, or to beyondMonth
    int runOutMonth = -1;              ///< the first month today's fleet is too small; -1: never
    std::vector<int> addReplicaMonths; ///< each month the replicas needed go up
    double horizonUsd = std::numeric_limits<double>::quiet_NaN(); ///< months 0 .. horizon - 1
    /// the first month whose fleet would pass serving.replicas' maximum (a million replicas):
    /// beyond any real fleet, so the plan stops before it; -1: within reach to the horizon
    int beyondMonth = -1;
    std::string sentence; ///< the plan in one sentence, for the report
};

/** Traffic growing by `traffic.growth_per_month` for `traffic.horizon_months` on the recommended
 *  option. Without traffic given, today's demand is the utilisation of today's fleet. */
GrowthPlan growthPlan(const Scenario &scenario, const Selection &selection);

} // namespace core

namespace core {

/** The `accel-calc outlook` document: {"option", "cost", "alternatives", "sensitivity",
 *  "growth"}, SI units and USD (docs/scenario-format.md). */
std::string outlookToJson(const Scenario &scenario, const Selection &selection);

} // namespace core
