"""Write the HTML investment memo of a built model (English or Chinese).

``write_memo(model, path, lang="en", template_dir=None, analysis=None)`` renders
one self-contained HTML file: inline CSS, inline SVG charts, a Content-Security-Policy
that forbids every load from outside the file, and no script. Templates are
Jinja2 files found first in ``template_dir`` (to rebrand), then in the bundled
``templates/`` (:func:`costmodel.resources.templates_dir`). Autoescape is on, so
text from assumption files is always shown as text.

What the memo says is assembled in :mod:`costmodel.memo_context` (the sections on
failures and on which scale fits which task in :mod:`costmodel.memo_reliability`); its words are
in :mod:`costmodel.memo_text` and :mod:`costmodel.memo_profiles`; numbers are
formatted by :mod:`costmodel.memo_format`; charts come from :mod:`costmodel.charts`.

With an :class:`costmodel.analysis.Analysis` of the same model, three more sections
are built by :mod:`costmodel.memo_analysis` ("What has to be true", "Scenarios" when
the analysis has scenarios, "Build or rent?") and its break-even prices are reused;
without one, the executive summary's break-even prices come from
``model.break_even()`` and those sections are left out.
"""

from __future__ import annotations

import datetime as dt
import os
from importlib import metadata
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2
from markupsafe import Markup

from . import charts
from . import memo_analysis as mana
from . import memo_context as ctx
from . import memo_format as f
from . import memo_reliability as rel
from .atomic import write_text
from .loader import assumption_files, fingerprint
from .memo_text import CHART, TEXT
from .model import Model
from .resources import templates_dir

if TYPE_CHECKING:
    from .analysis import Analysis

LANGS = ("en", "zh")
TEMPLATE = "memo.html.j2"
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


def _version() -> str:
    try:
        return metadata.version("costmodel")
    except metadata.PackageNotFoundError:  # pragma: no cover - source tree without install
        return "0+unknown"


def memo_date() -> dt.date:
    """Today, or the date of ``SOURCE_DATE_EPOCH`` (reproducible builds)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch and epoch.strip().isdigit():
        return dt.datetime.fromtimestamp(int(epoch), tz=dt.timezone.utc).date()
    return dt.date.today()


def environment(template_dir: str | PathLike[str] | None = None) -> jinja2.Environment:
    """Jinja2 environment: ``template_dir`` first, the bundled templates as
    fallback for every file it lacks; autoescape on; undefined names are errors."""
    loaders: list[jinja2.BaseLoader] = []
    if template_dir is not None:
        d = Path(template_dir)
        if not d.is_dir():
            raise NotADirectoryError(f"template_dir {str(d)!r} is not a directory")
        loaders.append(jinja2.FileSystemLoader(str(d)))
    loaders.append(jinja2.FileSystemLoader(str(templates_dir())))
    return jinja2.Environment(
        loader=jinja2.ChoiceLoader(loaders),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def _files(model: Model) -> list[str]:
    """Assumption files as ``parent/name`` (enough to tell them apart, no home paths)."""
    return [
        str(Path(p).parent.name + "/" + Path(p).name) for p in assumption_files(model.assumptions)
    ]


def _date_text(d: dt.date, lang: str) -> str:
    return f"{d.year}年{d.month}月{d.day}日" if lang == "zh" else f"{d.day} {d:%B %Y}"


def _check(model: Model, analysis: Analysis | None) -> None:
    """An analysis must be of this model: the same tiers."""
    if analysis is None:
        return
    tiers = [str(t) for t in analysis.break_even.index]
    if tiers != list(model.tiers):
        raise ValueError(
            f"the analysis is not of this model: its tiers are {tiers}, "
            f"the model's {list(model.tiers)}"
        )


def breakeven_prices(model: Model, analysis: Analysis | None = None) -> dict[str, float]:
    """Year-1 price per GPU-hour at NPV = 0 per tier: ``analysis.break_even`` if
    given, else ``model.break_even()`` (one implementation: ``sensitivity.break_even``)."""
    be = analysis.break_even if analysis is not None else model.break_even()
    return {str(t): float(v) for t, v in be["price_per_gpu_hour"].items()}


def context(model: Model, lang: str = "en", analysis: Analysis | None = None) -> dict[str, Any]:
    """Everything the template needs (see :mod:`costmodel.memo_context` and, with
    ``analysis``, :mod:`costmodel.memo_analysis`)."""
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {', '.join(LANGS)}, not {lang!r}")
    _check(model, analysis)
    a = model.assumptions
    facts = ctx.Facts(model, lang, breakeven_prices(model, analysis))
    T = TEXT[lang]
    C = CHART[lang]
    figures = {}
    for compact in (False, True):
        tag = f"{lang}-c" if compact else lang
        figures[compact] = [
            ("npv", charts.npv_chart(model, lang, f"npv-{tag}", compact)),
            ("capex", charts.capex_chart(model, lang, f"capex-{tag}", compact)),
            ("opex", charts.opex_chart(model, lang, f"opex-{tag}", compact)),
            ("cash", charts.cash_chart(model, lang, f"cash-{tag}", compact)),
            (
                "cost",
                charts.cost_chart(
                    model, lang, facts.prices, facts.breakeven, f"cost-{tag}", compact
                ),
            ),
        ]
    fp = fingerprint(a)
    return dict(
        lang=lang,
        html_lang="zh-CN" if lang == "zh" else "en",
        t=T,
        csp=CSP,
        version=_version(),
        title=f"{T['title']}: {a.name}" if lang == "en" else f"{T['title']}：{a.name}",
        model_name=a.name,
        date=_date_text(memo_date(), lang),
        fingerprint=fp,
        currency=a.currency,
        horizon=T["horizon_value"].format(years=a.horizon_years, start=a.start),
        discount=f.pct(a.finance.discount_rate.value),
        files=_files(model),
        decision=ctx.decision(facts),
        table=ctx.comparison(facts),
        charts=[
            dict(
                id=k,
                title=C[f"{k}_title"],
                caption=C[f"{k}_caption"],
                svg=Markup(svg),
                svg_compact=Markup(small),
            )
            for (k, svg), (_, small) in zip(figures[False], figures[True], strict=True)
        ],
        profiles=ctx.profiles(facts),
        maxims=ctx.maxims(lang),
        failures=rel.failures(facts),
        fit=rel.fit(facts),
        method=ctx.method(facts),
        assumptions=ctx.assumption_rows(facts),
        risk=mana.risk(facts, analysis) if analysis is not None else None,
        scenarios=mana.scenarios(facts, analysis) if analysis is not None else None,
        rent=mana.build_rent(facts, analysis) if analysis is not None else None,
    )


def render_memo(
    model: Model,
    lang: str = "en",
    template_dir: str | PathLike[str] | None = None,
    analysis: Analysis | None = None,
) -> str:
    """The memo as an HTML string."""
    ctx_ = context(model, lang, analysis)
    return environment(template_dir).get_template(TEMPLATE).render(**ctx_)


def write_memo(
    model: Model,
    path: str | PathLike[str],
    lang: str = "en",
    template_dir: str | PathLike[str] | None = None,
    analysis: Analysis | None = None,
) -> Path:
    """Render the memo of ``model`` in ``lang`` (``"en"`` or ``"zh"``) and write it
    atomically to ``path`` (a failure leaves no file behind). ``template_dir``
    overrides any of the bundled templates (``memo.html.j2``, ``memo.css``,
    ``brand.html.j2``). ``analysis``: :func:`costmodel.analysis.analyze` of this
    model, for the sections "What has to be true", "Scenarios" and "Build or
    rent?" (left out without it). Returns the path written."""
    html = render_memo(model, lang, template_dir, analysis)
    return write_text(path, html)
