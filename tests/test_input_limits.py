"""Every request validator and documented limit at its edge and one past it, on the wire, in every game.

Table-driven: each case builds a request from one value; the value on the edge must get past that field's check
(a cheap call answers; a solving call may run out of its small budget but never refuses the field), and the
value one past it must be refused with the expected code naming the field. Size limits answer
RESOURCE_EXHAUSTED (a number above one of the service's own caps: sizes, counts, lengths, depths, coordinates,
time) and values the rules do not allow INVALID_ARGUMENT (below the least, a negative count, more turns than a
round has, a rotation outside 0-3): the README's rule.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import grpc
import pytest
from campsolver.clients.client import CampsolverClient, CampsolverError
from campsolver.service import dispatch
from campsolver.service.games import adventure_tours as at_service
from campsolver.service.games import camper_tour as ct_service
from campsolver.service.games import campsite as cs_service
from campsolver.service.games import deluxe_camping as dc_service
from campsolver.service.games import happy_campers as hc_service
from campsolver.solver.adventure_tours import rules as at_rules
from campsolver.solver.adventure_tours.deck import DEFAULT_DECK, Card
from campsolver.solver.camper_tour import rules as ct_rules
from campsolver.solver.camper_tour.opponents import MAX_RECORD
from campsolver.solver.campsite import rules as cs_rules
from campsolver.solver.deluxe_camping import rules as dc_rules
from campsolver.solver.happy_campers import rules as hc_rules

from campsolver.v1 import adventure_tours_pb2 as at_pb
from campsolver.v1 import camper_tour_pb2 as ct_pb
from campsolver.v1 import campsite_pb2 as cs_pb
from campsolver.v1 import common_pb2
from campsolver.v1 import deluxe_camping_pb2 as dc_pb
from campsolver.v1 import happy_campers_pb2 as hc_pb

INVALID = grpc.StatusCode.INVALID_ARGUMENT
EXHAUSTED = grpc.StatusCode.RESOURCE_EXHAUSTED
#: Budget of a solving call on an edge value: enough to get past validation, never a long solve.
SOLVE_S = 0.3


@dataclass(frozen=True)
class Limit:
    """One boundary: `build(value)` is a request; `edge` must pass the check on `field`, `past` must fail it."""

    id: str
    game: str  # attribute of the client
    rpc: str  # method of the game's client
    build: Callable[[Any], Any]
    edge: Any
    past: Any
    code: grpc.StatusCode
    field: str
    cheap: bool = True  # the edge request must answer OK (False: a solve under SOLVE_S, any outcome but a refusal)


def _call(client: CampsolverClient, limit: Limit, value: Any) -> Any:
    return getattr(getattr(client, limit.game), limit.rpc)(limit.build(value), timeout=30)


def _solve_options() -> common_pb2.SolveOptions:
    return common_pb2.SolveOptions(time_limit_seconds=SOLVE_S)


# --- Happy Campers -------------------------------------------------------------------------------------------


def hc_legal(first: int = 4, second: int = 2) -> hc_pb.HappyCampersServiceLegalMovesRequest:
    return hc_pb.HappyCampersServiceLegalMovesRequest(roll=hc_pb.HappyCampersRoll(first=first, second=second))


def hc_board(rows: int = 5, cols: int = 9) -> hc_pb.HappyCampersServiceScoreRequest:
    return hc_pb.HappyCampersServiceScoreRequest(components=hc_pb.HappyCampersComponents(rows=rows, cols=cols))


def hc_max_rolls(count: int) -> hc_pb.HappyCampersServiceMaxScoreRequest:
    return hc_pb.HappyCampersServiceMaxScoreRequest(
        rolls=[hc_pb.HappyCampersRoll(first=1 + i % 6, second=1 + (i + 1) % 6) for i in range(count)],
        options=_solve_options(),
    )


def hc_multiplayer(players: int | None = None, other_maps: int = 0) -> hc_pb.HappyCampersServiceHintRequest:
    request = hc_pb.HappyCampersServiceHintRequest(
        roll=hc_pb.HappyCampersRoll(first=4, second=2), mode=hc_pb.HINT_MODE_MULTIPLAYER, options=_solve_options()
    )
    if players is not None:
        request.players = players
    request.other_maps.extend(hc_pb.HappyCampersMap() for _ in range(other_maps))
    return request


def hc_challenges(cards: list[int]) -> hc_pb.HappyCampersServiceScoreRequest:
    return hc_pb.HappyCampersServiceScoreRequest(challenges=cards)


HAPPY_CAMPERS = [
    Limit(
        "die face 0 (first)", "happy_campers", "legal_moves", lambda v: hc_legal(first=v), 1, 0, INVALID, "roll.first"
    ),
    Limit(
        "die face 7 (first)", "happy_campers", "legal_moves", lambda v: hc_legal(first=v), 6, 7, INVALID, "roll.first"
    ),
    Limit(
        "die face 0 (second)",
        "happy_campers",
        "legal_moves",
        lambda v: hc_legal(second=v),
        1,
        0,
        INVALID,
        "roll.second",
    ),
    Limit(
        "die face 7 (second)",
        "happy_campers",
        "legal_moves",
        lambda v: hc_legal(second=v),
        6,
        7,
        INVALID,
        "roll.second",
    ),
    Limit(
        "board rows",
        "happy_campers",
        "score",
        lambda v: hc_board(rows=v),
        hc_rules.MAX_MAP_SIDE,
        hc_rules.MAX_MAP_SIDE + 1,
        EXHAUSTED,
        "components.rows",
    ),
    Limit(
        "board cols",
        "happy_campers",
        "score",
        lambda v: hc_board(cols=v),
        hc_rules.MAX_MAP_SIDE,
        hc_rules.MAX_MAP_SIDE + 1,
        EXHAUSTED,
        "components.cols",
    ),
    Limit(
        "max rolls",
        "happy_campers",
        "max_score",
        hc_max_rolls,
        hc_service.MAX_ROLLS,
        hc_service.MAX_ROLLS + 1,
        EXHAUSTED,
        "rolls",
        cheap=False,
    ),
    Limit(
        "puzzle rolls (most)",
        "happy_campers",
        "generate_puzzle",
        lambda v: hc_pb.HappyCampersServiceGeneratePuzzleRequest(rolls=v, options=_solve_options()),
        hc_service.MAX_PUZZLE_ROLLS,
        hc_service.MAX_PUZZLE_ROLLS + 1,
        EXHAUSTED,
        "rolls",
        cheap=False,
    ),
    Limit(
        "puzzle rolls (fewest)",
        "happy_campers",
        "generate_puzzle",
        lambda v: hc_pb.HappyCampersServiceGeneratePuzzleRequest(rolls=v, options=_solve_options()),
        1,
        -1,
        INVALID,
        "rolls",
        cheap=False,
    ),
    Limit(
        "hint players (most)",
        "happy_campers",
        "hint",
        lambda v: hc_multiplayer(players=v),
        hc_service.MAX_HINT_PLAYERS,
        hc_service.MAX_HINT_PLAYERS + 1,
        EXHAUSTED,
        "players",
        cheap=False,
    ),
    Limit(
        "hint players (fewest)",
        "happy_campers",
        "hint",
        lambda v: hc_multiplayer(players=v),
        2,
        1,
        INVALID,
        "players",
        cheap=False,
    ),
    Limit(
        "hint other maps",
        "happy_campers",
        "hint",
        lambda v: hc_multiplayer(other_maps=v),
        hc_service.MAX_HINT_PLAYERS - 1,
        hc_service.MAX_HINT_PLAYERS,
        EXHAUSTED,
        "other_maps",
        cheap=False,
    ),
    Limit(
        "duplicate challenge card",
        "happy_campers",
        "score",
        hc_challenges,
        [hc_pb.CHALLENGE_PRIVACY, hc_pb.CHALLENGE_TENT_TOGETHER],
        [hc_pb.CHALLENGE_PRIVACY, hc_pb.CHALLENGE_PRIVACY],
        INVALID,
        "challenges[1]",
    ),
]


# --- Campsite ------------------------------------------------------------------------------------------------


def cs_turn(**changes: Any) -> cs_pb.CampsiteTurnState:
    turn = cs_service.example_turn()
    for name, value in changes.items():
        if name in ("hand", "deck", "tokens"):
            del getattr(turn, name)[:]
            getattr(turn, name).extend(value)
        else:
            setattr(turn, name, value)
    return turn


def cs_legal(**changes: Any) -> cs_pb.CampsiteServiceLegalMovesRequest:
    return cs_pb.CampsiteServiceLegalMovesRequest(state=cs_turn(**changes))


def cs_cards(count: int) -> list[cs_pb.CampsiteCard]:
    deck = cs_rules.default_deck()
    return [cs_pb.CampsiteCard(text=deck[i % len(deck)].text()) for i in range(count)]


def cs_after(row: int = 4, col: int = 0, rotation: int = 0) -> cs_pb.CampsiteServiceLegalMovesRequest:
    request = cs_legal()
    request.after.CopyFrom(cs_pb.CampsitePlacement(card=request.state.hand[0], row=row, col=col, rotation=rotation))
    return request


def cs_chain(count: int) -> cs_pb.CampsiteServiceScoreRequest:
    """`count` cards laid side by side in one long row (each touches the one before it)."""
    cards = cs_cards(count)
    return cs_pb.CampsiteServiceScoreRequest(
        table=cs_pb.CampsiteTable(
            placements=[cs_pb.CampsitePlacement(card=c, row=0, col=3 * i) for i, c in enumerate(cards)]
        )
    )


def cs_chain_table(count: int) -> cs_rules.Table:
    """The rules model's table of `cs_chain(count)`."""
    table = cs_rules.Table()
    for message in cs_chain(count).table.placements:
        table = table.place(cs_service.placement_from_proto(message, "placement"))
    return table


TOKENS = list(cs_service.TOKEN_FROM_PROTO)
#: Empty squares of a long row of cards: where tents may stand.
FREE = cs_chain_table(40).free_squares()
#: Every seat's every token, each on its own empty square.
ALL_TENTS = [(p, t, *FREE[i]) for i, (p, t) in enumerate((p, t) for p in range(cs_rules.MAX_PLAYERS) for t in TOKENS)]


def cs_tents(tents: list[tuple[int, int, int, int]]) -> cs_pb.CampsiteServiceScoreRequest:
    """A long row of cards with tents (player, token, row, col), scored for the most seats."""
    request = cs_chain(40)
    request.table.tents.extend(cs_pb.CampsiteTent(player=p, token=t, row=r, col=c) for p, t, r, c in tents)
    request.players = cs_rules.MAX_PLAYERS
    return request


def cs_card_at(row: int = 0, col: int = 0) -> cs_pb.CampsiteServiceScoreRequest:
    """One card on the table, its top-left square at (row, col)."""
    request = cs_chain(1)
    request.table.placements[0].row, request.table.placements[0].col = row, col
    return request


def cs_round(turns: int = 1, cards: int = 12) -> cs_pb.CampsiteServiceMaxScoreRequest:
    return cs_pb.CampsiteServiceMaxScoreRequest(
        round=cs_pb.CampsiteRound(order=cs_cards(cards), turns=turns), options=_solve_options()
    )


def cs_hint_top(top: int) -> cs_pb.CampsiteServiceHintRequest:
    return cs_pb.CampsiteServiceHintRequest(state=cs_turn(), top=top, options=_solve_options())


CAMPSITE = [
    Limit(
        "hand size",
        "campsite",
        "legal_moves",
        lambda v: cs_legal(hand=cs_cards(v)),
        cs_service.MAX_HAND,
        cs_service.MAX_HAND + 1,
        EXHAUSTED,
        "state.hand",
    ),
    Limit("empty hand", "campsite", "legal_moves", lambda v: cs_legal(hand=cs_cards(v)), 1, 0, INVALID, "state.hand"),
    Limit(
        "deck size",
        "campsite",
        "legal_moves",
        lambda v: cs_legal(deck=cs_cards(v)),
        cs_service.MAX_DECK,
        cs_service.MAX_DECK + 1,
        EXHAUSTED,
        "state.deck",
    ),
    Limit(
        "table cards",
        "campsite",
        "score",
        cs_chain,
        cs_service.MAX_TABLE_CARDS,
        cs_service.MAX_TABLE_CARDS + 1,
        EXHAUSTED,
        "table.placements",
    ),
    Limit(
        "tents on the table",
        "campsite",
        "score",
        cs_tents,
        ALL_TENTS,
        [*ALL_TENTS, ALL_TENTS[0]],
        EXHAUSTED,
        "table.tents",
    ),
    Limit(
        "duplicate tent token",
        "campsite",
        "score",
        cs_tents,
        [(0, TOKENS[0], *FREE[0]), (0, TOKENS[1], *FREE[1])],
        [(0, TOKENS[0], *FREE[0]), (0, TOKENS[0], *FREE[1])],
        INVALID,
        "table.tents[1].token",
    ),
    Limit(
        "duplicate token in the hand's tokens",
        "campsite",
        "legal_moves",
        lambda v: cs_legal(tokens=v),
        [TOKENS[0], TOKENS[1]],
        [TOKENS[0], TOKENS[0]],
        INVALID,
        "state.tokens[1]",
    ),
    Limit(
        "tent seat",
        "campsite",
        "score",
        lambda v: cs_tents([(v, TOKENS[0], *FREE[0])]),
        cs_rules.MAX_PLAYERS - 1,
        cs_rules.MAX_PLAYERS,
        INVALID,
        "table.tents[0].player",
    ),
    Limit(
        "seat to move",
        "campsite",
        "legal_moves",
        lambda v: cs_legal(player=v, players=0),
        cs_rules.MAX_PLAYERS - 1,
        cs_rules.MAX_PLAYERS,
        INVALID,
        "state.player",
    ),
    Limit(
        "players (most)",
        "campsite",
        "legal_moves",
        lambda v: cs_legal(players=v),
        cs_rules.MAX_PLAYERS,
        cs_rules.MAX_PLAYERS + 1,
        INVALID,
        "state.players",
    ),
    Limit(
        "players (fewest: the table's seats)",
        "campsite",
        "legal_moves",
        lambda v: cs_legal(players=v),
        2,
        1,
        INVALID,
        "state.players",
    ),
    Limit(
        "rotation (most)", "campsite", "legal_moves", lambda v: cs_after(rotation=v), 3, 4, INVALID, "after.rotation"
    ),
    Limit(
        "rotation (fewest)", "campsite", "legal_moves", lambda v: cs_after(rotation=v), 0, -1, INVALID, "after.rotation"
    ),
    Limit(
        "coordinate (most)",
        "campsite",
        "score",
        lambda v: cs_card_at(row=v),
        cs_service.MAX_COORDINATE,
        cs_service.MAX_COORDINATE + 1,
        EXHAUSTED,
        "table.placements[0].row",
    ),
    Limit(
        "coordinate (fewest)",
        "campsite",
        "score",
        lambda v: cs_card_at(col=v),
        -cs_service.MAX_COORDINATE,
        -cs_service.MAX_COORDINATE - 1,
        EXHAUSTED,
        "table.placements[0].col",
    ),
    Limit(
        "coordinate of a move",
        "campsite",
        "legal_moves",
        lambda v: cs_after(row=v),
        cs_service.MAX_COORDINATE,
        cs_service.MAX_COORDINATE + 1,
        EXHAUSTED,
        "after.row",
        cheap=False,
    ),
    Limit(
        "hint top (most)",
        "campsite",
        "hint",
        cs_hint_top,
        cs_service.MAX_TOP,
        cs_service.MAX_TOP + 1,
        EXHAUSTED,
        "top",
        cheap=False,
    ),
    Limit("hint top (fewest)", "campsite", "hint", cs_hint_top, 0, -1, INVALID, "top", cheap=False),
    Limit(
        "round turns (most)",
        "campsite",
        "max_score",
        lambda v: cs_round(turns=v),
        cs_rules.TURNS_PER_ROUND,
        cs_rules.TURNS_PER_ROUND + 1,
        INVALID,
        "round.turns",
        cheap=False,
    ),
    Limit(
        "round order (most)",
        "campsite",
        "max_score",
        lambda v: cs_round(cards=v),
        cs_service.MAX_DECK,
        cs_service.MAX_DECK + 1,
        EXHAUSTED,
        "round.order",
        cheap=False,
    ),
    Limit(
        "round order (fewest)",
        "campsite",
        "max_score",
        lambda v: cs_round(turns=1, cards=v),
        cs_rules.STARTING_CARDS + cs_rules.HAND_SIZE,
        cs_rules.STARTING_CARDS + cs_rules.HAND_SIZE - 1,
        INVALID,
        "round.order",
        cheap=False,
    ),
]


# --- Deluxe Camping ------------------------------------------------------------------------------------------


def dc_empty(**rules: int) -> dc_pb.DeluxeCampingServiceScoreRequest:
    """A board before setup (no pieces), its rules as given."""
    return dc_pb.DeluxeCampingServiceScoreRequest(
        state=dc_pb.DeluxeCampingState(rules=dc_pb.DeluxeCampingRules(**rules), stage=dc_pb.DELUXE_CAMPING_STAGE_POOL)
    )


def dc_example(change: Callable[[dc_pb.DeluxeCampingState], None]) -> dc_pb.DeluxeCampingServiceScoreRequest:
    state = dc_service.example_state()
    change(state)
    return dc_pb.DeluxeCampingServiceScoreRequest(state=state)


def dc_hint_replies(plies: int) -> dc_pb.DeluxeCampingServiceHintRequest:
    request = dc_service.EXAMPLES["Hint"]()
    request.max_reply_plies = plies
    return request


def dc_free_square(state: dc_pb.DeluxeCampingState, col: int) -> int:
    """A row whose square in column `col` (or, past the board, its last column) holds no piece."""
    taken = {(s.row, s.col) for s in [state.pool, state.nuisance, *state.ice_creams, *state.mystery]}
    for player in state.players:
        taken |= {(s.row, s.col) for s in [player.bungalow, *player.trailers]}
    cols = state.rules.cols
    return next(r for r in range(state.rules.rows) if (r, min(col, cols - 1)) not in taken)


def dc_pool_at_col(col: int) -> dc_pb.DeluxeCampingServiceScoreRequest:
    def move(state: dc_pb.DeluxeCampingState) -> None:
        state.pool.row, state.pool.col = dc_free_square(state, col), col

    return dc_example(move)


def dc_pool_at_row(row: int) -> dc_pb.DeluxeCampingServiceScoreRequest:
    def move(state: dc_pb.DeluxeCampingState) -> None:
        cols = state.rules.cols
        taken = {(s.row, s.col) for p in state.players for s in [p.bungalow, *p.trailers]}
        taken |= {(s.row, s.col) for s in [state.nuisance, *state.ice_creams]}
        last = min(row, state.rules.rows - 1)
        state.pool.row, state.pool.col = row, next(c for c in range(cols) if (last, c) not in taken)

    return dc_example(move)


def dc_to_move(value: int) -> dc_pb.DeluxeCampingServiceScoreRequest:
    def move(state: dc_pb.DeluxeCampingState) -> None:
        state.to_move = value

    return dc_example(move)


DELUXE_CAMPING = [
    Limit(
        "reply plies (most)",
        "deluxe_camping",
        "hint",
        dc_hint_replies,
        dc_service.HINT_REPLY_PLIES_LIMIT,
        dc_service.HINT_REPLY_PLIES_LIMIT + 1,
        EXHAUSTED,
        "max_reply_plies",
        cheap=False,
    ),
    Limit(
        "reply plies (fewest)",
        "deluxe_camping",
        "hint",
        dc_hint_replies,
        0,
        -1,
        INVALID,
        "max_reply_plies",
        cheap=False,
    ),
    Limit(
        "board rows (most)",
        "deluxe_camping",
        "score",
        lambda v: dc_empty(rows=v, cols=10),
        dc_service.MAX_SIDE,
        dc_service.MAX_SIDE + 1,
        EXHAUSTED,
        "state.rules.rows",
    ),
    Limit(
        "board cols (most)",
        "deluxe_camping",
        "score",
        lambda v: dc_empty(rows=10, cols=v),
        dc_service.MAX_SIDE,
        dc_service.MAX_SIDE + 1,
        EXHAUSTED,
        "state.rules.cols",
    ),
    Limit(
        "board rows (fewest)",
        "deluxe_camping",
        "score",
        lambda v: dc_empty(rows=v, cols=20, trailers=0),
        1,
        0,
        INVALID,
        "state.rules.rows",
    ),
    Limit(
        "board cols (fewest)",
        "deluxe_camping",
        "score",
        lambda v: dc_empty(rows=20, cols=v, trailers=0),
        1,
        0,
        INVALID,
        "state.rules.cols",
    ),
    Limit(
        "board squares",
        "deluxe_camping",
        "score",
        lambda v: dc_empty(rows=16, cols=v),
        16,
        17,
        EXHAUSTED,
        "state.rules",
    ),
    Limit(
        "trailers (most)",
        "deluxe_camping",
        "score",
        lambda v: dc_empty(trailers=v),
        dc_service.MAX_TRAILERS,
        dc_service.MAX_TRAILERS + 1,
        EXHAUSTED,
        "state.rules.trailers",
    ),
    Limit(
        "trailers (fewest)",
        "deluxe_camping",
        "score",
        lambda v: dc_empty(trailers=v),
        0,
        -1,
        INVALID,
        "state.rules.trailers",
    ),
    Limit(
        "supply (most)",
        "deluxe_camping",
        "score",
        lambda v: dc_empty(supply=v),
        dc_service.MAX_SUPPLY,
        dc_service.MAX_SUPPLY + 1,
        EXHAUSTED,
        "state.rules.supply",
    ),
    Limit(
        "supply (fewest)", "deluxe_camping", "score", lambda v: dc_empty(supply=v), 0, -1, INVALID, "state.rules.supply"
    ),
    Limit(
        "players (most)",
        "deluxe_camping",
        "score",
        lambda v: dc_empty(players=v),
        dc_rules.MAX_PLAYERS,
        dc_rules.MAX_PLAYERS + 1,
        INVALID,
        "state.rules.players",
    ),
    Limit(
        "players (fewest)",
        "deluxe_camping",
        "score",
        lambda v: dc_empty(players=v),
        dc_rules.MIN_PLAYERS,
        dc_rules.MIN_PLAYERS - 1,
        INVALID,
        "state.rules.players",
    ),
    Limit(
        "cell col == cols",
        "deluxe_camping",
        "score",
        dc_pool_at_col,
        dc_rules.DEFAULT_COLS - 1,
        dc_rules.DEFAULT_COLS,
        INVALID,
        "state.pool.col",
    ),
    Limit("cell col < 0", "deluxe_camping", "score", dc_pool_at_col, 0, -1, INVALID, "state.pool.col"),
    Limit(
        "cell row == rows",
        "deluxe_camping",
        "score",
        dc_pool_at_row,
        dc_rules.DEFAULT_ROWS - 1,
        dc_rules.DEFAULT_ROWS,
        INVALID,
        "state.pool.row",
    ),
    Limit("player to move", "deluxe_camping", "score", dc_to_move, 1, 2, INVALID, "state.to_move"),
    Limit(
        "puzzle barriers (most)",
        "deluxe_camping",
        "generate_puzzle",
        lambda v: dc_pb.DeluxeCampingServiceGeneratePuzzleRequest(barriers=v, options=_solve_options()),
        dc_service.MAX_PUZZLE_BARRIERS,
        dc_service.MAX_PUZZLE_BARRIERS + 1,
        EXHAUSTED,
        "barriers",
        cheap=False,
    ),
    Limit(
        "puzzle barriers (fewest)",
        "deluxe_camping",
        "generate_puzzle",
        lambda v: dc_pb.DeluxeCampingServiceGeneratePuzzleRequest(barriers=v, options=_solve_options()),
        1,
        -1,
        INVALID,
        "barriers",
        cheap=False,
    ),
]


# --- Camper Tour ---------------------------------------------------------------------------------------------


def ct_finished(tokens: int) -> ct_pb.CamperTourServiceScoreRequest:
    """Two campers home, the first holding `tokens` (the game over by arrival)."""
    return ct_pb.CamperTourServiceScoreRequest(
        state=ct_pb.CamperTourState(
            campers=[
                ct_pb.Camper(position=0, phase=ct_pb.CAMPER_PHASE_FINISHED, marker=30, tokens=tokens, arrival=1),
                ct_pb.Camper(position=0, phase=ct_pb.CAMPER_PHASE_FINISHED, marker=20, tokens=0, arrival=2),
            ]
        )
    )


def ct_outward(position: int = 10, tokens: int = 20, campers: int = 1, rules: dict[str, int] | None = None) -> Any:
    """Outward campers on plates `position`, `position` + 1, ..., each holding `tokens`, under `rules`."""
    return ct_pb.CamperTourServiceScoreRequest(
        state=ct_pb.CamperTourState(
            rules=ct_pb.CamperTourRules(**(rules or {})),
            campers=[ct_pb.Camper(position=position + i, tokens=tokens) for i in range(campers)],
        )
    )


def ct_returning(marker: int) -> ct_pb.CamperTourServiceScoreRequest:
    return ct_pb.CamperTourServiceScoreRequest(
        state=ct_pb.CamperTourState(
            rules=ct_pb.CamperTourRules(**NO_SPECIALS),
            campers=[ct_pb.Camper(position=0, phase=ct_pb.CAMPER_PHASE_FINISHED, marker=marker, tokens=0, arrival=1)],
        )
    )


def ct_hint(depth: int) -> ct_pb.CamperTourServiceHintRequest:
    return ct_pb.CamperTourServiceHintRequest(
        state=ct_outward().state, depth=depth, objective=common_pb2.OBJECTIVE_EXPECTED_SCORE, options=_solve_options()
    )


def ct_history(count: int) -> ct_pb.CamperTourServiceHintRequest:
    request = ct_hint(0)
    request.history.extend(ct_pb.CamperTourDecision() for _ in range(count))
    return request


#: A route of normal plates only (every plate of it may be laid).
NO_SPECIALS = {"unexpected_comforts": 0, "mechanical_problem": 0, "village_festival": 0, "no_parking": 0}
CT_DEEPEST = -ct_service.MAX_ROLL_OVERSHOOT * 2 * ct_rules.PLATE_COUNT
CT_SUPPLY = ct_rules.Config().token_limit

CAMPER_TOUR = [
    Limit(
        "finished camper's tokens",
        "camper_tour",
        "score",
        ct_finished,
        CT_SUPPLY,
        CT_SUPPLY + 1,
        INVALID,
        "state.campers[0].tokens",
    ),
    Limit(
        "finished camper holding 150 tokens",
        "camper_tour",
        "score",
        ct_finished,
        CT_SUPPLY,
        150,
        INVALID,
        "state.campers[0].tokens",
    ),
    Limit(
        "negative tokens",
        "camper_tour",
        "score",
        lambda v: ct_outward(tokens=v),
        1,
        -1,
        INVALID,
        "state.campers[0].tokens",
    ),
    Limit(
        "camper position (most)",
        "camper_tour",
        "score",
        lambda v: ct_outward(position=v, rules=NO_SPECIALS),
        ct_rules.PLATE_COUNT,
        ct_rules.PLATE_COUNT + 1,
        INVALID,
        "state.campers[0].position",
    ),
    Limit(
        "camper position (fewest)",
        "camper_tour",
        "score",
        lambda v: ct_outward(position=v),
        0,
        -1,
        INVALID,
        "state.campers[0].position",
    ),
    Limit(
        "place marker (deepest)",
        "camper_tour",
        "score",
        ct_returning,
        CT_DEEPEST,
        CT_DEEPEST - 1,
        INVALID,
        "state.campers[0].marker",
    ),
    Limit(
        "place marker (beyond the route)",
        "camper_tour",
        "score",
        ct_returning,
        ct_rules.PLATE_COUNT,
        ct_rules.PLATE_COUNT + 1,
        INVALID,
        "state.campers[0].marker",
    ),
    Limit(
        "campers (most)",
        "camper_tour",
        "score",
        lambda v: ct_outward(campers=v),
        ct_rules.MAX_CAMPERS,
        ct_rules.MAX_CAMPERS + 1,
        INVALID,
        "state.campers",
    ),
    Limit(
        "campers (fewest)",
        "camper_tour",
        "score",
        lambda v: ct_outward(campers=v),
        ct_rules.MIN_CAMPERS,
        ct_rules.MIN_CAMPERS - 1,
        INVALID,
        "state.campers",
    ),
    Limit(
        "route plates (most)",
        "camper_tour",
        "score",
        lambda v: ct_outward(rules={"plates": v}),
        ct_service.MAX_PLATES,
        ct_service.MAX_PLATES + 1,
        EXHAUSTED,
        "state.rules.plates",
    ),
    Limit(
        "route plates (fewest)",
        "camper_tour",
        "score",
        lambda v: ct_outward(
            position=1,
            tokens=5,
            rules={
                "plates": v,
                "unexpected_comforts": 0,
                "mechanical_problem": 0,
                "village_festival": 0,
                "no_parking": 0,
            },
        ),
        2,
        1,
        INVALID,
        "state.rules.plates",
    ),
    Limit(
        "tokens dealt (most)",
        "camper_tour",
        "score",
        lambda v: ct_outward(tokens=20, rules={"tokens": v}),
        ct_service.MAX_TOKENS,
        ct_service.MAX_TOKENS + 1,
        EXHAUSTED,
        "state.rules.tokens",
    ),
    Limit(
        "tokens dealt (fewest)",
        "camper_tour",
        "score",
        lambda v: ct_outward(tokens=1, rules={"tokens": v}),
        1,
        0,
        INVALID,
        "state.rules.tokens",
    ),
    Limit(
        "hint depth (most)",
        "camper_tour",
        "hint",
        ct_hint,
        ct_service.MAX_HINT_DEPTH,
        ct_service.MAX_HINT_DEPTH + 1,
        EXHAUSTED,
        "depth",
        cheap=False,
    ),
    Limit("hint depth (fewest)", "camper_tour", "hint", ct_hint, 0, -1, INVALID, "depth", cheap=False),
    Limit(
        "hint history", "camper_tour", "hint", ct_history, MAX_RECORD, MAX_RECORD + 1, EXHAUSTED, "history", cheap=False
    ),  # (the edge's empty decisions are refused later, naming history[0].state)
]


# --- Adventure Tours -----------------------------------------------------------------------------------------


def at_card(card: Card) -> at_pb.AdventureCard:
    return at_pb.AdventureCard(
        name=card.name,
        colour=at_service.COLOUR_TO_PROTO[card.colour],
        demand=card.demand,
        money=card.money,
        value=card.value,
        action=at_service.ACTION_TO_PROTO[card.action],
    )


def at_deck(extra: int, change: Callable[[at_pb.AdventureCard], None] | None = None) -> Any:
    """The example position with its deck given card by card: the default deck plus `extra` copies of its last
    card (appended: every card id of the position keeps its meaning); `change` edits the first card."""
    state = at_service.example_state(hidden=True)
    cards = [at_card(card) for card in DEFAULT_DECK]
    cards += [at_card(DEFAULT_DECK[-1]) for _ in range(extra)]
    if change is not None:
        change(cards[0])
    state.rules.deck.extend(cards)
    return at_pb.AdventureToursServiceScoreRequest(state=state)


def at_card_number(name: str) -> Callable[[int], Any]:
    return lambda v: at_deck(0, lambda card: setattr(card, name, v))


def at_rounds(rounds: int) -> Any:
    state = at_service.example_state(hidden=True)
    state.rules.rounds = rounds
    state.round = 1
    return at_pb.AdventureToursServiceScoreRequest(state=state)


def at_hand_card(card: int) -> Any:
    """The example position with card id `card` moved to the mover's first hand slot (the card that was there
    takes its old place)."""
    state = at_service.example_state(hidden=True)
    hand = state.players[state.to_move].hand
    old = hand[0]
    for where in [state.discard, state.pile, *(f for p in state.players for f in (p.hand, p.equipment, p.members))]:
        for i, value in enumerate(where):
            if value == card:
                where[i] = old
    hand[0] = card
    return at_pb.AdventureToursServiceScoreRequest(state=state)


def at_players(count: int) -> Any:
    state = at_service.example_state(hidden=True)
    while len(state.players) > count:
        del state.players[-1]
    while len(state.players) < count:
        state.players.add(hand_size=0)
    state.to_move = 0
    return at_pb.AdventureToursServiceLegalMovesRequest(state=state)


AT_DECK = len(DEFAULT_DECK)


def at_pending(count: int) -> at_pb.AdventureToursServiceLegalMovesRequest:
    """A new game's state whose turn queue holds `count` steps (the mover's play, then turn ends)."""
    state = at_service.new_game(at_pb.AdventureToursServiceNewGameRequest(players=3, seed=1), None).state
    mover = state.to_move
    del state.pending[:]
    state.pending.add(kind="play", player=mover, card=-1, aux=-1)
    state.pending.extend(
        at_pb.AdventurePendingStep(kind="end_turn", player=mover, card=-1, aux=-1) for _ in range(count - 1)
    )
    return at_pb.AdventureToursServiceLegalMovesRequest(state=state)


def hc_new_game(players: int) -> hc_pb.HappyCampersServiceNewGameRequest:
    return hc_pb.HappyCampersServiceNewGameRequest(players=players, seed=1)


ADVENTURE_TOURS = [
    Limit(
        "deck size",
        "adventure_tours",
        "score",
        at_deck,
        at_service.MAX_DECK - AT_DECK,
        at_service.MAX_DECK - AT_DECK + 1,
        EXHAUSTED,
        "state.rules.deck",
    ),
    *[
        Limit(
            f"card {name} (most)",
            "adventure_tours",
            "score",
            at_card_number(name),
            at_service.MAX_CARD_NUMBER,
            at_service.MAX_CARD_NUMBER + 1,
            EXHAUSTED,
            f"state.rules.deck[0].{name}",
        )
        for name in ("demand", "money", "value")
    ],
    Limit(
        "card money (fewest)",
        "adventure_tours",
        "score",
        at_card_number("money"),
        0,
        -1,
        INVALID,
        "state.rules.deck[0].money",
    ),
    Limit(
        "rounds (most)",
        "adventure_tours",
        "score",
        at_rounds,
        at_service.MAX_ROUNDS,
        at_service.MAX_ROUNDS + 1,
        EXHAUSTED,
        "state.rules.rounds",
    ),
    Limit("rounds (fewest)", "adventure_tours", "score", at_rounds, 1, 0, INVALID, "state.rules.rounds"),
    Limit(
        "card id", "adventure_tours", "score", at_hand_card, AT_DECK - 1, AT_DECK, INVALID, "state.players[0].hand[0]"
    ),
    Limit(
        "players (most)",
        "adventure_tours",
        "legal_moves",
        at_players,
        at_rules.MAX_PLAYERS,
        at_rules.MAX_PLAYERS + 1,
        INVALID,
        "state.players",
    ),
    Limit(
        "pending steps",
        "adventure_tours",
        "legal_moves",
        at_pending,
        at_service.MAX_PENDING_STEPS,
        at_service.MAX_PENDING_STEPS + 1,
        EXHAUSTED,
        "state.pending",
    ),
    Limit(
        "new game players (most)",
        "happy_campers",
        "new_game",
        hc_new_game,
        hc_service.MAX_HINT_PLAYERS,
        hc_service.MAX_HINT_PLAYERS + 1,
        EXHAUSTED,
        "players",
    ),
    Limit("new game players (fewest)", "happy_campers", "new_game", hc_new_game, 1, -1, INVALID, "players"),
]


# --- every game: the request's time limit ------------------------------------------------------------------------


def time_limited(seconds: float) -> hc_pb.HappyCampersServiceScoreRequest:
    return hc_pb.HappyCampersServiceScoreRequest(options=common_pb2.SolveOptions(time_limit_seconds=seconds))


COMMON = [
    Limit(
        "time limit",
        "happy_campers",
        "score",
        time_limited,
        dispatch.MAX_TIME_LIMIT_S,
        dispatch.MAX_TIME_LIMIT_S + 0.5,
        EXHAUSTED,
        "options.time_limit_seconds",
    ),
]

LIMITS = HAPPY_CAMPERS + CAMPSITE + DELUXE_CAMPING + CAMPER_TOUR + ADVENTURE_TOURS + COMMON


@pytest.mark.parametrize("limit", LIMITS, ids=lambda limit: f"{limit.game}: {limit.id}")
def test_one_past_the_limit_is_refused_naming_the_field(client: CampsolverClient, limit: Limit) -> None:
    with pytest.raises(CampsolverError) as caught:
        _call(client, limit, limit.past)
    assert (caught.value.code, caught.value.violations[0].field) == (limit.code, limit.field), caught.value


@pytest.mark.parametrize("limit", LIMITS, ids=lambda limit: f"{limit.game}: {limit.id}")
def test_the_limit_itself_is_accepted(client: CampsolverClient, limit: Limit) -> None:
    try:
        _call(client, limit, limit.edge)
    except CampsolverError as error:
        assert not limit.cheap, f"the edge value was refused: {error}"
        refused = error.code in (INVALID, EXHAUSTED) and any(v.field == limit.field for v in error.violations)
        assert not refused, f"the edge value was refused: {error}"
