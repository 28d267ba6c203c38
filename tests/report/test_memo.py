"""The HTML memo: figures equal the summary, self-contained, escaped, bilingual."""

from __future__ import annotations

import functools
import math
import re
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

import costmodel as cm
from costmodel.core.metrics import METRICS
from costmodel.inputs.params import resolve_tier, revenue_mode
from costmodel.inputs.resources import default_assumptions_dir, templates_dir
from costmodel.inputs.schema import Quantity
from costmodel.report.memo import numbers as f
from costmodel.report.memo.appendix_section import walk
from costmodel.report.memo.render import render_memo, write_memo

HEADLINE = ("capex", "opex_year1", "npv", "irr", "payback_years", "cost_per_gpu_hour", "tco")


class Memo(HTMLParser):
    """Tiny parser: cells by (tier, metric), attributes with URLs, svg count,
    ids, headings and all text. Footnote marks (<sup>) and the best-value star
    are left out of cell text."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.cells: dict[tuple[str, str], str] = {}
        self.cell_class: dict[tuple[str, str], str] = {}
        self.urls: list[tuple[str, str, str]] = []
        self.ids: list[str] = []
        self.tags: list[str] = []
        self.headings: list[str] = []
        self.text: list[str] = []
        self.svg = 0
        self.csp = ""
        self._cell: tuple[str, str] | None = None
        self._skip = 0
        self._heading: list[str] | None = None
        self._stack: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append(tag)
        self._stack.append(tag)
        if tag == "svg":
            self.svg += 1
        if tag == "meta" and a.get("http-equiv") == "Content-Security-Policy":
            self.csp = a.get("content") or ""
        if "id" in a:
            self.ids.append(a["id"])
        for key in ("src", "href", "xlink:href", "action", "srcset", "poster", "data"):
            if key in a and a[key] is not None:
                self.urls.append((tag, key, a[key]))
        if tag == "td" and "data-tier" in a and "data-metric" in a:
            self._cell = (a["data-tier"], a["data-metric"])
            self.cells[self._cell] = ""
            self.cell_class[self._cell] = a.get("class", "")
        if self._cell and (tag == "sup" or "star" in (a.get("class") or "")):
            self._skip += 1
        if tag in ("h1", "h2", "h3", "h4"):
            self._heading = []

    def handle_endtag(self, tag):
        if self._stack:
            self._stack.pop()
        if tag == "td":
            self._cell = None
            self._skip = 0
        elif self._cell and tag in ("sup", "span") and self._skip:
            self._skip -= 1
        if tag in ("h1", "h2", "h3", "h4") and self._heading is not None:
            self.headings.append("".join(self._heading).strip())
            self._heading = None

    def handle_data(self, data):
        if self._stack and self._stack[-1] == "style":
            return
        self.text.append(data)
        if self._cell and not self._skip:
            self.cells[self._cell] += data
        if self._heading is not None:
            self._heading.append(data)

    @property
    def all_text(self) -> str:
        return re.sub(r"[ \t\r\n]+", " ", "".join(self.text))


# model, memos: tests/report/conftest.py


@functools.cache
def parsed(html: str) -> Memo:
    """:class:`Memo` of ``html``, parsed once (for the session's shared memos)."""
    return Memo(html)


def nb(s: str) -> str:
    return s.replace("\u00a0", " ").replace("\u2011", "-")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_metric_of_every_tier_equals_the_summary(model, memos, lang):
    p = parsed(memos[lang])
    s = model.summary()
    cur = model.assumptions.currency
    for tier in model.tiers:
        for col in s.columns:
            if col == "site":  # the site's label in the memo's language (methodology §29)
                site = model.assumptions.sites[s.loc[tier, "site"]]
                want = site.label_zh if lang == "zh" else site.label
                assert p.cells[(tier, col)].strip() == want, (tier, col)
                continue
            if col in ("feasible", "infeasible_reason"):
                # shown where a tier is infeasible (the default: none)
                assert (tier, col) not in p.cells, (tier, col)
                continue
            want = f.fmt(s.loc[tier, col], METRICS[col].kind, lang, cur, col)
            if col == "opex_full_year_number":  # with its calendar year: test_memo_full_year
                assert want in p.cells[(tier, col)], (tier, col)
                continue
            assert p.cells[(tier, col)].strip() == want, (tier, col)
    for tier in model.tiers:  # the key-figures table repeats the headline numbers
        for col in ("npv", "capex", "cost_per_gpu_hour"):
            assert f.fmt(s.loc[tier, col], METRICS[col].kind, lang, cur) in p.all_text


def test_headline_formats_read_as_in_the_issue(model):
    # the issue's examples (a hundreds-tier and a thousands-tier capex of the time)
    assert nb(f.fmt(35_943_341.0, "money", "en")) == "CNY 35.9 M"
    assert nb(f.fmt(35_943_341.0, "money", "zh")) == "3,594 万元"
    assert nb(f.fmt(329_598_933.0, "money", "zh")) == "3.30 亿元"
    assert nb(f.money(1.234e9, "en")) == "CNY 1.23 bn"
    assert nb(f.money(-3.5e6, "en")) == "CNY \u22123.5 M"
    assert f.pct(0.08) == "8.0%" and f.fmt(math.nan, "pct") == "\u2013"


def test_best_value_marked_per_row(model, memos):
    """Stars on rows that measure quality per unit; none on rows that measure size:
    every amount of money (capex, revenue, NPV, VAT credit ...) grows with the option,
    and the cluster's MTBF favours the smallest (it falls as servers are added)."""
    p = parsed(memos["en"])
    s = model.summary()
    size = {col for col, meta in METRICS.items() if meta.kind == "money"} | {"mtbf_hours"}
    assert {"capex", "npv", "peak_funding", "vat_credit_peak", "surtax"} <= size
    assert {"opex_year1", "opex_full_year"} <= size
    for col, meta in METRICS.items():
        if not meta.better:
            continue
        v = s[col].astype(float).dropna()
        if v.nunique() < 2:
            continue
        if col in size:
            assert not any("best" in p.cell_class[(t, col)] for t in v.index), col
            continue
        best = v.idxmax() if meta.better == "higher" else v.idxmin()
        assert "best" in p.cell_class[(best, col)], col
        for t in v.index:
            if v[t] != v[best]:
                assert "best" not in p.cell_class[(t, col)], (t, col)


def test_empty_metrics_show_a_dash_and_a_footnote(model, memos):
    s = model.summary()
    assert s["payback_years"].isna().any(), "default model: no payback expected"
    p = parsed(memos["en"])
    for t in s.index[s["payback_years"].isna()]:
        assert p.cells[(t, "payback_years")].strip() == "\u2013"
        assert "empty" in p.cell_class[(t, "payback_years")]
    assert "no payback" in p.all_text


def test_self_contained_no_outside_references(memos):
    for lang, html in memos.items():
        p = parsed(html)
        for tag, key, url in p.urls:
            assert url.startswith("#") or url.startswith("data:"), (lang, tag, key, url)
        assert "script" not in p.tags and "link" not in p.tags and "iframe" not in p.tags
        assert "@import" not in html and not re.search(r"url\((?!#)", html)
        assert p.csp.startswith("default-src 'none'") and "script-src" not in p.csp
        assert len(p.ids) == len(set(p.ids)), "duplicate ids across inline SVGs"
        for ref in re.findall(r'href="#([^"]+)"', html):
            assert ref in p.ids, ref


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_at_least_four_svg_charts_with_text_as_text(memos, lang):
    html = memos[lang]
    p = parsed(html)
    assert p.svg >= 4
    assert html.count("<text ") > 20, "labels are <text>, not paths"
    assert "Noto Sans CJK SC" in html and "PingFang SC" in html
    if lang == "zh":  # in the drawings and legends, not only in the captions
        figures = "".join(re.findall(r"<figure.*?</figure>", html, flags=re.S))
        drawn = re.sub(r"<figcaption>.*?</figcaption>", "", figures, flags=re.S)
        for word in ("年度", "万元", "服务器", "平准化成本"):
            assert word in drawn


def test_metadata_fingerprint_date_currency(model, memos):
    fp = cm.fingerprint(model.assumptions)
    for lang, html in memos.items():
        p = parsed(html)
        assert fp in p.all_text
        if lang == "en":  # the title composed from the name and the start (methodology §2.7)
            a = model.assumptions
            # the default names its site (methodology §29)
            assert f"{a.name}, {a.sites[a.site].label}, from {a.start}" in p.headings
        else:  # a Chinese title derived from the number of options and the start
            n = len(model.tiers)
            site = model.assumptions.sites[model.assumptions.site].label_zh
            assert f"GPU 算力中心建设规模比较（{n} 个方案，{site}，2027 年 1 月起）" in p.headings
            assert model.assumptions.name not in p.headings
        assert "CNY" in p.all_text


def test_zh_memo_is_chinese(model, memos):
    p = parsed(memos["zh"])
    for heading in ("执行摘要", "方案对比", "图表", "各方案概况与风险", "方法说明", "假设清单"):
        assert heading in p.headings
    text = nb(p.all_text)
    assert "万元" in text and "亿元" in text
    assert "没有任何对外出售卡时的方案值得建设" in text  # the captive tens tier is judged apart
    assert "缺乏备份" in text and "网络是" not in text  # seed wording, hand-written
    assert '<html lang="zh-CN">' in memos["zh"]


def test_negative_branch_ranks_by_npv_per_capex_and_gives_breakeven_prices(model, memos):
    """With every NPV negative the memo does not call the smallest option best on
    absolute NPV: it ranks by NPV / capex and says why the smallest loses least."""
    s = model.summary()
    assert (s["npv"] < 0).all(), "the default is expected to be NPV-negative"
    text = nb(parsed(memos["en"]).all_text)
    assert "No option that sells GPU-hours is worth building at the assumed prices" in text
    # a captive tier (revenue mode avoided_cloud) is judged against renting, apart
    s = s.drop(index=[t for t in s.index if revenue_mode(model.assumptions, t)[0] != "rental"])
    pi = s["npv"] / s["capex"]
    closest, smallest = pi.idxmax(), s["npv"].idxmax()
    label = model.assumptions.tiers[closest].label
    assert "least-bad" not in text
    be = cm.break_even(model)["price_per_gpu_hour"]
    for t in model.tiers:
        # the break-even of the input (a quote as observed) scaled to the price as sold
        # in year 1 (rolled from its as_of to the start: 0.9^(9/12) for a 2026-04 quote
        # at 10%/yr), as the memo states the price it sells at (methodology §30)
        given = model.inputs[t].values()["price_per_gpu_hour"]
        assert model.selling_price(t) == pytest.approx(given * 0.9**0.75, rel=1e-12)
        assert nb(f.price(be[t] * 0.9**0.75, "en")) in text
    if closest == smallest:  # first by both measures
        assert f"{label} comes closest to paying by both measures" in text
        # a price that makes the smallest lose the least in total but the most per
        # unit of capex: the memo must not call it the closest (tests of the split
        # in test_memo_decision.py)
        return
    assert f"By that measure {label} comes closest to paying" in text
    assert f"By that measure {label} comes closest to paying" in text
    assert f"it loses {f.pct(-pi[closest])} of each CNY invested" in text
    small = model.assumptions.tiers[smallest].label
    assert f"{small} has the smallest loss in absolute terms" in text
    assert "only because it is the smallest project" in text


def test_breakeven_price_zeroes_npv_for_tier_overrides():
    """The memo's break-even prices are Model.break_even()'s (one implementation); the
    tens tier sold by the hour (the default's is captive) has a price of its own."""
    a = cm.load_assumptions(overrides={"tiers.tens.revenue.mode": "rental"})
    table = cm.break_even(cm.build(a))
    for t in a.tiers:
        path = resolve_tier(a, t).paths()["price_per_gpu_hour"]
        assert table.loc[t, "price_per_gpu_hour_path"] == path
        be = float(table.loc[t, "price_per_gpu_hour"])
        npv = cm.run_variants(a, {path: np.array([be * 0.999, be, be * 1.001])}, [t])[t]
        lo, at, hi = npv.metrics["npv"]
        capex = npv.metrics["capex"][0]
        assert lo < 0 < hi and abs(at) < 1e-6 * capex, t
    assert resolve_tier(a, "tens").paths()["price_per_gpu_hour"].startswith("tiers.tens.")


def test_positive_branch_recommends_highest_npv():
    a = cm.load_assumptions(
        overrides={
            "revenue.price_per_gpu_hour": 40.0,
            "tiers.tens.revenue.price_per_gpu_hour": 30.0,
        }
    )
    m = cm.build(a)
    s = m.summary()
    assert (s["npv"] > 0).any()
    best = s["npv"].idxmax()
    text = nb(Memo(render_memo(m, "en")).all_text)
    assert f"We recommend {a.tiers[best].label}" in text
    assert "No option is worth building" not in text
    zh = nb(Memo(render_memo(m, "zh")).all_text)
    gpus = int(m.inputs[best].values()["gpus"])
    cls = {"tens": "数十卡", "hundreds": "数百卡", "thousands": "数千卡"}[
        s.loc[best, "scale_class"]
    ]
    assert f"建议选择{cls}方案（{gpus:,} 张 {a.tiers[best].server.upper()}）" in zh


def test_assumption_appendix_lists_every_quantity(model, memos):
    p = parsed(memos["en"])
    text = p.all_text
    quantities = [(path, q) for path, q in walk(model.assumptions) if isinstance(q, Quantity)]
    assert len(quantities) > 50
    for path, q in quantities:
        assert path in text
        if q.source:
            assert q.source in text


EVIL = "<script>alert(1)</script>"


def test_text_from_assumption_files_is_escaped(tmp_path):
    overlay = tmp_path / "evil.yaml"
    overlay.write_text(
        f"""
tiers:
  "{EVIL}":
    label: "{EVIL}"
    description: "<img src=x onerror=alert(2)>"
    server: h800
    gpus: 16
    network: {{fabric: "<i>fabric</i>", share: 0.1}}
    storage: {{kind: "<u>nfs</u>", capacity_tb: 10, price_per_tb: 1000, write_gbps: 5}}
    rack_kw: 12
    cooling: air
    staff_fte: 1
""",
        encoding="utf-8",
    )
    a = cm.load_assumptions(
        default_assumptions_dir(), overlay, overrides={"power.price_per_kwh.note": "<b>bold</b>"}
    )
    m = cm.build(a)
    for lang in ("en", "zh"):  # tier labels are drawn in the charts too
        html = write_memo(m, tmp_path / f"evil.{lang}.html", lang=lang).read_text(encoding="utf-8")
        assert "<script" not in html.lower()
        assert "<b>bold</b>" not in html and "&lt;b&gt;bold&lt;/b&gt;" in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert "<img" not in html and "<i>fabric" not in html and "<u>nfs" not in html
        p = Memo(html)
        assert EVIL in p.all_text  # shown as text
        assert all(u.startswith(("#", "data:")) for _, _, u in p.urls)


def test_template_dir_overrides_and_falls_back(model, tmp_path):
    brand = tmp_path / "brand"
    brand.mkdir()
    css = (templates_dir() / "memo.css").read_text(encoding="utf-8")
    (brand / "memo.css").write_text("/* ACME-BRAND */\n" + css, encoding="utf-8")
    (brand / "brand.html.j2").write_text('<p class="org">ACME Capital</p>\n', encoding="utf-8")
    html = write_memo(model, tmp_path / "m.html", template_dir=brand).read_text(encoding="utf-8")
    assert "ACME-BRAND" in html and "ACME Capital" in html
    assert Memo(html).svg >= 4  # memo.html.j2 came from the bundled templates
    with pytest.raises(NotADirectoryError):
        write_memo(model, tmp_path / "x.html", template_dir=tmp_path / "missing")
    assert not (tmp_path / "x.html").exists()


def test_failure_writes_nothing_and_bad_lang_is_rejected(model, tmp_path):
    out = tmp_path / "memo.html"
    with pytest.raises(ValueError, match="lang"):
        write_memo(model, out, lang="fr")
    assert not out.exists() and list(tmp_path.iterdir()) == []
    out.write_text("old", encoding="utf-8")
    broken = tmp_path / "tpl"
    broken.mkdir()
    (broken / "memo.html.j2").write_text("{{ no_such_name }}", encoding="utf-8")
    with pytest.raises(Exception, match="no_such_name"):
        write_memo(model, out, template_dir=broken)
    assert out.read_text(encoding="utf-8") == "old"
    assert sorted(x.name for x in tmp_path.iterdir()) == ["memo.html", "tpl"]


def test_reproducible_with_source_date_epoch(model, memos, monkeypatch):
    """The session's memos were written with SOURCE_DATE_EPOCH = 2027-01-01 (conftest):
    rendering again, later, with real charts, gives the same bytes."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1798761600")
    assert render_memo(model, "en") == memos["en"]
    assert "1 January 2027" in memos["en"]
    assert "2027年1月1日" in memos["zh"]


def test_templates_ship_with_readme():
    names = {p.name for p in templates_dir().iterdir()}
    assert {"memo.html.j2", "memo.css", "brand.html.j2", "README.md"} <= names
    assert Path(templates_dir() / "README.md").read_text(encoding="utf-8").count("memo") > 2


def test_write_memos_shares_the_analysis_and_writes_what_write_memo_writes(
    model, memos, tmp_path, monkeypatch
):
    """Both languages in one call (as ``costmodel build`` does): the deterministic
    analysis is computed once, and each file has the bytes ``write_memo`` writes."""
    from costmodel.report.memo import render

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1798761600")
    calls = []
    real = render.analyze
    monkeypatch.setattr(render, "analyze", lambda m, **kw: calls.append(kw) or real(m, **kw))
    paths = render.write_memos(model, {"en": tmp_path / "a.html", "zh": tmp_path / "b.html"})
    assert calls == [{"draws": 0}]
    assert [p.read_text(encoding="utf-8") for p in paths] == [memos["en"], memos["zh"]]
    with pytest.raises(ValueError, match="lang"):
        render.write_memos(model, {"en": tmp_path / "c.html", "fr": tmp_path / "d.html"})
    assert not (tmp_path / "c.html").exists()  # nothing is written


def test_the_summary_is_computed_once_for_both_memos(tmp_path, monkeypatch):
    """What does not depend on the language is computed once per model: the model
    keeps its summary, so rendering the English and the Chinese memo (and the
    analysis before them) computes it once however often they read it."""
    from functools import cached_property

    from costmodel.analysis.bundle import analyze
    from costmodel.inputs.model import Model
    from costmodel.report.memo.render import write_memos

    calls = []
    real = Model.__dict__["_summary_rows"].func
    counted = cached_property(lambda self: calls.append(self) or real(self))
    counted.__set_name__(Model, "_summary_rows")
    monkeypatch.setattr(Model, "_summary_rows", counted)
    m = cm.build(cm.load_assumptions())
    an = analyze(m, draws=0)
    write_memos(m, {"en": tmp_path / "a.html", "zh": tmp_path / "b.html"}, analysis=an)
    # this model's summary once (the memo's comparison of the default's sites builds
    # the options at each site: models of their own)
    assert [c for c in calls if c is m] == [m]
    assert m.summary() is not m.summary()  # each caller its own copy
    assert m.summary().equals(m.summary())
