"""The held-out cases of sites, quotes, lead times, the income residual and chip
access (tests/data/heldout-sites.yaml, methodology §29, §30, §33) as workbooks:
LibreOffice and Gnumeric recalculate each to the engine (a build-mode tier at a site
whose grid it exceeds, a price factor, quotes with as_of, a rack-scale SKU with a
lead time; the same under domestic_only with the income residual; a supernode of
16 racks and 48 fabric endpoints a unit on the default's rail-optimised fabric)."""

from __future__ import annotations

import pytest

import costmodel as cm
from tests.e2e.test_workbook_recalc import assert_comparison_equals
from tests.paths import DATA
from tests.support.workbooks import assert_recalculation_equals_cache, written

pytestmark = pytest.mark.slow

FILES = [DATA / "hand.yaml", DATA / "heldout-sites.yaml"]
#: a 384-chip supernode of 16 racks with its own fabric of 48 endpoints a unit, in the
#: default's thousands tier (768 GPUs) on its design's rail-optimised fabric
NODE = {
    "label": "384-chip supernode",
    "origin": "domestic",
    "gpus_per_server": 384,
    "racks_per_unit": 16,
    "fabric_endpoints_per_unit": 48,
    "price": 40_000_000,
    "price_decline": 0.15,
    "power_kw": 300,
    "idle_fraction": 0.4,
    "gpu_memory_gb": 128,
    "tflops_bf16": 800,
}
SUPERNODE = {
    "servers.node": NODE,
    "tiers.thousands.server": "node",
    "tiers.thousands.gpus": 768,
}
CASES = {
    "heldout": (FILES, {}),
    "domestic": (FILES, {"policy.domestic_only": True, "terminal_value": "income"}),
    "supernode": (["default"], SUPERNODE),
}


@pytest.fixture(scope="module")
def workbooks(tmp_path_factory):
    d = tmp_path_factory.mktemp("heldout")
    return written(
        d, {name: cm.load_assumptions(*files, overrides=o) for name, (files, o) in CASES.items()}
    )


def test_the_cases_use_what_they_check(workbooks):
    s = workbooks["domestic"][0].summary()
    assert list(s["feasible"]) == [False, True] and list(s["site"]) == ["east", "west"]
    assert s.loc["large", "racks"] == 16  # one 384-chip unit spanning 16 racks
    node = workbooks["supernode"][0].summary().loc["thousands"]
    assert node["racks"] == 2 * 16 and node["network_levels"] == 2  # 96 endpoints


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("engine", ["libreoffice", "gnumeric"])
def test_the_heldout_workbooks_recalculate_to_the_engine(request, workbooks, engine, case):
    model, path = workbooks[case]
    recalculated = request.getfixturevalue(f"by_{engine}")[case]
    assert_recalculation_equals_cache(path, recalculated, 10000, f"{engine} {case}")
    assert_comparison_equals(recalculated, model.summary())
