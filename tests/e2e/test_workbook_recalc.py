"""The workbook is a live model: LibreOffice recalculates it to the engine's numbers.

LibreOffice runs headless with a profile that recalculates on load; the first
test proves that it really recalculates (a deliberately wrong cached value is
replaced by the formula's result).
"""

from __future__ import annotations

import math
from datetime import datetime
from pathlib import Path

import openpyxl
import pytest
import xlsxwriter

import costmodel as cm
from costmodel.inputs.resources import default_assumptions_dir, scenarios_dir
from tests.paths import HAND
from tests.support.workbooks import (
    assert_comparison_equals,
    compare_cached_with_recalculated,
    overlays,
    read,
    set_name,
)

pytestmark = pytest.mark.slow

FIXED = datetime(2026, 1, 1)

CASES = {
    "default": lambda: cm.load_assumptions(),
    **{
        f"overlay-{p.stem}": (lambda p=p: cm.load_assumptions(default_assumptions_dir(), p))
        for p in overlays()
    },
    # every depreciation method, losses carried forward, colocation, no terminal value
    "hand-variants": lambda: cm.load_assumptions(
        HAND,
        overrides={
            "horizon_years": 4,
            "depreciation.servers.method": "double_declining",
            "depreciation.servers.life_years": 3,
            "depreciation.network.method": "sum_of_years",
            "depreciation.network.life_years": 3,
            "depreciation.facility.method": "double_declining",
            "revenue.price_per_gpu_hour": 40,
            "revenue.price_decline": 0.1,
            "power.escalation": 0.03,
            "operations.staff_escalation": 0.04,
            "finance.discount_rate": 0.09,
            "terminal_value": "none",
        },
    ),
    # value GPU-hours at the avoided cloud price (build versus rent)
    "hand-cloud": lambda: cm.load_assumptions(
        HAND,
        overrides={
            "servers.box.cloud_on_demand_per_gpu_hour": 120,
            "servers.box.cloud_reserved_per_gpu_hour": 80,
            "revenue.mode": "avoided_cloud",
            "revenue.cloud_term": "reserved",
        },
    ),
    # the default's contracts valued at the cloud price too (methodology §11.5)
    "default-cloud": lambda: cm.load_assumptions(overrides={"revenue.mode": "avoided_cloud"}),
    "hand-colocation": lambda: cm.load_assumptions(
        HAND,
        overrides={
            "facility.mode": "colocation",
            "horizon_years": 2,
            "reliability.node_failures_per_day": 0,
        },
    ),
}


@pytest.fixture(scope="module")
def recalculated(soffice, recalc, tmp_path_factory) -> dict[str, tuple[cm.Model, Path, Path]]:
    d = tmp_path_factory.mktemp("recalc")
    models = {name: cm.build(make()) for name, make in CASES.items()}
    # the default's workbook also carries the engine-result sheets (scenarios, sensitivity,
    # Monte Carlo): they must not break the recalculation either
    colo = scenarios_dir() / "greenfield.yaml"
    analyses = {
        "default": cm.analyze(models["default"], draws=300, seed=1, scenarios={"colo": colo})
    }
    paths = [
        cm.write_workbook(m, d / f"{name}.xlsx", created=FIXED, analysis=analyses.get(name))
        for name, m in models.items()
    ]
    outs = recalc.libreoffice(paths)
    return {name: (models[name], p, o) for name, p, o in zip(models, paths, outs, strict=True)}


def test_harness_really_recalculates(soffice, recalc, tmp_path):
    src = tmp_path / "stale.xlsx"
    wb = xlsxwriter.Workbook(str(src))
    ws = wb.add_worksheet()
    ws.write_number("A1", 2)
    ws.write_formula("A2", "=A1*21", None, 999)  # stale cached value
    wb.close()
    (out,) = recalc.libreoffice([src])
    assert openpyxl.load_workbook(src, data_only=True).active["A2"].value == 999
    assert openpyxl.load_workbook(out, data_only=True).active["A2"].value == 42


@pytest.mark.parametrize("case", list(CASES))
def test_recalculation_reproduces_cached_values(recalculated, case):
    model, original, out = recalculated[case]
    cmp = compare_cached_with_recalculated(original, out)
    assert cmp.errors == []
    assert cmp.mismatches == []
    assert cmp.formulas > 1000


@pytest.mark.parametrize("case", list(CASES))
def test_comparison_sheet_equals_summary(recalculated, case):
    model, _, out = recalculated[case]
    assert_comparison_equals(out, model.summary())
    ws = read(out, data_only=True)["Cover"]
    assert "OK" in {c.value for row in ws.iter_rows() for c in row}


LIVE_CHANGES = [
    # (what the test changes in the workbook, the same change as an assumption override)
    ("power_price_per_kwh", 0.95, {"power.price_per_kwh": 0.95}),
    ("revenue_price_per_gpu_hour", 24.0, {"revenue.price_per_gpu_hour": 24.0}),
    (("hundreds", "gpus"), 256, {"tiers.hundreds.gpus": 256}),
]


def test_live_model_follows_changed_inputs(soffice, recalc, tmp_path):
    base = cm.load_assumptions()
    path = cm.write_workbook(cm.build(base), tmp_path / "live.xlsx", created=FIXED)
    wb = openpyxl.load_workbook(path)
    inputs = wb["Inputs"]
    overrides = {}
    for target, value, override in LIVE_CHANGES:
        if isinstance(target, str):
            sheet, ref = next(iter(wb.defined_names[target].destinations))
            wb[sheet][ref.replace("$", "")].value = value
        else:
            tier, label = target
            header = next(r for r in inputs.iter_rows() if r[0].value == "tier")
            col = next(c.column for c in header if c.value == tier)
            row = next(r[0].row for r in inputs.iter_rows() if r[0].value == "GPUs")
            inputs.cell(row, col).value = value
        overrides.update(override)
    changed = tmp_path / "changed.xlsx"
    wb.save(changed)
    (out,) = recalc.libreoffice([changed])
    expected = cm.build(cm.load_assumptions(overrides=overrides)).summary()
    assert expected.loc["hundreds", "gpus"] == 256
    assert not math.isclose(
        expected.loc["thousands", "npv"], cm.build(base).summary().loc["thousands", "npv"]
    )
    assert_comparison_equals(out, expected)


def test_typed_avoided_cloud_values_contracted_hours_at_the_cloud_price(
    soffice, ssconvert, recalc, tmp_path
):
    """The default's workbook with its revenue mode typed to avoided_cloud: the
    contract price rows switch to the cloud price times the spot index
    (methodology §11.5), and both spreadsheet engines give the engine's numbers of
    that mode, which differ from the rental figures."""
    base = cm.load_assumptions()
    path = cm.write_workbook(cm.build(base), tmp_path / "rental.xlsx", created=FIXED)
    wb = openpyxl.load_workbook(path)
    set_name(wb, "revenue_mode", "avoided_cloud")
    changed = tmp_path / "avoided.xlsx"
    wb.save(changed)
    expected = cm.build(cm.load_assumptions(overrides={"revenue.mode": "avoided_cloud"})).summary()
    assert not math.isclose(
        expected.loc["thousands", "npv"], cm.build(base).summary().loc["thousands", "npv"]
    )
    for out in (*recalc.libreoffice([changed]), *recalc.gnumeric([changed])):
        assert_comparison_equals(out, expected)


def test_checks_sheet_can_fail(soffice, recalc, tmp_path):
    """The master check is not a constant: a rack power above the cooling's limit,
    typed into the Inputs sheet, turns it to ERROR after recalculation."""
    path = cm.write_workbook(cm.build(cm.load_assumptions()), tmp_path / "m.xlsx", created=FIXED)
    wb = openpyxl.load_workbook(path)
    inputs = wb["Inputs"]
    header = next(r for r in inputs.iter_rows() if r[0].value == "tier")
    col = next(c.column for c in header if c.value == "tens")
    row = next(r[0].row for r in inputs.iter_rows() if r[0].value == "Power per rack (kW)")
    inputs.cell(row, col).value = 60  # air cooling allows 30 kW
    changed = tmp_path / "broken.xlsx"
    wb.save(changed)
    (out,) = recalc.libreoffice([changed])
    cover = read(out, data_only=True)["Cover"]
    values = {c.value for r in cover.iter_rows() for c in r}
    assert "ERROR" in values and "OK" not in values
