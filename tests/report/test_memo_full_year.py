"""The memo quotes the opex of the first full operating year (methodology §4),
naming the year by its calendar months, in the summary, the comparison table and
the opex chart; with no full year within the horizon it says so.

The expected figures are read off the model's annual opex table at the year
found by walking the calendar (the first model year whose first month follows
the first deployment's capex month), and the calendar year from the start date.
"""

from __future__ import annotations

import html
import re

import pytest

import costmodel as cm
from costmodel.report.memo import numbers as f
from tests.paths import HAND


def plain(page: str) -> str:
    """The memo's text: tags out, entities and no-break spaces as plain text."""
    text = html.unescape(re.sub(r"<[^>]+>", "", page))
    return re.sub(r"[\u00a0\u202f]", " ", text)


def first_full_year(build: int) -> int:
    y = 1
    while 12 * (y - 1) + 1 <= build:
        y += 1
    return y


def row_text(page: str, metric: str) -> list[str]:
    """The cells of the comparison table's row of ``metric``."""
    row = re.search(rf'<tr data-metric="{metric}">(.*?)</tr>', page, re.S)
    assert row, metric
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row.group(1), re.S)
    return [plain(c).strip() for c in cells]


def test_default_memo_names_the_year_and_its_opex(model, memos):
    s = model.summary()
    start = int(model.assumptions.start[:4])
    for t in model.tiers:  # the default starts in January: model year y is a calendar year
        assert model.assumptions.start[5:7] == "01"
        build = int(model.inputs[t].values()["build_months"])
        y = first_full_year(build)
        assert s.loc[t, "opex_full_year_number"] == y
    en, zh = memos["en"], memos["zh"]
    expect_en, expect_zh = [], []
    for t in model.tiers:
        y = int(s.loc[t, "opex_full_year_number"])
        opex = float(model.annual(t)["opex"].loc[y])
        expect_en.append(plain(f.money(opex, "en")))
        expect_zh.append(plain(f.money(opex, "zh")))
        assert f"{y} ({start + y - 1})" in row_text(en, "opex_full_year_number")
        assert f"第 {y} 年（{start + y - 1} 年）" in row_text(zh, "opex_full_year_number")
    assert row_text(en, "opex_full_year") == expect_en
    assert row_text(zh, "opex_full_year") == expect_zh
    # the summary (no option worth building here): the closest option's opex and its year
    text = plain(en)
    sentence = re.search(r"would need [^\n]*? and (CNY [\d.,]+ [Mk]?) to run in (\d{4}), its "
                         r"first full operating year\.", text)  # fmt: skip
    assert sentence, "no full-year opex in the summary"
    assert sentence.group(1) in expect_en
    assert int(sentence.group(2)) == start + 1  # every default tier's first full year is 2
    assert f"首个完整运营年（{start + 1} 年）运营成本" in plain(zh)


def test_opex_chart_marks_the_first_full_year(model, memos):
    """One mark per panel, over the column of the year (the panels' columns are the
    years in order, so the mark's x is that column's)."""
    s = model.summary()
    for k, t in enumerate(model.tiers):
        svg = re.search(rf'<svg[^>]*id="opex-en-{k}".*?</svg>', memos["en"], re.S)
        assert svg, t
        marks = re.findall(r'<circle class="full-year" cx="([\d.]+)"', svg.group(0))
        assert len(marks) == 1
        xs = [
            float(x) + float(w) / 2
            for x, w in re.findall(
                r'<rect class="bar staff" x="([\d.]+)" y="[\d.]+" width="([\d.]+)"', svg.group(0)
            )
        ]
        y = int(s.loc[t, "opex_full_year_number"])
        # staff is paid from month 1 in every year: one staff column per year
        assert len(xs) == model.assumptions.horizon_years
        assert float(marks[0]) == pytest.approx(xs[y - 1], abs=0.5)


def hand_memo(tmp_path, overrides: dict, lang: str = "en") -> tuple[cm.Model, str]:
    model = cm.build(cm.load_assumptions(HAND, overrides=overrides))
    path = cm.write_memo(model, tmp_path / f"memo.{lang}.html", lang=lang)
    return model, path.read_text("utf-8")


def test_a_recommended_option_is_costed_in_its_first_full_year(tmp_path):
    """The hand case (positive NPV) built over its first year and starting in July:
    year 2 is July 2028 to June 2029, and the recommendation quotes its opex."""
    over = {"horizon_years": 3, "timeline.build_months": 12, "start": "2027-07"}
    model, page = hand_memo(tmp_path, over)
    opex = float(model.annual("small")["opex"].loc[2])
    text = plain(page)
    assert "We recommend" in text
    want = f"{plain(f.money(opex))} to run in July 2028 – June 2029, its first full operating year"
    assert want in text
    _, zh = hand_memo(tmp_path, over, "zh")
    assert (
        f"首个完整运营年（2028 年 7 月至 2029 年 6 月）运营成本 {plain(f.money(opex, 'zh'))}"
        in (plain(zh))
    )


def test_no_full_year_within_the_horizon(tmp_path):
    """Built over 4 months of a one-year horizon: year 1's opex, said to be while it
    is built, an empty cell footnoted in the comparison."""
    model, page = hand_memo(tmp_path, {"timeline.build_months": 4})
    opex1 = plain(f.money(float(model.annual("small")["opex"].loc[1])))
    text = plain(page)
    assert f"{opex1} to run in its first year, while it is still being built" in text
    assert row_text(page, "opex_full_year")[0].startswith(f.EMPTY)
    assert "no full operating year: construction runs into the last of the 1 years" in text
