// SPDX-License-Identifier: GPL-3.0-or-later
// How long the load simulator takes (issue #26): one run against the number of requests (and
// the engine steps it took), and the latency curve the view recomputes on a slider release
// (20 load points x 10,000 requests). Medians of a few repetitions in milliseconds; measures,
// never asserts.

#include "core/data/presets.h"
#include "core/data/scenarioio.h"
#include "core/decide/selection.h"
#include "core/physics/loadsim.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
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

core::Scenario scenarioWith(const std::vector<std::string> &overrides)
{
    auto loaded =
        core::readScenario(std::string(*core::scenarioPresetText("lesson-default")), overrides);
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
    // lesson-default with a 1,000-token prompt and 200-token outputs at 80 % of capacity
    const core::Scenario base =
        scenarioWith({"serving.prompt_tokens=1000", "load.output_mean=200"});
    auto baseSetup = core::loadSetup(base);
    if (!baseSetup)
        return 1;
    const double capacity = core::estimatedCapacity(base, baseSetup.value());
    std::printf("estimated capacity %.2f requests/s; runs at 80 %% of it\n", capacity);
    std::printf("%10s %10s %12s %12s\n", "requests", "steps", "ms", "us/request");
    for (std::size_t requests : {1000u, 10000u, 100000u}) {
        core::LoadSetup setup = baseSetup.value();
        setup.requests = requests;
        setup.ratePerSecond = 0.8 * capacity;
        std::size_t steps = 0;
        const double ms = medianMilliseconds(requests >= 100000 ? 3 : 7, [&] {
            steps = core::simulateLoad(base, setup).value().steps;
        });
        std::printf("%10zu %10zu %12.1f %12.2f\n", requests, steps, ms,
                    1000.0 * ms / double(requests));
    }
    // overloaded: the queue grows and the batch sits at the limit
    {
        core::LoadSetup setup = baseSetup.value();
        setup.requests = 100000;
        setup.ratePerSecond = 1.5 * capacity;
        std::size_t steps = 0;
        const double ms =
            medianMilliseconds(3, [&] { steps = core::simulateLoad(base, setup).value().steps; });
        std::printf("overloaded (150 %%): 100000 requests, %zu steps, %.1f ms\n", steps, ms);
    }
    // a fleet: 64 replicas behind least-outstanding routing, at 80 % of their capacity
    {
        core::LoadSetup setup = baseSetup.value();
        setup.requests = 100000;
        setup.replicas = 64;
        setup.router = core::RouterKind::LeastOutstanding;
        setup.ratePerSecond = 0.8 * 64 * capacity;
        std::size_t steps = 0;
        const double ms =
            medianMilliseconds(3, [&] { steps = core::simulateLoad(base, setup).value().steps; });
        std::printf("64 replicas, least outstanding: 100000 requests, %zu steps, %.1f ms\n", steps,
                    ms);
    }
    const double curve =
        medianMilliseconds(3, [&] { (void)core::loadCurve(base, baseSetup.value(), 20, 10000); });
    std::printf("latency curve, 20 points x 10000 requests: %.1f ms\n", curve);

    // the wizard's checks with a load section: every candidate that fits and meets the floor
    // serves the stream on its fleet (500 requests each at most)
    for (const char *rate : {"", "load.rate_per_second=2"}) {
        std::vector<std::string> overrides;
        if (*rate)
            overrides.push_back(rate);
        auto fleet = core::readScenario(std::string(*core::scenarioPresetText("llama-70b-fleet")),
                                        overrides);
        const core::Scenario scenario = fleet.value().scenario;
        const double ms = medianMilliseconds(7, [&] { (void)core::selectDevice(scenario); });
        std::printf("selectDevice, llama-70b-fleet%s: %.1f ms\n",
                    *rate ? " with a load section (2 requests/s)" : "", ms);
    }
    return 0;
}
