"""Exchange rates of the ``fx`` section (methodology §2.8): model currency
per unit of another ISO 4217 currency, each with its source and the month quoted."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictStr

#: an ISO 4217 code: three capital letters
ISO_CODE = r"^[A-Z]{3}$"


class FxRate(BaseModel):
    """One rate: ``value`` units of the model currency per unit of the currency it
    is keyed by (``fx: {USD: {value: 7.2, source: ..., as_of: 2025-06}}``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    value: Annotated[float, Field(strict=True, gt=0, allow_inf_nan=False)]
    unit: StrictStr | None = None
    source: StrictStr | None = None
    note: StrictStr | None = None
    as_of: Annotated[StrictStr, Field(pattern=r"^\d{4}-(0[1-9]|1[0-2])$")] | None = None


def _rate(v: object) -> object:
    """A bare number is ``{value: number}``."""
    return {"value": v} if isinstance(v, int | float) and not isinstance(v, bool) else v


#: the ``fx`` section: ISO code -> rate
FxTable = dict[Annotated[str, Field(pattern=ISO_CODE)], Annotated[FxRate, BeforeValidator(_rate)]]
