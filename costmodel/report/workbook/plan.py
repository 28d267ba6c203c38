"""The layout of a sheet as data: a plan of its cells, named cells and settings,
built before anything is written, which the writer renders and a reader (the
importer) reads without writing; and of the whole workbook
(:class:`PlanWorkbook`), whose formula cells the importer reads.

A block of the sheet lays itself out on a :class:`PlanSheet` and a
:class:`PlanBook` with the formats of :class:`PlanStyles`: each call
(``write_number(row, col, value, format)``, ``set_row``, ``data_validation``,
``define_name`` ...) is kept, in order, as an :class:`Op` whose formats are
:class:`Style` names, not objects of a workbook. :func:`render` replays the ops
on a worksheet of a real workbook, each style looked up in its
:class:`~costmodel.report.workbook.grid.Styles`; the plan itself never touches
a workbook.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Style:
    """A cell format by its name in :class:`~costmodel.report.workbook.grid.Styles`:
    an attribute (``label``, ``header``) or, with ``called``, a method and its
    arguments (``input("pct2")``, ``cell("money", BLACK, True)``)."""

    name: str
    args: tuple[Any, ...] = ()
    called: bool = False

    def resolve(self, st: Any) -> Any:
        """The format of ``st`` this style names."""
        found = getattr(st, self.name)
        return found(*self.args) if self.called else found


class PlanStyles:
    """Stands in for :class:`~costmodel.report.workbook.grid.Styles` while a plan
    is built: every format is its :class:`Style`."""

    METHODS = frozenset({"input", "cell"})

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        if name in self.METHODS:
            return lambda *args: Style(name, args, True)
        return Style(name)


@dataclass(frozen=True)
class Op:
    """One call of the layout: on the sheet (``book`` False) or the workbook,
    its method and arguments."""

    method: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    book: bool = False


@dataclass
class SheetPlan:
    """A sheet's layout: its name, the calls that lay it out in order, and its
    defined names (name -> formula)."""

    name: str
    ops: list[Op] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)


class PlanSheet:
    """Stands in for a worksheet while a plan is built: every call is kept."""

    def __init__(self, plan: SheetPlan):
        self._plan = plan

    def __getattr__(self, method: str) -> Callable[..., None]:
        if method.startswith("_"):
            raise AttributeError(method)

        def keep(*args: Any, **kwargs: Any) -> None:
            self._plan.ops.append(Op(method, args, kwargs))

        return keep

    def get_name(self) -> str:
        return self._plan.name


class PlanBook:
    """Stands in for the workbook while a plan is built: its defined names."""

    def __init__(self, plan: SheetPlan):
        self._plan = plan

    def define_name(self, name: str, formula: str) -> None:
        self._plan.names[name] = formula
        self._plan.ops.append(Op("define_name", (name, formula), {}, book=True))


def _resolved(x: Any, st: Any) -> Any:
    if isinstance(x, Style):
        return x.resolve(st)
    if isinstance(x, dict):
        return {k: _resolved(v, st) for k, v in x.items()}
    return x


def render(plan: SheetPlan, wb: Any, st: Any) -> Any:
    """Write ``plan`` as a new worksheet of ``wb`` (formats from ``st``); returns
    the worksheet."""
    ws = wb.add_worksheet(plan.name)
    for op in plan.ops:
        target = wb if op.book else ws
        args = tuple(_resolved(a, st) for a in op.args)
        kwargs = {k: _resolved(v, st) for k, v in op.kwargs.items()}
        getattr(target, op.method)(*args, **kwargs)
    return ws


class _Chart:
    """Stands in for a chart while a workbook is planned: its settings are not kept
    (a chart holds no cell)."""

    def __getattr__(self, method: str) -> Callable[..., None]:
        if method.startswith("_"):
            raise AttributeError(method)
        return lambda *args, **kwargs: None


class PlanWorkbook:
    """Stands in for an XlsxWriter workbook while every sheet of it is planned:
    ``sheets`` holds each sheet's :class:`SheetPlan` in the workbook's order, with
    the calls on it and the names defined; formats and charts are placeholders."""

    def __init__(self) -> None:
        self.sheets: dict[str, SheetPlan] = {}
        self.names: dict[str, str] = {}

    def add_worksheet(self, name: str, worksheet_class: Any = None) -> PlanSheet:
        self.sheets[name] = SheetPlan(name)
        return PlanSheet(self.sheets[name])

    def worksheets(self) -> list[PlanSheet]:
        return [PlanSheet(p) for p in self.sheets.values()]

    def add_format(self, properties: dict[str, Any] | None = None) -> object:
        return object()

    def add_chart(self, options: dict[str, Any]) -> _Chart:
        return _Chart()

    def define_name(self, name: str, formula: str) -> None:
        self.names[name] = formula

    def set_properties(self, properties: dict[str, Any]) -> None:
        pass

    def set_calc_mode(self, mode: str) -> None:
        pass


#: the calls that write one cell, by the kind of cell they leave
_FORMULA = {"write_formula", "write_array_formula"}
_VALUE = {
    "write",
    "write_string",
    "write_number",
    "write_datetime",
    "write_boolean",
    "write_blank",
}


def _column_letters(col: int) -> str:
    out = ""
    col += 1
    while col:
        col, rest = divmod(col - 1, 26)
        out = chr(65 + rest) + out
    return out


def formula_cells(plan: SheetPlan) -> list[str]:
    """The cells (``B7``, row by row) of ``plan`` that hold a formula once the sheet
    is written: the last call on a cell decides (a formula overwritten by a value is
    none); a blank without a format writes nothing; an array formula is held by its
    first cell; a row of formulas (``write_formula_row``) fills its columns."""
    formula: dict[tuple[int, int], bool] = {}
    for op in plan.ops:
        a = op.args
        if op.method in _FORMULA:
            formula[(a[0], a[1])] = True
        elif op.method == "write_formula_row":
            for i in range(len(a[2])):
                formula[(a[0], a[1] + i)] = True
        elif op.method == "write_blank_row":
            if a[3] is not None:
                for col in range(a[1], a[2] + 1):
                    formula[(a[0], col)] = False
        elif op.method == "write_blank":
            if len(a) > 3 and a[3] is not None:
                formula[(a[0], a[1])] = False
        elif op.method in _VALUE:
            formula[(a[0], a[1])] = False
    return [f"{_column_letters(c)}{r + 1}" for (r, c), f in sorted(formula.items()) if f]
