"""Reading the opponents' style from the game's record: which other campers play the exact solo policy.

A hint that does not know its opponents must average over plausible tables (`hint.OPPONENT_MODELS`), and
the best move against campers who announce 9-10 for the highest score (the solo policy) is not the best
against campers who race: against two or more solo-policy campers, only getting home first, strictly ahead
of every reach, wins (`best_response`). The state alone does not tell the styles apart (it has no clock),
but the game's record does: the solo policy is deterministic, and the rule-of-thumb players rarely agree
with it (seeded 3-camper games, 60 a style: greedy campers agreed with the solo policy on 53-57% of their
decisions, `race` and announce-7 on 11-12%, and none of them on both of their first two decisions).

A camper "plays the solo policy" when the record holds at least MIN_DECISIONS of its decisions and at least
SOLO_AGREEMENT of them are the solo policy's move in the state it faced (a share, so that a person who plays
close to the solo optimum but not exactly still counts).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from campsolver.solver.camper_tour.players import solo_optimal
from campsolver.solver.camper_tour.rules import Action, Phase, Stage, TourState
from campsolver.solver.core.budget import Budget

#: Decisions of a camper the record must hold before its style is read.
MIN_DECISIONS = 2
#: Share of those decisions that must be the solo policy's move.
SOLO_AGREEMENT = 0.9
#: The other campers (not eliminated) there must be for a solo field: with one, the game is decided by other
#: means (the last-camper rule), which the best response does not model.
MIN_SOLO_FIELD = 2
#: Decisions a record may hold (a whole 3-camper game is 150-350; checking 1,000 takes about 0.1 s).
MAX_RECORD = 1_000


@dataclass(frozen=True)
class Decision:
    """One earlier decision of the game: the state its camper faced (`state.to_move`) and the move it chose."""

    state: TourState
    action: Action


def check_record(record: Sequence[Decision], state: TourState) -> None:
    """ValueError (with the index at fault first: "history[i]: ...") unless every decision is a decision state
    of a game with the same campers and rules as `state`, and its move is legal there."""
    if len(record) > MAX_RECORD:
        raise ValueError(f"history: at most {MAX_RECORD} decisions")
    for i, decision in enumerate(record):
        earlier = decision.state
        if len(earlier.campers) != len(state.campers):
            raise ValueError(f"history[{i}].state.campers: {len(earlier.campers)} campers, the position has "
                             f"{len(state.campers)}")
        if earlier.config != state.config:
            raise ValueError(f"history[{i}].state.rules: not the rules of the position")
        if earlier.game_over or earlier.stage != Stage.DECIDE or earlier.current_player() < 0:
            raise ValueError(f"history[{i}].state: not a decision (the game is over or dice are to be rolled)")
        if decision.action not in earlier.legal_actions():
            raise ValueError(f"history[{i}].move: not a legal move in that state")


def solo_agreement(record: Sequence[Decision], camper: int, budget: Budget | None = None) -> tuple[int, int]:
    """(decisions of `camper` in the record, how many of them are the solo policy's move)."""
    decisions = agreed = 0
    for decision in record:
        if decision.state.to_move != camper:
            continue
        if budget is not None:
            budget.check()
        decisions += 1
        agreed += solo_optimal(decision.state) == decision.action
    return decisions, agreed


def plays_solo_policy(record: Sequence[Decision], camper: int, budget: Budget | None = None) -> bool:
    decisions, agreed = solo_agreement(record, camper, budget)
    return decisions >= MIN_DECISIONS and agreed >= SOLO_AGREEMENT * decisions


def solo_field(state: TourState, record: Sequence[Decision], budget: Budget | None = None) -> bool:
    """Whether every other camper still travelling plays the solo policy (by the record), with at least
    MIN_SOLO_FIELD other campers not eliminated (finished campers count: their score is a reach to beat)."""
    others = state.others_in_game()
    if len(others) < MIN_SOLO_FIELD or not record:
        return False
    travelling = [i for i in others if state.campers[i].phase in (Phase.OUTWARD, Phase.RETURN)]
    return bool(travelling) and all(plays_solo_policy(record, i, budget) for i in travelling)
