// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The fleet's rules, each written once (docs/architecture.md, "which rule lives where"): the
// request rate a fleet is sized for, what one busy replica does per request, the replicas a rate
// needs, the availability minimum, hours in a month and the money. Evaluation, the checks, the
// outlook, the split proposal, the load simulation and the Cost view all call these, so a fleet
// has one size and one price wherever it is shown (issue #40).

#include "core/model/scenario.h"

namespace core {

inline constexpr double kHoursPerMonth = 730.0; ///< 8,760 h a year / 12
inline constexpr double kSecondsPerDay = 86400.0;

/** traffic.requests_per_day spread over the day; unset when no daily volume is given. */
double averageRequestsPerSecond(const TrafficConfig &traffic);

/** The rate a fleet is sized for, in one fallback order: traffic.peak_requests_per_second when
 *  given, else the daily average, else unset (no traffic). */
double peakRequestsPerSecond(const TrafficConfig &traffic);

/** The availability minimum: max(1, ceil(wizard.min_replicas)). */
double minimumReplicas(const WizardConfig &wizard);

/** The least the fleet runs: the availability minimum, or serving.replicas when it is more (a
 *  decided fleet, sized for the peak under load). */
double minimumReplicas(const Scenario &scenario);

/**
 * What one busy replica spends on a request, on one basis: its prompt's prefill, then its output
 * at the replica's decode rate (the batch's total tokens/s, every sequence sharing each step).
 * A measured sustained rate already counts everything a replica does, prefill included, so it
 * stands alone (prefillSeconds 0).
 */
struct ReplicaWork
{
    double prefillSeconds = 0;        ///< per request
    double outputTokens = 0;          ///< generated tokens per request
    double decodeTokensPerSecond = 0; ///< the replica's total at its batch

    double secondsPerRequest() const
    {
        return prefillSeconds + outputTokens / decodeTokensPerSecond;
    }
    /// Output tokens a busy replica delivers per second, its prefill time counted.
    double tokensPerBusySecond() const;
};

/** One replica's work in a scenario: prefill of the prompt (slowed by the throttle factor) and
 *  the output at the decode estimate x throttle, or the measured cost.sustained_tokens_per_second
 *  alone. `prefillSeconds` and `decodeTokensPerSecond` are the evaluation's own figures. */
ReplicaWork replicaWork(const Scenario &scenario, double prefillSeconds,
                        double decodeTokensPerSecond);

/** Replicas that keep up with `requestsPerSecond` when each request busies a replica for
 *  `secondsPerRequest`: ceil(rate x seconds), at least `minimum`. */
double replicasForRate(double requestsPerSecond, double secondsPerRequest, double minimum);

/** A busy fraction back to the request rate it serves: u x replicas / seconds per request. */
double requestsPerSecondAt(double utilisation, double replicas, double secondsPerRequest);

double usdPerMonth(double usdPerHour); ///< x 730 h

/** Price per hour over the tokens an hour of it serves, x 1e6: the lesson's
 *  $4 / (1.44 M x 0.70) = $3.97 (l.182), and a fleet's month over its month of tokens (the
 *  replicas cancel). Infinite when it serves no tokens (every hour paid, no token made). */
double usdPerMillionTokens(double usdPerHour, double tokensPerBusyHour, double utilisation);

} // namespace core
