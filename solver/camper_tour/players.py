"""Fixed Camper Tour players: rules of thumb for the head-to-head bench and the win-probability rollouts.

Every player is a function of the rules state (the mover decides) returning one of `legal_actions()`.

* `announce_seven`: outward, announce 7 (or the largest legal below it) and turn back at 12 tokens or
  fewer; on the return the same, never past the starting plate; Comforts: recover outward, decline home.
* `greedy`: outward, the announcement with the best expected progress minus a token cost,
  P(roll > a) * (a - TOKEN_COST * E[roll - a | roll > a]); it turns back once its tokens fall to a
  reserve for the return (RESERVE_PER_PLATE tokens a plate, at least RESERVE_MIN). On the return it plays
  the exact all-normal solo return table (least expected marker loss). Comforts: recover outward, the
  table's choice on the return. As the last camper on the journey (where any failed roll eliminates) it
  turns back at once and announces at most SAFE_ANNOUNCEMENT.
* `race`: a rule of thumb for winning the race rather than scoring (the win-probability hint's baseline
  and its own continuation in the playouts). Tuned by seeded tournaments against the other players
  (bench/camper_tour.py `--race-baseline`, `--tune-race`): with two campers on the journey and nobody home yet,
  rush: announce at most RUSH_ANNOUNCEMENT both ways and turn back at RUSH_TURN_BACK_TOKENS tokens (the first
  camper home either ends the game furthest ahead or leaves the other as the last camper, whom any failed
  roll eliminates; outward against a home-bound rival it plays the solved outward duel, `outward_duel`, and once
  both are home-bound the solved return duel, `return_duel`); otherwise (three or
  more on the journey, or somebody home) `CrowdParameters`: announce at
  most SEVEN and turn back once the tokens fall to CROWD_RESERVE_MIN + CROWD_RESERVE_PER_PLATE x plate, unless
  its plate is not yet beyond a returning camper's marker or a finished camper's score (then down to
  CROWD_TOKEN_FLOOR); once every other camper on the journey is home-bound it turns back as soon as it is
  CROWD_ALONE_MARGIN plates beyond every other camper's reach (each plate further out is two more to travel while
  they near home, and the camper left last is eliminated by any failed roll), and once at most CROWD_FOLLOW_OUTWARD
  other campers are still outward (the rest home-bound or home) as soon as it is CROWD_FOLLOW_MARGIN plates beyond
  their markers and scores; against a slow field
  (`slow_field`: every other camper outward on at most half the mover's plate) `AGAINST_SLOW` instead (announce
  at most 6 out, turn back sooner: a race beats campers who announce 9-10 only by getting home first). As the
  last camper on the journey it plays `last_camper_win_probability`, an exact table of the chance to get home
  with no failed roll and a score at least the best finished one (a tie wins: it returns last), on an
  all-normal return.
  `--tune-race` (3 campers, 400 tuning games per opponent on seeds disjoint from the bench's) found no
  parameter set clearly better than these defaults against the worst opponent: announcing 6 both ways and
  turning back earlier wins more often against the solo policy (its campers are slow) but loses badly to
  announce-7 and greedy; guesses at "slow opponents" from their plates and tokens, and later from their
  tokens spent per plate (0.270 against the solo optimum: it comes too late, a solo camper needs about seven
  turns to go 8 plates), did not keep the gain. `slow_field` judges from the others' plates against the
  mover's own instead, from the mover's fourth plate on; the gain is small (docs/rules/camper-tour.md).
* `solo_optimal`: the exact solo policy of the all-normal route for its own camper (opponents ignored;
  an occupied target falls to the best legal alternative by the same table).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

import numpy as np
from campsolver.solver.camper_tour.duel import ROLLS
from campsolver.solver.camper_tour.outward_duel import both_out_move, outward_duel_move
from campsolver.solver.camper_tour.return_duel import duel_return_move
from campsolver.solver.camper_tour.rules import (
    COMFORTS_TOKENS,
    STARTING_PLATE,
    TWO_DICE,
    Action,
    Announce,
    Camper,
    ComfortsChoice,
    Config,
    Pass,
    Pending,
    Phase,
    TourState,
    TurnBack,
    new_game,
)
from campsolver.solver.camper_tour.solo import all_normal_tables, comforts_tokens
from campsolver.solver.core.game import sample_outcome

Player = Callable[[TourState], Action]

#: Tokens a greedy player keeps for the way home, per plate out, and at least.
RESERVE_PER_PLATE = 0.3
RESERVE_MIN = 4
#: Plates a token is worth to the greedy player on the way out.
TOKEN_COST = 0.5
SEVEN = 7
#: Largest announcement the greedy player risks as the last camper on the journey.
SAFE_ANNOUNCEMENT = 2
SEVEN_TURN_BACK_TOKENS = 12
#: `race` with two campers on the journey: the turn-back tokens (see `DuelParameters` for the rest).
RUSH_TURN_BACK_TOKENS = 16
#: `race` with three or more on the journey: turn back at CROWD_RESERVE_MIN + CROWD_RESERVE_PER_PLATE x plate. The
#: per-plate reserve was 0.2 until the follow rule below turned it back sooner behind early returners; with it, 0.1
#: (further out against campers who go far) did better (bench/camper_tour_crowd.py: `base` against `follow4o1`).
CROWD_RESERVE_MIN = 6
CROWD_RESERVE_PER_PLATE = 0.1
#: ...unless its plate is not beyond a returning camper's marker: then it goes on down to this many tokens.
CROWD_TOKEN_FLOOR = 6
#: ...and once every other camper on the journey is home-bound, it turns back as soon as it is this many plates
#: beyond every other camper's reach: each plate further out is two more plates to travel while they near home,
#: and the camper left last on the journey is eliminated by any failed roll (bench/camper_tour_crowd.py).
CROWD_ALONE_MARGIN = 1
#: Whoever is still outward, it turns back once this many plates beyond every other camper's reach: the further
#: out, the likelier it is left the last camper, far from home (not against a slow field, `AGAINST_SLOW`: there it
#: did worse). Rule only, against this repository's fields
#: (bench/camper_tour_crowd.py, 3 campers, 600 games a field, seeds 4,930,000+): mean 0.506 -> 0.522 (8 and 14
#: did less; 8 lowered the worst field to 0.387); against the outside players on development seeds, paired,
#: +0.015 to +0.017 a pair (4 and 6 did worse).
CROWD_LEAD = 11
#: Once at most CROWD_FOLLOW_OUTWARD other campers are still outward (the rest home-bound or home, at least one),
#: it turns back as soon as CROWD_FOLLOW_MARGIN plates beyond their markers and scores: else it is the one left
#: last on the journey, far from home, whom any failed roll eliminates. Rule only, against this repository's fields
#: (bench/camper_tour_crowd.py, 600 games a field, seeds 4,950,000+): mean 0.543 -> 0.609 with 3 campers and 0.494
#: -> 0.546 with 4, the worst field (announce-7 + greedy) unchanged; margins 2 and 6 did a little less, counting
#: only home-bound campers (`follow_count` 1) lowered the worst field with 4 campers.
CROWD_FOLLOW_MARGIN = 4
CROWD_FOLLOW_OUTWARD = 1

_SUCCESS = {a: sum(float(p) for total, p in TWO_DICE if total > a) for a in range(1, 11)}
_PAYMENT = {a: sum(float(p) * (total - a) for total, p in TWO_DICE if total > a) / _SUCCESS[a] for a in range(1, 11)}


def _announcements(state: TourState) -> list[int]:
    """The legal announcements (`TourState.open_announcements`)."""
    return state.open_announcements()


@lru_cache(maxsize=65_536)
def _return_costs(plate_count: int, limit: int, plate: int, tokens: int) -> dict[int, float]:
    """The all-normal return table's expected |tokens at arrival| per announcement (cached: the playouts ask the
    same few thousand cells again and again)."""
    return all_normal_tables(plate_count, limit).back.announce_costs(plate, tokens)


@lru_cache(maxsize=65_536)
def _outward_ranked(plate_count: int, limit: int, plate: int, tokens: int) -> tuple[Action, ...]:
    """The solo policy's outward alternatives, best value first (equal values in the tables' order; cached like
    `_return_costs`): the first legal one is the best legal one."""
    options = all_normal_tables(plate_count, limit).outward_alternatives(plate, tokens)
    return tuple(action for action, _ in sorted(options, key=lambda item: -item[1]))


def _table_return(state: TourState) -> Action:
    """The exact all-normal return play (least expected marker loss)."""
    camper = state.mover
    tables = all_normal_tables(state.config.plate_count, state.config.token_limit)
    tokens = min(camper.tokens, tables.axis.cap)
    if camper.pending == Pending.COMFORTS_CHOICE:
        limit = state.config.token_limit
        return min(
            ComfortsChoice, key=lambda c: tables.back.cost_at(camper.position, comforts_tokens(c, tokens, limit))
        )
    legal = set(_announcements(state))
    if not legal:
        return Pass()
    costs = {
        a: c
        for a, c in _return_costs(state.config.plate_count, state.config.token_limit, camper.position, tokens).items()
        if a in legal
    }
    return Announce(min(costs, key=lambda a: costs[a]))


def announce_seven(state: TourState) -> Action:
    camper = state.mover
    if camper.pending == Pending.COMFORTS_CHOICE:
        return ComfortsChoice.RECOVER if camper.phase == Phase.OUTWARD else ComfortsChoice.DECLINE
    if camper.phase == Phase.OUTWARD and camper.tokens <= SEVEN_TURN_BACK_TOKENS and camper.position > STARTING_PLATE:
        return TurnBack()
    return _capped(state, SEVEN)


def greedy(state: TourState) -> Action:
    camper = state.mover
    if state.last_camper_rule and camper.pending != Pending.COMFORTS_CHOICE:
        return _last_camper(state)
    if camper.phase == Phase.RETURN:
        return _table_return(state)
    if camper.pending == Pending.COMFORTS_CHOICE:
        return ComfortsChoice.RECOVER
    reserve = max(RESERVE_MIN, RESERVE_PER_PLATE * camper.position)
    if camper.position > STARTING_PLATE and camper.tokens <= reserve:
        return TurnBack()
    legal = _announcements(state)
    if not legal:
        return TurnBack() if camper.position > STARTING_PLATE else Pass()
    return Announce(max(legal, key=lambda a: _SUCCESS[a] * (a - TOKEN_COST * _PAYMENT[a])))


def _last_camper(state: TourState) -> Action:
    """The last camper on the journey is eliminated by any failed roll: head home at once, announcing at most
    SAFE_ANNOUNCEMENT (a 1 never fails, a 2 fails 1 time in 36), the table's cheaper of the safe ones."""
    camper = state.mover
    if camper.phase == Phase.OUTWARD:
        if camper.position > STARTING_PLATE:
            return TurnBack()
        return Announce(1) if Announce(1) in state.legal_actions() else state.legal_actions()[0]
    legal = [a for a in _announcements(state) if a <= SAFE_ANNOUNCEMENT]
    if not legal:
        return state.legal_actions()[0]
    tables = all_normal_tables(state.config.plate_count, state.config.token_limit)
    costs = _return_costs(
        state.config.plate_count, state.config.token_limit, camper.position, min(camper.tokens, tables.axis.cap)
    )
    return Announce(min(legal, key=lambda a: costs[a]))


def racer(state: TourState) -> Action:
    """`announce_seven`, except as the last camper on the journey (then `greedy`'s safe way home).

    The baseline and the rollout policy of the win-probability hint: in seeded fixed-player tournaments
    (2 and 3 campers, with and without specials) announce-7 was the strongest of the rules of thumb.
    """
    if state.last_camper_rule and state.mover.pending != Pending.COMFORTS_CHOICE:
        return _last_camper(state)
    return announce_seven(state)


def _capped(state: TourState, largest: int) -> Action:
    """The largest legal announcement up to `largest` (the smallest legal one if all are larger)."""
    announcements = _announcements(state)
    if not announcements:
        return state.legal_actions()[0]  # TurnBack (outward, every target blocked) or Pass
    capped = [a for a in announcements if a <= largest]
    return Announce(max(capped)) if capped else Announce(min(announcements))


@dataclass(frozen=True)
class CrowdParameters:
    """`race` with three or more campers on the journey, or somebody home (bench/camper_tour.py
    `--tune-race` shows how the values were chosen): the largest announcements out and home, the turn-back
    reserve, the token floor down to which it goes on while not beyond the best marker or score of the others,
    and the lead over every other camper's reach (outward plate, marker, final score) at which it turns back at
    once to end the game by arriving furthest ahead."""

    out_announcement: int = SEVEN
    return_announcement: int = SEVEN
    reserve_min: float = CROWD_RESERVE_MIN
    reserve_per_plate: float = CROWD_RESERVE_PER_PLATE
    token_floor: int = CROWD_TOKEN_FLOOR
    #: Beyond the others' best marker/score by this many plates counts as ahead (a margin for the return).
    behind_margin: int = 0
    #: Turn back at once when this many plates beyond every other camper's reach (0: never on lead alone).
    lead: int = 0
    #: Also count as behind while not this many plates beyond every outward camper's plate (None: outward
    #: campers are not looked at).
    outward_margin: int | None = None
    #: ...and while not this many times beyond the furthest outward camper's plate (its projected reach when
    #: the mover gets home; 0: not used).
    outward_ratio: float = 0.0
    #: Outward with every other camper on the journey already home-bound: turn back once this many plates beyond
    #: every other camper's reach (None: not used).
    alone_margin: int | None = CROWD_ALONE_MARGIN
    #: Outward with at least `follow_count` others home-bound: turn back once this many plates beyond the
    #: home-bound campers' markers and finished scores (None: not used).
    follow_margin: int | None = None
    follow_count: int = 1
    #: ...or, with `follow_outward` set, once at most this many other campers are still outward (the rest
    #: home-bound or home, at least one of them): whatever the table's size, the camper left last on the journey is
    #: the one still out when the others near home (None: `follow_count` decides).
    follow_outward: int | None = None
    #: With every other camper on the journey home-bound and nobody home, play the solved two-camper duel against
    #: the home-bound camper with the best marker (`proxy_rival`), the others left out: outward, ...
    proxy_outward: bool = True
    #: ...and home-bound too.
    proxy_return: bool = True
    #: Outward, only from this many plates beyond the proxy rival's marker (negative: behind it; None: anywhere).
    #: Far behind, the duel turns back to get home first and leave its rival the last camper, which a third camper
    #: still on the journey prevents.
    proxy_from_gap: int | None = -3
    #: Home-bound (where no proxy duel applies), the announcement that spends the tokens in hand (`burn`) rather
    #: than the largest: tokens left at the starting plate come off the score.
    return_burn: bool = True


#: The parameters in use (bench/camper_tour.py `--tune-race` searched them; module docstring).
CROWD = CrowdParameters(lead=CROWD_LEAD, follow_margin=CROWD_FOLLOW_MARGIN, follow_outward=CROWD_FOLLOW_OUTWARD)
#: ...and against a slow field (`slow_field`): announce at most 6 on the way out and turn back sooner. Campers
#: who announce 9-10 (the solo optimum) score 64-72 once home, more than a race can; a race wins only by
#: getting home furthest ahead before they pass its marker. Seeded rule-only games (3 campers, no specials,
#: 300 games on tuning seeds; the return and the other pairings unchanged): against two solo-optimal campers
#: 0.363 against `CROWD`'s 0.300; out 5, a reserve of 12, or a reserve per plate of 0.1 or 0.3 did worse.
AGAINST_SLOW = CrowdParameters(out_announcement=6, reserve_min=9, reserve_per_plate=0.2)
#: The field counts as slow when the mover, outward on plate SLOW_FROM_PLATE or further, sees every other camper
#: not eliminated outward on at most SLOW_FRACTION of its plate (one returning or home is not slow). The state
#: has no clock: the mover's own plate, reached at `race`'s pace, stands for the time gone by (announce-7 and
#: greedy keep up with it; campers announcing 9-10 move about 1.2 plates a turn against its 2.9).
SLOW_FROM_PLATE = 4
SLOW_FRACTION = 0.5
#: ...and only with at least this many others (measured in 3-camper games; with one other camper `race` rushes,
#: and the win hint already won every measured 2-camper game against the solo optimum).
SLOW_FIELD_SIZE = 2


def slow_field(state: TourState) -> bool:
    """Whether every other camper (but the eliminated; at least SLOW_FIELD_SIZE) is outward, far behind the
    outward mover (SLOW_FRACTION)."""
    mover = state.mover
    if mover.phase != Phase.OUTWARD or mover.position < SLOW_FROM_PLATE:
        return False
    others = [state.campers[i] for i in state.others_in_game()]
    return len(others) >= SLOW_FIELD_SIZE and all(
        c.phase == Phase.OUTWARD and c.position <= SLOW_FRACTION * mover.position for c in others
    )


#: The duel's chase rule (home first while the rival is far out) bets that the rival, left the last camper, fails a
#: roll on its long way home. `DuelParameters.chase_risk` chases only while the rival's exact last-camper chance,
#: were it to turn back where it stands, is at most a bound. Not in use (None): rule only against this repository's
#: players (bench/camper_tour_crowd.py, 2 campers, 300 games a field) a bound of 0.3 led on seeds 4,300,000+
#: (worst field 0.500 -> 0.530, mean 0.725 -> 0.731) but not on fresh seeds 4,400,000+ (0.493 -> 0.500, mean
#: 0.731 -> 0.726): no gain beyond noise.
DUEL_CHASE_RISK: float | None = None


@dataclass(frozen=True)
class DuelParameters:
    """`race` with two campers on the journey and nobody home (a duel): whoever gets home first either ends the
    game furthest ahead or leaves the other as the last camper, whom any failed roll eliminates.

    Out: announce at most `out_announcement`; turn back at `turn_back_tokens` tokens, or once `lead_margin` plates
    beyond a returning rival's marker (then its arrival cannot end the game, and this camper is the one that can),
    or from plate `rush_from_plate` on when the rival is `chase_gap` plates or more further out (home first: the
    rival then comes home from far as the last camper). Home: with the rival home-bound too, the solved duel's
    announcement (`solved_return`); otherwise the announcement (at most `home_announcement`) whose token cost per
    plate, kept up, spends the tokens in hand by the starting plate (`burn`).

    Chosen on development seeds (8,220,000+, 300 games a pairing, seats alternated, default specials) against
    sparring partners written from the rulebook (bench/camper_tour_sparring.py) and this repository's players:
    the earlier rush (announce at most 5 both ways, turn back at 16 tokens) won 0.51-0.53 against the racers
    (dash, sprint, sentinel) and 0.84 against steady; out 6 and burning tokens home 0.58-0.67 and 0.76; the chase
    rule brought steady, far and greedy back up (0.84, 0.99, 0.98). The best-response study behind it (the exact
    duel, `duel.best_response_policy`): against sprint and dash the best response announces 6 (or 5) out, turns
    back 2-3 plates beyond a returning rival's marker, and spends its tokens on the way home.
    """

    out_announcement: int = 6
    home_announcement: int = 6
    turn_back_tokens: int = RUSH_TURN_BACK_TOKENS
    lead_margin: int = 2
    chase_gap: int = 6
    rush_from_plate: int = 8
    #: Chase only while a rival turning back where it stands would win as the last camper, against a score of this
    #: camper's plate, with at most this probability (`last_camper_win_probability`: exact, all-normal return,
    #: played well); None: chase whatever the rival's chances.
    chase_risk: float | None = DUEL_CHASE_RISK
    #: With both campers home-bound, play the solved duel (`return_duel`: the exact minimax announcement on an
    #: all-normal return) instead of burning the tokens in hand; outside its tables, burn.
    solved_return: bool = True
    #: Outward with the rival home-bound, play the solved duel (`outward_duel`: the exact minimax turn back or
    #: announcement on all-normal plates); outside its tables, the fields above. (Home-bound with the rival
    #: outward, the rule's own move: the solved duel's did worse against the sparring partners.)
    solved_outward: bool = True
    #: Both outward, play the solved duel (`outward_duel.both_out_move`: the exact minimax turn back or announcement
    #: on all-normal plates, each camper at most 40 plates out); outside its tables, the fields above. Off: against
    #: the sparring partners it did no better than the fields above (docs/solvers/camper-tour.md).
    solved_both_out: bool = False


DUEL = DuelParameters()
_PAY_PER_MOVE = _PAYMENT  # expected payment of a successful announcement (tokens), by announcement


def burn(state: TourState, largest: int) -> Action:
    """Home-bound: the announcement (at most `largest`) whose expected token cost per plate, kept up to the starting
    plate, best matches the tokens in hand (the larger on a tie): arrive with none left and no marker lost."""
    camper = state.mover
    legal = _announcements(state)
    if not legal:
        return state.legal_actions()[0]
    candidates = [a for a in legal if a <= largest] or legal
    to_go = camper.position - STARTING_PLATE
    return Announce(min(candidates, key=lambda a: (abs(camper.tokens - to_go * _PAY_PER_MOVE[a] / a), -a)))


def _duel(state: TourState, rival: Camper, params: DuelParameters) -> Action:
    camper = state.mover
    if params.solved_outward and camper.phase == Phase.OUTWARD and rival.phase == Phase.RETURN:
        solved_move = outward_duel_move(state)
        if solved_move is not None:
            return solved_move
    if params.solved_both_out and camper.phase == Phase.OUTWARD and rival.phase == Phase.OUTWARD:
        solved_move = both_out_move(state)
        if solved_move is not None:
            return solved_move
    if camper.phase == Phase.RETURN:
        solved = duel_return_move(state) if params.solved_return else None
        return solved or burn(state, params.home_announcement)
    if camper.position > STARTING_PLATE:
        if camper.tokens <= params.turn_back_tokens:
            return TurnBack()
        if rival.phase == Phase.RETURN and camper.position >= rival.marker + params.lead_margin:
            return TurnBack()
        if (
            rival.phase == Phase.OUTWARD
            and rival.position >= camper.position + params.chase_gap
            and camper.position >= params.rush_from_plate
            and (
                params.chase_risk is None
                or last_camper_win_probability(rival.position, max(0, rival.tokens), rival.position - camper.position)
                <= params.chase_risk
            )
        ):
            return TurnBack()
    return _capped(state, params.out_announcement)


def race(state: TourState, crowd: CrowdParameters | None = None, duel: DuelParameters | None = None) -> Action:
    """Play to win the race (see the module docstring): rush with two on the journey, `crowd` with more."""
    camper = state.mover
    travelling = sum(c.active for c in state.campers)
    if state.last_camper_rule and camper.pending != Pending.COMFORTS_CHOICE:
        return _last_camper_to_win(state)
    if state.last_camper_rule:
        return _last_camper_comforts(state)
    # A duel (rushing home) pays only if arriving ends the game or leaves the other as the last camper: not when a
    # camper already home may hold a better score than a rushed journey.
    rush = travelling <= 2 and not any(c.phase == Phase.FINISHED for c in state.campers)
    if camper.pending == Pending.COMFORTS_CHOICE:
        if camper.phase == Phase.OUTWARD:
            return ComfortsChoice.RECOVER
        return ComfortsChoice.DISCARD if camper.tokens > COMFORTS_TOKENS else ComfortsChoice.DECLINE
    if rush:
        rival = next(c for i, c in enumerate(state.campers) if i != state.to_move and c.active)
        return _duel(state, rival, duel or DUEL)
    params = crowd or (CROWD if not slow_field(state) else AGAINST_SLOW)
    proxied = _proxy_duel(state, params)
    if proxied is not None:
        return proxied
    largest = params.out_announcement if camper.phase == Phase.OUTWARD else params.return_announcement
    if camper.phase == Phase.OUTWARD and camper.position > STARTING_PLATE:
        reserve = params.reserve_min + params.reserve_per_plate * camper.position
        # In a crowd a marker that does not pass a returner's (or a finished camper's score) can only win if
        # they fail: go on while more than the token floor is left.
        others = [c for i, c in enumerate(state.campers) if i != state.to_move]
        best_marker = max(
            [c.marker for c in others if c.phase == Phase.RETURN]
            + [c.score for c in others if c.phase == Phase.FINISHED],
            default=0,
        )
        if params.outward_margin is not None:
            best_marker = max(
                [best_marker]
                + [
                    c.position + params.outward_margin - params.behind_margin
                    for c in others
                    if c.phase == Phase.OUTWARD and c.active
                ]
            )
        if params.outward_ratio:
            best_marker = max(
                [best_marker]
                + [
                    int(params.outward_ratio * c.position) - params.behind_margin
                    for c in others
                    if c.phase == Phase.OUTWARD and c.active
                ]
            )
        behind = camper.position <= best_marker + params.behind_margin and camper.tokens > params.token_floor
        furthest = max([reach(c) for c in others], default=0)
        if params.lead and camper.position >= furthest + params.lead:
            return TurnBack()
        travelling = [c for c in others if c.active]
        homebound = [c for c in travelling if c.phase == Phase.RETURN]
        if (
            params.alone_margin is not None
            and travelling
            and len(homebound) == len(travelling)
            and camper.position >= furthest + params.alone_margin
        ):
            return TurnBack()
        if params.follow_margin is not None and _following(others, params):
            ahead = max([c.marker for c in homebound] + [c.score for c in others if c.phase == Phase.FINISHED])
            if camper.position >= ahead + params.follow_margin:
                return TurnBack()
        if camper.tokens <= reserve and not behind:
            return TurnBack()
    if params.return_burn and camper.phase == Phase.RETURN:
        return burn(state, largest)
    return _capped(state, largest)


def _following(others: Sequence[Camper], params: CrowdParameters) -> bool:
    """Whether enough of the other campers head home for `CrowdParameters.follow_margin` to apply: at least
    `follow_count` home-bound, or (with `follow_outward` set) at most `follow_outward` still outward and at least
    one home-bound or home."""
    homebound = sum(c.phase == Phase.RETURN for c in others)
    if params.follow_outward is None:
        return homebound >= params.follow_count
    done = homebound + sum(c.phase == Phase.FINISHED for c in others)
    return done > 0 and sum(c.phase == Phase.OUTWARD for c in others) <= params.follow_outward


def proxy_rival(state: TourState) -> int | None:
    """The seat of the home-bound camper with the best marker (the nearest home among equals) when every other
    camper on the journey (two or more) is home-bound and nobody is home; None otherwise."""
    others = state.others_in_game()  # a finished camper is among them, and is not home-bound
    if len(others) < 2 or any(state.campers[i].phase != Phase.RETURN for i in others):
        return None
    return max(others, key=lambda i: (state.campers[i].marker, -state.campers[i].position))


def _proxy_duel(state: TourState, params: CrowdParameters) -> Action | None:
    """The solved duel's move against `proxy_rival` alone (the other home-bound campers left out), if the
    parameters ask for it and the tables hold the pair (`return_duel.duel_pair`: no effect pending)."""
    camper = state.mover
    wanted = params.proxy_outward if camper.phase == Phase.OUTWARD else params.proxy_return
    if not wanted or camper.position <= STARTING_PLATE:
        return None
    rival = proxy_rival(state)
    if rival is None:
        return None
    if (
        camper.phase == Phase.OUTWARD
        and params.proxy_from_gap is not None
        and camper.position - state.campers[rival].marker < params.proxy_from_gap
    ):
        return None
    # The tables' moves are checked legal on this table (the others' plates included).
    return outward_duel_move(state, rival) if camper.phase == Phase.OUTWARD else duel_return_move(state, rival)


def reach(camper: Camper) -> int:
    """How far along the route another camper's journey counts: its plate outward, its marker returning,
    its final score home, nothing if eliminated (what an arrival must be ahead of: rules `_furthest_ahead`)."""
    if camper.phase == Phase.OUTWARD:
        return camper.position
    if camper.phase == Phase.RETURN:
        return camper.marker
    return camper.score if camper.phase == Phase.FINISHED else 0


def _last_camper_target(state: TourState) -> int | None:
    """The score the last camper must reach to win (it returns last, so a tie wins): the best finished
    score; None when nobody finished (any arrival wins)."""
    scores = [c.score for c in state.campers if c.phase == Phase.FINISHED]
    return max(scores) if scores else None


def _last_camper_to_win(state: TourState) -> Action:
    """The last camper on the journey: the move of `last_camper_win_probability` (exact on an all-normal
    return), or, if it cannot win at all from here, `greedy`'s safe way home."""
    camper = state.mover
    target = _last_camper_target(state)
    legal = state.legal_actions()
    if target is None:  # nobody home: any arrival wins and an announcement of 1 never fails
        if camper.phase == Phase.OUTWARD and camper.position > STARTING_PLATE:
            return TurnBack()
        return Announce(1) if Announce(1) in legal else legal[0]
    if camper.phase == Phase.OUTWARD:
        if camper.position <= STARTING_PLATE:
            return _last_camper(state)
        marker = camper.position  # turning back puts the marker here
    else:
        marker = camper.marker
    if camper.phase == Phase.OUTWARD:
        # Turning back now is worth the table's value; 0 means the marker could never reach the target.
        if last_camper_win_probability(camper.position, camper.tokens, marker - target) <= 0.0:
            return _last_camper(state)
        return TurnBack()
    values = last_camper_announcements(camper.position, camper.tokens, marker - target)
    options = [(values[a.plates], -a.plates) for a in legal if isinstance(a, Announce) and a.plates in values]
    if not options or max(options)[0] <= 0.0:
        return _last_camper(state)
    return Announce(-max(options)[1])


def _last_camper_comforts(state: TourState) -> Action:
    """Unexpected Comforts as the last camper: the choice with the best last-camper win probability (turning
    back first if outward is not modelled: recover, as `greedy` does)."""
    camper = state.mover
    target = _last_camper_target(state)
    if camper.phase == Phase.OUTWARD or target is None:
        return ComfortsChoice.RECOVER if camper.phase == Phase.OUTWARD else ComfortsChoice.DECLINE
    limit = state.cap
    return max(
        ComfortsChoice,
        key=lambda c: last_camper_win_probability(
            camper.position, comforts_tokens(c, camper.tokens, limit), camper.marker - target
        ),
    )


#: Largest payment of one move (a roll of 12 on an announcement of 1).
_MAX_PAYMENT = 11


@lru_cache(maxsize=65_536)
def last_camper_announcements(position: int, tokens: int, slack: int) -> Mapping[int, float]:
    """For each announcement home (1-10, not past the starting plate): the probability that the last camper on
    the journey, returning from `position` with `tokens` and a marker `slack` plates above the score it must
    reach, gets home with no failed roll (a failed roll eliminates it) and a score at least that target,
    playing on optimally (`last_camper_win_probability`). All-normal return, nobody else on the route."""
    values = {a: _announce_value(position, tokens, slack, a) for a in range(1, min(MAX_ANNOUNCE, position - 1) + 1)}
    return MappingProxyType(values)  # cached: read-only


MAX_ANNOUNCE = 10


def _announce_value(position: int, tokens: int, slack: int, announced: int) -> float:
    value = 0.0
    for total, p in ROLLS:
        if total <= announced:
            continue  # a failed roll: eliminated
        payment = total - announced
        if payment <= tokens:
            value += p * last_camper_win_probability(position - announced, tokens - payment, slack)
        else:
            value += p * last_camper_win_probability(position - announced, 0, slack - (payment - tokens))
    return value


@lru_cache(maxsize=200_000)
def last_camper_win_probability(position: int, tokens: int, slack: int) -> float:
    """Exact probability that the last camper on the journey wins from here (the dynamic programme behind
    `last_camper_announcements`): home at the starting plate with marker - tokens left >= the target, i.e.
    slack - tokens >= 0 at arrival, never failing a roll. The score can only fall (payments beyond the tokens
    move the marker back; tokens left count against it), so a negative slack has lost, and a slack that covers
    the tokens plus the largest payment on every plate home (announcing 1 never fails) has won."""
    if slack < 0:
        return 0.0
    if position <= STARTING_PLATE:
        return 1.0 if slack >= tokens else 0.0
    if slack >= tokens + _MAX_PAYMENT * (position - STARTING_PLATE):
        return 1.0
    return max(_announce_value(position, tokens, slack, a) for a in range(1, min(MAX_ANNOUNCE, position - 1) + 1))


def solo_optimal(state: TourState) -> Action:
    camper = state.mover
    if camper.phase == Phase.RETURN:
        return _table_return(state)
    tables = all_normal_tables(state.config.plate_count, state.config.token_limit)
    tokens = min(camper.tokens, tables.axis.cap)
    if camper.pending == Pending.COMFORTS_CHOICE:
        legal = set(state.legal_actions())
        options = [(a, v) for a, v in tables.comforts_alternatives(camper.position, tokens) if a in legal]
        return max(options, key=lambda item: item[1])[0] if options else state.legal_actions()[0]
    announcements = _announcements(state)
    for action in _outward_ranked(state.config.plate_count, state.config.token_limit, camper.position, tokens):
        if (action.plates in announcements) if isinstance(action, Announce) else state.is_legal(action):
            return action
    return state.legal_actions()[0]


PLAYERS: dict[str, Player] = {
    "announce-7": announce_seven,
    "greedy": greedy,
    "solo-optimal": solo_optimal,
    "racer": racer,
    "race": race,
}


def play_game(config: Config, players: Sequence[Player], rng: np.random.Generator) -> TourState:
    """One whole race between fixed players (seat i plays `players[i]`), dice from `rng`: the final state."""
    state = new_game(config, len(players))
    while not state.game_over:
        if state.current_player() >= 0:
            state = state.child(players[state.to_move](state))
        else:
            state = state.child(sample_outcome(state, rng))
    return state
