"""The memo splits revenue into contracted and spot and sets the realized price
beside the levelized cost (methodology §11.4, §11.5), in English and Chinese.

Every figure of the sentence is checked against the engine: the contracted and
spot revenue of ``Model.revenue`` (whose sum is the summary's revenue), their
shares of it, the contract's inputs as resolved, and the summary's
``realized_price`` (revenue / GPU-hours) and ``cost_per_gpu_hour``.
"""

from __future__ import annotations

import re

import pytest

import costmodel as cm
from costmodel.report.memo import numbers as f
from costmodel.report.memo.render import render_memo

#: the contract's terms, set one key at a time (each keeps its unit, source and range,
#: so the inputs the Monte Carlo draws together stay ranged), globally and for every
#: tier (a tier may carry its own contract, e.g. the default's hundreds tier)
TERMS = {"share": 0.6, "price_per_gpu_hour": 14.0, "months": 30, "escalation": 0.03}
TIERS = cm.load_assumptions().tiers
CONTRACT = {
    **{f"revenue.contract.{k}": v for k, v in TERMS.items()},
    **{f"tiers.{t}.revenue.contract.{k}": v for t in TIERS for k, v in TERMS.items()},
    "operations.sga_share": 0.04,
}
#: every tier spot only: no GPU-hour under contract
SPOT_ONLY = {
    "revenue.contract.share": 0.0,
    **{f"tiers.{t}.revenue.contract.share": 0.0 for t in TIERS},
}


def norm(text: str) -> str:
    """Spaces of any kind as one space, non-breaking hyphens as hyphens."""
    return re.sub(r"\s+", " ", text.replace("\u2011", "-"))


def text_of(html: str) -> str:
    return norm(re.sub(r"<[^>]+>", "", html))


@pytest.fixture(scope="module")
def model() -> cm.Model:
    return cm.build(cm.load_assumptions(overrides=CONTRACT))


def expected(model: cm.Model, lang: str) -> list[str]:
    """The figures of the sentence for the tier it is about (the memo's choice)."""
    s = model.summary()
    out = []
    for t in model.tiers:
        rev = model.revenue(t)
        total = rev.revenue.sum()
        assert total == pytest.approx(s.loc[t, "revenue"], rel=1e-12)
        assert rev.contract_revenue.sum() + rev.spot_revenue.sum() == pytest.approx(total)
        out.append(
            [
                f.money(total, lang, "CNY"),
                f.money(rev.contract_revenue.sum(), lang, "CNY"),
                f.pct(rev.contract_revenue.sum() / total),
                f.money(rev.spot_revenue.sum(), lang, "CNY"),
                f.pct(rev.spot_revenue.sum() / total),
                f.price(s.loc[t, "realized_price"], lang, "CNY"),
                f.price(s.loc[t, "cost_per_gpu_hour"], lang, "CNY"),
            ]
        )
    return out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_revenue_split_sentence_carries_the_engine_figures(model, lang):
    text = text_of(render_memo(model, lang))
    marker = "is contracted take-or-pay" if lang == "en" else "为照付不议合同收入"
    assert marker in text
    sentence = text[text.index(marker) - 200 : text.index(marker) + 600]
    figures = [[norm(x) for x in row] for row in expected(model, lang)]
    assert any(all(x in sentence for x in row) for row in figures), (sentence, figures)
    for shown in (f.pct(0.6), "30", f.price(14.0, lang, "CNY"), f.pct(0.03), f.pct(0.04)):
        assert norm(shown) in sentence


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_without_a_contract_all_revenue_is_spot(lang):
    m = cm.build(cm.load_assumptions(overrides=SPOT_ONLY))
    for t in m.tiers:
        rev = m.revenue(t)
        assert rev.contract_revenue.sum() == 0
        assert rev.spot_revenue.sum() == pytest.approx(rev.revenue.sum())
    text = text_of(render_memo(m, lang))
    assert ("sold spot" if lang == "en" else "现货销售") in text
    assert ("is contracted take-or-pay" if lang == "en" else "为照付不议合同收入") not in text


#: punctuation written twice where two phrases meet (a template's own mark before a
#: phrase that brings its own)
DOUBLED = re.compile(r"，\s*，|。\s*。|、\s*、|,\s*,|(?<!\.)\.\s*\.(?!\.)")


@pytest.mark.parametrize("escalation", [0.0, 0.03])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_split_sentence_has_no_doubled_punctuation(lang, escalation):
    """A flat and a rising contract price (the two phrases of its escalation) join
    the sentence with one comma, in English and Chinese."""
    terms = {**CONTRACT, **{k: escalation for k in CONTRACT if k.endswith("escalation")}}
    text = text_of(render_memo(cm.build(cm.load_assumptions(overrides=terms)), lang))
    marker = "is contracted take-or-pay" if lang == "en" else "为照付不议合同收入"
    sentence = text[text.index(marker) - 200 : text.index(marker) + 600]
    assert not DOUBLED.search(sentence), DOUBLED.search(sentence)
    assert not DOUBLED.search(text), text[DOUBLED.search(text).start() - 80 :][:160]
