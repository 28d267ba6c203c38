"""Forms an input may be written in beyond a plain number (methodology §2.5): a
percentage where a fraction is asked (``60%`` -> 0.6); a choice or whole number as
``{value, unit, source, note}``; and the forms some text must have (a currency)."""

from __future__ import annotations

import re
from typing import Any

from pydantic import BeforeValidator

_PERCENT = re.compile(r"\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)\s*%\s*")


def percent(v: Any) -> float | None:
    """The fraction a percentage written as text means (``"60%"`` -> 0.6), or None
    for anything else."""
    m = _PERCENT.fullmatch(v) if isinstance(v, str) else None
    return float(m.group(1)) / 100 if m else None


#: the rule of every fraction input; a value above 1 is shown as the percentage it would be
FRACTION_RULE = "must be a fraction between 0 and 1"


def _coerce_fraction(v: Any) -> Any:
    """A fraction's value, low, high and sd may be written as percentages (``60%``:
    0.6). Its value, then low and high, must lie in [0, 1]: checked before the
    range's order, so that ``utilization: {value: 60}`` is refused as no fraction at
    its own line rather than as above its ``high``."""
    if percent(v) is not None:
        return {"value": percent(v)}
    if not isinstance(v, dict):
        return v
    v = {
        k: (percent(x) if k in ("value", "low", "high", "sd") and percent(x) is not None else x)
        for k, x in v.items()
    }
    for name in ("value", "low", "high"):
        x = v.get(name)
        if isinstance(x, int | float) and not isinstance(x, bool) and not 0 <= x <= 1:
            hint = f" (written {x:g}, which is {x * 100:,.0f}%: write {x / 100:g} or {x:g}%)"
            if name == "value":
                raise ValueError(f"{FRACTION_RULE}{hint if 1 < x <= 100 else ''}")
            broken = [  # both ends when both are outside, not only the first
                f"{end} {y:g}"
                for end in ("low", "high")
                if isinstance(y := v.get(end), int | float)
                and not isinstance(y, bool)
                and not 0 <= y <= 1
            ]
            one = len(broken) == 1 and 1 < x <= 100
            raise ValueError(f"{' and '.join(broken)}: {FRACTION_RULE}{hint if one else ''}")
    return v


#: the marker of a fraction input (percentages accepted): see
#: :func:`costmodel.inputs.fields.is_fraction_path`
FRACTION = BeforeValidator(_coerce_fraction)


def rate_or_wacc(v: Any) -> Any:
    """``finance.discount_rate``: ``wacc`` as it is (also in the mapping form, its
    source kept out; methodology §11.10); a percentage or a number is left to the
    rate's own validation; any other text is an error that names the choices."""
    if percent(v) is not None:
        return v
    if isinstance(v, dict) and v.get("value") == "wacc":
        return "wacc"
    if isinstance(v, str) and v != "wacc":
        raise ValueError(f"must be a rate (e.g. 0.08) or wacc, not {v!r}")
    return v


def refund_mode(vat: Any) -> str:
    """How a ``vat`` section refunds its excess credit (methodology §11.11):
    ``monthly``, ``annual`` (``refund: annual`` or v3 ``refund_credit: true``) or
    ``none``."""
    return vat.refund or ("annual" if vat.refund_credit else "none")


PLAIN_KEYS = {"value", "unit", "source", "note"}


def plain_value(v: Any) -> Any:
    """A whole number or a choice may be written as ``{value: ..., source: ...}``
    like every other input (methodology §2.2); its value is what counts. Other keys
    (a range: a choice has none) are refused by name."""
    if isinstance(v, dict) and "value" in v:
        extra = sorted(str(k) for k in set(v) - PLAIN_KEYS)
        if extra:
            raise ValueError(
                f"unknown key {extra[0]!r}: a choice is written as its value or as "
                "{value, unit, source, note} (it has no range)"
            )
        return v["value"]
    return v


def whole_version(v: Any) -> Any:
    """``schema_version`` (after :data:`Plain`): a whole number (``3``, not ``3.0``
    nor ``true``), as every whole-number input."""
    if isinstance(v, bool) or not isinstance(v, int):
        raise ValueError("must be a whole number: 1, 2, 3 or 4")
    return v


#: listed before :data:`Plain` in ``Annotated`` (pydantic runs the last first)
WholeVersion = BeforeValidator(whole_version)
