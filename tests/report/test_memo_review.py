"""What a reader of the memo stumbled on: the cumulative cash-flow chart and its
payback labels, the reasons of the comparison's empty cells."""

from __future__ import annotations

import re

import numpy as np
import pytest

import costmodel as cm
from costmodel.report.memo.charts import _clear_spot, cash_chart
from costmodel.report.memo.render import render_memo
from costmodel.report.memo.svg import SIZE, text_width

#: the tens option sold by the hour (the default's is captive) at 26 per GPU-hour at the
#: start (a quote of the start month: not rolled), its hardware valued at market at the
#: end (the default's income residual is small): its cumulative cash flow stays below 0
#: until the last month, which the terminal value lifts above 0
LIFTED = {
    "tiers.tens.revenue.mode": "rental",
    "tiers.tens.revenue.price_per_gpu_hour": 26.0,
    "tiers.tens.revenue.price_per_gpu_hour.as_of": "2027-01",
    "terminal_value": "market",
}


@pytest.fixture(scope="module")
def default() -> cm.Model:
    return cm.build(cm.load_assumptions())


def test_no_payback_label_says_the_terminal_value_is_not_counted():
    m = cm.build(cm.load_assumptions(overrides=LIFTED))
    cum = np.cumsum(m.fcf("tens"))
    assert np.isnan(m.summary().loc["tens", "payback_years"])
    assert cum[-2] < 0 < cum[-1]  # the case the label is for
    svg = cash_chart(m, "en")
    first = svg[: svg.index('id="cash-1"')]
    assert "no payback before the terminal value" in first
    assert "不计期末残值则无法回收" in cash_chart(m, "zh").split('id="cash-1"')[0]


def test_no_payback_within_horizon_where_the_line_ends_below_zero(default):
    assert np.cumsum(default.fcf("tens"))[-1] < 0
    svg = cash_chart(default, "en")
    assert "no payback within horizon" in svg[: svg.index('id="cash-1"')]


def test_a_label_spot_avoids_the_line():
    # a line rising through the first spot's box; the second spot is clear of it
    px, py = np.array([0.0, 100.0, 200.0]), np.array([100.0, 100.0, 0.0])
    first, second = (200.0, 20.0, "end"), (10.0, 190.0, "start")  # (x, middle y, anchor)
    assert _clear_spot((px, py), "no payback", [first, second]) == second
    # a spot whose box the line does not reach is taken as it is
    assert _clear_spot((px, py), "no payback", [(60.0, 60.0, "middle")]) == (60.0, 60.0, "middle")


def test_cash_labels_clear_the_line_on_the_default(default):
    """Each label's box (estimated width, font height) meets no segment of its
    panel's line (the terminal value's jump in the last month included)."""
    for lang in ("en", "zh"):
        svg = cash_chart(default, lang)
        for panel in re.findall(r"<svg.*?</svg>", svg, re.S):
            line = re.search(r'd="M([^"]+)"[^>]*class="line"', panel).group(1)
            pts = np.array([[float(v) for v in p.split(",")] for p in line.split(" L")])
            for x, y, anchor, text in re.findall(
                r'<text class="note" x="([\d.]+)" y="([\d.]+)"(?: text-anchor="(\w+)")?[^>]*>'
                r"([^<]+)</text>",
                panel,
            ):
                middle = float(y) - 0.36 * SIZE  # the text's y is its baseline
                spot = (float(x), middle, anchor or "start")
                assert _clear_spot((pts[:, 0], pts[:, 1]), text, [spot, (0, 0, "x")]) == spot
                assert text_width(text) > 0


def test_empty_cells_give_their_own_reason(default):
    """The tens option prices its network as a share (no levels to count) and the
    default borrows nothing (no DSCR): each footnote says so, not "its denominator
    is zero"."""
    s = default.summary()
    assert np.isnan(s.loc["tens", "network_levels"]) and (s["debt_peak"] == 0).all()
    page = render_memo(default, "en")
    notes = dict(re.findall(r'<p id="fn-(\d+)"><sup>\d+</sup> –: ([^<]+)</p>', page))

    def note_of(metric: str) -> str:
        row = re.search(rf'<tr data-metric="{metric}">(.*?)</tr>', page, re.S).group(1)
        return notes[re.search(r'<sup class="fn">(\d+)</sup>', row).group(1)]

    assert note_of("network_levels").startswith("no designed fabric")
    assert note_of("min_dscr") == "no debt: there is no debt service to cover."
    assert note_of("payback_years").endswith("(payback counts no terminal value).")


def test_a_staged_tiers_charts_count_every_deployment():
    """The staged-growth overlay deploys 64 of the hundreds option's GPUs, then 64
    more: its charts say 128, as its tables do."""
    from costmodel.inputs.resources import scenarios_dir
    from costmodel.report.memo.labels import chart_label

    m = cm.build(cm.load_assumptions("default", scenarios_dir() / "staged-growth.yaml"))
    tier = m.assumptions.tiers["hundreds"]
    first = int(getattr(tier.gpus, "value", tier.gpus))
    assert first == 64 and m.summary().loc["hundreds", "gpus"] == 64 + 64
    assert chart_label(m, "hundreds") == "128× H200"
    assert chart_label(m, "hundreds", "zh") == "128 张 H200"
    assert "128× H200" in cash_chart(m, "en") and "64× H200" not in cash_chart(m, "en")


def test_a_scenario_line_agrees_with_its_count(tmp_path):
    """One option, one with a positive NPV: "1 of 1 option has", not "1 of 1 options
    have" (the hand case without tax is the scenario; its NPV is positive)."""
    from costmodel.analysis.bundle import analyze
    from tests.paths import HAND

    m = cm.build(cm.load_assumptions(HAND))
    an = analyze(m, draws=0, scenarios={"notax": {"finance.tax_rate": 0}})
    text = re.sub(r"<[^>]+>", "", render_memo(m, "en", analysis=an))
    assert "notax: 1 of 1 option has a positive NPV" in text
