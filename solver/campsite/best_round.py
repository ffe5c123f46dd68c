"""The best solo round of a known deck order: 1 to 7 turns from the two starting cards.

order[0], order[1] are the starting cards, order[2..4] the hand, and after each turn the next card is drawn.

What is proven, and where:
- A single turn is solved exactly (every play enumerated): proof EXACT.
- Longer rounds: a beam search over whole turns (plays ranked by immediate gain plus the hint's future estimate)
  gives a legal sequence (the warm start; from 6 turns on, beams twice as wide after it while they fit), then the
  exact branch and bound of `round_search` looks for a better one over every legal placement sequence (tents
  assigned at the leaves, see its docstring). When the branch and bound finishes, the best sequence is proven
  optimal: proof EXACT. When the budget runs out first, the best found is returned with a proven upper bound
  (FEASIBLE_WITH_BOUND): the smaller of the branch and bound's root bound and the per-token bound below.
- Per-token bound: each tent scores at most 2 x min(8, squares featuring its terrain among the cards that can be on
  the table by the end) (Wilderness: 2 x min(6, terrains on those cards)), summed over the best `turns` tokens.
- The window: every card of a round lies within the starting cards' bounding box grown by 3 squares per turn in
  every direction (a card must touch the cards already laid and reaches at most 3 squares beyond them), so every
  play, optimal or not, is inside it; both searches enumerate all legal placements, which lie there, so no play
  is cut.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from campsolver.solver.campsite import hint as hints
from campsolver.solver.campsite import round_search
from campsolver.solver.campsite.evaluate import best_turn_search
from campsolver.solver.campsite.round_board import round_card_count
from campsolver.solver.campsite.rules import (
    ALL_TOKENS,
    FAIR_WEATHER_FACTOR,
    HAND_SIZE,
    STARTING_CARDS,
    TURNS_PER_ROUND,
    Card,
    IllegalMove,
    Placement,
    Table,
    Tent,
    Terrain,
    Token,
    player_scores,
    starting_table,
)
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.proof import Proof

#: States kept per turn by the beam search.
BEAM_WIDTH = 8
#: Plays expanded per state.
EXPANSIONS = 6
#: Share of the budget the beam search (the warm start) may use before the exact branch and bound.
BEAM_SHARE = 0.15
#: The beam's round is polished (its last turns re-searched exactly) before the branch and bound.
POLISH = True
#: Share of the budget left after the first beam that wider beams (twice as wide each time) may use to find a
#: better warm start, from WIDEN_FROM_TURNS turns on, where the branch and bound neither finishes nor moves its
#: bound much (tuning seeds 5,310,000-5,310,005, 120 CPU-s a 7-turn round: median gap 16 -> 13; at 5 turns, 60 CPU-s
#: with a 0.3 share, no gain: the branch and bound's time is worth more there).
WIDEN_SHARE = 0.5
WIDEN_FROM_TURNS = 6


@dataclass
class RoundResult:
    plays: list[tuple[Placement, Tent]]
    score: int
    bound: int
    proof: Proof
    table: Table
    interrupted: bool
    note: str
    nodes: int = 0  # branch-and-bound nodes searched
    widest: int = 0  # beam search: the most states it kept in any turn (below its width: a wider beam is the same)


def check_order(order: Sequence[Card], turns: int, hand_size: int = HAND_SIZE, tokens: int = len(ALL_TOKENS)) -> None:
    if not 1 <= turns <= TURNS_PER_ROUND:
        raise IllegalMove(f"a round has 1 to {TURNS_PER_ROUND} turns")
    if not 1 <= hand_size <= HAND_SIZE:
        raise IllegalMove(f"a hand holds 1 to {HAND_SIZE} cards")
    if tokens < turns:
        raise IllegalMove(f"{turns} turns need {turns} tokens")
    needed = STARTING_CARDS + max(hand_size, turns)
    if len(order) < needed:
        raise IllegalMove(
            f"{turns} turns need at least {needed} cards (2 starting, a hand of {hand_size}, one card a turn)"
        )


def upper_bound(
    order: Sequence[Card], turns: int, hand_size: int = HAND_SIZE, tokens: Sequence[Token] = ALL_TOKENS
) -> int:
    """A proven bound on the round score (see the module docstring)."""
    cards = list(order[: round_card_count(order, turns, hand_size)])
    per_token = []
    for token in sorted(set(tokens)):
        if token is Token.WILDERNESS:
            seen = 0
            for card in cards:
                seen |= card.mask
            base = min(6, bin(seen).count("1"))
        else:
            bit = Terrain(int(token)).bit
            base = min(8, sum(len(card.pattern) for card in cards if card.mask & bit))
        fair = any(card.fair_weather for card in cards)
        per_token.append(base * (FAIR_WEATHER_FACTOR if fair else 1))
    return sum(sorted(per_token, reverse=True)[:turns])


@dataclass(frozen=True)
class _Node:
    table: Table
    hand: tuple[Card, ...]
    drawn: int  # cards of `order` taken so far
    tokens: frozenset[Token]
    plays: tuple[tuple[Placement, Tent], ...]
    estimate: float


def best_round(
    order: Sequence[Card],
    turns: int,
    budget: Budget,
    *,
    hand_size: int = HAND_SIZE,
    tokens: Sequence[Token] = ALL_TOKENS,
    exact: bool = True,
) -> RoundResult:
    """The best `turns`-turn solo round of `order` (see the module docstring). `hand_size` and `tokens` shrink the
    round (small hands and token sets are what the exhaustive tests can check); `exact=False` stops after the beam
    search."""
    tokens = tuple(sorted(set(tokens)))
    check_order(order, turns, hand_size, len(tokens))
    table = starting_table(order[0], order[1])
    start = _Node(table, tuple(order[2 : 2 + hand_size]), 2 + hand_size, frozenset(tokens), (), 0.0)
    bound = upper_bound(order, turns, hand_size, tokens)
    if turns == 1:
        search = best_turn_search(table, start.hand, tokens, 0, 1, budget)
        if not search.plays:
            return RoundResult([], 0, bound, Proof.HEURISTIC, table, True, "the budget ran out before any play")
        play = search.plays[0]
        after = table.place(play.placement).pitch(play.tent)
        proof = Proof.FEASIBLE_WITH_BOUND if search.interrupted else Proof.EXACT
        note = (
            "one turn: every legal play enumerated (exact)"
            if not search.interrupted
            else f"interrupted after {search.evaluated} of {search.total} placements: best found, not proven"
        )
        return RoundResult([(play.placement, play.tent)], play.score, bound, proof, after, search.interrupted, note)
    beam_result = _beam(order, turns, start, budget.sub_budget(BEAM_SHARE) if exact else budget, bound, budget)
    if exact and WIDEN_SHARE > 0.0 and turns >= WIDEN_FROM_TURNS and beam_result.plays:
        beam_result = _widen(order, turns, start, budget.sub_budget(WIDEN_SHARE), bound, beam_result)
    if not exact or budget.expired():
        return beam_result
    incumbent = beam_result.score if beam_result.plays else -1
    warm = beam_result.plays if POLISH else ()
    search = round_search.search_round(
        order, turns, budget, hand_size=hand_size, tokens=tokens, incumbent=incumbent, warm=warm
    )
    if search.best > incumbent:
        plays, table_after = _replay(order, search, table)
        score = player_scores(table_after, 1)[0]
        if score != search.best:
            raise RuntimeError(f"branch and bound claims {search.best} but the rules model scores {score}")
        how = f"branch and bound improved the beam's {incumbent} to {score}"
    elif beam_result.plays:
        plays, table_after, score = beam_result.plays, beam_result.table, beam_result.score
        how = f"beam search found {score}"
    else:
        return RoundResult([], 0, bound, Proof.HEURISTIC, table, True, "the budget ran out before a whole round")
    if search.complete:
        return RoundResult(
            plays,
            score,
            score,
            Proof.EXACT,
            table_after,
            False,
            f"{how}; branch and bound over every placement sequence proved it optimal ({search.nodes} nodes)",
            search.nodes,
        )
    bound = max(min(bound, search.bound), score)
    return RoundResult(
        plays,
        score,
        bound,
        Proof.FEASIBLE_WITH_BOUND,
        table_after,
        True,
        f"{how}; branch and bound interrupted after {search.nodes} nodes; proven bound {bound} (the highest bound "
        "among the branches left open)",
        search.nodes,
    )


def _child(order: Sequence[Card], node: _Node, play: Any, value: Callable[[Table, Any], float]) -> _Node:
    """The node after `play` (card laid, tent pitched, the next card of the known order drawn if any), valued by
    `value(table_after, play)`."""
    table_after = node.table.place(play.placement).pitch(play.tent)
    hand = list(node.hand)
    hand.remove(play.placement.card)
    drawn = node.drawn
    if drawn < len(order):
        hand.append(order[drawn])
        drawn += 1
    return _Node(
        table_after,
        tuple(hand),
        drawn,
        node.tokens - {play.tent.token},
        (*node.plays, (play.placement, play.tent)),
        value(table_after, play),
    )


def _finish(order: Sequence[Card], turns: int, node: _Node, budget: Budget) -> _Node | None:
    """Complete a partial round with the hint's best play each turn; once the budget is spent, the hint ranks
    only each turn's first placement (a few ms a turn), so a whole round always comes back (None only when a
    hand has no legal play)."""
    while len(node.plays) < turns:
        future = hints.future_model(list(order[node.drawn :]), turns - len(node.plays) - 1)
        ranked = hints.rank_plays(node.table, node.hand, node.tokens, 0, 1, future, budget, margin=False, top=1)
        if not ranked.choices:
            return None
        node = _child(order, node, ranked.choices[0], lambda _table, _play: 0.0)
    return node


def _replay(order: Sequence[Card], search: round_search.RoundSearch, table: Table) -> tuple[list, Table]:
    """The branch and bound's placements and tents as a turn-by-turn sequence, each step checked by the rules model."""
    by_turn = {turn: (token, cell) for token, cell, turn in search.tents}
    plays = []
    for turn, placement in enumerate(search.placements, start=1):
        token, (row, col) = by_turn[turn]
        tent = Tent(0, token, row, col)
        table = table.place(placement).pitch(tent)
        plays.append((placement, tent))
    return plays, table


def _widen(
    order: Sequence[Card], turns: int, start: _Node, budget: Budget, bound: int, best: RoundResult
) -> RoundResult:
    """Beams twice as wide as the last, one after another within `budget`, while the next (about twice the last's
    time) still fits; the best whole round of them all (a beam cut by the budget before its last turn gives none)."""
    width, cost = BEAM_WIDTH, 0.0
    while not budget.expired() and 2.0 * cost <= budget.remaining():
        width *= 2
        began = budget.elapsed()
        wider = _beam(order, turns, start, budget, bound, width=width)
        cost = budget.elapsed() - began
        if wider.plays and wider.score > best.score:
            best = wider
        if wider.interrupted or wider.widest < width:
            break
    return best


def _beam(
    order: Sequence[Card],
    turns: int,
    start: _Node,
    budget: Budget,
    bound: int,
    finish: Budget | None = None,
    *,
    width: int = BEAM_WIDTH,
) -> RoundResult:
    """Beam search over whole turns, `width` states a turn: the warm start (and the answer when the exact search is
    not asked for). When its budget runs out mid-round, the most promising partial round is finished one best hint a
    turn within `finish` (the caller's whole budget), so a loaded machine still gets a warm start."""
    table = start.table
    beam = [start]
    interrupted = False
    widest = 1
    for turn in range(turns):
        cards_to_come = turns - turn - 1
        unseen = list(order[beam[0].drawn :]) if beam else []
        future = hints.future_model(unseen, cards_to_come)
        children: list[_Node] = []
        for node in beam:
            if budget.expired():
                interrupted = True
                break
            ranked = hints.rank_plays(
                node.table, node.hand, node.tokens, 0, 1, future, budget, margin=False, top=EXPANSIONS
            )
            if ranked.interrupted:
                interrupted = True
                break
            for play in ranked.choices:
                children.append(
                    _child(order, node, play, lambda table, play: player_scores(table, 1)[0] + play.future_estimate)
                )
        if interrupted or not children:
            interrupted = True
            break
        children.sort(key=lambda n: -n.estimate)
        seen: set[tuple] = set()
        beam = []
        for child in children:
            key = tuple(sorted((p.signature(), t) for p, t in child.plays))
            if key in seen:
                continue
            seen.add(key)
            beam.append(child)
            if len(beam) == width:
                break
        widest = max(widest, len(beam))
    complete = [n for n in beam if len(n.plays) == turns]
    if not complete and beam and finish is not None:
        finished = _finish(order, turns, max(beam, key=lambda n: (len(n.plays), n.estimate)), finish)
        complete = [finished] if finished is not None else []
    if not complete:
        return RoundResult([], 0, bound, Proof.HEURISTIC, table, True, "the budget ran out before a whole round")
    best = max(complete, key=lambda n: player_scores(n.table, 1)[0])
    score = player_scores(best.table, 1)[0]
    proof = Proof.EXACT if score == bound else Proof.FEASIBLE_WITH_BOUND
    note = (
        f"beam search (width {width}) found {score}; proven bound {bound} "
        "(per-token maximum from the cards that can reach the table)"
    )
    return RoundResult(list(best.plays), score, bound, proof, best.table, interrupted, note, widest=widest)
