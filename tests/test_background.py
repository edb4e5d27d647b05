"""A word no corpus holds weighs by its rarity in general text (`graph.models.background`): over
a small made-up folder, a question about something the pages never mention is declined, while
one whose missing words are common English is still answered. Made-up passages only."""

from __future__ import annotations

from typing import Any

from corpora import Corpus, Passage
from graph.agent.budget import run_config
from graph.agent.context import Context
from graph.agent.graph import build_agent
from graph.models.background import rarity
from graph.models.offline.model import PolicyModel
from graph.models.support import support, weights
from tools.finish import finish
from tools.search import make_search_tool

PAGES = Corpus(
    name="pages",
    passages=(
        Passage(id="g1", text="The Orvell greenhouse is misted every twenty minutes in summer."),
        Passage(id="g2", text="The Orvell greenhouse heater runs for six hours on a tank of oil."),
        Passage(id="s1", text="The Orvell shop sells seeds, pots and garden gloves."),
        Passage(id="s2", text="The Orvell shop closes at five on Sundays."),
        Passage(id="t1", text="Greenhouse tours leave from the shop at noon."),
    ),
)
"""Five made-up passages: far fewer than `UNSEEN_FULL_AT`, so passage counts alone would let
any missing word weigh little."""


class Idf:
    """A made-up corpus's word weights: 1.0 for the words it holds, over five passages."""

    passages = 5

    def __init__(self, words: str) -> None:
        self.words = set(words.split())

    def __call__(self, term: str) -> float:
        return 1.0 if term in self.words else 0.0


def run(question: str) -> dict[str, Any]:
    """The final state of the offline policy over the made-up pages."""
    agent = build_agent(model=PolicyModel(), tools=[make_search_tool(PAGES), finish])
    return agent.invoke({"question": question}, run_config(6), context=Context())


def test_rarity_runs_from_common_words_to_words_general_text_lacks() -> None:
    assert rarity("zorbulax") == 1.0  # a made-up word: never seen
    assert 0.0 < rarity("number") < rarity("window") < rarity("password")
    assert rarity("long") < 0.5 < rarity("warranty")
    assert rarity("numbers") == rarity("number")  # stems, as the search reads words


def test_a_missing_rare_word_weighs_more_than_a_missing_common_one() -> None:
    weight = Idf("heater oil")
    common = weights("How long does the heater run on oil?", weight, unseen=0.05)
    rare = weights("What password does the heater use for oil?", weight, unseen=0.05)
    assert common["long"] < rare["password"]
    assert support("How long does the heater run on oil?", ["heater oil"], weight) > support(
        "What password does the heater use for oil?", ["heater oil"], weight
    )


def test_without_unseen_weight_missing_words_are_left_out() -> None:
    assert "password" not in weights("What password does the heater use?", Idf("heater"))


def test_a_question_about_what_the_pages_never_mention_is_declined() -> None:
    state = run("What is the wifi password at the Orvell shop?")
    assert state["stopped"] == "no_answer" and state["answer"] is None


def test_a_question_whose_missing_words_are_common_english_is_answered() -> None:
    state = run("How long does the Orvell greenhouse heater run on a full tank?")
    assert state["stopped"] == "answer" and state["citations"] == ["g2"]
    assert "six hours" in str(state["answer"])
