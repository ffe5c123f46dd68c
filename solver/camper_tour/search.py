"""A specialised depth-limited max^n expectimax for multi-camper Camper Tour hints.

It computes exactly what `solver.core.expectimax` computes over `hint._SearchNode` (the rules model with
passed-over plates laid as the stack's most common kind, frontier decision states scored with the
all-normal solo values of every camper), but one to three orders of magnitude faster. Why it is faster:

* States are plain tuples of ints (no dataclass construction, no Python-level enum hashing), and the
  search resolves a whole turn at once: `outcomes` maps (state, action) to the distinct successor decision
  (or terminal) states with their merged probabilities, so the 11 dice totals, the plate draw and the
  plate's die collapse into one dict, and outcomes that lead to the same successor (every failed roll,
  every No Parking face that passes the start...) are searched once.
* The last decision ply is decomposed. A frontier value is (a) the mover's own leaf value and (b) the
  chance that its move ends the game by an arrival that is furthest ahead (then every camper still
  travelling scores 0, finished ones keep their score); nothing else of the other campers changes their
  leaf values. Both numbers depend only on the mover's camper and a small context (plates laid beyond
  the root, the plates other campers occupy, the last-camper flag, the furthest-ahead thresholds), so
  they are cached across the many frontier states that differ only in someone else's tokens.

Tie-breaking follows the generic engine: the first best action in `TourState.legal_actions()` order.
The generic engine stays the test oracle (tests/camper_tour/test_hint.py compares every alternative).
Only games of two or more campers are searched here (a solo "failed roll" is a retry, the solo solver's job).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from campsolver.solver.camper_tour.rules import (
    COMFORTS_TOKENS,
    DIE_FACES,
    FESTIVAL_MIN_GAIN,
    MAX_ANNOUNCEMENT,
    NO_PARKING_PENALTY,
    OFF_ROUTE,
    STARTING_PLATE,
    TWO_DICE,
    Action,
    Announce,
    Camper,
    ComfortsChoice,
    NoParkingReturn,
    Pass,
    Pending,
    Phase,
    PlateKind,
    TokenRule,
    TourState,
    TurnBack,
)
from campsolver.solver.camper_tour.solo import all_normal_tables
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.game import TERMINAL

# --- compact encoding ---------------------------------------------------------------------------------
# A camper is (position, tokens, phase, marker, pending, arrival); a state is (to_move, campers, drawn)
# where `drawn` are the kinds of the plates laid during the search beyond the root's laid plates, and
# to_move is TERMINAL once the game is over.

OUTWARD, RETURN, FINISHED, ELIMINATED = 0, 1, 2, 3
NO_EFFECT, SKIP, COMFORTS = 0, 1, 2
PHASE_CODE = {Phase.OUTWARD: OUTWARD, Phase.RETURN: RETURN, Phase.FINISHED: FINISHED, Phase.ELIMINATED: ELIMINATED}
PENDING_CODE = {Pending.NONE: NO_EFFECT, Pending.SKIP_TURN: SKIP, Pending.COMFORTS_CHOICE: COMFORTS}
NORMAL = int(PlateKind.NORMAL)
UNEXPECTED_COMFORTS = int(PlateKind.UNEXPECTED_COMFORTS)
MECHANICAL_PROBLEM = int(PlateKind.MECHANICAL_PROBLEM)
VILLAGE_FESTIVAL = int(PlateKind.VILLAGE_FESTIVAL)
NO_PARKING = int(PlateKind.NO_PARKING)

# Actions: announcements are 1..10; the others get codes that cannot clash with them.
TURN_BACK, PASS, RECOVER, DISCARD, DECLINE = 0, -1, -2, -3, -4
COMFORTS_ORDER = (RECOVER, DISCARD, DECLINE)  # the order of `list(ComfortsChoice)`
ACTION_OF_CODE: dict[int, Action] = {
    TURN_BACK: TurnBack(),
    PASS: Pass(),
    RECOVER: ComfortsChoice.RECOVER,
    DISCARD: ComfortsChoice.DISCARD,
    DECLINE: ComfortsChoice.DECLINE,
}

ROLL_PROBABILITY = {total: float(p) for total, p in TWO_DICE}
_FACE = 1.0 / DIE_FACES
_CHECK_EVERY = 1  # every expanded node or frontier summary: one summary can take milliseconds

CamperCode = tuple[int, int, int, int, int, int]
StateCode = tuple[int, tuple[CamperCode, ...], tuple[int, ...]]
Values = tuple[float, ...]
Settle = Callable[[tuple[CamperCode, ...], int, tuple[int, ...]], StateCode]


def action_of(code: int) -> Action:
    return ACTION_OF_CODE[code] if code in ACTION_OF_CODE else Announce(code)


def encode_camper(camper: Camper) -> CamperCode:
    return (
        camper.position,
        camper.tokens,
        PHASE_CODE[camper.phase],
        camper.marker,
        PENDING_CODE[camper.pending],
        camper.arrival,
    )


def _active(camper: CamperCode) -> bool:
    return camper[2] <= RETURN


def _score(camper: CamperCode) -> int:
    return camper[3] - camper[1] if camper[2] == FINISHED else 0


def _pay_on_return(camper: CamperCode, tokens: int) -> CamperCode:
    """Rules `pay_on_return`: what is missing moves the marker back at once; tokens never below 0."""
    left = camper[1] - tokens
    if left >= 0:
        return (camper[0], left, camper[2], camper[3], camper[4], camper[5])
    return (camper[0], 0, camper[2], camper[3] + left, camper[4], camper[5])


def _eliminated(camper: CamperCode) -> CamperCode:
    # Tokens, marker and arrival of an eliminated camper never matter again: normalised so states merge.
    return (OFF_ROUTE, 0, ELIMINATED, 0, NO_EFFECT, 0)


def _after_token_loss(camper: CamperCode) -> CamperCode:
    """Running out of tokens before turning back eliminates the camper."""
    return _eliminated(camper) if camper[2] == OUTWARD and camper[1] <= 0 else camper


@dataclass
class SearchStats:
    nodes: int = 0  # decision states expanded plus frontier summaries computed
    successors: int = 0  # distinct successor states generated by `outcomes` (merged outcomes count once)
    used_leaf: bool = False  # some line was cut by the depth limit (the answer is not exact)


@dataclass
class CamperTourSearch:
    """One search context: the table's constants, the root's laid plates, and every cache."""

    state: TourState
    budget: Budget | None = None
    stats: SearchStats = field(default_factory=SearchStats)

    def __post_init__(self) -> None:
        config = self.state.config
        self.plate_count = config.plate_count
        self.cap = config.token_limit
        self.per_camper_cap = config.token_rule == TokenRule.PER_CAMPER_CAP
        self.supply = config.token_supply
        self.away = config.no_parking_return == NoParkingReturn.AWAY_FROM_HOME
        self.layout = None if config.layout is None else tuple(int(k) for k in config.layout)
        self.root_laid = tuple(int(k) for k in self.state.laid)
        self.root_remaining = self.state.remaining_stack()
        tables = all_normal_tables(config.plate_count, config.token_limit)
        self.outward_table = tables.value.tolist()  # Python lists: scalar lookups without numpy overhead
        self.return_table = tables.back
        self.axis = tables.axis
        self.memo: dict[tuple[StateCode, int], Values] = {}
        self.frontier_memo: dict[StateCode, Values] = {}
        self.summaries: dict[tuple[object, ...], list[tuple[int, float, float, bool]]] = {}
        self.leaf_cache: dict[CamperCode, float] = {}
        self.kinds_memo: dict[tuple[tuple[int, ...], int], list[tuple[tuple[int, ...], float]]] = {}

    # --- the public entry ----------------------------------------------------------------------------

    def root(self) -> StateCode:
        return (self.state.to_move, tuple(encode_camper(c) for c in self.state.campers), ())

    def alternatives(self, depth: int) -> list[tuple[Action, Values]]:
        """Every legal choice at the root with its value vector, in `legal_actions()` order."""
        if depth < 1:
            raise ValueError("search at least one decision ply")
        root = self.root()
        if depth == 1:
            return [(action_of(code), values) for code, values in self._frontier_alternatives(root)]
        return [(action_of(code), self._action_value(root, code, depth)) for code in self.legal_actions(root)]

    # --- values --------------------------------------------------------------------------------------

    def _tick(self) -> None:
        self.stats.nodes += 1
        if self.budget is not None and self.stats.nodes % _CHECK_EVERY == 0:
            self.budget.check()

    def value(self, state: StateCode, depth: int) -> Values:
        if state[0] == TERMINAL:
            return tuple(float(_score(c)) for c in state[1])
        if depth <= 0:
            self.stats.used_leaf = True
            return self.leaf(state[1])
        if depth == 1:
            cached = self.frontier_memo.get(state)
            if cached is None:
                cached = self._frontier_value(state)
                self.frontier_memo[state] = cached
            return cached
        key = (state, depth)
        cached = self.memo.get(key)
        if cached is not None:
            return cached
        self._tick()
        player = state[0]
        best: Values | None = None
        for code in self.legal_actions(state):
            values = self._action_value(state, code, depth)
            if best is None or values[player] > best[player]:
                best = values
        assert best is not None
        self.memo[key] = best
        return best

    def _action_value(self, state: StateCode, code: int, depth: int) -> Values:
        total = [0.0] * len(state[1])
        progress = 0.0
        for successor, p in self.outcomes(state, code).items():
            if successor == state:
                continue  # a retry (never in a game of two or more campers; kept for the generic semantics)
            progress += p
            for i, v in enumerate(self.value(successor, depth - 1)):
                total[i] += p * v
        return tuple(x / progress for x in total)

    # --- leaves and the frontier ply -----------------------------------------------------------------

    def camper_leaf(self, camper: CamperCode) -> float:
        """`hint.camper_leaf_value` on the compact camper (same tables, same lookups)."""
        cached = self.leaf_cache.get(camper)
        if cached is not None:
            return cached
        position, tokens, phase, marker, pending, _ = camper
        if phase == FINISHED:
            value = float(marker - abs(tokens))
        elif phase == ELIMINATED:
            value = 0.0
        else:
            options = [tokens]
            if pending == COMFORTS:
                options = [self._comforts_tokens(choice, tokens, self.cap) for choice in COMFORTS_ORDER]
            if phase == RETURN:
                value = marker - min(self.return_table.cost_at(position, t) for t in options)
            else:
                value = max(self._outward_value(position, t) for t in options)
                if pending == COMFORTS and position > STARTING_PLATE:  # turning back first is a choice too
                    value = max(value, position - min(self.return_table.cost_at(position, t) for t in options))
        self.leaf_cache[camper] = value
        return value

    def _outward_value(self, plate: int, tokens: int) -> float:
        if tokens <= 0:
            return 0.0
        return float(self.outward_table[plate][self.axis.index(min(tokens, self.cap))])

    def leaf(self, campers: tuple[CamperCode, ...]) -> Values:
        return tuple(self.camper_leaf(c) for c in campers)

    def _frontier_value(self, state: StateCode) -> Values:
        player = state[0]
        best: Values | None = None
        for _, values in self._frontier_alternatives(state):
            if best is None or values[player] > best[player]:
                best = values
        assert best is not None
        return best

    def _frontier_alternatives(self, state: StateCode) -> list[tuple[int, Values]]:
        """Every action's value vector one ply from the frontier, from the cached mover summaries."""
        player, campers, _ = state
        summary = self._summary(state)
        leaves = self.leaf(campers)
        result = []
        for code, mover_value, end_probability, used_leaf in summary:
            if used_leaf:
                self.stats.used_leaf = True
            values = [
                mover_value if i == player else leaves[i] * (1.0 - end_probability) if _active(c) else leaves[i]
                for i, c in enumerate(campers)
            ]
            result.append((code, tuple(values)))
        return result

    def _summary(self, state: StateCode) -> list[tuple[int, float, float, bool]]:
        """(action, mover's expected leaf value, P(the move ends the game), some outcome is a leaf)."""
        player = state[0]
        key = self._summary_key(state)
        cached = self.summaries.get(key)
        if cached is not None:
            return cached
        self._tick()
        summary = []
        for code in self.legal_actions(state):
            mover_value = 0.0
            ended = 0.0
            progress = 0.0
            used_leaf = False
            for successor, p in self.outcomes(state, code, mover_only=True).items():
                progress += p
                mover = successor[1][player]
                if successor[0] == TERMINAL:
                    mover_value += p * _score(mover)
                    if any(_active(c) for c in successor[1]):
                        ended += p  # an arrival that was furthest ahead ended the game
                else:
                    used_leaf = True
                    mover_value += p * self.camper_leaf(mover)
            summary.append((code, mover_value / progress, ended / progress, used_leaf))
        self.summaries[key] = summary
        return summary

    def _summary_key(self, state: StateCode) -> tuple[object, ...]:
        """Everything the mover's turn depends on besides its own camper (see the module docstring)."""
        player, campers, drawn = state
        occupied = []
        finished_best = ahead_best = None
        active = 0
        for i, c in enumerate(campers):
            if _active(c):
                active += 1
            if i == player:
                continue
            phase = c[2]
            if phase == FINISHED:
                score = _score(c)
                finished_best = score if finished_best is None else max(finished_best, score)
            elif phase <= RETURN:
                if c[0] >= STARTING_PLATE:
                    occupied.append(c[0])
                reach = c[3] if phase == RETURN else c[0]
                ahead_best = reach if ahead_best is None else max(ahead_best, reach)
        return (
            campers[player],
            drawn,
            tuple(sorted(occupied)),
            active == 1,
            finished_best,
            ahead_best,
            self._binding_limit(campers, player),
        )

    def gain_limit(self, campers: tuple[CamperCode, ...], player: int) -> int:
        """Rules `TourState.gain_limit`: the supply nobody else holds, or the per-camper cap."""
        if self.per_camper_cap:
            return max(self.cap, campers[player][1])
        return self.supply - sum(c[1] for i, c in enumerate(campers) if i != player and _active(c))

    def _binding_limit(self, campers: tuple[CamperCode, ...], player: int) -> int | None:
        """The gain limit if it could bind this turn (a gain is at most 6), else None (cache-friendly)."""
        limit = self.gain_limit(campers, player)
        return limit if limit < campers[player][1] + DIE_FACES else None

    # --- rules on the compact state ------------------------------------------------------------------

    def legal_actions(self, state: StateCode) -> list[int]:
        """`TourState.legal_actions()` in the same order, as codes."""
        player, campers, _ = state
        position, _, phase, _, pending, _ = campers[player]
        actions = [TURN_BACK] if phase == OUTWARD and position >= STARTING_PLATE + 1 else []
        if pending == COMFORTS:
            return actions + list(COMFORTS_ORDER)
        occupied = {c[0] for i, c in enumerate(campers) if i != player and _active(c) and c[0] >= STARTING_PLATE}
        for n in range(1, MAX_ANNOUNCEMENT + 1):
            destination = position + n if phase == OUTWARD else position - n
            if destination > self.plate_count or destination < STARTING_PLATE:
                break
            if destination not in occupied:
                actions.append(n)
        return actions or [PASS]

    def kind(self, drawn: tuple[int, ...], plate: int) -> int:
        if plate <= STARTING_PLATE:
            return NORMAL
        laid = len(self.root_laid)
        return self.root_laid[plate - 1] if plate <= laid else drawn[plate - laid - 1]

    def _comforts_tokens(self, code: int, tokens: int, limit: int) -> int:
        if code == RECOVER:
            return max(tokens, min(limit, tokens + COMFORTS_TOKENS))
        if code == DISCARD and tokens > 0:
            return max(0, tokens - COMFORTS_TOKENS)
        return tokens

    def outcomes(self, state: StateCode, code: int, *, mover_only: bool = False) -> dict[StateCode, float]:
        """The distinct next decision (or terminal) states after `code`, with merged probabilities.

        mover_only: the frontier summaries read only the mover's camper and whether the game is over, so
        the turn is not passed on (skipped turns are not consumed): cheaper, and the same merged outcomes.
        """
        player, campers, drawn = state
        settle = _stay_with_mover if mover_only else self._end_turn
        camper = campers[player]
        result: dict[StateCode, float] = {}
        if code == TURN_BACK:
            turned = (camper[0], camper[1], RETURN, camper[0], camper[4], camper[5])  # a Comforts turn goes on
            self.stats.successors += 1
            return {(player, _replace(campers, player, turned), drawn): 1.0}
        if code == PASS:
            self.stats.successors += 1
            return {settle(campers, player, drawn): 1.0}
        if code <= RECOVER:
            tokens = self._comforts_tokens(code, camper[1], self.gain_limit(campers, player))
            chosen = _after_token_loss((camper[0], tokens, camper[2], camper[3], NO_EFFECT, camper[5]))
            self.stats.successors += 1
            return {settle(_replace(campers, player, chosen), player, drawn): 1.0}
        last_camper = len(campers) >= 2 and sum(_active(c) for c in campers) == 1
        failed = sum(p for total, p in ROLL_PROBABILITY.items() if total <= code)
        if failed:
            lost = _replace(campers, player, _eliminated(camper)) if last_camper else campers
            _add(result, settle(lost, player, drawn), failed)
        position, tokens, phase = camper[0], camper[1], camper[2]
        for total, p in ROLL_PROBABILITY.items():
            if total <= code:
                continue
            paid = tokens - (total - code)
            if phase == RETURN:
                camper_paid = _pay_on_return(camper, total - code)
            if phase == OUTWARD:
                if paid <= 0:
                    _add(result, settle(_replace(campers, player, _eliminated(camper)), player, drawn), p)
                    continue
                destination = position + code
                moved = (destination, paid, phase, camper[3], camper[4], camper[5])
                for laid, q in self._lay(drawn, destination):
                    self._land(result, _replace(campers, player, moved), player, laid, p * q, settle)
            else:
                destination = position - code
                moved = (destination, camper_paid[1], phase, camper_paid[3], camper[4], camper[5])
                if destination == STARTING_PLATE:
                    _add(result, self._arrive(_replace(campers, player, moved), player, drawn, settle), p)
                else:
                    self._land(result, _replace(campers, player, moved), player, drawn, p, settle)
        self.stats.successors += len(result)
        return result

    def _lay(self, drawn: tuple[int, ...], target: int) -> list[tuple[tuple[int, ...], float]]:
        """Plates laid up to `target`: passed plates the stack's most common kind, the last one drawn."""
        laid = len(self.root_laid) + len(drawn)
        if target <= laid:
            return [(drawn, 1.0)]
        key = (drawn, target)
        cached = self.kinds_memo.get(key)
        if cached is not None:
            return cached
        if self.layout is not None:
            result = [(self.layout[len(self.root_laid) : target], 1.0)]
        else:
            counts = list(self.root_remaining)
            for k in drawn:
                counts[k] -= 1
            passed = list(drawn)
            for _ in range(target - laid - 1):
                common = max(range(len(counts)), key=lambda k: (counts[k], -k))
                counts[common] -= 1
                passed.append(common)
            total = sum(counts)
            result = [((*passed, k), c / total) for k, c in enumerate(counts) if c > 0]
        self.kinds_memo[key] = result
        return result

    def _land(
        self,
        result: dict[StateCode, float],
        campers: tuple[CamperCode, ...],
        player: int,
        drawn: tuple[int, ...],
        p: float,
        settle: Settle,
    ) -> None:
        """The mover stopped on its plate after a normal move: apply the plate (rules `_land`)."""
        camper = campers[player]
        position, tokens, phase = camper[0], camper[1], camper[2]
        kind = self.kind(drawn, position)
        if kind == UNEXPECTED_COMFORTS:
            waiting = (position, tokens, phase, camper[3], COMFORTS, camper[5])
            _add(result, settle(_replace(campers, player, waiting), player, drawn), p)
        elif kind == MECHANICAL_PROBLEM and phase == OUTWARD:
            for face in range(1, DIE_FACES + 1):
                hit = _after_token_loss((position, tokens - face, phase, camper[3], SKIP, camper[5]))
                _add(result, settle(_replace(campers, player, hit), player, drawn), p * _FACE)
        elif kind == VILLAGE_FESTIVAL:
            for face in range(1, DIE_FACES + 1):
                if face >= FESTIVAL_MIN_GAIN:
                    gained = max(tokens, min(self.gain_limit(campers, player), tokens + face))
                    party = (position, gained, phase, camper[3], camper[4], camper[5])
                else:
                    party = (position, tokens, phase, camper[3], SKIP, camper[5])
                _add(result, settle(_replace(campers, player, party), player, drawn), p * _FACE)
        elif kind == NO_PARKING:
            occupied = {c[0] for i, c in enumerate(campers) if i != player and _active(c)}
            step = 1 if phase == RETURN and self.away else -1
            top = len(self.root_laid) + len(drawn)
            free = [
                face
                for face in range(1, DIE_FACES + 1)
                if not STARTING_PLATE <= position + step * face <= top or position + step * face not in occupied
            ]
            share = p / len(free)
            for face in free:
                destination = position + step * face
                if not STARTING_PLATE <= destination <= top:
                    if phase == RETURN:
                        fined = _pay_on_return(camper, NO_PARKING_PENALTY)
                    else:
                        fined = _after_token_loss(
                            (position, tokens - NO_PARKING_PENALTY, phase, camper[3], camper[4], camper[5])
                        )
                    _add(result, settle(_replace(campers, player, fined), player, drawn), share)
                    continue
                moved = _replace(campers, player, (destination, tokens, phase, camper[3], camper[4], camper[5]))
                if destination == STARTING_PLATE and phase == RETURN:
                    _add(result, self._arrive(moved, player, drawn, settle), share)
                else:
                    _add(result, settle(moved, player, drawn), share)
        else:
            _add(result, settle(campers, player, drawn), p)

    def _arrive(
        self, campers: tuple[CamperCode, ...], player: int, drawn: tuple[int, ...], settle: Settle
    ) -> StateCode:
        """Rules `_arrive`: removed from the route; the game ends if its final marker is furthest ahead."""
        camper = campers[player]
        arrivals = sum(1 for c in campers if c[2] == FINISHED)
        home = (OFF_ROUTE, camper[1], FINISHED, camper[3], NO_EFFECT, arrivals + 1)
        campers = _replace(campers, player, home)
        score = _score(home)
        for i, other in enumerate(campers):
            if i == player:
                continue
            phase = other[2]
            if (
                (phase == FINISHED and _score(other) > score)
                or (phase == RETURN and other[3] >= score)
                or (phase == OUTWARD and other[0] >= score)
            ):
                return settle(campers, player, drawn)
        return (TERMINAL, campers, drawn)

    def _end_turn(self, campers: tuple[CamperCode, ...], player: int, drawn: tuple[int, ...]) -> StateCode:
        """Rules `_end_turn`: the dice go clockwise, pending skipped turns are consumed on the way."""
        count = len(campers)
        updated = list(campers)
        index = player
        for _ in range(2 * count + 1):
            if not any(_active(c) for c in updated):
                return (TERMINAL, tuple(updated), drawn)
            index = (index + 1) % count
            camper = updated[index]
            if not _active(camper):
                continue
            if camper[4] == SKIP:
                updated[index] = (camper[0], camper[1], camper[2], camper[3], NO_EFFECT, camper[5])
                continue
            return (index, tuple(updated), drawn)
        raise AssertionError("turn order did not settle")  # pragma: no cover


def _stay_with_mover(campers: tuple[CamperCode, ...], player: int, drawn: tuple[int, ...]) -> StateCode:
    """The end of a turn as far as the mover's own outcome goes: over if nobody travels any more."""
    return (player if any(_active(c) for c in campers) else TERMINAL, campers, drawn)


def _replace(campers: tuple[CamperCode, ...], index: int, camper: CamperCode) -> tuple[CamperCode, ...]:
    return (*campers[:index], camper, *campers[index + 1 :])


def _add(result: dict[StateCode, float], state: StateCode, p: float) -> None:
    result[state] = result.get(state, 0.0) + p


def search(
    state: TourState, depth: int, budget: Budget | None = None
) -> tuple[list[tuple[Action, Values]], SearchStats]:
    """Root alternatives of the depth-limited search (the same numbers as the generic engine's)."""
    if len(state.campers) < 2:
        raise ValueError("the specialised search is for games of two or more campers")
    engine = CamperTourSearch(state, budget)
    return engine.alternatives(depth), engine.stats
