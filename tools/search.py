"""BM25 search over a corpus, as a LangChain retriever and as the agent's ``search_<name>`` tool.

Neither imports numpy: a small corpus is searched by `tools.bm25_small.SmallBM25`, and the
dense index module is imported only to check a tool given one (`DenseField`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from langchain_core.callbacks import CallbackManagerForRetrieverRun, CallbackManagerForToolRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.tools import ArgsSchema, BaseTool, InjectedToolArg
from pydantic import AfterValidator, Field, InstanceOf, model_validator

from corpora import Corpus, indexed_text
from tools.expand import expand_query
from tools.keyword_build import build_keyword_index
from tools.keyword_index import KeywordIndex
from tools.retriever_tool import retriever_tool
from tools.retrievers import IndexedCorpus, check_retriever, rank
from tools.search_protocol import (
    Evidence,
    SearchHit,
    SearchInput,
    check_query,
    search_tool_name,
)
from tools.search_settings import DEFAULT_K, DEFAULT_RETRIEVER, MIN_K

NO_MATCH_TEMPLATE = "no passages in {name} matched {query!r}; try other words or another tool"
"""Content when no passage shares a word with the query (not an error: a valid answer)."""

DESCRIPTION_TEMPLATE = (
    "Keyword (BM25) search of the {name} corpus. {description} "
    "Returns the best-matching passages, one per line as '[id] text' (e.g. '[{example_id}] ...'); "
    "cite a passage by the id in the brackets. Query with the distinctive words you expect "
    "in the passage (names, terms, numbers), not a whole sentence."
)
"""Tool description shown to the model; filled from the corpus."""

RETRIEVER_DESCRIPTIONS = {
    "dense": "Semantic (embedding) search",
    "hybrid": "Hybrid keyword (BM25) and semantic (embedding) search",
}
"""Replace the description's first words for the other retrievers."""


def _dense_or_none(value: Any) -> Any:
    """`value` if it is None or a `tools.dense.DenseIndex` (imported only to check one)."""
    if value is None:
        return None
    from tools.dense import DenseIndex

    if not isinstance(value, DenseIndex):
        raise ValueError(f"dense must be a DenseIndex, got {type(value).__name__}")
    return value


if TYPE_CHECKING:
    from tools.dense import DenseIndex

    DenseField = DenseIndex | None
else:
    DenseField = Annotated[Any, AfterValidator(_dense_or_none)]
    """A dense index or None, checked without importing numpy when it is None."""


def _one_line(text: str) -> str:
    """Collapse runs of whitespace (newlines included) into single spaces."""
    return " ".join(text.split())


def _hits(
    corpus: Corpus,
    index: Any,
    query: str,
    k: int,
    dense: DenseIndex | None = None,
    retriever: str = DEFAULT_RETRIEVER,
    encoder: Any = None,
) -> list[SearchHit]:
    """Rank with the chosen retriever (see `tools.retrievers.rank`); attach corpus and text.

    For BM25 a query word the index lacks is replaced by indexed words sharing its stem
    ("refund" finds "refunds"): see `tools.expand`. Scores stay exact BM25 over the expanded
    terms.
    """
    if not query.strip():
        return []
    hits = []
    for doc_id, score, components in rank(query, k, index, dense, retriever, encoder):
        passage = corpus.get(doc_id)
        hit = SearchHit(
            id=doc_id,
            score=score,
            corpus=corpus.name,
            text=indexed_text(passage),
            title=passage.title or "",
        )
        if retriever != DEFAULT_RETRIEVER:
            hit["retriever"] = retriever
        hit.update(components)  # type: ignore[typeddict-item]
        hits.append(hit)
    return hits


class BM25Retriever(BaseRetriever):
    """A LangChain retriever over a BM25 index of one corpus.

    Returns up to ``k`` Documents, best first, whose ``page_content`` is the indexed text
    (title prefixed when the passage has one) and whose metadata is
    ``{"id", "score", "corpus"}``. A blank query returns no documents.
    """

    index: Any
    corpus: InstanceOf[Corpus]
    k: int = Field(default=DEFAULT_K, ge=MIN_K)
    dense: DenseField = None
    retriever: str = DEFAULT_RETRIEVER
    encoder: Any = None

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        """Search the index and wrap each hit in a Document."""
        return [
            Document(
                id=hit["id"],
                page_content=hit["text"],
                metadata={"id": hit["id"], "score": hit["score"], "corpus": hit["corpus"]},
            )
            for hit in _hits(
                self.corpus, self.index, query, self.k, self.dense, self.retriever, self.encoder
            )
        ]


class SearchTool(BaseTool):
    """The agent's ``search_<name>`` tool over one corpus.

    Model-facing arguments: ``query`` and ``page`` (1, the default, for the best ``k``
    passages; 2 for the next ``k`` of the same ranking, and so on). The program may also pass
    ``k`` (an InjectedToolArg, hidden from the model's schema) to override ``self.k`` for one
    call. Returns
    ``(content, hits)``: content holds one ``[id] text`` line per hit (whitespace collapsed),
    or a "no passages ... matched" line; the artifact is the list of `SearchHit`. A blank
    query raises a ToolException, which the tool turns into an error ToolMessage.
    """

    name: str = ""
    description: str = ""
    args_schema: ArgsSchema | None = SearchInput
    response_format: Literal["content", "content_and_artifact"] = "content_and_artifact"
    handle_tool_error: bool = True
    corpus: InstanceOf[Corpus]
    index: InstanceOf[KeywordIndex]
    k: int = Field(default=DEFAULT_K, ge=MIN_K)
    dense: DenseField = None
    retriever: str = DEFAULT_RETRIEVER
    encoder: Any = None
    """Query embedder for dense and hybrid search (default: the checked MiniLM model)."""

    @model_validator(mode="before")
    @classmethod
    def _name_and_description(cls, data: Any) -> Any:
        """Derive the name and description from the corpus unless they are given."""
        if not isinstance(data, dict) or not isinstance(data.get("corpus"), Corpus):
            return data
        corpus: Corpus = data["corpus"]
        description = DESCRIPTION_TEMPLATE.format(
            name=corpus.name,
            description=_sentence(corpus.description),
            example_id=corpus.passages[0].id,
        )
        kind = RETRIEVER_DESCRIPTIONS.get(str(data.get("retriever", DEFAULT_RETRIEVER)))
        if kind:
            description = description.replace("Keyword (BM25) search", kind, 1)
        defaults = {"name": search_tool_name(corpus.name), "description": description}
        merged = dict(data)
        for key, value in defaults.items():
            if not merged.get(key):
                merged[key] = value
        return merged

    def _run(
        self,
        query: str,
        page: int = 1,
        k: Annotated[int | None, InjectedToolArg] = None,
        run_manager: CallbackManagerForToolRun | None = None,
    ) -> tuple[str, list[SearchHit]]:
        """Search and format the hits of one page of the ranking; see the class docstring."""
        check_query(query, self.name)
        size = k or self.k
        hits = _hits(
            self.corpus, self.index, query, size * page, self.dense, self.retriever, self.encoder
        )[size * (page - 1) :]
        if not hits:
            return NO_MATCH_TEMPLATE.format(name=self.corpus.name, query=query), hits
        return "\n".join(f"[{hit['id']}] {_one_line(hit['text'])}" for hit in hits), hits

    @property
    def collection(self) -> str:
        """The corpus searched (`SearchSource`)."""
        return self.corpus.name

    def evidence(self, query: str) -> Evidence:
        """The best BM25 passage for `query`, words expanded as a search does (`SearchSource`).

        BM25 whatever retriever the tool answers with (dense and hybrid tools keep a BM25
        index for this); no tool call is made.
        """
        hits = self.index.search(expand_query(self.index, query) or query, 1)
        if not hits:
            return Evidence(text="", found=False)
        doc_id, score = hits[0]
        return Evidence(text=indexed_text(self.corpus.get(doc_id)), score=score)

    def term_weight(self, term: str) -> float:
        """The word's BM25 idf in the corpus (0.0 for a word it lacks): `SearchSource`."""
        return self.index.idf(term)

    def as_retriever(self) -> BM25Retriever:
        """A retriever over the same corpus, index and k."""
        return BM25Retriever(
            index=self.index,
            corpus=self.corpus,
            k=self.k,
            dense=self.dense,
            retriever=self.retriever,
            encoder=self.encoder,
        )


def _sentence(text: str) -> str:
    """Return ``text`` on one line, ending with a full stop (empty stays empty)."""
    text = _one_line(text)
    return text if not text or text.endswith((".", "!", "?")) else text + "."


def make_search_tool(
    corpus: Corpus | IndexedCorpus | BaseRetriever,
    *,
    k: int = DEFAULT_K,
    index: KeywordIndex | None = None,
    encoder: Any = None,
    name: str | None = None,
) -> BaseTool:
    """Build the ``search_<name>`` tool, indexing ``corpus.texts()`` if no index is given.

    The index built is `build_keyword_index`'s: pure Python for a small corpus, else numpy.

    An `IndexedCorpus` brings its own BM25 index, dense vectors and retriever. Any other
    LangChain `BaseRetriever` becomes a `RetrieverTool` named ``search_<name>`` (``name`` is
    then required), speaking the same ``[id] text`` protocol.
    """
    if isinstance(corpus, BaseRetriever):
        if name is None:
            raise ValueError("a retriever needs a name for its search_<name> tool")
        return retriever_tool(corpus, name, k=k)
    if isinstance(corpus, IndexedCorpus):
        return SearchTool(
            corpus=corpus.corpus,
            index=corpus.bm25,
            k=k,
            dense=corpus.dense,
            retriever=check_retriever(corpus.retriever),
            encoder=encoder,
        )
    if index is None:
        index = build_keyword_index(corpus.texts())
    return SearchTool(corpus=corpus, index=index, k=k)
