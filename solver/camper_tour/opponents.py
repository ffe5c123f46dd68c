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
close to the solo optimum but not exactly still counts), among its first STYLE_WINDOW decisions.
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
#: The first decisions of a camper its style is read from: the solo policy costs about 0.5 ms a decision to
#: replay, so a long record (up to MAX_RECORD) read whole would take a short hint's budget. The first ones tell
#: the styles apart (their outward play); later ones may not (greedy plays the solo policy's return table).
STYLE_WINDOW = 16
#: The most decisions of a record a hint reads back from its end (STYLE_WINDOW turns of four campers, twice over
#: for skipped turns).
MAX_WINDOW = 2 * 4 * STYLE_WINDOW


@dataclass(frozen=True)
class Decision:
    """One earlier decision of the game: the state its camper faced (`state.to_move`) and the move it chose."""

    state: TourState
    action: Action


def record_window(movers: Sequence[int], state: TourState) -> list[int]:
    """The decisions of a record a hint reads, given each decision's camper to move (`movers`): the first
    STYLE_WINDOW decisions of every other camper still travelling at `state` (whose style `solo_field` reads),
    within the first MAX_WINDOW decisions; none where `solo_field` cannot hold (fewer than MIN_SOLO_FIELD other
    campers in the game).

    So a record is converted and checked there only, and its cost stays bounded however long the game."""
    if len(state.others_in_game()) < MIN_SOLO_FIELD:
        return []
    readers = [i for i in state.others_in_game() if state.campers[i].phase in (Phase.OUTWARD, Phase.RETURN)]
    counts = dict.fromkeys(readers, 0)
    read = []
    for index, mover in enumerate(movers[:MAX_WINDOW]):
        if counts.get(mover, STYLE_WINDOW) < STYLE_WINDOW:
            counts[mover] += 1
            read.append(index)
    return read


def check_record(record: Sequence[Decision], state: TourState) -> None:
    """ValueError (with the index at fault first: "history[i]: ...") unless every decision is a decision state
    of a game with the same campers and rules as `state`, and its move is legal there.

    One pass, each decision's legal moves listed once: about 30 microseconds a decision."""
    if len(record) > MAX_RECORD:
        raise ValueError(f"history: at most {MAX_RECORD} decisions")
    campers, config = len(state.campers), state.config
    for i, decision in enumerate(record):
        earlier = decision.state
        if len(earlier.campers) != campers:
            raise ValueError(f"history[{i}].state.campers: {len(earlier.campers)} campers, the position has {campers}")
        if earlier.config is not config and earlier.config != config:
            raise ValueError(f"history[{i}].state.rules: not the rules of the position")
        if earlier.game_over or earlier.stage != Stage.DECIDE or earlier.current_player() < 0:
            raise ValueError(f"history[{i}].state: not a decision (the game is over or dice are to be rolled)")
        legal = earlier.legal_actions()
        if not legal:
            raise ValueError(f"history[{i}].state.to_move: the camper to move has no decision to make")
        if decision.action not in legal:
            raise ValueError(f"history[{i}].move: not a legal move in that state")


def solo_agreement(record: Sequence[Decision], camper: int, budget: Budget | None = None) -> tuple[int, int]:
    """(decisions of `camper` among its first STYLE_WINDOW in the record, how many of them are the solo
    policy's move)."""
    mine = [decision for decision in record if decision.state.to_move == camper][:STYLE_WINDOW]
    agreed = 0
    for decision in mine:
        if budget is not None:
            budget.check()
        agreed += solo_optimal(decision.state) == decision.action
    return len(mine), agreed


def plays_solo_policy(record: Sequence[Decision], camper: int, budget: Budget | None = None) -> bool:
    """At least MIN_DECISIONS of the camper's first STYLE_WINDOW decisions, SOLO_AGREEMENT of them the solo
    policy's move (stops replaying at the first disagreement too many)."""
    mine = [decision for decision in record if decision.state.to_move == camper][:STYLE_WINDOW]
    if len(mine) < MIN_DECISIONS:
        return False
    allowed = len(mine) - SOLO_AGREEMENT * len(mine)  # disagreements that still count as the solo policy
    disagreed = 0
    for decision in mine:
        if budget is not None:
            budget.check()
        disagreed += solo_optimal(decision.state) != decision.action
        if disagreed > allowed:
            return False
    return True


def solo_field(state: TourState, record: Sequence[Decision], budget: Budget | None = None) -> bool:
    """Whether every other camper still travelling plays the solo policy (by the record), with at least
    MIN_SOLO_FIELD other campers not eliminated (finished campers count: their score is a reach to beat)."""
    others = state.others_in_game()
    if len(others) < MIN_SOLO_FIELD or not record:
        return False
    travelling = [i for i in others if state.campers[i].phase in (Phase.OUTWARD, Phase.RETURN)]
    return bool(travelling) and all(plays_solo_policy(record, i, budget) for i in travelling)
