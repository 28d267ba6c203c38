"""Scale classes and the designs a tier takes by them (methodology §28.1, §33.1).

A tier with ``design: auto`` takes ``designs[scale_class(G)]``, G its final GPU count
(every deployment: headroom is designed in from the start); ``design: NAME`` takes
that design. The design's parts fill the tier where the tier does not size them
itself: a tier that gives its own sizing of a part replaces the design's whole part
(network ``share`` or ``design``; storage ``capacity_tb`` or ``node``; ``cooling``;
``rack_kw``; ``staff_fte`` or ``staff_scaling``; ``reliability.mfu``), and the
label-only keys (``fabric``, ``kind``, ``scheduler`` and their ``_zh``) merge over
the design's. The resolution works on the merged data before validation, so every
later reader sees a complete tier; :func:`design_parts` says which parts came from
the design, so that an input taken from it is known by its ``designs.`` path.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from typing import Any

#: scale classes of methodology §3 as (name, largest GPU count of the class); the last
#: has no bound
SCALE_CLASSES: tuple[tuple[str, int | None], ...] = (
    ("tens", 64),
    ("hundreds", 511),
    ("thousands", None),
)

#: the parts of a tier a design sizes, with the tier keys that size each one itself
PARTS: dict[str, tuple[str, ...]] = {
    "network": ("share", "design"),
    "storage": ("capacity_tb", "node"),
    "cooling": (),
    "rack_kw": (),
    "staff": ("staff_fte", "staff_scaling"),
    "mfu": (),
}
#: label-only keys of a part that merge over the design's
LABELS = {"network": ("fabric", "fabric_zh"), "storage": ("kind", "kind_zh")}


def scale_class(gpus: float) -> str:
    """``tens`` if gpus <= 64, ``hundreds`` if gpus <= 511, else ``thousands``
    (methodology §3).

    >>> [scale_class(g) for g in (64, 72, 504, 512)]
    ['tens', 'hundreds', 'hundreds', 'thousands']
    """
    for name, top in SCALE_CLASSES:
        if top is None or gpus <= top:
            return name
    raise AssertionError("the last scale class is unbounded")


def _value(x: Any) -> Any:
    """The value of a number written bare or as ``{value: ...}``."""
    return x.get("value") if isinstance(x, Mapping) else x


def final_gpus(tier: Mapping[str, Any]) -> float:
    """The GPUs of every deployment of a raw tier (its value where ranged)."""
    total = float(_value(tier.get("gpus")) or 0)
    for stage in tier.get("stages") or []:
        if isinstance(stage, Mapping):
            total += float(_value(stage.get("gpus")) or 0)
    return total


def chosen_design(tier: Mapping[str, Any]) -> str | None:
    """The design key a raw tier takes: its scale class for ``auto``, the name
    given otherwise, ``None`` without ``design``."""
    name = _value(tier.get("design"))
    if name is None:
        return None
    return scale_class(final_gpus(tier)) if name == "auto" else str(name)


def own_parts(tier: Mapping[str, Any]) -> set[str]:
    """The parts a raw tier sizes itself (:data:`PARTS`)."""
    out = set()
    for part, keys in PARTS.items():
        if part == "staff":
            given = any(tier.get(k) is not None for k in keys)
        elif part == "mfu":
            rel = tier.get("reliability")
            given = isinstance(rel, Mapping) and rel.get("mfu") is not None
        elif keys:
            own = tier.get(part)
            given = isinstance(own, Mapping) and any(own.get(k) is not None for k in keys)
        else:
            given = tier.get(part) is not None
        if given:
            out.add(part)
    return out


def design_parts(data: Mapping[str, Any], tier_name: str) -> frozenset[str]:
    """The parts tier ``tier_name`` of the raw ``data`` takes from its design."""
    tier = (data.get("tiers") or {}).get(tier_name)
    if not isinstance(tier, Mapping) or chosen_design(tier) is None:
        return frozenset()
    key = chosen_design(tier)
    design = (data.get("designs") or {}).get(key)
    if not isinstance(design, Mapping):
        return frozenset()
    parts = set(PARTS) - own_parts(tier)
    if design.get("mfu") is None:
        parts.discard("mfu")
    return frozenset(parts)


def _merged_part(own: Any, design: Any, labels: tuple[str, ...]) -> Any:
    """The design's part with the tier's label-only keys over it."""
    out = copy.deepcopy(design) if isinstance(design, Mapping) else {}
    if isinstance(own, Mapping):
        out.update({k: own[k] for k in labels if k in own})
    return out


def _fill(tier: dict[str, Any], design: Mapping[str, Any], parts: frozenset[str]) -> None:
    """Fill the raw ``tier`` from ``design`` (module docstring)."""
    for part in ("network", "storage"):
        if part in parts:
            tier[part] = _merged_part(tier.get(part), design.get(part), LABELS[part])
        elif isinstance(tier.get(part), Mapping) and isinstance(design.get(part), Mapping):
            for k in LABELS[part]:  # labels merge even over the tier's own sizing
                if k not in tier[part] and k in design[part]:
                    tier[part][k] = design[part][k]
    for part in ("cooling", "rack_kw"):
        if part in parts:
            tier[part] = copy.deepcopy(design.get(part))
    if "staff" in parts:
        tier["staff_scaling"] = copy.deepcopy(design.get("staff_scaling"))
        tier.pop("staff_fte", None)
    if "mfu" in parts:
        rel = dict(tier.get("reliability") or {})
        rel["mfu"] = copy.deepcopy(design["mfu"])
        tier["reliability"] = rel
    for k in ("scheduler", "scheduler_zh"):
        if not tier.get(k) and design.get(k):
            tier[k] = design[k]


def design_problems(data: Mapping[str, Any]) -> Iterator[tuple[str, str, str]]:
    """(dotted path, value, rule) of each tier whose design is unknown, too small
    for its GPUs, or whose stages size storage or staff under a design (§28.1)."""
    designs = data.get("designs") or {}
    for name, tier in (data.get("tiers") or {}).items():
        if not isinstance(tier, Mapping) or chosen_design(tier) is None:
            continue
        key, g = chosen_design(tier), final_gpus(tier)
        base = f"tiers.{name}"
        design = designs.get(key) if isinstance(designs, Mapping) else None
        if not isinstance(design, Mapping):
            given = _value(tier.get("design"))
            what = f"no design for its scale class {key!r} ({g:g} GPUs)"
            if given != "auto":
                what = "unknown design"
            known = ", ".join(designs) if isinstance(designs, Mapping) and designs else "none"
            yield f"{base}.design", repr(given), f"{what}: designs has {known}"
            continue
        top = _value(design.get("max_gpus"))
        if isinstance(top, int | float) and g > top:
            yield (
                f"{base}.gpus",
                f"{g:g}",
                f"the tier reaches {g:g} GPUs, beyond its design {key!r} "
                f"(designs.{key}.max_gpus {top:g}): a cluster built beyond its design fails",
            )
        for i, stage in enumerate(tier.get("stages") or []):
            for k in ("capacity_tb", "staff_fte"):
                if isinstance(stage, Mapping) and stage.get(k) is not None:
                    yield (
                        f"{base}.stages.{i}.{k}",
                        repr(_value(stage[k])),
                        f"under design {key!r} storage and staff follow the design "
                        f"(methodology §28.1): remove stages.{k}",
                    )


def resolve_designs(data: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of the raw merged ``data`` with each designed tier filled from its
    design and ``design`` set to the key taken (unknown designs left as they are;
    :func:`design_problems` reports them)."""
    out = copy.deepcopy(dict(data))
    designs = out.get("designs") or {}
    for name, tier in (out.get("tiers") or {}).items():
        if not isinstance(tier, dict) or chosen_design(tier) is None:
            continue
        key = chosen_design(tier)
        design = designs.get(key) if isinstance(designs, Mapping) else None
        if not isinstance(design, Mapping):
            continue
        _fill(tier, design, design_parts(data, name))
        tier["design"] = key
    return out


def tier_design_parts(a: Any, tier_name: str) -> frozenset[str]:
    """The parts (:data:`PARTS`) tier ``tier_name`` of the loaded assumptions ``a``
    takes from its design; empty without a design or for assumptions built without
    their files."""
    data = a._source.data if getattr(a, "_source", None) is not None else {}
    return design_parts(data, tier_name) if data else frozenset()


def design_is_auto(a: Any, tier_name: str) -> bool:
    """Whether tier ``tier_name`` of the loaded assumptions ``a`` chose its design by
    scale class (``design: auto``); False for a named design, none, or assumptions
    built without their files."""
    data = a._source.data if getattr(a, "_source", None) is not None else {}
    tier = (data.get("tiers") or {}).get(tier_name)
    return isinstance(tier, Mapping) and _value(tier.get("design")) == "auto"
