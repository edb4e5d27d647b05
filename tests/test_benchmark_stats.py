"""The paired bootstrap the retrieval benchmark reports (benchmarks/retrieval_tasks.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from retrieval_tasks import paired_difference  # noqa: E402


def test_a_constant_difference_has_a_point_interval() -> None:
    mean, low, high = paired_difference([0.9, 0.5, 0.7], [0.8, 0.4, 0.6])
    assert (mean, low, high) == pytest.approx((0.1, 0.1, 0.1))


def test_the_interval_holds_the_mean_and_swapping_the_sides_negates_it() -> None:
    a = [1.0, 0.0, 1.0, 1.0, 0.5, 0.0, 1.0, 0.0]
    b = [0.0, 0.0, 1.0, 0.0, 0.5, 1.0, 0.5, 0.0]
    mean, low, high = paired_difference(a, b)
    assert mean == pytest.approx(sum(x - y for x, y in zip(a, b, strict=True)) / len(a))
    assert low < 0 < high and low <= mean <= high  # one loss among two wins: not settled
    assert paired_difference(a, b) == (mean, low, high)  # seeded: the same every run
    back = paired_difference(b, a)
    assert back == pytest.approx((-mean, -high, -low))


def test_a_clear_win_excludes_zero() -> None:
    a = [0.6 + 0.01 * i for i in range(40)]
    b = [x - 0.2 + (0.05 if i % 2 else -0.05) for i, x in enumerate(a)]
    mean, low, high = paired_difference(a, b)
    assert mean == pytest.approx(0.2)
    assert 0.15 <= low < mean < high <= 0.25
