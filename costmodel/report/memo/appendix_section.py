"""The memo's closing sections: the method (its paragraphs and the rules that depend on
the inputs), the assumptions appendix (every input with its unit and source) and the
source's rules of thumb (words in :mod:`costmodel.report.memo.text_method`).
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel

from costmodel.catalogue.items import opex_rules
from costmodel.inputs.schema import Quantity, WholeNumber
from costmodel.report.memo import numbers as f
from costmodel.report.memo.context import Facts
from costmodel.report.memo.labels import input_key, input_label, workload_label
from costmodel.report.memo.profiles import MAXIMS
from costmodel.report.memo.text_method import METHOD, METHOD_RULES, SECTIONS


def walk(obj: Any, path: str = ""):
    """Yield ``(dotted path, leaf)`` for every input of validated assumptions:
    :class:`Quantity` objects (a whole number written as a mapping as one too) and
    plain values (text, whole numbers, flags)."""
    if isinstance(obj, Quantity):
        yield path, obj
    elif isinstance(obj, WholeNumber):  # a whole number with its range and source
        yield path, Quantity(value=int(obj), **obj.meta())
    elif isinstance(obj, BaseModel):
        for name in type(obj).model_fields:
            value = getattr(obj, name)
            if value is not None:
                yield from walk(value, f"{path}.{name}" if path else name)
    elif isinstance(obj, dict):
        for k, value in obj.items():
            yield from walk(value, f"{path}.{k}")
    elif isinstance(obj, list | tuple):
        for i, value in enumerate(obj):
            yield from walk(value, f"{path}[{i}]")
    else:
        yield path, obj


#: plain text inputs quoted from their sources: in the Chinese memo they are
#: marked as English (``lang="en"``), as the source and note column is
QUOTED_KEYS = frozenset({"source", "note"})
#: a text value that is an input's dotted path (``correlations[0].a``): set as code
_PATH = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$")
#: a text value's Chinese sibling: ``description`` -> ``description_zh``
ZH_SUFFIX = "_zh"


def assumption_rows(x: Facts) -> list[dict[str, Any]]:
    """Every assumption with its value, range, unit, source and note, grouped by
    top-level section. In Chinese a text input with a Chinese sibling
    (``description`` and ``description_zh``) shows the Chinese text, its English
    original after it as quoted English, and the sibling has no row of its own; a
    workload's name is its Chinese name (:func:`workload_label`); text quoted from a
    source (``note``, ``source``) and names without a Chinese form (the model's
    name, a server's label) are marked English (``quoted``); input paths are code."""
    leaves = list(walk(x.model.assumptions))
    texts = {path: leaf for path, leaf in leaves if isinstance(leaf, str) and leaf}
    zh = x.lang == "zh"
    rows = []
    for path, leaf in leaves:
        if zh and path.endswith(ZH_SUFFIX) and path.removesuffix(ZH_SUFFIX) in texts:
            continue  # shown on its English sibling's row
        top = path.split(".", 1)[0].split("[", 1)[0]
        section = top if top != path else ""  # top-level scalars: the model group
        if isinstance(leaf, Quantity):
            rng = (
                f"{f.number(leaf.low)} – {f.number(leaf.high)}"
                if leaf.low is not None or leaf.high is not None
                else ""
            )
            row = dict(
                value=f.number(leaf.value),
                range=rng,
                unit=leaf.unit or "",
                source=leaf.source or "",
                note=leaf.note or "",
                numeric=True,
            )
        else:
            numeric = isinstance(leaf, int | float) and not isinstance(leaf, bool)
            text = f.number(leaf) if numeric else str(leaf)
            row = dict(value=text, range="", unit="", source="", note="", numeric=numeric)
        row.update(original="", quoted=False, code=False)
        if isinstance(leaf, str) and leaf:
            row.update(_text_value(x, path, leaf, texts) if zh else {})
            row["code"] = bool(_PATH.match(leaf))
        sections = SECTIONS[x.lang]
        rows.append(
            dict(
                section=section,
                section_label=sections.get(section, section),
                path=path,
                label=_appendix_label(x, path),
                **row,
            )
        )
    return rows


def _text_value(x: Facts, path: str, text: str, texts: dict[str, str]) -> dict[str, Any]:
    """How the Chinese appendix shows the text input ``path`` (see
    :func:`assumption_rows`): its Chinese sibling with the English ``original``,
    a workload's Chinese name, or the text itself, ``quoted`` if it is English
    quoted from a source or a name."""
    own_zh = texts.get(path + ZH_SUFFIX)
    if own_zh:
        return dict(value=own_zh, original=text)
    key = path.rsplit(".", 1)[-1]
    if re.fullmatch(r"workloads\[\d+\]\.name", path):
        return dict(value=workload_label(x.model, text, "zh"), original=text)
    english = not any("\u3400" <= c <= "\u9fff" for c in text)
    return dict(quoted=key in QUOTED_KEYS or (english and key in ("name", "label")))


def _appendix_label(x: Facts, path: str) -> str:
    """The readable name of an input in the appendix ('' when it has none)."""
    parts = path.split(".")
    tier = parts[1] if parts[0] == "tiers" and len(parts) > 2 else x.model.tiers[0]
    if tier not in x.model.tiers or input_key(x.model, tier, path) is None:
        return ""
    return input_label(x.model, tier, path, x.lang)[0]


def method(x: Facts) -> list[dict[str, str]]:
    a = x.model.assumptions
    fields = dict(
        months=12 * a.horizon_years,
        hours=730,
        rate=f.pct(x.model.discount_rate()),
        tax=f.pct(a.finance.tax_rate.value),
        degraded=f.pct(a.risks.degraded_mfu.value, 0),
        factor=f.number(a.risks.checkpoint_frequency_factor.value),
        opex_rules=opex_rules(x.lang),
        **_method_rules(x),
    )
    return [dict(heading=h, text=p.format(**fields)) for h, p in METHOD[x.lang]]


def _method_rules(x: Facts) -> dict[str, str]:
    """The loss carry-forward and terminal-value rules as the inputs set them."""
    a = x.model.assumptions
    R = METHOD_RULES[x.lang]
    years = a.finance.loss_carryforward_years
    years = getattr(years, "value", years)
    loss = R["loss_unlimited"] if years is None else R["loss_years"].format(years=int(years))
    return dict(loss_rule=loss, terminal=R[f"terminal_{a.terminal_value}"])


def maxims(lang: str) -> list[str]:
    return MAXIMS[lang]
