"""The memo's SVG writer: nice ticks, text width estimates, wrapping, escaping, and
a scale that keeps labels inside the drawing."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from costmodel.report.memo import svg

NS = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize(
    ("span", "n", "step"),
    [
        (10, 5, 2),
        (7, 5, 2),
        (2.4, 5, 0.5),
        (300, 5, 100),
        (240.8, 5, 50),
        (1.0, 4, 0.25),
        (12, 4, 5),
    ],
)
def test_nice_step(span, n, step):
    assert svg.nice_step(span, n) == pytest.approx(step)


def test_ticks_and_domain_are_nice_numbers():
    assert svg.ticks(-240.8, 0, 5) == [-200, -150, -100, -50, 0]
    assert svg.nice_domain(0, 1.53, 4) == (0, 2.0, [0, 0.5, 1.0, 1.5, 2.0])
    lo, hi, ts = svg.nice_domain(-7.9, 0, 4)
    assert (lo, hi) == (-8, 0) and ts == [-8, -6, -4, -2, 0]
    assert svg.ticks(0, 0) == [0, 0.2, 0.4, 0.6, 0.8, 1.0]  # all zero: an axis from 0 to 1
    assert svg.ticks(math.nan, 5, 5) == [0, 1, 2, 3, 4, 5]


def test_tick_labels():
    assert svg.tick_labels([0, 0.5, 1.0]) == ["0.0", "0.5", "1.0"]
    assert svg.tick_labels([-300, -200, 0]) == ["\u2212300", "\u2212200", "0"]
    assert svg.tick_labels([0, 2500, 5000]) == ["0", "2,500", "5,000"]
    assert svg.tick_labels([-0.0, 0.25]) == ["0.00", "0.25"]


def test_text_width_counts_cjk_as_one_em():
    assert svg.text_width("万元", 10) == 20
    assert svg.text_width("32× H200", 10) == pytest.approx(
        10 * (0.58 * 2 + 1 + 0.25 + 0.7 + 0.58 * 3)
    )
    assert svg.text_width("iii") < svg.text_width("mmm")


def test_wrap_and_fit():
    lines = svg.wrap("Ramp-up to full utilization (months)", 120)
    assert len(lines) == 2 and all(svg.text_width(x) <= 120 for x in lines)
    assert " ".join(lines) == "Ramp-up to full utilization (months)"
    three = svg.wrap("one two three four five six seven eight nine ten", 60, lines=2)
    assert len(three) == 2 and three[-1].endswith(svg.ELLIPSIS)
    assert svg.wrap("服务器市场价值年降幅", 60) == ["服务器市场", "价值年降幅"]
    assert svg.fit("abcdefghijklmnop", 40).endswith(svg.ELLIPSIS)
    assert svg.text_width(svg.fit("abcdefghijklmnop", 40)) <= 40
    assert svg.shorten("abcdef", 4) == "abc\u2026"


HOSTILE = ["<script>alert(1)</script>", "a \"quoted\" & 'single'", "]]><x/>", "bell\x07tab\tend"]


@pytest.mark.parametrize("text", HOSTILE)
def test_text_is_escaped_and_stays_text(text):
    c = svg.Canvas(100, 50, text, text)
    c.text(10, 10, text)
    out = c.svg()
    assert "<script" not in out and "<x/>" not in out
    root = ET.fromstring(out)  # well-formed XML
    clean = text.replace("\x07", "")
    attr = clean.replace("\t", " ")  # XML normalizes white space in attributes
    assert root.get("aria-label") == attr and root.get("id") == attr
    assert root.find(f"{NS}text").text == clean
    assert root.get("role") == "img"


def test_canvas_is_sized_by_its_viewbox():
    c = svg.Canvas(360, 128.4, "x", "x")
    root = ET.fromstring(c.svg())
    assert root.get("viewBox") == "0 0 360 128.4"
    assert root.get("width") is None and root.get("height") is None  # CSS sizes it


@settings(max_examples=200, deadline=None)
@given(
    lo=st.floats(-1e6, 1e6),
    span=st.floats(1e-3, 1e6),
    labels=st.lists(
        st.tuples(st.floats(0, 1), st.floats(0, 60), st.booleans()), min_size=0, max_size=8
    ),
)
def test_fit_labels_keeps_data_and_labels_inside(lo, span, labels):
    """Whatever the data and label widths (each under a quarter of the plot), the
    fitted scale puts the data and every label inside [r0, r1]."""
    hi = lo + span
    r0, r1 = 50.0, 350.0
    placed = [(lo + f * span, w, right) for f, w, right in labels]
    scale = svg.fit_labels(
        lo,
        hi,
        r0,
        r1,
        right=[(v, w) for v, w, r in placed if r],
        left=[(v, w) for v, w, r in placed if not r],
    )
    eps = 1e-6 * (r1 - r0)
    assert r0 - eps <= scale(lo) <= scale(hi) <= r1 + eps
    for v, w, right in placed:
        x = scale(v)
        assert (x + w <= r1 + eps) if right else (x - w >= r0 - eps)
    assert scale.d0 <= lo and scale.d1 >= hi and scale.r0 == r0 and scale.r1 == r1


def test_fit_labels_uses_the_room():
    """Without labels the data fill the plot less the margins."""
    s = svg.fit_labels(0, 10, 0, 100, margin=5)
    assert s(0) == pytest.approx(5) and s(10) == pytest.approx(95)
    with_label = svg.fit_labels(0, 10, 0, 100, right=[(10, 30)], margin=5)
    assert with_label(10) == pytest.approx(70)  # the label may reach the end


def test_a_cut_never_splits_a_latin_word():
    # "Ascen…" would read as a word of its own in a Chinese chart label
    assert svg.shorten("1,152 张 Ascend 910C", 14) == "1,152 张\u2026"
    assert svg.fit("1,152 张 Ascend 910C", 60.0) == "1,152 张\u2026"
    # a single word is cut where it must be
    assert svg.shorten("abcdefghijklmnop", 8) == "abcdefg\u2026"
