"""The workbook's structure, without recalculation: sheets, formulas with cached
values, text as strings, determinism, FAST conventions."""

from __future__ import annotations

import hashlib
import re
from datetime import datetime

import openpyxl
import pandas as pd
import pytest

import costmodel as cm
from costmodel.inputs.resources import default_assumptions_dir, scenarios_dir
from tests.paths import HAND

FIXED = datetime(2026, 1, 1, 12, 0, 0)


def test_sheets_in_fast_order(default_workbook):
    model, path = default_workbook
    names = openpyxl.load_workbook(path, read_only=True).sheetnames
    assert names == ["Cover", "Inputs", *model.tiers, "IRR", "Annual", "Comparison", "Checks"]


def test_cover_names_files_fingerprint_and_check(default_workbook, default_book, default_values):
    model, path = default_workbook
    ws = default_book["Cover"]
    text = {c.value for row in ws.iter_rows() for c in row if c.value is not None}
    assert cm.fingerprint(model.assumptions) in text
    assert "=master_check" in text
    assert any(str(f).endswith("80-tiers.yaml") for f in text)
    cached = default_values["Cover"]
    assert "OK" in {c.value for row in cached.iter_rows() for c in row}


def test_pandas_sees_cached_numbers(default_workbook):
    model, path = default_workbook
    df = pd.read_excel(path, sheet_name="Comparison", header=2, index_col=0)
    s = model.summary()
    for tier in model.tiers:
        assert df.loc["NPV", tier] == pytest.approx(s.loc[tier, "npv"], rel=1e-12)
        assert df.loc["Capex", tier] == pytest.approx(s.loc[tier, "capex"], rel=1e-12)


def test_text_from_assumptions_is_never_a_formula(tmp_path):
    evil = '=HYPERLINK("http://x","y")'
    over = tmp_path / "evil.yaml"
    over.write_text(
        "tiers:\n  small:\n    label: '" + evil.replace("'", "''") + "'\n"
        "    scheduler: '=1+1'\n"
        "servers:\n  box:\n    price: {value: 1000000, source: '=SUM(A1:A9)', note: '@cmd'}\n",
        encoding="utf-8",
    )
    model = cm.build(cm.load_assumptions(HAND, over))
    path = cm.write_workbook(model, tmp_path / "m.xlsx", created=FIXED)
    wb = openpyxl.load_workbook(path)
    found = {}
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for c in row:
                if c.value in (evil, "=1+1", "=SUM(A1:A9)", "@cmd"):
                    found[c.value] = c.data_type
    assert found == {evil: "s", "=1+1": "s", "=SUM(A1:A9)": "s", "@cmd": "s"}


def test_tier_with_formula_like_name_gets_a_safe_sheet(tmp_path):
    text = HAND.read_text(encoding="utf-8").replace(
        "  small:\n", '  \'=HYPERLINK("http://x","y")\':\n'
    )
    f = tmp_path / "m.yaml"
    f.write_text(text, encoding="utf-8")
    model = cm.build(cm.load_assumptions(f))
    path = cm.write_workbook(model, tmp_path / "m.xlsx", created=FIXED)
    wb = openpyxl.load_workbook(path)
    tier = model.tiers[0]
    sheet = [
        n
        for n in wb.sheetnames
        if n not in ("Cover", "Inputs", "IRR", "Annual", "Comparison", "Checks")
    ]
    assert len(sheet) == 1 and "/" not in sheet[0]
    assert wb["Comparison"]["C3"].value == tier and wb["Comparison"]["C3"].data_type == "s"


def test_same_inputs_same_bytes(tmp_path):
    model = cm.build(cm.load_assumptions())
    a = cm.write_workbook(model, tmp_path / "a.xlsx", created=FIXED)
    b = cm.write_workbook(cm.build(cm.load_assumptions()), tmp_path / "b.xlsx", created=FIXED)
    assert hashlib.sha256(a.read_bytes()).digest() == hashlib.sha256(b.read_bytes()).digest()


def test_source_date_epoch_fixes_the_date(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # 2026-01-01 00:00 UTC
    model = cm.build(cm.load_assumptions(HAND))
    a = cm.write_workbook(model, tmp_path / "a.xlsx")
    b = cm.write_workbook(model, tmp_path / "b.xlsx")
    assert a.read_bytes() == b.read_bytes()
    assert openpyxl.load_workbook(a).properties.created.year == 2026


def test_failed_write_leaves_no_file(tmp_path, monkeypatch):
    from costmodel.report.workbook import book as workbook

    def boom(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(workbook, "_annual", boom)
    target = tmp_path / "model.xlsx"
    target.write_bytes(b"previous")
    with pytest.raises(RuntimeError):
        cm.write_workbook(cm.build(cm.load_assumptions(HAND)), target)
    assert target.read_bytes() == b"previous"
    assert [p.name for p in tmp_path.iterdir()] == ["model.xlsx"]


def test_inputs_are_blue_and_named(default_workbook, default_book):
    model, path = default_workbook
    wb = default_book
    dn = wb.defined_names
    for name in (
        "power_price_per_kwh",
        "finance_discount_rate",
        "revenue_price_per_gpu_hour",
        "master_check",
        "npv_tens",
        "irr_thousands",
    ):
        assert name in dn, name
    sheet, cell = next(iter(dn["power_price_per_kwh"].destinations))
    c = wb[sheet][cell.replace("$", "")]
    assert c.value == model.assumptions.power.price_per_kwh.value
    assert c.font.color.rgb.endswith("0000FF")


def test_build_cli_writes_the_workbook(tmp_path):
    from typer.testing import CliRunner

    from costmodel.cli import get_app

    app = get_app()
    result = CliRunner().invoke(app, ["build", str(HAND), "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "out" / "model.xlsx").exists()
    bad = CliRunner().invoke(
        app, ["build", str(HAND), "--set", "horizon_years=0", "-o", str(tmp_path / "x")]
    )
    assert bad.exit_code == 2 and not (tmp_path / "x").exists()


def test_scenarios_sheet_agrees_with_api(tmp_path):
    from typer.testing import CliRunner

    from costmodel.cli import get_app

    app = get_app()
    over = tmp_path / "dear.yaml"
    over.write_text("power: {price_per_kwh: 1.4}\n", encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(
        app, ["build", str(HAND), "-o", str(out), "--lang", "en", "-s", f"=1+1={over}"]
    )
    assert result.exit_code == 0, result.stderr
    api = cm.compare(cm.load_assumptions(HAND), {"=1+1": over}).wide
    ws = openpyxl.load_workbook(out / "model.xlsx")["Scenarios"]
    header = next(r for r in ws.iter_rows(values_only=True) if r[0] == "scenario")
    rows = {
        (r[0], r[1]): dict(zip(header, r, strict=False))
        for r in ws.iter_rows(values_only=True)
        if r[0] in ("base", "=1+1") and r[1] == "small"
    }
    assert set(rows) == {("base", "small"), ("=1+1", "small")}
    for key, row in rows.items():
        assert row["NPV"] == pytest.approx(api.loc[key, "npv"], rel=1e-12)
        assert row["Capex"] == pytest.approx(api.loc[key, "capex"], rel=1e-12)
    assert rows[("=1+1", "small")]["NPV change vs base"] == pytest.approx(
        api.loc[("=1+1", "small"), "npv"] - api.loc[("base", "small"), "npv"]
    )
    names = [c for c in ws["A"] if c.value == "=1+1"]
    assert names and all(c.data_type == "s" for c in names)
    texts = [c.value for c in ws["B"] if isinstance(c.value, str)]
    assert any("price_per_kwh: 1.4" in t for t in texts)  # the overlay's contents are shown


def test_sensitivity_and_monte_carlo_sheets_hold_the_analysis(model, analysed_workbook):
    analysis, _, wb = analysed_workbook  # 500 draws, seed 3
    assert wb.sheetnames[-5:] == ["Sensitivity", "Grid", "Sweep", "Monte Carlo", "Checks"]
    sens = wb["Sensitivity"]
    assert "values, not formulas" in sens["A2"].value
    header = next(r for r in sens.iter_rows(values_only=True) if r[0] == "Tier")
    got = {
        (r[0], r[2]): dict(zip(header, r, strict=False))
        for r in sens.iter_rows(values_only=True)
        if r[0] in model.tiers and isinstance(r[2], str)
    }
    tor = analysis.tornado
    # another tier's inputs cannot move a tier (zero swing): left out, and counted
    other = tor["input"].str.startswith("tiers.") & ~tor.apply(
        lambda r: r["input"].startswith(f"tiers.{r['tier']}."), axis=1
    )
    assert (tor.loc[other, "swing"] == 0).all() and other.sum() > 0
    assert f"{int(other.sum())} rows of another tier's inputs" in sens["A2"].value
    assert len(got) == len(tor) - other.sum()
    for _, row in tor[~other].iterrows():
        cells = got[(row["tier"], row["input"])]
        assert cells["Swing (CNY)"] == pytest.approx(row["swing"], rel=1e-12)
        assert cells["NPV at low (CNY)"] == pytest.approx(row["at_low"], rel=1e-12)
    mc = wb["Monte Carlo"]
    assert "seed 3" in mc["A1"].value and "500 draws" in mc["A1"].value
    header = next(r for r in mc.iter_rows(values_only=True) if r[0] == "Tier")
    rows = {
        r[0]: dict(zip(header, r, strict=False))
        for r in mc.iter_rows(values_only=True)
        if r[0] in model.tiers
    }
    for tier in model.tiers:
        want = analysis.monte_carlo.summary.loc[tier]
        assert rows[tier]["NPV, P50 (median) (CNY)"] == pytest.approx(want["npv_p50"], rel=1e-12)
        got_p = rows[tier]["Probability that NPV > 0 (%)"]
        assert got_p == pytest.approx(want["p_npv_positive"], abs=1e-12)
    # no snake_case header on either sheet
    for ws in (sens, mc):
        heads = [
            c.value for r in ws.iter_rows() for c in r if c.style_id and isinstance(c.value, str)
        ]
        snake = [h for h in heads if re.fullmatch(r"[a-z]+(_[a-z0-9]+)+", h)]
        assert snake == [], snake
    # engine results are values: the only formula on these sheets is the stale mark
    for ws in (sens, mc):
        formulas = [
            c.value
            for r in ws.iter_rows()
            for c in r
            if isinstance(c.value, str) and c.value.startswith("=")
        ]
        assert formulas == ["=engine_results_status"]
        assert cm.fingerprint(model.assumptions) in ws["A3"].value


def test_financed_model_is_written_with_its_money_rows(tmp_path):
    """Financing and expiring losses are live (no longer refused): the Comparison
    sheet caches the engine's equity and debt columns, the Inputs sheet names the
    financing inputs, and the Cover compares the minimum DSCR with the covenant."""
    over = tmp_path / "loan.yaml"
    over.write_text(
        "horizon_years: 3\nfinance: {loss_carryforward_years: 1}\n"
        "financing: {debt_share: 0.6, interest_rate: 0.08, term_years: 2, min_dscr_covenant: 1.2}\n",
        encoding="utf-8",
    )
    model = cm.build(cm.load_assumptions(HAND, over))
    path = cm.write_workbook(model, tmp_path / "m.xlsx", created=FIXED)
    df = pd.read_excel(path, sheet_name="Comparison", header=2, index_col=0)
    s = model.summary()
    for metric, label in (
        ("equity_npv", "Equity NPV"),
        ("equity_irr", "Equity IRR"),
        ("min_dscr", "Minimum DSCR"),
        ("debt_peak", "Peak debt"),
    ):
        assert df.loc[label, "small"] == pytest.approx(s.loc["small", metric], rel=1e-12)
    wb = openpyxl.load_workbook(path)
    for name in (
        "financing_debt_share",
        "financing_interest_rate",
        "financing_term_years",
        "financing_cost_of_equity",
        "finance_loss_carryforward_years",
    ):
        assert name in wb.defined_names
    cover = {c.value for row in wb["Cover"].iter_rows() for c in row if c.value is not None}
    assert "Minimum DSCR against the covenant" in cover


def test_model_without_financing_has_zero_debt_rows(default_workbook, default_book, default_values):
    model, path = default_workbook
    inputs = default_values["Inputs"]
    sheet, ref = next(iter(default_book.defined_names["financing_debt_share"].destinations))
    assert inputs[ref.replace("$", "")].value == 0
    df = pd.read_excel(path, sheet_name="Comparison", header=2, index_col=0)
    for tier in model.tiers:
        assert df.loc["Peak debt", tier] == 0
        assert df.loc["Equity NPV", tier] == pytest.approx(
            model.summary().loc[tier, "equity_npv"], rel=1e-12
        )


#: Annual sheet label -> Model.annual column
ANNUAL_LINES = {
    "capex": "capex",
    "revenue": "revenue",
    "opex: total": "opex",
    "depreciation": "depreciation",
    "EBIT": "ebit",
    "tax": "tax",
    "free cash flow": "fcf",
    "debt drawn": "debt_draw",
    "interest paid": "interest",
    "principal repaid": "principal",
    "balloon": "balloon",
    "levered tax": "tax_levered",
    "equity cash flow": "equity_cash_flow",
}


def test_annual_sheet_follows_capex_by_month(tmp_path):
    """Staged growth: the Annual sheet's lines (capex paid in its month, a later
    stage's in its year; year 0 = month 0) equal Model.annual year by year."""
    staged = cm.load_assumptions(
        default_assumptions_dir(),
        scenarios_dir() / "staged-growth.yaml",
        scenarios_dir() / "bank-loan.yaml",
    )
    model = cm.build(staged)
    path = cm.write_workbook(model, tmp_path / "staged.xlsx", created=FIXED)
    rows = list(openpyxl.load_workbook(path, data_only=True)["Annual"].iter_rows(values_only=True))
    seen, tier = set(), None
    for row in rows[3:]:
        if row[0] in model.tiers:
            tier = row[0]
        elif tier and row[0] in ANNUAL_LINES:
            expected = model.annual(tier)[ANNUAL_LINES[row[0]]].to_numpy()
            cached = [float(x) for x in row[2 : 2 + len(expected)]]
            assert cached == pytest.approx(list(expected), rel=1e-12, abs=1e-6), (tier, row[0])
            seen.add((tier, row[0]))
    assert len(seen) == len(model.tiers) * len(ANNUAL_LINES)
    capex = model.annual("hundreds")["capex"]
    assert capex.iloc[0] < capex.sum() and (capex.iloc[1:] > 0).sum() >= 2  # not all in year 0


def test_sensitivity_sheet_shows_each_input_in_its_own_kind(model, analysed_workbook):
    """Low and high of a share read as percentages, of the ramp (3 to 12 months) as
    plain numbers, as in `costmodel sensitivity` (kinds from the one vocabulary)."""
    sens = analysed_workbook[2]["Sensitivity"]
    rows = list(sens.iter_rows())
    header = next(i for i, r in enumerate(rows) if r[0].value == "Tier")
    col = {c.value: j for j, c in enumerate(rows[header])}
    formats = {}
    for r in rows[header + 1 :]:
        if r[0].value == model.tiers[0] and isinstance(r[2].value, str):
            formats[r[2].value] = (r[col["Low"]].number_format, r[col["Low"]].value)
    assert formats["timeline.ramp_months"] == ("#,##0.00##", 3)
    assert formats["operations.utilization"][0] == "0.00%"
    assert formats["operations.utilization"][1] == pytest.approx(0.3)
