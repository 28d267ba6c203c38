"""Units of the inputs checked against what each input measures (methodology §2.8).

Every input has a unit in the vocabulary (:data:`costmodel.inputs.vocabulary.INPUTS`:
``{cur}/kWh``, ``kW``, ``TB``, ``months``, a fraction ...). The ``unit:`` written with
a value is read by its first word (``CNY/GPU-hour sold (H200)`` -> ``CNY/GPU-hour``);
a word of the closed table :data:`SCALES` is checked against the input's own unit:

- the same dimension in another size is converted and said so (``MW`` for ``kW``,
  ``PB`` for ``TB``, ``CNY/MWh`` for ``CNY/kWh``, ``years`` for ``months``, ``%`` for a
  fraction; ``months`` for a whole number of years only when it is whole);
- another dimension is an error naming both (``kW`` written for a price per kWh);
- a currency other than the model's is converted at the ``fx`` rate given for it
  (methodology §2.8: ``fx: {USD: {value: 7.2, source: ..., as_of: 2025-06}}``, model currency
  per unit) and is an error naming ``fx`` without one.

A first word outside the table (``sold GPU-hours / available GPU-hours``, ``model
FLOPs utilization``) describes the value and is not checked: the bundled files use
such words, and a closed table cannot tell a description from a slip.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from costmodel.inputs.errors import Problem
from costmodel.inputs.paths import key_path
from costmodel.inputs.vocabulary import input_term

#: unit word -> (dimension, size in the dimension's base unit)
SCALES: dict[str, tuple[str, float]] = {
    "Wh": ("energy", 1e-3),
    "kWh": ("energy", 1.0),
    "MWh": ("energy", 1e3),
    "GWh": ("energy", 1e6),
    "W": ("power", 1e-3),
    "kW": ("power", 1.0),
    "MW": ("power", 1e3),
    "GW": ("power", 1e6),
    "GB": ("storage", 1e-3),
    "TB": ("storage", 1.0),
    "PB": ("storage", 1e3),
    "month": ("time", 1.0),
    "months": ("time", 1.0),
    "year": ("time", 12.0),
    "years": ("time", 12.0),
    "yr": ("time", 12.0),
    "fraction": ("fraction", 1.0),
    "%": ("fraction", 0.01),
    "percent": ("fraction", 0.01),
}

#: ISO 4217 codes a unit is read as money by (with the model's own and those of ``fx``);
#: three capitals outside them (``FTE``, ``GPU``) are not money
CURRENCIES = frozenset(
    {
        "CNY",
        "USD",
        "EUR",
        "JPY",
        "GBP",
        "HKD",
        "SGD",
        "KRW",
        "TWD",
        "INR",
        "AUD",
        "CAD",
        "CHF",
        "SEK",
        "NOK",
        "DKK",
        "AED",
        "SAR",
        "MYR",
        "THB",
        "IDR",
        "VND",
        "BRL",
        "MXN",
        "RUB",
        "ZAR",
        "NZD",
        "PLN",
        "TRY",
        "ILS",
        "PHP",
        "CZK",
        "HUF",
    }
)
#: names of a currency that are not its ISO code
ALIASES = {"RMB": "CNY"}
_FRACTION_UNITS = ("fraction", "1/yr")


@dataclass(frozen=True)
class Unit:
    """A unit read from its first word: ``currency`` (an ISO code, ``{cur}`` for the
    model's, or None) and the pieces after it (``kW-month`` -> ``["kW", "month"]``)."""

    currency: str | None
    pieces: tuple[str, ...]
    text: str


def read_unit(text: str, known: frozenset[str] = CURRENCIES) -> Unit:
    """The unit of ``text`` by its first word (``CNY/MWh (peak)`` -> CNY per MWh);
    money when the word starts with a code of ``known`` (or an alias)."""
    word = re.split(r"[\s(]", text.strip(), maxsplit=1)[0]
    head, _, per = word.partition("/")
    head = ALIASES.get(head, head)
    if head == "{cur}" or head in known:
        return Unit(head, tuple(per.split("-")) if per else (), word)
    return Unit(None, tuple(head.split("-")), word)  # kW/rack: kW (a rack is a count)


def _scale(pieces: tuple[str, ...]) -> tuple[tuple[str, ...], float] | None:
    """Dimensions and size of known pieces (None when a piece is not in :data:`SCALES`)."""
    dims, size = [], 1.0
    for p in pieces:
        if p not in SCALES:
            return None
        dims.append(SCALES[p][0])
        size *= SCALES[p][1]
    return tuple(dims), size


@dataclass(frozen=True)
class Reading:
    """What a written unit means for an input: ``factor`` to multiply its value,
    low, high and sd by (1: nothing to convert), or ``error``."""

    factor: float = 1.0
    error: str | None = None
    how: str = ""


@functools.lru_cache(maxsize=4096)
def _cached_reading(
    path: str, written: str, currency: str, fx: tuple[tuple[str, float], ...]
) -> Reading:
    """:func:`reading`, remembered: every load reads the same few hundred units."""
    return reading(path, written, currency, dict(fx))


def reading(path: str, written: str, currency: str, fx: Mapping[str, float]) -> Reading:
    """How the value of the input at ``path`` written with unit ``written`` is read
    in the model (see the module docstring)."""
    term = input_term(path)
    if term is None or not written.strip():
        return Reading()
    # a model currency that is not an ISO code is a label: no money word to compare
    iso = re.fullmatch(r"[A-Z]{3}", currency) is not None
    own = read_unit(term.unit)
    given = read_unit(written, CURRENCIES | {currency, *fx} if iso else frozenset())
    fraction = term.kind == "pct" or term.unit.startswith(_FRACTION_UNITS)
    factor, how = 1.0, []
    shown = term.unit_in(currency)
    if given.currency is not None:
        if own.currency is None:
            what = "a fraction" if fraction else shown
            return Reading(error=f"unit {written!r} is money; this input is {what}")
        if given.currency != currency:
            rate = fx.get(given.currency)
            if rate is None:
                return Reading(
                    error=f"unit {written!r} is in {given.currency} but the model's currency "
                    f"is {currency}: give fx.{given.currency} (model currency per "
                    f"{given.currency}, methodology §2.8) or write the value in {currency}"
                )
            factor *= rate
            how.append(f"at fx.{given.currency} = {rate:g} {currency}/{given.currency}")
        mine, theirs = own.pieces, given.pieces
    else:
        mine = ("fraction",) if fraction else own.pieces
        theirs = given.pieces
        if own.currency is not None and _scale(theirs) is not None:
            return Reading(error=f"unit {written!r} does not match this input's unit {shown!r}")
    ours, its = _scale(mine), _scale(theirs)
    if its is None or not theirs:
        return Reading(factor, how=", ".join(how))  # a description: not checked
    if ours is None or ours[0] != its[0]:
        return Reading(error=f"unit {written!r} does not match this input's unit {shown!r}")
    size = its[1] / ours[1]
    if own.currency is not None:
        size = 1 / size  # a price per MWh is a thousandth of it per kWh
    if size != 1:
        how.append(f"{given.text} -> {shown}")
    return Reading(factor * size, how=", ".join(how))


_SCALED = ("value", "low", "high", "sd")


def _scale_keys(
    node: dict[str, Any], path: str, by: str, factor: float, where: Callable[[str], str]
) -> None:
    """Multiply the value, low, high and sd of ``node`` written in the file of its
    key ``by`` (the ``unit`` or ``currency``) by ``factor``: a range merged from
    an earlier file is in that file's unit (methodology §2.1). 12 significant
    digits (``0.0102 MW`` is 10.2 kW); a whole number stays whole when it is."""

    def file(key: str) -> str:
        return where(f"{path}.{key}").rsplit(":", 1)[0]

    home = file(by)
    for k in _SCALED:
        x = node.get(k)
        if isinstance(x, int | float) and not isinstance(x, bool) and file(k) == home:
            y = float(f"{x * factor:.12g}")
            node[k] = int(y) if isinstance(x, int) and y == int(y) else y


def convert_units(
    data: dict[str, Any],
    currency: str,
    fx: Mapping[str, float],
    where: Callable[[str], str],
) -> tuple[list[Problem], list[Problem]]:
    """Check the ``unit`` of every numeric input of ``data`` (raw, merged) and
    convert in place those of another size or currency; returns (errors, notes),
    each naming the line of the ``unit``."""
    errors: list[Problem] = []
    notes: list[Problem] = []

    def visit(node: Any, keys: list[str]) -> None:
        if not isinstance(node, dict):
            return
        if "value" in node and isinstance(node.get("currency"), str):
            _priced_in(node, keys, currency, fx, where, errors, notes)
        unit = node.get("unit")
        if "value" in node and isinstance(unit, str):
            path = key_path(*keys)
            r = _cached_reading(path, unit, currency, tuple(sorted(fx.items())))
            if r.error is not None:
                errors.append(Problem(where(f"{path}.unit"), path, repr(unit), r.error))
            elif r.factor != 1:
                was = node.get("value")
                _scale_keys(node, path, "unit", r.factor, where)
                node["unit"] = input_term(path).unit_in(currency)  # type: ignore[union-attr]
                notes.append(
                    Problem(
                        where(f"{path}.unit"),
                        path,
                        f"{was!r} {unit}",
                        f"converted to {node.get('value')!r} {node['unit']} ({r.how})",
                    )
                )
            return
        for k, v in node.items():
            visit(v, [*keys, str(k)])

    visit(data, [])
    return errors, notes


def _priced_in(
    node: dict[str, Any],
    keys: list[str],
    currency: str,
    fx: Mapping[str, float],
    where: Callable[[str], str],
    errors: list[Problem],
    notes: list[Problem],
) -> None:
    """A quantity with ``currency: CODE`` (methodology §2.8): its value, low, high and sd
    converted to the model currency at ``fx.CODE`` (the key then removed, and a
    unit in CODE rewritten to the model's), or an error naming ``fx``."""
    path = key_path(*keys)
    code = node["currency"]
    if code != currency and code not in fx:
        rule = (
            f"currency {code} is not the model's ({currency}): give fx.{code} (model "
            f"currency per {code}, methodology §2.8) or write the value in {currency}"
        )
        errors.append(Problem(where(f"{path}.currency"), path, repr(code), rule))
        return
    del node["currency"]
    unit = node.get("unit")
    if isinstance(unit, str) and unit.startswith(code):
        node["unit"] = currency + unit[len(code) :]
    if code == currency:
        return
    was = node.get("value")
    _scale_keys(node, path, "currency", fx[code], where)
    notes.append(
        Problem(
            where(f"{path}.currency"),
            path,
            f"{was!r} {code}",
            f"converted to {node.get('value')!r} {currency} at fx.{code} = {fx[code]:g}",
        )
    )


def fx_rates(raw: Any) -> dict[str, float]:
    """The ``fx`` mapping's rates (ISO code -> model currency per unit) as numbers;
    entries that are not numbers are left to validation."""
    out: dict[str, float] = {}
    for code, q in (raw or {}).items() if isinstance(raw, dict) else []:
        x = q.get("value") if isinstance(q, dict) else q
        if isinstance(x, int | float) and not isinstance(x, bool) and x > 0:
            out[str(code)] = float(x)
    return out
