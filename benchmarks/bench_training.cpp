// SPDX-License-Identifier: GPL-3.0-or-later
// How long a training layout search takes (issue #45): every layout of Llama 3.1 70B on 1,024
// H100s (each parallel degree, ZeRO stage, recomputation and micro-batch), and a deadline's
// search, which tries every power-of-two device count. Medians in milliseconds; measures, never
// asserts. The issue asks for under a second.

#include "core/data/scenarioio.h"
#include "core/train/trainingplan.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

template <typename Work> double medianMilliseconds(int repetitions, Work &&work)
{
    std::vector<double> ms;
    for (int r = 0; r < repetitions; ++r) {
        const auto start = Clock::now();
        work();
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

core::Scenario scenario(const std::string &training)
{
    const std::string text =
        R"({"format": "accel-explorer/scenario", "version": 1, "model": "llama-3-1-70b",
            "device": "nvidia-h100-sxm", "training": )" +
        training + "}";
    auto loaded = core::readScenario(text);
    if (!loaded) {
        std::fprintf(stderr, "%s: %s\n", loaded.error().path.c_str(),
                     loaded.error().message.c_str());
        std::exit(1);
    }
    return loaded.value().scenario;
}

} // namespace

int main()
{
    const core::Scenario fixed =
        scenario(R"({"sequence_length": 8192, "devices": 1024, "tokens": 15e12})");
    core::TrainingSearch search;
    const double ms = medianMilliseconds(9, [&] { search = core::searchTraining(fixed, true); });
    std::printf("70B on 1,024 H100, every layout: %d layouts, %zu shapes ranked, %zu rejected, "
                "%.2f ms\n",
                search.layoutsTried, search.ranked.size(), search.rejected.size(), ms);
    if (!search.ranked.empty())
        std::printf("  best: %s, %.1f days, MFU %.3f\n",
                    core::describeLayout(search.ranked.front().layout).c_str(),
                    search.ranked.front().days, search.ranked.front().mfu);

    const core::Scenario deadline =
        scenario(R"({"sequence_length": 8192, "deadline_days": 90, "tokens": 15e12})");
    const double deadlineMs =
        medianMilliseconds(5, [&] { search = core::searchTraining(deadline, true); });
    std::printf("70B by a 90-day deadline, counts 1 to 131,072: %d layouts, %.2f ms, %.0f "
                "devices\n",
                search.layoutsTried, deadlineMs, search.devices);
    return 0;
}
