"""What one ``costmodel serve`` holds: the assumptions read from the paths it was
given (only those), the ranged inputs the page may move, and each request's
overrides validated exactly as ``costmodel summary --set PATH=VALUE`` validates
them (the same parser, loader and rules, the same message).

A message shown in the page names no file path of the machine: a file is named
by its folder and file name (``default/40-operations.yaml:12``), as the memo does.
"""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from costmodel.analysis.sensitivity import RangedInput, ranged_inputs
from costmodel.inputs.errors import AssumptionError, AssumptionWarning, Problem
from costmodel.inputs.loader import assumption_files, layer, load_assumptions, parse_override
from costmodel.inputs.schema import Assumptions

#: an absolute path left in a message after the known files were renamed
_ABSOLUTE = re.compile(r"(?:[A-Za-z]:)?[/\\](?:[^\s/\\:'\"]+[/\\])+([^\s/\\:'\"]+)")

#: the most overrides one request may carry
MAX_OVERRIDES = 500


def display_name(path: str | Path) -> str:
    """``parent/name`` of a file: enough to tell the files apart, no home path."""
    p = Path(path)
    return f"{p.parent.name}/{p.name}" if p.parent.name else p.name


def redact(text: str, files: list[str]) -> str:
    """``text`` with every path of ``files`` as :func:`display_name` writes it,
    and any other absolute path cut to its last part."""
    for file in sorted(files, key=len, reverse=True):
        text = text.replace(str(file), display_name(file))
    return _ABSOLUTE.sub(lambda m: m.group(1), text)


def value_text(value: Any) -> str:
    """A value from the page as ``--set`` text: numbers written shortest (a float
    that is whole as ``12.0``), text as typed (so that its error is the CLI's)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else str(value)
    return str(value)


@dataclass(frozen=True)
class Session:
    """The base assumptions of a page and the inputs it offers (every ranged input
    some tier reads, in model order)."""

    base: Assumptions
    inputs: tuple[RangedInput, ...]

    @classmethod
    def load(cls, paths: list[str] | None = None) -> Session:
        """Read ``paths`` (the bundled default if none) as the CLI does; raises
        :class:`AssumptionError` with the message redacted (:func:`redact`)."""
        try:
            base = load_assumptions(*(paths or []))
        except AssumptionError as exc:
            raise AssumptionError(
                [_redacted(p, [str(x) for x in paths or []]) for p in exc.problems]
            ) from None
        return cls(base, tuple(ranged_inputs(base)[0]))

    @property
    def files(self) -> list[str]:
        """The files read, as the page names them."""
        return [display_name(f) for f in assumption_files(self.base)]

    def input(self, path: str) -> RangedInput | None:
        return next((x for x in self.inputs if x.path == path), None)

    def sets(self, overrides: Mapping[str, Any]) -> list[str]:
        """The overrides as ``--set`` arguments (``path=value``)."""
        return [f"{p}={value_text(v)}" for p, v in overrides.items()]

    def assumptions(self, overrides: Mapping[str, Any]) -> Assumptions:
        """The base with ``overrides`` (dotted path -> value) applied as ``--set``
        applies them; an override of a path the page does not offer, or a value
        outside its rule, raises :class:`AssumptionError` (message redacted)."""
        if not isinstance(overrides, Mapping) or len(overrides) > MAX_OVERRIDES:
            raise AssumptionError(
                Problem("request", "", "", f"overrides: a mapping of at most {MAX_OVERRIDES}")
            )
        offered = {x.path for x in self.inputs}
        files = assumption_files(self.base)
        try:
            parsed = dict(parse_override(s) for s in self.sets(overrides))
            unknown = [p for p in parsed if p not in offered]
            if unknown:
                raise AssumptionError(
                    [Problem("--set", p, "", "not an input of this page") for p in unknown]
                )
            return layer(self.base, overrides=parsed)
        except AssumptionError as exc:
            raise AssumptionError([_redacted(p, files) for p in exc.problems]) from None

    def checked(self, overrides: Mapping[str, Any]) -> tuple[Assumptions, list[Problem]]:
        """:meth:`assumptions` and the advice on them (methodology §2.6: an override
        a tier shadows, a value far outside its documented range), each problem with
        the files named as the page names them (``Problem.parts`` renders it in the
        page's language)."""
        files = assumption_files(self.base)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            a = self.assumptions(overrides)
        notes = []
        for w in caught:
            if isinstance(w.message, AssumptionWarning):
                notes.append(_redacted(w.message.problem, files))
            else:
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        return a, notes

    def moved(self, overrides: Mapping[str, Any]) -> dict[str, Any]:
        """The overrides that differ from the base value (the inputs moved)."""
        out = {}
        for p, v in overrides.items():
            x = self.input(p)
            if x is None or not isinstance(v, int | float) or v != x.value:
                out[p] = v
        return out


def _redacted(p: Problem, files: list[str]) -> Problem:
    return Problem(
        redact(p.where, files),
        p.path,
        redact(p.value, files),
        redact(p.rule, files),
        redact(p.rule_zh, files),
    )
