"""The application: LangGraph graphs, in layers that import only downwards.

``common`` < ``mcp_io`` < ``models`` < ``agent`` (the ReAct graph) < ``flow`` < ``router`` <
``app`` (sessions, stores, traces) < ``cli``; ``tests/test_architecture.py`` holds the order.
Importing any module builds nothing: graphs are made by factories.
"""
