"""`PolicyModel`: the offline default, a deterministic ReAct controller as a LangChain chat model.

Every turn it reads the transcript (question, its own earlier calls, the observations) and
returns an AIMessage whose content is the Thought and which carries exactly one tool call:

- arithmetic goes to `calculator`, then `finish` with a sentence built from the result;
- anything else is searched: the corpus is the one whose BM25 evidence for the query is best;
  a question with a relative clause ("the team that owns X") is answered in two hops, the
  second phrased with the bridge entity the first observation names;
- the answer is extractive: the retrieved sentence that best covers the question, citing the
  passages it rests on.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.runtime import get_runtime

from corpora import indexed_text
from graph.context import DEFAULT_MAX_STEPS
from graph.models.answering import Bridge, compose_answer, find_bridge
from graph.models.arithmetic import format_value, parse_arithmetic
from graph.models.base import InProcessChatModel
from graph.models.hops import coverage, follow_up
from graph.models.reading import answer_type, content_terms, split_relative_clause, stems, words
from graph.models.short_answers import short_answer
from graph.models.tuning import DEEPER_READ_COVERAGE, ONE_SEARCH_LEFT
from tools.expand import expand_query

CALCULATOR = "calculator"
FINISH = "finish"


@dataclass
class Observation:
    """One tool round of the current turn: the call and what came back."""

    tool: str
    args: dict[str, Any]
    content: str = ""
    hits: list[dict[str, Any]] = field(default_factory=list)
    ok: bool = True
    artifact: Any = None


@dataclass(frozen=True)
class Action:
    """The policy's decision for this turn."""

    thought: str
    tool: str
    args: dict[str, Any]


class PolicyModel(InProcessChatModel):
    """A rule-based ReAct controller; `bind_tools` gives it the tools it may call."""

    @property
    def _llm_type(self) -> str:
        """The model family name LangChain records in traces."""
        return "rule-policy"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        """Decide the next step from the transcript."""
        question, observations = read_transcript(messages)
        action = Controller(self.tools, run_budget()).decide(question, observations)
        call_id = (
            "call_" + hashlib.sha1(f"{question}\x00{len(observations)}".encode()).hexdigest()[:16]
        )
        message = AIMessage(
            content=action.thought,
            tool_calls=[
                {"name": action.tool, "args": action.args, "id": call_id, "type": "tool_call"}
            ],
        )
        return ChatResult(generations=[ChatGeneration(message=message)])


def run_budget() -> int:
    """The run's step budget (`Context.max_steps`), read from the graph run this call is in."""
    try:
        runtime = get_runtime()
    except (RuntimeError, KeyError):
        return DEFAULT_MAX_STEPS
    context = getattr(runtime, "context", None)
    return int(getattr(context, "max_steps", DEFAULT_MAX_STEPS) or DEFAULT_MAX_STEPS)


def read_transcript(messages: Sequence[BaseMessage]) -> tuple[str, list[Observation]]:
    """The current question and the tool rounds since it was asked."""
    question = ""
    observations: list[Observation] = []
    pending: dict[str, Observation] = {}
    for message in messages:
        if isinstance(message, HumanMessage):
            question = str(message.content)
            observations, pending = [], {}
        elif isinstance(message, AIMessage):
            for call in message.tool_calls:
                observation = Observation(call["name"], dict(call["args"]))
                observations.append(observation)
                pending[str(call["id"])] = observation
        elif isinstance(message, ToolMessage) and message.tool_call_id in pending:
            observation = pending.pop(message.tool_call_id)
            observation.content = str(message.content)
            observation.ok = message.status != "error"
            observation.artifact = message.artifact
            if isinstance(message.artifact, list):
                observation.hits = [h for h in message.artifact if isinstance(h, dict)]
    return question, observations


class Controller:
    """The decision rules, over the tools the policy was bound to."""

    def __init__(self, tools: Sequence[Any], max_steps: int = DEFAULT_MAX_STEPS) -> None:
        self.max_steps = max_steps
        self.names = {tool.name for tool in tools}
        self.search_tools = [tool for tool in tools if is_search_tool(tool)]
        self.search_names = {tool.name for tool in self.search_tools}
        self.tools = list(tools)

    def decide(self, question: str, observations: list[Observation]) -> Action:
        """The next step for `question`, given what the turn has observed so far."""
        arithmetic = parse_arithmetic(question)
        if arithmetic is not None and CALCULATOR in self.names:
            done = [o for o in observations if o.tool == CALCULATOR]
            if not done:
                return Action(
                    "This is arithmetic, not a knowledge lookup; use the calculator.",
                    CALCULATOR,
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
        from graph.models.structured import StructuredController, structured_tools

        if not self.search_tools and structured_tools(self.tools):  # schema-driven tools
            return StructuredController(self.tools).decide(question, observations)
        if not self.search_tools:
            return self.finish(
                "I have no search tool to look this up with.",
                [],
                "Nothing here can answer this; finish.",
            )
        left = self.max_steps - len(observations)
        searches = [o for o in observations if o.tool in self.search_names]
        return self.research(question, searches, left)

    def research(self, question: str, searches: list[Observation], left: int) -> Action:
        """Search within the budget (hops, follow-ups, deeper reads), then answer.

        `left` counts the model calls left, this one included: the last is always kept for
        the answer, so with one left the policy answers from what it has found.
        """
        hop = split_relative_clause(question)
        bridge = self.bridge(question, hop, searches)
        if left <= 1:
            return self.answer(question, hop, bridge, searches)
        if not searches:
            if hop is not None and left > ONE_SEARCH_LEFT:
                tool = self.route(hop.inner_query)
                return Action(
                    f"I don't yet know {hop.inner_query}; look it up in {corpus_name(tool)}.",
                    tool.name,
                    {"query": hop.inner_query},
                )
            query = " ".join(content_words(question)) or question
            tool = self.route(query)
            return Action(
                f"This is a {corpus_name(tool)} question; search the {corpus_name(tool)} index.",
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
                f"{corpus_name(tool)} for {bridge.name} and the rest of the question.",
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
        self, question: str, hop: Any, bridge: Bridge | None, searches: list[Observation]
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

    def bridge(self, question: str, hop: Any, searches: list[Observation]) -> Bridge | None:
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
        for tool in self.ranked(query):
            if tool.name not in tried:
                return Action(
                    f"{last.tool} found nothing; try {corpus_name(tool)}.",
                    tool.name,
                    {"query": query},
                )
        return None

    def follow_up(self, question: str, searches: list[Observation]) -> Action | None:
        """One more search when the retrieved text does not yet cover the question."""
        tried = {" ".join(str(s.args.get("query", "")).casefold().split()) for s in searches}
        index = getattr(self.route(question), "index", None)
        found = [s.hits for s in searches if s.ok]
        idf = index.idf if index is not None else _flat_idf
        planned = follow_up(question, found, idf, tried)
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
        index = self.route(question).index
        hits = [hit for s in searches if s.ok for hit in s.hits]
        return coverage(question, hits, index.idf) < DEEPER_READ_COVERAGE

    def route(self, query: str) -> Any:
        """The search tool whose corpus holds the best BM25 evidence for `query`."""
        return self.ranked(query)[0]

    def ranked(self, query: str) -> list[Any]:
        """Search tools ordered by evidence: query words the top passage covers, then score."""
        wanted = stems(query)
        scored = []
        for order, tool in enumerate(self.search_tools):
            if not hasattr(tool, "index"):  # a remote search: judged by its description
                text = f"{tool.name} {tool.description}"
                coverage = len(stems(text) & wanted) / len(wanted) if wanted else 0.0
                scored.append((-coverage, 0.0, order, tool))
                continue
            hits = tool.index.search(expand_query(tool.index, query) or query, 1)
            if not hits:  # known to hold nothing for this query: after any remote search
                scored.append((1.0, 0.0, order, tool))
                continue
            coverage = 0.0
            if hits and wanted:
                text = indexed_text(tool.corpus.get(hits[0][0]))
                coverage = len(stems(text) & wanted) / len(wanted)
            scored.append((-coverage, -(hits[0][1] if hits else 0.0), order, tool))
        scored.sort(key=lambda item: item[:3])
        return [item[3] for item in scored]

    def finish(self, answer: str, citations: list[str], thought: str) -> Action:
        """A call to `finish` (the graph ends the turn on it)."""
        return Action(thought, FINISH, {"answer": answer, "citations": citations})


def is_search_tool(tool: Any) -> bool:
    """A BM25 search tool (it has an ``index``) or a remote search whose records carry ids."""
    return hasattr(tool, "index") or bool(getattr(tool, "remote_search", False))


def _flat_idf(term: str) -> float:
    """Every word weighs the same (a remote search exposes no index statistics)."""
    return 1.0


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


def corpus_name(tool: Any) -> str:
    """The corpus a search tool searches, for thoughts ("products")."""
    corpus = getattr(tool, "corpus", None)
    return str(getattr(corpus, "name", tool.name))
