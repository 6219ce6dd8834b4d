// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: see fuzzentries.h. Any broken invariant aborts with its description.
#include "fuzzentries.h"

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string problem = fuzzentries::safetensorsHeader(data, size);
    if (!problem.empty()) {
        std::fprintf(stderr, "invariant broken: %s\n", problem.c_str());
        std::abort();
    }
    return 0;
}
