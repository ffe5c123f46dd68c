"""A toy game, small enough to read at a glance, that proves what adding a game takes (docs/architecture.md)."""
