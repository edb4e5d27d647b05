"""Saved index versions: the atomic swap, readers opening one version, damage and repair.

Issue 20 items 8 (a SIGKILL in any window of a re-index keeps an index), 9 (a reader never
gets half of two versions), 13 (tampered parts refused), 19 (every damage is one line, listed,
repaired by re-indexing) and 29 (leftovers of killed builds removed). Every damage is made
here, on an index built by the test.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cli_helpers import run_cli
from wiki_docs import write_wiki

import tools.index_store as index_store
from tools.index_build import build_index
from tools.index_store import list_indexes, open_index
from tools.index_versions import DamagedIndex, current_version

ROOT = Path(__file__).resolve().parent.parent
WORKER = Path(__file__).resolve().parent / "index_crash_worker.py"


def second_version(docs: Path) -> None:
    """Change the folder so the next build differs: a file gone, one new, one edited."""
    (docs / "garden" / "ferns.md").unlink()
    (docs / "robots" / "kestrel.txt").write_text("Kestrel is a glider that counts gulls.")
    (docs / "robots" / "beacon.txt").write_text("Beacon now maps rivers in the daytime.")


def ids_of(root: Path, name: str) -> list[str]:
    """The ids of a saved index, checked to agree between its BM25 arrays and its passages."""
    indexed = open_index(root, name)
    passages = [p.id for p in indexed.corpus.passages]
    assert passages == list(indexed.bm25.doc_ids)
    return sorted(passages)


def leftovers(root: Path, name: str) -> list[str]:
    """Everything under `root` but the index's lock, pointer and one current version."""
    found = [p.name for p in root.iterdir() if p.name not in (name, f".{name}.lock")]
    folder = root / name
    keep = {"CURRENT", current_version(root, name).name}
    return sorted(found + [f"{name}/{p.name}" for p in folder.iterdir() if p.name not in keep])


# --- 8: SIGKILL in every window of a re-index ------------------------------------------------


def test_a_sigkill_anywhere_in_a_reindex_keeps_the_old_or_the_new_index(tmp_path: Path) -> None:
    docs = write_wiki(tmp_path / "wiki")
    first = ids_of_build(tmp_path / "first", docs)
    changed = write_wiki(tmp_path / "wiki2")
    second_version(changed)
    second = ids_of_build(tmp_path / "second", changed)
    outcomes: list[int] = []
    for kill_at in range(1, 13):  # until a build makes fewer calls than `kill_at`
        if outcomes[-1:] == [0]:
            break
        root = tmp_path / f"root{kill_at}"
        build_index(root, "wiki", docs)
        shutil.rmtree(docs)
        shutil.copytree(changed, docs)
        done = subprocess.run(
            [sys.executable, str(WORKER), str(root), "wiki", str(docs), str(kill_at)],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            timeout=120,
        )
        assert done.returncode in (0, -9), done.stderr.decode()
        outcomes.append(done.returncode)
        now = ids_of(root, "wiki")  # never "no saved index", never damaged
        assert now in (first, second), (kill_at, now)
        assert [i.name for i in list_indexes(root) if not i.damaged] == ["wiki"]
        again = build_index(root, "wiki", docs)  # re-indexing after the kill: clean and current
        assert ids_of(root, "wiki") == second and again.passages == len(second)
        assert leftovers(root, "wiki") == []
        shutil.rmtree(docs)
        write_wiki(docs)  # the first version again, for the next window
    assert outcomes[-1] == 0 and outcomes.count(-9) >= 4, outcomes  # every window was hit


def ids_of_build(root: Path, docs: Path) -> list[str]:
    """The ids a fresh build of `docs` gives."""
    build_index(root, "wiki", docs)
    return ids_of(root, "wiki")


# --- 9: a reader opens one version as a unit -------------------------------------------------


def test_a_flip_while_a_reader_opens_gives_it_one_whole_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, docs = tmp_path / "indexes", write_wiki(tmp_path / "wiki")
    build_index(root, "wiki", docs)
    changed = write_wiki(tmp_path / "wiki2")
    second_version(changed)
    real = index_store.StoredPassages
    flipped = []

    def rebuild_then_open(folder: Path) -> Any:
        if not flipped:  # the BM25 arrays of the old version are open; now a writer flips
            flipped.append(build_index(root, "wiki", changed))
        return real(folder)

    monkeypatch.setattr(index_store, "StoredPassages", rebuild_then_open)
    indexed = open_index(root, "wiki")
    assert flipped
    ids = [p.id for p in indexed.corpus.passages]
    assert ids == list(indexed.bm25.doc_ids)
    assert "robots/kestrel.txt" in ids and "garden/ferns.md" not in ids
    beacon = indexed.corpus.get("robots/beacon.txt")
    assert beacon.text == "Beacon now maps rivers in the daytime."


def test_readers_during_rebuilds_see_whole_versions_only(tmp_path: Path) -> None:
    root, docs = tmp_path / "indexes", write_wiki(tmp_path / "wiki")
    changed = write_wiki(tmp_path / "wiki2")
    second_version(changed)
    build_index(root, "wiki", docs)
    stop, problems = threading.Event(), []

    def writer() -> None:
        for n in range(12):
            build_index(root, "wiki", changed if n % 2 == 0 else docs)
        stop.set()

    thread = threading.Thread(target=writer)
    thread.start()
    opened = 0
    while not stop.is_set() or opened < 5:
        try:
            indexed = open_index(root, "wiki")
            for passage, doc_id in zip(indexed.corpus.passages, indexed.bm25.doc_ids, strict=True):
                if passage.id != doc_id:
                    problems.append(f"{passage.id} != {doc_id}")
            opened += 1
        except Exception as e:  # any error while a writer flips is a failure
            problems.append(f"{type(e).__name__}: {e}")
    thread.join()
    assert problems == [] and opened >= 5


# --- 13 and 19: damage, one line, listed, repaired -------------------------------------------


def edit_json(path: Path, change: Callable[[Any], Any]) -> None:
    """Rewrite a JSON file through `change`."""
    path.write_text(json.dumps(change(json.loads(path.read_text()))))


def redigest(version: Path, part: str) -> None:
    """Record a part's new digest in the manifest, as a careful tamperer would."""
    digest = hashlib.sha256((version / part).read_bytes()).hexdigest()
    edit_json(version / "manifest.json", lambda m: {**m, "parts": {**m["parts"], part: digest}})


def shift_ids(version: Path, _tmp: Path) -> None:
    """Shift the BM25 id offsets by one byte (still monotonic) and re-record the digest."""
    offsets = np.load(version / "bm25" / "doc_id_offsets.npy")
    offsets[1:-1] += 1
    offsets[-1] += 1
    np.save(version / "bm25" / "doc_id_offsets.npy", offsets)
    redigest(version, "bm25/doc_id_offsets.npy")


def other_passages(version: Path, tmp_path: Path) -> None:
    """Put another index's passages (same count) in place."""
    docs = write_wiki(tmp_path / "other")
    for path in docs.rglob("*.*"):
        path.write_text(path.read_text().replace("e", "o"))
    build_index(tmp_path / "other_root", "wiki", docs)
    other = current_version(tmp_path / "other_root", "wiki")
    for part in ("passages.jsonl", "passage_offsets.npy"):
        shutil.copy(other / part, version / part)


def no_avgdl(version: Path, _tmp: Path) -> None:
    """Drop a BM25 parameter and re-record the digest (the reader must not KeyError)."""
    edit_json(
        version / "bm25" / "params.json", lambda p: {k: v for k, v in p.items() if k != "avgdl"}
    )
    redigest(version, "bm25/params.json")


def no_title(version: Path, _tmp: Path) -> None:
    """Drop a passage's title (offsets and digest re-recorded)."""
    lines = (version / "passages.jsonl").read_bytes().splitlines(keepends=True)
    record = json.loads(lines[0])
    del record["title"]
    lines[0] = json.dumps(record).encode() + b"\n"
    (version / "passages.jsonl").write_bytes(b"".join(lines))
    offsets = np.cumsum([0, *map(len, lines)]).astype(np.int64)
    np.save(version / "passage_offsets.npy", offsets)
    redigest(version, "passages.jsonl")
    redigest(version, "passage_offsets.npy")


DAMAGES: dict[str, tuple[Callable[[Path, Path], None], str]] = {
    "manifest without retriever": (
        lambda v, _: edit_json(
            v / "manifest.json", lambda m: {k: m[k] for k in m if k != "retriever"}
        ),
        "field 'retriever' is missing",
    ),
    "manifest is a list": (
        lambda v, _: (v / "manifest.json").write_text("[1, 2]"),
        "not an object",
    ),
    "manifest count not a number": (
        lambda v, _: edit_json(v / "manifest.json", lambda m: {**m, "passages": "6x"}),
        "field 'passages'",
    ),
    "manifest not json": (lambda v, _: (v / "manifest.json").write_text("{oops"), "not valid JSON"),
    "part edited": (
        lambda v, _: (v / "bm25" / "idf.npy").write_bytes(b"garbage"),
        "bm25/idf.npy does not match its digest",
    ),
    "part missing": (
        lambda v, _: (v / "passage_offsets.npy").unlink(),
        "passage_offsets.npy is missing",
    ),
    "part is a link": (
        lambda v, t: ((v / "passages.jsonl").unlink(), (v / "passages.jsonl").symlink_to(t / "x")),
        "passages.jsonl cannot be opened",
    ),
    "another index's passages": (other_passages, "passages.jsonl does not match its digest"),
    "ids shifted, digest re-recorded": (shift_ids, "doc_id offsets are not monotonic and in range"),
    "params without avgdl, digest re-recorded": (no_avgdl, "avgdl"),
}


@pytest.mark.parametrize("case", DAMAGES, ids=list(DAMAGES))
def test_every_damage_is_one_line_listed_and_repaired_by_reindexing(
    agent_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    root, docs = agent_home / "indexes", write_wiki(tmp_path / "wiki")
    build_index(root, "wiki", docs)
    damage, what = DAMAGES[case]
    damage(current_version(root, "wiki"), tmp_path)
    code, out, err = run_cli(capsys, "ask", "Who pilots the Beacon drone?", "--corpus", "wiki")
    lines = err.strip().splitlines()
    assert code == 1 and len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith("error: saved index 'wiki' is damaged: "), lines[0]
    assert what in lines[0], lines[0]
    assert lines[0].endswith(f"; re-index with `agent index wiki {docs}`") or lines[0].endswith(
        "; re-index with `agent index wiki PATH`"
    ), lines[0]
    code, out, _ = run_cli(capsys, "corpora")
    row = next(line for line in out.splitlines() if "wiki" in line)
    assert code == 0 and "damaged" in row, out
    code, out, err = run_cli(capsys, "index", "wiki", str(docs))
    assert code == 0, err
    assert ids_of(root, "wiki") == ids_of_build(tmp_path / "fresh", docs)
    assert [i.damaged for i in list_indexes(root)] == [""]


def test_a_passage_record_without_its_fields_reads_without_a_traceback(tmp_path: Path) -> None:
    root, docs = tmp_path / "indexes", write_wiki(tmp_path / "wiki")
    build_index(root, "wiki", docs)
    no_title(current_version(root, "wiki"), tmp_path)
    indexed = open_index(root, "wiki")
    first = indexed.corpus.passages[0]
    assert first.title is None and first.id == indexed.bm25.doc_ids[0]


@pytest.mark.parametrize(
    ("pointer", "what"),
    [
        ("garbage\n", "CURRENT names no version"),
        ("v-0123456789abcdef\n", "v-0123456789abcdef is missing"),
    ],
)
def test_a_bad_pointer_is_damage_too(tmp_path: Path, pointer: str, what: str) -> None:
    root, docs = tmp_path / "indexes", write_wiki(tmp_path / "wiki")
    build_index(root, "wiki", docs)
    (root / "wiki" / "CURRENT").write_text(pointer)
    with pytest.raises(DamagedIndex, match=what):
        open_index(root, "wiki")
    build_index(root, "wiki", docs)
    assert len(ids_of(root, "wiki")) == 6 and leftovers(root, "wiki") == []


def test_an_index_in_the_older_layout_is_damage_repaired_by_reindexing(tmp_path: Path) -> None:
    root, docs = tmp_path / "indexes", write_wiki(tmp_path / "wiki")
    legacy = root / "wiki"
    (legacy / "bm25").mkdir(parents=True)
    (legacy / "manifest.json").write_text(json.dumps({"format": "agentic-rag-index", "version": 1}))
    with pytest.raises(DamagedIndex, match="older format"):
        open_index(root, "wiki")
    build_index(root, "wiki", docs)
    assert len(ids_of(root, "wiki")) == 6 and leftovers(root, "wiki") == []


# --- 29: leftovers of killed builds ----------------------------------------------------------


def plant_leftovers(root: Path) -> None:
    """What killed builds of this and earlier releases leave behind."""
    for stale in (root / ".wiki.tmp-4242", root / ".wiki.old-4242", root / "wiki" / ".build-4242"):
        stale.mkdir(parents=True)
        (stale / "passages.jsonl").write_bytes(b"x" * 4096)
    shutil.copytree(current_version(root, "wiki"), root / "wiki" / "v-0000000000000000")


@pytest.mark.parametrize("by", ["reindex", "open"])
def test_leftovers_of_killed_builds_are_removed(tmp_path: Path, by: str) -> None:
    root, docs = tmp_path / "indexes", write_wiki(tmp_path / "wiki")
    build_index(root, "wiki", docs)
    plant_leftovers(root)
    assert leftovers(root, "wiki") != []
    if by == "reindex":
        build_index(root, "wiki", docs)
    else:
        open_index(root, "wiki")
    assert leftovers(root, "wiki") == []
