// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The lesson's formulas as pure functions of plain numbers (KV bytes per token has one home:
// core/model/architecture.h's per-layer-group rule). evaluate() composes them; views and
// tests may call them directly (the matmul view's gemmIntensity, the KV chart's maxSequences).

namespace core {

/** Whole sequences of `bytesPerSequence` that fit in `freeBytes`; never below 0 (lesson l.272). */
double maxSequences(double freeBytes, double bytesPerSequence);

/** The roof: attainable FLOP/s at an intensity, min(peak, bandwidth x intensity). */
double rooflineAttainable(double peakFlops, double bandwidthBytes, double intensity);

/** Ring all-reduce: each device's link carries 2(N-1)/N x the message (lesson l.159). */
double ringAllReduceTrafficPerDevice(double messageBytes, double devices);

/** FLOP per byte of C = A(MxK) x B(KxN) when A, B and C each cross memory once:
 *  2MKN / (b(MK + KN + MN)); about 1 FLOP/B at M = 1 in 16-bit. */
double gemmIntensity(double m, double k, double n, double bytesPerElement);

/** Expected number of distinct experts a batch touches in one MoE layer: E(1 - (1 - k/E)^batch). */
double expectedDistinctExperts(double experts, double expertsPerToken, double batch);

enum class RecomputeMode;

/** Activation bytes stored for the backward pass by one transformer layer with 16-bit
 *  activations, from Korthikanti et al. 2022, "Reducing Activation Recomputation in Large
 *  Transformer Models", eq. 1 and section 5 (no tensor or sequence parallelism):
 *  none: s b h (34 + 5 a s / h); selective: 34 s b h; full: 2 s b h (the layer input only). */
double activationBytesPerLayer(double sequenceLength, double microBatch, double hiddenSize,
                               double attentionHeads, RecomputeMode mode);

/** Energy per generated token, charging idle power to the tokens made while busy:
 *  (P x u + P x idle_fraction x (1 - u)) / (tokens/s x u). */
double joulesPerToken(double busyWatts, double idleFraction, double tokensPerSecond,
                      double utilisation);

} // namespace core
