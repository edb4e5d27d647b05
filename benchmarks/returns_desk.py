"""A made-up second domain for the traffic generator: a returns desk with a shape of its own.

Three tools, always called in this order: look up the order, check the return window, issue a
return label. The orders are made up here (``RD-`` and five digits; items ``SKU-`` and four
digits); nothing in the project's product code knows them.

Failures, decided per order when the orders are made:
- *unknown*: ``lookup_order`` finds no such order; the run ends there;
- *flaky*: ``check_return_window`` times out (raises) on its first call for the order, and
  answers when it is called again;
- *refused*: ``issue_label`` is refused by the carrier; the run ends there.

The agent is driven by `ScriptBook`: the scripted model (``graph.models.scripted``) with one
script per request, written by `desk_script` from the order's data as a careful clerk would
work: look up, check (once more after a timeout), issue, answer; a failed lookup or a refused
label ends the run with an answer saying so. A scripted model rather than the offline policy
makes every run's path, including the retry, exactly what the traffic says it is.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import BaseTool, StructuredTool, ToolException

from graph.models.base import InProcessChatModel
from graph.models.scripted import Turn, turn_to_message

RETURN_DAYS = 30
TODAY = date(2026, 3, 1)
REQUEST_TEMPLATES = (
    "Order {order}: I'd like to return {sku}, it arrived damaged.",
    "Please start a return for {sku} from order {order}.",
    "Return label needed for order {order} (item {sku}), wrong size.",
    "Hi, can I send back {sku}? It was in order {order} and does not fit.",
)
"""How customers ask (the order and item in different places)."""


@dataclass(frozen=True)
class Order:
    """One made-up order and how the desk's tools will treat it."""

    order: str
    sku: str
    delivered_on: str
    fate: str
    """``ok``, ``unknown``, ``flaky`` or ``refused``."""

    @property
    def authorization(self) -> str:
        """The return authorisation the window check gives (derived from the order number)."""
        return "RA-" + self.order[-5:][::-1]

    @property
    def label(self) -> str:
        """The label id a successful ``issue_label`` gives."""
        return "LBL-" + self.order[-5:]


def make_orders(count: int, fates: Mapping[str, float], seed: int = 0) -> list[Order]:
    """`count` orders with distinct numbers; each fate's share of them as given (rest ``ok``)."""
    rng = random.Random(seed)
    numbers = rng.sample(range(10_000, 99_999), count)
    chosen: list[str] = []
    for fate, share in fates.items():
        chosen += [fate] * round(share * count)
    chosen = (chosen + ["ok"] * count)[:count]
    rng.shuffle(chosen)
    return [
        Order(
            order=f"RD-{number}",
            sku=f"SKU-{rng.randrange(1000, 9999)}",
            delivered_on=(TODAY - timedelta(days=rng.randrange(1, 60))).isoformat(),
            fate=fate,
        )
        for number, fate in zip(numbers, chosen, strict=True)
    ]


def request_for(order: Order, number: int) -> str:
    """The customer's request for an order (the templates taken in turn)."""
    template = REQUEST_TEMPLATES[number % len(REQUEST_TEMPLATES)]
    return template.format(order=order.order, sku=order.sku)


class ReturnsDesk:
    """The desk's three tools over a set of orders (the flaky check remembers its first calls)."""

    def __init__(self, orders: Sequence[Order]) -> None:
        self.orders = {o.order: o for o in orders if o.fate != "unknown"}
        self.timed_out: set[str] = set()

    def lookup_order(self, order_id: str) -> tuple[str, dict[str, Any]]:
        """Find an order by its number, e.g. RD-12345: the item and when it was delivered."""
        order = self.orders.get(order_id)
        if order is None:
            return f"error: no order {order_id}", {"ok": False, "error": f"no order {order_id}"}
        found = {"ok": True, "order_id": order.order, "sku": order.sku,
                 "delivered_on": order.delivered_on}  # fmt: skip
        return f"{order.order}: {order.sku} delivered {order.delivered_on}", found

    def check_return_window(self, order_id: str, delivered_on: str) -> tuple[str, dict[str, Any]]:
        """Whether an order delivered on a date (YYYY-MM-DD) can still be returned."""
        order = self.orders.get(order_id)
        if order is None:
            return f"error: no order {order_id}", {"ok": False, "error": f"no order {order_id}"}
        if order.fate == "flaky" and order_id not in self.timed_out:
            self.timed_out.add(order_id)
            raise ToolException("the returns service timed out")
        days = (TODAY - date.fromisoformat(delivered_on)).days
        within = days <= RETURN_DAYS
        found = {"ok": True, "order_id": order_id, "within_window": within,
                 "authorization": order.authorization}  # fmt: skip
        return f"{order_id}: {days} days since delivery; authorization {order.authorization}", found

    def issue_label(
        self, order_id: str, sku: str, authorization: str
    ) -> tuple[str, dict[str, Any]]:
        """Issue a prepaid return label for one item of an order under an authorization."""
        order = self.orders.get(order_id)
        if order is None or order.fate == "refused":
            error = f"the carrier refused a label for {order_id}"
            return f"error: {error}", {"ok": False, "error": error}
        found = {"ok": True, "order_id": order_id, "sku": sku, "label_id": order.label,
                 "authorization": authorization}  # fmt: skip
        return f"label {order.label} for {sku}", found

    def tools(self) -> list[BaseTool]:
        """The three tools, in the order a clerk uses them."""
        return [
            StructuredTool.from_function(
                func=method,
                name=method.__name__,
                description=method.__doc__ or "",
                response_format="content_and_artifact",
                handle_tool_error=False,
            )
            for method in (self.lookup_order, self.check_return_window, self.issue_label)
        ]


def desk_script(order: Order) -> list[Turn]:
    """The model's turns for one order's request (see the module docstring)."""
    turns: list[Turn] = [
        {"thought": "Look the order up.", "tool": "lookup_order", "args": {"order_id": order.order}}
    ]
    if order.fate == "unknown":
        answer = f"I cannot find order {order.order}; please check the number."
        return [*turns, {"tool": "finish", "args": {"answer": answer, "citations": []}}]
    check = {"order_id": order.order, "delivered_on": order.delivered_on}
    turns.append({"thought": "Check the window.", "tool": "check_return_window", "args": check})
    if order.fate == "flaky":
        turns.append({"thought": "It timed out; once more.", "tool": "check_return_window",
                      "args": check})  # fmt: skip
    label = {"order_id": order.order, "sku": order.sku, "authorization": order.authorization}
    turns.append({"thought": "Issue the label.", "tool": "issue_label", "args": label})
    if order.fate == "refused":
        answer = f"The carrier refused a label for {order.order}; a colleague will follow up."
    else:
        answer = (
            f"Label {order.label} issued for {order.sku} (authorization {order.authorization})."
        )
    return [*turns, {"tool": "finish", "args": {"answer": answer, "citations": []}}]


class ScriptBook(InProcessChatModel):
    """The scripted model with one script per request: the turn is chosen from the transcript.

    The request is the last human message; the turn, the model calls already made since it.
    """

    scripts: dict[str, list[Any]]

    @property
    def _llm_type(self) -> str:
        """The model family name LangChain records in traces."""
        return "scripted"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        """Play the request's script at the position the transcript has reached."""
        calls = 0
        request = ""
        for message in reversed(messages):
            if isinstance(message, HumanMessage):
                request = str(message.content)
                break
            calls += isinstance(message, AIMessage)
        turns = self.scripts.get(request)
        if turns is None or calls >= len(turns):
            raise ValueError(f"no scripted turn {calls + 1} for request {request[:60]!r}")
        message = turn_to_message(turns[calls], calls)
        return ChatResult(generations=[ChatGeneration(message=message)])
