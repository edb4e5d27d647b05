"""`python -m graph` runs the `agent` command line."""

from graph.cli import main

main()
