"""Any LangChain `BaseRetriever` (a vector store's ``as_retriever()``...) as a search tool.

`make_search_tool` in `tools.search` builds it when given a retriever. The tool speaks the
same protocol as the BM25 tools: ``[id] text`` lines (whitespace collapsed) and the hits as
the artifact, so citations work the same. A document's id is its ``id``, else a string id in
its metadata (`METADATA_ID_KEYS`), else a stable hash of its content; an id unfit to be cited
(brackets, control characters) is replaced by that hash too.
"""

from __future__ import annotations

import hashlib
import re
from typing import Annotated, Any, Literal

from langchain_core.callbacks import CallbackManagerForToolRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.tools import ArgsSchema, BaseTool, InjectedToolArg
from pydantic import Field, InstanceOf

from corpora import check_name
from tools.search_protocol import (
    Evidence,
    SearchInput,
    check_query,
    described_evidence,
    search_tool_name,
)
from tools.search_settings import DEFAULT_K, MIN_K

METADATA_ID_KEYS = ("id", "doc_id", "document_id")
RETRIEVER_DESCRIPTION = (
    "Search of the {name} collection. Returns the best-matching passages, one per line as "
    "'[id] text'; cite a passage by the id in the brackets."
)
_BAD_ID_RE = re.compile(r"[\x00-\x1f\x7f-\x9f\[\]]")


def document_id(doc: Document) -> str:
    """The id a document is cited by: its id, a metadata id, or a hash of its content."""
    candidates = [doc.id, *(doc.metadata.get(key) for key in METADATA_ID_KEYS)]
    for value in candidates:
        if isinstance(value, str | int) and not isinstance(value, bool):
            text = str(value)
            if text.strip() and text == text.strip() and not _BAD_ID_RE.search(text):
                return text
    return "sha-" + hashlib.sha256(doc.page_content.encode("utf-8")).hexdigest()[:12]


class RetrieverTool(BaseTool):
    """``search_<name>`` over a foreign retriever; returns ``(content, hits)``."""

    name: str = ""
    description: str = ""
    args_schema: ArgsSchema | None = None
    response_format: Literal["content", "content_and_artifact"] = "content_and_artifact"
    handle_tool_error: bool = True
    retriever: InstanceOf[BaseRetriever]
    collection: str
    k: int = Field(default=DEFAULT_K, ge=MIN_K)

    def _run(
        self,
        query: str,
        page: int = 1,
        k: Annotated[int | None, InjectedToolArg] = None,
        run_manager: CallbackManagerForToolRun | None = None,
    ) -> tuple[str, list[dict[str, Any]]]:
        """Retrieve, keep page `page` of k documents, and format them as the BM25 tools do."""
        check_query(query, self.name)
        size = k or self.k
        docs = self.retriever.invoke(query)[size * (page - 1) : size * page]
        hits = [self._hit(doc) for doc in docs]
        if not hits:
            return f"no passages in {self.collection} matched {query!r}; try other words", hits
        return "\n".join(f"[{h['id']}] {' '.join(h['text'].split())}" for h in hits), hits

    def evidence(self, query: str) -> Evidence:
        """The tool's name and description (`SearchSource` evidence).

        A foreign retriever is not asked ahead of the search the model makes: it may be slow
        or remote.
        """
        return described_evidence(self.name, self.description)

    def term_weight(self, term: str) -> float:
        """Every word weighs the same: a foreign retriever exposes no term statistics."""
        return 1.0

    def _hit(self, doc: Document) -> dict[str, Any]:
        """The artifact entry of one document."""
        score = doc.metadata.get("score")
        title = doc.metadata.get("title")
        return {
            "id": document_id(doc),
            "score": float(score) if isinstance(score, int | float) else 0.0,
            "corpus": self.collection,
            "text": doc.page_content,
            "title": title if isinstance(title, str) else "",
        }


def retriever_tool(
    retriever: BaseRetriever, name: str, *, k: int = DEFAULT_K, description: str | None = None
) -> RetrieverTool:
    """The ``search_<name>`` tool over `retriever` (name checked like a corpus name)."""
    check_name(name)
    return RetrieverTool(
        name=search_tool_name(name),
        description=description or RETRIEVER_DESCRIPTION.format(name=name),
        args_schema=SearchInput,
        retriever=retriever,
        collection=name,
        k=k,
    )
