"""The seed's risks priced with the model: what-ifs computed once, from inputs
that carry sources (``risks:`` of the assumptions), and read by the memo.

Per tier, with the summary's levelized ``cost`` per GPU-hour, GPU-hours sold in
an average year ``annual_hours = gpu_hours / horizon_years`` and the goodput
intermediates of :func:`costmodel.core.engine.goodput`:

- failures: ``per_year = 8760 / mtbf``, ``per_day = per_year / 365``;
  ``lost_hours = (1 - goodput) * annual_hours``; ``lost_money = lost_hours * cost``;
- faster storage (``risks.storage_speedup`` = k): ``goodput_fast`` = goodput with
  ``write_gbps * k``; ``recovered_hours = (goodput_fast - goodput) * annual_hours``;
  ``recovered_money = recovered_hours * cost``;
- a day of the cluster: ``day_cost = gpus * 24 * cost``;
- network bottleneck (``risks.reference_mfu`` r, ``risks.degraded_mfu`` d):
  ``mfu_at_stake = pv_cost * (1 - d / r)`` (the share of the PV of cost that buys
  no compute); ``cost_per_pflop_hour_degraded = cost_per_pflop_hour * mfu / d``;
- checkpoint IO storm (``risks.checkpoint_frequency_factor`` f):
  ``write_share = write_hours / interval``; ``write_share_often = min(f *
  write_share, 1)``; ``io_money = (write_share_often - write_share) * annual_hours *
  cost``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from costmodel.core.engine import goodput
from costmodel.core.units import DAYS_PER_YEAR, HOURS_PER_DAY, HOURS_PER_YEAR

if TYPE_CHECKING:
    from costmodel.core.model import Model


def _tier_figures(model: Model, tier: str) -> dict[str, float]:
    a = model.assumptions
    row = model.summary().loc[tier]
    met = {k: float(v[0]) for k, v in model.results[tier].metrics.items()}
    v = model.inputs[tier].values()
    r = a.risks
    years = a.horizon_years
    cost = float(row["cost_per_gpu_hour"])
    annual = float(row["gpu_hours"]) / years
    g = float(row["goodput"])
    mtbf = float(row["mtbf_hours"])
    speedup = r.storage_speedup.value
    write = float(v["write_gbps"])
    fast = float(
        goodput(
            float(row["servers"]),
            v["node_failures_per_day"],
            v["checkpoint_tb"],
            write * speedup,
            v["restart_hours"],
        )["goodput"][()]
    )
    per_year = 0.0 if math.isnan(mtbf) else HOURS_PER_YEAR / mtbf
    tau = float(row["checkpoint_interval_hours"])
    delta = met["checkpoint_write_hours"]
    share = delta / tau if not math.isnan(tau) and tau > 0 else math.nan
    often = (
        min(r.checkpoint_frequency_factor.value * share, 1.0) if not math.isnan(share) else math.nan
    )
    mfu = v["mfu"]
    return dict(
        servers=float(row["servers"]),
        gpus=float(row["gpus"]),
        years=float(years),
        cost=cost,
        annual_hours=annual,
        day_cost=float(row["gpus"]) * HOURS_PER_DAY * cost,
        mtbf=mtbf,
        per_year=per_year,
        per_day=per_year / DAYS_PER_YEAR,
        tau=tau,
        checkpoint_tb=float(v["checkpoint_tb"]),
        write=write,
        write_fast=write * speedup,
        delta_h=delta,
        goodput=g,
        goodput_fast=fast,
        lost_hours=(1 - g) * annual,
        lost_money=(1 - g) * annual * cost,
        recovered_hours=(fast - g) * annual,
        recovered_money=(fast - g) * annual * cost,
        capex_storage=float(row["capex_storage"]),
        mfu=mfu,
        pv_cost=met["pv_cost"],
        mfu_at_stake=met["pv_cost"] * (1 - r.degraded_mfu.value / r.reference_mfu.value),
        cost_per_pflop_hour=float(row["cost_per_pflop_hour"]),
        cost_per_pflop_hour_degraded=float(row["cost_per_pflop_hour"]) * mfu / r.degraded_mfu.value,
        write_share=share,
        write_share_often=often,
        io_money=(often - share) * annual * cost,
    )


def risk_figures(model: Model) -> pd.DataFrame:
    """One row per tier (in tier order), the columns of the module docstring."""
    rows = {t: _tier_figures(model, t) for t in model.tiers}
    df = pd.DataFrame.from_dict(rows, orient="index").astype(float)
    df.index.name = "tier"
    return df.replace([np.inf, -np.inf], np.nan)
