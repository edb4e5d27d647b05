"""A question asking what a default is needs an answer stating one to be confident:
`states_default` and `Confidence.counted`, for any model's answer. Made-up passages only."""

from __future__ import annotations

from made_up import flat

from graph.models.asked import states_default
from graph.models.confidence import confidence

QUESTION = "What is the default of the Orla max_rows option?"
VAGUE = "Use the Orla loader to apply the max_rows option and the max_cols option."
"""A made-up sentence holding every word of the question but "default", and no default."""
STATED = "The Orla max_rows option sets how many rows are read. The default is 500."


def test_a_default_question_needs_an_answer_stating_a_default() -> None:
    assert not states_default(QUESTION, VAGUE)
    assert states_default(QUESTION, "The default is 500.")
    assert states_default("What does the Orla encoding default to?", "Defaults to utf-8.")
    assert states_default("What is the default Orla encoding?", "If no encoding is given, X.")
    assert states_default("Where is lazy loading the default?", VAGUE)  # not what is asked


def test_an_answer_stating_no_default_is_not_confident() -> None:
    cited = [VAGUE + " The default is 500."]
    judged = confidence(QUESTION, VAGUE, cited, cited, flat)
    assert judged.support >= 0.6 and not judged.counted and not judged.confident
    assert confidence(QUESTION, STATED, [STATED], [STATED], flat).confident
