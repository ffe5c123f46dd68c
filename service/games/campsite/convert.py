"""Campsite: protobuf messages <-> the rules model's and solvers' objects (every field validated and named)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from campsolver.service.errors import InvalidArgument, require, require_limit
from campsolver.service.games import enum_maps
from campsolver.solver.campsite import rules
from campsolver.solver.campsite.rules import (
    CARD_COLS,
    CARD_ROWS,
    Card,
    IllegalMove,
    Placement,
    Table,
    Tent,
    Terrain,
    Token,
)

from campsolver.v1 import campsite_pb2 as pb

#: Request size limits (RESOURCE_EXHAUSTED beyond them).
MAX_TABLE_CARDS = 120
MAX_HAND = 10
MAX_DECK = 600
MAX_TOP = 1000
#: Cells must lie within this distance of the origin (keeps grids bounded).
MAX_COORDINATE = 1000

TERRAIN_FROM_PROTO = enum_maps.from_proto(pb.Terrain, Terrain)
TERRAIN_TO_PROTO = enum_maps.to_proto(TERRAIN_FROM_PROTO)
TOKEN_FROM_PROTO = enum_maps.from_proto(pb.TentToken, Token)
TOKEN_TO_PROTO = enum_maps.to_proto(TOKEN_FROM_PROTO)
#: A whole game's stage (a state message is never between a card and its tent: Stage.TENT has no value).
GAME_STAGE_FROM_PROTO = enum_maps.from_proto(pb.CampsiteStage, rules.Stage)
GAME_STAGE_TO_PROTO = enum_maps.to_proto(GAME_STAGE_FROM_PROTO)


def card_from_proto(message: pb.CampsiteCard, field: str) -> Card:
    try:
        if message.text:
            require(
                not (message.rows or message.first or message.second or message.fair_weather),
                field,
                "give the card either as text or field by field, not both",
            )
            return rules.parse_card(message.text)
        require(
            len(message.rows) == CARD_ROWS and all(len(row) == CARD_COLS for row in message.rows),
            f"{field}.rows",
            f"a card is {CARD_ROWS} rows of {CARD_COLS} squares ('#' coloured, '.' empty), got {list(message.rows)}",
        )
        first = TERRAIN_FROM_PROTO.get(message.first)
        second = TERRAIN_FROM_PROTO.get(message.second)
        require(first is not None, f"{field}.first", "unknown or unspecified terrain")
        require(second is not None, f"{field}.second", "unknown or unspecified terrain")
        require(first != second, f"{field}.second", "a card shows two different terrains")
        return Card((first, second), rules.pattern_from_rows(list(message.rows)), message.fair_weather)
    except IllegalMove as error:
        raise InvalidArgument(field, str(error)) from None


def card_to_proto(card: Card) -> pb.CampsiteCard:
    return pb.CampsiteCard(text=card.text())


def _coordinate(value: int, field: str) -> int:
    require_limit(abs(value), MAX_COORDINATE, field, "distance from the origin")
    return value


def placement_from_proto(message: pb.CampsitePlacement, field: str) -> Placement:
    require(message.HasField("card"), f"{field}.card", "a placement needs its card")
    card = card_from_proto(message.card, f"{field}.card")
    require(0 <= message.rotation <= 3, f"{field}.rotation", "quarter turns clockwise, 0-3")
    return Placement(
        card, _coordinate(message.row, f"{field}.row"), _coordinate(message.col, f"{field}.col"), message.rotation
    )


def placement_to_proto(placement: Placement) -> pb.CampsitePlacement:
    return pb.CampsitePlacement(
        card=card_to_proto(placement.card), row=placement.row, col=placement.col, rotation=placement.rotation
    )


def token_from_proto(value: int, field: str) -> Token:
    token = TOKEN_FROM_PROTO.get(value)
    require(token is not None, field, "unknown or unspecified tent token")
    assert token is not None
    return token


def tent_from_proto(message: pb.CampsiteTent, field: str) -> Tent:
    require(0 <= message.player < rules.MAX_PLAYERS, f"{field}.player", f"a seat 0-{rules.MAX_PLAYERS - 1}")
    return Tent(
        message.player,
        token_from_proto(message.token, f"{field}.token"),
        _coordinate(message.row, f"{field}.row"),
        _coordinate(message.col, f"{field}.col"),
    )


def tent_to_proto(tent: Tent) -> pb.CampsiteTent:
    return pb.CampsiteTent(player=tent.player, token=TOKEN_TO_PROTO[tent.token], row=tent.row, col=tent.col)


def table_from_proto(message: pb.CampsiteTable, field: str) -> Table:
    require_limit(len(message.placements), MAX_TABLE_CARDS, f"{field}.placements", "table size (cards)")
    require_limit(len(message.tents), rules.MAX_PLAYERS * len(rules.ALL_TOKENS), f"{field}.tents", "tents on the table")
    table = Table()
    for index, placement_message in enumerate(message.placements):
        name = f"{field}.placements[{index}]"
        placement = placement_from_proto(placement_message, name)
        try:
            table = table.place(placement)
        except IllegalMove as error:
            raise InvalidArgument(name, str(error)) from None
    used: set[tuple[int, Token]] = set()
    for index, tent_message in enumerate(message.tents):
        name = f"{field}.tents[{index}]"
        tent = tent_from_proto(tent_message, name)
        require((tent.player, tent.token) not in used, f"{name}.token", "token already used by this player")
        used.add((tent.player, tent.token))
        try:
            table = table.pitch(tent)
        except IllegalMove as error:
            raise InvalidArgument(name, str(error)) from None
    return table


def table_to_proto(table: Table) -> pb.CampsiteTable:
    return pb.CampsiteTable(
        placements=[placement_to_proto(p) for p in table.placements], tents=[tent_to_proto(t) for t in table.tents]
    )


def _players(requested: int, table: Table, player: int, field: str) -> int:
    seats = max([player + 1] + [t.player + 1 for t in table.tents])
    if requested == 0:
        return max(2, seats)
    require(rules.MIN_PLAYERS <= requested <= rules.MAX_PLAYERS, field, f"{rules.MIN_PLAYERS}-{rules.MAX_PLAYERS}")
    require(requested >= seats, field, f"the table has tents of seat {seats - 1}")
    return requested


def _deck(cards: Sequence[pb.CampsiteCard], field: str) -> tuple[Card, ...]:
    require_limit(len(cards), MAX_DECK, field, "deck size")
    if not cards:
        return rules.default_deck()
    return tuple(card_from_proto(c, f"{field}[{i}]") for i, c in enumerate(cards))


class Turn:
    """A validated decision: table, hand, unused tokens, mover, players, deck."""

    def __init__(self, message: pb.CampsiteTurnState, field: str) -> None:
        self.table = table_from_proto(message.table, f"{field}.table")
        require(len(message.hand) >= 1, f"{field}.hand", "the mover needs at least one card")
        require_limit(len(message.hand), MAX_HAND, f"{field}.hand", "hand size")
        self.hand = tuple(card_from_proto(c, f"{field}.hand[{i}]") for i, c in enumerate(message.hand))
        require(0 <= message.player < rules.MAX_PLAYERS, f"{field}.player", f"a seat 0-{rules.MAX_PLAYERS - 1}")
        self.player = message.player
        self.players = _players(message.players, self.table, self.player, f"{field}.players")
        pitched = {t.token for t in self.table.tents if t.player == self.player}
        if message.tokens:
            tokens: list[Token] = []
            for index, value in enumerate(message.tokens):
                name = f"{field}.tokens[{index}]"
                token = token_from_proto(value, name)
                require(token not in pitched, name, f"token {token.name} is already used: it stands on the table")
                require(token not in tokens, name, f"token {token.name} is listed twice")
                tokens.append(token)
            self.tokens = tuple(tokens)
        else:
            self.tokens = tuple(t for t in rules.ALL_TOKENS if t not in pitched)
        require(bool(self.tokens), f"{field}.tokens", "the mover has no tent token left this round")
        self.deck = _deck(message.deck, f"{field}.deck")
        require(bool(self.table.placements), f"{field}.table.placements", "a turn starts from the two starting cards")

    def to_proto(self) -> pb.CampsiteTurnState:
        return pb.CampsiteTurnState(
            table=table_to_proto(self.table),
            hand=[card_to_proto(c) for c in self.hand],
            tokens=[TOKEN_TO_PROTO[t] for t in self.tokens],
            player=self.player,
            players=self.players,
        )


def play_to_proto(placement: Placement, tent: Tent) -> pb.CampsitePlay:
    return pb.CampsitePlay(placement=placement_to_proto(placement), tent=tent_to_proto(tent))


def play_label(placement: Placement, tent: Tent) -> str:
    return f"lay {placement.label()}; tent {tent.token.name} at r{tent.row}c{tent.col}"


def game_from_proto(message: pb.CampsiteGame, field: str = "game") -> rules.CampsiteState:
    """A whole game from its message; the draw pile is the deck minus the table and the hands."""
    players = message.players
    require(
        rules.MIN_PLAYERS <= players <= rules.MAX_PLAYERS,
        f"{field}.players",
        f"{rules.MIN_PLAYERS}-{rules.MAX_PLAYERS}, got {players}",
    )
    deck = _deck(message.deck, f"{field}.deck")
    stage = GAME_STAGE_FROM_PROTO.get(message.stage)
    require(stage is not None, f"{field}.stage", "DEAL, CARD, DRAW or OVER")
    require(0 <= message.round < rules.ROUNDS, f"{field}.round", f"0-{rules.ROUNDS - 1}")
    turns = rules.TURNS_PER_ROUND * players
    require(0 <= message.turn <= turns, f"{field}.turn", f"0-{turns}")
    require(len(message.hands) == players, f"{field}.hands", f"one hand per player ({players})")
    hands = []
    for seat, hand in enumerate(message.hands):
        require_limit(len(hand.cards), MAX_HAND, f"{field}.hands[{seat}].cards", "hand size")
        hands.append(
            tuple(sorted(card_from_proto(c, f"{field}.hands[{seat}].cards[{i}]") for i, c in enumerate(hand.cards)))
        )
    table = table_from_proto(message.table, f"{field}.table")
    require(len(message.tokens) == players, f"{field}.tokens", f"one token list per player ({players})")
    tokens = []
    for seat, held in enumerate(message.tokens):
        found = {token_from_proto(v, f"{field}.tokens[{seat}].tokens[{i}]") for i, v in enumerate(held.tokens)}
        require(len(found) == len(held.tokens), f"{field}.tokens[{seat}].tokens", "a token listed twice")
        tokens.append(frozenset(found))
    totals = tuple(message.totals) or (0,) * players
    require(len(totals) == players, f"{field}.totals", f"one total per player ({players})")
    require(
        len(message.round_scores) == message.round + (stage is rules.Stage.OVER),
        f"{field}.round_scores",
        "one entry per round already scored",
    )
    round_scores = tuple(tuple(r.scores) for r in message.round_scores)
    for index, scores in enumerate(round_scores):
        require(len(scores) == players, f"{field}.round_scores[{index}].scores", f"one score per player ({players})")
    pile = Counter(deck)
    pile.subtract(p.card for p in table.placements)
    pile.subtract(card for hand in hands for card in hand)
    require(
        all(n >= 0 for n in pile.values()), f"{field}.table", "the table and the hands hold cards the deck does not"
    )
    state = rules.CampsiteState(
        players=players,
        deck=deck,
        round=message.round,
        turn=message.turn,
        stage=stage,
        pile=tuple(sorted(pile.elements())),
        hands=tuple(hands),
        table=table,
        tokens=tuple(tokens),
        totals=totals,
        round_scores=round_scores,
        starter=message.round % players,
    )
    if stage is rules.Stage.CARD:
        require(bool(state.hands[state.to_move]), f"{field}.hands[{state.to_move}]", "the player to move has no card")
        require(bool(state.tokens[state.to_move]), f"{field}.tokens[{state.to_move}]", "no tent token left")
    if stage in (rules.Stage.DEAL, rules.Stage.DRAW):
        require(bool(state.pile), f"{field}.stage", "a chance step with an empty draw pile")
    if stage is rules.Stage.DEAL:
        laid = len(table.placements)
        dealt = sum(len(hand) for hand in hands)
        due = rules.STARTING_CARDS - min(laid, rules.STARTING_CARDS) + rules.HAND_SIZE * players - dealt
        require(
            laid <= rules.STARTING_CARDS and not table.tents and message.turn == 0,
            f"{field}.table",
            "the deal comes before any turn: the starting cards only",
        )
        for index, placement in enumerate(table.placements):
            start = Placement(placement.card, 0, rules.CARD_COLS * index, 0)
            require(
                placement == start,
                f"{field}.table.placements[{index}]",
                f"starting card {index} lies at row 0, column {rules.CARD_COLS * index}, rotation 0",
            )
        require(
            0 < due <= len(state.pile),
            f"{field}.hands",
            f"the deal gives {rules.HAND_SIZE} cards a hand from the pile, after the starting cards",
        )
    return state


def game_to_proto(state: rules.CampsiteState) -> pb.CampsiteGame:
    return pb.CampsiteGame(
        players=state.players,
        deck=[] if state.deck == rules.default_deck() else [card_to_proto(c) for c in state.deck],
        round=state.round,
        turn=state.turn,
        stage=GAME_STAGE_TO_PROTO[state.stage],
        hands=[pb.CampsiteHand(cards=[card_to_proto(c) for c in hand]) for hand in state.hands],
        table=table_to_proto(state.table),
        tokens=[pb.CampsiteTokens(tokens=[TOKEN_TO_PROTO[t] for t in sorted(held)]) for held in state.tokens],
        totals=state.totals,
        round_scores=[pb.CampsiteRoundScores(scores=scores) for scores in state.round_scores],
    )


def _turn_of_game(message: pb.CampsiteGame, field: str = "game") -> pb.CampsiteTurnState:
    """The turn of the player to move in a whole game, as Hint and LegalMoves take it."""
    state = game_from_proto(message, field)
    require(state.stage is rules.Stage.CARD, f"{field}.stage", "no player decides now (chance is next or it is over)")
    mover = state.to_move
    return pb.CampsiteTurnState(
        table=message.table,
        hand=message.hands[mover].cards,
        tokens=[TOKEN_TO_PROTO[t] for t in sorted(state.tokens[mover])],
        player=mover,
        players=state.players,
        deck=message.deck,
    )


def _with_turn_of_game(request: Any) -> Any:
    """A copy of a Hint or LegalMoves request with `game` replaced by the turn of its player to move (the
    request itself is left alone: the dispatcher may run a handler twice)."""
    plain = type(request)()
    plain.CopyFrom(request)
    plain.ClearField("game")
    plain.state.CopyFrom(_turn_of_game(request.game))
    return plain
