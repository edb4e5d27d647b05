"""Write a mixed checkpoint store of agent traffic, for `agent shapes` to read and measure.

The runs, in proportions given by ``MIX`` (or ``--mix``), shuffled together:

- ``field_service``: the field-service requests (``evals/datasets/field_service_requests.jsonl``,
  off-topic ones left out) answered by the ReAct agent with the field-service tools and the
  offline policy, in process (or, with ``--mcp SPEC``, the tools an MCP server serves, such as
  ``agent mcp serve``);
- ``policy``, ``products``: questions over the built-in corpora; ``arithmetic``: sums for the
  calculator (every other one as the second turn of a policy thread); the agent with the
  default tools and the offline policy;
- ``returns``: the made-up returns desk (``returns_desk``): look up the order, check the
  return window, issue a label; driven by the scripted model, with failures (an unknown order
  ends the run at the lookup, a flaky window check fails then succeeds on retry, a refused
  label ends the run);
- ``router``: router threads whose requests name no model variant, so the router's agent
  answers them (the agent side of a router thread is an agent run).

Beside them, ``--router-flow N`` router threads that go to the flow (not agent runs) and
``--eval N`` agent threads named like `agent eval`'s (``eval-...``), which `agent shapes`
leaves out unless ``--all``. Each run is recorded as it was sent (`Sent`), its tool calls read
from what the invocation returned, so tests can check `agent shapes` against it.

Usage: python benchmarks/traffic.py --db PATH|URL [--runs 200] [--seed 0] [--manifest FILE]
       [--mcp "stdio:.venv/bin/agent mcp serve"]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from langchain_core.messages import AIMessage, AnyMessage  # noqa: E402
from langgraph.checkpoint.base import BaseCheckpointSaver  # noqa: E402
from returns_desk import ReturnsDesk, ScriptBook, desk_script, make_orders, request_for  # noqa: E402

MIX: dict[str, float] = {
    "returns": 0.30,
    "field_service": 0.30,
    "policy": 0.15,
    "products": 0.10,
    "arithmetic": 0.10,
    "router": 0.05,
}
"""The default share of each domain in the runs."""
RETURN_FATES = {"unknown": 0.10, "flaky": 0.15, "refused": 0.10}
"""Shares of the returns desk's orders that fail (the rest go through)."""
POLICY_QUESTIONS = (
    "How many days do I have to return an item?",
    "How long does standard shipping take?",
    "What does error E-4042 mean?",
    "How do I start a return?",
    "What warranty do electronics have?",
)
PRODUCT_QUESTIONS = (
    "Who acquired Acme Corp?",
    "How long does the battery of the wireless earbuds last?",
    "What warranty do Globex earbuds carry?",
    "Who makes the wireless earbuds now?",
)
MODEL = "policy"


@dataclass(frozen=True)
class Sent:
    """One agent run as it was sent, and what its invocation returned."""

    thread_id: str
    turn: int
    domain: str
    request: str
    tools: list[str]
    """The tools called, in order (``finish`` left out), from the returned transcript."""
    stopped: str | None
    answer: str | None
    model_calls: int
    eval: bool = False


def counts_for(runs: int, mix: Mapping[str, float]) -> dict[str, int]:
    """Runs per domain: the shares of `runs`, rounded, the remainder to the largest domain."""
    counts = {domain: int(runs * share) for domain, share in mix.items()}
    largest = max(mix, key=lambda d: mix[d])
    counts[largest] += runs - sum(counts.values())
    return counts


def turn_tools(messages: Sequence[AnyMessage]) -> list[str]:
    """The tools the last turn called, in order, ``finish`` left out."""
    from graph.agent.transcript import current_turn
    from tools.finish import FINISH_TOOL

    return [
        str(call["name"])
        for message in current_turn(messages)
        if isinstance(message, AIMessage)
        for call in message.tool_calls
        if call["name"] != FINISH_TOOL
    ]


class Traffic:
    """The agents, the router and the desk on one checkpointer."""

    def __init__(
        self, saver: BaseCheckpointSaver, orders: int, seed: int, mcp: str | None = None
    ) -> None:
        from graph.agent.graph import build_agent
        from graph.models import load_model
        from graph.router import build_router
        from tools import default_tools
        from tools.field_service import field_service_tools
        from tools.finish import finish

        policy = load_model(MODEL)
        self.mcp: Any = None
        field_tools = field_service_tools()
        if mcp is not None:
            from graph.mcp_io.tools import connect_tools

            self.mcp, remote = connect_tools([mcp], taken={finish.name})
            wanted = {tool.name for tool in field_tools}
            field_tools = [  # a server's searches may be named after it: NAME_search_...
                tool for tool in remote if any(tool.name.endswith(name) for name in wanted)
            ]
            if len(field_tools) != len(wanted):
                self.close()
                raise ValueError(f"{mcp} does not serve the field-service tools {sorted(wanted)}")
        self.orders = make_orders(orders, RETURN_FATES, seed)
        desk = ReturnsDesk(self.orders)
        self.desk_requests = [request_for(o, n) for n, o in enumerate(self.orders)]
        scripts = {r: desk_script(o) for r, o in zip(self.desk_requests, self.orders, strict=True)}
        self.graphs = {
            "default": build_agent(model=policy, tools=default_tools(), checkpointer=saver),
            "field_service": build_agent(
                model=policy, tools=[*field_tools, finish], checkpointer=saver
            ),
            "returns": build_agent(
                model=ScriptBook(scripts=scripts), tools=[*desk.tools(), finish], checkpointer=saver
            ),
        }
        self.router = build_router(saver, model=policy)

    def close(self) -> None:
        """Close the MCP sessions, if any."""
        if self.mcp is not None:
            self.mcp.close()
            self.mcp = None

    def ask(self, graph: str, request: str, thread_id: str, domain: str, turn: int) -> Sent:
        """One agent turn on a thread, its kind and model recorded as `agent ask` records them."""
        from graph.agent.budget import DEFAULT_MAX_STEPS, run_config
        from graph.agent.context import Context
        from graph.app.thread_settings import AGENT, ThreadSettings, with_settings

        config = with_settings(
            run_config(DEFAULT_MAX_STEPS, thread_id),
            ThreadSettings(graph=AGENT, model=MODEL, max_steps=DEFAULT_MAX_STEPS),
        )
        result = self.graphs[graph].invoke(
            {"question": request}, config, context=Context(max_steps=DEFAULT_MAX_STEPS)
        )
        return Sent(
            thread_id, turn, domain, request, turn_tools(result.get("messages") or []),
            result.get("stopped"), result.get("answer"), int(result.get("steps") or 0),
            eval=thread_id.startswith("eval-"),
        )  # fmt: skip

    def route(self, request: str, thread_id: str) -> Sent | None:
        """One router thread; the agent run it made (None when the flow took the request)."""
        from graph.agent.context import Context
        from graph.app.router_runs import with_kind
        from graph.router import AGENT_NODE, router_config

        context = Context(model=MODEL)
        config = with_kind(router_config(thread_id), context)
        agent: dict[str, Any] | None = None
        for namespace, values in self.router.stream(
            {"request": request}, config, context=context, stream_mode="values", subgraphs=True
        ):
            if namespace and str(namespace[0]).startswith(AGENT_NODE) and isinstance(values, dict):
                agent = values
        if agent is None:
            return None
        return Sent(
            thread_id, 1, "router", request, turn_tools(agent.get("messages") or []),
            agent.get("stopped"), agent.get("answer"), int(agent.get("steps") or 0),
        )  # fmt: skip


def plan(counts: Mapping[str, int], seed: int) -> list[str]:
    """The domains of the runs in the order they are sent (shuffled with `seed`)."""
    order = [domain for domain, count in counts.items() for _ in range(count)]
    random.Random(seed).shuffle(order)
    return order


def field_requests() -> list[str]:
    """The field-service request set, off-topic questions left out."""
    from evals.flow_compare.request_set import load_requests

    return [r.request for r in load_requests() if r.kind != "off_topic"]


def write_traffic(
    saver: BaseCheckpointSaver,
    counts: Mapping[str, int],
    *,
    seed: int = 0,
    evals: int = 0,
    router_flow: int = 0,
    mcp: str | None = None,
) -> list[Sent]:
    """Send the runs of `counts` (plus eval threads and router threads for the flow)."""
    traffic = Traffic(saver, max(counts.get("returns", 0), 1), seed, mcp)
    try:
        return send(traffic, counts, seed, evals, router_flow)
    finally:
        traffic.close()


def send(
    traffic: Traffic, counts: Mapping[str, int], seed: int, evals: int, router_flow: int
) -> list[Sent]:
    """Send the planned runs through `traffic`, in order; what each returned."""
    sent: list[Sent] = []
    field = field_requests()
    cursor = dict.fromkeys([*counts, "eval"], 0)
    open_policy: list[str] = []
    for number, domain in enumerate(plan(counts, seed)):
        index = cursor[domain]
        cursor[domain] += 1
        thread = f"tr-{domain}-{index}"
        if domain == "returns":
            request = traffic.desk_requests[index]
            sent.append(traffic.ask("returns", request, thread, domain, 1))
        elif domain == "field_service":
            sent.append(traffic.ask("field_service", field[index % len(field)], thread, domain, 1))
        elif domain in ("policy", "products"):
            questions = POLICY_QUESTIONS if domain == "policy" else PRODUCT_QUESTIONS
            sent.append(
                traffic.ask("default", questions[index % len(questions)], thread, domain, 1)
            )
            if domain == "policy":
                open_policy.append(thread)
        elif domain == "arithmetic":
            request = f"What is {12 + index % 40} * {3 + number % 9}?"
            if index % 2 and open_policy:
                host = open_policy.pop(0)
                sent.append(traffic.ask("default", request, host, domain, 2))
            else:
                sent.append(traffic.ask("default", request, thread, domain, 1))
        elif domain == "router":
            question = (POLICY_QUESTIONS + PRODUCT_QUESTIONS)[index % 9]
            routed = traffic.route(question, thread)
            if routed is None:
                raise RuntimeError(f"the router sent {question!r} to the flow")
            sent.append(routed)
    for index in range(evals):
        request = POLICY_QUESTIONS[index % len(POLICY_QUESTIONS)]
        sent.append(traffic.ask("default", request, f"eval-traffic-{index}", "eval", 1))
    variants = [r for r in field if _names_variant(r)]
    for index in range(router_flow):
        if traffic.route(variants[index % len(variants)], f"tr-router-flow-{index}") is not None:
            raise RuntimeError("a request naming a variant reached the router's agent")
    return sent


def _names_variant(request: str) -> bool:
    """Whether the request names a model variant (the router's flow shape)."""
    from graph.router import choose_route

    return choose_route(request)[0] == "flow"


def iter_manifest(sent: Sequence[Sent]) -> Iterator[str]:
    """The runs as JSON lines."""
    for run in sent:
        yield json.dumps(asdict(run), ensure_ascii=False)


def main() -> None:
    """Write the store and, optionally, the manifest of what was sent."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="SQLite file or postgresql:// URL")
    parser.add_argument("--runs", type=int, default=200, help="agent runs to send")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval", type=int, default=0, help="eval threads besides the runs")
    parser.add_argument("--router-flow", type=int, default=0, help="router threads for the flow")
    parser.add_argument("--mix", default=None, help='JSON shares, e.g. {"returns": 0.5, ...}')
    parser.add_argument("--manifest", default=None, help="write the runs sent as JSON lines")
    parser.add_argument("--mcp", default=None, help="the field-service tools from this MCP server")
    args = parser.parse_args()
    from graph.app.persistence import open_checkpointer

    mix = json.loads(args.mix) if args.mix else MIX
    counts = counts_for(args.runs, mix)
    with open_checkpointer(args.db) as saver:
        sent = write_traffic(
            saver,
            counts,
            seed=args.seed,
            evals=args.eval,
            router_flow=args.router_flow,
            mcp=args.mcp,
        )
    if args.manifest:
        Path(args.manifest).write_text("\n".join(iter_manifest(sent)) + "\n", encoding="utf-8")
    print(
        f"sent {len(sent)} runs to {args.db}: " + ", ".join(f"{k} {v}" for k, v in counts.items())
    )


if __name__ == "__main__":
    main()
