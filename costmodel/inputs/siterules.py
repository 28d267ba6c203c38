"""Rules of sites, quotes and chip access (methodology §29, §30, §33).

Each rule yields ``(dotted_path, rendered_value, rule)`` as those of
:mod:`costmodel.inputs.rules`, which runs them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel

from costmodel.catalogue.items import RENTED_MODE
from costmodel.inputs.paths import key_path
from costmodel.inputs.quotes import is_quote_path
from costmodel.inputs.schema import Assumptions, Quantity
from costmodel.inputs.sites import facility_mw, site_name, tier_site


def site_problems(a: Assumptions) -> Iterator[tuple[str, str, str]]:
    """Every site named exists; a tier renting its hall fits its site's grid; a build-mode
    tier's construction, lengthened by a grid connection's lead time, ends before
    the horizon."""
    known = ", ".join(a.sites) or "(none: there is no sites section)"
    if a.site is not None and a.site not in a.sites:
        yield "site", repr(a.site), f"unknown site; sites has: {known}"
    months = 12 * int(a.horizon_years)
    for name, tier in a.tiers.items():
        if tier.site is not None and tier.site not in a.sites:
            yield (
                key_path("tiers", name, "site"),
                repr(tier.site),
                f"unknown site; sites has: {known}",
            )
            continue
        site = tier_site(a, name)
        if site is None or site.grid_mw is None or tier.server not in a.servers:
            continue
        if tier.cooling not in a.power.pue:
            continue  # the tier rules name the unknown cooling
        p = facility_mw(a, name)
        limit = site.grid_mw.value
        where = key_path("sites", site_name(a, name), "grid_mw")
        if p <= limit:
            continue
        if a.facility.mode == RENTED_MODE:
            yield (
                where,
                f"{limit:g}",
                f"tier {name} needs {p:.3f} MW of facility power (IT x PUE) but its site "
                f"{site_name(a, name)!r} has {limit:g} MW: a leased hall cannot be connected "
                "to more (methodology §29); choose a larger site or a smaller tier",
            )
            continue
        own = tier.timeline.build_months if tier.timeline is not None else None
        build = own or a.timeline.build_months
        lead = site.grid_lead_months
        longest = [(build.value, lead.value)]
        if build.high is not None or lead.high is not None:
            longest.append((build.high or build.value, lead.high or lead.value))
        for b, extra in longest:
            if round(b) + round(extra) >= months:
                yield (
                    key_path("sites", site_name(a, name), "grid_lead_months"),
                    f"{extra:g}",
                    f"tier {name} needs a grid connection ({p:.3f} MW over the site's "
                    f"{limit:g} MW): construction of {b:g} + {extra:g} months leaves no "
                    f"operating month in the {months}-month horizon",
                )
                break


def _quantities(node: Any, path: str) -> Iterator[tuple[str, Quantity]]:
    """Every quantity under ``node`` with its dotted path."""
    if isinstance(node, Quantity):
        yield path, node
    elif isinstance(node, BaseModel):
        for key in type(node).model_fields:
            yield from _quantities(getattr(node, key), f"{path}.{key}" if path else key)
    elif isinstance(node, dict):
        for key, v in node.items():
            yield from _quantities(v, f"{path}.{key}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _quantities(v, f"{path}.{i}")


def quote_problems(a: Assumptions) -> Iterator[tuple[str, str, str]]:
    """``as_of`` is read on the prices of methodology §30 only; elsewhere it would be
    silently ignored, so it is refused. A server's ``lead_months`` leaves an
    operating month."""
    for path, q in _quantities(a, ""):
        if q.as_of is not None and not is_quote_path(path):
            yield (
                f"{path}.as_of",
                repr(q.as_of),
                "as_of is read only on the GPU-hour prices (spot, contract, a server's cloud "
                "prices) and a server's price (methodology §30); remove it here",
            )
    months = 12 * int(a.horizon_years)
    for name, tier in a.tiers.items():
        server = a.servers.get(tier.server)
        lead = server.lead_months if server is not None else None
        if lead is None:
            continue
        top = lead.high if lead.high is not None else lead.value
        if round(top) >= months:
            yield (
                f"servers.{tier.server}.lead_months",
                f"{top:g}",
                f"tier {name} waits {top:g} months for its servers: no operating month is "
                f"left in the {months}-month horizon",
            )
