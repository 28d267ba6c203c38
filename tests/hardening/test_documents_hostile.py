"""Issue 31, documents: user text isolated in the memo, chart texts kept as text,
sheet names Excel and Gnumeric read, compact numbers and comparisons whose
digits differ."""

from __future__ import annotations

import re
import zipfile

import pytest

import costmodel as cm
from costmodel.inputs.resources import default_assumptions_dir
from costmodel.report.memo import numbers as f
from costmodel.report.memo.render import render_memo

DEFAULT = default_assumptions_dir()


def test_right_to_left_text_is_isolated_in_the_memo():
    """A Hebrew label is allowed; the memo wraps it in <bdi> wherever it is text."""
    label = "\u05d0\u05d1\u05d2 tens"
    a = cm.load_assumptions(DEFAULT, overrides={"tiers.tens.label": label})
    page = render_memo(cm.build(a), "en")
    assert f"<bdi>{label}</bdi>" in page
    bare = page.replace(f"<bdi>{label}</bdi>", "")
    bare = re.sub(r'(data-label|aria-label)="[^"]*"', "", bare)  # attributes: plain text
    bare = re.sub(r"<svg\b.*?</svg>", "", bare, flags=re.S)  # charts: SVG text
    bare = re.sub(r'<td class="text" dir="auto">[^<]*</td>', "", bare)  # its own cell
    assert label not in bare  # every other use is isolated


@pytest.mark.slow
def test_the_currency_and_every_chart_text_stay_text(tmp_path, recwarn):
    """A currency shaped like a DDE reference reaches a chart axis as text:
    no chart formula names anything but a sheet of the book, no XlsxWriter warning."""
    currency = "+cmd|' /C calc'!A0"
    a = cm.load_assumptions(DEFAULT, overrides={"currency": currency})
    path = cm.write_workbook(cm.build(a), tmp_path / "m.xlsx")
    assert not [w for w in recwarn.list if "formula" in str(w.message).lower()]
    with zipfile.ZipFile(path) as z:
        charts = [z.read(n).decode() for n in z.namelist() if n.startswith("xl/charts/chart")]
    refs = [r for c in charts for r in re.findall(r"<c:f>([^<]*)</c:f>", c)]
    assert refs and not [r for r in refs if "cmd" in r]
    assert any("+cmd|&apos; /C calc&apos;!\u200bA0" in c or "+cmd|' /C calc'!\u200bA0" in c
               for c in charts)  # fmt: skip


def test_history_is_not_a_sheet_name_and_an_apostrophe_is_not_quoted():
    from costmodel.report.workbook.book import sheet_names

    names = sheet_names(["History", "it's", "history"])
    assert names["History"].lower() != "history"
    assert "'" not in names["it's"]
    assert len({n.lower() for n in names.values()}) == 3


# ----------------------------------------------------------------------------- numbers in text


@pytest.mark.parametrize("v", [1e12, 2.5e13, 1e300, -7.77e250])
def test_huge_numbers_are_compact(v):
    """Past 1e12 a figure is three significant digits and a power of ten."""
    for text in (f.money(v), f.money(v, "zh"), f.number(v), f.count(v), f.years(v)):
        assert len(text) < 20, text
        mantissa, exp = re.search(r"([\d.]+)e(\d+)", text).groups()
        assert float(mantissa) * 10 ** int(exp) == pytest.approx(abs(v), rel=5e-3)


def test_a_covenant_of_1e300_is_short_in_the_memo():
    from tests.report.test_memo_growth_financing import LOAN, memo, section, text_of

    _, _, pages = memo(LOAN, overrides={"financing.min_dscr_covenant": 1e300}, langs=("en",))
    text = text_of(section(pages["en"], "financing"))
    assert "1e300×" in text
    assert not re.search(r"\d{20}", pages["en"])


@pytest.mark.parametrize("offset", [1e-4, -1e-4, 2e-7])
def test_a_covenant_next_to_the_min_dscr_is_said_with_digits_that_differ(offset):
    from tests.report.test_memo_growth_financing import LOAN, dscr_of, memo, section, text_of

    over = {"tiers.tens.revenue.price_per_gpu_hour": 40.0}
    m0, _, _ = memo(LOAN, overrides=over, langs=())
    low = dscr_of(m0, "tens")[0]
    covenant = low + offset
    _, _, pages = memo(LOAN, overrides={**over, "financing.min_dscr_covenant": covenant},
                       langs=("en",))  # fmt: skip
    page = section(pages["en"], "financing")
    item = text_of(re.search(r'<li data-tier="tens">(.*?)</li>', page, flags=re.S).group(1))
    dscr, cov = re.search(
        r"minimum DSCR, ([\d.]+)× in year \d+, (?:is below|clears) the ([\d.]+)×", item
    ).groups()
    assert dscr != cov
    assert (float(dscr) < float(cov)) == (low < covenant)  # the text orders them as they are
    assert ("below" in item) == (low < covenant)
