"""Seeded best-turn puzzles: a table and a hand where exactly one play reaches the maximum, proven by enumeration.

Generation (Tatham style: the solver certifies every candidate): from the seed, deal a table by random legal play
(5-9 cards, a few tents of the solver and of an opponent), a hand of 2-3 cards and 2-4 unused tokens; enumerate
every play (`best_turn_search`, exact) and keep the candidate only when exactly one play reaches the best score.
The CP-SAT model re-proves the value (OPTIMAL) before the puzzle is returned.

Grade, from what a solver needs to see it:
- `near_best`: plays within 1 point of the best (more = harder to spot);
- `naive_shortfall`: how far a player who only looks at the new tent's own points falls short (the best play
  also raises earlier tents or denies nothing obvious);
- `margin`: best minus second best.
"""

from __future__ import annotations

from dataclasses import dataclass

from campsolver.solver.campsite import best_turn as cpsat_turn
from campsolver.solver.campsite.evaluate import TurnEvaluator, best_turn_search
from campsolver.solver.campsite.rules import ALL_TOKENS, Card, Placement, Table, Tent, Token, default_deck
from campsolver.solver.core.budget import Budget, SolveInterrupted
from campsolver.solver.core.grade import Grade
from campsolver.solver.core.proof import Proof
from campsolver.solver.core.seeding import rng_for

MAX_ATTEMPTS = 200


@dataclass
class Puzzle:
    seed: int
    table: Table
    hand: tuple[Card, ...]
    tokens: tuple[Token, ...]
    solution: tuple[Placement, Tent]
    best: int
    second: int
    near_best: int
    naive_shortfall: int
    grade: Grade
    attempts: int
    proof: Proof


def all_play_values(table: Table, hand: tuple[Card, ...], tokens: tuple[Token, ...]) -> list[int]:
    """The mover's score after every play (player 0), for the grade."""
    evaluator = TurnEvaluator(table, 2)
    before = evaluator.tent_points_now()[0]
    values = []
    for effect in evaluator.effects(hand):
        base = before + effect.delta[0]
        for _, around in effect.options:
            values.extend(base + around.values[t] for t in tokens)
        for cell, around in evaluator.base_surroundings.items():
            if cell not in effect.reach:
                values.extend(base + around.values[t] for t in tokens)
    return values


def naive_value(table: Table, hand: tuple[Card, ...], tokens: tuple[Token, ...]) -> int:
    """Score reached by a player who picks the play whose new tent alone scores most."""
    evaluator = TurnEvaluator(table, 2)
    before = evaluator.tent_points_now()[0]
    best = None
    for effect in evaluator.effects(hand):
        options = list(effect.options) + [
            (c, s) for c, s in evaluator.base_surroundings.items() if c not in effect.reach
        ]
        for _, around in options:
            for token in tokens:
                key = (around.values[token], -(before + effect.delta[0]))  # ties: the naive player's worst
                value = before + effect.delta[0] + around.values[token]
                if best is None or key > best[0]:
                    best = (key, value)
    assert best is not None
    return best[1]


def grade_of(near_best: int, naive_shortfall: int, margin: int) -> Grade:
    if naive_shortfall >= 3 or (naive_shortfall >= 1 and near_best >= 4):
        return Grade.EXPERT
    if naive_shortfall >= 1 or near_best >= 6:
        return Grade.HARD
    if near_best >= 2 or margin == 1:
        return Grade.MEDIUM
    return Grade.EASY


def candidate(seed: int, attempt: int) -> tuple[Table, tuple[Card, ...], tuple[Token, ...]]:
    rng = rng_for(seed, "campsite-puzzle", attempt)
    deck = list(default_deck())
    order = [deck[i] for i in rng.permutation(len(deck))]
    table = Table().place(Placement(order[0], 0, 0, 0)).place(Placement(order[1], 0, 3, 0))
    cards = int(rng.integers(5, 10))
    used = {0: set(), 1: set()}
    for k in range(cards - 2):
        options = table.legal_placements([order[2 + k]])
        table = table.place(options[int(rng.integers(len(options)))])
        if k % 2 == 0 or rng.random() < 0.3:
            player = int(rng.integers(2))
            free_tokens = [t for t in ALL_TOKENS if t not in used[player]]
            free = table.free_squares()
            if free_tokens and free:
                token = free_tokens[int(rng.integers(len(free_tokens)))]
                used[player].add(token)
                table = table.pitch(Tent(player, token, *free[int(rng.integers(len(free)))]))
    hand = tuple(order[cards : cards + int(rng.integers(2, 4))])
    left = [t for t in ALL_TOKENS if t not in used[0]]
    count = min(len(left), int(rng.integers(2, 5)))
    tokens = tuple(sorted(left[i] for i in rng.choice(len(left), size=count, replace=False)))
    return table, hand, tokens


def generate(seed: int, budget: Budget, grade: Grade | None = None) -> Puzzle:
    """The first candidate (in seeded order) with a unique best play (and the wanted grade, if any)."""
    for attempt in range(MAX_ATTEMPTS):
        budget.check()
        table, hand, tokens = candidate(seed, attempt)
        search = best_turn_search(table, hand, tokens, 0, 2, budget)
        if search.interrupted:
            raise SolveInterrupted("deadline")
        if len(search.plays) != 1:
            continue
        (play,) = search.plays
        values = sorted(all_play_values(table, hand, tokens), reverse=True)
        second = values[1] if len(values) > 1 else values[0]
        if values[0] != play.score or second >= play.score:
            raise RuntimeError("the enumeration and the grade's play values disagree")
        near_best = sum(1 for v in values[1:] if v >= play.score - 1)
        shortfall = play.score - naive_value(table, hand, tokens)
        found_grade = grade_of(near_best, shortfall, play.score - second)
        if grade is not None and found_grade is not grade:
            continue
        check = cpsat_turn.best_turn(table, hand, tokens, 0, budget)
        if check.proof is not Proof.OPTIMAL or check.score != play.score:
            raise (
                SolveInterrupted("deadline")
                if check.proof is not Proof.OPTIMAL
                else RuntimeError(f"CP-SAT best {check.score} disagrees with the enumeration's {play.score}")
            )
        return Puzzle(
            seed,
            table,
            hand,
            tokens,
            (play.placement, play.tent),
            play.score,
            second,
            near_best,
            shortfall,
            found_grade,
            attempt,
            Proof.EXACT,
        )
    raise LookupError(f"no unique puzzle{' of that grade' if grade else ''} in {MAX_ATTEMPTS} attempts")
