"""The number types of the assumption schema: the base of every section, a numeric
input with its range and provenance (:class:`Quantity`), its bounds, and the
annotated types the sections use (methodology §2.2). Kept apart from
:mod:`costmodel.inputs.schema` so that the sections can live in more than one
module."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictStr,
    model_validator,
)

from costmodel.inputs.errors import FROZEN
from costmodel.inputs.forms import FRACTION, FRACTION_RULE, percent, plain_value


class Section(BaseModel):
    """Base for every section: unknown keys are errors (they are usually typos)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    def __setattr__(self, name: str, value: Any) -> None:
        if name.startswith("_"):
            return super().__setattr__(name, value)
        raise TypeError(FROZEN.format(name=name))


Number = Annotated[float, Field(strict=True, allow_inf_nan=False)]

#: a calendar month ``YYYY-MM`` (a YAML date is read as its month)
Month = Annotated[
    StrictStr,
    BeforeValidator(lambda v: v.strftime("%Y-%m") if isinstance(v, date) else v),
    Field(pattern=r"^\d{4}-(0[1-9]|1[0-2])$"),
]


class Quantity(Section):
    """A numeric input with its optional range and provenance.

    ``low``/``high`` feed sensitivity and Monte Carlo; ``dist`` chooses the Monte
    Carlo distribution (triangular by default; ``normal`` needs ``sd``); ``as_of``
    the month a price was quoted (read on the prices of methodology §30 only).
    """

    value: Number
    low: Number | None = None
    high: Number | None = None
    unit: StrictStr | None = None
    source: StrictStr | None = None
    note: StrictStr | None = None
    dist: Literal["triangular", "uniform", "normal"] | None = None
    sd: Number | None = None
    #: the month a price was observed (methodology §30): rolled to ``start``
    as_of: Month | None = None

    @model_validator(mode="after")
    def _range_is_ordered(self) -> Quantity:
        wrong = []  # both ends when both are on the wrong side
        if self.low is not None and self.low > self.value:
            wrong.append(f"low {self.low:g} must not exceed value {self.value:g}")
        if self.high is not None and self.high < self.value:
            wrong.append(f"high {self.high:g} must not be below value {self.value:g}")
        if wrong:
            raise ValueError("; ".join(wrong))
        if self.dist == "normal" and (self.sd is None or self.sd < 0):
            raise ValueError("dist: normal needs sd >= 0")
        if self.dist in ("triangular", "uniform") and (self.low is None or self.high is None):
            raise ValueError(f"dist: {self.dist} needs low and high")
        return self


def coerce_quantity(v: Any) -> Any:
    """Accept a bare number as ``{value: number}``."""
    if isinstance(v, bool):
        raise ValueError("must be a number, not true/false")
    if isinstance(v, int | float):
        return {"value": v}
    if isinstance(v, dict | Quantity):
        return v
    if percent(v) is not None:
        raise ValueError(
            f"must be a number: a percentage ({v.strip()}) is read only where a fraction is asked"
        )
    raise ValueError("must be a number or a mapping {value: ..., low, high, unit, source, note}")


@dataclass(frozen=True)
class Bounds:
    """The allowed interval of a Quantity's value, low and high: ``[lo, hi]``,
    ``lo_open``/``hi_open`` excluding the bound; ``None`` is unbounded. Called as a
    validator; sensitivity reads it to clip normal draws to the valid range."""

    lo: float | None
    hi: float | None
    rule: str
    lo_open: bool = False
    hi_open: bool = False

    def __call__(self, q: Quantity) -> Quantity:
        broken = []  # every end outside the interval, not only the first
        for name in ("value", "low", "high"):
            x = getattr(q, name)
            if x is not None and not self.admits(x):
                broken.append("" if name == "value" else f"{name} {x:g}")
        if broken == [""]:
            raise ValueError(self.rule)
        if broken:
            ends = " and ".join(b or f"value {q.value:g}" for b in broken)
            raise ValueError(f"{ends}: {self.rule}")
        return q

    def admits(self, x: float) -> bool:
        above = self.lo is None or (x > self.lo if self.lo_open else x >= self.lo)
        below = self.hi is None or (x < self.hi if self.hi_open else x <= self.hi)
        return above and below


def bounded(
    lo: float | None, hi: float | None, *, lo_open: bool = False, hi_open: bool = False, rule: str
) -> Any:
    """A validator checking value, low and high of a Quantity against :class:`Bounds`."""
    return AfterValidator(Bounds(lo, hi, rule, lo_open, hi_open))


Q = Annotated[Quantity, BeforeValidator(coerce_quantity)]
F = Annotated[Q, FRACTION]
Rate = Annotated[F, bounded(0, 1, rule=FRACTION_RULE)]
Share = Annotated[F, bounded(0, 1, hi_open=True, rule="must be at least 0 and below 1")]
NonNegative = Annotated[Q, bounded(0, None, rule="must be >= 0")]
Positive = Annotated[Q, bounded(0, None, lo_open=True, rule="must be > 0")]
Pue = Annotated[Q, bounded(1, None, rule="PUE must be >= 1 (facility power cannot be below IT)")]


Text = StrictStr

Plain = BeforeValidator(plain_value)


def given(value: float, source: str, unit: str | None = None) -> Any:
    """A schema default: a Quantity with its source and unit (used when no file
    sets the key)."""
    return Field(default_factory=lambda: Quantity(value=value, source=source, unit=unit))


def given_months(value: int) -> Any:
    return given(
        value,
        "methodology §8.1: v1 timing (everything at month 0) unless an input says so",
        "months",
    )


Months = Annotated[Q, bounded(0, 360, rule="must be a number of months between 0 and 360")]


def whole_months(q: Quantity) -> Quantity:
    """The value of a month count, and its low and high where given, are whole
    numbers (methodology §11.3)."""
    for name in ("value", "low", "high"):
        x = getattr(q, name)
        if x is not None and x != int(x):
            label = "" if name == "value" else f"{name} {x:g}: "
            raise ValueError(f"{label}must be a whole number of months, not {x:g}")
    return q


WholeMonths = Annotated[Months, AfterValidator(whole_months)]
