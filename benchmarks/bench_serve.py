"""The what-if page's recompute time on the bundled default (``costmodel serve``),
against the target of issue 33: a round trip under 100 ms on this machine.

uvicorn serves the page on a free port of 127.0.0.1 in a thread; each request
moves the utilization to a new value (nothing is served from the page's cache of
the last models), as a slider does. Wall-clock milliseconds per request, the
median and the 90th percentile of 30:

- ``recompute``: POST /api/recompute, the option table, the memo's charts of NPV,
  cash, capex and opex and every control's value: what the page shows first;
- ``decision``: POST /api/decision that the page sends after it, the memo's
  decision and its cost chart (the break-even search of every tier);
- the two together, the time until the whole page has followed the slider.

Each also as CPU milliseconds of the process (server and client): on a machine that
other jobs share, the wall clock waits for the cores and the CPU time does not.

Run: python benchmarks/bench_serve.py   (needs the serve extra)
"""

from __future__ import annotations

import json
import os
import socket
import statistics
import threading
import time
import urllib.request

TARGET_MS = 100.0
N = 30


def post(url: str, doc: dict) -> tuple[float, float]:
    """Wall-clock milliseconds of one POST of ``doc`` as JSON (the body read to its
    end), and the CPU milliseconds of this process meanwhile (the server runs in a
    thread of it: its work, the client's and the transport's)."""
    req = urllib.request.Request(
        url, json.dumps(doc).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    t0, c0 = time.perf_counter(), time.process_time()
    with urllib.request.urlopen(req) as r:
        r.read()
        assert r.status == 200
    return (time.perf_counter() - t0) * 1e3, (time.process_time() - c0) * 1e3


def serve() -> tuple[str, object]:
    import uvicorn

    from costmodel.report.web.server import create_app
    from costmodel.report.web.session import Session

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(create_app(Session.load(None)), host="127.0.0.1", port=port,
                            log_level="warning")  # fmt: skip
    server = uvicorn.Server(config)
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.02)
    return f"http://127.0.0.1:{port}", server


def line(name: str, ms: list[float], target: float | None = None) -> str:
    med, p90 = statistics.median(ms), statistics.quantiles(ms, n=10)[-1]
    verdict = ""
    if target is not None:
        verdict = f"  [{'met' if med < target else 'MISSED'}, target < {target:.0f} ms]"
    return f"{name:<24} median {med:6.1f} ms   p90 {p90:6.1f} ms{verdict}"


def main() -> None:
    base, server = serve()
    for i in range(3):  # warm: templates compiled, first model built
        doc = {"overrides": {"operations.utilization": 0.5 + i / 1000}, "lang": "en"}
        post(f"{base}/api/recompute", doc)
        post(f"{base}/api/decision", doc)
    wall: dict[str, list[float]] = {"recompute": [], "decision": [], "both": []}
    cpu: dict[str, list[float]] = {"recompute": [], "decision": [], "both": []}
    for i in range(N):
        doc = {"overrides": {"operations.utilization": 0.6 + (i + 1) / 1000}, "lang": "en"}
        a, a_cpu = post(f"{base}/api/recompute", doc)
        b, b_cpu = post(f"{base}/api/decision", doc)
        for d, x, y in ((wall, a, b), (cpu, a_cpu, b_cpu)):
            d["recompute"].append(x)
            d["decision"].append(y)
            d["both"].append(x + y)
    load = os.getloadavg()[0]
    print(f"costmodel serve, bundled default, {N} slider moves, one client "
          f"(load average {load:.1f} on {os.cpu_count()} cores)")  # fmt: skip
    for kind, d in (("wall", wall), ("CPU", cpu)):
        print(line(f"recompute, {kind}", d["recompute"], TARGET_MS))
        print(line(f"decision, {kind}", d["decision"]))
        print(line(f"whole page, {kind}", d["both"], TARGET_MS))
    server.should_exit = True  # type: ignore[attr-defined]


if __name__ == "__main__":
    main()
