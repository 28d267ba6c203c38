"""Some of a tier's engine inputs, for a test of one engine function that reads
only them."""

from __future__ import annotations

from dataclasses import fields
from types import SimpleNamespace
from typing import Any

from costmodel.core.tierparams import TierParams


def some_params(values: dict[str, Any]) -> Any:
    """An object with the attributes of :class:`TierParams`: those of ``values``
    (flat names of plain fields), every other field None; a name that is no field
    raises ``KeyError``."""
    names = {f.name for f in fields(TierParams)}
    unknown = sorted(set(values) - names)
    if unknown:
        raise KeyError(f"not engine inputs: {unknown}")
    return SimpleNamespace(**({n: None for n in names} | values))
