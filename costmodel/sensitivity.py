"""Tornado and break-even analysis (spec 11), on the engine's scenario axis.

Both run every variant through :func:`costmodel.model.run_variants` in one
vectorised evaluation per call; nothing loops over builds.

- **Ranged inputs**: every :class:`~costmodel.schema.Quantity` of the validated
  assumptions (``workloads`` excluded) with both ``low`` and ``high``, named by its
  dotted path. An input that no engine input of any tier reads (a catalogue server
  no tier uses, say) is *skipped* and listed as such.
- **Tornado**: for input i with range ``[low_i, high_i]`` and tier t,
  ``at_low = metric_t(x_i = low_i)``, ``at_high = metric_t(x_i = high_i)``, all other
  inputs at their value; ``swing = |at_high - at_low|``. The 2n variants (plus the
  base case) are one ``run_variants`` call.
- **Break-even**: per tier, the utilization in [0, 1] and the year-1 price per
  GPU-hour in [0, 20 x the tier's price] at which NPV = 0: the smallest grid
  interval where NPV changes sign (or is 0) is refined by rounds of finer grids,
  each round one ``run_variants`` call for all tiers and both inputs, and the
  root is the secant point of the last bracket. NaN where NPV does not change sign
  in the range. A tier's input lives at ``resolve_tier(a, t).paths()[...]`` (its
  own override, or the global path).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from pydantic import BaseModel

from .engine import SUMMARY_COLUMNS
from .model import run_variants
from .params import resolve_tier
from .schema import Assumptions, Bounds, Quantity

GRID = 33  # candidate values per round of the break-even search
ROUNDS = 9  # each round narrows the bracket 32x: 32**-9 ~ 3e-14 of the range
PRICE_RANGE_FACTOR = 20.0  # break-even price searched in [0, 20 x the tier's price]


# ----------------------------------------------------------------------------- ranged inputs


@dataclass(frozen=True)
class RangedInput:
    """One varied input: dotted ``path``, ``value``, range, distribution and the
    field's valid interval ``[lower, upper]`` (used to clip normal draws)."""

    path: str
    value: float
    low: float | None
    high: float | None
    dist: str  # triangular | uniform | normal
    sd: float | None
    unit: str | None
    lower: float = -math.inf
    upper: float = math.inf
    tiers: tuple[str, ...] = field(default=())  # tiers whose engine inputs read it


def _field_bounds(info: Any) -> tuple[float, float]:
    """Valid interval of a Quantity field, from the schema's :class:`Bounds`
    validator; open bounds become the next representable number."""
    for meta in getattr(info, "metadata", ()):
        b = getattr(meta, "func", None)
        if isinstance(b, Bounds):
            lo = -math.inf if b.lo is None else float(b.lo)
            hi = math.inf if b.hi is None else float(b.hi)
            if b.lo_open:
                lo = math.nextafter(lo, math.inf)
            if b.hi_open:
                hi = math.nextafter(hi, -math.inf)
            return lo, hi
    return -math.inf, math.inf


def _dict_value_info(model: type[BaseModel], name: str) -> Any:
    """FieldInfo-like metadata holder of the values of a ``dict[str, Q]`` field."""
    from typing import get_args

    args = get_args(model.model_fields[name].annotation)
    inner = args[1] if len(args) == 2 else None

    class _Info:
        metadata = list(getattr(inner, "__metadata__", ()))

    return _Info


def _walk(node: Any, path: str, info: Any, out: list[tuple[str, Quantity, Any]]) -> None:
    if isinstance(node, Quantity):
        out.append((path, node, info))
    elif isinstance(node, BaseModel):
        for name, finfo in type(node).model_fields.items():
            if not path and name == "workloads":
                continue
            child = getattr(node, name)
            sub = f"{path}.{name}" if path else name
            if isinstance(child, dict):
                vinfo = _dict_value_info(type(node), name)
                for key, item in child.items():
                    _walk(item, f"{sub}.{key}", vinfo, out)
            else:
                _walk(child, sub, finfo, out)


def _readers(a: Assumptions) -> dict[str, tuple[str, ...]]:
    """dotted path -> tiers with an engine input resolved from it."""
    readers: dict[str, list[str]] = {}
    for t in a.tiers:
        for path in set(resolve_tier(a, t).paths().values()):
            readers.setdefault(path, []).append(t)
    return {p: tuple(ts) for p, ts in readers.items()}


def ranged_inputs(
    a: Assumptions, *, include_normal: bool = False
) -> tuple[list[RangedInput], list[str]]:
    """``(inputs, skipped)``: every Quantity with ``low`` and ``high`` (and, with
    ``include_normal``, every ``dist: normal`` one with ``sd``), in model order, that
    some tier's engine reads; ``skipped``: the paths of those that none reads."""
    found: list[tuple[str, Quantity, Any]] = []
    _walk(a, "", None, found)
    readers = _readers(a)
    inputs: list[RangedInput] = []
    skipped: list[str] = []
    for path, q, info in found:
        ranged = q.low is not None and q.high is not None
        normal = include_normal and q.dist == "normal" and q.sd is not None
        if not (ranged or normal):
            continue
        if path not in readers:
            skipped.append(path)
            continue
        lower, upper = _field_bounds(info)
        inputs.append(
            RangedInput(
                path=path,
                value=float(q.value),
                low=None if q.low is None else float(q.low),
                high=None if q.high is None else float(q.high),
                dist=q.dist or "triangular",
                sd=None if q.sd is None else float(q.sd),
                unit=q.unit,
                lower=lower,
                upper=upper,
                tiers=readers[path],
            )
        )
    return inputs, skipped


METRICS_ALLOWED = tuple(c for c in SUMMARY_COLUMNS if c != "scale_class")


def _check_metric(metric: str) -> None:
    if metric not in METRICS_ALLOWED:
        raise ValueError(f"unknown metric {metric!r}; choose one of: {', '.join(METRICS_ALLOWED)}")


# ----------------------------------------------------------------------------- tornado


def tornado(a: Assumptions, metric: str = "npv", tiers: list[str] | None = None) -> pd.DataFrame:
    """One row per (ranged input, tier): ``input, tier, unit, value, low, high, base,
    at_low, at_high, swing`` with ``swing = |at_high - at_low|``, sorted by swing
    (largest first; NaN last; ties in model order). ``df.attrs``: ``metric`` and
    ``skipped`` (ranged paths that no tier reads).

    Variant 2i sets input i to its low, 2i + 1 to its high; the last variant is the
    base case: one ``run_variants`` call for everything.
    """
    _check_metric(metric)
    tiers = list(tiers or a.tiers)
    inputs, skipped = ranged_inputs(a)
    n = len(inputs)
    variants: dict[str, np.ndarray] = {}
    for i, x in enumerate(inputs):
        arr = np.full(2 * n + 1, x.value)
        arr[2 * i], arr[2 * i + 1] = x.low, x.high
        variants[x.path] = arr
    results = run_variants(a, variants, tiers=tiers)
    rows = []
    for i, x in enumerate(inputs):
        for t in tiers:
            m = results[t].metrics[metric]
            lo_v, hi_v, base = float(m[2 * i]), float(m[2 * i + 1]), float(m[2 * n])
            rows.append(
                {
                    "input": x.path,
                    "tier": t,
                    "unit": x.unit or "",
                    "value": x.value,
                    "low": x.low,
                    "high": x.high,
                    "base": base,
                    "at_low": lo_v,
                    "at_high": hi_v,
                    "swing": abs(hi_v - lo_v),
                }
            )
    cols = ["input", "tier", "unit", "value", "low", "high", "base", "at_low", "at_high", "swing"]
    df = pd.DataFrame(rows, columns=cols)
    df = df.sort_values("swing", ascending=False, kind="stable", na_position="last")
    df = df.reset_index(drop=True)
    df.attrs["metric"] = metric
    df.attrs["skipped"] = skipped
    return df


# ----------------------------------------------------------------------------- break-even


def _first_crossing(grid: np.ndarray, npv: np.ndarray) -> tuple[float, float, float, float]:
    """The first interval ``[grid[k], grid[k+1]]`` where NPV changes sign or is 0 at an
    end: ``(lo, hi, npv_lo, npv_hi)``; NaNs if none."""
    s = np.sign(npv)
    hit = (s[:-1] * s[1:] <= 0) & ~((s[:-1] == 0) & (s[1:] == 0)) | (s[:-1] == 0)
    if not hit.any():
        return (math.nan,) * 4
    k = int(np.argmax(hit))
    return float(grid[k]), float(grid[k + 1]), float(npv[k]), float(npv[k + 1])


def break_even(a: Assumptions, tiers: list[str] | None = None) -> pd.DataFrame:
    """Per tier (index): the ``utilization`` in [0, 1] and the year-1
    ``price_per_gpu_hour`` in [0, 20 x base] at which NPV = 0, all else at value;
    NaN where NPV does not change sign in the range (the lowest root if several).
    Columns also give the base values, the dotted paths varied and ``npv_at_*``,
    the NPV at each solution (a check: ~0 relative to capex).

    Round r evaluates ``GRID`` candidates across each current bracket, for every
    tier and both inputs, in one ``run_variants`` call; the solution is the secant
    point of the final bracket.
    """
    tiers = list(tiers or a.tiers)
    keys = ("utilization", "price_per_gpu_hour")
    jobs = []  # (tier, key, path, base, lo, hi)
    for t in tiers:
        ti = resolve_tier(a, t)
        for key in keys:
            base = float(ti.values()[key])
            top = 1.0 if key == "utilization" else PRICE_RANGE_FACTOR * max(base, 1.0)
            jobs.append([t, key, ti.paths()[key], base, 0.0, top, math.nan, math.nan])

    def evaluate(points: list[np.ndarray]) -> list[np.ndarray]:
        """NPV of job j at its candidate ``points[j]``, all jobs in one call."""
        sizes = [len(p) for p in points]
        total = sum(sizes)
        starts = np.cumsum([0, *sizes])
        variants: dict[str, np.ndarray] = {}
        for t, key, path, *_rest in jobs:
            if path not in variants:
                variants[path] = np.full(total, float(resolve_tier(a, t).values()[key]))
        # every slot carries the base value of every other path
        for j, job in enumerate(jobs):
            variants[job[2]][starts[j] : starts[j + 1]] = points[j]
        res = run_variants(a, variants, tiers=tiers)
        return [res[job[0]].metrics["npv"][starts[j] : starts[j + 1]] for j, job in enumerate(jobs)]

    live = [True] * len(jobs)
    for _ in range(ROUNDS):
        grids = [
            np.linspace(job[4], job[5], GRID) if live[j] else np.array([job[4]])
            for j, job in enumerate(jobs)
        ]
        npvs = evaluate(grids)
        for j, job in enumerate(jobs):
            if not live[j]:
                continue
            lo, hi, f_lo, f_hi = _first_crossing(grids[j], npvs[j])
            job[4], job[5], job[6], job[7] = lo, hi, f_lo, f_hi
            if math.isnan(lo) or f_lo == 0:
                live[j] = False
    roots = []
    for job in jobs:
        lo, hi, f_lo, f_hi = job[4:8]
        if math.isnan(lo):
            roots.append(math.nan)
        elif f_lo == 0:
            roots.append(lo)
        elif f_hi == 0:
            roots.append(hi)
        else:
            roots.append(min(max(lo - f_lo * (hi - lo) / (f_hi - f_lo), lo), hi))
    at = [np.array([job[3] if math.isnan(r) else r]) for r, job in zip(roots, jobs, strict=True)]
    checks = evaluate(at)
    out: dict[str, dict[str, Any]] = {t: {} for t in tiers}
    for job, root, chk in zip(jobs, roots, checks, strict=True):
        t, key, path, base = job[:4]
        out[t][key] = root
        out[t][f"{key}_base"] = base
        out[t][f"npv_at_{key}"] = math.nan if math.isnan(root) else float(chk[0])
        out[t][f"{key}_path"] = path
    cols = [
        "utilization",
        "utilization_base",
        "npv_at_utilization",
        "price_per_gpu_hour",
        "price_per_gpu_hour_base",
        "npv_at_price_per_gpu_hour",
        "utilization_path",
        "price_per_gpu_hour_path",
    ]
    df = pd.DataFrame.from_dict(out, orient="index")[cols]
    df.index.name = "tier"
    return df
