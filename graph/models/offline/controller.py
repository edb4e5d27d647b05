"""`Controller`: the offline policy's decision rules, one tool call per turn.

`decide` sends arithmetic to the calculator, schema-driven tools to `StructuredController`,
and everything else to `research`: search within the step budget (two hops for a question
with a relative clause, follow-ups while the question is not covered, deeper pages of the
first ranking), then finish with the extractive answer. Where to search is `sources.ranked`;
what to search next is `research` with `hops.follow_up`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from graph.models.offline.actions import Action, Observation
from graph.models.offline.answering import compose_answer
from graph.models.offline.arithmetic import format_value, parse_arithmetic
from graph.models.offline.bridges import Bridge, find_bridge
from graph.models.offline.hops import coverage, follow_up
from graph.models.offline.reading import (
    Hop,
    answer_type,
    content_terms,
    split_relative_clause,
    words,
)
from graph.models.offline.schemas import structured_tools
from graph.models.offline.short_answers import short_answer
from graph.models.offline.sources import ranked, search_sources
from graph.models.offline.structured import StructuredController
from graph.models.offline.tuning import DEEPER_READ_COVERAGE, ONE_SEARCH_LEFT
from tools.calculator import CALCULATOR_TOOL
from tools.finish import FINISH_TOOL
from tools.search_protocol import SearchSource


class Controller:
    """The decision rules, over the tools the policy was bound to."""

    def __init__(self, tools: Sequence[Any], max_steps: int | None = None) -> None:
        """Rules over `tools`, for a turn of at most `max_steps` model calls (None: no limit)."""
        self.max_steps = max_steps
        self.names = {tool.name for tool in tools}
        self.search_tools = search_sources(tools)
        self.search_names = {tool.name for tool in self.search_tools}
        self.tools = list(tools)

    def decide(self, question: str, observations: list[Observation]) -> Action:
        """The next step for `question`, given what the turn has observed so far."""
        arithmetic = parse_arithmetic(question)
        if arithmetic is not None and CALCULATOR_TOOL in self.names:
            done = [o for o in observations if o.tool == CALCULATOR_TOOL]
            if not done:
                return Action(
                    "This is arithmetic, not a knowledge lookup; use the calculator.",
                    CALCULATOR_TOOL,
                    {"expression": arithmetic.expression},
                )
            value = format_value(done[-1].content, arithmetic.currency) if done[-1].ok else None
            if value is None:
                return self.finish(
                    f"I could not compute this: {done[-1].content}",
                    [],
                    "The calculator could not evaluate it; say so and finish.",
                )
            return self.finish(
                arithmetic.template.format(value=value), [], "I have the computed value; finish."
            )
        if not self.search_tools and structured_tools(self.tools):  # schema-driven tools
            return StructuredController(self.tools).decide(question, observations)
        if not self.search_tools:
            return self.finish(
                "I have no search tool to look this up with.",
                [],
                "Nothing here can answer this; finish.",
            )
        left = None if self.max_steps is None else self.max_steps - len(observations)
        searches = [o for o in observations if o.tool in self.search_names]
        return self.research(question, searches, left)

    def research(self, question: str, searches: list[Observation], left: int | None) -> Action:
        """Search within the budget (hops, follow-ups, deeper reads), then answer.

        `left` counts the model calls left, this one included (None: no budget): the last is
        always kept for the answer, so with one left the policy answers from what it has found.
        """
        hop = split_relative_clause(question)
        bridge = self.bridge(question, hop, searches)
        if left is not None and left <= 1:
            return self.answer(question, hop, bridge, searches)
        if not searches:
            if hop is not None and (left is None or left > ONE_SEARCH_LEFT):
                tool = self.route(hop.inner_query)
                return Action(
                    f"I don't yet know {hop.inner_query}; look it up in {tool.collection}.",
                    tool.name,
                    {"query": hop.inner_query},
                )
            query = " ".join(content_words(question)) or question
            tool = self.route(query)
            return Action(
                f"This is a {tool.collection} question; search the {tool.collection} index.",
                tool.name,
                {"query": query},
            )
        if hop is not None and bridge is not None and len(searches) == 1:
            rest = [
                w
                for w in content_words(hop.outer.replace("{bridge}", " "))
                if w.lower() not in {t.lower() for t in words(bridge.name)}
            ]
            query = " ".join([bridge.name, *rest])
            tool = self.route(query)
            return Action(
                f"The first search points to {bridge.name}; now search "
                f"{tool.collection} for {bridge.name} and the rest of the question.",
                tool.name,
                {"query": query},
            )
        retry = self.retry(question, searches)
        if retry is not None:
            return retry
        if brought_something_new(searches):
            more = self.follow_up(question, searches)
            if more is not None:
                return more
        deeper = self.read_deeper(question, searches)
        if deeper is not None:
            return deeper
        return self.answer(question, hop, bridge, searches)

    def answer(
        self, question: str, hop: Hop | None, bridge: Bridge | None, searches: list[Observation]
    ) -> Action:
        """Finish with the answer the retrieved passages give, or say nothing was found."""
        if not searches:
            return self.finish(
                "I had no step left to search, so I cannot answer from the documents.",
                [],
                "The budget leaves only this step; finish without searching.",
            )
        target = hop.outer.replace("{bridge}", bridge.name) if hop and bridge else question
        answer = compose_answer(
            target, answer_type(question), [s.hits for s in searches if s.ok], bridge, question
        )
        if answer is None:
            return self.finish(
                "I could not find the answer in the documents I searched.",
                [],
                "Nothing retrieved answers the question; finish.",
            )
        known = " ".join([question, target, bridge.name if bridge else ""])
        hits = [hit for s in searches if s.ok for hit in s.hits]
        short = short_answer(question, answer_type(question), answer.text, known, hits)
        if short:
            return self.finish(
                short,
                answer.citations,
                f'The supporting sentence is "{answer.text}"; the question asks for just '
                f"{short!r}; finish.",
            )
        return self.finish(
            answer.text, answer.citations, "The retrieved passages answer the question; finish."
        )

    def bridge(self, question: str, hop: Hop | None, searches: list[Observation]) -> Bridge | None:
        """The entity the first search found for a two-hop question, if any."""
        if hop is None or not searches or not searches[0].hits:
            return None
        titles = {str(h.get("title", "")).lower() for s in searches for h in s.hits}
        return find_bridge(searches[0].hits, question, hop.head, hop.inner_query, titles)

    def retry(self, question: str, searches: list[Observation]) -> Action | None:
        """Another search when the last one found nothing, in the next-best corpus."""
        last = searches[-1]
        if last.hits:
            return None
        query = str(last.args.get("query", ""))
        tried = {s.tool for s in searches if str(s.args.get("query", "")) == query}
        for tool in ranked(self.search_tools, query):
            if tool.name not in tried:
                return Action(
                    f"{last.tool} found nothing; try {tool.collection}.",
                    tool.name,
                    {"query": query},
                )
        return None

    def follow_up(self, question: str, searches: list[Observation]) -> Action | None:
        """One more search when the retrieved text does not yet cover the question."""
        tried = {" ".join(str(s.args.get("query", "")).casefold().split()) for s in searches}
        found = [s.hits for s in searches if s.ok]
        planned = follow_up(question, found, self.route(question).term_weight, tried)
        if planned is None:
            return None
        query, thought = planned
        tool = self.route(query)
        return Action(thought, tool.name, {"query": query})

    def read_deeper(self, question: str, searches: list[Observation]) -> Action | None:
        """The next page of the first query's ranking, while the question is not yet covered."""
        first = searches[0]
        query = str(first.args.get("query", ""))
        same = [s for s in searches if s.tool == first.tool and s.args.get("query") == query]
        if not same[-1].hits or not self.needs_more(question, searches):
            return None
        page = max(int(s.args.get("page", 1)) for s in same) + 1
        return Action(
            f"Nothing new to follow; read further down the ranking for {query!r} (page {page}).",
            first.tool,
            {"query": query, "page": page},
        )

    def needs_more(self, question: str, searches: list[Observation]) -> bool:
        """Whether what was retrieved still leaves part of the question uncovered."""
        weight = self.route(question).term_weight
        hits = [hit for s in searches if s.ok for hit in s.hits]
        return coverage(question, hits, weight) < DEEPER_READ_COVERAGE

    def route(self, query: str) -> SearchSource:
        """The search tool with the best evidence for `query` (`sources.ranked`)."""
        return ranked(self.search_tools, query)[0]

    def finish(self, answer: str, citations: list[str], thought: str) -> Action:
        """A call to `finish` (the graph ends the turn on it)."""
        return Action(thought, FINISH_TOOL, {"answer": answer, "citations": citations})


def brought_something_new(searches: list[Observation]) -> bool:
    """Whether the last search found a passage no earlier search had (the first always has)."""
    seen = {str(hit["id"]) for s in searches[:-1] for hit in s.hits}
    return any(str(hit["id"]) not in seen for hit in searches[-1].hits)


def content_words(text: str) -> list[str]:
    """The meaningful words of `text` in their original case ("refund window")."""
    keep = set(content_terms(text))
    seen: dict[str, None] = {}
    for token in text.replace("?", " ").split():
        word = token.strip(".,;:!\"'()[]")
        if word.lower() in keep or (word and words(word) and words(word)[0] in keep):
            seen.setdefault(word, None)
    return list(seen)
