"""The memo leads with what decides (methodology §15, §17): the sign of the best
option across sites, and the options the chip policy rules out, in both languages,
chosen by the numbers."""

from __future__ import annotations

import re
import warnings
from html import unescape

import pytest

import costmodel as cm
from costmodel.analysis.sitecompare import compare_sites
from costmodel.inputs.errors import AssumptionWarning
from costmodel.inputs.quotes import months_between
from costmodel.inputs.resources import scenarios_dir
from costmodel.report.memo import numbers as f
from costmodel.report.memo.render import render_memo
from tests.paths import DATA

TWO_SITES = DATA / "two-sites.yaml"


def text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", "", html))).strip()


def paragraphs(html: str, lang: str) -> list[str]:
    """The executive summary's paragraphs, as text (spaces normalised)."""
    head = "执行摘要" if lang == "zh" else "Executive summary"
    at = html.index(head, html.index("</nav>") if "</nav>" in html else 0)
    section = html[at : html.index("</section>", at)]
    return [text(p) for p in re.findall(r"<p[^>]*>(.*?)</p>", section, re.S)]


def money(v: float, lang: str) -> str:
    return re.sub(r"\s+", " ", f.money(v, lang, "CNY"))


@pytest.fixture(scope="module")
def two_sites():
    # the default's H200 sold at 17 CNY/GPU-h at the start, spot and under contract: the price at
    # which the sites' power, rent and tax decide the sign of the thousands option
    prices = {
        "revenue.price_per_gpu_hour": 17.0,
        "revenue.price_per_gpu_hour.as_of": "2027-01",
        "revenue.contract.price_per_gpu_hour": 17.0,
        "revenue.contract.price_per_gpu_hour.as_of": "2027-01",
    }
    a = cm.load_assumptions("default", TWO_SITES, overrides=prices)
    return cm.build(a), compare_sites(a, "east,west")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_sign_that_changes_by_site_is_said_first_with_the_numbers(two_sites, lang):
    model, c = two_sites
    west = c.wide.loc[("west", "thousands")]
    east = c.wide.loc[("east", "thousands")]
    # the numbers themselves decide: the thousands tier gains in the west, loses in the east
    assert west["npv"] > 0 > east["npv"]
    assert c.wide.loc["east", "npv"].max() < 0
    first = paragraphs(render_memo(model, lang), lang)[0]
    lead = "Where it is built decides the answer." if lang == "en" else "建在哪里决定结论。"
    assert first.startswith(lead)
    assert money(float(west["npv"]), lang) in first
    assert money(float(east["npv"]), lang) in first or money(-float(east["npv"]), lang) in first
    assert f.pct(float(west["irr"])) in first
    assert ("Western computing hub" if lang == "en" else "西部算力枢纽") in first
    assert ("Tier-1 east coast" if lang == "en" else "东部一线城市") in first


def test_one_site_or_the_same_sign_says_nothing_of_sites():
    a = cm.load_assumptions("default", TWO_SITES, overrides={"sites.west.price_factor": 0.5})
    c = compare_sites(a, "east,west")
    assert c.wide.loc["west", "npv"].max() < 0  # both sites lose
    first = paragraphs(render_memo(cm.build(a), "en"), "en")[0]
    assert "Where it is built" not in first


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_domestic_only_memo_names_each_excluded_option_and_the_rule(lang):
    # the state park's thousands option is domestic (CloudMatrix 384) and the
    # domestic tier's hundreds (Ascend 910C): the H200 tens tier alone is out
    paths = ["default", scenarios_dir() / "domestic-tier.yaml", scenarios_dir() / "state-park.yaml"]
    model = cm.build(cm.load_assumptions(*paths))
    s = model.summary()
    out = [t for t in model.tiers if not s.loc[t, "feasible"]]
    assert out == ["tens"]
    paras = paragraphs(render_memo(model, lang), lang)
    first = paras[0]
    assert "policy.domestic_only" in first
    assert first.count("h200") == 1
    if lang == "en":
        assert first.startswith("1 of the 3 options cannot be built under the chip policy")
        assert "and is left out of the decision" in first
    else:
        assert first.startswith("在芯片政策下，3 个方案中有 1 个无法建设")
    # the decision that follows is about the feasible options
    assert "910C" in " ".join(paras[1:4]) or "CloudMatrix" in " ".join(paras[1:4])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_two_options_out_are_said_in_the_plural(lang):
    model = cm.build(cm.load_assumptions("default", scenarios_dir() / "state-park.yaml"))
    first = paragraphs(render_memo(model, lang), lang)[0]
    if lang == "en":
        assert first.startswith("2 of the 3 options cannot be built under the chip policy")
        assert "and are left out of the decision" in first
    else:
        assert first.startswith("在芯片政策下，3 个方案中有 2 个无法建设")
    assert first.count("h200") == 2


def test_the_assumed_year_1_price_is_the_quote_rolled_and_factored():
    """The hundreds tier's quote of 16 observed 2025-03, rolled at its 10%/yr to the
    start, at a site whose price factor is 0.97: the memo's year-1 price of the tier
    is 16 x 0.9^(months / 12) x 0.97, not the 16 written."""
    over = {
        "tiers.hundreds.revenue.price_per_gpu_hour": {"value": 16, "as_of": "2025-03"},
        "tiers.hundreds.revenue.price_decline": 0.1,
        "site": "west",
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AssumptionWarning)
        a = cm.load_assumptions("default", TWO_SITES, overrides=over)
    m = cm.build(a)
    sold = 16 * 0.9 ** (months_between(a.start, "2025-03") / 12) * 0.97
    assert m.selling_price("hundreds") == pytest.approx(sold, rel=1e-12)
    html = render_memo(m, "en")
    cells = [c.strip() for c in re.findall(r'data-metric="price"[^>]*>([^<]*)<', html)]
    assert cells[m.tiers.index("hundreds")] == f"{sold:.2f}"


def test_both_memos_compare_the_sites_once(monkeypatch, tmp_path):
    """The English and Chinese memos read the same comparison of sites and sweep at
    each site: one computation of each for the two files."""
    from costmodel.analysis import sitecompare, sweep
    from costmodel.report.memo.render import write_memos

    counts = {"compare": 0, "sweep": 0}
    real_compare, real_sweep = sitecompare.compare_sites, sweep.sweep

    def compare(*args, **kw):
        counts["compare"] += 1
        return real_compare(*args, **kw)

    def swept(*args, **kw):
        counts["sweep"] += bool(kw.get("sites"))
        return real_sweep(*args, **kw)

    monkeypatch.setattr("costmodel.report.memo.sites_section.compare_sites", compare)
    monkeypatch.setattr(sweep, "sweep", swept)
    model = cm.build(cm.load_assumptions())
    assert len(model.assumptions.sites) >= 2  # the default names several sites
    analysis = cm.analyze(model, draws=0)
    write_memos(model, {"en": tmp_path / "en.html", "zh": tmp_path / "zh.html"}, None, analysis)
    assert counts == {"compare": 1, "sweep": 1}
