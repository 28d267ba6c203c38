"""A small SVG writer for the memo's charts: shapes, text kept as ``<text>``, nice
axis ticks and a linear scale; no measuring, no second layout pass.

Text is never measured by a font engine: :func:`text_width` estimates it (a CJK
character is 1 em, a Latin one 0.3-0.9 em by its shape), which is enough to
reserve margins and place labels. Every piece of text is XML-escaped
(:func:`esc`), so names from assumption files stay text; the font-family list
puts CJK fonts first, so Chinese renders with the reader's fonts and stays
searchable.

Coordinates are user units, equal to CSS pixels at the drawing's natural width;
CSS scales the drawing (``width: 100%``, the ``viewBox`` keeps the shape), so one
drawing serves a wide screen, a phone and A4 print. The output is well-formed
XML (tests parse it with :mod:`xml.etree.ElementTree`).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from html import escape

FONT_FAMILY = (
    "Noto Sans CJK SC",
    "Noto Sans SC",
    "Source Han Sans SC",
    "Microsoft YaHei",
    "PingFang SC",
    "Noto Sans",
    "DejaVu Sans",
    "sans-serif",
)
FONT = ", ".join(f"'{x}'" if " " in x else x for x in FONT_FAMILY)

INK = "#1c2630"
MUTED = "#5a6672"
AXIS = "#666666"
GRID = "#e2e2e2"
SIZE = 11.0  # px: tick labels, names and values
TITLE = 12.0  # px: a panel's title
MINUS = "\u2212"
HALO = ' stroke="#ffffff" stroke-width="3" stroke-linejoin="round" paint-order="stroke"'
ELLIPSIS = "\u2026"

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffe\uffff]")
# advance widths in em, rounded up from Noto Sans CJK SC (whose Latin is close to
# Noto Sans; DejaVu Sans, the usual fallback, is up to 10% wider)
_EM = {
    **dict.fromkeys(" \u00a0", 0.25),
    **dict.fromkeys("iIjl.,:;!|'`", 0.3),
    **dict.fromkeys('frt()[]{}/\\-\u2011"', 0.4),
    **dict.fromkeys("mwMW%@", 0.93),
    "\u2013": 0.55,
    "\u2212": 0.58,
}


def esc(text: object) -> str:
    """``text`` as XML character data or attribute value: ``& < > " '`` escaped,
    control characters (not allowed in XML) dropped."""
    return escape(_CONTROL.sub("", str(text)), quote=True)


def _em(c: str) -> float:
    """Estimated advance of one character in em: CJK and the characters CJK fonts
    draw full width (``×``, ``→``, ``…``) 1 em; Latin by its shape."""
    e = _EM.get(c)
    if e is not None:
        return e
    if c.isascii():
        return 0.7 if c.isupper() else 0.58
    if unicodedata.east_asian_width(c) in "WFA":
        return 1.0
    return 0.7 if c.isupper() else 0.6


@lru_cache(maxsize=4096)
def text_width(text: str, size: float = SIZE) -> float:
    """Estimated width of ``text`` at ``size`` px (slightly generous, so a margin
    reserved with it holds the real text)."""
    return sum(_em(c) for c in text) * size


def shorten(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis, never inside a Latin
    word (:func:`_whole_words`): ``1,152 张 Ascend 910C`` at 14 is ``1,152 张…``."""
    if len(text) <= limit:
        return text
    return _whole_words(text[: limit - 1], text[limit - 1 :]) + ELLIPSIS


def _whole_words(out: str, rest: str) -> str:
    """``out``, the start of a text whose remainder is ``rest``, without a Latin word
    it would cut (a cut word reads as another word: ``Ascen``), unless that word is
    all of it; no trailing space."""
    if out and rest and out[-1].isascii() and out[-1].isalpha() and rest[0].isalpha():
        word = re.search(r"[A-Za-z]+$", out)
        if word is not None and word.start() > 0:
            out = out[: word.start()]
    return out.rstrip()


def fit(text: str, width: float, size: float = SIZE) -> str:
    """``text`` cut with an ellipsis so that it is at most ``width`` px wide, never
    inside a Latin word (a cut word reads as another word: ``Ascen…``)."""
    if text_width(text, size) <= width:
        return text
    out = ""
    for c in text:
        if text_width(out + c + ELLIPSIS, size) > width:
            break
        out += c
    return _whole_words(out, text[len(out) :]) + ELLIPSIS


def wrap(text: str, width: float, size: float = SIZE, lines: int = 2) -> list[str]:
    """``text`` on at most ``lines`` lines of at most ``width`` px, broken at spaces
    (text without spaces, such as Chinese, between any two characters); the last
    line is shortened with an ellipsis if the text does not fit."""
    words = text.split(" ") if " " in text.strip() else list(text)
    joiner = " " if " " in text.strip() else ""
    out: list[str] = []
    line = ""
    for i, w in enumerate(words):
        trial = f"{line}{joiner}{w}" if line else w
        if text_width(trial, size) <= width or not line:
            line = trial
            continue
        out.append(line)
        if len(out) == lines - 1:
            line = joiner.join([w, *words[i + 1 :]])
            break
        line = w
    out.append(line)
    return [fit(x, width, size) for x in out[:lines]]


def num(v: float) -> str:
    """A coordinate: one decimal, no trailing ``.0``."""
    s = f"{v:.1f}"
    if s.endswith(".0"):
        s = s[:-2]
    return "0" if s == "-0" else s


# ----------------------------------------------------------------------------- ticks


def nice_step(span: float, n: int) -> float:
    """The smallest of 1, 2, 2.5, 5 x 10^k that cuts ``span`` into at most ``n`` steps."""
    raw = abs(span) / max(n, 1)
    if not math.isfinite(raw) or raw <= 0:
        return 1.0
    mag = 10.0 ** math.floor(math.log10(raw))
    for m in (1.0, 2.0, 2.5, 5.0, 10.0):
        if m * mag >= raw * (1 - 1e-9):
            return m * mag
    return 10 * mag  # pragma: no cover - the loop ends at 10


def _span(lo: float, hi: float) -> tuple[float, float]:
    """A usable (finite, non-empty) range around ``lo`` and ``hi``."""
    lo = lo if math.isfinite(lo) else 0.0
    hi = hi if math.isfinite(hi) else 0.0
    if hi < lo:
        lo, hi = hi, lo
    if hi - lo < 1e-12 * max(abs(lo), abs(hi), 1.0):
        if hi == 0:
            return 0.0, 1.0
        pad = abs(hi) * 0.1
        lo, hi = lo - pad, hi + pad
    return lo, hi


def ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    """Nice tick values inside ``[lo, hi]``, at most about ``n`` + 1 of them."""
    lo, hi = _span(lo, hi)
    step = nice_step(hi - lo, n)
    first = math.ceil(lo / step - 1e-9)
    last = math.floor(hi / step + 1e-9)
    return [round(k * step, 12) + 0.0 for k in range(first, last + 1)]


def nice_domain(lo: float, hi: float, n: int = 5) -> tuple[float, float, list[float]]:
    """``[lo, hi]`` widened to whole nice steps, and its ticks."""
    lo, hi = _span(lo, hi)
    step = nice_step(hi - lo, n)
    a = math.floor(lo / step + 1e-9) * step
    b = math.ceil(hi / step - 1e-9) * step
    return a, b, ticks(a, b, n) if b > a else [a]


def decimals(values: Sequence[float]) -> int:
    """Decimals needed to write every one of ``values`` (ticks) exactly, at most 6."""
    for d in range(7):
        if all(abs(v - round(v, d)) < 1e-9 * max(1.0, abs(v)) for v in values):
            return d
    return 6


def tick_text(v: float, digits: int) -> str:
    """A tick label: separators, ``digits`` decimals, the minus sign U+2212."""
    s = f"{abs(v):,.{digits}f}"
    return f"{MINUS}{s}" if v < 0 and s.strip("0.,") else s


def tick_labels(values: Sequence[float]) -> list[str]:
    d = decimals(values)
    return [tick_text(v, d) for v in values]


# ----------------------------------------------------------------------------- scale


@dataclass(frozen=True)
class Scale:
    """Linear map of data ``[d0, d1]`` onto pixels ``[r0, r1]``."""

    d0: float
    d1: float
    r0: float
    r1: float

    @property
    def k(self) -> float:
        """Pixels per data unit (negative for an upward y axis)."""
        return (self.r1 - self.r0) / (self.d1 - self.d0) if self.d1 != self.d0 else 0.0

    def __call__(self, v: float) -> float:
        return self.r0 + (v - self.d0) * self.k

    def invert(self, px: float) -> float:
        return self.d0 + (px - self.r0) / self.k if self.k else self.d0


def fit_labels(
    lo: float,
    hi: float,
    r0: float,
    r1: float,
    right: Sequence[tuple[float, float]] = (),
    left: Sequence[tuple[float, float]] = (),
    margin: float = 6.0,
) -> Scale:
    """The largest scale that puts data ``[lo, hi]`` on pixels ``[r0, r1]`` with room
    for labels: ``right`` holds ``(value, width)`` of labels written right of their
    value, ``left`` those written left of it. The returned scale spans the whole
    ``[r0, r1]`` (its data range reaches beyond ``[lo, hi]`` where labels need room);
    the data keep ``margin`` pixels from both ends."""
    lo, hi = _span(lo, hi)

    def offsets(k: float) -> tuple[float, float]:
        """Lowest and highest pixel of ``lo`` that keep everything inside."""
        low, up = r0 + margin, r1 - margin - (hi - lo) * k
        for v, w in left:
            low = max(low, r0 + w - (v - lo) * k)
        for v, w in right:
            up = min(up, r1 - w - (v - lo) * k)
        return low, up

    k_max = max(r1 - r0 - 2 * margin, 1.0) / (hi - lo)
    a, b = 0.0, k_max
    if offsets(k_max)[0] <= offsets(k_max)[1]:
        a = k_max
    else:
        for _ in range(40):
            mid = (a + b) / 2
            low, up = offsets(mid)
            a, b = (mid, b) if low <= up else (a, mid)
    k = a if a > 0 else k_max * 0.05  # labels wider than the plot: squeeze the bars
    o = offsets(k)[0]
    inner = Scale(lo, hi, o, o + (hi - lo) * k)
    return Scale(inner.invert(r0), inner.invert(r1), r0, r1)


# ----------------------------------------------------------------------------- canvas


class Canvas:
    """An SVG drawing of ``width`` x ``height`` user units, filled by the methods
    below; :meth:`svg` closes it. ``ident`` becomes the element's id (unique in
    the page), ``label`` its accessible name."""

    def __init__(self, width: float, height: float, label: str, ident: str):
        self.width, self.height = width, height
        self.label, self.ident = label, ident
        self.parts: list[str] = []

    def rect(
        self, x: float, y: float, w: float, h: float, fill: str, cls: str = "", extra: str = ""
    ) -> None:
        if w < 0:
            x, w = x + w, -w
        if h < 0:
            y, h = y + h, -h
        c = f' class="{cls}"' if cls else ""
        self.parts.append(
            f'<rect{c} x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" '
            f'fill="{fill}"{extra}/>'
        )

    def line(
        self,
        x1: float,
        y1: float,
        x2: float,
        y2: float,
        stroke: str = AXIS,
        width: float = 1.0,
        dash: str = "",
        cls: str = "",
    ) -> None:
        c = f' class="{cls}"' if cls else ""
        d = f' stroke-dasharray="{dash}"' if dash else ""
        self.parts.append(
            f'<line{c} x1="{num(x1)}" y1="{num(y1)}" x2="{num(x2)}" y2="{num(y2)}" '
            f'stroke="{stroke}" stroke-width="{width:g}"{d}/>'
        )

    def path(self, d: str, fill: str = "none", stroke: str = "none", extra: str = "") -> None:
        self.parts.append(f'<path d="{d}" fill="{fill}" stroke="{stroke}"{extra}/>')

    def circle(self, x: float, y: float, r: float, fill: str, cls: str = "") -> None:
        c = f' class="{cls}"' if cls else ""
        self.parts.append(f'<circle{c} cx="{num(x)}" cy="{num(y)}" r="{r:g}" fill="{fill}"/>')

    def text(
        self,
        x: float,
        y: float,
        s: str,
        size: float = SIZE,
        anchor: str = "start",
        fill: str = INK,
        bold: bool = False,
        cls: str = "",
        middle: bool = True,
        halo: bool = False,
    ) -> None:
        """``s`` at ``x`` (start, middle or end by ``anchor``); vertically centred on
        ``y`` (``middle``) or with its baseline on ``y``; ``halo``: a white outline
        keeps it legible where it crosses a line."""
        base = y + 0.36 * size if middle else y
        c = f' class="{cls}"' if cls else ""
        a = f' text-anchor="{anchor}"' if anchor != "start" else ""
        f = f' fill="{fill}"' if fill != INK else ""
        w = ' font-weight="bold"' if bold else ""
        z = f' font-size="{size:g}"' if size != SIZE else ""
        h = HALO if halo else ""
        self.parts.append(f'<text{c} x="{num(x)}" y="{num(base)}"{a}{f}{w}{z}{h}>{esc(s)}</text>')

    def svg(self) -> str:
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" id="{esc(self.ident)}" class="chart" '
            f'role="img" aria-label="{esc(self.label)}" '
            f'viewBox="0 0 {num(self.width)} {num(self.height)}" '
            f'font-family="{esc(FONT)}" font-size="{SIZE:g}" fill="{INK}">'
            + "".join(self.parts)
            + "</svg>"
        )

    # ------------------------------------------------------------------- axes

    def x_axis(
        self, scale: Scale, top: float, bottom: float, n: int = 5, grid: bool = True
    ) -> list[float]:
        """A horizontal value axis at ``bottom`` (``<g class="x-axis">``): a tick mark
        and a label per nice value, grid lines up to ``top``. Returns the values."""
        lo, hi = sorted((scale.d0, scale.d1))
        values = ticks(lo, hi, n)
        self.parts.append('<g class="x-axis">')
        for v, label in zip(values, tick_labels(values), strict=True):
            x = scale(v)
            if grid:
                self.line(x, top, x, bottom, GRID, 0.8, cls="grid")
            self.line(x, bottom, x, bottom + 3, AXIS, 0.8, cls="mark")
            # the label is kept inside the drawing and right of the plot's left edge
            # (where the y axis's labels end)
            half = text_width(label) / 2
            at = min(max(x, half, min(scale.r0, scale.r1) + half), self.width - half)
            self.text(at, bottom + 12, label, anchor="middle", fill=MUTED, cls="tick")
        self.line(scale.r0, bottom, scale.r1, bottom, AXIS, 0.8)
        self.parts.append("</g>")
        return values

    def y_axis(
        self, scale: Scale, left: float, right: float, values: Sequence[float] | None = None
    ) -> list[float]:
        """A vertical value axis (``<g class="y-axis">``): per nice value (or
        ``values``) a grid line from ``left`` to ``right`` and a label left of it.
        Returns the values."""
        if values is None:
            lo, hi = sorted((scale.d0, scale.d1))
            values = ticks(lo, hi, 4)
        self.parts.append('<g class="y-axis">')
        for v, label in zip(values, tick_labels(values), strict=True):
            y = scale(v)
            self.line(left, y, right, y, GRID, 0.8, cls="grid")
            self.text(left - 4, y, label, anchor="end", fill=MUTED, cls="tick")
        self.parts.append("</g>")
        return list(values)

    def rows(self, n: int, top: float, height: float) -> list[float]:
        """Centres of ``n`` rows of ``height`` from ``top`` down."""
        return [top + (i + 0.5) * height for i in range(n)]


def tick_width(values: Sequence[float], size: float = SIZE) -> float:
    """Width of the widest tick label of ``values``."""
    return max((text_width(s, size) for s in tick_labels(values)), default=0.0)
