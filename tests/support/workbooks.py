"""Compare a workbook's cached formula results with a LibreOffice recalculation."""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import openpyxl

from tests.support.xlsxcells import ARRAY, cells, rows_of, value
from tests.support.xlsxedit import patched_copy

#: a check's residual, ``=B258-C258``: two figures that should be equal
RESIDUAL = re.compile(r"^=([A-Z]+[0-9]+)-([A-Z]+[0-9]+)$")

ERROR_MARKERS = ("#REF!", "#NAME?", "#VALUE!", "#DIV/0!", "#N/A", "#NUM!", "#NULL!", "Err:")


@functools.lru_cache(maxsize=16)
def _load(path: Path, data_only: bool, stamp: tuple[int, int]) -> openpyxl.Workbook:
    return openpyxl.load_workbook(path, data_only=data_only)


def read(path: Path, data_only: bool = False) -> openpyxl.Workbook:
    """The workbook at ``path`` as openpyxl reads it (formulas, or the cached values
    with ``data_only``), read once while the file is unchanged (of the last 16
    read): the comparisons read an original once for both engines, and a
    recalculation once for all its checks. Callers only read it."""
    path = Path(path).resolve()
    stat = path.stat()
    return _load(path, data_only, (stat.st_mtime_ns, stat.st_size))


def _operand_size(values: dict, formula: str) -> float:
    """The larger magnitude of a residual's two operands (0 for other formulas)."""
    m = RESIDUAL.match(formula)
    if m is None:
        return 0.0
    found = [values.get(ref, (None, None))[1] for ref in m.groups()]
    return max((abs(v) for v in found if isinstance(v, int | float)), default=0.0)


@dataclass
class Comparison:
    formulas: int = 0
    mismatches: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def compare_cached_with_recalculated(
    original: Path, recalculated: Path, rel: float = 1e-9, abs_tol: float = 1e-6
) -> Comparison:
    """Every formula cell of ``original``: its cached value equals the value in
    ``recalculated`` (relative ``rel``; ``abs_tol`` for results that should be 0, or
    ``rel`` times the larger operand for a residual ``=B1-C1`` of two large figures,
    whose last bits depend on the order a spreadsheet sums in); no error values
    anywhere in ``recalculated``. Both files are read from their XML
    (:mod:`tests.support.xlsxcells`); an array formula is not compared."""
    before, after = cells(original), cells(recalculated)
    out = Comparison()
    for title, sheet in after.items():
        for ref, (_, v) in sheet.items():
            if isinstance(v, str) and v.startswith(ERROR_MARKERS):
                out.errors.append(f"{title}!{ref} = {v}")
    for title, sheet in before.items():
        new_sheet = after.get(title, {})
        for ref, (formula, cached) in sheet.items():
            if formula is None or formula == ARRAY:
                continue
            out.formulas += 1
            new = new_sheet.get(ref, (None, None))[1]
            where = f"{title}!{ref} {formula[:80]}: cached {cached!r}, recalculated {new!r}"
            if isinstance(cached, int | float) and isinstance(new, int | float):
                tol = max(abs_tol, rel * _operand_size(new_sheet, formula))
                if not math.isclose(cached, new, rel_tol=rel, abs_tol=tol):
                    out.mismatches.append(where)
            elif (cached if cached is not None else "") != (new if new is not None else ""):
                out.mismatches.append(where)
    return out


def assert_recalculation_equals_cache(
    original: Path, recalculated: Path, min_formulas: int, label: str = ""
) -> Comparison:
    """:func:`compare_cached_with_recalculated` found no error value and no
    mismatch over more than ``min_formulas`` formula cells (a harness that compared
    nothing cannot pass)."""
    cmp = compare_cached_with_recalculated(original, recalculated)
    assert cmp.errors == [], cmp.errors[:5]
    assert cmp.mismatches == [], cmp.mismatches[:5]
    assert cmp.formulas > min_formulas
    print(f"{label}: {cmp.formulas} formula cells equal")
    return cmp


def named_cell(wb: openpyxl.Workbook, name: str):
    """The cell of the defined name ``name`` (its first destination)."""
    sheet, ref = next(iter(wb.defined_names[name].destinations))
    return wb[sheet][ref.replace("$", "")]


def set_name(wb: openpyxl.Workbook, name: str, value) -> None:
    """Type ``value`` into the cell of the defined name ``name`` (an openpyxl edit)."""
    named_cell(wb, name).value = value


def overlays() -> list[Path]:
    """The bundled scenario overlays (the workbook carries every one as live formulas)."""
    from costmodel.inputs.resources import scenarios_dir

    return sorted(scenarios_dir().glob("*.yaml"))


def master_check(path: Path) -> object:
    """The Cover's master check of a (recalculated) workbook: "OK" or "ERROR"."""
    row = next(r for r, v in sorted(rows_of(path, "Cover", 1).items()) if v == "Master check")
    return value(path, "Cover", row, 2)


def failing_checks(path: Path) -> list[str]:
    """The labels of the Checks sheet's rows whose status is ERROR."""
    labels = rows_of(path, "Checks", 1)
    status = rows_of(path, "Checks", 7)
    return [labels[r] for r in sorted(status) if r >= 6 and status[r] == "ERROR" and labels.get(r)]


def tier_input_cell(wb: openpyxl.Workbook, tier: str, path: str):
    """Tier ``tier``'s cell of the Inputs tier table row of the input at dotted
    ``path`` (its label, :func:`costmodel.inputs.vocabulary.input_label`)."""
    from costmodel.inputs.vocabulary import input_label

    ws = wb["Inputs"]
    header = next(r for r in ws.iter_rows() if r[0].value == "tier")
    col = next(c.column for c in header if c.value == tier)
    label = input_label(path)
    row = next(r for r in ws.iter_rows(min_row=header[0].row + 1) if r[0].value == label)
    return ws.cell(row[0].row, col)


def set_tier_input(wb: openpyxl.Workbook, tier: str, path: str, value) -> None:
    """Type ``value`` into :func:`tier_input_cell` (an openpyxl edit)."""
    tier_input_cell(wb, tier, path).value = value


def assert_comparison_equals(path: Path, summary) -> None:
    """Every cell of the Comparison sheet of ``path`` equals the summary column of
    its tier (relative 1e-9; text as text, an empty column empty)."""
    import pytest

    from costmodel.report.workbook.book import SUMMARY_COLUMNS

    for j, tier in enumerate(summary.index):
        assert value(path, "Comparison", 3, 3 + j) == tier
        for i, col in enumerate(SUMMARY_COLUMNS):
            got = value(path, "Comparison", 4 + i, 3 + j)
            want = summary.loc[tier, col]
            if isinstance(want, str):  # an empty text result is read back as None
                assert (got if got is not None else "") == want, (tier, col)
            elif want is None or isinstance(want, float) and math.isnan(want):
                assert got in (None, ""), (tier, col, got)  # an empty column (no design)
            else:
                assert got == pytest.approx(float(want), rel=1e-9, abs=1e-9), (tier, col)


#: the creation time every test workbook carries (a fixed stamp: same bytes each run)
FIXED = datetime(2026, 1, 1)


def written(folder: Path, models: dict) -> dict:
    """``{name: (model, path of its workbook)}``: each model of ``models`` (name ->
    model or assumptions) built and written to ``folder/<name>.xlsx``."""
    import costmodel as cm

    out = {}
    for name, m in models.items():
        model = m if isinstance(m, cm.Model) else cm.build(m)
        out[name] = (model, cm.write_workbook(model, folder / f"{name}.xlsx", created=FIXED))
    return out


def edited_copy(source: Path, target: Path, edits) -> Path:
    """``source`` with ``edits`` applied, saved as ``target``: a mapping of defined
    name (or ``(sheet, "C12")``) -> value, typed into the file's XML
    (:func:`tests.support.xlsxedit.patched_copy`), or a function of the openpyxl
    workbook."""
    if not callable(edits):
        return patched_copy(source, target, edits)
    wb = openpyxl.load_workbook(source)
    edits(wb)
    wb.save(target)
    return target


def live_edits(folder: Path, workbooks: dict, edits: dict, rebuild, recalculate) -> dict:
    """``{name: (the engine rebuilt, the edited workbook recalculated)}`` for each
    ``name: (case, edits, overrides)`` of ``edits``: the case's workbook (of
    ``workbooks``) edited (:func:`edited_copy`), the model rebuilt from
    ``rebuild(case, overrides)``, the copies recalculated together by
    ``recalculate`` (a list of paths -> a list of paths)."""
    import costmodel as cm

    paths, models = [], {}
    for i, (name, (case, change, overrides)) in enumerate(edits.items()):
        paths.append(edited_copy(workbooks[case][1], folder / f"edit{i}.xlsx", change))
        models[name] = cm.build(rebuild(case, overrides))
    outs = recalculate(paths)
    return {name: (models[name], out) for name, out in zip(edits, outs, strict=True)}
