"""The memo's decision and risk sentences follow the numbers: turn the inputs
around and the sentences turn with them. Expected figures are written here from
the inputs (independent arithmetic), not read back from the code under test."""

from __future__ import annotations

import html as htmllib
import re

import numpy as np
import pytest

import costmodel as cm
from costmodel.analysis.bundle import analyze
from costmodel.inputs.resources import default_assumptions_dir
from costmodel.report.memo import numbers as f
from costmodel.report.memo.render import render_memo


def text_of(page: str, keep_marked_english: bool = True) -> str:
    """Visible text: no style, no code; svg text kept (chart labels are read too).
    ``keep_marked_english=False`` drops elements marked ``lang="en"`` (text quoted
    from the assumption files) together with their content."""
    s = re.sub(r"<style\b.*?</style>|<head>.*?</head>", " ", page, flags=re.S)
    s = re.sub(r"<code\b.*?</code>", " ", s, flags=re.S)
    if not keep_marked_english:
        s = re.sub(r'<(span|td)\b[^>]*lang="en"[^>]*>.*?</\1>', " ", s, flags=re.S)
    s = re.sub(r"</?(strong|em|span|sup|a|bdi)\b[^>]*>", "", s)  # inline: no space
    s = re.sub(r"<[^>]+>", " ", s)
    s = htmllib.unescape(s).replace("\u00a0", " ").replace("\u2011", "-")
    return re.sub(r"\s+", " ", s)


def plain(s: str) -> str:
    """A formatted figure as :func:`text_of` shows it."""
    return s.replace("\u00a0", " ").replace("\u2011", "-")


def section(page: str, ident: str) -> str:
    """The HTML of ``<section id=ident>``."""
    start = page.index(f'<section id="{ident}"')
    return page[start : page.index("</section>", start)]


SCEN = default_assumptions_dir().parent / "scenarios"


def decision_of(page: str) -> str:
    """The HTML of the executive summary and of what lies behind it."""
    return section(page, "summary") + section(page, "decision-detail")


def memo_of(overrides=None, draws=400):
    m = cm.build(cm.load_assumptions(overrides=overrides or {}))
    an = analyze(m, draws=draws, seed=7)
    return m, an, {lang: render_memo(m, lang, analysis=an) for lang in ("en", "zh")}


@pytest.fixture(scope="module")
def default():
    return memo_of()


# The smallest option sold at the bottom of its price range: every option loses money.
SPLIT = {"tiers.tens.revenue.price_per_gpu_hour": 10.0}


def every_price_at(m, price: float) -> dict[str, float]:
    """Overrides selling every tier's GPU-hours at ``price``, spot and under contract."""
    return {
        f"tiers.{t}.revenue.{key}": price
        for t in m.tiers
        for key in ("price_per_gpu_hour", "contract.price_per_gpu_hour")
    }


@pytest.fixture(scope="module")
def split():
    return memo_of(SPLIT)


def on_demand(m, price: float) -> dict[str, float]:
    """Overrides setting the on-demand cloud price of every tier's server."""
    return {
        f"servers.{m.assumptions.tiers[t].server}.cloud_on_demand_per_gpu_hour": price
        for t in m.tiers
    }


def gpu(m, t: str) -> str:
    """The GPU name the memo derives, written here from the server key (h200 -> H200)."""
    return m.assumptions.tiers[t].server.upper()


def quantity(a, path: str):
    obj = a
    for part in path.split("."):
        obj = obj[part] if isinstance(obj, dict) else getattr(obj, part)
    return obj


# ----------------------------------------------------------------------------- build vs rent


def test_build_wins_when_cloud_prices_are_raised(default):
    """Cloud prices far above the cost of building: the summary says building is
    cheaper, and no sentence says renting is."""
    a = cm.load_assumptions(overrides=on_demand(default[0], 60.0))
    m = cm.build(a)
    an = analyze(m, draws=0)
    rent = an.build_vs_rent
    assert (rent["saving"] > 0).all()
    page = render_memo(m, "en", analysis=an)
    en, summary = text_of(page), text_of(decision_of(page))
    assert "building costs less in present value than renting the same GPU-hours" in summary
    assert "renting the same GPU-hours costs less" not in en
    assert "costs less in present value than building" not in en
    assert "Renting would be cheaper" not in en
    for t in m.tiers:
        assert f"{a.tiers[t].label} by {plain(f.money(rent.loc[t, 'saving']))}" in summary
    zh = text_of(decision_of(render_memo(m, "zh", analysis=an)))
    assert "自建的现值成本低于租用同样卡时" in zh
    assert "租用同样卡时的现值成本都低于自建" not in zh


def test_rent_wins_when_cloud_prices_are_lowered(default):
    """Cloud prices below every option's levelized cost: the summary says renting is
    cheaper for every option. (PV of renting = sum of hours x price x price index x
    discount <= price x PV of the hours, the index being at most 1; the PV of building
    = levelized cost x PV of the hours; so a price below the cost makes renting
    cheaper.)"""
    cheap = 8.0
    assert cheap < default[0].summary()["cost_per_gpu_hour"].min()
    m = cm.build(cm.load_assumptions(overrides=on_demand(default[0], cheap)))
    an = analyze(m, draws=0)
    assert (an.build_vs_rent["saving"] < 0).all()
    summary = text_of(decision_of(render_memo(m, "en", analysis=an)))
    assert "renting the same GPU-hours costs less in present value than building, for every" in (
        summary
    )
    assert "building costs less in present value than renting" not in summary


# ----------------------------------------------------------------------------- decision


def test_positive_npv_is_recommended_and_measured_per_capex():
    # the tens tier sold by the hour (the default's is captive) at 40 CNY/GPU-h
    a = cm.load_assumptions(
        overrides={
            "tiers.tens.revenue.mode": "rental",
            "tiers.tens.revenue.price_per_gpu_hour": 40.0,
        }
    )
    m = cm.build(a)
    s = m.summary()
    assert s.loc["tens", "npv"] > 0 and (s.drop(index="tens")["npv"] < 0).all()
    an = analyze(m, draws=0)
    summary = text_of(decision_of(render_memo(m, "en", analysis=an)))
    assert f"We recommend {a.tiers['tens'].label}." in summary
    pi = s.loc["tens", "npv"] / s.loc["tens", "capex"]
    assert f"Each CNY of its capex adds {f.pct(pi)} in present value (rank 1 of 3" in summary
    assert "No option is worth building" not in summary
    zh = text_of(decision_of(render_memo(m, "zh", analysis=an)))
    assert f"建议选择数十卡方案（32 张 {gpu(m, 'tens')}）" in zh


def test_all_negative_never_calls_the_smallest_best(default):
    """Every GPU-hour sold at 10 CNY: every NPV is negative; the smallest option loses
    least in absolute terms (it is the smallest) but not least per unit of capex."""
    sold = {"tiers.tens.revenue.mode": "rental"}  # a captive tier is judged apart
    m = cm.build(cm.load_assumptions(overrides={**every_price_at(default[0], 10.0), **sold}))
    pages = {"en": render_memo(m, "en", analysis=analyze(m, draws=0))}
    s = m.summary()
    assert (s["npv"] < 0).all()
    summary = text_of(decision_of(pages["en"]))
    smallest = s["capex"].idxmin()
    pi = s["npv"] / s["capex"]
    assert s["npv"].idxmax() == smallest != pi.idxmax()
    closest = m.assumptions.tiers[pi.idxmax()].label
    assert f"By that measure {closest} comes closest to paying" in summary
    assert f"it loses {f.pct(-pi.max())} of each CNY invested" in summary
    label = m.assumptions.tiers[smallest].label
    assert f"{label} has the smallest loss in absolute terms" in summary
    assert "only because it is the smallest project" in summary
    assert "recommend" not in summary.lower()
    assert "least-bad" not in summary and "best" not in summary


def test_one_tier_first_by_both_measures(default):
    """The larger options sold at 6 CNY per GPU-hour, the smallest at its own price:
    the smallest loses least both in total and per unit of capex."""
    m0 = default[0]
    smallest = m0.summary()["capex"].idxmin()
    larger = [t for t in m0.tiers if t != smallest]
    over = {k: v for k, v in every_price_at(m0, 6.0).items() if k.split(".")[1] in larger}
    over["tiers.tens.revenue.mode"] = "rental"  # a captive tier is judged apart
    m = cm.build(cm.load_assumptions(overrides=over))
    s = m.summary()
    pi = s["npv"] / s["capex"]
    assert (s["npv"] < 0).all() and s["npv"].idxmax() == pi.idxmax() == smallest
    summary = text_of(decision_of(render_memo(m, "en", analysis=analyze(m, draws=0))))
    label = m.assumptions.tiers[smallest].label
    assert f"{label} comes closest to paying by both measures" in summary


def test_stars_reward_quality_not_size(default):
    """No ★ on capex, revenue, NPV, opex or MTBF (size); ★ on cost per GPU-hour."""
    m, _, pages = default
    compare = section(pages["en"], "compare")
    for metric in ("capex", "revenue", "npv", "opex_year1", "mtbf_hours", "tco"):
        row = re.search(rf'<tr data-metric="{metric}">.*?</tr>', compare, flags=re.S)
        assert row is not None and "★" not in row.group(0), metric
    s = m.summary()
    best = s["cost_per_gpu_hour"].idxmin()
    row = re.search(r'<tr data-metric="cost_per_gpu_hour">.*?</tr>', compare, flags=re.S)
    cell = re.search(rf'data-tier="{best}"[^>]*>[^<]*<span class="star"', row.group(0))
    assert cell is not None


def test_base_case_percentile_in_the_monte_carlo(split):
    m, an, pages = split
    s = m.summary()
    t = (s["npv"] / s["capex"]).idxmax()
    draws = an.monte_carlo.draws[t]["npv"].to_numpy(float)
    q = float(np.mean(draws <= s.loc[t, "npv"]))
    assert q > 0.6  # the base case is optimistic
    summary = text_of(decision_of(pages["en"]))
    label = m.assumptions.tiers[t].label
    p50 = plain(f.money(float(np.median(draws))))
    assert (
        f"The base case is optimistic: for {label} it beats {f.pct(q, 0)} of the 400 Monte Carlo "
        f"draws; the median draw has an NPV of {p50}"
    ) in summary


def test_selling_price_above_cloud_price_is_flagged(default):
    """Hundreds sold at 1.25 x the on-demand price of its GPU: flagged with both
    prices and the gap; at or below the cloud price (the default): no flag."""
    m, _, pages = default
    o = m.inputs["hundreds"].values()
    assert o["price_per_gpu_hour"] <= o["cloud_price_per_gpu_hour"]
    assert "customers can rent the same hour for less" not in text_of(pages["en"])
    # the cloud's quote (as_of 2026-04) as sold at the start: rolled 9 months at 10%/yr;
    # a tier price written without as_of is a price at the start
    assert o["cloud_roll_months"] == 9 and o["price_decline"] == 0.1
    cloud = o["cloud_price_per_gpu_hour"] * 0.9**0.75
    a = cm.load_assumptions(overrides={"tiers.hundreds.revenue.price_per_gpu_hour": cloud * 1.25})
    m2 = cm.build(a)
    summary = text_of(decision_of(render_memo(m2, "en", analysis=analyze(m2, draws=0))))
    label = a.tiers["hundreds"].label
    assert (
        f"{label} {plain(f.price(cloud * 1.25))} against {plain(f.price(cloud))} on-demand, +25.0%"
        in (summary)
    )
    assert "customers can rent the same hour for less" in summary


def test_utilization_above_its_sources_range_is_flagged():
    a = cm.load_assumptions(overrides={"tiers.hundreds.operations.utilization": 0.95})
    m = cm.build(a)
    summary = text_of(decision_of(render_memo(m, "en", analysis=analyze(m, draws=0))))
    label = a.tiers["hundreds"].label
    high = a.operations.utilization.high
    assert f"The assumed utilization of {label}, 95.0%, is above the {f.pct(high)}" in summary


# ----------------------------------------------------------------------------- risks


def test_mfu_what_if_uses_the_tiers_own_mfu(default):
    """Hundreds: MFU input 0.45, the source's degraded 0.20: 1 - 0.20/0.45 = 55.6% of
    the compute lost, and that share of the PV of cost."""
    m, _, pages = default
    v = m.inputs["hundreds"].values()
    assert v["mfu"] == 0.45 and m.assumptions.risks.degraded_mfu.value == 0.20
    loss = 1 - 0.20 / 0.45
    pv_cost = m.results["hundreds"].metrics["pv_cost"][0]
    text = text_of(pages["en"][: pages["en"].index('<h3 id="assumptions"')])
    assert "The model assumes an MFU of 45% for this option." in text
    assert f"each GPU-hour yields {f.pct(loss)} less compute" in text
    assert f"{plain(f.money(pv_cost * loss))} of the {plain(f.money(pv_cost))}" in text
    assert "from 50% to 20%" not in text
    zh = text_of(pages["zh"])
    assert "模型对该方案假设的 MFU 为 45%" in zh and f"减少 {f.pct(loss)}" in zh


def test_failure_rate_against_the_sources_and_npv_untouched(default):
    """Thousands: failures per server-day x servers = failures a day as assumed, and
    at the high end of the input's range. With the default's repair downtime failures
    reach NPV through availability only, and the memo gives the NPV at the high rate;
    without repair downtime reliability does not reach NPV, and the memo says so."""
    m, _, pages = default
    t = "thousands"
    v, paths = m.inputs[t].values(), m.inputs[t].paths()
    servers = v["gpus"] / v["gpus_per_server"]
    rate = v["node_failures_per_day"]
    high = quantity(m.assumptions, paths["node_failures_per_day"]).high
    text = text_of(pages["en"])
    assert (
        f"The model assumes {f.number(rate)} job-stopping failures per server a day: on "
        f"{servers:,.0f} servers"
    ) in text
    assert f"({rate * servers:,.2f} a day, {rate * servers * 365:,.0f} a year)" in text
    assert f"({f.number(high)} per server a day, {high * servers:,.2f} a day on this cluster)" in (
        text
    )
    assert v["repair_hours"] > 0
    assert "None of this reaches the NPV" not in text
    assert "The NPV counts only the repair downtime (" in text
    at_high = cm.build(cm.load_assumptions(overrides={paths["node_failures_per_day"]: high}))
    npv_high = at_high.summary().loc[t, "npv"]
    assert npv_high < m.summary().loc[t, "npv"]  # more failures, more hours in repair
    assert f"to {plain(f.money(npv_high))}" in text

    no_repair = {"reliability.repair_hours": 0}
    m0, _, pages0 = memo_of(no_repair, draws=40)
    assert "None of this reaches the NPV" in text_of(pages0["en"])
    a = cm.load_assumptions(overrides={**no_repair, paths["node_failures_per_day"]: high})
    assert np.allclose(cm.build(a).summary()["npv"], m0.summary()["npv"])


def test_checkpoint_write_time_is_not_rounded(default):
    """Hundreds: 1 TB at 60 GB/s (three parallel-file-system nodes writing 20 GB/s
    each, the hundreds design) = 1000 / 60 = 16.67 s, said as 16.7 s, not 17 s."""
    m, _, pages = default
    v = m.inputs["hundreds"].values()
    write = v["storage_node_write_gbps"] * m.summary().loc["hundreds", "storage_nodes"]
    assert (v["checkpoint_tb"], write) == (1.0, 60.0)
    text = text_of(pages["en"])
    assert "One 1 TB checkpoint at 60 GB/s blocks training for 16.7 s" in text
    assert "单次 1 TB 的检查点以 60 GB/s 写入，需阻塞训练 16.7 秒" in text_of(pages["zh"])


def test_backup_copy_priced_from_storage_inputs(default):
    """Tens: checkpoint TB x the storage's price per TB (its node's price over the
    node's usable TB, methodology §28.2)."""
    m, _, pages = default
    v = m.inputs["tens"].values()
    cost = v["checkpoint_tb"] * v["storage_node_price"] / v["storage_node_capacity_tb"]
    text = text_of(pages["en"])
    assert (
        f"A copy of the latest {f.number(v['checkpoint_tb'])} TB checkpoint on shared storage "
        f"costs about {plain(f.money(cost))}"
    ) in text


def test_software_problem_in_numbers(default):
    """Thousands at the degraded MFU against hundreds at its own MFU, per PFLOP-hour:
    cost per PFLOP-hour scales with 1 / MFU."""
    m, _, pages = default
    s = m.summary()
    degraded = m.assumptions.risks.degraded_mfu.value
    mfu = m.inputs["thousands"].values()["mfu"]
    big = s.loc["thousands", "cost_per_pflop_hour"] * mfu / degraded
    mid = s.loc["hundreds", "cost_per_pflop_hour"]
    tiers = m.assumptions.tiers
    expected = (
        f"At {f.pct(degraded, 0)} MFU, {tiers['thousands'].label} costs "
        f"{f.price(big, 'en', 'CNY', 'pflop')}, {big / mid:.1f} times the "
        f"{f.price(mid, 'en', 'CNY', 'pflop')} of {tiers['hundreds'].label}"
    )
    assert plain(expected) in text_of(pages["en"])


def test_no_software_comparison_without_both_scales():
    a = cm.load_assumptions()
    m = cm.build(a.model_copy(update={"tiers": {"tens": a.tiers["tens"]}}))
    text = text_of(render_memo(m, "en"))
    assert "A software problem." not in text


NAMES = {  # the readable names the memo gives these inputs
    "operations.utilization": "utilization",
    "revenue.price_per_gpu_hour": "year-1 price per GPU-hour",
    "revenue.price_decline": "price decline a year",
}


def test_summary_says_what_could_change_it(split):
    """The focus tier's largest tornado swing and its MFU what-if, in the summary."""
    m, an, pages = split
    t = "thousands"
    d = an.tornado
    top = d[(d["tier"] == t) & (d["swing"] > 0)].iloc[0]
    v = m.inputs[t].values()
    degraded = m.assumptions.risks.degraded_mfu.value
    pv_cost = m.results[t].metrics["pv_cost"][0]
    at_stake = pv_cost * (1 - degraded / v["mfu"])
    summary = text_of(decision_of(pages["en"]))
    pflop = m.summary().loc[t, "cost_per_pflop_hour"]
    expected = (
        f"What could change it: Across its range, the {NAMES[top['input']]} moves the NPV "
        f"of {m.assumptions.tiers[t].label} from {f.money(top['at_low'])} to "
        f"{f.money(top['at_high'])}. {m.assumptions.tiers[t].label} is paid per GPU-hour "
        f"whatever the MFU, so a network that drops MFU from {f.pct(v['mfu'], 0)} to "
        f"{f.pct(degraded, 0)} leaves its NPV as modelled unchanged but raises its cost per "
        f"PFLOP-hour from {f.price(pflop, per='pflop')} to "
        f"{f.price(pflop * v['mfu'] / degraded, per='pflop')}"
    )
    assert at_stake > 0
    assert plain(expected) in summary


# ----------------------------------------------------------------------------- Chinese

# Latin words allowed in the Chinese memo's visible text: product and model
# names, units and established abbreviations (the glossary).
ALLOWED_LATIN = {
    # products, standards, software
    "NVIDIA", "NVLink", "NVSwitch", "InfiniBand", "RoCE", "Ethernet", "Slurm",
    "Kubernetes", "KubeRay", "Docker", "Compose", "Lustre", "GPFS", "JuiceFS", "Ceph",
    "MinIO", "LoRA", "QLoRA", "RLHF", "Spine", "Leaf", "Burst", "Buffer", "Fat", "Tree",
    "Multi", "Rail", "Young", "NVMe", "PCIe", "Atlas", "Ascend", "GeForce", "Huawei",
    "Hopper", "Ampere", "Llama", "MegaScale", "costmodel", "Post", "training",
    "CANN", "MindSpore", "CloudEngine", "VAST", "WEKA",  # in the bundled scenarios' zh text
    "CloudMatrix",  # the state park's supernode (scenarios/state-park.yaml)
    # units and abbreviations
    "PFLOP", "TFLOPS", "FLOPs", "Gbps", "MTBF", "SHA", "SFT", "POC", "INT", "UPS", "CDU",
    "TCO", "ROI", "IRR", "NPV", "MFU", "PUE", "GPU", "CPU", "RTX", "SRE", "HDR", "NDR",
    "tokens",  # the unit of inference prices in Chinese too (元/百万 tokens)
}  # fmt: skip


def test_zh_memo_has_no_english_words_outside_names_and_units(default):
    """Latin words of more than 3 letters in the zh memo's visible text (charts
    included, text quoted from the assumption files and marked lang="en" excluded)
    must be in ALLOWED_LATIN."""
    _, _, pages = default
    page = pages["zh"]
    appendix = page.index('<h3 id="assumptions"')
    text = text_of(page[:appendix], keep_marked_english=False)
    words = set(re.findall(r"[A-Za-z][A-Za-z]{3,}", text))
    assert words - ALLOWED_LATIN == set()
    assert "GPU cluster (H200)" not in page[:appendix]
    assert "tiers.tens" not in text


#: units and standard names that the zh body may carry in Latin letters, beyond
#: ALLOWED_LATIN (words of two letters and more are counted)
UNITS_AND_STANDARDS = {
    "TB", "GB", "PB", "kW", "IO", "IT", "NFS", "NAS", "SSD", "TOR", "ToR", "CNY", "SHA",
    "Spine-Leaf", "Multi-Rail", "Fat-Tree", "QLoRA", "HDR", "NDR", "INT",
}  # fmt: skip


def zh_body_words(page: str) -> list[str]:
    """Latin words (two letters or more) of the zh memo's printed body: before the
    assumptions appendix, without the scenario overlay listings (not printed),
    with text quoted from the assumption files included; minus the allow-lists."""
    body = page[: page.index('<div id="appendix"')]
    body = re.sub(r'<dl class="overlays no-print">.*?</dl>', " ", body, flags=re.S)
    words = re.findall(r"[A-Za-z][A-Za-z'-]+", text_of(body))
    allowed = ALLOWED_LATIN | UNITS_AND_STANDARDS
    return [w for w in words if w not in allowed and w.rstrip("-") not in allowed]


def test_zh_body_has_at_most_30_english_words():
    """With an analysis with scenarios, the printed zh body carries at most 30 English
    words outside product names, standards and units (the tier profiles, fabric,
    storage and scheduler texts come from their ``*_zh`` fields)."""
    m = cm.build(cm.load_assumptions())
    an = analyze(m, draws=200, seed=7, scenarios={"downside": SCEN / "downside.yaml"})
    words = zh_body_words(render_memo(m, "zh", analysis=an))
    assert len(words) <= 30, words
    assert zh_body_words("<p>spine-leaf fabric TB</p>" + '<div id="appendix">') == [
        "spine-leaf",
        "fabric",
    ]


def test_zh_memo_does_not_fall_back_to_english_silently():
    """A tier text without its Chinese field shows the English after a note that
    names the missing field."""
    # the tens tier's scheduler text is its design's (designs.tens, methodology §28.1)
    a = cm.load_assumptions(overrides={"designs.tens.scheduler_zh": ""})
    m = cm.build(a)
    page = render_memo(m, "zh", analysis=analyze(m, draws=0))
    assert "未提供中文 designs.tens.scheduler_zh" in page
    assert a.tiers["tens"].scheduler in text_of(page).replace("  ", " ") or "k3s" in page


def test_zh_title_and_tier_names_are_chinese(default):
    m, _, pages = default
    page = pages["zh"]
    title = re.search(r"<title>(.*?)</title>", page).group(1)
    # the default's site by its Chinese label (sites.east-t1.label_zh)
    site = m.assumptions.sites[m.assumptions.site].label_zh
    assert title == f"投资备忘录：GPU 算力中心建设规模比较（3 个方案，{site}，2027 年 1 月起）"
    for t, cls in (("tens", "数十卡"), ("hundreds", "数百卡"), ("thousands", "数千卡")):
        gpus = int(m.inputs[t].values()["gpus"])
        assert f"{cls}方案（{gpus:,} 张 {gpu(m, t)}）" in page
    svgs = "".join(re.findall(r"<svg.*?</svg>", page, flags=re.S))
    assert f"32 张 {gpu(m, 'tens')}" in svgs
    assert "tens" not in re.findall(r">([^<]*)</text>", svgs)


def test_zh_prose_uses_full_width_punctuation(default):
    """No ASCII ', ' '. ' ': ' between Chinese characters in the zh memo's prose."""
    _, _, pages = default
    page = pages["zh"]
    appendix = page.index('<h3 id="assumptions"')
    text = text_of(page[:appendix], keep_marked_english=False)
    bad = re.findall(r"[\u4e00-\u9fff）][,.:] |[,.:] [\u4e00-\u9fff（]", text)
    assert bad == []


def test_zh_terms_are_consistent(default):
    _, _, pages = default
    text = text_of(pages["zh"], keep_marked_english=False)
    assert "Checkpoint" not in text and "GPU 小时" not in text and "GPU小时" not in text
    assert "检查点" in text and "卡时" in text


# ----------------------------------------------------------------------------- quiet


def test_chinese_memo_prints_nothing_and_warns_nothing(capfd):
    """Charts need no font on the machine that writes the memo (the reader's browser
    draws the text): a Chinese build prints nothing and raises no warning."""
    import warnings

    m = cm.build(cm.load_assumptions())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        render_memo(m, "zh")
    assert [str(w.message) for w in caught] == []
    out, err = capfd.readouterr()
    assert out + err == ""


@pytest.mark.parametrize("rate", [None, 0.005])
def test_source_failure_rate_sentence_follows_the_rate(default, rate):
    """Thousands: failures a day = rate x servers against the source's 'more than one
    a day'; the sentence says the model assumes as much, or reaches it only at the
    high end of the range."""
    m, _, pages = default
    t = "thousands"
    path = m.inputs[t].paths()["node_failures_per_day"]
    if rate is not None:
        m = cm.build(cm.load_assumptions(overrides={path: rate}))
        pages = {"en": render_memo(m, "en")}
    v = m.inputs[t].values()
    per_day = v["node_failures_per_day"] * v["gpus"] / v["gpus_per_server"]
    text = text_of(section(pages["en"], "failures"))
    assert "more than one node fails a day" in text
    if per_day >= 1:
        assert "the model assumes as much." in text
        assert "only at the high end" not in text
    else:
        assert "the model reaches that only at the high end of the failure rate's range" in text
        assert "the model assumes as much." not in text


def test_repair_downtime_reaches_the_npv_and_the_memo_says_so():
    """With repair hours, failures take sold hours away: availability = 1 - failures a
    day x repair hours / 24 per server; the memo prices the high failure rate in NPV."""
    a = cm.load_assumptions(overrides={"reliability.repair_hours": 12.0})
    m = cm.build(a)
    t = "tens"
    v, paths = m.inputs[t].values(), m.inputs[t].paths()
    availability = 1 - v["node_failures_per_day"] * 12.0 / 24
    assert m.summary().loc[t, "availability"] == pytest.approx(availability)
    high = quantity(a, paths["node_failures_per_day"]).high
    npv_high = cm.build(
        cm.load_assumptions(
            overrides={"reliability.repair_hours": 12.0, paths["node_failures_per_day"]: high}
        )
    )
    delta = npv_high.summary().loc[t, "npv"] - m.summary().loc[t, "npv"]
    assert delta < 0
    text = text_of(render_memo(m, "en"))
    assert (
        f"The NPV counts only the repair downtime (12.0 h per failure leaves "
        f"{f.pct(availability, 2)} of the hours to sell): at the high end of the rate the NPV "
        f"changes by {plain(f.signed(delta, f.money))}"
    ) in text
    assert "None of this reaches the NPV" not in text
