"""The seed's risks priced with the model: what-ifs computed once, from inputs
that carry sources (``risks:`` of the assumptions), and read by the memo.

Per tier, with the summary's levelized ``cost`` per GPU-hour, GPU-hours sold in
an average year ``annual_hours = gpu_hours / horizon_years`` and the goodput
intermediates of :func:`costmodel.core.lines.goodput`:

- failures: ``per_year = 8760 / mtbf``, ``per_day = per_year / 365``;
  ``lost_hours = (1 - goodput) * annual_hours``; ``lost_money = lost_hours * cost``;
- faster storage (``risks.storage_speedup`` = k): ``goodput_fast`` = goodput with
  ``write_gbps * k``; ``recovered_hours = (goodput_fast - goodput) * annual_hours``;
  ``recovered_money = recovered_hours * cost``;
- a day of the cluster: ``day_cost = gpus * 24 * cost``;
- network bottleneck (the tier's own MFU input ``mfu``, ``risks.degraded_mfu`` d):
  ``mfu_loss_share = 1 - d / mfu`` (0 when ``mfu <= d``), ``mfu_at_stake = pv_cost *
  mfu_loss_share`` (the share of the PV of cost that buys no compute);
  ``cost_per_pflop_hour_degraded = cost_per_pflop_hour * mfu / d``;
- the failure rate at the high end of its range (``reliability.node_failures_per_day``
  high, whose source is the seed's "more than one a day"): ``per_day_high = high *
  servers``, ``goodput_high`` recomputed, ``lost_money_high = (1 - goodput_high) *
  annual_hours * cost``;
- the NPV with the failure rate at that high end (``npv_high_rate``, the engine run
  again): it differs from the NPV only through repair downtime
  (``availability = 1 - failures a day x repair_hours / 24`` of the sold hours);
- what reliability would cost in NPV terms if customers paid only for goodput:
  ``pv_revenue = sum(revenue * discount_factor)``, ``pv_revenue_lost = pv_revenue *
  (1 - goodput)`` (the engine's NPV sells every GPU-hour, so it carries none of it);
- a backup copy of the latest checkpoint on shared storage: ``backup_cost =
  checkpoint_tb * storage_price_per_tb``; ``backup_hours = backup_cost / (gpus *
  cost)``, the hours of whole-cluster work it is worth;
- checkpoint IO storm (``risks.checkpoint_frequency_factor`` f):
  ``write_share = write_hours / interval``; ``write_share_often = min(f *
  write_share, 1)``; ``io_money = (write_share_often - write_share) * annual_hours *
  cost``;
- storage against goodput (storage sized in nodes, methodology §28.2): the final
  cluster's node counts of :func:`costmodel.core.storage.storage_sizing` and what binds
  them (``storage_binds``: 1 write bandwidth, 2 read bandwidth, 3 capacity, 4 the
  minimum count); one node more: ``node_price``, ``write_more = write + node write``,
  ``goodput_more`` recomputed at ``write_more``, ``node_more_money = (goodput_more -
  goodput) * annual_hours * cost`` a year and ``node_payback_years = node_price /
  node_more_money`` (NaN when it gains nothing).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from costmodel.core.lines import goodput
from costmodel.core.storage import node_sized, storage_sizing
from costmodel.core.tierparams import TierParams
from costmodel.core.units import DAYS_PER_YEAR, HOURS_PER_DAY, HOURS_PER_YEAR
from costmodel.inputs.runs import run_variants
from costmodel.inputs.schema import Quantity

if TYPE_CHECKING:
    from costmodel.inputs.model import Model


SOURCE_FAILURES_PER_DAY = 1.0
"""The domain source's failure rate of a thousand-card cluster: "千卡集群日故障率通常大于
1 台" (more than one node a day). ``at_source_rate`` says whether a tier's cluster
reaches it as assumed (``per_day >= SOURCE_FAILURES_PER_DAY``); the memo words its
comparison with the source by it."""


def _goodput(row: pd.Series, v: dict[str, float], failures: float, write: float) -> float:
    """The engine's goodput of a tier at a given failure rate and write bandwidth."""
    g = goodput(float(row["servers"]), failures, v["checkpoint_tb"], write, v["restart_hours"])
    return float(g["goodput"][()])


def failure_rate_high(model: Model, tier: str) -> float:
    """The high end of the range of the tier's ``node_failures_per_day`` input
    (its value when the input has no range)."""
    v = model.inputs[tier]
    q = quantity_at(model.assumptions, v.paths()["node_failures_per_day"])
    value = v.values()["node_failures_per_day"]
    return float(q.high) if q is not None and q.high is not None else value


def quantity_at(a: object, path: str) -> Quantity | None:
    """The :class:`Quantity` at a dotted path of the assumptions, or None."""
    obj: object = a
    for part in path.split("."):
        obj = obj.get(part) if isinstance(obj, dict) else getattr(obj, part, None)
        if obj is None:
            return None
    return obj if isinstance(obj, Quantity) else None


def _npv_at(model: Model, tier: str, name: str, value: float) -> float:
    """The tier's NPV with one input (by engine name) at ``value``, all else as assumed."""
    path = model.inputs[tier].paths()[name]
    return float(run_variants(model.assumptions, {path: value}, [tier])[tier].metrics["npv"][0])


def _pv_revenue(model: Model, tier: str) -> float:
    fl = model.results[tier].flows
    return float(np.sum(np.asarray(fl["revenue"])[0] * np.asarray(fl["discount_factor"])[0]))


def _price_per_tb(v: dict[str, float]) -> float:
    """The storage's price per TB: the input, or a node's price over its TB when the
    storage is sized in nodes (methodology §28.2)."""
    if "storage_price_per_tb" in v:
        return float(v["storage_price_per_tb"])
    return float(v["storage_node_price"]) / float(v["storage_node_capacity_tb"])


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
    write = float(row["storage_write_gbps"])  # of the final cluster (methodology §28.2)
    fast = _goodput(row, v, v["node_failures_per_day"], write * speedup)
    high = failure_rate_high(model, tier)
    g_high = _goodput(row, v, high, write)
    per_year = 0.0 if math.isnan(mtbf) else HOURS_PER_YEAR / mtbf
    tau = float(row["checkpoint_interval_hours"])
    delta = met["checkpoint_write_hours"]
    share = delta / tau if not math.isnan(tau) and tau > 0 else math.nan
    often = (
        min(r.checkpoint_frequency_factor.value * share, 1.0) if not math.isnan(share) else math.nan
    )
    mfu = v["mfu"]
    d = r.degraded_mfu.value
    mfu_loss = max(1 - d / mfu, 0.0) if mfu > 0 else math.nan
    pv_revenue = _pv_revenue(model, tier)
    backup = float(v["checkpoint_tb"]) * _price_per_tb(v)
    return dict(
        price_per_tb=_price_per_tb(v),
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
        mfu=mfu,
        pv_cost=met["pv_cost"],
        degraded_mfu=d,
        mfu_loss_share=mfu_loss,
        mfu_at_stake=met["pv_cost"] * mfu_loss,
        cost_per_pflop_hour=float(row["cost_per_pflop_hour"]),
        cost_per_pflop_hour_degraded=float(row["cost_per_pflop_hour"]) * mfu / d,
        failures_high=high,
        per_day_high=high * float(row["servers"]),
        npv=float(row["npv"]),
        npv_high_rate=_npv_at(model, tier, "node_failures_per_day", high),
        availability=float(row["availability"]) if "availability" in row else 1.0,
        repair_hours=float(v.get("repair_hours", 0.0)),
        at_source_rate=float(per_year / DAYS_PER_YEAR >= SOURCE_FAILURES_PER_DAY),
        goodput_high=g_high,
        lost_money_high=(1 - g_high) * annual * cost,
        pv_revenue=pv_revenue,
        pv_revenue_lost=pv_revenue * (1 - g),
        backup_cost=backup,
        backup_hours=backup / (float(row["gpus"]) * cost) if cost > 0 else math.nan,
        write_share=share,
        write_share_often=often,
        io_money=(often - share) * annual * cost,
        **_node_trade(row, v, write, g, annual * cost),
    )


def _node_trade(
    row: pd.Series, v: dict[str, float], write: float, g: float, hour_value: float
) -> dict[str, float]:
    """The IO storm as a trade of storage nodes against goodput (module docstring);
    NaN for storage priced per TB. ``hour_value`` is a year's GPU-hours x the cost."""
    nan = math.nan
    params = TierParams.of(v)
    if not node_sized(params):
        keys = ("storage_nodes", "storage_binds", "node_price", "write_more", "goodput_more")
        return {k: nan for k in (*keys, "node_more_money", "node_payback_years")}
    q = params.mapped(lambda x: np.asarray(x, dtype=float))
    s = {k: float(x) for k, x in storage_sizing(q, float(row["gpus"])).items()}
    nodes = s["nodes"]
    counts = [s["nodes_write"], s["nodes_read"]]
    if float(v["storage_capacity_tier"]) == 0:  # a capacity tier buys the TB beyond
        counts.append(s["nodes_cap"])
    if max(counts) <= float(v["storage_min_nodes"]):
        binds = 4.0
    else:
        binds = float(1 + next(i for i, c in enumerate(counts) if c >= nodes))
    more = write + float(v["storage_node_write_gbps"])
    g_more = _goodput(row, v, v["node_failures_per_day"], more)
    money = (g_more - g) * hour_value
    price = float(v["storage_node_price"])
    return {
        "storage_nodes": nodes,
        "storage_binds": binds,
        "node_price": price,
        "write_more": more,
        "goodput_more": g_more,
        "node_more_money": money,
        "node_payback_years": price / money if money > 0 else nan,
    }


def risk_figures(model: Model) -> pd.DataFrame:
    """One row per tier (in tier order), the columns of the module docstring."""
    rows = {t: _tier_figures(model, t) for t in model.tiers}
    df = pd.DataFrame.from_dict(rows, orient="index").astype(float)
    df.index.name = "tier"
    return df.replace([np.inf, -np.inf], np.nan)


def software_problem(model: Model, risks: pd.DataFrame) -> dict[str, object] | None:
    """The seed's "a thousand-card cluster is a software problem" in numbers: the
    cost per PFLOP-hour of the largest ``thousands`` tier at ``risks.degraded_mfu``
    against the lowest cost per PFLOP-hour of a ``hundreds`` tier at its own MFU
    (``ratio = degraded / tuned``). None unless both scale classes exist."""
    s = model.summary()
    big = [t for t in model.tiers if s.loc[t, "scale_class"] == "thousands"]
    mid = [t for t in model.tiers if s.loc[t, "scale_class"] == "hundreds"]
    if not big or not mid:
        return None
    b = max(big, key=lambda t: float(s.loc[t, "gpus"]))
    h = min(mid, key=lambda t: float(risks.loc[t, "cost_per_pflop_hour"]))
    degraded = float(risks.loc[b, "cost_per_pflop_hour_degraded"])
    tuned = float(risks.loc[h, "cost_per_pflop_hour"])
    return dict(
        big=b,
        mid=h,
        degraded_mfu=float(risks.loc[b, "degraded_mfu"]),
        big_mfu=float(risks.loc[b, "mfu"]),
        mid_mfu=float(risks.loc[h, "mfu"]),
        big_tuned=float(risks.loc[b, "cost_per_pflop_hour"]),
        big_degraded=degraded,
        mid_tuned=tuned,
        ratio=degraded / tuned if tuned > 0 else math.nan,
    )
