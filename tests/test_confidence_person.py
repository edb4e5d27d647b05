"""A who-question's answer must name someone to be confident: `names_someone` and
`Confidence.named`, for any model's answer. Made-up passages only."""

from __future__ import annotations

from made_up import flat

from graph.models.asked import names_someone
from graph.models.confidence import confidence

QUESTION = "Who currently maintains the Orla toolkit?"
VAGUE = "For compatibility, the Orla toolkit currently maintains the same defaults."
"""A made-up sentence holding every word of the question and naming no one."""
NAMED = "The Orla toolkit is currently maintained by Ines Varga."


def test_a_who_question_needs_a_name_the_question_lacks() -> None:
    assert not names_someone(QUESTION, VAGUE)  # "For" is a function word, "Orla" asked
    assert names_someone(QUESTION, NAMED)
    assert names_someone("By whom is the Orla toolkit maintained?", "Ines Varga maintains it.")
    assert names_someone("What does the Orla toolkit maintain?", VAGUE)  # no one asked


def test_an_answer_naming_no_one_is_not_confident() -> None:
    judged = confidence(QUESTION, VAGUE, [VAGUE], [VAGUE], flat)
    assert judged.support >= 0.6 and judged.rival == 0.0  # covered, and no rival
    assert not judged.named and not judged.confident
    assert confidence(QUESTION, NAMED, [NAMED], [NAMED], flat).confident
