"""The ReAct agent graph: its state, settings, limits, nodes and factory (builds nothing).

See the modules: `reason_node`, `act` and `finish_node` are the nodes, `budget` every limit.
"""
