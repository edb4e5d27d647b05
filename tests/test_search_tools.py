import asyncio

import pytest
from langchain_core.documents import Document
from langchain_core.messages import ToolMessage

from corpora import Corpus, Passage, load_builtin
from graph.models.background import rarity
from tools import builtin_index, default_tools
from tools.bm25 import BM25
from tools.expand import expand_query, expand_terms
from tools.finish import finish, normalize_citations
from tools.search import BM25Retriever, SearchTool, make_search_tool


def _call(tool: SearchTool, **args: object) -> ToolMessage:
    message = tool.invoke({"type": "tool_call", "id": "call-1", "name": tool.name, "args": args})
    assert isinstance(message, ToolMessage)
    return message


@pytest.fixture
def corpus() -> Corpus:
    return Corpus(
        name="fleet",
        passages=(
            Passage("r1", "Robots  charge\tat the\n\ndock overnight."),
            Passage("r2", "The dock in Austin charges two robots."),
            Passage("r3", "Lunch is tacos on Fridays."),
            Passage("r4", "Robots are washed weekly.", title="Robot care"),
        ),
        description="Fleet notes: robots and docks.",
    )


# --- the search tool -------------------------------------------------------------------


def test_content_lines_are_id_and_collapsed_text(corpus: Corpus) -> None:
    tool = make_search_tool(corpus, k=3)
    content, hits = tool._run("robots dock")
    assert content.split("\n") == [f"[{h['id']}] {' '.join(h['text'].split())}" for h in hits]
    assert "[r1] Robots charge at the dock overnight." in content.split("\n")
    assert "\t" not in content and "  " not in content


def test_artifact_holds_structured_hits_matching_bm25(corpus: Corpus) -> None:
    tool = make_search_tool(corpus, k=3)
    message = _call(tool, query="robots dock")
    expected = BM25(corpus.texts()).search("robots dock", k=3)
    assert [(h["id"], h["score"]) for h in message.artifact] == expected
    assert all(h["corpus"] == "fleet" for h in message.artifact)
    assert message.artifact[0]["text"] == corpus.get(expected[0][0]).text
    assert message.status == "success"
    assert message.name == "search_fleet"


def test_title_is_shown_before_the_text(corpus: Corpus) -> None:
    message = _call(make_search_tool(corpus), query="washed")
    assert message.content == "[r4] Robot care. Robots are washed weekly."
    assert message.artifact[0]["text"] == "Robot care. Robots are washed weekly."


def test_injected_k_is_hidden_from_the_model_schema(corpus: Corpus) -> None:
    tool = make_search_tool(corpus)
    schema = tool.tool_call_schema.model_json_schema()
    assert list(schema["properties"]) == ["query", "page"]
    assert schema["required"] == ["query"]
    assert schema["properties"]["query"]["description"]
    assert set(tool.args) == {"query", "page"}


def test_injected_k_overrides_the_default(corpus: Corpus) -> None:
    tool = make_search_tool(corpus, k=2)
    assert len(_call(tool, query="robots dock tacos").artifact) == 2
    assert len(_call(tool, query="robots dock tacos", k=1).artifact) == 1
    assert len(_call(tool, query="robots dock tacos", k=4).artifact) == 4
    assert len(tool.invoke({"query": "robots dock tacos", "k": 3}).split("\n")) == 3


def test_blank_query_is_an_error_message_not_an_exception(corpus: Corpus) -> None:
    tool = make_search_tool(corpus)
    for query in ("", "   \n"):
        message = _call(tool, query=query)
        assert message.status == "error"
        assert "error" in message.content and "search_fleet" in message.content
    assert tool.invoke({"query": ""}).startswith("error")


def test_no_match_is_a_clear_line_and_empty_artifact(corpus: Corpus) -> None:
    message = _call(make_search_tool(corpus), query="zeppelin")
    assert message.content.startswith("no passages in fleet matched 'zeppelin'")
    assert message.artifact == []
    assert message.status == "success"


def test_name_and_description_come_from_the_corpus(corpus: Corpus) -> None:
    tool = make_search_tool(corpus)
    assert tool.name == "search_fleet"
    assert "Fleet notes: robots and docks." in tool.description
    assert "'[id] text'" in tool.description and "[r1]" in tool.description
    assert tool.response_format == "content_and_artifact"


def test_make_search_tool_uses_a_given_index(corpus: Corpus) -> None:
    index = BM25(corpus.texts())
    assert make_search_tool(corpus, index=index).index is index


def test_search_tool_works_async(corpus: Corpus) -> None:
    tool = make_search_tool(corpus, k=1)
    call = {"type": "tool_call", "id": "a", "name": tool.name, "args": {"query": "tacos"}}
    message = asyncio.run(tool.ainvoke(call))
    assert message.content == "[r3] Lunch is tacos on Fridays."


def test_builtin_notes_search() -> None:
    query = "Who leads the team that owns Beacon?"
    message = _call(make_search_tool(load_builtin("notes"), k=2), query=query)
    index = builtin_index("notes")
    expected = index.search(expand_query(index, query), k=2)
    assert [(h["id"], h["score"]) for h in message.artifact] == expected
    assert message.content.split("\n") == [
        f"[{doc_id}] {load_builtin('notes').get(doc_id).text}" for doc_id, _ in expected
    ]


def test_query_words_missing_from_the_index_match_their_indexed_forms() -> None:
    index = builtin_index("policy")
    assert index.doc_freq("refund") == 0 and index.doc_freq("refunds") == 2
    assert expand_terms(index, "refund window") == ["refunds"]
    message = _call(make_search_tool(load_builtin("policy"), k=1), query="refund window")
    assert message.artifact[0]["id"] == "pol-1"
    assert "30 days" in message.content


def test_a_query_word_matches_its_base_word_undoubled_as_support_reads_it() -> None:
    index = BM25({"a": "wrap lines at 79 characters", "b": "stopping the kiosk"})
    assert expand_terms(index, "wrapped lines") == ["wrap", "lines"]
    assert expand_terms(index, "stopped") == ["stopping"]  # both read as "stop"
    assert expand_terms(index, "called") == []  # a doubled l stays: "call", not "cal"


def test_a_past_tense_in_ied_matches_its_y_word_and_background_rarity() -> None:
    index = BM25({"a": "the kiln copies each glaze", "b": "the lamp applies a filter"})
    assert expand_terms(index, "copied glaze") == ["copies", "glaze"]
    assert expand_terms(index, "applied") == ["applies"]
    assert rarity("copied") == rarity("copy") < 1.0  # a common word, however it is inflected


def test_indexed_query_words_are_kept_as_they_are() -> None:
    index = builtin_index("notes")
    assert expand_terms(index, "Atlas owns") == ["atlas", "owned"]
    assert expand_terms(index, "zzz unknownword") == []


def test_a_query_word_typed_without_its_accents_finds_the_accented_word() -> None:
    corpus = Corpus(
        name="cafes",
        passages=(
            Passage("c1", "The Café Löwe in Zürich opens at seven."),
            Passage("c2", "The bakery on Mill Road opens at six."),
            Passage("c3", "The market hall closes on Sundays."),
            Passage("c4", "The library lends bicycles to members."),
        ),
    )
    tool = make_search_tool(corpus, k=1)
    assert expand_terms(tool.index, "cafe lowe zurich") == ["café", "löwe", "zürich"]
    assert _call(tool, query="When does Cafe Lowe open?").artifact[0]["id"] == "c1"


# --- the retriever ---------------------------------------------------------------------


def test_retriever_returns_documents_with_metadata(corpus: Corpus) -> None:
    retriever = BM25Retriever(index=BM25(corpus.texts()), corpus=corpus, k=2)
    docs = retriever.invoke("robots dock")
    expected = BM25(corpus.texts()).search("robots dock", k=2)
    assert all(isinstance(d, Document) for d in docs)
    assert [(d.metadata["id"], d.metadata["score"]) for d in docs] == expected
    for doc in docs:
        assert set(doc.metadata) == {"id", "score", "corpus"}
        assert doc.metadata["corpus"] == "fleet"
        assert doc.id == doc.metadata["id"]
        assert doc.page_content == corpus.texts()[doc.id]
    assert retriever.invoke("   ") == []
    assert retriever.invoke("zeppelin") == []


def test_tool_as_retriever_shares_index_and_k(corpus: Corpus) -> None:
    tool = make_search_tool(corpus, k=1)
    retriever = tool.as_retriever()
    assert retriever.index is tool.index and retriever.k == 1
    assert [d.id for d in retriever.invoke("tacos")] == ["r3"]


# --- default_tools and finish ----------------------------------------------------------


def test_default_tools_names_and_k() -> None:
    tools = default_tools(k=4)
    assert [t.name for t in tools] == [
        "search_policy",
        "search_products",
        "search_notes",
        "calculator",
        "finish",
    ]
    searches = [t for t in tools if isinstance(t, SearchTool)]
    assert [t.k for t in searches] == [4, 4, 4]
    assert searches[2].index is builtin_index("notes")
    assert default_tools()[0].index is searches[0].index  # cached, not rebuilt


def test_default_tools_with_user_corpora(corpus: Corpus) -> None:
    other = Corpus(name="notes", passages=(Passage("x", "not the built-in notes"),))
    tools = default_tools(corpora=[corpus, other])
    assert [t.name for t in tools] == ["search_fleet", "search_notes", "calculator", "finish"]
    assert isinstance(tools[1], SearchTool)
    assert tools[1].index is not builtin_index("notes")
    assert list(tools[1].index.doc_ids) == ["x"]
    with pytest.raises(ValueError, match="two corpora are named 'fleet'"):
        default_tools(corpora=[corpus, corpus])


def test_finish_tool_schema_and_echo() -> None:
    schema = finish.tool_call_schema.model_json_schema()
    assert finish.name == "finish"
    assert set(schema["properties"]) == {"answer", "citations", "short_answer"}
    assert schema["properties"]["citations"]["type"] == "array"
    assert set(schema["required"]) == {"answer", "citations"}  # answer may be null: a decline
    assert {"type": "null"} in schema["properties"]["answer"]["anyOf"]
    assert "end the run" in finish.description
    call = {
        "type": "tool_call",
        "id": "f",
        "name": "finish",
        "args": {"answer": "Priya Raman", "citations": ["d1", "d2"]},
    }
    assert finish.invoke(call).content == "Priya Raman"


def test_normalize_citations() -> None:
    assert normalize_citations(["[d1]", " d2 ", "d1", "", 3, "[ ]"]) == ["d1", "d2"]
