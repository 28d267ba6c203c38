"""``costmodel sensitivity`` and ``costmodel montecarlo`` (spec 11).

Output formats: ``table`` (rich), ``csv`` (sensitivity: the tornado rows, a blank
line, then the break-even rows) and ``json`` (one object; null for an empty value).
"""

from __future__ import annotations

from typing import Annotated

import typer

from costmodel.analysis.defaults import DEFAULT_DRAWS, DEFAULT_SEED
from costmodel.cli.app import (
    Format,
    FormatOpt,
    PathsArg,
    SetOpt,
    app,
    emit,
    err,
    guard,
    load,
    out,
)

PROGRESS_MIN_N = 50_000  # show a progress bar from this many draws (table output)


@app.command()
def sensitivity(
    paths: PathsArg = None,
    set_: SetOpt = None,
    metric: Annotated[str, typer.Option(help="Summary metric to swing.")] = "npv",
    fmt: FormatOpt = Format.table,
) -> None:
    """Tornado (each ranged input at low and high) and break-even utilization and
    GPU-hour price (NPV = 0) per tier."""
    from costmodel.analysis.sensitivity import METRICS_ALLOWED

    if metric not in METRICS_ALLOWED:
        err().print(f"error: --metric {metric!r}: choose one of {', '.join(METRICS_ALLOWED)}")
        raise typer.Exit(2)

    def run() -> None:
        from costmodel.analysis.breakeven import break_even
        from costmodel.analysis.sensitivity import tornado
        from costmodel.report.format import by_index, records

        a = load(paths, set_)
        tor = tornado(a, metric=metric)
        be = break_even(a)
        skipped = tor.attrs.get("skipped", [])

        def table() -> None:
            from costmodel.cli.tables import frame_table, tornado_table

            for tier in a.tiers:
                out().print(tornado_table(tor[tor["tier"] == tier], tier, metric, a.currency))
            show = be[["utilization", "price_per_gpu_hour", "npv_at_price_per_gpu_hour"]]
            out().print(frame_table(show, "Break-even (NPV = 0); - = no root in range", "tier"))
            if skipped:
                out().print(f"not read by any tier: {', '.join(skipped)}", style="dim")

        emit(
            fmt,
            lambda: {
                "metric": metric,
                "tornado": records(tor),
                "break_even": by_index(be),
                "skipped": skipped,
            },
            lambda: tor.to_csv(index=False) + "\n" + be.to_csv(),
            table,
        )

    guard(run)


@app.command()
def montecarlo(
    paths: PathsArg = None,
    set_: SetOpt = None,
    n: Annotated[
        int, typer.Option("-n", "--draws", min=1, help="Number of draws.")
    ] = DEFAULT_DRAWS,
    seed: Annotated[int, typer.Option("--seed", help="Random seed.")] = DEFAULT_SEED,
    fmt: FormatOpt = Format.table,
) -> None:
    """P10/P50/P90 of NPV, IRR and cost per GPU-hour and P(NPV > 0) per tier, from
    N draws of the ranged inputs."""

    def run() -> None:
        from costmodel.analysis.montecarlo import monte_carlo
        from costmodel.report.format import by_index

        a = load(paths, set_)
        if fmt is Format.table and n >= PROGRESS_MIN_N:
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            columns = (TextColumn("draws"), BarColumn(), TextColumn("{task.completed:,}"))
            with Progress(*columns, TimeElapsedColumn(), console=err(), transient=True) as bar:
                task = bar.add_task("mc", total=n)
                res = monte_carlo(
                    a, n=n, seed=seed, progress=lambda d, _n: bar.update(task, completed=d)
                )
        else:
            res = monte_carlo(a, n=n, seed=seed)

        def table() -> None:
            from costmodel.cli.tables import frame_table

            title = f"Monte Carlo: {res.n:,} draws, seed {res.seed} ({a.currency})"
            out().print(frame_table(res.summary.T, title, "statistic"))
            out().print(
                f"{len(res.inputs)} inputs varied; IRR percentiles over draws with an IRR.",
                style="dim",
            )

        doc = {"n": res.n, "seed": res.seed, "summary": by_index(res.summary)}
        emit(fmt, lambda: doc, res.summary.to_csv, table)

    guard(run)
