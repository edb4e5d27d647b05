"""Saved indexes: `agent index`, `agent corpora`, incremental builds, locking, opening."""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import pytest
from cli_helpers import run_cli
from wiki_docs import write_wiki

from graph.app.session import Session
from tools.index_build import build_index
from tools.index_store import drop_index, list_indexes, open_index
from tools.index_versions import IndexStoreError, current_version, locked
from tools.stored_corpus import StoredCorpus


def test_index_command_summary_line_and_every_skipped_kind(
    agent_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = write_wiki(tmp_path / "wiki")
    (docs / "data.csv").write_text("a,b")
    (docs / "blank.txt").write_text("  \n")
    (docs / "old.txt").write_bytes(b"\xff\xfe latin")
    os.mkfifo(docs / "feed.md")
    (docs / "gone.md").symlink_to(docs / "missing.md")
    code, out, err = run_cli(capsys, "index", "wiki", str(docs))
    assert code == 0, err
    lines = out.strip().splitlines()
    assert len(lines) == 1
    assert re.fullmatch(
        r"indexed wiki \(bm25\): 5 files \(5 read, 0 unchanged\), 6 passages, "
        r"5 files skipped \(1 unsupported type, 1 empty, 1 unreadable, 1 not UTF-8, "
        r"1 not a regular file\), \d+\.\d s",
        lines[0],
    ), lines[0]
    version = current_version(agent_home / "indexes", "wiki")
    manifest = json.loads((version / "manifest.json").read_text())
    assert dict(manifest["skipped"])["feed.md"] == "not a regular file"


def test_reindex_reads_only_changed_files_and_drops_deleted_ones(tmp_path: Path) -> None:
    root, docs = tmp_path / "indexes", write_wiki(tmp_path / "wiki")
    first = build_index(root, "wiki", docs)
    assert (first.read, first.unchanged, first.passages) == (5, 0, 6)
    again = build_index(root, "wiki", docs)
    assert (again.read, again.unchanged, again.removed) == (0, 5, 0)
    # a touched but identical file is not re-parsed; a changed one is; a deleted one goes
    kettle = docs / "kitchen" / "kettle.html"
    os.utime(kettle, ns=(time.time_ns(), time.time_ns() + 10**9))
    (docs / "robots" / "beacon.txt").write_text("Beacon now maps rivers in the daytime.")
    (docs / "garden" / "ferns.md").unlink()
    third = build_index(root, "wiki", docs)
    assert (third.read, third.unchanged, third.removed, third.passages) == (1, 3, 1, 5)
    corpus = open_index(root, "wiki").corpus
    assert corpus.get("robots/beacon.txt").text == "Beacon now maps rivers in the daytime."
    with pytest.raises(KeyError):
        corpus.get("garden/ferns.md")
    # the reused passages are the same as a fresh build's
    fresh = build_index(tmp_path / "fresh", "wiki", docs)
    assert fresh.read == 4
    fresh_corpus = open_index(tmp_path / "fresh", "wiki").corpus
    assert list(corpus.passages) == list(fresh_corpus.passages)


def test_saved_index_opens_memory_mapped_and_searches_like_a_fresh_one(tmp_path: Path) -> None:
    root = tmp_path / "indexes"
    build_index(root, "wiki", write_wiki(tmp_path / "wiki"))
    indexed = open_index(root, "wiki")
    assert isinstance(indexed.corpus, StoredCorpus)
    assert indexed.bm25.doc_ids[0] == indexed.corpus.passages[0].id
    assert indexed.retriever == "bm25" and indexed.dense is None
    hits = indexed.bm25.search("how long does the atlas battery last", k=1)
    assert hits[0][0] == "robots/atlas.md#2"
    assert indexed.corpus.get("robots/atlas.md#2").title == "robots/atlas.md > Atlas > Battery"


def test_session_over_a_saved_index_answers_with_citations(tmp_path: Path) -> None:
    from langgraph.checkpoint.memory import InMemorySaver

    root = tmp_path / "indexes"
    build_index(root, "wiki", write_wiki(tmp_path / "wiki"))
    session = Session(InMemorySaver(), corpora=[open_index(root, "wiki")], builtins=False)
    result = session.ask("Who pilots the Beacon drone?")
    assert "Marta Quill" in (result["answer"] or "")
    assert result["citations"] == ["people/crew.rst"]


def test_corpora_lists_and_drops(
    agent_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(capsys, "corpora")
    assert (code, out.strip()) == (0, "no saved indexes: run `agent index NAME PATH`")
    build_index(agent_home / "indexes", "wiki", write_wiki(tmp_path / "wiki"))
    code, out, _ = run_cli(capsys, "corpora")
    assert code == 0
    row = next(line for line in out.splitlines() if "wiki" in line)
    assert re.search(r"wiki\s*│\s*bm25\s*│\s*5\s*│\s*6\s*│\s*[\d.]+ KB", row), row
    code, out, _ = run_cli(capsys, "corpora", "--drop", "wiki")
    assert (code, out.strip()) == (0, "dropped saved index 'wiki'")
    assert list_indexes(agent_home / "indexes") == []
    code, _, err = run_cli(capsys, "corpora", "--drop", "wiki")
    assert (code, err.strip()) == (1, "error: no saved index 'wiki'")


def test_a_second_writer_is_refused_and_the_index_survives(tmp_path: Path) -> None:
    root, docs = tmp_path / "indexes", write_wiki(tmp_path / "wiki")
    build_index(root, "wiki", docs)
    with locked(root, "wiki"):  # as another process writing the same index would hold it
        with pytest.raises(IndexStoreError, match="being written by another process"):
            build_index(root, "wiki", docs)
        with pytest.raises(IndexStoreError, match="being written by another process"):
            drop_index(root, "wiki")
    assert len(open_index(root, "wiki").corpus) == 6
    assert not [p for p in root.iterdir() if ".tmp-" in p.name or ".old-" in p.name]


def test_unknown_or_damaged_index_is_one_line(
    agent_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_cli(capsys, "ask", "anything?", "--corpus", "nosuch")
    assert code == 1 and err.startswith("error: ") and len(err.strip().splitlines()) == 1
    root = agent_home / "indexes"
    build_index(root, "wiki", write_wiki(tmp_path / "wiki"))
    (current_version(root, "wiki") / "bm25" / "idf.npy").write_bytes(b"garbage")
    code, _, err = run_cli(capsys, "ask", "anything?", "--corpus", "wiki")
    assert code == 1
    assert err.startswith("error: saved index 'wiki' is damaged:") and err.count("\n") == 1
    code, _, err = run_cli(capsys, "index", "wiki", str(tmp_path / "missing"))
    assert code == 1 and err.strip() == f"error: {tmp_path / 'missing'}: no such file or folder"


def test_ask_with_a_saved_index_by_name(
    agent_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build_index(agent_home / "indexes", "wiki", write_wiki(tmp_path / "wiki"))
    code, out, err = run_cli(
        capsys, "ask", "How long does Atlas run on one charge?", "--corpus", "wiki"
    )
    assert code == 0, err
    assert "search_wiki(" in out
    assert "ANSWER: 9 hours" in out, out  # the short answer to "how long"
