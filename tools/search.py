"""BM25 search over a corpus, as a LangChain retriever and as the agent's ``search_<name>`` tool."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from langchain_core.callbacks import CallbackManagerForRetrieverRun, CallbackManagerForToolRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.tools import ArgsSchema, BaseTool, InjectedToolArg, ToolException
from pydantic import BaseModel, Field, InstanceOf, model_validator
from typing_extensions import TypedDict

from corpora import Corpus
from corpora.loader import indexed_text
from tools.bm25 import BM25
from tools.expand import expand_query

EMPTY_QUERY_ERROR = "error: empty query; pass the words to look up in {name}"
"""Content of the error ToolMessage for a blank query."""

MAX_QUERY_CHARS = 2_000
LONG_QUERY_ERROR = "error: the query is {n:,} characters; use the key words (at most {limit:,})"
"""Content of the error ToolMessage for a query too long to be a query."""

NO_MATCH_TEMPLATE = "no passages in {name} matched {query!r}; try other words or another tool"
"""Content when no passage shares a word with the query (not an error: a valid answer)."""

DESCRIPTION_TEMPLATE = (
    "Keyword (BM25) search of the {name} corpus. {description} "
    "Returns the best-matching passages, one per line as '[id] text' (e.g. '[{example_id}] ...'); "
    "cite a passage by the id in the brackets. Query with the distinctive words you expect "
    "in the passage (names, terms, numbers), not a whole sentence."
)
"""Tool description shown to the model; filled from the corpus."""


class SearchHit(TypedDict):
    """One search result, as carried in the tool message artifact.

    ``text`` is the passage's indexed text (``title. text`` when it has a title), verbatim.
    """

    id: str
    score: float
    corpus: str
    text: str
    title: str


class SearchInput(BaseModel):
    """Arguments of a ``search_<name>`` tool."""

    query: str = Field(
        description="Keywords to look up, e.g. 'Atlas scheduler owner' or 'refund window days'."
    )
    k: Annotated[int | None, InjectedToolArg] = Field(
        default=None, ge=1, description="Number of passages (set by the program, not the model)."
    )


def _one_line(text: str) -> str:
    """Collapse runs of whitespace (newlines included) into single spaces."""
    return " ".join(text.split())


def _hits(corpus: Corpus, index: Any, query: str, k: int) -> list[SearchHit]:
    """Search with the query expanded to the index's word forms; attach corpus and text.

    A query word the index lacks is replaced by indexed words sharing its stem ("refund"
    finds "refunds"): see `tools.expand`. Scores stay exact BM25 over the expanded terms.
    """
    if not query.strip():
        return []
    hits = []
    for doc_id, score in index.search(expand_query(index, query) or query, k=k):
        passage = corpus.get(doc_id)
        hits.append(
            SearchHit(
                id=doc_id,
                score=score,
                corpus=corpus.name,
                text=indexed_text(passage),
                title=passage.title or "",
            )
        )
    return hits


class BM25Retriever(BaseRetriever):
    """A LangChain retriever over a BM25 index of one corpus.

    Returns up to ``k`` Documents, best first, whose ``page_content`` is the indexed text
    (title prefixed when the passage has one) and whose metadata is
    ``{"id", "score", "corpus"}``. A blank query returns no documents.
    """

    index: Any
    corpus: InstanceOf[Corpus]
    k: int = Field(default=3, ge=1)

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
            for hit in _hits(self.corpus, self.index, query, self.k)
        ]


class SearchTool(BaseTool):
    """The agent's ``search_<name>`` tool over one corpus.

    Model-facing argument: ``query``. The program may also pass ``k`` (an InjectedToolArg,
    hidden from the model's schema) to override ``self.k`` for one call. Returns
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
    index: InstanceOf[BM25]
    k: int = Field(default=3, ge=1)

    @model_validator(mode="before")
    @classmethod
    def _name_and_description(cls, data: Any) -> Any:
        """Derive the name and description from the corpus unless they are given."""
        if not isinstance(data, dict) or not isinstance(data.get("corpus"), Corpus):
            return data
        corpus: Corpus = data["corpus"]
        defaults = {
            "name": f"search_{corpus.name}",
            "description": DESCRIPTION_TEMPLATE.format(
                name=corpus.name,
                description=_sentence(corpus.description),
                example_id=corpus.passages[0].id,
            ),
        }
        merged = dict(data)
        for key, value in defaults.items():
            if not merged.get(key):
                merged[key] = value
        return merged

    def _run(
        self,
        query: str,
        k: Annotated[int | None, InjectedToolArg] = None,
        run_manager: CallbackManagerForToolRun | None = None,
    ) -> tuple[str, list[SearchHit]]:
        """Search and format the hits; see the class docstring."""
        if not query.strip():
            raise ToolException(EMPTY_QUERY_ERROR.format(name=self.name))
        if len(query) > MAX_QUERY_CHARS:
            raise ToolException(LONG_QUERY_ERROR.format(n=len(query), limit=MAX_QUERY_CHARS))
        hits = _hits(self.corpus, self.index, query, k or self.k)
        if not hits:
            return NO_MATCH_TEMPLATE.format(name=self.corpus.name, query=query), hits
        return "\n".join(f"[{hit['id']}] {_one_line(hit['text'])}" for hit in hits), hits

    def as_retriever(self) -> BM25Retriever:
        """A retriever over the same corpus, index and k."""
        return BM25Retriever(index=self.index, corpus=self.corpus, k=self.k)


def _sentence(text: str) -> str:
    """Return ``text`` on one line, ending with a full stop (empty stays empty)."""
    text = _one_line(text)
    return text if not text or text.endswith((".", "!", "?")) else text + "."


def make_search_tool(corpus: Corpus, *, k: int = 3, index: BM25 | None = None) -> SearchTool:
    """Build the ``search_<corpus.name>`` tool, indexing ``corpus.texts()`` if no index is given."""
    if index is None:
        index = BM25(corpus.texts())
    return SearchTool(corpus=corpus, index=index, k=k)
