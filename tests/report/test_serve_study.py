"""The study on request in the what-if page (methodology §34, §14): the job's map
holds cm.study's shares at the current inputs, its progress rises to the
cell-draws, the zh text is Chinese, and what the CLI refuses (or a study beyond
the page's limits) is answered with status 400 and the message."""

from __future__ import annotations

import re
import time

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient  # noqa: E402

import costmodel as cm  # noqa: E402
from costmodel.report.memo import numbers as f  # noqa: E402
from costmodel.report.web.jobs import SEED  # noqa: E402
from costmodel.report.web.server import create_app  # noqa: E402
from costmodel.report.web.session import Session  # noqa: E402
from tests.support.serve import english_words, visible_text  # noqa: E402

MOVES = {"revenue.price_per_gpu_hour": 15.5, "operations.utilization": 0.72}


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(Session.load(None)), base_url="http://127.0.0.1:8050")


def finished(client, job: str) -> tuple[dict, list[int]]:
    seen = []
    for _ in range(1200):
        doc = client.get(f"/api/jobs/{job}").json()
        seen.append(doc["done"])
        if doc["html"] is not None or doc["error"]:
            return doc, seen
        time.sleep(0.05)
    raise AssertionError(f"job {job} did not finish: {seen[-3:]}")


def test_the_study_on_request_shows_cm_studys_shares(client):
    body = {"overrides": MOVES, "tier": "tens", "from": 16, "to": 64, "n": 1000}
    r = client.post("/api/study", json=body)
    assert r.status_code == 200, r.text
    doc, seen = finished(client, r.json()["job"])
    a = cm.load_assumptions(overrides=MOVES)
    want = cm.study(a, "tens", gpus="16:64", n=1000, seed=SEED)
    assert doc["error"] is None and doc["total"] == 1000 * len(want.gpus) == seen[-1]
    assert seen == sorted(seen)
    shares = re.findall(r'<text[^>]*class="share"[^>]*>([^<]*)</text>', doc["html"])
    assert shares == [f.pct(p, 0) for p in want.cells["p_npv_positive"]]
    zh = client.get(f"/api/jobs/{r.json()['job']}", params={"lang": "zh"}).json()["html"]
    assert english_words(visible_text(zh)) == set()


def test_a_study_the_cli_or_the_page_refuses_is_answered_with_the_message(client):
    bad = client.post("/api/study", json={"tier": "tens", "from": 1, "to": 4, "n": 100})
    assert bad.status_code == 400 and "--gpus '1:4'" in bad.json()["error"]
    big = client.post("/api/study", json={"tier": "tens", "from": 8, "to": 4096, "n": 20000})
    assert big.status_code == 400 and "the page runs at most 1,000,000" in big.json()["error"]
    typed = client.post("/api/study", json={"tier": "tens", "from": 8, "to": 64, "n": "many"})
    assert typed.status_code == 400 and "Traceback" not in typed.text
