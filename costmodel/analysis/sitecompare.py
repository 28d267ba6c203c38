"""Options moved to another site (methodology §29): the assumptions with tiers at a
named site and the comparison of the options at every site given (the scale sweep
per site is :func:`costmodel.analysis.sweep.sweep` with ``sites``).

:func:`at_site` writes ``tiers.<t>.site`` as an override and validates again, so
that a site's rules apply (a tier renting its hall over the site's grid is refused with
its figures, a site not in ``sites`` named with those that are).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from costmodel.inputs.errors import AssumptionError, Problem
from costmodel.inputs.loader import with_overrides
from costmodel.inputs.model import assumptions_of
from costmodel.inputs.schema import Assumptions
from costmodel.inputs.sites import facility_mw

if TYPE_CHECKING:
    from costmodel.analysis.scenarios import CompareResult
    from costmodel.inputs.model import Model


def parse_sites(a: Assumptions, sites: str | Sequence[str]) -> list[str]:
    """``"a,b"`` or ``["a", "b"]`` -> the site names, each a key of ``sites`` (an
    unknown one is an :class:`AssumptionError` naming those there are)."""
    names = [s.strip() for s in sites.split(",")] if isinstance(sites, str) else list(sites)
    names = [s for s in names if s]
    known = ", ".join(a.sites) or "(none: the assumptions have no sites section)"
    if not names:
        raise AssumptionError(Problem("--site", "", "", f"no site given; sites has: {known}"))
    for s in names:
        if s not in a.sites:
            raise AssumptionError(Problem("--site", s, "", f"unknown site; sites has: {known}"))
    return names


def at_site(x: Model | Assumptions, site: str, tiers: Sequence[str] | None = None) -> Assumptions:
    """The assumptions with each tier of ``tiers`` (default all) at ``site``."""
    a = assumptions_of(x)
    return with_overrides(a, {f"tiers.{t}.site": site for t in tiers or a.tiers})


def fitting_tiers(a: Assumptions, site: str) -> list[str]:
    """The tiers of ``a`` that ``site`` can hold (methodology §29): all of them,
    except in a leased hall (mode not build) those whose facility power (IT x PUE)
    exceeds the site's ``grid_mw``, which a leased hall cannot be connected above."""
    limit = a.sites[site].grid_mw
    if limit is None or a.facility.mode == "build":
        return list(a.tiers)
    return [t for t in a.tiers if facility_mw(a, t) <= limit.value]


def compare_sites(
    x: Model | Assumptions, sites: str | Sequence[str], fitting_only: bool = False
) -> CompareResult:
    """:func:`costmodel.analysis.scenarios.compare` with one scenario per site, named
    by it: every option at that site, beside the base (each tier at its own site).
    A tier the site cannot hold is refused with its figures; with ``fitting_only``
    it stays at its own site instead (:func:`fitting_tiers` say which moved)."""
    from costmodel.analysis.scenarios import compare

    a = assumptions_of(x)
    names = parse_sites(a, sites)
    moved = {s: fitting_tiers(a, s) if fitting_only else list(a.tiers) for s in names}
    scenarios = {s: {"overrides": {f"tiers.{t}.site": s for t in moved[s]}} for s in names}
    return compare(a, scenarios)
