"""A saved index's passages, opened without parsing them: one JSON line read per lookup.

``passages.jsonl`` holds one passage a line (``id``, ``text``, ``title``, ``metadata``,
``file``); ``passage_offsets.npy`` the byte offset of each line (plus the end). Opening costs
two small reads and a memory map, whatever the corpus size; the id -> position map is built
on the first lookup by id.
"""

from __future__ import annotations

import json
import mmap
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, overload

import numpy as np

from corpora import Corpus, Passage


def passage_record(passage: Passage, file: str) -> dict[str, Any]:
    """The JSON object a passage is saved as."""
    return {
        "id": passage.id,
        "text": passage.text,
        "title": passage.title,
        "metadata": dict(passage.metadata),
        "file": file,
    }


def write_passages(folder: Path, records: Sequence[dict[str, Any]]) -> None:
    """Write ``passages.jsonl`` and ``passage_offsets.npy`` into `folder`."""
    offsets = [0]
    with open(folder / "passages.jsonl", "wb") as out:
        for record in records:
            line = json.dumps(record, ensure_ascii=False).encode("utf-8") + b"\n"
            out.write(line)
            offsets.append(offsets[-1] + len(line))
    np.save(folder / "passage_offsets.npy", np.asarray(offsets, dtype=np.int64))


class StoredPassages(Sequence[Passage]):
    """Passages read on demand from a memory-mapped ``passages.jsonl``."""

    def __init__(self, folder: Path) -> None:
        self._offsets = np.load(folder / "passage_offsets.npy", mmap_mode="r")
        with open(folder / "passages.jsonl", "rb") as handle:
            size = handle.seek(0, 2)
            self._data: Any = (
                mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) if size else b""
            )
        if len(self._offsets) < 2 or int(self._offsets[-1]) != size:
            raise ValueError(f"{folder}: passages.jsonl does not match its offsets")

    def __len__(self) -> int:
        """Number of passages."""
        return len(self._offsets) - 1

    def record(self, index: int) -> dict[str, Any]:
        """The saved JSON object of passage `index`."""
        start, end = int(self._offsets[index]), int(self._offsets[index + 1])
        return dict(json.loads(self._data[start:end]))

    @overload
    def __getitem__(self, index: int) -> Passage: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Passage]: ...

    def __getitem__(self, index: int | slice) -> Passage | Sequence[Passage]:
        """Passage `index` (negative indexes count from the end), or a list for a slice."""
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        row = self.record(index)
        title, metadata = row.get("title"), row.get("metadata")
        return Passage(
            id=str(row.get("id", "")),
            text=str(row.get("text", "")),
            title=title if isinstance(title, str) else None,
            metadata=metadata if isinstance(metadata, dict) else {},
        )

    def __iter__(self) -> Iterator[Passage]:
        """Every passage, in saved order."""
        return (self[i] for i in range(len(self)))


class _LazyIds(Mapping[str, int]):
    """id -> position, built from the ids on first use."""

    def __init__(self, ids: Sequence[str]) -> None:
        self._ids = ids
        self._map: dict[str, int] | None = None

    def _built(self) -> dict[str, int]:
        """The map, built once."""
        if self._map is None:
            self._map = {doc_id: i for i, doc_id in enumerate(self._ids)}
        return self._map

    def __getitem__(self, key: str) -> int:
        """Position of an id; KeyError if absent."""
        return self._built()[key]

    def __iter__(self) -> Iterator[str]:
        """Every id."""
        return iter(self._built())

    def __len__(self) -> int:
        """Number of ids."""
        return len(self._ids)


class StoredCorpus(Corpus):
    """A `Corpus` whose passages stay on disk; ids come from the saved index (same order)."""

    def __init__(
        self, name: str, passages: StoredPassages, ids: Sequence[str], description: str = ""
    ) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "passages", passages)
        object.__setattr__(self, "description", description)
        object.__setattr__(self, "skipped", ())
        object.__setattr__(self, "_by_id", _LazyIds(ids))
