"""Numbers the memo reads many times that depend on the model alone, not on the
language: computed once per model and shared by the English and the Chinese memo.

A built :class:`~costmodel.core.model.Model` does not change, so what is derived
from it alone can be kept with it; the entries live in a
:class:`weakref.WeakKeyDictionary` and go when the model goes. Callers must not
change what they get (a DataFrame or an array is shared).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar
from weakref import WeakKeyDictionary

import numpy as np
import pandas as pd

from costmodel.core.model import Model

T = TypeVar("T")
_CACHE: WeakKeyDictionary[Model, dict[Hashable, Any]] = WeakKeyDictionary()


def once(model: Model, key: Hashable, make: Callable[[], T]) -> T:
    """``make()``, computed the first time ``key`` is asked of ``model``."""
    mine = _CACHE.setdefault(model, {})
    if key not in mine:
        mine[key] = make()
    return mine[key]


def summary(model: Model) -> pd.DataFrame:
    """``model.summary()``: read by every label, sentence and chart of the memo."""
    return once(model, "summary", model.summary)


def cumulative_fcf(model: Model, tier: str) -> np.ndarray:
    """The cumulative free cash flow, months 0..M (``model.fcf``: no monthly
    schedule is built for it)."""
    return once(model, ("cumulative_fcf", tier), lambda: np.cumsum(model.fcf(tier)))


def opex_by_year(model: Model, tier: str) -> pd.DataFrame:
    """``model.opex_by_year(tier)``: opex per line and model year."""
    return once(model, ("opex_by_year", tier), lambda: model.opex_by_year(tier))
