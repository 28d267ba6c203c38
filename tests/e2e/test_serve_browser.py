"""The what-if page in a real browser: headless Chromium (Debian's, driven by
Playwright through ``executable_path``; no browser download) opens the page served
by uvicorn, moves the price and the utilization slider with the keyboard, and the
NPVs shown must equal ``costmodel summary --set`` for the values the sliders
reached; the saved scenario rebuilt equals the page; the Chinese page shows no
English outside product names; screenshots at 1280 and 390 px are not blank, and
the page logs no error (a Content-Security-Policy violation is one).

Skipped with the reason when Chromium or Playwright is missing, unless the
environment variable CI is set: then it fails.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

import costmodel as cm
from costmodel.report.memo import numbers as f
from tests.support.png import grey
from tests.support.serve import cli_npv, english_words

pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or (
    "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
)
PRICE = "revenue.price_per_gpu_hour"
UTIL = "operations.utilization"
READY = """() => document.body.dataset.state === 'ready'
                && document.body.dataset.decision !== 'busy'
                && Number(document.body.dataset.version) > 0"""


def need(ok: object, reason: str) -> None:
    if ok:
        return
    if os.environ.get("CI"):
        pytest.fail(f"CI: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def url():
    """The page of the bundled default, served by uvicorn in a thread."""
    need(CHROMIUM, "chromium is not installed (Debian: apt-get install chromium)")
    uvicorn = pytest.importorskip("uvicorn")
    from costmodel.report.web.server import create_app
    from costmodel.report.web.session import Session

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(create_app(Session.load(None)), host="127.0.0.1", port=port,
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


@pytest.fixture(scope="module")
def browser(url):
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        need(False, "playwright is not installed (pip install -e '.[test]')")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(accept_downloads=True, viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning") else None)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.errors = errors  # type: ignore[attr-defined]
    yield pg
    context.close()


def slider(pg, path: str):
    return pg.locator(f'input[type=range][data-path="{path}"]')


def move(pg, path: str, key: str, times: int) -> float:
    """Press ``key`` ``times`` on the slider of ``path``; the value it reached, as
    the page sends it (rounded to the slider's decimals)."""
    s = slider(pg, path)
    s.focus()
    for _ in range(times):
        s.press(key)
    return float(s.evaluate("el => Number(Number(el.value).toFixed(Number(el.dataset.decimals)))"))


def shown_npv(pg) -> dict[str, tuple[float, str]]:
    cells = pg.locator('td[data-metric="npv"]')
    out = {}
    for i in range(cells.count()):
        c = cells.nth(i)
        out[c.get_attribute("data-tier")] = (float(c.get_attribute("data-value")), c.inner_text())
    return out


def not_blank(png: Path, width: int) -> None:
    """A screenshot of the right width with text on it; copied to the folder named
    by ``COSTMODEL_SCREENSHOTS`` when set (to look at them)."""
    keep = os.environ.get("COSTMODEL_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(png, Path(keep) / png.name)
    img = grey(png)
    assert img.shape[1] == width
    assert img.std() > 20, "screenshot looks blank"
    assert 0.01 < (img < 128).mean() < 0.6


def screenshots(page, folder: Path, name: str, fits: bool = False) -> None:
    """Full-page screenshots at 1280 and 390 px, ``<name>-<width>.png``, each
    :func:`not_blank`; with ``fits``, the page is no wider than the window."""
    for w in (1280, 390):
        page.set_viewport_size({"width": w, "height": 900})
        page.evaluate("window.scrollTo(0, 0)")
        png = folder / f"{name}-{w}.png"
        page.screenshot(path=str(png), full_page=True)
        not_blank(png, w)
        if fits:
            assert page.evaluate("document.documentElement.scrollWidth") <= w


def test_sliders_recompute_to_the_clis_numbers_and_the_scenario_rebuilds(page, url, tmp_path):
    base = cm.load_assumptions()
    price0, util0 = base.revenue.price_per_gpu_hour.value, base.operations.utilization.value
    page.goto(url)
    steps = {p: float(slider(page, p).get_attribute("step")) for p in (PRICE, UTIL)}
    price = move(page, PRICE, "ArrowRight", 20)  # 20 steps up (0.01 each: 0.2)
    util = move(page, UTIL, "ArrowRight", 50)  # 50 steps up (0.001 each: 0.050)
    assert price == pytest.approx(price0 + 20 * steps[PRICE], abs=1e-9)
    assert util == pytest.approx(util0 + 50 * steps[UTIL], abs=1e-9)
    page.wait_for_function(
        READY + " && document.querySelector('output[data-path=\"operations.utilization\"]')"
        f".textContent === '{util * 100:.1f}%'"
    )
    page.wait_for_function(READY)
    shown = shown_npv(page)
    cli = cli_npv([f"{PRICE}={price}", f"{UTIL}={util}"])
    assert shown.keys() == cli.keys()
    for t, (value, text) in shown.items():
        assert value == pytest.approx(cli[t], rel=1e-11)
        assert text == f.money(cli[t], "en", "CNY")
    assert page.locator("output[data-path='revenue.price_per_gpu_hour']").inner_text() == (
        f"{price:.2f}"
    )
    assert page.locator("#moved").inner_text() == "Inputs moved: 2."
    # the tens tier sets its own price: the page says the global slider does not reach it
    notice = page.locator("#notices")
    assert notice.is_visible()
    assert "shadowed for tier tens by tiers.tens.revenue.price_per_gpu_hour" in notice.inner_text()

    with page.expect_download() as dl:
        page.click("#save")
    saved = tmp_path / "scenario.yaml"
    dl.value.save_as(saved)
    assert dl.value.suggested_filename == "scenario.yaml"
    rebuilt = cm.build(cm.load_assumptions("default", saved)).summary()["npv"]
    for t, (value, _) in shown.items():
        assert rebuilt[t] == value

    page.click("#run-mc")
    page.wait_for_selector("#mc-result table", timeout=60_000)
    assert page.locator("#mc-result tbody tr").count() == len(shown)
    screenshots(page, tmp_path, "serve-en")
    assert page.errors == []  # type: ignore[attr-defined]


def test_bad_value_shows_the_clis_message(page, url):
    page.goto(url)
    page.wait_for_load_state("networkidle")
    page.evaluate(
        """async () => {
            const r = await fetch('api/recompute', {method: 'POST',
              headers: {'Content-Type': 'application/json'},
              body: JSON.stringify({overrides: {'operations.utilization': 1.5}})});
            document.body.dataset.answer = JSON.stringify([r.status, await r.json()]);
        }"""
    )
    status, doc = __import__("json").loads(page.evaluate("document.body.dataset.answer"))
    assert status == 400 and "must be a fraction between 0 and 1" in doc["error"]


def test_chinese_page_shows_no_english_outside_product_names(page, url, tmp_path):
    page.goto(url + "?lang=zh")
    # the utilization, which the tens tier sets for itself: the recomputed parts and
    # the advice that the global slider does not reach that tier, in Chinese too
    move(page, UTIL, "ArrowLeft", 10)
    page.wait_for_function(READY)
    assert page.locator("#notices").is_visible()
    assert "不读取此值" in page.locator("#notices").inner_text()
    text = page.inner_text("body")
    # file names, paths and values, as code (the longest first: a tier's key is part
    # of the path that names it)
    for name in sorted(page.locator("code").all_inner_texts(), key=len, reverse=True):
        text = text.replace(name, " ")
    assert english_words(text) == set()
    assert "数十卡方案（32 张 H200）" in text and "已调整的输入：1 项。" in text
    screenshots(page, tmp_path, "serve-zh")
    assert page.errors == []  # type: ignore[attr-defined]


def test_sweep_on_request_shows_the_memos_chart_and_the_options_own_row(page, url, tmp_path):
    page.goto(url)
    page.wait_for_load_state("networkidle")
    a = cm.load_assumptions()
    g0 = int(a.tiers["hundreds"].gpus)
    page.select_option("#sweep-tier", "hundreds")
    # the CLI's default range: a server to max(4096, 4 x the tier's GPUs)
    g = int(a.servers[a.tiers["hundreds"].server].gpus_per_server)
    assert (page.input_value("#sweep-from"), page.input_value("#sweep-to")) == (
        str(g),
        str(max(4096, 4 * g0)),
    )
    page.click("#run-sweep")
    page.wait_for_selector("#sweep-result table.sweep", timeout=60_000)
    bar = page.locator("#sweep-progress")
    assert bar.get_attribute("value") == bar.get_attribute("max")
    chart = page.locator("#sweep-result figure svg")
    assert chart.count() >= 1 and page.locator("#sweep-result path.line").count() == 2
    own = page.locator(f'#sweep-result tr[data-gpus="{g0}"]')
    assert own.get_attribute("class").split()[0] == "own"
    cost = own.locator('td[data-metric="cost_per_gpu_hour"]')
    summary = cm.build(a).summary().loc["hundreds", "cost_per_gpu_hour"]
    assert float(cost.get_attribute("data-value")) == pytest.approx(summary, rel=1e-9)
    shown = page.locator('#options td[data-tier="hundreds"][data-metric="cost_per_gpu_hour"]')
    assert cost.inner_text() == shown.inner_text() == f.price(summary, "en", "CNY")
    screenshots(page, tmp_path, "serve-sweep-en", fits=True)
    assert page.errors == []  # type: ignore[attr-defined]
