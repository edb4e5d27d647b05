"""The ReAct agent graph: state, context, prompts, nodes, edges, budget (builds nothing)."""
