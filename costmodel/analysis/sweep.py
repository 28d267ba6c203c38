"""The scale sweep (methodology §13): one tier rebuilt at many GPU counts, to show
where the network architecture and the scale class change and what that does to
the cost per GPU-hour.

At each GPU count G the tier is rebuilt with **no stages** (one deployment of G
GPUs), **storage proportional to GPUs** (``capacity_tb x G / G_0``, G_0 the tier's
first-deployment GPU count), racks, power and facility as the engine sizes them
from G, the network from its ``design`` (or the tier's ``share`` unchanged) and
the headcount as ``staff_fte`` or, with ``staff_scaling``, ``fixed_fte +
fte_per_server x servers`` (the engine's own rules). All counts are one
:func:`costmodel.inputs.runs.run_variants` call: the GPUs and the storage
vary on the variant axis, nothing loops over builds.

**Range rule** (:func:`sweep_counts`): ``a:b`` gives at most ``MAX_POINTS``
multiples of the tier's ``gpus_per_server`` g from ``g ceil(a/g)`` to ``g
floor(b/g)``: log-spaced (``numpy.geomspace`` over the multiples, rounded), always
including both ends, G_0, and the multiples on both sides of every change of
``scale_class`` (GPUs > 64, > 511) and of ``network_levels`` (endpoints > k, >
k^2 / 2 for a designed fabric of radix k); of the log-spaced sets of n = 2, 3,
.. points (rounded, duplicates merged) the largest that keeps the total within
``MAX_POINTS``. A list is taken as given (each a positive multiple
of g). A designed fabric holds at most ``k^3 / 4`` GPUs (three levels,
:func:`costmodel.core.fabric.max_endpoints`): a count above it is refused, as the
rules refuse such a tier (:func:`costmodel.inputs.rules`); the default range and
:func:`option_sweeps` stop at it.

:func:`sweep_in_parts` evaluates the counts in a few groups (a job with progress);
its rows equal one :func:`sweep` call over all of them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from costmodel.analysis.sitecompare import at_site, parse_sites
from costmodel.core.fabric import max_endpoints
from costmodel.core.units import SCALE_CLASSES, scale_class
from costmodel.inputs.designs import design_is_auto
from costmodel.inputs.loader import layer
from costmodel.inputs.model import assumptions_of, largest_input, too_large
from costmodel.inputs.params import resolve_tier
from costmodel.inputs.runs import run_variants
from costmodel.inputs.schema import Assumptions
from costmodel.inputs.sites import site_name, tier_site
from costmodel.inputs.suggest import name_hint
from costmodel.inputs.whole import MAX_COUNT

if TYPE_CHECKING:
    from costmodel.inputs.errors import Problem
    from costmodel.inputs.model import Model

MAX_POINTS = 64
DEFAULT_TOP_GPUS = 4096  # the default range: g .. max(4096, 4 x G_0)
SWEEP_COLUMNS = [
    "gpus",
    "servers",
    "scale_class",
    "network_levels",
    "capex_per_gpu",
    "network_share",
    "cost_per_gpu_hour",
    "npv",
    "irr",
    "change",
    "design",
    "network",
    "storage",
    "cooling",
    "rack_kw",
    "storage_nodes",
    "storage_write_gbps",
    "staff_fte",
    "feasible",
    "infeasible_reason",
]


def without_stages(a: Assumptions, tier: str) -> Assumptions:
    """``a`` with tier ``tier``'s stages removed (its first deployment only)."""
    t = a.tiers[tier].model_copy(update={"stages": []})
    return a.model_copy(update={"tiers": {**a.tiers, tier: t}})


def change_points(a: Assumptions, tier: str) -> list[float]:
    """GPU counts T at which a step occurs between G <= T and G > T: the scale
    classes' tops and, for a designed fabric of radix k, k and k^2 / 2."""
    tops = [float(top) for _, top in SCALE_CLASSES if top is not None]
    values = resolve_tier(a, tier).values()
    if "fabric_radix" in values:
        k = float(values["fabric_radix"])
        tops += [k, k * k / 2.0]
    return sorted(set(tops))


def fabric_limit(a: Assumptions, tier: str) -> int | None:
    """The most GPUs the tier's designed fabric holds, ``k^3 / 4`` for radix k (one
    endpoint a GPU); None with a network share (no limit)."""
    values = resolve_tier(a, tier).values()
    if "fabric_radix" not in values:
        return None
    return int(max_endpoints(float(values["fabric_radix"])))


def _check_fabric(a: Assumptions, tier: str, top: int) -> None:
    limit = fabric_limit(a, tier)
    if limit is not None and top > limit:
        k = int(resolve_tier(a, tier).values()["fabric_radix"])
        raise ValueError(
            f"3 levels of radix {k} hold at most {limit:,} GPUs (endpoints); the sweep "
            f"reaches {top:,}"
        )


def default_range(a: Assumptions, tier: str) -> tuple[int, int]:
    """The range of a sweep without ``--gpus``: ``g : max(4096, 4 G_0)``, its top cut
    to the largest multiple of g that the designed fabric holds."""
    values = resolve_tier(a, tier).values()
    g, g0 = int(values["gpus_per_server"]), int(values["gpus"])
    hi = max(DEFAULT_TOP_GPUS, 4 * g0)
    limit = fabric_limit(a, tier)
    if limit is not None:
        hi = min(hi, max(g, limit // g * g))
    return g, hi


def sweep_counts(a: Assumptions, tier: str, lo: int, hi: int) -> list[int]:
    """The GPU counts of the range ``lo:hi`` (module docstring: the range rule)."""
    values = resolve_tier(a, tier).values()
    g, g0 = int(values["gpus_per_server"]), int(values["gpus"])
    if lo > hi:
        raise ValueError(f"the range starts above its end ({lo:,} > {hi:,})")
    ka, kb = max(1, math.ceil(lo / g)), math.floor(hi / g)
    if ka > kb:
        raise ValueError(f"no multiple of {g} GPUs (a server) in {lo}:{hi}")
    _check_fabric(a, tier, g * kb)
    must = {ka, kb}
    if ka <= g0 // g <= kb:
        must.add(g0 // g)
    for top in change_points(a, tier):
        below = math.floor(top / g)
        must |= {k for k in (below, below + 1) if ka <= k <= kb}
    if len(must) > MAX_POINTS:
        raise ValueError(f"{len(must)} required counts exceed {MAX_POINTS}")
    best = sorted(must)
    for n in range(2, min(kb - ka + 1, 16 * MAX_POINTS) + 1):
        spaced = np.unique(np.round(np.geomspace(ka, kb, n)).astype(int))
        chosen = sorted(must | {int(k) for k in spaced})
        if len(chosen) > MAX_POINTS:
            break
        best = chosen
    return [g * k for k in best]


def parse_gpus(a: Assumptions, tier: str, gpus: str | Sequence[int] | None) -> list[int]:
    """``"a:b"`` -> :func:`sweep_counts`; ``"8,16"`` or a sequence -> as given (each
    a positive multiple of the tier's ``gpus_per_server``); None -> ``g:max(4096,
    4 G_0)`` (:func:`default_range`)."""
    g = int(resolve_tier(a, tier).values()["gpus_per_server"])
    if gpus is None:
        return sweep_counts(a, tier, *default_range(a, tier))
    if isinstance(gpus, str):
        if ":" in gpus:
            lo, hi = (_count(p) for p in gpus.split(":", 1))
            if lo < 1:
                raise ValueError(f"the range starts at {lo:,}: GPU counts start at 1")
            return sweep_counts(a, tier, lo, hi)
        gpus = [_count(p) for p in gpus.split(",") if p.strip()]
    counts = [_count(n) for n in gpus]
    if len(counts) > MAX_POINTS:
        raise ValueError(f"{len(counts):,} GPU counts: a sweep has at most {MAX_POINTS} points")
    bad = [n for n in counts if n <= 0 or n % g]
    if bad or not counts:
        raise ValueError(f"GPU counts must be positive multiples of {g} (a server): {bad}")
    _check_fabric(a, tier, max(counts))
    return counts


def rebuilt(
    a: Assumptions, tier: str, counts: Sequence[int]
) -> tuple[Assumptions, dict[str, np.ndarray]]:
    """``(assumptions, variants)`` of tier ``tier`` rebuilt at each of ``counts``
    (module docstring): the assumptions without the tier's stages, and the
    ``run_variants`` arrays (one value per count) of the paths the rebuild sets (the
    GPUs; storage priced per TB, ``capacity_tb x G / G_0``; storage in nodes follows
    the GPUs by itself, methodology §28.2). The sweep and the study
    (:mod:`costmodel.analysis.study`) rebuild a tier by this one rule."""
    flat = without_stages(a, tier)
    ti = resolve_tier(flat, tier)
    paths, values = ti.paths(), ti.values()
    n = np.asarray(counts, dtype=float)
    variants = {paths["gpus"]: n}
    if "storage_capacity_tb" in values:
        variants[paths["storage_capacity_tb"]] = values["storage_capacity_tb"] * n / values["gpus"]
    return flat, variants


def nonfinite_sweeps(model: Model, sweeps: dict[str, pd.DataFrame]) -> list[Problem]:
    """Problems for tiers whose sweep reaches a cost per GPU-hour or an NPV that is
    not a finite number (finite at the tier's own size, too large at the sweep's
    larger counts: a price of 1e300), among its feasible rows, named like
    :func:`costmodel.inputs.model.nonfinite_results` (the largest input)."""
    hit: dict[str, tuple[float, list[str], list[str]]] = {}
    for t, df in sweeps.items():
        if "feasible" in df:  # a refused row has no numbers (methodology §28.5, §29)
            df = df[df["feasible"].astype(bool)]
        bad = [c for c in ("capex_per_gpu", "cost_per_gpu_hour", "npv") if c in df]
        bad = [c for c in bad if not np.isfinite(df[c].to_numpy(dtype=float)).all()]
        if not bad:
            continue
        path, value = largest_input(model, t)
        top = int(df["gpus"].max())
        _, tiers, results = hit.setdefault(path, (value, [], []))
        tiers.append(t)
        names = {"capex_per_gpu": "capex per GPU", "cost_per_gpu_hour": "cost per GPU-hour"}
        shown = [names.get(c, c.upper()) for c in bad]
        shown[0], shown[-1] = f"sweep's {shown[0]}", f"{shown[-1]} (at up to {top:,} GPUs)"
        results += [w for w in shown if w not in results]
    return too_large(model.assumptions, hit)


def _count(text: str | int) -> int:
    """A GPU count as written: a whole number (``-8`` kept, to be refused by
    name) of at most :data:`~costmodel.inputs.whole.MAX_COUNT`."""
    if isinstance(text, bool) or not isinstance(text, int | str):
        raise ValueError(f"{text!r}: not a whole number of GPUs")
    raw = str(text).strip().replace("_", "")
    digits = raw.removeprefix("-").removeprefix("+")
    if not digits.isdigit() or not digits.isascii():
        shown = raw if len(raw) <= 40 else raw[:20] + "..."
        raise ValueError(f"{shown!r}: not a whole number of GPUs")
    if len(digits) > 18 or int(raw) > MAX_COUNT:
        shown = raw if len(raw) <= 20 else f"{raw[:12]}... ({len(digits)} digits)"
        raise ValueError(f"{shown}: above {MAX_COUNT:,} GPUs, the most a count may be")
    return int(raw)


def _changes(
    classes: list[str], levels: np.ndarray, designs: Sequence[object] | None = None
) -> list[str]:
    """Per row: which of scale_class / network_levels / design differs from the row
    before."""
    designs = list(designs) if designs is not None else [None] * len(classes)
    out = [""]
    for i in range(1, len(classes)):
        what = []
        if classes[i] != classes[i - 1]:
            what.append("scale_class")
        if levels[i] == levels[i] and levels[i] != levels[i - 1]:
            what.append("network_levels")
        if designs[i] != designs[i - 1]:
            what.append("design")
        out.append(", ".join(what))
    return out


def sweep(
    x: Model | Assumptions,
    tier: str,
    gpus: str | Sequence[int] | None = None,
    sites: str | Sequence[str] | None = None,
) -> pd.DataFrame:
    """Tier ``tier`` rebuilt at each GPU count of ``gpus`` (module docstring),
    one row per count: ``gpus, servers, scale_class, network_levels`` (NaN with a
    network share), ``capex_per_gpu = capex / gpus``, ``network_share``, the
    network's capex over the hardware capex, ``cost_per_gpu_hour``, ``npv``, ``irr`` and
    ``change`` (``scale_class`` and/or ``network_levels`` where it differs from
    the row before). ``df.attrs``: ``tier``, ``first_gpus`` (G_0). With ``sites``
    (names of ``sites``, methodology §29) the rows of each site in turn, a first
    column ``site``, ``change`` taken per site.

    Parameters
    ----------
    x : Model or Assumptions
    tier : str
        The tier to rebuild.
    gpus : str or sequence of int, optional
        GPU counts, or a range ``"LOW:HIGH"`` (powers of two in it).
    sites : str or sequence of str, optional
        Site names (``"a,b"`` or a list): the tier rebuilt at each.

    Returns
    -------
    pandas.DataFrame

    Examples
    --------
    >>> import costmodel as cm
    >>> sw = cm.sweep(cm.load_assumptions(cm.example_dir("by-hand")), "large", [256, 1024, 4096])
    >>> sw[["gpus", "servers", "capex_per_gpu", "cost_per_gpu_hour"]].round(3)
       gpus  servers  capex_per_gpu  cost_per_gpu_hour
    0   256       32     172279.412             24.299
    1  1024      128     172279.412             22.626
    2  4096      512     172279.412             22.208
    """
    a = assumptions_of(x)
    if tier not in a.tiers:
        raise ValueError(
            f"unknown tier {tier!r}{name_hint(tier, a.tiers)} choose one of: {', '.join(a.tiers)}"
        )
    if sites is not None:
        return _sweep_sites(a, tier, sites, gpus)
    counts = parse_gpus(a, tier, gpus)
    if a.tiers[tier].design is None:
        df = _rebuilt(without_stages(a, tier), tier, counts)
    else:
        df = _redesigned(a, tier, counts)
    df["change"] = _changes(
        list(df["scale_class"]), df["network_levels"].to_numpy(float), list(df["design"])
    )
    df = _above_grid(a, tier, df[SWEEP_COLUMNS])
    df.attrs["tier"] = tier
    df.attrs["first_gpus"] = int(resolve_tier(a, tier).values()["gpus"])
    return df


#: what a row refused for the site's grid keeps (the rest is empty, as a design's)
KEPT_WHEN_REFUSED = ("gpus", "scale_class", "design", "cooling", "change")


def _above_grid(a: Assumptions, tier: str, df: pd.DataFrame) -> pd.DataFrame:
    """Rows whose facility power exceeds the tier's site's ``grid_mw`` in a leased
    hall (facility mode not build) refused (methodology §29: a leased hall cannot be
    connected to more), as the
    validation refuses the tier itself: ``feasible`` false, the reason naming the
    power and the limit, no numbers. ``P = G / gpus_per_server x power_kw x (1 +
    aux_power_fraction) x pue[cooling] / 1000`` with the row's cooling."""
    site = tier_site(a, tier)
    if site is None or site.grid_mw is None or a.facility.mode == "build":
        return df
    server = a.servers[a.tiers[tier].server]
    per_gpu_kw = server.power_kw.value * (1 + a.power.aux_power_fraction.value)
    per_gpu_kw /= int(server.gpus_per_server)
    limit, name = site.grid_mw.value, site_name(a, tier)
    df = df.copy()
    for i in df.index[df["feasible"].astype(bool)]:
        mw = int(df.at[i, "gpus"]) * per_gpu_kw * a.power.pue[df.at[i, "cooling"]].value / 1000
        if mw <= limit:
            continue
        for col in df.columns:
            if col not in (*KEPT_WHEN_REFUSED, "feasible", "infeasible_reason"):
                df.at[i, col] = np.nan
        df.at[i, "feasible"] = False
        df.at[i, "infeasible_reason"] = (
            f"{int(df.at[i, 'gpus'])} GPUs need {mw:.2f} MW of facility power; site {name!r} "
            f"has {limit:g} MW (sites.{name}.grid_mw)"
        )
    return df


def design_groups(
    a: Assumptions, tier: str, counts: Sequence[int]
) -> tuple[list[tuple[Assumptions, list[int]]], list[dict[str, object]]]:
    """Methodology §28.5: the counts grouped by the design each is built with (the
    class of each count with ``design: auto``, else the tier's design), each group
    with the assumptions that build it (the tier at that design, at the group's
    first count, without stages); and the rows of the counts beyond their design's
    ``max_gpus``, with ``feasible`` false and the reason. A tier without a design:
    one group, ``a`` itself. The sweep and the study build their counts so."""
    if a.tiers[tier].design is None:
        return [(a, list(counts))], []
    auto, named = design_is_auto(a, tier), a.tiers[tier].design
    groups: dict[str, list[int]] = {}
    refused: list[dict[str, object]] = []
    for g in counts:
        key = scale_class(g) if auto else named
        design = a.designs.get(key)
        if design is None or g > design.max_gpus:
            top = "no design" if design is None else f"designs.{key}.max_gpus {design.max_gpus}"
            reason = f"{g} GPUs beyond design {key!r} ({top})"
            refused.append(
                {"gpus": g, "scale_class": scale_class(g), "design": key}
                | {"feasible": False, "infeasible_reason": reason}
            )
            continue
        groups.setdefault(key, []).append(g)
    built = []
    for key, group in groups.items():
        tier_at = {"design": key, "gpus": group[0], "stages": []}
        b = layer(a, overrides={f"tiers.{tier}.{k}": v for k, v in tier_at.items()})
        built.append((b, group))
    return built, refused


def _redesigned(a: Assumptions, tier: str, counts: list[int]) -> pd.DataFrame:
    """Methodology §28.5: the counts of each design (:func:`design_groups`) rebuilt
    with that design, one engine call on the variant axis per design; a count
    beyond its design's ``max_gpus`` is a row with ``feasible`` false and the reason
    instead of numbers."""
    groups, refused = design_groups(a, tier, counts)
    frames = [_rebuilt(b, tier, group) for b, group in groups]
    rows = pd.DataFrame(refused, columns=[c for c in SWEEP_COLUMNS if c != "change"])
    out = pd.concat([*frames, rows] if refused else frames, ignore_index=True)
    return out.sort_values("gpus", kind="stable").reset_index(drop=True)


def _rebuilt(flat: Assumptions, tier: str, counts: list[int]) -> pd.DataFrame:
    """The tier of ``flat`` (no stages) at each count, one engine call: the GPUs,
    and storage capacity proportional to them where it is priced per TB, vary on the
    variant axis (storage in nodes follows the GPUs by itself)."""
    flat, variants = rebuilt(flat, tier, counts)
    n = np.asarray(counts, dtype=float)
    r = run_variants(flat, variants, tiers=[tier])[tier]
    m = r.metrics
    levels = np.asarray(m["network_levels"], dtype=float) if "network_levels" in m else n * np.nan
    t = flat.tiers[tier]
    return pd.DataFrame(
        {
            "gpus": counts,
            "servers": np.round(np.asarray(m["servers"], dtype=float)).astype(int),
            "scale_class": [scale_class(int(v)) for v in counts],
            "network_levels": levels,
            "capex_per_gpu": np.asarray(m["capex"], dtype=float) / n,
            "network_share": np.asarray(m["network_share"], dtype=float),
            "cost_per_gpu_hour": np.asarray(m["cost_per_gpu_hour"], dtype=float),
            "npv": np.asarray(m["npv"], dtype=float),
            "irr": np.asarray(m["irr"], dtype=float),
            "design": t.design,
            "network": t.network.fabric or ("fabric" if t.network.design else "share"),
            "storage": t.storage.kind,
            "cooling": t.cooling,
            "rack_kw": np.asarray(m["rack_kw"], dtype=float) * np.ones_like(n),
            "storage_nodes": np.asarray(m["storage_nodes"], dtype=float),
            "storage_write_gbps": np.asarray(m["storage_write_gbps"], dtype=float),
            "staff_fte": np.asarray(r.deployments[-1]["staff_fte"], dtype=float) * np.ones_like(n),
            "feasible": True,
            "infeasible_reason": "",
        }
    )


def _sweep_sites(
    a: Assumptions, tier: str, sites: str | Sequence[str], gpus: str | Sequence[int] | None
) -> pd.DataFrame:
    """:func:`sweep` of ``tier`` at each site (:func:`costmodel.analysis.sitecompare.at_site`)."""
    frames = []
    for s in parse_sites(a, sites):
        df = sweep(at_site(a, s, [tier]), tier, gpus)
        df.insert(0, "site", s)
        frames.append(df)
    out = pd.concat(frames, ignore_index=True)
    out.attrs.update(frames[0].attrs)
    out.attrs["sites"] = list(dict.fromkeys(out["site"]))
    return out


OPTION_SPAN = 8  # option_sweeps: each tier from G_0 / 8 to 8 G_0


def option_sweeps(
    x: Model | Assumptions, tiers: list[str] | None = None
) -> dict[str, pd.DataFrame]:
    """Per tier, :func:`sweep` over ``max(g, G_0 / OPTION_SPAN) : OPTION_SPAN x G_0``
    (the memo's and the workbook's curve: each option around its own size)."""
    a = assumptions_of(x)
    out = {}
    for t in tiers or list(a.tiers):
        values = resolve_tier(a, t).values()
        g, g0 = int(values["gpus_per_server"]), int(values["gpus"])
        hi, limit = OPTION_SPAN * g0, fabric_limit(a, t)
        if limit is not None:
            hi = min(hi, max(g0, limit))
        if a.tiers[t].design is not None:  # no curve beyond the designs (§28.5)
            named = a.designs.get(a.tiers[t].design)
            tops = [d.max_gpus for d in a.designs.values()] if design_is_auto(a, t) else []
            top = max(tops) if tops else (named.max_gpus if named else hi)
            hi = min(hi, max(g0, top))
        out[t] = sweep(a, t, f"{max(g, g0 // OPTION_SPAN)}:{hi}")
    return out


def sweep_in_parts(
    x: Model | Assumptions,
    tier: str,
    gpus: str | Sequence[int] | None = None,
    parts: int = 6,
    progress: Callable[[int, int], None] | None = None,
) -> pd.DataFrame:
    """:func:`sweep` of the counts of ``gpus`` (:func:`parse_gpus`) in up to ``parts``
    consecutive groups, one :func:`sweep` call each, ``progress(done, total)`` after
    each (counts done of all); the rows are those of one call over all the counts
    (each count's figures do not depend on the others on the variant axis; the
    ``change`` column is taken again over the whole)."""
    a = assumptions_of(x)
    if tier not in a.tiers:
        raise ValueError(
            f"unknown tier {tier!r}{name_hint(tier, a.tiers)} choose one of: {', '.join(a.tiers)}"
        )
    counts = parse_gpus(a, tier, gpus)
    frames = []
    for group in np.array_split(np.asarray(counts), max(1, min(parts, len(counts)))):
        frames.append(sweep(a, tier, [int(n) for n in group]))
        if progress is not None:
            progress(sum(len(df) for df in frames), len(counts))
    df = pd.concat(frames, ignore_index=True)
    df["change"] = _changes(
        list(df["scale_class"]), df["network_levels"].to_numpy(float), list(df["design"])
    )
    df.attrs.update(frames[0].attrs)
    return df
