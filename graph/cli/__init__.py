"""The `agent` command line: the one layer that imports every other."""
