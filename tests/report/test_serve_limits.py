"""The page's server under hostile load (issue 55): bodies capped while they are
read, JSON nested 40,000 deep answered 400, runs bounded (429 when full, never
dropped while running, kept until fetched or expired), the engine off the event
loop. Loopback only, through Starlette's TestClient; every loop is bounded."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")

import anyio  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from costmodel.report.web import jobs as jobs_mod  # noqa: E402
from costmodel.report.web import server  # noqa: E402
from costmodel.report.web.jobs import Jobs, JobsFull  # noqa: E402
from costmodel.report.web.server import MAX_BODY, create_app  # noqa: E402
from costmodel.report.web.session import Session  # noqa: E402

LOCAL = "http://127.0.0.1:8050"


@pytest.fixture(scope="module")
def session() -> Session:
    return Session.load(None)


@pytest.fixture
def client(session):
    with TestClient(create_app(session), base_url=LOCAL) as c:
        yield c


# ----------------------------------------------------------------------------- bodies


def test_a_declared_body_above_the_cap_is_refused_413(client):
    body = json.dumps({"overrides": {}, "pad": "x" * (MAX_BODY + 10)})
    r = client.post("/api/recompute", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert f"{MAX_BODY:,} bytes" in r.json()["error"]


def test_a_streamed_body_is_refused_at_the_cap_not_read_whole(session):
    """A 300 MB chunked POST (no Content-Length): the server stops reading at the
    cap, so at most the cap and one chunk are ever pulled from the client."""
    app = create_app(session)
    chunk = b" " * 65536
    total = 300 * 1024 * 1024
    pulled = {"bytes": 0}
    sent: list[dict] = []

    async def receive():
        pulled["bytes"] += len(chunk)
        return {"type": "http.request", "body": chunk, "more_body": pulled["bytes"] < total}

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/recompute",
        "raw_path": b"/api/recompute",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1:8050"), (b"content-type", b"application/json")],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8050),
    }
    anyio.run(app, scope, receive, send)
    assert sent[0]["status"] == 413
    assert pulled["bytes"] <= MAX_BODY + len(chunk)


def test_json_nested_40000_deep_is_400_not_500(client):
    deep = "[" * 40_000 + "]" * 40_000
    body = '{"overrides": {}, "x": ' + deep + "}"
    r = client.post("/api/recompute", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400 and "nests deeper" in r.json()["error"]
    mid = '{"overrides": {"a": ' + '{"b": ' * 200 + "1" + "}" * 200 + "}}"
    r = client.post("/api/recompute", content=mid, headers={"content-type": "application/json"})
    assert r.status_code == 400 and "nests deeper than 32 levels" in r.json()["error"]


# ----------------------------------------------------------------------------- runs


def blocked_work(gate: threading.Event):
    def work(progress):
        gate.wait(30)
        return "done"

    return work


def test_runs_are_bounded_per_kind_and_in_all():
    jobs = Jobs(workers=1, per_kind=2, total=3)
    gate = threading.Event()
    try:
        a = [jobs.submit(1, blocked_work(gate), lambda r, lang: r, kind="Monte Carlo")
             for _ in range(2)]  # fmt: skip
        with pytest.raises(JobsFull, match="2 Monte Carlo runs are queued or running"):
            jobs.submit(1, blocked_work(gate), lambda r, lang: r, kind="Monte Carlo")
        b = jobs.submit(1, blocked_work(gate), lambda r, lang: r, kind="sweep")
        with pytest.raises(JobsFull, match="3 runs are queued or running"):
            jobs.submit(1, blocked_work(gate), lambda r, lang: r, kind="sweep")
    finally:
        gate.set()
    for key in [*a, b]:
        job = jobs.get(key)
        assert job.finished.wait(10) and job.result == "done"
    jobs.submit(1, lambda p: "again", lambda r, lang: r, kind="Monte Carlo")  # room again


def test_a_run_is_never_dropped_while_running_and_finished_ones_expire():
    now = {"t": 0.0}
    jobs = Jobs(workers=2, per_kind=100, total=100, clock=lambda: now["t"])
    gate = threading.Event()
    slow = jobs.submit(1, blocked_work(gate), lambda r, lang: r, kind="slow")
    quick = []
    for _ in range(60):  # results fetched as they come: the oldest fetched ones go
        key = jobs.submit(1, lambda p: "x", lambda r, lang: r)
        assert jobs.get(key).finished.wait(10)
        jobs.fetched(key)
        quick.append(key)
    assert jobs.counts()["finished"] <= jobs_mod.MAX_FINISHED
    unread = []
    for _ in range(jobs_mod.MAX_FINISHED):  # results nobody fetches: kept, then 429
        key = jobs.submit(1, lambda p: "y", lambda r, lang: r)
        assert jobs.get(key).finished.wait(10)
        unread.append(key)
    with pytest.raises(JobsFull, match="wait for their results to be fetched"):
        jobs.submit(1, lambda p: "z", lambda r, lang: r)
    assert all(jobs.get(k) is not None for k in unread)
    now["t"] = jobs_mod.UNFETCHED_KEEP_S - 1
    assert jobs.get(slow) is not None  # still running: kept, whatever else finished
    last = unread[-1]
    assert jobs.get(last) is not None  # finished, not fetched, not expired
    jobs.fetched(last)
    now["t"] += jobs_mod.FETCHED_KEEP_S + 1
    assert jobs.get(last) is None  # fetched a while ago
    now["t"] += jobs_mod.UNFETCHED_KEEP_S
    assert jobs.get(slow) is not None  # long past every expiry: still running, kept
    gate.set()
    assert jobs.get(slow).finished.wait(10)
    now["t"] += jobs_mod.UNFETCHED_KEEP_S + 1
    assert jobs.get(slow) is None  # finished, never fetched, expired


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def test_a_flood_of_runs_every_accepted_one_finishes(client):
    """Three waves of 10 Monte Carlo and 10 sweep requests: each is accepted
    (200) or refused with 429 and a message; every accepted run finishes with its
    result; memory grows by less than 400 MB."""
    before = rss_mb()
    accepted, refused, done = [], 0, set()
    for _ in range(3):
        for k in range(10):
            mc = client.post("/api/montecarlo", json={"overrides": {}, "n": 100 + k})
            sw = client.post(
                "/api/sweep", json={"overrides": {}, "tier": "tens", "from": 8, "to": 64}
            )
            for r in (mc, sw):
                if r.status_code == 200:
                    accepted.append(r.json()["job"])
                else:
                    assert r.status_code == 429, r.text
                    assert "queued or running" in r.json()["error"]
                    assert r.headers["retry-after"]
                    refused += 1
        pending = [k for k in accepted if k not in done]
        deadline = time.monotonic() + 300
        while pending and time.monotonic() < deadline:
            doc = client.get(f"/api/jobs/{pending[0]}").json()
            assert "error" not in doc or doc["error"] is None, doc
            if doc["html"] is not None:
                done.add(pending.pop(0))
            else:
                time.sleep(0.05)
        assert not pending, f"runs not finished: {pending}"
    assert refused > 0 and len(accepted) >= 2 * jobs_mod.PER_KIND
    assert len(set(accepted)) == len(accepted)
    assert rss_mb() - before < 400


def test_the_event_loop_answers_while_the_engine_works(client, monkeypatch):
    """A recompute that takes long (held here) runs in a worker thread: another
    request is answered meanwhile."""
    gate, entered = threading.Event(), threading.Event()
    real = server.Page.model_for

    def held(self, overrides):
        entered.set()
        gate.wait(30)
        return real(self, overrides)

    monkeypatch.setattr(server.Page, "model_for", held)
    out = {}
    t = threading.Thread(
        target=lambda: out.setdefault("r", client.post("/api/recompute", json={"overrides": {}}))
    )
    t.start()
    try:
        assert entered.wait(30)
        start = time.monotonic()
        r = client.get("/static/serve.css")
        assert r.status_code == 200 and time.monotonic() - start < 5
    finally:
        gate.set()
        t.join(60)
    assert out["r"].status_code == 200
