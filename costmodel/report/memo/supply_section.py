"""The memo's sentence on chip supply: the import risk of the options that run a chip
of foreign origin (methodology §33), chosen by
:func:`costmodel.analysis.supply.supply_risks` (no sentence when every option is
domestic), in the executive summary's risks and in each such option's profile (words in
:mod:`costmodel.report.memo.text_summary`).
"""

from __future__ import annotations

from markupsafe import Markup

from costmodel.core.metrics import is_empty
from costmodel.report.memo.context import Facts, data_text, say
from costmodel.report.memo.labels import gpu_name, tier_label
from costmodel.report.memo.text_summary import SUMMARY


def supply_sentences(x: Facts, tier: str | None = None) -> list[Markup]:
    """The import risk of the feasible options on a chip of foreign origin
    (:func:`costmodel.analysis.supply.supply_risks`), one sentence per SKU (only
    ``tier``'s, if given): the SKU, the source of its lead time (the import
    channel's state; the Chinese memo names where it is written, the source being
    English), the lead time and the high of its range, and what a domestic-only
    chip policy would leave. None when every option runs a domestic chip or the
    foreign ones are already excluded by the policy."""
    df = x.analysis.supply
    if df is None or not len(df):
        return []
    df = df[~df["excluded"].astype(bool)]
    if tier is not None:
        df = df.loc[[t for t in df.index if t == tier]]
    S, lang = SUMMARY[x.lang], x.lang
    sep = "、" if lang == "zh" else ", "
    out = []
    for sku, group in df.groupby("sku", sort=False):
        first = group.iloc[0]
        labels = [tier_label(x.model, str(t), lang) for t in group.index]
        high = float(first["lead_months_high"])
        domestic = str(first["domestic"])
        them = S["supply_one" if len(labels) == 1 else "supply_many"]
        key = "supply_policy" if domestic else "supply_policy_none"
        skus = (
            [Markup("<code>{}</code>").format(k) for k in domestic.split(", ")] if domestic else []
        )
        policy = say(S[key], them=them, domestic=Markup(sep).join(skus))
        out.append(
            say(
                S["supply"],
                labels=Markup(sep).join(labels),
                run="runs" if len(labels) == 1 else "run",
                gpu=gpu_name(x.model, str(group.index[0])),
                sku=str(sku),
                source=data_text(str(first["lead_source"]), lang),
                path=f"servers.{sku}.lead_months",
                lead=f"{float(first['lead_months']):g}",
                high=say(S["supply_high"], high=f"{high:g}") if not is_empty(high) else "",
                policy=policy,
            )
        )
    return out
