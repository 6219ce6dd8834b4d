#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes tests/fixtures/training/published-runs.json (issue #45) from a gathered table of
published training runs (runs.json: each row a model's shape, its parallel layout, a measured
figure, the source and the line quoted). Kept out of the tree: only the rows the plan can read,
each with its source, go into the fixture.

The measured figure becomes tokens per second per device, by the publisher's own arithmetic:
  - a step time: global batch tokens / step seconds / devices;
  - tokens/s per GPU as published;
  - Megatron-LM's TFLOP/s per GPU (Narayanan et al. 2021, eq. 3, which counts the recomputed
    forward pass): tokens/s = TFLOP/s / (96 l h^2 (1 + s/6h + V/16lh)).
The cluster's network per device: 25 GB/s on A100 clusters (a DGX A100's 8 x 200 Gb/s HDR
InfiniBand, Selene), 50 GB/s on H100 ones (8 x 400 Gb/s NDR). Runs before 2022 (Megatron-LM,
Korthikanti et al., BLOOM) ran attention through memory (no FlashAttention): fused_attention 0.

usage: scripts/training_runs.py RUNS.json > tests/fixtures/training/published-runs.json
"""
import json
import sys

UNFUSED = ("narayanan", "korthikanti", "megatron_readme", "bloom")


def device_id(name):
    n = name.lower()
    if "h100" in n:
        return "nvidia-h100-sxm"
    if "a100" in n and "40" in n:
        return "nvidia-a100-40gb-sxm"
    if "a100" in n or "ampere" in n:
        return "nvidia-a100-80gb-sxm"
    return None


def number(x):
    return x if isinstance(x, (int, float)) and not isinstance(x, bool) else None


def main(path):
    runs = json.load(open(path))["layout_runs"]
    out = []
    for r in runs:
        h, l, a, v = (number(r.get(k)) for k in ("hidden", "layers", "heads", "vocab"))
        s, n, tp, pp, dp = (number(r.get(k)) for k in ("seq_len", "n_devices", "tp", "pp", "dp"))
        cp = number(r.get("cp")) or 1
        batch = number(r.get("global_batch_seqs"))
        device = device_id(r.get("device", ""))
        if None in (h, l, a, v, s, n, tp, pp, dp, batch) or device is None:
            continue
        if "fp8" in str(r.get("precision", "")).lower():
            continue
        if "UNVERIFIED" in r.get("source", "") or "UNVERIFIED" in r["model"]:
            continue  # only figures read in a source the gatherer opened
        name = r["model"]
        llama = "llama" in name.lower()
        ffn = number(r.get("ffn"))
        gated = llama
        if ffn is None:
            ffn, gated = 4 * h, False
        kv = number(r.get("kv_heads")) or a
        head_dim = h / a
        attention = h * a * head_dim + 2 * h * kv * head_dim + a * head_dim * h
        mlp = (3 if gated else 2) * h * ffn
        tied = not llama
        parameters = l * (attention + mlp) + v * h * (1 if tied else 2)
        if number(r.get("step_time_s")):
            measured, how = batch * s / r["step_time_s"] / n, "step time"
        elif number(r.get("tokens_per_s_per_gpu")):
            measured, how = r["tokens_per_s_per_gpu"], "tokens/s per GPU"
        elif number(r.get("tflops_per_gpu")) and r["source_id"].startswith(("narayanan", "megatron_readme", "bloom")):
            per_token = 96 * l * h * h * (1 + s / (6 * h) + v / (16 * l * h))
            measured, how = r["tflops_per_gpu"] * 1e12 / per_token, "Megatron TFLOP/s (eq. 3)"
        else:
            continue
        text = str(r.get("recompute", "")).lower()
        unfused = r["source_id"].startswith(UNFUSED)
        # unstated: what the software of the day did (selective before FlashAttention, none
        # with it, where the kernel keeps no score matrix)
        recompute = ("full" if "full" in text else "selective" if "selective" in text
                     else "none" if text.startswith("none") or not unfused else "selective")
        zero = r.get("zero_stage")
        out.append({
            "name": name,
            "source": r["source"],
            "quote": r["quote"],
            "measured_tokens_per_second_per_device": round(measured, 3),
            "measured_from": how,
            "scenario": {
                "format": "accel-explorer/scenario", "version": 1, "name": name,
                "model": {"name": name, "parameters": round(parameters), "layers": l,
                          "hidden_size": h, "attention_heads": a, "kv_heads": kv,
                          "intermediate_size": ffn, "vocab_size": v, "tie_embeddings": tied},
                "device": device,
                "training": {"sequence_length": s, "micro_batch": number(r.get("micro_batch")) or 1,
                             "recompute": recompute,
                             "zero_stage": zero if number(zero) is not None else 1,
                             "devices": n, "tensor_parallel": tp, "pipeline_parallel": pp,
                             "data_parallel": dp, "context_parallel": cp, "global_batch": batch,
                             "network_gb_s": 25 if "a100" in device else 50,
                             "fused_attention": 0 if unfused else 1},
            },
        })
    json.dump({"format": "accel-explorer/training-runs", "version": 1,
               "notes": "Generated by scripts/training_runs.py; parameters counted from the "
                        "shape (GPT: tied embeddings, 4h GELU MLP where the FFN is unstated; "
                        "Llama: untied, SwiGLU). Micro-batch 1 and ZeRO-1 where unstated; "
                        "where unstated, selective recomputation before FlashAttention, none with it.",
               "runs": out}, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main(sys.argv[1])
