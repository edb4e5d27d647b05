"""How the question's words meet the index: contractions spelled out and "what kind of X" read as
"what X", for the first search's query and for support alike. Made-up passages only."""

from __future__ import annotations

from typing import Any

import pytest
from made_up import corpus

from graph.models.offline.reading import asked_parts
from graph.models.offline.rules import decide
from graph.models.support import question_terms, support, weights
from tools.finish import finish
from tools.search import make_search_tool

DOCS = corpus(
    "docs",
    {
        "p1": "Quill listens on port 8080 when no port is set.",
        "p2": "Don Alvarez wrote the Quill manual.",
    },
)


def tools() -> list[Any]:
    return [make_search_tool(DOCS), finish]


@pytest.mark.parametrize(
    "question",
    [
        "If I don't set the port, which port does Quill listen on?",
        "If I haven’t set the port, which port won't Quill leave?",
        "Which port'll Quill use if we've set none and I'm not told?",
    ],
)
def test_a_contraction_leaves_no_remnant_word(question: str) -> None:
    """ "don't" is "do not": no "don", "haven", "won", "ll", "ve" or "m" to search or cover."""
    terms = question_terms(question)
    assert not {"don", "haven", "won", "ll", "ve", "m", "t"} & set(terms)
    query = str(decide(tools(), 6, question, []).args["query"])
    assert "don" not in query.lower().split() and "'" not in query and "’" not in query


def test_a_passage_without_the_remnant_covers_the_question() -> None:
    question = "If I don't set the port, which port does Quill listen on?"
    # "if I do not set" is also read as "by default"; "when no port is set" states a default
    assert set(weights(question, lambda t: 1.0)) == {"set", "default", "port", "quill", "listen"}
    assert support(question, [DOCS.get("p1").text], lambda t: 1.0) == pytest.approx(1.0)


def test_a_word_that_only_looks_like_a_remnant_is_kept() -> None:
    """ "won", "d" and "m" are words too: only an apostrophe ending is spelled out."""
    assert question_terms("Who won the 5 m race?") == ["won", "5", "m", "race"]
    assert question_terms("What does the 'd' flag do?") == ["d", "flag"]


@pytest.mark.parametrize("asked", ["What kind of", "Which sort of", "What types of"])
def test_what_kind_of_x_asks_for_an_x(asked: str) -> None:
    """ "What kind of markup does Quill produce?": the passage names the markup, not a kind."""
    question = f"{asked} markup does Quill produce?"
    assert question_terms(question) == ["markup", "quill", "produce"]
    held = ["Quill produces HTML markup."]
    assert support(question, held, lambda t: 1.0) == pytest.approx(1.0)
    query = str(decide(tools(), 6, question, []).args["query"]).lower().split()
    assert not {"kind", "sort", "types"} & set(query)


def test_a_kind_that_is_not_what_kind_of_stays_a_word() -> None:
    assert question_terms("Which field type does Quill check?") == [
        "field",
        "type",
        "quill",
        "check",
    ]


WIKI = corpus(
    "wiki",
    {
        "w1": "WikiLinks are given the class wikilink by default.",
        "w2": "Links in the wiki sidebar are sorted by title.",
        "w3": "The base URL of a link is set in the configuration.",
    },
)


def test_two_words_the_docs_join_find_the_joined_word() -> None:
    """ "wiki links" reaches "WikiLinks": the search ranks the passage that writes it joined."""
    tool = make_search_tool(WIKI)
    first = str(tool.invoke({"query": "class wiki links"})).splitlines()[0]
    assert first.startswith("[w1]")


def test_the_joined_word_covers_both_question_words() -> None:
    question = "Which class are wiki links given?"
    assert support(question, [WIKI.get("w1").text], lambda t: 1.0) == pytest.approx(1.0)
    assert support(question, [WIKI.get("w3").text], lambda t: 1.0) < 0.5


def test_short_or_non_letter_neighbours_are_not_joined() -> None:
    """ "on line" is no "online", and "x2 links" no word at all (`COMPOUND_PART`)."""
    from tools.expand import compounds

    assert compounds(["on", "line", "wiki", "links", "x2"]) == [("line", "wiki"), ("wiki", "links")]


SETTINGS = corpus(
    "settings",
    {
        "s1": "The Quill parser reads tabs as spaces. The tab width defaults to 8.",
        "s2": "A Quill parser may assume a template was told to escape its output.",
        "s3": "Quill writes its log to stderr; the log level is chosen at startup.",
    },
)


@pytest.mark.parametrize(
    "asked",
    [
        "What tab width does the Quill parser assume unless told otherwise?",
        "What tab width does the Quill parser assume unless configured otherwise?",
    ],
)
def test_unless_told_otherwise_is_read_as_by_default(asked: str) -> None:
    """The idiom's words are the asker's: the passage stating the default answers it."""
    terms = question_terms(asked)
    assert "default" in terms and not {"unless", "told", "configured", "otherwise"} & set(terms)
    assert support(asked, [SETTINGS.get("s1").text], lambda t: 1.0) > support(
        asked, [SETTINGS.get("s2").text], lambda t: 1.0
    )
    action = decide([make_search_tool(SETTINGS), finish], 2, asked, [])
    assert "default" in str(action.args["query"]).split()


@pytest.mark.parametrize(
    "asked",
    [
        "Which log level does Quill use when none is given?",
        "Which log level does Quill use if I don't set it?",
        "Which log level does Quill use when it is omitted?",
    ],
)
def test_other_default_idioms_keep_their_words_and_add_default(asked: str) -> None:
    terms = question_terms(asked)
    assert "default" in terms
    assert "none" in terms or "set" in terms or "omitted" in terms


def test_a_passage_saying_what_happens_when_no_value_is_given_states_a_default() -> None:
    question = "Which converter does a Quill route use by default?"
    literal = "If no converter is given, a Quill route uses the string converter."
    assert support(question, [literal], lambda t: 1.0) == pytest.approx(1.0)
    assert support(question, ["A Quill route uses the string converter."], lambda t: 1.0) < 1.0


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        (
            "Which pump feeds the tank, and how often is it serviced?",
            ("Which pump feeds the tank?", "How often is it serviced?"),
        ),
        (
            "In Tarn 4, what replaces the hooks, and in which release did they go?",
            ("In Tarn 4, what replaces the hooks?", "In which release did they go?"),
        ),
        (
            "Which flag skips the cache, and can it be set in the config file?",
            ("Which flag skips the cache?", "Can it be set in the config file?"),
        ),
        ("Which pump feeds the tank and the boiler?", None),
        ("Which pump, and which valve, feed the tank", None),
        ("Pumps wear out, and when they do the tank runs dry.", None),
    ],
)
def test_a_question_asking_two_things_reads_as_its_two_asks(
    question: str, parts: tuple[str, str] | None
) -> None:
    assert asked_parts(question) == parts
