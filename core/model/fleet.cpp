// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/fleet.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace core {

double averageRequestsPerSecond(const TrafficConfig &traffic)
{
    return isSet(traffic.requestsPerDay) ? traffic.requestsPerDay / kSecondsPerDay : kUnset;
}

double peakRequestsPerSecond(const TrafficConfig &traffic)
{
    if (isSet(traffic.peakRequestsPerSecond))
        return traffic.peakRequestsPerSecond;
    return averageRequestsPerSecond(traffic);
}

double minimumReplicas(const WizardConfig &wizard)
{
    return std::max(1.0, std::ceil(wizard.minReplicas));
}

double minimumReplicas(const Scenario &scenario)
{
    const double fleet = scenario.serving.replicas;
    return std::max(minimumReplicas(scenario.wizard), isSet(fleet) ? std::ceil(fleet) : 1.0);
}

double ReplicaWork::tokensPerBusySecond() const
{
    return outputTokens > 0.0 ? outputTokens / secondsPerRequest() : decodeTokensPerSecond;
}

ReplicaWork replicaWork(const Scenario &scenario, double prefillSeconds,
                        double decodeTokensPerSecond)
{
    const CostConfig &c = scenario.cost;
    ReplicaWork w;
    w.outputTokens = std::max(0.0, scenario.serving.contextTokens - scenario.serving.promptTokens);
    if (isSet(c.sustainedTokensPerSecond)) {
        w.decodeTokensPerSecond = c.sustainedTokensPerSecond; // measured: prefill included
        return w;
    }
    w.decodeTokensPerSecond = decodeTokensPerSecond * c.throttleFactor;
    w.prefillSeconds = std::isfinite(prefillSeconds) ? prefillSeconds / c.throttleFactor : 0.0;
    return w;
}

double replicasForRate(double requestsPerSecond, double secondsPerRequest, double minimum)
{
    // a hair below a whole replica's worth is that replica (rounding of the product)
    return std::max(minimum, std::ceil(requestsPerSecond * secondsPerRequest - 1e-9));
}

double requestsPerSecondAt(double utilisation, double replicas, double secondsPerRequest)
{
    return utilisation * replicas / secondsPerRequest;
}

double usdPerMonth(double usdPerHour)
{
    return usdPerHour * kHoursPerMonth;
}

double usdPerMillionTokens(double usdPerHour, double tokensPerBusyHour, double utilisation)
{
    const double usefulTokens = tokensPerBusyHour * utilisation;
    // a fleet that serves nothing pays for every hour and makes no token: no price per token
    return usefulTokens > 0.0 ? usdPerHour / usefulTokens * 1e6
                              : std::numeric_limits<double>::infinity();
}

} // namespace core
