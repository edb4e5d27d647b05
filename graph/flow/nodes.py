"""The flow's nodes: six stages, the escalation to a human, and the abort.

Every stage returns a state update with one ``log`` entry ``{stage, ok, detail, ms}``, its run
count in ``attempts`` and, when it fails, the ``reason``. A stage never decides where the
request goes next: the routers read the log and apply ``policy.next_step``.

Tools are injected (``FlowTools``), so tests can hand the flow a tool that times out. A tool
is a LangChain ``BaseTool`` (invoked with a tool call; its artifact is the result) or a plain
callable taking keyword arguments and returning the result dict.
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
from graph.flow.human import RESUME_HELP, ResumeError, candidates, parse_decision
from graph.flow.policy import POLICY, RESUME_STAGE, Stage
from graph.flow.state import FlowState, HumanDecision, LogEntry
from tools import field_service as fs
from tools.bm25 import tokenize

Tool = BaseTool | Callable[..., Any]
"""A LangChain tool or a plain callable returning the tool's structured result."""

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
_STAGES = frozenset(s.value for s in Stage)


@dataclass(frozen=True)
class FlowTools:
    """The tools the flow calls; defaults are the real field-service tools."""

    search_tickets: Tool = field(default_factory=lambda: fs.search_tickets)
    """``search_tickets(model_variant, symptom, limit)`` -> ``TicketSearch``."""
    check_availability: Tool = field(default_factory=lambda: fs.check_availability)
    """``check_availability(part_no)`` -> ``Availability``."""
    search_manual: Tool = field(default_factory=lambda: fs.search_manual)
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


def _one_line(exc: BaseException) -> str:
    """An exception as ``Type: message`` on one line."""
    return f"{type(exc).__name__}: {' '.join(str(exc).split())}"


class FlowNodes:
    """The node functions, bound to one set of tools (``builder.add_node(nodes.parse)``)."""

    def __init__(self, tools: FlowTools | None = None, data: FieldServiceData | None = None):
        self.tools = tools or FlowTools()
        self._data = data

    @property
    def data(self) -> FieldServiceData:
        """The field-service data, loaded on first use (not at import or build time)."""
        if self._data is None:
            self._data = load()
        return self._data

    # -- bookkeeping --------------------------------------------------------------------------

    def _run(
        self,
        stage: Stage,
        state: FlowState,
        step: Callable[[int], tuple[bool, str, dict[str, Any]]],
    ) -> dict[str, Any]:
        """Run one stage: time it, count the run, log ``{stage, ok, detail, ms}``, set reason."""
        attempts = dict(state.get("attempts") or {})
        run = attempts.get(stage.value, 0) + 1
        attempts[stage.value] = run
        start = time.perf_counter()
        ok, detail, update = step(run)
        ms = round((time.perf_counter() - start) * 1000, 1)
        if run > 1:
            detail = f"retry {run - 1}: {detail}"
        entry: LogEntry = {"stage": stage.value, "ok": ok, "detail": detail, "ms": ms}
        update = {**update, "attempts": attempts, "log": [entry]}
        if not ok:
            update["reason"] = detail
        return update

    # -- the six stages -----------------------------------------------------------------------

    def parse(self, state: FlowState) -> dict[str, Any]:
        """Find the model variant (``AC-250-S``) and the symptom in the request."""

        def step(run: int) -> tuple[bool, str, dict[str, Any]]:
            request = state["request"]
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

        return self._run(Stage.PARSE, state, step)

    def history(self, state: FlowState) -> dict[str, Any]:
        """Search the ticket history of the variant for the symptom."""

        def step(run: int) -> tuple[bool, str, dict[str, Any]]:
            variant = state.get("model_variant")
            args = {
                "model_variant": variant,
                "symptom": state.get("symptom"),
                "limit": TICKET_LIMIT,
            }
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
            detail = f"{len(tickets)} tickets for {variant} ({', '.join(codes)})"
            return True, detail, {"tickets": tickets}

        return self._run(Stage.HISTORY, state, step)

    def diagnose(self, state: FlowState) -> dict[str, Any]:
        """Score the fault codes the tickets point to; refuse to guess between near-ties."""

        def step(run: int) -> tuple[bool, str, dict[str, Any]]:
            dx = fs.diagnose(state.get("symptom") or "", state.get("tickets") or [])
            update: dict[str, Any] = {"top_faults": dx["top"], "diagnosis_margin": dx["margin"]}
            if dx["ambiguous"]:
                top = [(code, score) for code, score in dx["top"][:2]]
                update["fault_code"] = None
                return False, AMBIGUOUS.format(floor=fs.AMBIGUITY_FLOOR, top=top), update
            update["fault_code"] = dx["fault_code"]
            return True, f"{dx['fault_code']} (margin {dx['margin']:.2f})", update

        return self._run(Stage.DIAGNOSE, state, step)

    def part(self, state: FlowState) -> dict[str, Any]:
        """Pick the part that fixes the fault on exactly this variant (never a substitute)."""

        def step(run: int) -> tuple[bool, str, dict[str, Any]]:
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

        return self._run(Stage.PART, state, step)

    def stock(self, state: FlowState) -> dict[str, Any]:
        """Check stock and lead time for the part, and how it is sourced."""

        def step(run: int) -> tuple[bool, str, dict[str, Any]]:
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

        return self._run(Stage.STOCK, state, step)

    def compose(self, state: FlowState) -> dict[str, Any]:
        """Write the answer, citing the manual when it covers the fault (else say so)."""

        def step(run: int) -> tuple[bool, str, dict[str, Any]]:
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

        return self._run(Stage.COMPOSE, state, step)

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

    # -- leaving the happy path ---------------------------------------------------------------

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
                    "log": [entry]}  # fmt: skip
        code = decision["fault_code"]
        entry = {"stage": "escalate", "ok": True,
                 "detail": f"human chose {code}; continuing at {RESUME_STAGE.value}",
                 "ms": ms}  # fmt: skip
        later = {s.value for s in Stage if list(Stage).index(s) >= list(Stage).index(RESUME_STAGE)}
        attempts = {k: v for k, v in (state.get("attempts") or {}).items() if k not in later}
        return {
            "human_decision": decision,
            "fault_code": code,
            "part_no": None,
            "availability": None,
            "sourcing": None,
            "reason": "",
            "attempts": attempts,
            "log": [entry],
        }

    def abort(self, state: FlowState) -> dict[str, Any]:
        """End a request that cannot be served, saying why."""
        reason = state.get("reason") or "the request cannot be served"
        return {"outcome": "aborted", "answer": f"Cannot serve this request: {reason}."}


__all__ = [
    "AMBIGUOUS",
    "FlowNodes",
    "FlowTools",
    "MANUAL_K",
    "NO_CITATION",
    "NO_PART",
    "NO_SUFFIX",
    "NO_VARIANT",
    "TICKET_LIMIT",
    "Tool",
    "call_tool",
]
