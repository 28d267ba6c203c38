"""The memo's residual-value and VAT-refund sentences follow the assumptions: an
income residual is said to be one, with each tier's value (the sum of the engine's
per-deployment residual table); a monthly refund is stated with the conditions of
MOF/STA 2025 No. 7, and not when refunds are annual."""

from __future__ import annotations

import pytest

import costmodel as cm
from costmodel.analysis.bundle import analyze
from costmodel.report.memo import numbers as f
from costmodel.report.memo.render import render_memo
from tests.report.test_memo_decision import plain, text_of


def pages(overrides=None):
    m = cm.build(cm.load_assumptions(overrides=overrides or {}))
    an = analyze(m, draws=0)
    return m, {lang: text_of(render_memo(m, lang, analysis=an)) for lang in ("en", "zh")}


@pytest.fixture(scope="module")
def default():
    return pages()


def test_income_residual_is_said_with_each_tiers_value():
    m, text = pages({"terminal_value": "income"})
    assert m.assumptions.terminal_value == "income"
    assert "the hardware is valued at what it still earns" in text["en"]
    assert "收益法残值" in text["zh"]
    for t in m.tiers:
        value = float(m.residual(t)["value"].sum())
        assert value == pytest.approx(float(m.results[t].metrics["terminal_value"][0]), rel=1e-9)
        label = m.assumptions.tiers[t].label
        assert f"{label} {plain(f.money(value, 'en'))} against a book value" in text["en"]


def test_market_residual_keeps_its_own_sentence():
    _, text = pages({"terminal_value": "market"})
    assert "valued at its market price" in text["en"]
    assert "what it still earns" not in text["en"]


def test_monthly_refund_states_its_conditions(default):
    m, text = default
    assert m.assumptions.vat.refund == "monthly"
    assert "a tax credit rating of A or B" in text["en"]
    assert "claims its first refund about 16 months after it starts" in text["en"]
    assert "纳税信用等级为 A 级或 B 级" in text["zh"]
    _, annual = pages({"vat.refund": "annual"})
    assert "a tax credit rating of A or B" not in annual["en"]
