"""The retrievers a corpus can be searched with, by name (light: the CLI's options use it)."""

RETRIEVERS = ("bm25", "dense", "hybrid")
"""bm25 (`tools.bm25`), dense (`tools.dense`), hybrid (`tools.hybrid`: both, fused)."""
