"""Every value of every game's rules model is immutable: a position is shared between search branches and used as
a memo key (transposition tables, the hint caches), so a value one branch could change in place, or one that could
not be hashed, would corrupt the other branches' answers. Found by the mutation run: a `frozen=True` turned off
was noticed by no rules test."""

from __future__ import annotations

import dataclasses
import importlib
import inspect

import pytest

GAMES = ("happy_campers", "deluxe_camping", "campsite", "camper_tour", "adventure_tours")


@pytest.mark.parametrize("game", GAMES)
def test_every_rules_dataclass_is_frozen(game: str) -> None:
    module = importlib.import_module(f"campsolver.solver.{game}.rules")
    own = [
        cls
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if dataclasses.is_dataclass(cls) and cls.__module__ == module.__name__
    ]
    assert own, f"no dataclass in {module.__name__}"
    assert [cls.__name__ for cls in own if not cls.__dataclass_params__.frozen] == []  # type: ignore[attr-defined]
    assert all(cls.__hash__ is not None for cls in own)
