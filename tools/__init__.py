"""Developer tools (code generation)."""
