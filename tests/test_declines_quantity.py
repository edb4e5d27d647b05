"""A short question asking for a quantity is declined when its cited passages are below
`SUPPORT_BAR` and the answer they give states none (`declines`, `states_quantity`): "How much
faster is X than Y?" answered "This runs faster." Made-up passages only."""

from __future__ import annotations

from made_up import flat

from graph.models.confidence import SUPPORT_BAR
from graph.models.offline.declines import declines
from graph.models.offline.tuning.declining import DECLINE_SUPPORT
from graph.models.support import covered, support_weights

QUESTION = "How much faster is the Orla parser than Brisk on large nested tables?"
FASTER = "The Orla parser caches its tables. This runs faster."
"""A made-up passage holding four of the question's seven words, and no quantity."""


def test_below_the_bar_an_answer_with_no_quantity_asked_for_is_declined() -> None:
    table = support_weights(QUESTION, flat)
    value = covered(table, [FASTER])
    assert DECLINE_SUPPORT <= value < SUPPORT_BAR  # answered, not confident, before
    assert declines(QUESTION, table, [FASTER], value) is None  # no answer given: no check
    why = declines(QUESTION, table, [FASTER], value, answer="This runs faster.")
    assert why is not None and "states no quantity" in why
    stated = "This runs 3 times faster."
    assert declines(QUESTION, table, [FASTER], value, answer=stated) is None


def test_at_the_bar_or_for_a_question_asking_no_quantity_the_answer_stands() -> None:
    question = "Is the Orla parser faster than Brisk?"
    table = support_weights(question, flat)
    value = covered(table, [FASTER])
    assert declines(question, table, [FASTER], value, answer="This runs faster.") is None
    held = "The Orla parser runs faster than Brisk on large tables."
    table = support_weights(QUESTION, flat)
    assert covered(table, [held]) >= SUPPORT_BAR
    assert declines(QUESTION, table, [held], covered(table, [held]), answer=held) is None
