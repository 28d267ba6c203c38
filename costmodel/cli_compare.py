"""Command line: ``costmodel compare`` and ``costmodel build-vs-rent``.

``register(app)`` adds both commands to the ``costmodel`` Typer app; call it
after the helpers of :mod:`costmodel.cli` are defined (e.g. at the end of cli.py).

``--scenario NAME=PATH[,PATH...]`` may be repeated; repeating a NAME appends
its paths. The name ends at the LAST ``=`` (names may contain ``=``, paths may
not); ``NAME=`` alone is a scenario that overlays nothing.

(No ``from __future__ import annotations`` here: the commands are defined inside
``register`` and Typer must see their annotations as objects, not strings.)
"""

import json
import sys
from typing import Annotated, Any

import pandas as pd
import typer
from rich.table import Table
from rich.text import Text

from .buildrent import COLUMNS as BVR_COLUMNS
from .compare import BASE, CompareResult, Overlay, compare
from .errors import AssumptionError, Problem
from .metrics import HEADLINE, METRICS, format_value

#: build_vs_rent columns shown in the table: (column, header, format kind)
BVR_TABLE = [
    ("server", "server", "text"),
    ("cloud_term", "term", "text"),
    ("cloud_price_per_gpu_hour", "cloud price per GPU-hour", "money_per_hour"),
    ("pv_cloud_cost", "PV of renting the same GPU-hours", "money"),
    ("pv_build_cost", "PV of building (capex + opex)", "money"),
    ("saving", "saving (PV rent - PV build)", "money"),
    ("npv_vs_cloud", "NPV vs cloud (after tax)", "money"),
    ("break_even_utilization", "break-even utilization", "pct"),
    ("break_even_month", "break-even month", "count"),
]


def parse_scenarios(items: list[str] | None) -> dict[str, Overlay]:
    """``["a=x.yaml", "a=y.yaml,z.yaml", "b="]`` -> ``{"a": [x, y, z], "b": []}``,
    names in order of first appearance."""
    out: dict[str, list[str]] = {}
    for item in items or []:
        if "=" not in item:
            raise AssumptionError(
                Problem("--scenario", item, "", "expected NAME=PATH[,PATH...], e.g. coloc=c.yaml")
            )
        name, paths = item.rsplit("=", 1)
        if not name:
            raise AssumptionError(Problem("--scenario", item, "", "the scenario name is empty"))
        out.setdefault(name, []).extend(p for p in paths.split(",") if p.strip())
    return {name: Overlay(paths) for name, paths in out.items()}


def _clean(v: Any) -> Any:
    """JSON-ready scalar: NaN -> None, numpy scalars -> Python."""
    if v is None or (isinstance(v, float) and v != v):
        return None
    if hasattr(v, "item"):
        v = v.item()
        return None if isinstance(v, float) and v != v else v
    return v


def compare_records(result: CompareResult) -> dict[str, Any]:
    """``{"scenarios": [...], "results": {scenario: {tier: {metric: value}}},
    "overlays": {scenario: text}}`` with None for empty metrics."""
    w = result.wide
    results: dict[str, dict[str, dict[str, Any]]] = {}
    for (s, t), row in w.iterrows():
        results.setdefault(str(s), {})[str(t)] = {m: _clean(v) for m, v in row.items()}
    return {"scenarios": result.scenarios, "results": results, "overlays": result.overlays}


def frame_records(df: pd.DataFrame) -> dict[str, dict[str, Any]]:
    """``{index: {column: value}}`` with None for NaN (JSON-ready)."""
    return {str(i): {c: _clean(v) for c, v in row.items()} for i, row in df.iterrows()}


def compare_table(result: CompareResult, title: str, currency: str) -> Table:
    """Scenarios x tiers down, headline metrics across."""
    table = Table(title=title, title_justify="left", header_style="bold")
    table.add_column("scenario")
    table.add_column("tier", no_wrap=True)
    for m in HEADLINE:
        table.add_column(METRICS[m].label, justify="right")
    w = result.wide
    previous = None
    for (s, t), row in w.iterrows():
        shown = Text(str(s)) if s != previous else Text("")
        previous = s
        cells = [format_value(row[m], METRICS[m].kind, currency) for m in HEADLINE]
        table.add_row(shown, Text(str(t)), *cells)
    return table


def bvr_table(df: pd.DataFrame, title: str) -> Table:
    """Build-versus-rent figures down, tiers across."""
    table = Table(title=title, title_justify="left", header_style="bold")
    table.add_column("")
    for tier in df.index:
        table.add_column(Text(str(tier)), justify="right")
    for col, header, kind in BVR_TABLE:
        cells = [format_value(df.at[t, col], kind) for t in df.index]  # type: ignore[arg-type]
        table.add_row(header, *[Text(c) for c in cells])
    return table


def register(app: typer.Typer) -> None:
    """Add ``compare`` and ``build-vs-rent`` to ``app``."""
    from .cli_common import Format, FormatOpt, PathsArg, SetOpt, _guard, _load, out

    ScenarioOpt = Annotated[
        list[str] | None,
        typer.Option(
            "--scenario",
            "-s",
            help="NAME=PATH[,PATH...]: overlay files layered on the base (repeatable).",
        ),
    ]

    @app.command("compare")
    def compare_cmd(
        paths: PathsArg = None,
        scenario: ScenarioOpt = None,
        set_: SetOpt = None,
        fmt: FormatOpt = Format.table,
    ) -> None:
        """Compare named scenarios (overlays on the base) tier by tier; the base comes first."""

        def run() -> None:
            overlays = parse_scenarios(scenario)
            a = _load(paths, set_)  # --set changes the base, so every scenario
            result = compare(a, {n: {"paths": o.paths} for n, o in overlays.items()})
            if fmt is Format.json:
                text = json.dumps(compare_records(result), indent=2, ensure_ascii=False)
                sys.stdout.write(text + "\n")
            elif fmt is Format.csv:
                sys.stdout.write(result.tidy.to_csv(index=False))
            else:
                title = (
                    f"{a.name}: scenarios ({a.currency}, {a.horizon_years} years from {a.start})"
                )
                out.print(compare_table(result, title, a.currency))
                for name in result.scenarios:
                    files = overlays[name].paths if name in overlays else []
                    what = ", ".join(files) if files else "nothing overlaid"
                    if name == BASE:
                        what = ", ".join(str(p) for p in paths or []) or "bundled default"
                    out.print(Text(f"{name}: {what}", style="dim"))

        _guard(run)

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
            from .model import build

            a = _load(paths, set_)
            df = build(a).build_vs_rent()[BVR_COLUMNS]
            if fmt is Format.json:
                text = json.dumps(frame_records(df), indent=2, ensure_ascii=False)
                sys.stdout.write(text + "\n")
            elif fmt is Format.csv:
                sys.stdout.write(df.to_csv())
            else:
                out.print(bvr_table(df, f"{a.name}: build versus rent ({a.currency})"))
                out.print(
                    "saving = PV rent - PV build (> 0: building is cheaper; before tax). "
                    "NPV vs cloud: after tax, GPU-hours valued at the cloud price. "
                    "break-even utilization: where that NPV is 0; break-even month: first month "
                    "cumulative building cost <= cumulative rent. '-' = none.",
                    style="dim",
                    markup=False,
                )

        _guard(run)
