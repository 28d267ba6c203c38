"""Ranged inputs and the tornado (methodology §9), on the engine's scenario axis.

Every variant goes through :func:`costmodel.inputs.runs.run_variants` in one
vectorised evaluation; nothing loops over builds. Break-even is in
:mod:`costmodel.analysis.breakeven`.

- **Ranged inputs**: every :class:`~costmodel.inputs.schema.Quantity` of the validated
  assumptions (``workloads`` excluded) with both ``low`` and ``high``, named by its
  dotted path. An input that no engine input of any tier reads (a catalogue server
  no tier uses, say) is *skipped* and listed as such.
- **Whole months**: timing inputs (``build_months``, ``ramp_months``, a stage's
  ``month``) are drawn (Monte Carlo) and varied (tornado) in whole months: draws
  and ends are rounded (``numpy.round``), so that the variants share few timings
  and the engine computes them by year (:func:`costmodel.core.engine.run_tier`).
- **Whole numbers** (methodology §11.3): an integer input written with a range
  (``horizon_years``, ``life_years``, ``term_years``, ``loss_carryforward_years``,
  a tier's or a stage's ``gpus``, a stage's ``month``) is a ranged input too; the
  tornado varies it at its low and high (the horizon, lives and carry-forward
  years by one engine evaluation per value: :mod:`costmodel.core.variants`);
  Monte Carlo rounds its draws to whole numbers and holds the *structural* ones
  (``horizon_years``, GPUs, GPUs per server, stage months) at their value
  (:attr:`RangedInput.structural`).
- **Tornado**: for input i with range ``[low_i, high_i]`` and tier t,
  ``at_low = metric_t(x_i = low_i)``, ``at_high = metric_t(x_i = high_i)``, all other
  inputs at their value; ``swing = |at_high - at_low|``. The 2n variants (plus the
  base case) are one ``run_variants`` call.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from pydantic import BaseModel

from costmodel.core.metrics import TEXT_COLUMNS
from costmodel.core.result import SUMMARY_COLUMNS
from costmodel.inputs.model import assumptions_of
from costmodel.inputs.params import resolve_tier
from costmodel.inputs.quantity import Bounds
from costmodel.inputs.runs import run_variants
from costmodel.inputs.schema import Assumptions, Quantity, WholeNumber

if TYPE_CHECKING:
    from costmodel.inputs.model import Model


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
    integer: bool = False  # a whole-number input (methodology §11.3)

    @property
    def whole_months(self) -> bool:
        """A timing input (construction or ramp months, a stage's month): drawn
        and varied in whole months (see :func:`whole_months`)."""
        return whole_months(self.path)

    @property
    def whole(self) -> bool:
        """Drawn in whole numbers: a timing input or a whole-number input."""
        return self.integer or self.whole_months

    @property
    def structural(self) -> bool:
        """Held at its value by the Monte Carlo (see :func:`structural`)."""
        return structural(self.path)


def structural(path: str) -> bool:
    """Whether the whole-number input at ``path`` is structural (methodology §11.3):
    the horizon, a tier's or a stage's GPUs, GPUs per server and a stage's month,
    which the Monte Carlo holds at their value (the tornado varies them)."""
    parts = path.split(".")
    if path == "horizon_years":
        return True
    if parts[0] == "servers" and parts[-1] == "gpus_per_server":
        return True
    if parts[0] == "tiers" and len(parts) == 3 and parts[-1] == "gpus":
        return True
    return len(parts) >= 3 and parts[-3] == "stages" and parts[-1] in ("month", "gpus")


def whole_months(path: str) -> bool:
    """Whether the input at ``path`` is a timing input (``build_months``,
    ``ramp_months``, ``stages.<i>.month``, a contract's ``months``, a server's
    ``lead_months``, a site's ``grid_lead_months``), whose Monte Carlo draws and
    tornado ends are rounded to whole months (``numpy.round``, half to even)."""
    parts = path.split(".")
    timing = ("build_months", "ramp_months", "lead_months", "grid_lead_months")
    if parts[-1] in timing or parts[-2:] == ["contract", "months"]:
        return True
    return len(parts) >= 3 and parts[-1] == "month" and parts[-3] == "stages"


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
    if isinstance(node, Quantity | WholeNumber):
        out.append((path, node, info))
    elif isinstance(node, list):  # stages: tiers.<t>.stages.<i>
        for i, item in enumerate(node):
            _walk(item, f"{path}.{i}", None, out)
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
    """dotted path -> tiers with an engine input (or a structural whole number)
    resolved from it."""
    readers: dict[str, list[str]] = {}
    for t in a.tiers:
        ti = resolve_tier(a, t)
        for path in dict.fromkeys([*ti.paths().values(), *ti.structure.values()]):
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
    for path, node, info in found:
        q = Quantity(value=int(node), **node.meta()) if isinstance(node, WholeNumber) else node
        ranged = q.low is not None and q.high is not None
        normal = include_normal and q.dist == "normal" and q.sd is not None
        if not (ranged or normal):
            continue
        if path not in readers:
            skipped.append(path)
            continue
        lower, upper = _field_bounds(info)
        num = int if isinstance(node, WholeNumber) else float  # a whole number stays one
        if isinstance(node, WholeNumber):
            lower = -math.inf if node.lower is None else float(node.lower)
            upper = math.inf if node.upper is None else float(node.upper)
        inputs.append(
            RangedInput(
                path=path,
                value=num(q.value),
                low=None if q.low is None else num(q.low),
                high=None if q.high is None else num(q.high),
                dist=q.dist or "triangular",
                sd=None if q.sd is None else float(q.sd),
                unit=q.unit,
                lower=lower,
                upper=upper,
                tiers=readers[path],
                integer=isinstance(node, WholeNumber),
            )
        )
    return inputs, skipped


METRICS_ALLOWED = tuple(c for c in SUMMARY_COLUMNS if c not in TEXT_COLUMNS)


def _check_metric(metric: str) -> None:
    if metric not in METRICS_ALLOWED:
        raise ValueError(f"unknown metric {metric!r}; choose one of: {', '.join(METRICS_ALLOWED)}")


# ----------------------------------------------------------------------------- tornado


def _ends(x: RangedInput) -> tuple[float, float]:
    """``(low, high)`` of a tornado bar: timing inputs in whole months."""
    lo, hi = float(x.low), float(x.high)  # type: ignore[arg-type]
    return (float(np.round(lo)), float(np.round(hi))) if x.whole_months else (lo, hi)


def tornado(
    x: Model | Assumptions, metric: str = "npv", tiers: list[str] | None = None
) -> pd.DataFrame:
    """One row per (ranged input, tier): ``input, tier, unit, value, low, high, base,
    at_low, at_high, swing`` with ``swing = |at_high - at_low|``, sorted by swing
    (largest first; NaN last; ties in model order). ``df.attrs``: ``metric`` and
    ``skipped`` (ranged paths that no tier reads).

    Variant 2i sets input i to its low, 2i + 1 to its high; the last variant is the
    base case: one ``run_variants`` call for everything.

    Parameters
    ----------
    x : Model or Assumptions
    metric : str, optional
        A summary column (default ``npv``).
    tiers : list of str, optional
        The tiers (default: all).

    Returns
    -------
    pandas.DataFrame

    Examples
    --------
    >>> import costmodel as cm
    >>> t = cm.tornado(cm.load_assumptions(cm.example_dir("by-hand")), tiers=["small"])
    >>> top = t.iloc[0]
    >>> top["input"], float(top["low"]), float(top["high"])
    ('operations.utilization', 0.4, 0.8)
    >>> f"{top['at_low']:,.0f}", f"{top['at_high']:,.0f}", f"{top['swing']:,.0f}"
    ('-2,054,753', '-187,833', '1,866,920')
    """
    _check_metric(metric)
    a = assumptions_of(x)
    tiers = list(tiers or a.tiers)
    inputs, skipped = ranged_inputs(a)
    n = len(inputs)
    variants: dict[str, np.ndarray] = {}
    for i, x in enumerate(inputs):
        arr = np.full(2 * n + 1, x.value)
        arr[2 * i], arr[2 * i + 1] = _ends(x)
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
                    "low": float(variants[x.path][2 * i]),
                    "high": float(variants[x.path][2 * i + 1]),
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
