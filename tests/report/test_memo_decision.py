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
from costmodel.report.memo import format as f
from costmodel.report.memo.render import render_memo


def text_of(page: str, keep_marked_english: bool = True) -> str:
    """Visible text: no style, no code; svg text kept (chart labels are read too).
    ``keep_marked_english=False`` drops elements marked ``lang="en"`` (text quoted
    from the assumption files) together with their content."""
    s = re.sub(r"<style\b.*?</style>|<head>.*?</head>", " ", page, flags=re.S)
    s = re.sub(r"<code\b.*?</code>", " ", s, flags=re.S)
    if not keep_marked_english:
        s = re.sub(r'<(span|td)\b[^>]*lang="en"[^>]*>.*?</\1>', " ", s, flags=re.S)
    s = re.sub(r"</?(strong|em|span|sup|a)\b[^>]*>", "", s)  # inline: no space
    s = re.sub(r"<[^>]+>", " ", s)
    s = htmllib.unescape(s).replace("\u00a0", " ").replace("\u2011", "-")
    return re.sub(r"\s+", " ", s)


def section(page: str, ident: str) -> str:
    """The HTML of ``<section id=ident>``."""
    start = page.index(f'<section id="{ident}"')
    return page[start : page.index("</section>", start)]


@pytest.fixture(scope="module")
def default():
    m = cm.build(cm.load_assumptions())
    an = analyze(m, draws=400, seed=7)
    return m, an, {lang: render_memo(m, lang, analysis=an) for lang in ("en", "zh")}


# ----------------------------------------------------------------------------- build vs rent


def test_build_wins_when_cloud_prices_are_raised():
    """Cloud prices far above the cost of building: the summary says building is
    cheaper, and no sentence says renting is."""
    a = cm.load_assumptions(
        overrides={
            "servers.h800.cloud_on_demand_per_gpu_hour": 40.0,
            "servers.a800.cloud_on_demand_per_gpu_hour": 30.0,
        }
    )
    m = cm.build(a)
    an = analyze(m, draws=0)
    rent = an.build_vs_rent
    assert (rent["saving"] > 0).all()
    en = text_of(render_memo(m, "en", analysis=an))
    summary = text_of(section(render_memo(m, "en", analysis=an), "summary"))
    assert "building costs less in present value than renting the same GPU-hours" in summary
    assert "renting the same GPU-hours costs less" not in en
    assert "costs less in present value than building" not in en
    assert "Renting would be cheaper" not in en
    for t in m.tiers:
        assert (
            f"{a.tiers[t].label} by {f.money(rent.loc[t, 'saving'])}".replace("\u00a0", " ")
            in summary
        )
    zh = text_of(section(render_memo(m, "zh", analysis=an), "summary"))
    assert "自建的现值成本低于租用同样卡时" in zh
    assert "租用同样卡时的现值成本都低于自建" not in zh


def test_rent_wins_in_the_default(default):
    m, an, pages = default
    assert (an.build_vs_rent["saving"] < 0).all()
    summary = text_of(section(pages["en"], "summary"))
    assert "renting the same GPU-hours costs less in present value than building, for every" in (
        summary
    )
    assert "building costs less in present value than renting" not in summary


# ----------------------------------------------------------------------------- decision


def test_positive_npv_is_recommended_and_measured_per_capex():
    a = cm.load_assumptions(overrides={"tiers.tens.revenue.price_per_gpu_hour": 30.0})
    m = cm.build(a)
    s = m.summary()
    assert s.loc["tens", "npv"] > 0 and (s.drop(index="tens")["npv"] < 0).all()
    page = render_memo(m, "en", analysis=analyze(m, draws=0))
    summary = text_of(section(page, "summary"))
    assert f"We recommend {a.tiers['tens'].label}." in summary
    pi = s.loc["tens", "npv"] / s.loc["tens", "capex"]
    assert f"Each CNY of its capex adds {f.pct(pi)} in present value (rank 1 of 3" in summary
    assert "No option is worth building" not in summary
    zh = text_of(section(render_memo(m, "zh", analysis=analyze(m, draws=0)), "summary"))
    assert "建议选择数十卡方案（32 张 A800）" in zh


def test_all_negative_never_calls_the_smallest_best(default):
    m, _, pages = default
    s = m.summary()
    summary = text_of(section(pages["en"], "summary"))
    smallest = s["capex"].idxmin()
    assert s["npv"].idxmax() == smallest  # absolute NPV alone would pick the smallest
    label = m.assumptions.tiers[smallest].label
    assert f"{label} has the smallest loss in absolute terms" in summary
    assert "recommend" not in summary.lower()
    assert "least-bad" not in summary and "best" not in summary


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


def test_base_case_percentile_in_the_monte_carlo(default):
    m, an, pages = default
    s = m.summary()
    pi = s["npv"] / s["capex"]
    t = pi.idxmax()
    draws = an.monte_carlo.draws[t]["npv"].to_numpy(float)
    q = float(np.mean(draws <= s.loc[t, "npv"]))
    assert q > 0.6  # the default's base case is optimistic
    summary = text_of(section(pages["en"], "summary"))
    label = m.assumptions.tiers[t].label
    p50 = f.money(float(np.median(draws))).replace("\u00a0", " ")
    assert (
        f"The base case is optimistic: for {label} it beats {f.pct(q, 0)} of the 400 Monte Carlo "
        f"draws; the median draw has an NPV of {p50}"
    ) in summary


def test_selling_price_above_cloud_price_is_flagged(default):
    m, _, pages = default
    summary = text_of(section(pages["en"], "summary"))
    # hundreds: 16 CNY/GPU-h assumed against the H800's 14 on demand: +14.3%
    assert (
        "Hundreds of cards (128x H800) CNY 16.00/GPU-h against CNY 14.00/GPU-h on-demand, +14.3%"
        in (summary)
    )
    assert "customers can rent the same hour for less" in summary
    a = cm.load_assumptions(
        overrides={
            "servers.h800.cloud_on_demand_per_gpu_hour": 20.0,
            "servers.a800.cloud_on_demand_per_gpu_hour": 10.0,
        }
    )
    m2 = cm.build(a)
    page = text_of(section(render_memo(m2, "en", analysis=analyze(m2, draws=0)), "summary"))
    assert "customers can rent the same hour for less" not in page


def test_utilization_above_its_sources_range_is_flagged():
    a = cm.load_assumptions(overrides={"tiers.hundreds.operations.utilization": 0.95})
    m = cm.build(a)
    summary = text_of(section(render_memo(m, "en", analysis=analyze(m, draws=0)), "summary"))
    assert (
        "The assumed utilization of Hundreds of cards (128x H800), 95.0%, is above the 85.0%"
        in (summary)
    )


# ----------------------------------------------------------------------------- risks


def test_mfu_what_if_uses_the_tiers_own_mfu(default):
    """Hundreds: MFU input 0.45, the source's degraded 0.20: 1 - 0.20/0.45 = 55.6% of
    the compute lost, and that share of the PV of cost."""
    m, an, pages = default
    v = m.inputs["hundreds"].values()
    assert v["mfu"] == 0.45
    loss = 1 - 0.20 / 0.45
    pv_cost = m.results["hundreds"].metrics["pv_cost"][0]
    text = text_of(pages["en"][: pages["en"].index('<h3 id="assumptions"')])
    assert "The model assumes an MFU of 45% for this option." in text
    assert f"each GPU-hour yields {f.pct(loss)} less compute" in text
    at_stake = f.money(pv_cost * loss).replace("\u00a0", " ")
    assert f"{at_stake} of the {f.money(pv_cost)}".replace("\u00a0", " ") in text
    assert "from 50% to 20%" not in text
    zh = text_of(pages["zh"])
    assert "模型对该方案假设的 MFU 为 45%" in zh and f"减少 {f.pct(loss)}" in zh


def test_failure_rate_against_the_sources_and_npv_untouched(default):
    """Thousands: 0.005 failures per server-day x 128 servers = 0.64 a day as
    assumed; the range's high 0.0078 gives 1.00 a day (the source's '>1 a day').
    Reliability does not reach NPV, and the memo says so."""
    m, _, pages = default
    text = text_of(pages["en"])
    assert "on 128 servers one every 37.5 h (0.64 a day, 234 a year)" in text
    assert "(0.0078 per server a day, 1.00 a day on this cluster)" in text
    assert "None of this reaches the NPV" in text
    a = cm.load_assumptions(overrides={"reliability.node_failures_per_day": 0.0078})
    npv_high = cm.build(a).summary()["npv"]
    assert np.allclose(npv_high, m.summary()["npv"])


def test_checkpoint_write_time_is_not_rounded(default):
    """Hundreds: 1 TB at 80 GB/s = 1000 / 80 = 12.5 s."""
    _, _, pages = default
    text = text_of(pages["en"])
    assert "One 1 TB checkpoint at 80 GB/s blocks training for 12.5 s" in text
    assert "单次 1 TB 的检查点以 80 GB/s 写入，需阻塞训练 12.5 秒" in text_of(pages["zh"])


def test_backup_copy_priced_from_storage_inputs(default):
    """Tens: a 0.2 TB checkpoint at 2,500 CNY/TB = CNY 500."""
    _, _, pages = default
    text = text_of(pages["en"])
    assert "A copy of the latest 0.2 TB checkpoint on shared storage costs about CNY 500" in text


def test_software_problem_in_numbers(default):
    """Thousands at the degraded 20% MFU against hundreds at its own 45%, per PFLOP-hour:
    cost per PFLOP-hour scales with 1 / MFU."""
    m, _, pages = default
    s = m.summary()
    big = s.loc["thousands", "cost_per_pflop_hour"] * 0.40 / 0.20
    mid = s.loc["hundreds", "cost_per_pflop_hour"]
    text = text_of(pages["en"])
    expected = (
        (
            f"At 20% MFU, Thousands of cards (1024x H800) costs "
            f"{f.price(big, 'en', 'CNY', 'pflop')} per PFLOP-hour, {big / mid:.1f} times the "
            f"{f.price(mid, 'en', 'CNY', 'pflop')} of Hundreds of cards (128x H800)"
        )
        .replace("\u00a0", " ")
        .replace("\u2011", "-")
    )
    assert expected in text


def test_no_software_comparison_without_both_scales():
    a = cm.load_assumptions()
    m = cm.build(a.model_copy(update={"tiers": {"tens": a.tiers["tens"]}}))
    text = text_of(render_memo(m, "en"))
    assert "A software problem." not in text


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
    # units and abbreviations
    "PFLOP", "TFLOPS", "FLOPs", "Gbps", "MTBF", "SHA", "SFT", "POC", "INT", "UPS", "CDU",
    "TCO", "ROI", "IRR", "NPV", "MFU", "PUE", "GPU", "CPU", "RTX", "SRE", "HDR", "NDR",
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
    assert "Tens of cards" not in page[:appendix]
    assert "tiers.tens" not in text


def test_zh_title_and_tier_names_are_chinese(default):
    _, _, pages = default
    page = pages["zh"]
    title = re.search(r"<title>(.*?)</title>", page).group(1)
    assert title == "投资备忘录：GPU 算力中心建设规模比较（3 个方案，2027 年 1 月起）"
    for label in (
        "数十卡方案（32 张 A800）",
        "数百卡方案（128 张 H800）",
        "数千卡方案（1,024 张 H800）",
    ):
        assert label in page
    svgs = "".join(re.findall(r"<svg.*?</svg>", page, flags=re.S))
    assert "32 张 A800" in svgs and "tens" not in re.findall(r">([^<]*)</text>", svgs)


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


# ----------------------------------------------------------------------------- fonts


def test_no_glyph_warnings_when_no_cjk_font_is_known(monkeypatch, capfd):
    """A matplotlib that knows no CJK font (a font cache older than the fonts):
    a Chinese build prints nothing and raises no warning."""
    import warnings

    from costmodel.report.memo import charts

    monkeypatch.setitem(charts.RC, "font.sans-serif", ["DejaVu Sans"])
    m = cm.build(cm.load_assumptions())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        render_memo(m, "zh")
    assert [str(w.message) for w in caught] == []
    out, err = capfd.readouterr()
    assert "Glyph" not in out + err and "missing from font" not in out + err


def test_cjk_font_found_by_file(tmp_path, caplog):
    """Font files are searched by name: a directory without CJK fonts gives none and
    one notice; the installed Noto CJK file (when present) registers its family."""
    import glob

    from costmodel.report.memo import charts

    monkeypatch_flag = charts._cjk_checked
    try:
        charts._cjk_checked = False
        (tmp_path / "DejaVuSans.ttf").write_bytes(b"")
        with caplog.at_level("WARNING", logger="costmodel.report.memo.charts"):
            have = charts.cjk_fonts([str(tmp_path / "DejaVuSans.ttf")])
        if not have:
            assert "no CJK font found" in caplog.text
        noto = glob.glob("/usr/share/fonts/**/NotoSansCJK-Regular.ttc", recursive=True)
        if noto:
            assert "Noto Sans CJK SC" in charts.cjk_fonts(noto)
    finally:
        charts._cjk_checked = monkeypatch_flag


def test_summary_says_what_could_change_it(default):
    """The focus tier's largest tornado swing and its MFU what-if, in the summary."""
    m, an, pages = default
    d = an.tornado
    t = "thousands"
    top = d[(d["tier"] == t) & (d["swing"] > 0)].iloc[0]
    pv_cost = m.results[t].metrics["pv_cost"][0]
    at_stake = pv_cost * (1 - 0.20 / 0.40)  # thousands: MFU 0.40, degraded 0.20
    summary = text_of(section(pages["en"], "summary"))
    expected = (
        f"What could change it: across its range, the year-1 price per GPU-hour moves the NPV "
        f"of Thousands of cards (1024x H800) from {f.money(top['at_low'])} to "
        f"{f.money(top['at_high'])}; a network that drops MFU from the assumed 40% to 20% "
        f"would leave {f.money(at_stake)} of its present value of cost buying no compute."
    ).replace("\u00a0", " ")
    assert expected in summary
