// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/physics/lessonfigures.h"

#include "core/model/scenario.h"
#include "core/model/weightparts.h"

#include <array>
#include <cmath>
#include <limits>

namespace core {

namespace {

struct Row
{
    FigureId id;
    double batch;      ///< NaN: any batch
    double concurrent; ///< NaN: any
    NumericFormat weights;
    const char *printed;
    int line;
};

constexpr double kAny = std::numeric_limits<double>::quiet_NaN();
constexpr NumericFormat B = NumericFormat::Bf16;
constexpr NumericFormat I8 = NumericFormat::Int8;

// clang-format off
constexpr std::array kRows = std::to_array<Row>({
    {FigureId::WeightsBytes, kAny, kAny, B, "14 GB", 45},
    {FigureId::WeightsBytes, kAny, kAny, I8, "7 GB", 46},
    {FigureId::KvBytesPerToken, kAny, kAny, B, "131,072 B", 78},
    {FigureId::KvBytesPerToken, kAny, kAny, I8, "131,072 B", 78},
    {FigureId::KvBytesPerSequence, kAny, kAny, B, "0.537 GB", 81},
    {FigureId::KvBytesPerSequence, kAny, kAny, I8, "0.537 GB", 81},
    {FigureId::KvBytesTotal, kAny, 32, B, "17.18 GB", 84},
    {FigureId::Ridge, kAny, kAny, B, "200 FLOP/B", 93},
    {FigureId::Ridge, kAny, kAny, I8, "200 FLOP/B", 93},
    {FigureId::DecodeIntensityLimit, kAny, kAny, B, "about 26 FLOP/B", 125},
    {FigureId::DecodeWeightsOnlySeconds, kAny, kAny, B, "14.0 ms", 103},
    {FigureId::DecodeWeightsOnlyTokensPerSecond, kAny, kAny, B, "71.4 tokens/s", 103},
    {FigureId::DecodeWeightsOnlySeconds, kAny, kAny, I8, "7.0 ms", 104},
    {FigureId::DecodeWeightsOnlyTokensPerSecond, kAny, kAny, I8, "142.9 tokens/s", 104},
    {FigureId::DecodeIntensity, 1, kAny, B, "about 1 FLOP/B", 93},
    {FigureId::DecodeComputeSeconds, 1, kAny, B, "0.07 ms", 109},
    {FigureId::DecodeBytesPerStep, 1, kAny, B, "14.54 GB", 121},
    {FigureId::DecodeStepSeconds, 1, kAny, B, "14.5 ms", 121},
    {FigureId::DecodeTokensPerSecond, 1, kAny, B, "68.8", 121},
    {FigureId::DecodeTokensPerSecondPerSequence, 1, kAny, B, "68.8", 121},
    {FigureId::DecodeBytesPerStep, 8, kAny, B, "18.29 GB", 122},
    {FigureId::DecodeStepSeconds, 8, kAny, B, "18.3 ms", 122},
    {FigureId::DecodeTokensPerSecond, 8, kAny, B, "437", 122},
    {FigureId::DecodeTokensPerSecondPerSequence, 8, kAny, B, "54.7", 122},
    {FigureId::DecodeBytesPerStep, 32, kAny, B, "31.18 GB", 123},
    {FigureId::DecodeStepSeconds, 32, kAny, B, "31.2 ms", 123},
    {FigureId::DecodeTokensPerSecond, 32, kAny, B, "1,026", 123},
    {FigureId::DecodeTokensPerSecondPerSequence, 32, kAny, B, "32.1", 123},
    {FigureId::TrainingStateBytes, kAny, kAny, B, "112 GB", 63},
    {FigureId::TrainingStateBytes, kAny, kAny, I8, "112 GB", 63},
});
// clang-format on

/** The lesson's 7B on the lesson's 1,000 GB/s, 200 TFLOP/s device, toy assumptions intact. */
bool isLessonSetting(const Scenario &s)
{
    const bool lessonDevice = s.device.presetId.starts_with("lesson-accelerator");
    const ServingConfig &sv = s.serving;
    return s.model.presetId == "lesson-7b" && lessonDevice && sv.kvFormat == NumericFormat::Bf16 &&
           sv.contextTokens == 4096 && sv.bandwidthEfficiency == 1.0 &&
           sv.computeEfficiency == 1.0 && sv.tensorParallel == 1.0 && sv.quant.groupSize == 0 &&
           !sv.keepEmbeddings16Bit && !partsDiffer(sv) && sv.stepOverheadSeconds == 0.0 &&
           sv.attentionFlops == 0.0 && sv.kvWrite == 0.0 && sv.smallKernels == 0.0 &&
           !s.calibration.active() &&
           (!sv.computeFormat || *sv.computeFormat == NumericFormat::Bf16);
}

} // namespace

std::optional<LessonBadge> lessonBadge(const Scenario &scenario, FigureId id)
{
    // l.182-184: $4 per device-hour, a sustained 400 tokens/s while busy, at 100, 70 and 35 %
    if (id == FigureId::CostUsdPerMillionTokens) {
        const CostConfig &c = scenario.cost;
        const bool example = c.pricePerHourUsd == 4.0 && c.sustainedTokensPerSecond == 400.0 &&
                             c.throttleFactor == 1.0 && !isSet(scenario.traffic.requestsPerDay);
        if (example && c.utilisation == 1.0)
            return LessonBadge{"$2.78", 182};
        if (example && c.utilisation == 0.70)
            return LessonBadge{"$3.97", 183};
        if (example && c.utilisation == 0.35)
            return LessonBadge{"$7.94", 184};
        return std::nullopt;
    }
    if (!isLessonSetting(scenario))
        return std::nullopt;
    const ServingConfig &sv = scenario.serving;
    for (const Row &row : kRows) {
        if (row.id != id || row.weights != sv.weightFormat)
            continue;
        if (!std::isnan(row.batch) && row.batch != sv.batch)
            continue;
        if (!std::isnan(row.concurrent) &&
            row.concurrent != std::max(sv.batch, sv.concurrentSequences))
            continue;
        if (id == FigureId::TrainingStateBytes && scenario.training.bytesPerParameter() != 16.0)
            continue;
        return LessonBadge{row.printed, row.line};
    }
    return std::nullopt;
}

} // namespace core
