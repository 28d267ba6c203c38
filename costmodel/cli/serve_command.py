"""``costmodel serve [PATHS] [--port 8050] [--host 127.0.0.1]``: the what-if page
(:mod:`costmodel.report.web`), served by uvicorn (the ``serve`` extra:
``pip install costmodel[serve]``)."""

from __future__ import annotations

from typing import Annotated

import typer

from costmodel.cli.app import ExampleOpt, PathsArg, app, err, guard, usage_error, with_example

#: hosts that only this machine reaches
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def network_warning(host: str, port: int) -> str | None:
    """The warning printed when the page is bound to an address other machines reach."""
    if host in LOCAL_HOSTS:
        return None
    return (
        f"warning: serving on {host}:{port}: the page is reachable from the network; anyone "
        "who reaches it can read the model's assumptions and run the engine "
        "(bind to 127.0.0.1, the default, to keep it on this machine)"
    )


@app.command("serve")
def serve_cmd(
    paths: PathsArg = None,
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8050,
    host: Annotated[
        str,
        typer.Option(help="Address to bind (127.0.0.1: this machine only; 0.0.0.0: the network)."),
    ] = "127.0.0.1",
    example: ExampleOpt = None,
) -> None:
    """Serve a what-if page on the model: sliders for every ranged input, each change
    recomputed on the engine (option table, the memo's decision and charts), Monte
    Carlo on request, and downloads of the scenario overlay, workbook and memo."""

    def run() -> None:
        try:
            import uvicorn

            from costmodel.report.web.server import create_app
        except ImportError as exc:
            usage_error(
                f"costmodel serve needs the serve extra ({exc.name} is missing): "
                "pip install 'costmodel[serve]'"
            )
        from costmodel.report.web.session import Session

        session = Session.load(with_example(paths, example))
        warning = network_warning(host, port)
        if warning:
            err().print(warning, style="bold yellow", highlight=False, soft_wrap=True)
        where = f"[{host}]" if ":" in host else host
        err().print(f"costmodel serve: http://{where}:{port}/ (Ctrl+C to stop)", highlight=False)
        hosts = None if warning else LOCAL_HOSTS + ("[::1]",)
        uvicorn.run(create_app(session, hosts), host=host, port=port, log_level="warning")

    guard(run)
