"""The runtime: the conductor of a turn (conversations, turns, plans, executors)."""
