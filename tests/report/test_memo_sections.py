"""The memo sections on failures and checkpoints and on which scale fits which
task: every figure recomputed here from the summary, ``goodput()`` and
``Model.recommend()`` and formatted with the shared formatter."""

from __future__ import annotations

import functools
import re
from html.parser import HTMLParser

import pytest

import costmodel as cm
from costmodel.core.lines import goodput
from costmodel.inputs.resources import default_assumptions_dir
from costmodel.report.memo import numbers as f
from costmodel.report.memo.render import render_memo

FACTOR = 10  # the memo's faster storage: 10x each tier's write bandwidth


class Sections(HTMLParser):
    """Cells of the failures table by (tier, fact); the fit table's cells by
    (workload, tier, part) and its recommended tier per workload; headings,
    nav links and section ids."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.facts: dict[tuple[str, str], str] = {}
        self.fit: dict[tuple[str, str, str], str] = {}
        self.recommended: dict[str, str | None] = {}
        self.headings: list[str] = []
        self.nav: list[str] = []
        self.sections: list[str] = []
        self._stack: list[tuple[str, str | None]] = []  # (tag, key to append text to)
        self._workload: str | None = None
        self._tier: str | None = None
        self._in_nav = False
        self.feed(html)

    def _key(self, tag, a):
        if tag == "td" and "data-fact" in a and "data-tier" in a:
            k = ("fact", a["data-tier"], a["data-fact"])
            self.facts[k[1:]] = ""
            return k
        if tag == "td" and a.get("data-fit") == "recommended":
            self.recommended[self._workload] = a.get("data-tier")
        if tag == "td" and a.get("data-fit") == "cell":
            self._tier = a["data-tier"]
        if a.get("data-fit") in ("main", "used", "idle") and self._tier:
            k = ("fit", self._workload, self._tier, a["data-fit"])
            self.fit[k[1:]] = ""
            return k
        if tag in ("h2", "h3"):
            self.headings.append("")
            return ("h",)
        return None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section" and "id" in a:
            self.sections.append(a["id"])
        if tag == "nav":
            self._in_nav = True
        if tag == "a" and self._in_nav:
            self.nav.append(a["href"])
        if tag == "tr" and "data-workload" in a:
            self._workload = a["data-workload"]
        key = self._key(tag, a)
        parent = self._stack[-1][1] if self._stack else None
        self._stack.append((tag, key or parent))

    def handle_endtag(self, tag):
        if tag == "nav":
            self._in_nav = False
        if tag == "td":
            self._tier = None
        while self._stack:
            t, _ = self._stack.pop()
            if t == tag:
                break

    def handle_data(self, data):
        key = self._stack[-1][1] if self._stack else None
        if key is None:
            return
        if key[0] == "fact":
            self.facts[key[1:]] += data
        elif key[0] == "fit":
            self.fit[key[1:]] += data
        elif key[0] == "h":
            self.headings[-1] += data


@functools.cache
def parsed(html: str) -> Sections:
    """:class:`Sections` of ``html``, parsed once (for the session's shared memos)."""
    return Sections(html)


def text_of(html: str) -> str:
    body = re.sub(r"<style>.*?</style>|<svg.*?</svg>", " ", html, flags=re.S)
    body = re.sub(r"<[^>]+>", "", body)
    import html as h

    return re.sub(r"\s+", " ", h.unescape(body)).replace("\u00a0", " ")


def times(n: float) -> str:
    return f"{n:,.1f}" if n < 10 else f"{n:,.0f}"


# model, memos: tests/report/conftest.py


# ----------------------------------------------------------------------------- failures


def expected_failures(model, tier: str, lang: str) -> dict[str, str]:
    """The failures table of one tier, computed independently of the memo code."""
    s = model.summary().loc[tier]
    v = model.inputs[tier].values()
    cur = model.assumptions.currency
    # the storage's write bandwidth: the design's nodes x each node's rate
    # (methodology §28.2), the input itself for storage given by capacity
    write = (
        v["write_gbps"] if "write_gbps" in v else v["storage_node_write_gbps"] * s["storage_nodes"]
    )
    assert write == pytest.approx(s["storage_write_gbps"])
    per_year_hours = s["gpu_hours"] / model.assumptions.horizon_years  # average year
    g = s["goodput"]
    g10 = goodput(
        s["servers"],
        v["node_failures_per_day"],
        v["checkpoint_tb"],
        write * FACTOR,
        v["restart_hours"],
    )["goodput"][()]
    # the summary's goodput is the same formula at the assumed bandwidth
    assert goodput(
        s["servers"],
        v["node_failures_per_day"],
        v["checkpoint_tb"],
        write,
        v["restart_hours"],
    )["goodput"][()] == pytest.approx(g)
    lost = (1 - g) * per_year_hours
    recovered = (g10 - g) * per_year_hours
    cost = s["cost_per_gpu_hour"]
    return {
        "per_year": times(8760 / s["mtbf_hours"]),
        "mtbf": f.duration(s["mtbf_hours"], lang),
        "tau": f.duration(s["checkpoint_interval_hours"], lang),
        "goodput": f.pct(g, 2),
        "annual_hours": f.count(per_year_hours, lang),
        "lost_hours": f.count(lost, lang),
        "lost_money": f.money(lost * cost, lang, cur),
        "write_fast": f"{f.number(write * FACTOR)}\u00a0GB/s",
        "goodput_fast": f.pct(g10, 2),
        "recovered_hours": f.count(recovered, lang),
        "recovered_money": f.money(recovered * cost, lang, cur),
    }


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_failure_figures_equal_summary_and_goodput(model, memos, lang):
    p = parsed(memos[lang])
    for tier in model.tiers:
        for fact, want in expected_failures(model, tier, lang).items():
            assert p.facts[(tier, fact)].strip() == want, (tier, fact)
    # the write time: checkpoint TB x 1000 / GB/s, in seconds below an hour
    v = model.inputs["hundreds"].values()
    secs = v["checkpoint_tb"] * 1000 / model.summary().loc["hundreds", "storage_write_gbps"]
    assert p.facts[("hundreds", "write")].endswith(f.seconds(secs, lang))


def test_failure_figures_in_the_default_model_read_sensibly(model, memos):
    s = model.summary()
    assert s.loc["thousands", "goodput"] < s.loc["tens", "goodput"]
    p = parsed(memos["en"])
    for t in model.tiers:  # faster storage never makes things worse
        lost = (1 - s.loc[t, "goodput"]) * s.loc[t, "gpu_hours"]
        assert lost > 0 and p.facts[(t, "recovered_hours")] != "0"
    text = text_of(memos["en"])
    assert "failure is the norm" in text and "checkpoint IO storms" in text
    assert "no backup" in text
    assert "average year" in text and "× 10" in text
    zh = text_of(memos["zh"])
    assert "故障成为常态" in zh and "IO 风暴" in zh and "缺乏备份" in zh


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_failures_chart_is_inline_svg_with_text(memos, lang):
    html = memos[lang]
    fig = re.search(r'<figure id="fig-failures">(.*?)</figure>', html, flags=re.S)
    assert fig, "no failures chart"
    assert fig.group(1).count('<svg xmlns="http://www.w3.org/2000/svg" id=') == 2  # two panels
    assert "<text " in fig.group(1)
    assert ("按假设" if lang == "zh" else "As assumed") in fig.group(1)


def test_no_failures_assumed_says_so():
    tiers = cm.load_assumptions().tiers
    a = cm.load_assumptions(
        overrides={
            "reliability.node_failures_per_day": 0,
            **{  # tier overrides too (the default thousands tier has its own rate)
                f"tiers.{t}.reliability.node_failures_per_day": 0
                for t, tier in tiers.items()
                if tier.reliability and tier.reliability.node_failures_per_day
            },
        }
    )
    m = cm.build(a)
    en = render_memo(m, "en")  # the failures chart with no failures is drawn too
    p = Sections(en)
    for t in m.tiers:
        assert p.facts[(t, "goodput")] == "100.00%"
        assert p.facts[(t, "lost_hours")] == "0"
        assert p.facts[(t, "mtbf")] == f.EMPTY
    assert "No node failures are assumed" in text_of(en)
    assert "未假设节点故障" in text_of(render_memo(m, "zh"))


# ----------------------------------------------------------------------------- fit


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_recommended_tiers_equal_model_recommend(model, memos, lang):
    df = cm.recommend(model)
    p = parsed(memos[lang])
    want = df.attrs["recommended"]
    assert p.recommended == want
    assert len(set(want.values())) > 1  # the default: not all one tier


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_fit_cells_equal_model_recommend(model, memos, lang):
    df = cm.recommend(model)
    p = parsed(memos[lang])
    for (w, t), r in df.iterrows():
        assert p.fit[(w, t, "used")].endswith(f.share(r["share_of_horizon"])), (w, t)
        assert p.fit[(w, t, "idle")].endswith(f.share(r["idle_share"])), (w, t)
        main = p.fit[(w, t, "main")]
        if r["kind"] != "inference" and r["meets_memory"]:
            assert main == f.duration(r["days_needed"] * 24, lang), (w, t)
        else:
            assert f"{int(r['memory_floor_gpus']):,}" in main
    # the generated over-buying sentence, as in the issue
    lora = df.loc[("LoRA of a 13B model", "thousands")]
    text = text_of(memos[lang])
    assert f.share(lora["idle_share"]) in text
    if lang == "en":
        assert (
            "LoRA of a 13B model needs "
            + f"{int(df.loc[('LoRA of a 13B model', 'tens'), 'memory_floor_gpus'])} GPUs and "
            + f.duration(df.loc[("LoRA of a 13B model", "tens"), "days_needed"] * 24).replace(
                "\u00a0", " "
            )
        ) in text
        assert "is a task that needs" in text


def test_share_never_rounds_to_a_misleading_edge():
    assert f.share(0.000001) == "<0.01%" and f.share(0.999999) == ">99.99%"
    assert f.share(0.0099) == "0.99%" and f.share(0.5) == "50.0%" and f.share(0) == "0%"
    assert f.share(float("nan")) == f.EMPTY


def test_headings_nav_and_maxim(memos):
    for lang, heads, maxim in (
        ("en", ("What failures and checkpoints cost", "Which scale fits which task"), None),
        ("zh", ("故障与检查点的代价", "任务决定规模"), "任务决定规模，而非预算决定规模"),
    ):
        p = parsed(memos[lang])
        for h in heads:
            assert h in p.headings
        assert "#failures" in p.nav and "#fit" in p.nav
        assert {"failures", "fit"} <= set(p.sections)
        text = text_of(memos[lang])
        assert (maxim or "The task decides the scale, not the budget") in text
    # the sections sit between the options and the method
    order = parsed(memos["en"]).sections
    assert order.index("options") < order.index("failures") < order.index("fit")
    assert order.index("fit") < order.index("method")


def overlay(tmp_path, text: str):
    p = tmp_path / "w.yaml"
    p.write_text(text, encoding="utf-8")
    return cm.build(cm.load_assumptions(default_assumptions_dir(), p))


def test_workload_names_are_escaped(tmp_path):
    m = overlay(
        tmp_path,
        "workloads:\n"
        '  - {name: "<script>x</script>", kind: lora, params_b: 13, tokens_b: 2,'
        " deadline_days: 7}\n"
        '  - {name: "A & B", kind: pretrain, params_b: 65, tokens_b: 1400,'
        " deadline_days: 1}\n",
    )
    for lang in ("en", "zh"):
        html = render_memo(m, lang)
        assert "<script" not in html.lower()
        assert "&lt;script&gt;x&lt;/script&gt;" in html
        p = Sections(html)
        assert p.recommended == cm.recommend(m).attrs["recommended"]
        assert p.recommended["A & B"] is None  # nothing trains 65B on 1.4T tokens in a day
    assert "<script>x</script>" in text_of(render_memo(m, "en"))
    assert "No option fits A & B" in text_of(render_memo(m, "en"))
    # the Chinese memo names tasks by size and kind (the schema has no Chinese name)
    zh = text_of(render_memo(m, "zh"))
    assert "没有方案能完成“65B 模型预训练”" in zh and "13B 模型 LoRA 微调" in zh


def test_no_workloads_no_section(tmp_path):
    m = overlay(tmp_path, "workloads: []\n")
    assert not m.assumptions.workloads
    for lang in ("en", "zh"):
        p = Sections(render_memo(m, lang))
        assert "fit" not in p.sections and "#fit" not in p.nav
        assert "failures" in p.sections


def test_an_override_of_gpus_restates_the_count_in_the_english_label():
    """The file's label says "1,024-GPU cluster (H200)"; built with 2,048 GPUs on H20
    servers the memo must not repeat the file's count or GPU; a label in the
    "(1024x H200)" form is restated too."""
    from costmodel.report.memo.labels import tier_label

    a = cm.load_assumptions(
        overrides={"tiers.thousands.gpus": 2048, "tiers.thousands.server": "h20"}
    )
    model = cm.build(a)
    assert a.tiers["thousands"].label == "1,024-GPU cluster (H200)"
    assert tier_label(model, "thousands") == "2,048-GPU cluster (H20)"
    b = cm.load_assumptions(
        overrides={
            "tiers.thousands.gpus": 2048,
            "tiers.thousands.server": "h20",
            "tiers.thousands.label": "Thousands (1024x H200)",
        }
    )
    assert tier_label(cm.build(b), "thousands") == "Thousands (2048x H20)"
    assert tier_label(model, "tens") == a.tiers["tens"].label  # its count is right
