"""Layer 5, cli: the ``costmodel`` command. Thin: parse, call the layers below,
print. Heavy libraries are imported inside the commands, so ``--help`` is fast.

Commands: :mod:`~costmodel.cli.model` (build, summary, recommend, validate,
init, schema), :mod:`~costmodel.cli.analysis` (sensitivity, montecarlo) and
:mod:`~costmodel.cli.compare` (compare, build-vs-rent).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import typer


def get_app() -> typer.Typer:
    """The Typer app with every command registered."""
    from costmodel.cli import analysis, compare, model  # noqa: F401 - registers the commands
    from costmodel.cli.app import app

    return app


def main() -> None:
    """Entry point of the ``costmodel`` console script."""
    get_app()()
