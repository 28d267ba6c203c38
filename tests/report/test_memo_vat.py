"""The memo's VAT paragraph (methodology §24): present only with a ``vat`` section, in
English and Chinese, its figures those of ``Model.vat`` and the summary."""

from __future__ import annotations

import re

import pytest
import yaml

import costmodel as cm
from costmodel.report.memo import numbers as f
from costmodel.report.memo.financing_section import month_text
from costmodel.report.memo.render import render_memo
from tests.paths import HAND

VAT = {"output_rate": 0.06, "input_rates": {"servers": 0.13, "facility": 0.09},
       "surtax_rate": 0.12}  # fmt: skip


def _model(tmp_path, vat: dict | None, years: int = 3, price: float = 20) -> cm.Model:
    overlay = {"horizon_years": years, "revenue": {"price_per_gpu_hour": price}}
    if vat is not None:
        overlay["vat"] = vat
    path = tmp_path / f"o{len(list(tmp_path.iterdir()))}.yaml"
    path.write_text(yaml.safe_dump(overlay))
    return cm.build(cm.load_assumptions(HAND, path))


def _section(html: str) -> str:
    start = html.index('<section id="vat">')
    return re.sub(
        r"\s+", " ", re.sub(r"<[^>]+>", "", html[start : html.index("</section>", start)])
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_vat_section_without_vat(tmp_path, lang):
    html = render_memo(
        _model(tmp_path, None), lang, analysis=cm.analyze(_model(tmp_path, None), draws=0)
    )
    assert 'id="vat"' not in html


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_refunds_peak_paid_and_surtax(tmp_path, lang):
    model = _model(tmp_path, {**VAT, "refund_credit": True})
    v, s = model.vat("small"), model.summary().loc["small"]
    text = _section(render_memo(model, lang, analysis=cm.analyze(model, draws=0)))
    cur = model.assumptions.currency
    peak_month = v.period.iloc[int(v.credit_before_refund.to_numpy().argmax())]
    first = v[v.refund > 0].iloc[0]
    for figure in (f.money(s.vat_credit_peak, lang, cur), f.money(s.vat_paid, lang, cur),
                   f.money(s.surtax, lang, cur), f.money(first.refund, lang, cur),
                   month_text(str(peak_month), lang), month_text(str(first.period), lang),
                   f.pct(0.06), f.pct(0.12)):  # fmt: skip
        assert figure.replace(f.NBSP, " ") in text.replace(f.NBSP, " "), (figure, text)
    assert ("留抵退税" in text) and (("refunded" in text) == (lang == "en"))


def test_credit_lost_without_refunds(tmp_path):
    model = _model(tmp_path, {**VAT, "refund_credit": False}, years=1, price=5)
    v = model.vat("small")
    left = float(v.credit.iloc[-1])
    assert left > 0
    text = _section(render_memo(model, "en", analysis=cm.analyze(model, draws=0)))
    assert f.money(left, "en", model.assumptions.currency).replace(f.NBSP, " ") in text.replace(
        f.NBSP, " "
    )
    assert "is lost" in text
