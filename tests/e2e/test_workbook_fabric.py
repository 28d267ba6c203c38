"""The workbook's fabric block (methodology §12.1) and staff_scaling (§12.2):
LibreOffice and Gnumeric recalculate the fabric-design overlay's workbook to the
engine's cached values; an edit of a designed tier's GPUs in Inputs recalculates to
the engine rebuilt with those GPUs (the fabric grows a level); a GPU count beyond
three levels fails the workbook's check. The hundreds tier's fabric is rail-optimised
(methodology §28.4): 16 servers of 8 GPUs are 8 leaves and 4 spines."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

import costmodel as cm
from costmodel.inputs.resources import default_assumptions_dir, scenarios_dir
from tests.support.workbooks import (
    assert_comparison_equals,
    assert_recalculation_equals_cache,
    set_name,
    written,
)
from tests.support.workbooks import master_check as master

pytestmark = pytest.mark.slow

OVERLAY = scenarios_dir() / "fabric-design.yaml"


RAIL = {"tiers.hundreds.network.design.rail_optimized": True}


def case(overrides: dict | None = None) -> cm.Assumptions:
    return cm.load_assumptions(
        default_assumptions_dir(), OVERLAY, overrides={**RAIL, **(overrides or {})}
    )


#: an edit of the GPUs -> the engine's fabric levels before and after; 768 GPUs are
#: 24 leaves whose 32 uplinks split evenly over 16 spines (not ceil(768 / 64) = 12)
EDITS = {
    "gpus 3072": ("input.tiers.thousands.gpus", 3072, {"tiers.thousands.gpus": 3072}),
    "gpus 768": ("input.tiers.thousands.gpus", 768, {"tiers.thousands.gpus": 768}),
}
#: the fault: more GPUs than three levels of radix 8 hold (8^3 / 4 = 128)
FAULT = ("input.tiers.thousands.network.design.switch_radix", 8)


@pytest.fixture(scope="module")
def workbooks(tmp_path_factory) -> dict[str, tuple[cm.Model, Path]]:
    return written(tmp_path_factory.mktemp("fabric"), {"fabric": case()})


def test_the_case_has_designed_fabrics_and_scaled_staff(workbooks):
    s = workbooks["fabric"][0].summary()
    assert s.loc["thousands", "network_levels"] == 2  # 1,024 GPUs at radix 64
    assert s.loc["hundreds", "network_levels"] == 2
    wb = openpyxl.load_workbook(workbooks["fabric"][1])
    labels = [r[0].value for r in wb["thousands"].iter_rows(max_col=1)]
    assert any(str(v).startswith("deployment 0: fabric: transceivers") for v in labels)
    hundreds = workbooks["fabric"][0].results["hundreds"].deployments[0]
    # 16 servers, 8 rails, k/2 = 32: 8 leaves, U1 = 8 x 32 = 256, 256 / 64 = 4 spines
    assert (float(hundreds["fabric_leaves"][0]), float(hundreds["fabric_spines"][0])) == (8, 4)


@pytest.mark.parametrize("engine", ["libreoffice", "gnumeric"])
def test_engine_reproduces_every_cached_value(request, workbooks, engine):
    recalculated = request.getfixturevalue(f"by_{engine}")["fabric"]
    assert_recalculation_equals_cache(workbooks["fabric"][1], recalculated, 20000, engine)


def test_comparison_and_master_check(by_libreoffice, workbooks):
    assert_comparison_equals(by_libreoffice["fabric"], workbooks["fabric"][0].summary())
    assert master(by_libreoffice["fabric"]) == "OK"


@pytest.fixture(scope="module")
def edited(workbooks, recalc, soffice, ssconvert, tmp_path_factory):
    d = tmp_path_factory.mktemp("fabric-edits")
    paths, models = [], {}
    for name, (defined, value, override) in EDITS.items():
        wb = openpyxl.load_workbook(workbooks["fabric"][1])
        set_name(wb, defined, value)
        paths.append(d / f"{name.replace(' ', '-')}.xlsx")
        wb.save(paths[-1])
        models[name] = cm.build(case(override))
    wb = openpyxl.load_workbook(workbooks["fabric"][1])
    set_name(wb, *FAULT)
    paths.append(d / "fault.xlsx")
    wb.save(paths[-1])
    lo, gn = recalc.libreoffice(paths), recalc.gnumeric(paths[:-1])
    return models, lo, gn


def test_an_edit_of_gpus_recalculates_to_the_engine_rebuilt(edited, workbooks):
    models, lo, gn = edited
    model = models["gpus 3072"]
    s = model.summary()
    assert s.loc["thousands", "network_levels"] == 3  # 3,072 > 64^2 / 2
    before = workbooks["fabric"][0].summary()
    assert s.loc["thousands", "capex_network"] > before.loc["thousands", "capex_network"]
    for path in (lo[0], gn[0]):
        assert_comparison_equals(path, s)
    assert master(lo[0]) == "OK"


def test_an_edit_to_24_leaves_recalculates_to_16_spines(edited):
    models, lo, gn = edited
    s = models["gpus 768"].summary()
    # 24 leaves + 16 spines at 250,000; 2 x (768 + 768) optics at 6,000; 96 x 30,000
    assert s.loc["thousands", "capex_network"] == pytest.approx(
        40 * 250_000 + 3072 * 6_000 + 96 * 30_000, rel=1e-12
    )
    for path in (lo[1], gn[1]):
        assert_comparison_equals(path, s)
        spines = openpyxl.load_workbook(path, data_only=True)["thousands"]
        labels = {r[0].value: r for r in spines.iter_rows()}
        row = labels[
            "deployment 0: fabric: spines = smallest divisor of a leaf's uplinks >= U1/k (2 levels)"
        ]
        assert 16 in [c.value for c in row]


def test_a_fabric_beyond_three_levels_fails_the_check(edited):
    _, lo, _ = edited
    assert master(lo[-1]) != "OK"
