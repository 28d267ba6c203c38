"""The bundled default with its tiers in the v3 form (no designs: each tier sizes its
own network, storage, cooling, rack power and team), for the tests of those paths."""

from __future__ import annotations

from pathlib import Path

import costmodel as cm
from costmodel.inputs.resources import default_assumptions_dir

#: the overlay that gives the default's tiers their own parts and no design
V3_TIERS = Path(__file__).with_name("v3-tiers.yaml")


def v3_paths() -> list[Path]:
    """The default's folder and the v3 overlay, in merge order."""
    return [default_assumptions_dir(), V3_TIERS]


def v3_default(**kwargs) -> cm.Assumptions:
    """The default with its tiers in the v3 form (``load_assumptions`` keywords pass
    through, e.g. ``overrides``)."""
    return cm.load_assumptions(*v3_paths(), **kwargs)
