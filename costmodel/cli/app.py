"""What every ``costmodel`` command shares: the Typer app, option types, the
consoles, loading with ``--set`` and error handling.

Module-level imports are Typer and the standard library only: ``costmodel
--help`` loads no numerical library. Commands import what they need when run.

Exit status of every command: 0 on success, 2 on invalid input (message on
stderr, nothing written), 1 on any other error.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from costmodel.inputs.model import Model
    from costmodel.inputs.schema import Assumptions

#: ``rich_markup_mode=None``: help and usage errors in Click's plain format. Typer's
#: rich panels import ``typer.rich_utils`` (rich.markdown, markdown-it, pygments),
#: which made ``costmodel --help`` cost 2.5x a bare ``import typer, rich``; plain,
#: 1.2x. Results are still printed with rich tables.
app = typer.Typer(
    add_completion=True,
    no_args_is_help=True,
    rich_markup_mode=None,
    help="Cost, cash flow and return of GPU compute centers by scale tier.",
)


def _version(show: bool) -> None:
    if show:
        from importlib.metadata import version

        typer.echo(f"costmodel {version('costmodel')}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Cost, cash flow and return of GPU compute centers by scale tier."""


def out() -> Console:
    """The console of results (stdout), made for each use: a console fixes its width
    from ``COLUMNS`` and the terminal when it is made, and one process (a test
    session, a script calling the app twice) may change both between commands."""
    from rich.console import Console

    return Console(markup=False, emoji=False)


def err() -> Console:
    """The console of messages (stderr), made for each use as :func:`out`.

    Both consoles print text as it is: messages and tables carry text from input
    files (names, values, a workbook's cells), so rich markup (``[/x]``,
    ``[link=...]``) and emoji codes (``:x:``) are off; styles are given as
    ``style=``, never inside the text."""
    from rich.console import Console

    return Console(stderr=True, markup=False, emoji=False, highlight=False)


def print_error(message: str) -> None:
    """``error: message`` on stderr, the message printed as typed."""
    console = err()
    console.print("error:", style="bold red", end=" ")
    console.print(message, soft_wrap=True)


class Format(str, Enum):
    table = "table"
    csv = "csv"
    json = "json"


#: kept as typed (str, not Path) so that ``./default`` stays a folder while
#: ``default`` names the bundled default
PathsArg = Annotated[
    list[str] | None,
    typer.Argument(
        help="Assumption files or directories, merged in order; the word default is "
        "the bundled default (also the default when none is given)."
    ),
]
ExampleOpt = Annotated[
    str | None,
    typer.Option(
        "--example",
        help="Start from a bundled example model instead of the default (e.g. us-neocloud).",
    ),
]


def with_example(paths: list[str] | None, example: str | None) -> list[str] | None:
    """``paths`` with the bundled example ``example`` (if any) merged first."""
    if example is None:
        return paths
    return [f"example:{example}", *(paths or [])]


FormatOpt = Annotated[Format, typer.Option("--format", "-f", help="table, csv or json.")]
SetOpt = Annotated[
    list[str] | None,
    typer.Option("--set", help="Override one input: dotted.path=value (repeatable)."),
]
StrictOpt = Annotated[
    bool,
    typer.Option(
        "--strict",
        help="Refuse (exit 2) what is otherwise a warning: an override a tier shadows, "
        "a value far outside its documented range.",
    ),
]


QuietOpt = Annotated[
    bool, typer.Option("--quiet", "-q", help="No progress display (it shows only on a terminal).")
]
VerboseOpt = Annotated[bool, typer.Option("--verbose", "-v", help="Print more detail.")]


class Steps:
    """Progress of a long command on stderr: a spinner, the step and, where the
    step counts (``update(done, total)``), how far it is. Shown only when stderr is a terminal
    and not ``quiet``; otherwise every call does nothing."""

    def __init__(self, quiet: bool = False):
        self.shown = not quiet and err().is_terminal
        self._bar: Any = None
        self._task: Any = None
        self._label = ""
        self._started: tuple[float, int] | None = None

    def __enter__(self) -> Steps:
        if self.shown:
            from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

            self._bar = Progress(
                SpinnerColumn(),
                TextColumn("{task.description}"),
                TimeElapsedColumn(),
                console=err(),
                transient=True,
            )
            self._bar.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.__exit__(*exc)

    def step(self, label: str, total: int | None = None) -> None:
        """Start step ``label`` (the previous one is done)."""
        if self._bar is None:
            return
        if self._task is not None:
            self._bar.remove_task(self._task)
        self._label = label
        self._started = None
        self._task = self._bar.add_task(label, total=total)

    def update(self, done: int, total: int | None = None) -> None:
        """``done`` of ``total`` units of the current step, with the share done and
        the time left (:func:`progress_text`)."""
        if self._bar is not None and self._task is not None:
            import time

            now = time.monotonic()
            if self._started is None or done == 0:
                self._started = (now, done)
            t0, d0 = self._started
            text = progress_text(self._label, done, total, now - t0, done - d0)
            self._bar.update(self._task, description=text)


def progress_text(label: str, done: int, total: int | None, elapsed_s: float, since: int) -> str:
    """``label: done of total (p%, about t left)``; the time left is the rate so far,
    ``since`` units in ``elapsed_s`` seconds, applied to what remains
    (``(total - done) × elapsed_s / since``), shown once something was done."""
    if not total:
        return f"{label}: {done:,}"
    text = f"{label}: {done:,} of {total:,} ({done / total:.0%}"
    if since > 0 and elapsed_s > 0 and done < total:
        left = (total - done) * elapsed_s / since
        text += f", about {_duration(left)} left"
    return text + ")"


def _duration(seconds: float) -> str:
    """``45 s``, ``3 min 20 s``, ``2 h 05 min``."""
    s = int(round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


def guard(fn: Callable[[], Any]) -> None:
    """Run ``fn``; map invalid input to exit 2 and other failures to exit 1."""
    import warnings

    from costmodel.inputs.errors import AssumptionError, AssumptionWarning, UnitNote

    shown = warnings.showwarning

    def advice(message: Any, category: Any, *args: Any, **kwargs: Any) -> None:
        # advice on the inputs (methodology §2.6): one line on stderr, as an error is
        if isinstance(message, AssumptionWarning):
            word = "note" if isinstance(message, UnitNote) else "warning"
            err().print(f"[bold yellow]{word}:[/] ", end="", markup=True)
            err().print(str(message), markup=False, highlight=False, soft_wrap=True)
        else:
            shown(message, category, *args, **kwargs)

    try:
        with warnings.catch_warnings():
            # numpy's overflow and invalid-value warnings from inputs too large to
            # compute with: such results are empty cells, and `build` names the input
            warnings.filterwarnings("ignore", category=RuntimeWarning, module="costmodel")
            warnings.filterwarnings("ignore", "overflow encountered", RuntimeWarning)
            warnings.simplefilter("always", AssumptionWarning)
            warnings.showwarning = advice
            fn()
    except (AssumptionError, UsageError) as exc:
        print_error(str(exc))
        raise typer.Exit(2) from None
    except typer.Exit:
        raise
    except OutputError as exc:
        print_error(str(exc))
        raise typer.Exit(1) from None
    except Exception as exc:  # noqa: BLE001 - the CLI reports, the library raises
        print_error(f"{type(exc).__name__}: {exc}")
        raise typer.Exit(1) from None


class UsageError(Exception):
    """A command given something it cannot use (exit 2, nothing written)."""


class OutputError(Exception):
    """The output could not be written (a full disk, no permission; exit 1)."""


def os_error_of(exc: BaseException) -> OSError | None:
    """The operating-system error behind ``exc`` (itself, one it wraps, e.g.
    XlsxWriter's ``FileCreateError``, or its cause), or None."""
    seen: set[int] = set()
    todo: list[BaseException | None] = [exc]
    while todo:
        e = todo.pop()
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        if isinstance(e, OSError) and e.errno is not None:
            return e
        if isinstance(e, OSError) and e.args and isinstance(e.args[0], list):
            first = _copy_error(e.args[0])  # shutil.Error: (src, dst, "[Errno N] reason")
            if first is not None:
                return first
        todo += [a for a in getattr(e, "args", ()) if isinstance(a, BaseException)]
        todo += [e.__cause__, e.__context__]
    return None


def _copy_error(items: list) -> OSError | None:
    """The first ``(src, dst, "[Errno N] reason")`` of a ``shutil.Error`` as an OSError."""
    import re

    for item in items:
        if isinstance(item, tuple) and len(item) == 3:
            m = re.match(r"\[Errno (\d+)\] ([^:]*)", str(item[2]))
            if m:
                return OSError(int(m.group(1)), m.group(2).strip(), str(item[1]))
    return None


def _quiet_zip_cleanup() -> None:
    """After a failed write, a half-written zip file (the workbook) is closed again
    when it is garbage-collected and fails again, which Python reports as an
    'Exception ignored in ZipFile.__del__' traceback: the error was reported
    already, so that report is dropped (only that one). Installed once per process,
    however many writes fail."""
    previous = sys.unraisablehook
    if getattr(previous, "quiet_zip_cleanup", False):
        return

    def hook(u: Any) -> None:
        if isinstance(u.exc_value, OSError) and "ZipFile" in repr(u.object):
            return
        previous(u)

    hook.quiet_zip_cleanup = True  # type: ignore[attr-defined]
    sys.unraisablehook = hook


@contextlib.contextmanager
def writing(out_dir: Path) -> Iterator[None]:
    """Turn a failure to write into ``out_dir`` into an :class:`OutputError` that
    names the folder and the system's reason and says the folder kept its files."""
    try:
        yield
    except Exception as exc:
        os_err = os_error_of(exc)
        if os_err is None:
            raise
        from costmodel.report.output import PreviousSetNotRestored

        reason = os_err.strerror or str(os_err)
        where = f" ({os_err.filename})" if os_err.filename else ""
        _quiet_zip_cleanup()
        lost = next((e for e in (exc, os_err) if isinstance(e, PreviousSetNotRestored)), None)
        if lost is not None:  # the one case where the folder is not as it was
            raise OutputError(
                f"cannot write {out_dir}: {reason}{where}; the previous "
                f"{', '.join(lost.names)} could not be put back: they are in {lost.kept}"
            ) from None
        raise OutputError(
            f"cannot write {out_dir}: {reason}{where}; nothing was written, "
            f"and {out_dir} keeps the files it had"
        ) from None


def usage_error(message: str) -> None:
    """Stop with ``message`` on stderr and exit status 2 (nothing is written)."""
    raise UsageError(message)


#: suffixes of files the commands write: ``-o`` naming one is taken for a file name
FILE_SUFFIXES = frozenset(
    {".xlsx", ".xls", ".html", ".htm", ".pdf", ".csv", ".json", ".yaml", ".yml", ".txt", ".zip"}
)


def check_out_dir(path: Path) -> None:
    """An output directory must be a directory (or not exist yet, under directories);
    a path that does not exist and ends like a file (``out/x.xlsx``) is refused
    rather than created as a folder named like a file."""
    if path.exists() and not path.is_dir():
        usage_error(f"-o {path}: is a file; give a directory (it is created if missing)")
    if not path.exists() and path.suffix.lower() in FILE_SUFFIXES:
        usage_error(
            f"-o {path}: names a file; -o takes the output directory (the files are "
            f"named model.xlsx, memo.html, memo.zh.html), e.g. -o {path.parent}"
        )
    for parent in path.parents:
        if parent.exists() and not parent.is_dir():
            usage_error(f"-o {path}: {parent} is a file; give a directory")


def load(paths: list[str] | None, sets: list[str] | None, strict: bool = False) -> Assumptions:
    """Load ``paths`` (the bundled default if none) with the ``--set`` overrides;
    with ``strict`` the advice (methodology §2.6) is an error, else a warning."""
    from costmodel.inputs.loader import load_assumptions, parse_override

    overrides = dict(parse_override(s) for s in (sets or []))
    return load_assumptions(*(paths or []), overrides=overrides, strict=strict)


def built(
    paths: list[str] | None, sets: list[str] | None, strict: bool = False
) -> tuple[Assumptions, Model]:
    """The assumptions, as :func:`load` reads them, and their model."""
    from costmodel.inputs.model import build

    a = load(paths, sets, strict)
    return a, build(a)


def emit(
    fmt: Format, doc: Callable[[], Any], csv: Callable[[], str], table: Callable[[], None]
) -> None:
    """Print a command's result as ``fmt`` asks: ``doc()`` as JSON, the text
    ``csv()``, or ``table()``, which prints (and imports) its rich tables itself.
    Only the chosen one is computed."""
    if fmt is Format.json:
        write_json(doc())
    elif fmt is Format.csv:
        from costmodel.report.format import csv_safe

        write_text(csv_safe(csv()))  # text cells never start a spreadsheet formula
    else:
        table()


def machine(doc: Any) -> Any:
    """``doc`` with every number as :func:`costmodel.report.format.plain` writes
    it (rounded to 12 significant digits; NaN and infinities as None)."""
    from costmodel.report.format import plain

    if isinstance(doc, dict):
        return {str(k): machine(v) for k, v in doc.items()}
    if isinstance(doc, list | tuple):
        return [machine(v) for v in doc]
    return plain(doc)


def write_json(doc: Any) -> None:
    """Print ``doc`` as indented, strictly valid JSON on stdout (no NaN)."""
    import json
    import sys

    text = json.dumps(machine(doc), indent=2, ensure_ascii=False, allow_nan=False)
    sys.stdout.write(text + "\n")


def write_text(text: str) -> None:
    """Print ``text`` as it is on stdout (CSV)."""
    import sys

    sys.stdout.write(text)
