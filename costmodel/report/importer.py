"""Read an investor's edits back from a costmodel workbook as a scenario overlay.

The workbook marks every input cell with a defined name that spells its dotted
path (``input.power.price_per_kwh``, ``input.tiers.hundreds.gpus``; see
:func:`~costmodel.report.workbook.inputsmap.input_name`), so the cells are found
however another spreadsheet saved the file and wherever rows were inserted. Which
cells are inputs, and what was written in each, is the writer's own map: the
Inputs sheet of the base is laid out again, as a plan that is not written
(:func:`~costmodel.report.workbook.inputs.plan_inputs`), and each input cell of the
edited workbook is compared with it. So an input added to the writer is imported
without a list of fields here.

What is imported, and what is only reported:

- an input cell whose value differs from the base's becomes an entry of the
  overlay (:mod:`costmodel.report.overlay_yaml` gives its form); a tier-table cell
  that linked to the global input and now holds a number is that tier's own value;
- the overlay is validated on the base like any assumption file, and a value
  outside its rule raises :class:`~costmodel.inputs.errors.AssumptionError` naming
  the workbook, sheet and cell, the dotted path, the value and the rule;
- a calculation cell whose formula was replaced by a value (a "plug") is listed
  in the report, not imported: the workbook of the model rebuilt from the overlay
  is planned, not written (:func:`~costmodel.report.workbook.book.plan_workbook`),
  and every cell that is a formula in its plan but a value in the edited workbook
  is one;
- a workbook built from other assumptions than the base (its Cover's fingerprint
  differs) is imported with a warning naming both fingerprints.
"""

from __future__ import annotations

import os
import re
import tempfile
import warnings
import zipfile
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from costmodel.inputs.errors import AssumptionError, Problem
from costmodel.inputs.loader import fingerprint, layer, load_assumptions
from costmodel.inputs.paths import key_path, split_path
from costmodel.inputs.provenance import changed_note
from costmodel.inputs.resources import assumptions_dir
from costmodel.inputs.schema import Assumptions
from costmodel.report.overlay_yaml import base_value, cell_value, entry, place, same, shown
from costmodel.report.workbook.cover import FILES_LABEL, FINGERPRINT_LABEL
from costmodel.report.workbook.inputsmap import SHEET, InputCell, input_keys
from costmodel.report.xlsx_limits import bundled_file, check_archive, scan_cells, sheet_parts

PathArg = str | os.PathLike[str]


@dataclass(frozen=True)
class Change:
    """One input changed in the workbook: its dotted ``path``, its ``cell``
    (``Inputs!B23``), the base's value (``was``) and the workbook's; ``linked``:
    the cell linked to the global input in the base (a tier's own value now)."""

    path: str
    cell: str
    was: Any
    value: Any
    linked: bool = False


@dataclass
class ImportReport:
    """What an import found: the changes (in the overlay), the base it compared
    with, and the warnings (a fingerprint that differs, plugged cells, cells not
    found)."""

    workbook: str
    base_files: list[str]
    workbook_fingerprint: str | None
    base_fingerprint: str
    changes: list[Change] = field(default_factory=list)
    plugs: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    date: str = ""

    def __repr__(self) -> str:
        return (
            f"<ImportReport of {self.workbook}: {len(self.changes)} changes, "
            f"{len(self.plugs)} plugged cells, {len(self.warnings)} warnings>"
        )

    @property
    def fingerprint_matches(self) -> bool:
        return self.workbook_fingerprint == self.base_fingerprint


@dataclass
class Book:
    """The edited workbook as read: the cells (formulas as text) of the sheets that
    hold inputs, by sheet; the cached values of the Inputs sheet; where each named
    input is; its Cover; on every sheet, the cells that hold a typed number or
    date (:func:`typed_cells`, where a plug can be)."""

    name: str
    cells: dict[str, dict[str, Any]]
    values: dict[str, Any]
    names: dict[tuple[str, ...], tuple[str, str]]
    cover: list[tuple[Any, ...]]
    modified: datetime | None
    horizon: tuple[str, str] | None = None
    typed: dict[str, set[str]] = field(default_factory=dict)


def is_formula(v: Any) -> bool:
    """A cell's content is a formula (openpyxl: text from ``=``, or an array formula)."""
    return (isinstance(v, str) and v.startswith("=")) or hasattr(v, "text")


def _sheet_cells(ws: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for row in ws.iter_rows():
        for c in row:
            if c.value is not None and hasattr(c, "coordinate"):
                out[c.coordinate] = c.value
    return out


def read_book(path: PathArg) -> Book:
    """Read a workbook: with openpyxl, the cells of the Inputs sheet (and of any
    sheet an input's name points to), its cached values, the cells named by
    :func:`~costmodel.report.workbook.inputsmap.input_name`, the Cover; the typed
    numbers of every sheet with :func:`typed_cells`."""
    import openpyxl

    p = Path(path)
    check_archive(p)  # bounded: no part too large unpacked
    typed = scan_cells(p)  # every cell a value openpyxl can read, or the sheet and cell named
    try:
        return _read_book(p, openpyxl.load_workbook, typed)
    except AssumptionError:
        raise
    except Exception as exc:  # noqa: BLE001 - any unreadable file is invalid input
        rule = f"cannot read the workbook: {type(exc).__name__}: {str(exc)[:200]}"
        raise AssumptionError(Problem(p.name, "", "", rule)) from None


def _read_book(p: Path, load: Any, typed: dict[str, set[str]]) -> Book:
    wf = load(p, read_only=True)
    wv = load(p, read_only=True, data_only=True)
    names: dict[tuple[str, ...], tuple[str, str]] = {}
    horizon = None
    for name, dn in wf.defined_names.items():
        keys = input_keys(name)
        if keys is None and name != "horizon_years":
            continue
        dest = [(s, ref.replace("$", "")) for s, ref in dn.destinations]
        if len(dest) != 1 or ":" in dest[0][1]:
            continue
        if keys is None:
            horizon = dest[0]
        else:
            names[keys] = dest[0]
    read = {SHEET, *(s for s, _ in names.values()), *(horizon[:1] if horizon else ())}
    cells = {t: _sheet_cells(wf[t]) for t in wf.sheetnames if t in read}
    values = _sheet_cells(wv[SHEET]) if SHEET in wv.sheetnames else {}
    cover = []
    if "Cover" in wf.sheetnames:
        cover = [tuple(c.value for c in row) for row in wf["Cover"].iter_rows(max_col=2)]
    modified = wf.properties.modified if isinstance(wf.properties.modified, datetime) else None
    wf.close()
    wv.close()
    return Book(p.name, cells, values, names, cover, modified, horizon, typed)


def cover_fingerprint(book: Book) -> str | None:
    """The assumption fingerprint the Cover shows."""
    for row in book.cover:
        if len(row) > 1 and row[0] == FINGERPRINT_LABEL:
            return str(row[1])
    return None


def cover_files(book: Book) -> list[str]:
    """The assumption files the Cover lists (as :func:`~costmodel.report.workbook.cover.file_names`
    wrote them)."""
    out: list[str] = []
    rows = iter(book.cover)
    for row in rows:
        if row and row[0] == FILES_LABEL:
            for nxt in rows:
                if len(nxt) < 2 or nxt[1] is None:
                    break
                out.append(str(nxt[1]))
            break
    return out


def resolve_files(book: Book) -> list[Path]:
    """The Cover's files on this machine: only the bundled ones (``bundled FOLDER:
    FILE``), inside the installed package. A workbook does not choose which file
    of this machine is read: any other name (a path of the machine that built it,
    an absolute path, ``..``) is refused, and the base is given with ``--base``.
    The name is shown cut short; the file is never opened, so never quoted."""
    names = cover_files(book)
    where = f"{book.name} Cover"
    if not names or names == ["(built in code)"]:
        rule = "the Cover names no assumption files; give the base with --base FILES"
        raise AssumptionError(Problem(where, "", "", rule))
    out = []
    root = assumptions_dir()
    for n in names:
        found = bundled_file(root, n)
        if found is None:
            shown = repr(n if len(n) <= 80 else n[:60] + "...")
            rule = (
                "not a bundled assumption file: a workbook's Cover chooses the base only "
                "among the bundled files; give the base with --base FILES (the "
                "assumption files or folder the workbook was built from)"
            )
            raise AssumptionError(Problem(where, "", shown, rule))
        out.append(found)
    return out


def inputs_layout(a: Assumptions) -> dict[tuple[str, ...], InputCell]:
    """Every input cell the writer writes for ``a``, by the keys of its dotted path:
    read from the Inputs sheet's plan (:func:`~costmodel.report.workbook.inputs.plan_inputs`),
    which is laid out, not written."""
    from costmodel.report.workbook.inputs import plan_inputs

    tiers = list(a.tiers)
    # only the cells' places are read: any finite cached value will do (a wacc row's
    # cached rate included)
    return plan_inputs(a, tiers, dict.fromkeys(tiers, 0.0), 0.0).map.cells


def import_workbook(
    path: PathArg, base: Assumptions | list[PathArg] | None = None
) -> tuple[dict[str, Any], ImportReport]:
    """The inputs an investor changed in the costmodel workbook at ``path``, as an
    overlay on ``base`` (assumptions, or files merged in order; by default the
    files the workbook's Cover names), and the report of the import.

    Raises :class:`~costmodel.inputs.errors.AssumptionError` when a changed value
    breaks a rule (each problem names the workbook's sheet and cell).

    Parameters
    ----------
    path : str or os.PathLike
        A workbook written by :func:`~costmodel.report.workbook.book.write_workbook`.
    base : Assumptions or list of paths, optional

    Returns
    -------
    tuple of (dict, ImportReport)
        The overlay (``{}`` when nothing changed) and what the import found.

    Examples
    --------
    >>> import tempfile
    >>> from datetime import datetime
    >>> from pathlib import Path
    >>> import costmodel as cm
    >>> a = cm.load_assumptions(cm.example_dir("by-hand"))
    >>> with tempfile.TemporaryDirectory() as d:
    ...     book = cm.write_workbook(cm.build(a), Path(d) / "m.xlsx", created=datetime(2026, 1, 1))
    ...     overlay, report = cm.import_workbook(book)
    >>> overlay, report.plugs, report.fingerprint_matches
    ({}, [], True)
    """
    book = read_book(path)
    if SHEET not in book.cells:
        rule = f"no {SHEET} sheet: not a workbook written by costmodel build"
        raise AssumptionError(Problem(book.name, "", "", rule))
    if isinstance(base, Assumptions):
        a, files = base, []
    else:
        paths = list(base) if base else resolve_files(book)
        a, files = load_assumptions(*paths), [str(p) for p in paths]
    report = ImportReport(book.name, files, cover_fingerprint(book), fingerprint(a))
    report.date = (book.modified.date() if book.modified else date.today()).isoformat()
    if report.workbook_fingerprint is None:
        report.warnings.append(f"{book.name}: the Cover shows no assumption fingerprint")
    elif not report.fingerprint_matches:
        report.warnings.append(
            f"{book.name} was built from other assumptions than the base: fingerprint "
            f"{report.workbook_fingerprint} in the workbook, {report.base_fingerprint} of "
            "the base; the overlay holds every input that differs from the base"
        )
    layout = inputs_layout(a)
    located = _locate(book, layout, report)
    overlay = _compare(book, a, layout, located, report)
    imported = _validated(book, a, overlay, report, layout, located)
    _check_horizon(book, a, report)
    try:
        report.plugs = find_plugs(book, imported, {located[k] for k in located})
    except AssumptionError as exc:  # a value too large to compute with: at its cell
        cells = {c.path: c.cell for c in report.changes}
        raise AssumptionError([_at_cell(p, cells, book.name) for p in exc.problems]) from None
    if report.plugs:
        shown_plugs = ", ".join(report.plugs[:20]) + (" ..." if len(report.plugs) > 20 else "")
        report.warnings.append(
            f"{len(report.plugs)} calculation cell(s) hold a typed value in place of their "
            f"formula, not imported (change an input on the Inputs sheet instead): {shown_plugs}"
        )
    return overlay, report


def _locate(
    book: Book, layout: dict[tuple[str, ...], InputCell], report: ImportReport
) -> dict[tuple[str, ...], tuple[str, str]]:
    """Where each input of ``layout`` is in the edited workbook: at its defined
    name, or (a workbook without the names) where the writer put it."""
    out = {}
    by_position = []
    for keys, cell in layout.items():
        if keys in book.names:
            out[keys] = book.names[keys]
        else:
            out[keys] = (SHEET, cell.ref.split("!")[1].replace("$", ""))
            by_position.append(key_path(*keys))
    if by_position and book.names:
        report.warnings.append(
            f"{len(by_position)} input(s) have no name in {book.name}, read where the writer "
            f"puts them: {', '.join(by_position[:10])}"
        )
    elif by_position:
        report.warnings.append(f"{book.name} names no input cell: inputs read by position")
    extra = sorted(key_path(*k) for k in book.names if k not in layout)
    if extra:
        report.warnings.append(
            f"{len(extra)} input(s) of {book.name} are not in the base, not imported: "
            + ", ".join(extra[:10])
        )
    return out


def _compare(
    book: Book,
    a: Assumptions,
    layout: dict[tuple[str, ...], InputCell],
    located: dict[tuple[str, ...], tuple[str, str]],
    report: ImportReport,
) -> dict[str, Any]:
    """The overlay of every input cell whose value differs from the base's."""
    overlay: dict[str, Any] = {}
    for keys, written in layout.items():
        sheet, coord = located[keys]
        raw = book.cells.get(sheet, {}).get(coord)
        if is_formula(raw):
            if written.link:
                continue  # still linked to the global input
            raw = book.values.get(coord) if sheet == SHEET else None
            if raw is None:
                report.warnings.append(
                    f"{sheet}!{coord} ({key_path(*keys)}) holds a formula without a computed "
                    "value, not imported: open and save the workbook in a spreadsheet first"
                )
                continue
        new, was = cell_value(keys, raw), cell_value(keys, written.value)
        if written.link or not same(new, was):
            what = f"linked to the global input, {shown(was)}" if written.link else shown(was)
            _add(
                overlay,
                a,
                report,
                book.name,
                keys,
                f"{sheet}!{coord}",
                was,
                new,
                what,
                written.link,
            )
    return overlay


def _add(
    overlay: dict[str, Any],
    a: Assumptions,
    report: ImportReport,
    name: str,
    keys: tuple[str, ...],
    cell: str,
    was: Any,
    new: Any,
    was_text: str,
    linked: bool = False,
) -> None:
    """One changed input: in the report, and in the overlay with its note."""
    report.changes.append(Change(key_path(*keys), cell, was, new, linked))
    note = changed_note(name, report.date, was_text)
    place(overlay, a, keys, entry(keys, new, base_value(a, keys), note))


def _validated(
    book: Book,
    a: Assumptions,
    overlay: dict[str, Any],
    report: ImportReport,
    layout: dict[tuple[str, ...], InputCell],
    located: dict[tuple[str, ...], tuple[str, str]],
) -> Assumptions:
    """:func:`_validate`; where the overlay starts a section the base does not have
    (a debt share typed where the base has no financing), the inputs the section
    requires are taken as the workbook shows them (the values its formulas used)."""
    try:
        return _validate(a, overlay, report, book.name)
    except AssumptionError as exc:
        done = {c.path for c in report.changes}
        missing = [
            tuple(split_path(p.path))
            for p in exc.problems
            if p.rule == "required but missing" and p.path not in done
        ]
        missing = [k for k in missing if k in layout]
        if not missing:
            raise
    for keys in missing:
        sheet, coord = located[keys]
        raw = book.cells.get(sheet, {}).get(coord)
        raw = book.values.get(coord) if is_formula(raw) else raw
        new = cell_value(keys, raw)
        _add(
            overlay,
            a,
            report,
            book.name,
            keys,
            f"{sheet}!{coord}",
            None,
            new,
            f"not set in the base; the workbook used {shown(new)}",
        )
    return _validate(a, overlay, report, book.name)


def _validate(
    a: Assumptions, overlay: dict[str, Any], report: ImportReport, name: str
) -> Assumptions:
    """``a`` with ``overlay`` layered on it, validated like any assumption file; a
    problem names the workbook's cell of its path."""
    from costmodel.report.overlay_yaml import overlay_text

    cells = {c.path: c.cell for c in report.changes}
    with tempfile.TemporaryDirectory(prefix="costmodel-import-") as d:
        f = Path(d) / "overlay.yaml"
        f.write_text(overlay_text(overlay, []), encoding="utf-8")
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                return layer(a, f)
        except AssumptionError as exc:
            problems = [_at_cell(p, cells, name) for p in exc.problems]
            raise AssumptionError(problems) from None
        finally:  # advice on a value names the workbook, not the temporary file
            for w in caught:
                text = re.sub(re.escape(str(f)) + r"(:\d+)?", name, str(w.message))
                warnings.warn(text, w.category, stacklevel=2)


def _at_cell(p: Problem, cells: dict[str, str], name: str) -> Problem:
    """``p`` with ``where`` the workbook's cell of its path (or of the nearest
    enclosing path that has one)."""
    try:
        keys = split_path(p.path)
    except ValueError:
        keys = []
    while keys:
        path = key_path(*keys)
        if path in cells:
            return Problem(f"{name} {cells[path]}", p.path, p.value, p.rule)
        keys = keys[:-1]
    return Problem(name, p.path, p.value, p.rule)


def _check_horizon(book: Book, a: Assumptions, report: ImportReport) -> None:
    """The horizon is structure (the timeline's columns): a changed one is reported."""
    if book.horizon is None:
        return
    sheet, coord = book.horizon
    v = book.cells.get(sheet, {}).get(coord)
    if isinstance(v, int | float) and v != a.horizon_years:
        report.warnings.append(
            f"{sheet}!{coord} (horizon_years) is {shown(v)}, the base's {a.horizon_years}: the "
            "horizon is structure, not imported (set it in the assumption files and rebuild)"
        )


def find_plugs(book: Book, imported: Assumptions, inputs: set[tuple[str, str]]) -> list[str]:
    """``sheet!cell`` of every cell that is a formula in the workbook planned for
    ``imported`` (:func:`~costmodel.report.workbook.book.plan_workbook`) but holds
    a number (or a date) in the edited workbook, inputs excepted. Text is not
    counted: where a result decides which rows the Cover shows (the financing
    rows), its labels may sit where the rebuilt file has a formula."""
    from costmodel.inputs.model import build
    from costmodel.report.workbook.book import plan_workbook
    from costmodel.report.workbook.plan import formula_cells as planned_formulas

    out = []
    for title, plan in plan_workbook(build(imported)).sheets.items():
        typed = book.typed.get(title, set())
        coords = planned_formulas(plan)
        out += [f"{title}!{c}" for c in coords if c in typed and (title, c) not in inputs]
    return out


_FORMULA_CELL = re.compile(r'<c r="([A-Z]+[0-9]+)"[^>]*><f[ >]')


def formula_cells(path: Path) -> dict[str, list[str]]:
    """Sheet title -> the cells (row by row) that hold a formula, in a workbook this
    package wrote: XlsxWriter's XML, where a formula cell is ``<c r="REF" ...><f>``
    (an array formula ``<f t="array" ...>``): the cells openpyxl reads as formulas
    (data type ``f``; a text label that starts with ``=`` is not one), without
    parsing the others."""
    with zipfile.ZipFile(path) as z:
        return {t: _FORMULA_CELL.findall(z.read(m).decode()) for t, m in sheet_parts(z).items()}


def typed_cells(path: Path) -> dict[str, set[str]]:
    """Worksheet title -> the cells that hold a typed number or date (every cell
    checked on the way: :func:`costmodel.report.xlsx_limits.scan_cells`)."""
    return scan_cells(Path(path))


def overlay_header(report: ImportReport) -> list[str]:
    """The comment lines at the top of an imported overlay: where it came from."""
    files = ", ".join(Path(f).name for f in report.base_files) or "(given in code)"
    lines = [
        f"Inputs changed in {report.workbook} (saved {report.date}), read by costmodel import.",
        f"Base: {files}; fingerprint {report.base_fingerprint}.",
    ]
    if not report.fingerprint_matches and report.workbook_fingerprint:
        lines.append(f"The workbook was built from fingerprint {report.workbook_fingerprint}.")
    lines.append("Layer it on the base: costmodel summary BASE... THIS.yaml")
    return lines
