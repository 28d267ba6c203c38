"""Command line: ``costmodel sensitivity`` and ``costmodel montecarlo`` (spec 11).

``register(app)`` adds both commands to the main Typer app. Output formats:
``table`` (rich), ``csv`` (sensitivity: the tornado rows, a blank line, then the
break-even rows) and ``json`` (one object; None for NaN).
"""

from __future__ import annotations

import json
import math
import sys
from typing import Annotated, Any

import pandas as pd
import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from .cli_common import Format, FormatOpt, PathsArg, SetOpt, _guard, _load, err, out

PROGRESS_MIN_N = 50_000  # show a progress bar from this many draws (table output)


def _plain(v: Any) -> Any:
    """JSON-ready scalar: None for NaN, Python numbers for numpy ones."""
    if hasattr(v, "item"):
        v = v.item()
    if isinstance(v, float) and math.isnan(v):
        return None
    return v


def _records(df: pd.DataFrame) -> list[dict[str, Any]]:
    return [{k: _plain(v) for k, v in row.items()} for row in df.to_dict(orient="records")]


def _by_index(df: pd.DataFrame) -> dict[str, dict[str, Any]]:
    return {str(i): {k: _plain(v) for k, v in row.items()} for i, row in df.iterrows()}


def _num(v: Any, digits: int = 4) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    if isinstance(v, float) and abs(v) >= 1000:
        return f"{v:,.0f}"
    return f"{v:.{digits}g}" if isinstance(v, float) else str(v)


def _table(df: pd.DataFrame, title: str, index: str | None = None) -> Table:
    table = Table(title=title, title_justify="left", header_style="bold")
    if index:
        table.add_column(index)
    for c in df.columns:
        table.add_column(str(c), justify="left" if df[c].dtype == object else "right")
    for i, row in df.iterrows():
        cells = [_num(v) for v in row.tolist()]
        table.add_row(*([str(i)] if index else []), *cells)
    return table


def _millions(v: Any) -> str:
    return "-" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v / 1e6:,.1f}"


def _tornado_table(df: pd.DataFrame, tier: str, metric: str, currency: str, top: int = 12) -> Table:
    """The ``top`` largest swings of one tier, money in millions."""
    money = metric not in ("irr", "roi", "goodput", "network_share", "payback_years")
    unit = f", {currency} millions" if money else ""
    title = f"Tornado: {metric}{unit}, tier {tier} (largest {top} swings)"
    table = Table(title=title, title_justify="left")
    table.add_column("input", overflow="fold", min_width=28)
    for col in ("low", "high", "at low", "at high", "swing"):
        table.add_column(col, justify="right", no_wrap=True)
    show = _millions if money else _num
    for _, r in df.head(top).iterrows():
        table.add_row(
            str(r["input"]), _num(r["low"]), _num(r["high"]),
            show(r["at_low"]), show(r["at_high"]), show(r["swing"]),
        )  # fmt: skip
    return table


def register(app: typer.Typer) -> None:
    """Add the ``sensitivity`` and ``montecarlo`` commands to ``app``."""

    @app.command()
    def sensitivity(
        paths: PathsArg = None,
        set_: SetOpt = None,
        metric: Annotated[str, typer.Option(help="Summary metric to swing.")] = "npv",
        fmt: FormatOpt = Format.table,
    ) -> None:
        """Tornado (each ranged input at low and high) and break-even utilization and
        GPU-hour price (NPV = 0) per tier."""

        from .sensitivity import METRICS_ALLOWED, break_even, tornado

        if metric not in METRICS_ALLOWED:
            err.print(f"error: --metric {metric!r}: choose one of {', '.join(METRICS_ALLOWED)}")
            raise typer.Exit(2)

        def run() -> None:
            a = _load(paths, set_)
            tor = tornado(a, metric=metric)
            be = break_even(a)
            skipped = tor.attrs.get("skipped", [])
            if fmt is Format.json:
                doc = {
                    "metric": metric,
                    "tornado": _records(tor),
                    "break_even": _by_index(be),
                    "skipped": skipped,
                }
                sys.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
            elif fmt is Format.csv:
                sys.stdout.write(tor.to_csv(index=False) + "\n" + be.to_csv())
            else:
                for tier in a.tiers:
                    out.print(_tornado_table(tor[tor["tier"] == tier], tier, metric, a.currency))
                show = be[["utilization", "price_per_gpu_hour", "npv_at_price_per_gpu_hour"]]
                out.print(_table(show, "Break-even (NPV = 0); - = no root in range", "tier"))
                if skipped:
                    out.print(f"not read by any tier: {', '.join(skipped)}", style="dim")

        _guard(run)

    @app.command()
    def montecarlo(
        paths: PathsArg = None,
        set_: SetOpt = None,
        n: Annotated[int, typer.Option("-n", "--draws", min=1, help="Number of draws.")] = 10_000,
        seed: Annotated[int, typer.Option("--seed", help="Random seed.")] = 0,
        fmt: FormatOpt = Format.table,
    ) -> None:
        """P10/P50/P90 of NPV, IRR and cost per GPU-hour and P(NPV > 0) per tier, from
        N draws of the ranged inputs."""

        def run() -> None:
            from .montecarlo import monte_carlo

            a = _load(paths, set_)
            if fmt is Format.table and n >= PROGRESS_MIN_N:
                columns = (TextColumn("draws"), BarColumn(), TextColumn("{task.completed:,}"))
                with Progress(*columns, TimeElapsedColumn(), console=err, transient=True) as bar:
                    task = bar.add_task("mc", total=n)
                    res = monte_carlo(
                        a, n=n, seed=seed, progress=lambda d, _n: bar.update(task, completed=d)
                    )
            else:
                res = monte_carlo(a, n=n, seed=seed)
            if fmt is Format.json:
                doc = {"n": res.n, "seed": res.seed, "summary": _by_index(res.summary)}
                sys.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
            elif fmt is Format.csv:
                sys.stdout.write(res.summary.to_csv())
            else:
                title = f"Monte Carlo: {res.n:,} draws, seed {res.seed} ({a.currency})"
                out.print(_table(res.summary.T, title, "statistic"))
                out.print(
                    f"{len(res.inputs)} inputs varied; IRR percentiles over draws with an IRR.",
                    style="dim",
                )

        _guard(run)
