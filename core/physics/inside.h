// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Inside the device, part 2: one layer's matrix multiplication followed tile by tile (lesson
// l.25-27), and the lesson's opening race of a CPU against an accelerator on the same work (l.3,
// l.11).

#include "core/physics/evaluation.h"

#include <string>
#include <string_view>

namespace core {

struct Scenario;
struct DeviceSpec;

/** One step of the tiled matrix multiplication (1 to kMatmulSteps). */
struct MatmulStepInfo
{
    std::string_view title;
    std::string_view text;
};
inline constexpr int kMatmulSteps = 7;
/** Step `step` (clamped to 1..7). Steps 2 to 6 repeat along the shared dimension. */
const MatmulStepInfo &matmulStep(int step);

/** One layer's weight matrix multiplication: activations [rows x hidden] times the FFN's
 *  up-projection [hidden x intermediate] (hidden x hidden when the model has no FFN size). */
struct MatmulCounters
{
    double m = 0; ///< rows: tokens in flight (the batch at decode)
    double k = 0; ///< the shared dimension
    double n = 0;
    double bytesPerElement = 0; ///< the weight format's
    double flops = 0;           ///< 2 m k n
    double bytes = 0;           ///< every operand read once and the result written once
    double reusePerByte = 0;    ///< gemm_intensity(m, k, n, bytes): FLOP per byte from HBM
    double tile = 0;            ///< the illustrative tile edge
    double kSteps = 0;          ///< tiles along the shared dimension: how often steps 2-6 repeat
};
MatmulCounters matmulCounters(const Scenario &scenario, double rows, double tile = 128);

/** One side of the race: the same work on one device. */
struct RaceLane
{
    std::string device;
    double peakFlops = 0;
    double bandwidth = 0; ///< bytes/s
    double matmulSeconds = 0;
    double matmulFlopsPerSecond = 0;
    Bound matmulBound = Bound::Memory;
    double decodeSeconds = 0; ///< one decode step of the whole model at the batch
    double decodeFlopsPerSecond = 0;
    Bound decodeBound = Bound::Memory;
};

struct Race
{
    MatmulCounters matmul;
    RaceLane cpu;
    RaceLane accelerator;
    double matmulSpeedup = 0; ///< CPU time / accelerator time
    double decodeSpeedup = 0;
};

/** The scenario's model at `rows` tokens per step, on `cpu` and on the scenario's device. */
Race race(const Scenario &scenario, const DeviceSpec &cpu, double rows);

} // namespace core
