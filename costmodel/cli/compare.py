"""``costmodel compare`` and ``costmodel build-vs-rent``.

``--scenario NAME=PATH[,PATH...]`` may be repeated; repeating a NAME appends
its paths. The name ends at the LAST ``=`` (names may contain ``=``, paths may
not); ``NAME=`` alone is a scenario that overlays nothing.

``--set-for NAME:dotted.path=value`` (repeatable) overrides one input in scenario
NAME only, after its files (``--set`` overrides the base, so every scenario). The
name ends at the FIRST ``:``; NAME must be given with ``-s`` (``-s NAME=`` for a
scenario of overrides alone).
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from costmodel.cli.app import (
    Format,
    FormatOpt,
    PathsArg,
    SetOpt,
    StrictOpt,
    app,
    built,
    emit,
    guard,
    load,
    out,
)

ScenarioOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--scenario",
        "-s",
        help="NAME=PATH[,PATH...]: overlay files layered on the base (repeatable); "
        "scenario:NAME is a bundled overlay (costmodel scenarios lists them).",
    ),
]


SetForOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set-for",
        help="NAME:dotted.path=value: override one input in scenario NAME only "
        "(repeatable; NAME given with -s, -s NAME= for overrides alone).",
    ),
]


def parse_scenarios(items: list[str] | None, set_for: list[str] | None = None) -> dict[str, Any]:
    """``["a=x.yaml", "a=y.yaml,z.yaml", "b="]`` -> ``{"a": Overlay([x, y, z]),
    "b": Overlay([])}``, names in order of first appearance; ``set_for``
    (``["b:power.price_per_kwh=0.8"]``) adds overrides to the scenario it names."""
    from costmodel.analysis.scenarios import Overlay
    from costmodel.core.nearest import closest
    from costmodel.inputs.errors import AssumptionError, Problem
    from costmodel.inputs.loader import parse_override

    found: dict[str, list[str]] = {}
    for item in items or []:
        if "=" not in item:
            raise AssumptionError(
                Problem("--scenario", item, "", "expected NAME=PATH[,PATH...], e.g. coloc=c.yaml")
            )
        name, paths = item.rsplit("=", 1)
        if not name:
            raise AssumptionError(Problem("--scenario", item, "", "the scenario name is empty"))
        found.setdefault(name, []).extend(p for p in paths.split(",") if p.strip())
    overrides: dict[str, dict[str, Any]] = {name: {} for name in found}
    for item in set_for or []:
        name, colon, setting = item.partition(":")
        if not colon or "=" not in setting:
            raise AssumptionError(
                Problem(
                    "--set-for",
                    item,
                    "",
                    "expected NAME:dotted.path=value, e.g. hot:power.price_per_kwh=0.8",
                )
            )
        if name not in found:
            near = closest(name, list(found))
            given = ", ".join(repr(n) for n in found) or "none"
            hint = f"; did you mean {near!r}?" if near else f" (given: {given})"
            raise AssumptionError(
                Problem(
                    "--set-for",
                    item,
                    "",
                    f"no scenario named {name!r} is given with -s{hint} (give -s {name}=FILE, "
                    f"or -s {name}= for a scenario of overrides alone)",
                )
            )
        path, value = parse_override(setting)
        overrides[name][path] = value
    return {name: Overlay(paths, overrides[name]) for name, paths in found.items()}


def compare_records(result: Any, delta: bool = False) -> dict[str, Any]:
    """``{"scenarios": [...], "results": {scenario: {tier: {metric: value}}},
    "overlays": {scenario: text}}`` with null for empty metrics; with ``delta``
    also ``"delta"``: the same shape for every scenario after the first, each
    value minus the first scenario's value of the same tier and metric."""
    from costmodel.report.format import plain, whole_counts

    def nested(df: Any) -> dict[str, dict[str, dict[str, Any]]]:
        out: dict[str, dict[str, dict[str, Any]]] = {}
        for (s, t), row in whole_counts(df).iterrows():
            out.setdefault(str(s), {})[str(t)] = {m: plain(v) for m, v in row.items()}
        return out

    doc = {"scenarios": result.scenarios, "results": nested(result.wide)}
    if delta:
        first = result.scenarios[0]
        d = result.delta(first)
        doc["delta"] = nested(d.drop(index=first, level="scenario"))
        doc["delta_against"] = first
    doc["overlays"] = result.overlays
    return doc


def whole_tidy(tidy: Any) -> Any:
    """``tidy`` (columns scenario, tier, metric, value[, delta]) with the values of
    count metrics (GPUs, network levels) as integers where they are whole, so the
    CSV writes ``32``, not ``32.0``."""
    import pandas as pd

    from costmodel.core.metrics import METRICS, is_empty
    from costmodel.report.format import plain

    out = tidy.copy()
    counts = out["metric"].map(lambda m: m in METRICS and METRICS[m].kind == "count")
    for col in [c for c in ("value", "delta") if c in out.columns]:
        cells = [
            int(v) if n and not is_empty(v) and float(v).is_integer() else plain(v)
            for v, n in zip(out[col], counts, strict=True)
        ]
        out[col] = pd.Series(cells, index=out.index, dtype=object)
    return out


def delta_tidy(result: Any) -> Any:
    """``result.tidy`` with a ``delta`` column: the value minus the first
    scenario's value of the same tier and metric (empty for the first scenario)."""
    first = result.scenarios[0]
    d = result.delta(first)
    tidy = result.tidy.copy()
    tidy["delta"] = [
        float("nan") if s == first else float(d.at[(s, t), m])
        for s, t, m in zip(tidy["scenario"], tidy["tier"], tidy["metric"], strict=True)
    ]
    return tidy


def _compared(a: Any, overlays: dict[str, Any], sites: str, strict: bool = False) -> Any:
    """The comparison of the scenarios, or with ``sites`` of every option at each
    site (methodology §29); both at once is refused."""
    from costmodel.analysis.scenarios import compare
    from costmodel.analysis.sitecompare import compare_sites
    from costmodel.inputs.errors import AssumptionError, Problem

    if sites and overlays:
        raise AssumptionError(Problem("--sites", sites, "", "give --sites or --scenario, not both"))
    if sites:
        return compare_sites(a, sites)
    specs = {n: {"paths": o.paths, "overrides": o.overrides} for n, o in overlays.items()}
    return compare(a, specs, strict=strict)


@app.command("compare")
def compare_cmd(
    paths: PathsArg = None,
    scenario: ScenarioOpt = None,
    sites: Annotated[
        str,
        typer.Option(
            "--sites",
            help="a,b: every option at each of these sites (names of sites:), one scenario "
            "per site beside the base; not with --scenario.",
        ),
    ] = "",
    set_: SetOpt = None,
    set_for: SetForOpt = None,
    delta: Annotated[
        bool,
        typer.Option(
            "--delta",
            help="Show every scenario after the first as its difference against the first "
            "(the base), tier by tier; IRR and shares in percentage points.",
        ),
    ] = False,
    strict: StrictOpt = False,
    fmt: FormatOpt = Format.table,
) -> None:
    """Compare named scenarios (overlays on the base) tier by tier; the base comes
    first. With --sites: one scenario per site, every option moved there."""

    def run() -> None:
        from costmodel.analysis.scenarios import BASE

        overlays = parse_scenarios(scenario, set_for)
        a = load(paths, set_, strict)  # --set changes the base, so every scenario
        result = _compared(a, overlays, sites, strict)

        def table() -> None:
            from rich.text import Text

            from costmodel.cli.tables import compare_grid, show

            what = "differences against " + result.scenarios[0] if delta else "scenarios"
            title = f"{a.name}: {what} ({a.currency}, {a.horizon_years} years from {a.start})"
            show(compare_grid(result, title, delta=delta), out())
            if delta:
                out().print(
                    Text(
                        f"Rows after {result.scenarios[0]}: the scenario minus "
                        f"{result.scenarios[0]}, tier by tier (pp: percentage points).",
                        style="dim",
                    )
                )
            for name in result.scenarios:
                o = overlays.get(name)
                parts = list(o.paths) if o else []
                parts += [f"{k}={v}" for k, v in (o.overrides if o else {}).items()]
                said = ", ".join(parts) if parts else "nothing overlaid"
                if sites and name != BASE:
                    said = f"every option at site {name}"
                if name == BASE:
                    said = ", ".join(str(p) for p in paths or []) or "bundled default"
                    said += "".join(f"; --set {x}" for x in set_ or [])
                out().print(Text(f"{name}: {said}", style="dim"))

        from costmodel.report.format import csv_text

        emit(
            fmt,
            lambda: compare_records(result, delta),
            lambda: csv_text(whole_tidy(delta_tidy(result) if delta else result.tidy), False),
            table,
        )

    guard(run)


@app.command("build-vs-rent")
def build_vs_rent_cmd(
    paths: PathsArg = None,
    set_: SetOpt = None,
    strict: StrictOpt = False,
    fmt: FormatOpt = Format.table,
) -> None:
    """Per tier: PV of renting the same GPU-hours from a cloud vs building, the
    saving, and the break-even utilization and month (revenue.cloud_term picks
    on_demand or reserved prices)."""

    def run() -> None:
        from costmodel.analysis.buildrent import COLUMNS, build_vs_rent
        from costmodel.report.format import by_index, csv_text

        a, model = built(paths, set_, strict)
        df = build_vs_rent(model)[COLUMNS]

        def table() -> None:
            from costmodel.cli.tables import bvr_grid, show

            show(bvr_grid(df, f"{a.name}: build versus rent ({a.currency})"), out())
            out().print(
                "saving = PV rent - PV build (> 0: building is cheaper; before tax). "
                "NPV vs cloud: after tax, GPU-hours valued at the cloud price. "
                "break-even utilization: where that NPV is 0; break-even month: first month "
                "cumulative building cost <= cumulative rent. '-' = none.",
                style="dim",
                markup=False,
            )

        emit(fmt, lambda: by_index(df), lambda: csv_text(df), table)

    guard(run)
