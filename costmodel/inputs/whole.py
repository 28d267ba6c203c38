"""Whole-number inputs that may carry a range (methodology §11.3).

A whole-number field (``horizon_years``, ``life_years``, ``term_years``,
``loss_carryforward_years``, GPUs, GPUs per server, a stage's month) is written as a
bare integer or as the mapping ``{value, low, high, unit, source, note, dist, sd}``
of every other input. The mapping validates into a :class:`WholeNumber`: an ``int``
(so every use of the field is unchanged) that carries its range and provenance,
which sensitivity and Monte Carlo read (:mod:`costmodel.analysis.sensitivity`).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import (
    Field,
    PlainSerializer,
    StrictInt,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WithJsonSchema,
    WrapValidator,
)

DISTRIBUTIONS = ("triangular", "uniform", "normal")
META = ("low", "high", "unit", "source", "note", "dist", "sd")


class WholeNumber(int):
    """A whole-number input written in the mapping form (methodology §11.3): it is
    its value (an ``int``, so every use of the field is unchanged) and carries the
    mapping's ``low``, ``high``, ``unit``, ``source``, ``note``, ``dist``, ``sd`` and
    the field's valid interval ``[lower, upper]`` (``None``: unbounded)."""

    low: int | None
    high: int | None
    unit: str | None
    source: str | None
    note: str | None
    dist: str | None
    sd: float | None
    lower: int | None
    upper: int | None

    def __new__(cls, value: int, **meta: Any) -> WholeNumber:
        obj = super().__new__(cls, value)
        for key in ("low", "high", "unit", "source", "note", "dist", "sd", "lower", "upper"):
            setattr(obj, key, meta.get(key))
        return obj

    def __reduce__(self) -> Any:
        meta = {
            k: getattr(self, k)
            for k in ("low", "high", "unit", "source", "note", "dist", "sd", "lower", "upper")
        }
        return (_whole_number, (int(self), meta))

    def meta(self) -> dict[str, Any]:
        """``low``, ``high``, ``unit``, ``source``, ``note``, ``dist`` and ``sd``."""
        return {k: getattr(self, k) for k in META}


def _whole_number(value: int, meta: dict[str, Any]) -> WholeNumber:
    return WholeNumber(value, **meta)


_WHOLE_KEYS = ("value", "low", "high", "unit", "source", "note", "dist", "sd")


def _rule_of(exc: ValidationError) -> str:
    """The first error of ``exc`` in the loader's words."""
    err = exc.errors(include_url=False)[0]
    if err["type"] == "int_type":
        return "must be a whole number"
    return err["msg"].replace("Input should be", "must be").removeprefix("Value error, ")


def _whole_validator(lower: int | None, upper: int | None, nullable: bool = False) -> Any:
    """The validator of a whole-number field: a bare integer as it is, or the mapping
    ``{value, low, high, unit, source, note, dist, sd}`` (methodology §11.3) as a
    :class:`WholeNumber`, whose value, low and high are each a whole number within
    the field's ``Field(ge=lower, le=upper)`` (checked by the field's own
    validation) with ``low <= value <= high``; ``nullable``: a mapping whose value is
    null (an override of its value) is None."""

    def check(v: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        if isinstance(v, WholeNumber):
            return v
        if not isinstance(v, dict):
            return handler(v)
        if nullable and "value" in v and v["value"] is None:
            return None
        unknown = [k for k in v if k not in _WHOLE_KEYS]
        if unknown or "value" not in v:
            what = f"unknown key {unknown[0]!r}" if unknown else "value is missing"
            raise ValueError(
                f"{what}: a whole number is written as a number or as a mapping "
                "{value, low, high, unit, source, note, dist, sd}"
            )
        value = handler(v["value"])
        ends = {}
        for end in ("low", "high"):
            if v.get(end) is None:
                continue
            try:
                ends[end] = handler(v[end])
            except ValidationError as exc:
                raise ValueError(f"{end} {v[end]}: {_rule_of(exc)}") from None
        meta = {k: v.get(k) for k in ("unit", "source", "note", "dist", "sd")}
        _check_meta(value, ends, meta)
        return WholeNumber(value, **ends, **meta, lower=lower, upper=upper)

    schema = {"anyOf": [{"type": "integer"}, {"type": "object", "required": ["value"]}]}
    return WrapValidator(check), WithJsonSchema(schema)


def whole(lower: int | None = None, upper: int | None = None, nullable: bool = False) -> Any:
    """A whole-number input in ``[lower, upper]`` that may carry a range
    (methodology §11.3): ``Annotated[StrictInt, Field(ge, le), ...]`` (``nullable``:
    see :func:`_whole_validator`)."""
    wrap, json_schema = _whole_validator(lower, upper, nullable)
    dump = PlainSerializer(_dump_whole)
    return Annotated[StrictInt, Field(ge=lower, le=upper), wrap, json_schema, dump]


def _check_meta(value: int, ends: dict[str, int], meta: dict[str, Any]) -> None:
    """``low <= value <= high``; text keys are text; ``dist`` one of
    :data:`DISTRIBUTIONS` (``triangular``/``uniform`` need low and high, ``normal``
    a number ``sd >= 0``), as for every quantity."""
    low, high = ends.get("low"), ends.get("high")
    if low is not None and low > value:
        raise ValueError(f"low {low} must not exceed value {value}")
    if high is not None and high < value:
        raise ValueError(f"high {high} must not be below value {value}")
    for key in ("unit", "source", "note"):
        if meta.get(key) is not None and not isinstance(meta[key], str):
            raise ValueError(f"{key} must be text")
    dist, sd = meta.get("dist"), meta.get("sd")
    if dist is not None and dist not in DISTRIBUTIONS:
        raise ValueError(f"dist must be one of {', '.join(DISTRIBUTIONS)}")
    if sd is not None and (isinstance(sd, bool) or not isinstance(sd, int | float)):
        raise ValueError("sd must be a number")
    if dist == "normal" and (sd is None or sd < 0):
        raise ValueError("dist: normal needs sd >= 0")
    if dist in ("triangular", "uniform") and (low is None or high is None):
        raise ValueError(f"dist: {dist} needs low and high")


def _dump_whole(x: int) -> int | dict[str, Any]:
    """A whole number as written: a bare integer, or (a :class:`WholeNumber`) the
    mapping of its value and the keys given."""
    if not isinstance(x, WholeNumber):
        return int(x)
    return {"value": int(x), **{k: v for k, v in x.meta().items() if v is not None}}


WholeYears = whole(1, 30)  # horizon_years, financing.term_years
LifeYears = whole(1, 40)
CarryforwardYears = whole(0, 100, nullable=True)  # None: without limit
#: the largest count (GPUs, servers, a switch's ports) an input may give: a
#: thousand times the largest cluster built, and far inside float64's whole numbers
#: (2^53), which the engine computes with
MAX_COUNT = 10**9
Count = whole(1, MAX_COUNT)  # GPUs, GPUs per server
MonthNumber = whole(1, 360)


def takes_range(metadata: list[Any]) -> bool:
    """Whether a field's metadata is that of :func:`whole` (a whole number that may
    be written in the mapping form with a range)."""
    return any(isinstance(m, PlainSerializer) and m.func is _dump_whole for m in metadata)
