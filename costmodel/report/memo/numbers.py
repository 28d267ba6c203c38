"""Number formatting for the memo, in English and Chinese.

One function, :func:`fmt`, turns a summary value into reading text by metric
kind (see :mod:`costmodel.core.metrics`); the memo and its tests both use it, so a
figure in the memo can be checked against ``Model.summary()`` exactly.

Money:
- ``en``: currency code, then millions (``M``, one decimal) from 1e6, billions
  (``bn``, two decimals) from 1e9, thousands (``k``) from 1e3:
  ``CNY 35.9 M``, ``CNY 1.23 bn``, ``CNY 254.3 k``.
- ``zh``: 万 (1e4) and 亿 (1e8) with the currency's Chinese unit:
  ``3,594 万元`` (no decimal from 100 万), ``25.4 万元``, ``3.30 亿元``.

Negative numbers use the minus sign U+2212; empty values (None/NaN) are ``–``.
Magnitudes from :data:`COMPACT_FROM` (1e12) on are written in compact notation,
three significant digits and a power of ten (``1e300``, ``2.5e13``), never as
hundreds of digits.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from markupsafe import Markup

from costmodel.core.metrics import Kind, is_empty

EMPTY = "\u2013"  # en dash
MINUS = "\u2212"

# currency code -> Chinese unit written after 万/亿
_ZH_CURRENCY = {"CNY": "元", "RMB": "元", "USD": "美元", "EUR": "欧元", "HKD": "港元"}

SCALE_CLASS_TEXT = {
    "en": {"tens": "Tens", "hundreds": "Hundreds", "thousands": "Thousands"},
    "zh": {"tens": "几十卡级", "hundreds": "百卡级", "thousands": "千卡级"},
}
#: the cooling types as the memo names them (the summary's ``cooling`` column)
COOLING_TEXT = {
    "en": {"air": "air", "cold_plate": "cold plate", "immersion": "immersion"},
    "zh": {"air": "风冷", "cold_plate": "冷板式液冷", "immersion": "浸没式液冷"},
}


NBSP = "\u00a0"

#: The magnitude from which a number is written in compact notation.
COMPACT_FROM = 1e12


def compact(a: float) -> str:
    """A magnitude ``a`` >= 0 in compact notation: ``1e300``, ``2.5e13``."""
    mantissa, _, exp = f"{a:.3g}".partition("e")
    return f"{mantissa}e{int(exp)}" if exp else mantissa


def magnitude(a: float, spec: str) -> str:
    """``format(a, spec)``, or :func:`compact` from :data:`COMPACT_FROM` on."""
    return compact(a) if a >= COMPACT_FROM else format(a, spec)


def _nb(text: str) -> str:
    """Keep a figure on one line: non-breaking spaces and hyphens."""
    return text.replace(" ", NBSP).replace("-h", "\u2011h")


def with_sign(v: float, text: str) -> str:
    """``text`` (a magnitude written out) with a minus sign when ``v`` is negative
    and the text is not all zeros."""
    return f"{MINUS}{text}" if v < 0 and text.strip("0.,") else text


def money(v: float | None, lang: str = "en", currency: str = "CNY") -> str:
    """``CNY 35.9 M`` (en) or ``3,594 万元`` (zh); see the module docstring."""
    if is_empty(v):
        return EMPTY
    x = abs(float(v))  # type: ignore[arg-type]
    if lang == "zh":
        unit = _ZH_CURRENCY.get(currency.upper(), f" {currency}")
        if x >= COMPACT_FROM:
            body = f"{compact(x)} {unit}"
        elif x >= 1e8:
            body = f"{x / 1e8:,.2f} 亿{unit}"
        elif x >= 1e6:
            body = f"{x / 1e4:,.0f} 万{unit}"
        elif x >= 1e4:
            body = f"{x / 1e4:,.1f} 万{unit}"
        else:
            body = f"{x:,.0f} {unit}".replace("  ", " ")
        return _nb(with_sign(float(v), body))  # type: ignore[arg-type]
    if x >= COMPACT_FROM:
        body = compact(x)
    elif x >= 1e9:
        body = f"{x / 1e9:,.2f} bn"
    elif x >= 1e6:
        body = f"{x / 1e6:,.1f} M"
    elif x >= 1e3:
        body = f"{x / 1e3:,.1f} k"
    else:
        body = f"{x:,.0f}"
    return _nb(f"{currency} {with_sign(float(v), body)}")  # type: ignore[arg-type]


def price(v: float | None, lang: str = "en", currency: str = "CNY", per: str = "gpu") -> str:
    """Money per GPU-hour: ``CNY 10.08/GPU-h`` (en) or ``10.08 元/卡时`` (zh);
    ``per="pflop"``: ``CNY 43.42/PFLOP-h`` / ``43.42 元/PFLOP 时``; ``per="mtok"``
    (methodology §27): ``CNY 8.92 per million tokens`` / ``8.92 元/百万 tokens``."""
    if is_empty(v):
        return EMPTY
    x = float(v)  # type: ignore[arg-type]
    body = with_sign(x, magnitude(abs(x), ",.2f"))
    if lang == "zh":
        unit = _ZH_CURRENCY.get(currency.upper(), f" {currency}")
        hour = {"pflop": "PFLOP 时", "mtok": "百万 tokens"}.get(per, "卡时")
        return _nb(f"{body} {unit}/{hour}".replace("  ", " "))
    if per == "mtok":
        return _nb(f"{currency} {body} per million tokens")
    return _nb(f"{currency} {body}/{'PFLOP-h' if per == 'pflop' else 'GPU-h'}")


def pct(v: float | None, digits: int = 1) -> str:
    """``8.0%``; ``−70.3%``."""
    if is_empty(v):
        return EMPTY
    x = float(v) * 100  # type: ignore[arg-type]
    return with_sign(x, magnitude(abs(x), f",.{digits}f") + "%")


def years(v: float | None, lang: str = "en") -> str:
    """``3.4 years`` / ``3.4 年``."""
    if is_empty(v):
        return EMPTY
    x = float(v)  # type: ignore[arg-type]
    body = with_sign(x, magnitude(abs(x), ",.1f"))
    return _nb(f"{body} 年" if lang == "zh" else f"{body} years")


def hours(v: float | None, lang: str = "en") -> str:
    """``1,200 h`` / ``1,200 小时``; two decimals below 10, one below 100."""
    if is_empty(v):
        return EMPTY
    x = float(v)  # type: ignore[arg-type]
    digits = 2 if abs(x) < 10 else 1 if abs(x) < 100 else 0
    body = with_sign(x, magnitude(abs(x), f",.{digits}f"))
    return _nb(f"{body} 小时" if lang == "zh" else f"{body} h")


def count(v: float | None, lang: str = "en") -> str:
    """Whole numbers with separators; from a million on, ``37.7 M`` / ``3,768 万``."""
    if is_empty(v):
        return EMPTY
    x = float(v)  # type: ignore[arg-type]
    if abs(x) >= COMPACT_FROM:
        body = compact(abs(x))
    elif abs(x) >= 1e6:
        body = f"{abs(x) / 1e4:,.0f} 万" if lang == "zh" else f"{abs(x) / 1e6:,.1f} M"
    else:
        body = f"{abs(x):,.0f}"
    return _nb(with_sign(x, body))


def number(v: float | None) -> str:
    """A plain input value: up to 6 significant digits, separators, no exponent
    for ordinary magnitudes (``2,300,000``, ``0.65``, ``1.45``)."""
    if is_empty(v):
        return EMPTY
    x = float(v)  # type: ignore[arg-type]
    if abs(x) >= COMPACT_FROM:
        return with_sign(x, compact(abs(x)))
    if x == int(x):
        return with_sign(x, f"{abs(int(x)):,}")
    digits = max(0, 5 - int(math.floor(math.log10(abs(x))))) if x else 0
    text = f"{abs(x):,.{digits}f}".rstrip("0").rstrip(".")
    return with_sign(x, text)


#: the unit of a summary column of kind ``money_per_hour`` other than per GPU-hour
_PER = {"cost_per_pflop_hour": "pflop", "cost_per_million_tokens": "mtok"}


def fmt(
    v: object, kind: Kind, lang: str = "en", currency: str = "CNY", column: str | None = None
) -> str:
    """Format a summary value of metric ``kind`` (summary ``column``, which tells
    a price per PFLOP-hour from one per GPU-hour) for the memo."""
    if is_empty(v):
        return EMPTY
    if isinstance(v, bool) or type(v).__name__ == "bool_":  # feasible (methodology §33)
        return ("是" if v else "否") if lang == "zh" else ("yes" if v else "no")
    if kind == "text" and str(v) in ("True", "False"):  # feasible (methodology §33)
        return {"en": ("yes", "no"), "zh": ("是", "否")}[lang if lang == "zh" else "en"][
            str(v) == "False"
        ]
    if kind == "text" and column == "cooling":
        return COOLING_TEXT.get(lang, {}).get(str(v), str(v))
    if kind == "text":
        return SCALE_CLASS_TEXT.get(lang, {}).get(str(v), str(v))
    x = float(v)  # type: ignore[arg-type]
    if kind == "money":
        return money(x, lang, currency)
    if kind == "money_per_hour":
        return price(x, lang, currency, _PER.get(column or "", "gpu"))
    if kind == "pct":
        return pct(x)
    if kind == "years":
        return years(x, lang)
    if kind == "hours":
        return hours(x, lang)
    if kind == "count":
        return count(x, lang)
    if kind == "kw":  # one decimal with its unit: kW, or GB/s for a bandwidth
        unit = "GB/s" if column == "storage_write_gbps" else "kW"
        return _nb(with_sign(x, magnitude(abs(x), ",.1f")) + f" {unit}")
    return with_sign(x, magnitude(abs(x), ",.3f"))


def money_scale(max_abs: float, lang: str = "en", currency: str = "CNY") -> tuple[float, str]:
    """Divisor and unit label for a chart axis whose largest absolute value is
    ``max_abs``: ``(1e6, "CNY M")`` in English, ``(1e4, "万元")`` in Chinese."""
    x = abs(float(max_abs)) if not is_empty(max_abs) else 0.0
    if lang == "zh":
        unit = _ZH_CURRENCY.get(currency.upper(), f" {currency}")
        if x >= 1e8:
            return 1e8, f"亿{unit}"
        if x >= 1e4:
            return 1e4, f"万{unit}"
        return 1.0, unit.strip()
    for div, suffix in ((1e9, "bn"), (1e6, "M"), (1e3, "k")):
        if x >= div:
            return div, f"{currency} {suffix}"
    return 1.0, currency


def currency_unit(lang: str = "en", currency: str = "CNY") -> str:
    """``CNY`` in English; ``元`` (or ``美元`` ...) in Chinese."""
    if lang == "zh":
        return _ZH_CURRENCY.get(currency.upper(), currency)
    return currency


def duration(h: float | None, lang: str = "en") -> str:
    """A span of hours for reading: minutes below an hour (``14 min`` / ``14 分钟``),
    hours below two days (``5.2 h`` / ``5.2 小时``), else whole days (``22 days`` /
    ``22 天``)."""
    if is_empty(h):
        return EMPTY
    x = float(h)  # type: ignore[arg-type]
    zh = lang == "zh"
    if x < 1:
        return _nb(f"{x * 60:,.0f} 分钟" if zh else f"{x * 60:,.0f} min")
    if x < 48:
        return _nb(f"{x:,.1f} 小时" if zh else f"{x:,.1f} h")
    return _nb(f"{x / 24:,.0f} 天" if zh else f"{x / 24:,.0f} days")


def seconds(s: float, lang: str = "en") -> str:
    """``12.5 s`` / ``12.5 秒``: one decimal below 100 s (a write time is not
    rounded to the next whole second), else whole seconds; empty: ``–``."""
    if is_empty(s):
        return EMPTY
    text = f"{s:,.1f}" if s < 100 else f"{s:,.0f}"
    return _nb(f"{text} 秒" if lang == "zh" else f"{text} s")


def share(v: float | None) -> str:
    """A share that may sit very near 0 or 1 (used or idle capacity): never rounds
    to a misleading ``0.00%`` or ``100.00%``: ``<0.01%``, ``>99.99%``; two decimals
    below 1% and above 99%, else one."""
    if is_empty(v):
        return EMPTY
    x = float(v)  # type: ignore[arg-type]
    if x <= 0 or x >= 1:
        return pct(x, 0)
    if x < 1e-4:
        return "<0.01%"
    if x > 1 - 1e-4:
        return ">99.99%"
    return pct(x, 2 if x < 0.01 or x > 0.99 else 1)


def signed(v: float | None, text: Callable[[float], str]) -> str:
    """A change with its sign in front: ``+CNY 30.8 M``, ``−3,080 万元``, ``±0``;
    ``text`` formats the absolute value (for example ``lambda x: money(x, "en")``)."""
    if is_empty(v):
        return EMPTY
    x = float(v)  # type: ignore[arg-type]
    if x == 0:
        return "\u00b10"
    return ("+" if x > 0 else MINUS) + text(abs(x))


def pp(v: float | None, lang: str = "en") -> str:
    """A change of a rate in percentage points: ``+41.4 pp`` / ``+41.4 个百分点``."""
    if is_empty(v):
        return EMPTY
    x = float(v) * 100  # type: ignore[arg-type]
    unit = "个百分点" if lang == "zh" else "pp"
    return signed(x, lambda a: _nb(f"{a:,.1f} {unit}"))


def prob(v: float | None) -> str:
    """A probability or share of draws, one decimal, never rounded to a misleading
    ``0.0%`` or ``100.0%``: ``99.5%``, ``>99.9%``, ``<0.1%``, ``100%``, ``0%``."""
    if is_empty(v):
        return EMPTY
    x = float(v)  # type: ignore[arg-type]
    if x <= 0:
        return "0%"
    if x >= 1:
        return "100%"
    if x < 0.0005:
        return "<0.1%"
    if x > 0.9995:
        return ">99.9%"
    return f"{x * 100:.1f}%"


def short(v: float | None) -> str:
    """An input value for a chart label: ``1.2M``, ``280k``, ``0.65``, ``24``."""
    if is_empty(v):
        return EMPTY
    x = float(v)  # type: ignore[arg-type]
    a = abs(x)
    if a >= COMPACT_FROM:
        body = compact(a)
    elif a >= 1e6:
        body = f"{a / 1e6:,.3g}M"
    elif a >= 1e4:
        body = f"{a / 1e3:,.3g}k"
    else:
        body = number(a)
    return with_sign(x, body)


#: a Han character or CJK punctuation (full-width forms included)
_CJK = "\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef"
_CJK_GAP = re.compile(f"(?<=[{_CJK}])[ \u00a0]+(?=[{_CJK}])")
_TAG = re.compile(r"(<[^>]*>)")
_VOID = frozenset({"br", "img", "meta", "link", "input", "hr", "wbr", "col", "source", "area"})
#: elements whose text is left as written: code, styles, scripts
_VERBATIM = frozenset({"code", "style", "script", "pre", "textarea"})


def zh_spacing(html: str) -> str:
    """The Chinese page ``html`` with no space between two Chinese characters
    (``4.79 亿元 中`` -> ``4.79 亿元中``): Chinese typography puts a space between
    Chinese and Latin letters or digits (``4.79 亿元``, ``2027 年``) and none
    between Chinese characters. A sentence template fills a figure that ends in
    a Chinese unit before the next Chinese word, hence the pass over the whole
    page. Text in code, styles, scripts and elements marked ``lang="en"`` (text
    quoted from the assumption files) is left as written.

    >>> zh_spacing('<p>期内收入 4.79 亿元 中，<span lang="en">a 中 b</span></p>')
    '<p>期内收入 4.79 亿元中，<span lang="en">a 中 b</span></p>'
    """
    out: list[str] = []
    stack: list[bool] = []  # per open element: its text is left as written
    for part in _TAG.split(html):
        if part.startswith("<"):
            out.append(part)
            m = re.match(r"<\s*(/?)\s*([A-Za-z][\w:-]*)", part)
            if m is None or part.endswith("/>"):
                continue
            closing, tag = m.group(1), m.group(2).lower()
            if tag in _VOID:
                continue
            if closing:
                if stack:
                    stack.pop()
            else:
                keep = tag in _VERBATIM or bool(re.search(r'\blang="en', part))
                stack.append(keep or (bool(stack) and stack[-1]))
        elif stack and stack[-1]:
            out.append(part)
        else:
            out.append(_CJK_GAP.sub("", part))
    return "".join(out)


#: where a Chinese header may break: before an opening and after a closing bracket
_PHRASE = re.compile(r"(?=（)|(?<=）)|(?<=：)")


def phrases(text: str) -> Markup:
    """A Chinese table header in phrases that break only between them
    (``<span class="ph">``, an inline block): ``数十卡方案（32 张 H200）`` breaks
    before ``（`` or not at all, never inside ``方案`` or between ``张`` and ``H200``.
    A phrase wider than its column still wraps within itself. Text is escaped.

    >>> str(phrases("数十卡方案（32 张 H200）"))
    '<span class="ph">数十卡方案</span><span class="ph">（32 张 H200）</span>'
    """
    parts = [p for p in _PHRASE.split(str(text)) if p]
    return Markup("").join(Markup('<span class="ph">{}</span>').format(p) for p in parts)
