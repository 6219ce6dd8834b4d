#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""How far a matmul near the ridge falls short of both roofs (issue #43).

Reads Vidur's profiled MLP tables (microsoft/vidur, MIT licence, data/profiling/compute/<device>/
<model>/mlp.csv: median kernel times of a transformer layer's four matmuls, QKV, output, gated
up and down projection, at 1 to 8,192+ tokens and tensor parallel 1 to 8) and fits, per table,

    time = max(memory, compute) + share x min(memory, compute)

with memory = the layer's weights and activations at the device's measured bandwidth x e_m and
compute = its FLOP at the measured BF16 matmul ceiling x e_c (presets/reference-devices.json),
minimising the squared log error over every row. share = 0 is the lesson's roofline (one max).
Prints the docs/research/gemm-ridge.md table. The raw tables stay out of the tree:

    python3 scripts/gemm_ridge.py a100:PATH/Meta-Llama-3-8B/mlp.csv h100:PATH/Llama-2-7b-hf/mlp.csv
"""
import csv
import math
import sys

# measured ceilings: BF16 TFLOP/s and GB/s (presets/reference-devices.json, "measured")
CEILINGS = {"a100": (271.2, 1700.0), "h100": (794.5, 2970.0)}


def rows(device, path):
    tflops, gbs = CEILINGS[device]
    out = []
    for r in csv.DictReader(open(path)):
        tokens = int(r["num_tokens"])
        tp = int(r["num_tensor_parallel_workers"])
        if tokens > 8192:
            continue
        hidden, ff = int(r["n_embd"]), int(r["n_expanded_embd"])
        heads, kv_heads = int(r["n_head"]), int(r["n_kv_head"])
        head_dim = hidden // heads
        gated = r["use_gated_mlp"] == "True"
        shapes = {  # (K, N) per tensor-parallel rank
            "attn_pre_proj": (hidden, (heads + 2 * kv_heads) * head_dim // tp),
            "attn_post_proj": (hidden // tp, hidden),
            "mlp_up_proj": (hidden, (2 if gated else 1) * ff // tp),
            "mlp_down_proj": (ff // tp, hidden),
        }
        seconds = sum(float(r["time_stats.%s.median" % k]) * 1e-3 for k in shapes)
        weights = sum(k * n for k, n in shapes.values())
        activations = sum(tokens * (k + n) for k, n in shapes.values())
        memory = 2.0 * (weights + activations) / (gbs * 1e9)
        compute = 2.0 * tokens * weights / (tflops * 1e12)
        out.append((tokens, tp, seconds, memory, compute))
    return out


def fit(points, shares):
    best = None
    grid = [x / 100.0 for x in range(50, 101)]
    for share in shares:
        for em in grid:
            for ec in grid:
                ss = 0.0
                for _, _, t, m, c in points:
                    a, b = m / em, c / ec
                    ss += math.log((max(a, b) + share * min(a, b)) / t) ** 2
                if best is None or ss < best[0]:
                    best = (ss, share, em, ec)
    ss, share, em, ec = best
    errors = sorted(
        abs((max(m / em, c / ec) + share * min(m / em, c / ec)) / t - 1) for _, _, t, m, c in points
    )
    return share, em, ec, errors[len(errors) // 2], errors[-1]


def main(args):
    print("| table | rows | share | e_m | e_c | median error | worst | with one max: median | worst |")
    print("|---|---|---|---|---|---|---|---|---|")
    for arg in args:
        device, path = arg.split(":", 1)
        points = rows(device, path)
        share = fit(points, [x / 20.0 for x in range(0, 21)])
        lesson = fit(points, [0.0])
        name = device + " " + path.rstrip("/").split("/")[-2]
        print(
            "| %s | %d | %.2f | %.2f | %.2f | %.1f %% | %.0f %% | %.1f %% | %.0f %% |"
            % (name, len(points), share[0], share[1], share[2], 100 * share[3], 100 * share[4],
               100 * lesson[3], 100 * lesson[4])
        )


if __name__ == "__main__":
    main(sys.argv[1:])
