"""The logger of model notices (a slow model server), light enough for the CLI to set up."""

LOGGER = "agent.model"
"""Notices about model calls are logged here; the CLI prints them on standard error."""
