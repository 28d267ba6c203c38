"""Workload sizing and tier recommendation (spec 10): "the task decides the
scale, not the budget".

For each workload of the assumptions and each tier:

- training FLOPs ``6 * params * tokens`` (LoRA: times ``lora_flops_factor``,
  default 2/3);
- memory floor, training: ``ceil(params * 16 bytes / (gpu_memory_gb * 1e9 * 0.8))``
  GPUs; inference: per replica ``ceil(params * bytes_per_param * 1.2 /
  (gpu_memory_gb * 1e9))`` GPUs, replicas ``ceil(tokens_per_s /
  (tokens_per_s_per_gpu * per_replica))``, floor = per replica x replicas;
- days on the tier (training): ``FLOPs / (gpus * tflops_bf16 * 1e12 * mfu *
  goodput * 86400)``, using every GPU of the tier;
- feasible: the tier has at least the memory floor and (training) finishes
  within ``deadline_days``;
- GPU-hours used: training ``gpus * days * 24``; inference ``floor * hours of the
  horizon``; share of the tier's horizon capacity ``gpus * 730 * M`` (idle share =
  1 - share: over-buying shows as idle capacity);
- recommended: the feasible tier with the lowest TCO.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pandas as pd

from .finance import HOURS_PER_MONTH

if TYPE_CHECKING:
    from .model import Model

TRAINING_BYTES_PER_PARAM = 16  # BF16 weights and grads + FP32 master weights and Adam moments
USABLE_MEMORY = 0.8  # share of GPU memory usable for model state
INFERENCE_OVERHEAD = 1.2  # KV cache and activations on top of the weights
DEFAULT_LORA_FLOPS_FACTOR = 2 / 3

COLUMNS = (
    "kind",
    "gpus",
    "memory_floor_gpus",
    "meets_memory",
    "flops",
    "days_needed",
    "deadline_days",
    "meets_deadline",
    "feasible",
    "gpu_hours_used",
    "share_of_horizon",
    "idle_share",
    "tco",
    "recommended",
)


def recommend(model: Model) -> pd.DataFrame:
    """One row per (workload, tier); see the module docstring for each column.

    ``df.attrs["recommended"]`` maps each workload to its recommended tier (None
    where no tier is feasible)."""
    a = model.assumptions
    s = model.summary()
    rows = []
    for w in a.workloads:
        params = w.params_b.value * 1e9
        for tier in model.tiers:
            ti = model.inputs[tier].values()
            gpus = int(s.loc[tier, "gpus"])
            mem_b = ti["gpu_memory_gb"] * 1e9
            horizon_h = gpus * HOURS_PER_MONTH * model.months
            if w.kind == "inference":
                per_replica = math.ceil(
                    params * w.bytes_per_param.value * INFERENCE_OVERHEAD / mem_b
                )
                replicas = math.ceil(
                    w.tokens_per_s.value / (w.tokens_per_s_per_gpu.value * per_replica)
                )
                floor = per_replica * replicas
                flops = float("nan")
                days = float("nan")
                meets_deadline = True
                used = min(floor, gpus) * HOURS_PER_MONTH * model.months
            else:
                floor = math.ceil(params * TRAINING_BYTES_PER_PARAM / (mem_b * USABLE_MEMORY))
                factor = (
                    (
                        w.lora_flops_factor.value
                        if w.lora_flops_factor
                        else DEFAULT_LORA_FLOPS_FACTOR
                    )
                    if w.kind == "lora"
                    else 1.0
                )
                flops = 6 * params * w.tokens_b.value * 1e9 * factor
                rate = gpus * ti["tflops_bf16"] * 1e12 * ti["mfu"] * float(s.loc[tier, "goodput"])
                days = flops / (rate * 86400) if rate > 0 else float("inf")
                meets_deadline = days <= w.deadline_days.value
                used = gpus * min(days * 24, HOURS_PER_MONTH * model.months)
            meets_memory = gpus >= floor
            share = used / horizon_h if horizon_h > 0 else float("nan")
            rows.append(
                {
                    "workload": w.name,
                    "tier": tier,
                    "kind": w.kind,
                    "gpus": gpus,
                    "memory_floor_gpus": floor,
                    "meets_memory": meets_memory,
                    "flops": flops,
                    "days_needed": days,
                    "deadline_days": w.deadline_days.value if w.deadline_days else float("nan"),
                    "meets_deadline": bool(meets_deadline),
                    "feasible": bool(meets_memory and meets_deadline),
                    "gpu_hours_used": used,
                    "share_of_horizon": share,
                    "idle_share": 1 - share,
                    "tco": float(s.loc[tier, "tco"]),
                    "recommended": False,
                }
            )
    df = pd.DataFrame(rows, columns=["workload", "tier", *COLUMNS])
    chosen: dict[str, str | None] = {}
    for name, group in df.groupby("workload", sort=False):
        feasible = group[group["feasible"]]
        if feasible.empty:
            chosen[str(name)] = None
            continue
        best = feasible["tco"].idxmin()
        df.loc[best, "recommended"] = True
        chosen[str(name)] = str(df.loc[best, "tier"])
    df = df.set_index(["workload", "tier"])
    df.attrs["recommended"] = chosen
    return df
