"""What every ``costmodel`` command shares: the Typer app, consoles, option
types, loading with ``--set``, error handling and the summary table.

Exit status of every command: 0 on success, 2 on invalid input (message on
stderr, nothing written), 1 on any other error.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import pandas as pd
import typer
from rich.console import Console
from rich.table import Table

from .errors import AssumptionError
from .loader import load_assumptions, parse_override
from .metrics import METRICS, format_value, unit_label

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Cost, cash flow and return of GPU compute centers by scale tier.",
)
out = Console()
err = Console(stderr=True)


class Format(str, Enum):
    table = "table"
    csv = "csv"
    json = "json"


PathsArg = Annotated[
    list[Path] | None,
    typer.Argument(
        help="Assumption files or directories, merged in order (default: the bundled default)."
    ),
]
FormatOpt = Annotated[Format, typer.Option("--format", "-f", help="table, csv or json.")]
SetOpt = Annotated[
    list[str] | None,
    typer.Option("--set", help="Override one input: dotted.path=value (repeatable)."),
]


def _guard(fn: Callable[[], None]) -> None:
    """Run ``fn``; map invalid input to exit 2 and other failures to exit 1."""
    try:
        fn()
    except AssumptionError as exc:
        err.print(f"[bold red]error:[/] {exc}", markup=True, highlight=False, soft_wrap=True)
        raise typer.Exit(2) from None
    except typer.Exit:
        raise
    except Exception as exc:  # noqa: BLE001 - the CLI reports, the library raises
        err.print(
            f"[bold red]error:[/] {type(exc).__name__}: {exc}", highlight=False, soft_wrap=True
        )
        raise typer.Exit(1) from None


def _load(paths: list[Path] | None, sets: list[str] | None):
    overrides = dict(parse_override(s) for s in (sets or []))
    return load_assumptions(*(paths or []), overrides=overrides)


def summary_records(df: pd.DataFrame) -> dict[str, dict[str, Any]]:
    """``{tier: {column: value}}`` with None for empty metrics (JSON-ready)."""
    records: dict[str, dict[str, Any]] = {}
    for tier, row in df.iterrows():
        rec = {}
        for col, v in row.items():
            if isinstance(v, float) and math.isnan(v):
                rec[col] = None
            elif hasattr(v, "item"):
                rec[col] = v.item()
            else:
                rec[col] = v
        records[str(tier)] = rec
    return records


def summary_table(df: pd.DataFrame, title: str, currency: str) -> Table:
    """Metrics down, tiers across, formatted for reading."""
    table = Table(title=title, title_justify="left", header_style="bold")
    table.add_column("metric")
    table.add_column("unit", style="dim")
    for tier in df.index:
        table.add_column(str(tier), justify="right")
    for col in df.columns:
        meta = METRICS[col]
        cells = [format_value(df.at[t, col], meta.kind) for t in df.index]
        table.add_row(meta.label, unit_label(meta.kind, currency), *cells)
    return table
