"""`agent shapes` on stores written by benchmarks/traffic.py, checked against what was sent.

The traffic is the generator's: field-service requests answered by the agent with the
offline policy, policy, product and arithmetic questions (some as a thread's second turn),
the made-up returns desk driven by the scripted model (with an unknown order, a flaky window
check and a refused label), router threads, and eval threads. What each run did is taken from
what its invocation returned (`traffic.Sent`), not from the store.
"""

from __future__ import annotations

import json
import re
import sys
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run_cli
from conftest import PG_DSN, needs_postgres

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from returns_desk import ScriptBook, make_orders, request_for  # noqa: E402
from traffic import RETURN_FATES, Sent, Traffic, field_requests, write_traffic  # noqa: E402

from graph.app.flow_runs import run_flow  # noqa: E402
from graph.app.persistence import open_checkpointer  # noqa: E402
from graph.router import choose_route  # noqa: E402

COUNTS = {"returns": 14, "field_service": 10, "policy": 5, "products": 3, "arithmetic": 4,
          "router": 2}  # fmt: skip
HOSTILE = "<b>What is 6 * 7?</b> <script>alert(1)</script>"
DESK = ("lookup_order", "check_return_window", "issue_label")


def collapse(tools: list[str]) -> tuple[str, ...]:
    """The shape of a sent run: repeats in a row collapsed."""
    shape: list[str] = []
    for tool in tools:
        if not shape or shape[-1] != tool:
            shape.append(tool)
    return tuple(shape)


def answered(run: Sent) -> bool:
    """Stopped on a non-empty answer."""
    return run.stopped == "answer" and bool((run.answer or "").strip())


def write_store(db: str) -> list[Sent]:
    """The test traffic (and one request full of markup) on `db`."""
    with open_checkpointer(db) as saver:
        sent = write_traffic(saver, COUNTS, seed=3, evals=2, router_flow=2)
        traffic = Traffic(saver, 1, 0)
        sent.append(traffic.ask("default", HOSTILE, "tr-hostile", "arithmetic", 1))
    return sent


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[Sent]]:
    db = str(tmp_path_factory.mktemp("shapes") / "traffic.sqlite")
    return db, write_store(db)


def shapes_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    code, out, err = run_cli(capsys, "shapes", "--json", *args)
    assert code == 0, err
    return json.loads(out)


def check_against_sent(document: dict[str, Any], sent: list[Sent]) -> None:
    """Every figure but the flow's and the durations, against the runs sent."""
    runs = [s for s in sent if not s.eval]
    assert document["runs"] == len(runs)
    expected = Counter(collapse(s.tools) for s in runs)
    rows = {tuple(row["tools"]): row for row in document["shapes"]}
    assert {shape: row["runs"] for shape, row in rows.items()} == dict(expected)
    assert [row["runs"] for row in document["shapes"]] == sorted(expected.values(), reverse=True)
    for shape, row in rows.items():
        members = [s for s in runs if collapse(s.tools) == shape]
        assert row["share"] == pytest.approx(len(members) / len(runs))
        assert row["answered"] == pytest.approx(sum(map(answered, members)) / len(members))
        assert row["mean_model_calls"] == pytest.approx(
            sum(s.model_calls for s in members) / len(members)
        )
        assert row["to_flow"] == sum(choose_route(s.request)[0] == "flow" for s in members)
        assert row["median_duration_s"] is not None and row["median_duration_s"] > 0
    orders = make_orders(COUNTS["returns"], RETURN_FATES, 3)
    unknown = sum(o.fate == "unknown" for o in orders)
    assert rows[("lookup_order",)]["runs"] == unknown > 0
    assert rows[DESK]["runs"] == COUNTS["returns"] - unknown


def test_every_run_is_counted_once_and_the_shapes_match_what_was_sent(
    store: tuple[str, list[Sent]], capsys: pytest.CaptureFixture[str]
) -> None:
    db, sent = store
    check_against_sent(shapes_json(capsys, "--db", db), sent)


def test_eval_threads_are_counted_only_with_all(
    store: tuple[str, list[Sent]], capsys: pytest.CaptureFixture[str]
) -> None:
    db, sent = store
    document = shapes_json(capsys, "--db", db, "--all")
    assert document["runs"] == len(sent) == sum(not s.eval for s in sent) + 2


def flow_expectation(runs: list[Sent]) -> tuple[list[Sent], Counter[str], int, int]:
    """The runs the router sends to the flow, the flow's outcomes, both answered, agreeing."""
    routed = [s for s in runs if choose_route(s.request)[0] == "flow"]
    outcomes: Counter[str] = Counter()
    both = agree = 0
    for number, run in enumerate(routed):
        result = run_flow(run.request, checkpointer=None, thread_id=f"expect-{number}")
        outcomes[result["outcome"]] += 1
        if result["outcome"] == "answered" and answered(run):
            both += 1
            codes = set(re.findall(r"\bF-\d{3}\b", run.answer or ""))
            parts = set(re.findall(r"\bPN-\d{5}\b", run.answer or ""))
            agree += codes == {result["fault_code"]} and parts == {result["part_no"]}
    return routed, outcomes, both, agree


def test_the_flow_share_is_the_routers_decisions_and_the_flow_runs_offline(
    store: tuple[str, list[Sent]], capsys: pytest.CaptureFixture[str]
) -> None:
    db, sent = store
    runs = [s for s in sent if not s.eval]
    flow = shapes_json(capsys, "--db", db, "--model-latency", "200")["flow"]
    routed, outcomes, both, agree = flow_expectation(runs)
    assert 0 < len(routed) < len(runs)
    assert flow["runs"] == len(routed)
    assert flow["share"] == pytest.approx(len(routed) / len(runs))
    assert {k: v for k, v in flow["outcomes"].items() if v} == dict(outcomes)
    assert flow["agreement"]["both_answered"] == both
    assert flow["agreement"]["agree"] == agree
    saving = flow["saving"]
    assert saving["model_calls"] == sum(s.model_calls for s in routed)
    assert saving["model_latency_ms"] == 200
    assert saving["flow_cpu_ms"] > 0 and saving["agent_other_ms"] > 0
    agent_ms = saving["mean_model_calls"] * 200 + saving["agent_other_ms"]
    assert saving["agent_rps"] == pytest.approx(1000 / agent_ms)
    assert saving["flow_rps"] == pytest.approx(1000 / saving["flow_cpu_ms"])
    assert saving["ratio"] == pytest.approx(saving["flow_rps"] / saving["agent_rps"])


def test_a_thread_of_two_turns_gives_two_runs(store: tuple[str, list[Sent]]) -> None:
    from evals.shapes.runs import read_runs
    from evals.shapes.saved import read_store

    db, sent = store
    with open_checkpointer(db, read_only=True) as saver:
        runs = {run.ref: run for run in read_runs(read_store(saver))}
    second = [s for s in sent if s.turn == 2]
    assert second
    for run in second:
        first = next(s for s in sent if s.thread_id == run.thread_id and s.turn == 1)
        for expected in (first, run):
            got = runs[f"{expected.thread_id}#{expected.turn}"]
            assert got.request == expected.request
            assert [c.tool for c in got.calls] == expected.tools
            assert got.model_calls == expected.model_calls
            assert got.duration_s is not None and got.duration_s > 0
    via_router = [r for r in runs.values() if r.via == "router"]
    assert sorted(r.request for r in via_router) == sorted(
        s.request for s in sent if s.domain == "router"
    )


def test_propose_recovers_the_returns_desk(
    store: tuple[str, list[Sent]], capsys: pytest.CaptureFixture[str]
) -> None:
    db, sent = store
    proposal = shapes_json(capsys, "--db", db, "--propose")["proposal"]
    assert proposal["tools"] == list(DESK)
    stages = proposal["stages"]
    assert [s["tool"] for s in stages] == list(DESK)
    assert [s["on_ok"] for s in stages] == ["check_return_window", "issue_label", None]
    assert [s["on_failure"] for s in stages] == ["ABORT", "RETRY_ONCE", "ESCALATE"]
    orders = make_orders(COUNTS["returns"], RETURN_FATES, 3)
    fates = Counter(o.fate for o in orders)
    assert [s["failed_then_retried"] for s in stages] == [0, fates["flaky"], 0]
    assert [s["ended_runs"] for s in stages] == [fates["unknown"], 0, fates["refused"]]
    assert len(proposal["runs"]) == COUNTS["returns"] - fates["unknown"]
    assert len(proposal["ended_early"]) == fates["unknown"]
    args = [s["arguments"] for s in stages]
    assert [list(a) for a in args] == [
        ["order_id"],
        ["order_id", "delivered_on"],
        ["order_id", "sku", "authorization"],
    ]
    assert args[1]["delivered_on"] == {"from": "stage", "covers": 1.0, "stage": "lookup_order",
                                       "field": "delivered_on"}  # fmt: skip
    assert args[2]["authorization"]["stage"] == "check_return_window"
    order_patterns = {a["order_id"]["pattern"] for a in args}
    assert len(order_patterns) == 1 and all(a["order_id"]["from"] == "request" for a in args)
    order_re, sku_re = re.compile(order_patterns.pop()), re.compile(args[2]["sku"]["pattern"])
    for number, order in enumerate(make_orders(8, {}, seed=99)):  # requests it never saw
        request = request_for(order, number)
        assert [m.group() for m in order_re.finditer(request)] == [order.order]
        assert [m.group() for m in sku_re.finditer(request)] == [order.sku]
    assert "class Stage(StrEnum):" in proposal["source"]
    assert (
        "Stage.CHECK_RETURN_WINDOW: Transition(Stage.ISSUE_LABEL, Failure.RETRY_ONCE)"
        in (proposal["source"])
    )


def test_the_text_table_lists_every_shape(
    store: tuple[str, list[Sent]], capsys: pytest.CaptureFixture[str]
) -> None:
    db, sent = store
    code, out, err = run_cli(capsys, "shapes", "--db", db, "--propose")
    assert code == 0, err
    runs = [s for s in sent if not s.eval]
    shapes = len({collapse(s.tools) for s in runs})
    assert out.splitlines()[0] == f"{len(runs)} agent runs, {shapes} shapes"
    assert "lookup_order -> check_return_window -> issue_label" in out
    assert "TRANSITIONS = MappingProxyType(" in out


def test_the_page_shows_every_shape_and_escapes_the_requests(
    store: tuple[str, list[Sent]], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db, sent = store
    page = tmp_path / "shapes.html"
    code, out, err = run_cli(capsys, "shapes", "--db", db, "--html", str(page), "--propose")
    assert code == 0, err
    text = page.read_text(encoding="utf-8")
    assert text.count("<svg") == 1 and "<script>" not in text
    assert "&lt;b&gt;What is 6 * 7?&lt;/b&gt;" in text
    for run in sent:
        if not run.eval:
            shape = " -&gt; ".join(collapse(run.tools)) or "[] (no tool)"
            assert shape in text
    assert text.count("<details") == len({collapse(s.tools) for s in sent if not s.eval})
    assert "Draft flow" in text


def test_agreement_is_counted_only_where_both_answered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from graph.agent.budget import DEFAULT_MAX_STEPS, run_config
    from graph.agent.graph import build_agent
    from tools.field_service import field_service_tools
    from tools.finish import finish

    flow = {}
    for number, request in enumerate(field_requests()):
        if choose_route(request)[0] == "flow":
            flow[request] = run_flow(request, checkpointer=None, thread_id=f"pick-{number}")
    clear = [r for r, res in flow.items() if res["outcome"] == "answered"][:3]
    vague = next(r for r, res in flow.items() if res["outcome"] == "escalated")
    right, wrong, empty = clear
    other_part = next(res["part_no"] for res in flow.values()
                      if res["part_no"] not in (None, flow[wrong]["part_no"]))  # fmt: skip
    answers = {
        right: f"Fault {flow[right]['fault_code']}: fit {flow[right]['part_no']}.",
        wrong: f"Fault {flow[wrong]['fault_code']}: fit {other_part}.",
        empty: " ",
        vague: "Probably F-101; fit PN-00000.",
    }
    scripts = {
        request: [
            {"tool": "search_tickets", "args": {"model_variant": "AC-250-S", "symptom": "noise"}},
            {"tool": "finish", "args": {"answer": answer, "citations": []}},
        ]
        for request, answer in answers.items()
    }
    db = str(tmp_path / "agree.sqlite")
    with open_checkpointer(db) as saver:
        agent = build_agent(model=ScriptBook(scripts=scripts),
                            tools=[*field_service_tools(), finish], checkpointer=saver)  # fmt: skip
        for number, request in enumerate(answers):
            agent.invoke({"question": request}, run_config(DEFAULT_MAX_STEPS, f"t-{number}"))
    document = shapes_json(capsys, "--db", db)
    assert document["runs"] == 4
    assert document["flow"]["runs"] == 4 and document["flow"]["share"] == 1.0
    assert document["flow"]["outcomes"] == {"answered": 3, "escalated": 1, "aborted": 0}
    assert document["flow"]["agreement"] == {"both_answered": 2, "agree": 1, "share": 0.5}
    assert document["shapes"][0]["answered"] == 0.75


def test_bad_sources_are_one_line_errors(capsys: pytest.CaptureFixture[str]) -> None:
    from server_utils import free_port

    code, out, err = run_cli(capsys, "shapes", "--db", "x.sqlite", "--server", "http://a")
    assert code == 2 and err.count("\n") == 1 and "not both" in err
    code, out, err = run_cli(capsys, "shapes", "--server", "file:///etc/passwd")
    assert code == 2 and err.count("\n") == 1 and "http://" in err
    code, out, err = run_cli(capsys, "shapes", "--server", f"http://127.0.0.1:{free_port()}")
    assert code == 1 and err.count("\n") == 1 and "cannot read the LangGraph server" in err


def test_an_empty_store_has_no_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "none.sqlite")
    document = shapes_json(capsys, "--db", db, "--propose")
    assert document["runs"] == 0 and document["shapes"] == [] and document["flow"]["runs"] == 0
    assert document["proposal"] is None and document["flow"]["saving"]["ratio"] is None
    code, out, err = run_cli(capsys, "shapes", "--db", db)
    assert code == 0 and out.startswith("no agent runs")


@pytest.fixture
def pg_database() -> Iterator[str]:
    """A fresh PostgreSQL database on the test server, dropped afterwards."""
    from urllib.parse import urlsplit, urlunsplit

    import psycopg

    assert PG_DSN is not None
    name = f"shapes_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    try:
        yield urlunsplit(urlsplit(PG_DSN)._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(PG_DSN, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@needs_postgres
def test_postgres_store_gives_the_same_figures(
    pg_database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    sent = write_store(pg_database)
    document = shapes_json(capsys, "--db", pg_database, "--propose")
    check_against_sent(document, sent)
    routed, outcomes, both, agree = flow_expectation([s for s in sent if not s.eval])
    assert document["flow"]["runs"] == len(routed)
    assert document["flow"]["agreement"]["both_answered"] == both
    assert document["proposal"]["tools"] == list(DESK)


def test_a_pattern_keeps_what_every_value_shares_and_generalises_the_rest() -> None:
    from evals.shapes.patterns import first_span, induce

    pattern = induce(["RD-12345", "RD-99", "RD-4567"])
    assert pattern is not None
    assert first_span(pattern, "order RD-555 and SKU-1234") == "RD-555"
    assert first_span(pattern, "order XRD-555 or RD-5555555") is None
    mixed = induce(["AB-1", "ab.c"])
    assert mixed is not None
    assert first_span(mixed, "x ab.c y") == "ab.c" and first_span(mixed, "AB-7") == "AB-7"
    assert induce([" ", ""]) is None


def test_a_forked_thread_is_read_along_its_newest_branch() -> None:
    from evals.shapes.saved import Saved, Stream

    stream = Stream("t", "")
    rows = [("a", None, "1", "input"), ("b", "a", "2", "loop"), ("c", "b", "3", "loop"),
            ("d", "b", "4", "fork")]  # fmt: skip
    for checkpoint_id, parent, ts, source in rows:
        stream.add(Saved(checkpoint_id, parent, ts, source, {}), {}, {})
    assert [s.checkpoint_id for s in stream.chain()] == ["a", "b", "d"]


def test_reading_sqlite_by_its_ids_gives_the_runs_the_saver_lists(
    store: tuple[str, list[Sent]],
) -> None:
    from evals.shapes.runs import read_runs
    from evals.shapes.saved import read_listed, read_sqlite

    db, _ = store
    with open_checkpointer(db, read_only=True) as saver:
        fast, listed = read_runs(read_sqlite(saver)), read_runs(read_listed(saver))
    assert len(fast) == len(listed) > 0
    for one, other in zip(fast, listed, strict=True):
        assert (one.ref, one.request, one.calls, one.stopped, one.answer, one.model_calls) == (
            other.ref, other.request, other.calls, other.stopped, other.answer, other.model_calls
        )  # fmt: skip
        assert one.duration_s == pytest.approx(other.duration_s, abs=0.002)


def test_stored_tool_names_and_requests_are_rendered_safe(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from graph.agent.budget import DEFAULT_MAX_STEPS, run_config
    from graph.agent.graph import build_agent
    from tools.finish import finish

    evil = "evil\x1b[2J<script>x</script>"
    request = "Order RD-12345 please <img src=x onerror=alert(1)>"
    done = {"answer": "\x1b[31mdone\x07", "citations": []}
    scripts = {
        request: [{"tool": evil, "args": {"q\x1b": "<b>"}}, {"tool": "finish", "args": done}]
    }
    db = str(tmp_path / "evil.sqlite")
    with open_checkpointer(db) as saver:
        agent = build_agent(model=ScriptBook(scripts=scripts), tools=[finish], checkpointer=saver)
        agent.invoke({"question": request}, run_config(DEFAULT_MAX_STEPS, "t-evil"))
    page = tmp_path / "evil.html"
    code, out, err = run_cli(capsys, "shapes", "--db", db, "--html", str(page), "--propose")
    assert code == 0, err
    assert "\x1b" not in out and "\x07" not in out and "evil\\x1b[2J<script>" in out
    text = page.read_text(encoding="utf-8")
    assert "<script>" not in text and "<img" not in text and "&lt;img src=x" in text
    document = shapes_json(capsys, "--db", db)
    assert document["shapes"][0]["tools"] == [evil]


def test_the_draft_is_for_the_largest_shape_the_router_keeps_for_the_agent() -> None:
    from evals.shapes.propose import choose_shape
    from evals.shapes.runs import Run
    from evals.shapes.table import shape_rows
    from evals.shapes.transcript import Call

    def run(number: int, request: str, *tools: str) -> Run:
        calls = tuple(Call(tool, {}, True, None) for tool in tools)
        return Run(f"t-{number}", 1, "agent", request, calls, "answer", "ok", 2, (), 0.1)

    runs = [run(n, "AC-250-S hums", "search_tickets", "check_availability") for n in range(5)]
    runs += [run(10 + n, "Order RD-12345", "lookup_order") for n in range(3)]
    runs += [run(20 + n, "What is 2 * 3?") for n in range(4)]  # no tool: never a draft
    runs += [run(30, "Order RD-54321 please", "issue_label")]  # under 10% of the runs
    chosen = choose_shape(shape_rows(runs), len(runs))
    assert chosen is not None and chosen.tools == ("lookup_order",)
    assert choose_shape(shape_rows(runs[:5] + runs[8:12]), 9) is None
