"""Which retriever a search tool uses (bm25, dense, hybrid) and the ranking each gives.

`AGENT_RETRIEVER` sets the default for corpora that do not say (``bm25`` when unset). A
corpus indexed for dense or hybrid search is an `IndexedCorpus`: the corpus, its BM25 index
(always there: the policy routes by BM25 evidence) and its dense vectors. numpy (the BM25 and
dense index modules) is imported only when a corpus is indexed or searched densely here.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from corpora import Corpus
from corpora.model import quoted
from tools.expand import expand_query
from tools.keyword_index import KeywordIndex
from tools.search_settings import DEFAULT_RETRIEVER, RETRIEVERS

if TYPE_CHECKING:
    from tools.dense import DenseIndex, Encoder

RETRIEVER_ENV = "AGENT_RETRIEVER"


class Ranked(NamedTuple):
    """One ranked document: its id, the score shown, and the component scores (hybrid)."""

    id: str
    score: float
    components: dict[str, float]


def check_retriever(name: str) -> str:
    """`name` if it is one of `RETRIEVERS`, else a one-line ValueError."""
    if name not in RETRIEVERS:
        raise ValueError(f"unknown retriever {quoted(name)} (choose from {', '.join(RETRIEVERS)})")
    return name


def default_retriever() -> str:
    """`$AGENT_RETRIEVER`, or bm25 when unset; a one-line ValueError when it is not valid."""
    raw = os.environ.get(RETRIEVER_ENV, "").strip()
    if not raw:
        return DEFAULT_RETRIEVER
    try:
        return check_retriever(raw)
    except ValueError as e:
        raise ValueError(f"{RETRIEVER_ENV}: {e}") from None


@dataclass(frozen=True, eq=False)
class IndexedCorpus:
    """A corpus with the indexes its retriever needs."""

    corpus: Corpus
    bm25: KeywordIndex
    dense: DenseIndex | None = None
    retriever: str = DEFAULT_RETRIEVER

    @property
    def name(self) -> str:
        """The corpus's name (its tool is `search_<name>`)."""
        return self.corpus.name

    def __post_init__(self) -> None:
        """Refuse a dense or hybrid retriever without vectors."""
        check_retriever(self.retriever)
        if self.retriever != "bm25" and self.dense is None:
            raise ValueError(f"corpus {self.corpus.name!r}: {self.retriever} needs dense vectors")
        if self.dense is not None and list(self.dense.doc_ids) != list(self.bm25.doc_ids):
            raise ValueError(f"corpus {self.corpus.name!r}: BM25 and dense documents differ")


def index_corpus(
    corpus: Corpus,
    retriever: str | None = None,
    encoder: Any = None,
    bm25: KeywordIndex | None = None,
) -> IndexedCorpus:
    """Index a corpus for a retriever (default: `default_retriever()`), embedding if needed."""
    from tools.bm25 import BM25

    retriever = check_retriever(retriever or default_retriever())
    texts = corpus.texts()
    bm25 = bm25 if bm25 is not None else BM25(texts)
    dense = None
    if retriever != "bm25":
        from tools.dense import DenseIndex

        encoder = encoder if encoder is not None else default_encoder()
        dense = DenseIndex.build(texts, encoder, model=getattr(encoder, "name", ""))
    return IndexedCorpus(corpus, bm25, dense, retriever)


def default_encoder() -> Encoder:
    """The checked all-MiniLM-L6-v2 model on ONNX Runtime (EmbeddingError: what to install)."""
    from tools.onnx_embed import default_embeddings

    return default_embeddings()


def rank(
    query: str,
    k: int,
    bm25: KeywordIndex,
    dense: DenseIndex | None = None,
    retriever: str = DEFAULT_RETRIEVER,
    encoder: Encoder | None = None,
) -> list[Ranked]:
    """The top k documents for `query` by the chosen retriever, best first."""
    if retriever == "bm25" or dense is None:
        hits = bm25.search(expand_query(bm25, query) or query, k=k)
        return [Ranked(doc_id, score, {}) for doc_id, score in hits]
    encoder = encoder if encoder is not None else default_encoder()
    if retriever == "dense":
        return [Ranked(i, s, {}) for i, s in dense.search(query, encoder, k=k)]
    from tools.hybrid import HybridSearch

    fused = HybridSearch(bm25, dense, encoder).search(query, k)
    return [Ranked(h.id, h.score, {"bm25": h.bm25, "dense": h.dense}) for h in fused]
