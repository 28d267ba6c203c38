"""Worksheet classes of the workbook: XlsxWriter's own, and a faster one that
writes the same bytes.

XlsxWriter prepares every formula it stores (``Worksheet._prepare_formula``): it
strips the leading ``=`` and runs one regular-expression substitution per Excel
2010+ function name, adding the ``_xlfn.`` prefix (dynamic-array functions always,
the other "future functions" with ``use_future_functions``); a formula with a
dynamic-array function becomes a dynamic array formula, one in ``{...}`` an array
formula. That is about 29 substitutions per formula, most of the writing time.

Our formulas use only Excel 2007 functions (``SUM``, ``IF``, ``NPV``, ...), so for
them preparation only strips the ``=``. :class:`FastWorksheet` relies on that
where it can show it, and leaves everything else to XlsxWriter:

- :meth:`~RowWorksheet.write_formula_row` writes a row of formulas that differ
  only in A1 references (one formula copied across the timeline). The first goes
  through the stock ``write_formula``; if XlsxWriter stored it as a plain formula
  with only the ``=`` removed, the rest of the row is stored the same way, because
  a reference (``F12``, ``$C$7``) never forms or breaks a function name followed
  by ``(``. Otherwise every cell of the row takes the stock path.
- ``_prepare_formula`` skips the substitutions when every function name in the
  formula is one of :data:`PLAIN_FUNCTIONS` (none of them is, or ends like, a name
  XlsxWriter prefixes); any other formula is prepared by XlsxWriter.
- ``_write_cell`` writes a formula cell with a format and a number (or empty)
  result in one step, exactly as XlsxWriter's inner loop writes it.

:class:`RowWorksheet` is XlsxWriter's ``Worksheet`` with ``write_formula_row`` as
a loop over ``write_formula``: the reference the tests compare bytes against.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Any

from xlsxwriter.format import Format
from xlsxwriter.utility import xl_col_to_name
from xlsxwriter.worksheet import CellFormulaTuple, Worksheet

#: Excel 2007 functions, none of which XlsxWriter prefixes with ``_xlfn.`` (they
#: have no prefix in the file format), and none with a dot in its name; the empty
#: name is a bracket
PLAIN_FUNCTIONS = frozenset({
    "ABS", "AND", "AVERAGE", "CHOOSE", "COLUMNS", "COUNT", "COUNTA", "COUNTIF", "DATE",
    "EOMONTH", "IF", "IFERROR", "INDEX", "INT", "IRR", "ISBLANK", "ISNUMBER", "LOOKUP",
    "MATCH", "MAX", "MIN", "MOD", "NOT", "NPV", "OR", "PROPER", "ROUND", "ROUNDDOWN",
    "ROUNDUP", "ROW", "SIGN", "SLN", "SQRT", "SUM", "SUMIF", "SUMIFS", "SUMPRODUCT", "SYD",
    "TEXT", "UPPER", "VDB", "YEAR", "",
})  # fmt: skip

#: every name before a ``(``: the whole run of word characters and dots, so that a
#: dotted or prefixed name (``STDEV.S``, ``_xlfn.X``) is never read as its tail
CALLED = re.compile(r"[\w.]*\(")
#: characters XlsxWriter escapes in cell data
ESCAPED = re.compile(r"[&<>]")


@cache
def _col_name(col: int) -> str:
    return xl_col_to_name(col)


def needs_preparation(formula: str) -> bool:
    """Whether XlsxWriter's preparation of ``formula`` might do more than strip
    its leading ``=`` (False only when that is certain)."""
    if formula.startswith("{") or formula.endswith("}"):
        return True
    return not all(m[:-1] in PLAIN_FUNCTIONS for m in CALLED.findall(formula))


class RowWorksheet(Worksheet):
    """XlsxWriter's worksheet with :meth:`write_formula_row`, a loop over the stock
    ``write_formula``."""

    def write_formula_row(
        self,
        row: int,
        first_col: int,
        formulas: Sequence[str],
        cell_format: Format | None,
        values: Sequence[Any],
    ) -> None:
        """Write ``formulas[i]`` with cached result ``values[i]`` to cell
        (``row``, ``first_col + i``). The formulas must differ only in their A1
        references (one formula copied along a row)."""
        for i, (formula, value) in enumerate(zip(formulas, values, strict=True)):
            self.write_formula(row, first_col + i, formula, cell_format, value)


class FastWorksheet(RowWorksheet):
    """A :class:`RowWorksheet` that writes the same bytes faster (module docstring)."""

    def write_formula_row(
        self,
        row: int,
        first_col: int,
        formulas: Sequence[str],
        cell_format: Format | None,
        values: Sequence[Any],
    ) -> None:
        n = len(formulas)
        if n < 2 or self.constant_memory or len(values) != n:
            super().write_formula_row(row, first_col, formulas, cell_format, values)
            return
        first, last = formulas[0], first_col + n - 1
        self.write_formula(row, first_col, first, cell_format, values[0])
        stored = self.table[row].get(first_col)
        plain = (
            type(stored) is CellFormulaTuple
            and first.startswith("=")
            and stored.formula == first[1:]
        )
        if not plain or self._check_dimensions(row, last):
            super().write_formula_row(row, first_col + 1, formulas[1:], cell_format, values[1:])
            return
        cells = self.table[row]
        for i in range(1, n):
            cells[first_col + i] = CellFormulaTuple(formulas[i][1:], cell_format, values[i])

    def _prepare_formula(self, formula: str, expand_future_functions: bool = False) -> str:
        if needs_preparation(formula):
            return super()._prepare_formula(formula, expand_future_functions)
        return formula[1:] if formula.startswith("=") else formula

    def _write_cell(self, row: int, col: int, cell: Any) -> None:
        if type(cell) is CellFormulaTuple and cell.format is not None:
            value = cell.value
            if type(value) is float or (type(value) is str and not value):
                formula = cell.formula
                if ESCAPED.search(formula):
                    formula = formula.replace("&", "&amp;").replace("<", "&lt;")
                    formula = formula.replace(">", "&gt;")
                self.fh.write(
                    f'<c r="{_col_name(col)}{row + 1}" s="{cell.format._get_xf_index()}">'
                    f"<f>{formula}</f><v>{value}</v></c>"
                )
                return
        super()._write_cell(row, col, cell)
