"""Sites, the chip policy and the tier keys that refer to them (methodology §29, §33).

A site (``sites.<name>``) carries what the place of a build sets: its power price
and escalation, the rent of a hall per kW-month by cooling, tax rate and loss carry-forward, the
grid power available without a new connection and the cost and lead time of one,
and a factor on the GPU-hour prices. ``site:`` (top level) names the default site
of the tiers; a tier's own ``site`` wins. Precedence for each key a site sets:
the tier's own value > the site's > the global one (:mod:`costmodel.inputs.sites`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import StrictBool

from costmodel.inputs.quantity import NonNegative, Plain, Positive, Rate, Section, Text, WholeMonths
from costmodel.inputs.quantity import given as _given
from costmodel.inputs.whole import CarryforwardYears


class PowerOverride(Section):
    """A site's or a tier's power price (per kWh) and its annual escalation."""

    price_per_kwh: NonNegative | None = None
    escalation: Rate | None = None


class FinanceOverride(Section):
    """A site's or a tier's corporate tax rate and loss carry-forward years (``None``
    in a file that gives the key: as the global rule, without limit)."""

    tax_rate: Rate | None = None
    loss_carryforward_years: CarryforwardYears | None = None


class Site(Section):
    """One place a tier may be built (methodology §29).

    ``grid_mw``: facility power (IT x PUE) available without a new connection;
    above it a tier renting its hall is refused and a build-mode tier pays
    ``(P - grid_mw) * grid_connection_per_mw`` at month 0 (facility) and waits
    ``grid_lead_months`` more for its construction. ``price_factor`` multiplies the
    spot and contract GPU-hour prices of the site's tiers."""

    label: Text = ""
    label_zh: Text = ""
    power: PowerOverride | None = None
    colocation_per_kw_month: dict[str, NonNegative] | None = None
    finance: FinanceOverride | None = None
    grid_mw: NonNegative | None = None
    grid_connection_per_mw: NonNegative = _given(
        0, "methodology §29: no connection cost unless an input says so", "per MW"
    )
    grid_lead_months: WholeMonths = _given(
        0, "methodology §29: no connection lead time unless an input says so", "months"
    )
    price_factor: Positive = _given(
        1, "methodology §29: the prices as quoted unless an input says so", "factor"
    )


class Policy(Section):
    """Chip access (methodology §33): with ``domestic_only`` a tier on a foreign
    server is infeasible (its numbers are still computed)."""

    domestic_only: Annotated[StrictBool, Plain] = False


Origin = Annotated[Literal["domestic", "foreign"], Plain]
