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
    "nvidia-a10g": {
        "power_w": (300,
                    "nvidia-smi on every AWS G5 size reports a 300 W power limit for the A10G "
                    "(gist.github.com/shashankprasanna/10ebe6dc1ba1d8d93db17da4e2cc890e, "
                    "'Thermal Design Power (TDP) from nvidia-smi')",
                    "Corrected from the reference's 150 W, which is the retail A10's board power; AWS "
                    "publishes no A10G board power, so the limit nvidia-smi reports on G5 is used."),
    },
}


def corrected(out):
    for field, (value, source, note) in CORRECTIONS.get(out["id"], {}).items():
        out[field] = value
        out["sources"][field] = source
        out["notes"][field] = note
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
        devices = [corrected(device(d)) for d in json.load(f)]
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
