"""The memo's profiles of the options: per tier, the source's typical profile beside the
tier's own data from the assumption files, the capex checked against the source's
cost range, and the priced risks of :mod:`costmodel.report.memo.risk_section`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from markupsafe import Markup

from costmodel.report.memo import numbers as f
from costmodel.report.memo.context import Facts, own_text, say
from costmodel.report.memo.labels import gpu_name, tier_label
from costmodel.report.memo.profiles import ASPECT_LABELS, ASPECTS, PROFILES
from costmodel.report.memo.risk_section import risks
from costmodel.report.memo.supply_section import supply_sentences
from costmodel.report.memo.text import TEXT
from costmodel.report.memo.text_risks import COOLING, RISKS


def cost_band(x: Facts, cls: str) -> tuple[float, float | None] | None:
    """The domain source's build-cost band of scale class ``cls`` in the model's
    currency (``reference.build_cost``), or None when there is none to compare."""
    ref = x.model.assumptions.reference
    if ref is None or ref.currency != x.currency or cls not in ref.build_cost:
        return None
    band = ref.build_cost[cls]
    return band.low, band.high


def _cost_range(x: Facts, band: tuple[float, float | None]) -> str:
    lo, hi = band
    if hi:
        return f"{x.money(lo)} – {x.money(hi)}"
    return f"{x.money(lo)}以上" if x.lang == "zh" else f"{x.money(lo)} or more"


def _where(capex: float, band: tuple[float, float | None]) -> str:
    lo, hi = band
    return "below" if capex < lo else "above" if hi and capex > hi else "within"


def _data_or_empty(obj: object, field: str, lang: str, path: str) -> Markup:
    """The section's text ``field`` in ``lang`` (:func:`own_text`), or ``–``."""
    text = own_text(obj, field, lang, path)
    return text if text is not None else Markup(f.EMPTY)


def _text_path(x: Facts, tier: str, part: str, field: str) -> str:
    """Where a text of the tier is written: the tier's own ``field`` (under ``part``,
    if any), or its design's where the tier does not write it (the label-only keys
    merge over the design's, methodology §28.1)."""
    a = x.model.assumptions
    key = a.tiers[tier].design
    raw = (a._source.data.get("tiers") or {}).get(tier) if a._source is not None else None
    own = (raw or {}).get(part) if part else raw
    where = f"tiers.{tier}" if key is None or field in (own or {}) else f"designs.{key}"
    return f"{where}.{part}" if part else where


def _own_profile(x: Facts, tier: str) -> dict[str, Markup | str]:
    """The tier's own traits from the assumption files (text marked as data)."""
    m, lang = x.model, x.lang
    T = TEXT[lang]
    t = m.assumptions.tiers[tier]
    row = x.summary.loc[tier]
    v = m.inputs[tier].values()
    dot = Markup(" · ")
    if lang == "zh":
        per = int(v["gpus_per_server"])
        servers = (
            f"{int(row['servers']):,} 台 × {per} 卡 {gpu_name(m, tier)}"
            f"（共 {int(row['gpus']):,} 卡）"
        )
    else:
        label = m.assumptions.servers[t.server].label or t.server
        servers = f"{int(row['servers']):,} × {label} ({int(row['gpus']):,} GPUs)"
    return {
        "workloads": _data_or_empty(t, "description", lang, f"tiers.{tier}"),
        "servers": servers,
        "network": _data_or_empty(
            t.network, "fabric", lang, _text_path(x, tier, "network", "fabric_zh")
        )
        + dot
        + _fabric_text(x, tier),
        "storage": _data_or_empty(
            t.storage, "kind", lang, _text_path(x, tier, "storage", "kind_zh")
        )
        + dot
        + _storage_text(x, tier),
        "scheduling": _data_or_empty(t, "scheduler", lang, _text_path(x, tier, "", "scheduler_zh")),
        "cooling": f"{COOLING[lang].get(t.cooling, t.cooling)} · "
        f"{T['rack_kw'].format(kw=f.number(v['rack_kw']))} · PUE {f.number(v['pue'])}",
        "cost": x.metric(tier, "capex"),
        "team": _team_text(x, tier) + _design_text(x, tier),
    }


def _first(a: Any) -> float:
    """The first scenario's value of an engine array (the memo's run has one)."""
    return float(np.asarray(a).reshape(-1)[0])


#: the seed's network cost at the thousands scale: "20-30% of hardware" (methodology §12.1)
NETWORK_BAND = {"thousands": (0.20, 0.30)}


def _fabric_text(x: Facts, tier: str) -> str:
    """A designed fabric in words and numbers ("2 levels, 48 switches, 4,096
    transceivers, 17.2% of hardware"), else the network share; where the source gives
    a band for the tier's scale class, whether the share is within it."""
    T = TEXT[x.lang]
    row = x.summary.loc[tier]
    share = float(row["network_share"])
    d = x.model.results[tier].deployments[-1]
    if "fabric_levels" in d:
        levels = int(_first(d["fabric_levels"]))
        text = T["fabric"].format(
            levels=levels,
            plural="" if levels == 1 else "s",
            switches=f"{int(_first(d['fabric_switches'])):,}",
            optics=f"{int(_first(d['fabric_optics'])):,}",
            share=f.pct(share),
        )
    else:
        text = x.metric(tier, "network_share")
    band = NETWORK_BAND.get(str(row["scale_class"]))
    if band is None:
        return text
    lo, hi = band
    where = "below" if share < lo else "above" if share > hi else "within"
    sep = "；" if x.lang == "zh" else "; "
    return (
        text
        + sep
        + T["fabric_band"].format(lo=f.pct(lo, 0), hi=f.pct(hi, 0), where=T["band_where"][where])
    )


#: the seed's aggregate storage bandwidth by scale class (GB/s; None: open above):
#: "50-100 GB/s" for hundreds of GPUs, "TB/s" for thousands (methodology §28.2)
STORAGE_BAND = {"hundreds": (50.0, 100.0), "thousands": (1000.0, None)}


def _storage_text(x: Facts, tier: str) -> str:
    """The final cluster's storage in numbers (nodes where sized in nodes, TB and
    write GB/s) and, where the source gives a bandwidth for the tier's scale class,
    whether the storage reaches it."""
    T = TEXT[x.lang]
    row = x.summary.loc[tier]
    tb, gbps = f.number(float(row["storage_tb"])), f.number(float(row["storage_write_gbps"]))
    nodes = float(row["storage_nodes"])
    if nodes == nodes:
        plural = "" if nodes == 1 else "s"
        text = T["storage_nodes"].format(nodes=f"{int(nodes):,}", plural=plural, tb=tb, gbps=gbps)
    else:
        text = T["storage_plain"].format(tb=tb, gbps=gbps)
    band = STORAGE_BAND.get(str(row["scale_class"]))
    if band is None:
        return text
    lo, hi = band
    write = float(row["storage_write_gbps"])
    where = "below" if write < lo else "above" if hi is not None and write > hi else "within"
    shown = f"{lo:,.0f}–{hi:,.0f} GB/s" if hi is not None else "TB/s"
    sep = "；" if x.lang == "zh" else "; "
    return text + sep + T["storage_band"].format(band=shown, where=T["storage_where"][where])


def _design_text(x: Facts, tier: str) -> Markup | str:
    """The design the tier takes and its label (methodology §28.1), or nothing."""
    key = x.model.assumptions.tiers[tier].design
    if key is None:
        return ""
    design = x.model.assumptions.designs[key]
    label = _data_or_empty(design, "label", x.lang, f"designs.{key}")
    sep = "；" if x.lang == "zh" else "; "
    shown = f.fmt(key, "text", x.lang)
    return Markup(sep) + say(TEXT[x.lang]["design_taken"], design=shown, label=label)


def _team_text(x: Facts, tier: str) -> str:
    """The tier's headcount: ``staff_fte``, or with ``staff_scaling`` the final
    cluster's (methodology §12.2)."""
    T = TEXT[x.lang]
    v = x.model.inputs[tier].values()
    if "staff_fixed_fte" not in v:
        return T["team_fte"].format(fte=f.number(v["staff_fte"]))
    final = _first(x.model.results[tier].deployments[-1]["staff_fte"])
    return T["team_scaled"].format(
        fte=f.number(final),
        fixed=f.number(v["staff_fixed_fte"]),
        per=f.number(v["staff_fte_per_server"]),
    )


def profiles(x: Facts) -> list[dict[str, Any]]:
    """Per tier: the source's typical profile beside the tier's own data, the
    capex checked against the source's cost range, and the priced risks."""
    m, s, lang = x.model, x.summary, x.lang
    R = RISKS[lang]
    out = []
    for tier in m.tiers:
        row = s.loc[tier]
        cls = str(row["scale_class"])
        seed = PROFILES[cls][lang]
        band = cost_band(x, cls)
        capex = float(row["capex"])
        own = _own_profile(x, tier)
        rows = [
            dict(aspect=ASPECT_LABELS[lang][k], seed=seed[k], own=own[k], key=k) for k in ASPECTS
        ]
        out.append(
            dict(
                tier=tier,
                label=tier_label(m, tier, x.lang),
                scale_class=f.fmt(cls, "text", lang),
                headline=seed["headline"],
                rows=rows,
                capex_check=None
                if band is None
                else say(
                    R["capex_range"],
                    capex=x.metric(tier, "capex"),
                    where=R[_where(capex, band)],
                    range=_cost_range(x, band),
                ),
                seed_risk=seed["risk"],
                trap=seed["trap"],
                risks=[*supply_sentences(x, tier), *risks(x, tier)],
            )
        )
    return out
