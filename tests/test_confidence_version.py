"""A question asking the version of a thing it names ("Which Brisk versions does Orla support?")
is not answered from passages that never name that thing: `unnamed_versions` makes the answer
not confident (any model's) and declines a short question (the offline policy). Made-up
passages only."""

from __future__ import annotations

from made_up import flat

from graph.models.asked_versions import (
    holds_version_subjects,
    states_release,
    states_versions,
    unnamed_versions,
    unstated_releases,
    version_subjects,
)
from graph.models.confidence import confidence
from graph.models.offline.declines import declines
from graph.models.support import covered, support_weights

QUESTION = "Which Brisk versions does Orla support?"
OTHER = "Deprecated since version 4.1.0. Support for colour themes in Orla versions is ending."
"""A made-up passage holding every word of the question but "Brisk": Orla's own version."""
NAMED = "Orla supports Brisk versions 2.7 and newer."


def test_the_thing_whose_version_is_asked() -> None:
    assert version_subjects(QUESTION) == ["Brisk"]
    assert version_subjects("What minimum version of Tunely is required?") == ["Tunely"]
    assert version_subjects("In which version was the flag added?") == []


def test_a_passage_never_naming_it_states_another_version() -> None:
    assert unnamed_versions(QUESTION, [OTHER]) == ["Brisk"]
    assert holds_version_subjects(QUESTION, [NAMED])
    judged = confidence(QUESTION, OTHER, [OTHER], [OTHER], flat)
    assert judged.support >= 0.6  # covered
    assert not judged.identified and not judged.confident
    assert confidence(QUESTION, NAMED, [NAMED], [NAMED], flat).confident


def test_a_short_question_cited_from_such_a_passage_is_declined() -> None:
    table = support_weights(QUESTION, flat)
    why = declines(QUESTION, table, [OTHER], covered(table, [OTHER]), answer=OTHER)
    assert why is not None and "'Brisk', whose version" in why
    assert declines(QUESTION, table, [NAMED], covered(table, [NAMED]), answer=NAMED) is None


def test_a_release_the_question_names_is_stated_by_its_citations() -> None:
    question = "Which Brisk version was dropped in Orla 4.2?"
    # another release's entry, holding "4" and "2" (and "4.2" of another name)
    other = "Orla Changelog > [4.1.0] > Changed. Drop support for Brisk 2.6 and Kettle 4.2."
    stated = "Orla Changelog > [4.2.0] > Changed. Drop support for Brisk 2.6."
    assert unstated_releases(question, [other]) == ["Orla 4.2"]
    assert unstated_releases(question, [stated]) == []
    assert states_release("Orla supports Brisk versions 2.6, 2.7 and 3.0.", "Brisk", "2.7")
    assert not states_release("Orla 4.20 is out.", "Orla", "4.2")
    said = "Drop support for Brisk 2.6 and Kettle 4.2."
    judged = confidence(question, said, [other], [other], flat)
    assert judged.support >= 0.6 and not judged.identified and not judged.confident
    assert confidence(question, said, [stated], [stated], flat).confident


def test_an_answer_states_a_version_of_the_thing_asked() -> None:
    question = "Which Brisk versions does Orla support?"
    other = "New in version 2.9. Orla supports the Brisk async syntax."
    assert not states_versions(question, other)  # 2.9 is Orla's version, not Brisk's
    assert states_versions(question, NAMED)  # "Brisk versions 2.7"
    assert states_versions("What minimum version of Tunely is needed?", "Tunely 7 and above.")
    assert states_versions("Is Orla fast?", other)  # no version asked
    judged = confidence(question, other, [other], [other], flat)
    assert judged.support >= 0.6 and not judged.counted and not judged.confident


def test_a_version_written_after_a_slash_is_stated_with_its_name() -> None:
    question = "How do I enable QTP/2 in the Orla server?"
    other = "Orla speaks QTP. Enable 2 workers in the Orla server."
    assert unstated_releases(question, [other]) == ["QTP/2"]
    assert unstated_releases(question, ["The Orla server speaks QTP/2 when enabled."]) == []
    judged = confidence(question, other, [other], [other], flat)
    assert judged.support >= 0.6 and not judged.identified and not judged.confident
