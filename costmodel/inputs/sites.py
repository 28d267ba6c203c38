"""Which value of a site-dependent input a tier reads (methodology §29, §33.1).

For each key a site sets, a tier reads its own value if it gives one, else its
site's, else the global value: ``tiers.<t>.power.price_per_kwh`` >
``sites.<s>.power.price_per_kwh`` > ``power.price_per_kwh``; likewise
``finance.tax_rate`` and ``finance.loss_carryforward_years``. Colocation rent is a
site's mapping by cooling; a site without the tier's cooling (or without rent)
falls back to the global rent. A tier's site is its own ``site`` or the top-level
``site``; none: the global values, as before sites existed.
"""

from __future__ import annotations

from typing import Any

from costmodel.inputs.paths import key_path
from costmodel.inputs.schema import Assumptions, Quantity
from costmodel.inputs.siteschema import Site


def site_name(a: Assumptions, tier_name: str) -> str | None:
    """The tier's site: its own ``site``, else the top-level ``site`` (None: none)."""
    own = a.tiers[tier_name].site
    return own if own is not None else a.site


def tier_site(a: Assumptions, tier_name: str) -> Site | None:
    """The :class:`Site` of the tier (None without one, or a name not in ``sites``,
    which the rules report)."""
    name = site_name(a, tier_name)
    return None if name is None else a.sites.get(name)


def _given_in(section: Any, key: str) -> bool:
    """``section`` gives ``key`` (a ``null`` written for a nullable key counts)."""
    return section is not None and key in section.model_fields_set


def layered(a: Assumptions, tier_name: str, section: str, key: str) -> tuple[str, Any]:
    """``(dotted path, value)`` of ``<section>.<key>`` for the tier (``section`` is
    ``power`` or ``finance``): the tier's own, else its site's, else the global."""
    own = getattr(a.tiers[tier_name], section)
    if _given_in(own, key):
        return key_path("tiers", tier_name, section, key), getattr(own, key)
    site = tier_site(a, tier_name)
    theirs = getattr(site, section) if site is not None else None
    if _given_in(theirs, key):
        return key_path("sites", site_name(a, tier_name), section, key), getattr(theirs, key)
    return f"{section}.{key}", getattr(getattr(a, section), key)


def colocation(a: Assumptions, tier_name: str) -> tuple[str, Quantity]:
    """``(dotted path, rent per kW-month)`` of the tier: its site's rent for the
    tier's cooling, else the global ``facility.colocation_per_kw_month`` (for the
    tier's cooling when it is a mapping by cooling)."""
    site = tier_site(a, tier_name)
    cooling = a.tiers[tier_name].cooling
    rents = site.colocation_per_kw_month if site is not None else None
    if rents is not None and cooling in rents:
        path = key_path("sites", site_name(a, tier_name), "colocation_per_kw_month", cooling)
        return path, rents[cooling]
    rent = a.facility.colocation_per_kw_month
    if isinstance(rent, dict):  # a global rent by cooling (methodology §28.3)
        return f"facility.colocation_per_kw_month.{cooling}", rent[cooling]
    return "facility.colocation_per_kw_month", rent


def grid_inputs(a: Assumptions, tier_name: str) -> dict[str, tuple[str, Quantity]]:
    """The engine inputs of the tier's site (methodology §29): ``price_factor``
    whenever the tier has a site, and ``grid_mw``, ``grid_connection_per_mw``,
    ``grid_lead_months`` when the site limits its grid; empty without a site."""
    site = tier_site(a, tier_name)
    if site is None:
        return {}
    base = key_path("sites", site_name(a, tier_name))
    out = {"price_factor": (f"{base}.price_factor", site.price_factor)}
    if site.grid_mw is not None:
        for key in ("grid_mw", "grid_connection_per_mw", "grid_lead_months"):
            out[key] = (f"{base}.{key}", getattr(site, key))
    return out


def feasibility(a: Assumptions, tier_name: str) -> tuple[bool, str]:
    """``(feasible, reason)`` of the tier under the chip policy (methodology §33):
    with ``policy.domestic_only`` a tier on a server of ``origin: foreign`` is
    infeasible, the reason naming the rule and the SKU; ``(True, "")`` otherwise."""
    sku = a.tiers[tier_name].server
    server = a.servers.get(sku)
    if a.policy.domestic_only and server is not None and server.origin == "foreign":
        return False, (
            f"policy.domestic_only: server {sku} is of foreign origin (servers.{sku}.origin)"
        )
    return True, ""


def final_units(a: Assumptions, tier_name: str) -> float:
    """Servers (units) of the tier's final cluster, at the values: ``(gpus + the
    stages' gpus) / gpus_per_server``."""
    t = a.tiers[tier_name]
    gpus = int(t.gpus) + sum(int(s.gpus) for s in t.stages)
    return gpus / int(a.servers[t.server].gpus_per_server)


def facility_mw(a: Assumptions, tier_name: str) -> float:
    """Facility power of the tier's final cluster at the values (methodology §29):
    ``P = it_kw * pue / 1000``, ``it_kw = units * power_kw * (1 + aux_power_fraction)``."""
    t = a.tiers[tier_name]
    s = a.servers[t.server]
    it_kw = final_units(a, tier_name) * s.power_kw.value * (1 + a.power.aux_power_fraction.value)
    return it_kw * a.power.pue[t.cooling].value / 1000.0
