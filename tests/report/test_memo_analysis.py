"""The memo sections built from an Analysis ("What has to be true", "Scenarios",
"Build or rent?"): every figure equals the analysis value through the shared
formatter, text from scenario names and overlays is escaped, both languages, and
without an analysis the sections are absent."""

from __future__ import annotations

import dataclasses
import re
from html import unescape
from html.parser import HTMLParser

import pytest

import costmodel as cm
from costmodel.analysis.bundle import analyze
from costmodel.analysis.decision import choose
from costmodel.inputs.resources import default_assumptions_dir
from costmodel.report.memo import numbers as f
from costmodel.report.memo.render import render_memo, write_memo

XSS = "<script>alert(1)</script>"
BOLD = "<b>bold</b>"
SCENARIOS = {
    "downside": "assumptions/scenarios/downside.yaml",
    "upside": "assumptions/scenarios/upside.yaml",
    XSS: {"tiers.tens.label": BOLD},
}
DRAWS = 2_000
SEED = 7


class Page(HTMLParser):
    """Text of the cells marked ``data-<kind>`` by (tier, key); the tornado cells
    by (tier, rank, end); scenario cells by (scenario, tier, metric) with their
    value and delta; probability-of-loss spans; list items by section and tier;
    headings, section ids and nav links."""

    KINDS = ("be", "mc", "rent")

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.cells: dict[tuple[str, str, str], str] = {}
        self.tornado: dict[tuple[str, int, str], str] = {}
        self.scen: dict[tuple[str, str, str, str], str] = {}
        self.loss: dict[str, str] = {}
        self.items: dict[tuple[str, str], str] = {}
        self.headings: list[str] = []
        self.sections: list[str] = []
        self.nav: list[str] = []
        self.text: list[str] = []
        self._keys: list[tuple | None] = []
        self._tier: str | None = None
        self._scenario: str | None = None
        self._section: str | None = None
        self._rank: dict[str, int] = {}
        self._scen_metric: str | None = None
        self._in_nav = False
        self.feed(html)

    def _open(self, tag, a):
        if tag == "section" and "id" in a:
            self._section = a["id"]
            self.sections.append(a["id"])
        if tag == "nav":
            self._in_nav = True
        if tag == "a" and self._in_nav:
            self.nav.append(a.get("href", ""))
        if tag == "tbody" and "data-scenario" in a:
            self._scenario = a["data-scenario"]
        if tag == "tbody" and "data-tier" in a:
            self._tier = a["data-tier"]
        if tag == "tr" and "data-tier" in a:
            self._tier = a["data-tier"]
        if tag == "tr" and "data-input" in a:
            self._rank[self._tier] = self._rank.get(self._tier, 0) + 1
        if tag in ("h2", "h3", "h4"):
            return ("h",)
        if tag == "li" and "data-tier" in a:
            return ("item", self._section, a["data-tier"])
        if tag == "span" and "p-loss" in (a.get("class") or ""):
            return ("loss", a["data-tier"])
        if "data-tornado" in a:
            return ("tornado", a["data-tier"], self._rank[a["data-tier"]], a["data-tornado"])
        if tag == "td" and self._scenario and "data-metric" in a:
            self._scen_metric = a["data-metric"]
        if tag == "span" and self._scen_metric and a.get("class") in ("v", "delta"):
            return ("scen", self._scenario, self._tier, self._scen_metric, a["class"])
        for kind in self.KINDS:
            if f"data-{kind}" in a:
                return ("cell", kind, self._tier, a[f"data-{kind}"])
        return None

    def handle_starttag(self, tag, attrs):
        key = self._open(tag, dict(attrs))
        if tag in ("br", "meta", "link", "img", "input"):
            return
        self._keys.append(key)
        if key and key[0] == "h":
            self.headings.append("")

    def handle_endtag(self, tag):
        if tag == "nav":
            self._in_nav = False
        if tag == "td":
            self._scen_metric = None
        if tag == "section":
            self._section = None
        if self._keys:
            self._keys.pop()

    def handle_data(self, data):
        self.text.append(data)
        for key in self._keys:
            if key is None:
                continue
            if key[0] == "h":
                self.headings[-1] += data
            elif key[0] == "item":
                self.items[key[1:]] = self.items.get(key[1:], "") + data
            elif key[0] == "loss":
                self.loss[key[1]] = self.loss.get(key[1], "") + data
            elif key[0] == "tornado":
                self.tornado[key[1:]] = self.tornado.get(key[1:], "") + data
            elif key[0] == "scen":
                self.scen[key[1:]] = self.scen.get(key[1:], "") + data
            elif key[0] == "cell":
                self.cells[key[1:]] = self.cells.get(key[1:], "") + data

    def handle_startendtag(self, tag, attrs):
        self._open(tag, dict(attrs))

    @property
    def all_text(self) -> str:
        return " ".join(" ".join(self.text).split())


def nb(s: str) -> str:
    return " ".join(s.replace("\u00a0", " ").replace("\u2011", "-").split())


def row(p: Page, kind: str, tier: str) -> dict[str, str]:
    """The cells of one tier in a ``data-<kind>`` table, by key, spaces normalised."""
    return {k[2]: nb(v) for k, v in p.cells.items() if k[:2] == (kind, tier)}


@pytest.fixture(scope="module")
def analysis(model):
    return analyze(model, draws=DRAWS, seed=SEED, scenarios=SCENARIOS)


@pytest.fixture(scope="module")
def html(model, analysis):
    """Both memos with the analysis."""
    return {lang: render_memo(model, lang, analysis=analysis) for lang in ("en", "zh")}


@pytest.fixture(scope="module")
def pages(html):
    return {lang: Page(h) for lang, h in html.items()}


@pytest.fixture(scope="module")
def rent_model():
    a = cm.load_assumptions(default_assumptions_dir(), "assumptions/scenarios/build-vs-rent.yaml")
    return cm.build(a)


# ----------------------------------------------------------------------------- structure


def test_sections_and_navigation(pages):
    for lang in ("en", "zh"):
        p = pages[lang]
        for sec in ("risk", "scenarios", "build-rent"):
            assert sec in p.sections, (lang, sec)
            assert f"#{sec}" in p.nav, (lang, sec)
    assert {"What has to be true", "Scenarios", "Build or rent?"} <= set(pages["en"].headings)
    assert {"盈亏平衡需要的条件", "情景分析", "自建还是租用？"} <= set(pages["zh"].headings)
    for h in ("影响净现值的主要因素", "盈亏平衡：净现值为零的条件", "亏损的可能性有多大"):
        assert h in pages["zh"].headings


def test_without_analysis_the_memo_uses_the_deterministic_one(model, tmp_path):
    """No analysis given: write_memo computes analyze(model, draws=0) itself, so the
    tornado, break-even and build-or-rent sections are there, Monte Carlo and
    scenarios are not."""
    deterministic = analyze(model, draws=0)
    for lang in ("en", "zh"):
        text = write_memo(model, tmp_path / f"m.{lang}.html", lang=lang).read_text("utf-8")
        assert text == render_memo(model, lang, analysis=deterministic)
        p = Page(text)
        for sec in ("summary", "failures", "risk", "build-rent"):
            assert sec in p.sections and f"#{sec}" in p.nav
        assert "scenarios" not in p.sections


def test_no_scenarios_no_monte_carlo(model):
    an = analyze(model, draws=0)
    p = Page(render_memo(model, "en", analysis=an))
    assert "risk" in p.sections and "build-rent" in p.sections
    assert "scenarios" not in p.sections and "#scenarios" not in p.nav
    assert "How likely is a loss" not in p.headings
    assert not p.loss and not any(k[0] == "mc" for k in p.cells)
    assert "What moves the NPV" in p.headings


def test_an_analysis_of_another_model_is_rejected(model, analysis):
    other = dataclasses.replace(analysis, break_even=analysis.break_even.iloc[:1])
    with pytest.raises(ValueError, match="not of this model"):
        render_memo(model, "en", analysis=other)


# ----------------------------------------------------------------------------- numbers


def as_sold(model, tier: str) -> float:
    """The year-1 price as sold over the input price: the quote rolled from its as_of
    to the start, ``(1 - decline)^(months / 12)``, times the site's price factor
    (methodology §29, §30); the memo states prices, break-even ones too, as sold."""
    v = model.inputs[tier].values()
    roll = (1 - v["price_decline"]) ** (v.get("spot_roll_months", 0.0) / 12)
    return roll * v.get("price_factor", 1.0)


def test_the_defaults_prices_are_quotes_of_2026_04_sold_at_east_t1():
    # every tier's spot price (the captive tens tier's: the cloud's on-demand price) is
    # a quote of 2026-04, rolled 9 months at 10%/yr; east-t1's price factor is 1
    m = cm.build(cm.load_assumptions())
    for t in m.tiers:
        v = m.inputs[t].values()
        assert (v["spot_roll_months"], v["price_decline"], v["price_factor"]) == (9, 0.1, 1.0)
        assert as_sold(m, t) == pytest.approx(0.9**0.75, rel=1e-12)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_summary_break_even_prices_are_the_analysis_values(model, analysis, pages, lang):
    text = nb(pages[lang].all_text)
    for t in model.tiers:
        price = analysis.break_even.loc[t, "price_per_gpu_hour"] * as_sold(model, t)
        assert nb(f.price(price, lang, "CNY")) in text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_break_even_table_equals_the_analysis(model, analysis, pages, lang):
    for t in model.tiers:
        r = analysis.break_even.loc[t]
        got = row(pages[lang], "be", t)
        if not f.is_empty(r["utilization"]):
            assert got["util"] == nb(f.pct(r["utilization"]))
        else:
            assert got["util"] in ("not even at 100%", "即使 100% 也不够")
        assert got["util_base"] == nb(f.pct(r["utilization_base"]))
        k = as_sold(model, t)
        assert got["price"] == nb(f.price(r["price_per_gpu_hour"] * k, lang))
        assert got["price_base"] == nb(f.price(r["price_per_gpu_hour_base"] * k, lang))
        gap = r["price_per_gpu_hour"] / r["price_per_gpu_hour_base"] - 1
        assert got["gap"] == ("+" if gap >= 0 else "") + f.pct(gap)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_tornado_table_equals_the_analysis(model, analysis, pages, lang):
    p = pages[lang]
    d = analysis.tornado
    for t in model.tiers:
        rows = d[(d["tier"] == t) & (d["swing"] > 0)].head(5)
        assert len(rows)
        for rank, (_, r) in enumerate(rows.iterrows(), start=1):
            assert nb(p.tornado[(t, rank, "at_low")]) == nb(f.money(r["at_low"], lang))
            assert nb(p.tornado[(t, rank, "at_high")]) == nb(f.money(r["at_high"], lang))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_quoted_prices_are_stated_as_sold_in_year_1(model, analysis, html, pages, lang):
    """The tornado's range of a quoted price and the contract price of the revenue
    sentence are the quotes rolled to the 2027-01 start at 10%/yr: the spot quote of
    2026-04 x 0.9^(9/12), the contract quote of 2025-09 x 0.9^(16/12); east-t1's
    price factor is 1."""
    a = model.assumptions
    spot, contract = a.revenue.price_per_gpu_hour, a.revenue.contract.price_per_gpu_hour
    assert (spot.as_of, contract.as_of, a.start) == ("2026-04", "2025-09", "2027-01")
    k_spot, k_contract = 0.9 ** (9 / 12), 0.9 ** (16 / 12)
    body = html[lang].split('<tbody data-tier="thousands">', 1)[1].split("</tbody>", 1)[0]
    m = re.search(r'<tr data-input="revenue.price_per_gpu_hour">.*?</tr>', body, re.S)
    assert m, "the thousands tier's tornado rows name its spot price"
    # the range's cell (the NPV cells carry data-tornado after their label)
    cells = re.findall(r'<td class="num" data-label="[^"]*">(.*?)</td>', m.group(0), re.S)
    low, high = (nb(f.price(v * k_spot, lang)) for v in (spot.low, spot.high))
    assert [nb(unescape(c)) for c in cells] == [f"{low} – {high}"]
    # the revenue split: "... at CNY 10.50/GPU-h in contract year 1 ..." (12.08 quoted)
    sold = nb(f.price(contract.value * k_contract, lang))
    assert sold in nb(pages[lang].all_text)
    assert nb(f.price(contract.value, lang)) not in nb(pages[lang].all_text)


def test_tornado_sentence_names_the_largest_driver_of_the_focus_tier(model, analysis, pages):
    """The focus is the decision's tier (NPV / capex when every NPV is negative), and
    the driver is named by a readable label, not a dotted path."""
    focus = str(choose(analysis.options)["tier"])
    pi = model.summary()["npv"] / model.summary()["capex"]
    assert focus == pi.idxmax()
    d = analysis.tornado
    top = d[d["tier"] == focus].iloc[0]
    # readable names and units of the inputs that can lead the default's tornado
    known = {
        "price_per_gpu_hour": ("Year-1 price per GPU-hour", "首年每卡时价格", f.price),
        "utilization": ("Utilization", "利用率", f.pct),
        "price": ("Server price", "服务器单价", f.money),
        # a quote rolls with the decline drawn (methodology §30)
        "price_decline": ("Price decline a year", "价格年降幅", f.pct),
    }
    key = top["input"].rsplit(".", 1)[-1]
    assert key in known, top["input"]
    en, zh_name, fmt = known[key]
    text = nb(pages["en"].all_text)
    label = model.assumptions.tiers[focus].label
    assert f"For {label} (NPV {nb(f.money(top['base']))}), the input that matters most" in text
    assert f"the input that matters most is {en}:" in text
    assert f"at {nb(fmt(top['low']))} the NPV is {nb(f.money(top['at_low']))}" in text
    assert f"at {nb(fmt(top['high']))} it is {nb(f.money(top['at_high']))}" in text
    assert top["input"] not in text.split("Assumption files")[0]
    zh = nb(pages["zh"].all_text)
    assert f"影响最大的输入是{zh_name}：" in zh


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_monte_carlo_table_equals_the_summary(model, analysis, pages, lang):
    p = pages[lang]
    s = analysis.monte_carlo.summary
    for t in model.tiers:
        got = row(p, "mc", t)
        for q in ("p10", "p50", "p90"):
            assert got[f"npv_{q}"] == nb(f.money(s.loc[t, f"npv_{q}"], lang))
            assert got[f"cost_{q}"] == nb(f.price(s.loc[t, f"cost_per_gpu_hour_{q}"], lang))
        assert got["loss"] == f.prob(1 - s.loc[t, "p_npv_positive"])


def test_probability_of_loss_sentence(model, analysis, pages):
    s = analysis.monte_carlo.summary
    p = pages["en"]
    text = nb(p.all_text)
    assert f"{DRAWS:,} draws (seed {SEED})" in text
    assert f"{DRAWS:,} 次抽样（随机种子 {SEED}）" in nb(pages["zh"].all_text)
    for t in model.tiers:
        loss = 1 - float(s.loc[t, "p_npv_positive"])
        label = model.assumptions.tiers[t].label
        item = nb(p.items[("risk", t)])
        if loss >= 1:  # every draw loses: no share to show
            assert item.startswith(f"In all {DRAWS:,} draws {label} loses money")
            assert t not in p.loss
        elif loss <= 0:
            assert item.startswith(f"In none of the {DRAWS:,} draws does {label} lose money")
        else:
            assert p.loss[t] == f.prob(loss)
            assert item.startswith(f"In {f.prob(loss)} of {DRAWS:,} draws {label} loses money")
            assert pages["zh"].loss[t] == f.prob(loss)
        assert nb(f.money(s.loc[t, "npv_p10"])) in item
        assert nb(f.money(s.loc[t, "npv_p90"])) in item


def test_probability_formatting():
    assert f.prob(0.995) == "99.5%"
    assert f.prob(1 - 1 / 10_000) == ">99.9%"
    assert f.prob(1 / 10_000) == "<0.1%"
    assert f.prob(1.0) == "100%" and f.prob(0.0) == "0%"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_scenario_table_equals_the_comparison(analysis, pages, lang):
    p = pages[lang]
    cr = analysis.scenarios
    wide, delta = cr.wide, cr.delta()
    for (name, tier), row in wide.iterrows():
        v = nb(p.scen[(name, tier, "npv", "v")])
        assert v == nb(f.money(row["npv"], lang))
        assert nb(p.scen[(name, tier, "capex", "v")]) == nb(f.money(row["capex"], lang))
        if name == "base":
            assert (name, tier, "npv", "delta") not in p.scen
            continue
        d = delta.loc[(name, tier)]
        want = f.signed(d["npv"], lambda x: f.money(x, lang))
        assert nb(p.scen[(name, tier, "npv", "delta")]) == nb(want)
        assert nb(p.scen[(name, tier, "irr", "delta")]) == nb(f.pp(d["irr"], lang))


def test_scenario_sentences(model, analysis, pages):
    text = nb(pages["en"].all_text)
    up = analysis.scenarios.wide.loc["upside"]["npv"]
    best = str(up.idxmax())
    label = model.assumptions.tiers[best].label
    k = int((up > 0).sum())
    if k:
        have = "has" if k == 1 else "have"  # agreement: "1 of 3 options has"
        assert f"upside : {k} of 3 options {have} a positive NPV; the best is {label}" in text
    else:
        assert (
            f"upside : no option has a positive NPV; the smallest loss is that of {label}" in text
        )
    assert nb(f.money(up[best])) in text


def test_scenario_names_and_overlays_are_escaped(html, pages):
    for lang in ("en", "zh"):
        h = html[lang]
        assert XSS not in h and BOLD not in h
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in h
        assert "&lt;b&gt;bold&lt;/b&gt;" in h
        assert "<script" not in h
        text = pages[lang].all_text
        assert XSS in text  # shown as text: in the table, the sentences and the overlays
        assert f"tiers.tens.label: {BOLD}" in text


def test_overlays_show_the_files_without_absolute_paths(html):
    h = html["en"]
    assert "# assumptions/scenarios/downside.yaml" in h  # given relative: kept
    assert "utilization:" in h
    from costmodel.report.memo.analysis import overlay_text

    assert overlay_text("# /home/me/deep/x.yaml\na: 1") == "# deep/x.yaml\na: 1"


# ----------------------------------------------------------------------------- build or rent


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_build_vs_rent_table_equals_the_analysis(model, analysis, pages, lang):
    for t in model.tiers:
        r = analysis.build_vs_rent.loc[t]
        got = row(pages[lang], "rent", t)
        assert got["cloud_price"] == nb(f.price(r["cloud_price_per_gpu_hour"], lang))
        assert got["pv_cloud"] == nb(f.money(r["pv_cloud_cost"], lang))
        assert got["pv_build"] == nb(f.money(r["pv_build_cost"], lang))
        assert got["saving"].startswith(nb(f.money(r["saving"], lang)))
        assert nb(f.pct(r["saving_share"])) in got["saving"]
        assert got["npv_cloud"] == nb(f.money(r["npv_vs_cloud"], lang))


def test_build_vs_rent_sentences_follow_the_revenue_mode(model, analysis, pages, rent_model):
    rental = pages["en"]
    an = analyze(rent_model, draws=0)
    avoided = Page(render_memo(rent_model, "en", analysis=an))
    df_r, df_a = analysis.build_vs_rent, an.build_vs_rent
    for t in model.tiers:
        label = model.assumptions.tiers[t].label
        s_r = nb(rental.items[("build-rent", t)])
        s_a = nb(avoided.items[("build-rent", t)])
        own = model.assumptions.tiers[t].revenue
        if own is not None and own.mode == "avoided_cloud":
            # a tier captive in the default (tens) is valued at its own cloud term in
            # both memos: the same sentence
            price = nb(f.price(df_r.loc[t, "cloud_price_per_gpu_hour"]))
            assert s_r == s_a
            assert s_r.startswith(f"{label}: valued at the {own.cloud_term.replace('_', '-')}")
            assert price in s_r
            continue
        assert s_r != s_a
        r = df_r.loc[t]
        assert s_r.startswith(f"{label}: renting the same {nb(f.count(r['gpu_hours']))} GPU-hours")
        assert f"would cost {nb(f.money(r['pv_cloud_cost']))} in present value" in s_r
        assert f"building costs {nb(f.money(r['pv_build_cost']))}" in s_r
        word = "saves" if r["saving"] > 0 else "costs"
        assert f"Building {word} {nb(f.money(abs(r['saving'])))}" in s_r
        a = df_a.loc[t]
        npv = rent_model.summary().loc[t, "npv"]
        assert abs(a["npv_vs_cloud"] - npv) <= 1e-6 * abs(npv)
        price = nb(f.price(a["cloud_price_per_gpu_hour"]))
        assert s_a.startswith(f"{label}: valued at the reserved cloud price of {price}")
        assert f"its NPV is {nb(f.money(npv))}" in s_a
        for s, row in ((s_r, r), (s_a, a)):
            if f.is_empty(row["break_even_month"]):
                assert "never falls below the cumulative cloud bill within the 6-year" in s
            else:
                assert f"month {int(row['break_even_month'])}" in s
    assert "NPV already reads as the value of building instead of renting" in avoided.all_text
    # the default's own memo says it for its captive tiers only
    captive = any(
        t.revenue is not None and t.revenue.mode == "avoided_cloud"
        for t in model.assumptions.tiers.values()
    )
    assert ("NPV already reads" in rental.all_text) == captive
    zh = Page(render_memo(rent_model, "zh", analysis=an))
    assert "净现值本身就是自建相对租用的价值" in zh.all_text


def test_a_tier_without_a_cloud_price_says_so(model, analysis, pages):
    df = analysis.build_vs_rent.copy()
    df.loc["tens", df.columns.drop(["server", "cloud_term"])] = float("nan")
    an = dataclasses.replace(analysis, build_vs_rent=df)
    p = Page(render_memo(model, "en", analysis=an))
    item = nb(p.items[("build-rent", "tens")])
    assert item == (
        f"{model.assumptions.tiers['tens'].label}: its server "
        f"({model.assumptions.tiers['tens'].server}) has no on-demand cloud "
        "price in the assumptions, so there is nothing to compare building with."
    )
    assert nb(p.items[("build-rent", "hundreds")]) == nb(
        pages["en"].items[("build-rent", "hundreds")]
    )
    zh = Page(render_memo(model, "zh", analysis=an))
    assert "没有按需云价格" in zh.items[("build-rent", "tens")]


def lean_items(html: str) -> dict[str, str]:
    """The text of each tier's sentence on why its median draw sits where it does."""
    found = re.findall(r'<li data-lean="([^"]+)">(.*?)</li>', html, re.S)
    return {t: nb(re.sub(r"<[^>]+>", "", unescape(s))) for t, s in found}


def test_why_the_median_draw_differs_from_the_assumed_case(model, analysis, html):
    """Per tier: the P50 against the NPV as assumed and their gap, the three inputs
    whose median draw alone moves the NPV most that way (from
    ``analysis.shifts``), how many move it that way and the sum of every shift."""
    s, shifts = analysis.monte_carlo.summary, analysis.shifts
    items = {lang: lean_items(html[lang]) for lang in ("en", "zh")}
    assert set(items["en"]) == set(items["zh"]) == set(model.tiers)
    for t in model.tiers:
        base, p50 = model.summary().loc[t, "npv"], s.loc[t, "npv_p50"]
        gap = p50 - base
        rows = shifts[shifts["tier"] == t]
        ways = rows[(rows["shift"] < 0) == (gap < 0)]
        en, zh = items["en"][t], items["zh"][t]
        word = "below" if gap < 0 else "above"
        label = model.assumptions.tiers[t].label
        money = [nb(f.money(v)) for v in (p50, abs(gap), base)]
        assert en.startswith(f"The median draw of {label} has an NPV of {money[0]}, ")
        assert f"{money[1]} {word} the {money[2]} assumed." in en
        assert nb(f.money(abs(gap), "zh")) in zh and nb(f.money(p50, "zh")) in zh
        for _, r in ways.head(3).iterrows():
            assert nb(f.signed(r["shift"], f.money)) in en
            assert nb(f.signed(r["shift"], lambda v: f.money(v, "zh"))) in zh
        assert nb(f.signed(ways.iloc[3]["shift"], f.money)) not in en
        verb = ("lower" if gap < 0 else "raise") + ("s" if len(ways) == 1 else "")
        told = f"Of the {len(rows)} drawn inputs this option reads, {len(ways)} {verb} the NPV"
        assert told in en
        assert en.endswith(
            f"all {len(rows)} shifts add up to {nb(f.signed(rows['shift'].sum(), f.money))}."
        )
