"""The engine's caches are keyed by value, bounded, and emptied by clear_caches."""

from __future__ import annotations

import numpy as np
import pytest

import costmodel as cm
from costmodel.core import memo
from costmodel.core.discount import DISCOUNTS, discounting
from costmodel.core.memo import Memo, clear_caches, memoized
from costmodel.core.timing import timing_shapes


def test_a_memo_keeps_the_most_recent_and_computes_once():
    m = Memo("test", size=2)
    calls = []

    def compute(k):
        calls.append(k)
        return np.array([float(k)])

    for k in (1, 2, 1, 3):  # 1 is used again before 3 comes: 2 is dropped
        assert m.get(k, lambda k=k: compute(k))[0] == k
    assert calls == [1, 2, 3] and len(m) == 2
    m.get(2, lambda: compute(2))
    assert calls == [1, 2, 3, 2]  # computed again
    with pytest.raises(ValueError):
        m.get(2, lambda: compute(2))[0] = 5.0  # stored read-only
    m.clear()
    assert len(m) == 0
    memo.MEMOS.remove(m)


def test_results_are_keyed_by_value_not_identity():
    a = discounting(np.array([0.08, 0.08]))
    b = discounting(np.array([0.08]))  # the same rate for every variant: the same object
    assert a is b
    assert timing_shapes(24, ((3,), 2.0)) is timing_shapes(24, ((3,), 2.0))
    assert timing_shapes(24, ((3,), 2.0)) is not timing_shapes(24, ((4,), 2.0))

    @memoized(4)
    def square(x: int) -> int:
        return x * x

    assert square(3) == 9 and len(square.memo) == 1
    memo.MEMOS.remove(square.memo)


def test_clear_caches_empties_every_store_and_the_numbers_stay():
    a = cm.load_assumptions()
    before = cm.build(a).summary()
    assert len(DISCOUNTS) > 0 and len(timing_shapes.memo) > 0
    clear_caches()
    assert all(len(m) == 0 for m in memo.MEMOS)
    after = cm.build(a).summary()
    numbers = before.select_dtypes("number").columns
    assert len(numbers) > 10
    np.testing.assert_array_equal(before[numbers].to_numpy(), after[numbers].to_numpy())
