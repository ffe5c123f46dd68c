"""Shared core: game-state protocol, expectimax engine, CP-SAT helpers, grid geometry, budgets, seeding.

Everything here is game-agnostic; a game package depends on the core, never the reverse.
"""
