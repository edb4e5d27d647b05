"""A Thought's number next to its bar never reads as equal to it ("0.80 < COVERED 0.80")."""

from __future__ import annotations

from graph.models.offline.figures import figure


def test_two_decimals_when_they_set_the_value_apart() -> None:
    assert figure(0.62, 0.8) == "0.62"
    assert figure(0.8, 0.8) == "0.80"


def test_more_decimals_when_two_would_round_onto_the_bar() -> None:
    assert figure(0.7999, 0.8) == "0.7999"
    assert figure(0.5049, 0.51) == "0.50"
    assert figure(0.5099, 0.51) == "0.5099"
    assert float(figure(0.59999, 0.6)) != 0.6
