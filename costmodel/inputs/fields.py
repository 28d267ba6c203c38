"""The schema seen from outside: the field at a dotted path and its validators'
marks (whether it is a fraction, methodology §2.5), and the JSON Schema of a file."""

from __future__ import annotations

import types
import typing
from typing import Annotated, Any

from pydantic import BaseModel

from costmodel.inputs.forms import FRACTION
from costmodel.inputs.schema import Assumptions


def _types(tp: Any, marks: list[Any]) -> list[Any]:
    """The types a value of annotation ``tp`` may hold (unions and Annotated
    unwrapped); the Annotated metadata met on the way is appended to ``marks``."""
    origin = typing.get_origin(tp)
    if origin is Annotated:
        marks.extend(tp.__metadata__)
        return _types(typing.get_args(tp)[0], marks)
    if origin in (typing.Union, types.UnionType):
        return [t for arg in typing.get_args(tp) for t in _types(arg, marks)]
    return [tp]


def field_marks(keys: list[str]) -> list[Any] | None:
    """The Annotated metadata of the field at ``keys`` (a dotted path's keys, list
    items by index) of :class:`Assumptions`, or None for no such field."""
    current: list[Any] = [Assumptions]
    marks: list[Any] = []
    for key in keys:
        nxt: list[Any] = []
        marks = []
        for tp in current:
            origin = typing.get_origin(tp)
            if isinstance(tp, type) and issubclass(tp, BaseModel):
                field = tp.model_fields.get(key)
                if field is not None:
                    marks.extend(field.metadata)
                    nxt += _types(field.annotation, marks)
            elif origin is dict:
                nxt += _types(typing.get_args(tp)[1], marks)
            elif origin is list and key.isdigit():
                nxt += _types(typing.get_args(tp)[0], marks)
        if not nxt:
            return None
        current = nxt
    return marks


def is_fraction_path(keys: list[str]) -> bool:
    """Whether the input at ``keys`` is a fraction (accepting ``60%``)."""
    return any(m is FRACTION for m in field_marks(keys) or [])


def json_schema() -> dict[str, Any]:
    """JSON Schema of an assumption file, for editor autocompletion.

    A single file may hold any subset of the sections (files are merged), so no
    top-level key is required in the exported schema.
    """
    schema = Assumptions.model_json_schema(mode="validation")
    schema.pop("required", None)
    schema["title"] = "costmodel assumptions (one file of a merged set)"
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema
