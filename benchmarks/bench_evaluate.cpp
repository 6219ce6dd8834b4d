// SPDX-License-Identifier: GPL-3.0-or-later
// How long the core takes: one full evaluation of the lesson's default scenario, and a decode
// sweep over batch 1..1024 (what the roofline trail and throughput chart ask for per slider step).
// Prints medians and 99th percentiles in microseconds; measures, never asserts.

#include "core/calibrate/calibration.h"
#include "core/calibrate/fit.h"
#include "core/data/presets.h"
#include "core/data/scenarioio.h"
#include "core/decide/selection.h"
#include "core/output/exports.h"
#include "core/physics/evaluation.h"
#include "core/physics/operators.h"
#include "core/physics/techniques.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Summary
{
    double median;
    double p99;
};

template <typename Work> Summary measure(int repetitions, int innerLoops, Work &&work)
{
    std::vector<double> microseconds;
    microseconds.reserve(std::size_t(repetitions));
    for (int r = 0; r < repetitions; ++r) {
        const auto start = Clock::now();
        for (int i = 0; i < innerLoops; ++i)
            work();
        const auto stop = Clock::now();
        microseconds.push_back(std::chrono::duration<double, std::micro>(stop - start).count() /
                               innerLoops);
    }
    std::sort(microseconds.begin(), microseconds.end());
    return {microseconds[microseconds.size() / 2], microseconds[microseconds.size() * 99 / 100]};
}

volatile double sink; // keeps the optimiser from discarding the work

} // namespace

int main()
{
    const core::Scenario scenario = core::lessonDefaultScenario();

    const Summary evaluate = measure(2000, 100, [&] {
        const core::Evaluation e = core::evaluate(scenario);
        sink = e[core::FigureId::DecodeStepSeconds];
    });

    std::vector<double> batches;
    for (int b = 1; b <= 1024; ++b)
        batches.push_back(b);
    const Summary sweep = measure(500, 4, [&] {
        const auto points = core::sweepBatch(scenario, batches);
        sink = points.back().stepSeconds;
    });

    const Summary readFile = measure(200, 4, [&] {
        auto loaded = core::readScenario(core::writeScenario(scenario));
        sink = loaded.ok() ? loaded.value().scenario.serving.batch : 0.0;
    });

    // The calibration's fit: 1,000 measurements, three bounded coefficients (overhead, seconds
    // per byte, seconds per FLOP).
    core::LinearFitProblem fitProblem;
    fitProblem.columns = 3;
    for (int i = 0; i < 1000; ++i) {
        const double bytes = 2e9 + 1e7 * i;
        const double flops = 1e12 * (1 + i % 17);
        fitProblem.design.insert(fitProblem.design.end(), {1.0, bytes, flops});
        fitProblem.targets.push_back(0.004 + bytes / 8e11 + flops / 5e14 + 1e-5 * (i % 7));
    }
    fitProblem.lower = {0, 0, 0};
    const Summary fit = measure(50, 1, [&] {
        auto fitted = core::fitLinearLeastSquares(fitProblem);
        sink = fitted ? fitted->coefficients[0] : 0.0;
    });

    // Issue #24: a whole calibration, 1,000 measurements (the 18 published runs repeated with
    // other batches, so the device, device+engine and class fits all run), from the measurements
    // as read to the profile with every point's residual.
    std::vector<core::Measurement> measurements;
    const auto &published = core::publishedMeasurements().rows;
    for (int i = 0; measurements.size() < 1000; ++i) {
        core::Measurement m = published[std::size_t(i) % published.size()];
        m.scenario.serving.batch = std::max(1.0, m.scenario.serving.batch) * double(1 + i % 5);
        m.scenario.serving.concurrentSequences = m.scenario.serving.batch;
        measurements.push_back(m);
    }
    const Summary calibration = measure(10, 1, [&] {
        auto fitted = core::calibrate(measurements);
        sink = fitted ? fitted->medianAbsoluteError : 0.0;
    });

    // Issue #21: the checks over every device preset x the seven storage formats a wizard can
    // try, each trying tensor-parallel groups 1, 2, 4, 8 (and pipeline stages where none fits):
    // the Llama-3.1-70B fleet, where most devices need a split.
    auto fleet = core::readScenario(*core::scenarioPresetText("llama-70b-fleet"));
    core::Scenario everything = fleet.value().scenario;
    core::Diagnostics problems;
    std::vector<core::CandidateDevice> devices;
    for (const core::PresetInfo &info : core::presetList()) {
        if (info.kind == "device")
            devices.push_back({info.id, core::devicePreset(info.id).value()});
    }
    const std::vector<core::NumericFormat> formats = {
        core::NumericFormat::Bf16, core::NumericFormat::Fp16, core::NumericFormat::Fp8,
        core::NumericFormat::Int8, core::NumericFormat::Int4, core::NumericFormat::Nvfp4,
        core::NumericFormat::Mxfp4};
    std::size_t shapes = 0;
    const Summary select = measure(20, 1, [&] {
        const core::Selection selection = core::selectDevice(everything, devices, formats);
        shapes = selection.candidates.size();
        sink = selection.recommendation.replicas;
    });

    // Issue #27: what a slider step adds when the engine section is on: the speculative
    // analysis (batch 1..1,024 scanned for where it stops paying) with a draft model, its curve
    // for the throughput view, and one operator breakdown (Llama 2 7B, decode).
    const std::vector<std::string> engineSets = {"model=llama-2-13b", "engine.speculative_tokens=4",
                                                 "engine.draft_model=llama-2-7b"};
    auto engine = core::readScenario(*core::scenarioPresetText("lesson-default"), engineSets);
    const core::Scenario speculative = engine.value().scenario;
    const Summary speculation = measure(50, 2, [&] {
        auto a = core::analyseSpeculative(speculative);
        sink = a ? a->lastPayingBatch : 0.0;
    });
    const Summary speculativeCurve = measure(50, 2, [&] {
        auto points = core::sweepSpeculative(speculative, batches);
        sink = points ? points.value().back().speedup : 0.0;
    });
    const std::vector<std::string> sevenBSets = {"model=llama-2-7b"};
    auto sevenB = core::readScenario(*core::scenarioPresetText("lesson-default"), sevenBSets);
    const core::Scenario llama = sevenB.value().scenario;
    const Summary operators = measure(500, 4, [&] {
        auto b = core::operatorBreakdown(llama, core::Phase::Decode);
        sink = b ? b->seconds : 0.0;
    });

    // the typical estimate on a real device (issue #43: measured ceilings, KV efficiency and
    // time per sequence, all read per evaluation) against the same scenario at the speed of light
    auto fleetRead = core::readScenario(*core::scenarioPresetText("llama-70b-fleet"), {});
    const core::Scenario fleetTypical = fleetRead.value().scenario;
    core::Scenario fleetLight = fleetTypical;
    fleetLight.calibration.mode = core::EstimateMode::SpeedOfLight;
    const Summary typical = measure(
        2000, 100, [&] { sink = core::evaluate(fleetTypical)[core::FigureId::DecodeStepSeconds]; });
    // Issue #46: LLM-Viewer's analyze(1024, 1) on Llama-2-7b-hf and nvidia_A100_80G, the case
    // its fixture was made with (tests/fixtures/llmviewer), for the ratio in docs/benchmarks.md
    const std::vector<std::string> viewerSets = {"model=llama-2-7b",
                                                 "device=nvidia-a100-80gb-sxm",
                                                 "serving.context_tokens=1024",
                                                 "serving.prompt_tokens=1024",
                                                 "serving.batch=1",
                                                 "serving.concurrent_sequences=1"};
    auto viewerRead = core::readScenario(*core::scenarioPresetText("lesson-default"), viewerSets);
    const core::Scenario viewerScenario = viewerRead.value().scenario;
    const Summary llmViewerCase = measure(2000, 100, [&] {
        sink = core::evaluate(viewerScenario)[core::FigureId::DecodeStepSeconds];
    });
    // Issue #46: a sweep of 2,000 context lengths applies each value to the one scenario read;
    // a scenario that sets every key (as the app saves it) against a minimal one, and the way
    // before (the file read again for each value, as --set reads it)
    const std::string minimalText = R"({"format": "accel-explorer/scenario", "version": 1})";
    const core::Scenario minimal = core::readScenario(minimalText).value().scenario;
    const std::string fullText = core::writeScenario(minimal); // the same, every key stated
    const core::Scenario full = core::readScenario(fullText).value().scenario;
    std::vector<double> contexts;
    contexts.reserve(2000);
    for (int i = 0; i < 2000; ++i)
        contexts.push_back(4096 + 16 * i); // from the lesson's 4,096-token prompt
    const Summary sweepMinimal = measure(5, 1, [&] {
        auto t = core::sweepParameter(minimal, "serving.context_tokens", contexts);
        sink = t ? t.value().rows.back().front() : 0.0;
    });
    const Summary sweepFull = measure(5, 1, [&] {
        auto t = core::sweepParameter(full, "serving.context_tokens", contexts);
        sink = t ? t.value().rows.back().front() : 0.0;
    });
    const Summary sweepReread = measure(5, 1, [&] {
        for (double c : contexts) {
            const std::vector<std::string> set = {"serving.context_tokens=" +
                                                  std::to_string(int(c))};
            auto read = core::readScenario(fullText, set);
            sink = core::evaluate(read.value().scenario)[core::FigureId::DecodeStepSeconds];
        }
    });
    const Summary light = measure(
        2000, 100, [&] { sink = core::evaluate(fleetLight)[core::FigureId::DecodeStepSeconds]; });

    std::printf("evaluate (LLM-Viewer's case: Llama 2 7B, A100 80 GB, typical, 1,024 tokens, "
                "batch 1): median %8.3f us   p99 %8.3f us\n",
                llmViewerCase.median, llmViewerCase.p99);
    std::printf("evaluate (lesson-default):        median %8.3f us   p99 %8.3f us\n",
                evaluate.median, evaluate.p99);
    std::printf("evaluate (llama-70b-fleet, typical): median %8.3f us   p99 %8.3f us\n",
                typical.median, typical.p99);
    std::printf("evaluate (llama-70b-fleet, speed of light): median %8.3f us   p99 %8.3f us   "
                "(typical / light %.2fx)\n",
                light.median, light.p99, typical.median / light.median);
    std::printf(
        "sweepBatch 1..1024 (1024 points):  median %8.3f us   p99 %8.3f us   (%.3f us/point)\n",
        sweep.median, sweep.p99, sweep.median / 1024.0);
    std::printf("write + read scenario JSON:        median %8.3f us   p99 %8.3f us\n",
                readFile.median, readFile.p99);
    std::printf("bounded least squares, 1,000 x 3:  median %8.3f us   p99 %8.3f us\n", fit.median,
                fit.p99);
    std::printf("calibrate 1,000 measurements:      median %8.3f ms   p99 %8.3f ms\n",
                calibration.median / 1000.0, calibration.p99 / 1000.0);
    std::printf("checks, %zu devices x %zu formats x TP 1/2/4/8 (70B fleet, %zu candidates): "
                "median %8.3f ms   p99 %8.3f ms\n",
                devices.size(), formats.size(), shapes, select.median / 1000.0,
                select.p99 / 1000.0);
    std::printf(
        "speculative analysis, draft model (scan 1..1024): median %8.3f us   p99 %8.3f us\n",
        speculation.median, speculation.p99);
    std::printf("speculative curve, 1024 batches:   median %8.3f us   p99 %8.3f us\n",
                speculativeCurve.median, speculativeCurve.p99);
    std::printf("sweep of 2,000 context lengths: minimal scenario %.1f ms, one that sets every "
                "key %.1f ms (%.2fx); the full one read again per value %.1f ms\n",
                sweepMinimal.median / 1000.0, sweepFull.median / 1000.0,
                sweepFull.median / sweepMinimal.median, sweepReread.median / 1000.0);
    std::printf("operator breakdown (Llama 2 7B):   median %8.3f us   p99 %8.3f us\n",
                operators.median, operators.p99);
    return 0;
}
