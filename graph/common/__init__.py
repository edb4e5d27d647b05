"""What every graph shares: environment numbers, chat-panel messages, checked compiled graphs."""
