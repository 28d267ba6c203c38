"""Importing a workbook (issue 32): an investor's edits of the Inputs sheet come back
as an overlay holding exactly the changed inputs, validated like any assumption
file; plugged formulas and a workbook of other assumptions are reported.

Edits are typed at the cells the workbook names, into the Inputs sheet's XML
(:func:`edited`) or, where a test also changes other sheets, the names or the
types (a date, a text, a cleared cell), by openpyxl saving the file; the expected
overlay is written here from the edits themselves, and the model it builds is
compared with the same change given as ``--set`` overrides (the loader's own
route, independent of the importer). The recalculation by LibreOffice and
Gnumeric is in ``tests/e2e/test_workbook_import.py``.
"""

from __future__ import annotations

import math
import re
import zipfile
from datetime import datetime
from pathlib import Path

import openpyxl
import pytest
import yaml
from typer.testing import CliRunner

import costmodel as cm
from costmodel.cli import get_app
from costmodel.inputs.paths import key_path
from costmodel.inputs.resources import default_assumptions_dir, scenarios_dir
from costmodel.report.workbook.cover import CHANGES_LABEL
from costmodel.report.workbook.grid import BLUE
from costmodel.report.workbook.inputsmap import input_keys, input_name
from tests.paths import FINANCE, HAND
from tests.support.workbooks import set_name

FIXED = datetime(2026, 1, 1)
app = get_app()
runner = CliRunner()

#: the issue's three edits: the spot price, the power price, the utilization
THREE = {
    "revenue.price_per_gpu_hour": 21.5,
    "power.price_per_kwh": 0.58,
    "operations.utilization": 0.72,
}


@pytest.fixture(scope="module")
def default_book(tmp_path_factory) -> tuple[cm.Assumptions, Path]:
    a = cm.load_assumptions()
    path = tmp_path_factory.mktemp("import") / "model.xlsx"
    cm.write_workbook(cm.build(a), path, created=FIXED)
    return a, path


def edited(src: Path, dst: Path, edits: dict[str, float]) -> Path:
    """``src`` with each dotted path of ``edits`` (a number) typed into the cell
    named for it, saved at ``dst``: the Inputs sheet's XML with the value in place
    of what the cell held (a formula too), every other part of the file as it was,
    as a spreadsheet that writes back only the cells that changed."""
    with zipfile.ZipFile(src) as z:
        book = z.read("xl/workbook.xml").decode()
        sheets = re.findall(r'<sheet name="([^"]+)"', book)
        member = f"xl/worksheets/sheet{sheets.index('Inputs') + 1}.xml"
        xml = z.read(member).decode()
        for path, value in edits.items():
            name = re.escape(input_name(tuple(path.split("."))))
            ((col, row),) = re.findall(
                rf'<definedName name="{name}">Inputs!\$([A-Z]+)\$(\d+)<', book
            )
            cell = rf'<c r="{col}{row}"( s="\d+")?[^>]*?(?:/>|>.*?</c>)'
            xml, n = re.subn(cell, rf'<c r="{col}{row}"\1><v>{value!r}</v></c>', xml)
            assert n == 1, (path, n)
        with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as out:
            for item in z.infolist():
                out.writestr(item, xml if item.filename == member else z.read(item))
    return dst


def overlay_paths(node: object, prefix: str = "") -> set[str]:
    """The dotted paths of an overlay's leaves (a ``{value: ...}`` mapping is one)."""
    if isinstance(node, dict) and "value" not in node:
        out: set[str] = set()
        for k, v in node.items():
            out |= overlay_paths(v, f"{prefix}.{k}" if prefix else k)
        return out
    return {prefix}


def test_names_spell_the_dotted_path_and_read_back():
    for keys in [("power", "price_per_kwh"), ("tiers", "H800", "gpus"), ("tiers", "v1.5", "gpus"),
                 ("tiers", "万卡", "stages", "0", "month"), ("tiers", "a b", "rack_kw")]:  # fmt: skip
        name = input_name(keys)
        assert name is not None and name.startswith("input.")
        assert all(ch.isalnum() or ch in "._" for ch in name)
        assert name == name.lower()  # unique although Excel ignores case
        assert input_keys(name) == keys
    assert input_name(("power", "price_per_kwh")) == "input.power.price_per_kwh"
    assert input_keys("power_price_per_kwh") is None


@pytest.mark.parametrize("case", ["default", "staged-growth", "bank-loan"])
def test_every_blue_cell_of_inputs_is_named_for_its_path(case, tmp_path):
    """The map is complete: each input cell (blue) of the Inputs sheet carries the
    name of a dotted path that exists in the assumptions, and no two share a cell."""
    extra = [] if case == "default" else [scenarios_dir() / f"{case}.yaml"]
    a = cm.load_assumptions(default_assumptions_dir(), *extra)
    path = cm.write_workbook(cm.build(a), tmp_path / "m.xlsx", created=FIXED)
    wb = openpyxl.load_workbook(path)
    named = {}
    for name, dn in wb.defined_names.items():
        keys = input_keys(name)
        if keys is None:
            continue
        ((sheet, ref),) = dn.destinations
        assert sheet == "Inputs"
        assert ref.replace("$", "") not in named, name
        named[ref.replace("$", "")] = keys
    blue = {
        c.coordinate
        for row in wb["Inputs"].iter_rows()
        for c in row
        if c.font is not None and c.font.color is not None
        and str(c.font.color.rgb).upper().endswith(BLUE.lstrip("#").upper())
    }  # fmt: skip
    ids = set()  # the ids of the cooling types, servers, sites: structure (keys), not values
    for list_name in ("Cool_list", "Srv_list", "Site_list"):
        if list_name not in wb.defined_names:
            continue
        ((_, rng),) = wb.defined_names[list_name].destinations
        ids |= {c.coordinate for row in wb["Inputs"][rng.replace("$", "")] for c in row}
    assert blue and blue - ids <= set(named), sorted(blue - ids - set(named))[:10]
    for keys in named.values():  # every name is a path of the schema, on the model's keys
        assert keys[0] in type(a).model_fields, keys
        if keys[0] == "tiers":
            assert keys[1] in a.tiers
    if case == "staged-growth":
        assert ("tiers", "hundreds", "stages", "0", "gpus") in named.values()


def test_unchanged_workbook_imports_nothing(default_book):
    a, path = default_book
    overlay, report = cm.import_workbook(path)
    assert overlay == {}
    assert report.changes == [] and report.plugs == [] and report.warnings == []
    assert report.fingerprint_matches and report.workbook_fingerprint == cm.fingerprint(a)


def test_three_edits_are_exactly_three_paths_with_their_sources(default_book, tmp_path):
    a, path = default_book
    book = edited(path, tmp_path / "investor.xlsx", THREE)
    overlay, report = cm.import_workbook(book)
    assert overlay_paths(overlay) == set(THREE)
    assert {c.path for c in report.changes} == set(THREE)
    day = openpyxl.load_workbook(book, read_only=True).properties.modified.date().isoformat()
    for dotted, value in THREE.items():
        section, key = dotted.split(".")
        q = getattr(getattr(a, section), key)
        got = overlay[section][key]
        assert got["value"] == value
        assert got["source"] == q.source and got["unit"] == q.unit
        assert got["low"] == min(q.low, value) and got["high"] == max(q.high, value)
        change = f"changed in investor.xlsx on {day} (was {q.value:g})"
        # the input's own reasoning is kept, the change appended after " | "
        assert got["note"] == (f"{q.note} | {change}" if q.note else change)
    # the overlay layered on the base is the base with the three values set
    f = tmp_path / "overlay.yaml"
    f.write_text(yaml.safe_dump(overlay), encoding="utf-8")
    via_overlay = cm.build(cm.layer(a, f)).summary()
    via_set = cm.build(cm.with_overrides(a, THREE)).summary()
    for t in a.tiers:
        for col in ("npv", "tco", "capex", "revenue"):
            assert via_overlay.loc[t, col] == via_set.loc[t, col]


def test_finance_edits_come_back(tmp_path):
    """The held-out finance case (methodology §11.10-§11.13): a grant's share and
    lag, a voucher's taxable flag, the default rate, the refund ratio and a WACC
    input typed into the workbook come back as an overlay whose model is the
    model of the same change given as overrides."""
    a = cm.load_assumptions(FINANCE)
    path = cm.write_workbook(cm.build(a), tmp_path / "m.xlsx", created=FIXED)
    numbers = {
        "subsidies.0.share": 0.08,
        "subsidies.0.lag_months": 2,
        "revenue.contract.default_rate": 0.3,
        "vat.refund_ratio": 0.8,
        "financing.cost_of_equity": 0.1,
    }
    book = edited(path, tmp_path / "typed.xlsx", numbers)
    wb = openpyxl.load_workbook(book)
    ((sheet, ref),) = wb.defined_names[input_name(("subsidies", "2", "taxable"))].destinations
    wb[sheet][ref.replace("$", "")].value = True
    wb.save(book)
    overlay, report = cm.import_workbook(book, base=[FINANCE])
    assert {c.path for c in report.changes} == {*numbers, "subsidies.2.taxable"}
    f = tmp_path / "overlay.yaml"
    f.write_text(yaml.safe_dump(overlay), encoding="utf-8")
    subsidies = yaml.safe_load(FINANCE.read_text(encoding="utf-8"))["subsidies"]
    subsidies[0] |= {"share": 0.08, "lag_months": 2}
    subsidies[2] |= {"taxable": True}
    sets = {k: v for k, v in numbers.items() if not k.startswith("subsidies")}
    via_overlay = cm.build(cm.layer(a, f)).summary()
    via_set = cm.build(cm.with_overrides(a, {**sets, "subsidies": subsidies})).summary()
    for col in ("npv", "equity_npv", "subsidies", "contract_at_risk", "vat_paid"):
        assert via_overlay.loc["small", col] == via_set.loc["small", col]
    assert via_set.loc["small", "npv"] != cm.build(a).summary().loc["small", "npv"]


def test_cli_writes_the_overlay_and_summary_reads_it(default_book, tmp_path):
    _, path = default_book
    book = edited(path, tmp_path / "investor.xlsx", THREE)
    out = tmp_path / "investor.yaml"
    result = runner.invoke(app, ["import", str(book), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert f"wrote {out}" in result.output
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# Inputs changed in investor.xlsx")
    assert overlay_paths(yaml.safe_load(text)) == set(THREE)
    summary = runner.invoke(app, ["summary", "default", str(out), "--format", "json"])
    assert summary.exit_code == 0, summary.output


@pytest.mark.parametrize(
    "edit, path, value, rule",
    [
        ({"power.price_per_kwh": -0.1}, "power.price_per_kwh", "-0.1", "must be >= 0"),
        ({"tiers.hundreds.operations.utilization": 1.5}, "tiers.hundreds.operations.utilization",
         "1.5", "must be a fraction between 0 and 1"),
        ({"tiers.tens.gpus": 36}, "tiers.tens.gpus", "36", "multiple of 8"),
    ],
)  # fmt: skip
def test_a_value_outside_its_rule_exits_2_naming_the_cell(default_book, tmp_path, edit, path,
                                                          value, rule):  # fmt: skip
    _, src = default_book
    book = edited(src, tmp_path / "bad.xlsx", edit)
    wb = openpyxl.load_workbook(book, read_only=True)
    ((sheet, ref),) = wb.defined_names[input_name(tuple(path.split(".")))].destinations
    out = tmp_path / "bad.yaml"
    result = runner.invoke(app, ["import", str(book), "-o", str(out)])
    assert result.exit_code == 2, result.output
    message = " ".join(result.output.split())
    assert f"bad.xlsx {sheet}!{ref.replace('$', '')}" in message
    assert path in message and value in message and rule in message, message
    assert not out.exists()
    with pytest.raises(cm.AssumptionError):
        cm.import_workbook(book)


def test_a_plugged_formula_is_a_warning_not_an_input(default_book, tmp_path):
    _, src = default_book
    wb = openpyxl.load_workbook(src)
    ws = wb["tens"]
    cell = next(c for row in ws.iter_rows(min_row=20) for c in row
                if isinstance(c.value, str) and c.value.startswith("="))  # fmt: skip
    cell.value = 12345.0
    book = tmp_path / "plugged.xlsx"
    wb.save(book)
    overlay, report = cm.import_workbook(book)
    assert overlay == {}
    assert report.plugs == [f"tens!{cell.coordinate}"]
    assert any(f"tens!{cell.coordinate}" in w for w in report.warnings)
    result = runner.invoke(app, ["import", str(book)])
    assert result.exit_code == 0
    assert f"tens!{cell.coordinate}" in result.output and "warning" in result.output


def test_tier_table_stages_modes_and_tables(tmp_path):
    """A linked tier cell typed over is the tier's own value; stages, text modes,
    the depreciation table, the server catalogue, a date and a cleared optional
    input come back in the form the schema reads."""
    a = cm.load_assumptions(default_assumptions_dir(), scenarios_dir() / "staged-growth.yaml",
                            scenarios_dir() / "bank-loan.yaml")  # fmt: skip
    src = cm.write_workbook(cm.build(a), tmp_path / "m.xlsx", created=FIXED)
    edits = {
        "tiers.hundreds.operations.utilization": 0.55,  # linked to the global in the base
        "tiers.hundreds.stages.0.gpus": 128,
        "tiers.hundreds.stages.0.month": 24,
        "facility.mode": "colocation",
        "financing.rate_convention": "effective",
        "depreciation.servers.method": "sum_of_years",
        "depreciation.servers.life_years": 4,
        "servers.h800.price": 2_100_000,
        "tiers.thousands.reserve_headroom": 0,
        "tiers.tens.label": "Pilot",
        "start": datetime(2027, 3, 1),
    }
    wb = openpyxl.load_workbook(src)
    for path, value in edits.items():
        set_name(wb, input_name(tuple(path.split("."))), value)
    cleared = "financing.min_dscr_covenant"
    set_name(wb, input_name(tuple(cleared.split("."))), None)
    book = tmp_path / "edits.xlsx"
    wb.save(book)
    overlay, report = cm.import_workbook(book)
    assert {c.path for c in report.changes} == set(edits) | {cleared}
    util = next(c for c in report.changes if c.path == "tiers.hundreds.operations.utilization")
    assert util.linked and util.was == a.operations.utilization.value
    f = tmp_path / "edits.yaml"
    f.write_text(yaml.safe_dump(overlay, allow_unicode=True), encoding="utf-8")
    got = cm.layer(a, f)
    stages = [
        s.model_dump(exclude_none=True, exclude_defaults=True) for s in a.tiers["hundreds"].stages
    ]
    stages[0] |= {"gpus": 128, "month": 24}
    plain = {k: v for k, v in edits.items() if k != "start" and ".stages." not in k}
    want = cm.with_overrides(a, {**plain, "start": "2027-03", "tiers.hundreds.stages": stages,
                                 "tiers.thousands.reserve_headroom": False})  # fmt: skip
    assert got.tiers["hundreds"].operations.utilization.value == 0.55
    assert (
        got.tiers["hundreds"].stages[0].gpus == 128 and got.tiers["hundreds"].stages[0].month == 24
    )
    assert got.tiers["hundreds"].stages[0].staff_fte == a.tiers["hundreds"].stages[0].staff_fte
    assert got.start == "2027-03" and got.tiers["thousands"].reserve_headroom is False
    # blank: no covenant (methodology §8.2), which moves no NPV
    assert got.financing.min_dscr_covenant is None and got.facility.mode == "colocation"
    s_got, s_want = cm.build(got).summary(), cm.build(want).summary()
    for t in a.tiers:
        assert s_got.loc[t, "npv"] == s_want.loc[t, "npv"]
        assert s_got.loc[t, "tco"] == s_want.loc[t, "tco"]
        assert s_got.loc[t, "equity_npv"] == s_want.loc[t, "equity_npv"]


def test_other_assumptions_warn_with_both_fingerprints(tmp_path):
    high = cm.load_assumptions(default_assumptions_dir(), scenarios_dir() / "high-power-price.yaml")
    src = cm.write_workbook(cm.build(high), tmp_path / "high.xlsx", created=FIXED)
    base = cm.load_assumptions()
    overlay, report = cm.import_workbook(src, base=["default"])
    assert not report.fingerprint_matches
    warning = next(w for w in report.warnings if "fingerprint" in w)
    assert cm.fingerprint(high) in warning and cm.fingerprint(base) in warning
    assert overlay["power"]["price_per_kwh"]["value"] == high.power.price_per_kwh.value
    f = tmp_path / "o.yaml"
    f.write_text(yaml.safe_dump(overlay), encoding="utf-8")
    s_got, s_want = cm.build(cm.layer(base, f)).summary(), cm.build(high).summary()
    for t in base.tiers:
        assert math.isclose(s_got.loc[t, "npv"], s_want.loc[t, "npv"], rel_tol=1e-12)


def test_base_from_the_cover_or_given(tmp_path):
    """The Cover's bundled files are found in the package; files that are not
    here must be given with --base."""
    a = cm.load_assumptions(HAND)
    src = cm.write_workbook(cm.build(a), tmp_path / "hand.xlsx", created=FIXED)
    result = runner.invoke(app, ["import", str(src)])
    assert result.exit_code == 2 and "--base" in result.output
    overlay, report = cm.import_workbook(src, base=[HAND])
    assert overlay == {} and report.fingerprint_matches
    (tmp_path / HAND.name).write_bytes(HAND.read_bytes())  # beside the workbook: not read
    with pytest.raises(cm.AssumptionError, match="not a bundled assumption file"):
        cm.import_workbook(src)
    overlay, report = cm.import_workbook(src, base=[tmp_path / HAND.name])
    assert overlay == {} and report.fingerprint_matches


def test_a_workbook_without_names_is_read_by_position(default_book, tmp_path):
    _, src = default_book
    wb = openpyxl.load_workbook(src)
    set_name(wb, input_name(("power", "price_per_kwh")), 0.7)
    for name in [n for n in wb.defined_names if n.startswith("input.")]:
        del wb.defined_names[name]
    book = tmp_path / "e.xlsx"
    wb.save(book)
    overlay, report = cm.import_workbook(book)
    assert overlay_paths(overlay) == {"power.price_per_kwh"}
    assert any("by position" in w for w in report.warnings)


def test_cover_and_memo_name_where_the_scenario_came_from(default_book, tmp_path):
    a, src = default_book
    book = edited(src, tmp_path / "investor.xlsx", {"power.price_per_kwh": 0.5})
    overlay, _ = cm.import_workbook(book)
    f = tmp_path / "investor.yaml"
    f.write_text(yaml.safe_dump(overlay), encoding="utf-8")
    model = cm.build(cm.layer(a, f))
    note = overlay["power"]["price_per_kwh"]["note"]
    assert note.startswith(a.power.price_per_kwh.note + " | changed in investor.xlsx on ")
    assert note.endswith("(was 0.71)")
    wb = cm.write_workbook(model, tmp_path / "again.xlsx", created=FIXED)
    cover = openpyxl.load_workbook(wb, read_only=True)["Cover"]
    rows = list(cover.iter_rows(max_col=2, values_only=True))
    at = rows.index((CHANGES_LABEL, None))
    change = note.rsplit(" | ", 1)[1]  # the cover and the memo list the change alone
    assert change.startswith("changed in investor.xlsx on ")
    assert rows[at + 1] == (key_path("power", "price_per_kwh"), change)
    html = cm.write_memo(model, tmp_path / "memo.html").read_text(encoding="utf-8")
    assert 'id="changed-inputs"' in html and change in html
    plain = cm.write_memo(cm.build(a), tmp_path / "plain.html").read_text(encoding="utf-8")
    assert 'id="changed-inputs"' not in plain


def test_a_section_the_base_lacks_takes_the_values_the_workbook_used(tmp_path):
    """The hand case has no financing section: the workbook shows (and computes
    with) no debt, a term of 1 year. A debt share and a rate typed there give a
    financing section with the term the workbook used."""
    a = cm.load_assumptions(HAND)
    assert a.financing is None
    src = cm.write_workbook(cm.build(a), tmp_path / "hand.xlsx", created=FIXED)
    edits = {"financing.debt_share": 0.5, "financing.interest_rate": 0.06}
    book = edited(src, tmp_path / "loan.xlsx", edits)
    overlay, report = cm.import_workbook(book, base=[HAND])
    assert {c.path for c in report.changes} == {*edits, "financing.term_years"}
    assert overlay["financing"]["term_years"]["value"] == 1
    f = tmp_path / "loan.yaml"
    f.write_text(yaml.safe_dump(overlay), encoding="utf-8")
    got = cm.build(cm.layer(a, f)).summary()
    want = cm.build(cm.with_overrides(a, {**edits, "financing.term_years": 1})).summary()
    for t in a.tiers:
        assert got.loc[t, "equity_npv"] == want.loc[t, "equity_npv"]
        assert got.loc[t, "debt_peak"] == want.loc[t, "debt_peak"] > 0


def test_not_a_costmodel_workbook_exits_2(tmp_path):
    wb = openpyxl.Workbook()
    wb.active["A1"] = 1
    wb.save(tmp_path / "other.xlsx")
    (tmp_path / "text.xlsx").write_text("not a workbook", encoding="utf-8")
    for name in ("other.xlsx", "text.xlsx", "missing.xlsx"):
        result = runner.invoke(
            app, ["import", str(tmp_path / name), "-o", str(tmp_path / "o.yaml")]
        )
        assert result.exit_code == 2, (name, result.output)
        assert name in result.output
    assert not (tmp_path / "o.yaml").exists()


def test_a_whole_number_keeps_its_range_and_source(default_book, tmp_path):
    """A whole number with a range (methodology §11.3: the servers' life, 5 in 4..6)
    comes back in the mapping form with its range and source, the range widened to
    an edit outside it, as for any quantity."""
    a, src = default_book
    life = a.depreciation.servers.life_years
    assert (life.low, life.high) == (4, 6) and life.source
    book = edited(src, tmp_path / "life.xlsx", {"depreciation.servers.life_years": 7})
    overlay, _ = cm.import_workbook(book)
    got = overlay["depreciation"]["servers"]["life_years"]
    assert got["value"] == 7 and got["low"] == 4 and got["high"] == 7
    assert got["source"] == life.source
    assert got["note"].endswith("(was 5)")
    f = tmp_path / "life.yaml"
    f.write_text(yaml.safe_dump(overlay), encoding="utf-8")
    assert cm.layer(a, f).depreciation.servers.life_years == 7


@pytest.mark.parametrize(
    "files",
    [[], [Path("tests/hardening/corpus/apostrophe-tier.yaml")],
     [Path("tests/hardening/corpus/formula-tier-names.yaml")]],
    ids=["default", "apostrophe-tier", "formula-tier-names"],
)  # fmt: skip
def test_formula_cells_are_those_openpyxl_reads_as_formulas(files, tmp_path):
    """The plug finder's reading of a rebuilt workbook (the cells of each sheet whose
    XML holds a formula) finds, sheet by sheet and in order, the cells that openpyxl
    reading every cell finds to be formulas (its data type ``f``: a text label that
    starts with ``=`` is not one); also for tier names that XML escapes."""
    from costmodel.report.importer import formula_cells

    root = Path(__file__).resolve().parents[2]
    a = cm.load_assumptions(default_assumptions_dir(), *[root / f for f in files])
    path = cm.write_workbook(cm.build(a), tmp_path / "m.xlsx", created=FIXED)
    wb = openpyxl.load_workbook(path, read_only=True)
    expected = {
        ws.title: [c.coordinate for row in ws.iter_rows() for c in row if c.data_type == "f"]
        for ws in wb.worksheets
    }
    wb.close()
    got = formula_cells(path)
    assert got == expected
    assert sum(map(len, got.values())) > 10_000  # the tier sheets' formulas are there


def _typed_by_openpyxl(path: Path) -> dict[str, set[str]]:
    """Sheet title -> the cells openpyxl reads (every cell) as a number or a date
    that is not a formula."""
    wb = openpyxl.load_workbook(path, read_only=True)
    out = {
        ws.title: {c.coordinate for row in ws.iter_rows() for c in row
                   if c.data_type in ("n", "d") and c.value is not None}
        for ws in wb.worksheets
    }  # fmt: skip
    wb.close()
    return out


def test_typed_cells_are_those_openpyxl_reads_as_numbers(default_book, tmp_path):
    """The plug finder's reading of the edited workbook (the cells of each sheet
    whose XML holds a number or date and no formula) finds what openpyxl reading
    every cell finds: in the file this package wrote, in one openpyxl saved with
    a plug typed in, and with the cell references left out (rows and cells then
    follow the one before, as the format allows)."""
    from costmodel.report.importer import typed_cells

    _, src = default_book
    assert typed_cells(src) == _typed_by_openpyxl(src)
    wb = openpyxl.load_workbook(src)
    wb["tens"]["D40"] = 12345.0
    saved = tmp_path / "saved.xlsx"
    wb.save(saved)
    got = typed_cells(saved)
    assert got == _typed_by_openpyxl(saved) and "D40" in got["tens"]
    assert sum(map(len, got.values())) > 200
    small = openpyxl.Workbook()
    for row in ([1, "a", 2.5], [datetime(2027, 1, 1), "=A1+1", True], [3, 4, 5]):
        small.active.append(row)
    small.save(tmp_path / "small.xlsx")
    bare = tmp_path / "bare.xlsx"
    with zipfile.ZipFile(tmp_path / "small.xlsx") as z, zipfile.ZipFile(bare, "w") as out:
        for item in z.infolist():
            data = z.read(item)
            if item.filename.startswith("xl/worksheets/sheet"):
                data, n = re.subn(rb'(<(?:c|row)) r="[A-Z]*[0-9]+"', rb"\1", data)
                assert n == 12  # three rows of three cells
            out.writestr(item, data)
    assert typed_cells(bare) == {"Sheet": {"A1", "C1", "A2", "A3", "B3", "C3"}}
    assert typed_cells(bare) == _typed_by_openpyxl(tmp_path / "small.xlsx")


def test_a_number_typed_into_a_blank_site_cell_is_the_sites_own(default_book, tmp_path):
    # sites.east-t1 leaves its power price blank (it reads power.price_per_kwh, 0.71);
    # the blank cell is an input: 0.6 typed there is east-t1's own price, and every
    # tier at east-t1 pays it
    a, path = default_book
    assert a.sites["east-t1"].power is None
    book = edited(path, tmp_path / "site.xlsx", {"sites.east-t1.power.price_per_kwh": 0.6})
    overlay, report = cm.import_workbook(book)
    assert [c.path for c in report.changes] == ["sites.east-t1.power.price_per_kwh"]
    assert overlay["sites"]["east-t1"]["power"]["price_per_kwh"]["value"] == 0.6
    f = tmp_path / "overlay.yaml"
    f.write_text(yaml.safe_dump(overlay), encoding="utf-8")
    b = cm.layer(a, f)
    m, m0 = cm.build(b), cm.build(a)
    for t in a.tiers:
        new, old = m.opex(t)["electricity"].to_numpy(), m0.opex(t)["electricity"].to_numpy()
        assert new == pytest.approx(old * 0.6 / a.power.price_per_kwh.value, rel=1e-12)
