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
- ``_write_formula`` (behind ``write_formula``) and ``_prepare_formula`` skip the
  dynamic-array check and the substitutions when every function name in the
  formula is one of :data:`PLAIN_FUNCTIONS` (none of them is, or ends like, a name
  XlsxWriter prefixes); any other formula is prepared by XlsxWriter.
- Such a row is a *run*: formula cells with one format and number (or empty)
  results; so is a band of blank cells with one format (the headings, by
  :meth:`~RowWorksheet.write_blank_row`). When the file is written, ``_write_rows``
  (XlsxWriter's loop, for sheets without comments) writes each run that the sheet
  still holds, unchanged, in one piece with the elements XlsxWriter's
  ``_write_cell`` writes for each cell; every other cell goes through
  ``_write_cell``, which writes the common ones (blanks, numbers, shared strings,
  formulas with a number or empty result, each with a format) in one step.
  ``_calculate_spans`` finds the same row spans from each row's first and last
  column. Once its XML is written, the sheet frees its cells.

These overrides mirror XlsxWriter 3.x internals (the cell table, the formula cell
tuple, the row and cell writers); the tests compare the bytes with the stock
class's for bundled models and for formulas that need preparation.

:class:`RowWorksheet` is XlsxWriter's ``Worksheet`` with ``write_formula_row`` as
a loop over ``write_formula``: the reference the tests compare bytes against.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from functools import cache, partial
from itertools import repeat
from operator import is_, itemgetter
from typing import Any, Literal

from xlsxwriter.format import Format
from xlsxwriter.utility import xl_col_to_name
from xlsxwriter.worksheet import (
    CellBlankTuple,
    CellFormulaTuple,
    CellNumberTuple,
    CellStringTuple,
    Worksheet,
)

#: the XlsxWriter releases whose internals :class:`FastWorksheet` mirrors: the byte
#: comparisons of ``tests/report/test_workbook_sheet.py`` pass with each (3.1 and 3.2
#: lack the cell tuples it writes, or write other bytes). Under any other release the
#: workbook is written by the stock class, and a test fails until the comparisons have
#: been run with it and it is added here.
VERIFIED_XLSXWRITER = ("3.3.0", "3.3.1")

#: Excel 2007 functions, none of which XlsxWriter prefixes with ``_xlfn.`` (they
#: have no prefix in the file format), and none with a dot in its name; the empty
#: name is a bracket
PLAIN_FUNCTIONS = frozenset(
    {
        "ABS",
        "AND",
        "AVERAGE",
        "CHOOSE",
        "COLUMNS",
        "COUNT",
        "COUNTA",
        "COUNTIF",
        "DATE",
        "EOMONTH",
        "IF",
        "IFERROR",
        "INDEX",
        "INT",
        "IRR",
        "LEFT",
        "LEN",
        "ISBLANK",
        "ISNUMBER",
        "LOOKUP",
        "MATCH",
        "MAX",
        "MID",
        "MIN",
        "MOD",
        "MONTH",
        "NOT",
        "NPV",
        "OR",
        "PROPER",
        "ROUND",
        "ROUNDDOWN",
        "ROUNDUP",
        "ROW",
        "SIGN",
        "SLN",
        "SQRT",
        "SUM",
        "SUMIF",
        "SUMIFS",
        "SUMPRODUCT",
        "SYD",
        "TEXT",
        "UPPER",
        "VALUE",
        "VDB",
        "YEAR",
        "",
    }
)

#: every name before a ``(`` with its ``(``: the whole run of word characters and
#: dots, so that a dotted or prefixed name (``STDEV.S``, ``_xlfn.X``) is never read
#: as its tail
CALLED = re.compile(r"[\w.]*\(")
PLAIN_CALLS = frozenset(name + "(" for name in PLAIN_FUNCTIONS)


def needs_preparation(formula: str) -> bool:
    """Whether XlsxWriter's preparation of ``formula`` might do more than strip
    its leading ``=`` (False only when that is certain)."""
    if formula.startswith("{") or formula.endswith("}"):
        return True
    return not PLAIN_CALLS.issuperset(CALLED.findall(formula))


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

    def write_blank_row(
        self, row: int, first_col: int, last_col: int, cell_format: Format | None
    ) -> None:
        """Blank cells with ``cell_format`` in columns ``first_col``..``last_col``
        (a band of colour; without a format nothing is written)."""
        for col in range(first_col, last_col + 1):
            self.write_blank(row, col, None, cell_format)


class FastWorksheet(RowWorksheet):
    """A :class:`RowWorksheet` that writes the same bytes faster (module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        #: row -> runs of cells stored by write_formula_row and write_blank_row:
        #: (first column, the cell tuples); written in one piece if the table still
        #: holds them
        self._runs: dict[int, list[tuple[int, list[Any]]]] = {}

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
        first = formulas[0]
        equals = first.startswith("=")
        self.write_formula(row, first_col, first, cell_format, values[0])
        stored = self.table[row].get(first_col)
        plain = type(stored) is CellFormulaTuple and stored.formula == (
            first[1:] if equals else first
        )
        if not plain or self._check_dimensions(row, first_col + n - 1):
            super().write_formula_row(row, first_col + 1, formulas[1:], cell_format, values[1:])
            return
        bodies = map(_AFTER_EQUALS, formulas[1:]) if equals else formulas[1:]
        cells = [stored, *map(_formula_cell, zip(bodies, repeat(cell_format), values[1:]))]
        self.table[row].update(zip(range(first_col, first_col + n), cells, strict=True))
        if cell_format is not None and _numbers_or_empty(values):
            self._runs.setdefault(row, []).append((first_col, cells))

    def write_blank_row(
        self, row: int, first_col: int, last_col: int, cell_format: Format | None
    ) -> None:
        if (
            cell_format is None
            or last_col < first_col
            or self.constant_memory
            or self._check_dimensions(row, first_col)
            or self._check_dimensions(row, last_col)
        ):
            super().write_blank_row(row, first_col, last_col, cell_format)
            return
        cells = [CellBlankTuple(cell_format)] * (last_col - first_col + 1)  # immutable: shared
        self.table[row].update(zip(range(first_col, last_col + 1), cells, strict=True))
        self._runs.setdefault(row, []).append((first_col, cells))

    def _assemble_xml_file(self) -> None:
        super()._assemble_xml_file()
        # the sheet's XML is written (chart caches were read before): free the cells
        # now, by reference counting, rather than in a full collection of the
        # workbook's reference cycles later
        self.table.clear()
        self._runs.clear()

    def _write_formula(
        self,
        row: int,
        col: int,
        formula: str,
        cell_format: Format | None = None,
        value: Any = 0,
    ) -> Literal[0, -1, -2]:
        if not formula or self.constant_memory or needs_preparation(formula):
            return super()._write_formula(row, col, formula, cell_format, value)
        if self._check_dimensions(row, col):
            return -1
        body = formula[1:] if formula.startswith("=") else formula
        self.table[row][col] = CellFormulaTuple(body, cell_format, value)
        return 0

    def _prepare_formula(self, formula: str, expand_future_functions: bool = False) -> str:
        if needs_preparation(formula):
            return super()._prepare_formula(formula, expand_future_functions)
        return formula[1:] if formula.startswith("=") else formula

    # XlsxWriter's _calculate_spans and _write_rows, for sheets without comments,
    # with the runs of formula cells written in one piece each (the same elements in
    # the same order)

    def _calculate_spans(self) -> None:
        if self.comments or self.dim_rowmin is None:
            super()._calculate_spans()
            return
        rows, cols = range(self.dim_rowmin, self.dim_rowmax + 1), self._columns()
        blocks: dict[int, tuple[int, int]] = {}
        for r, cells in self.table.items():
            if r in rows and cells:
                lo, hi = min(cells), max(cells)
                if lo not in cols or hi not in cols:
                    super()._calculate_spans()
                    return
                b = blocks.get(r // 16)
                blocks[r // 16] = (lo, hi) if b is None else (min(b[0], lo), max(b[1], hi))
        self.row_spans = {i: f"{lo + 1}:{hi + 1}" for i, (lo, hi) in blocks.items()}

    def _write_rows(self) -> None:
        if self.comments or self.constant_memory:
            super()._write_rows()
            return
        self._calculate_spans()
        for r in range(self.dim_rowmin, self.dim_rowmax + 1):
            cells = self.table.get(r)
            if cells:
                self._write_row(r, self.row_spans.get(r // 16), self.row_info.get(r))
                self._write_cells(r, cells)
                self._xml_end_tag("row")
            elif r in self.row_info:
                self._write_empty_row(r, self.row_spans.get(r // 16), self.row_info[r])

    def _columns(self) -> range:
        return range(self.dim_colmin, self.dim_colmax + 1)

    def _write_cells(self, row: int, cells: dict[int, Any]) -> None:
        """The cells of a row in column order: each run that the table still holds
        in one piece, every other cell by XlsxWriter's ``_write_cell``."""
        cols, within, done = sorted(cells), self._columns(), 0
        if cols[0] not in within or cols[-1] not in within:
            cols = [c for c in cols if c in within]
        for first, run in sorted(self._runs.get(row, ()), key=_FIRST):
            if all(map(is_, map(cells.get, range(first, first + len(run))), run)):
                at = bisect_left(cols, first)
                for col in cols[done:at]:
                    self._write_cell(row, col, cells[col])
                self._write_run(row, first, run)
                done = at + len(run)
        for col in cols[done:]:
            self._write_cell(row, col, cells[col])

    def _write_cell(self, row: int, col: int, cell: Any) -> None:
        """XlsxWriter's ``_write_cell`` for the common cells with a format: blanks,
        numbers, shared strings and formulas with a number or empty result; any
        other cell by XlsxWriter's."""
        kind, fmt = type(cell), cell.format
        if fmt is None or kind not in _QUICK:
            super()._write_cell(row, col, cell)
            return
        if kind is CellFormulaTuple:
            value = cell.value
            if not (type(value) is float or (type(value) is str and not value)):
                super()._write_cell(row, col, cell)
                return
        xf = fmt.xf_index if fmt.xf_index is not None else fmt._get_xf_index()
        head = f'<c r="{col_name(col)}{row + 1}" s="{xf}"'
        if kind is CellBlankTuple:
            self.fh.write(f"{head}/>")
        elif kind is CellNumberTuple:
            self.fh.write(f"{head}><v>{cell.number:.16G}</v></c>")
        elif kind is CellStringTuple:
            self.fh.write(f'{head} t="s"><v>{cell.string}</v></c>')
        else:
            self.fh.write(f"{head}><f>{_escape(cell.formula)}</f><v>{cell.value}</v></c>")

    def _write_run(self, row: int, first: int, run: list[Any]) -> None:
        """Formula cells with one format and number or empty results, or blank cells
        with one format, as XlsxWriter's ``_write_cell`` writes each."""
        fmt = run[0].format
        xf = fmt.xf_index if fmt.xf_index is not None else fmt._get_xf_index()
        names = col_letters(first + len(run) - 1)[first:]
        if type(run[0]) is CellBlankTuple:
            self.fh.write("".join(map(f'<c r="%s{row + 1}" s="{xf}"/>'.__mod__, names)))
            return
        formulas = list(map(_FORMULA, run))
        text = "\0".join(formulas)
        escaped = _escape(text)
        if escaped is not text:
            split = escaped.count("\0") == len(run) - 1
            formulas = escaped.split("\0") if split else list(map(_escape, formulas))
        values = map(str, map(_VALUE, run))  # floats (str is repr) or ""
        parts = (
            repeat('<c r="'),
            names,
            repeat(f'{row + 1}" s="{xf}"><f>'),
            formulas,
            repeat("</f><v>"),
            values,
            repeat("</v></c>"),
        )
        self.fh.write("".join(map("".join, zip(*parts, strict=False))))  # as long as names


def _escape(text: str) -> str:
    """XlsxWriter's escapes of cell data (``&``, ``<``, ``>``); ``text`` itself when
    it has none."""
    if "&" in text or "<" in text or ">" in text:
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text


def _numbers_or_empty(values: Sequence[Any]) -> bool:
    """Whether every value is a float or the empty string."""
    types = set(map(type, values))
    if types <= {float}:
        return True
    return types <= {float, str} and all(v == "" for v in values if type(v) is str)


#: ``CellFormulaTuple(*fields)`` and ``formula[1:]`` without a Python frame per cell
_formula_cell = partial(tuple.__new__, CellFormulaTuple)
_AFTER_EQUALS = itemgetter(slice(1, None))
_FIRST = _FORMULA = itemgetter(0)
_VALUE = itemgetter(2)
#: the cells FastWorksheet._write_cell writes itself
_QUICK = frozenset({CellBlankTuple, CellNumberTuple, CellStringTuple, CellFormulaTuple})


#: the letters of column ``col`` (0 = ``A``), cached
col_name = cache(xl_col_to_name)


@cache
def col_letters(last: int) -> tuple[str, ...]:
    """The letters of columns 0..``last``."""
    return tuple(xl_col_to_name(c) for c in range(last + 1))
