"""Build versus rent: what the same GPU-hours would cost from a cloud provider.

For a tier t whose server has a cloud price for the tier's ``cloud_term``
(``revenue_mode(a, t)``; ``servers.<sku>.cloud_<term>_per_gpu_hour``), with the
engine's own monthly GPU-hours ``h_m``, discount factors ``d_m`` and the tier's
``price_decline`` ``g`` (the same decline the engine applies to a GPU-hour's
value; ``y = ceil(m / 12)``)::

    cloud_m          = h_m * p_cloud * (1 - g)^(y-1)              m = 1..M
    pv_cloud_cost    = sum_m cloud_m * d_m
    pv_build_cost    = capex + sum_m opex_m * d_m                  (= the levelized-cost numerator)
    saving           = pv_cloud_cost - pv_build_cost               (> 0: building is cheaper)
    break_even_month = min { m >= 1 : capex + sum_{k<=m} opex_k <= sum_{k<=m} cloud_k }
                       (nominal, undiscounted; NaN if never within the horizon)

``saving`` is before tax and terminal value. ``npv_vs_cloud`` is the full,
after-tax NPV of the tier with every GPU-hour valued at the cloud price (the
``avoided_cloud`` variant of the assumptions); ``break_even_utilization`` is
the utilization in [0, 1] at which that NPV is 0 (NaN if there is no root).
Tiers whose server has no cloud price for the term get NaN in every number.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from costmodel.analysis.breakeven import break_even_utilization
from costmodel.core.finance import present_value
from costmodel.core.siteprices import rolled
from costmodel.core.units import CUMULATIVE_RELATIVE_TOLERANCE
from costmodel.inputs.loader import with_overrides
from costmodel.inputs.params import revenue_mode
from costmodel.inputs.paths import key_path
from costmodel.inputs.schema import Assumptions

if TYPE_CHECKING:
    from costmodel.inputs.model import Model


COLUMNS = [
    "server",
    "cloud_term",
    "cloud_price_per_gpu_hour",
    "gpu_hours",
    "pv_gpu_hours",
    "pv_cloud_cost",
    "pv_build_cost",
    "saving",
    "saving_share",
    "build_cost_per_gpu_hour",
    "npv_vs_cloud",
    "break_even_utilization",
    "break_even_month",
]


def cloud_cost_schedule(model: Model, tier: str, price: float) -> np.ndarray:
    """Monthly cloud cost ``h_m * price * (1 - g)^(y-1)``, months 0..M (0 at month 0):
    the engine's GPU-hours and GPU-hour price index."""
    f = model.results[tier].flows
    return np.asarray(f["gpu_hours"])[0] * price * np.asarray(f["price_index"])[0]


def break_even_month(capex: float, opex: np.ndarray, cloud: np.ndarray) -> float:
    """First month m >= 1 with ``capex + sum opex[1..m] <= sum cloud[1..m]``
    (arrays indexed by month 0..M); NaN if never. A relative tolerance
    (``CUMULATIVE_RELATIVE_TOLERANCE``) absorbs rounding in the cumulative sums."""
    build = capex + np.cumsum(opex[1:])
    rent = np.cumsum(cloud[1:])
    ok = build <= rent + CUMULATIVE_RELATIVE_TOLERANCE * np.maximum(np.abs(rent), 1.0)
    return float(np.argmax(ok) + 1) if ok.any() else math.nan


def avoided_cloud_variant(a: Assumptions, tiers: list[str]) -> Assumptions:
    """``a`` with ``tiers.<t>.revenue.mode = avoided_cloud`` for each of ``tiers``
    (each keeps its own cloud_term); ``a`` itself if nothing changes."""
    change = {
        key_path("tiers", t, "revenue", "mode"): "avoided_cloud"
        for t in tiers
        if revenue_mode(a, t)[0] != "avoided_cloud"
    }
    return with_overrides(a, change) if change else a


def build_vs_rent(model: Model | Assumptions) -> pd.DataFrame:
    """One row per tier (in tier order), the columns of :data:`COLUMNS`
    (formulas in the module docstring), of a model or of its assumptions.
    ``saving_share = saving / pv_cloud_cost``; ``build_cost_per_gpu_hour`` is
    the levelized ``cost_per_gpu_hour``.

    Parameters
    ----------
    model : Model or Assumptions

    Returns
    -------
    pandas.DataFrame

    Examples
    --------
    >>> import costmodel as cm
    >>> r = cm.build_vs_rent(cm.load_assumptions(cm.example_dir("by-hand")))
    >>> r["saving_share"].round(3).tolist()
    [-0.174, 0.116]
    >>> bool((r["saving"] > 0).equals(r["saving_share"] > 0))
    True
    """
    from costmodel.inputs.model import model_of

    model = model_of(model)
    a = model.assumptions
    priced = [t for t in model.tiers if "cloud_price_per_gpu_hour" in model.inputs[t].values()]
    variant = avoided_cloud_variant(a, priced)
    if variant is not a:
        from costmodel.inputs.model import Model as _Model

        npv_cloud = {t: float(v.metrics["npv"][0]) for t, v in _Model(variant).results.items()}
    else:
        npv_cloud = {t: float(model.results[t].metrics["npv"][0]) for t in model.tiers}
    rows: dict[str, dict[str, object]] = {}
    for t in model.tiers:
        r = model.results[t]
        row: dict[str, object] = dict.fromkeys(COLUMNS, math.nan)
        row["server"] = a.tiers[t].server
        row["cloud_term"] = revenue_mode(a, t)[1]
        if t in priced:
            metrics = {k: float(v[0]) for k, v in r.metrics.items()}
            row["gpu_hours"] = metrics["gpu_hours"]
            row["pv_gpu_hours"] = metrics["pv_gpu_hours"]
            row["pv_build_cost"] = metrics["pv_cost"]
            row["build_cost_per_gpu_hour"] = metrics["cost_per_gpu_hour"]
            # the cloud quote rolled to the start (methodology §30)
            price = float(rolled(model.inputs[t].params(), "cloud_price_per_gpu_hour"))
            cloud = cloud_cost_schedule(model, t, price)
            discount = np.asarray(r.flows["discount_factor"])[0]
            opex = np.asarray(r.flows["opex"])[0]
            pv_cloud = float(present_value(cloud, discount))
            row["cloud_price_per_gpu_hour"] = price
            row["pv_cloud_cost"] = pv_cloud
            row["saving"] = pv_cloud - metrics["pv_cost"]
            row["saving_share"] = (
                (pv_cloud - metrics["pv_cost"]) / pv_cloud if pv_cloud else math.nan
            )
            row["npv_vs_cloud"] = npv_cloud[t]
            row["break_even_utilization"] = break_even_utilization(variant, t)
            row["break_even_month"] = break_even_month(metrics["capex"], opex, cloud)
        rows[t] = row
    df = pd.DataFrame.from_dict(rows, orient="index")[COLUMNS]
    df.index.name = "tier"
    return df
