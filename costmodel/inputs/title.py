"""The model's title composed from its inputs (methodology §2.7): the name as
written, the default site's label where the model has one, and the first
operating month, so that a changed ``start`` (or site) changes the title and no
year is typed into the name."""

from __future__ import annotations

from typing import Any


def site_label(a: Any) -> str | None:
    """The label (else the key) of the model's default site, or None without one."""
    site = getattr(a, "site", None)
    if not isinstance(site, str) or not site:
        return None
    entry = (getattr(a, "sites", None) or {}).get(site)
    label = getattr(entry, "label", None) if entry is not None else None
    return str(label) if label else site


def model_title(a: Any) -> str:
    """``name, site, from start``: e.g. ``GPU compute center scale options in China,
    from 2027-01``.

    >>> import costmodel as cm
    >>> model_title(cm.load_assumptions(cm.example_dir("by-hand"), overrides={"start": "2028-01"}))
    'Two tiers by hand, from 2028-01'
    """
    parts = [a.name, site_label(a), f"from {a.start}"]
    return ", ".join(p for p in parts if p)
