"""The escalation node: pause for a human (``interrupt``), then apply the decision.

The node shows a human what the failing stage knew (its reason, the candidate fault codes and
their names) and waits. Resumed with a fault code, it sends the request back to the part stage
(``policy.RESUME_STAGE``) with that code and the later stages' run counts cleared; resumed with
a close, it ends the request. Resuming re-runs only this node, never the stages before it.

A value it cannot use (``123``, ``[1, 2]``, ``{"action": "rm -rf"}``, an unknown fault code,
100 KB of text) is refused: the node records why (``resume_error``) and says so in the run's
messages, then runs again and pauses with the reason in the payload's ``error``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.types import interrupt

from corpora.field_service import FieldServiceData
from graph.common.chat import closing_message
from graph.flow.human import RESUME_HELP, ResumeError, candidates, parse_decision
from graph.flow.state import FlowState, HumanDecision, LogEntry
from graph.flow.transitions import POLICY, RESUME_STAGE, Stage

REFUSED = "Resume refused: {error}"
"""The run's message for a resume value the flow cannot use."""
_STAGES = frozenset(s.value for s in Stage)
_LATER = frozenset(
    s.value for s in Stage if list(Stage).index(s) >= list(Stage).index(RESUME_STAGE)
)
"""The stages a human's fault code sends the request back through."""


class EscalateNode:
    """The ``escalate`` node, reading the field-service data through ``data`` on first use."""

    def __init__(self, data: Callable[[], FieldServiceData]) -> None:
        self._load = data
        self.__name__ = "escalate"

    @property
    def data(self) -> FieldServiceData:
        """The field-service data (fault names, families) the decision is checked against."""
        return self._load()

    def __call__(self, state: FlowState, config: RunnableConfig) -> dict[str, Any]:
        """Pause for a human (``interrupt``), then apply the decision the thread resumes with.

        A bad resume value does not fail the node: it is refused (see the module docstring),
        so the thread stays resumable.
        """
        log = state.get("log") or []
        stage = log[-1]["stage"] if log else "unknown"
        refused = state.get("resume_error")
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
            **({"error": refused} if refused else {}),
        }
        start = time.perf_counter()
        value = interrupt(payload)
        try:
            decision = parse_decision(value, stage=stage, model_variant=variant, data=self.data)
        except ResumeError as exc:
            refusal = REFUSED.format(error=exc)
            return {"human_decision": None, "resume_error": str(exc),
                    "messages": [closing_message(refusal)]}  # fmt: skip
        ms = round((time.perf_counter() - start) * 1000, 1)
        return {**self._decide(state, decision, ms), "resume_error": None}

    def _decide(self, state: FlowState, decision: HumanDecision, ms: float) -> dict[str, Any]:
        """Turn a human decision into a state update (and one log entry)."""
        stage = decision["stage"]
        if decision["action"] == "close":
            note = decision["note"] or "no note"
            entry: LogEntry = {"stage": "escalate", "ok": True,
                               "detail": f"closed by a human: {note}", "ms": ms}  # fmt: skip
            answer = f"Escalated at {stage}: {state.get('reason', '')}. Closed by a human: {note}."
            return {"human_decision": decision, "outcome": "escalated", "answer": answer,
                    "log": [entry], "messages": [closing_message(answer)]}  # fmt: skip
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
            "log": [entry],
        }


__all__ = ["EscalateNode"]
