"""The memo's scale curve (methodology §13): two log-axis panels, each option on
its curve, the steps drawn, one sentence per tier filled by the sweep."""

from __future__ import annotations

import re

import numpy as np

from costmodel.analysis.sweep import option_sweeps


def _sentence(html: str, tier: str) -> str:
    m = re.search(rf'<p data-sweep="{tier}">(.*?)</p>', html, re.S)
    assert m, tier
    return re.sub(r"<[^>]+>", "", m.group(1)).replace("\xa0", " ")


#: what changes at a step (the sweep's ``change``), as the memo names it in en and zh
WHAT = {
    "scale_class": ("scale class", "规模等级"),
    "network_levels": ("network levels", "网络层数"),
    "design": ("design rebuilt", "设计方案重构"),
}


def test_memo_sweep_chart_and_sentences(memos, model):
    sweeps = option_sweeps(model.assumptions)
    summary = model.summary()
    en, zh = memos["en"], memos["zh"]
    for html in (en, zh):
        part = html[html.index('id="scale-sweep"') :]
        part = part[: part.index("data-sweep=")]
        assert part.count('class="line" data-tier=') == 2 * len(model.tiers)
        assert part.count('class="option"') == 2 * len(model.tiers)
        steps = sum(int((df["change"] != "").sum()) for df in sweeps.values())
        assert part.count('class="step"') == 2 * steps > 0
    for tier, df in sweeps.items():
        g0 = df.attrs["first_gpus"]
        own = f"{summary.loc[tier, 'cost_per_gpu_hour']:.2f}"
        s_en, s_zh = _sentence(en, tier), _sentence(zh, tier)
        assert f"CNY {own}/GPU‑h at its own {g0:,}" in s_en, s_en
        assert f"在自身 {g0:,} 卡时为 {own} 元/卡时" in s_zh, s_zh
        cost = df["cost_per_gpu_hour"].to_numpy(float)
        for j in np.flatnonzero(df["change"].to_numpy() != ""):
            what = [WHAT[w] for w in df["change"].iloc[j].split(", ")]
            g = df["gpus"].iloc[j]
            # each step says what it costs: the cost per GPU-hour before and after it
            was, now = f"{cost[j - 1]:.2f}", f"{cost[j]:.2f}"
            assert (
                f"{g:,} GPUs ({' and '.join(w[0] for w in what)}: cost per GPU-hour "
                f"CNY {was}/GPU‑h -&gt; CNY {now}/GPU‑h)"
            ) in s_en, s_en
            assert (
                f"{g:,} 卡（{'、'.join(w[1] for w in what)}：每卡时成本 {was} 元/卡时 -&gt; "
                f"{now} 元/卡时）"
            ) in s_zh, s_zh
        lo = df.iloc[0]
        assert f"CNY {lo['cost_per_gpu_hour']:.2f}/GPU‑h at {lo['gpus']:,} GPUs" in s_en


def test_memo_sweep_names_the_network_steps_of_a_designed_fabric():
    import costmodel as cm
    from costmodel.report.memo.render import render_memo
    from tests.support.v3 import v3_paths

    # the tiers sized in the tier (no design by scale class): the fabric's steps alone
    a = cm.load_assumptions(*v3_paths(), "assumptions/scenarios/fabric-design.yaml")
    m = cm.build(a)
    an = cm.analyze(m, draws=0)
    # radix 64: 2 levels up to 64^2 / 2 = 2,048 endpoints, 3 above (the thousands sweep
    # runs 128 .. 8,192); one level up to 64 (the hundreds sweep runs 16 .. 1,024)
    df = an.sweeps["thousands"]
    assert list(df.loc[df["change"] != "", "gpus"]) == [512, 2056]
    page = render_memo(m, "en", analysis=an)
    en = _sentence(page, "thousands")
    zh = _sentence(render_memo(m, "zh", analysis=an), "thousands")
    assert "512 GPUs (scale class: cost per GPU-hour" in en, en
    assert "and 2,056 GPUs (network levels: cost per GPU-hour" in en, en
    assert "512 卡（规模等级：每卡时成本" in zh and "2,056 卡（网络层数：每卡时成本" in zh, zh
    hundreds = _sentence(page, "hundreds")
    assert "72 GPUs (scale class and network levels: cost per GPU-hour" in hundreds, hundreds
