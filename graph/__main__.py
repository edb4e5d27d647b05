"""`python -m graph` runs the `agent` command line."""

from graph.cli.main import main

main()
