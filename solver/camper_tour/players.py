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
  (bench/camper_tour.py `--race-baseline`): with two campers on the journey and nobody home yet, rush:
  announce at most RUSH_ANNOUNCEMENT both ways and turn back at RUSH_TURN_BACK_TOKENS tokens (the first
  camper home either ends the game furthest ahead or leaves the other as the last camper, whom any failed
  roll eliminates); otherwise (three or more on the journey, or somebody home), announce at most SEVEN and
  turn back once the tokens fall to CROWD_RESERVE_MIN + CROWD_RESERVE_PER_PLATE x plate, unless its plate
  is not yet beyond a returning camper's marker (then down to CROWD_TOKEN_FLOOR); as the last camper,
  `greedy`'s safe way home.
* `solo_optimal`: the exact solo policy of the all-normal route for its own camper (opponents ignored;
  an occupied target falls to the best legal alternative by the same table).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from campsolver.solver.camper_tour.rules import (
    COMFORTS_TOKENS,
    STARTING_PLATE,
    TWO_DICE,
    Action,
    Announce,
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
#: `race` with two campers on the journey: the largest announcement, both ways, and the turn-back tokens.
RUSH_ANNOUNCEMENT = 5
RUSH_TURN_BACK_TOKENS = 16
#: `race` with three or more on the journey: turn back at CROWD_RESERVE_MIN + CROWD_RESERVE_PER_PLATE x plate.
CROWD_RESERVE_MIN = 6
CROWD_RESERVE_PER_PLATE = 0.2
#: ...unless its plate is not beyond a returning camper's marker: then it goes on down to this many tokens.
CROWD_TOKEN_FLOOR = 6

_SUCCESS = {a: sum(float(p) for total, p in TWO_DICE if total > a) for a in range(1, 11)}
_PAYMENT = {a: sum(float(p) * (total - a) for total, p in TWO_DICE if total > a) / _SUCCESS[a] for a in range(1, 11)}


def _announcements(state: TourState) -> list[int]:
    return [a.plates for a in state.legal_actions() if isinstance(a, Announce)]


def _table_return(state: TourState) -> Action:
    """The exact all-normal return play (least expected marker loss)."""
    camper = state.mover
    tables = all_normal_tables(state.config.plate_count, state.config.token_limit)
    tokens = min(camper.tokens, tables.axis.cap)
    if camper.pending == Pending.COMFORTS_CHOICE:
        limit = state.config.token_limit
        return min(ComfortsChoice,
                   key=lambda c: tables.back.cost_at(camper.position, comforts_tokens(c, tokens, limit)))
    legal = set(_announcements(state))
    if not legal:
        return Pass()
    costs = {a: c for a, c in tables.back.announce_costs(camper.position, tokens).items() if a in legal}
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
    costs = tables.back.announce_costs(camper.position, min(camper.tokens, tables.axis.cap))
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


def race(state: TourState) -> Action:
    """Play to win the race (see the module docstring): rush with two on the journey, announce 7 with more."""
    camper = state.mover
    travelling = sum(c.active for c in state.campers)
    if state.last_camper_rule and camper.pending != Pending.COMFORTS_CHOICE:
        return _last_camper(state)
    # Rushing home pays only if arriving ends the game or leaves the other as the last camper: not when a
    # camper already home may hold a better score than a rushed journey.
    rush = travelling <= 2 and not any(c.phase == Phase.FINISHED for c in state.campers)
    largest = RUSH_ANNOUNCEMENT if rush else SEVEN
    if camper.pending == Pending.COMFORTS_CHOICE:
        if camper.phase == Phase.OUTWARD:
            return ComfortsChoice.RECOVER
        return ComfortsChoice.DISCARD if camper.tokens > COMFORTS_TOKENS else ComfortsChoice.DECLINE
    if camper.phase == Phase.OUTWARD and camper.position > STARTING_PLATE:
        reserve = RUSH_TURN_BACK_TOKENS if rush else CROWD_RESERVE_MIN + CROWD_RESERVE_PER_PLATE * camper.position
        # In a crowd a marker that does not pass a returner's can only win if that returner fails: go on while
        # more than CROWD_TOKEN_FLOOR tokens are left.
        best_marker = max([c.marker for c in state.campers if c.phase == Phase.RETURN], default=0)
        behind = not rush and camper.position <= best_marker and camper.tokens > CROWD_TOKEN_FLOOR
        if camper.tokens <= reserve and not behind:
            return TurnBack()
    return _capped(state, largest)


def solo_optimal(state: TourState) -> Action:
    camper = state.mover
    if camper.phase == Phase.RETURN:
        return _table_return(state)
    tables = all_normal_tables(state.config.plate_count, state.config.token_limit)
    tokens = min(camper.tokens, tables.axis.cap)
    legal = set(state.legal_actions())
    if camper.pending == Pending.COMFORTS_CHOICE:
        options = tables.comforts_alternatives(camper.position, tokens)
    else:
        options = tables.outward_alternatives(camper.position, tokens)
    options = [(a, v) for a, v in options if a in legal]
    return max(options, key=lambda item: item[1])[0] if options else state.legal_actions()[0]


PLAYERS: dict[str, Player] = {"announce-7": announce_seven, "greedy": greedy, "solo-optimal": solo_optimal,
                              "racer": racer, "race": race}


def play_game(config: Config, players: Sequence[Player], rng: np.random.Generator) -> TourState:
    """One whole race between fixed players (seat i plays `players[i]`), dice from `rng`: the final state."""
    state = new_game(config, len(players))
    while not state.game_over:
        if state.current_player() >= 0:
            state = state.child(players[state.to_move](state))
        else:
            state = state.child(sample_outcome(state, rng))
    return state
