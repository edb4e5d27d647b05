"""A name of code the question writes (`output_format`) must be in a cited passage for the
answer to be confident: `holds_identifiers` and `Confidence.identified`, for any model's answer.
Made-up passages only."""

from __future__ import annotations

from made_up import flat

from graph.models.asked import holds_identifiers
from graph.models.confidence import confidence

QUESTION = "What does the Quill option log_format change?"
PARTS = "Quill can change the format of its log when the option is given."
"""A made-up sentence holding every part of the name, never the name itself."""
NAMED = "The log_format option of Quill can change the format of each log line."


def test_the_name_is_held_as_written_not_as_its_parts() -> None:
    assert not holds_identifiers(QUESTION, [PARTS])
    assert holds_identifiers(QUESTION, [PARTS, NAMED])
    assert holds_identifiers(QUESTION, ["Set LOG_FORMAT to json."])  # case is ignored
    assert not holds_identifiers(QUESTION, ["Set log_format_v2 to json."])  # another name
    assert holds_identifiers("What does the Quill log change?", [PARTS])  # no name written


def test_an_answer_citing_only_the_parts_is_not_confident() -> None:
    judged = confidence(QUESTION, PARTS, [PARTS], [PARTS], flat)
    assert judged.support >= 0.6 and judged.rival == 0.0  # covered, and no rival
    assert not judged.identified and not judged.confident
    assert confidence(QUESTION, NAMED, [NAMED], [NAMED], flat).confident
