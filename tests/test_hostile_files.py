"""Hostile files around folders, datasets, reports and the state directory (issue 20).

Every hostile file is made here: links out of an indexed folder, a dataset header pointing
elsewhere, links and pipes planted in an eval's ``--out``, a state directory that is a file,
thread-lock files that are folders or dangling links. Each case gets the documented policy
(skipped and named, refused in one line, replaced without being opened), never a leak, a
hang or a traceback.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from cli_helpers import run_cli
from wiki_docs import write_wiki

from corpora import load_corpus
from evals.datasets import DatasetError, load_dataset
from tools.index_build import build_index
from tools.index_store import open_index

SECRET = "OPENAI_API_KEY=sk-made-up-hostile-7731"


def one_line_error(code: int, err: str) -> str:
    """The single ``error:`` line of a failed command."""
    lines = err.strip().splitlines()
    assert code != 0 and len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err
    return lines[0]


# --- 1: file links out of the folder --------------------------------------------------------


def folder_with_links(tmp_path: Path) -> Path:
    """Documents with a link to a secret outside, one to /proc/self/environ, one inside."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keys.txt").write_text(SECRET)
    docs = tmp_path / "docs"
    (docs / "sub").mkdir(parents=True)
    (docs / "ok.txt").write_text("The Kestrel valve opens at dawn.")
    (docs / "keys.txt").symlink_to(outside / "keys.txt")
    (docs / "sub" / "env.txt").symlink_to("/proc/self/environ")
    (docs / "sub" / "up.md").symlink_to("../../outside/keys.txt")
    (docs / "alias.txt").symlink_to("ok.txt")  # inside the folder: read
    return docs


def test_links_out_of_an_indexed_folder_are_skipped_and_named(
    agent_home: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("HOSTILE_TEST_SECRET", SECRET)
    docs = folder_with_links(tmp_path)
    code, out, err = run_cli(capsys, "index", "kb", str(docs))
    assert code == 0, err
    assert "3 link out of the folder: 'keys.txt', 'sub/env.txt', 'sub/up.md'" in out, out
    indexed = open_index(agent_home / "indexes", "kb")
    assert sorted(p.id for p in indexed.corpus.passages) == ["alias.txt", "ok.txt"]
    assert not any("sk-made-up" in p.text for p in indexed.corpus.passages)
    code, out, err = run_cli(capsys, "ask", "OPENAI_API_KEY", "--corpus", "kb")
    assert code == 0 and "sk-made-up" not in out + err


def test_links_out_are_skipped_when_a_folder_is_loaded_directly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOSTILE_TEST_SECRET", SECRET)
    corpus = load_corpus(folder_with_links(tmp_path))  # --corpus NAME=DIR, mcp serve --corpus
    assert sorted(p.id for p in corpus.passages) == ["alias.txt", "ok.txt"]
    assert dict(corpus.skipped) == {
        "keys.txt": "link out of the folder",
        "sub/env.txt": "link out of the folder",
        "sub/up.md": "link out of the folder",
    }


# --- 12: awkward file names -----------------------------------------------------------------


def test_awkward_file_names_never_fail_agent_index(
    agent_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "ok.txt").write_text("The Kestrel valve opens at dawn.")
    for name in ("report [final].txt", " lead.txt", "new\nline.txt", "esc\x1b[2J.md"):
        (docs / name).write_text("Kestrel notes.")
    code, out, err = run_cli(capsys, "index", "kb", str(docs))
    assert code == 0, err
    assert "4 bad file name: ' lead.txt', 'esc\\x1b[2J.md', 'new\\nline.txt' and 1 more" in out
    assert "\x1b" not in out and len(out.strip().splitlines()) == 1
    assert [p.id for p in open_index(agent_home / "indexes", "kb").corpus.passages] == ["ok.txt"]


# --- 2: a dataset header's corpus -----------------------------------------------------------

QUESTION = {"id": "q1", "question": "What opens at dawn?", "answers": ["Kestrel valve"]}


def dataset_file(folder: Path, corpus: str) -> Path:
    """A one-question dataset whose header names `corpus`."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "stolen.jsonl"
    lines = [{"dataset": "x", "corpus": corpus}, QUESTION]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    return path


@pytest.mark.parametrize("how", ["absolute", "dotdot", "link"])
def test_a_dataset_corpus_outside_the_dataset_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], how: str
) -> None:
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "keys.txt").write_text(SECRET)
    here = tmp_path / "datasets"
    here.mkdir()
    (here / "inlink").symlink_to(secret)
    spec = {"absolute": f"stolen={secret}", "dotdot": "stolen=../secret", "link": "stolen=inlink"}
    path = dataset_file(here, spec[how])
    with pytest.raises(DatasetError, match="outside the dataset's folder"):
        load_dataset(path)
    out_dir = tmp_path / "out"
    code, out, err = run_cli(capsys, "eval", "--dataset", str(path), "--out", str(out_dir))
    assert "outside the dataset's folder" in one_line_error(code, err)
    assert "sk-made-up" not in out + err and not (out_dir / "results.jsonl").exists()


def test_a_dataset_corpus_inside_its_folder_or_a_saved_index_is_read(
    agent_home: Path, tmp_path: Path
) -> None:
    here = tmp_path / "datasets"
    (here / "docs").mkdir(parents=True)
    (here / "docs" / "valve.txt").write_text("The Kestrel valve opens at dawn.")
    assert load_dataset(dataset_file(here, "own=docs")).corpus.name == "own"
    build_index(agent_home / "indexes", "wiki", write_wiki(tmp_path / "wiki"))
    corpus = load_dataset(dataset_file(tmp_path / "elsewhere", "wiki")).corpus
    assert corpus is not None and "robots/beacon.txt" in corpus.texts()


# --- 7 and 15: links and pipes planted in --out ---------------------------------------------


def test_a_link_planted_in_out_is_replaced_never_written_through(
    agent_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    for name in ("report.md", "report.html", "results.jsonl"):
        (out_dir / name).symlink_to(victim)
    code, _, err = run_cli(
        capsys, "eval", "--dataset", "notes", "--limit", "1", "--out", str(out_dir)
    )
    assert code == 0, err
    assert victim.read_text() == "precious"
    for name in ("report.md", "report.html", "results.jsonl"):
        assert not (out_dir / name).is_symlink() and (out_dir / name).stat().st_size > 0
    assert sorted(p.name for p in out_dir.iterdir()) == [
        "report.html",
        "report.md",
        "results.jsonl",
    ]


@pytest.mark.timeout(60)
def test_a_fifo_planted_as_results_jsonl_is_never_opened(
    agent_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    os.mkfifo(out_dir / "results.jsonl")
    code, _, err = run_cli(
        capsys, "eval", "--dataset", "notes", "--limit", "1", "--out", str(out_dir)
    )
    assert code == 0, err
    rows = (out_dir / "results.jsonl").read_text().splitlines()
    assert len(rows) == 1 and json.loads(rows[0])["question_id"]


def test_a_folder_where_a_report_goes_is_one_line(
    agent_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_dir = tmp_path / "out"
    (out_dir / "report.md").mkdir(parents=True)
    code, _, err = run_cli(
        capsys, "eval", "--dataset", "notes", "--limit", "1", "--out", str(out_dir)
    )
    assert "report.md: cannot write the report there: it is a folder" in one_line_error(code, err)


# --- 20: the state directory and the thread-lock file ---------------------------------------


@pytest.mark.parametrize("argv", [("index", "kb", "DOCS"), ("corpora",)])
def test_a_state_directory_that_is_a_file_is_one_line_for_indexes(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: tuple[str, ...],
) -> None:
    home = tmp_path / "home-file"
    home.write_text("x")
    monkeypatch.setenv("AGENT_HOME", str(home))
    docs = write_wiki(tmp_path / "wiki")
    code, _, err = run_cli(capsys, *(str(docs) if a == "DOCS" else a for a in argv))
    assert "AGENT_HOME=" in one_line_error(code, err) and "is not a folder" in err


@pytest.mark.parametrize("kind", ["folder", "dangling link"])
def test_a_thread_lock_file_that_is_not_a_file_is_one_line(
    agent_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    agent_home.mkdir(parents=True, exist_ok=True)
    lock = agent_home / "checkpoints.sqlite.locks"
    target = tmp_path / "created-through-the-link"
    if kind == "folder":
        lock.mkdir()
    else:
        lock.symlink_to(target)
    code, _, err = run_cli(capsys, "ask", "What is 2 + 2?")
    assert "thread lock file" in one_line_error(code, err)
    assert not target.exists()


# --- 31 and 32: long values, odd --out, built-in names -------------------------------------


def test_a_huge_retriever_setting_is_cut_in_its_error(
    agent_home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGENT_RETRIEVER", "x" * 100_000)
    code, _, err = run_cli(capsys, "ask", "What is 2 + 2?")
    line = one_line_error(code, err)
    assert "AGENT_RETRIEVER" in line and "(100000 characters)" in line and len(line) < 300


def test_a_huge_dataset_name_is_cut_in_its_error(
    agent_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for length in (200, 5000):  # 5000 is also past the file-name limit of the system
        code, _, err = run_cli(capsys, "eval", "--dataset", "y" * length)
        line = one_line_error(code, err)
        assert f"({length} characters)" in line and len(line) < 300


def test_out_empty_is_refused_and_a_newline_in_out_is_printed_escaped(
    agent_home: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(capsys, "eval", "--dataset", "notes", "--limit", "1", "--out", "")
    assert "empty" in one_line_error(code, err)
    assert list(tmp_path.iterdir()) == []
    code, out, err = run_cli(
        capsys, "eval", "--dataset", "notes", "--limit", "1", "--out", "a\nb\x1b"
    )
    assert code == 0, err
    report = [line for line in out.splitlines() if line.startswith("report: ")]
    assert report == ["report: 'a\\nb\\x1b/report.html'"], out
    assert "\x1b" not in out


def test_indexing_under_a_built_in_name_is_refused(
    agent_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = write_wiki(tmp_path / "wiki")
    for name in ("policy", "products", "notes"):
        code, _, err = run_cli(capsys, "index", name, str(docs))
        assert "built-in corpus" in one_line_error(code, err)
    assert not (agent_home / "indexes" / "policy").exists()
