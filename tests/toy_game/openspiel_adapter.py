"""The toy game in OpenSpiel as `campsolver_high_roll`: step 4 of docs/architecture.md's "adding a game", an
encoding and a start, with everything else from `campsolver.openspiel.common` (imported by the toy game's tests
only, so the registry of the five games stays as it is)."""

from __future__ import annotations

from typing import Any

import pyspiel

from campsolver.openspiel.common import RETURNS_WIN, AdapterGame, Encoding, check_returns_mode, game_type, merged
from tests.toy_game import rules as toy

SHORT_NAME = f"campsolver_{toy.GAME.name}"
RULES_GAME = toy.GAME
DEFAULTS: dict[str, Any] = {"players": 2, "returns": RETURNS_WIN}
ACTIONS = (toy.KEEP, toy.REROLL)
#: Chance ids: a card `c` is c - 1, a die face `f` is f - 1 (the deal and the roll are never the same node).
CHANCE_IDS = max(toy.FACES, *toy.HighRollSetup().deck)

ENCODING = Encoding(
    encode=lambda state, move: ACTIONS.index(move),
    decode=lambda state, action: ACTIONS[action],
    encode_chance=lambda state, outcome: outcome - 1,
    decode_chance=lambda state, action: action + 1,
    move_text=lambda state, move: move,
    chance_text=lambda state, outcome: f"{'card' if 0 in state.cards else 'die'} {outcome}",
    describe=repr,
)


class HighRollGame(AdapterGame):
    """High Roll for 1-4 players (1: returns are the score)."""

    encoding = ENCODING

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        full = merged(DEFAULTS, params)
        check_returns_mode(full["returns"])
        players = full["players"]
        self.setup = RULES_GAME.default_config(players)
        scores = full["returns"] != RETURNS_WIN or players == 1
        most = max(self.setup.deck) + toy.FACES
        info = pyspiel.GameInfo(
            num_distinct_actions=len(ACTIONS),
            max_chance_outcomes=CHANCE_IDS,
            num_players=players,
            min_utility=0.0,
            max_utility=float(most) if scores else 1.0,
            utility_sum=None if scores else 1.0,
            max_game_length=2 * players,
        )
        super().__init__(_type(constant_sum=not scores), info, full)

    def initial_rules_state(self) -> toy.HighRollState:
        return RULES_GAME.new_initial_state(self.setup)


def _type(*, constant_sum: bool) -> pyspiel.GameType:
    return game_type(
        SHORT_NAME,
        "High Roll (campsolver toy game)",
        players=(RULES_GAME.min_players, RULES_GAME.max_players),
        imperfect=False,
        constant_sum=constant_sum,
        parameters=DEFAULTS,
    )


pyspiel.register_game(_type(constant_sum=True), HighRollGame)
