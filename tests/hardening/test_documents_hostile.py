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


def test_a_currency_that_is_not_an_iso_4217_code_is_refused():
    """Methodology section 30: the currency is three capital letters; the review's
    DDE-shaped currency reached a chart axis title as a reference."""
    for bad in ("+cmd|' /C calc'!A0", "usd", "US$", "CNY ", "元", ""):
        with pytest.raises(cm.AssumptionError, match="ISO 4217") as info:
            cm.load_assumptions(DEFAULT, overrides={"currency": bad})
        assert info.value.problems[0].path == "currency"
    # the default's prices say CNY in their units: a EUR model of them needs the rate
    # (methodology §2.8), which converts them
    eur = cm.load_assumptions(DEFAULT, overrides={"currency": "EUR", "fx.CNY": 0.128})
    assert eur.currency == "EUR"
    cny = cm.load_assumptions(DEFAULT).power.price_per_kwh.value
    assert eur.power.price_per_kwh.value == pytest.approx(cny * 0.128)


@pytest.mark.slow
def test_every_chart_text_stays_text(tmp_path, recwarn):
    """Tier labels shaped like references (a DDE-style one among them) reach the
    charts' series names and titles, on every chart sheet (the sweep's included):
    every chart formula names a sheet of the book, no title or axis title is a
    reference, no XlsxWriter warning."""
    from costmodel.analysis.bundle import analyze

    hostile = {
        "tiers.tens.label": "+cmd|' /C calc'!A0",
        "tiers.hundreds.label": "Sheet1!A1",
        "tiers.thousands.label": "=Inputs!$B$2",
    }
    a = cm.load_assumptions(DEFAULT, overrides=hostile)
    model = cm.build(a)
    analysis = analyze(model, draws=200)
    assert analysis.sweeps  # the sweep sheet and its chart are written
    path = cm.write_workbook(model, tmp_path / "m.xlsx", analysis=analysis)
    assert not [w for w in recwarn.list if "formula" in str(w.message).lower()]
    with zipfile.ZipFile(path) as z:
        charts = [z.read(n).decode() for n in z.namelist() if n.startswith("xl/charts/chart")]
        book = z.read("xl/workbook.xml").decode()
    sheets = set(re.findall(r'<sheet name="([^"]*)"', book))
    refs = [r for c in charts for r in re.findall(r"<c:f>([^<]*)</c:f>", c)]
    assert refs
    for r in refs:
        sheet = r.split("!")[0].strip("'").replace("&apos;", "'")
        assert sheet in sheets, r
    for c in charts:
        for title in re.findall(r"<c:title>(.*?)</c:title>", c, flags=re.S):
            assert "<c:f>" not in title, title
    texts = "".join(charts)
    assert "+cmd|&apos; /C calc&apos;!\u200bA0" in texts or "+cmd|' /C calc'!\u200bA0" in texts


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

    # the tens tier sold by the hour (the default's is captive) at a price that services a loan
    over = {"tiers.tens.revenue.mode": "rental", "tiers.tens.revenue.price_per_gpu_hour": 40.0}
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
