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

from corpora.loader import indexed_text
from graph.models.answering import Bridge, compose_answer, find_bridge
from graph.models.arithmetic import format_value, parse_arithmetic
from graph.models.base import InProcessChatModel
from graph.models.hops import follow_up
from graph.models.reading import answer_type, content_terms, split_relative_clause, stems, words
from tools.expand import expand_query

MAX_SEARCHES = 3
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
        action = Controller(self.tools).decide(question, observations)
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

    def __init__(self, tools: Sequence[Any]) -> None:
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
        return self.research(question, [o for o in observations if o.tool in self.search_names])

    def research(self, question: str, searches: list[Observation]) -> Action:
        """Search (one or two hops, routed by BM25 evidence), then answer from what was found."""
        hop = split_relative_clause(question)
        bridge = self.bridge(question, hop, searches)
        if not searches:
            if hop is not None:
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
        if len(searches) < MAX_SEARCHES:
            more = self.follow_up(question, searches)
            if more is not None:
                return more
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
        if last.hits or len(searches) >= MAX_SEARCHES:
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
