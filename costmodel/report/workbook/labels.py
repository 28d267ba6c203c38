"""Readable labels and units of the model's inputs, keyed by the last part(s) of
their dotted path (``operations.utilization`` -> "utilization (GPU-hours sold /
available)"). The dotted path is still shown in its own column for
cross-reference; a unit written in the assumption file wins over the one here,
so the unit column is never blank. ``{cur}`` is the model currency.
"""

from __future__ import annotations

#: leaf key -> (label, unit)
INPUTS: dict[str, tuple[str, str]] = {
    "discount_rate": ("discount rate (annual)", "1/yr"),
    "tax_rate": ("corporate income tax rate", "fraction of taxable profit"),
    "price_per_kwh": ("electricity price", "{cur}/kWh"),
    "escalation": ("electricity price escalation", "1/yr"),
    "aux_power_fraction": (
        "auxiliary IT power (network, storage, mgmt)",
        "fraction of server power",
    ),
    "colocation_per_kw_month": ("colocation fee", "{cur}/kW-month"),
    "utilization": ("utilization (GPU-hours sold / available)", "fraction"),
    "maintenance_rate": ("maintenance and spares", "fraction of hardware capex/yr"),
    "insurance_rate": ("insurance", "fraction of capex/yr"),
    "staff_cost_per_fte": ("staff cost per FTE, fully loaded", "{cur}/FTE-year"),
    "staff_escalation": ("staff cost escalation", "1/yr"),
    "software_per_gpu_year": ("software and licences per GPU", "{cur}/GPU-year"),
    "price_per_gpu_hour": ("rental price of a GPU-hour", "{cur}/GPU-h"),
    "price_decline": ("GPU-hour price decline", "1/yr"),
    "node_failures_per_day": ("job-interrupting failures per server", "per server-day"),
    "restart_hours": ("hours lost per failure (detect, isolate, reload)", "h"),
    "checkpoint_tb": ("checkpoint size", "TB"),
    "mfu": ("model FLOPs utilization (MFU)", "fraction"),
    "build_months": ("construction: months from investment to first service", "months"),
    "ramp_months": ("ramp-up from first service to full utilization", "months"),
    "repair_hours": ("repair time of a failed server (out of service)", "h"),
    "retrofit_premium": ("retrofit premium on extending a live hall", "fraction of build cost/kW"),
    "reserve_headroom": ("hall for the final IT load at month 0 (1) or per stage (0)", "0/1"),
    "servers.price_decline": ("server price decline", "1/yr"),
    "market_decline": ("market value decline (terminal value = market)", "1/yr"),
    "stages.month": ("stage: capex month (in service the month after)", "month"),
    "stages.gpus": ("stage: GPUs added", "GPUs"),
    "stages.capacity_tb": ("stage: storage added", "TB"),
    "stages.staff_fte": ("stage: staff from its in-service month", "FTE"),
    "gpus": ("GPUs", "GPUs"),
    "server": ("server model (catalogue id)", "id"),
    "cooling": ("cooling type", "id"),
    "label": ("label (as written in the assumption file)", "text"),
    "live_label": ("label from the live GPU count and server", "text"),
    "network.share": ("network share of hardware capex", "fraction"),
    "storage.capacity_tb": ("storage capacity", "TB"),
    "storage.price_per_tb": ("storage price", "{cur}/TB"),
    "storage.write_gbps": ("storage write bandwidth", "GB/s"),
    "rack_kw": ("rack power", "kW/rack"),
    "staff_fte": ("infrastructure staff", "FTE"),
    "gpu_hour_value": ("value of a GPU-hour used (rental, or cloud price avoided)", "{cur}/GPU-h"),
    "gpus_per_server": ("GPUs per server", "GPUs"),
    "price": ("server price", "{cur}/server"),
    "power_kw": ("server power at full load", "kW"),
    "idle_fraction": ("idle draw", "fraction of max draw"),
    "gpu_memory_gb": ("GPU memory", "GB per GPU"),
    "tflops_bf16": ("dense BF16 throughput", "TFLOPS per GPU"),
    "cloud_on_demand_per_gpu_hour": ("cloud on-demand price", "{cur}/GPU-h"),
    "cloud_reserved_per_gpu_hour": ("cloud reserved price", "{cur}/GPU-h"),
    "pue": ("PUE", "ratio"),
    "build_cost_per_kw": ("build cost of the hall", "{cur}/kW IT"),
    "max_rack_kw": ("max rack power", "kW/rack"),
    "salvage": ("salvage value", "fraction of cost"),
    "life_years": ("useful life", "years"),
    "method": ("depreciation method", "list"),
    "mode": ("mode", "list"),
    "revenue.mode": ("revenue mode (rental or avoided cloud)", "list"),
    "cloud_term": ("cloud price term", "list"),
    "network.fabric": ("network fabric", "text"),
    "storage.kind": ("storage system", "text"),
    "scheduler": ("scheduler", "text"),
    "description": ("description", "text"),
    "debt_share": ("debt share of each capex month", "fraction"),
    "interest_rate": ("interest rate of the loans", "1/yr"),
    "term_years": ("loan term (level monthly payments)", "years"),
    "cost_of_equity": ("cost of equity (discount rate of equity cash flow)", "1/yr"),
    "min_dscr_covenant": ("minimum DSCR covenant (shown, not enforced)", "x"),
    "loss_carryforward_years": ("years a tax loss may be carried forward", "years"),
}


def _entry(path: str) -> tuple[str, str] | None:
    parts = path.split(".")
    for n in (2, 1):
        key = ".".join(parts[-n:])
        if key in INPUTS:
            return INPUTS[key]
    return None


def label_for(path: str) -> str:
    """A readable label for the input at dotted ``path`` (the path if unknown)."""
    e = _entry(path)
    return e[0] if e else path.replace("_", " ")


def unit_for(path: str, currency: str, written: str | None = None) -> str:
    """The unit of ``path``: the one written in the assumption file, else this
    module's, else "number" (never blank)."""
    if written:
        return written
    e = _entry(path)
    return e[1].format(cur=currency) if e else "number"
