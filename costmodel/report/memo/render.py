"""Write the HTML investment memo of a built model (English or Chinese).

``write_memo(model, path, lang="en", template_dir=None, analysis=None)`` renders
one self-contained HTML file: inline CSS, inline SVG charts, a Content-Security-Policy
that forbids every load from outside the file, and no script. Templates are
Jinja2 files found first in ``template_dir`` (to rebrand), then in the bundled
``templates/`` (:func:`costmodel.inputs.resources.templates_dir`). Autoescape is on, so
text from assumption files is always shown as text.

The memo only reads the model and its :class:`costmodel.analysis.bundle.Analysis`
(without one, ``analyze(model, draws=0)`` computes the deterministic analysis:
no Monte Carlo, no scenarios). What it says is assembled from the
:class:`~costmodel.report.memo.context.Facts` by section modules:
:mod:`~costmodel.report.memo.summary_section`,
:mod:`~costmodel.report.memo.comparison_section`,
:mod:`~costmodel.report.memo.profile_section` (with
:mod:`~costmodel.report.memo.risk_section`),
:mod:`~costmodel.report.memo.appendix_section`, :mod:`~costmodel.report.memo.reliability`
(failures, which scale fits which task) and :mod:`~costmodel.report.memo.analysis`
("What has to be true", "Scenarios" when the analysis has scenarios, "Build or
rent?"), :mod:`~costmodel.report.memo.growth_section` (staged growth) and
:mod:`~costmodel.report.memo.financing_section` (the loan; construction and ramp in the
decision); its words are in :mod:`~costmodel.report.memo.text` and its ``text_*`` siblings,
:mod:`~costmodel.report.memo.text_analysis`, the growth and financing section
modules and :mod:`~costmodel.report.memo.profiles`;
numbers are formatted by
:mod:`~costmodel.report.memo.numbers`; charts come from
:mod:`~costmodel.report.memo.charts` and :mod:`~costmodel.report.memo.analysis_charts`.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Mapping
from importlib import metadata
from os import PathLike
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from costmodel.analysis.bundle import Analysis, analyze
from costmodel.inputs.loader import assumption_files, fingerprint
from costmodel.inputs.model import Model, require_finite
from costmodel.inputs.provenance import changed_inputs
from costmodel.inputs.resources import templates_dir
from costmodel.inputs.title import model_title
from costmodel.report.memo import analysis as mana
from costmodel.report.memo import appendix_section as mapp
from costmodel.report.memo import charts, glossary
from costmodel.report.memo import comparison_section as mcomp
from costmodel.report.memo import financing_section as mfin
from costmodel.report.memo import growth_section as mgrowth
from costmodel.report.memo import numbers as f
from costmodel.report.memo import profile_section as mprof
from costmodel.report.memo import reliability as rel
from costmodel.report.memo import summary_section as msum
from costmodel.report.memo import terms_section as mterms
from costmodel.report.memo import vat_section as mvat
from costmodel.report.memo.context import Facts
from costmodel.report.memo.text import TEXT
from costmodel.report.memo.text_charts import CHART, caption
from costmodel.report.output import source_date_epoch, write_text

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
    epoch = source_date_epoch()
    if epoch is not None:
        return dt.datetime.fromtimestamp(epoch, tz=dt.timezone.utc).date()
    return dt.date.today()


def environment(template_dir: str | PathLike[str] | None = None) -> jinja2.Environment:
    """Jinja2 environment: ``template_dir`` first, the bundled templates as
    fallback for every file it lacks; autoescape on; undefined names are errors.
    One environment per folder is kept for the process, so a template is compiled
    once (Jinja2 compiles it again when its file changes)."""
    if template_dir is None:
        return _environment(None)
    d = Path(template_dir)
    if not d.is_dir():
        raise NotADirectoryError(f"template_dir {str(d)!r} is not a directory")
    return _environment(str(d.resolve()))


@functools.lru_cache(maxsize=8)
def _environment(folder: str | None) -> jinja2.Environment:
    loaders: list[jinja2.BaseLoader] = []
    if folder is not None:
        loaders.append(jinja2.FileSystemLoader(folder))
    loaders.append(jinja2.FileSystemLoader(str(templates_dir())))
    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader(loaders),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        bytecode_cache=_bytecode_cache(),
    )
    env.filters["phrases"] = f.phrases  # Chinese headers that break between phrases
    return env


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    """Jinja2's cache of compiled templates in the user's temporary folder (a
    template's entry is keyed by its name and the hash of its source, so an edited
    template compiles again): a fresh process renders the memo without compiling
    its templates. None where that folder cannot be used."""
    try:
        return jinja2.FileSystemBytecodeCache()
    except (OSError, RuntimeError):
        return None


def _files(model: Model) -> list[str]:
    """Assumption files as ``parent/name`` (enough to tell them apart, no home paths)."""
    return [
        str(Path(p).parent.name + "/" + Path(p).name) for p in assumption_files(model.assumptions)
    ]


def _date_text(d: dt.date, lang: str) -> str:
    return f"{d.year}年{d.month}月{d.day}日" if lang == "zh" else f"{d.day} {d:%B %Y}"


def model_name(model: Model, lang: str) -> str:
    """The model's name; in Chinese its ``name_zh`` when the assumptions carry one,
    else a title derived from the number of options, the default site's Chinese
    label (where the model names a site) and the start month."""
    a = model.assumptions
    if lang != "zh":
        return model_title(a)
    own = getattr(a, "name_zh", None)
    if own:
        return str(own)
    site = a.sites.get(a.site) if a.site else None  # the default site (methodology §29)
    if site is None:
        return TEXT["zh"]["zh_name"].format(
            n=len(model.tiers), year=a.start[:4], month=int(a.start[5:7])
        )
    return TEXT["zh"]["zh_name_site"].format(
        n=len(model.tiers),
        site=site.label_zh or site.label or a.site,
        year=a.start[:4],
        month=int(a.start[5:7]),
    )


def _check(model: Model, analysis: Analysis) -> None:
    """An analysis must be of this model: the same tiers."""
    if analysis.tiers != list(model.tiers):
        raise ValueError(
            f"the analysis is not of this model: its tiers are {analysis.tiers}, "
            f"the model's {list(model.tiers)}"
        )


def context(model: Model, lang: str = "en", analysis: Analysis | None = None) -> dict[str, Any]:
    """Everything the template needs (see :mod:`costmodel.report.memo.context` and, with
    ``analysis``, :mod:`costmodel.report.memo.analysis`)."""
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {', '.join(LANGS)}, not {lang!r}")
    if analysis is None:
        analysis = analyze(model, draws=0)
    _check(model, analysis)
    a = model.assumptions
    facts = Facts(model, lang, analysis)
    T = TEXT[lang]
    C = CHART[lang]
    figures = [
        ("npv", charts.npv_chart(model, lang, f"npv-{lang}")),
        ("capex", charts.capex_chart(model, lang, f"capex-{lang}")),
        ("opex", charts.opex_chart(model, lang, f"opex-{lang}")),
        ("cash", charts.cash_chart(model, lang, f"cash-{lang}")),
        ("cost", charts.cost_chart(model, lang, facts.prices, facts.breakeven, f"cost-{lang}")),
    ]
    fp = fingerprint(a)
    return dict(
        lang=lang,
        html_lang="zh-CN" if lang == "zh" else "en",
        t=T,
        csp=CSP,
        version=_version(),
        title=f"{T['title']}{T['colon']}{model_name(model, lang)}",
        model_name=model_name(model, lang),
        date=_date_text(memo_date(), lang),
        fingerprint=fp,
        currency=a.currency,
        horizon=T["horizon_value"].format(
            years=a.horizon_years, start=a.start, year=a.start[:4], month=int(a.start[5:7])
        ),
        discount=f.pct(model.discount_rate()),
        files=_files(model),
        changes=[dict(path=p, note=n) for p, n in changed_inputs(a)],
        decision=msum.decision(facts) | {"timing": mfin.timing(facts)},
        table=mcomp.comparison(facts),
        charts=[
            dict(
                id=k,
                title=C[f"{k}_title"],
                caption=caption(C, k, a.terminal_value),
                body=Markup(html),
            )
            for k, html in figures
        ],
        profiles=mprof.profiles(facts),
        maxims=mapp.maxims(lang),
        failures=rel.failures(facts),
        fit=rel.fit(facts),
        method=mapp.method(facts),
        assumptions=mapp.assumption_rows(facts),
        risk=mana.risk(facts, analysis),
        scenarios=mana.scenarios(facts, analysis),
        rent=mana.build_rent(facts, analysis),
        growth=mgrowth.growth(facts),
        financing=mfin.financing(facts),
        vat=mvat.vat(facts),
        terms=mterms.terms(facts),
    )


def render_memo(
    model: Model,
    lang: str = "en",
    template_dir: str | PathLike[str] | None = None,
    analysis: Analysis | None = None,
) -> str:
    """The memo as an HTML string."""
    ctx_ = context(model, lang, analysis)
    return _typeset(environment(template_dir).get_template(TEMPLATE).render(**ctx_), lang)


def _typeset(page: str, lang: str) -> str:
    """The rendered page with its language's spacing (:func:`numbers.zh_spacing`)."""
    return f.zh_spacing(page) if lang == "zh" else page


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
    ``brand.html.j2``). ``analysis``: :func:`costmodel.analysis.bundle.analyze` of this
    model, for the sections "What has to be true", "Scenarios" and "Build or
    rent?" (without one, the deterministic analysis). Returns the path written.

    Parameters
    ----------
    model : Model
    path : str or os.PathLike
    lang : {"en", "zh"}, optional
    template_dir : str or os.PathLike, optional
    analysis : Analysis, optional

    Returns
    -------
    pathlib.Path

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import costmodel as cm
    >>> model = cm.build(cm.load_assumptions(cm.example_dir("by-hand")))
    >>> with tempfile.TemporaryDirectory() as d:
    ...     html = cm.write_memo(model, Path(d) / "memo.zh.html", lang="zh").read_text("utf-8")
    >>> html.startswith("<!DOCTYPE html>"), '<html lang="zh' in html
    (True, True)
    """
    return write_memos(model, {lang: path}, template_dir, analysis)[0]


def write_memos(
    model: Model,
    paths: Mapping[str, str | PathLike[str]],
    template_dir: str | PathLike[str] | None = None,
    analysis: Analysis | None = None,
) -> list[Path]:
    """Write the memo of ``model`` in each language of ``paths`` (``{"en": path,
    "zh": path}``), as :func:`write_memo` does, sharing what does not depend on the
    language: the analysis (``analyze(model, draws=0)`` once when none is given),
    the numbers the model keeps (its summary and rows, computed once) and the
    compiled template. Each file is written atomically; returns the paths written.
    Raises :class:`~costmodel.inputs.errors.AssumptionError` when an input is too
    large to compute with (:func:`~costmodel.inputs.model.require_finite`), and
    :class:`ValueError` when the Chinese memo contains a term the glossary rejects
    (:mod:`~costmodel.report.memo.glossary`)."""
    require_finite(model)
    for lang in paths:
        if lang not in LANGS:
            raise ValueError(f"lang must be one of {', '.join(LANGS)}, not {lang!r}")
    if analysis is None:
        analysis = analyze(model, draws=0)
    template = environment(template_dir).get_template(TEMPLATE)
    pages = {
        lang: _typeset(template.render(**context(model, lang, analysis)), lang) for lang in paths
    }
    if "zh" in pages:
        glossary.check_zh(pages["zh"])
    return [write_text(path, pages[lang]) for lang, path in paths.items()]
