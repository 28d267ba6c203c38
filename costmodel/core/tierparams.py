"""The numeric inputs of one tier as the engine reads them: :class:`TierParams`, a
frozen dataclass whose fields are numbers or (S,) arrays (S variants of the tier,
the scenario axis), read by attribute.

A field that a tier may lack is None when it does: ``fabric_radix`` (the network
designed rather than a share of the servers, methodology §12.1),
``storage_node_price`` (storage sized in nodes, §28.2), ``staff_fixed_fte`` (staff
scaling with the servers, §12.2), ``grid_mw`` (a site that limits its grid, §29),
``discount_rate`` (None with ``finance.discount_rate: wacc``, §11.10) and the like;
the inputs that v1 assumptions did not have default to what v1 computed (no
build, no ramp, no debt, no contract, the cost of equity at the discount rate).
The inputs of each asset class, opex line or stage are mappings and tuples
(:attr:`TierParams.salvage`, :attr:`TierParams.vat_input`,
:attr:`TierParams.stages`) over the catalogue's lists.

:meth:`TierParams.of` builds one from the flat vocabulary of input names
(``gpus``, ``salvage_servers``, ``stage1_month``, ...:
:class:`costmodel.inputs.params.TierInputs`), refusing a name it does not know;
:meth:`TierParams.varied` sets some of them (the scenario axis: a draw of every
Monte Carlo input, a tornado's low and high values), :func:`dataclasses.replace`
sets fields.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from costmodel.catalogue.items import CAPEX_CLASSES, VAT_INPUT_KEYS

#: a number, or one value per variant
Num = Any


@dataclass(frozen=True)
class Stage:
    """Stage i of a tier (methodology §8.1): its month, its GPUs, its storage (not
    when storage is sized in nodes) and its headcount (not when the staff scales
    with the servers)."""

    month: Num
    gpus: Num
    capacity_tb: Num | None = None
    staff_fte: Num | None = None


@dataclass(frozen=True, kw_only=True)
class TierParams:
    """The numeric inputs of one tier (see the module docstring); each a number or
    an (S,) array, None where the tier lacks it."""

    # servers and racks (methodology §3.1)
    gpus: Num
    gpus_per_server: Num
    server_price: Num
    server_power_kw: Num
    idle_fraction: Num
    gpu_memory_gb: Num = 0.0
    tflops_bf16: Num = 0.0
    rack_kw: Num
    racks_per_unit: Num | None = None
    server_price_decline: Num = 0.0
    lead_months: Num | None = None
    # network: a share of the servers, or designed (methodology §12.1, §28.4)
    network_share: Num | None = None
    fabric_radix: Num | None = None
    fabric_switch_price: Num | None = None
    fabric_optic_price: Num | None = None
    fabric_oversubscription: Num | None = None
    fabric_per_server: Num | None = None
    fabric_rail_optimized: Num | None = None
    fabric_endpoints_per_unit: Num | None = None
    # storage: capacity at a price per TB, or sized in nodes (methodology §3.1, §28.2)
    storage_capacity_tb: Num | None = None
    storage_price_per_tb: Num | None = None
    write_gbps: Num | None = None
    storage_node_capacity_tb: Num | None = None
    storage_node_write_gbps: Num | None = None
    storage_node_read_gbps: Num | None = None
    storage_node_price: Num | None = None
    storage_min_nodes: Num | None = None
    storage_min_capacity_tb: Num | None = None
    storage_capacity_tb_per_gpu: Num | None = None
    storage_write_gbps_per_gpu: Num | None = None
    storage_read_gbps_per_gpu: Num | None = None
    storage_capacity_tier: Num | None = None
    storage_capacity_price_per_tb: Num | None = None
    # staff: a headcount, or fixed plus per server (methodology §12.2)
    staff_fte: Num | None = None
    staff_fixed_fte: Num | None = None
    staff_fte_per_server: Num | None = None
    # power and the facility (methodology §3.2, §8.1)
    aux_power_fraction: Num
    pue: Num
    price_per_kwh: Num
    power_escalation: Num
    build_cost_per_kw: Num
    colocation_per_kw_month: Num
    build_flag: Num
    retrofit_premium: Num = 0.0
    reserve_headroom: Num = 1.0
    # the site (methodology §29)
    price_factor: Num | None = None
    grid_mw: Num | None = None
    grid_connection_per_mw: Num | None = None
    grid_lead_months: Num | None = None
    # operations (methodology §3.3, §11.4)
    utilization: Num
    maintenance_rate: Num
    insurance_rate: Num
    staff_cost_per_fte: Num
    staff_escalation: Num
    software_per_gpu_year: Num
    sga_share: Num = 0.0
    # reliability (methodology §12)
    node_failures_per_day: Num
    restart_hours: Num
    checkpoint_tb: Num
    mfu: Num
    repair_hours: Num = 0.0
    # timeline (methodology §8.1)
    build_months: Num = 0.0
    ramp_months: Num = 0.0
    stages: tuple[Stage, ...] = ()
    # revenue and contracts (methodology §11.5, §11.12)
    price_per_gpu_hour: Num
    price_decline: Num
    cloud_price_per_gpu_hour: Num | None = None
    contract_at_hour_value: Num = 0.0
    contract_share: Num = 0.0
    contract_price_per_gpu_hour: Num = 0.0
    contract_months: Num = 0.0
    contract_escalation: Num = 0.0
    contract_default_rate: Num = 0.0
    # quotes rolled to the start (methodology §30)
    spot_roll_months: Num | None = None
    contract_roll_months: Num | None = None
    cloud_roll_months: Num | None = None
    server_price_roll_months: Num | None = None
    # finance (methodology §8.2, §8.3, §11.10)
    discount_rate: Num | None = None
    discount_wacc: Num | None = None
    tax_rate: Num
    terminal_flag: Num = 1.0
    economic_life_years: Num | None = None
    debt_share: Num = 0.0
    interest_rate: Num = 0.0
    loan_rate_nominal: Num = 0.0
    term_years: Num = 1.0
    cost_of_equity: Num | None = None
    # depreciation per asset class (methodology §3.3, §8.1)
    salvage: Mapping[str, Num] = field(default_factory=dict)
    market_decline: Mapping[str, Num] = field(default_factory=dict)
    # VAT (methodology §24, §11.11): the input rate per capex class and opex line
    vat_output_rate: Num | None = None
    vat_input: Mapping[str, Num] = field(default_factory=dict)
    vat_surtax_rate: Num | None = None
    vat_refund_ratio: Num | None = None

    @classmethod
    def of(cls, values: Mapping[str, ArrayLike]) -> TierParams:
        """The inputs from their flat names (see :func:`flat_field`); a name that
        is not an input raises ``KeyError``."""
        return TierParams(**_fields_of(values, {}, ()))

    def varied(self, values: Mapping[str, ArrayLike]) -> TierParams:
        """These inputs with the flat names of ``values`` set to their values
        (numbers or (S,) arrays); a name that is not an input raises
        ``KeyError``."""
        per = {where: getattr(self, where) for where in PER_CLASS}
        return self.replaced(**_fields_of(values, per, self.stages))

    def flat(self) -> dict[str, Any]:
        """The inputs by their flat names (:meth:`of` of it is these inputs); None
        fields left out."""
        out: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name in PER_CLASS:
                out |= {f"{PER_CLASS[f.name]}{k}": x for k, x in v.items()}
            elif f.name == "stages":
                for i, st in enumerate(v, start=1):
                    for a in ("month", "gpus", "capacity_tb", "staff_fte"):
                        if getattr(st, a) is not None:
                            out[f"stage{i}_{a}"] = getattr(st, a)
            elif v is not None:
                out[f.name] = v
        return out

    def arrays(self) -> list[Any]:
        """Every number and array among the inputs (those of each class and stage
        too), None left out."""
        out: list[Any] = []
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name in PER_CLASS:
                out += list(v.values())
            elif f.name == "stages":
                out += [getattr(st, a) for st in v for a in STAGE_FIELDS]
            else:
                out.append(v)
        return [v for v in out if v is not None]

    def spread(self, size: int) -> TierParams:
        """Every input as an (S,) float array of ``size`` variants (see
        :func:`spread`); None stays None."""
        return self.mapped(lambda v: spread(v, size))

    def mapped(self, fn: Callable[[Any], Any]) -> TierParams:
        """These inputs with ``fn`` applied to each number and array (those of
        each class and stage too); None stays None."""

        def each(v: Any) -> Any:
            return None if v is None else fn(v)

        changes: dict[str, Any] = {}
        for name, v in self.__dict__.items():
            if name in PER_CLASS:
                changes[name] = {k: each(x) for k, x in v.items()}
            elif name == "stages":
                changes[name] = tuple(
                    Stage(**{a: each(getattr(st, a)) for a in STAGE_FIELDS}) for st in v
                )
            else:
                changes[name] = each(v)
        return self.replaced(**changes)

    def replaced(self, **changes: Any) -> TierParams:
        """These inputs with the fields ``changes`` set: :func:`dataclasses.replace`
        for the engine's own changes (a name that is no field raises ``TypeError``),
        without running ``__init__`` again."""
        unknown = changes.keys() - self.__dict__.keys()
        if unknown:
            raise TypeError(f"not fields of TierParams: {sorted(unknown)}")
        out = object.__new__(TierParams)
        out.__dict__.update(self.__dict__)
        out.__dict__.update(changes)
        return out


#: the fields of a :class:`Stage`
STAGE_FIELDS = ("month", "gpus", "capacity_tb", "staff_fte")

#: the fields by asset class or line, and the prefix of their flat names
PER_CLASS = {"salvage": "salvage_", "market_decline": "market_decline_", "vat_input": "vat_input_"}

#: the keys of each field of :data:`PER_CLASS`
PER_CLASS_KEYS = {
    "salvage": CAPEX_CLASSES,
    "market_decline": CAPEX_CLASSES,
    "vat_input": VAT_INPUT_KEYS,
}

_STAGE = re.compile(r"stage(\d+)_(month|gpus|capacity_tb|staff_fte)")
_PLAIN = frozenset(f.name for f in fields(TierParams)) - {*PER_CLASS, "stages"}


def flat_field(name: str) -> tuple[str, Any]:
    """Where the input of flat name ``name`` is: ``("", field)`` for a field of
    its own, ``(field, key)`` for one of an asset class or line (``salvage_servers``
    -> ``("salvage", "servers")``), ``("stage", (i, attr))`` for stage i's
    (``stage2_gpus`` -> ``("stage", (2, "gpus"))``); ``KeyError`` for no input.

    >>> flat_field("gpus"), flat_field("salvage_storage"), flat_field("stage1_month")
    (('', 'gpus'), ('salvage', 'storage'), ('stage', (1, 'month')))
    """
    if name in _PLAIN:
        return "", name
    for where, prefix in PER_CLASS.items():
        if name.startswith(prefix) and name[len(prefix) :] in PER_CLASS_KEYS[where]:
            return where, name[len(prefix) :]
    m = _STAGE.fullmatch(name)
    if m is not None and int(m.group(1)) >= 1:
        return "stage", (int(m.group(1)), m.group(2))
    raise KeyError(f"{name!r} is not an input of the engine")


def _fields_of(
    values: Mapping[str, ArrayLike],
    per_before: Mapping[str, Mapping[str, Any]],
    stages_before: tuple[Stage, ...],
) -> dict[str, Any]:
    """The fields that the flat names of ``values`` set (:func:`flat_field`): those
    of a class or line merged into ``per_before``, those of stages into
    ``stages_before``."""
    plain: dict[str, Any] = {}
    per: dict[str, dict[str, Any]] = {}
    stages: dict[int, dict[str, Any]] = {}
    for name, v in values.items():
        where, key = flat_field(name)
        if where == "":
            plain[key] = v
        elif where == "stage":
            stages.setdefault(key[0], {})[key[1]] = v
        else:
            per.setdefault(where, {})[key] = v
    for where, got in per.items():
        plain[where] = {**per_before.get(where, {}), **got}
    if stages:
        plain["stages"] = _staged(stages_before, stages)
    return plain


def _staged(before: tuple[Stage, ...], given: dict[int, dict[str, Any]]) -> tuple[Stage, ...]:
    """``before`` with the fields of stages ``given`` (stage number -> fields) set;
    stages numbered past the end are added (their number is their place)."""
    out = list(before)
    for i in sorted(given):
        if i <= len(out):
            out[i - 1] = dataclasses.replace(out[i - 1], **given[i])
        elif i == len(out) + 1:
            out.append(Stage(**given[i]))
        else:
            raise KeyError(f"stage{i}: stage {len(out) + 1} is not given")
    return tuple(out)


def spread(v: ArrayLike, size: int) -> Any:
    """``np.broadcast_to(v, (size,))`` as float; a number's view made directly (a
    read-only view of stride 0, as ``np.broadcast_to`` makes it)."""
    if isinstance(v, np.ndarray) and v.shape == (size,) and v.dtype == np.float64:
        return v
    one = np.asarray(v, dtype=float)
    if one.size != 1:
        return np.broadcast_to(one, (size,))
    out = np.ndarray((size,), dtype=float, buffer=one.reshape(1).copy(), strides=(0,))
    out.flags.writeable = False
    return out
