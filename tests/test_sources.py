"""Which sources a run searches: the ones named, else $AGENT_CORPORA, else the built-ins.

Over a made-up folder saved as index `wiki` (`tests/wiki_docs.py`); the runs use the scripted
model, so what is asserted is the tools each run could call and what it recorded.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import run_cli
from langgraph.checkpoint.memory import InMemorySaver
from wiki_docs import write_wiki

from corpora import CorpusError
from graph.agent.context import Context
from graph.agent.graph import build_agent
from graph.app.corpus_specs import CORPORA_ENV, served_corpora
from graph.app.persistence import open_checkpointer
from graph.app.session import Session
from graph.app.thread_settings import read_settings
from graph.models.scripted import ScriptedModel
from tools import default_tools
from tools.index_build import build_index
from tools.index_versions import indexes_root


@pytest.fixture
def wiki(agent_home: Path, tmp_path: Path) -> Path:
    """The made-up folder, saved as index `wiki` under $AGENT_HOME."""
    docs = write_wiki(tmp_path / "docs")
    build_index(indexes_root(agent_home), "wiki", docs)
    return docs


def tool_names(session: Session) -> list[str]:
    return list(session.graph.nodes["act"].bound.tools_by_name)


def test_a_named_corpus_replaces_the_builtins_unless_they_are_asked_for(wiki: Path) -> None:
    from graph.app.corpus_specs import open_corpus_spec

    index = open_corpus_spec("wiki")
    assert tool_names(Session(InMemorySaver(), corpora=[index])) == [
        "search_wiki", "calculator", "finish"
    ]  # fmt: skip
    both = tool_names(Session(InMemorySaver(), corpora=[index], builtins=True))
    assert {"search_wiki", "search_notes", "search_policy", "search_products"} <= set(both)
    assert "search_notes" in tool_names(Session(InMemorySaver()))  # nothing named: built-ins


def test_agent_corpora_is_the_default_source_set(
    wiki: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CORPORA_ENV, "wiki")
    saver = InMemorySaver()
    session = Session(saver)
    assert tool_names(session) == ["search_wiki", "calculator", "finish"]
    model = ScriptedModel(turns=[
        {"tool": "search_wiki", "args": {"query": "Atlas charge"}},
        {"tool": "finish", "args": {"answer": "9 hours", "citations": ["robots/atlas.md#2"]}},
    ])  # fmt: skip
    result = Session(saver, model=model).ask("How long does Atlas run on one charge?")
    assert result["citations"] == ["robots/atlas.md#2"] and result["unsupported"] == []
    settings = read_settings(saver, result["thread_id"])
    assert settings is not None
    assert [(c.name, c.source) for c in settings.corpora] == [("wiki", "saved:wiki")]
    assert [c.name for c in served_corpora()] == ["wiki"]  # the served graphs and mcp serve


def test_a_bad_agent_corpora_entry_is_one_line(
    agent_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CORPORA_ENV, "wiki, nosuch")
    with pytest.raises(CorpusError, match=r"^AGENT_CORPORA: ") as raised:
        served_corpora()
    assert "\n" not in str(raised.value)


def test_ask_corpus_searches_only_that_index(
    wiki: Path, agent_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def searched(*options: str) -> list[tuple[str, str | None]]:
        code, out, err = run_cli(capsys, "ask", "Who pilots the Beacon drone?", *options, "--json")
        assert code == 0, err
        with open_checkpointer() as saver:
            settings = read_settings(saver, json.loads(out)["thread_id"])
        assert settings is not None
        return [(c.name, c.source) for c in settings.corpora]

    assert searched("--corpus", "wiki") == [("wiki", "saved:wiki")]
    with_builtins = searched("--corpus", "wiki", "--builtins")
    assert {name for name, _ in with_builtins} == {"wiki", "notes", "policy", "products"}
    assert {name for name, _ in searched()} == {"notes", "policy", "products"}


def test_a_run_context_narrows_the_corpora_by_name_only(wiki: Path) -> None:
    from graph.app.corpus_specs import open_corpus_spec

    tools = default_tools(corpora=[open_corpus_spec("wiki"), *served_corpora(["notes"])])
    model = ScriptedModel(turns=[
        {"tool": "search_wiki", "args": {"query": "Beacon pilot"}},
        {"tool": "finish", "args": {"answer": "x"}},
    ])  # fmt: skip
    agent = build_agent(model=model, tools=tools)
    only_notes = Context(corpora=["notes"])
    out = agent.invoke(
        {"question": "Who pilots Beacon?"}, only_notes.run_config(), context=only_notes
    )
    # the model was not offered search_wiki, and calling it anyway is refused like an unknown tool
    assert out["retrieved"] == {} and "search_wiki" not in json.dumps(out["retrieved"])
    refusal = [m for m in out["messages"] if m.type == "tool"][0]
    assert refusal.status == "error" and "is not a tool here" in refusal.content
    unknown = Context(corpora=["secret"])
    out = agent.invoke({"question": "Who pilots Beacon?"}, unknown.run_config(), context=unknown)
    assert out["stopped"] == "error"
    assert out["error"] == "ValueError: unknown corpus secret: this agent searches notes, wiki"
    with pytest.raises(ValueError, match="bad corpus name"):
        Context(corpora=["/etc/passwd"])


def test_eval_corpus_matches_a_headerless_dataset_against_the_saved_index(
    wiki: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dataset = tmp_path / "crew.jsonl"
    question = {"id": "pilot", "question": "Who pilots the Beacon drone?",
                "answers": ["Marta Quill"], "supporting": ["people/crew.rst"]}  # fmt: skip
    dataset.write_text(json.dumps(question) + "\n")
    code, _, err = run_cli(capsys, "eval", "--dataset", str(dataset), "--out", str(tmp_path / "a"))
    assert code == 1 and "is not in the built-in corpora" in err  # no corpus: the built-ins
    out = tmp_path / "b"
    code, _, err = run_cli(capsys, "eval", "--dataset", str(dataset), "--corpus", "wiki",
                           "--out", str(out))  # fmt: skip
    assert code == 0, err
    (row,) = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert row["correct"] and row["retrieval_recall"] == 1.0


@pytest.mark.parametrize("saved", [False, True])
def test_a_folder_of_one_short_file_is_searchable(
    agent_home: Path, tmp_path: Path, saved: bool
) -> None:
    """One passage: Okapi's idf is below 0 for every word, yet the passage must be found."""
    from graph.app.corpus_specs import open_corpus_spec

    folder = tmp_path / "kettle"
    folder.mkdir()
    (folder / "guide.md").write_text("# Kettle\n\nDescale the kettle every six weeks.\n")
    if saved:
        build_index(indexes_root(agent_home), "kb", folder)
    corpus = open_corpus_spec("kb" if saved else f"kb={folder}")
    search = Session(InMemorySaver(), corpora=[corpus]).graph.nodes["act"].bound
    observation = search.tools_by_name["search_kb"].invoke({"query": "how often to descale"})
    assert "guide.md" in observation and "every six weeks" in observation
