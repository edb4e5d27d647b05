"""The field-service domain, its tools, the pure diagnosis functions and the fault wrapper."""

from __future__ import annotations

import asyncio
import json
import shutil
from collections import defaultdict
from pathlib import Path

import pytest
from faults import FlakyCallable, FlakyTool, RateLimited, flaky
from langchain_core.messages import ToolMessage

from corpora import CorpusError
from corpora.field_service import DATA_DIR, family_of, load
from corpora.field_service.build_data import render
from tools.field_service import (
    check_availability,
    field_service_tools,
    search_manual,
    search_tickets,
)
from tools.field_service_decisions import AMBIGUITY_FLOOR, diagnose, select_part, sourcing
from tools.field_service_lookups import find_tickets


def call(tool, **args) -> ToolMessage:
    """Invoke a tool with a tool call, so the artifact comes back."""
    message = tool.invoke({"name": tool.name, "args": args, "id": "call-1", "type": "tool_call"})
    assert isinstance(message, ToolMessage)
    return message


# -- the domain ------------------------------------------------------------------------------


def test_committed_data_files_are_exactly_what_the_generator_writes() -> None:
    for name, content in render().items():
        assert (DATA_DIR / name).read_text(encoding="utf-8") == content, name


def test_domain_size_and_shape() -> None:
    data = load()
    assert 80 <= len(data.tickets) <= 150
    assert len(data.variants) == 9
    assert {family_of(v) for v in data.variants} == {"AC-250", "AC-400", "HP-120"}
    assert {v[-1] for v in data.variants} == {"A", "B", "S"}
    assert len({t["id"] for t in data.tickets}) == len(data.tickets)
    assert set(data.stock) >= set(data.parts)


def test_every_variant_has_a_ticket_for_every_fault_of_its_family() -> None:
    data = load()
    seen = {(t["variant"], t["fault_code"]) for t in data.tickets}
    for variant in data.variants:
        for code, fault in data.faults.items():
            if family_of(variant) in fault["families"]:
                assert (variant, code) in seen


def test_shared_symptoms_are_recorded_identically_for_both_codes_of_a_pair() -> None:
    data = load()
    by_text: dict[tuple[str, str], set[str]] = defaultdict(set)
    for ticket in data.tickets:
        by_text[(ticket["variant"], ticket["symptom"])].add(ticket["fault_code"])
    pairs = {frozenset(codes) for codes in by_text.values() if len(codes) > 1}
    assert pairs == {
        frozenset({"F-101", "F-108"}),
        frozenset({"F-102", "F-103"}),
        frozenset({"F-109", "F-110"}),
        frozenset({"F-111", "F-113"}),
    }
    for code, fault in data.faults.items():
        for partner in fault["shares_symptoms_with"]:
            assert code in data.faults[partner]["shares_symptoms_with"]


def test_deliberate_gaps_exist() -> None:
    data = load()
    covered = {code for p in data.manual for code in p["fault_codes"]}
    assert {"F-107", "F-113"} <= set(data.faults) - covered
    assert select_part("F-104", "AC-250-S") is None
    assert select_part("F-104", "AC-400-S") is None
    assert select_part("F-112", "HP-120-B") is None


def test_loader_reports_a_bad_reference_as_one_line_with_file_and_line(tmp_path: Path) -> None:
    root = tmp_path / "fs"
    shutil.copytree(DATA_DIR, root, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    lines = (root / "tickets.jsonl").read_text().splitlines()
    row = json.loads(lines[2])
    row["variant"] = "AC-250-X"
    lines[2] = json.dumps(row)
    (root / "tickets.jsonl").write_text("\n".join(lines) + "\n")
    with pytest.raises(CorpusError) as info:
        load(root)
    assert str(info.value).endswith("tickets.jsonl:3: unknown variant 'AC-250-X'")
    assert "\n" not in str(info.value)


def test_family_of_rejects_names_that_are_not_variants() -> None:
    assert family_of("hp-120-b") == "HP-120"
    with pytest.raises(ValueError, match="AC-250-S"):
        family_of("AC-250")


# -- search_tickets --------------------------------------------------------------------------


def test_search_tickets_returns_scored_tickets_of_the_variant_only() -> None:
    message = call(search_tickets, model_variant="AC-250-A", symptom="condensate pump not running")
    result = message.artifact
    assert result["ok"] is True and result["error"] is None
    assert result["scope"] == "variant" and result["model_variant"] == "AC-250-A"
    tickets = result["tickets"]
    assert 1 <= len(tickets) <= 8
    assert {t["variant"] for t in tickets} == {"AC-250-A"}
    assert set(tickets[0]) == {"id", "variant", "symptom", "fault_code", "resolution", "score"}
    assert tickets[0]["fault_code"] == "F-109"
    assert all(t["score"] > 0 for t in tickets)
    order = [(-t["score"], t["id"]) for t in tickets]
    assert order == sorted(order)
    assert message.content.splitlines()[0].startswith(f"[{tickets[0]['id']} AC-250-A F-109")


def test_search_tickets_limit_and_family_scope() -> None:
    narrow = find_tickets("AC-400-B", "water leaking from the indoor unit", limit=3)
    assert len(narrow["tickets"]) == 3
    wide = find_tickets("AC-400-B", "water leaking from the indoor unit", 30, include_family=True)
    assert wide["scope"] == "family"
    assert {t["variant"] for t in wide["tickets"]} == {"AC-400-A", "AC-400-B", "AC-400-S"}


def test_search_tickets_errors_are_data() -> None:
    for variant, fragment in (("AC-250", "not a model variant"), ("AC-999-A", "unknown model")):
        message = call(search_tickets, model_variant=variant, symptom="noise")
        assert message.artifact["ok"] is False
        assert fragment in message.artifact["error"]
        assert message.content.startswith("error: ")
    assert find_tickets("AC-250-A", "noise", limit=0)["error"] == "limit must be at least 1, got 0"


def test_search_tickets_with_no_match_is_an_empty_ok_result() -> None:
    message = call(search_tickets, model_variant="AC-250-A", symptom="zzz qqq")
    assert message.artifact["ok"] is True and message.artifact["tickets"] == []
    assert message.content == "no ticket for AC-250-A matches the symptom"


# -- check_availability and search_manual ----------------------------------------------------


def test_check_availability_known_and_unknown_parts() -> None:
    known = call(check_availability, part_no="PN-80150")
    assert known.artifact == {
        "ok": True, "part_no": "PN-80150", "stock_qty": 17, "lead_time_days": 2, "error": None,
    }  # fmt: skip
    assert known.content == "PN-80150: 17 in stock, lead time 2 days"
    unknown = call(check_availability, part_no="PN-00000")
    assert unknown.artifact["ok"] is False
    assert unknown.artifact["stock_qty"] is None
    assert unknown.content == "error: unknown part number 'PN-00000'"


def test_search_manual_is_restricted_to_the_family() -> None:
    message = call(
        search_manual, query="F-109 condensate pump replacement", product_family="AC-400"
    )
    passages = message.artifact["passages"]
    assert len(passages) == 1
    top = passages[0]
    assert top["product_family"] == "AC-400" and top["fault_codes"] == ["F-109"]
    assert {"doc_title", "page", "text", "score"} <= set(top)
    assert message.content.startswith(f"[{top['doc_title']} p.{top['page']}]")
    several = call(search_manual, query="replace", product_family="HP-120", k=4).artifact
    assert len(several["passages"]) == 4
    assert {p["product_family"] for p in several["passages"]} == {"HP-120"}


def test_search_manual_unknown_family_is_an_error_result() -> None:
    message = call(search_manual, query="pump", product_family="AC-250-S")
    assert message.artifact["ok"] is False
    assert "unknown product family 'AC-250-S'" in message.artifact["error"]


def test_field_service_tools_names_and_schemas() -> None:
    tools = field_service_tools()
    assert [t.name for t in tools] == ["search_tickets", "check_availability", "search_manual"]
    assert all(t.response_format == "content_and_artifact" for t in tools)
    assert set(tools[0].args) == {"model_variant", "symptom", "limit", "include_family"}
    assert tools[0].args["limit"]["default"] == 8
    assert tools[2].args["k"]["default"] == 1
    assert all(arg.get("description") for t in tools for arg in t.args.values())


# -- diagnose, select_part, sourcing ---------------------------------------------------------


def ticket(code: str, score: float, tid: str = "T") -> dict:
    return {"id": tid, "fault_code": code, "score": score}


def test_diagnose_takes_the_best_ticket_per_code_and_normalises() -> None:
    dx = diagnose("x", [ticket("F-101", 6.0), ticket("F-101", 5.0), ticket("F-108", 2.0),
                        ticket("F-104", 2.0)])  # fmt: skip
    assert dx["fault_code"] == "F-101"
    assert dx["top"] == [("F-101", 0.6), ("F-104", 0.2), ("F-108", 0.2)]
    assert dx["margin"] == 0.4
    assert dx["ambiguous"] is False


def test_diagnose_is_ambiguous_within_the_floor_and_not_beyond() -> None:
    assert AMBIGUITY_FLOOR == 0.02
    within = diagnose("x", [ticket("F-109", 51.0), ticket("F-110", 49.0)])
    assert within["margin"] == 0.02 and within["ambiguous"] is True
    beyond = diagnose("x", [ticket("F-109", 52.0), ticket("F-110", 48.0)])
    assert beyond["margin"] == 0.04 and beyond["ambiguous"] is False
    single = diagnose("x", [ticket("F-109", 3.0)])
    assert single["margin"] == 1.0 and single["ambiguous"] is False


def test_diagnose_with_nothing_to_go_on() -> None:
    assert diagnose("anything", []) == {
        "fault_code": None, "margin": 0.0, "top": [], "ambiguous": True,
    }  # fmt: skip


def test_diagnose_on_real_tickets_refuses_a_shared_symptom() -> None:
    tickets = find_tickets("AC-250-B", "water dripping from the indoor unit")["tickets"]
    dx = diagnose("water dripping from the indoor unit", tickets)
    assert dx["ambiguous"] is True
    assert {code for code, _ in dx["top"][:2]} == {"F-109", "F-110"}
    assert dx["top"][0][1] == dx["top"][1][1]


def test_diagnose_scores_tickets_without_a_score_from_the_index() -> None:
    symptom = "condensate pump not running, float alarm lit"
    scored = find_tickets("AC-250-A", symptom)["tickets"]
    bare = [{k: v for k, v in t.items() if k != "score"} for t in scored]
    assert diagnose(symptom, bare)["top"] == diagnose(symptom, scored)["top"]


def test_select_part_never_substitutes_across_variants() -> None:
    assert select_part("F-104", "AC-250-A") == "PN-55102"
    assert select_part("F-104", "AC-250-B") == "PN-55102"
    assert select_part("F-104", "AC-250-S") is None
    assert select_part("F-106", "AC-250-B") == "PN-61251"
    assert select_part("F-106", "AC-250-A") == "PN-61250"
    assert select_part("F-111", "AC-250-A") is None


def test_sourcing() -> None:
    assert sourcing("PN-61250").startswith("OEM order only")
    with pytest.raises(KeyError, match="PN-1"):
        sourcing("PN-1")


# -- the transient-failure wrapper -----------------------------------------------------------


def test_flaky_tool_times_out_then_behaves_like_the_tool() -> None:
    wrapped = flaky(check_availability, failures=2)
    assert isinstance(wrapped, FlakyTool)
    assert wrapped.name == "check_availability" and wrapped.args == check_availability.args
    for attempt in (1, 2):
        with pytest.raises(TimeoutError, match=f"call {attempt}"):
            call(wrapped, part_no="PN-80150")
    assert call(wrapped, part_no="PN-80150").artifact["stock_qty"] == 17
    assert wrapped.calls == 3 and wrapped.failures == 2


def test_flaky_tool_rate_limited_is_a_429() -> None:
    wrapped = flaky(search_manual, failures=1, kind="rate_limit")
    with pytest.raises(RateLimited) as info:
        call(wrapped, query="pump", product_family="AC-250")
    assert info.value.status_code == 429 and "429" in str(info.value)
    assert call(wrapped, query="pump", product_family="AC-250").artifact["ok"] is True


def test_flaky_tool_async() -> None:
    wrapped = flaky(check_availability, failures=1)

    async def go() -> object:
        with pytest.raises(TimeoutError):
            await wrapped.ainvoke({"part_no": "PN-80150"})
        return await wrapped.ainvoke({"part_no": "PN-80150"})

    assert asyncio.run(go()) == "PN-80150: 17 in stock, lead time 2 days"
    assert wrapped.calls == 2


def test_flaky_callable_and_bad_arguments() -> None:
    wrapped = flaky(lambda x: x * 2, failures=1, kind="rate_limit")
    assert isinstance(wrapped, FlakyCallable)
    with pytest.raises(RateLimited):
        wrapped(2)
    assert wrapped(2) == 4 and wrapped.calls == 2
    assert flaky(len, failures=0)("abc") == 3
    with pytest.raises(ValueError, match="failures"):
        flaky(len, failures=-1)
    with pytest.raises(ValueError, match="unknown fault kind"):
        flaky(len, kind="boom")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not a tool"):
        flaky(42)  # type: ignore[arg-type]
