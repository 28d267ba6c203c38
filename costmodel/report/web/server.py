"""The Starlette application of ``costmodel serve`` (the ``serve`` extra).

Routes (every POST takes JSON ``{"overrides": {dotted.path: value}, "lang": "en"}``):

- ``GET /`` (``?lang=zh``): the page, for the base values;
- ``POST /api/recompute``: ``{options, charts, values, npv, ms}``: the option
  table and the memo's charts (HTML), each control's value as shown, each tier's
  NPV and the time taken;
- ``POST /api/decision``: ``{html, ms}``: the memo's decision and its cost chart,
  which need the break-even search (asked for by the page after each recompute);
- ``POST /api/scenario``, ``/api/workbook``, ``/api/memo``: the downloads;
- ``POST /api/montecarlo`` (``n``: draws), ``POST /api/sweep`` (``tier``,
  ``from``, ``to``: the GPU range) and ``POST /api/study`` (the same and ``n``,
  draws per size): ``{job}``; ``GET /api/jobs/{job}``:
  ``{done, total, html, error}``;
- ``GET /static/...``: the page's stylesheets and script (bundled templates).

An invalid input is answered with status 400 and ``{"error": message}``, the
message ``costmodel summary --set`` prints for it; any other failure with 500 and
the error's type and message, never a traceback. Nothing is read but the
assumption paths given at start and the bundled templates.

Bounded (README, "Limits"): a body is read as it arrives and refused with 413 as
soon as it passes :data:`MAX_BODY` (a declared ``Content-Length`` above it before
reading anything); JSON nested deeper than :data:`MAX_DEPTH` is refused with 400;
the engine runs in worker threads, at most :data:`ENGINE_THREADS` requests at
once, never on the event loop; runs (Monte Carlo, sweep) are bounded by
:class:`~costmodel.report.web.jobs.Jobs` and refused with 429 when full.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Sequence
from importlib import metadata
from typing import Any

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from costmodel.inputs.errors import AssumptionError, Problem
from costmodel.inputs.model import build
from costmodel.inputs.resources import templates_dir
from costmodel.report.web import riskmap, scale, view
from costmodel.report.web.downloads import memo_html, scenario_yaml, workbook_bytes
from costmodel.report.web.jobs import Jobs, JobsFull
from costmodel.report.web.session import Session, redact

#: what the page may load: its own files, the charts' inline styles, nothing else
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}

#: the static files served, by name: (template file, media type)
STATIC = {
    "memo.css": ("memo.css", "text/css; charset=utf-8"),
    "serve.css": ("serve/serve.css", "text/css; charset=utf-8"),
    "serve.js": ("serve/serve.js", "text/javascript; charset=utf-8"),
}

#: the names of this machine a local page answers to
LOCAL_NAMES = ("127.0.0.1", "localhost", "::1", "[::1]")

#: models kept for the decision that follows a recompute
CACHED = 4

#: the largest request body read (bytes), and the deepest nesting of its JSON
MAX_BODY = 256 * 1024
MAX_DEPTH = 32
#: requests that may run the engine at once (each in a worker thread)
ENGINE_THREADS = 2

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


class BadRequest(Exception):
    """A request the page does not send (not JSON, too large, wrong shape)."""


class TooLarge(BadRequest):
    """A body above :data:`MAX_BODY` (413)."""


def _version() -> str:
    try:
        return metadata.version("costmodel")
    except metadata.PackageNotFoundError:  # pragma: no cover - source tree without install
        return "0+unknown"


async def read_body(request: Request) -> dict[str, Any]:
    """The request's JSON object (:class:`BadRequest` if it is not one)."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        # a form or text/plain POST from another site's page needs no preflight: refused
        raise BadRequest("expected a JSON request (Content-Type: application/json)")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise TooLarge(f"request larger than {MAX_BODY:,} bytes (Content-Length {int(declared):,})")
    chunks, size = [], 0
    async for chunk in request.stream():  # read as it arrives, refused at the cap
        size += len(chunk)
        if size > MAX_BODY:
            raise TooLarge(f"request larger than {MAX_BODY:,} bytes")
        chunks.append(chunk)
    raw = b"".join(chunks)
    try:
        doc = json.loads(raw or b"{}")
    except RecursionError:
        raise BadRequest(f"the request nests deeper than {MAX_DEPTH} levels") from None
    except (ValueError, UnicodeDecodeError):
        raise BadRequest("the request is not JSON") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("overrides", {}), dict):
        raise BadRequest('expected {"overrides": {dotted.path: value}, "lang": "en"}')
    if _depth(doc) > MAX_DEPTH:
        raise BadRequest(f"the request nests deeper than {MAX_DEPTH} levels")
    return doc


def _depth(doc: Any) -> int:
    """How deep lists and objects nest in ``doc`` (walked without recursion)."""
    deepest, todo = 0, [(doc, 1)]
    while todo:
        v, d = todo.pop()
        if isinstance(v, dict | list):
            deepest = max(deepest, d)
            if d <= MAX_DEPTH:
                todo += [(x, d + 1) for x in (v.values() if isinstance(v, dict) else v)]
    return deepest


def _whole(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def attachment(content: bytes | str, name: str, media: str) -> Response:
    headers = dict(HEADERS, **{"Content-Disposition": f'attachment; filename="{name}"'})
    return Response(content, media_type=media, headers=headers)


class Page:
    """The handlers of one session's page (see the module docstring)."""

    def __init__(self, session: Session):
        self.session = session
        self.jobs = Jobs()
        self.files = [str(f) for f in session.files]
        self.cache: dict[str, view.Shown] = {}
        self.notices: dict[str, list[Problem]] = {}  # the advice on each cached model's inputs
        self._cache_lock = threading.Lock()
        self.limiter = anyio.CapacityLimiter(ENGINE_THREADS)

    async def engine(self, fn: Any, *args: Any) -> Any:
        """``fn(*args)`` in a worker thread (at most :data:`ENGINE_THREADS` at once):
        the event loop goes on answering other requests meanwhile."""
        return await anyio.to_thread.run_sync(fn, *args, limiter=self.limiter)

    def failure(self, exc: Exception) -> JSONResponse:
        """An error as the page shows it: the CLI's message for invalid input."""
        if isinstance(exc, TooLarge):
            return JSONResponse({"error": str(exc)}, 413, headers=HEADERS)
        if isinstance(exc, JobsFull):
            headers = dict(HEADERS, **{"Retry-After": "5"})
            return JSONResponse({"error": str(exc)}, 429, headers=headers)
        if isinstance(exc, RecursionError):
            return JSONResponse({"error": "the request nests too deeply"}, 400, headers=HEADERS)
        if isinstance(exc, AssumptionError):
            return JSONResponse({"error": str(exc)}, 400, headers=HEADERS)
        if isinstance(exc, BadRequest | ValueError):
            return JSONResponse({"error": redact(str(exc), self.files)}, 400, headers=HEADERS)
        text = redact(f"{type(exc).__name__}: {exc}", self.files)
        return JSONResponse({"error": text}, 500, headers=HEADERS)

    def guarded(self, handler: Any) -> Any:
        async def run(request: Request) -> Response:
            try:
                return await handler(request)
            except Exception as exc:  # noqa: BLE001 - answered as a message, never a traceback
                return self.failure(exc)

        return run

    def model_for(self, overrides: dict[str, Any]) -> view.Shown:
        """The model of ``overrides`` (validated) as the page shows it; the last few
        kept, so that the decision asked for after a recompute does not build it, or
        analyse it, again."""
        key = json.dumps(overrides, sort_keys=True)
        with self._cache_lock:
            model = self.cache.get(key)
        if model is None:
            a, notices = self.session.checked(overrides)
            model = view.Shown(build(a))
            with self._cache_lock:
                self.cache[key] = model
                self.notices[key] = notices
                for old in list(self.cache)[:-CACHED]:
                    del self.cache[old]
                    self.notices.pop(old, None)
        return model

    async def page(self, request: Request) -> Response:
        lang = view.lang_of(request.query_params.get("lang"))
        return await self.engine(self._page, lang)

    def _page(self, lang: str) -> Response:
        shown = self.model_for({})
        html = view.render_page(self.session, shown, view.result(shown, lang), lang, _version())
        return HTMLResponse(html, headers=HEADERS)

    async def recompute(self, request: Request) -> Response:
        t0 = time.perf_counter()
        return await self.engine(self._recompute, await read_body(request), t0)

    def _recompute(self, doc: dict[str, Any], t0: float) -> Response:
        overrides, lang = doc.get("overrides", {}), view.lang_of(doc.get("lang"))
        shown = self.model_for(overrides)
        model = shown.model
        res = view.result(shown, lang)
        s = model.summary()
        advice = self.notices.get(json.dumps(overrides, sort_keys=True), [])
        out = dict(
            **view.render_result(res, lang),
            values=view.values(self.session, overrides, model.assumptions.currency, lang),
            npv={t: float(s.loc[t, "npv"]) for t in model.tiers},
            notices=[p.parts(lang) for p in advice],
            ms=round((time.perf_counter() - t0) * 1000),
        )
        return JSONResponse(out, headers=HEADERS)

    async def decision(self, request: Request) -> Response:
        t0 = time.perf_counter()
        return await self.engine(self._decision, await read_body(request), t0)

    def _decision(self, doc: dict[str, Any], t0: float) -> Response:
        lang = view.lang_of(doc.get("lang"))
        shown = self.model_for(doc.get("overrides", {}))
        html = view.render_decision(view.decision(shown, lang), lang)
        out = dict(html=html, ms=round((time.perf_counter() - t0) * 1000))
        return JSONResponse(out, headers=HEADERS)

    async def scenario(self, request: Request) -> Response:
        doc = await read_body(request)
        text = await self.engine(scenario_yaml, self.session, doc.get("overrides", {}))
        return attachment(text, "scenario.yaml", "application/yaml; charset=utf-8")

    async def workbook(self, request: Request) -> Response:
        doc = await read_body(request)
        data = await self.engine(workbook_bytes, self.session, doc.get("overrides", {}))
        return attachment(data, "model.xlsx", XLSX)

    async def memo(self, request: Request) -> Response:
        doc = await read_body(request)
        lang = view.lang_of(doc.get("lang"))
        name = "memo.zh.html" if lang == "zh" else "memo.html"
        html = await self.engine(memo_html, self.session, doc.get("overrides", {}), lang)
        return attachment(html, name, "text/html; charset=utf-8")

    async def montecarlo(self, request: Request) -> Response:
        doc = await read_body(request)
        n = doc.get("n", view.DRAWS[0])
        if not _whole(n):
            raise BadRequest("n: a whole number of draws")
        a = await self.engine(self.session.assumptions, doc.get("overrides", {}))
        key = self.jobs.start(a, n)
        return JSONResponse({"job": key}, headers=HEADERS)

    async def sweep(self, request: Request) -> Response:
        doc = await read_body(request)
        tier, lo, hi = doc.get("tier"), doc.get("from"), doc.get("to")
        if not isinstance(tier, str) or not all(_whole(v) for v in (lo, hi)):
            raise BadRequest('expected "tier": a tier, "from" and "to": whole numbers of GPUs')
        a = await self.engine(self.session.assumptions, doc.get("overrides", {}))
        key = await self.engine(scale.start, self.jobs, a, tier, lo, hi)
        return JSONResponse({"job": key}, headers=HEADERS)

    async def study(self, request: Request) -> Response:
        doc = await read_body(request)
        tier, lo, hi, n = doc.get("tier"), doc.get("from"), doc.get("to"), doc.get("n")
        if not isinstance(tier, str) or not all(_whole(v) for v in (lo, hi, n)):
            raise BadRequest(
                'expected "tier": a tier, "from" and "to": whole numbers of GPUs, "n": draws'
            )
        a = await self.engine(self.session.assumptions, doc.get("overrides", {}))
        key = await self.engine(riskmap.start, self.jobs, a, tier, lo, hi, n)
        return JSONResponse({"job": key}, headers=HEADERS)

    async def job(self, request: Request) -> Response:
        lang = view.lang_of(request.query_params.get("lang"))
        j = self.jobs.get(request.path_params["key"])
        if j is None:
            return JSONResponse({"error": "no such run"}, 404, headers=HEADERS)
        error = redact(j.error, self.files) if j.error else None
        html = await self.engine(j.html, lang) if j.result is not None else None
        if html is not None or error is not None:
            self.jobs.fetched(request.path_params["key"])
        out = dict(done=j.done, total=j.total, html=html, error=error)
        return JSONResponse(out, headers=HEADERS)

    async def static(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return Response("not found", 404, media_type="text/plain", headers=HEADERS)
        file, media = STATIC[name]
        text = (templates_dir() / file).read_text(encoding="utf-8")
        return Response(text, media_type=media, headers=HEADERS)


def create_app(session: Session, hosts: Sequence[str] | None = LOCAL_NAMES) -> Starlette:
    """The application serving ``session``'s page, answering only requests whose
    ``Host`` is one of ``hosts`` (by default this machine's names: another site's
    name rebound to 127.0.0.1 cannot read the page; None: any host, for a page
    served to the network)."""
    p = Page(session)
    post = ["POST"]
    routes = [
        Route("/", p.guarded(p.page)),
        Route("/api/recompute", p.guarded(p.recompute), methods=post),
        Route("/api/decision", p.guarded(p.decision), methods=post),
        Route("/api/scenario", p.guarded(p.scenario), methods=post),
        Route("/api/workbook", p.guarded(p.workbook), methods=post),
        Route("/api/memo", p.guarded(p.memo), methods=post),
        Route("/api/montecarlo", p.guarded(p.montecarlo), methods=post),
        Route("/api/sweep", p.guarded(p.sweep), methods=post),
        Route("/api/study", p.guarded(p.study), methods=post),
        Route("/api/jobs/{key}", p.guarded(p.job)),
        Route("/static/{name}", p.guarded(p.static)),
        Route("/favicon.ico", lambda _: Response(status_code=204, headers=HEADERS)),
    ]
    middleware = [] if hosts is None else [Middleware(TrustedHostMiddleware, allowed_hosts=hosts)]
    return Starlette(routes=routes, middleware=middleware)
