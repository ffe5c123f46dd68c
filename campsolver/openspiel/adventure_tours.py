"""Adventure Tours in OpenSpiel as `campsolver_adventure_tours` (imperfect information: hands and draw pile).

Cards are the rules model's deck indices 0..D-1 (D = 102 with the default deck); cards of one kind are
interchangeable, so what a player sees is each card's kind (its label), never its index. Decision action ids:
Play card c as equipment 2c, as a member 2c + 1; Place c (extra equipment, a same-colour member) 2D + c;
Target player p 3D + p; GiveTwo(a, b) 3D + 6 + 6a + b; Accept 3D + 42; Skip 3D + 43; Protect(no) 3D + 44,
Protect(yes) 3D + 45; GiftChoice(draw, gift) 3D + 46 + 7 draw + gift + 1 (gift -1 = none); ChooseBoard b
3D + 60 + b. Chance ids: a dealt or drawn card is its deck index (the rules model offers one card of each
kind left, with probability copies left / cards left); the boards' deal (a new game whose boards differ, and
Variation 1 before each round) is the index of the boards' permutation in
`itertools.permutations(range(boards), players)`. Documented in docs/openspiel.md.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import replace
from functools import lru_cache
from typing import Any

import pyspiel

from campsolver.openspiel.common import RETURNS_WIN, AdapterGame, Encoding, check_returns_mode, game_type, merged
from campsolver.solver.adventure_tours import rules as at

SHORT_NAME = "campsolver_adventure_tours"
#: The rules model's `Game` this adapter is built on (its players, its start).
RULES_GAME = at.GAME
MIN_PLAYERS = RULES_GAME.min_players
MAX_PLAYERS = RULES_GAME.max_players
HIDDEN_INFORMATION = True
SEATS = at.MAX_PLAYERS
VARIATIONS = {"none": at.Variation.NONE, "shuffle": at.Variation.SHUFFLE, "lowest_chooses": at.Variation.LOWEST_CHOOSES}
#: Where the floor at 0 applies to the hand costs: the money pile (default) or each round (named variant).
MONEY_FLOORS = {"money_pile": at.MoneyFloor.PILE, "per_round": at.MoneyFloor.ROUND}

DEFAULTS: dict[str, Any] = {
    "players": 3,
    "expert": False,
    "variation": "none",
    "money_floor": "money_pile",
    "rounds": at.ROUNDS,
    "hand_size": at.HAND_SIZE,
    "returns": RETURNS_WIN,
}
#: Rule options and variants the conformance test runs besides the defaults.
VARIANTS: list[dict[str, Any]] = [
    {"players": 3, "expert": True, "variation": "shuffle"},
    {"players": 4, "expert": True, "variation": "lowest_chooses", "rounds": 2},
    {"players": 3, "money_floor": "per_round", "rounds": 2},
]


def _offsets(state: at.State) -> dict[str, int]:
    cards = len(state.config.deck)
    base = 3 * cards
    return {
        "place": 2 * cards,
        "target": base,
        "give_two": base + SEATS,
        "accept": base + SEATS + SEATS * SEATS,
        "skip": base + SEATS + SEATS * SEATS + 1,
        "protect": base + SEATS + SEATS * SEATS + 2,
        "gift": base + SEATS + SEATS * SEATS + 4,
        "board": base + SEATS + SEATS * SEATS + 4 + 2 * (SEATS + 1),
    }


def num_actions(config: at.Config) -> int:
    cards = len(config.deck)
    return 3 * cards + SEATS + SEATS * SEATS + 4 + 2 * (SEATS + 1) + len(config.boards)


def encode(state: at.State, move: at.Action) -> int:
    """Rules-model decision -> action id."""
    at_ = _offsets(state)
    if isinstance(move, at.Play):
        return 2 * move.card + int(move.member)
    if isinstance(move, at.Place):
        return at_["place"] + move.card
    if isinstance(move, at.Target):
        return at_["target"] + move.player
    if isinstance(move, at.GiveTwo):
        return at_["give_two"] + SEATS * move.first + move.second
    if isinstance(move, at.Accept):
        return at_["accept"]
    if isinstance(move, at.Skip):
        return at_["skip"]
    if isinstance(move, at.Protect):
        return at_["protect"] + int(move.use)
    if isinstance(move, at.GiftChoice):
        return at_["gift"] + (SEATS + 1) * int(move.draw) + move.gift + 1
    assert isinstance(move, at.ChooseBoard)
    return at_["board"] + move.board


def decode(state: at.State, action: int) -> at.Action:
    """Action id -> rules-model decision."""
    at_ = _offsets(state)
    if action < at_["place"]:
        return at.Play(action // 2, bool(action % 2))
    if action < at_["target"]:
        return at.Place(action - at_["place"])
    if action < at_["give_two"]:
        return at.Target(action - at_["target"])
    if action < at_["accept"]:
        return at.GiveTwo(*divmod(action - at_["give_two"], SEATS))
    if action == at_["accept"]:
        return at.Accept()
    if action == at_["skip"]:
        return at.Skip()
    if action < at_["gift"]:
        return at.Protect(bool(action - at_["protect"]))
    if action < at_["board"]:
        draw, gift = divmod(action - at_["gift"], SEATS + 1)
        return at.GiftChoice(bool(draw), gift - 1)
    if action < num_actions(state.config):
        return at.ChooseBoard(action - at_["board"])
    raise ValueError(f"no Adventure Tours action has id {action}")


@lru_cache(maxsize=16)
def _permutations(boards: int, players: int) -> tuple[tuple[int, ...], ...]:
    return tuple(itertools.permutations(range(boards), players))


def encode_chance(state: at.State, outcome: Any) -> int:
    if isinstance(outcome, tuple):
        return _permutations(len(state.config.boards), state.config.players).index(outcome)
    return int(outcome)


def decode_chance(state: at.State, action: int) -> Any:
    if state.pending[0].kind == "shuffle_boards":
        return _permutations(len(state.config.boards), state.config.players)[action]
    return action


@lru_cache(maxsize=16)
def _labels(config: at.Config) -> tuple[str, ...]:
    return tuple(card.label() for card in config.deck)


def kind(state: at.State, card: int) -> str:
    """What a player sees of a card: its kind (cards of one kind are interchangeable)."""
    return _labels(state.config)[card]


def move_text(state: at.State, move: at.Action) -> str:
    """The rules model's label (with the card's index, so two cards of one kind stay two actions)."""
    return at.action_label(state, move)


def record_text(state: at.State, move: at.Action) -> str:
    """A decision as every player sees it: the card's kind, not its index."""
    if isinstance(move, at.Play | at.Place):
        text = f"{'play' if isinstance(move, at.Play) else 'place'} {kind(state, move.card)}"
        return text + (" as member" if isinstance(move, at.Play) and move.member else "")
    return at.action_label(state, move)


def chance_text(state: at.State, outcome: Any) -> str:
    step = state.pending[0]
    if step.kind == "shuffle_boards":
        return f"boards {list(outcome)}"
    return f"p{step.player} gets {kind(state, outcome)}"


def private_chance(state: at.State, outcome: Any) -> frozenset[int] | None:
    """A dealt or drawn card is seen by its receiver only; the board shuffle by everyone."""
    step = state.pending[0]
    return None if step.kind == "shuffle_boards" else frozenset({step.player})


def _kinds(state: at.State, cards: tuple[int, ...]) -> str:
    return " ".join(kind(state, c) for c in cards)


def _public(state: at.State) -> list[str]:
    head = f"round {state.round_index} to_move {state.to_move} totals {list(state.totals)} pile {len(state.deck)}"
    if not state.over:
        step = state.pending[0]
        card = f" card {kind(state, step.card)}" if step.card >= 0 else ""
        head += f" step {step.kind} p{step.player}{card} extra {state.extra_turns} ability_used {state.ability_used}"
    lines = [head, f"discard {_kinds(state, state.discard)}", f"boards {list(state.seat_boards)}"]
    if state.choosing:
        lines.append(f"choosing {list(state.choosing)}")
    for p in range(state.config.players):
        lines.append(
            f"p{p} hand {len(state.hands[p])} cards | equipment {_kinds(state, state.equipment[p])}"
            f" | members {_kinds(state, state.members[p])}"
        )
    return lines


def observe(state: at.State, player: int) -> str:
    """The table, everyone's hand size, and `player`'s own hand (by kind)."""
    return "\n".join([*_public(state), f"own hand: {_kinds(state, state.hands[player])}"])


def describe(state: at.State) -> str:
    hands = [f"p{p} holds {_kinds(state, hand)}" for p, hand in enumerate(state.hands)]
    return "\n".join([*_public(state), *hands])


ENCODING = Encoding(
    encode,
    decode,
    encode_chance,
    decode_chance,
    move_text,
    chance_text,
    describe,
    private_chance,
    observe,
    record_text,
)


class AdventureToursGame(AdapterGame):
    """Adventure Tours for 3-6 players: default deck, desert or expert boards, the two board variations."""

    encoding = ENCODING
    imperfect = True

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        full = merged(DEFAULTS, params)
        check_returns_mode(full["returns"])
        if full["variation"] not in VARIATIONS:
            raise ValueError(f"variation must be one of {sorted(VARIATIONS)}, got {full['variation']!r}")
        if full["money_floor"] not in MONEY_FLOORS:
            raise ValueError(f"money_floor must be one of {sorted(MONEY_FLOORS)}, got {full['money_floor']!r}")
        config = at.Config(
            full["players"],
            expert=full["expert"],
            rounds=full["rounds"],
            variation=VARIATIONS[full["variation"]],
            hand_size=full["hand_size"],
            money_floor=MONEY_FLOORS[full["money_floor"]],
        )
        initial = at.GAME.new_initial_state(config)  # refuses a table the rules model refuses
        scores = full["returns"] != RETURNS_WIN
        cards = len(config.deck)
        # A round pays at most every card's money. A card leaves a hand at most once a round, and each time
        # brings at most nine decisions (its play or placing and the offers, action and defence it sets off),
        # plus the board choices of Variation 2: the length bound below.
        most = sum(config.money) * config.rounds
        info = pyspiel.GameInfo(
            num_distinct_actions=num_actions(config),
            max_chance_outcomes=max(cards, len(_permutations(len(config.boards), config.players))),
            num_players=config.players,
            min_utility=0.0,
            max_utility=float(most) if scores else 1.0,
            utility_sum=None if scores else 1.0,
            max_game_length=config.rounds * (config.players + 10 * cards),
        )
        super().__init__(_type(constant_sum=not scores), info, full)
        self.initial = initial

    def initial_rules_state(self) -> at.State:
        return self.initial

    def resample(self, state: at.State, player: int, rng: random.Random) -> at.State:
        """Redeal what `player` cannot see: the other hands (same sizes) and the pile, from the cards that are
        neither in `player`'s hand nor on the table nor discarded."""
        seen = set(state.hands[player]) | set(state.discard)
        for p in range(state.config.players):
            seen |= set(state.equipment[p]) | set(state.members[p])
        unseen = [c for c in range(len(state.config.deck)) if c not in seen]
        rng.shuffle(unseen)
        hands = list(state.hands)
        for p in range(state.config.players):
            if p != player:
                size = len(hands[p])
                hands[p], unseen = tuple(sorted(unseen[:size])), unseen[size:]
        return replace(state, hands=tuple(hands), deck=tuple(sorted(unseen)))


def _type(*, constant_sum: bool) -> pyspiel.GameType:
    return game_type(
        SHORT_NAME,
        "Adventure Tours (campsolver rules model)",
        players=(MIN_PLAYERS, MAX_PLAYERS),
        imperfect=True,
        constant_sum=constant_sum,
        parameters=DEFAULTS,
    )


pyspiel.register_game(_type(constant_sum=True), AdventureToursGame)
