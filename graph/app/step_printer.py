"""Printing a run's steps as they complete, with a streaming model's Thought written live."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.messages import AIMessageChunk, AnyMessage, ToolMessage

from graph.agent.messages import asked_in, message_text
from graph.agent.question import printable
from graph.agent.transcript import current_turn
from graph.app.render_trace import INDENT, model_steps, render_step

OnLines = Callable[[list[str]], None]
"""Prints whole lines (a finished step)."""
OnToken = Callable[[str], None]
"""Writes text as it comes, adding no newline (a model's content chunks, live)."""
REASON_NODE = "reason"
"""The node whose streamed tokens are a Thought."""


class StepPrinter:
    """Hands each completed step of the current turn to `on_lines`, once."""

    def __init__(self, on_lines: OnLines | None, already: int, question: str | None = None) -> None:
        self.on_lines = on_lines
        self.printed = already
        self.question = printable(question) if question is not None else None
        self.live: OnToken | None = None  # the writer of an open streamed Thought line
        self.streamed: set[int] = set()  # steps whose header and Thought were streamed

    def token(self, message: Any, metadata: dict[str, Any], write: OnToken | None) -> None:
        """Write a streaming model's content chunk live, opening the step's Thought line."""
        if write is None or self.on_lines is None or metadata.get("langgraph_node") != REASON_NODE:
            return
        text = message_text(message) if isinstance(message, AIMessageChunk) else ""
        if not text:
            return
        step = self.printed + 1
        if step not in self.streamed:
            self.end_live_line()
            self.on_lines([f"  Step {step}"])
            write(f"{INDENT}Thought: ")
            self.streamed.add(step)
        self.live = write
        write(text.replace("\n", " "))  # a Thought stays on its line

    def end_live_line(self) -> None:
        """Close an open streamed Thought line."""
        if self.live is not None:
            self.live("\n")
            self.live = None

    def show(self, messages: Sequence[AnyMessage], final: bool = False) -> None:
        """Print the steps whose tool calls all have results (or all steps, when `final`)."""
        if self.on_lines is None:
            return
        turn = current_turn(messages)
        if self.question is not None and asked_in(turn) != self.question:
            return  # the stored state from before this question reached the transcript
        results = [m for m in turn if isinstance(m, ToolMessage)]
        answered = {m.tool_call_id for m in results}
        steps = model_steps(turn)
        for number, message in enumerate(steps, start=1):
            if number <= self.printed:
                continue
            complete = all(str(call["id"]) in answered for call in message.tool_calls)
            if not (complete or final):
                break
            lines = render_step(number, message, results)
            if number in self.streamed:  # its header and Thought are on the screen already
                self.end_live_line()
                lines = lines[2:]
            self.on_lines(lines)
            self.printed = number
