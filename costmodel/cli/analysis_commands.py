"""``costmodel sensitivity`` and ``costmodel montecarlo`` (methodology §9).

Output formats: ``table`` (rich), ``csv`` (sensitivity: the tornado rows, a blank
line, then the break-even rows) and ``json`` (one object; null for an empty value).
"""

from __future__ import annotations

from typing import Annotated

import typer

from costmodel.analysis.defaults import DEFAULT_DRAWS, DEFAULT_SEED, MAX_DRAWS, MAX_GRID_POINTS
from costmodel.cli.app import (
    Format,
    FormatOpt,
    PathsArg,
    QuietOpt,
    SetOpt,
    Steps,
    StrictOpt,
    VerboseOpt,
    app,
    emit,
    err,
    guard,
    load,
    out,
)


@app.command()
def sensitivity(
    paths: PathsArg = None,
    set_: SetOpt = None,
    strict: StrictOpt = False,
    metric: Annotated[str, typer.Option(help="Summary metric to swing.")] = "npv",
    grid: Annotated[
        bool,
        typer.Option(
            "--grid", help="NPV per tier on a grid of year-1 price against utilization instead."
        ),
    ] = False,
    points: Annotated[
        int,
        typer.Option(
            "--points", min=5, max=MAX_GRID_POINTS, help="Grid steps per axis (with --grid)."
        ),
    ] = 7,
    fmt: FormatOpt = Format.table,
    quiet: QuietOpt = False,
    verbose: VerboseOpt = False,
) -> None:
    """Tornado (each ranged input at low and high) and break-even utilization and
    GPU-hour price (NPV = 0) per tier; with --grid, NPV on a price x utilization
    grid per tier, the break-even contour marked."""
    from costmodel.analysis.sensitivity import METRICS_ALLOWED

    if grid:
        guard(lambda: _grid(paths, set_, points, fmt, quiet, strict))
        return

    if metric not in METRICS_ALLOWED:
        err().print(f"error: --metric {metric!r}: choose one of {', '.join(METRICS_ALLOWED)}")
        raise typer.Exit(2)

    guard(lambda: _tornado(paths, set_, metric, fmt, quiet, verbose, strict))


def _tornado(
    paths: PathsArg,
    set_: SetOpt,
    metric: str,
    fmt: Format,
    quiet: bool,
    verbose: bool,
    strict: bool,
) -> None:
    """``sensitivity``: the tornado of ``metric`` and the break-even per tier, each
    break-even NPV shown as 0 within the root-finder's residue of the tier's NPVs."""
    from costmodel.analysis.breakeven import break_even
    from costmodel.analysis.sensitivity import tornado
    from costmodel.report.format import by_index, csv_text, records, residue

    a = load(paths, set_, strict)
    with Steps(quiet) as steps:
        steps.step("tornado")
        tor = tornado(a, metric=metric)
        steps.step("break-even")
        be = break_even(a)
    skipped = tor.attrs.get("skipped", [])
    # a break-even NPV is 0 up to the root-finder: RESIDUE_TOL x the tier's NPVs
    scales = (
        {
            str(t): float(g[["base", "at_low", "at_high"]].abs().max().max())
            for t, g in tor.groupby("tier")
        }
        if metric == "npv"
        else {}
    )
    for col in ("npv_at_utilization", "npv_at_price_per_gpu_hour"):
        be[col] = [residue(v, scales.get(str(t), 0.0)) for t, v in be[col].items()]

    def table() -> None:
        from costmodel.cli.tables import break_even_grid, show, tornado_grid
        from costmodel.report.format import counted

        for tier in a.tiers:
            show(tornado_grid(tor[tor["tier"] == tier], tier, metric, a.currency), out())
        title = f"Break-even (NPV = 0; {a.currency}); - = no root in range"
        show(break_even_grid(be, title), out())
        if skipped and verbose:
            out().print(f"not read by any tier: {', '.join(skipped)}", style="dim")
        elif skipped:
            n = len(skipped)
            out().print(
                f"{counted(n, 'ranged input')} {'is' if n == 1 else 'are'} not read by any "
                "tier (--verbose lists them).",
                style="dim",
            )

    emit(
        fmt,
        lambda: {
            "metric": metric,
            "tornado": records(tor),
            "break_even": by_index(be),
            "skipped": skipped,
        },
        lambda: csv_text(tor, False) + "\n" + csv_text(be),
        table,
    )


def _grid(
    paths: PathsArg, set_: SetOpt, points: int, fmt: Format, quiet: bool, strict: bool
) -> None:
    """``sensitivity --grid``: the rows of
    :func:`costmodel.analysis.pricegrid.price_utilization_grid`."""
    from costmodel.analysis.pricegrid import price_utilization_grid
    from costmodel.report.format import csv_text, records

    a = load(paths, set_, strict)
    with Steps(quiet) as steps:
        steps.step("price x utilization grid")
        df = price_utilization_grid(a, points=points)

    def table() -> None:
        from costmodel.cli.tables import price_grid, show

        for tier in a.tiers:
            show(price_grid(df, tier, a.currency), out())
        out().print(
            "break-even price: NPV = 0 between the two grid prices around it, interpolated "
            "linearly; - = NPV keeps one sign over the price axis.",
            style="dim",
        )

    doc = {
        "points": points,
        "price_path": df.attrs["price_path"],
        "utilization_path": df.attrs["utilization_path"],
        "grid": records(df),
    }
    emit(fmt, lambda: doc, lambda: csv_text(df, False), table)


@app.command("sweep")
def sweep_cmd(
    paths: PathsArg = None,
    set_: SetOpt = None,
    strict: StrictOpt = False,
    tier: Annotated[str, typer.Option("--tier", help="The tier to rebuild at each size.")] = "",
    gpus: Annotated[
        str,
        typer.Option(
            "--gpus",
            help="A:B (at most 64 multiples of a server, log-spaced, steps included) or a "
            "list N,N,... (default: a server to max(4096, 4 x the tier's GPUs)).",
        ),
    ] = "",
    site: Annotated[
        str,
        typer.Option(
            "--site",
            help="a,b: the sweep at each of these sites (names of sites:), one block of "
            "rows per site.",
        ),
    ] = "",
    fmt: FormatOpt = Format.table,
    quiet: QuietOpt = False,
) -> None:
    """The tier rebuilt at many GPU counts (no stages, storage proportional to
    GPUs): capex per GPU, network share, cost per GPU-hour, NPV and IRR, the
    counts where network_levels or scale_class change marked; with --site, at
    each site given."""

    def run() -> None:
        from costmodel.analysis.sweep import sweep
        from costmodel.inputs.errors import AssumptionError
        from costmodel.inputs.suggest import name_hint
        from costmodel.report.format import csv_text, records, whole_counts

        a = load(paths, set_, strict)
        name = tier or next(iter(a.tiers))
        if name not in a.tiers:
            hint = name_hint(name, a.tiers).removesuffix(";")
            err().print(f"error: --tier {name!r}{hint}: choose one of {', '.join(a.tiers)}")
            raise typer.Exit(2)
        with Steps(quiet) as steps:
            steps.step("sweep")
            try:
                df = sweep(a, name, gpus or None, sites=site or None)
            except AssumptionError:
                raise  # a site's rule or name: reported with its path
            except ValueError as e:
                err().print(f"error: --gpus {gpus!r}: {e}")
                raise typer.Exit(2) from e

        def table() -> None:
            from costmodel.cli.tables import show, sweep_grid

            title = f"Sweep of {name} ({a.currency}); first deployment {df.attrs['first_gpus']:,}"
            show(sweep_grid(df, title), out())
            out().print(
                "change: where the scale class, the number of network levels or the design "
                "differs from the row above, and what the new design rebuilds (JSON and CSV: "
                "the column names, scale_class, network_levels, design).",
                style="dim",
            )

        whole = whole_counts(df)
        doc = {"tier": name, "first_gpus": df.attrs["first_gpus"], "rows": records(whole)}
        if site:
            doc["sites"] = df.attrs["sites"]
        emit(fmt, lambda: doc, lambda: csv_text(whole, False), table)

    guard(run)


@app.command()
def montecarlo(
    paths: PathsArg = None,
    set_: SetOpt = None,
    strict: StrictOpt = False,
    n: Annotated[
        int, typer.Option("-n", "--draws", min=1, max=MAX_DRAWS, help="Number of draws.")
    ] = DEFAULT_DRAWS,
    seed: Annotated[
        int, typer.Option("--seed", min=0, help="Random seed (a whole number >= 0).")
    ] = DEFAULT_SEED,
    fmt: FormatOpt = Format.table,
    quiet: QuietOpt = False,
    verbose: VerboseOpt = False,
) -> None:
    """P10/P50/P90 of NPV, IRR and cost per GPU-hour and P(NPV > 0) per tier, from
    N draws of the ranged inputs (IRR and shares in % in the table, fractions in
    JSON and CSV); with --verbose, per tier the inputs whose median draw alone moves
    the NPV most (JSON: always, as median_shifts)."""

    def run() -> None:
        from costmodel.analysis.montecarlo import median_shifts, monte_carlo
        from costmodel.report.format import by_index, csv_text

        a = load(paths, set_, strict)
        with Steps(quiet) as steps:
            steps.step("draws", total=n)
            res = monte_carlo(a, n=n, seed=seed, progress=steps.update)
        shown = fmt is Format.json or (verbose and fmt is Format.table)
        shifts = median_shifts(a, res) if shown else None  # CSV is the summary alone

        def table() -> None:
            from costmodel.cli.tables import montecarlo_grid, shifts_grid, show

            title = f"Monte Carlo: {res.n:,} draws, seed {res.seed} ({a.currency})"
            show(montecarlo_grid(res.summary, title, a.currency), out())
            from costmodel.report.format import counted

            out().print(
                f"{counted(len(res.inputs), 'input')} varied; the IRR's statistics are over "
                "the draws "
                "with an IRR.",
                style="dim",
            )
            if res.held_fixed:
                out().print(
                    "held at their value (structural): " + ", ".join(res.held_fixed), style="dim"
                )
            if res.correlations:
                pairs = "; ".join(f"{p} ~ {q} (rho {r:g})" for p, q, r in res.correlations)
                out().print("drawn together (Gaussian copula): " + pairs, style="dim")
            for tier in res.summary.index if shifts is not None else ():
                show(shifts_grid(shifts, str(tier), res.summary.loc[tier, "npv_p50"]), out())

        doc = {
            "n": res.n,
            "seed": res.seed,
            "held_fixed": res.held_fixed,
            "correlations": [{"a": p, "b": q, "rho": r} for p, q, r in res.correlations],
            "summary": by_index(res.summary),
        }
        if shifts is not None:
            cols = ["input", "value", "median", "at_median", "shift"]
            doc["median_shifts"] = {
                t: shifts.loc[shifts["tier"] == t, cols].to_dict("records")
                for t in res.summary.index
            }
        emit(fmt, lambda: doc, lambda: csv_text(res.summary), table)

    guard(run)
