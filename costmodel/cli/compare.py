"""``costmodel compare`` and ``costmodel build-vs-rent``.

``--scenario NAME=PATH[,PATH...]`` may be repeated; repeating a NAME appends
its paths. The name ends at the LAST ``=`` (names may contain ``=``, paths may
not); ``NAME=`` alone is a scenario that overlays nothing.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from costmodel.cli.app import (
    Format,
    FormatOpt,
    PathsArg,
    SetOpt,
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
        help="NAME=PATH[,PATH...]: overlay files layered on the base (repeatable).",
    ),
]


def parse_scenarios(items: list[str] | None) -> dict[str, Any]:
    """``["a=x.yaml", "a=y.yaml,z.yaml", "b="]`` -> ``{"a": Overlay([x, y, z]),
    "b": Overlay([])}``, names in order of first appearance."""
    from costmodel.analysis.scenarios import Overlay
    from costmodel.inputs.errors import AssumptionError, Problem

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
    return {name: Overlay(paths) for name, paths in found.items()}


def compare_records(result: Any) -> dict[str, Any]:
    """``{"scenarios": [...], "results": {scenario: {tier: {metric: value}}},
    "overlays": {scenario: text}}`` with null for empty metrics."""
    from costmodel.report.format import plain

    results: dict[str, dict[str, dict[str, Any]]] = {}
    for (s, t), row in result.wide.iterrows():
        results.setdefault(str(s), {})[str(t)] = {m: plain(v) for m, v in row.items()}
    return {"scenarios": result.scenarios, "results": results, "overlays": result.overlays}


@app.command("compare")
def compare_cmd(
    paths: PathsArg = None,
    scenario: ScenarioOpt = None,
    set_: SetOpt = None,
    fmt: FormatOpt = Format.table,
) -> None:
    """Compare named scenarios (overlays on the base) tier by tier; the base comes first."""

    def run() -> None:
        from costmodel.analysis.scenarios import BASE, compare

        overlays = parse_scenarios(scenario)
        a = load(paths, set_)  # --set changes the base, so every scenario
        result = compare(a, {n: {"paths": o.paths} for n, o in overlays.items()})

        def table() -> None:
            from rich.text import Text

            from costmodel.cli.tables import compare_grid, show

            title = f"{a.name}: scenarios ({a.currency}, {a.horizon_years} years from {a.start})"
            show(compare_grid(result, title), out())
            for name in result.scenarios:
                files = overlays[name].paths if name in overlays else []
                what = ", ".join(files) if files else "nothing overlaid"
                if name == BASE:
                    what = ", ".join(str(p) for p in paths or []) or "bundled default"
                out().print(Text(f"{name}: {what}", style="dim"))

        from costmodel.report.format import csv_text

        emit(fmt, lambda: compare_records(result), lambda: csv_text(result.tidy, False), table)

    guard(run)


@app.command("build-vs-rent")
def build_vs_rent_cmd(
    paths: PathsArg = None,
    set_: SetOpt = None,
    fmt: FormatOpt = Format.table,
) -> None:
    """Per tier: PV of renting the same GPU-hours from a cloud vs building, the
    saving, and the break-even utilization and month (revenue.cloud_term picks
    on_demand or reserved prices)."""

    def run() -> None:
        from costmodel.analysis.buildrent import COLUMNS, build_vs_rent
        from costmodel.report.format import by_index, csv_text

        a, model = built(paths, set_)
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
