"""Campsite: terrain cards and tent tokens (rules model apart from its solvers)."""
