"""The memo's paragraph on the discount rate, contract default and subsidies
(methodology §11.10, §11.12, §11.13): each sentence is chosen and filled by the
model's numbers, in English and Chinese."""

from __future__ import annotations

import re

import pytest

import costmodel as cm
from costmodel.report.memo import numbers as f
from costmodel.report.memo.render import render_memo
from tests.paths import HAND

FINANCE = {
    "finance.discount_rate": "wacc",
    "financing": {
        "debt_share": 0.6,
        "interest_rate": 0.05,
        "term_years": 1,
        "cost_of_equity": 0.12,
    },
    "revenue.contract": {
        "share": 0.5,
        "price_per_gpu_hour": 150,
        "months": 12,
        "default_rate": 0.2,
    },
    "subsidies": [{"kind": "capex_grant", "share": 0.15, "classes": ["servers"], "lag_months": 3}],
}


def _section(html: str) -> str:
    body = html[
        html.index('<section id="terms">') : html.index(
            "</section>", html.index('<section id="terms">')
        )
    ]
    return re.sub(r"[ \t\n]+", " ", re.sub(r"<[^>]+>", "", body))


@pytest.fixture(scope="module")
def model() -> cm.Model:
    return cm.build(cm.load_assumptions(HAND, overrides=FINANCE))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_sentences_carry_the_numbers(model, lang):
    text = _section(render_memo(model, lang))
    s = model.summary().loc["small"]
    rate = model.discount_rate()
    assert rate == pytest.approx(0.0705) and f.pct(rate) in text  # 0.6 x 5% x 0.75 + 0.4 x 12%
    assert f.pct(0.05 * 0.75) in text  # the loan's after-tax cost, 3.8%
    money = lambda v: f.money(v, lang, "CNY")  # noqa: E731
    assert money(s["contract_at_risk"]) in text and money(s["subsidies"]) in text
    cf = model.cash_flow("small")
    assert money(float((cf.subsidies * cf.discount_factor).sum())) in text
    if lang == "zh":
        assert "加权平均资本成本" in text and "合同违约率" in text and "补贴收入" in text
    else:
        assert "weighted average cost of capital" in text and "counterparty default" in text


def test_a_given_rate_says_so_and_no_tier_sentence_without_default_or_subsidies():
    m = cm.build(cm.load_assumptions(HAND, overrides={"finance.discount_rate": 0.09}))
    text = _section(render_memo(m, "en"))
    assert "discounted at 9.0% a year, the rate the assumptions give" in text
    assert "default rate" not in text and "subsidies bring" not in text
