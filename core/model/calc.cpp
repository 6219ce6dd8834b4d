// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/calc.h"

#include "core/model/scenario.h"

#include <algorithm>
#include <cmath>

namespace core {

double maxSequences(double freeBytes, double bytesPerSequence)
{
    if (!(bytesPerSequence > 0.0) || !(freeBytes > 0.0))
        return 0.0;
    return std::floor(freeBytes / bytesPerSequence);
}

double rooflineAttainable(double peakFlops, double bandwidthBytes, double intensity)
{
    return std::min(peakFlops, bandwidthBytes * intensity);
}

double ringAllReduceTrafficPerDevice(double messageBytes, double devices)
{
    if (!(devices > 1.0))
        return 0.0;
    return 2.0 * (devices - 1.0) / devices * messageBytes;
}

double gemmIntensity(double m, double k, double n, double bytesPerElement)
{
    double bytes = bytesPerElement * (m * k + k * n + m * n);
    return bytes > 0.0 ? 2.0 * m * k * n / bytes : 0.0;
}

double expectedDistinctExperts(double experts, double expertsPerToken, double batch)
{
    if (!(experts > 0.0))
        return 0.0;
    double missProbability = 1.0 - expertsPerToken / experts;
    return experts * (1.0 - std::pow(missProbability, batch));
}

double activationBytesPerLayer(double sequenceLength, double microBatch, double hiddenSize,
                               double attentionHeads, RecomputeMode mode)
{
    const double sbh = sequenceLength * microBatch * hiddenSize;
    switch (mode) {
    case RecomputeMode::None:
        return sbh * (34.0 + 5.0 * attentionHeads * sequenceLength / hiddenSize);
    case RecomputeMode::Selective:
        return 34.0 * sbh;
    case RecomputeMode::Full:
        return 2.0 * sbh;
    }
    return 0.0;
}

double joulesPerToken(double busyWatts, double idleFraction, double tokensPerSecond,
                      double utilisation)
{
    double averageWatts = busyWatts * utilisation + busyWatts * idleFraction * (1.0 - utilisation);
    double usefulTokensPerSecond = tokensPerSecond * utilisation;
    return usefulTokensPerSecond > 0.0 ? averageWatts / usefulTokensPerSecond : 0.0;
}

} // namespace core
