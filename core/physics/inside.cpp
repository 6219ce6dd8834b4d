// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/physics/inside.h"

#include "core/model/calc.h"
#include "core/model/scenario.h"
#include "core/model/scenarioedits.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace core {

namespace {

constexpr std::array<MatmulStepInfo, kMatmulSteps> kSteps{{
    {"Operands in HBM, kernel launched",
     "The weight matrix and the activations sit in HBM; the host has launched the kernel, which "
     "splits the output into tiles, one per group of matrix units."},
    {"DMA copies tiles into SRAM",
     "DMA engines copy one tile of weights and one tile of activations from HBM into on-chip "
     "SRAM, without occupying the arithmetic units."},
    {"Tiles into the operand registers",
     "The tiles move from SRAM into the matrix units' operand registers."},
    {"Multiply and accumulate",
     "The matrix unit performs every multiply and add of the tile product in a handful of clock "
     "cycles."},
    {"The accumulator stays on chip",
     "The partial sums stay in the accumulator on chip: the large intermediate sums never visit "
     "HBM."},
    {"Prefetch the next tile",
     "While this tile computes, DMA fetches the next one along the shared dimension; steps 2 to 6 "
     "repeat until the shared dimension is done."},
    {"Epilogue and write-back",
     "The vector unit applies the epilogue (bias, activation function, type conversion) and the "
     "finished result tile is written back to HBM."},
}};

} // namespace

const MatmulStepInfo &matmulStep(int step)
{
    return kSteps[std::size_t(std::clamp(step, 1, kMatmulSteps) - 1)];
}

MatmulCounters matmulCounters(const Scenario &s, double rows, double tile)
{
    MatmulCounters c;
    c.m = std::max(1.0, rows);
    c.k = s.model.hiddenSize;
    c.n = isSet(s.model.intermediateSize) ? s.model.intermediateSize : s.model.hiddenSize;
    c.bytesPerElement = nominalBytes(s.serving.weightFormat);
    c.flops = 2.0 * c.m * c.k * c.n;
    c.bytes = c.bytesPerElement * (c.m * c.k + c.k * c.n + c.m * c.n);
    c.reusePerByte = gemmIntensity(c.m, c.k, c.n, c.bytesPerElement);
    c.tile = tile;
    c.kSteps = std::ceil(c.k / tile);
    return c;
}

namespace {

RaceLane lane(const Scenario &base, const DeviceSpec &device, const MatmulCounters &matmul,
              double rows)
{
    Scenario s = onDevice(base, device).scenario;
    s.serving.batch = std::max(1.0, rows);
    s.serving.concurrentSequences = std::max(s.serving.concurrentSequences, s.serving.batch);
    s.serving.tensorParallel = 1;
    const Evaluation e = evaluate(s);
    RaceLane r;
    r.device = device.name;
    r.peakFlops = e[FigureId::PeakFlops];
    r.bandwidth = e[FigureId::Bandwidth];
    const double memory = matmul.bytes / r.bandwidth;
    const double compute = matmul.flops / r.peakFlops;
    r.matmulSeconds = std::max(memory, compute);
    r.matmulFlopsPerSecond = matmul.flops / r.matmulSeconds;
    r.matmulBound = compute > memory ? Bound::Compute : Bound::Memory;
    r.decodeSeconds = e[FigureId::DecodeStepSeconds];
    r.decodeFlopsPerSecond = e[FigureId::DecodeFlopsPerStep] / r.decodeSeconds;
    r.decodeBound = e.decodeBound;
    return r;
}

} // namespace

Race race(const Scenario &s, const DeviceSpec &cpu, double rows)
{
    Race r;
    r.matmul = matmulCounters(s, rows);
    r.cpu = lane(s, cpu, r.matmul, rows);
    r.accelerator = lane(s, s.device, r.matmul, rows);
    r.matmulSpeedup = r.cpu.matmulSeconds / r.accelerator.matmulSeconds;
    r.decodeSpeedup = r.cpu.decodeSeconds / r.accelerator.decodeSeconds;
    return r;
}

} // namespace core
