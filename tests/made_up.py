"""A corpus of made-up passages, for the policy's tests."""

from __future__ import annotations

from typing import Any

from corpora import Corpus, Passage
from graph.agent.budget import run_config
from graph.agent.context import Context
from graph.agent.graph import build_agent
from tools.finish import finish
from tools.search import make_search_tool


def corpus(name: str, texts: dict[str, str]) -> Corpus:
    """A corpus `name` of the passages `texts` (id -> text), in order."""
    return Corpus(name, tuple(Passage(id=i, text=t) for i, t in texts.items()))


def flat(term: str) -> float:
    """A term weight under which every word weighs 1."""
    return 1.0


def ask(question: str, texts: dict[str, str], name: str = "kb") -> dict[str, Any]:
    """The policy's final state for `question` over one made-up corpus (search and finish)."""
    graph = build_agent(tools=[make_search_tool(corpus(name, texts)), finish])
    *_, state = graph.stream(
        {"question": question}, run_config(6), context=Context(), stream_mode="values"
    )
    return state
