"""The memo's profiles of the options: per tier, the source's typical profile beside the
tier's own data from the assumption files, the capex checked against the source's
cost range, and the priced risks of :mod:`costmodel.report.memo.risk_section`.
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from costmodel.report.memo import numbers as f
from costmodel.report.memo.context import Facts, own_text, say
from costmodel.report.memo.labels import gpu_name, tier_label
from costmodel.report.memo.profiles import ASPECT_LABELS, ASPECTS, PROFILES
from costmodel.report.memo.risk_section import risks
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
        "network": _data_or_empty(t.network, "fabric", lang, f"tiers.{tier}.network")
        + dot
        + x.metric(tier, "network_share"),
        "storage": _data_or_empty(t.storage, "kind", lang, f"tiers.{tier}.storage")
        + dot
        + f"{f.number(v['storage_capacity_tb'])} TB · {f.number(v['write_gbps'])} GB/s",
        "scheduling": _data_or_empty(t, "scheduler", lang, f"tiers.{tier}"),
        "cooling": f"{COOLING[lang].get(t.cooling, t.cooling)} · "
        f"{T['rack_kw'].format(kw=f.number(v['rack_kw']))} · PUE {f.number(v['pue'])}",
        "cost": x.metric(tier, "capex"),
        "team": T["team_fte"].format(fte=f.number(v["staff_fte"])),
    }


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
                risks=risks(x, tier),
            )
        )
    return out
