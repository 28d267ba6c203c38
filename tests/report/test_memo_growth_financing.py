"""The memo's growth and financing parts: the growth section of a staged
tier, the financing section of a loan, construction and ramp in the decision, the
hardware's market value at the end and tax losses that expire. Figures are taken
from the model and the growth options as computed, and formatted as the memo
formats money; the sentences must turn when the inputs do."""

from __future__ import annotations

import re

import pandas as pd
import pytest

import costmodel as cm
from costmodel.analysis.bundle import analyze
from costmodel.analysis.growth import growth_options
from costmodel.report.memo import numbers as f
from costmodel.report.memo.render import render_memo
from tests.paths import ROOT
from tests.report.test_memo_decision import ALLOWED_LATIN, decision_of, plain, section, text_of

DEFAULT = ROOT / "assumptions" / "default"
SCENARIOS = ROOT / "assumptions" / "scenarios"
STAGED = SCENARIOS / "staged-growth.yaml"
REBUILD = SCENARIOS / "staged-rebuild.yaml"
LOAN = SCENARIOS / "bank-loan.yaml"
TIMING = {"timeline.build_months": 6, "timeline.ramp_months": 9}
COLUMNS = ("npv", "peak_funding", "cost_per_gpu_hour", "capex_initial", "capex")


def memo(*files, overrides=None, langs=("en", "zh")):
    """Model, deterministic analysis and memos of the default with ``files`` layered on."""
    a = cm.load_assumptions(DEFAULT, *files, overrides=overrides or {})
    m = cm.build(a)
    an = analyze(m, draws=0)
    return m, an, {lang: render_memo(m, lang, analysis=an) for lang in langs}


@pytest.fixture(scope="module")
def staged_loan():
    over = {**TIMING, "facility.retrofit_premium": 0.35}
    return memo(STAGED, LOAN, overrides=over)


@pytest.fixture(scope="module")
def rebuild():
    return memo(REBUILD, overrides={"facility.retrofit_premium": 0.0}, langs=("en",))


def cell(page: str, option: str, metric: str) -> str:
    row = re.search(rf'<tr data-option="{option}">(.*?)</tr>', page, flags=re.S).group(1)
    return re.search(rf'data-growth="{metric}">([^<]*)</td>', row).group(1)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_growth_table_shows_the_growth_options(staged_loan, lang):
    m, _, pages = staged_loan
    g = growth_options(m).loc["hundreds"]
    page = section(pages[lang], "growth")
    for option in ("at_once", "staged_headroom", "staged_rebuild"):
        for col in COLUMNS:
            v = float(g.loc[option, col])
            want = f.price(v, lang) if col == "cost_per_gpu_hour" else f.money(v, lang)
            assert cell(page, option, col) == want


def test_growth_sentences_name_the_best_option_by_measure(staged_loan, rebuild):
    """staged_loan: a 35% retrofit premium, reserving pays; rebuild: no premium, the
    later extension wins."""
    for m, _, pages in (staged_loan, rebuild):
        g = growth_options(m).loc["hundreds"]
        text = text_of(section(pages["en"], "growth"))
        npv = g["npv"]
        best = npv.idxmax()
        name = {
            "at_once": "building the final size at once",
            "staged_headroom": "staging with the headroom reserved",
            "staged_rebuild": "staging and extending the hall later",
        }
        assert f"NPV: {name[best]} is best at {plain(f.money(npv[best]))}" in text
        funding = g["peak_funding"]
        low = funding.idxmin()
        assert f"Peak funding need: {name[low]} is best at {plain(f.money(funding[low]))}" in text
        # reserving pays for itself exactly when its NPV beats the later extension's
        diff = npv["staged_headroom"] - npv["staged_rebuild"]
        pays = "At these inputs reserving pays for itself"
        assert (pays in text) == (diff >= 0)
        assert ("it would take a retrofit premium above" in text) == (diff < 0)
        assert plain(f.money(abs(diff))) in text
        maxim = "the numbers bear out the source's advice"
        assert (maxim in text) == (best == "staged_headroom")
        if best != "staged_headroom":
            assert "the numbers do not bear it out" in text or "but not against" in text


def test_break_even_premium_makes_the_two_stagings_equal(rebuild):
    m, _, pages = rebuild
    g = growth_options(m).loc["hundreds"]
    be = float(g.loc["staged_rebuild", "breakeven_premium"])
    a = cm.load_assumptions(DEFAULT, REBUILD, overrides={"facility.retrofit_premium": be})
    assert cm.build(a).summary().loc["hundreds", "npv"] == pytest.approx(
        g.loc["staged_headroom", "npv"], abs=1.0
    )
    assert f.pct(be, 1) in text_of(section(pages["en"], "growth"))


def test_no_stages_no_growth_section():
    _, _, pages = memo(langs=("en", "zh"))
    for page in pages.values():
        assert 'id="growth"' not in page and 'href="#growth"' not in page
        assert 'id="financing"' not in page


def dscr_of(m: cm.Model, tier: str) -> tuple[float, int, int, int]:
    """Min DSCR over years with debt service, its year, and how many years."""
    y = m.annual(tier)
    y = y[y["debt_service"] > 0]
    dscr = y["cfads"] / y["debt_service"]
    return float(dscr.min()), int(dscr.idxmin()), len(dscr), dscr


@pytest.mark.parametrize("covenant", [1.2, 3.0])
def test_financing_states_min_dscr_against_the_covenant(covenant):
    # the tens tier sold by the hour (the default's is captive) at a price that services a loan
    over = {
        "tiers.tens.revenue.mode": "rental",
        "tiers.tens.revenue.price_per_gpu_hour": 40.0,
        "financing.min_dscr_covenant": covenant,
    }
    m, _, pages = memo(LOAN, overrides=over, langs=("en",))
    low, year, n, dscr = dscr_of(m, "tens")
    assert m.summary().loc["tens", "min_dscr"] == pytest.approx(low)
    page = section(pages["en"], "financing")
    item = text_of(re.search(r'<li data-tier="tens">(.*?)</li>', page, flags=re.S).group(1))
    ratio = f"{low:.2f}×"
    assert f"Its minimum DSCR, {ratio} in year {year}" in item
    assert f"{covenant:.2f}× covenant" in item
    breaches = int((dscr < covenant).sum())
    if low >= covenant:
        assert f"clears the {covenant:.2f}× covenant by {low - covenant:.2f}×" in item
        assert "below" not in item
    else:
        assert f"breached in {breaches} of the {n} years" in item
        assert "clears" not in item
    eq = m.summary().loc["tens"]
    assert plain(f.money(eq["equity_npv"])) in item and f.pct(eq["equity_irr"]) in item
    assert plain(f.money(eq["debt_peak"])) in item
    assert "4.50% a year" in text_of(page) and "over 5 years" in text_of(page)


@pytest.mark.parametrize("months", [6, 9])
def test_construction_months_in_the_decision(months):
    over = {"timeline.build_months": months, "timeline.ramp_months": 3}
    m, _, pages = memo(overrides=over, langs=("en", "zh"))
    first = pd.Period(m.assumptions.start, freq="M") - 1  # month 0
    start, full = first + months + 1, first + months + 3
    text = text_of(decision_of(pages["en"]))
    assert f"construction takes {months} months and the ramp 3 more" in text
    assert f"revenue starts in {start:%B %Y} (month {months + 1})" in text
    assert f"reached in {full:%B %Y}" in text
    zh = text_of(decision_of(pages["zh"]))
    assert (
        f"建设期 {months} 个月" in zh
        and f"{start.year} 年 {start.month} 月（第 {months + 1} 月）" in zh
    )
    funding = m.summary()["peak_funding"]
    for t in m.tiers:
        assert plain(f.money(funding[t])) in text


MARKET = {
    "terminal_value": "market",
    "depreciation.servers.market_decline": 0.3,
    "depreciation.network.market_decline": 0.3,
    "depreciation.storage.market_decline": 0.3,
    "depreciation.facility.market_decline": 0.05,
    "finance.loss_carryforward_years": 5,
    # the smallest option sold at the bottom of its price range makes a tax loss every
    # year: its first years' losses are older than 5 years before the horizon ends
    "tiers.tens.revenue.price_per_gpu_hour": 10.0,
}


def test_market_value_and_expiring_losses():
    m, _, pages = memo(overrides={**MARKET, **TIMING}, langs=("en",))
    assert m.annual("tens")["loss_expired"].sum() > 0
    text = text_of(decision_of(pages["en"]))
    for t in m.tiers:
        cf = m.cash_flow(t).iloc[-1]
        nbv = m.depreciation(t).iloc[-1]
        book = sum(nbv[f"nbv_{c}"] for c in ("servers", "network", "storage", "facility"))
        # the gain is taxed inside the loss pool (methodology §11.9): at most the
        # tax rate times the gain, nothing where losses absorb it
        gain = cf["terminal_value"] - book
        assert 0 <= cf["terminal_tax"] <= 0.25 * gain * (1 + 1e-12)
        if cf["terminal_tax"] > 0:
            assert f"tax on the gain after tax losses {plain(f.money(cf['terminal_tax']))}" in text
        else:
            assert "the gain is offset by tax losses: no tax" in text
        assert (
            f"{plain(f.money(cf['terminal_value']))} against a book value of {plain(f.money(book))}"
        ) in text
        expired = m.annual(t)["loss_expired"].sum()
        if expired > 0:
            assert plain(f.money(expired)) in text
    assert "can be carried forward only 5 years" in text


def test_no_market_no_expiry_sentence():
    """At book value and with losses carried forward without limit (the default has a
    market terminal value and a five-year carry-forward), neither sentence appears."""
    book = {"terminal_value": "book", "finance.loss_carryforward_years": None}
    m, _, pages = memo(STAGED, LOAN, overrides={**TIMING, **book}, langs=("en",))
    assert m.assumptions.terminal_value == "book"
    assert m.assumptions.finance.loss_carryforward_years is None
    text = text_of(decision_of(pages["en"]))
    assert "market price" not in text and "carried forward only" not in text


def test_zh_growth_and_financing_memo_is_chinese(staged_loan):
    """The zh memo with stages, a loan and construction passes the Chinese checks:
    no stray English, full-width punctuation in prose."""
    _, _, pages = staged_loan
    page = pages["zh"]
    appendix = page.index('<h3 id="assumptions"')
    text = text_of(page[:appendix], keep_marked_english=False)
    assert set(re.findall(r"[A-Za-z][A-Za-z]{3,}", text)) - ALLOWED_LATIN == set()
    assert (
        re.findall(r"[\u4e00-\u9fff）][,.:;] |[,.:;] [\u4e00-\u9fff（]|[\u4e00-\u9fff]\(", text)
        == []
    )
    for ident in ("growth", "financing"):
        assert f'id="{ident}"' in page
    assert "分期建设还是一步到位" in page and "偿债备付率" in page and "偿债覆盖率" not in page


def test_the_tax_regime_in_force():
    """The sentence follows the inputs: rate, carry-forward, classes expensed."""
    over = {"depreciation.servers.tax_method": "expensed", "finance.tax_rate": 0.15}
    over["finance.loss_carryforward_years"] = 10
    m, _, pages = memo(overrides=over, langs=("en", "zh"))
    en = text_of(decision_of(pages["en"]))
    assert (
        "Profits are taxed at 15%, with losses carried forward 10 years; servers are deducted "
        "in full for tax in the year they enter service (expensing) rather than depreciated."
    ) in en
    assert "tax_method" not in en  # an input's name is not prose
    zh = text_of(decision_of(pages["zh"]))
    assert "企业所得税税率 15%，亏损可结转 10 年；服务器在投入使用当年一次性税前扣除" in zh
    m, _, pages = memo(overrides={"finance.loss_carryforward_years": None}, langs=("en",))
    en = text_of(decision_of(pages["en"]))
    assert "Profits are taxed at 25%, with losses carried forward without limit." in en


#: a 10-year loan on the 6-year default at a GPU-hour price of 30: the owners' cash
#: flows of hundreds and thousands repay a balloon at M and have two roots each
TWO_ROOTS = {"financing.term_years": 10, "revenue.price_per_gpu_hour": 30.0}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_irr_among_several_roots_is_said_to_be_one(lang):
    """Methodology §11.2: where the equity flow has several roots, the financing
    section says so beside the equity IRR it quotes (the root where NPV falls), and
    the comparison table footnotes that IRR; a tier with one root gets neither."""
    m, _, pages = memo(LOAN, overrides=TWO_ROOTS, langs=(lang,))
    roots = m.irr_roots()
    assert {t: r["equity_irr"] for t, r in roots.items()} == {
        "tens": 0,
        "hundreds": 2,
        "thousands": 2,
    }
    fin_text = text_of(section(pages[lang], "financing"))
    words = "has 2 IRR roots" if lang == "en" else "有 2 个内部收益率根"
    assert fin_text.count(words) == 2
    for t in ("hundreds", "thousands"):
        quoted = plain(f.pct(m.summary().loc[t, "equity_irr"]))
        sentence = re.search(rf"[^.。]*{re.escape(words)}[^.。]*{re.escape(quoted)}", fin_text)
        assert sentence is not None, (t, quoted)
    table = section(pages[lang], "compare")
    cell_html = re.search(
        r'data-tier="hundreds" data-metric="equity_irr">([^<]*)<sup class="fn">(\d+)</sup>', table
    )
    assert cell_html is not None
    note = re.search(rf'<p id="fn-{cell_html.group(2)}">(.*?)</p>', table, flags=re.S).group(1)
    assert ("several roots" if lang == "en" else "多个根") in note
    # tens (no IRR: its owners' NPV never falls through 0) is footnoted as empty
    tens = re.search(r'data-tier="tens" data-metric="equity_irr">–<sup class="fn">(\d+)<', table)
    assert tens.group(1) != cell_html.group(2)
    empty = re.search(rf'<p id="fn-{tens.group(1)}">(.*?)</p>', table, flags=re.S).group(1)
    assert ("no IRR" if lang == "en" else "无内部收益率") in empty


def test_one_root_irrs_carry_no_roots_note():
    m, _, pages = memo(langs=("en",))
    assert all(r == {"irr": 1, "equity_irr": 1} for r in m.irr_roots().values())
    assert "several roots" not in pages["en"] and "IRR roots" not in pages["en"]
