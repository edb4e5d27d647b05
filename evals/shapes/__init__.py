"""Request shapes: what the stored traffic looks like, what a flow would serve, a draft flow.

`agent shapes` (``graph.cli.shapes``) reads every agent run in a checkpoint store, or on a
running LangGraph server, and answers seed 002's question for that traffic:

- `saved`: the checkpoints of a store (or a server's thread histories), one pass, reduced to
  what the reading needs;
- `runs`: the checkpoints assembled into agent runs (each turn of an agent thread, the agent
  side of a router thread): request, tool calls in order, how it stopped, model calls,
  citations, duration;
- `table`: shapes (tool names in order, repeats collapsed, ``finish`` left out) by count;
- `flow_share`: the router's own decision per request, the flow run offline on those it
  would send to the flow, agreement where both answered, and the saving;
- `patterns` and `propose`: a draft transition table for the largest shape no flow serves;
- `report` and `page`: the JSON, the terminal table and the HTML page.
"""
