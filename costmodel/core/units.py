"""Units, calendar constants, the scale classes and the named tolerances (methodology §1 and §4).

Every other module takes these from here, so a constant is written once.
"""

from __future__ import annotations

MONTHS_PER_YEAR = 12
HOURS_PER_DAY = 24.0
DAYS_PER_YEAR = 365.0
HOURS_PER_YEAR = 8760.0  # 365 x 24
HOURS_PER_MONTH = HOURS_PER_YEAR / MONTHS_PER_YEAR  # 730, the same for every month (methodology §1)
SECONDS_PER_HOUR = 3600.0
SECONDS_PER_DAY = 86400.0
GB_PER_TB = 1000.0  # decimal units: 1 TB = 10^12 bytes, 1 GB = 10^9 bytes
BYTES_PER_GB = 1e9
FLOP_PER_TFLOP = 1e12
TFLOPS_PER_PFLOPS = 1000.0
PARAMS_PER_BILLION = 1e9

#: scale classes of methodology §4 as (name, largest GPU count of the class); the last has no bound
SCALE_CLASSES: tuple[tuple[str, int | None], ...] = (
    ("tens", 64),
    ("hundreds", 511),
    ("thousands", None),
)


def scale_class(gpus: float) -> str:
    """``tens`` if gpus <= 64, ``hundreds`` if gpus <= 511, else ``thousands`` (methodology §4)."""
    for name, top in SCALE_CLASSES:
        if top is None or gpus <= top:
            return name
    raise AssertionError("the last scale class is unbounded")


def scale_class_floors() -> list[tuple[int, str]]:
    """``[(1, "tens"), (65, "hundreds"), (512, "thousands")]``: the smallest GPU count of
    each class (the workbook's LOOKUP table), derived from :data:`SCALE_CLASSES`."""
    floors, lo = [], 1
    for name, top in SCALE_CLASSES:
        floors.append((lo, name))
        lo = (top or 0) + 1
    return floors


# ----------------------------------------------------------------------------- tolerances

#: a root of an NPV polynomial is accepted when |NPV| <= this x the sum of |terms|
IRR_ROOT_TOLERANCE = 1e-9
#: Newton's method on the IRR polynomial stops when the step is below this x |x|
IRR_STEP_TOLERANCE = 1e-15
#: cumulative cash sums compared with this relative slack (rounding of long sums)
CUMULATIVE_RELATIVE_TOLERANCE = 1e-12
