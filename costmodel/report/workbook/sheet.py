"""The workbook's worksheet class and the column letters of its grid.

:class:`RowWorksheet` is XlsxWriter's ``Worksheet`` (passed to it as
``Workbook.worksheet_class``) with two row writers built on XlsxWriter's public
API alone: :meth:`~RowWorksheet.write_formula_row` writes one formula copied
along a row, each cell with its cached result, through ``write_formula``;
:meth:`~RowWorksheet.write_blank_row` writes a band of formatted blank cells
through ``write_blank``. No method of XlsxWriter is overridden, so the class
works with any XlsxWriter version that has that API.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from xlsxwriter.format import Format
from xlsxwriter.utility import xl_col_to_name
from xlsxwriter.worksheet import Worksheet


class RowWorksheet(Worksheet):
    """XlsxWriter's worksheet with :meth:`write_formula_row` and
    :meth:`write_blank_row`."""

    def write_formula_row(
        self,
        row: int,
        first_col: int,
        formulas: Sequence[str],
        cell_format: Format | None,
        values: Sequence[Any],
    ) -> None:
        """Write ``formulas[i]`` with cached result ``values[i]`` to cell
        (``row``, ``first_col + i``)."""
        for i, (formula, value) in enumerate(zip(formulas, values, strict=True)):
            self.write_formula(row, first_col + i, formula, cell_format, value)

    def write_blank_row(
        self, row: int, first_col: int, last_col: int, cell_format: Format | None
    ) -> None:
        """Blank cells with ``cell_format`` in columns ``first_col``..``last_col``
        (a band of colour; without a format nothing is written)."""
        for col in range(first_col, last_col + 1):
            self.write_blank(row, col, None, cell_format)


#: the name the workbook module imports: the same class
FastWorksheet = RowWorksheet


#: the letters of column ``col`` (0 = ``A``), cached
col_name = cache(xl_col_to_name)


@cache
def col_letters(last: int) -> tuple[str, ...]:
    """The letters of columns 0..``last``."""
    return tuple(xl_col_to_name(c) for c in range(last + 1))
