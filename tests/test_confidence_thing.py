"""A question asking which thing of code, or what something is called, needs an answer writing a
name it lacks to be confident: `names_thing` and `Confidence.called`, for any model's answer.
Made-up passages only."""

from __future__ import annotations

from made_up import flat

from graph.models.asked_names import name_words, names_thing
from graph.models.confidence import confidence

QUESTION = "Which keyword of setup chooses where the Orla toolkit writes its journal?"
VAGUE = "Setup chooses where the Orla toolkit writes its journal, as we explain below."
"""A made-up sentence holding every word of the question and naming no keyword."""
NAMED = "The journal_path keyword of setup chooses where the Orla toolkit writes its journal."


def test_a_which_keyword_question_needs_a_name_the_question_lacks() -> None:
    assert not names_thing(QUESTION, VAGUE)  # "Setup" opens the sentence, the rest is asked
    assert names_thing(QUESTION, NAMED)  # written as code
    assert names_thing("Which function clears the Orla cache?", "The wipe function clears it.")
    assert names_thing("Which module is Orla based on?", "Orla is based on zqparse instead.")
    assert names_thing("Which library renders Orla pages?", "Pages are rendered by Brisket.")
    assert names_thing("What does the Orla toolkit write?", VAGUE)  # no thing asked


def test_what_something_is_called_needs_a_name() -> None:
    question = "What does Vexel call the habit of writing one journal line per job?"
    assert not names_thing(question, "Generally speaking, one journal line per job is good.")
    assert names_thing(question, "Vexel calls them Summary Lines: one line per job.")
    assert not names_thing("What was the name of the ferry?", "The ferry was old.")


def test_a_first_word_or_a_word_of_the_question_is_no_name() -> None:
    words = name_words("Which faster serializers suit OrlaRenderer?", VAGUE)
    assert "Setup" not in words
    said = "Configure OrlaRenderer to use a faster serializer."
    assert not name_words("Which faster serializers suit OrlaRenderer?", said)


def test_an_answer_naming_no_thing_is_not_confident() -> None:
    judged = confidence(QUESTION, VAGUE, [VAGUE], [VAGUE], flat)
    assert judged.support >= 0.6 and judged.rival == 0.0  # covered, and no rival
    assert not judged.called and not judged.confident
    assert confidence(QUESTION, NAMED, [NAMED], [NAMED], flat).confident


def test_a_word_of_the_question_capitalised_in_the_answer_is_a_name() -> None:
    question = "Which field reads the value a method of the Orla schema returns?"
    assert names_thing(question, "A Method field reads the value a method returns.")
    assert not names_thing(question, "Method fields are read, as a method of the schema says.")


def test_a_terse_answer_is_the_name_even_its_first_word() -> None:
    assert names_thing("Which framework renders Orla pages?", "Brisket.")
    assert names_thing("Which filter trims Orla pages?", "Use wipe.")
    assert not names_thing(QUESTION, "Setup chooses it.")  # every word asked
