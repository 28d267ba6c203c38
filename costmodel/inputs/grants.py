"""Subsidies in the assumption files (methodology §11.13): a list of grants, power
rebates and compute vouchers, globally (``subsidies:``) or per tier (a tier's own
list replaces the global one)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr, model_validator

Fraction = Annotated[float, Field(strict=False, ge=0, le=1, allow_inf_nan=False)]
Amount = Annotated[float, Field(strict=False, ge=0, allow_inf_nan=False)]

#: the keys each kind needs, and those it may have besides (with taxable, source, note)
KIND_KEYS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "capex_grant": (("share",), ("classes", "lag_months", "cap")),
    "power_rebate": (("per_kwh", "years"), ()),
    "voucher": (("share_of_revenue", "years"), ()),
}


class Subsidy(BaseModel):
    """One subsidy: ``capex_grant`` (``share`` of the net capex of ``classes``, every
    class if absent, paid ``lag_months`` after each capex event, the running total
    capped at ``cap``), ``power_rebate`` (``per_kwh`` of metered kWh in model years
    1..``years``) or ``voucher`` (``share_of_revenue`` of revenue in model years
    1..``years``); ``taxable`` (default true): income of the model year it is
    received in. No VAT."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["capex_grant", "power_rebate", "voucher"]
    share: Fraction | None = None
    classes: tuple[Literal["servers", "network", "storage", "facility"], ...] | None = None
    lag_months: Annotated[int, Field(ge=0, le=360)] | None = None
    cap: Amount | None = None
    per_kwh: Amount | None = None
    years: Annotated[int, Field(ge=1, le=100)] | None = None
    share_of_revenue: Fraction | None = None
    taxable: StrictBool = True
    source: StrictStr | None = None
    note: StrictStr | None = None

    @model_validator(mode="after")
    def _keys_of_its_kind(self) -> Subsidy:
        need, may = KIND_KEYS[self.kind]
        missing = [k for k in need if getattr(self, k) is None]
        if missing:
            article = "an" if self.kind[0] in "aeiou" else "a"
            raise ValueError(f"{article} {self.kind} needs {', '.join(missing)}")
        others = {k for keys in KIND_KEYS.values() for k in (*keys[0], *keys[1])}
        foreign = sorted(k for k in others - {*need, *may} if getattr(self, k) is not None)
        if foreign:
            raise ValueError(
                f"{', '.join(foreign)}: not a key of a {self.kind} (methodology §11.13)"
            )
        return self
