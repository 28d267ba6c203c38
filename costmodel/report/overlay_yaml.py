"""The overlay an imported workbook becomes: each changed input in the form the
schema reads (methodology §2.2), and the YAML text of the overlay.

What a value may be is read from the schema itself (:func:`leaf_kind`), so that an
input added to the schema and to the workbook's Inputs sheet is imported without
a list of fields here: a quantity is written as a mapping that keeps the base's
range, unit and source and carries the note ``changed in WORKBOOK on DATE (was
X)``; a whole number or a choice as ``{value, note}``; text and switches as they
are.
"""

from __future__ import annotations

import copy
import math
import types
import typing
from datetime import date, datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel

from costmodel.inputs.provenance import with_change
from costmodel.inputs.schema import Assumptions, Plain, Quantity
from costmodel.inputs.whole import WholeNumber, takes_range

#: how a leaf of the schema is written in an assumption file
Kind = Literal["quantity", "int", "bool", "choice", "text", "unknown"]

#: the keys of a quantity's mapping kept from the base
KEPT = ("low", "high", "unit", "source", "dist", "sd", "as_of")


def _unwrap(t: Any) -> tuple[Any, list[Any]]:
    """The type inside ``Annotated[...]`` and ``X | None``, with the metadata found."""
    meta: list[Any] = []
    while True:
        origin = typing.get_origin(t)
        if origin is typing.Annotated:
            meta += list(t.__metadata__)
            t = t.__origin__
        elif origin in (typing.Union, types.UnionType):
            arms = [a for a in typing.get_args(t) if a is not type(None)]
            if len(arms) != 1:
                return t, meta
            t = arms[0]
        else:
            return t, meta


def leaf_type(keys: tuple[str, ...]) -> tuple[Any, list[Any]]:
    """The schema's type at the dotted path ``keys`` (through sections, mappings
    of tiers, servers or cooling types, and lists of stages) and its metadata."""
    t: Any = Assumptions
    meta: list[Any] = []
    for key in keys:
        t, more = _unwrap(t)
        meta = more
        origin = typing.get_origin(t)
        if isinstance(t, type) and issubclass(t, BaseModel) and not issubclass(t, Quantity):
            field = t.model_fields.get(key)
            if field is None:
                return None, []
            t, meta = field.annotation, list(field.metadata)
        elif origin is dict:
            t, meta = typing.get_args(t)[1], []
        elif origin is list:
            t, meta = typing.get_args(t)[0], []
        else:
            return None, []
    t, more = _unwrap(t)
    return t, meta + more


def leaf_kind(keys: tuple[str, ...]) -> tuple[Kind, bool]:
    """How the input at ``keys`` is written, and whether it may be written as a
    ``{value, note}`` mapping (quantities and the schema's plain values)."""
    t, meta = leaf_type(keys)
    plain = any(m is Plain or m == Plain for m in meta)
    if isinstance(t, type) and issubclass(t, Quantity):
        return "quantity", True
    if t is bool:
        return "bool", False
    if t is int:
        return "int", plain or takes_range(meta)
    if typing.get_origin(t) is Literal:
        return "choice", plain
    if t is str:
        return "text", plain
    return "unknown", False


def cell_value(keys: tuple[str, ...], raw: Any) -> Any:
    """A cell's value as the schema reads the input at ``keys``: a whole number
    from a whole float, ``true``/``false`` from 1/0, text from a number typed into
    a text input, ``YYYY-MM`` from a date (the first operating month, a quote's
    ``as_of``). A value of
    the wrong type is kept, so that validation names it."""
    if raw is None or (isinstance(raw, str) and raw.strip() == ""):
        return None
    if keys == ("start",) or keys[-1] == "as_of":  # a month (a quote's: methodology §30)
        if isinstance(raw, int | float) and not isinstance(raw, bool):  # a date serial
            raw = datetime(1899, 12, 30) + timedelta(days=float(raw))
        if isinstance(raw, datetime | date):
            return f"{raw.year:04d}-{raw.month:02d}"
        return str(raw)
    kind, _ = leaf_kind(keys)
    number = isinstance(raw, int | float) and not isinstance(raw, bool)
    if kind == "int" and number and float(raw).is_integer():
        return int(raw)
    if kind == "bool" and number and raw in (0, 1):
        return bool(raw)
    if kind == "text" and number:
        return f"{raw:g}" if isinstance(raw, float) else str(raw)
    if kind == "quantity" and number:
        return int(raw) if float(raw).is_integer() and abs(raw) < 2**53 else float(raw)
    return raw


def same(a: Any, b: Any) -> bool:
    """Whether a cell still holds the value written there: numbers equal to the
    last bits a spreadsheet's decimal text can lose (relative 1e-14)."""
    num = (int, float)
    if isinstance(a, num) and isinstance(b, num) and not isinstance(a, bool | str):
        return a == b or math.isclose(a, b, rel_tol=1e-14, abs_tol=0.0)
    return a == b


def shown(v: Any) -> str:
    """A value as the note and the report show it."""
    if v is None:
        return "blank"
    if isinstance(v, float):
        return f"{v:.12g}"
    return str(v)


def entry(keys: tuple[str, ...], value: Any, base: Any, note: str) -> Any:
    """What the overlay holds at ``keys``: ``value`` in mapping form where the
    schema allows one (a quantity keeps ``base``'s range, unit and source, the range
    widened to include ``value`` as ``--set`` does), with ``base``'s own note and
    ``note`` appended (:func:`~costmodel.inputs.provenance.with_change`); as is
    otherwise, and None (null: the input removed, its default used) for a cleared cell."""
    kind, mapping = leaf_kind(keys)
    if value is None or not mapping:
        return value
    out: dict[str, Any] = {"value": value}
    if (kind == "quantity" and isinstance(base, Quantity)) or isinstance(base, WholeNumber):
        for k in KEPT:
            v = getattr(base, k, None)
            if v is not None:
                out[k] = v
        if isinstance(value, int | float) and not isinstance(value, bool):
            if "low" in out and value < out["low"]:
                out["low"] = value
            if "high" in out and value > out["high"]:
                out["high"] = value
    out["note"] = with_change(getattr(base, "note", None), note)  # the reasoning kept
    return out


def base_value(a: Assumptions, keys: tuple[str, ...]) -> Any:
    """The validated value at ``keys`` in ``a`` (None where it is absent)."""
    node: Any = a
    for key in keys:
        if node is None:
            return None
        if isinstance(node, dict):
            node = node.get(key)
        elif isinstance(node, list):
            node = node[int(key)] if key.isdigit() and int(key) < len(node) else None
        else:
            node = getattr(node, key, None)
    return node


def place(overlay: dict[str, Any], a: Assumptions, keys: tuple[str, ...], value: Any) -> None:
    """Put ``value`` at ``keys`` in ``overlay``. A list (a tier's stages) is
    replaced whole when merged, so the overlay holds the base's list (as its
    validated mappings) with the change applied."""
    node: Any = overlay
    for i, key in enumerate(keys[:-1]):
        nxt = keys[i + 1]
        if isinstance(node, list):
            node = node[int(key)]
            continue
        if key not in node:
            here = base_value(a, keys[: i + 1])
            if isinstance(here, list) and nxt.isdigit():
                # as written: a stage's defaults left out (no capacity_tb under a
                # design, where storage follows the GPUs, methodology §28.1)
                node[key] = [s.model_dump(exclude_none=True, exclude_defaults=True) for s in here]
            else:
                node[key] = {}
        node = node[key]
    last = keys[-1]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = copy.deepcopy(value)


def overlay_text(overlay: dict[str, Any], header: list[str]) -> str:
    """The overlay as YAML, under comment lines ``header``."""
    import yaml

    class Dumper(yaml.SafeDumper):
        pass

    def no_aliases(_self: Any, _data: Any) -> bool:
        return True

    Dumper.ignore_aliases = no_aliases  # type: ignore[method-assign]
    body = yaml.dump(overlay, Dumper=Dumper, sort_keys=False, allow_unicode=True, width=100)
    head = "".join(f"# {line}\n" for line in header)
    return head + body
