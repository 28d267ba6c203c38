"""How to choose between the options, computed once and read by the memo.

One row per tier (in tier order) of :func:`options`:

- ``npv``, ``capex``; ``pi = npv / capex`` (NPV per unit of capex, the
  profitability index less one: what each unit invested gains or loses in present
  value); ``peak_funding``, the model's metric: the most cash the project ever needs;
- ``rank_npv``, ``rank_pi`` (1 = highest), ``rank_funding`` (1 = least funding);
- ``price`` (the assumed year-1 selling price), ``cloud_price`` (the cloud price of
  the same server in the tier's cloud term), ``price_over_cloud = price /
  cloud_price - 1`` (> 0: the model sells above what a cloud charges);
- ``utilization`` and the ``utilization_low`` / ``utilization_high`` of its range;
  ``cost`` (levelized cost per GPU-hour), ``saving`` (build versus rent, PV);
- ``captive``: the tier's revenue mode is ``avoided_cloud`` (an enterprise's own
  cluster; its NPV is the value of building instead of renting the same GPU-hours,
  not a return on capital sold to tenants);
- with Monte Carlo: ``npv_p50`` and ``base_percentile``, the share of draws whose
  NPV is at or below the base case (0.86: the base case beats 86% of the draws).

:func:`choose` applies the decision rule: with a positive NPV, the highest NPV
among the positive ones (value added; capital is not rationed); with none, no
option is worth building and the closest is the highest ``pi`` (the least value
lost per unit invested), never the smallest loss in absolute terms, which always
favours the smallest project. A captive option answers another question (build or
rent for one's own use), so it is ranked apart: while any merchant option (revenue
mode ``rental``) is feasible, only merchant options are ranked and the captive ones
are listed in ``captive``, each judged by the sign of its own NPV against renting.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from costmodel.analysis.risks import quantity_at
from costmodel.inputs.params import revenue_mode

if TYPE_CHECKING:
    from costmodel.analysis.montecarlo import MonteCarloResult
    from costmodel.inputs.model import Model

OPTIMISTIC = 0.6
"""A base case at or above this percentile of the Monte Carlo NPVs is called
optimistic (at or below ``1 - OPTIMISTIC``: cautious)."""


def _peak_funding(model: Model, tier: str) -> float:
    """The model's ``peak_funding`` metric (the most negative cumulative cash)."""
    return float(model.results[tier].metrics["peak_funding"][0])


def _range(model: Model, tier: str, name: str) -> tuple[float, float]:
    """The ``(low, high)`` of the input the tier reads; when a tier override has no
    range of its own, the range of the global input it overrides (the range its
    sources support)."""
    path = model.inputs[tier].paths()[name]
    q = quantity_at(model.assumptions, path)
    if (q is None or q.high is None) and path.startswith(f"tiers.{tier}."):
        q = quantity_at(model.assumptions, path.removeprefix(f"tiers.{tier}."))
    lo = q.low if q is not None and q.low is not None else math.nan
    hi = q.high if q is not None and q.high is not None else math.nan
    return float(lo), float(hi)


def _row(model: Model, tier: str, rent: pd.DataFrame, summary: pd.DataFrame) -> dict[str, float]:
    s = summary.loc[tier]
    v = model.inputs[tier].values()
    npv, capex = float(s["npv"]), float(s["capex"])
    cloud = float(rent.loc[tier, "cloud_price_per_gpu_hour"]) if tier in rent.index else math.nan
    # the year-1 price as sold (a quote rolled to the start, the site's factor): the
    # cloud price it is compared with is the cloud's quote rolled the same way
    price = model.selling_price(tier)
    lo, hi = _range(model, tier, "utilization")
    return dict(
        npv=npv,
        capex=capex,
        pi=npv / capex if capex > 0 else math.nan,
        peak_funding=_peak_funding(model, tier),
        price=price,
        cloud_price=cloud,
        price_over_cloud=price / cloud - 1 if cloud > 0 else math.nan,
        utilization=float(v["utilization"]),
        utilization_low=lo,
        utilization_high=hi,
        cost=float(s["cost_per_gpu_hour"]),
        saving=float(rent.loc[tier, "saving"]) if tier in rent.index else math.nan,
    )


def options(
    model: Model, build_vs_rent: pd.DataFrame, mc: MonteCarloResult | None = None
) -> pd.DataFrame:
    """The table of the module docstring."""
    summary = model.summary()  # built once: a DataFrame per call
    df = pd.DataFrame.from_dict(
        {t: _row(model, t, build_vs_rent, summary) for t in model.tiers}, orient="index"
    )
    df["feasible"] = [bool(summary.loc[t, "feasible"]) for t in df.index]
    df["captive"] = [revenue_mode(model.assumptions, t)[0] == "avoided_cloud" for t in df.index]
    df["rank_npv"] = df["npv"].rank(ascending=False, method="min")
    df["rank_pi"] = df["pi"].rank(ascending=False, method="min")
    df["rank_funding"] = df["peak_funding"].rank(ascending=True, method="min")
    df["npv_p50"] = math.nan
    df["base_percentile"] = math.nan
    if mc is not None:
        for t in model.tiers:
            if t in mc.draws:
                draws = mc.draws[t]["npv"].to_numpy(float)
                df.loc[t, "npv_p50"] = float(np.median(draws))
                df.loc[t, "base_percentile"] = float(np.mean(draws <= df.loc[t, "npv"]))
    df.index.name = "tier"
    return df


def choose(df: pd.DataFrame) -> dict[str, object]:
    """The decision rule of the module docstring: ``tier`` (recommended, or the
    closest to being worth building), ``worth`` (an NPV > 0 exists), ``criterion``
    (``"npv"`` or ``"pi"``) and ``by_npv``, ``by_pi``, ``by_funding`` (the first
    of each ranking). Only feasible options (methodology §33) are considered:
    ``excluded`` lists the others; when none is feasible every option is ranked
    (for reference) and ``feasible`` is 0, else the count considered. Feasible
    captive options are ranked apart (``captive``, in table order) while a feasible
    merchant option exists; ``ranked`` is the count of options ranked."""
    ok = df["feasible"].astype(bool) if "feasible" in df.columns else pd.Series(True, df.index)
    excluded = [str(t) for t in df.index if not ok[t]]
    if ok.any():
        df = df[ok]
    own = df["captive"].astype(bool) if "captive" in df.columns else pd.Series(False, df.index)
    captive = [str(t) for t in df.index if own[t]] if (~own).any() else []
    if captive:
        df = df[~own]
    npv = df["npv"].dropna()
    pi = df["pi"].dropna()
    positive = npv[npv > 0]
    by_npv = str(npv.idxmax()) if len(npv) else str(df.index[0])
    by_pi = str(pi.idxmax()) if len(pi) else by_npv
    funding = df["peak_funding"].dropna()
    by_funding = str(funding.idxmin()) if len(funding) else by_npv
    worth = bool(len(positive))
    return dict(
        tier=str(positive.idxmax()) if worth else by_pi,
        worth=worth,
        criterion="npv" if worth else "pi",
        by_npv=by_npv,
        by_pi=by_pi,
        by_funding=by_funding,
        excluded=excluded,
        feasible=int(ok.sum()),
        captive=captive,
        ranked=len(df),
    )
