"""Campsite in OpenSpiel as `campsolver_campsite` (imperfect information: the hands and the draw pile).

Rows and columns are the rules model's table coordinates (the first starting card's top-left square is
(0, 0)); in a round at most K = 7 x players cards are laid after the two starting cards, each reaching at most
3 squares beyond the table, so a card's top-left corner lies in rows -3K..3K+1 and columns -3K..3K+5 (S_R
and S_C values). Decision action ids: lay card c (its index in the deck's distinct cards, sorted) turned r
quarter turns with its corner at (row, col): ((c * 4 + r) * S_R + row + 3K) * S_C + col + 3K; pitch tent
token t (0-5 the terrains, 6 Wilderness) on (row, col): L + (t * S_R + row + 3K) * S_C + col + 3K, where L
is the number of card ids. Chance id = the dealt or drawn card's index in the deck's distinct cards, with
the rules model's probability (copies left / cards left). Documented in docs/openspiel.md.
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import lru_cache
from typing import Any

import pyspiel

from campsolver.openspiel.common import RETURNS_WIN, AdapterGame, Encoding, check_returns_mode, game_type, merged
from campsolver.solver.campsite import rules as cs

SHORT_NAME = "campsolver_campsite"
#: The rules model's `Game` this adapter is built on (its players, its start).
RULES_GAME = cs.GAME
MIN_PLAYERS = RULES_GAME.min_players
MAX_PLAYERS = RULES_GAME.max_players
HIDDEN_INFORMATION = True
#: The furthest a card reaches beyond the table it is laid against.
REACH = cs.CARD_COLS

DEFAULTS: dict[str, Any] = {"players": 2, "returns": RETURNS_WIN}
#: Rule options and variants the conformance test runs besides the defaults.
VARIANTS: list[dict[str, Any]] = [{"players": 2, "returns": "scores"}]


#: Per deck object: (the deck, its distinct cards, card -> index). Keyed by identity: hashing a 60-card deck
#: on every encode cost more than the move itself; states of one game share one deck object.
_DECK_TABLES: dict[int, tuple[tuple[cs.Card, ...], tuple[cs.Card, ...], dict[cs.Card, int]]] = {}


def _tables(deck: tuple[cs.Card, ...]) -> tuple[tuple[cs.Card, ...], dict[cs.Card, int]]:
    entry = _DECK_TABLES.get(id(deck))
    if entry is None or entry[0] is not deck:
        if len(_DECK_TABLES) > 64:
            _DECK_TABLES.clear()
        cards = tuple(sorted(set(deck)))
        entry = (deck, cards, {card: i for i, card in enumerate(cards)})
        _DECK_TABLES[id(deck)] = entry
    return entry[1], entry[2]


def distinct_cards(deck: tuple[cs.Card, ...]) -> tuple[cs.Card, ...]:
    """The deck's different cards, sorted: a card's index here is its id in every encoding."""
    return _tables(deck)[0]


def _card_index(deck: tuple[cs.Card, ...]) -> dict[cs.Card, int]:
    return _tables(deck)[1]


@lru_cache(maxsize=16)
def geometry(players: int) -> tuple[int, int, int]:
    """(offset, rows, cols) of the corner grid: corners lie in rows -offset..offset+1, cols -offset..offset+5."""
    offset = REACH * cs.TURNS_PER_ROUND * players
    return offset, 2 * offset + cs.CARD_ROWS, 2 * offset + 2 * cs.CARD_COLS


def _square(state: cs.CampsiteState, row: int, col: int) -> int:
    offset, rows, cols = geometry(state.players)
    if not (0 <= row + offset < rows and 0 <= col + offset < cols):
        raise ValueError(f"square ({row}, {col}) is beyond the reach of any table")
    return (row + offset) * cols + col + offset


def card_actions(state: cs.CampsiteState) -> int:
    _, rows, cols = geometry(state.players)
    return len(distinct_cards(state.deck)) * len(cs.ROTATIONS) * rows * cols


def encode(state: cs.CampsiteState, move: cs.Action) -> int:
    """Rules-model decision (`PlayCard` or `PitchTent`) -> action id."""
    _, rows, cols = geometry(state.players)
    if isinstance(move, cs.PlayCard):
        placement = move.placement
        card = _card_index(state.deck)[placement.card]
        return (card * len(cs.ROTATIONS) + placement.rotation) * rows * cols + _square(
            state, placement.row, placement.col
        )
    return card_actions(state) + int(move.token) * rows * cols + _square(state, move.row, move.col)


def decode(state: cs.CampsiteState, action: int) -> cs.Action:
    """Action id -> rules-model decision."""
    offset, rows, cols = geometry(state.players)
    cards = card_actions(state)
    if action >= cards:
        token, square = divmod(action - cards, rows * cols)
        row, col = divmod(square, cols)
        return cs.PitchTent(cs.Token(token), row - offset, col - offset)
    rest, square = divmod(action, rows * cols)
    card, rotation = divmod(rest, len(cs.ROTATIONS))
    row, col = divmod(square, cols)
    placement = cs.Placement(distinct_cards(state.deck)[card], row - offset, col - offset, rotation)
    return cs.PlayCard(placement)


def legal_ids(state: cs.CampsiteState) -> list[int]:
    """The sorted ids of the legal decisions, straight from the rules model's placement groups: the ids of
    `encode` without building a `PlayCard` for each of a late turn's thousand plays (MCTS rollouts live here).
    """
    offset, rows, cols = geometry(state.players)
    if state.stage is cs.Stage.TENT:
        squares = state.table.free_squares()
        if squares:
            for row, col in (
                squares[0],
                squares[-1],
                min(squares, key=lambda rc: rc[1]),
                max(squares, key=lambda rc: rc[1]),
            ):
                _square(state, row, col)  # raises beyond the reach of any table
        cards = card_actions(state) + offset * cols + offset
        return [
            cards + int(token) * rows * cols + row * cols + col
            for token in sorted(state.tokens[state.to_move])
            for row, col in squares
        ]
    if state.stage is not cs.Stage.CARD:
        return []
    index = _card_index(state.deck)
    checked: set[int] = set()
    ids: list[int] = []
    for card, rotation, corners in state.table.legal_placement_groups(state.hands[state.to_move]):
        if corners and id(corners) not in checked:  # groups of one outline share one list of corners
            checked.add(id(corners))
            for row, col in (
                min(corners),
                max(corners),
                min(corners, key=lambda rc: rc[1]),
                max(corners, key=lambda rc: rc[1]),
            ):
                _square(state, row, col)  # raises beyond the reach of any table
        base = (index[card] * len(cs.ROTATIONS) + rotation) * rows * cols + offset * cols + offset
        ids.extend([base + row * cols + col for row, col in corners])
    ids.sort()
    return ids


def encode_chance(state: cs.CampsiteState, card: cs.Card) -> int:
    return _card_index(state.deck)[card]


def decode_chance(state: cs.CampsiteState, action: int) -> cs.Card:
    return distinct_cards(state.deck)[action]


@lru_cache(maxsize=256)
def _card_text(card: cs.Card) -> str:
    return card.text()


def move_text(state: cs.CampsiteState, move: cs.Action) -> str:
    if isinstance(move, cs.PlayCard):
        p = move.placement
        return f"lay {_card_text(p.card)} at ({p.row},{p.col}) r{p.rotation}"  # as `Placement.label`, cached
    return f"tent {move.token.name.lower()} on r{move.row}c{move.col}"


def _receiver(state: cs.CampsiteState) -> int | None:
    """Who gets the card of this chance node (None: a starting card, face up)."""
    if state.stage is cs.Stage.DRAW:
        return state.to_move
    if len(state.table.placements) < cs.STARTING_CARDS:
        return None
    dealt = sum(len(hand) for hand in state.hands)
    return (state.starter + dealt // cs.HAND_SIZE) % state.players


def chance_text(state: cs.CampsiteState, card: cs.Card) -> str:
    receiver = _receiver(state)
    return f"start card {card}" if receiver is None else f"p{receiver} gets {card}"


def private_chance(state: cs.CampsiteState, card: cs.Card) -> frozenset[int] | None:
    """A starting card is seen by all; a dealt or drawn card only by the player who gets it."""
    receiver = _receiver(state)
    return None if receiver is None else frozenset({receiver})


def _public(state: cs.CampsiteState) -> list[str]:
    lines = [
        f"round {state.round} turn {state.turn} stage {state.stage.value} to_move {state.to_move}"
        f" pile {len(state.pile)} totals {list(state.totals)}"
    ]
    lines += [f"card {placement.label()}" for placement in state.table.placements]
    lines += [f"tent p{t.player} {t.token.name.lower()} r{t.row}c{t.col}" for t in state.table.tents]
    for seat in range(state.players):
        hand = len(state.hands[seat]) if state.hands else 0
        tokens = "".join(token.letter for token in sorted(state.tokens[seat])) if state.tokens else ""
        lines.append(f"p{seat} hand {hand} cards, tokens {tokens}")
    return lines


def observe(state: cs.CampsiteState, player: int) -> str:
    """The table, every player's tokens left and hand size, and `player`'s own hand."""
    hand = state.hands[player] if state.hands else ()
    return "\n".join([*_public(state), f"own hand: {', '.join(map(str, hand))}"])


def describe(state: cs.CampsiteState) -> str:
    hands = [f"p{seat} holds {', '.join(map(str, hand))}" for seat, hand in enumerate(state.hands)]
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
    legal_ids=legal_ids,
)


class CampsiteGame(AdapterGame):
    """Campsite for 1-6 players with the default 60-card deck; three rounds, totals decide."""

    encoding = ENCODING
    imperfect = True

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        full = merged(DEFAULTS, params)
        check_returns_mode(full["returns"])
        players = full["players"]
        initial = cs.GAME.new_initial_state(cs.CampsiteSetup(players))  # refuses a table the rules model refuses
        scores = full["returns"] != RETURNS_WIN or players == 1
        _, rows, cols = geometry(players)
        # A tent scores at most 8 squares x 2 (Fair Weather), 7 tents a round, 3 rounds.
        most = 8 * cs.FAIR_WEATHER_FACTOR * cs.TURNS_PER_ROUND * cs.ROUNDS
        info = pyspiel.GameInfo(
            num_distinct_actions=card_actions(initial) + len(cs.ALL_TOKENS) * rows * cols,
            max_chance_outcomes=len(distinct_cards(initial.deck)),
            num_players=players,
            min_utility=0.0,
            max_utility=float(most) if scores else 1.0,
            utility_sum=None if scores else 1.0,
            max_game_length=2 * cs.TURNS_PER_ROUND * players * cs.ROUNDS,
        )
        super().__init__(_type(constant_sum=not scores), info, full)
        self.initial = initial

    def initial_rules_state(self) -> cs.CampsiteState:
        return self.initial

    def winners(self, rules_state: cs.CampsiteState) -> list[int]:
        return rules_state.winners()

    def resample(self, state: cs.CampsiteState, player: int, rng: random.Random) -> cs.CampsiteState:
        """Redeal what `player` cannot see: the other hands (same sizes) and the pile, from the cards of this
        round's deck that are neither on the table nor in `player`'s hand."""
        if not state.hands:
            return state
        unseen = list(state.deck)
        for card in [p.card for p in state.table.placements] + list(state.hands[player]):
            unseen.remove(card)
        rng.shuffle(unseen)
        hands = list(state.hands)
        for seat in range(state.players):
            if seat != player:
                size = len(hands[seat])
                hands[seat], unseen = tuple(sorted(unseen[:size])), unseen[size:]
        return replace(state, hands=tuple(hands), pile=tuple(sorted(unseen)))


def _type(*, constant_sum: bool) -> pyspiel.GameType:
    return game_type(
        SHORT_NAME,
        "Campsite (campsolver rules model)",
        players=(MIN_PLAYERS, MAX_PLAYERS),
        imperfect=True,
        constant_sum=constant_sum,
        parameters=DEFAULTS,
    )


pyspiel.register_game(_type(constant_sum=True), CampsiteGame)
