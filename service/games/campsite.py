"""Campsite: protobuf requests <-> rules model and solvers (best turn, best round, hints, puzzles)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from campsolver.service.errors import InvalidArgument, require, require_limit
from campsolver.service.games import shared
from campsolver.service.games.protocol import GameService
from campsolver.service.games.shared import PROOF_TO_PROTO, grade_from_proto, grade_to_proto, set_value
from campsolver.solver.campsite import best_round as rounds
from campsolver.solver.campsite import best_turn as cpsat_turn
from campsolver.solver.campsite import hint as hints
from campsolver.solver.campsite import puzzle as puzzles
from campsolver.solver.campsite import render, rules
from campsolver.solver.campsite.evaluate import best_turn_search, turn_upper_bound
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
from campsolver.solver.core.budget import Budget, SolveInterrupted
from campsolver.solver.core.proof import Proof

from campsolver.v1 import campsite_pb2 as pb
from campsolver.v1 import common_pb2

#: Request size limits (RESOURCE_EXHAUSTED beyond them).
MAX_TABLE_CARDS = 120
MAX_HAND = 10
MAX_DECK = 600
MAX_TOP = 1000
#: Cells must lie within this distance of the origin (keeps grids bounded).
MAX_COORDINATE = 1000
#: A hint's budget when the request names none (the deadline still caps it).
DEFAULT_HINT_SECONDS = 2.0
#: Share of a hint's budget kept back for the rules model's re-check of the plays answered and the reply.
HINT_CHECK_SHARE = 0.15

TERRAIN_FROM_PROTO = {
    pb.TERRAIN_DESERT: Terrain.DESERT,
    pb.TERRAIN_FOREST: Terrain.FOREST,
    pb.TERRAIN_MEADOW: Terrain.MEADOW,
    pb.TERRAIN_MOUNTAINS: Terrain.MOUNTAINS,
    pb.TERRAIN_WATER: Terrain.WATER,
    pb.TERRAIN_TRAIL: Terrain.TRAIL,
}
TERRAIN_TO_PROTO = {t: n for n, t in TERRAIN_FROM_PROTO.items()}
TOKEN_FROM_PROTO = {
    pb.TENT_TOKEN_DESERT: Token.DESERT,
    pb.TENT_TOKEN_FOREST: Token.FOREST,
    pb.TENT_TOKEN_MEADOW: Token.MEADOW,
    pb.TENT_TOKEN_MOUNTAINS: Token.MOUNTAINS,
    pb.TENT_TOKEN_WATER: Token.WATER,
    pb.TENT_TOKEN_TRAIL: Token.TRAIL,
    pb.TENT_TOKEN_WILDERNESS: Token.WILDERNESS,
}
TOKEN_TO_PROTO = {t: n for n, t in TOKEN_FROM_PROTO.items()}


# --- conversions ----------------------------------------------------------------------------------------


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
    require_limit(
        len(message.tents), rules.MAX_PLAYERS * len(rules.ALL_TOKENS), f"{field}.tents", "tents on the table"
    )
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


def _check_play(turn: Turn, placement: Placement, tent: Tent, placed: dict[Placement, Table] | None = None) -> None:
    """Solvers enumerate plays their own way; the rules model must accept each before we answer. `placed`
    caches the table after each placement checked (a hint's plays share placements; a table's grid costs ms)."""
    if placement.card not in turn.hand or tent.token not in turn.tokens or tent.player != turn.player:
        raise RuntimeError(f"solver play {play_label(placement, tent)} is not open to the mover")
    table = placed.get(placement) if placed is not None else None
    if table is None:
        table = turn.table.place(placement)
        if placed is not None:
            placed[placement] = table
    table.check_tent(tent)


# --- a whole game (NewGame, Play; Hint, Score and LegalMoves accept it as `game`) ---------------------------

GAME_STAGE_FROM_PROTO = {
    pb.CAMPSITE_STAGE_DEAL: rules.Stage.DEAL,
    pb.CAMPSITE_STAGE_CARD: rules.Stage.CARD,
    pb.CAMPSITE_STAGE_DRAW: rules.Stage.DRAW,
    pb.CAMPSITE_STAGE_OVER: rules.Stage.OVER,
}
GAME_STAGE_TO_PROTO = {stage: number for number, stage in GAME_STAGE_FROM_PROTO.items()}


def game_from_proto(message: pb.CampsiteGame, field: str = "game") -> rules.CampsiteState:
    """A whole game from its message; the draw pile is the deck minus the table and the hands."""
    players = message.players
    require(rules.MIN_PLAYERS <= players <= rules.MAX_PLAYERS, f"{field}.players",
            f"{rules.MIN_PLAYERS}-{rules.MAX_PLAYERS}, got {players}")
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
        hands.append(tuple(sorted(card_from_proto(c, f"{field}.hands[{seat}].cards[{i}]")
                                  for i, c in enumerate(hand.cards))))
    table = table_from_proto(message.table, f"{field}.table")
    require(len(message.tokens) == players, f"{field}.tokens", f"one token list per player ({players})")
    tokens = []
    for seat, held in enumerate(message.tokens):
        found = {token_from_proto(v, f"{field}.tokens[{seat}].tokens[{i}]") for i, v in enumerate(held.tokens)}
        require(len(found) == len(held.tokens), f"{field}.tokens[{seat}].tokens", "a token listed twice")
        tokens.append(frozenset(found))
    totals = tuple(message.totals) or (0,) * players
    require(len(totals) == players, f"{field}.totals", f"one total per player ({players})")
    require(len(message.round_scores) == message.round + (stage is rules.Stage.OVER), f"{field}.round_scores",
            "one entry per round already scored")
    round_scores = tuple(tuple(r.scores) for r in message.round_scores)
    for index, scores in enumerate(round_scores):
        require(len(scores) == players, f"{field}.round_scores[{index}].scores", f"one score per player ({players})")
    pile = Counter(deck)
    pile.subtract(p.card for p in table.placements)
    pile.subtract(card for hand in hands for card in hand)
    require(all(n >= 0 for n in pile.values()), f"{field}.table",
            "the table and the hands hold cards the deck does not")
    state = rules.CampsiteState(
        players=players, deck=deck, round=message.round, turn=message.turn, stage=stage,
        pile=tuple(sorted(pile.elements())), hands=tuple(hands), table=table, tokens=tuple(tokens),
        totals=totals, round_scores=round_scores, starter=message.round % players,
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
        require(laid <= rules.STARTING_CARDS and not table.tents and message.turn == 0, f"{field}.table",
                "the deal comes before any turn: the starting cards only")
        for index, placement in enumerate(table.placements):
            start = Placement(placement.card, 0, rules.CARD_COLS * index, 0)
            require(placement == start, f"{field}.table.placements[{index}]",
                    f"starting card {index} lies at row 0, column {rules.CARD_COLS * index}, rotation 0")
        require(0 < due <= len(state.pile), f"{field}.hands",
                f"the deal gives {rules.HAND_SIZE} cards a hand from the pile, after the starting cards")
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
        table=message.table, hand=message.hands[mover].cards,
        tokens=[TOKEN_TO_PROTO[t] for t in sorted(state.tokens[mover])],
        player=mover, players=state.players, deck=message.deck,
    )


def _with_turn_of_game(request: Any) -> Any:
    """A copy of a Hint or LegalMoves request with `game` replaced by the turn of its player to move (the
    request itself is left alone: the dispatcher may run a handler twice)."""
    plain = type(request)()
    plain.CopyFrom(request)
    plain.ClearField("game")
    plain.state.CopyFrom(_turn_of_game(request.game))
    return plain


def _apply_play(state: rules.CampsiteState, message: pb.CampsitePlay) -> rules.CampsiteState:
    """Lay the card, then pitch the tent (the rules model checks both; the field at fault is named)."""
    shared.require_decision(state)
    require(message.HasField("placement"), "move.placement", "a card placement is required")
    require(message.HasField("tent"), "move.tent", "a tent is required")
    placement = placement_from_proto(message.placement, "move.placement")
    tent = tent_from_proto(message.tent, "move.tent")
    require(tent.player == state.to_move, "move.tent.player", f"player {state.to_move} is to move")
    try:
        laid = state.child(rules.PlayCard(placement))
    except IllegalMove as error:
        raise InvalidArgument("move.placement", str(error)) from None
    require(tent.token in laid.tokens[tent.player], "move.tent.token", "this token is already used this round")
    try:
        return laid.child(rules.PitchTent(tent.token, tent.row, tent.col))
    except IllegalMove as error:
        raise InvalidArgument("move.tent", str(error)) from None


def _running_scores(state: rules.CampsiteState) -> list[int]:
    if state.stage is rules.Stage.OVER:
        return list(state.totals)
    table = rules.player_scores(state.table, state.players)
    return [t + s for t, s in zip(state.totals, table, strict=True)]


def _describe(state: rules.CampsiteState) -> str:
    if state.stage is rules.Stage.OVER:
        return "game over"
    if state.stage is rules.Stage.DEAL:
        return f"chance: round {state.round + 1}, the deal"
    if state.stage is rules.Stage.DRAW:
        return f"chance: player {state.to_move} draws a card"
    return f"player {state.to_move}: lay a card and pitch a tent"


def _chance_label(state: rules.CampsiteState, card: Card) -> str:
    if state.stage is rules.Stage.DRAW:
        return f"player {state.to_move} draws {card}"
    if len(state.table.placements) < rules.STARTING_CARDS:
        return f"starting card {card}"
    dealt = sum(len(hand) for hand in state.hands)
    return f"player {(state.starter + dealt // rules.HAND_SIZE) % state.players} is dealt {card}"


TABLE_PLAY = shared.TablePlay(
    scores=_running_scores,
    winners=lambda state: state.winners(),
    describe=_describe,
    chance_label=_chance_label,
    picture=lambda state: render.table_svg(state.table),
)


def new_game(request: pb.CampsiteServiceNewGameRequest, budget: Budget) -> pb.CampsiteServiceNewGameResponse:
    players = request.players or 2
    require(rules.MIN_PLAYERS <= players <= rules.MAX_PLAYERS, "players",
            f"{rules.MIN_PLAYERS}-{rules.MAX_PLAYERS}, got {players}")
    deck = _deck(request.deck, "deck")
    try:
        state = rules.new_game(players, deck)
    except IllegalMove as error:
        raise InvalidArgument("deck", str(error)) from None
    state = shared.resolve_chance(state, shared.seeded_rng(request.seed))
    return shared.new_game_answer(
        pb.CampsiteServiceNewGameResponse, state, TABLE_PLAY, game_to_proto, request.want_picture
    )


def play(request: pb.CampsiteServicePlayRequest, budget: Budget) -> pb.CampsiteServicePlayResponse:
    return shared.play_answer(
        request, game_from_proto, _apply_play, TABLE_PLAY, game_to_proto, pb.CampsiteServicePlayResponse
    )


# --- handlers -------------------------------------------------------------------------------------------


def hint(request: pb.CampsiteServiceHintRequest, budget: Budget) -> pb.CampsiteServiceHintResponse:
    totals = None
    if request.HasField("game"):
        require(not request.HasField("state"), "state", "either state or game")
        totals = game_from_proto(request.game, "game").totals  # earlier rounds count in the margin
        request = _with_turn_of_game(request)
    require(request.HasField("state"), "state", "a turn is required")
    require(request.top >= 0, "top", "must not be negative")
    require_limit(request.top, MAX_TOP, "top", "alternatives")
    turn = Turn(request.state, "state")
    objective = request.objective
    if objective == common_pb2.OBJECTIVE_UNSPECIFIED:
        objective = common_pb2.OBJECTIVE_MARGIN if turn.players > 1 else common_pb2.OBJECTIVE_EXPECTED_SCORE
    require(
        objective in (common_pb2.OBJECTIVE_MARGIN, common_pb2.OBJECTIVE_EXPECTED_SCORE),
        "objective",
        "Campsite hints rank by MARGIN or EXPECTED_SCORE",
    )
    if not request.options.time_limit_seconds:
        budget = budget.limited(DEFAULT_HINT_SECONDS)
    # The rules model re-checks every play answered (a few ms each on a loaded machine): kept back from the
    # search so the answer is still sent in time.
    budget = budget.limited(max(budget.remaining() * (1 - HINT_CHECK_SHARE), 0.001))
    margin = objective == common_pb2.OBJECTIVE_MARGIN
    result = hints.hint(
        turn.table,
        turn.hand,
        turn.tokens,
        turn.player,
        turn.players,
        turn.deck,
        budget,
        margin=margin,
        top=request.top or hints.DEFAULT_TOP,
        totals=totals,
        seed=request.options.seed,
    )
    placed: dict[Placement, Table] = {}
    for play in result.plays:
        _check_play(turn, play.placement, play.tent, placed)
    quantity = "final margin over the best opponent" if margin else "final score"
    # The looked-ahead plays' values (sample means) are the ranking's own quantity and come first; the one-ply
    # values are another estimate, ranked below them: listed without a value, the number in the note, so that
    # no listed value contradicts its rank. With no look-ahead (too little budget, or the round's last turn)
    # the one-ply values are the ranking.
    searched = [p for p in result.plays if p.kind == "LOOK_AHEAD"]
    best = max((p.value for p in searched or result.plays), default=0.0)
    alternatives = []
    for i, p in enumerate(result.plays):
        ranking = common_pb2.RankedAlternative(rank=i + 1, label=play_label(p.placement, p.tent))
        if p.kind == "LOOK_AHEAD":
            ranking.note = (f"look-ahead: mean {quantity} this round (earlier rounds counted) over {p.samples} "
                            f"sampled deals of the unseen cards, after the other players and then you play "
                            f"{result.depth - 1} more turn(s) by the one-ply rule, tents valued by the fitted "
                            "tables")
            set_value(ranking, p.value, best, samples=p.samples, standard_error=p.standard_error)
        else:
            ranking.note = (f"one-ply: {quantity} estimated right after this play by the fitted tent tables "
                            "(tent points + expected growth; what keeping the token is worth)")
            if searched:
                ranking.note += f" = {p.value:.2f}, not comparable with the looked-ahead values above"
            else:
                set_value(ranking, p.value, best, exact=False)  # a heuristic value, no sampling error to state
        alternatives.append(pb.CampsiteAlternative(
            play=play_to_proto(p.placement, p.tent), ranking=ranking, immediate_gain=p.immediate_gain,
            future_estimate=p.future_estimate, opponent_gain=p.opponent_gain,
        ))
    return pb.CampsiteServiceHintResponse(
        alternatives=alternatives,
        plays_ranked=result.plays_ranked,
        objective=objective,
        proof=common_pb2.PROOF_STATUS_HEURISTIC,
        stats=common_pb2.SolveStats(
            wall_time_seconds=result.wall_time_s,
            states=result.placements,
            method=(f"every play one ply by fitted tent tables; the best {len(searched)} looked ahead in "
                    f"{result.worlds} sampled deals" if searched else "every play one ply by fitted tent tables"),
            interrupted=False,  # every play is valued one ply; the look-ahead is anytime
        ),
    )


def _max_turn(request: pb.CampsiteServiceMaxScoreRequest, budget: Budget) -> pb.CampsiteServiceMaxScoreResponse:
    turn = Turn(request.turn, "turn")
    if request.method == pb.CAMPSITE_MAX_METHOD_CP_SAT:
        try:
            found = cpsat_turn.best_turn(
                turn.table, turn.hand, turn.tokens, turn.player, budget, seed=request.options.seed
            )
        except SolveInterrupted:
            found = None
        if found is None or found.placement is None or found.tent is None:
            # CP-SAT found nothing in time: the enumeration's best so far (its first placement at least).
            return _max_turn_enumerated(turn, budget, "CP-SAT found no play within the budget; ")
        _check_play(turn, found.placement, found.tent)
        after = turn.table.place(found.placement).pitch(found.tent)
        return pb.CampsiteServiceMaxScoreResponse(
            score=found.score or 0,
            gain=found.gain or 0,
            proof=PROOF_TO_PROTO[found.proof] if found.proof else common_pb2.PROOF_STATUS_UNSPECIFIED,
            plays=[play_to_proto(found.placement, found.tent)],
            note="CP-SAT over every legal placement and tent square; proof from the solver status",
            final_table=table_to_proto(after),
            stats=common_pb2.SolveStats(
                wall_time_seconds=found.wall_time_s,
                bound=found.bound,
                nodes=found.branches,
                conflicts=found.conflicts,
                states=found.candidates,
                method="cp-sat",
                interrupted=found.interrupted,
            ),
        )
    return _max_turn_enumerated(turn, budget)


def _max_turn_enumerated(turn: Turn, budget: Budget, note: str = "") -> pb.CampsiteServiceMaxScoreResponse:
    """The best play by exhaustive enumeration; cut by the budget, the best so far with a proven ceiling (the
    first placement is always evaluated, so there is an answer)."""
    search = best_turn_search(turn.table, turn.hand, turn.tokens, turn.player, turn.players, budget)
    play = search.plays[0]
    _check_play(turn, play.placement, play.tent)
    after = turn.table.place(play.placement).pitch(play.tent)
    proof = Proof.FEASIBLE_WITH_BOUND if search.interrupted else Proof.EXACT
    bound = (max(turn_upper_bound(turn.table, turn.hand, turn.tokens, turn.player), play.score)
             if search.interrupted else play.score)
    note += (
        f"every play enumerated ({search.total} placements); {len(search.plays)} optimal"
        if not search.interrupted
        else f"interrupted after {search.evaluated} of {search.total} placements: best found {play.score}, the "
        f"optimum is at most {bound}"
    )
    return pb.CampsiteServiceMaxScoreResponse(
        score=play.score,
        gain=play.gain,
        proof=PROOF_TO_PROTO[proof],
        plays=[play_to_proto(play.placement, play.tent)],
        optimal_plays=0 if search.interrupted else len(search.plays),
        note=note,
        final_table=table_to_proto(after),
        stats=common_pb2.SolveStats(
            wall_time_seconds=budget.elapsed(),
            bound=float(bound),
            states=search.evaluated,
            method="exact enumeration",
            interrupted=search.interrupted,
        ),
    )


def _max_round(request: pb.CampsiteServiceMaxScoreRequest, budget: Budget) -> pb.CampsiteServiceMaxScoreResponse:
    message = request.round
    require_limit(len(message.order), MAX_DECK, "round.order", "deck size")
    order = [card_from_proto(c, f"round.order[{i}]") for i, c in enumerate(message.order)]
    turns = message.turns or rules.TURNS_PER_ROUND
    require(1 <= turns <= rules.TURNS_PER_ROUND, "round.turns", f"1-{rules.TURNS_PER_ROUND}")
    needed = rules.STARTING_CARDS + max(rules.HAND_SIZE, turns)
    require(
        len(order) >= needed, "round.order", f"{turns} turns need at least {needed} cards (2 starting, a hand of 3)"
    )
    require(
        request.method != pb.CAMPSITE_MAX_METHOD_CP_SAT, "method", "no CP-SAT round model: use EXACT"
    )
    result = rounds.best_round(order, turns, budget)
    return pb.CampsiteServiceMaxScoreResponse(
        score=result.score,
        gain=result.score,
        proof=PROOF_TO_PROTO[result.proof],
        plays=[play_to_proto(p, t) for p, t in result.plays],
        note=result.note,
        final_table=table_to_proto(result.table),
        stats=common_pb2.SolveStats(
            wall_time_seconds=budget.elapsed(),
            bound=float(result.bound),
            method="exact enumeration" if turns == 1 else "beam search + exact branch and bound",
            interrupted=result.interrupted,
        ),
    )


def max_score(request: pb.CampsiteServiceMaxScoreRequest, budget: Budget) -> pb.CampsiteServiceMaxScoreResponse:
    problem = request.WhichOneof("problem")
    require(problem is not None, "problem", "give a `turn` or a `round`")
    require(request.method in pb.CampsiteMaxMethod.values(), "method", "unknown method")
    if problem == "turn":
        return _max_turn(request, budget)
    return _max_round(request, budget)


def generate_puzzle(
    request: pb.CampsiteServiceGeneratePuzzleRequest, budget: Budget
) -> pb.CampsiteServiceGeneratePuzzleResponse:
    grade = grade_from_proto(request.grade, puzzles.Grade)
    try:
        puzzle = puzzles.generate(request.seed, budget, grade=grade)
    except LookupError as error:
        raise InvalidArgument("grade", f"no puzzle of that grade for this seed: {error}") from None
    placement, tent = puzzle.solution
    tokens = ", ".join(t.name.title() for t in puzzle.tokens)
    hand = "; ".join(c.text() for c in puzzle.hand)
    question = (
        f"Seat 0 holds {hand} and the tokens {tokens}: which single play (card, position, rotation, token, "
        "square) gives seat 0 the highest round score as the table then stands?"
    )
    text = "\n".join(
        [
            f"Campsite puzzle (seed {puzzle.seed}, {puzzle.grade.value})",
            render.table_text(puzzle.table),
            render.LEGEND,
            "Cards are 'XY rows': the two terrains, then the landscape card's two rows (# coloured, . empty); "
            "rotations are quarter turns clockwise; a card is laid next to or over empty squares only.",
            question,
        ]
    )
    after = puzzle.table.place(placement).pitch(tent)
    solution_text = "\n".join(
        [
            f"Best play (unique, proven by enumerating every play): {play_label(placement, tent)}",
            f"Seat 0 then scores {puzzle.best}; the next best play scores {puzzle.second}.",
            render.table_text(after),
        ]
    )
    return pb.CampsiteServiceGeneratePuzzleResponse(
        puzzle=common_pb2.PuzzleEnvelope(
            seed=puzzle.seed,
            grade=grade_to_proto(puzzle.grade),
            evidence=[
                common_pb2.DifficultyEvidence(
                    name="near_best", value=puzzle.near_best, description="other plays within 1 point of the best"
                ),
                common_pb2.DifficultyEvidence(
                    name="naive_shortfall",
                    value=puzzle.naive_shortfall,
                    description="points lost by a player who only looks at the new tent's own score",
                ),
                common_pb2.DifficultyEvidence(
                    name="margin", value=puzzle.best - puzzle.second, description="best minus second-best score"
                ),
                common_pb2.DifficultyEvidence(
                    name="attempts", value=puzzle.attempts, description="candidates drawn before this one"
                ),
            ],
            unique=True,
            proof=PROOF_TO_PROTO[puzzle.proof],
            text=text,
            svg=render.puzzle_svg(puzzle.table, puzzle.hand, puzzle.tokens,
                                  title=f"Campsite puzzle {puzzle.seed} ({puzzle.grade.value})", question=question),
            solution_text=solution_text,
            solution_svg=render.puzzle_svg(
                after, puzzle.hand, puzzle.tokens, title=f"Solution to Campsite puzzle {puzzle.seed}",
                question=question, highlight=placement, new_tent=tent,
                answer=f"Answer: {play_label(placement, tent)}; seat 0 then scores {puzzle.best} (the next best "
                f"play {puzzle.second}).",
            ),
            question=question,
        ),
        state=pb.CampsiteTurnState(
            table=table_to_proto(puzzle.table),
            hand=[card_to_proto(c) for c in puzzle.hand],
            tokens=[TOKEN_TO_PROTO[t] for t in puzzle.tokens],
            player=0,
            players=2,
        ),
        solution=play_to_proto(placement, tent),
        best_score=puzzle.best,
        second_best_score=puzzle.second,
        stats=common_pb2.SolveStats(wall_time_seconds=budget.elapsed(), method="exact enumeration + cp-sat check"),
    )


def score(request: pb.CampsiteServiceScoreRequest, budget: Budget) -> pb.CampsiteServiceScoreResponse:
    if request.HasField("game"):
        require(not request.HasField("table") and not request.players, "table", "either table or game")
        state = game_from_proto(request.game)
        request = pb.CampsiteServiceScoreRequest(table=request.game.table, players=state.players)
    table = table_from_proto(request.table, "table")
    players = _players(request.players, table, 0, "players")
    tent_scores = [rules.score_tent(table, t) for t in table.tents]
    totals = rules.player_scores(table, players)
    return pb.CampsiteServiceScoreResponse(
        scores=totals,
        tents=[
            pb.CampsiteTentScore(tent=tent_to_proto(s.tent), base=s.base, doubled=s.doubled, points=s.points)
            for s in tent_scores
        ],
        details=[
            common_pb2.ScoreDetail(
                name=f"seat {s.tent.player} {s.tent.token.name.title()} at r{s.tent.row}c{s.tent.col}"
                + (" x2" if s.doubled else ""),
                points=s.points,
            )
            for s in tent_scores
        ],
    )


def legal_moves(request: pb.CampsiteServiceLegalMovesRequest, budget: Budget) -> pb.CampsiteServiceLegalMovesResponse:
    if request.HasField("game"):
        require(not request.HasField("state"), "state", "either state or game")
        request = _with_turn_of_game(request)
    require(request.HasField("state"), "state", "a turn is required")
    turn = Turn(request.state, "state")
    placements = turn.table.legal_placements(turn.hand)
    table = turn.table
    if request.HasField("after"):
        placement = placement_from_proto(request.after, "after")
        require(placement.card in turn.hand, "after.card", "the card is not in the hand")
        try:
            table = table.place(placement)
        except IllegalMove as error:
            raise InvalidArgument("after", str(error)) from None
    return pb.CampsiteServiceLegalMovesResponse(
        placements=[placement_to_proto(p) for p in placements],
        tent_squares=[pb.CampsiteCell(row=r, col=c) for r, c in table.free_squares()],
        tokens=[TOKEN_TO_PROTO[t] for t in turn.tokens],
    )


# --- examples ---------------------------------------------------------------------------------------------


def _card(text: str) -> pb.CampsiteCard:
    return pb.CampsiteCard(text=text)


def example_turn() -> pb.CampsiteTurnState:
    """A small table: the two starting cards, one more card, a tent of each seat; seat 0 to play."""
    return pb.CampsiteTurnState(
        table=pb.CampsiteTable(
            placements=[
                pb.CampsitePlacement(card=_card("DW ##./... x2"), row=0, col=0),
                pb.CampsitePlacement(card=_card("MW ..#/#.."), row=0, col=3),
                pb.CampsitePlacement(card=_card("FT ###/.#."), row=2, col=1, rotation=0),
            ],
            tents=[
                pb.CampsiteTent(player=0, token=pb.TENT_TOKEN_WATER, row=1, col=1),
                pb.CampsiteTent(player=1, token=pb.TENT_TOKEN_MEADOW, row=1, col=4),
            ],
        ),
        hand=[_card("WP #.#/##."), _card("DM .#./###"), _card("FT #../... x2")],
        player=0,
        players=2,
    )


def _example_play() -> pb.CampsiteServicePlayRequest:
    game = new_game(pb.CampsiteServiceNewGameRequest(players=2, seed=1), Budget(1.0)).state
    state = game_from_proto(game)
    card = next(a for a in state.legal_actions() if isinstance(a, rules.PlayCard))
    laid = state.child(card)
    tent = laid.legal_actions()[0]
    return pb.CampsiteServicePlayRequest(
        state=game, move=play_to_proto(card.placement, Tent(laid.to_move, tent.token, tent.row, tent.col)), seed=1
    )


EXAMPLES: dict[str, Any] = {
    "Hint": lambda: pb.CampsiteServiceHintRequest(
        state=example_turn(), top=5, options=common_pb2.SolveOptions(time_limit_seconds=5.0)
    ),
    "MaxScore": lambda: pb.CampsiteServiceMaxScoreRequest(
        turn=example_turn(), options=common_pb2.SolveOptions(time_limit_seconds=10.0)
    ),
    "GeneratePuzzle": lambda: pb.CampsiteServiceGeneratePuzzleRequest(
        seed=7, options=common_pb2.SolveOptions(time_limit_seconds=20.0)
    ),
    "Score": lambda: pb.CampsiteServiceScoreRequest(table=example_turn().table, players=2),
    "LegalMoves": lambda: pb.CampsiteServiceLegalMovesRequest(state=example_turn()),
    "NewGame": lambda: pb.CampsiteServiceNewGameRequest(players=2, seed=1),
    "Play": lambda: _example_play(),
}



# --- review ------------------------------------------------------------------------------------------------

from campsolver.service.games import review as reviews  # noqa: E402
from campsolver.solver.campsite.review import DECISION_CPU_S, CampsiteReview  # noqa: E402


def _review_move_acts(state: rules.CampsiteState, message: pb.CampsitePlay, field: str) -> list[reviews.Triple]:
    """The card, then the tent, each checked by the rules model (as Play checks them; the field named)."""
    shared.require_decision(state, field)
    require(message.HasField("placement"), f"{field}.placement", "a card placement is required")
    require(message.HasField("tent"), f"{field}.tent", "a tent is required")
    placement = placement_from_proto(message.placement, f"{field}.placement")
    tent = tent_from_proto(message.tent, f"{field}.tent")
    require(tent.player == state.to_move, f"{field}.tent.player", f"player {state.to_move} is to move")
    card = rules.PlayCard(placement)
    try:
        laid = state.child(card)
    except IllegalMove as error:
        raise InvalidArgument(f"{field}.placement", f"lay {placement.label()}: {error}") from None
    require(tent.token in laid.tokens[tent.player], f"{field}.tent.token", "this token is already used this round")
    pitch = rules.PitchTent(tent.token, tent.row, tent.col)
    try:
        after = laid.child(pitch)
    except IllegalMove as error:
        raise InvalidArgument(f"{field}.tent", str(error)) from None
    return [(state, card, laid), (laid, pitch, after)]


def _review_move_to_proto(state: rules.CampsiteState, actions: tuple[Any, ...]) -> pb.CampsitePlay:
    card = actions[0]
    if len(actions) < 2:
        return pb.CampsitePlay(placement=placement_to_proto(card.placement))
    pitch = actions[1]
    return play_to_proto(card.placement, Tent(state.to_move, pitch.token, pitch.row, pitch.col))


def _review_adapter(start: rules.CampsiteState, objective: int) -> tuple[CampsiteReview, int]:
    if objective == common_pb2.OBJECTIVE_UNSPECIFIED:
        objective = common_pb2.OBJECTIVE_MARGIN if start.players > 1 else common_pb2.OBJECTIVE_EXPECTED_SCORE
    require(objective in (common_pb2.OBJECTIVE_MARGIN, common_pb2.OBJECTIVE_EXPECTED_SCORE), "objective",
            "Campsite reviews rank by MARGIN or EXPECTED_SCORE")
    return CampsiteReview(objective == common_pb2.OBJECTIVE_MARGIN, play_label), objective


REVIEW_CODEC = reviews.ReviewCodec(
    play=TABLE_PLAY,
    parse_state=game_from_proto,
    to_proto=game_to_proto,
    move_acts=_review_move_acts,
    move_to_proto=_review_move_to_proto,
    adapter=_review_adapter,
    players=lambda state: state.players,
    default_cpu_s=DECISION_CPU_S,
)


def review(request: pb.CampsiteServiceReviewRequest, budget: Budget) -> pb.CampsiteServiceReviewResponse:
    return reviews.review(request, budget, REVIEW_CODEC, pb.CampsiteServiceReviewResponse, pb.CampsiteReviewedMove)


def example_record(decisions: int = 4, seed: int = 1) -> pb.CampsiteRecord:
    """A seeded two-player game's first turns as a NewGame/Play client keeps them: each turn the first legal card
    placement and tent, and the seed of its draw."""
    start = game_from_proto(new_game(pb.CampsiteServiceNewGameRequest(players=2, seed=seed), Budget(1.0)).state)
    return reviews.seeded_record(pb.CampsiteRecord(), start, REVIEW_CODEC, CampsiteReview(True, play_label).continues,
                                 decisions)


EXAMPLES["Review"] = lambda: pb.CampsiteServiceReviewRequest(
    record=example_record(), review=common_pb2.ReviewOptions(decision_cpu_seconds=0.3),
    options=common_pb2.SolveOptions(seed=1),
)


class CampsiteService:
    """`campsolver.v1.CampsiteService`: this module's handlers, bound for the registry."""

    pb2 = pb
    service_name = "CampsiteService"
    examples = EXAMPLES
    hint = staticmethod(hint)
    max_score = staticmethod(max_score)
    generate_puzzle = staticmethod(generate_puzzle)
    score = staticmethod(score)
    legal_moves = staticmethod(legal_moves)
    new_game = staticmethod(new_game)
    play = staticmethod(play)
    review = staticmethod(review)

    def warm_up(self) -> None:
        """Nothing to build ahead of the first call."""


SERVICE: GameService = CampsiteService()
