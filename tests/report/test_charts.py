"""The memo's charts draw the model's numbers: each bar, column, marker and line is
read back from the SVG through its own axis (tick marks and labels) and compared
with values taken from the model or given to the chart."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import costmodel as cm
from costmodel.core.result import CAPEX_LINES, OPEX_LINES
from costmodel.report.memo import analysis_charts, chartkit, charts
from costmodel.report.memo import numbers as f
from tests.paths import ROOT

NS = "{http://www.w3.org/2000/svg}"
TOL = 0.25  # px: coordinates are written with one decimal
DEFAULT = ROOT / "assumptions" / "default"
SCENARIOS = ROOT / "assumptions" / "scenarios"


def drawings(html: str) -> list[ET.Element]:
    root = ET.fromstring(html)  # the figure is well-formed XML
    return [e for e in root.iter(f"{NS}svg") if e.get("class") == "chart"]


def number(text: str) -> float:
    return float(text.replace("\u2212", "-").replace(",", ""))


def axis(svg: ET.Element, which: str = "x"):
    """The drawing's value axis as a function data -> pixels, from the positions of
    its tick marks (x) or grid lines (y) and the numbers written at them."""
    g = svg.find(f"{NS}g[@class='{which}-axis']")
    assert g is not None, f"no {which} axis"
    lines = g.findall(f"{NS}line[@class='{'mark' if which == 'x' else 'grid'}']")
    pos = [float(e.get("x1" if which == "x" else "y1")) for e in lines]
    values = [number(t.text) for t in g.findall(f"{NS}text[@class='tick']")]
    assert len(values) == len(pos) >= 2
    steps = np.diff(values)
    assert np.allclose(steps, steps[0]), "ticks are evenly spaced"
    k, b = np.polyfit(values, pos, 1)
    assert np.allclose(np.array(values) * k + b, pos, atol=TOL)
    return lambda v: k * np.asarray(v) + b


def rects(svg: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in svg.iter(f"{NS}rect") if cls in (e.get("class") or "").split()]


def texts(svg: ET.Element, cls: str) -> list[str]:
    return [e.text for e in svg.iter(f"{NS}text") if e.get("class") == cls]


def span(r: ET.Element) -> tuple[float, float]:
    x, w = float(r.get("x")), float(r.get("width"))
    return x, x + w


def is_nice(step: float) -> bool:
    mantissa = step / 10 ** np.floor(np.log10(step))
    return any(np.isclose(mantissa, m) for m in (1, 2, 2.5, 5))


@pytest.fixture(scope="module")
def model() -> cm.Model:
    return cm.build(cm.load_assumptions())


@pytest.fixture(scope="module")
def paying() -> cm.Model:
    """A model whose tiers pay back (a higher price)."""
    return cm.build(cm.load_assumptions(overrides={"revenue.price_per_gpu_hour": 40.0}))


def money_unit(largest: float, lang: str) -> tuple[float, str]:
    """The axis unit of money whose largest absolute value is ``largest``: in English
    the largest of bn, M and k it reaches; in Chinese 亿 (1e8) or 万 (1e4)."""
    zh = ((1e8, "亿元"), (1e4, "万元"))
    steps = zh if lang == "zh" else ((1e9, "CNY bn"), (1e6, "CNY M"), (1e3, "CNY k"))
    return next((div, unit) for div, unit in steps if largest >= div)


@pytest.mark.parametrize("case", ["default", "paying"])
def test_npv_bar_lengths_are_npv_over_the_scale(model, paying, case):
    """The default's NPVs and a paying model's (the larger of the two in 亿元)."""
    m = model if case == "default" else paying
    npv = m.summary()["npv"].to_numpy(float)
    for lang in ("en", "zh"):
        (svg,) = drawings(charts.npv_chart(m, lang))
        div, unit = money_unit(np.abs(npv).max(), lang)
        assert texts(svg, "axis") == [unit]
        x = axis(svg)
        bars = rects(svg, "bar")
        assert len(bars) == len(m.tiers)
        for bar, v in zip(bars, npv, strict=True):
            assert span(bar) == pytest.approx(sorted(x([0, v / div])), abs=TOL)
        assert texts(svg, "value") == [f.money(v, lang, "CNY") for v in npv]


@pytest.fixture(scope="module")
def greenfield() -> cm.Model:
    """The default with the hall built (a facility capex)."""
    return cm.build(cm.load_assumptions(DEFAULT, SCENARIOS / "greenfield.yaml"))


@pytest.mark.parametrize("case", ["default", "greenfield"])
def test_capex_segments_are_capex_per_gpu_by_class(model, greenfield, case):
    """A segment per asset class with capex (none for a class without: a leased hall
    has no facility capex), ending at the total capex per GPU."""
    m = model if case == "default" else greenfield
    html = charts.capex_chart(m, "en")
    (svg,) = drawings(html)
    s = m.summary()
    drawn = [c for c in CAPEX_LINES if (s[f"capex_{c}"] != 0).any()]
    assert ("facility" in drawn) == (case == "greenfield")
    assert texts(svg, "axis") == ["CNY k per GPU"]
    x = axis(svg)
    for c in CAPEX_LINES:
        per_gpu = s[f"capex_{c}"] / s["gpus"] / 1e3
        widths = [float(r.get("width")) for r in rects(svg, c)]
        want = list(per_gpu * (x(1) - x(0))) if c in drawn else []
        assert widths == pytest.approx(want, abs=TOL), c
    ends = [span(r)[1] for r in rects(svg, drawn[-1])]
    assert ends == pytest.approx(list(x(s["capex"] / s["gpus"] / 1e3)), abs=TOL)
    assert texts(svg, "value") == [f"total {f.money(v, 'en', 'CNY')}" for v in s["capex"]]
    names = {
        "servers": "Servers",
        "network": "Network",
        "storage": "Storage",
        "facility": "Facility",
    }
    for c in CAPEX_LINES:  # the legend names the classes drawn
        assert (f"</svg>{names[c]}</li>" in html) == (c in drawn), c


def test_opex_columns_are_annual_opex_and_ticks_are_nice(model):
    svgs = drawings(charts.opex_chart(model, "en"))
    assert len(svgs) == len(model.tiers)  # one panel per tier, drawn once
    years = model.months // 12
    for svg, tier in zip(svgs, model.tiers, strict=True):
        o = model.opex(tier)
        annual = o["total"].to_numpy(float)[1:].reshape(years, 12).sum(axis=1)
        div = 1e6
        assert texts(svg, "unit") == ["CNY M per year"]
        y = axis(svg, "y")
        per_unit = y(0) - y(1)
        ticks = [number(t) for t in texts(svg, "tick")]
        assert ticks[0] == 0 and is_nice(ticks[1] - ticks[0])
        assert ticks[-1] >= annual.max() / div  # the axis holds the tallest column
        columns: dict[float, float] = {}
        for r in rects(svg, "bar"):
            columns[float(r.get("x"))] = columns.get(float(r.get("x")), 0) + float(r.get("height"))
        heights = [columns[k] for k in sorted(columns)]
        assert heights == pytest.approx(list(annual / div * per_unit), abs=TOL * 4)
        for line in OPEX_LINES:
            v = o[line].to_numpy(float)[1:].reshape(years, 12).sum(axis=1)
            got = [float(r.get("height")) for r in rects(svg, line)]
            assert got == pytest.approx(list(v[v != 0] / div * per_unit), abs=TOL), line
        assert texts(svg, "year") == [str(i) for i in range(1, years + 1)]
        labels = [float(e.get("x")) for e in svg.iter(f"{NS}text") if e.get("class") == "year"]
        widths = {float(r.get("width")) for r in rects(svg, "bar")}
        (w,) = widths
        assert [k + w / 2 for k in sorted(columns)] == pytest.approx(labels, abs=TOL)
        band = labels[1] - labels[0]  # the columns fill the plot: the last band ends at its end
        right = max(float(e.get("x2")) for e in svg.iter(f"{NS}line") if e.get("class") == "grid")
        assert labels[-1] + band / 2 == pytest.approx(right, abs=TOL)


def test_year_labels_of_a_long_horizon_do_not_touch():
    m = cm.build(cm.load_assumptions(overrides={"horizon_years": 20}))
    for svg in drawings(charts.opex_chart(m, "en")):
        years = [e for e in svg.iter(f"{NS}text") if e.get("class") == "year"]
        labels = [int(e.text) for e in years]
        step = labels[1] - labels[0]
        assert labels == list(range(step, 21, step)) and step in (2, 5)
        x = [float(e.get("x")) for e in years]
        assert min(np.diff(x)) >= 2 * 0.58 * 11 + 4  # two digits and a gap
        assert len(rects(svg, "staff")) == 20


def test_payback_marker_sits_at_the_payback_month(paying):
    s = paying.summary()
    svgs = drawings(charts.cash_chart(paying, "en"))
    assert s["payback_years"].notna().any()
    for svg, tier in zip(svgs, paying.tiers, strict=True):
        cum = paying.cash_flow(tier)["cumulative_fcf"].to_numpy(float)
        div = f.money_scale(np.abs(cum).max(), "en", "CNY")[0]
        x, y = axis(svg, "x"), axis(svg, "y")
        pb = s.loc[tier, "payback_years"]
        dots = list(svg.iter(f"{NS}circle"))
        if np.isnan(pb):
            assert dots == [] and texts(svg, "note") == ["no payback within horizon"]
            continue
        (dot,) = dots
        month = round(pb * 12)
        assert float(dot.get("cx")) == pytest.approx(float(x(pb)), abs=TOL)
        assert float(dot.get("cy")) == pytest.approx(float(y(cum[month] / div)), abs=TOL)
        assert cum[month - 1] < 0 <= cum[month] or np.isclose(cum[month], 0, atol=1)
        assert texts(svg, "note") == [f"payback {f.years(pb, 'en')}"]
        line = svg.find(f"{NS}path[@class='line']").get("d")
        points = re.findall(r"([\d.]+),([\d.]+)", line)
        assert len(points) == len(cum)  # a point a month
        px = np.array([float(a) for a, _ in points])
        py = np.array([float(b) for _, b in points])
        assert px == pytest.approx(x(np.arange(len(cum)) / 12), abs=TOL)
        assert py == pytest.approx(y(cum / div), abs=TOL)


def test_no_payback_is_written(model):
    """Every GPU-hour sold at 10 CNY: no option pays back."""
    over = {
        f"tiers.{t}.revenue.{k}": 10.0
        for t in model.tiers
        for k in ("price_per_gpu_hour", "contract.price_per_gpu_hour")
    }
    losing = cm.build(cm.load_assumptions(overrides=over))
    assert losing.summary()["payback_years"].isna().all()
    for svg in drawings(charts.cash_chart(losing, "zh")):
        assert texts(svg, "note") == ["测算期内无法回收"]


def test_cost_bars_and_price_marks(model):
    s = model.summary()
    prices = {t: model.inputs[t].values()["price_per_gpu_hour"] for t in model.tiers}
    breakeven = dict(zip(model.tiers, [25.0, 30.5, float("nan")], strict=True))
    (svg,) = drawings(charts.cost_chart(model, "en", prices, breakeven))
    x = axis(svg)
    for cls, col in (
        ("levelized", "cost_per_gpu_hour"),
        ("effective", "cost_per_effective_gpu_hour"),
    ):
        ends = [span(r)[1] for r in rects(svg, cls)]
        assert ends == pytest.approx(list(x(s[col].to_numpy(float))), abs=TOL)
    marks = [float(e.get("x1")) for e in svg.iter(f"{NS}line") if e.get("class") == "price"]
    assert marks == pytest.approx([float(x(prices[t])) for t in model.tiers], abs=TOL)
    be = [float(e.get("x1")) for e in svg.iter(f"{NS}line") if e.get("class") == "breakeven"]
    assert be == pytest.approx([float(x(25.0)), float(x(30.5))], abs=TOL)  # none for NaN
    assert texts(svg, "value") == [
        f"{v:,.2f}"
        for pair in zip(s["cost_per_gpu_hour"], s["cost_per_effective_gpu_hour"], strict=True)
        for v in pair
    ]


def test_histogram_shares_and_quantiles():
    rng = np.random.default_rng(0)
    draws = [rng.normal(-5e6, 2e6, 4000), rng.normal(3e7, 1e7, 4000)]
    q = [tuple(np.percentile(d, [10, 50, 90])) for d in draws]
    svgs = drawings(analysis_charts.npv_distribution_chart(["a", "b"], draws, q, "en", "CNY", "MC"))
    for svg, qs in zip(svgs, q, strict=True):
        y, x = axis(svg, "y"), axis(svg, "x")
        heights = [float(r.get("height")) for r in rects(svg, "bar")]
        assert sum(heights) / (y(0) - y(1)) == pytest.approx(100, abs=0.5)  # shares in %
        lines = [float(e.get("x1")) for e in svg.iter(f"{NS}line") if e.get("class") == "quantile"]
        assert lines == pytest.approx(list(x(np.array(qs) / 1e6)), abs=TOL)
        reds = [r for r in rects(svg, "bar") if r.get("fill") == chartkit.NEG]
        greens = [r for r in rects(svg, "bar") if r.get("fill") == chartkit.POS]
        assert all(span(r)[0] < x(0) + TOL for r in reds)
        assert all(span(r)[1] > x(0) - TOL for r in greens)


def test_tornado_bars_run_from_the_base():
    at_low, at_high, base = [-9e6, -4e6], [2e6, -6e6], -5e6
    html = analysis_charts.tornado_chart(
        ["Utilization", "Server price"],
        ["30%", "2M"],
        ["85%", "1.4M"],
        at_low,
        at_high,
        base,
        "en",
        "CNY",
        "T",
    )
    (svg,) = drawings(html)
    x = axis(svg)
    rule = [e for e in svg.iter(f"{NS}line") if e.get("class") == "base"][0]
    assert float(rule.get("x1")) == pytest.approx(float(x(-5)), abs=TOL)
    zero = [e for e in svg.iter(f"{NS}line") if e.get("class") == "zero-npv"][0]
    assert float(zero.get("x1")) == pytest.approx(float(x(0)), abs=TOL)
    for cls, ends in (("low", at_low), ("high", at_high)):
        got = [span(r) for r in rects(svg, cls)]
        assert got == [pytest.approx(sorted(x([-5, e / 1e6])), abs=TOL) for e in ends]
    assert texts(svg, "name") == ["Utilization", "Server price"]
    assert texts(svg, "value") == ["30%", "85%", "2M", "1.4M"]


def test_scenario_and_failure_bars():
    npv = np.array([[-5.2e6, 3e7], [-9.6e6, 1e7], [1e6, -2e6]])
    svgs = drawings(
        analysis_charts.scenario_chart(["t1", "t2"], ["base", "down", "up"], npv, "en", "CNY", "S")
    )
    assert len(svgs) == 2
    for svg, col in zip(svgs, npv.T, strict=True):
        x = axis(svg)
        got = [span(r) for r in rects(svg, "bar")]
        assert got == [pytest.approx(sorted(x([0, v / 1e6])), abs=TOL) for v in col]
        assert texts(svg, "name") == ["base", "down", "up"]
    lost, fast = [0.0047, 0.029], [0.0018, 0.0238]
    svgs = drawings(
        analysis_charts.failures_chart(
            ["a", "b"], lost, fast, [1.43e4, 3.0e6], [5.4e3, 2.5e6], "en"
        )
    )
    assert len(svgs) == 2
    x = axis(svgs[0])
    assert [span(r)[1] for r in rects(svgs[0], "now")] == pytest.approx(
        list(x(np.array(lost) * 100)), abs=TOL
    )
    assert [span(r)[1] for r in rects(svgs[0], "fast")] == pytest.approx(
        list(x(np.array(fast) * 100)), abs=TOL
    )
    assert texts(svgs[0], "value") == ["0.47%", "0.18%", "2.90%", "2.38%"]
    assert texts(svgs[1], "title") == ["CNY M a year"]


HOSTILE = "<script>alert(1)</script> & \"q\" 's'"


def test_hostile_names_stay_text():
    npv = np.array([[1e6], [-1e6]])
    html = analysis_charts.scenario_chart(
        [HOSTILE], [HOSTILE, "b"], npv, "en", HOSTILE, HOSTILE, HOSTILE
    )
    assert "<script" not in html
    (svg,) = drawings(html)
    assert svg.get("aria-label").startswith(HOSTILE)
    # cut to 22 characters, not inside the word "script" (svg.shorten)
    assert texts(svg, "title") == [HOSTILE[:18] + "\u2026"]
    html = analysis_charts.tornado_chart(
        [HOSTILE], [HOSTILE], [HOSTILE], [1.0], [2.0], 1.5, "zh", "CNY", HOSTILE
    )
    assert "<script" not in html
    (svg,) = drawings(html)
    assert HOSTILE in "".join(texts(svg, "value"))


def test_every_drawing_is_an_image_with_a_name_and_its_own_id(model):
    prices = {t: 10.0 for t in model.tiers}
    html = "".join(
        [
            charts.npv_chart(model, "en", "npv-en"),
            charts.opex_chart(model, "en", "opex-en"),
            charts.cash_chart(model, "en", "cash-en"),
            charts.cost_chart(model, "en", prices, {}, "cost-en"),
        ]
    )
    svgs = drawings(f"<div>{html}</div>")
    ids = [s.get("id") for s in svgs]
    assert len(ids) == len(set(ids)) == 1 + 2 * len(model.tiers) + 1
    assert all(s.get("role") == "img" and s.get("aria-label") for s in svgs)
    assert all(s.get("font-family").startswith("'Noto Sans CJK SC'") for s in svgs)
