"""The flow's two nodes: ``run_stages`` (the six stages in one loop) and ``escalate``.

``run_stages`` runs the transition table in plain Python, from ``next_stage`` (parse for a new
request): each stage returns ``(ok, detail, update)``; the loop logs it as ``{stage, ok, detail,
ms}``, counts the run in ``attempts``, asks ``policy.next_step`` what follows, and stops when
the request is answered, aborted, or must go to a human. A request costs one graph superstep
(and one checkpoint) however many stages it passes through.

``escalate`` pauses the thread with ``interrupt()`` and records the human decision; resuming
the thread re-runs only that node, never the stages or their tools.

Tools are injected (``FlowTools``), so tests can hand the flow a tool that times out. A tool
is a LangChain ``BaseTool`` (invoked with a tool call; its artifact is the result) or a plain
callable taking keyword arguments and returning the result dict. The defaults are the plain
domain functions the field-service tools wrap: the same results, without the tool-call
protocol's per-call cost (callbacks, argument validation, a ToolMessage to unpack).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from langchain_core.messages import ToolMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool
from langgraph.types import interrupt

from corpora.field_service import FAMILY_RE, VARIANT_RE, FieldServiceData, family_of, load
from graph.chat import closing_message, sent_question
from graph.flow.human import RESUME_HELP, ResumeError, candidates, parse_decision
from graph.flow.policy import (
    ABORT,
    DONE,
    ESCALATE_NODE,
    MAX_RUNS,
    POLICY,
    RESUME_STAGE,
    Stage,
    next_step,
)
from graph.flow.state import FlowState, HumanDecision, LogEntry
from graph.nodes import message_text, printable
from tools import field_service as fs
from tools.bm25 import tokenize

Tool = BaseTool | Callable[..., Any]
"""A LangChain tool or a plain callable returning the tool's structured result."""
StageResult = tuple[bool, str, dict[str, Any]]
"""What a stage returns: whether it succeeded, one line on what happened, its state update."""

TICKET_LIMIT = 8
"""How many tickets the history stage asks for."""
MANUAL_K = 3
"""How many manual passages compose looks through for one that covers the fault."""
NO_VARIANT = (
    "no model variant of the form AC-250-S in the request; the suffix (A, B or S) cannot be "
    "inferred from a serial number, so ask for the variant on the rating plate"
)
NO_SUFFIX = (
    "the request names the {family} family but not the variant suffix (A, B or S); the suffix "
    "cannot be inferred from a serial number, so ask for the variant on the rating plate"
)
AMBIGUOUS = "top two fault codes within {floor} ({top}); refusing to guess"
NO_PART = (
    "no part fits {variant} for {fault_code} ({name}); not substituting a part made for another "
    "variant (in the {family} family, parts for {fault_code} fit only: {fits})"
)
NO_CITATION = "No manual citation available."
ABORTED = "Cannot serve this request: {reason}."
NO_REQUEST = (
    'no request: send {"request": "..."} or {"messages": [{"role": "user", "content": "..."}]}'
)
_STAGES = frozenset(s.value for s in Stage)
_LATER = frozenset(
    s.value for s in Stage if list(Stage).index(s) >= list(Stage).index(RESUME_STAGE)
)
"""The stages a human's fault code sends the request back through."""
MAX_STAGE_RUNS = len(Stage) * max(MAX_RUNS.values())
"""More stage runs than the table allows in one ``run_stages`` call (a guard against a cycle)."""
BLANK: Mapping[str, Any] = {
    "model_variant": None,
    "symptom": None,
    "tickets": [],
    "fault_code": None,
    "diagnosis_margin": None,
    "top_faults": [],
    "part_no": None,
    "availability": None,
    "sourcing": None,
    "citation": None,
    "answer": "",
    "outcome": None,
    "reason": "",
    "human_decision": None,
}
"""What a new request on a used thread resets (nothing of an earlier request carries over)."""


@dataclass(frozen=True)
class FlowTools:
    """The tools the flow calls; defaults are the domain functions the real tools wrap."""

    search_tickets: Tool = field(default_factory=lambda: fs.find_tickets)
    """``search_tickets(model_variant, symptom, limit)`` -> ``TicketSearch``."""
    check_availability: Tool = field(default_factory=lambda: fs.lookup_availability)
    """``check_availability(part_no)`` -> ``Availability``."""
    search_manual: Tool = field(default_factory=lambda: fs.find_manual_passages)
    """``search_manual(query, product_family, k)`` -> ``ManualSearch``."""

    @classmethod
    def resolve(
        cls, tools: FlowTools | Mapping[str, Tool] | Sequence[BaseTool] | None
    ) -> FlowTools:
        """Build the tool set from defaults overridden by name (a mapping or a list of tools)."""
        if tools is None:
            return cls()
        if isinstance(tools, FlowTools):
            return tools
        if isinstance(tools, Mapping):
            overrides = dict(tools)
        else:
            overrides = {tool.name: tool for tool in tools}
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(overrides) - known)
        if unknown:
            raise ValueError(f"unknown flow tools {unknown}; the flow uses {sorted(known)}")
        return replace(cls(), **overrides)


def call_tool(tool: Tool, args: dict[str, Any], call_id: str) -> dict[str, Any]:
    """Call a tool and return its structured result (exceptions propagate to the stage)."""
    if isinstance(tool, BaseTool):
        call = {"name": tool.name, "args": args, "id": call_id, "type": "tool_call"}
        message = tool.invoke(call)
        if isinstance(message, ToolMessage):
            if isinstance(message.artifact, dict):
                return message.artifact
            if message.status == "error":
                return {"ok": False, "error": str(message.content)}
            message = message.content
        if isinstance(message, dict):
            return message
        try:
            parsed = json.loads(str(message))
        except json.JSONDecodeError:
            parsed = None
        if not isinstance(parsed, dict):
            raise TypeError(f"{tool.name} returned no structured result: {str(message)[:80]!r}")
        return parsed
    result = tool(**args)
    if not isinstance(result, dict):
        raise TypeError(f"tool returned {type(result).__name__}, expected a dict")
    return result


def _days(n: Any) -> str:
    """Return ``"1 day"`` / ``"3 days"``."""
    return f"{n} day" if n == 1 else f"{n} days"


def request_from_chat(state: Mapping[str, Any]) -> dict[str, Any]:
    """``{"request": text}`` when a chat panel just sent a human message, else nothing."""
    sent = sent_question(state.get("messages") or [])
    if sent is None:
        return {}
    return {"request": printable(message_text(sent))}


def _one_line(exc: BaseException) -> str:
    """An exception as ``Type: message`` on one line."""
    return f"{type(exc).__name__}: {' '.join(str(exc).split())}"


class FlowNodes:
    """The nodes, bound to one set of tools (``builder.add_node(nodes.run_stages)``)."""

    def __init__(self, tools: FlowTools | None = None, data: FieldServiceData | None = None):
        self.tools = tools or FlowTools()
        self._data = data
        self.stages: Mapping[Stage, Callable[[Mapping[str, Any], int], StageResult]] = {
            Stage.PARSE: self.parse,
            Stage.HISTORY: self.history,
            Stage.DIAGNOSE: self.diagnose,
            Stage.PART: self.part,
            Stage.STOCK: self.stock,
            Stage.COMPOSE: self.compose,
        }
        """The function that runs each stage of the transition table."""

    @property
    def data(self) -> FieldServiceData:
        """The field-service data, loaded on first use (not at import or build time)."""
        if self._data is None:
            self._data = load()
        return self._data

    # -- the loop -----------------------------------------------------------------------------

    def run_stages(self, state: FlowState) -> dict[str, Any]:
        """Run the stages from ``next_stage`` through the transition table, in one node.

        Every run is timed and logged; a failure applies the stage's policy (ABORT ends the
        request here, RETRY_ONCE runs the stage again, ESCALATE stops so the graph hands the
        thread to ``escalate``). Stops when the request is answered, aborted or must escalate.
        """
        first = state.get("next_stage")
        stage = Stage(first) if first else Stage.PARSE
        update: dict[str, Any] = {"next_stage": None}
        if stage is Stage.PARSE:  # a new request: forget whatever an earlier one left
            update.update({key: BLANK[key] for key in BLANK if state.get(key) is not None})
            update.update(request_from_chat(state))
            attempts: dict[str, int] = {}
        else:
            attempts = dict(state.get("attempts") or {})
        view: dict[str, Any] = {**state, **update}
        log: list[LogEntry] = []
        for _ in range(MAX_STAGE_RUNS):
            run = attempts.get(stage.value, 0) + 1
            attempts[stage.value] = run
            start = time.perf_counter()
            ok, detail, changes = self.stages[stage](view, run)
            ms = round((time.perf_counter() - start) * 1000, 1)
            if run > 1:
                detail = f"retry {run - 1}: {detail}"
            log.append({"stage": stage.value, "ok": ok, "detail": detail, "ms": ms})
            if not ok:
                changes = {**changes, "reason": detail}
            view.update(changes)
            update.update(changes)
            after = next_step(stage, ok, run)
            if after == ABORT:
                reason = view.get("reason") or "the request cannot be served"
                update.update(outcome="aborted", answer=ABORTED.format(reason=reason))
                break
            if after in (DONE, ESCALATE_NODE):
                break
            stage = Stage(after)
        else:
            raise RuntimeError(
                f"run_stages: more than {MAX_STAGE_RUNS} stage runs; is the table a cycle?"
            )
        update["attempts"] = attempts
        update["log"] = log
        if update.get("outcome") in ("answered", "aborted") and update.get("answer"):
            update["messages"] = [closing_message(update["answer"])]
        return update

    # -- the six stages -----------------------------------------------------------------------

    def parse(self, state: Mapping[str, Any], run: int) -> StageResult:
        """Find the model variant (``AC-250-S``) and the symptom in the request."""
        request = state.get("request")
        if not isinstance(request, str) or not request.strip():
            return False, NO_REQUEST, {}
        found = {f"{m.group(1)}-{m.group(2)}".upper() for m in VARIANT_RE.finditer(request)}
        if not found:
            family = FAMILY_RE.search(request)
            if family is not None and family.group(1).upper() in self.data.families:
                return False, NO_SUFFIX.format(family=family.group(1).upper()), {}
            return False, NO_VARIANT, {}
        if len(found) > 1:
            names = ", ".join(sorted(found))
            return False, f"the request names several variants ({names}); one per request", {}
        variant = found.pop()
        if variant not in self.data.variants:
            known = ", ".join(self.data.variants)
            return False, f"{variant} is not a known model variant (known: {known})", {}
        symptom = " ".join(VARIANT_RE.sub(" ", request).split()).strip(" ,.;:-")
        if not tokenize(symptom):
            return False, f"the request names {variant} but describes no symptom", {}
        update = {"model_variant": variant, "symptom": symptom}
        return True, f"variant {variant}; symptom {symptom!r}", update

    def history(self, state: Mapping[str, Any], run: int) -> StageResult:
        """Search the ticket history of the variant for the symptom."""
        variant = state.get("model_variant")
        args = {"model_variant": variant, "symptom": state.get("symptom"), "limit": TICKET_LIMIT}
        try:
            result = call_tool(self.tools.search_tickets, args, f"flow-history-{run}")
        except Exception as exc:  # a tool failure is data for the policy, not a crash
            return False, f"search_tickets failed: {_one_line(exc)}", {}
        if not result.get("ok", False):
            return False, f"search_tickets returned an error: {result.get('error')}", {}
        tickets = list(result.get("tickets") or [])
        if not tickets:
            return False, f"no ticket for {variant} matches the symptom", {"tickets": []}
        codes = sorted({t["fault_code"] for t in tickets})
        return (
            True,
            f"{len(tickets)} tickets for {variant} ({', '.join(codes)})",
            {"tickets": tickets},
        )

    def diagnose(self, state: Mapping[str, Any], run: int) -> StageResult:
        """Score the fault codes the tickets point to; refuse to guess between near-ties."""
        dx = fs.diagnose(state.get("symptom") or "", state.get("tickets") or [])
        update: dict[str, Any] = {"top_faults": dx["top"], "diagnosis_margin": dx["margin"]}
        if dx["ambiguous"]:
            top = [(code, score) for code, score in dx["top"][:2]]
            update["fault_code"] = None
            return False, AMBIGUOUS.format(floor=fs.AMBIGUITY_FLOOR, top=top), update
        update["fault_code"] = dx["fault_code"]
        return True, f"{dx['fault_code']} (margin {dx['margin']:.2f})", update

    def part(self, state: Mapping[str, Any], run: int) -> StageResult:
        """Pick the part that fixes the fault on exactly this variant (never a substitute)."""
        code, variant = state.get("fault_code"), state.get("model_variant")
        if code is None or variant is None:
            return False, "no fault code or variant to choose a part for", {"part_no": None}
        part_no = fs.select_part(code, variant, self.data)
        if part_no is None:
            family = family_of(variant)
            fits = sorted({v for p in self.data.parts.values() if p["fixes"] == code
                           for v in p["fits"] if family_of(v) == family})  # fmt: skip
            fault = self.data.faults[code]
            detail = NO_PART.format(
                variant=variant, fault_code=code, name=fault["name"], family=family,
                fits=", ".join(fits) or "none",
            )  # fmt: skip
            return False, detail, {"part_no": None}
        return True, f"{part_no} ({self.data.parts[part_no]['name']})", {"part_no": part_no}

    def stock(self, state: Mapping[str, Any], run: int) -> StageResult:
        """Check stock and lead time for the part, and how it is sourced."""
        part_no = state.get("part_no")
        try:
            result = call_tool(
                self.tools.check_availability, {"part_no": part_no}, f"flow-stock-{run}"
            )
        except Exception as exc:  # a tool failure is data for the policy, not a crash
            return False, f"check_availability failed: {_one_line(exc)}", {}
        if not result.get("ok", False):
            return False, f"check_availability returned an error: {result.get('error')}", {}
        try:
            source = fs.sourcing(str(part_no), self.data)
        except KeyError as exc:
            return False, f"no sourcing for {part_no}: {exc}", {}
        detail = (
            f"{part_no}: {result.get('stock_qty')} in stock, "
            f"lead time {_days(result.get('lead_time_days'))}"
        )
        return True, detail, {"availability": result, "sourcing": source}

    def compose(self, state: Mapping[str, Any], run: int) -> StageResult:
        """Write the answer, citing the manual when it covers the fault (else say so)."""
        variant, code = state.get("model_variant"), state.get("fault_code")
        part_no = state.get("part_no")
        availability: Mapping[str, Any] = state.get("availability") or {}
        qty, lead = availability.get("stock_qty"), availability.get("lead_time_days")
        missing = [
            name
            for name, value in (("variant", variant), ("fault code", code),
                                ("part", part_no), ("stock quantity", qty),
                                ("lead time", lead), ("sourcing", state.get("sourcing")))
            if value is None
        ]  # fmt: skip
        if missing or variant is None or code is None or part_no is None:
            return False, f"cannot compose an answer without: {', '.join(missing)}", {}
        citation, note = self._cite(variant, code, run)
        fault = self.data.faults[code]["name"]
        part = self.data.parts[part_no]["name"] if part_no in self.data.parts else part_no
        answer = (
            f"{variant}: {code} ({fault}). Fit {part_no} ({part}). "
            f"Sourcing: {state.get('sourcing')}. Stock {qty}, lead time {_days(lead)}."
        )
        if citation is not None:
            answer += f" Reference: {citation['doc_title']} p.{citation['page']}."
        else:
            answer += f" {NO_CITATION}"
        decision = state.get("human_decision")
        if decision is not None and decision["action"] == "fault_code":
            answer += f" Fault code chosen by a human after escalation at {decision['stage']}."
        update = {"citation": citation, "answer": answer, "outcome": "answered", "reason": ""}
        return True, note, update

    def _cite(self, variant: str, code: str, run: int) -> tuple[fs.PassageHit | None, str]:
        """Find a manual passage about ``code``; a failure here only degrades the answer."""
        family = family_of(variant)
        fault = self.data.faults[code]["name"]
        args = {"query": f"{code} {fault} replacement procedure", "product_family": family,
                "k": MANUAL_K}  # fmt: skip
        try:
            result = call_tool(self.tools.search_manual, args, f"flow-compose-{run}")
        except Exception as exc:  # a missing citation degrades the answer, not the flow
            return None, f"answer without citation (search_manual failed: {_one_line(exc)})"
        if not result.get("ok", False):
            return None, f"answer without citation (search_manual error: {result.get('error')})"
        for passage in result.get("passages") or []:
            if code in (passage.get("fault_codes") or []):
                return passage, f"answer citing {passage['doc_title']} p.{passage['page']}"
        return None, f"answer without citation (the {family} manual has no passage on {code})"

    # -- the human ----------------------------------------------------------------------------

    def escalate(self, state: FlowState, config: RunnableConfig) -> dict[str, Any]:
        """Pause for a human (``interrupt``), then apply the decision the thread resumes with.

        A bad resume value does not fail the node: it pauses again with the error added to the
        payload, so the thread stays resumable.
        """
        log = state.get("log") or []
        stage = log[-1]["stage"] if log else "unknown"
        variant = state.get("model_variant")
        top = [[code, score] for code, score in state.get("top_faults") or []]
        codes = candidates(top, state.get("fault_code"))
        payload: dict[str, Any] = {
            "stage": stage,
            "policy": POLICY[Stage(stage)].value if stage in _STAGES else None,
            "reason": state.get("reason", ""),
            "request": state.get("request", ""),
            "model_variant": variant,
            "symptom": state.get("symptom"),
            "fault_code": state.get("fault_code"),
            "candidates": codes,
            "fault_names": {c: self.data.faults[c]["name"] for c in codes if c in self.data.faults},
            "top_faults": top,
            "diagnosis_margin": state.get("diagnosis_margin"),
            "part_no": state.get("part_no"),
            "thread_id": (config.get("configurable") or {}).get("thread_id"),
            "resume_with": RESUME_HELP,
        }
        start = time.perf_counter()
        value = interrupt(payload)
        while True:
            try:
                decision = parse_decision(value, stage=stage, model_variant=variant, data=self.data)
                break
            except ResumeError as exc:
                value = interrupt({**payload, "error": str(exc)})
        ms = round((time.perf_counter() - start) * 1000, 1)
        return self._decide(state, decision, ms)

    def _decide(self, state: FlowState, decision: HumanDecision, ms: float) -> dict[str, Any]:
        """Turn a human decision into a state update (and one log entry)."""
        stage = decision["stage"]
        if decision["action"] == "close":
            note = decision["note"] or "no note"
            entry: LogEntry = {"stage": "escalate", "ok": True,
                               "detail": f"closed by a human: {note}", "ms": ms}  # fmt: skip
            answer = f"Escalated at {stage}: {state.get('reason', '')}. Closed by a human: {note}."
            return {"human_decision": decision, "outcome": "escalated", "answer": answer,
                    "next_stage": None, "log": [entry],
                    "messages": [closing_message(answer)]}  # fmt: skip
        code = decision["fault_code"]
        entry = {"stage": "escalate", "ok": True,
                 "detail": f"human chose {code}; continuing at {RESUME_STAGE.value}",
                 "ms": ms}  # fmt: skip
        attempts = {k: v for k, v in (state.get("attempts") or {}).items() if k not in _LATER}
        return {
            "human_decision": decision,
            "fault_code": code,
            "part_no": None,
            "availability": None,
            "sourcing": None,
            "reason": "",
            "attempts": attempts,
            "next_stage": RESUME_STAGE.value,
            "log": [entry],
        }


__all__ = [
    "ABORTED",
    "AMBIGUOUS",
    "BLANK",
    "FlowNodes",
    "FlowTools",
    "MANUAL_K",
    "NO_CITATION",
    "NO_PART",
    "NO_SUFFIX",
    "NO_VARIANT",
    "StageResult",
    "TICKET_LIMIT",
    "Tool",
    "call_tool",
]
