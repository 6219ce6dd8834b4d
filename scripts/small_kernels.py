#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Each layer's small kernels: a launch floor, or their bytes at a share of the bandwidth (issue #43).

Reads Vidur's profiled layer tables (microsoft/vidur, MIT licence, data/profiling/compute/<device>/
<model>/mlp.csv: median CUDA times of one transformer layer's kernels at 1 to 8,192+ tokens and
tensor parallel 1 to 8) and fits, per kind of small kernel and for A100 and H100 together,

    time = max(floor, tokens x bytes per token / (measured bandwidth x share))

minimising the squared log error over every row. The bytes per token are what the kernel reads
and writes in BF16: a norm 2 x hidden, a residual add 3 x hidden (two read, one written), rotary
2 x (query + KV heads) x head dim / TP, the gated activation 3 x intermediate / TP. The measured
bandwidths are presets/reference-devices.json's. Prints the table of docs/research/
small-kernels.md; core::smallKernelCost holds its result. The raw tables stay out of the tree:

    python3 scripts/small_kernels.py PATH/vidur/data/profiling/compute
"""
import csv
import glob
import math
import os
import sys

MEASURED_GBS = {"a100": 1700.0, "h100": 2970.0}  # presets/reference-devices.json, "measured"
KINDS = {  # Vidur's column -> the app's kind
    "input_layernorm": "norm",
    "post_attention_layernorm": "norm",
    "attn_rope": "rotary",
    "mlp_act": "activation",
    "add": "residual add",
}


def bytes_per_token(row, column, tp):
    hidden, ff = int(row["n_embd"]), int(row["n_expanded_embd"])
    heads, kv_heads = int(row["n_head"]), int(row["n_kv_head"])
    head_dim = hidden // heads
    gated = row["use_gated_mlp"] == "True"
    return {
        "input_layernorm": 2 * hidden * 2,
        "post_attention_layernorm": 2 * hidden * 2,
        "attn_rope": 2 * (heads + kv_heads) * head_dim * 2 / tp,
        "mlp_act": (3 if gated else 2) * ff * 2 / tp,
        "add": 3 * hidden * 2,
    }[column]


def load(root):
    points = {}  # kind -> [(device, bytes, seconds)]
    for device in MEASURED_GBS:
        for path in sorted(glob.glob(os.path.join(root, device, "*", "*", "mlp.csv"))):
            for row in csv.DictReader(open(path)):
                tokens = int(row["num_tokens"])
                tp = int(row["num_tensor_parallel_workers"])
                if tokens > 8192:
                    continue
                for column, kind in KINDS.items():
                    value = row.get("time_stats.%s.median" % column)
                    if not value:  # phi-2's LayerNorm layers have other columns
                        continue
                    moved = tokens * bytes_per_token(row, column, tp)
                    points.setdefault(kind, []).append((device, moved, float(value) * 1e-3))
    return points


def predict(floor, share, device, moved):
    return max(floor, moved / (MEASURED_GBS[device] * 1e9 * share))


def fit(points):
    best = None
    for floor in [x * 0.25e-6 for x in range(4, 40)]:
        for share in [x / 100.0 for x in range(10, 131, 1)]:
            ss = sum(math.log(predict(floor, share, d, b) / t) ** 2 for d, b, t in points)
            if best is None or ss < best[0]:
                best = (ss, floor, share)
    return best[1], best[2]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    print("| kind | rows | floor | share of measured bandwidth | median error A100 | H100 | 90th percentile A100 | H100 |")
    print("|---|---|---|---|---|---|---|---|")
    for kind, points in load(sys.argv[1]).items():
        floor, share = fit(points)
        cells = []
        for q in (0.5, 0.9):
            for device in MEASURED_GBS:
                errors = sorted(abs(predict(floor, share, d, b) / t - 1.0)
                                for d, b, t in points if d == device)
                cells.append("%.1f %%" % (100.0 * errors[int(q * (len(errors) - 1))]))
        print("| %s | %d | %.2f us | %.2f | %s |" % (kind, len(points), floor * 1e6, share,
                                                       " | ".join(cells)))


if __name__ == "__main__":
    main()
