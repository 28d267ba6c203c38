"""Helpers to lay out FAST-style calculation sheets with XlsxWriter.

A calculation sheet has one timeline: column A label, B unit, C constants (one
value per row), D row total, E a blank spacer, then months 0..M from column F.
Every time-series row holds one formula copied unchanged across the timeline.
Formulas are written from templates whose ``{...}`` tokens name other rows:

- ``{x}``    row ``x`` in the same column
- ``{x<}``   row ``x`` in the previous column (corkscrews; left of month 0 is blank)
- ``{$x}``   row ``x``'s constant (``$C$r``)
- ``{x:}``   row ``x`` over the whole timeline (``$F$r:$..$r``)
- ``{x:1}``  row ``x`` over operating months 1..M
- ``{x@0}``  row ``x`` at month 0 (``$F$r``)
- ``{x@M}``  row ``x`` at month M

Each cell is written with the engine's value as its cached result, so readers
that do not recalculate see the right numbers.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any

import numpy as np
from xlsxwriter.workbook import Workbook
from xlsxwriter.worksheet import Worksheet

from costmodel.core.units import MONTHS_PER_YEAR
from costmodel.report.workbook.sheet import RowWorksheet, col_letters, col_name

LABEL_COL, UNIT_COL, CONST_COL, TOTAL_COL, FIRST_COL = 0, 1, 2, 3, 5
TOKEN = re.compile(r"\{([$]?)([A-Za-z0-9_]+)(<|:1|:|@0|@M)?\}")

BLUE, GREEN, BLACK = "#0000FF", "#008000", "#000000"
NUMBER_FORMATS = {
    "money": "#,##0;[Red]-#,##0",
    "money2": "#,##0.00;[Red]-#,##0.00",
    # money too large for a column of width 15 (an NPV at a rate near -100%)
    "money_sci": "0.00E+00;[Red]-0.00E+00",
    "number": "#,##0.00##",
    "count": "#,##0",
    "pct": "0.0%;[Red]-0.0%",
    "pct2": "0.00%",
    "factor": "0.000000",
    "flag": "0",
    "date": "yyyy-mm",
    "text": "@",
    "bool": '"TRUE";"TRUE";"FALSE"',
    "general": "General",
}

#: number format of each metric kind (:data:`costmodel.core.metrics.Kind`)
KIND_FORMAT = {
    "text": "text",
    "count": "count",
    "kw": "number",
    "money": "money",
    "money_per_hour": "money2",
    "pct": "pct",
    "years": "number",
    "hours": "number",
    "ratio": "number",
}

#: number format of each input kind (:data:`costmodel.inputs.vocabulary.InputKind`)
INPUT_KIND_FORMAT = {
    "pct": "pct2",
    "money": "money",
    "price": "money2",
    "decimal": "number",
    "number": "number",
    "text": "text",
}


#: points of a row of one line of the default font
ROW_HEIGHT = 15.0
#: characters of a label (proportional font) per unit of column width, a little
#: fewer than LibreOffice and Excel fit, so that an estimate never falls short
LABEL_CHARS_PER_WIDTH = 1.2


def label_lines(label: str, width: float) -> int:
    """Lines the wrapped ``label`` takes in a column of ``width`` characters:
    ``ceil(len(label) / (width x LABEL_CHARS_PER_WIDTH))``, at least 1.

    >>> label_lines("GPUs", 52), label_lines("x" * 70, 52), label_lines("x" * 130, 52)
    (1, 2, 3)
    """
    per_line = max(1, int(width * LABEL_CHARS_PER_WIDTH))
    return max(1, -(-len(label) // per_line))


class Styles:
    """Cell formats: blue inputs, black calculations, green links (FAST colours)."""

    def __init__(self, wb: Workbook):
        self.wb = wb
        self._cache: dict[tuple[str, str, bool, bool], Any] = {}
        self.title = wb.add_format({"bold": True, "font_size": 16})
        self.h1 = wb.add_format({"bold": True, "font_size": 12, "bottom": 1})
        self.h2 = wb.add_format({"bold": True, "bg_color": "#DDEBF7"})
        self.header = wb.add_format({"bold": True, "bottom": 1, "text_wrap": True, "valign": "top"})
        # a label longer than its column wraps (the row grows) instead of being cut
        # at the unit column when printed
        self.label = wb.add_format({"valign": "top", "text_wrap": True})
        self.label_bold = wb.add_format({"bold": True, "valign": "top"})
        self.unit = wb.add_format({"italic": True, "font_color": "#595959", "valign": "top"})
        self.unit_wrap = wb.add_format(
            {"italic": True, "font_color": "#595959", "valign": "top", "text_wrap": True}
        )
        self.path = wb.add_format({"font_color": "#7F7F7F", "font_size": 8, "valign": "top"})
        self.error = wb.add_format({"bold": True, "font_color": "#9C0006", "bg_color": "#FFC7CE"})
        self.text = wb.add_format({"text_wrap": False})
        self.wrap = wb.add_format({"text_wrap": True, "valign": "top"})
        self.wrap_italic = wb.add_format({"italic": True, "font_color": "#595959"})
        self.ok = wb.add_format({"bold": True, "font_color": "#006100", "bg_color": "#C6EFCE"})

    def input(self, kind: str = "number") -> Any:
        """A blue input cell, unlocked so that protected sheets still accept edits."""
        key = (kind, "input", False, False)
        if key not in self._cache:
            props = {
                "num_format": NUMBER_FORMATS[kind],
                "font_color": BLUE,
                "valign": "top",
                "locked": False,
            }
            self._cache[key] = self.wb.add_format(props)
        return self._cache[key]

    def cell(
        self, kind: str = "number", colour: str = BLACK, bold: bool = False, rule: bool = True
    ) -> Any:
        """Number format ``kind`` in ``colour``; ``bold`` rows (totals, closing
        balances) get a rule above unless ``rule`` is False."""
        key = (kind, colour, bold, rule)
        if key not in self._cache:
            props: dict[str, Any] = {
                "num_format": NUMBER_FORMATS[kind],
                "font_color": colour,
                "valign": "top",
            }
            if bold:
                props["bold"] = True
                if rule:
                    props["top"] = 1
            self._cache[key] = self.wb.add_format(props)
        return self._cache[key]


def quote_sheet(name: str) -> str:
    """A sheet name as used in a reference: always quoted, apostrophes doubled."""
    return "'" + name.replace("'", "''") + "'"


def excel_value(x: Any) -> Any:
    """Cached value for a formula: NaN, the infinities and None become an empty
    string result (a workbook cannot hold a non-finite number)."""
    if x is None:
        return ""
    if isinstance(x, str):
        return x
    v = float(x)
    return v if np.isfinite(v) else ""


def excel_values(values: np.ndarray) -> list[Any]:
    """:func:`excel_value` of each of the floats ``values``."""
    out = values.tolist()
    if not np.isfinite(values).all():
        out = [v if math.isfinite(v) else "" for v in out]
    return out


@dataclass
class CalcSheet:
    """A calculation sheet with one timeline of months 0..``months``."""

    ws: RowWorksheet
    name: str
    months: int
    styles: Styles
    rows: dict[str, int] = field(default_factory=dict)
    row: int = 0
    pending: set[str] = field(default_factory=set)
    #: the width of the label column (characters of ``set_column``)
    label_width: float = 52.0
    #: text replaced in every formula before its tokens are read: a global defined
    #: name by the sheet's own row (``{$key}``) where the tier's site sets it
    #: (methodology §29; :mod:`costmodel.report.workbook.sitesblock`)
    aliases: dict[str, str] = field(default_factory=dict)
    #: totals a block computed for the Checks sheet's cached values, by row key
    totals: dict[str, float] = field(default_factory=dict)
    _patterns: dict[str, tuple[tuple[str, ...], tuple[int, ...]]] = field(
        default_factory=dict, repr=False
    )

    @property
    def last_col(self) -> int:
        return FIRST_COL + self.months

    def col(self, month: int) -> int:
        return FIRST_COL + month

    # --------------------------------------------------------------- references

    def ref(self, key: str, kind: str = "", col: int | None = None, sheet: bool = False) -> str:
        """A reference to row ``key`` (see module docstring for ``kind``)."""
        r = self.rows[key] + 1
        if kind == "$":
            out = f"${col_name(CONST_COL)}${r}"
        elif kind in (":", ":1"):
            first = col_name(FIRST_COL + (kind == ":1"))
            out = f"${first}${r}:${col_name(self.last_col)}${r}"
        elif kind == "@0":
            out = f"${col_name(FIRST_COL)}${r}"
        elif kind == "@M":
            out = f"${col_name(self.last_col)}${r}"
        else:
            assert col is not None
            out = f"{col_name(col)}{r}"
        return f"{quote_sheet(self.name)}!{out}" if sheet else out

    def render(self, template: str, col: int) -> str:
        """``template`` with its tokens replaced by references from column ``col``."""
        pieces, fields = self.pattern(template)
        letters = (col_name(col), col_name(col - 1) if col else "")
        out = [pieces[0]]
        for f, piece in zip(fields, pieces[1:], strict=True):
            out += (letters[f], piece)
        return "".join(out)

    def formulas(self, template: str, first: int, last: int) -> list[str]:
        """``template`` rendered for each of columns ``first``..``last`` (``first`` >
        0), without its leading ``=`` (optional for XlsxWriter, which removes it)."""
        pieces, fields = self.pattern(template)
        head = pieces[0].removeprefix("=")
        if not fields:
            return [head] * (last - first + 1)
        names = col_letters(last)
        letters = (names[first:], names[first - 1 : last])  # the column's, the previous one's
        parts: list[Iterable[str]] = [repeat(head)]
        for f, piece in zip(fields, pieces[1:], strict=True):
            parts += (letters[f], repeat(piece))
        return list(map("".join, zip(*parts, strict=False)))  # as long as the columns

    def pattern(self, template: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """``template`` as its fixed pieces and, between each two, the column whose
        letters go there (0: the formula's own, 1: the previous one); references to
        constants and whole rows are fixed. Cached per template."""
        out = self._patterns.get(template)
        if out is None:
            out = self._patterns[template] = self._compile(template)
        return out

    def aliased(self, template: str) -> str:
        """``template`` with :attr:`aliases` applied (whole names only)."""
        for name, token in self.aliases.items():
            if name not in template:
                continue
            if name.startswith("{"):  # a row token: replaced as written
                template = template.replace(name, token)
            else:  # a defined name: not inside a longer name
                whole = rf"(?<![A-Za-z0-9_.$]){re.escape(name)}(?![A-Za-z0-9_(])"
                template = re.sub(whole, token, template)
        return template

    def _compile(self, template: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
        template = self.aliased(template)
        pieces, fields, text, at = [], [], "", 0
        for m in TOKEN.finditer(template):
            text += template[at : m.start()]
            at = m.end()
            dollar, key, suffix = m.group(1), m.group(2), m.group(3) or ""
            if key not in self.rows:
                raise KeyError(f"formula refers to unknown row {key!r}: {template}")
            if dollar or suffix in (":", ":1", "@0", "@M"):
                text += self.ref(key, "$" if dollar else suffix)
            else:
                pieces.append(text)
                fields.append(1 if suffix == "<" else 0)
                text = str(self.rows[key] + 1)
        pieces.append(text + template[at:])
        return tuple(pieces), tuple(fields)

    # --------------------------------------------------------------- writing

    def heading(self, text: str) -> None:
        self.row += 1
        self.ws.write_string(self.row, LABEL_COL, text, self.styles.h2)
        self.ws.write_blank_row(self.row, UNIT_COL, self.last_col, self.styles.h2)
        self.row += 1

    def const(
        self,
        key: str,
        label: str,
        unit: str,
        formula: str,
        value: Any,
        kind: str = "number",
        colour: str = BLACK,
        array: bool = False,
    ) -> int:
        """A row with one value in the constants column; ``array``: written as a
        one-cell array formula (functions over an inline array, such as ``MOD(u,
        {1,2,..})``, are evaluated element by element only there in every engine)."""
        r = self._new_row(key, label, unit)
        text = self.render(formula, CONST_COL)
        fmt = self.styles.cell(kind, colour)
        if array:
            body = text.removeprefix("=")
            self.ws.write_array_formula(
                r, CONST_COL, r, CONST_COL, f"{{={body}}}", fmt, excel_value(value)
            )
        else:
            self.ws.write_formula(r, CONST_COL, text, fmt, excel_value(value))
        return r

    def series(
        self,
        key: str,
        label: str,
        unit: str,
        formula: str,
        values: Sequence[float] | np.ndarray,
        kind: str = "money",
        total: bool = False,
        bold: bool = False,
    ) -> int:
        """A time-series row: ``formula`` copied across months 0..M, cached ``values``."""
        r = self._new_row(key, label, unit)
        fmt = self.styles.cell(kind, BLACK, bold)
        n = self.months + 1
        vals = np.asarray(values, dtype=float)
        if len(vals) < n:
            raise IndexError(f"row {key!r}: {len(vals)} values for {n} months")
        formulas = self.formulas(formula, FIRST_COL, FIRST_COL + n - 1)
        self.ws.write_formula_row(r, FIRST_COL, formulas, fmt, excel_values(vals[:n]))
        if total:
            self.ws.write_formula(
                r,
                TOTAL_COL,
                f"=SUM({self.ref(key, ':')})",
                self.styles.cell(kind, BLACK, True),
                float(np.nansum(vals)),
            )
        return r

    def reserve(self, *keys: str) -> None:
        """Give ``keys`` the next rows now, so that formulas written before them
        (a corkscrew's opening refers to its closing) can refer to them."""
        for key in keys:
            self.rows[key] = self.row
            self.pending.add(key)
            self.row += 1

    def _new_row(self, key: str, label: str, unit: str) -> int:
        if key in self.pending:
            self.pending.remove(key)
            r = self.rows[key]
        elif key in self.rows:
            raise KeyError(f"row {key!r} defined twice")
        else:
            r = self.row
            self.rows[key] = r
            self.row += 1
        self.ws.write_string(r, LABEL_COL, label, self.styles.label)
        self.ws.write_string(r, UNIT_COL, unit, self.styles.unit)
        lines = label_lines(label, self.label_width)
        if lines > 1:  # the label wraps: the row is as tall as its lines
            self.ws.set_row(r, ROW_HEIGHT * lines)
        return r


#: sheet protection without a password: formulas cannot be typed over by accident,
#: rows and columns can still be resized, and anyone can unprotect the sheet
PROTECTION = {"format_columns": True, "format_rows": True}


def protect(ws: Worksheet) -> None:
    """Protect a calculation sheet (no password)."""
    ws.protect("", PROTECTION)


def year_end_values(annual: np.ndarray, months: int) -> np.ndarray:
    """Annual values placed at each year's last month (12, 24, ...) of months 0..M."""
    out = np.zeros(months + 1)
    out[MONTHS_PER_YEAR::MONTHS_PER_YEAR] = annual
    return out
