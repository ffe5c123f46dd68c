"""Camper Tour in OpenSpiel as `campsolver_camper_tour` (perfect information, explicit chance).

Decision actions (15 ids): 0 Pass; 1..10 Announce n plates; 11 Turn back (a decision of its own: the same
camper then announces, or makes the Unexpected Comforts choice); 12 Recover 3 tokens, 13 Discard 3 tokens,
14 Decline (the turn spent on Unexpected Comforts). Chance outcomes (ids 0..12) are the rules model's own
values: the dice sum 2..12 after an announcement, the kind of the plate laid (0 normal, 1 Unexpected
Comforts, 2 Mechanical Problem, 3 Village Festival, 4 No Parking) and the die face 1..6 of a special plate,
each with the rules model's exact probability. Documented in docs/openspiel.md.
"""

from __future__ import annotations

from typing import Any

import pyspiel

from campsolver.openspiel.common import (
    RETURNS_WIN,
    AdapterGame,
    Encoding,
    check_returns_mode,
    game_type,
    merged,
)
from campsolver.solver.camper_tour import rules as ct

SHORT_NAME = "campsolver_camper_tour"
#: The rules model's `Game` this adapter is built on (its players, its start).
RULES_GAME = ct.GAME
MIN_PLAYERS = RULES_GAME.min_players
MAX_PLAYERS = RULES_GAME.max_players
HIDDEN_INFORMATION = False

PASS = 0
TURN_BACK = ct.MAX_ANNOUNCEMENT + 1
COMFORTS = {
    ct.ComfortsChoice.RECOVER: TURN_BACK + 1,
    ct.ComfortsChoice.DISCARD: TURN_BACK + 2,
    ct.ComfortsChoice.DECLINE: TURN_BACK + 3,
}
NUM_ACTIONS = TURN_BACK + 4
#: Chance ids are the outcome values themselves; the largest is the dice sum 12.
MAX_CHANCE_OUTCOMES = 13
#: The rules put no bound on a game's length (a failed announcement costs nothing while two campers travel):
#: this is a declared cap, not a rule; the adapter never cuts a game short. docs/openspiel.md gives the
#: longest random game measured.
MAX_GAME_LENGTH = 100_000

DEFAULTS: dict[str, Any] = {
    "players": 2,
    "plate_count": ct.PLATE_COUNT,
    "starting_tokens": ct.STARTING_TOKENS,
    "token_supply": ct.TOKEN_SUPPLY,
    "unexpected_comforts": 3,
    "mechanical_problem": 3,
    "village_festival": 3,
    "no_parking": 3,
    "token_rule": ct.TokenRule.SUPPLY.value,
    "no_parking_return": ct.NoParkingReturn.TOWARD_START.value,
    "returns": RETURNS_WIN,
}
_SPECIAL_PARAMS = (
    ("unexpected_comforts", ct.PlateKind.UNEXPECTED_COMFORTS),
    ("mechanical_problem", ct.PlateKind.MECHANICAL_PROBLEM),
    ("village_festival", ct.PlateKind.VILLAGE_FESTIVAL),
    ("no_parking", ct.PlateKind.NO_PARKING),
)
#: Rule options and variants the conformance test runs besides the defaults.
VARIANTS: list[dict[str, Any]] = [
    {"players": 3, "token_rule": "per_camper_cap", "no_parking_return": "away_from_home"},
    {"players": 2, "plate_count": 30, "no_parking": 8},
]


def encode(state: ct.TourState, move: ct.Action) -> int:
    """Rules-model decision -> action id."""
    if isinstance(move, ct.Pass):
        return PASS
    if isinstance(move, ct.Announce):
        return move.plates
    if isinstance(move, ct.TurnBack):
        return TURN_BACK
    return COMFORTS[move]


def decode(state: ct.TourState, action: int) -> ct.Action:
    """Action id -> rules-model decision."""
    if action == PASS:
        return ct.Pass()
    if ct.MIN_ANNOUNCEMENT <= action <= ct.MAX_ANNOUNCEMENT:
        return ct.Announce(action)
    if action == TURN_BACK:
        return ct.TurnBack()
    for choice, code in COMFORTS.items():
        if code == action:
            return choice
    raise ValueError(f"no Camper Tour action has id {action}")


def encode_chance(state: ct.TourState, outcome: Any) -> int:
    return int(outcome)


def decode_chance(state: ct.TourState, action: int) -> Any:
    if state.stage == ct.Stage.LAY:
        return ct.PlateKind(action)
    return action


def move_text(state: ct.TourState, move: ct.Action) -> str:
    if isinstance(move, ct.Announce):
        return f"announce {move.plates}"
    if isinstance(move, ct.ComfortsChoice):
        return f"comforts {move.value}"
    return "turn back" if isinstance(move, ct.TurnBack) else "pass"


def chance_text(state: ct.TourState, outcome: Any) -> str:
    if state.stage == ct.Stage.ROLL:
        return f"dice {outcome}"
    if state.stage == ct.Stage.LAY:
        return f"plate {len(state.laid) + 1} {ct.PlateKind(outcome).name.lower()}"
    return f"die {outcome}"


def describe(state: ct.TourState) -> str:
    laid = "".join("NUMFP"[kind] for kind in state.laid)
    campers = " | ".join(
        f"c{i} {c.phase.value} at {c.position} tokens {c.tokens} marker {c.marker}"
        + (f" {c.pending.value}" if c.pending != ct.Pending.NONE else "")
        for i, c in enumerate(state.campers)
    )
    return f"stage {state.stage.value} to_move {state.to_move} announced {state.announced} laid [{laid}]\n{campers}"


ENCODING = Encoding(encode, decode, encode_chance, decode_chance, move_text, chance_text, describe)


def config_from(params: dict[str, Any]) -> ct.Config:
    """The rules model's table from the game parameters."""
    return ct.Config(
        plate_count=params["plate_count"],
        starting_tokens=params["starting_tokens"],
        token_supply=params["token_supply"],
        specials=tuple((kind, params[name]) for name, kind in _SPECIAL_PARAMS),
        token_rule=ct.TokenRule(params["token_rule"]),
        no_parking_return=ct.NoParkingReturn(params["no_parking_return"]),
    )


class CamperTourGame(AdapterGame):
    """Camper Tour for 1-4 campers (1: the solo game, returns are the score)."""

    encoding = ENCODING

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        full = merged(DEFAULTS, params)
        check_returns_mode(full["returns"])
        config = config_from(full)
        players = full["players"]
        scores = full["returns"] != RETURNS_WIN or players == 1
        # Score = marker - tokens left: at most the route's length; below, a marker moved back for every
        # missing token on the way home (a floor no random game came near, see docs/openspiel.md).
        limit = config.token_limit
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=MAX_CHANCE_OUTCOMES,
            num_players=players,
            min_utility=float(-(limit + 20 * config.plate_count)) if scores else 0.0,
            max_utility=float(config.plate_count) if scores else 1.0,
            utility_sum=None if scores else 1.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_type(constant_sum=not scores), info, full)
        self.config = config
        self.setup = ct.CamperTourSetup(players, config)
        self.initial_rules_state()  # refuses a table the rules model refuses

    def initial_rules_state(self) -> ct.TourState:
        return ct.GAME.new_initial_state(self.setup)

    def winners(self, rules_state: ct.TourState) -> list[int]:
        """The rules model's winner (the highest final score, a tie to the later arrival); nobody home: shared."""
        winner = rules_state.winner()
        return [] if winner is None else [winner]


def _type(*, constant_sum: bool) -> pyspiel.GameType:
    return game_type(
        SHORT_NAME,
        "Camper Tour (campsolver rules model)",
        players=(MIN_PLAYERS, MAX_PLAYERS),
        imperfect=False,
        constant_sum=constant_sum,
        parameters=DEFAULTS,
    )


pyspiel.register_game(_type(constant_sum=True), CamperTourGame)
