"""Workload sizing and tier recommendation (methodology §5b): "the task decides the
scale, not the budget".

For each workload of the assumptions and each tier:

- training FLOPs ``6 * params * tokens`` (LoRA: times the workload's
  ``lora_flops_factor``, else ``sizing.lora_flops_factor``);
- memory floor, training: ``ceil(params * bytes_per_param /
  (gpu_memory_gb * 1e9 * sizing.usable_memory_fraction))`` GPUs, with
  ``sizing.training_bytes_per_param`` for a pretrain or full fine-tune and
  ``sizing.lora_bytes_per_param`` for a LoRA (a frozen base and small adapter
  state need a fraction of the full fine-tune's memory); inference: per
  replica ``ceil(params * bytes_per_param * sizing.inference_overhead /
  (gpu_memory_gb * 1e9))`` GPUs, replicas ``ceil(tokens_per_s /
  (tokens_per_s_per_gpu * per_replica))``, floor = per replica x replicas;
- days on the tier (training): ``FLOPs / (gpus * tflops_bf16 * 1e12 * mfu *
  goodput * 86400)``, using every GPU of the tier;
- feasible: the tier has at least the memory floor and (training) finishes
  within ``deadline_days``;
- GPU-hours used: training ``gpus * days * 24``; inference ``floor * hours of the
  horizon``; share of the tier's horizon capacity ``gpus * 730 * M`` (idle share =
  1 - share: over-buying shows as idle capacity);
- recommended: the feasible tier with the lowest TCO;
- cost per million tokens (inference, methodology §27): ``cost_per_gpu_hour * 1e6 /
  (tokens_per_s_per_gpu * 3600)``, beside the tier's ``cost_per_gpu_hour`` it comes
  from (empty for training workloads).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import pandas as pd

from costmodel.core.units import (
    BYTES_PER_GB,
    FLOP_PER_TFLOP,
    HOURS_PER_DAY,
    HOURS_PER_MONTH,
    PARAMS_PER_BILLION,
    SECONDS_PER_DAY,
    SECONDS_PER_HOUR,
)

if TYPE_CHECKING:
    from costmodel.inputs.model import Model
    from costmodel.inputs.schema import Assumptions


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
    "cost_per_gpu_hour",
    "cost_per_million_tokens",
    "recommended",
)

#: tokens in the unit of :func:`cost_per_million_tokens`
TOKENS_PER_MILLION = 1e6


def _ceil(x: float) -> float:
    """``math.ceil`` that keeps an infinite (absurdly large) count infinite: no tier
    meets it, and machine output shows it as empty."""
    return math.ceil(x) if math.isfinite(x) else float("inf")


def cost_per_million_tokens(cost_per_gpu_hour: float, tokens_per_s_per_gpu: float) -> float:
    """Cost of serving a million tokens on a tier (methodology §27):
    ``cost_per_gpu_hour * 1e6 / (tokens_per_s_per_gpu * 3600)``; NaN where the cost
    per GPU-hour is empty or the throughput is not positive.

    >>> cost_per_million_tokens(10.8, 600)  # 10.8 x 1e6 / (600 x 3600) = 5.0
    5.0
    """
    if not math.isfinite(cost_per_gpu_hour) or not tokens_per_s_per_gpu > 0:
        return float("nan")
    tokens_per_gpu_hour = tokens_per_s_per_gpu * SECONDS_PER_HOUR
    return cost_per_gpu_hour * TOKENS_PER_MILLION / tokens_per_gpu_hour


def recommend(model: Model | Assumptions) -> pd.DataFrame:
    """One row per (workload, tier) of a model or of its assumptions; see the
    module docstring for each column.

    ``df.attrs["recommended"]`` maps each workload to its recommended tier (None
    where no tier is feasible).

    Parameters
    ----------
    model : Model or Assumptions

    Returns
    -------
    pandas.DataFrame

    Examples
    --------
    >>> import costmodel as cm
    >>> chosen = cm.recommend(cm.load_assumptions(cm.example_dir("by-hand"))).attrs["recommended"]
    >>> chosen["SFT of a 7B model"], chosen["Pretrain a 7B model on 140B tokens"]
    ('small', 'large')
    """
    from costmodel.inputs.model import model_of

    model = model_of(model)
    a = model.assumptions
    s = model.summary()
    rows = []
    for w in a.workloads:
        for tier in model.tiers:
            rows.append(_fit(model, s, w, tier))
    df = pd.DataFrame(rows, columns=["workload", "tier", *COLUMNS])
    chosen = _choose(df)
    df = df.set_index(["workload", "tier"])
    df.attrs["recommended"] = chosen
    return df


def _fit(model: Model, s: pd.DataFrame, w: Any, tier: str) -> dict[str, Any]:
    """One row of :func:`recommend`: workload ``w`` on ``tier``. Feasible when
    ``gpus >= memory floor`` and the days needed meet the deadline; the share of
    the horizon is ``used / (gpus * 730 h * months)``, idle share ``1 - share``;
    inference: ``cost_per_million_tokens`` from the tier's ``cost_per_gpu_hour``."""
    ti = model.inputs[tier].values()
    gpus = int(s.loc[tier, "gpus"])
    horizon_h = gpus * HOURS_PER_MONTH * model.months
    if w.kind == "inference":
        floor, flops, days, meets_deadline, used = _inference_need(model, w, ti, gpus)
    else:
        goodput = float(s.loc[tier, "goodput"])
        floor, flops, days, meets_deadline, used = _training_need(model, w, ti, gpus, goodput)
    meets_memory = gpus >= floor
    cost_h = float(s.loc[tier, "cost_per_gpu_hour"])
    per_mtok = (
        cost_per_million_tokens(cost_h, w.tokens_per_s_per_gpu.value)
        if w.kind == "inference"
        else float("nan")
    )
    share = used / horizon_h if horizon_h > 0 else float("nan")
    return {
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
        "cost_per_gpu_hour": cost_h,
        "cost_per_million_tokens": per_mtok,
        "recommended": False,
    }


def _inference_need(
    model: Model, w: Any, ti: dict[str, float], gpus: int
) -> tuple[int, float, float, bool, float]:
    """(memory floor, FLOPs, days, meets deadline, GPU-hours used) of serving ``w``:
    ``per replica = ceil(params * bytes/param * overhead / GPU memory)``,
    ``replicas = ceil(tokens/s / (tokens/s per GPU * per replica))``, floor =
    per replica * replicas; always on: ``used = min(floor, gpus) * 730 h * months``
    (no FLOPs or days, no deadline)."""
    params = w.params_b.value * PARAMS_PER_BILLION
    mem_b = ti["gpu_memory_gb"] * BYTES_PER_GB
    per_replica = _ceil(
        params * w.bytes_per_param.value * model.assumptions.sizing.inference_overhead.value / mem_b
    )
    replicas = _ceil(w.tokens_per_s.value / (w.tokens_per_s_per_gpu.value * per_replica))
    floor = per_replica * replicas
    used = min(floor, gpus) * HOURS_PER_MONTH * model.months
    return floor, float("nan"), float("nan"), True, used


def _training_need(
    model: Model, w: Any, ti: dict[str, float], gpus: int, goodput: float
) -> tuple[int, float, float, bool, float]:
    """(memory floor, FLOPs, days, meets deadline, GPU-hours used) of training ``w``:
    ``floor = ceil(params * bytes/param / (GPU memory * usable share))``, bytes/param
    the LoRA constant for ``lora``, else the training one;
    ``FLOPs = 6 * params * tokens * factor`` (LoRA factor for ``lora``, else 1);
    ``days = FLOPs / (gpus * TFLOPS * MFU * goodput * 86,400 s)`` (inf at rate 0);
    ``used = gpus * min(days * 24 h, 730 h * months)``."""
    a = model.assumptions
    sizing = a.sizing
    params = w.params_b.value * PARAMS_PER_BILLION
    mem_b = ti["gpu_memory_gb"] * BYTES_PER_GB
    bytes_per_param = (
        sizing.lora_bytes_per_param if w.kind == "lora" else sizing.training_bytes_per_param
    ).value
    floor = _ceil(params * bytes_per_param / (mem_b * sizing.usable_memory_fraction.value))
    factor = (w.lora_flops_factor or a.sizing.lora_flops_factor).value if w.kind == "lora" else 1.0
    flops = 6 * params * w.tokens_b.value * PARAMS_PER_BILLION * factor
    rate = gpus * ti["tflops_bf16"] * FLOP_PER_TFLOP * ti["mfu"] * goodput
    days = flops / (rate * SECONDS_PER_DAY) if rate > 0 else float("inf")
    meets_deadline = days <= w.deadline_days.value
    used = gpus * min(days * HOURS_PER_DAY, HOURS_PER_MONTH * model.months)
    return floor, flops, days, meets_deadline, used


def _choose(df: pd.DataFrame) -> dict[str, str | None]:
    """Per workload the feasible tier of least TCO (marked ``recommended``), None
    where no tier is feasible."""
    chosen: dict[str, str | None] = {}
    for name, group in df.groupby("workload", sort=False):
        feasible = group[group["feasible"]]
        if feasible.empty:
            chosen[str(name)] = None
            continue
        best = feasible["tco"].idxmin()
        df.loc[best, "recommended"] = True
        chosen[str(name)] = str(df.loc[best, "tier"])
    return chosen
