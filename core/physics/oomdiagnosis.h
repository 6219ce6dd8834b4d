// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The lesson's OOM diagnosis (l.239-268) for the current scenario: the three memory numbers a
// user can ask the stack for, the accounting line by line, and each lever with its computed
// effect and its price.

#include <string>
#include <vector>

namespace core {

struct Scenario;

struct OomLever
{
    std::string name;  ///< "Use 1-byte weights"
    double sequences;  ///< concurrent sequences that fit with the lever pulled
    std::string price; ///< what it costs: quality, latency or money
};

struct OomDiagnosis
{
    // Three numbers, estimated (the tools that report each: framework tensor statistics, the
    // allocator's reserved memory, nvidia-smi-style device totals).
    double tensorBytes = 0;   ///< weights + resident KV cache
    double reservedBytes = 0; ///< tensors + workspace + fragmentation
    double deviceBytes = 0;   ///< reserved + runtime (driver) context
    // The accounting.
    double capacityBytes = 0;
    double weightsBytes = 0;  ///< per device
    double overheadBytes = 0; ///< runtime (driver) context + workspace
    double freeForKvBytes = 0;
    double devices = 1;            ///< tensor-parallel degree: every figure above is per device
    double kvBytesPerSequence = 0; ///< one sequence's whole KV cache (all devices together)
    /** What one sequence takes on each device: its KV share, fragmentation included. */
    double kvBytesPerSequencePerDevice = 0;
    double sequencesExact = 0; ///< free / KV per sequence per device, unrounded (13.97)
    double sequencesFit = 0;   ///< whole sequences (13)
    double firstFailing = 0;   ///< the request that fails (the 14th)
    double configured = 0;     ///< sequences the engine was configured for
    double admissionLimit = 0; ///< the guarded limit with the margin
    bool configuredFits = false;
    std::vector<OomLever> levers;
};

OomDiagnosis diagnoseOom(const Scenario &scenario);

} // namespace core
