"""Flow, agent and router over the field-service request set: outcomes, agreement, speed.

`compare.compare(requests, ...)` runs each system on every request, on a new thread of its own
checkpointer (one kind for all: in memory or SQLite files), and returns one `results.Summary`
per system: answered, escalated, aborted, answers that agree with the expected ones, mean
steps, requests per second, p50/p95 latency and CPU time per request.

- `request_set`: the requests, their kinds and what should come of them (`load_requests`,
  `spread`);
- `systems`: the flow, the agent and the router, each as a runner on a checkpointer;
- `agreement`: whether a result agrees with the expected outcome;
- `results`: a record per run, a summary row per system, agreement by kind;
- `compare`: the warm-up and the interleaved rounds;
- `tables`: the rich and Markdown tables.
"""
