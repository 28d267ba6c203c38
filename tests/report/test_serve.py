"""The what-if page's endpoints (``costmodel serve``), through Starlette's test
client: the page and its controls, a recompute equal to ``costmodel summary
--set``, invalid input answered with the CLI's message, no machine path, text from
the assumption files escaped, the Chinese page in Chinese, the downloads."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
import yaml

pytest.importorskip("starlette")

from starlette.testclient import TestClient  # noqa: E402

import costmodel as cm  # noqa: E402
from costmodel.analysis.sensitivity import ranged_inputs  # noqa: E402
from costmodel.cli.serve_command import network_warning  # noqa: E402
from costmodel.inputs.resources import default_assumptions_dir  # noqa: E402
from costmodel.report.memo import numbers as f  # noqa: E402
from costmodel.report.memo.labels import tier_label  # noqa: E402
from costmodel.report.web.jobs import SEED  # noqa: E402
from costmodel.report.web.server import create_app  # noqa: E402
from costmodel.report.web.session import Session, redact  # noqa: E402
from costmodel.report.web.view import step_of  # noqa: E402
from tests.support.serve import cli_error, cli_npv, english_words, visible_text  # noqa: E402

LOCAL = "http://127.0.0.1:8050"
MOVES = {"revenue.price_per_gpu_hour": 15.5, "operations.utilization": 0.72}


@pytest.fixture(scope="module")
def session() -> Session:
    return Session.load(None)


@pytest.fixture(scope="module")
def client(session) -> TestClient:
    return TestClient(create_app(session), base_url=LOCAL)


@pytest.fixture(scope="module")
def pages(client) -> dict[str, str]:
    return {lang: client.get("/", params={"lang": lang}).text for lang in ("en", "zh")}


def shown_npv(html: str) -> dict[str, tuple[float, str]]:
    """Each tier's NPV cell of the option table: (data-value, text)."""
    cells = re.findall(
        r'<td class="num" data-tier="([^"]+)" data-metric="npv" data-value="([^"]*)"[^>]*>([^<]*)</td>',
        html,
    )
    return {t: (float(v), text) for t, v, text in cells}


def sets(moves: dict[str, float]) -> list[str]:
    return [f"{p}={v}" for p, v in moves.items()]


# ----------------------------------------------------------------------------- the page


def test_page_has_a_slider_for_every_ranged_input(pages, session):
    inputs, _ = ranged_inputs(cm.load_assumptions())
    sliders = re.findall(r'<input type="range"[^>]*>', pages["en"], flags=re.S)
    assert len(sliders) == len(inputs) == len(session.inputs)
    by_path = {re.search(r'data-path="([^"]+)"', tag).group(1): tag for tag in sliders}
    assert set(by_path) == {x.path for x in inputs}
    for x in inputs:
        tag = by_path[x.path]
        attrs = dict(re.findall(r'(min|max|value|step)="([^"]+)"', tag))
        assert float(attrs["min"]) == x.low and float(attrs["max"]) == x.high
        assert float(attrs["value"]) == x.value
        step = float(attrs["step"])
        for v in (x.value, x.high):  # the base value and the top are positions of the slider
            n = (v - x.low) / step
            assert abs(n - round(n)) < 1e-6, (x.path, v, step)
        assert (x.high - x.low) / step >= 100 - 1e-6 or x.whole


def test_sliders_are_grouped_as_on_inputs_and_named_by_the_registry(pages):
    page = pages["en"]
    groups = re.findall(r"<summary>([^<]+)</summary>", page)
    # the default's discount rate is derived (wacc): no Finance slider, its cost of
    # equity is among Financing's
    assert groups[:3] == ["Construction and ramp-up", "Power", "Facility"]
    assert "Financing" in groups
    model = cm.build(cm.load_assumptions())
    assert groups[-3:] == [f"Option: {tier_label(model, t)}" for t in model.tiers]
    assert '<span class="name">Utilization</span>' in page
    assert '<span class="name">PUE (Air cooling)</span>' in page
    assert '<span class="name">Year-1 price per GPU-hour</span>' in page
    # the value in its unit: utilization in percent, the price in CNY per GPU-hour
    a = model.assumptions
    util, price = a.operations.utilization.value, a.revenue.price_per_gpu_hour.value
    assert f'data-path="operations.utilization">{util * 100:.1f}%</output>' in page
    assert (
        f'data-path="revenue.price_per_gpu_hour">{price:.2f}</output> <span class="unit">CNY/GPU-h'
        in page
    )


def test_step_is_the_largest_power_of_ten_on_the_base_value():
    inputs, _ = ranged_inputs(cm.load_assumptions())
    x = next(i for i in inputs if i.path == "operations.utilization")  # 0.3 .. 0.85, 0.6
    assert step_of(x) == (0.001, 3)  # 0.01 would give 55 positions
    x = next(i for i in inputs if i.path == "timeline.ramp_months")
    assert step_of(x) == (1.0, 0)


def test_page_shows_the_engines_numbers_and_the_memos_decision(pages):
    m = cm.build(cm.load_assumptions())
    s = m.summary()
    npv = shown_npv(pages["en"])
    assert set(npv) == set(m.tiers)
    for t, (v, text) in npv.items():
        assert v == s.loc[t, "npv"]
        assert text == f.money(s.loc[t, "npv"], "en", "CNY")
    assert "No option that sells GPU-hours is worth building at the assumed prices." in pages["en"]
    assert "在假设价格下，没有任何对外出售卡时的方案值得建设。" in pages["zh"]
    for chart in ("npv", "cash", "capex", "opex", "cost"):
        assert f'<figure id="fig-{chart}">' in pages["en"]


def test_zh_page_has_no_english_outside_product_names(pages):
    text = visible_text(pages["zh"])
    assert english_words(text) == set()
    model = cm.build(cm.load_assumptions())
    assert tier_label(model, "tens", "zh") in text and "利用率" in text and "元/卡时" in text


def test_no_path_of_the_machine_in_the_page(pages, client):
    home = str(Path.home())
    folder = str(default_assumptions_dir())
    for page in pages.values():
        assert folder not in page and str(Path.cwd()) not in page
        assert home == "/" or home not in page
    assert "default/40-operations.yaml" in pages["en"]


# ----------------------------------------------------------------------------- recompute


def test_recompute_equals_costmodel_summary_with_the_same_set(client):
    r = client.post("/api/recompute", json={"overrides": MOVES, "lang": "en"})
    assert r.status_code == 200
    doc = r.json()
    cli = cli_npv(sets(MOVES))
    assert doc["npv"].keys() == cli.keys()
    for t, v in doc["npv"].items():
        assert v == pytest.approx(cli[t], rel=1e-11)  # JSON: 12 significant digits
        value, text = shown_npv(doc["options"])[t]
        assert value == v and text == f.money(cli[t], "en", "CNY")
        assert f"<strong>{text}</strong>" in doc["strip"]  # the phone's line of NPVs
    assert doc["values"]["operations.utilization"] == "72.0%"
    # the tens tier sets its own price (and its own utilization): the page says so, as
    # `summary --set` does on stderr
    notes = ["".join(text for _, text in pieces) for pieces in doc["notices"]]
    (note,) = [n for n in notes if "revenue.price_per_gpu_hour" in n]
    assert any("shadowed for tier tens by tiers.tens.operations.utilization" in n
               for n in notes)  # fmt: skip
    assert note.startswith("--set: revenue.price_per_gpu_hour = 15.5: shadowed for tier tens by ")
    assert "set tiers.tens.revenue.price_per_gpu_hour=15.5 instead" in note
    assert "/" not in note.split("(")[1].split(")")[0].replace("default/", "")  # no machine path
    assert doc["values"]["revenue.price_per_gpu_hour"] == "15.50"
    # a price above the base raises every NPV that reads it; utilization too (the
    # captive tens tier reads neither: it is valued at the cloud's price, at its own
    # utilization)
    base = cli_npv([])
    a = cm.load_assumptions()
    for t in base:
        own = a.tiers[t].revenue
        if own is not None and own.mode == "avoided_cloud":
            assert doc["npv"][t] == pytest.approx(base[t], rel=1e-11)
        else:
            assert doc["npv"][t] > base[t]


def test_the_advice_on_a_shadowed_input_is_chinese_on_the_chinese_page(client):
    doc = client.post("/api/recompute", json={"overrides": MOVES, "lang": "zh"}).json()
    assert len(doc["notices"]) == 2  # the tens tier sets its own price and utilization
    for pieces in doc["notices"]:
        words = "".join(text for kind, text in pieces if kind == "text")
        code = [text for kind, text in pieces if kind == "code"]
        assert english_words(words) == set() and "不读取此值" in words and "请改设" in words
        # the paths, values and file stay as written, marked as code
        assert code[0] == "--set" and code[1] in {
            "revenue.price_per_gpu_hour = 15.5",
            "operations.utilization = 0.72",
        }
        assert code[2] == "tens"
        moved = code[1].split(" = ")
        assert code[-1] == f"tiers.tens.{moved[0]}={moved[1]}"
    # the same advice in English on the English page
    en = client.post("/api/recompute", json={"overrides": MOVES, "lang": "en"}).json()
    assert [p[0] for p in en["notices"]] == [p[0] for p in doc["notices"]]  # same files
    assert all(english_words("".join(t for k, t in p if k == "text")) for p in en["notices"])


def test_decision_follows_the_inputs(client):
    low = client.post("/api/decision", json={"overrides": {}, "lang": "en"}).json()["html"]
    high = client.post(
        "/api/decision",
        # the captive tens tier at the high end of its cloud price and utilization
        json={"overrides": {"servers.h200.cloud_on_demand_per_gpu_hour": 20.9,
                            "tiers.tens.operations.utilization": 0.8,
                            "financing.cost_of_equity": 0.10}, "lang": "en"},
    ).json()["html"]  # fmt: skip
    assert "No option that sells GPU-hours is worth building" in low
    assert "Renting is the cheaper choice" in low and "Building is the cheaper" not in low
    # the captive tier's headline turns: building beats renting
    assert "Building is the cheaper choice" in high
    assert 'class="verdict positive"' in high


def test_recompute_round_trip_is_fast(client):
    client.post("/api/recompute", json={"overrides": MOVES})
    t0 = time.perf_counter()
    for i in range(3):
        client.post("/api/recompute", json={"overrides": {"operations.utilization": 0.5 + i / 100}})
    per = (time.perf_counter() - t0) / 3
    assert per < 1.0  # generous on a shared machine; benchmarks/bench_serve.py measures 100 ms


# ----------------------------------------------------------------------------- invalid input


@pytest.mark.parametrize(
    "path, value",
    [("operations.utilization", 1.5), ("operations.utilization", "abc"),
     ("revenue.price_per_gpu_hour", -1), ("finance.discount_rate", "@x")],
)  # fmt: skip
def test_bad_value_is_answered_with_the_clis_message(client, path, value):
    r = client.post("/api/recompute", json={"overrides": {path: value}})
    assert r.status_code == 400
    assert r.json() == {"error": cli_error([f"{path}={value}"])}


def test_requests_the_page_does_not_send_are_refused_without_a_traceback(client):
    answers = [
        client.post("/api/recompute", content=b"not json"),
        client.post("/api/recompute", json={"overrides": [1, 2]}),
        client.post("/api/recompute", json={"overrides": {"no.such.input": 1}}),
        client.post("/api/recompute", json={"overrides": {"servers.h200.label": "x"}}),
        client.post("/api/montecarlo", json={"overrides": {}, "n": "many"}),
        client.post("/api/montecarlo", json={"overrides": {}, "n": 10**9}),
        client.post("/api/recompute", content=b"{" + b" " * 300_000 + b"}"),
    ]
    for r in answers:
        assert r.status_code == 400, r.text
        assert "Traceback" not in r.text and 'File "' not in r.text
    assert "no.such.input: not an input of this page" in answers[2].json()["error"]
    assert client.get("/static/../../etc/passwd").status_code == 404
    assert client.get("/static/page.html.j2").status_code == 404


def test_messages_name_files_by_folder_and_name_only(tmp_path):
    bad = tmp_path / "secret-folder" / "model"
    bad.mkdir(parents=True)
    (bad / "over.yaml").write_text("operations:\n  utilization: 1.7\n", encoding="utf-8")
    with pytest.raises(cm.AssumptionError) as exc:
        Session.load(["default", str(bad / "over.yaml")])
    message = str(exc.value)
    assert "model/over.yaml" in message and str(tmp_path) not in message
    assert (
        redact(f"see {bad}/x.yaml:3 and /etc/x", [str(bad / "x.yaml")])
        == "see model/x.yaml:3 and x"
    )


def test_text_from_the_assumption_files_is_escaped(tmp_path):
    over = tmp_path / "label.yaml"
    over.write_text(
        'tiers:\n  tens:\n    label: "<img src=x onerror=alert(1)> & co"\n', encoding="utf-8"
    )
    page = (
        TestClient(create_app(Session.load(["default", str(over)])), base_url=LOCAL).get("/").text
    )
    assert "<img src=x" not in page
    assert "&lt;img src=x onerror=alert(1)&gt; &amp; co" in page


def test_both_pages_name_the_assumption_files_and_their_fingerprint(pages, tmp_path):
    """The footer names each file read (as code) and the fingerprint of the merged
    assumptions, in Chinese as in English; a file name is escaped."""
    from costmodel.inputs.loader import fingerprint

    fp = fingerprint(cm.load_assumptions())[:12]
    assert "<code>default/40-operations.yaml</code>" in pages["zh"]
    assert "假设文件：<code>default/00-model.yaml</code>" in pages["zh"]
    for page in pages.values():
        assert re.search(rf"(fingerprint|指纹) {fp}", page)
    odd = tmp_path / "a<b>&c.yaml"
    odd.write_text("operations:\n  utilization: 0.6\n", encoding="utf-8")
    app = create_app(Session.load(["default", str(odd)]))
    page = TestClient(app, base_url=LOCAL).get("/", params={"lang": "zh"}).text
    assert "/a&lt;b&gt;&amp;c.yaml</code>" in page and "a<b>" not in page


def test_other_sites_can_neither_read_nor_post(session, client):
    """A name of another site rebound to 127.0.0.1 gets no page; a POST another site's
    page could send without asking (a form, text/plain) is refused."""
    app = create_app(session)
    assert TestClient(app, base_url="http://evil.example:8050").get("/").status_code == 400
    assert TestClient(app, base_url="http://localhost:8050").get("/").status_code == 200
    assert (
        TestClient(create_app(session, None), base_url="http://10.1.2.3").get("/").status_code
        == 200
    )
    plain = client.post("/api/recompute", content=json.dumps({"overrides": {}}),
                        headers={"Content-Type": "text/plain"})  # fmt: skip
    assert plain.status_code == 400 and "application/json" in plain.json()["error"]


def test_headers_keep_the_page_to_itself(client):
    r = client.get("/")
    csp = r.headers["content-security-policy"]
    assert "default-src 'none'" in csp and "script-src 'self'" in csp
    assert r.headers["x-content-type-options"] == "nosniff"
    for name in ("memo.css", "serve.css", "serve.js"):
        assert client.get(f"/static/{name}").status_code == 200


# ----------------------------------------------------------------------------- downloads


def test_saved_scenario_rebuilds_to_the_page(client, tmp_path):
    moves = dict(MOVES, **{"financing.cost_of_equity": 0.12})  # the last one at its base value
    r = client.post("/api/scenario", json={"overrides": moves})
    assert r.status_code == 200
    assert r.headers["content-disposition"] == 'attachment; filename="scenario.yaml"'
    doc = yaml.safe_load(r.text)
    assert doc["operations"]["utilization"]["value"] == 0.72
    assert doc["operations"]["utilization"]["low"] == 0.3  # range, unit and source kept
    assert "source" in doc["revenue"]["price_per_gpu_hour"]
    own, change = doc["operations"]["utilization"]["note"].rsplit(" | ", 1)
    assert own == cm.load_assumptions().operations.utilization.note  # the reasoning kept
    assert re.fullmatch(r"changed in the what-if page on \d{4}-\d\d-\d\d \(was 0.6\)", change)
    assert "financing" not in doc  # not moved
    path = tmp_path / "scenario.yaml"
    path.write_text(r.text, encoding="utf-8")
    rebuilt = cm.build(cm.load_assumptions("default", path)).summary()["npv"]
    page = client.post("/api/recompute", json={"overrides": moves}).json()["npv"]
    assert {t: rebuilt[t] for t in page} == page


@pytest.mark.parametrize("end", ["low", "high"])
def test_every_slider_at_an_end_saves_a_scenario_that_rebuilds_to_the_page(
    client, session, tmp_path, end
):
    """Whole numbers (a life in years, a loan term), months, shares and money alike."""
    moves = {x.path: getattr(x, end) for x in session.inputs}
    page = client.post("/api/recompute", json={"overrides": moves}).json()["npv"]
    path = tmp_path / "scenario.yaml"
    path.write_text(client.post("/api/scenario", json={"overrides": moves}).text, encoding="utf-8")
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    life = doc["depreciation"]["servers"]["life_years"]["value"]
    assert isinstance(life, int) and life == getattr(
        session.input("depreciation.servers.life_years"), end
    )
    rebuilt = cm.build(cm.load_assumptions("default", path)).summary()["npv"]
    assert {t: rebuilt[t] for t in page} == page
    cli = cli_npv(sets(moves))
    assert all(v == pytest.approx(cli[t], rel=1e-11) for t, v in page.items())


def test_memo_and_workbook_of_the_current_state(client):
    memo = client.post("/api/memo", json={"overrides": MOVES, "lang": "zh"})
    assert memo.headers["content-disposition"] == 'attachment; filename="memo.zh.html"'
    npv = cli_npv(sets(MOVES))["tens"]
    assert f.money(npv, "zh", "CNY") in memo.text
    book = client.post("/api/workbook", json={"overrides": MOVES})
    assert book.status_code == 200 and book.content[:2] == b"PK"
    bad = client.post("/api/workbook", json={"overrides": {"operations.utilization": 2}})
    assert bad.status_code == 400


def test_monte_carlo_on_request_reports_progress_and_the_engines_figures(client):
    job = client.post("/api/montecarlo", json={"overrides": MOVES, "n": 200}).json()["job"]
    seen = []
    for _ in range(400):
        doc = client.get(f"/api/jobs/{job}").json()
        seen.append(doc["done"])
        if doc["html"] is not None:
            break
        time.sleep(0.05)
    assert doc["error"] is None and doc["total"] == 200 and seen[-1] == 200
    assert seen == sorted(seen)
    mc = cm.monte_carlo(cm.load_assumptions(overrides=MOVES), n=200, seed=SEED, workers=1)
    for t in mc.summary.index:
        assert f.money(mc.summary.loc[t, "npv_p50"], "en", "CNY") in doc["html"]
    zh = client.get(f"/api/jobs/{job}", params={"lang": "zh"}).json()["html"]
    assert english_words(visible_text(zh)) == set()


SWEEP_ROW = re.compile(r'<tr data-gpus="(\d+)"[^>]*>(.*?)</tr>', re.S)
SWEEP_CELL = re.compile(r'data-metric="([a-z_]+)" data-value="([^"]*)"')


def sweep_rows(html: str) -> dict[int, dict[str, str]]:
    """The sweep table's rows: GPUs -> metric -> data-value."""
    return {int(g): dict(SWEEP_CELL.findall(body)) for g, body in SWEEP_ROW.findall(html)}


def finished(client, job: str, lang: str = "en") -> tuple[dict, list[int]]:
    """Poll job ``job`` to its end: its last answer and the ``done`` values seen."""
    seen = []
    for _ in range(600):
        doc = client.get(f"/api/jobs/{job}", params={"lang": lang}).json()
        seen.append(doc["done"])
        if doc["html"] is not None or doc["error"]:
            return doc, seen
        time.sleep(0.05)
    raise AssertionError(f"job {job} did not finish: {seen[-3:]}")


def test_sweep_on_request_has_the_rows_of_cm_sweep_and_reports_progress(client):
    body = {"overrides": MOVES, "tier": "hundreds", "from": 8, "to": 4096}
    job = client.post("/api/sweep", json=body).json()["job"]
    doc, seen = finished(client, job)
    want = cm.sweep(cm.load_assumptions(overrides=MOVES), "hundreds", "8:4096")
    assert doc["error"] is None and doc["total"] == len(want) and seen[-1] == len(want)
    assert seen == sorted(seen)
    rows = sweep_rows(doc["html"])
    assert list(rows) == list(want["gpus"])
    for r in want.to_dict("records"):
        got = rows[r["gpus"]]
        assert got["scale_class"] == r["scale_class"]
        for col in ("network_levels", "cost_per_gpu_hour", "npv"):
            # an empty cell where the engine has none (no designed fabric: a share)
            want_v = r[col]
            assert got[col] == "" if want_v != want_v else float(got[col]) == want_v, (
                r["gpus"],
                col,
            )
    # the steps are marked where the row differs from the one above (not in the first)
    steps = re.findall(r'<tr data-gpus="(\d+)" class="[^"]*step', doc["html"])
    assert [int(g) for g in steps] == list(want.loc[want["change"] != "", "gpus"])
    assert steps and "★" in doc["html"] and 'class="own' in doc["html"]
    zh = client.get(f"/api/jobs/{job}", params={"lang": "zh"}).json()["html"]
    assert english_words(visible_text(zh)) == set()
    assert "数百卡" in zh and "跃变" in zh


def cli_sweep_error(tier: str, gpus: str) -> str:
    """The message ``costmodel sweep --tier T --gpus G`` stops with (exit 2), without
    its ``error: `` prefix, its lines joined (the terminal wraps it)."""
    from typer.testing import CliRunner

    from costmodel.cli import get_app

    res = CliRunner().invoke(get_app(), ["sweep", "--tier", tier, "--gpus", gpus, "-q"])
    assert res.exit_code == 2, (res.exit_code, res.stdout, res.stderr)
    return " ".join(res.stderr.removeprefix("error: ").split())


@pytest.mark.parametrize(
    "lo, hi",
    [(1, 4), (100, 10), (8, 100_000)],  # below a server, start above end, beyond the fabric
)
def test_bad_sweep_range_is_answered_with_the_clis_message(client, lo, hi):
    r = client.post("/api/sweep", json={"overrides": {}, "tier": "hundreds", "from": lo, "to": hi})
    assert r.status_code == 400
    assert " ".join(r.json()["error"].split()) == cli_sweep_error("hundreds", f"{lo}:{hi}")
    assert "Traceback" not in r.text


def test_bad_sweep_request_is_refused_without_a_traceback(client):
    for body in (
        {"tier": "nowhere", "from": 8, "to": 64},
        {"tier": "hundreds", "from": "8", "to": 64},
        {"tier": "hundreds", "from": 8, "to": 64, "overrides": {"operations.utilization": 2}},
    ):
        r = client.post("/api/sweep", json=body)
        assert r.status_code == 400 and "error" in r.json() and "Traceback" not in r.text
    unknown = client.post("/api/sweep", json={"tier": "nowhere", "from": 8, "to": 64})
    assert unknown.json()["error"] == "--tier 'nowhere': choose one of tens, hundreds, thousands"


def test_sweep_control_starts_at_the_clis_default_range(pages):
    # costmodel sweep without --gpus: a server to max(4096, 4 x the tier's GPUs)
    a = cm.load_assumptions()
    for t, tier in a.tiers.items():
        g, g0 = int(a.servers[tier.server].gpus_per_server), int(tier.gpus)
        hi = max(4096, 4 * g0)
        assert f'<option value="{t}" data-lo="{g}" data-hi="{hi}" data-step="{g}">' in pages["en"]


# ----------------------------------------------------------------------------- the command


def test_binding_beyond_this_machine_warns():
    assert network_warning("127.0.0.1", 8050) is None
    assert "reachable from the network" in network_warning("0.0.0.0", 8050)


def test_serve_command_binds_127_0_0_1_unless_told(monkeypatch):
    import uvicorn
    from typer.testing import CliRunner

    from costmodel.cli import get_app

    calls = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append(kw))
    runner = CliRunner()
    res = runner.invoke(get_app(), ["serve"])
    assert res.exit_code == 0, res.stderr
    assert calls[-1]["host"] == "127.0.0.1" and calls[-1]["port"] == 8050
    assert "reachable from the network" not in res.stderr
    res = runner.invoke(get_app(), ["serve", "--host", "0.0.0.0", "--port", "9000"])
    assert calls[-1]["host"] == "0.0.0.0" and calls[-1]["port"] == 9000
    assert "warning: serving on 0.0.0.0:9000: the page is reachable from the network" in res.stderr
    res = runner.invoke(get_app(), ["serve", str(Path("no-such-folder"))])
    assert res.exit_code == 2 and "Traceback" not in res.stderr


def test_every_unit_of_the_registry_has_its_chinese():
    """The zh page shows each input's unit from the registry in Chinese
    (``UNITS_ZH``): a unit added in English only would show English there."""
    from costmodel.inputs.vocabulary import INPUTS, UNITS_ZH

    assert {t.unit for t in INPUTS.values()} <= set(UNITS_ZH)
    assert all(english_words(u) == set() for u in UNITS_ZH.values())
