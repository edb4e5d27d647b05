"""Search tools as the offline policy reads them: `SearchSource` (tools/search_protocol.py).

The policy asks a search tool only for its `collection`, its `evidence(query)` and its
`term_weight(term)`; every kind of search tool implements them, and a made-up tool that
implements them is searched like the built-in ones. Made-up passages throughout.
"""

from __future__ import annotations

import zlib
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Literal

import numpy as np
from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.messages import AIMessage
from langchain_core.retrievers import BaseRetriever
from langchain_core.tools import ArgsSchema, BaseTool

from corpora import Corpus, Passage
from graph.agent.budget import run_config
from graph.agent.context import Context
from graph.agent.graph import build_agent
from graph.mcp_io.tools import MCPSearchTool, MCPTool
from graph.models.offline.model import PolicyModel
from graph.models.offline.rules import decide
from graph.models.offline.sources import ranked, search_sources
from tools.bm25 import BM25
from tools.calculator import calculator
from tools.finish import FINISH_TOOL, finish
from tools.index_build import build_index
from tools.index_store import open_index
from tools.retrievers import index_corpus
from tools.search import make_search_tool
from tools.search_protocol import Evidence, SearchInput, SearchSource

HARBOUR = Corpus(
    name="harbour",
    passages=(
        Passage(id="h1", text="The Gantry Nine crane lifts the heaviest containers at Pier Four."),
        Passage(id="h2", text="Tugboats guide tankers past the breakwater at dawn."),
        Passage(id="h3", text="Pier Four stores refrigerated containers of winter fruit."),
    ),
)
BAKERY = Corpus(
    name="bakery",
    passages=(
        Passage(id="b1", text="Rye loaves rest overnight before the morning bake."),
        Passage(id="b2", text="The croissant dough is folded three times."),
        Passage(id="b3", text="Ovens are swept clean every Sunday."),
    ),
)


class NotebookSearch(BaseTool):
    """A made-up search tool: no BM25, no corpus object; it implements `SearchSource` itself.

    A passage matches a query by the words they share; the tool records what the policy asks.
    """

    name: str = ""
    description: str = ""
    args_schema: ArgsSchema | None = SearchInput
    response_format: Literal["content", "content_and_artifact"] = "content_and_artifact"
    handle_tool_error: bool = True
    shelf: str
    notes: dict[str, str]
    asked: list[str] = []
    weighed: list[str] = []

    @property
    def collection(self) -> str:
        return self.shelf

    def _matches(self, query: str) -> list[tuple[int, str]]:
        wanted = set(query.lower().replace("?", " ").split())
        shared = [
            (len(wanted & set(text.lower().rstrip(".").split())), i)
            for i, text in self.notes.items()
        ]
        return sorted(((n, i) for n, i in shared if n), key=lambda x: (-x[0], x[1]))

    def evidence(self, query: str) -> Evidence:
        self.asked.append(query)
        best = self._matches(query)[:1]
        if not best:
            return Evidence(text="", found=False)
        return Evidence(text=self.notes[best[0][1]], score=float(best[0][0]))

    def term_weight(self, term: str) -> float:
        self.weighed.append(term)
        return 1.0

    def _run(self, query: str, page: int = 1, k: int | None = None, **_: Any) -> tuple[str, list]:
        hits = [
            {"id": i, "score": float(n), "corpus": self.shelf, "text": self.notes[i], "title": ""}
            for n, i in self._matches(query)[: k or 3]
        ]
        return "\n".join(f"[{h['id']}] {h['text']}" for h in hits) or "no passages", hits


def notebook(shelf: str, notes: dict[str, str]) -> NotebookSearch:
    return NotebookSearch(
        name=f"search_{shelf}", description=f"Notes on the {shelf}.", shelf=shelf, notes=notes
    )


def run_policy(tools: list[Any], question: str, max_steps: int = 4) -> tuple[dict, list[dict]]:
    graph = build_agent(model=PolicyModel(), tools=tools)
    *_, state = graph.stream(
        {"question": question},
        run_config(max_steps),
        context=Context(max_steps=max_steps),
        stream_mode="values",
    )
    messages = [m for m in state["messages"] if isinstance(m, AIMessage)]
    return state, [dict(c, thought=m.content) for m in messages for c in m.tool_calls]


def test_a_made_up_search_tool_is_routed_by_its_evidence_and_weighs_the_question() -> None:
    bakery = notebook("bakery", {"n1": "Rye loaves rest overnight before baking."})
    docks = notebook(
        "docks",
        {
            "d1": "The Gantry Nine crane lifts the heaviest containers.",
            "d2": "Tugboats guide tankers at dawn.",
        },
    )
    state, calls = run_policy([bakery, docks, finish], "which crane lifts the heaviest containers?")
    assert calls[0]["name"] == "search_docks"  # bound second, chosen for its evidence
    assert "docks" in calls[0]["thought"]  # the thought names the tool's collection
    assert docks.asked and bakery.asked  # both were asked, neither was searched blind
    assert docks.weighed  # coverage of the question was weighed with the tool's term weights
    assert calls[-1]["name"] == FINISH_TOOL and state["citations"] == ["d1"]
    assert "Gantry Nine" in state["answer"]


def test_attributes_alone_no_longer_make_a_search_tool() -> None:
    """A tool with a BM25 `index` and a `corpus` but without the protocol is not searched."""
    duck = SimpleNamespace(
        name="search_harbour",
        description="harbour notes",
        index=BM25(HARBOUR.texts()),
        corpus=HARBOUR,
    )
    assert search_sources([duck, finish]) == []
    action = decide([duck, finish], 4, "which crane lifts containers?", [])
    assert action.tool == FINISH_TOOL and action.args["answer"] is None  # a decline
    assert action.thought.startswith("no_search_tool:")


class SliceEncoder:
    """A made-up embedder: a bag of hashed words, unit length (no model download)."""

    name = "slice-test"

    def encode(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        rows = np.zeros((len(texts), 64), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in text.lower().split():
                rows[row, zlib.crc32(word.encode()) % 64] += 1.0
        norms = np.linalg.norm(rows, axis=1, keepdims=True)
        return rows / np.where(norms == 0, 1, norms)


class PierRetriever(BaseRetriever):
    """A made-up foreign retriever: documents sharing a word with the query, in shelf order."""

    shelf: list[Document]

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        words = set(query.lower().replace("?", "").split())
        return [d for d in self.shelf if words & set(d.page_content.lower().rstrip(".").split())]


PIER_DOCS = [
    Document(id="p-1", page_content="The pier crane Osprey lifts forty tonnes."),
    Document(id="p-2", page_content="The harbour cafe opens at seven."),
]


def test_every_kind_of_search_tool_speaks_the_protocol(tmp_path: Path) -> None:
    bm25 = make_search_tool(HARBOUR)
    hybrid = make_search_tool(index_corpus(HARBOUR, "hybrid", encoder=SliceEncoder()))
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "pier.txt").write_text("The Gantry Nine crane lifts the heaviest containers.")
    (docs / "cafe.txt").write_text("The harbour cafe opens at seven.")
    (docs / "tugs.txt").write_text("Tugboats guide tankers past the breakwater.")
    build_index(tmp_path / "indexes", "pier", docs)
    saved = make_search_tool(open_index(tmp_path / "indexes", "pier"))
    foreign = make_search_tool(PierRetriever(shelf=PIER_DOCS), name="pier_docs")
    remote = MCPSearchTool(
        name="lookup", description="[MCP server s] Look up pier logs.",
        args_schema={"type": "object", "properties": {"query": {"type": "string"}}},
        clients=None, remote=None, server="s", remote_name="lookup",
    )  # fmt: skip
    other = MCPTool(
        name="ping", description="d", args_schema={"type": "object", "properties": {}},
        clients=None, remote=None, server="s", remote_name="ping",
    )  # fmt: skip
    tools = [bm25, hybrid, saved, foreign, remote, other, calculator, finish]
    assert search_sources(tools) == [bm25, hybrid, saved, foreign, remote]
    assert all(isinstance(t, SearchSource) for t in (bm25, hybrid, saved, foreign, remote))
    assert [t.collection for t in (bm25, saved, foreign)] == ["harbour", "pier", "pier_docs"]

    found = bm25.evidence("crane heaviest containers")
    assert found.found and found.text == HARBOUR.get("h1").text and found.score > 0
    assert hybrid.evidence("crane heaviest containers") == found  # BM25, whatever it answers with
    assert not bm25.evidence("sourdough").found
    assert saved.evidence("crane").text.endswith("heaviest containers.")
    assert bm25.term_weight("tugboats") > bm25.term_weight("pier") > 0  # idf: rarer weighs more
    assert bm25.term_weight("sourdough") == 0.0

    for described in (foreign, remote):  # not asked ahead of the model's search
        evidence = described.evidence("crane")
        assert evidence.found and evidence.score == 0.0
        assert described.description in evidence.text and described.name in evidence.text
        assert described.term_weight("crane") == 1.0


def test_ranking_puts_a_tool_that_holds_nothing_last() -> None:
    harbour, bakery = make_search_tool(HARBOUR), make_search_tool(BAKERY)
    assert ranked([bakery, harbour], "crane containers") == [harbour, bakery]
    assert ranked([harbour, bakery], "croissant dough") == [bakery, harbour]


def test_the_policy_searches_a_foreign_retriever_with_its_own_query() -> None:
    """A retriever tool is a search to the policy: keywords in, an extractive cited answer."""
    tool = make_search_tool(PierRetriever(shelf=PIER_DOCS), name="pier_docs")
    state, calls = run_policy([tool, finish], "How many tonnes does the Osprey crane lift?")
    assert calls[0]["name"] == "search_pier_docs"
    assert calls[0]["args"]["query"] == "tonnes Osprey crane lift"
    assert calls[-1]["name"] == FINISH_TOOL and "p-1" in state["citations"]
    assert "forty" in state["answer"]
