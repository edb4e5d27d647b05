"""Retriever choice (AGENT_RETRIEVER, demo's [embed] line) and foreign retrievers as tools."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from cli_helpers import run_cli
from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.messages import ToolMessage
from langchain_core.retrievers import BaseRetriever
from langgraph.checkpoint.memory import InMemorySaver

from graph.agent.graph import build_agent
from graph.app.session import Session
from tools.calculator import calculator
from tools.finish import finish
from tools.retriever_tool import RetrieverTool, document_id
from tools.retrievers import RETRIEVER_ENV, default_retriever
from tools.search import make_search_tool


class ShelfRetriever(BaseRetriever):
    """A made-up retriever: documents sharing a word with the query, in shelf order."""

    shelf: list[Document]

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        words = set(query.lower().split())
        return [d for d in self.shelf if words & set(d.page_content.lower().split())]


SHELF = [
    Document(id="vs-1", page_content="The   Orca kayak\nseats two paddlers."),
    Document(page_content="The orca kayak weighs 22 kg.", metadata={"doc_id": "inv-77"}),
    Document(page_content="Orca spray skirts come in blue.", metadata={"title": "Skirts"}),
    Document(id="bad [id]", page_content="An orca paddle is 220 cm long."),
]


def test_foreign_retriever_becomes_a_search_tool_with_citable_ids() -> None:
    tool = make_search_tool(ShelfRetriever(shelf=SHELF), k=3, name="shop")
    assert isinstance(tool, RetrieverTool) and tool.name == "search_shop"
    assert "query" in tool.tool_call_schema.model_json_schema()["properties"]
    assert "k" not in tool.tool_call_schema.model_json_schema()["properties"]
    message = tool.invoke(
        {"type": "tool_call", "id": "c1", "name": "search_shop", "args": {"query": "orca"}}
    )
    hashed = "sha-" + hashlib.sha256(SHELF[2].page_content.encode()).hexdigest()[:12]
    assert message.content.splitlines() == [
        "[vs-1] The Orca kayak seats two paddlers.",
        "[inv-77] The orca kayak weighs 22 kg.",
        f"[{hashed}] Orca spray skirts come in blue.",
    ]
    assert [h["id"] for h in message.artifact] == ["vs-1", "inv-77", hashed]
    assert message.artifact[2]["title"] == "Skirts"
    assert document_id(SHELF[3]).startswith("sha-")  # an id with brackets cannot be cited
    blank = tool.invoke(
        {"type": "tool_call", "id": "c2", "name": "search_shop", "args": {"query": " "}}
    )
    assert blank.status == "error"
    with pytest.raises(ValueError, match="needs a name"):
        make_search_tool(ShelfRetriever(shelf=SHELF))


def test_foreign_retriever_tool_citations_survive_a_run(scripted) -> None:
    model = scripted(
        ("search_shop", {"query": "kayak weighs"}),
        ("finish", {"answer": "It weighs 22 kg.", "citations": ["inv-77"]}),
    )
    tool = make_search_tool(ShelfRetriever(shelf=SHELF), name="shop")
    graph = build_agent(model=model, tools=[tool, calculator, finish], checkpointer=InMemorySaver())
    from graph.agent.budget import run_config
    from graph.agent.context import Context

    config = {**run_config(max_steps=4), "configurable": {"thread_id": "t1"}}
    out = graph.invoke({"question": "How heavy is the Orca?"}, config, context=Context(model="x"))
    assert out["answer"] == "It weighs 22 kg."
    assert out["citations"] == ["inv-77"] and out["unsupported"] == []
    assert "inv-77" in out["retrieved"]["search_shop"]


def test_agent_retriever_env_sets_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(RETRIEVER_ENV, raising=False)
    assert default_retriever() == "bm25"
    monkeypatch.setenv(RETRIEVER_ENV, "hybrid")
    assert default_retriever() == "hybrid"
    monkeypatch.setenv(RETRIEVER_ENV, "vector")
    with pytest.raises(ValueError, match=r"AGENT_RETRIEVER: unknown retriever 'vector'"):
        default_retriever()
    with pytest.raises(ValueError, match="unknown retriever"):
        Session(InMemorySaver())


def test_bad_agent_retriever_is_one_line_on_the_cli(
    agent_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(RETRIEVER_ENV, "vector")
    code, out, err = run_cli(capsys, "ask", "what's our refund window?")
    assert code == 1
    assert err.strip().splitlines() == [
        "error: AGENT_RETRIEVER: unknown retriever 'vector' (choose from bm25, dense, hybrid)"
    ]


def test_demo_says_which_retriever_it_uses(
    agent_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("RAG_REAL_EMBED", raising=False)
    monkeypatch.delenv(RETRIEVER_ENV, raising=False)
    code, out, _ = run_cli(capsys, "demo")
    assert code == 0
    assert out.splitlines()[0].startswith("[embed] using the BM25 keyword retriever")
    # asked for the real embedder without it, the demo says why and stays on BM25
    monkeypatch.setenv("RAG_REAL_EMBED", "1")
    monkeypatch.setenv("AGENT_EMBED_MODEL_DIR", str(agent_home / "no-model"))
    code, out, _ = run_cli(capsys, "demo")
    assert code == 0
    first = out.splitlines()[0]
    assert first.startswith("[embed] dense retrieval unavailable (") and first.endswith(
        "using BM25"
    )
    assert "ANSWER: 18% of a $250 order is $45.00." in out


def test_tool_message_names(scripted) -> None:
    # ToolMessage name is the tool's, so transcripts show which collection answered
    tool = make_search_tool(ShelfRetriever(shelf=SHELF), name="shop")
    message = tool.invoke(
        {"type": "tool_call", "id": "c", "name": "search_shop", "args": {"query": "kayak"}}
    )
    assert isinstance(message, ToolMessage) and message.name == "search_shop"
