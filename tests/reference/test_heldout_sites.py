"""Held-out checks of sites, quotes rolled to the start, lead times, the income
residual and chip access (methodology sections 15-17): every column the independent
implementation computes (tests/reference/sitemodel.py) equals the engine's, through
the API and through the command line's JSON, to 1e-7 relative."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

import costmodel as cm
from costmodel.cli import get_app
from tests.paths import DATA
from tests.reference.sitemodel import tier_row

FILES = [DATA / "hand.yaml", DATA / "heldout-sites.yaml"]

CASES = {
    "two sites, a grid connection, quotes, a lead time": {},
    "build mode at book": {"terminal_value": "book"},
    "income residual": {"terminal_value": "income"},
    "market residual": {"terminal_value": "market"},
    "colocation": {"facility.mode": "colocation", "sites.west.grid_mw": 1.0},
    "domestic only": {"policy.domestic_only": True, "terminal_value": "income"},
    "a tier's own power price": {"tiers.small.power.price_per_kwh": 0.5},
    "no lead": {"servers.node.lead_months": 0, "tiers.large.site": "east"},
}


def close(got, want) -> bool:
    if isinstance(want, bool | str):
        return got == want
    if isinstance(want, float) and math.isnan(want):
        return got is None or (isinstance(got, float) and math.isnan(got))
    return got == pytest.approx(want, rel=1e-7, abs=1e-6)


@pytest.mark.parametrize("overrides", CASES.values(), ids=list(CASES))
def test_every_column_equals_the_independent_implementation(overrides):
    a = cm.load_assumptions(*FILES, overrides=overrides)
    rows = cm.build(a).summary_rows()
    for tier in a.tiers:
        want = tier_row(a, tier)
        bad = {k: (rows[tier][k], v) for k, v in want.items() if not close(rows[tier][k], v)}
        assert not bad, f"{tier}: {bad}"


def test_the_cases_use_what_they_check():
    a = cm.load_assumptions(*FILES)
    s = cm.build(a).summary()
    # the west tier exceeds its site's 0.2 MW and waits for the connection (2 + 4 months),
    # then for its supernode (9 months)
    assert s.loc["large", "facility_mw"] > 0.2 and s.loc["large", "racks"] == 16
    assert s.loc["large", "site"] == "west" and s.loc["small", "site"] == "east"
    held = cm.build(cm.load_assumptions(*FILES, overrides=CASES["domestic only"])).summary()
    assert list(held["feasible"]) == [False, True]


@pytest.mark.parametrize("name", ["income residual", "domestic only"])
def test_the_command_lines_json_carries_the_same_columns(name):
    sets = [f"--set={k}={json.dumps(v)}" for k, v in CASES[name].items()]
    res = CliRunner().invoke(get_app(), ["summary", *map(str, FILES), *sets, "--format", "json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    a = cm.load_assumptions(*FILES, overrides=CASES[name])
    rows = doc.get("tiers", doc)
    for tier in a.tiers:
        want = tier_row(a, tier)
        got = rows[tier]
        bad = {k: (got[k], v) for k, v in want.items() if not close(got[k], v)}
        assert not bad, f"{tier}: {bad}"
