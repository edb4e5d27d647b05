"""A short question asking for a quantity is declined when its cited passages are below
`SUPPORT_BAR` and the answer they give states none (`declines`, `states_quantity`): "How many
tables ...?" answered "This runs faster."; one asking by how much one thing differs from another
("How much faster is X than Y?") at any support when the answer states no ratio. Made-up
passages only."""

from __future__ import annotations

from made_up import flat

from graph.models.confidence import SUPPORT_BAR
from graph.models.offline.declines import declines
from graph.models.offline.tuning.declining import DECLINE_SUPPORT
from graph.models.support import covered, support_weights

QUESTION = "How many tables does the Orla parser cache on large nested pages?"
FASTER = "The Orla parser caches its tables. This runs faster."
"""A made-up passage holding four of the question's seven words, and no quantity."""


def test_below_the_bar_an_answer_with_no_quantity_asked_for_is_declined() -> None:
    table = support_weights(QUESTION, flat)
    value = covered(table, [FASTER])
    assert DECLINE_SUPPORT <= value < SUPPORT_BAR  # answered, not confident, before
    assert declines(QUESTION, table, [FASTER], value) is None  # no answer given: no check
    why = declines(QUESTION, table, [FASTER], value, answer="This runs faster.")
    assert why is not None and "states no quantity" in why
    stated = "It caches 3 tables."
    assert declines(QUESTION, table, [FASTER], value, answer=stated) is None


def test_at_the_bar_or_for_a_question_asking_no_quantity_the_answer_stands() -> None:
    question = "Is the Orla parser faster than Brisk?"
    table = support_weights(question, flat)
    value = covered(table, [FASTER])
    assert declines(question, table, [FASTER], value, answer="This runs faster.") is None
    held = "The Orla parser caches tables of large nested pages."
    table = support_weights(QUESTION, flat)
    assert covered(table, [held]) >= SUPPORT_BAR
    assert declines(QUESTION, table, [held], covered(table, [held]), answer=held) is None


def test_how_much_one_thing_differs_is_declined_at_any_support_without_a_ratio() -> None:
    question = "How much faster is the Orla parser than Brisk?"
    held = "The Orla parser is much faster than Brisk."
    table = support_weights(question, flat)
    value = covered(table, [held])
    assert value >= SUPPORT_BAR  # every word held: the passage says it is faster, not how much
    why = declines(question, table, [held], value, answer=held)
    assert why is not None and "no ratio or share" in why
    stated = "The Orla parser is 3 times faster than Brisk."
    assert declines(question, table, [stated], covered(table, [stated]), answer=stated) is None
