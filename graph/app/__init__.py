"""The application layer: sessions on checkpointed threads, stores, locks, trace rendering."""
