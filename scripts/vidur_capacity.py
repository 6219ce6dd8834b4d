#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A replica's capacity as Vidur defines it, from the app's own load simulation (issue #43).

Vidur's capacity search (microsoft/vidur, vidur/config_optimizer/config_explorer: main.py and
capacity_search.py at 7d47513) is the largest Poisson arrival rate at which the 99th percentile of
the requests' scheduling delay (arrival to first scheduled) stays at or under 5 s, found by binary
search to 2.5 %, with 16,000 requests per run and no CPU overhead modelled. This script runs the
same search over `accel-calc simulate`: Llama 3 8B on one A100 80 GB, the default (typical)
estimate, vLLM's scheduler as Vidur models it (prefills first, alone: load.chunked_prefill 0; at
most 128 sequences and 4,096 tokens a step), fixed prompt and output lengths. The queue wait the
simulation reports is Vidur's scheduling delay. Several seeds, since the 99th percentile near the
knee moves with the arrivals drawn.

    python3 scripts/vidur_capacity.py [build/app/accel-calc] [SEEDS]

Prints each seed's capacity and the median against Vidur's figures for the same cases (the
issue's run of Vidur's simulator on its A100 profile: 15.2 requests/s at 512/128 tokens, 3.8 at
2,048/256); docs/research/saturation-vidur.md holds a run.
"""
import json
import statistics
import subprocess
import sys

CALC = sys.argv[1] if len(sys.argv) > 1 else "build/app/accel-calc"
SEEDS = int(sys.argv[2]) if len(sys.argv) > 2 else 9
CASES = [(512, 128, 15.2), (2048, 256, 3.8)]  # prompt, output, Vidur's requests/s


def simulate(rate, prompt, output, seed, requests=16000):
    sets = {
        "model": "llama-3-1-8b",
        "device": "nvidia-a100-80gb-sxm",
        "serving.prompt_tokens": prompt,
        "serving.context_tokens": prompt + output,
        "serving.concurrent_sequences": 128,
        "model.max_context": 4096,  # Vidur's max_seq_len
        "load.prompt_mean": prompt,
        "load.output_mean": output,
        "load.max_sequences": 128,
        "load.token_budget": 4096,
        "load.chunked_prefill": 0,
        "load.replicas": 1,
        "load.seed": seed,
    }
    args = [CALC, "simulate", "lesson-default", "--rate", str(rate), "--requests", str(requests)]
    for key, value in sets.items():
        args += ["--set", f"{key}={value}"]
    run = subprocess.run(args, capture_output=True, text=True, check=True)
    return json.loads(run.stdout)["queue_wait_seconds"]["p99"]


def capacity(prompt, output, seed, slo=5.0):
    low, high = 0.5, 100.0
    while high - low > 0.005 * low:
        middle = (low + high) / 2
        if simulate(middle, prompt, output, seed) <= slo:
            low = middle
        else:
            high = middle
    return low


for prompt, output, vidur in CASES:
    found = [capacity(prompt, output, seed) for seed in range(1, SEEDS + 1)]
    middle = statistics.median(found)
    print(f"{prompt}/{output} tokens: " + ", ".join(f"{c:.2f}" for c in found) +
          f" requests/s; median {middle:.2f} against Vidur's {vidur} ({100 * (middle / vidur - 1):+.1f} %)")
