"""Reading one made-up file as a folder corpus, for the reader tests."""

from __future__ import annotations

from pathlib import Path

from corpora import load_corpus


def read(tmp_path: Path, name: str, text: str) -> dict[str, str]:
    """Title -> text of the passages of one made-up file."""
    (tmp_path / name).write_text(text)
    return {p.title or "": p.text for p in load_corpus(tmp_path, name="kb").passages}
