"""Numbers for machines and for terminals: one formatter per medium.

- JSON and CSV (:func:`plain`, :func:`records`, :func:`by_index`): Python
  scalars, empty metrics (NaN, infinities) as ``None``; numpy scalars unwrapped.
- Tables (:func:`table_value`, :func:`unit_label`): thousands separators, money
  whole, prices to two decimals, shares as percentages, ``-`` for an empty value.

The memo's reading text (English and Chinese) is :mod:`costmodel.report.memo.format`;
the workbook's number formats are :data:`costmodel.report.workbook.grid.NUMBER_FORMATS`.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from costmodel.core.metrics import Kind, is_empty

EMPTY_CELL = "-"


def plain(v: Any) -> Any:
    """A JSON-ready scalar: ``None`` for empty values, Python numbers for numpy ones."""
    if hasattr(v, "item") and not isinstance(v, str):
        v = v.item()
    if isinstance(v, float) and is_empty(v):
        return None
    return v


def records(df: pd.DataFrame) -> list[dict[str, Any]]:
    """The rows of ``df`` as JSON-ready dicts."""
    return [{str(k): plain(v) for k, v in row.items()} for row in df.to_dict(orient="records")]


def by_index(df: pd.DataFrame) -> dict[str, dict[str, Any]]:
    """``{index: {column: value}}``, JSON-ready."""
    return {str(i): {str(k): plain(v) for k, v in row.items()} for i, row in df.iterrows()}


def unit_label(kind: Kind, currency: str) -> str:
    """The unit shown next to a metric of ``kind``."""
    units = {"money": currency, "money_per_hour": f"{currency}/h", "pct": "%", "years": "years",
             "hours": "h", "kw": "kW"}  # fmt: skip
    return units.get(kind, "")


def table_value(x: object, kind: Kind) -> str:
    """Plain-text rendering for tables: thousands separators, % and years."""
    if is_empty(x):
        return EMPTY_CELL
    if kind == "text":
        return str(x)
    v = float(x)  # type: ignore[arg-type]
    if kind in ("count", "money"):
        return f"{v:,.0f}"
    if kind == "kw":
        return f"{v:,.1f}"
    if kind == "money_per_hour":
        return f"{v:,.2f}"
    if kind == "pct":
        return f"{v * 100:.1f}%"
    if kind in ("years", "hours"):
        return f"{v:,.2f}"
    return f"{v:,.3f}"


def number(v: Any, digits: int = 4) -> str:
    """A generic numeric cell: whole with separators from 1,000, else ``digits``
    significant digits; ``-`` for an empty value."""
    if is_empty(v):
        return EMPTY_CELL
    if isinstance(v, float) and abs(v) >= 1000:
        return f"{v:,.0f}"
    return f"{v:.{digits}g}" if isinstance(v, float) else str(v)


def millions(v: Any) -> str:
    """Money in millions with one decimal; ``-`` for an empty value."""
    return EMPTY_CELL if is_empty(v) else f"{v / 1e6:,.1f}"
