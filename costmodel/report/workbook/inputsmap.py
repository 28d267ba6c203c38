"""What the Inputs sheet and its tier table share: the sheet being written
(:class:`Sheet`), where each input landed (:class:`InputsMap`), the number
format of each input, and the paths of the tier inputs.

:mod:`~costmodel.report.workbook.inputs` writes the sheet's global blocks and
:mod:`~costmodel.report.workbook.tiertable` its tier and stage tables; both read
this module, neither the other's internals.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from xlsxwriter.utility import xl_rowcol_to_cell
from xlsxwriter.workbook import Workbook

from costmodel.inputs.params import OVERRIDABLE
from costmodel.inputs.schema import Assumptions, Quantity
from costmodel.inputs.vocabulary import input_kind, input_label, input_unit
from costmodel.report.workbook.grid import BLACK, Styles
from costmodel.report.workbook.validation import validate

SHEET = "Inputs"

#: tier-overridable inputs, each carried as a live formula on the Inputs sheet
TIER_OVERRIDES = {
    section: keys
    for section, keys in OVERRIDABLE.items()
    if section in ("operations", "revenue", "reliability", "timeline")
}

TIER_FIELDS = (
    "gpus",
    "network.share",
    "storage.capacity_tb",
    "storage.price_per_tb",
    "storage.write_gbps",
    "rack_kw",
    "staff_fte",
    "reserve_headroom",
)
#: columns of the scalar and sources tables
HEAD = ("input", "value", "unit", "low", "high", "path", "source", "note")
PATH_COL, SOURCE_COL, NOTE_COL = 5, 6, 7


def text_lines(*texts: str, width: int = 60) -> int:
    """Lines a wrapped cell of ``width`` characters needs (CJK counts double)."""
    import unicodedata

    def w(t: str) -> int:
        return len(t) + len([ch for ch in t if unicodedata.east_asian_width(ch) in "WF"])

    return max([1, *(-(-w(t) // width) for t in texts if t)])


def name_for(path: str) -> str:
    """Defined name of a scalar input: ``power.price_per_kwh`` -> ``power_price_per_kwh``."""
    return path.replace(".", "_")


#: whole-number inputs shown without decimals
COUNT_KEYS = {"build_months", "reserve_headroom", "months", "lead_months"}


def kind_for(key: str) -> str:
    """The number format of the input at dotted ``key`` on the Inputs sheet: a share
    or rate (kind ``pct`` in :mod:`costmodel.inputs.vocabulary`) as a percentage,
    months and the headroom switch whole, any other number with two decimals."""
    if input_kind(key) == "pct":
        return "pct2"
    return "count" if key.split(".")[-1] in COUNT_KEYS else "number"


@dataclass(frozen=True)
class InputCell:
    """One input cell of the Inputs sheet: the keys of its dotted path, where it is
    (0-based row and column), the value written there and whether it was written as
    a link to another input (a tier that does not override a global input, a stage
    without its own headcount) rather than as a blue value."""

    keys: tuple[str, ...]
    row: int
    col: int
    value: Any
    link: bool = False

    @property
    def ref(self) -> str:
        """``Inputs!$B$12``."""
        return f"{SHEET}!{here(self.row, self.col)}"


#: first part of the defined name of every input cell (``input.power.price_per_kwh``)
INPUT_PREFIX = "input."
_PLAIN_PART = re.compile(r"[a-z0-9][a-z0-9_]*")


def input_name(keys: tuple[str, ...]) -> str | None:
    """The defined name that marks the input cell of the dotted path ``keys``:
    ``input.`` and the keys joined by dots; a key that is not lower-case letters,
    digits and ``_`` (``H800``, ``v1.5``, ``万卡``) is written as ``_`` and the hex
    of its UTF-8 bytes, so that the name is valid in every spreadsheet, unique
    without regard to case, and read back by :func:`input_keys`. None when the name
    would be longer than Excel's 255 characters."""
    parts = [k if _PLAIN_PART.fullmatch(k) else "_" + k.encode().hex() for k in keys]
    name = INPUT_PREFIX + ".".join(parts)
    return name if len(name) <= 255 else None


def input_keys(name: str) -> tuple[str, ...] | None:
    """The keys of the dotted path marked by the defined ``name`` (the inverse of
    :func:`input_name`), or None if ``name`` marks no input."""
    if not name.lower().startswith(INPUT_PREFIX):
        return None
    out = []
    for part in name[len(INPUT_PREFIX) :].split("."):
        if part.startswith("_"):
            try:
                out.append(bytes.fromhex(part[1:]).decode())
            except ValueError:
                return None
        elif part:
            out.append(part.lower())
        else:
            return None
    return tuple(out)


@dataclass
class InputsMap:
    """Where each input landed: names for scalars, cells for the tier table, and
    every input cell by the keys of its dotted path (:class:`InputCell`)."""

    tier_cells: dict[tuple[str, str], str] = field(default_factory=dict)  # -> Inputs!$C$9
    tier_columns: dict[str, int] = field(default_factory=dict)
    horizon_cell: str = ""
    cells: dict[tuple[str, ...], InputCell] = field(default_factory=dict)
    #: a quote's path -> the cell of its months to ``start`` (methodology §30)
    quote_months: dict[str, str] = field(default_factory=dict)
    # each subsidy's cells by field, keyed (scope: a tier or "" for the global list, index)
    subsidy_cells: dict[tuple[str, int], dict[str, str]] = field(default_factory=dict)


def dotted_attr(obj: Any, dotted: str) -> Any:
    """``obj.a.b`` for ``"a.b"``; None where a section along the way is None."""
    for part in dotted.split("."):
        obj = getattr(obj, part) if obj is not None else None
    return obj


def quantity(x: Any) -> Quantity | None:
    """``x`` if it is a :class:`Quantity` (a number with its source), else None."""
    return x if isinstance(x, Quantity) else None


def split_path(path: str) -> tuple[str, str]:
    """The generic path of a table input and what it is of: ``servers.h800.price`` ->
    (``servers.price``, ``h800``); ``power.pue.air`` -> (``power.pue``, ``air``)."""
    p = path.split(".")
    if p[0] in ("servers", "tiers", "depreciation") and len(p) >= 3:
        return ".".join([p[0], *p[2:]]), p[1]
    if p[:2] in (["power", "pue"], ["facility", "build_cost_per_kw"], ["facility", "max_rack_kw"]):
        return ".".join(p[:2]), ".".join(p[2:])
    return path, ""


def here(row: int, col: int) -> str:
    return xl_rowcol_to_cell(row, col, row_abs=True, col_abs=True)


@dataclass
class Sheet:
    """The Inputs sheet being written: the worksheet, the next row, the sources of
    table inputs collected on the way (path, quantity, cell of its value)."""

    wb: Workbook
    ws: Any
    st: Styles
    a: Assumptions
    row: int = 1
    sources: list[tuple[str, Quantity, str]] = field(default_factory=list)
    inputs: dict[tuple[str, ...], InputCell] = field(default_factory=dict)

    def input_at(
        self, keys: str | tuple[str, ...], row: int, col: int, value: Any, link: bool = False
    ) -> None:
        """Record the input cell of dotted path ``keys`` (a path of schema keys, or
        its keys when one may hold a dot): every cell an investor may change is
        recorded, so that :func:`mark_inputs` names it and the importer
        (:mod:`costmodel.report.importer`) reads it back."""
        k = tuple(keys.split(".")) if isinstance(keys, str) else keys
        self.inputs[k] = InputCell(k, row, col, value, link)

    def mark_inputs(self) -> dict[tuple[str, ...], InputCell]:
        """Define the name :func:`input_name` of every recorded input cell."""
        for keys, cell in self.inputs.items():
            name = input_name(keys)
            if name is not None:
                self.wb.define_name(name, f"={cell.ref}")
        return self.inputs

    @property
    def cur(self) -> str:
        return self.a.currency

    def define(self, name: str, row: int, col: int) -> None:
        self.wb.define_name(name, f"={SHEET}!{here(row, col)}")

    def name_column(self, name: str, first: int, last: int, col: int) -> None:
        self.wb.define_name(name, f"={SHEET}!{here(first, col)}:{here(last, col)}")

    def head(self, *cols: str) -> None:
        for c, text in enumerate(cols):
            self.ws.write_string(self.row, c, text, self.st.header)
        self.row += 1

    def section(self, title: str) -> None:
        self.row += 1
        self.ws.write_string(self.row, 0, title, self.st.h1)
        self.row += 1

    def quantity_row(self, path: str, q: Quantity, value_formula: str | None = None) -> int:
        """label, value (blue input, or a black link), unit, low, high, path, source, note."""
        ws, st, r, kind = self.ws, self.st, self.row, kind_for(path)
        base, qualifier = split_path(path)
        label = input_label(base) + (f" ({qualifier})" if qualifier else "")
        ws.write_string(r, 0, label, st.label)
        if value_formula is None:
            ws.write_number(r, 1, q.value, st.input(kind))
            validate(ws, r, 1, path)
            self.input_at(path, r, 1, q.value)
        else:
            ws.write_formula(r, 1, value_formula, st.cell(kind, BLACK), q.value)
        unit = input_unit(base, self.cur, q.unit)
        ws.write_string(r, 2, unit, st.unit_wrap)
        for c, v in ((3, q.low), (4, q.high)):
            if v is not None:
                ws.write_number(r, c, v, st.cell(kind, BLACK))
        ws.write_string(r, PATH_COL, path, st.path)
        ws.write_string(r, SOURCE_COL, q.source or "", st.wrap)
        note = q.note or ""
        over = overriding_tiers(self.a, path)
        if over:  # the tier table holds these tiers' own values: this one does not apply
            note = (note + " " if note else "") + (
                f"Not used by tier {', '.join(over)}: its own value is in the tier table."
            )
        ws.write_string(r, NOTE_COL, note, st.wrap)
        lines = max(text_lines(q.source or "", note), text_lines(unit, width=30))
        ws.set_row(r, 15 * lines)
        self.row += 1
        return r


def overriding_tiers(a: Assumptions, path: str) -> list[str]:
    """The tiers that set their own value of the model-wide input ``path``
    (``tiers.T.<path>`` in the assumptions), so that the model-wide one does not
    apply to them."""
    out = []
    for name, tier in a.tiers.items():
        node: Any = tier
        for key in path.split("."):
            node = getattr(node, key, None) if not isinstance(node, dict) else node.get(key)
            if node is None:
                break
        if node is not None:
            out.append(name)
    return out
