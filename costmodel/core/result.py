"""What the engine returns for one tier: the line names, :class:`TierResult`
and the mappings whose values are computed when first read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from threading import RLock
from typing import Any

from costmodel.catalogue.items import CAPEX_CLASSES, OPEX_LINES, VAT_INPUT_KEYS  # noqa: F401 (re-exported)
from costmodel.core.finance import FloatArray

#: the capex classes (the opex lines are :data:`costmodel.catalogue.items.OPEX_LINES`)
CAPEX_LINES = CAPEX_CLASSES


SUMMARY_COLUMNS = (
    "scale_class",
    "gpus",
    "servers",
    "racks",
    "it_kw",
    "facility_mw",
    "capex",
    *(f"capex_{c}" for c in CAPEX_CLASSES),
    "network_share",
    "network_levels",
    "storage_tb",
    "storage_write_gbps",
    "storage_nodes",
    "cooling",
    "rack_kw",
    "design",
    "opex_year1",
    "opex_full_year",
    "opex_full_year_number",
    "tco",
    "gpu_hours",
    "tco_per_gpu_hour",
    "cost_per_gpu_hour",
    "revenue",
    "contract_at_risk",
    "realized_price",
    "npv",
    "discount_rate",
    "irr",
    "payback_years",
    "roi",
    "mtbf_hours",
    "checkpoint_interval_hours",
    "goodput",
    "cost_per_effective_gpu_hour",
    "cost_per_pflop_hour",
    "availability",
    "peak_funding",
    "equity_npv",
    "equity_irr",
    "min_dscr",
    "debt_peak",
    "vat_paid",
    "vat_credit_peak",
    "surtax",
    "subsidies",
    "site",
    "feasible",
    "infeasible_reason",
)


DEBT_LINES = (
    "balance_open",
    "draw",
    "capitalized_interest",
    "interest",
    "principal",
    "balloon",
    "balance_close",
)


#: the monthly lines of the VAT schedule (methodology §24), in the order the model
#: shows them
VAT_LINES = (
    "output",
    "input",
    "credit_open",
    "payable",
    "credit_before_refund",
    "refund",
    "credit",
    "surtax",
    "vat_cash",
)

#: the input VAT of each capex class and opex line with VAT (``input_<key>``)
VAT_INPUT_COLUMNS = tuple(f"input_{k}" for k in VAT_INPUT_KEYS)


@dataclass(frozen=True)
class TierResult:
    """Everything computed for one tier, for S scenario variants.

    ``capex``: asset class -> (S,) nominal sum of its capex events;
    ``capex_months``: asset class -> (S, M+1); ``opex`` and ``depreciation``:
    line -> (S, M+1); ``flows``: monthly cash-flow lines (revenue, opex, capex,
    depreciation, ebit, tax, terminal_value, terminal_tax, fcf, the levered lines
    and the indices) -> (S, M+1); ``debt``: :data:`DEBT_LINES` -> (S, M+1);
    ``annual``: year tables (EBIT, tax and the loss corkscrew, unlevered and
    levered, debt service) -> (S, Y); ``deployments``: one mapping per vintage
    (month, gpus, servers, it_kw, capex per class, total) of (S,) arrays;
    ``metrics``: summary column -> (S,); ``opex_by_year``: each opex line summed
    over the months of each model year -> (S, Y); ``fcf``: the free cash flow (S,
    M+1) the summary reads, computed when read (None: ``flows["fcf"]``; both
    through :meth:`monthly_fcf`); ``nbv``: asset class -> (S,) net book
    value at month M; ``vat``: the VAT schedule (methodology §24:
    :data:`VAT_LINES` and :data:`VAT_INPUT_COLUMNS`) -> (S, M+1), all 0 without
    a ``vat`` section; ``schedules``: each capex event, loan, loss vintage and
    deployment (:class:`costmodel.core.schedules.TierSchedules`), built when first
    read.
    """

    months: int
    capex: dict[str, FloatArray]
    capex_months: Mapping[str, FloatArray]
    opex: Mapping[str, FloatArray]
    depreciation: Mapping[str, FloatArray]
    nbv: dict[str, FloatArray]
    flows: Mapping[str, FloatArray]
    annual: Mapping[str, FloatArray]
    metrics: Mapping[str, FloatArray]
    debt: Mapping[str, FloatArray] = field(default_factory=dict)
    deployments: list[dict[str, FloatArray]] = field(default_factory=list)
    schedules_of: Callable[[], Any] | None = None
    vat: Mapping[str, FloatArray] = field(default_factory=dict)
    opex_by_year: Mapping[str, FloatArray] = field(default_factory=dict)
    fcf: Callable[[], FloatArray] | None = None

    @property
    def schedules(self) -> Any:
        """The tier's :class:`~costmodel.core.schedules.TierSchedules`."""
        if self.schedules_of is None:
            raise ValueError("this result has no schedules")
        return self.schedules_of()

    def monthly_fcf(self) -> FloatArray:
        """The free cash flow (S, M+1): ``fcf()``, or ``flows["fcf"]`` without it."""
        return self.fcf() if self.fcf is not None else self.flows["fcf"]

    @property
    def size(self) -> int:
        return int(self.metrics["npv"].shape[0])


class Lazy(Mapping):
    """A mapping whose contents are computed by ``source()`` on first access."""

    def __init__(self, source: Callable[[], Mapping[str, FloatArray]]):
        self._source = source
        self._data: Mapping[str, FloatArray] | None = None
        self._lock = RLock()

    def _get(self) -> Mapping[str, FloatArray]:
        if self._data is None:
            with self._lock:
                if self._data is None:
                    self._data = self._source()
        return self._data

    def __getitem__(self, key: str) -> FloatArray:
        return self._get()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())

    def __repr__(self) -> str:
        return f"<lazy lines {list(self) if self._data is not None else '(not built)'}>"


class Derived:
    """A column computed when read from other columns of the same :class:`Metrics`
    (``compute(metrics)``): it reads them through its argument, so that the metrics
    hold no closure that holds them (no reference cycle keeps a run's arrays alive
    until the garbage collector finds it)."""

    def __init__(self, compute: Callable[[Metrics], FloatArray]):
        self.compute = compute


class Metrics(Mapping):
    """Summary columns; the IRRs (the costliest) are computed when first read."""

    def __init__(self, values: dict[str, FloatArray | Callable[[], FloatArray] | Derived]):
        self._values = values
        self._lock = RLock()

    def __getitem__(self, key: str) -> FloatArray:
        v = self._values[key]
        if callable(v) or isinstance(v, Derived):
            with self._lock:
                v = self._values[key]
                if isinstance(v, Derived):
                    v = v.compute(self)
                elif callable(v):
                    v = v()
                self._values[key] = v
        return v  # type: ignore[return-value]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __contains__(self, key: object) -> bool:
        return key in self._values


def value_of(x: FloatArray | Callable[[], FloatArray]) -> FloatArray:
    """``x``, or ``x()`` when it is computed when read."""
    return x() if callable(x) else x
