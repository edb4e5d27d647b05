"""A saved index opened by name for a run or an eval (`--corpus NAME` on `ask` and `eval`).

`open_saved` opens index NAME (`tools.index_store.open_index`) for a retriever: the one it was
built for, unless another is asked (dense and hybrid need an index built with vectors).
`require_ids` refuses, in one line, an index that lacks documents a dataset's questions give
as supporting: recall against ids the index cannot return would measure nothing.
A thread that searched a saved index records its source as ``saved:NAME`` (`SAVED_PREFIX`),
so a resumed thread opens the same index again. The index store (and with it numpy) is
imported only when an index is opened or refused, so a run that names none loads neither.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from pathlib import Path

from tools.retrievers import IndexedCorpus, check_retriever

SAVED_PREFIX = "saved:"
"""How a thread records a corpus it searched through a saved index (`agent index NAME`)."""


def open_saved(root: Path, name: str, retriever: str | None = None) -> IndexedCorpus:
    """Saved index `name` under `root`, searched by `retriever` (default: as it was built).

    IndexStoreError (one line) for an unknown or damaged index, or for dense or hybrid
    search of an index built without vectors.
    """
    from tools.index_store import open_index
    from tools.index_versions import IndexStoreError

    indexed = open_index(root, name)
    if retriever is None or retriever == indexed.retriever:
        return indexed
    check_retriever(retriever)
    if indexed.dense is None:
        raise IndexStoreError(
            f"saved index {name!r} has no vectors for {retriever}: "
            f"run `agent index {name} PATH --retriever {retriever}`"
        )
    return dataclasses.replace(indexed, retriever=retriever)


def missing_ids(indexed: IndexedCorpus, ids: Iterable[str]) -> list[str]:
    """The ids (deduplicated, in first-seen order) that the saved index does not hold."""
    held = set(indexed.bm25.doc_ids)
    return list(dict.fromkeys(doc_id for doc_id in ids if doc_id not in held))


def require_ids(indexed: IndexedCorpus, ids: Iterable[str], what: str) -> None:
    """Refuse (IndexStoreError, one line) an index lacking any of `ids`, which `what` needs."""
    from tools.index_versions import IndexStoreError

    wanted = list(dict.fromkeys(ids))
    missing = missing_ids(indexed, wanted)
    if missing:
        shown = ", ".join(repr(doc_id) for doc_id in missing[:3])
        more = f" and {len(missing) - 3} more" if len(missing) > 3 else ""
        raise IndexStoreError(
            f"saved index {indexed.name!r} lacks {len(missing)} of the {len(wanted)} supporting "
            f"documents of {what}: {shown}{more} (index the files they come from, or run "
            "without --corpus)"
        )
