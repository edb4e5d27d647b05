"""The `--db` store as a file: URL-like typos, read-only stores, damaged files left untouched."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path

import pytest
from cli_helpers import run_cli

from graph.app.persistence import open_checkpointer
from graph.app.session import Session
from graph.app.store_error import CheckpointerError

QUESTION = "what's our refund window?"


@pytest.mark.parametrize(
    "db",
    [
        "postgresq://agent:s3cret@127.0.0.1:5432/agent",
        "file:data/x.sqlite?mode=ro",
        "sqlite:///data/x.sqlite",
        "mysql://127.0.0.1/agent",
    ],
)
def test_a_url_that_is_not_postgresql_is_refused_and_nothing_is_created(
    db: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    for argv in (["ask", QUESTION, "--db", db], ["threads", "--db", db]):
        code, out, err = run_cli(capsys, *argv)
        assert code == 1 and out == ""
        assert err.startswith("error: --db ") and err.count("\n") == 1
        assert "looks like a URL" in err and "s3cret" not in err
    assert os.listdir(tmp_path) == []


def test_plain_paths_and_postgresql_urls_pass_the_check() -> None:
    from graph.app.persistence import check_db

    for db in (None, "data/x.sqlite", "/tmp/a:b.sqlite", "./c:d", "postgresql://h/db"):
        check_db(db)
    with pytest.raises(CheckpointerError):
        check_db("postgress://h/db")


@pytest.fixture
def frozen(tmp_path: Path) -> Iterator[Path]:
    """A folder holding a checkpoint store with one thread, then made read-only for everyone.

    Root ignores permission bits, so as root the folder and files are made immutable.
    """
    folder = tmp_path / "store"
    folder.mkdir()
    with open_checkpointer(str(folder / "c.sqlite")) as saver:
        Session(saver).ask(QUESTION, thread_id="kept")
    paths = [*folder.iterdir(), folder]
    as_root = os.geteuid() == 0
    if as_root and shutil.which("chattr") is None:
        pytest.skip("running as root without chattr: cannot make a read-only store")
    for path in paths:
        if as_root:
            subprocess.run(["chattr", "+i", str(path)], check=True)
        else:
            path.chmod(0o555 if path.is_dir() else 0o444)
    try:
        yield folder / "c.sqlite"
    finally:
        for path in paths:
            if as_root:
                subprocess.run(["chattr", "-i", str(path)], check=True)
            else:
                path.chmod(0o755 if path.is_dir() else 0o644)


def test_threads_and_replay_read_a_read_only_store(
    frozen: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = frozen.read_bytes()
    code, out, err = run_cli(capsys, "threads", "--db", str(frozen))
    assert code == 0, err
    assert "kept" in out and "refund" in out
    code, out, err = run_cli(capsys, "replay", "kept", "--db", str(frozen))
    assert code == 0, err
    assert f"GOAL: {QUESTION}" in out and "pol-1" in out
    assert frozen.read_bytes() == before


def test_reading_a_missing_store_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(capsys, "threads", "--db", str(tmp_path / "none" / "c.sqlite"))
    assert code == 0 and "no threads yet" in out
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("journal", ["delete", "wal"])
def test_a_damaged_store_is_reported_and_left_byte_for_byte(
    journal: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "c.sqlite"
    with open_checkpointer(str(db)) as saver:
        Session(saver).ask(QUESTION, thread_id="kept")
    with closing(sqlite3.connect(db)) as conn:
        conn.execute(f"PRAGMA journal_mode={journal}")
    data = bytearray(db.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    assert len(data) >= 4 * page
    data[page + 8 : 3 * page] = bytes(range(256)) * ((2 * page - 8) // 256) + b"\x07" * (
        (2 * page - 8) % 256
    )  # pages 2 and 3 scrambled, the header kept
    db.write_bytes(bytes(data))
    damaged = db.read_bytes()
    assert damaged[:16] == b"SQLite format 3\x00"

    code, out, err = run_cli(capsys, "ask", QUESTION, "--db", str(db))
    assert code == 1, out
    assert err.startswith("error: ") and err.count("\n") == 1 and "left as is" in err
    assert db.read_bytes() == damaged
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(("-wal", "-shm", "-journal"))]
    code, out, err = run_cli(capsys, "threads", "--db", str(db))
    assert code == 1 and err.startswith("error: ") and err.count("\n") == 1
    assert db.read_bytes() == damaged


# --- the integrity check runs when the file changed since its last good check ---------------


def count_checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Count the `PRAGMA quick_check` runs (each returns the real verdict)."""
    from graph.app import sqlite_store

    verdicts: list[str] = []
    original = sqlite_store._quick_check

    def counted(conn: sqlite3.Connection) -> str:
        verdicts.append(original(conn))
        return verdicts[-1]

    monkeypatch.setattr(sqlite_store, "_quick_check", counted)
    return verdicts


def test_an_unchanged_store_is_not_checked_again_and_a_changed_one_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script_file: Callable[..., str]
) -> None:
    db = tmp_path / "c.sqlite"
    checks = count_checks(monkeypatch)
    for thread in ("one", "two"):
        with open_checkpointer(str(db)) as saver:
            Session(saver, model=script_file("Done."), builtins=False).ask(
                "made-up question?", thread_id=thread
            )
    assert checks == []  # new, then unchanged since the first command closed it
    with closing(sqlite3.connect(db)) as conn, conn:  # another program writes to it
        conn.execute("CREATE TABLE notes (line TEXT)")
    with open_checkpointer(str(db)):
        pass
    assert checks == ["ok"]
    with open_checkpointer(str(db)):
        pass
    assert checks == ["ok"]


def test_a_store_damaged_after_its_last_good_check_is_refused_and_left_byte_for_byte(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], script_file: Callable[..., str]
) -> None:
    db = tmp_path / "c.sqlite"
    with open_checkpointer(str(db)) as saver:
        Session(saver, model=script_file("Done."), builtins=False).ask(
            "made-up question?", thread_id="kept"
        )
    assert (tmp_path / "c.sqlite.checked").exists()
    before = db.stat()
    data = bytearray(db.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    data[page + 8 : 2 * page] = b"\x07" * (page - 8)  # page 2 scrambled, size and header kept
    db.write_bytes(bytes(data))
    os.utime(db, ns=(before.st_atime_ns, before.st_mtime_ns))  # even the time put back
    damaged = db.read_bytes()

    code, out, err = run_cli(capsys, "ask", "made-up question?", "--db", str(db))
    assert code == 1, out
    assert err.startswith("error: ") and err.count("\n") == 1 and "left as is" in err
    assert db.read_bytes() == damaged
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(("-wal", "-shm", "-journal"))]


def test_a_planted_check_record_is_never_followed_or_waited_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script_file: Callable[..., str]
) -> None:
    db = tmp_path / "c.sqlite"
    victim = tmp_path / "victim.txt"
    victim.write_text("made-up secret\n")
    with open_checkpointer(str(db)) as saver:
        Session(saver, model=script_file("Done."), builtins=False).ask("made-up?", thread_id="a")
    record = tmp_path / "c.sqlite.checked"
    record.unlink()
    record.symlink_to(victim)  # a link where the record goes
    checks = count_checks(monkeypatch)
    with open_checkpointer(str(db)):
        pass
    assert checks == ["ok"]  # the link is not read as a record
    assert victim.read_text() == "made-up secret\n" and not record.is_symlink()
    record.unlink()
    os.mkfifo(record)  # a pipe where the record goes: reading it would block
    with open_checkpointer(str(db)):
        pass
    assert checks == ["ok", "ok"] and record.is_file()
