"""Outside players for every game: simple, decent strategies written from the rulebooks
(/work/shared/rules/), the project's rule readings (docs/rules/) and the rules-model APIs
(`solver/<game>/rules.py`, `solver/happy_campers/modes.py`) alone, without reading any hint's code, notes or
bench results, and never tuned against a hint: they are yardsticks the hints were not shaped on. Each game's
module holds at least three styles (its docstring says what each does and what it costs); a player is
`fn(state, seat, rng) -> list[move]` on the rules-model state (what `bench.openspiel.AdapterState.rules_state`
holds), the list being that seat's moves for its turn, first = now, as `bench.openspiel.PlanSeat` replays them.
In the hidden-information games (Campsite, Adventure Tours) a player reads only its seat's view (own hand, the
table, public information, the composition of the unseen cards). `PLAYERS[game][style]` lists them by the game
keys of `bench.openspiel.GAMES`; `common.play_game` plays a game through the rules model alone; `prepare(game)`
builds a game's per-process tables before its players are timed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bench.opponents import adventure_tours, camper_tour, campsite, deluxe_camping, happy_campers

Player = Callable[..., list[Any]]


def prepare(game: str) -> None:
    """Build a game's per-process tables before timing its players (Camper Tour: the score tables of both paces
    and the last-camper table for the default 72-plate route, ~0.5 CPU-s once; the other games need none)."""
    if game == "camper_tour":
        for pace in camper_tour.PACES:
            camper_tour.tables(72, pace)
        camper_tour.last_camper_table(72)


PLAYERS: dict[str, dict[str, Player]] = {
    "happy_campers": dict(happy_campers.PLAYERS),
    "deluxe_camping": dict(deluxe_camping.PLAYERS),
    "campsite": dict(campsite.PLAYERS),
    "camper_tour": dict(camper_tour.PLAYERS),
    "adventure_tours": dict(adventure_tours.PLAYERS),
}
