"""Numbers for machines and for terminals: one formatter per medium.

- JSON and CSV (:func:`plain`, :func:`records`, :func:`by_index`,
  :func:`csv_text`): Python scalars, empty metrics (NaN, infinities) as ``None``
  (an empty CSV cell); numpy scalars unwrapped; floats rounded to
  :data:`MACHINE_DIGITS` significant digits and then written shortest
  (``repr``), so ``0.15000000000000002`` is ``0.15`` and ``1177343.9999999998``
  is ``1177344.0``. Shares, rates and IRRs stay fractions (``0.15``). Twelve
  digits keep every figure the model can support (inputs carry at most a few
  significant digits) and drop binary-float noise (from the 16th digit).
- Solver residues (:func:`residue`): a value that is zero up to the solver's
  tolerance relative to the figures around it is written as 0.
- Tables (:func:`table_value`): thousands separators, money whole, prices to two
  decimals, shares as percentages, ``-`` for an empty value (units are
  :func:`costmodel.core.metrics.metric_unit`).

The memo's reading text (English and Chinese) is :mod:`costmodel.report.memo.numbers`;
the workbook's number formats are :data:`costmodel.report.workbook.grid.NUMBER_FORMATS`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from costmodel.core.metrics import Kind, is_empty

if TYPE_CHECKING:  # pandas is imported where a DataFrame is written (csv_text)
    import pandas as pd

EMPTY_CELL = "-"

#: significant digits of floats in JSON and CSV
MACHINE_DIGITS = 12

#: a value below this fraction of its scale is a solver residue: written as 0
RESIDUE_TOL = 1e-9


def rounded(v: float) -> float:
    """``v`` to :data:`MACHINE_DIGITS` significant digits (no negative zero)."""
    r = float(f"{v:.{MACHINE_DIGITS}g}")
    return r + 0.0 if r == 0 else r


def residue(v: Any, scale: float, tol: float = RESIDUE_TOL) -> Any:
    """``0.0`` if ``|v| < tol * |scale|`` (a root-finder's leftover), else ``v``."""
    if isinstance(v, int | float) and not is_empty(v) and abs(v) < tol * abs(scale):
        return 0.0
    return v


def plain(v: Any) -> Any:
    """A JSON-ready scalar: ``None`` for empty values, Python numbers for numpy
    ones, floats :func:`rounded`."""
    if hasattr(v, "item") and not isinstance(v, str):
        v = v.item()
    if isinstance(v, float):
        return None if is_empty(v) else rounded(v)
    return v


def csv_text(df: pd.DataFrame, index: bool = True) -> str:
    """``df`` as CSV with the numbers of :func:`plain` (empty cell for empty)."""
    import pandas as pd

    out = df.copy()
    for c in out.columns:
        if pd.api.types.is_float_dtype(out[c].dtype):
            out[c] = [plain(v) for v in out[c]]
            out[c] = out[c].astype(object)
    return out.to_csv(index=index)


def records(df: pd.DataFrame) -> list[dict[str, Any]]:
    """The rows of ``df`` as JSON-ready dicts."""
    return [{str(k): plain(v) for k, v in row.items()} for row in df.to_dict(orient="records")]


def by_index(df: pd.DataFrame) -> dict[str, dict[str, Any]]:
    """``{index: {column: value}}``, JSON-ready."""
    return {str(i): {str(k): plain(v) for k, v in row.items()} for i, row in df.iterrows()}


def whole_counts(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with every column of a count metric (``gpus``, ``network_levels``:
    kind ``count`` in :data:`costmodel.core.metrics.METRICS`) whose values are all
    whole as integers (``2``, not ``2.0``; empty stays empty), so JSON and CSV write
    counts as integers; a count with a fraction (GPU-hours) keeps it."""
    import pandas as pd

    from costmodel.core.metrics import METRICS

    out = df.copy()
    for c in out.columns:
        meta = METRICS.get(str(c))
        if meta is None or meta.kind != "count":
            continue
        values = [float(v) for v in out[c] if not is_empty(v)]
        if all(v == round(v) for v in values):
            whole = [None if is_empty(v) else int(round(float(v))) for v in out[c]]
            out[c] = pd.Series(whole, index=out.index, dtype=object)
    return out


#: the first cell of the units row of a CSV table (:func:`with_units_row`)
UNITS_ROW = "unit"


def with_units_row(text: str, units: list[str]) -> str:
    """CSV ``text`` with a row of ``units`` (one per column, the index's cell
    :data:`UNITS_ROW`) inserted under its header: the layout a spreadsheet reader
    expects (names on top, units below, then the values)."""
    import csv
    import io

    header, _, body = text.partition("\n")
    line = io.StringIO()
    csv.writer(line, lineterminator="\n").writerow(units)
    return header + "\n" + line.getvalue() + body


def table_value(x: object, kind: Kind) -> str:
    """Plain-text rendering for tables: thousands separators, % and years."""
    if is_empty(x):
        return EMPTY_CELL
    if kind == "text":
        return str(x)
    v = float(x)  # type: ignore[arg-type]
    if kind in ("count", "money"):
        return f"{v:,.0f}".replace("-0", "0") if round(v) == 0 else f"{v:,.0f}"
    if kind == "kw":
        return f"{v:,.1f}"
    if kind == "money_per_hour":
        return f"{v:,.2f}"
    if kind == "pct":
        return f"{v * 100:.1f}%".replace("-0.0%", "0.0%")
    if kind in ("years", "hours"):
        return f"{v:,.2f}"
    return f"{v:,.3f}"


def delta_value(x: object, kind: Kind) -> str:
    """A difference for tables, always signed: money and counts whole
    (``+1,234``), prices to two decimals, shares and rates in percentage points
    (``+1.2 pp``), years to two decimals; ``0`` for no change, ``-`` for empty."""
    if is_empty(x):
        return EMPTY_CELL
    v = float(x)  # type: ignore[arg-type]
    if kind == "pct":
        text = f"{v * 100:+.1f} pp"
    elif kind in ("count", "money"):
        text = f"{v:+,.0f}"
    elif kind == "kw":
        text = f"{v:+,.1f}"
    elif kind in ("money_per_hour", "years", "hours"):
        text = f"{v:+,.2f}"
    else:
        text = f"{v:+,.3f}"
    zero = text.lstrip("+-").replace("0", "").replace(".", "").replace(",", "")
    return "0" if zero in ("", " pp") else text


def counted(n: int, word: str, words: str | None = None) -> str:
    """``n`` and the noun agreeing with it: ``1 input``, ``2 inputs``, ``0 inputs``
    (``words``: the plural when it is not ``word + "s"``).

    >>> counted(1, "input"), counted(3, "input"), counted(1, "is", "are")
    ('1 input', '3 inputs', '1 is')
    """
    return f"{n:,} {word if n == 1 else (words or word + 's')}"


def number(v: Any, digits: int = 4) -> str:
    """A generic numeric cell: whole with separators from 1,000, else ``digits``
    significant digits; ``-`` for an empty value."""
    if is_empty(v):
        return EMPTY_CELL
    if isinstance(v, float) and abs(v) >= 1000:
        return f"{v:,.0f}"
    return unsigned_zero(f"{v:.{digits}g}") if isinstance(v, float) else str(v)


def unsigned_zero(text: str) -> str:
    """``text`` without the minus of a number that rounded to zero (``-0.0`` ->
    ``0.0``, ``-0`` -> ``0``); other text as it is."""
    if text.startswith("-") and not any(c in "123456789" for c in text):
        return text[1:]
    return text


def millions(v: Any) -> str:
    """Money in millions with one decimal (never ``-0.0``); ``-`` for an empty value."""
    return EMPTY_CELL if is_empty(v) else unsigned_zero(f"{v / 1e6:,.1f}")


def cell(v: Any, kind: str) -> str:
    """A table cell: :func:`table_value` for a metric kind, :func:`number` for
    ``number``, :func:`millions` for ``millions``."""
    if kind == "number":
        return number(v)
    if kind == "millions":
        return millions(v)
    return table_value(v, kind)  # type: ignore[arg-type]


#: First characters with which a spreadsheet opening a CSV file starts a formula
#: (OWASP, "CSV Injection"): ``=``, ``+``, ``-``, ``@``, and tab and carriage return.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_field(text: str) -> str:
    """``text`` as a CSV field a spreadsheet reads as text: a field that begins
    with a formula character (:data:`FORMULA_START`) and is not a number gets a
    leading single quote (``=HYPERLINK(...)`` -> ``'=HYPERLINK(...)``)."""
    if not text.startswith(FORMULA_START):
        return text
    try:
        float(text)
    except ValueError:
        return "'" + text
    return text


def csv_safe(text: str) -> str:
    """CSV ``text`` with every field passed through :func:`csv_field` (quoting and
    line ends as the csv module writes them; blank lines kept)."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in csv.reader(io.StringIO(text, newline="")):
        writer.writerow([csv_field(f) for f in row])
    return out.getvalue()
