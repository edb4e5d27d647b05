"""The follow_up rule on made-up passages: it follows a lead only when the evidence is about it.

A lead is a new name of a sentence holding most of what the retrieved text covers
(`LEAD_SENTENCE_SHARE`), or any new name when the question names something no passage holds;
an incidental name beside missing paraphrase words ("unless told otherwise") is not followed.
"""

from __future__ import annotations

import re
from typing import Any

from corpora import Corpus, Passage
from graph.models.actions import Observation
from graph.models.offline.rules import decide, follow_up
from graph.models.offline.tuning.search import LEAD_SENTENCE_SHARE
from graph.models.offline.turn import Turn, written_capitalised
from tools.expand import stem
from tools.finish import finish
from tools.search import make_search_tool

TEXTS = {
    "d1": "Settings. tab_length: the tab length in spaces. Default: 4.",
    "d2": "Writing a processor. The Quillwork class calls the parser.",
    "d3": "Unless told otherwise, the release script signs every wheel.",
    "d4": "Themes assume nothing about the page layout.",
    "d5": "Vesper Mill was founded by Ada Brook, a retired engineer.",
    "d6": "Ada Brook later opened the Tallow Forum for young engineers.",
    "d7": "Skyline stars the engineer Ada Brook.",
}
DOCS = Corpus("docs", tuple(Passage(id=i, text=t) for i, t in TEXTS.items()))


def tools() -> list[Any]:
    return [make_search_tool(DOCS), finish]


def seen(*ids: str) -> list[Observation]:
    """One search round that returned the passages `ids`."""
    hits = [{"id": i, "text": TEXTS[i]} for i in ids]
    return [Observation("search_docs", {"query": "first"}, hits=hits)]


def test_an_incidental_name_beside_paraphrase_words_is_not_followed() -> None:
    """The answer passage (d1) is found; "Quillwork" names a class of a sentence holding only
    "parser", and the missing words (assume, unless, told, otherwise) are paraphrase."""
    question = "What tab length does the parser assume unless told otherwise?"
    turn = Turn(question, seen("d1", "d2"), tools(), 6)
    assert follow_up(turn) is None
    action = decide(tools(), 6, question, seen("d1", "d2"))
    assert action.thought.startswith("read_deeper:")


def test_a_name_whose_sentence_holds_the_found_part_leads_the_follow_up() -> None:
    """d5's sentence holds all the question's found words: the follow-up searches its new name
    with the missing ones (the other hop: what she opened)."""
    question = "What forum did a retired engineer who founded a mill open?"
    action = follow_up(Turn(question, seen("d5"), tools(), 6))
    assert action is not None and action.args["query"] == "Ada Brook forum open"
    share = f"LEAD_SENTENCE_SHARE {LEAD_SENTENCE_SHARE:.2f}"
    assert re.search(
        rf"lead 'Ada Brook': its sentence holds (0\.\d\d) >= {share} x \1", (action.thought)
    )


def test_a_name_the_question_writes_and_no_passage_holds_is_followed() -> None:
    """ "Skyline" opens the question: a name all the same, and no retrieved passage holds it."""
    question = "Skyline stars which engineer who founded Vesper Mill?"
    turn = Turn(question, seen("d4"), tools(), 6)
    action = follow_up(turn)
    assert action is not None and "skyline" in action.args["query"].casefold()
    assert "the question names 'skyline', which no passage holds" in action.thought


def test_written_capitalised_reads_every_capitalised_word_wherever_it_stands() -> None:
    words = written_capitalised("Skyline stars which engineer of Vesper Mill?")
    assert words == {stem(w) for w in ("skyline", "vesper", "mill")}
