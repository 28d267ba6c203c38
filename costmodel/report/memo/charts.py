"""The memo's charts as inline SVG strings, drawn with matplotlib (Agg backend).

Text stays text (``svg.fonttype: none``) with a CJK-capable font-family list, so
Chinese labels render with the reader's fonts and remain searchable. Each SVG is
made safe to inline several times in one HTML page: the XML prolog, DOCTYPE and
metadata are dropped, every ``id`` and ``#reference`` gets a per-chart prefix,
and the fixed width/height give way to the ``viewBox`` (CSS sizes the chart).

Charts only read a built :class:`~costmodel.core.model.Model` (and, for the price
chart, the break-even prices); they compute nothing financial:

- :func:`npv_chart`: NPV per tier (horizontal bars).
- :func:`capex_chart`: capex per GPU stacked by asset class, total capex on top.
- :func:`opex_chart`: opex per operating year stacked by line item, one panel per tier.
- :func:`cash_chart`: cumulative FCF per month, one panel per tier, payback marked.
- :func:`cost_chart`: levelized and effective cost per GPU-hour vs price and break-even.

``compact=True`` draws the variant for phone width: narrower, panels in one
column, legends below the plot.
"""

from __future__ import annotations

import contextlib
import io
import logging
import math
import os
import re
import textwrap
import warnings
from collections.abc import Mapping

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib import font_manager  # noqa: E402

from costmodel.core.engine import CAPEX_LINES, OPEX_LINES  # noqa: E402
from costmodel.core.model import Model  # noqa: E402
from costmodel.report.memo import format as f  # noqa: E402
from costmodel.report.memo.labels import chart_label  # noqa: E402
from costmodel.report.memo.text import CHART, LINE_LABELS  # noqa: E402

FONT_FAMILY = [
    "Noto Sans CJK SC",
    "Noto Sans SC",
    "Source Han Sans SC",
    "Microsoft YaHei",
    "PingFang SC",
    "DejaVu Sans",
    "sans-serif",
]
# What matplotlib may use to measure text: the first installed of these.
_MEASURE = [x for x in FONT_FAMILY if x != "sans-serif"]

COLORS = {
    "servers": "#2f5d8a",
    "network": "#e08e2b",
    "storage": "#5aa36b",
    "facility": "#9b6fb0",
    "electricity": "#e0b12b",
    "colocation": "#8c8c8c",
    "staff": "#2f5d8a",
    "maintenance": "#c4554d",
    "insurance": "#6fb0b0",
    "software": "#9b6fb0",
}
POS, NEG = "#3f8f5a", "#c4554d"
WIDTH = 7.4  # inches: the A4 text width at 100%
PHONE = 4.2  # inches: the compact variant shown at phone width (one column of panels)

RC = {
    "svg.fonttype": "none",
    "font.family": "sans-serif",
    "font.sans-serif": _MEASURE,
    "font.size": 10.5,
    "axes.titlesize": 11,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.edgecolor": "#666666",
    "axes.grid": True,
    "axes.grid.axis": "y",
    "grid.color": "#dddddd",
    "grid.linewidth": 0.6,
    "axes.axisbelow": True,
    "legend.frameon": False,
    "axes.unicode_minus": True,
}


_CJK_FILES = re.compile(
    r"NotoSansCJK|NotoSerifCJK|NotoSansSC|SourceHanSans|msyh|PingFang|wqy|DroidSansFallback",
    re.I,
)
_log = logging.getLogger(__name__)
_cjk_checked = False


def cjk_fonts(paths: list[str] | None = None) -> list[str]:
    """Make sure matplotlib measures Chinese text with a CJK font that is actually
    installed, even when its font cache predates the font: look for CJK font files
    (``paths``, default: the system's font files) and register each with the font
    manager. Returns the CJK family names available; with none, says so once in a
    one-line notice (charts then fall back to the reader's fonts in the browser)."""
    global _cjk_checked
    fm = font_manager.fontManager
    wanted = set(_MEASURE) - {"DejaVu Sans"}
    have = sorted({f.name for f in fm.ttflist if f.name in wanted})
    if have and paths is None:
        return have
    files = paths if paths is not None else font_manager.findSystemFonts()
    for path in files:
        if _CJK_FILES.search(os.path.basename(path)):
            try:
                fm.addfont(path)
            except (OSError, RuntimeError, ValueError):  # pragma: no cover - broken file
                continue
    have = sorted({f.name for f in fm.ttflist if f.name in wanted})
    if not have and not _cjk_checked:
        _log.warning(
            "costmodel: no CJK font found (install fonts-noto-cjk); Chinese chart labels "
            "are sized approximately and drawn by the browser's fonts."
        )
    _cjk_checked = True
    return have


@contextlib.contextmanager
def _style(rc: Mapping[str, object]):
    """The chart style, with matplotlib's missing-glyph and font-lookup chatter kept
    off the user's terminal (the SVG keeps text as text; the browser draws it)."""
    if not _cjk_checked:
        cjk_fonts()
    quiet = logging.getLogger("matplotlib.font_manager")
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=r"Glyph \d+ .*missing from")
            warnings.filterwarnings("ignore", message=r".*missing from (current )?font")
            with plt.rc_context(dict(rc)):
                yield
    finally:
        quiet.setLevel(level)


def _text(s: str, limit: int = 22) -> str:
    """Data text for matplotlib: no mathtext (``$``), shortened to ``limit``."""
    s = s if len(s) <= limit else s[: limit - 1] + "\u2026"
    return s.replace("$", r"\$")


def to_svg(fig: plt.Figure, prefix: str, title: str = "", tight: bool = True) -> str:
    """Serialize ``fig`` to an SVG element safe to inline (see module docstring).
    ``tight=False`` when the figure was laid out already (saves a draw)."""
    buf = io.StringIO()
    with plt.rc_context({"svg.hashsalt": prefix}):
        fig.savefig(buf, format="svg", bbox_inches="tight" if tight else None, pad_inches=0.08)
    plt.close(fig)
    s = buf.getvalue()
    s = s[s.index("<svg") :]
    s = re.sub(r"<metadata>.*?</metadata>\s*", "", s, flags=re.S)
    s = re.sub(r'\sid="([^"]+)"', rf' id="{prefix}-\1"', s)
    s = re.sub(r'href="#([^"]+)"', rf'href="#{prefix}-\1"', s)
    s = re.sub(r"url\(#([^)]+)\)", rf"url(#{prefix}-\1)", s)
    s = re.sub(r'\s(width|height)="[\d.]+pt"', "", s, count=2)
    # one family list for every text element, with generic CJK fallbacks
    family = ", ".join(f"'{x}'" if " " in x else x for x in FONT_FAMILY)
    s = re.sub(r"font-family: [^;\"]+", f"font-family: {family}", s)
    label = title.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")
    return s.replace("<svg ", f'<svg role="img" aria-label="{label}" class="chart" ', 1)


def _names(model: Model, lang: str) -> list[str]:
    """The tiers' short names on an axis (:func:`~costmodel.report.memo.labels.chart_label`)."""
    return [_text(chart_label(model, t, lang)) for t in model.tiers]


def _grid(n: int, compact: bool = False) -> tuple[int, int]:
    cols = 1 if compact else min(n, 3)
    return math.ceil(n / cols), cols


def _legend_right_or_below(ax: plt.Axes, compact: bool, handles=None, labels=None) -> None:
    """Legend beside the plot (wide) or under it in two columns (compact)."""
    if handles is None:
        handles, labels = ax.get_legend_handles_labels()
    if compact:
        ax.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2)
    else:
        ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.0, 1.0))


def npv_chart(model: Model, lang: str, prefix: str = "npv", compact: bool = False) -> str:
    """Horizontal bar of NPV per tier, labelled with the formatted value."""
    cur = model.assumptions.currency
    t = CHART[lang]
    npv = model.summary()["npv"].to_numpy(dtype=float)
    div, unit = f.money_scale(np.nanmax(np.abs(npv)) if len(npv) else 0, lang, cur)
    with _style(RC | {"axes.grid.axis": "x"}):
        width = PHONE if compact else WIDTH
        fig, ax = plt.subplots(figsize=(width, 0.55 * len(npv) + 1.1))
        y = np.arange(len(npv))[::-1]
        vals = np.nan_to_num(npv) / div
        ax.barh(y, vals, color=[POS if v >= 0 else NEG for v in vals], height=0.55)
        ax.axvline(0, color="#333333", linewidth=0.8)
        ax.set_yticks(y, _names(model, lang))
        ax.set_xlabel(unit)
        span = max(np.abs(vals).max(initial=0), 1e-9)
        lo = min(vals.min(initial=0) * 1.35, -0.05 * span)
        ax.set_xlim(lo, max(vals.max(initial=0) * 1.35, 0.05 * span))
        for yi, v, raw in zip(y, vals, npv, strict=True):
            ax.annotate(
                f.money(raw, lang, cur),
                (v, yi),
                xytext=(4 if v >= 0 else -4, 0),
                textcoords="offset points",
                ha="left" if v >= 0 else "right",
                va="center",
                fontsize=9.5,
            )
        ax.spines["left"].set_visible(False)
        ax.tick_params(axis="y", length=0)
        return to_svg(fig, prefix, t["npv_title"])


def capex_chart(model: Model, lang: str, prefix: str = "capex", compact: bool = False) -> str:
    """Capex per GPU stacked by asset class; total capex above each bar."""
    cur = model.assumptions.currency
    t, lines = CHART[lang], LINE_LABELS[lang]
    s = model.summary()
    per_gpu = {c: s[f"capex_{c}"].to_numpy(float) / s["gpus"].to_numpy(float) for c in CAPEX_LINES}
    div, unit = f.money_scale(max(sum(per_gpu.values()).max(), 0), lang, cur)
    with _style(RC):
        fig, ax = plt.subplots(figsize=(PHONE if compact else WIDTH, 3.4))
        x = np.arange(len(s))
        bottom = np.zeros(len(s))
        for c in CAPEX_LINES:
            v = per_gpu[c] / div
            if not np.any(v):
                continue
            ax.bar(x, v, 0.55, bottom=bottom, color=COLORS[c], label=lines[c])
            bottom += v
        for xi, top, total in zip(x, bottom, s["capex"], strict=True):
            ax.annotate(
                f"{t['total']} {f.money(total, lang, cur)}",
                (xi, top),
                xytext=(0, 3),
                textcoords="offset points",
                ha="center",
                va="bottom",
                fontsize=9.5,
            )
        ax.set_ylim(0, bottom.max(initial=0) * 1.15 or 1)
        ax.set_xticks(x, _names(model, lang))
        ax.set_ylabel(t["capex_axis"].format(unit=unit))
        handles, labels = ax.get_legend_handles_labels()  # top of the stack first
        _legend_right_or_below(ax, compact, handles[::-1], labels[::-1])
        return to_svg(fig, prefix, t["capex_title"])


def _panels(n: int, height: float, compact: bool) -> tuple[plt.Figure, list[plt.Axes]]:
    rows, cols = _grid(n, compact)
    width = PHONE if compact else WIDTH
    fig, axes = plt.subplots(rows, cols, figsize=(width, height * rows), squeeze=False)
    flat = list(axes.ravel())
    for ax in flat[n:]:
        ax.set_visible(False)
    return fig, flat[:n]


def opex_chart(model: Model, lang: str, prefix: str = "opex", compact: bool = False) -> str:
    """Opex per operating year stacked by line item; one panel (own scale) per tier."""
    cur = model.assumptions.currency
    t, lines = CHART[lang], LINE_LABELS[lang]
    years = model.months // 12
    data = {}
    for tier in model.tiers:
        o = model.opex(tier)
        data[tier] = {
            c: o[c].to_numpy(float)[1:].reshape(years, 12).sum(axis=1) for c in OPEX_LINES
        }
    used = [c for c in OPEX_LINES if any(np.any(d[c]) for d in data.values())]
    with _style(RC | {"font.size": 9.5}):
        fig, axes = _panels(len(model.tiers), 2.3 if compact else 2.7, compact)
        for ax, tier in zip(axes, model.tiers, strict=True):
            total = sum(data[tier].values())
            div, unit = f.money_scale(total.max(initial=0), lang, cur)
            yr = np.arange(1, years + 1)
            bottom = np.zeros(years)
            for c in used:
                ax.bar(yr, data[tier][c] / div, 0.7, bottom=bottom, color=COLORS[c], label=lines[c])
                bottom += data[tier][c] / div
            ax.set_title(_text(chart_label(model, tier, lang)))
            ax.set_ylabel(t["opex_axis"].format(unit=unit))
            ax.set_xlabel(t["year"])
            ax.set_xticks(yr)
        handles, labels = axes[0].get_legend_handles_labels()
        ncol = 3 if compact else max(1, len(used))  # all-zero opex draws no line
        fig.legend(handles, labels, loc="lower center", ncol=ncol, bbox_to_anchor=(0.5, 0.0))
        fig.tight_layout(rect=(0, 0.07 if compact else 0.08, 1, 1))
        return to_svg(fig, prefix, t["opex_title"], tight=False)


def cash_chart(model: Model, lang: str, prefix: str = "cash", compact: bool = False) -> str:
    """Cumulative FCF per tier (own scale); payback marked or 'no payback' noted."""
    cur = model.assumptions.currency
    t = CHART[lang]
    s = model.summary()
    with _style(RC | {"font.size": 9.5}):
        fig, axes = _panels(len(model.tiers), 2.3 if compact else 2.6, compact)
        for ax, tier in zip(axes, model.tiers, strict=True):
            cum = model.cash_flow(tier)["cumulative_fcf"].to_numpy(float)
            div, unit = f.money_scale(np.abs(cum).max(initial=0), lang, cur)
            x = np.arange(len(cum)) / 12
            ax.plot(x, cum / div, color="#2f5d8a", linewidth=1.6)
            ax.fill_between(x, cum / div, 0, where=cum < 0, color=NEG, alpha=0.12, linewidth=0)
            ax.fill_between(x, cum / div, 0, where=cum >= 0, color=POS, alpha=0.15, linewidth=0)
            ax.axhline(0, color="#333333", linewidth=0.8)
            pb = s.loc[tier, "payback_years"]
            if f.is_empty(pb):
                ax.text(
                    0.97,
                    0.93,
                    t["no_payback"],
                    transform=ax.transAxes,
                    ha="right",
                    va="top",
                    fontsize=9,
                    color=NEG,
                )
            else:
                m = int(round(float(pb) * 12))
                ax.plot([pb], [cum[m] / div], "o", color=POS, markersize=6, zorder=3)
                ax.annotate(
                    t["payback"].format(years=f.years(pb, lang)),
                    (pb, cum[m] / div),
                    xytext=(0, 10),
                    textcoords="offset points",
                    ha="center",
                    fontsize=9,
                    color="#1d5c33",
                )
            ax.set_title(_text(chart_label(model, tier, lang)))
            ax.set_ylabel(t["cash_axis"].format(unit=unit))
            ax.set_xlabel(t["year"])
            ax.set_xlim(0, x[-1])
        fig.tight_layout()
        return to_svg(fig, prefix, t["cash_title"], tight=False)


def cost_chart(
    model: Model,
    lang: str,
    prices: Mapping[str, float],
    breakeven: Mapping[str, float],
    prefix: str = "cost",
    compact: bool = False,
) -> str:
    """Levelized and effective cost per GPU-hour per tier as bars; the assumed
    year-1 price (solid) and the break-even price (dashed) as markers."""
    cur = model.assumptions.currency
    t = CHART[lang]
    s = model.summary()
    lev = s["cost_per_gpu_hour"].to_numpy(float)
    eff = s["cost_per_effective_gpu_hour"].to_numpy(float)
    price = np.array([prices[x] for x in model.tiers], float)
    be = np.array([breakeven.get(x, math.nan) for x in model.tiers], float)
    with _style(RC):
        fig, ax = plt.subplots(figsize=(PHONE if compact else WIDTH, 3.5))
        x = np.arange(len(s))
        w = 0.32
        for dx, vals, color, label in (
            (-w / 2, lev, "#2f5d8a", t["levelized"]),
            (w / 2, eff, "#7fa7cc", t["effective"]),
        ):
            bars = ax.bar(x + dx, np.nan_to_num(vals), w, color=color, label=label)
            for b, v in zip(bars, vals, strict=True):
                if not f.is_empty(float(v)):
                    ax.annotate(
                        f"{v:,.2f}",
                        (b.get_x() + b.get_width() / 2, b.get_height()),
                        xytext=(0, 2),
                        textcoords="offset points",
                        ha="center",
                        va="bottom",
                        fontsize=8.5,
                    )
        ax.hlines(price, x - 0.42, x + 0.42, colors="#222222", linewidth=2.2, label=t["price"])
        ok = ~np.isnan(be)
        ax.hlines(
            be[ok],
            x[ok] - 0.42,
            x[ok] + 0.42,
            colors=NEG,
            linewidth=1.8,
            linestyles=(0, (4, 2)),
            label=t["breakeven"],
        )
        top = np.nanmax(np.concatenate([lev, eff, price, be, [1.0]]))
        ax.set_ylim(0, top * 1.18)
        ax.set_xticks(x, _names(model, lang))
        ax.set_ylabel(t["cost_axis"].format(currency=f.currency_unit(lang, cur)))
        _legend_right_or_below(ax, compact)
        return to_svg(fig, prefix, t["cost_title"])


def failures_chart(
    names: list[str],
    lost: list[float],
    lost_fast: list[float],
    money: list[float],
    money_fast: list[float],
    lang: str,
    currency: str = "CNY",
    factor: float = 10,
    prefix: str = "failures",
    compact: bool = False,
) -> str:
    """Two panels per tier: share of GPU time lost (1 - goodput) and its cost a
    year, each as assumed (dark) and with faster checkpoint storage (light). The
    numbers come from :func:`costmodel.report.memo.reliability.failures`."""
    from costmodel.report.memo.text import FAILURES

    t = FAILURES[lang]
    labels = (t["as_assumed"], t["faster"].format(factor=factor))
    dark, light = "#c4554d", "#e8b4ae"
    n = len(names)
    money_arr = np.nan_to_num(np.asarray(money, float))
    div, unit = f.money_scale(money_arr.max(initial=0), lang, currency)
    with _style(RC | {"font.size": 9.5}):
        if compact:
            fig, axes = plt.subplots(2, 1, figsize=(PHONE, 5.4))
        else:
            fig, axes = plt.subplots(1, 2, figsize=(WIDTH, 2.9))
        x = np.arange(n)
        w = 0.36
        panels = (
            (axes[0], lost, lost_fast, 100.0, "%", lambda v: f.pct(v, 2), t["lost_axis"]),
            (
                axes[1],
                money,
                money_fast,
                div,
                unit,
                lambda v: f.money(v, lang, currency),
                t["money_axis"].format(unit=unit),
            ),
        )
        for ax, now, fast, scale, _unit, text, ylabel in panels:
            mult = 100.0 if scale == 100.0 else 1 / scale
            now_a = np.nan_to_num(np.asarray(now, float)) * mult
            fast_a = np.nan_to_num(np.asarray(fast, float)) * mult
            ax.bar(x - w / 2, now_a, w, color=dark, label=labels[0])
            ax.bar(x + w / 2, fast_a, w, color=light, label=labels[1])
            # one label per pair, above the taller bar: "as assumed / faster"
            for xi, a_, b_, ra, rb in zip(x, now_a, fast_a, now, fast, strict=True):
                ax.annotate(
                    f"{text(ra)}\n→ {text(rb)}",
                    (xi, max(a_, b_)),
                    xytext=(0, 3),
                    textcoords="offset points",
                    ha="center",
                    va="bottom",
                    fontsize=7.5 if compact or n > 3 else 8.5,
                    linespacing=1.15,
                )
            top = max(now_a.max(initial=0), fast_a.max(initial=0))
            ax.set_ylim(0, top * 1.45 or 1)
            ax.set_xticks(x, [_text(s, 14) for s in names])
            ax.set_ylabel(ylabel if scale != 100.0 else f"{ylabel} (%)")
        handles, leg = axes[0].get_legend_handles_labels()
        fig.legend(handles, leg, loc="lower center", ncol=2, bbox_to_anchor=(0.5, 0.0))
        fig.tight_layout(rect=(0, 0.06 if compact else 0.1, 1, 1))
        return to_svg(fig, prefix, t["chart_title"], tight=False)


# ----------------------------------------------------------------------------- analysis charts
# Drawn from the numbers of a finished costmodel.analysis.bundle.Analysis, passed in by
# costmodel.report.memo.analysis; words in costmodel.report.memo.text_analysis.

LOW_C, HIGH_C = "#7fa7cc", "#2f5d8a"


def _text_inches(s: str, size: float) -> float:
    """Rough width of ``s`` at ``size`` points (CJK characters count double):
    enough to reserve a margin without a measuring draw."""
    import unicodedata

    em = sum(1.0 if unicodedata.east_asian_width(c) in "WF" else 0.56 for c in s)
    return em * size / 72


def _adjust(
    fig: plt.Figure,
    rows: int,
    cols: int,
    left: float = 0.62,
    right: float = 0.12,
    top: float = 0.3,
    bottom: float = 0.52,
    wgap: float = 0.7,
    hgap: float = 0.85,
) -> None:
    """Place a grid of panels with margins and gaps in inches, in place of
    ``tight_layout`` (which costs a full extra draw)."""
    w, h = fig.get_size_inches()
    axw = max((w - left - right - (cols - 1) * wgap) / cols, 0.1)
    axh = max((h - top - bottom - (rows - 1) * hgap) / rows, 0.1)
    fig.subplots_adjust(
        left=left / w,
        right=1 - right / w,
        bottom=bottom / h,
        top=1 - top / h,
        wspace=wgap / axw,
        hspace=hgap / axh,
    )


def _wrap_label(label: str, width: int) -> str:
    """An input's name on lines of at most ``width`` characters, broken at spaces
    (Chinese names are short enough for one line)."""
    return "\n".join(_text(x, width + 6) for x in textwrap.wrap(label, width) or [""])


def tornado_chart(
    inputs: list[str],
    low: list[float] | list[str],
    high: list[float] | list[str],
    at_low: list[float],
    at_high: list[float],
    base: float,
    lang: str,
    currency: str,
    title: str,
    prefix: str = "tornado",
    compact: bool = False,
) -> str:
    """Tornado of one tier: per input (largest swing on top) a bar from the base
    NPV to the NPV with the input at its low value and one to its high value; the
    input values written at the bar ends; base NPV solid, NPV = 0 dashed."""
    from costmodel.report.memo.text_analysis import TRUE

    t = TRUE[lang]
    n = len(inputs)
    lo_v, hi_v = np.asarray(at_low, float), np.asarray(at_high, float)
    allv = np.concatenate([lo_v, hi_v, [base, 0.0]])
    div, unit = f.money_scale(np.nanmax(np.abs(allv)), lang, currency)
    with _style(RC | {"axes.grid.axis": "x", "font.size": 9.5}):
        width = PHONE if compact else WIDTH
        fig, ax = plt.subplots(figsize=(width, 0.42 * n + 1.3))
        y = np.arange(n)[::-1]
        b = base / div
        ax.barh(y, lo_v / div - b, left=b, height=0.6, color=LOW_C, label=t["low_legend"])
        ax.barh(y, hi_v / div - b, left=b, height=0.6, color=HIGH_C, label=t["high_legend"])
        ax.axvline(b, color="#222222", linewidth=1.2, label=t["base_legend"])
        ax.axvline(0, color=NEG, linewidth=1.2, linestyle=(0, (4, 2)), label=t["zero_legend"])
        for yi, lv, hv, a, c in zip(y, low, high, lo_v / div, hi_v / div, strict=True):
            for value, end, other in ((lv, a, c), (hv, c, a)):
                right = end >= other
                ax.annotate(
                    value if isinstance(value, str) else f.short(value),
                    (end, yi),
                    xytext=(3 if right else -3, 0),
                    textcoords="offset points",
                    ha="left" if right else "right",
                    va="center",
                    fontsize=8,
                    color="#444444",
                )
        lo_x, hi_x = np.nanmin(allv) / div, np.nanmax(allv) / div
        pad = 0.16 * (hi_x - lo_x or 1)
        ax.set_xlim(lo_x - pad, hi_x + pad)
        ax.set_ylim(-0.7, n - 0.3)
        wrap = 24 if compact else 40
        ax.set_yticks(y, [_wrap_label(p, wrap) for p in inputs], fontsize=8 if compact else 8.5)
        ax.set_xlabel(t["npv_axis"].format(unit=unit))
        ax.spines["left"].set_visible(False)
        ax.tick_params(axis="y", length=0)
        if compact:  # under the axis label: axes height ~ figure height - 0.7 in
            below = -0.62 / max(0.42 * n + 0.6, 0.5)
            ax.legend(loc="upper center", bbox_to_anchor=(0.35, below), ncol=2, fontsize=8.5)
        else:
            ax.legend(loc="lower right", fontsize=8.5, framealpha=0.9, frameon=True)
        return to_svg(fig, prefix, title)


def npv_distribution_chart(
    names: list[str],
    draws: list[np.ndarray],
    quantiles: list[tuple[float, float, float]],
    lang: str,
    currency: str,
    title: str,
    prefix: str = "mc",
    compact: bool = False,
) -> str:
    """Histogram of the NPV draws per tier (own scale), bins left of 0 red and
    right of it green, P10/P50/P90 dotted."""
    from costmodel.report.memo.text_analysis import TRUE

    t = TRUE[lang]
    with _style(RC | {"font.size": 9}):
        fig, axes = _panels(len(names), 2.2 if compact else 2.5, compact)
        for ax, name, d, q in zip(axes, names, draws, quantiles, strict=True):
            v = np.asarray(d, float)
            v = v[np.isfinite(v)]
            div, unit = f.money_scale(np.abs(v).max(initial=0), lang, currency)
            counts, edges = np.histogram(v / div, bins=36)
            share = counts / max(len(v), 1) * 100
            mid = (edges[:-1] + edges[1:]) / 2
            ax.bar(
                edges[:-1],
                share,
                np.diff(edges),
                align="edge",
                color=[POS if m > 0 else NEG for m in mid],
                alpha=0.8,
                linewidth=0,
            )
            for x in q:
                ax.axvline(x / div, color="#222222", linewidth=0.9, linestyle=(0, (1, 1.5)))
            if edges[0] < 0 < edges[-1]:
                ax.axvline(0, color="#222222", linewidth=1.0)
            ax.set_title(_text(name))
            ax.set_xlabel(unit)
            ax.set_ylabel(f"{t['share_axis']} (%)")
            ax.locator_params(axis="x", nbins=4)
        rows, cols = _grid(len(names), compact)
        _adjust(fig, rows, cols, left=0.62, wgap=0.72, hgap=0.75)
        return to_svg(fig, prefix, title, tight=False)


def scenario_chart(
    tiers: list[str],
    scenarios: list[str],
    npv: np.ndarray,
    lang: str,
    currency: str,
    title: str,
    prefix: str = "scenarios",
    compact: bool = False,
) -> str:
    """NPV per scenario (rows of ``npv``) and tier (columns): one panel per tier,
    own scale, a horizontal bar per scenario labelled with its value."""
    n_s, n_t = len(scenarios), len(tiers)
    labels = [_text(s, 18) for s in scenarios]
    with _style(RC | {"axes.grid.axis": "x", "font.size": 9}):
        height = 0.38 * n_s + 0.9
        if compact:
            fig, axes = plt.subplots(n_t, 1, figsize=(PHONE, height * n_t), squeeze=False)
        else:
            fig, axes = plt.subplots(1, n_t, figsize=(WIDTH, height + 0.2), squeeze=False)
        y = np.arange(n_s)[::-1]
        for k, (ax, tier) in enumerate(zip(axes.ravel(), tiers, strict=True)):
            vals = np.asarray(npv[:, k], float)
            div, unit = f.money_scale(np.nanmax(np.abs(vals)) if n_s else 0, lang, currency)
            v = np.nan_to_num(vals) / div
            ax.barh(y, v, height=0.6, color=[POS if x >= 0 else NEG for x in v])
            ax.axvline(0, color="#333333", linewidth=0.8)
            span = max(np.abs(v).max(initial=0), 1e-9)
            # every value is written right of its bar's outer end (positive) or right
            # of zero (negative), so no label runs into the scenario names
            ax.set_xlim(
                min(v.min(initial=0), 0) - 0.04 * span,
                max(v.max(initial=0), 0) + (1.1 if compact else 1.25) * span,
            )
            for yi, x, raw in zip(y, v, vals, strict=True):
                ax.annotate(
                    f.money(raw, lang, currency),
                    (max(x, 0), yi),
                    xytext=(3, 0),
                    textcoords="offset points",
                    ha="left",
                    va="center",
                    fontsize=7.5,
                )
            ax.set_title(_text(tier))
            ax.set_xlabel(unit)
            ax.locator_params(axis="x", nbins=3)
            if compact or k == 0:
                ax.set_yticks(y, labels)
            else:
                ax.set_yticks(y, [""] * n_s)
            ax.spines["left"].set_visible(False)
            ax.tick_params(axis="y", length=0)
        left = max(_text_inches(s, 9) for s in labels) + 0.2 if n_s else 0.3
        if compact:
            _adjust(fig, n_t, 1, left=left, right=0.15, top=0.28, bottom=0.5, hgap=0.8)
        else:
            _adjust(fig, 1, n_t, left=left, right=0.15, top=0.28, bottom=0.5, wgap=0.25)
        return to_svg(fig, prefix, title, tight=False)
