"""Errors raised for invalid assumptions."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

#: what setting an attribute of loaded assumptions says (they are frozen)
FROZEN = (
    "assumptions are frozen (a model built from them cannot change under it): cannot set "
    '{name!r}; make a changed copy with cm.with_overrides(a, {{"power.price_per_kwh": 0.5}}) '
    "or cm.build(a, overrides={{...}}) (dotted path -> value; a ranged input keeps its "
    "unit, source and range)"
)


@dataclass(frozen=True)
class Problem:
    """One rule broken by one value.

    ``where`` is the file (and line when known), ``path`` the dotted path inside
    the merged assumptions, ``value`` the offending value (already rendered) and
    ``rule`` what is allowed. ``rule_zh``, where given, is the rule in Chinese, with
    paths, values and file names between backticks (they stay as written).
    """

    where: str
    path: str
    value: str
    rule: str
    rule_zh: str = field(default="", compare=False)

    def __str__(self) -> str:
        subject = f"{self.path} = {self.value}" if self.value else self.path
        if not self.path and self.value:
            subject = f"value {self.value}"
        return f"{self.where}: {subject}: {self.rule}" if subject else f"{self.where}: {self.rule}"

    def parts(self, lang: str = "en") -> list[tuple[str, str]]:
        """The problem as ``(kind, text)`` pieces for a page, ``kind`` ``"code"`` for
        what stays as written (file, path, value) and ``"text"`` for words: the
        Chinese rule where ``lang`` is ``"zh"`` and one is given, else the English.

        >>> Problem("a.yaml:3", "x.y", "2", "too big", "太大").parts("zh")
        [('code', 'a.yaml:3'), ('text', '：'), ('code', 'x.y = 2'), ('text', '：太大')]
        >>> Problem("a.yaml:3", "x.y", "2", "too big").parts("zh")[-1]
        ('text', ': too big')
        """
        zh = lang == "zh" and bool(self.rule_zh)
        sep = "：" if zh else ": "
        subject = f"{self.path} = {self.value}" if self.value else self.path
        out: list[tuple[str, str]] = [("code", self.where)]
        if subject:
            out += [("text", sep), ("code", subject)]
        rule = self.rule_zh if zh else self.rule
        for i, piece in enumerate(re.split(r"`([^`]*)`", rule)):
            if piece:
                out.append(("code" if i % 2 else "text", (sep if i == 0 else "") + piece))
            elif i == 0:
                out.append(("text", sep))
        return _merged(out)


def _merged(parts: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Adjacent pieces of one kind joined."""
    out: list[tuple[str, str]] = []
    for kind, text in parts:
        if out and out[-1][0] == kind:
            out[-1] = (kind, out[-1][1] + text)
        else:
            out.append((kind, text))
    return out


class AssumptionError(ValueError):
    """Invalid assumption input.

    The message lists every problem found, one per line, each naming the file
    (and line where known), the dotted path, the value and the rule.
    """

    def __init__(self, problems: list[Problem] | Problem):
        if isinstance(problems, Problem):
            problems = [problems]
        self.problems: list[Problem] = list(problems)
        n = len(self.problems)
        head = "invalid assumptions" if n == 1 else f"invalid assumptions ({n} problems)"
        super().__init__(head + ":\n" + "\n".join(f"  {p}" for p in self.problems))


class AssumptionWarning(UserWarning):
    """A valid input that is probably not what was meant (methodology §2.6): an
    override a tier shadows, a value far outside its documented range. ``problem``
    names where, the dotted path, the value and why."""

    def __init__(self, problem: Problem):
        self.problem = problem
        super().__init__(str(problem))


class UnitNote(AssumptionWarning):
    """A value given in another unit or currency and converted (methodology §2.8):
    said, never an error (``strict`` leaves it a note)."""
