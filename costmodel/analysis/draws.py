"""The Monte Carlo's draws, made per block (methodology §9 and §9.1; the blocks: §34).

The draws ``0 .. n - 1`` fall in blocks of :data:`BLOCK_SIZE`: block ``b`` holds the
draws ``b B .. min(n, (b + 1) B) - 1``. Every ranged input has its own random stream
in every block,

    ``Generator(PCG64(SeedSequence(seed, spawn_key=(b, key(path)))))``

the child ``key(path)`` of block ``b``'s child of ``SeedSequence(seed)`` (what
``SeedSequence(seed).spawn(b + 1)[b]`` and its own ``spawn`` give, named directly;
``key(path)`` is the first 8 bytes of the BLAKE2b digest of the input's dotted path,
as an integer, :func:`path_key`; a site's own input, ``sites.<name>.<rest>``, is keyed
by ``site.<rest>``, :func:`stream_key`, so that options at different sites see the same
draw of it: a draw high in its range at one site is high at the other, the study's
common random numbers, methodology §34). So an input's draws in block ``b`` depend only
on the seed, ``b`` and its path: a block can be drawn anywhere (a worker process, another
machine) without the draws before it, memory does not grow with ``n``, the first
``n`` draws of a run of more draws are the draws of ``n`` (a block's first ``m``
numbers are the same whatever ``m``), and adding or removing a ranged input leaves
the others' draws unchanged (which the study's common random numbers need:
methodology §34).

An input's draws in a block of ``m`` draws, from its stream:

- ``dist: normal``: ``value + sd * z``, ``z = standard_normal(m)``, clipped to the
  field's valid interval;
- ``uniform``: ``low + u (high - low)``, ``u = random(m)``;
- ``triangular`` (the default): the inverse CDF at ``u = random(m)``: ``low +
  sqrt(u (high - low) (value - low))`` for ``u < (value - low) / (high - low)``, else
  ``high - sqrt((1 - u) (high - low) (high - value))``.

A zero-width range or ``sd = 0`` gives the value; whole-number and timing inputs are
rounded (``numpy.round``). Inputs named by an active pair of ``correlations`` are
drawn through a Gaussian copula instead: each one's ``z = standard_normal(m)`` from
its stream, the block's ``Z`` (paired inputs in model order) mixed by the lower
Cholesky factor ``L`` of their correlation matrix (``L @ Z``), each row then mapped
to its input's margin (``value + sd z`` for a normal input, else the inverse CDF
above at ``u = Phi(z)``).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence

import numpy as np

from costmodel.analysis.sensitivity import RangedInput
from costmodel.inputs.correlations import canonical, matrix
from costmodel.inputs.schema import Correlation

#: draws per block: block ``b`` holds the draws ``b B .. (b + 1) B - 1`` (fixed: a
#: block's draws depend on it, so changing it changes every seed's numbers)
BLOCK_SIZE = 10_000


def path_key(path: str) -> int:
    """The spawn key of an input's stream: the first 8 bytes of the BLAKE2b digest
    of its dotted path, little-endian.

    >>> path_key("power.price_per_kwh") == path_key("power.price_per_kwh")
    True
    """
    return int.from_bytes(hashlib.blake2b(path.encode(), digest_size=8).digest(), "little")


def stream_key(path: str) -> str:
    """The name an input's stream is keyed by: its dotted path, with a site's own
    input (``sites.<name>.<rest>``) named by its role, ``site.<rest>``, so that the
    same input of two sites has the same stream (module docstring).

    >>> stream_key("sites.west.power.price_per_kwh"), stream_key("power.price_per_kwh")
    ('site.power.price_per_kwh', 'power.price_per_kwh')
    """
    parts = path.split(".")
    if parts[0] == "sites" and len(parts) > 2:
        return ".".join(["site", *parts[2:]])
    return path


def stream(seed: int, block: int, path: str) -> np.random.Generator:
    """The random stream of the input at ``path`` in block ``block`` (module docstring).

    >>> np.random.SeedSequence(7).spawn(3)[2].spawn(1)[0].spawn_key
    (2, 0)
    >>> seq = np.random.SeedSequence(7, spawn_key=(2, path_key("x")))
    >>> bool((stream(7, 2, "x").random(3) == np.random.default_rng(seq).random(3)).all())
    True
    """
    if seed < 0:
        raise ValueError(f"the seed must be a whole number >= 0, not {seed}")
    seq = np.random.SeedSequence(seed, spawn_key=(block, path_key(path)))
    return np.random.Generator(np.random.PCG64(seq))


def blocks(n: int) -> list[tuple[int, int, int]]:
    """``(b, lo, hi)`` of the blocks of ``n`` draws: block ``b`` holds the draws
    ``lo .. hi - 1``.

    >>> blocks(25_000)
    [(0, 0, 10000), (1, 10000, 20000), (2, 20000, 25000)]
    """
    return [(b, lo, min(n, lo + BLOCK_SIZE)) for b, lo in enumerate(range(0, n, BLOCK_SIZE))]


# Coefficients of the rational approximations of erf and erfc of the Cephes
# library (ndtr.c, S. L. Moshier; relative error about 1e-16 in IEEE double):
# erf(x) = x T(x^2) / U(x^2) for |x| < 1; erfc(x) = exp(-x^2) P(x) / Q(x) for
# 1 <= x < 8 and exp(-x^2) R(x) / S(x) for x >= 8 (U, Q, S monic).
_T = (
    9.60497373987051638749e0,
    9.00260197203842689217e1,
    2.23200534594684319226e3,
    7.00332514112805075473e3,
    5.55923013010394962768e4,
)
_U = (
    1.0,
    3.35617141647503099647e1,
    5.21357949780152679795e2,
    4.59432382970980127987e3,
    2.26290000613890934246e4,
    4.92673942608635921086e4,
)
_P = (
    2.46196981473530512524e-10,
    5.64189564831068821977e-1,
    7.46321056442269912687e0,
    4.86371970985681366614e1,
    1.96520832956077098242e2,
    5.26445194995477358631e2,
    9.34528527171957607540e2,
    1.02755188689515710272e3,
    5.57535335369399327526e2,
)
_Q = (
    1.0,
    1.32281951154744992508e1,
    8.67072140885989742329e1,
    3.54937778887819891062e2,
    9.75708501743205489753e2,
    1.82390916687909736289e3,
    2.24633760818710981792e3,
    1.65666309194161350182e3,
    5.57535340817727675546e2,
)
_R = (
    5.64189583547755073984e-1,
    1.27536670759978104416e0,
    5.01905042251180477414e0,
    6.16021097993053585195e0,
    7.40974269950448939160e0,
    2.97886665372100240670e0,
)
_S = (
    1.0,
    2.26052863220117276590e0,
    9.39603524938001434673e0,
    1.20489539808096656605e1,
    1.70814450747565897222e1,
    9.60896809063285878198e0,
    3.36907645100081516050e0,
)


def _poly(c: Sequence[float], x: np.ndarray) -> np.ndarray:
    """``c[0] x^(k-1) + ... + c[k-1]`` by Horner's rule."""
    out = np.full_like(x, c[0])
    for coef in c[1:]:
        out *= x
        out += coef
    return out


def erfc(x: np.ndarray) -> np.ndarray:
    """The complementary error function elementwise, in numpy alone (Cephes's
    rational approximations, above: double precision, also in the tails; 0 beyond
    x = 27, where it underflows).

    >>> import math
    >>> x = np.array([-3.0, -0.5, 0.0, 0.3, 1.0, 2.5, 9.0, 30.0])
    >>> got, want = erfc(x), np.array([math.erfc(v) for v in x])
    >>> bool(np.all(np.abs(got - want) <= 4e-16 * want))
    True
    """
    x = np.asarray(x, float)
    out = np.empty_like(x)
    a = np.abs(x)
    small = a < 1.0
    if small.any():
        z = x[small]
        zz = z * z
        out[small] = 1.0 - z * _poly(_T, zz) / _poly(_U, zz)
    big = ~small
    if big.any():
        z = a[big]
        head = np.floor(z * 16.0) / 16.0  # exp(-z^2) without the rounding of z^2
        e = np.exp(-head * head) * np.exp(-(z - head) * (z + head))
        mid = z < 8.0
        y = np.empty_like(z)
        y[mid] = e[mid] * _poly(_P, z[mid]) / _poly(_Q, z[mid])
        far = ~mid
        y[far] = e[far] * _poly(_R, z[far]) / _poly(_S, z[far])
        y = np.where(x[big] < 0.0, 2.0 - y, y)
        out[big] = y
    return out


def normal_cdf(z: np.ndarray) -> np.ndarray:
    """``Phi(z) = erfc(-z / sqrt 2) / 2`` elementwise (:func:`erfc`: double
    precision, also in the tails).

    >>> normal_cdf(np.array([0.0, 1.959963984540054]))
    array([0.5  , 0.975])
    """
    return 0.5 * erfc(-np.asarray(z, float) / math.sqrt(2.0))


def _fixed(x: RangedInput) -> bool:
    """Whether ``x`` is drawn as its value (a zero-width range, ``sd`` 0)."""
    if x.dist == "normal":
        return not (x.sd or 0.0) > 0
    return x.low == x.high


def _whole(x: RangedInput, draw: np.ndarray) -> np.ndarray:
    return np.round(draw, out=draw) if x.whole else draw


def from_uniform(x: RangedInput, u: np.ndarray) -> np.ndarray:
    """The draws of ``x`` (uniform or triangular, not fixed) at uniforms ``u``: its
    inverse CDF (module docstring), rounded if whole."""
    lo, mode, hi = float(x.low), float(x.value), float(x.high)  # type: ignore[arg-type]
    if x.dist == "uniform":
        return _whole(x, lo + u * (hi - lo))
    left = u < (mode - lo) / (hi - lo)
    draw = np.where(
        left,
        lo + np.sqrt(u * ((hi - lo) * (mode - lo))),
        hi - np.sqrt(np.maximum(1.0 - u, 0.0) * ((hi - lo) * (hi - mode))),
    )
    return _whole(x, draw)


def inverse_cdf(x: RangedInput, z: np.ndarray) -> np.ndarray:
    """The draws of ``x`` from standard normals ``z`` (the copula's margins,
    module docstring)."""
    if _fixed(x):
        return np.full(np.shape(z), float(x.value))
    if x.dist == "normal":
        return _whole(x, np.clip(x.value + float(x.sd) * z, x.lower, x.upper))  # type: ignore[arg-type]
    return from_uniform(x, normal_cdf(z))


def cholesky(inputs: Sequence[RangedInput], pairs: Sequence[Correlation]) -> np.ndarray:
    """The lower Cholesky factor of the correlation matrix of ``inputs`` (model
    order). Raises ``ValueError`` naming a pair whose input the Monte Carlo does
    not draw, or the pairs when the matrix is not positive definite."""
    paths = [x.path for x in inputs]
    missing = [
        f"{c.a} ~ {c.b}"
        for c in pairs
        if canonical(c.a) not in paths or canonical(c.b) not in paths
    ]
    if missing:
        raise ValueError(
            "correlations name inputs the Monte Carlo does not draw (not ranged, read by "
            f"no tier, or structural): {'; '.join(missing)}"
        )
    try:
        return np.linalg.cholesky(matrix(paths, list(pairs)))
    except np.linalg.LinAlgError:
        names = "; ".join(f"{c.a} ~ {c.b} ({c.rho:g})" for c in pairs)
        raise ValueError(f"the correlation matrix is not positive definite: {names}") from None


def active_pairs(pairs: Sequence[Correlation], drawn: Sequence[str]) -> list[Correlation]:
    """The pairs of ``correlations`` whose two inputs are both ``drawn`` (methodology
    §9.1): a pair naming an input held fixed (no range, read by no tier of the run, or
    structural) is inactive, and the draws of the others are as without it."""
    have = set(drawn)
    return [c for c in pairs if canonical(c.a) in have and canonical(c.b) in have]


def paired(inputs: Sequence[RangedInput], pairs: Sequence[Correlation]) -> list[int]:
    """Indices of the inputs named by a pair of ``pairs`` (drawn through the copula)."""
    named = {canonical(p) for c in pairs for p in (c.a, c.b)}
    return [k for k, x in enumerate(inputs) if x.path in named]


def check_pairs(inputs: Sequence[RangedInput], pairs: Sequence[Correlation]) -> None:
    """Raise the ``ValueError`` of :func:`cholesky` for the inputs ``pairs`` name
    (a matrix that is not positive definite), before any block is drawn."""
    if pairs:
        cholesky([inputs[k] for k in paired(inputs, pairs)], pairs)


def block_draws(
    inputs: Sequence[RangedInput],
    seed: int,
    block: int,
    size: int,
    pairs: Sequence[Correlation] = (),
    out: np.ndarray | None = None,
) -> np.ndarray:
    """The first ``size`` draws of block ``block`` of every input, an (inputs, size)
    array (row k: input k; module docstring); ``pairs`` are the active pairs
    (:func:`active_pairs`)."""
    columns = np.empty((len(inputs), size)) if out is None else out
    linked = paired(inputs, pairs)
    for k, x in enumerate(inputs):
        if k in linked:
            continue
        if _fixed(x):
            columns[k] = x.value
        elif x.dist == "normal":
            rng = stream(seed, block, stream_key(x.path))
            z = rng.standard_normal(size)
            columns[k] = _whole(x, np.clip(x.value + float(x.sd) * z, x.lower, x.upper))  # type: ignore[arg-type]
        else:
            columns[k] = from_uniform(x, stream(seed, block, stream_key(x.path)).random(size))
    if linked:
        group = [inputs[k] for k in linked]
        z = np.empty((len(linked), size))
        for row, x in zip(z, group, strict=True):
            stream(seed, block, stream_key(x.path)).standard_normal(out=row)
        mixed = cholesky(group, pairs) @ z
        for k, x, row in zip(linked, group, mixed, strict=True):
            columns[k] = inverse_cdf(x, row)
    return columns


def sample_columns(
    inputs: Sequence[RangedInput], n: int, seed: int, pairs: Sequence[Correlation] | None = None
) -> np.ndarray:
    """``n`` draws of each input, an (inputs, n) array (row k: input k's draws),
    block after block (:func:`block_draws`)."""
    active = active_pairs(pairs or [], [x.path for x in inputs])
    columns = np.empty((len(inputs), n))
    for b, lo, hi in blocks(n):
        columns[:, lo:hi] = block_draws(inputs, seed, b, hi - lo, active)
    return columns


def sample(
    inputs: Sequence[RangedInput], n: int, seed: int, pairs: Sequence[Correlation] | None = None
) -> dict[str, np.ndarray]:
    """``n`` draws of each input (module docstring), path -> (n,) array."""
    columns = sample_columns(inputs, n, seed, pairs)
    return {x.path: columns[k] for k, x in enumerate(inputs)}
