"""``costmodel study``: risk across sites and sizes (methodology §34).

Output formats: ``table`` (one row per cell, the best cells marked), ``csv`` (the
cells) and ``json`` (``{"tier", "n", "seed", "sites", "gpus", "best_probability",
"best_median", "cells": [rows]}``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from costmodel.analysis.defaults import DEFAULT_DRAWS, DEFAULT_SEED
from costmodel.cli.app import (
    Format,
    FormatOpt,
    PathsArg,
    QuietOpt,
    SetOpt,
    Steps,
    UsageError,
    app,
    emit,
    guard,
    load,
    out,
)

if TYPE_CHECKING:
    from costmodel.analysis.study import StudyResult

#: the table's columns: (column, header, format kind)
STUDY_TABLE = [
    ("site", "site", "text"),
    ("gpus", "GPUs", "count"),
    ("scale_class", "scale class", "text"),
    ("npv_p10", "NPV P10", "money"),
    ("npv_p50", "NPV P50", "money"),
    ("npv_p90", "NPV P90", "money"),
    ("p_npv_positive", "P(NPV > 0)", "pct"),
    ("cost_per_gpu_hour_mean", "mean cost per GPU-hour", "money_per_hour"),
]


def connect(address: str):  # noqa: ANN201 - distributed.Client, an optional extra
    """A Dask client of the scheduler at ``address``; a usage error naming the extra
    when Dask is not installed."""
    try:
        from distributed import Client
    except ImportError:
        raise UsageError("--scheduler needs Dask: pip install 'costmodel[dask]'") from None
    return Client(address)


@app.command("study")
def study_cmd(
    paths: PathsArg = None,
    set_: SetOpt = None,
    tier: Annotated[str, typer.Option("--tier", help="The tier to rebuild in every cell.")] = "",
    sites: Annotated[
        str,
        typer.Option(
            "--sites", help="Sites of the `sites` catalogue, a,b,... (default: as assumed)."
        ),
    ] = "",
    gpus: Annotated[
        str,
        typer.Option(
            "--gpus",
            help="A:B (at most 64 multiples of a server, log-spaced, steps included) or a "
            "list N,N,... (default: a server to max(4096, 4 x the tier's GPUs)).",
        ),
    ] = "",
    n: Annotated[int, typer.Option("-n", "--draws", min=1, help="Draws per cell.")] = DEFAULT_DRAWS,
    seed: Annotated[
        int, typer.Option("--seed", min=0, help="Random seed (a whole number >= 0).")
    ] = DEFAULT_SEED,
    scheduler: Annotated[
        str,
        typer.Option(
            "--scheduler",
            help="Address of a Dask scheduler (tcp://host:8786) whose workers run the "
            "blocks of draws (the dask extra); default: this machine's cores.",
        ),
    ] = "",
    fmt: FormatOpt = Format.table,
    quiet: QuietOpt = False,
) -> None:
    """For every (site, GPU count) cell, the tier rebuilt as the sweep does at that
    site and its Monte Carlo on common random numbers: P10/P50/P90 of NPV, P(NPV >
    0), the mean cost per GPU-hour, feasibility; the best cells by P(NPV > 0) and by
    median NPV marked."""

    def run() -> None:
        from costmodel.analysis.study import study
        from costmodel.report.format import csv_text, records

        a = load(paths, set_)
        name = tier or next(iter(a.tiers))
        if name not in a.tiers:
            raise UsageError(f"--tier {name!r}: choose one of {', '.join(a.tiers)}")
        names = [s.strip() for s in sites.split(",") if s.strip()] or None
        client = connect(scheduler) if scheduler else None
        try:
            with Steps(quiet) as steps:
                steps.step("cells x draws")
                try:
                    res = study(
                        a, name, names, gpus or None, n, seed, client=client, progress=steps.update
                    )
                except ValueError as e:
                    raise UsageError(str(e)) from e
        finally:
            if client is not None:
                client.close()
        df = res.cells

        def table() -> None:
            _table(res, a.currency)

        doc = {
            "tier": name,
            "n": n,
            "seed": seed,
            "sites": res.sites,
            "gpus": res.gpus,
            "best_probability": _cell(res.best_probability),
            "best_median": _cell(res.best_median),
            "cells": records(df),
        }
        emit(fmt, lambda: doc, lambda: csv_text(df, False), table)

    guard(run)


def _cell(at: tuple[str, int] | None) -> dict[str, object] | None:
    return None if at is None else {"site": at[0], "gpus": at[1]}


def _table(res: StudyResult, currency: str) -> None:
    """The study as a table: one row per cell, the best cells and infeasible ones
    said in the last column."""
    from costmodel.cli.tables import Col, Grid, show
    from costmodel.report.format import cell

    title = (
        f"Study of {res.tier}: {len(res.sites)} site(s) x {len(res.gpus)} sizes, "
        f"{res.n:,} draws per cell, seed {res.seed} ({currency})"
    )
    cols = [
        Col(h, key=c in ("site", "gpus"), justify="left" if k == "text" else "right")
        for c, h, k in STUDY_TABLE
    ]
    grid = Grid(title, [*cols, Col("best", justify="left")])
    for _, r in res.cells.iterrows():
        cells = [cell(r[c], k) for c, _, k in STUDY_TABLE]
        mark = str(r["best"]).replace("p_npv_positive", "P(NPV > 0)")
        mark = mark.replace("npv_p50", "median NPV")
        if not r["feasible"]:
            mark = f"infeasible: {r['infeasible_reason']}"
        grid.rows.append([*cells, mark])
    show(grid, out())
    out().print(
        "The same draws of every ranged input in every cell (common random numbers); "
        "best: among feasible cells.",
        style="dim",
    )
