#!/usr/bin/env python3
"""Generates presets/reference-devices.json and presets/reference-models.json from the
researched reference data in ../shared/reference/ (devices.json, models.json).

Every value keeps its source: the device's or model's sources become sources["*"], and the
notes that qualify a figure (dense vs sparse, GB vs GiB, per-direction links, flags) become
notes on that field. Run it again when the reference changes; the output is committed.
Usage: python3 scripts/convert_reference.py [REFERENCE_DIR]
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REFERENCE = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "reference")

FAMILY = {"datacenter_gpu": ("gpu", "datacenter"), "consumer_gpu": ("gpu", "client"),
          "tpu": ("tpu", "datacenter"), "asic": ("asic", "datacenter"),
          "client_soc": ("npu", "client"), "edge_soc": ("gpu", "edge")}

# Unified memory is shared with the operating system: what a model can use beside it.
UNIFIED_SHARE = 0.75


# Values re-checked against other sources and found wrong in the reference (docs/data-verification.md).
# Each replaces one field of one device and says where the new value comes from and why.
CORRECTIONS = {
    # issue #43: the only compute figure was the Neural Engine's TOPS, which GPU engines
    # (llama.cpp, MLX) never use: a prompt was predicted 3.1x too fast on an M4 Max.
    "apple-m4-max": {
        "peak_tflops": ({"fp32": 13.27, "fp16": 13.29, "int8": 38},
                        "GPU fp32 and fp16: chsasank/device-benchmarks @ "
                        "7ccc88389b1eabd05365756bfd507bb6bc1d7ae0, README.md summary table "
                        "(benchmark.py at the same commit; PyTorch MPS matmul, 40-core GPU, 128 GB, "
                        "2025-04-15); Neural Engine int8: Apple's 38 TOPS",
                        "Dense figures (no 2:4 sparsity). fp16 and fp32 are the GPU's MEASURED matmul rates (PyTorch MPS), not a "
                        "datasheet peak: Apple publishes no GPU TFLOPS. A prompt on the GPU (llama.cpp, "
                        "MLX) is computed at these. int8 is the Neural Engine's 38 TOPS (Apple; "
                        "precision unstated, widely read as INT8), which GPU engines do not use."),
        "native_formats": (["fp32", "fp16", "int8"],
                           "the GPU computes fp32 and fp16; the Neural Engine int8",
                           "fp16 and fp32 added beside the Neural Engine's int8 (issue #43)"),
    },
    "apple-m3-max": {
        "peak_tflops": ({"fp32": 11.4, "int8": 18},
                        "GPU fp32: chsasank/device-benchmarks @ "
                        "7ccc88389b1eabd05365756bfd507bb6bc1d7ae0, README.md summary table (PyTorch "
                        "MPS torch.matmul, best at 4096x4096: 11.42 TFLOP/s, 40-core GPU); Neural "
                        "Engine: Apple's 18 TOPS",
                        "Dense figures (no 2:4 sparsity). fp32 is the GPU's MEASURED matmul rate "
                        "(PyTorch MPS), not a datasheet peak: "
                        "Apple publishes no GPU TFLOPS; no fp16 measurement was found. int8 is the "
                        "Neural Engine's 18 TOPS (precision unstated by Apple), which GPU engines do "
                        "not use."),
        "native_formats": (["fp32", "int8"],
                           "the GPU computes fp32; the Neural Engine int8",
                           "fp32 added beside the Neural Engine's int8 (issue #43)"),
    },
    "nvidia-a10g": {
        "power_w": (300,
                    "nvidia-smi on every AWS G5 size reports a 300 W power limit for the A10G "
                    "(gist.github.com/shashankprasanna/10ebe6dc1ba1d8d93db17da4e2cc890e, "
                    "'Thermal Design Power (TDP) from nvidia-smi')",
                    "Corrected from the reference's 150 W, which is the retail A10's board power; AWS "
                    "publishes no A10G board power, so the limit nvidia-smi reports on G5 is used."),
    },
}


# Researched by the app (issue #21) beside the reference: each value with its source and date.
# Scale-up domain: devices joined by the device link (the largest tensor-parallel group on it);
# PCIe cards with no device link share one 8-card server over PCIe.
SCALE_UP = {
    "nvidia-h100-sxm": (8, "HGX H100 8-GPU baseboard: 8 GPUs on NVLink 4 through NVSwitch (NVIDIA HGX datasheet)"),
    "nvidia-h100-pcie": (2, "NVLink bridge joins pairs of H100 PCIe cards; beyond a pair they talk over PCIe"),
    "nvidia-h200-sxm": (8, "HGX H200 8-GPU baseboard, NVLink 4 through NVSwitch"),
    "nvidia-b200": (8, "HGX B200 8-GPU baseboard, NVLink 5 (the GB200 NVL72 rack joins 72)"),
    "nvidia-a100-40gb-sxm": (8, "HGX A100 8-GPU baseboard, NVLink 3 through NVSwitch"),
    "nvidia-a100-80gb-sxm": (8, "HGX A100 8-GPU baseboard, NVLink 3 through NVSwitch"),
    "nvidia-l40s": (8, "no NVLink: up to 8 cards share one server over PCIe (AWS g6e.48xlarge: 8 x L40S)"),
    "nvidia-l4": (8, "no NVLink: up to 8 cards share one server over PCIe (AWS g6.48xlarge: 8 x L4)"),
    "nvidia-a10g": (8, "no NVLink: up to 8 cards share one server over PCIe (AWS g5.48xlarge: 8 x A10G)"),
    "amd-mi300x": (8, "8-GPU OAM platform, fully connected Infinity Fabric (AMD Instinct MI300X platform)"),
    "amd-mi325x": (8, "8-GPU OAM platform, fully connected Infinity Fabric"),
    "amd-mi250x": (4, "4 OAM packages per node on Infinity Fabric (each package holds 2 GCDs)"),
    "intel-gaudi2": (8, "8 Gaudi 2 per server, all-to-all over 21 on-die 100 GbE scale-up ports"),
    "intel-gaudi3": (8, "8 Gaudi 3 per server, all-to-all over 21 on-die 200 GbE scale-up ports"),
    "google-tpu-v4": (4096, "ICI 3D torus: a v4 pod joins 4,096 chips (docs.cloud.google.com/tpu/docs/v4)"),
    "google-tpu-v5e": (256, "ICI 2D torus: a v5e pod joins 256 chips (docs.cloud.google.com/tpu/docs/v5e)"),
    "google-tpu-v5p": (8960, "ICI 3D torus: a v5p pod joins 8,960 chips (docs.cloud.google.com/tpu/docs/v5p)"),
    "google-tpu-v6e": (256, "ICI 2D torus: a v6e pod joins 256 chips (docs.cloud.google.com/tpu/docs/v6e)"),
    "aws-inferentia2": (12, "inf2.48xlarge joins 12 Inferentia2 chips on NeuronLink"),
    "aws-trainium1": (16, "trn1.32xlarge joins 16 Trainium chips on NeuronLink"),
    "aws-trainium2": (16, "trn2.48xlarge joins 16 Trainium2 chips on NeuronLink-v3 (64 in a Trn2 UltraServer; awsdocs-neuron trn2-arch)"),
}

# On-demand price ranges per device-hour (per GPU or chip), with where and when. Only devices the
# reference leaves without a price; public list and market-survey figures, not quotes.
PRICES = {
    "nvidia-h100-pcie": (2.79, 3.51, "2026-03/05", "RunPod Secure Cloud H100 PCIe ~$2.79/h (spheron.network/blog/runpod-h100-pricing-2026, 2026-05-22); RunPod on-demand H100 PCIe $3.51/h (deploybase.ai/articles/runpod-gpu-pricing, 2026-03-10); per GPU"),
    "nvidia-h200-sxm": (2.50, 7.00, "2026-05", "mercatus-ai.com/blog/cloud-gpu-pricing (May 2026): H200 SXM5 on-demand $2.50-$3.50 long-tail, $3.50-$4.50 specialty, $4.50-$7.00 hyperscaler; per GPU"),
    "nvidia-b200": (4.50, 6.03, "2026-03", "lyceum.technology/magazine/nvidia-b200-gpu-cloud-pricing-2026 (2026-03-11): on-demand $4.50-$6.00 on specialised clouds; Spheron on-demand $6.03/h (spheron.network, 2026-03-17); per GPU; hyperscalers charge more"),
    "nvidia-a100-40gb-sxm": (1.50, 3.10, "2026-02", "alloclabs.com/blog/a100-vs-h100-vs-l40s (February 2026): A100-40GB on-demand $1.50-$3.10 across AWS, GCP, Azure, Lambda, CoreWeave; per GPU"),
    "nvidia-l40s": (0.80, 1.86, "2026-02", "alloclabs.com/blog/a100-vs-h100-vs-l40s (February 2026): L40S on-demand $0.80-$1.50; AWS g6e.xlarge 1 x L40S $1.861/h us-east-1 (modal.com/blog/nvidia-l40s-price-article, 2025-08); per GPU"),
    "nvidia-l4": (0.44, 0.78, "2026-03", "deploybase.ai/articles/runpod-gpu-pricing (2026-03-10): RunPod L4 $0.44/h spot, $0.78/h on-demand; per GPU"),
    "amd-mi325x": (1.95, 1.95, "2026-05", "cliffcenter.com/research/amd-inference-economics (2026-05-18): TensorWave MI325X $1.95/GPU-h, the one on-demand quote found; per GPU"),
    "amd-mi250x": (1.35, 1.35, "2026", "gpu.blog/gpus/instinct-mi250x-mi250x: Runcrate on-demand $1.35/h, the one quote found (date not stated); per package"),
    "google-tpu-v5e": (1.20, 1.20, "2026", "Google Cloud TPU pricing, on-demand per chip-hour, us-central1 (cloud.google.com/tpu/pricing); region-dependent"),
    "google-tpu-v5p": (4.20, 4.20, "2026", "Google Cloud TPU pricing, on-demand per chip-hour, us-east5 (cloud.google.com/tpu/pricing); region-dependent"),
    "google-tpu-v6e": (2.70, 2.70, "2026", "Google Cloud TPU pricing, on-demand per chip-hour, us-east1 (cloud.google.com/tpu/pricing); region-dependent"),
    "google-tpu-v4": (3.22, 3.22, "2026", "Google Cloud TPU pricing, on-demand per chip-hour, us-central2 (cloud.google.com/tpu/pricing)"),
    "aws-inferentia2": (0.76, 1.08, "2026", "AWS EC2 on-demand, us-east-1: inf2.xlarge (1 chip) $0.7582/h, inf2.48xlarge (12 chips) $12.98/h = $1.08 per chip, each with its host share (aws.amazon.com/ec2/pricing/on-demand)"),
    "aws-trainium1": (1.34, 1.34, "2026-06", "trn1.32xlarge $21.50/h on-demand for 16 chips (usage.ai/blogs/aws/ai-ml-cost/trainium-vs-gpu-instances, 2026-06-25) = $1.34 per chip with its host share"),
    "aws-trainium2": (2.40, 2.40, "2026-Q2", "trn2.48xlarge ~$38.47/h on-demand for 16 chips (stackpulsar.com/blog/aws-trainium-inferentia, Q2 2026) = $2.40 per chip with its host share"),
}

# PCIe host interface per direction: x16 lanes at Gen3 ~15.75, Gen4 ~31.5, Gen5 ~63 GB/s.
PCIE_X16 = {"Gen3": 15.75, "Gen4": 31.5, "Gen5": 63.0, "PCIe 4.0": 31.5, "PCIe 5.0": 63.0}

# Peaks the reference keeps in a note: dense FP4 (the 4-bit float formats run on it).
FP4_PEAKS = {"nvidia-b200": (9000, "HGX B200 FP4 dense 9,000 TFLOPS (sparse 18,000), the reference's compute note; Blackwell runs NVFP4 and MXFP4 natively")}


def added(out, ref):
    key = out["id"]
    if key in SCALE_UP:
        out["scale_up_devices"], out["sources"]["scale_up_devices"] = SCALE_UP[key]
    host = ref.get("host_interface") or ""
    for gen, rate in PCIE_X16.items():
        if gen in host and "x16" in host:
            out["host_link_gb_s"] = rate
            out["sources"]["host_link_gb_s"] = f"{host}: {gen} x16 is about {rate} GB/s per direction"
            break
    if key in PRICES and "price_per_hour_usd" not in out:
        low, high, when, source = PRICES[key]
        out["price_per_hour_usd"] = round((low + high) / 2, 2)
        out["sources"]["price_per_hour_usd"] = source
        out["notes"]["price_per_hour_usd"] = (f"ILLUSTRATIVE midpoint of ${low}-${high} per device-hour, on-demand, "
                                              f"{when}; prices drift monthly: type your own rate in the wizard")
    if "price_per_hour_usd" in out and (ref.get("price_usd_per_device_hour_low") is not None or key in PRICES):
        low = ref.get("price_usd_per_device_hour_low") or PRICES[key][0]
        high = ref.get("price_usd_per_device_hour_high") or PRICES[key][1]
        out["price_low_usd"], out["price_high_usd"] = low, high
    if key in PRICES and out["notes"].get("flags"):
        flags = [f for f in out["notes"]["flags"].split(": ", 1)[1].split(", ") if f != "price_not_found"]
        out["notes"]["flags"] = "Unverified or disputed: " + ", ".join(flags) if flags else None
        if not out["notes"]["flags"]:
            del out["notes"]["flags"]
    if out["deployment"] == "datacenter" and "price_per_hour_usd" not in out:
        out["notes"]["price_per_hour_usd"] = ("No public on-demand list price found (searched 2026-12): every cost "
                                              "figure says 'price needed' until you type your rate in the wizard.")
    if key in FP4_PEAKS:
        peak, source = FP4_PEAKS[key]
        out["peak_tflops"]["nvfp4"] = peak
        out["peak_tflops"]["mxfp4"] = peak
        out["native_formats"] += ["nvfp4", "mxfp4"]
        out["sources"]["peak_tflops.nvfp4"] = source
    return out


# Measured ceilings (issue #43): docs/research/measured-ceilings.json, gathered with each figure's
# repository, commit and note. The spec sheet's figures stay the lesson's; these say what kernels
# reach at best, and the typical estimate's efficiencies are shares of them.
MEASURED = os.path.join(ROOT, "docs", "research", "measured-ceilings.json")
# Rows measured on part of the device the preset describes: the factor to the whole device.
MEASURED_SCALE = {("amd-mi250x", "bf16"): (2, "x2: the row is one GCD of the package's two; the preset is the whole package")}


def measured(out, table):
    row = table.get(out["id"])
    if not row:
        return out
    ceilings = {}
    tflops = {}
    for fmt, figure in (row.get("matmul_tflops") or {}).items():
        if not figure:
            continue
        factor, why = MEASURED_SCALE.get((out["id"], fmt), (1, ""))
        tflops[fmt] = round(figure["value"] * factor, 1)
        out["sources"][f"measured.tflops.{fmt}"] = figure["source"]
        out["notes"][f"measured.tflops.{fmt}"] = ("Dense. Maximum achievable matmul, measured: "
                                                 + figure["note"] + (f"; {why}" if why else ""))
    if tflops:
        ceilings["tflops"] = tflops
    bandwidth = row.get("bandwidth_gb_s")
    if bandwidth:
        ceilings["bandwidth_gb_s"] = bandwidth["value"]
        out["sources"]["measured.bandwidth_gb_s"] = bandwidth["source"]
        out["notes"]["measured.bandwidth_gb_s"] = (f'Measured ({bandwidth.get("benchmark", "stream benchmark")}), '
                                                   "decimal GB/s: " + bandwidth["note"])
    busbw = (row.get("allreduce") or {}).get("busbw_gb_s")
    if busbw:
        ceilings["allreduce_busbw_gb_s"] = busbw["value"]
        out["sources"]["measured.allreduce_busbw_gb_s"] = busbw["source"]
        out["notes"]["measured.allreduce_busbw_gb_s"] = (f'Measured all-reduce bus bandwidth at {busbw.get("message", "a large message")}, '
                                                         "decimal GB/s: " + busbw["note"])
    if ceilings:
        out["measured"] = ceilings
    return out


def corrected(out):
    for field, (value, source, note) in CORRECTIONS.get(out["id"], {}).items():
        out[field] = value
        out["sources"][field] = source
        out["notes"][field] = note
        if field == "peak_tflops" and "MEASURED" in note:
            # a peak that is itself a measurement is its own ceiling (Apple publishes no GPU peak)
            gpu = {fmt: v for fmt, v in value.items() if fmt in ("fp32", "fp16", "bf16")}
            out.setdefault("measured", {})["tflops"] = gpu
            for fmt in gpu:
                out["sources"][f"measured.tflops.{fmt}"] = source
                out["notes"][f"measured.tflops.{fmt}"] = "Dense. The measured GPU matmul rate that is also the preset's peak"
    return out


def kebab(identifier):
    return identifier.replace("_", "-").lower()


def device(ref):
    family, deployment = FAMILY[ref["category"]]
    out = {"id": kebab(ref["id"]), "name": f'{ref["vendor"]} {ref["name"]}', "family": family,
           "deployment": deployment, "memory_gb": ref["memory_gb"],
           "bandwidth_gb_s": ref["memory_bandwidth_gb_per_s"]}
    sources = {"*": "; ".join(ref["sources"])}
    notes = {}
    stated = f'{ref["memory_capacity_stated"]} {ref["memory_capacity_stated_unit"]} stated, {ref["memory_type"]}'
    sources["memory_gb"] = stated + " (memory_gb is decimal GB)"
    if ref.get("memory_usable_note"):
        notes["memory_gb"] = ref["memory_usable_note"]
    if deployment in ("client", "edge") and ref["category"] != "consumer_gpu":
        out["usable_memory_gb"] = round(ref["memory_gb"] * UNIFIED_SHARE, 2)
        notes["usable_memory_gb"] = (
            "App assumption: unified memory is shared with the operating system and applications, "
            f"so about {int(UNIFIED_SHARE * 100)} % is available to a model"
            + (f" ({ref['memory_usable_note']})" if ref.get("memory_usable_note") else "")
            + ". This is why a 70B model never fits a laptop NPU's share even when the machine has 128 GB.")
    sources["bandwidth_gb_s"] = f'{ref["memory_bandwidth_stated"]}'
    peaks = {}
    for key, field in (("bf16", "bf16_dense_tflops"), ("fp16", "fp16_dense_tflops"),
                       ("fp8", "fp8_dense_tflops"), ("int8", "int8_dense_tops")):
        if ref.get(field) is not None:
            peaks[key] = ref[field]
    out["peak_tflops"] = peaks
    out["native_formats"] = list(peaks.keys())
    peak_note = ref.get("compute_note") or ""
    sparse = [f"{label} {ref[field]}" for label, field in (("BF16", "headline_sparse_bf16_tflops"),
                                                          ("FP8", "headline_sparse_fp8_tflops"))
              if ref.get(field)]
    notes["peak_tflops"] = ("Dense figures (no 2:4 sparsity). " + peak_note
                            + (f" Sparse headlines, not used: {', '.join(sparse)}." if sparse else "")).strip()
    if ref.get("tdp_w") is not None:
        out["power_w"] = ref["tdp_w"]
        if ref.get("tdp_note"):
            notes["power_w"] = ref["tdp_note"]
    low, high = ref.get("price_usd_per_device_hour_low"), ref.get("price_usd_per_device_hour_high")
    if low is not None and high is not None:
        out["price_per_hour_usd"] = round((low + high) / 2, 2)
        notes["price_per_hour_usd"] = (f"ILLUSTRATIVE midpoint of ${low}-${high} per device-hour, "
                                       f"{ref.get('price_as_of') or 'date unknown'}: {ref.get('price_note') or ''}").strip()
    if ref.get("device_link_per_direction_gb_per_s") is not None:
        out["device_link_gb_s"] = ref["device_link_per_direction_gb_per_s"]
        sources["device_link_gb_s"] = (f'{ref.get("device_link_name") or "device link"}: per direction '
                                       f'(bidirectional {ref.get("device_link_bidirectional_gb_per_s")})')
        if ref.get("device_link_note"):
            notes["device_link_gb_s"] = ref["device_link_note"]
    if ref.get("on_chip_sram_mb") is not None:
        out["sram_mb"] = ref["on_chip_sram_mb"]
        if ref.get("on_chip_sram_note"):
            notes["sram_mb"] = ref["on_chip_sram_note"]
    if ref.get("host_interface"):
        notes["host_interface"] = ref["host_interface"]
    if ref.get("flags"):
        notes["flags"] = "Unverified or disputed: " + ", ".join(ref["flags"])
    out["sources"] = sources
    out["notes"] = {k: v for k, v in notes.items() if v}
    return out


def model(ref):
    out = {"id": kebab(ref["id"]), "name": ref["display_name"], "parameters": ref["params_computed"]}
    if ref["active_params_computed"] != ref["params_computed"]:
        out["active_parameters"] = ref["active_params_computed"]
    out.update({"layers": ref["num_hidden_layers"], "hidden_size": ref["hidden_size"],
                "attention_heads": ref["num_attention_heads"], "kv_heads": ref["num_key_value_heads"],
                "head_dim": ref["head_dim"] or (ref["mla"] or {}).get("v_head_dim"),
                "intermediate_size": ref["intermediate_size"],
                "vocab_size": ref["vocab_size"], "tie_embeddings": ref["tie_word_embeddings"]})
    if ref.get("num_experts"):
        out["experts"] = ref["num_experts"]
        out["experts_per_token"] = ref["num_experts_per_tok"]
    if ref.get("max_position_embeddings"):
        out["max_context"] = ref["max_position_embeddings"]
    if ref.get("sliding_window") and ref["model_type"] in ("mistral", "mixtral"):
        out["sliding_window"] = ref["sliding_window"]
    if ref.get("sliding_window") and ref["model_type"] == "gemma2":
        out["sliding_window"] = ref["sliding_window"]
        out["sliding_window_layers"] = ref["num_hidden_layers"] // 2  # alternating local and global
    if ref.get("mla"):
        # one latent (kv_lora_rank) plus one shared RoPE key per token and layer
        out["kv_latent_dim"] = ref["mla"]["kv_lora_rank"] + ref["mla"]["qk_rope_head_dim"]
    notes = {"parameters": (f'Counted from the architecture; the size label says {ref["params_published_b"]} B '
                            f'({ref.get("params_published_note") or ""})').strip()}
    if ref.get("kv_note"):
        notes["kv_heads"] = ref["kv_note"]
    if ref.get("mla"):
        notes["kv_latent_dim"] = ref.get("kv_note") or "multi-head latent attention"
        notes["experts"] = (f'{ref.get("num_shared_experts") or 0} shared expert(s) and the first dense layers '
                            "are counted as shared weights by the app's MoE read model (an approximation).")
    if ref.get("sliding_window") and "sliding_window" not in out:
        notes["sliding_window"] = (f'The config lists a {ref["sliding_window"]}-token window that does not apply '
                                   "to every layer (or is switched off); the KV cache is sized for global attention.")
    if ref.get("flags"):
        notes["flags"] = "; ".join(ref["flags"])
    out["sources"] = {"*": ref["source"], "parameters": "computed from config.json (params_computed)"}
    out["notes"] = notes
    return out


def main():
    with open(os.path.join(REFERENCE, "devices.json")) as f:
        reference = json.load(f)
    with open(MEASURED) as f:
        table = {row["id"]: row for row in json.load(f)["devices"]}
    devices = [corrected(measured(added(device(d), d), table)) for d in reference]
    with open(os.path.join(REFERENCE, "models.json")) as f:
        models = [m for m in (model(m) for m in json.load(f)) if m]
    header = "Generated by scripts/convert_reference.py from shared/reference; edit the reference, not this file."
    with open(os.path.join(ROOT, "presets", "reference-devices.json"), "w") as f:
        json.dump({"format": "accel-explorer/devices", "version": 1, "generated": header,
                   "devices": devices}, f, indent=2, ensure_ascii=False)
        f.write("\n")
    with open(os.path.join(ROOT, "presets", "reference-models.json"), "w") as f:
        json.dump({"format": "accel-explorer/models", "version": 1, "generated": header,
                   "models": models}, f, indent=2, ensure_ascii=False)
        f.write("\n")
    print(f"{len(devices)} devices, {len(models)} models")


if __name__ == "__main__":
    main()
