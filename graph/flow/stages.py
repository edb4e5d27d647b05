"""The six stages of the flow, as plain functions over the state: parse ... compose.

Each stage reads the state and returns ``(ok, detail, update)``: whether it produced what the
next stage needs, one line on what happened (or why not), and its state update. A stage never
decides what comes next (``graph.flow.transitions`` does) and never times or logs itself (its node,
``graph.flow.stage_node``, does). A tool's exception is data, a failed run, unless it is
transient: then the stage raises ``TransientStageError`` so the node's ``RetryPolicy`` can run
it again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from corpora.field_service import FAMILY_RE, VARIANT_RE, FieldServiceData, family_of, load
from graph.flow.retry import TransientStageError, is_transient
from graph.flow.tools import FlowTools, call_tool
from graph.flow.transitions import Stage
from tools import field_service_decisions as decisions
from tools.bm25_tokens import tokenize
from tools.field_service_lookups import PassageHit

StageResult = tuple[bool, str, dict[str, Any]]
"""What a stage returns: whether it succeeded, one line on what happened, its state update."""
StageFunction = Callable[[Mapping[str, Any], int], StageResult]
"""A stage: ``(state, run) -> StageResult``; ``run`` counts the stage's runs (1 = first)."""

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
NO_REQUEST = (
    'no request: send {"request": "..."} or {"messages": [{"role": "user", "content": "..."}]}'
)


def _days(n: Any) -> str:
    """Return ``"1 day"`` / ``"3 days"``."""
    return f"{n} day" if n == 1 else f"{n} days"


def _one_line(exc: BaseException) -> str:
    """An exception as ``Type: message`` on one line."""
    return f"{type(exc).__name__}: {' '.join(str(exc).split())}"


def tool_failed(name: str, exc: Exception) -> StageResult:
    """A tool's exception as a failed run; raises ``TransientStageError`` when it is transient."""
    detail = f"{name} failed: {_one_line(exc)}"
    if is_transient(exc):
        raise TransientStageError(detail) from exc
    return False, detail, {}


class FlowStages:
    """The six stages, bound to one set of tools and the field-service data."""

    def __init__(self, tools: FlowTools | None = None, data: FieldServiceData | None = None):
        self.tools = tools or FlowTools()
        self._data = data
        self.functions: Mapping[Stage, StageFunction] = {
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
            return tool_failed("search_tickets", exc)
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
        dx = decisions.diagnose(state.get("symptom") or "", state.get("tickets") or [])
        update: dict[str, Any] = {"top_faults": dx["top"], "diagnosis_margin": dx["margin"]}
        if dx["ambiguous"]:
            top = [(code, score) for code, score in dx["top"][:2]]
            update["fault_code"] = None
            return False, AMBIGUOUS.format(floor=decisions.AMBIGUITY_FLOOR, top=top), update
        update["fault_code"] = dx["fault_code"]
        return True, f"{dx['fault_code']} (margin {dx['margin']:.2f})", update

    def part(self, state: Mapping[str, Any], run: int) -> StageResult:
        """Pick the part that fixes the fault on exactly this variant (never a substitute)."""
        code, variant = state.get("fault_code"), state.get("model_variant")
        if code is None or variant is None:
            return False, "no fault code or variant to choose a part for", {"part_no": None}
        part_no = decisions.select_part(code, variant, self.data)
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
            return tool_failed("check_availability", exc)
        if not result.get("ok", False):
            return False, f"check_availability returned an error: {result.get('error')}", {}
        try:
            source = decisions.sourcing(str(part_no), self.data)
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

    def _cite(self, variant: str, code: str, run: int) -> tuple[PassageHit | None, str]:
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


__all__ = [
    "AMBIGUOUS",
    "FlowStages",
    "MANUAL_K",
    "NO_CITATION",
    "NO_PART",
    "NO_SUFFIX",
    "NO_VARIANT",
    "StageFunction",
    "StageResult",
    "TICKET_LIMIT",
    "tool_failed",
]
