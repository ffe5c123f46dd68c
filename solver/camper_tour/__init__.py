"""Camper Tour: rules model (`rules`), exact solo solver (`solo`), hint search (`hint`), puzzles (`puzzle`).

Rule readings are documented in docs/rules/camper-tour.md.
"""
