"""What the loan does to the owners (methodology §8.2), per tier, read by the memo's
financing section.

:func:`financing_table`: one row per tier when the model uses debt
(``financing.debt_share > 0``), else empty. Columns: the loan's inputs
(``debt_share``, ``interest_rate``, ``term_years``, ``cost_of_equity``,
``covenant``: ``financing.min_dscr_covenant`` or NaN; ``rate_convention``,
``nominal`` or ``effective``, and ``monthly_rate``, the monthly loan rate it gives,
methodology §21b); the project's ``npv`` and
``irr`` beside the owners' ``equity_npv`` (at ``cost_of_equity``) and
``equity_irr``; ``min_dscr`` and ``min_dscr_year`` (the model year in which
CFADS / debt service is lowest, among years with debt service); ``dscr_years``
(years with debt service); ``breach_years`` (of those, years below the
covenant; 0 without one); ``headroom`` = min DSCR - covenant (< 0: breached);
``debt_drawn`` (sum of draws), ``debt_peak`` and ``peak_funding`` (the model's).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from costmodel.core.finance import loan_monthly_rate
from costmodel.inputs.model import Model, model_of
from costmodel.inputs.schema import Assumptions

COLUMNS = (
    "debt_share",
    "interest_rate",
    "term_years",
    "cost_of_equity",
    "covenant",
    "rate_convention",
    "monthly_rate",
    "npv",
    "irr",
    "equity_npv",
    "equity_irr",
    "min_dscr",
    "min_dscr_year",
    "dscr_years",
    "breach_years",
    "headroom",
    "debt_drawn",
    "debt_peak",
    "peak_funding",
)


def uses_debt(a: Assumptions) -> bool:
    """True when the assumptions finance capex with debt."""
    return a.financing is not None and float(a.financing.debt_share.value) > 0


def _row(m: Model, tier: str) -> dict[str, float | str]:
    fin = m.assumptions.financing
    assert fin is not None
    s = m.summary().loc[tier]
    y = m.annual(tier)
    serviced = y[y["debt_service"] > 0]
    dscr = serviced["dscr"].astype(float)
    covenant = float(fin.min_dscr_covenant.value) if fin.min_dscr_covenant else math.nan
    low = float(dscr.min()) if len(dscr) else math.nan
    coe = fin.cost_of_equity.value if fin.cost_of_equity else m.discount_rate(tier)
    return dict(
        debt_share=float(fin.debt_share.value),
        interest_rate=float(fin.interest_rate.value),
        term_years=float(fin.term_years),
        cost_of_equity=float(coe),
        covenant=covenant,
        rate_convention=fin.rate_convention,
        monthly_rate=float(
            loan_monthly_rate(float(fin.interest_rate.value), fin.rate_convention == "nominal")
        ),
        npv=float(s["npv"]),
        irr=float(s["irr"]),
        equity_npv=float(s["equity_npv"]),
        equity_irr=float(s["equity_irr"]),
        min_dscr=float(s["min_dscr"]),
        min_dscr_year=float(dscr.idxmin()) if len(dscr) else math.nan,
        dscr_years=float(len(dscr)),
        breach_years=float(np.sum(dscr < covenant)) if not math.isnan(covenant) else 0.0,
        headroom=low - covenant,
        debt_drawn=float(y["debt_draw"].sum()),
        debt_peak=float(s["debt_peak"]),
        peak_funding=float(s["peak_funding"]),
    )


def financing_table(x: Model | Assumptions) -> pd.DataFrame:
    """The table of the module docstring (empty without debt)."""
    m = model_of(x)
    if not uses_debt(m.assumptions):
        return pd.DataFrame(columns=list(COLUMNS), index=pd.Index([], name="tier"))
    df = pd.DataFrame.from_dict({t: _row(m, t) for t in m.tiers}, orient="index")
    df.index.name = "tier"
    return df[list(COLUMNS)]
