"""The explicit field-service flow (seed 002): a state machine with a failure policy."""
