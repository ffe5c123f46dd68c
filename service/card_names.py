"""One display name per card, for every surface: proto enum number -> the name the game's solver uses.

The names live beside each game's rules model (Happy Campers `CHALLENGE_NAMES`, Adventure Tours' `Act` and
`Ability` values, Camper Tour's special plates in `render.NAME`); this module only maps the proto enums onto them,
so the CLI's `--format text` (`campsolver.clients.textout`) prints exactly the name the puzzle text, the SVG and
the score details print. tests/test_card_names.py pins that the proto comments and docs/rules/ use them too.

Each game's table is loaded on first use, so rendering one game's answer imports only that game.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache


def _happy_campers() -> dict[str, dict[int, str]]:
    from campsolver.service.games.happy_campers import CHALLENGE_FROM_PROTO

    return {"campsolver.v1.Challenge": {n: card.display_name for n, card in CHALLENGE_FROM_PROTO.items()}}


def _adventure_tours() -> dict[str, dict[int, str]]:
    from campsolver.service.games.adventure_tours import ABILITY_FROM_PROTO, ACTION_FROM_PROTO
    from campsolver.solver.adventure_tours.deck import Ability, Act

    return {
        "campsolver.v1.AdventureAction": {n: a.value for n, a in ACTION_FROM_PROTO.items() if a is not Act.NONE},
        "campsolver.v1.AdventureAbility": {n: a.value for n, a in ABILITY_FROM_PROTO.items() if a is not Ability.NONE},
    }


def _camper_tour() -> dict[str, dict[int, str]]:
    from campsolver.service.games.camper_tour import PLATE_FROM_PROTO
    from campsolver.solver.camper_tour.render import NAME

    return {"campsolver.v1.PlateKind": {n: NAME[kind] for n, kind in PLATE_FROM_PROTO.items() if kind in NAME}}


#: Proto enum full name -> the loader of its game's names (every card-like enum of every game).
CARD_ENUMS: dict[str, Callable[[], dict[str, dict[int, str]]]] = {
    "campsolver.v1.Challenge": _happy_campers,
    "campsolver.v1.AdventureAction": _adventure_tours,
    "campsolver.v1.AdventureAbility": _adventure_tours,
    "campsolver.v1.PlateKind": _camper_tour,
}


@cache
def names_of(enum_full_name: str) -> dict[int, str]:
    """Enum number -> display name for a card enum ({} for any other enum)."""
    loader = CARD_ENUMS.get(enum_full_name)
    return loader()[enum_full_name] if loader is not None else {}


def display_name(enum_full_name: str, number: int) -> str | None:
    """The card's display name, or None when the enum is not a card enum (or the number is no card)."""
    return names_of(enum_full_name).get(number)
