"""Two independent spreadsheet engines recalculate the workbook to the engine's numbers.

LibreOffice Calc and Gnumeric each open the workbook, recalculate every formula and
save it; every formula cell must equal the cached value that costmodel wrote (the
engine's number, relative 1e-9), with no error value anywhere. Cases: the bundled
default, a one-SKU catalogue (a single-cell range breaks INDEX in Gnumeric: the
writer must not produce one), and a model with every depreciation method,
losses carried forward and colocation. Excel is not available here; two engines
that agree cell by cell are the best proxy for "opens cleanly in Excel".
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

import costmodel as cm
from costmodel.inputs.resources import default_assumptions_dir
from tests.paths import HAND
from tests.support.workbooks import assert_recalculation_equals_cache, written

pytestmark = pytest.mark.slow


def one_sku_default(tmp: Path) -> cm.Assumptions:
    """The bundled default with a catalogue of one server (the first tier's), used
    by every tier."""
    default = cm.load_assumptions()
    sku = default.tiers[next(iter(default.tiers))].server
    d = tmp / "one-sku"
    shutil.copytree(default_assumptions_dir(), d)
    f = d / "10-servers.yaml"
    data = yaml.safe_load(f.read_text(encoding="utf-8"))
    data["servers"] = {sku: data["servers"][sku]}
    f.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    a = cm.load_assumptions(d, overrides={f"tiers.{t}.server": sku for t in default.tiers})
    assert list(a.servers) == [sku]
    return a


CASES = {
    "default": lambda tmp: cm.load_assumptions(),
    "one-sku-default": one_sku_default,
    "one-sku-hand": lambda tmp: cm.load_assumptions(HAND),
    "hand-methods-colocation": lambda tmp: cm.load_assumptions(
        HAND,
        overrides={
            "depreciation.servers.method": "double_declining",
            "depreciation.network.method": "sum_of_years",
            "depreciation.network.life_years": 3,
            "facility.mode": "colocation",
            "revenue.price_per_gpu_hour": 40,
            "terminal_value": "none",
        },
    ),
}


@pytest.fixture(scope="module")
def workbooks(tmp_path_factory) -> dict[str, tuple[cm.Model, Path]]:
    """name -> (model, its workbook); ``by_libreoffice`` and ``by_gnumeric``
    (tests/e2e/conftest.py) recalculate them."""
    d = tmp_path_factory.mktemp("engines")
    return written(d, {name: make(d) for name, make in CASES.items()})


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("engine", ["libreoffice", "gnumeric"])
def test_engine_reproduces_every_cached_value(request, workbooks, case, engine):
    recalculated = request.getfixturevalue(f"by_{engine}")[case]
    assert_recalculation_equals_cache(workbooks[case][1], recalculated, 1500, f"{engine} {case}")


def test_gnumeric_harness_really_recalculates(ssconvert, recalc, tmp_path):
    import openpyxl
    import xlsxwriter

    src = tmp_path / "stale.xlsx"
    wb = xlsxwriter.Workbook(str(src))
    ws = wb.add_worksheet()
    ws.write_number("A1", 2)
    ws.write_formula("A2", "=A1*21", None, 999)  # stale cached value
    wb.close()
    (out,) = recalc.gnumeric([src])
    assert openpyxl.load_workbook(out, data_only=True).active["A2"].value == 42
