"""More request edges, each found by the mutation run (docs/mutation-run.md) as a check that could be loosened or
tightened by one without any test noticing. Same table and same two checks as tests/test_input_limits.py: the
value on the edge gets past the field's check, the value one past it is refused naming the field."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from campsolver.clients.client import CampsolverClient, CampsolverError
from campsolver.service.games import adventure_tours as at_service
from campsolver.service.games import campsite as cs_service
from campsolver.service.games import happy_campers as hc_service
from campsolver.solver.adventure_tours import rules as at_rules
from campsolver.solver.campsite import rules as cs_rules
from campsolver.solver.core.budget import Budget

from campsolver.v1 import adventure_tours_pb2 as at_pb
from campsolver.v1 import campsite_pb2 as cs_pb
from campsolver.v1 import common_pb2
from campsolver.v1 import deluxe_camping_pb2 as dc_pb
from campsolver.v1 import happy_campers_pb2 as hc_pb
from tests.test_input_limits import (
    EXHAUSTED,
    INVALID,
    Limit,
    _call,
    _solve_options,
    at_hand_card,
    cs_chain,
    ct_outward,
    dc_example,
)


def hc_solo(**fields: object) -> hc_pb.HappyCampersServiceHintRequest:
    """A solo hint on the empty map (roll 4-2) with `fields` set."""
    return hc_pb.HappyCampersServiceHintRequest(
        roll=hc_pb.HappyCampersRoll(first=4, second=2), mode=hc_pb.HINT_MODE_SOLO, options=_solve_options(), **fields
    )


def hc_mode_roll(mode: int, second: int) -> hc_pb.HappyCampersServiceHintRequest:
    """A hint in `mode` with the roll 4-`second` (a double at 4) on the empty map; multi-player with 2 players."""
    request = hc_pb.HappyCampersServiceHintRequest(
        roll=hc_pb.HappyCampersRoll(first=4, second=second), mode=mode, options=_solve_options()
    )
    if mode == hc_pb.HINT_MODE_MULTIPLAYER:
        request.players = 2
    return request


def at_board_start(technology: int) -> at_pb.AdventureToursServiceScoreRequest:
    """The example position with a board for every seat given (desert 3/3/3), the first starting at
    `technology`."""
    state = at_service.example_state(hidden=True)
    for seat in range(len(state.players)):
        state.rules.boards.add(
            name=f"board {seat}", technology=technology if seat == 0 else 3, provisions=3, clothing=3
        )
    return at_pb.AdventureToursServiceScoreRequest(state=state)


def cs_score_players(players: int) -> cs_pb.CampsiteServiceScoreRequest:
    """A table of cards without tents scored for `players` seats (0: unset, the service's default)."""
    request = cs_chain(3)
    request.players = players
    return request


def hc_play_cells(repeat: bool) -> hc_pb.HappyCampersServicePlayRequest:
    """The example Play (a two-player game's first legal drawing), its first square listed twice when `repeat`."""
    request = hc_service.EXAMPLES["Play"]()
    cells = request.move.placements[0].cells
    if repeat:
        cells.add().CopyFrom(cells[0])
    return request


def hc_game_hint(roll_on: bool) -> hc_pb.HappyCampersServiceHintRequest:
    """A hint on a whole two-player game from NewGame (a roll on, both maps due), its roll taken away unless
    `roll_on`: maps are due exactly while a roll is on."""
    game = hc_service.new_game(hc_pb.HappyCampersServiceNewGameRequest(players=2, seed=1), Budget(5.0)).state
    assert game.HasField("roll") and game.to_draw, "NewGame no longer answers a game with a drawing due"
    if not roll_on:
        game.ClearField("roll")
    return hc_pb.HappyCampersServiceHintRequest(game=game, options=_solve_options())


def hc_review_objective(objective: int) -> hc_pb.HappyCampersServiceReviewRequest:
    """A review of a two-player game's first drawing (a cheap one: 0.05 s a decision) ranked by `objective`."""
    return hc_pb.HappyCampersServiceReviewRequest(
        record=hc_service.examples.example_record(decisions=1),
        review=common_pb2.ReviewOptions(decision_cpu_seconds=0.05),
        options=common_pb2.SolveOptions(seed=1),
        objective=objective,
    )


def cs_game_players(players: int) -> cs_pb.CampsiteServiceScoreRequest:
    """A solo game from NewGame, scored as a whole game with `players` seats (1: what it is)."""
    game = cs_service.new_game(cs_pb.CampsiteServiceNewGameRequest(players=1, seed=3), Budget(5.0)).state
    game.players = players
    return cs_pb.CampsiteServiceScoreRequest(game=game)


def cs_game_round(round_index: int) -> cs_pb.CampsiteServiceScoreRequest:
    """The solo NewGame game, scored as a whole game in round `round_index` (0: the first)."""
    request = cs_game_players(1)
    request.game.round = round_index
    return request


def hc_play_roll(roll_on: bool) -> hc_pb.HappyCampersServicePlayRequest:
    """The example Play, its state's roll taken away unless `roll_on` (a bad state is named under `state`)."""
    request = hc_service.EXAMPLES["Play"]()
    if not roll_on:
        request.state.ClearField("roll")
    return request


def cs_play_round(round_index: int) -> cs_pb.CampsiteServicePlayRequest:
    """The example Play with its state in round `round_index` (a bad state is named under `state`)."""
    request = cs_service.EXAMPLES["Play"]()
    request.state.round = round_index
    return request


def at_example(change: Callable[[at_pb.AdventureToursState], None]) -> at_pb.AdventureToursServiceScoreRequest:
    """The example position (hidden hands) with `change` made to it."""
    state = at_service.example_state(hidden=True)
    change(state)
    return at_pb.AdventureToursServiceScoreRequest(state=state)


def at_to_move(seat: int) -> at_pb.AdventureToursServiceScoreRequest:
    return at_example(lambda state: setattr(state, "to_move", seat))


def hc_play_drawings(solo_pair: bool) -> hc_pb.HappyCampersServicePlayRequest:
    """A solo two-map turn played as both its drawings (`solo_pair`), or the two-player example Play with its
    drawing listed twice: only a solo turn has a second drawing."""
    if not solo_pair:
        request = hc_service.EXAMPLES["Play"]()
        request.move.placements.add().CopyFrom(request.move.placements[0])
        return request
    state = hc_service.new_game(hc_pb.HappyCampersServiceNewGameRequest(players=1, seed=0), Budget(5.0)).state
    hint = hc_service.hint(hc_pb.HappyCampersServiceHintRequest(game=state), Budget(5.0))
    move = next(a.move for a in hint.alternatives if len(a.move.placements) == 2)
    return hc_pb.HappyCampersServicePlayRequest(state=state, move=move)


def dc_square_kept(name: str) -> Callable[[bool], dc_pb.DeluxeCampingServiceScoreRequest]:
    """The example position (in the turns) with its square `name` (pool, nuisance) kept or taken off the board."""
    return lambda kept: dc_example(lambda state: None if kept else state.ClearField(name))


def at_play_last_round(entries: int) -> at_pb.AdventureToursServicePlayRequest:
    """The example Play, its game carrying a last round's scores of `entries` entries (one a player is right)."""
    request = at_service.EXAMPLES["Play"]()
    request.state.last_round.extend([3] * entries)
    return request


def dc_counter(name: str) -> Callable[[int], dc_pb.DeluxeCampingServiceScoreRequest]:
    """The example position with its counter `name` (idle turns, barriers placed this turn) set."""
    return lambda value: dc_example(lambda state: setattr(state, name, value))


def cs_dealing(turn: int, laid: int = cs_rules.STARTING_CARDS) -> cs_pb.CampsiteServiceScoreRequest:
    """A two-player game in the deal with both starting cards laid and no hand dealt yet, at `turn` (0: before
    any turn, where the deal is); `laid` past the starting cards puts cards of the pile on in the same row, each
    where a starting card would lie (the deal lays the rulebook's two only)."""
    state = cs_rules.GAME.new_initial_state(cs_rules.GAME.default_config(2))
    for _ in range(cs_rules.STARTING_CARDS):
        state = state.child(state.chance_outcomes()[0][0])
    assert state.stage is cs_rules.Stage.DEAL and len(state.table.placements) == cs_rules.STARTING_CARDS
    game = cs_service.game_to_proto(state)
    game.turn = turn
    for index in range(cs_rules.STARTING_CARDS, laid):
        card = cs_service.card_to_proto(state.pile[index])
        game.table.placements.add(card=card, row=0, col=cs_rules.CARD_COLS * index)
    return cs_pb.CampsiteServiceScoreRequest(game=game)


def cs_card_held(twice: bool) -> cs_pb.CampsiteServiceScoreRequest:
    """The solo NewGame game (each card of the deck once), its hand's first card swapped for a copy of the second
    starting card when `twice`: the table and the hand then hold that card twice, the deck once."""
    request = cs_game_players(1)
    if twice:
        request.game.hands[0].cards[0].CopyFrom(request.game.table.placements[1].card)
    return request


def at_shuffle_step(player: int) -> at_pb.AdventureToursServicePlayRequest:
    """An expert game before its setup (the boards' shuffle pending, nobody's step), its step's seat `player`
    (-1: nobody), played on by Play's seeded chance to the first decision."""
    state = at_rules.GAME.new_initial_state(at_rules.Config(3, expert=True))
    message = at_service.game_state_to_proto(state)
    assert message.pending[0].kind == "shuffle_boards" and message.pending[0].player == -1
    message.pending[0].player = player
    return at_pb.AdventureToursServicePlayRequest(state=message, seed=1)


def ct_arrival(arrival: int) -> object:
    """An outward camper (on plate 10, 20 tokens) with `arrival` set (0: not home yet)."""
    request = ct_outward()
    request.state.campers[0].arrival = arrival
    return request


EDGES = [
    # a neighbour's map only on a double, and the multi-player hint never on one (the rulebook's double rule)
    Limit(
        "neighbour map on a double",
        "happy_campers",
        "hint",
        lambda v: hc_mode_roll(hc_pb.HINT_MODE_NEIGHBOUR_MAP, v),
        4,
        2,
        INVALID,
        "roll",
        cheap=False,
    ),
    Limit(
        "multi-player off a double",
        "happy_campers",
        "hint",
        lambda v: hc_mode_roll(hc_pb.HINT_MODE_MULTIPLAYER, v),
        2,
        4,
        INVALID,
        "roll",
        cheap=False,
    ),
    Limit(
        "solo double gap (least)",
        "happy_campers",
        "hint",
        lambda v: hc_solo(solo_double_gap=v),
        1,
        0,
        INVALID,
        "solo_double_gap",
        cheap=False,
    ),
    Limit(
        "solo double gap (most)",
        "happy_campers",
        "hint",
        lambda v: hc_solo(solo_double_gap=v),
        3,
        4,
        INVALID,
        "solo_double_gap",
        cheap=False,
    ),
    Limit(
        "solo last-turn map (least)",
        "happy_campers",
        "hint",
        lambda v: hc_solo(solo_last_turn_map=v),
        0,
        -1,
        INVALID,
        "solo_last_turn_map",
        cheap=False,
    ),
    Limit(
        "solo last-turn map (most)",
        "happy_campers",
        "hint",
        lambda v: hc_solo(solo_last_turn_map=v),
        1,
        2,
        INVALID,
        "solo_last_turn_map",
        cheap=False,
    ),
    Limit(
        "board starting value (least)",
        "adventure_tours",
        "score",
        at_board_start,
        0,
        -1,
        INVALID,
        "state.rules.boards[0]",
    ),
    Limit(
        "board starting value (most)",
        "adventure_tours",
        "score",
        at_board_start,
        at_service.MAX_CARD_NUMBER,
        at_service.MAX_CARD_NUMBER + 1,
        EXHAUSTED,
        "state.rules.boards[0]",
    ),
    # a solo table (1 seat) is a game; 0 is the unset default, so the value past the least is -1
    Limit(
        "score players (least)",
        "campsite",
        "score",
        cs_score_players,
        cs_rules.MIN_PLAYERS,
        cs_rules.MIN_PLAYERS - 2,
        INVALID,
        "players",
    ),
    Limit("camper arrival (least)", "camper_tour", "score", ct_arrival, 0, -1, INVALID, "state.campers[0].arrival"),
    # a drawing's squares are distinct; a live multi-player game has maps due exactly while a roll is on
    Limit(
        "drawing lists a square twice",
        "happy_campers",
        "play",
        hc_play_cells,
        False,
        True,
        INVALID,
        "move.placements[0].cells",
    ),
    Limit(
        "game maps due without a roll",
        "happy_campers",
        "hint",
        hc_game_hint,
        True,
        False,
        INVALID,
        "game.to_draw",
        cheap=False,
    ),
    # a multi-player review ranks by margin or own score, never by win probability (the game has no such hint)
    Limit(
        "review objective",
        "happy_campers",
        "review",
        hc_review_objective,
        common_pb2.OBJECTIVE_EXPECTED_SCORE,
        common_pb2.OBJECTIVE_WIN_PROBABILITY,
        INVALID,
        "objective",
        cheap=False,
    ),
    # a whole game's seats: a solo game is one; the deal comes before any turn, with the starting cards laid
    Limit("game players (least)", "campsite", "score", cs_game_players, 1, 0, INVALID, "game.players"),
    Limit("game in the deal after a turn", "campsite", "score", cs_dealing, 0, 1, INVALID, "game.table"),
    Limit(
        "game in the deal: cards laid (most)",
        "campsite",
        "score",
        lambda laid: cs_dealing(0, laid),
        cs_rules.STARTING_CARDS,
        cs_rules.STARTING_CARDS + 1,
        INVALID,
        "game.table",
    ),
    # the table and the hands hold each card at most as often as the deck does (the shipped deck: once)
    Limit("game holds a card twice", "campsite", "score", cs_card_held, False, True, INVALID, "game.table"),
    Limit("game round (least)", "campsite", "score", cs_game_round, 0, -1, INVALID, "game.round"),
    # a Play's state is the request's `state` field, and its faults are named under it
    Limit("play state without a roll", "happy_campers", "play", hc_play_roll, True, False, INVALID, "state.to_draw"),
    Limit("play state round (least)", "campsite", "play", cs_play_round, 0, -1, INVALID, "state.round"),
    # a position's counters are never negative
    Limit(
        "idle turns (least)", "deluxe_camping", "score", dc_counter("idle_turns"), 0, -1, INVALID, "state.idle_turns"
    ),
    Limit(
        "barriers placed this turn (least)",
        "deluxe_camping",
        "score",
        dc_counter("placed_this_turn"),
        0,
        -1,
        INVALID,
        "state.placed_this_turn",
    ),
    # card ids start at 0 (the top end is `card id` in tests/test_input_limits.py)
    Limit("card id (least)", "adventure_tours", "score", at_hand_card, 0, -1, INVALID, "state.players[0].hand[0]"),
    Limit("seat to move (least)", "adventure_tours", "score", at_to_move, 0, -1, INVALID, "state.to_move"),
    Limit("last round's scores", "adventure_tours", "play", at_play_last_round, 3, 4, INVALID, "state.last_round"),
    # the boards' shuffle is the one step that is nobody's: its seat is -1
    Limit(
        "shuffle step's seat", "adventure_tours", "play", at_shuffle_step, -1, -2, INVALID, "state.pending[0].player"
    ),
    Limit("second drawing", "happy_campers", "play", hc_play_drawings, True, False, INVALID, "move.placements"),
    # the pool and the pain-in-the-neck are on the board during the turns
    Limit("pool in the turns", "deluxe_camping", "score", dc_square_kept("pool"), True, False, INVALID, "state.pool"),
    Limit(
        "nuisance in the turns",
        "deluxe_camping",
        "score",
        dc_square_kept("nuisance"),
        True,
        False,
        INVALID,
        "state.nuisance",
    ),
]


@pytest.mark.parametrize("limit", EDGES, ids=lambda limit: f"{limit.game}: {limit.id}")
def test_one_past_the_edge_is_refused_naming_the_field(client: CampsolverClient, limit: Limit) -> None:
    with pytest.raises(CampsolverError) as caught:
        _call(client, limit, limit.past)
    assert (caught.value.code, caught.value.violations[0].field) == (limit.code, limit.field), caught.value


@pytest.mark.parametrize("limit", EDGES, ids=lambda limit: f"{limit.game}: {limit.id}")
def test_the_edge_itself_is_accepted(client: CampsolverClient, limit: Limit) -> None:
    try:
        _call(client, limit, limit.edge)
    except CampsolverError as error:
        assert not limit.cheap, f"the edge value was refused: {error}"
        refused = error.code == limit.code and any(v.field == limit.field for v in error.violations)
        assert not refused, f"the edge value was refused: {error}"
