"""`agent eval --corpus NAME`: a dataset's questions and gold ids over a saved index."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import run_cli
from wiki_docs import WIKI, write_wiki

from graph.app.persistence import open_checkpointer
from graph.app.thread_settings import read_settings
from tools.index_build import build_index

QUESTIONS = [
    {
        "id": "battery",
        "question": "How long does Atlas run on one charge?",
        "answers": ["9 hours"],
        "supporting": ["robots/atlas.md#2"],
    },
    {
        "id": "pilot",
        "question": "Who pilots the Beacon drone?",
        "answers": ["Marta Quill"],
        "supporting": ["people/crew.rst"],
    },
]


def write_dataset(folder: Path, questions: list[dict[str, object]]) -> Path:
    """A dataset file whose own corpus is the folder ``wiki/`` beside it."""
    lines = [{"dataset": "crew_eval", "corpus": "wiki=wiki"}, *questions]
    path = folder / "crew_eval.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    return path


@pytest.fixture
def indexed(agent_home: Path, tmp_path: Path) -> Path:
    """The documents saved as index ``wiki``; then the folder changes (9 hours becomes 12)."""
    docs = write_wiki(tmp_path / "wiki")
    build_index(agent_home / "indexes", "wiki", docs)
    (docs / "robots/atlas.md").write_text(WIKI["robots/atlas.md"].replace("9 hours", "12 hours"))
    return docs


def results(folder: Path) -> dict[str, dict[str, object]]:
    """The eval's records by question id."""
    lines = (folder / "results.jsonl").read_text().splitlines()
    return {row["question_id"]: row for row in map(json.loads, lines)}


def test_eval_searches_the_saved_index_not_the_dataset_corpus(
    indexed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dataset = write_dataset(tmp_path, QUESTIONS)
    out_saved, out_own = tmp_path / "saved", tmp_path / "own"
    argv = ("eval", "--dataset", str(dataset), "--concurrency", "1")
    code, out, err = run_cli(capsys, *argv, "--corpus", "wiki", "--out", str(out_saved))
    assert code == 0, err
    rows = results(out_saved)
    # the saved index still says 9 hours; the folder the dataset names now says 12
    assert rows["battery"]["correct"] and "9 hours" in str(rows["battery"]["answer"])
    assert rows["pilot"]["correct"]
    assert rows["battery"]["retrieved"] and "robots/atlas.md#2" in rows["battery"]["retrieved"]
    assert "earched over saved index 'wiki' (bm25)" in (out_saved / "report.md").read_text()
    with open_checkpointer() as saver:
        settings = read_settings(saver, str(rows["battery"]["thread_id"]))
    assert settings is not None
    assert [(c.name, c.source) for c in settings.corpora] == [("wiki", "saved:wiki")]
    # control: without --corpus the dataset's own (changed) folder is searched
    code, _, err = run_cli(capsys, *argv, "--out", str(out_own))
    assert code == 0, err
    assert "12 hours" in str(results(out_own)["battery"]["answer"])
    assert not results(out_own)["battery"]["correct"]


def test_an_index_lacking_gold_ids_is_refused_in_one_line(
    indexed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (indexed / "robots/ghost.md").write_text("The Ghost drone hovers silently over fields.")
    ghost = {
        "id": "ghost",
        "question": "What does the Ghost drone do?",
        "answers": ["hovers"],
        "supporting": ["robots/ghost.md", "people/crew.rst"],
    }
    dataset = write_dataset(tmp_path, [QUESTIONS[0], ghost])
    out = tmp_path / "report"
    argv = ("eval", "--dataset", str(dataset), "--corpus", "wiki", "--out", str(out))
    code, stdout, err = run_cli(capsys, *argv)
    assert code == 1 and stdout == ""
    assert err == (
        "error: saved index 'wiki' lacks 1 of the 3 supporting documents of dataset crew_eval: "
        "'robots/ghost.md' (index the files they come from, or run without --corpus)\n"
    )
    assert not out.exists()  # refused before anything ran
    # the questions run are what counts: the first one alone is fully indexed
    code, _, err = run_cli(capsys, *argv, "--limit", "1")
    assert code == 0, err
    assert list(results(out)) == ["battery"]


def test_unknown_index_or_missing_vectors_is_one_line(
    indexed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dataset = str(write_dataset(tmp_path, QUESTIONS))
    code, _, err = run_cli(capsys, "eval", "--dataset", dataset, "--corpus", "nosuch")
    assert code == 1
    assert err == "error: no saved index 'nosuch' (saved: wiki); run `agent index`\n"
    code, _, err = run_cli(
        capsys, "eval", "--dataset", dataset, "--corpus", "wiki", "--retriever", "dense"
    )
    assert code == 1
    assert err == (
        "error: saved index 'wiki' has no vectors for dense: "
        "run `agent index wiki PATH --retriever dense`\n"
    )
