"""When each tier spends, earns and ends (methodology §8.1 and §8.3), read by the memo's
decision.

:func:`timeline_table`, one row per tier:

- ``build_months`` (B) and ``ramp_months`` (R) as the tier resolves them;
  ``revenue_month`` = B + 1, the first month of the first deployment in service,
  and ``full_month`` = B + max(R, 1), the first month at the assumed utilization;
  ``revenue_period`` and ``full_period``, their calendar months (``YYYY-MM``);
- ``peak_funding`` (the model's: the most cash raised before the tier funds itself);
- ``terminal_value`` and ``terminal_tax`` at M (the tax on its gain after tax
  losses, methodology §11.9), ``book_value``, the net book value of every asset
  class at M (``market``: what the hardware sells for against what the books say;
  ``book``: equal), and ``terminal_gain``, the terminal value less the tax book
  value (cost less tax depreciation; the book value unless a class is expensed);
- ``loss_added`` and ``loss_expired``: tax losses over the horizon, and what of
  them expired unused (``finance.loss_carryforward_years``).
"""

from __future__ import annotations

import math

import pandas as pd

from costmodel.catalogue.items import CAPEX_CLASSES
from costmodel.inputs.model import Model, model_of
from costmodel.inputs.schema import Assumptions


def _row(m: Model, tier: str) -> dict[str, object]:
    v = m.inputs[tier].values()
    b, r = int(round(float(v["build_months"]))), float(v["ramp_months"])
    full = b + max(math.ceil(r), 1)
    cf = m.cash_flow(tier)
    nbv = m.depreciation(tier).iloc[-1]
    y = m.annual(tier)
    last = min(full, m.months)
    return dict(
        build_months=float(b),
        ramp_months=r,
        revenue_month=float(b + 1),
        full_month=float(full),
        revenue_period=str(m.periods[min(b + 1, m.months)]),
        full_period=str(m.periods[last]),
        peak_funding=float(m.summary().loc[tier, "peak_funding"]),
        terminal_value=float(cf["terminal_value"].iloc[-1]),
        terminal_tax=float(cf["terminal_tax"].iloc[-1]),
        book_value=float(sum(nbv[f"nbv_{c}"] for c in CAPEX_CLASSES)),
        terminal_gain=_terminal_gain(m, tier, float(cf["terminal_value"].iloc[-1])),
        loss_added=float(y["loss_added"].sum()),
        loss_expired=float(y["loss_expired"].sum()),
    )


def _terminal_gain(m: Model, tier: str, value: float) -> float:
    """The taxed gain at M with a market terminal value (0 otherwise)."""
    if m.assumptions.terminal_value != "market":
        return 0.0
    cost = float(m.capex(tier)[list(CAPEX_CLASSES)].to_numpy().sum())
    return value - (cost - float(m.tax_depreciation(tier)[list(CAPEX_CLASSES)].to_numpy().sum()))


def timeline_table(x: Model | Assumptions) -> pd.DataFrame:
    """The table of the module docstring."""
    m = model_of(x)
    df = pd.DataFrame.from_dict({t: _row(m, t) for t in m.tiers}, orient="index")
    df.index.name = "tier"
    return df
