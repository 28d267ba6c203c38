"""The executive summary's captive headline and its chip-supply risk follow the data:
a captive tier (revenue mode ``avoided_cloud``) is judged by building against
renting, apart from the options sold to tenants; an option on a chip of foreign
origin carries an import-risk sentence, which disappears when its SKU is domestic.
Expected figures are computed here from the model's inputs and the engine's own
identities (an NPV of zero at the break-even utilization), not read back from the
sentences' code."""

from __future__ import annotations

import re

import numpy as np
import pytest

import costmodel as cm
from costmodel.analysis.bundle import analyze
from costmodel.inputs.resources import default_assumptions_dir
from costmodel.report.memo import numbers as f
from costmodel.report.memo.render import render_memo
from tests.report.test_memo_decision import SCEN, plain, section, text_of


def memos(overrides=None, scenario=None):
    paths = [default_assumptions_dir(), SCEN / scenario] if scenario else None
    a = cm.load_assumptions(*(paths or []), overrides=overrides or {})
    m = cm.build(a)
    an = analyze(m, draws=0)
    return m, {lang: render_memo(m, lang, analysis=an) for lang in ("en", "zh")}


@pytest.fixture(scope="module")
def default():
    return memos()


def summary_text(page: str) -> str:
    return text_of(section(page, "summary"))


def test_captive_tier_headline_is_build_against_rent(default):
    """The default's tens tier is captive: its headline says what building costs
    against renting the same GPU-hours on demand, with the utilization at which
    building pays (NPV = 0 there: checked by the engine at either side of it)."""
    m, pages = default
    s = m.summary()
    assert m.assumptions.tiers["tens"].revenue.mode == "avoided_cloud"
    npv = float(s.loc["tens", "npv"])
    assert npv < 0
    en = summary_text(pages["en"])
    label = m.assumptions.tiers["tens"].label
    amount = plain(f.money(-npv, "en"))
    hours = plain(f.count(float(s.loc["tens", "gpu_hours"]), "en"))
    quote = m.assumptions.servers["h200"].cloud_on_demand_per_gpu_hour
    # the cloud's quote of 2026-04 as sold at the 2027-01 start: 9 months at 10%/yr
    assert (quote.as_of, m.assumptions.revenue.price_decline.value) == ("2026-04", 0.1)
    cloud = quote.value * 0.9 ** (9 / 12)
    assert m.selling_price("tens") == pytest.approx(cloud, rel=1e-12)
    assert (
        f"{label} is an enterprise's own cluster, valued against renting (revenue mode "
        f"): building it costs {amount} more in present value, after tax, than renting "
        f"the same {hours} GPU-hours at the on-demand cloud price of "
        f"{plain(f.price(cloud, 'en'))}" in en
    )
    assert "Renting is the cheaper choice." in en
    path = m.inputs["tens"].paths()["utilization"]
    full = cm.run_variants(m.assumptions, {path: 1.0}, ["tens"])["tens"].metrics["npv"][0]
    u = re.search(r"building pays only above a utilization of ([\d.]+)%", en)
    if full < 0:  # even every hour used does not pay: the sentence says so
        assert u is None and "no utilization up to 100% makes building pay" in en
    else:
        assert u, en
        util = float(u.group(1)) / 100
        runs = cm.run_variants(
            m.assumptions, {path: np.array([util - 0.002, util + 0.002])}, ["tens"]
        )
        lo, hi = runs["tens"].metrics["npv"]
        assert lo < 0 < hi  # the stated utilization is where building starts to pay
    zh = summary_text(pages["zh"])
    assert f"自建比以按需云价格 {plain(f.price(cloud, 'zh'))}租用同等的" in zh
    assert f"多花 {plain(f.money(-npv, 'zh'))}" in zh and "租用更省钱" in zh


def test_captive_tier_is_ranked_apart_from_the_options_sold(default):
    """The ranking by NPV per unit of capex names only the options sold to tenants;
    the captive tier's return rows carry a footnote instead of a star."""
    m, pages = default
    s = m.summary()
    en = summary_text(pages["en"])
    sold = [t for t in m.tiers if t != "tens"]
    smallest = max(sold, key=lambda t: s.loc[t, "npv"])
    assert "No option that sells GPU-hours is worth building" in en
    assert f"{m.assumptions.tiers[smallest].label} has the smallest loss in absolute terms" in en
    assert f"{m.assumptions.tiers['tens'].label} has the smallest loss" not in en
    compare = section(pages["en"], "compare")
    cell = re.search(r'<td[^>]*data-tier="tens" data-metric="roi">(.*?)</td>', compare, re.S)
    assert cell and '<sup class="fn">' in cell.group(1) and "★" not in cell.group(1)
    assert "not a return on capital" in text_of(compare)


def test_captive_headline_turns_with_the_sign_of_the_saving():
    """A cloud price high enough makes building cheaper: the headline says so."""
    m, pages = memos({"servers.h200.cloud_on_demand_per_gpu_hour": 60.0})
    npv = float(m.summary().loc["tens", "npv"])
    assert npv > 0
    en = summary_text(pages["en"])
    assert f"building it costs {plain(f.money(npv, 'en'))} less in present value" in en
    assert "Building is the cheaper choice." in en and "Renting is the cheaper" not in en
    assert "自建更省钱" in summary_text(pages["zh"])


def test_no_captive_headline_for_a_tier_sold_by_the_hour():
    m, pages = memos({"tiers.tens.revenue.mode": "rental"})
    en = summary_text(pages["en"])
    assert "enterprise's own cluster" not in en
    assert "No option is worth building at the assumed prices" in en
    assert "†" not in section(pages["en"], "summary")


def test_supply_sentence_names_the_foreign_chip_its_source_and_lead_time(default):
    m, pages = default
    lead = m.assumptions.servers["h200"].lead_months
    assert m.assumptions.servers["h200"].origin == "foreign"
    en = summary_text(pages["en"])
    labels = ", ".join(m.assumptions.tiers[t].label for t in m.tiers)
    assert f"Chip supply. {labels} run the H200 (server ), a chip of foreign origin" in en
    assert "approvals given first to three large internet companies" in en  # its source
    assert f"The model assumes delivery {lead.value:g} months after order, up to " in en
    assert f"up to {lead.high:g} months at the high of its range" in en
    domestic = [k for k, v in m.assumptions.servers.items() if v.origin == "domestic"]
    assert domestic
    codes = ", ".join(f"<code>{k}</code>" for k in domestic)
    assert f"the catalogue's domestic servers are {codes}." in section(pages["en"], "summary")
    zh = summary_text(pages["zh"])
    assert "芯片供应" in zh and "为境外芯片，进口须经中国审批" in zh
    assert f"模型假设下单后 {lead.value:g} 个月交付" in zh
    for t in m.tiers:  # and in each option's profile
        profile = text_of(section(pages["en"], "options"))
        assert f"Chip supply. {m.assumptions.tiers[t].label} runs the H200" in profile


def test_supply_sentence_disappears_for_a_domestic_sku():
    """One tier on a domestic SKU: it is no longer named; every SKU domestic: no
    sentence at all."""
    m, pages = memos({"tiers.tens.server": "ascend910b"})
    en = summary_text(pages["en"])
    sold = ", ".join(m.assumptions.tiers[t].label for t in ("hundreds", "thousands"))
    assert f"Chip supply. {sold} run the H200" in en
    assert m.assumptions.tiers["tens"].label not in en.split("Chip supply.")[1].split(".")[0]
    _, pages = memos({"servers.h200.origin": "domestic"})
    for lang, word in (("en", "Chip supply"), ("zh", "芯片供应")):
        assert word not in text_of(pages[lang])


def test_supply_sentence_is_left_out_where_the_policy_already_excludes_the_tier():
    """Under a domestic-only policy the foreign options are excluded (and said so):
    the supply sentence would repeat it."""
    m, pages = memos(scenario="state-park.yaml")
    assert not m.summary()["feasible"].all()
    en = summary_text(pages["en"])
    assert "cannot be built under the chip policy" in en
    assert "Chip supply" not in en
