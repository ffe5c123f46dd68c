"""Deluxe Camping: rules model (`rules`), securable-score CP-SAT (`maximise`), hints, puzzles."""
