"""Chip supply: which options depend on an imported accelerator (methodology §33).

One row per tier whose server SKU is of ``origin: foreign`` (none when every tier
is domestic), in tier order:

- ``sku``: the tier's server SKU; ``lead_months`` its lead time from order to
  delivery (methodology §30) and ``lead_months_high`` the high of its range (NaN
  without one); ``lead_source`` the lead time's source, which names the import
  channel's state (approvals, customs, prepayment);
- ``domestic``: the catalogue's SKUs of ``origin: domestic``, comma-separated (the
  alternatives a domestic-only policy leaves), empty when there is none;
- ``excluded``: the tier is infeasible under the model's own chip policy
  (``policy.domestic_only``).

The memo reads it to state the import risk of the options that carry one; the
table is empty, and the memo silent, when every tier runs a domestic SKU.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pandas as pd

if TYPE_CHECKING:
    from costmodel.inputs.model import Model

COLUMNS = ("sku", "lead_months", "lead_months_high", "lead_source", "domestic", "excluded")


def supply_risks(model: Model) -> pd.DataFrame:
    """The table of the module docstring."""
    a = model.assumptions
    domestic = ", ".join(k for k, s in a.servers.items() if s.origin == "domestic")
    summary = model.summary()
    rows = {}
    for t in model.tiers:
        sku = a.tiers[t].server
        server = a.servers[sku]
        if server.origin != "foreign":
            continue
        lead = server.lead_months
        rows[t] = dict(
            sku=sku,
            lead_months=float(lead.value) if lead is not None else 0.0,
            lead_months_high=float(lead.high)
            if lead is not None and lead.high is not None
            else math.nan,
            lead_source=str(lead.source or "") if lead is not None else "",
            domestic=domestic,
            excluded=not bool(summary.loc[t, "feasible"]),
        )
    df = pd.DataFrame.from_dict(rows, orient="index", columns=list(COLUMNS))
    df.index.name = "tier"
    return df
