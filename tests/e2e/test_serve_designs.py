"""The what-if page of a file with scale-class designs (methodology §28) in headless
Chromium: each option shows the design it takes, and moving a tier's GPU slider
across a class boundary rebuilds it on the next design (cooling, rack power, storage
nodes and bandwidth), as the engine built with that count does; the slider moves by
whole servers, so no position is a count the model refuses."""

from __future__ import annotations

import socket
import threading
import time

import pytest

import costmodel as cm
from costmodel.report.web.view import build_line
from tests.e2e.test_serve_browser import CHROMIUM, READY, move, need, shown_npv
from tests.paths import DATA

pytestmark = pytest.mark.slow

GPUS = "tiers.hundreds.gpus"
RANGED = "tiers:\n  hundreds:\n    gpus: {value: 128, low: 64, high: 448}\n"


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> list[str]:
    overlay = tmp_path_factory.mktemp("designs-page") / "gpus-range.yaml"
    overlay.write_text(RANGED, encoding="utf-8")
    return [str(DATA / "designs.yaml"), str(overlay)]


@pytest.fixture(scope="module")
def url(files):
    need(CHROMIUM, "chromium is not installed (Debian: apt-get install chromium)")
    uvicorn = pytest.importorskip("uvicorn")
    from costmodel.report.web.server import create_app
    from costmodel.report.web.session import Session

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(create_app(Session.load(files)), host="127.0.0.1", port=port,
                            log_level="warning")  # fmt: skip
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/"
    server.should_exit = True
    thread.join(10)


@pytest.fixture
def page(url):
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        need(False, "playwright is not installed (pip install -e '.[test]')")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        pg = b.new_page(viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        pg.errors = errors  # type: ignore[attr-defined]
        yield pg
        b.close()


def build_text(pg, tier: str) -> str:
    return pg.locator(f'small.build[data-tier="{tier}"]').inner_text()


def test_a_gpu_slider_across_a_class_boundary_rebuilds_the_design(page, url, files):
    base = cm.build(cm.load_assumptions(*files)).summary()
    page.goto(url)
    page.wait_for_function("() => document.body.dataset.state === 'ready'")
    before = build_text(page, "hundreds")
    assert before == build_line(base.loc["hundreds"], "en")
    assert before.startswith("design hundreds · Air cooling, 25 kW/rack")
    gpus = move(page, GPUS, "End", 1)  # 448 + the stage's 64 = 512 GPUs: thousands
    assert gpus == 448
    page.wait_for_function(
        READY + " && document.querySelector('small.build[data-tier=\"hundreds\"]')"
        ".textContent.startsWith('design thousands')"
    )
    rebuilt = cm.build(cm.load_assumptions(*files, overrides={GPUS: 448})).summary()
    row = rebuilt.loc["hundreds"]
    assert (row["design"], row["cooling"], row["rack_kw"]) == ("thousands", "cold_plate", 60)
    # 512 GPUs of the thousands design: writes 128 / 20 -> 7 nodes (reads 256 / 40 -> 7)
    assert row["storage_nodes"] == 7
    assert build_text(page, "hundreds") == build_line(row, "en")
    assert "7 storage nodes, 140 GB/s" in build_text(page, "hundreds")
    value, _ = shown_npv(page)["hundreds"]
    assert value == pytest.approx(float(row["npv"]), rel=1e-11)
    # one step back is one server (the slider moves by whole servers): 440 + 64 = 504
    # GPUs, the hundreds design again
    assert move(page, GPUS, "ArrowLeft", 1) == 440
    page.wait_for_function(
        READY + " && document.querySelector('small.build[data-tier=\"hundreds\"]')"
        ".textContent.startsWith('design hundreds')"
    )
    assert page.errors == []  # type: ignore[attr-defined]
