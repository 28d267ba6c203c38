"""Growth options of a staged tier (methodology §8.1): build the final size at once, grow
in stages with the headroom reserved, or grow in stages and extend the hall later.

For every tier with ``stages``, the three options are computed from the same
assumptions: ``at_once`` buys the final GPUs and storage with the first
deployment (the final team from the start, no stages), ``staged_headroom`` is the
tier with ``reserve_headroom: true`` and ``staged_rebuild`` the tier with
``reserve_headroom: false`` (each stage pays ``facility.retrofit_premium`` on its
hall). The memo's growth section reads this table.

Columns beyond the summary's: ``capex_month0`` (capex paid at month 0),
``capex_initial`` (capex paid in months 0 .. ``initial_month``, the first
deployment's capex month: the outlay before anything earns),
``facility_month0`` and ``facility_later`` (the hall's capex at month 0 and
after it), ``retrofit_premium`` (the input) and ``breakeven_premium``: the
retrofit premium at which staging with a later rebuild has the same NPV as
staging with the headroom reserved (above it, reserving pays for itself; NaN
when no premium in [0, :data:`PREMIUM_RANGE`] makes them equal, e.g. a
colocated tier with no hall to extend). Both are the same on a tier's rows.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from costmodel.core.roots import solve
from costmodel.inputs.model import Model, model_of
from costmodel.inputs.runs import run_variants
from costmodel.inputs.schema import Assumptions, Quantity, Tier

OPTIONS = ("at_once", "staged_headroom", "staged_rebuild")
COLUMNS = (
    "gpus",
    "capex",
    "capex_facility",
    "npv",
    "peak_funding",
    "cost_per_gpu_hour",
    "irr",
    "capex_month0",
    "capex_initial",
    "initial_month",
    "facility_month0",
    "facility_later",
    "retrofit_premium",
    "breakeven_premium",
)
PREMIUM_RANGE = 5.0
"""The break-even retrofit premium is searched in [0, 5] (up to six times the
build cost per kW)."""
PREMIUM_PATH = "facility.retrofit_premium"


def _at_once(t: Tier) -> Tier:
    """The tier's final size bought in its first deployment."""
    gpus = t.gpus + sum(s.gpus for s in t.stages)
    staff = next((s.staff_fte for s in reversed(t.stages) if s.staff_fte is not None), t.staff_fte)
    storage = t.storage  # in nodes it follows the GPUs (methodology §28.2)
    if t.storage.node is None:
        tb = t.storage.capacity_tb.value + sum(s.capacity_tb.value for s in t.stages)
        storage = t.storage.model_copy(update={"capacity_tb": Quantity(value=tb)})
    return t.model_copy(update={"gpus": gpus, "storage": storage, "staff_fte": staff, "stages": []})


def _with_tier(a: Assumptions, name: str, tier: Tier) -> Assumptions:
    return a.model_copy(update={"tiers": {**a.tiers, name: tier}})


def _figures(a: Assumptions, name: str) -> dict[str, float]:
    """The engine's metrics of tier ``name`` and where its capex falls in time."""
    r = run_variants(a, tiers=[name])[name]
    row = {c: float(r.metrics[c][0]) for c in COLUMNS[:7]}
    hall = float(r.capex_months["facility"][0][0])
    first = int(round(float(np.asarray(r.deployments[0]["month"])[0])))
    row["capex_month0"] = float(r.flows["capex"][0][0])
    row["capex_initial"] = float(r.flows["capex"][0][: first + 1].sum())
    row["initial_month"] = float(first)
    row["facility_month0"] = hall
    row["facility_later"] = float(r.capex["facility"][0]) - hall
    return row


def breakeven_premium(rebuild: Assumptions, name: str, npv_headroom: float) -> float:
    """The ``facility.retrofit_premium`` in [0, :data:`PREMIUM_RANGE`] at which tier
    ``name`` of ``rebuild`` (staged, no headroom) has NPV ``npv_headroom``; NaN if none."""

    def evaluate(grids: list[np.ndarray]) -> list[np.ndarray]:
        npv = run_variants(rebuild, {PREMIUM_PATH: grids[0]}, tiers=[name])[name].metrics["npv"]
        return [np.asarray(npv, dtype=float) - npv_headroom]

    root = float(solve(evaluate, [0.0], [PREMIUM_RANGE]).root[0])
    return root if math.isfinite(root) else math.nan


def growth_options(x: Model | Assumptions) -> pd.DataFrame:
    """One row per (tier with stages, option in :data:`OPTIONS`), the columns of
    :data:`COLUMNS`; empty when no tier has stages."""
    m = model_of(x)
    a = m.assumptions
    rows = []
    for name in m.tiers:
        t = a.tiers[name]
        if not t.stages:
            continue
        variants = {
            "at_once": _with_tier(a, name, _at_once(t)),
            "staged_headroom": _with_tier(a, name, t.model_copy(update={"reserve_headroom": True})),
            "staged_rebuild": _with_tier(a, name, t.model_copy(update={"reserve_headroom": False})),
        }
        figures = {option: _figures(changed, name) for option, changed in variants.items()}
        premium = breakeven_premium(
            variants["staged_rebuild"], name, figures["staged_headroom"]["npv"]
        )
        for option, row in figures.items():
            row |= {"retrofit_premium": float(a.facility.retrofit_premium.value)}
            rows.append({"tier": name, "option": option, **row, "breakeven_premium": premium})
    if not rows:
        return pd.DataFrame(columns=["tier", "option", *COLUMNS]).set_index(["tier", "option"])
    return pd.DataFrame(rows).set_index(["tier", "option"])
