"""The study in the memo and the workbook (methodology §34): the heat map holds one
cell per (site, size) with the study's share, the best cells framed; the
sentences carry the best cells' figures in both languages; the workbook's Study
sheet holds the grid as cached values with a colour scale and says they are
cached results of the simulation; `costmodel build --study-tier` writes both."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import openpyxl
import pytest

import costmodel as cm
from costmodel.analysis.study import OWN_SITE
from costmodel.report.memo import numbers as f
from costmodel.report.memo.render import render_memo
from tests.support.serve import english_words, visible_text

COUNTS = [256, 512, 1024, 2048]


@pytest.fixture(scope="module")
def built():
    a = cm.load_assumptions()
    model = cm.build(a)
    study = {"tier": "thousands", "gpus": COUNTS}
    return model, cm.analyze(model, draws=400, seed=3, study=study)


def _section(html: str) -> str:
    start = html.index('<h3 id="study"')
    return html[start : html.index("</section>", start)]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_heat_map_has_one_cell_per_site_and_size_and_frames_the_best(built, lang):
    model, an = built
    part = _section(render_memo(model, lang, analysis=an))
    svg = ET.fromstring(re.search(r"<svg.*?</svg>", part, re.S).group(0))
    ns = "{http://www.w3.org/2000/svg}"
    cells = [r for r in svg.iter(f"{ns}rect") if r.get("class") == "cell"]
    shares = [t.text for t in svg.iter(f"{ns}text") if t.get("class") == "share"]
    assert len(cells) == len(COUNTS)
    want = [f.pct(p, 0) for p in an.study.cells["p_npv_positive"]]
    assert shares == want
    framed = [r for r in svg.iter(f"{ns}rect") if r.get("class") == "best"]
    assert len(framed) == len({an.study.best_probability, an.study.best_median})
    # a fixed scale from 0% to 100%, not stretched over the cells' own range: red
    # (196, 85, 77) at 0, (247, 247, 247) at 50%, green (90, 163, 107) at 100%
    for rect, p in zip(cells, an.study.cells["p_npv_positive"], strict=True):
        lo, hi, t = (
            ((196, 85, 77), (247,) * 3, 2 * p)
            if p <= 0.5
            else ((247,) * 3, (90, 163, 107), 2 * p - 1)
        )
        want_rgb = "#" + "".join(
            f"{round(a + (b - a) * t):02x}" for a, b in zip(lo, hi, strict=True)
        )
        assert rect.get("fill") == want_rgb


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_sentences_carry_the_best_cells_figures(built, lang):
    model, an = built
    part = _section(render_memo(model, lang, analysis=an))
    cells = an.study.cells.set_index("gpus")
    best_p, best_m = an.study.best_probability, an.study.best_median
    assert best_p[0] == OWN_SITE
    p = cells.at[best_p[1], "p_npv_positive"]
    top = cells["p_npv_positive"].max()
    assert p == top
    text = visible_text(part)
    assert f.pct(p) in text and f"{best_p[1]:,}" in text
    median = cells.at[best_m[1], "npv_p50"]
    assert median == cells["npv_p50"].max()
    assert f.money(median, lang, "CNY") in text
    if lang == "zh":
        assert english_words(text) == set()


def test_the_study_sheet_holds_the_grid_as_cached_values(built, tmp_path):
    model, an = built
    path = cm.write_workbook(model, tmp_path / "model.xlsx", analysis=an)
    wb = openpyxl.load_workbook(path)
    ws = wb["Study"]
    values = {(r, c): ws.cell(r, c).value for r in range(1, 12) for c in range(1, 8)}
    note = str(ws.cell(2, 1).value)
    assert "Cached results of the simulation, not live formulas" in note
    header = next(r for (r, c), v in values.items() if v == "site \\ GPUs")
    assert [ws.cell(header, c + 2).value for c in range(len(COUNTS))] == COUNTS
    got = [ws.cell(header + 1, c + 2).value for c in range(len(COUNTS))]
    assert got == list(an.study.cells["p_npv_positive"])
    assert not any(isinstance(v, str) and v.startswith("=") for v in got)
    scales = [r for cf in ws.conditional_formatting for r in cf.rules]
    (scale,) = [r for r in scales if r.type == "colorScale"]
    # fixed at 0%, 50% and 100% (numbers), not at the grid's own minimum and maximum
    ends = [(v.type, float(v.val)) for v in scale.colorScale.cfvo]
    assert ends == [("num", 0.0), ("num", 0.5), ("num", 1.0)]
    best = COUNTS.index(an.study.best_probability[1]) + 2
    assert ws.cell(header + 1, best).border.left.style == "thick"


def test_build_with_a_study_writes_it_into_both_outputs(tmp_path):
    from typer.testing import CliRunner

    from costmodel.cli import get_app

    args = ["build", "-o", str(tmp_path), "-n", "200", "--study-tier", "tens"]
    res = CliRunner().invoke(get_app(), [*args, "--study-gpus", "16,32,64", "-q"])
    assert res.exit_code == 0, res.output
    assert 'id="study"' in (tmp_path / "memo.html").read_text(encoding="utf-8")
    assert "Study" in openpyxl.load_workbook(tmp_path / "model.xlsx", read_only=True).sheetnames
    bad = CliRunner().invoke(get_app(), ["build", "-o", str(tmp_path / "x"), "--study-gpus", "16"])
    assert bad.exit_code == 2 and "--study-tier" in bad.output
