"""How a search is set up: how many passages it returns (`k`) and which retriever ranks them.

The lowest layer that uses them (every index's `search`, every search tool) owns them; the
agent's `Context`, the CLI's `--k` and `--retriever` and the MCP server read them from here.
Importing this module imports nothing else, so the CLI can build its options from it.
"""

from __future__ import annotations

DEFAULT_K = 3
"""Passages each search returns when nothing names a k."""
MIN_K = 1
"""The fewest passages a search may return."""
MAX_K = 50
"""The most passages a search may return."""

RETRIEVERS = ("bm25", "dense", "hybrid")
"""The retrievers a corpus can be searched with (`tools.retrievers.rank`)."""
DEFAULT_RETRIEVER = "bm25"
"""The retriever when neither the run nor ``$AGENT_RETRIEVER`` names one."""
