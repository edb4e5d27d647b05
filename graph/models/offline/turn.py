"""What a rule of the offline policy reads: the `Turn`, and the readings of it rules share.

`Turn` holds the question, the turn's observations, the tools and the budget left, with the
derived views (searches, hits, term weights, the relative clause, a question's two asks);
`find_bridge` reads a two-hop question's bridge entity, `new_name` the best new name of the
last search (a `Lead`), `written_capitalised` the words a question writes capitalised.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from graph.models.actions import Hit, Observation
from graph.models.offline.arithmetic import Arithmetic, parse_arithmetic
from graph.models.offline.reading import (
    Hop,
    asked_parts,
    asks,
    body,
    mid_capitals,
    names,
    split_relative_clause,
    statements,
    words,
)
from graph.models.offline.short_answers import question_kind
from graph.models.offline.sources import ranked, search_sources
from graph.models.offline.tuning.search import (
    ASKING_CLAUSE_RE,
    BRIDGE_PASSAGES,
    DO_VERB_RE,
    FINITE_ENDINGS,
)
from graph.models.support import coverage, question_terms, spelled_out
from graph.models.tool_weight import tool_weight
from tools.calculator import CALCULATOR_TOOL
from tools.change_notes import asks_about_changes, is_change_note
from tools.expand import stem
from tools.search_protocol import SearchSource


@dataclass
class Turn:
    """What a rule reads: the question, the turn's observations, the tools and the budget."""

    question: str
    observations: list[Observation]
    tools: list[Any]
    left: int | None
    """Model calls left, this one included (None: no budget)."""
    sources: list[SearchSource] = field(init=False)

    def __post_init__(self) -> None:
        self.sources = search_sources(self.tools)

    @cached_property
    def searches(self) -> list[Observation]:
        """The turn's search rounds, in order."""
        names_ = {s.name for s in self.sources}
        return [o for o in self.observations if o.tool in names_]

    @cached_property
    def hits(self) -> list[Hit]:
        """Every hit of every search that ran, in retrieval order, change notes aside.

        Unless the question asks about changes (`tools.change_notes.asks_about_changes`), a
        change note (`tools.change_notes.is_change_note`: a changelog's or release notes'
        passage) is read only when no other passage was found: a changelog line mentions a
        feature, the page documenting it answers.
        """
        return self.read([hit for s in self.searches if s.ok for hit in s.hits])

    def read(self, found: list[Hit]) -> list[Hit]:
        """The hits of `found` the turn reads: change notes aside (see `hits`)."""
        if asks_about_changes(self.question):
            return found
        pages = [hit for hit in found if not is_change_note(str(hit.get("title") or ""))]
        return pages or found

    @cached_property
    def weight(self) -> Callable[[str], float]:
        """A word's idf over the search tools (`graph.models.tool_weight.tool_weight`)."""
        return tool_weight(self.sources)

    @cached_property
    def kind(self) -> str | None:
        """The kind of answer the question asks for (`short_answers.question_kind`)."""
        return question_kind(self.question)

    @cached_property
    def parts(self) -> tuple[str, str] | None:
        """The two asks of a question asking two things (`reading.asked_parts`), else None."""
        return asked_parts(self.question)

    @cached_property
    def hop(self) -> Hop | None:
        """The question's relative clause, when it is asked in two hops.

        Never for a yes/no question: "Are the extensions that ship with X supported?" asks about
        the extensions themselves, and its clause is no bridge to find first. Never when the
        clause asks the question itself (`asks_itself`), nor when the question asks two things
        (`parts`: each is searched on its own).
        """
        if self.kind == "yesno" or self.parts is not None:
            return None
        hop = split_relative_clause(self.question)
        return None if hop is None or asks_itself(hop) else hop

    @cached_property
    def arithmetic(self) -> Arithmetic | None:
        """The calculation the question asks for, when the calculator is bound."""
        bound = any(getattr(t, "name", None) == CALCULATOR_TOOL for t in self.tools)
        return parse_arithmetic(self.question) if bound else None

    def coverage(self) -> float:
        """The share of the question's weight the retrieved text holds."""
        return coverage(self.question, [str(h.get("text", "")) for h in self.hits], self.weight)

    def route(self, query: str) -> SearchSource:
        """The search tool with the best evidence for `query` (`sources.ranked`)."""
        return ranked(self.sources, query)[0]

    def tried(self) -> set[str]:
        """The queries already run, normalized."""
        return {" ".join(str(s.args.get("query", "")).casefold().split()) for s in self.searches}


def asks_itself(hop: Hop) -> bool:
    """Whether a relative clause's "which" is the question's own, not a relative pronoun.

    A function word heads it and a noun and "do" follow (`ASKING_CLAUSE_RE`: "The return
    value of which processor does X look at?"). "the city in which X died" keeps its hop: "in"
    heads a clause whose noun is "city".
    """
    rest = hop.inner_query.split(" ", 1)[-1]
    return not question_terms(hop.head) and ASKING_CLAUSE_RE.match(rest) is not None


@dataclass(frozen=True)
class Bridge:
    """The entity a two-hop question's first search found, and where."""

    name: str
    doc_id: str
    sentence: str
    coverage: float
    """Share of the inner clause's weight its sentence holds."""


def find_bridge(turn: Turn) -> Bridge | None:
    """The new name of the first hop's passages that the clause is about.

    Candidates are names (`reading.names`) new to the question in the prose (`prose`: no title
    line) of the first search's top passages; the one in the sentence holding most of the inner
    clause's weight wins, a name followed by the clause's head noun ("the Austin office") first.
    """
    hop = turn.hop
    if hop is None or not turn.searches or not turn.searches[0].hits:
        return None
    hits = turn.read(turn.searches[0].hits)[:BRIDGE_PASSAGES]
    asked = {stem(w) for w in words(turn.question)}
    capitalised = mid_capitals([*(str(h.get("text", "")) for h in hits), turn.question])
    best: tuple[tuple[float, ...], Bridge] | None = None
    for rank, hit in enumerate(hits):
        for position, sentence in enumerate(prose(hit)):
            value = coverage(hop.inner_query, [sentence], turn.weight)
            for name in names(sentence, capitalised):
                tokens = words(name.text)
                if not tokens or sum(stem(t) in asked for t in tokens) * 2 >= len(tokens):
                    continue
                following = (words(sentence[name.end :]) or [""])[0]
                headed = stem(following) == stem(hop.head)
                text = f"{name.text} {following}" if headed else name.text
                key = (float(headed), value, -rank, -position, -name.start)
                if best is None or key > best[0]:
                    best = (key, Bridge(text, str(hit["id"]), sentence, value))
    return best[1] if best else None


def past_title(hit: Hit) -> str:
    """A hit's text past the title it starts with (`body`): a label, never a sentence."""
    return body(str(hit.get("text", "")), str(hit.get("title") or "").strip())


def prose(hit: Hit) -> list[str]:
    """A hit's statements past the title its text starts with (`body`), questions left out.

    A title is a label and a question (`asks`) states nothing: neither names a bridge or lead.
    """
    return [s for s in statements(past_title(hit)) if not asks(s)]


@dataclass(frozen=True)
class Lead:
    """A name of the last search's best sentence that the question does not hold."""

    name: str
    coverage: float
    """Share of the question's weight the sentence naming it holds."""


def new_name(turn: Turn) -> Lead | None:
    """The name of the last search's best sentence that the question does not hold."""
    last = next((s for s in reversed(turn.searches) if s.hits), None)
    if last is None:
        return None
    asked = {stem(w) for w in words(turn.question)}
    best: Lead | None = None
    for hit in turn.read(last.hits)[:BRIDGE_PASSAGES]:
        for sentence in prose(hit):
            value = coverage(turn.question, [sentence], turn.weight)
            for name in names(sentence):
                if any(stem(t) not in asked for t in words(name.text)):
                    if best is None or value > best.coverage:
                        best = Lead(name.text, value)
    return best


def finite_forms(question: str) -> list[str]:
    """The finite forms of the verb a "does"/"did" question ends with (`DO_VERB_RE`).

    "Which Python versions does Werkzeug support?" gives "supports", "supportes"; the search
    tool keeps the ones it holds.
    """
    match = DO_VERB_RE.search(question)
    if match is None:
        return []
    verb = match.group("verb")
    forms = []
    for ending in FINITE_ENDINGS[match.group("aux").lower()]:
        base = verb[:-1] if ending.startswith("i") else verb
        if not ending.startswith("i") or verb.endswith("y"):
            forms.append(base + ending)
    return forms


def written_capitalised(text: str) -> set[str]:
    """The stems of the words `text` writes capitalised, wherever they stand ("Flyboys stars")."""
    return {stem(w) for token in text.split() if token[:1].isupper() for w in words(token)}


def brought_something_new(searches: list[Observation]) -> bool:
    """Whether the last search found a passage no earlier search had (the first always has)."""
    seen = {str(hit["id"]) for s in searches[:-1] for hit in s.hits}
    return any(str(hit["id"]) not in seen for hit in searches[-1].hits)


def content_words(text: str) -> list[str]:
    """The meaningful words of `text` in their original case ("refund window").

    The text is read as `question_terms` reads it (`support.spelled_out`: "port'll" is "port",
    "what kind of markup" is "what markup").
    """
    keep = set(question_terms(text))
    seen: dict[str, None] = {}
    for token in spelled_out(text).replace("?", " ").split():
        word = token.strip(".,;:!\"'()[]")
        if word.lower() in keep or (word and words(word) and words(word)[0] in keep):
            seen.setdefault(word, None)
    return list(seen)
