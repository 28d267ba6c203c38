"""Growth options of a staged tier (spec 15): build the final size at once, grow
in stages with the headroom reserved, or grow in stages and extend the hall later.

For every tier with ``stages``, the three options are computed from the same
assumptions: ``at_once`` buys the final GPUs and storage with the first
deployment (the final team from the start, no stages), ``staged_headroom`` is the
tier with ``reserve_headroom: true`` and ``staged_rebuild`` the tier with
``reserve_headroom: false`` (each stage pays ``facility.retrofit_premium`` on its
hall). The memo's growth section reads this table.
"""

from __future__ import annotations

import pandas as pd

from costmodel.core.model import Model, model_of
from costmodel.core.variants import run_variants
from costmodel.inputs.schema import Assumptions, Quantity, Tier

OPTIONS = ("at_once", "staged_headroom", "staged_rebuild")
COLUMNS = ("gpus", "capex", "capex_facility", "npv", "peak_funding", "cost_per_gpu_hour", "irr")


def _at_once(t: Tier) -> Tier:
    """The tier's final size bought in its first deployment."""
    gpus = t.gpus + sum(s.gpus for s in t.stages)
    tb = t.storage.capacity_tb.value + sum(s.capacity_tb.value for s in t.stages)
    staff = next((s.staff_fte for s in reversed(t.stages) if s.staff_fte is not None), t.staff_fte)
    storage = t.storage.model_copy(update={"capacity_tb": Quantity(value=tb)})
    return t.model_copy(update={"gpus": gpus, "storage": storage, "staff_fte": staff, "stages": []})


def growth_options(x: Model | Assumptions) -> pd.DataFrame:
    """One row per (tier with stages, option in :data:`OPTIONS`), the columns of
    :data:`COLUMNS` from the engine; empty when no tier has stages."""
    m = model_of(x)
    a = m.assumptions
    rows = []
    for name in m.tiers:
        t = a.tiers[name]
        if not t.stages:
            continue
        variants = {
            "at_once": _at_once(t),
            "staged_headroom": t.model_copy(update={"reserve_headroom": True}),
            "staged_rebuild": t.model_copy(update={"reserve_headroom": False}),
        }
        for option, tier in variants.items():
            changed = a.model_copy(update={"tiers": {**a.tiers, name: tier}})
            metrics = run_variants(changed, tiers=[name])[name].metrics
            rows.append(
                {"tier": name, "option": option} | {c: float(metrics[c][0]) for c in COLUMNS}
            )
    if not rows:
        return pd.DataFrame(columns=["tier", "option", *COLUMNS]).set_index(["tier", "option"])
    return pd.DataFrame(rows).set_index(["tier", "option"])
