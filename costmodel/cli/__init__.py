"""Layer 5, cli: the ``costmodel`` command. Thin: parse, call the layers below,
print. Heavy libraries are imported inside the commands, so ``--help`` is fast.

Commands: :mod:`~costmodel.cli.model_commands` (build, summary, recommend, validate,
init, schema), :mod:`~costmodel.cli.analysis_commands` (sensitivity, montecarlo),
:mod:`~costmodel.cli.study_command` (study), :mod:`~costmodel.cli.compare` (compare,
build-vs-rent),
:mod:`~costmodel.cli.import_command` (import) and
:mod:`~costmodel.cli.serve_command` (serve, the what-if page).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import typer


#: in the order ``costmodel --help`` lists their commands
COMMAND_MODULES = (
    "model_commands",
    "analysis_commands",
    "study_command",
    "compare",
    "import_command",
    "serve_command",
)


def get_app() -> typer.Typer:
    """The Typer app with every command registered."""
    from importlib import import_module

    from costmodel.cli.app import app

    for commands in COMMAND_MODULES:  # importing a module registers its commands
        import_module(f"costmodel.cli.{commands}")
    return app


def main() -> None:
    """Entry point of the ``costmodel`` console script."""
    get_app()()
