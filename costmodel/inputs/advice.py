"""Advice on inputs that are valid but probably not what was meant (methodology
§2.6): an override that a tier (or its site or design) shadows, and a value far
outside its documented range or of the wrong order of magnitude for its unit.

Each piece of advice is a :class:`~costmodel.inputs.errors.Problem` (where, path,
value, rule). :func:`costmodel.inputs.loader.load_assumptions` gives them as
:class:`~costmodel.inputs.errors.AssumptionWarning` (the CLI prints them on stderr;
the what-if page shows them) or, with ``strict=True`` (``--strict``), raises them as
an :class:`~costmodel.inputs.errors.AssumptionError`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from costmodel.inputs.errors import Problem
from costmodel.inputs.paths import key_path, split_path
from costmodel.inputs.vocabulary import TYPICAL, input_key, input_unit

_YEAR = re.compile(r"(?<!\d)((?:19|20)\d\d)(?!\d)")

#: how far outside its documented range a value may lie before it is questioned
FAR = 10.0

#: top-level keys whose entries set their own values (an override there is specific)
_SPECIFIC = ("tiers", "sites", "designs", "servers")

#: a global path's counterpart in a site where the site writes it elsewhere (§29)
_SITE_PATHS = {"facility.colocation_per_kw_month": "colocation_per_kw_month"}


def _at(data: Any, keys: list[str]) -> Any:
    node = data
    for k in keys:
        if not isinstance(node, dict) or k not in node:
            return None
        node = node[k]
    return node


def _number(x: Any) -> float | None:
    """The number a raw leaf holds (a bare number or a ``{value: ...}`` mapping)."""
    if isinstance(x, dict):
        x = x.get("value")
    if isinstance(x, bool) or not isinstance(x, int | float):
        return None
    return float(x)


def _num(x: float) -> str:
    """A bound as a reader reads it: thousands separated (``3,000,000``)."""
    return f"{x:,.0f}" if abs(x) >= 1000 and x == int(x) else f"{x:g}"


def _shown(x: Any) -> str:
    n = _number(x)
    return f"{n:g}" if n is not None else repr(x)


def _shadows(data: Mapping[str, Any], tier: str, keys: list[str]) -> list[str]:
    """The paths that would set ``keys`` (a global path) for ``tier`` before the
    global value, most specific first: the tier's own, its design's, its site's."""
    t = data["tiers"][tier]
    out = [key_path("tiers", tier, *keys)]
    design = t.get("design") if isinstance(t, dict) else None
    if isinstance(design, str):
        out.append(key_path("designs", design, *keys))
    site = t.get("site") if isinstance(t, dict) and "site" in t else data.get("site")
    if isinstance(site, str):
        rel = _SITE_PATHS.get(".".join(keys))
        out.append(key_path("sites", site, *(split_path(rel) if rel else keys)))
    return out


def shadowed(
    data: Mapping[str, Any], origin: Mapping[str, str], overrides: Mapping[str, Any]
) -> list[Problem]:
    """A problem for each override of a global value and each tier that does not
    read it because the tier, its design or its site sets the same key: naming the
    shadowing path, its value and where it is set, and the path to set instead."""
    tiers = data.get("tiers")
    if not isinstance(tiers, dict):
        return []
    out: list[Problem] = []
    for path, value in overrides.items():
        try:
            keys = split_path(path)
        except ValueError:
            continue
        if not keys or keys[0] in _SPECIFIC or isinstance(value, dict):
            continue
        hidden = []
        for tier in tiers:
            for shadow in _shadows(data, tier, keys):
                own = _at(data, split_path(shadow))
                if own is not None:
                    hidden.append((tier, shadow, own))
                    break
        for tier, shadow, own in hidden:
            where = origin.get(f"{shadow}.value") or origin.get(shadow, "")
            at = f" ({where})" if where else ""
            at_zh = f"（`{where}`）" if where else ""
            every = len(hidden) == len(tiers)
            rest = "; no tier reads the global value, so this override changes nothing"
            rest_zh = "；没有任何方案读取全局值，此项调整不改变结果"
            out.append(
                Problem(
                    "--set",
                    key_path(*keys),
                    _shown(value),
                    f"shadowed for tier {tier} by {shadow} = {_shown(own)}{at}: set "
                    f"{shadow}={_shown(value)} instead{rest if every else ''}",
                    f"方案 `{tier}` 不读取此值：`{shadow} = {_shown(own)}`{at_zh} 已为其设定；"
                    f"请改设 `{shadow}={_shown(value)}`{rest_zh if every else ''}",
                )
            )
    return out


def name_year(data: Mapping[str, Any], where: Any, fresh: Any) -> list[Problem]:
    """A problem when the model's ``name`` names a year other than ``start``'s
    (the title adds the start itself, methodology §2.7)."""
    name, start = data.get("name"), data.get("start")
    if (
        not isinstance(name, str)
        or not isinstance(start, str)
        or not (fresh("name") or fresh("start"))
    ):
        return []
    years = sorted({y for y in _YEAR.findall(name) if y != start[:4]})
    if not years:
        return []
    return [
        Problem(
            where("name"),
            "name",
            repr(name),
            f"names the year {years[0]} but start is {start}: the title adds the start "
            "month itself (methodology §2.7); leave the year out of the name",
        )
    ]


def _leaves(node: Any, keys: list[str]) -> Iterator[tuple[list[str], Any]]:
    """Every numeric input of the raw data with its keys (lists skipped)."""
    if isinstance(node, dict):
        if "value" in node and not isinstance(node["value"], dict):
            yield keys, node
            return
        for k, v in node.items():
            yield from _leaves(v, [*keys, str(k)])
    elif _number(node) is not None:
        yield keys, node


def _unit_of(leaf: Any) -> str | None:
    unit = leaf.get("unit") if isinstance(leaf, dict) else None
    return unit if isinstance(unit, str) else None


def typical_range(path: str) -> tuple[float, float] | None:
    """The documented typical range of the input at ``path`` (any currency the
    bundled models use), or None."""
    key = input_key(path)
    return TYPICAL.get(key) if key is not None else None


def implausible(
    data: Mapping[str, Any],
    where: Any,
    fresh: Any,
    before: Mapping[str, tuple[Any, Any]],
    currency: str,
) -> list[Problem]:
    """A problem for each input set in this load (``fresh(path)``) whose value is
    more than :data:`FAR` times outside its documented range: the typical range of
    its kind of input (:data:`~costmodel.inputs.vocabulary.TYPICAL`) or, for an
    override, the ``low``/``high`` the files gave it (``before``, the range ahead of
    the override's widening). A zero is never questioned (no cost is a choice)."""
    out: list[Problem] = []
    for keys, leaf in _leaves(data, []):
        path = key_path(*keys)
        x = _number(leaf)
        if x is None or x == 0 or not fresh(path):
            continue
        rule = rule_zh = None
        low, high = before.get(path, (None, None))
        unit = input_unit(path, currency, _unit_of(leaf))
        ask, ask_zh = "is the unit right?", "单位是否正确？"
        if isinstance(high, int | float) and high > 0 and x > FAR * high:
            rule = f"more than {FAR:g}x its documented high, {_num(high)} {unit}: {ask}"
            rule_zh = f"超过所列上限 `{_num(high)} {unit}` 的 {FAR:g} 倍：{ask_zh}"
        elif isinstance(low, int | float) and low > 0 and 0 < x < low / FAR:
            rule = f"less than 1/{FAR:g} of its documented low, {_num(low)} {unit}: {ask}"
            rule_zh = f"不足所列下限 `{_num(low)} {unit}` 的 1/{FAR:g}：{ask_zh}"
        typical = typical_range(path)
        if rule is None and typical is not None:
            lo, hi = typical
            if x > FAR * hi or abs(x) < lo / FAR:
                above = x > FAR * hi
                rule = (
                    f"more than {FAR:g}x {'above' if above else 'below'} the typical range of "
                    f"this input, {_num(lo)} to {_num(hi)} {unit}: {ask}"
                )
                span = f"此类输入的典型范围（`{_num(lo)}` 至 `{_num(hi)} {unit}`）"
                rule_zh = (
                    f"超过{span}上限的 {FAR:g} 倍：{ask_zh}"
                    if above
                    else f"不足{span}下限的 1/{FAR:g}：{ask_zh}"
                )
        if rule is not None:
            out.append(Problem(where(path), path, f"{x:g}", rule, rule_zh or ""))
    return out
