"""A "how many" or "how much" answer must state a quantity to be confident: `states_quantity`
and `Confidence.counted`, for any model's answer. Made-up passages only."""

from __future__ import annotations

from made_up import flat

from graph.models.asked import states_quantity
from graph.models.confidence import confidence

LAMP = (
    "The Orla lamp can cycle among its colours each time the switch is pressed, using the "
    "colour ring on its base."
)
"""A made-up sentence holding every word of the question below and no quantity."""
RING = "The colour ring of the Orla lamp takes an unlimited number of colours."
"""A made-up sentence answering it with no numeral."""
QUESTION = "How many colours can the Orla lamp ring take?"


def test_a_count_or_an_amount_asked_needs_a_quantity_in_the_answer() -> None:
    assert not states_quantity(QUESTION, LAMP)
    assert states_quantity(QUESTION, "The ring takes 12 colours.")
    assert states_quantity(QUESTION, "It takes thirteen colours.")  # a number spelled out
    assert states_quantity(QUESTION, RING)  # a quantity without a numeral
    assert states_quantity("How much does the lamp cost?", "The lamp is free.")
    assert states_quantity("What does the ring do?", LAMP)  # no quantity asked
    # "many" and "few" are how sentences speak of something else, not a count
    assert not states_quantity(QUESTION, "The ring suits many rooms.")


def test_a_version_asked_needs_a_number_in_the_answer() -> None:
    question = "Which Python versions does the Orla toolkit support?"
    assert not states_quantity(question, "These are not the minimum supported versions.")
    assert states_quantity(question, "The Orla toolkit supports Python 3.9 and newer.")
    vague = "The Orla toolkit supports the Python versions that added the features it needs."
    assert not confidence(question, vague, [vague], [vague], flat).confident


def test_an_answer_covering_a_how_many_question_without_a_quantity_is_not_confident() -> None:
    judged = confidence(QUESTION, LAMP, [LAMP], [LAMP], flat)
    assert judged.support >= 0.6 and judged.rival == 0.0  # covered, and no rival
    assert not judged.counted and not judged.confident
    stated = "The Orla lamp ring can take 12 colours, one each time the switch is pressed."
    assert confidence(QUESTION, stated, [stated], [stated], flat).confident
    assert confidence(QUESTION, RING, [RING], [RING], flat).confident


def test_a_measure_asked_needs_a_quantity_in_the_answer() -> None:
    question = "How long may a line of the Orla manual be?"
    vague = "Every line of the Orla manual may be reviewed before it is printed."
    assert not states_quantity(question, vague)
    assert not confidence(question, vague, [vague], [vague], flat).confident
    stated = "A line of the Orla manual may be at most 90 characters long."
    assert confidence(question, stated, [stated], [stated], flat).confident
    assert states_quantity("How often is the Orla lamp cleaned?", "It is cleaned daily.")


def test_how_much_one_thing_differs_from_another_needs_a_ratio_or_a_share() -> None:
    question = "How much faster is the Orla parser than Brisk?"
    assert not states_quantity(question, "The Orla parser is much faster than Brisk.")
    assert not states_quantity(question, "The Orla parser caches 3 tables, so it runs faster.")
    assert states_quantity(question, "The Orla parser runs 3 times faster than Brisk.")
    assert states_quantity(question, "It is 40% faster.")
    assert states_quantity(question, "It parses twice as fast.")
    assert states_quantity(question, "It is 2.5x faster on nested tables.")
    assert states_quantity("How much rainwater do the tanks hold?", "They hold 5,000 litres.")
    question = "How much faster is Orla 4 than Orla 3?"
    assert not states_quantity(question, "In Orla 3, tables were cached.")  # no ratio
    assert states_quantity("Which Python version does Orla 3 require?", "Orla 3 requires Python 3.")


def test_a_quantity_asked_in_a_clause_after_the_thing_asked_needs_none() -> None:
    """A question asking which header tells what version asks for a header, not a version."""
    header = "The Orla gateway sends an X-Orla-Build header naming the build."
    assert states_quantity("Which header tells a client what version of Orla ran?", header)
    assert states_quantity("Which switch lets me limit how many colours the ring takes?", LAMP)
    # asked first, or by the opening phrase itself, a version still needs one
    assert not states_quantity("What version of Orla added the header?", header)
    assert not states_quantity("Which Orla versions send the header?", header)
