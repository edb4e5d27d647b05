"""`agent index NAME PATH` and `agent corpora`: saved indexes of a user's own documents."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import click

from graph.app.corpus_specs import indexes_dir
from graph.app.terminal import safe_text
from graph.cli.support import RETRIEVER, user_errors


@click.command("index")
@click.argument("name")
@click.argument("path", type=click.Path(path_type=Path))
@click.option(
    "--retriever",
    type=RETRIEVER,
    default=None,
    help="How the index is searched (default: $AGENT_RETRIEVER, else bm25).",
)
def index_command(name: str, path: Path, retriever: str | None) -> None:
    """Index a .jsonl file, a document or a folder as NAME (re-run: only changed files)."""
    started = time.perf_counter() - _process_age()
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from tools.index_build import build_index
    from tools.retrievers import default_retriever

    with user_errors():
        chosen = retriever or default_retriever()
        if chosen != "bm25":
            from tools.embeddings import model_dir

            model_dir()  # one line saying what to install, before any work (loads nothing)
        console = Console(stderr=True)
        with Progress(
            TextColumn("indexing"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.description}", markup=False),
            console=console,
            transient=True,
            disable=not console.is_terminal,
        ) as bar:
            task = bar.add_task("", total=None)

            def advance(done: int, total: int, current: str) -> None:
                """Move the bar to file `done` of `total`."""
                bar.update(task, completed=done, total=total, description=_short(current))

            summary = build_index(indexes_dir(), name, path, chosen, progress=advance)
    summary.seconds = time.perf_counter() - started  # the whole process's, model included
    click.echo(safe_text(summary.line()))


def _process_age() -> float:
    """Seconds since this process started, from Linux's /proc (0 where there is none).

    So the time `agent index` prints is the whole command's, interpreter start included.
    """
    try:
        after_name = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
        started_ticks = int(after_name[19])  # field 22, starttime, in clock ticks since boot
        uptime = float(Path("/proc/uptime").read_text().split()[0])
        return max(0.0, uptime - started_ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return 0.0


@click.command("corpora")
@click.option("--drop", "drop", metavar="NAME", default=None, help="Remove the saved index NAME.")
def corpora_command(drop: str | None) -> None:
    """List saved indexes (name, retriever, files, passages, size, built), or --drop one.

    A damaged index is listed as ``damaged`` with what is wrong; `agent index` repairs it.
    """
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from tools.index_store import drop_index, list_indexes

    with user_errors():
        root = indexes_dir()
        if drop is not None:
            drop_index(root, drop)
            click.echo(f"dropped saved index {drop!r}")
            return
        rows = list_indexes(root)
    if not rows:
        click.echo("no saved indexes: run `agent index NAME PATH`")
        return
    table = Table("name", "retriever", "files", "passages", "size", "built", "source")
    for row in rows:
        cells = [row.name, "damaged", "-", "-", "-", "-", f"{row.damaged}; re-index it"]
        if not row.damaged:  # a damaged one says what is wrong in the source column
            cells = [row.name, row.retriever, str(row.files), str(row.passages), _size(row.size)]
            cells += [row.built, row.source]
        table.add_row(*(Text(_printable(c)) for c in cells))
    Console(width=max(120, Console().width), file=sys.stdout).print(table)


def _size(n: int) -> str:
    """Bytes as a short human figure."""
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024  # type: ignore[assignment]
    return f"{n} B"


def _printable(text: str) -> str:
    """Control characters shown as escapes, so a file name cannot drive the terminal."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _short(text: str, width: int = 40) -> str:
    """A file path cut to fit the progress line."""
    text = _printable(text)
    return text if len(text) <= width else "..." + text[-(width - 3) :]
