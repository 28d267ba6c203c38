"""Held-out checks of contract default, subsidies, monthly VAT refunds with a ratio
and the discount rate a loan implies (methodology §11.10-§11.13): every summary
column of tests/data/finance.yaml, and of variants of it, equals the independent
month-by-month implementation (tests/reference/financemodel.py) through the API and
through the command line's JSON, to 1e-7 relative."""

from __future__ import annotations

import json
import math

import pytest
import yaml
from typer.testing import CliRunner

import costmodel as cm
from costmodel.cli import get_app
from costmodel.core.result import SUMMARY_COLUMNS
from tests.paths import FINANCE
from tests.reference.financemodel import tier_row

SUBSIDIES = yaml.safe_load(FINANCE.read_text(encoding="utf-8"))["subsidies"]
#: columns the case leaves empty: no designed fabric, no storage design, no design
EMPTY = {"network_levels", "storage_nodes", "design"}

CASES = {
    "as written": {},
    "a default rate of 0.5": {"revenue.contract.default_rate": 0.5},
    "no default": {"revenue.contract.default_rate": 0.0},
    "the whole credit refunded": {"vat.refund_ratio": 1.0},
    "a grant without cap, one paid after M": {
        "subsidies": [
            {**SUBSIDIES[0], "cap": None, "lag_months": 0},
            {**SUBSIDIES[0], "lag_months": 40},
            *SUBSIDIES[1:],
        ]
    },
    "every subsidy taxable, a longer loan": {
        "subsidies": [{**s, "taxable": True} for s in SUBSIDIES],
        "financing.term_years": 5,
    },
}


def close(got, want) -> bool:
    if isinstance(want, bool | str):
        return got == want
    if isinstance(want, float) and math.isnan(want):
        return got is None or (isinstance(got, float) and math.isnan(got))
    return got == pytest.approx(want, rel=1e-7, abs=1e-6)


def assert_row(got: dict, want: dict, tier: str) -> None:
    assert set(want) | EMPTY == set(SUMMARY_COLUMNS)
    bad = {k: (got[k], v) for k, v in want.items() if not close(got[k], v)}
    assert not bad, f"{tier}: {bad}"
    for k in EMPTY:
        assert got[k] is None or (isinstance(got[k], float) and math.isnan(got[k])), k


@pytest.mark.parametrize("overrides", CASES.values(), ids=list(CASES))
def test_every_column_equals_the_independent_implementation(overrides):
    a = cm.load_assumptions(FINANCE, overrides=overrides)
    rows = cm.build(a).summary_rows()
    for tier in a.tiers:
        assert_row(rows[tier], tier_row(a, tier), tier)


def test_the_case_uses_what_it_checks():
    """The contract defaults, every subsidy pays, the grant's cap binds, refunds are
    monthly at 0.95, and the rate is the loan's WACC."""
    a = cm.load_assumptions(FINANCE)
    s = cm.build(a).summary().loc["small"]
    assert s["contract_at_risk"] > 0 and s["subsidies"] > 300_000
    assert SUBSIDIES[0]["cap"] < 0.15 * 2_525_000
    assert a.vat.refund_ratio.value == 0.95 and a.finance.discount_rate == "wacc"
    assert s["discount_rate"] == pytest.approx(0.4 * 0.05 * 0.75 + 0.6 * 0.12, rel=1e-12)
    assert s["debt_peak"] > 0


@pytest.mark.parametrize("name", ["as written", "a default rate of 0.5"])
def test_the_command_lines_json_carries_the_same_columns(name):
    sets = [f"--set={k}={json.dumps(v)}" for k, v in CASES[name].items()]
    res = CliRunner().invoke(get_app(), ["summary", str(FINANCE), *sets, "--format", "json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    a = cm.load_assumptions(FINANCE, overrides=CASES[name])
    rows = doc.get("tiers", doc)
    for tier in a.tiers:
        assert_row(rows[tier], tier_row(a, tier), tier)
