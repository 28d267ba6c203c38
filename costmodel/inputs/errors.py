"""Errors raised for invalid assumptions."""

from __future__ import annotations

from dataclasses import dataclass

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
    ``rule`` what is allowed.
    """

    where: str
    path: str
    value: str
    rule: str

    def __str__(self) -> str:
        subject = f"{self.path} = {self.value}" if self.value else self.path
        if not self.path and self.value:
            subject = f"value {self.value}"
        return f"{self.where}: {subject}: {self.rule}" if subject else f"{self.where}: {self.rule}"


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
