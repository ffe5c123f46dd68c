"""Per-game mappings between the protobuf messages and the solvers (handlers, examples, warm-up)."""
