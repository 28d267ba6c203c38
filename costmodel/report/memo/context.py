"""What every section of the memo reads: :class:`Facts`, the numbers of a finished
model and its :class:`costmodel.analysis.bundle.Analysis`, and the helpers that put
them into sentences (:func:`say`, :func:`signed_pct`, :func:`times`, :func:`data_text`).

Nothing financial is computed here or in the sections: figures come from
``Model.summary()``, the tier inputs and the analysis (break-even prices, the priced
risks of :mod:`costmodel.analysis.risks`, the options table of
:mod:`costmodel.analysis.decision`). Each section assembles its part of the template
context: :mod:`~costmodel.report.memo.summary_section` (the decision),
:mod:`~costmodel.report.memo.comparison_section` (the options table),
:mod:`~costmodel.report.memo.profile_section` and
:mod:`~costmodel.report.memo.risk_section` (profiles and priced risks per tier),
:mod:`~costmodel.report.memo.appendix_section` (method, assumptions, rules of thumb),
and the sections that modules name after themselves (reliability, analysis, growth,
financing).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pandas as pd
from markupsafe import Markup

from costmodel.analysis.decision import choose
from costmodel.core.metrics import METRICS, is_empty
from costmodel.inputs.model import Model

if TYPE_CHECKING:
    from costmodel.analysis.bundle import Analysis
from costmodel.report.memo import numbers as f


def say(pattern: str, **fields: Any) -> Markup:
    """Fill a trusted HTML pattern; every field is HTML-escaped."""
    return Markup(pattern).format(**fields)


def signed_pct(x: float) -> str:
    """``+42.8%`` / ``−20.0%``."""
    return f.EMPTY if is_empty(x) else ("+" if x >= 0 else "") + f.pct(x)


def times(n: float) -> str:
    """A count of events: one decimal below 10 (``7.3``), else whole (``234``)."""
    return f"{n:,.1f}" if n < 10 else f"{n:,.0f}"


#: engine inputs that may be quotes rolled to the start, the spot price first (in
#: the ``avoided_cloud`` mode the spot and cloud prices are read from one path)
ROLLED_PRICES = (
    "price_per_gpu_hour",
    "contract_price_per_gpu_hour",
    "cloud_price_per_gpu_hour",
    "server_price",
)
#: those the site's ``price_factor`` multiplies
FACTORED_PRICES = ("price_per_gpu_hour", "contract_price_per_gpu_hour")


@dataclass
class Facts:
    """The numbers the text needs, per tier."""

    model: Model
    lang: str
    analysis: Analysis
    summary: pd.DataFrame = field(init=False)
    breakeven: dict[str, float] = field(init=False)
    prices: dict[str, float] = field(init=False)
    sold_factor: dict[str, float] = field(init=False)
    options: pd.DataFrame = field(init=False)
    choice: dict[str, Any] = field(init=False)

    def __post_init__(self) -> None:
        self.summary = self.model.summary()
        self.options = self.analysis.options
        self.choice = choose(self.options)
        # year-1 prices as sold: a quote rolled to the start and the site's factor
        # scale the input and its break-even alike (methodology §29, §30)
        self.sold_factor = {t: self._sold_factor(t) for t in self.model.tiers}
        be = self.analysis.break_even["price_per_gpu_hour"]
        self.breakeven = {
            str(t): float(v) * self.sold_factor.get(str(t), 1.0) for t, v in be.items()
        }
        self.prices = {t: self.model.selling_price(t) for t in self.model.tiers}

    def _sold_factor(self, tier: str) -> float:
        """The tier's year-1 selling price over its input price (1 without a quote's
        roll or a site's price factor)."""
        given = self.model.inputs[tier].values()["price_per_gpu_hour"]
        return self.model.selling_price(tier) / given if given > 0 else 1.0

    def as_sold(self, tier: str, path: str, value: float) -> float:
        """``value`` of the input at ``path`` as ``tier`` uses it in year 1: a price
        the tier reads as a quote is rolled to the start (times the ratio of its
        rolled value to its value, the same for the quote, its low, high and draws
        at the assumed decline) and a spot or contract price times the site's
        factor (methodology §29, §30); any other input as written."""
        ti = self.model.inputs[tier]
        v = ti.values()
        for name in ROLLED_PRICES:
            if name in v and ti.inputs[name][0] == path and v[name] > 0:
                k = self.model.quoted_at_start(tier, name) / v[name]
                if name in FACTORED_PRICES:
                    k *= v.get("price_factor", 1.0)
                return value * k
        return value

    @property
    def currency(self) -> str:
        return self.model.assumptions.currency

    @property
    def currency_word(self) -> str:
        """The currency's unit in a sentence ("CNY" / "元")."""
        return f.currency_unit(self.lang, self.currency)

    def money(self, v: float) -> str:
        return f.money(v, self.lang, self.currency)

    def price(self, v: float) -> str:
        return f.price(v, self.lang, self.currency)

    def metric(self, tier: str, column: str) -> str:
        value = self.summary.loc[tier, column]
        return f.fmt(value, METRICS[column].kind, self.lang, self.currency, column)

    def gap(self, tier: str) -> float:
        p, be = self.prices[tier], self.breakeven.get(tier, math.nan)
        return be / p - 1 if p > 0 and not is_empty(be) else math.nan


def data_text(text: str, lang: str) -> Markup:
    """Text from the assumption files that has no Chinese field. In the Chinese memo
    it keeps the language it was written in, marked ``lang="en"``."""
    if lang == "zh":
        return Markup('<span lang="en" class="data">{}</span>').format(text)
    return Markup("{}").format(text)


#: shown before English text of an assumption file whose Chinese field is empty
NO_ZH = "（未提供中文 {field}，以下为英文原文）"


def own_text(obj: object, field: str, lang: str, path: str) -> Markup | None:
    """The descriptive text ``field`` of a section of the assumption files in
    ``lang``: English as written; Chinese from ``{field}_zh``. The Chinese memo
    does not fall back to English silently: without ``{field}_zh`` it shows the
    English marked ``lang="en"`` after a note naming the missing field
    (:data:`NO_ZH`, ``path`` its dotted path). None when the text is empty."""
    en = str(getattr(obj, field, "") or "")
    if lang != "zh":
        return Markup("{}").format(en) if en else None
    zh = str(getattr(obj, f"{field}_zh", "") or "")
    if zh:
        return Markup('<span class="data">{}</span>').format(zh)
    if not en:
        return None
    note = NO_ZH.format(field=f"{path}.{field}_zh")
    return Markup('<span class="no-zh">{}</span>').format(note) + data_text(en, lang)
