"""The exact two-camper duel (the best-response ceiling) against a brute-force oracle over the rules model.

The oracle enumerates every state of a tiny two-camper game through `TourState` itself (decision, roll, lay and
end states), the optimiser's decisions as maxima, the opponent's as its policy's move (or mixed distribution),
chance with the rules model's exact odds, and solves the values by value iteration to 1e-14: no code shared with
the duel engine. Opponents: the repository's players, a mixed player, one that watches the other camper's
reach, and one that looks ahead through `TourState.child` (the traced state must survive the rules' transitions).
"""

from functools import cache

import numpy as np
import pytest
from campsolver.solver.camper_tour import rules as R
from campsolver.solver.camper_tour.ceiling import ceiling, ceiling_report
from campsolver.solver.camper_tour.duel import XLastCamper, XSpace, solve_duel
from campsolver.solver.camper_tour.players import (
    announce_seven,
    greedy,
    last_camper_win_probability,
    race,
    solo_optimal,
)
from campsolver.solver.camper_tour.rules import Announce, Phase, TourState, TurnBack, all_normal
from campsolver.solver.core.budget import Budget, SolveInterrupted


def _oracle(policy, config: R.Config, x_seat: int, first: int) -> float:
    start = R.new_game(config, 2, first=first)
    kinds: dict[TourState, tuple[str, object]] = {}
    order: list[TourState] = []
    stack = [start]
    while stack:
        state = stack.pop()
        if state in kinds:
            continue
        if state.game_over:
            winner = state.winner()
            kinds[state] = ("end", 1.0 if winner == x_seat else 0.5 if winner is None else 0.0)
            continue
        player = state.current_player()
        if player == x_seat:
            node = ("max", [state.child(a) for a in state.legal_actions()])
            stack.extend(node[1])
        else:
            if player >= 0:
                answer = policy(state)
                pairs = [(answer, 1.0)] if not isinstance(answer, list | tuple) else list(answer)
            else:
                pairs = [(o, float(p)) for o, p in state.chance_outcomes()]
            node = ("mean", [(state.child(a), p) for a, p in pairs])
            stack.extend(s for s, _ in node[1])
        kinds[state] = node
        order.append(state)
    value = {s: (k[1] if k[0] == "end" else 0.0) for s, k in kinds.items()}
    for _ in range(100_000):
        delta = 0.0
        for state in order:
            kind, data = kinds[state]
            new = max(value[s] for s in data) if kind == "max" else sum(p * value[s] for s, p in data)
            delta = max(delta, abs(new - value[state]))
            value[state] = new
        if delta < 1e-14:
            break
    return value[start]


def mixed(state: TourState):
    """Half the time the largest legal announcement up to 3, half the time the smallest; turns back at 2 tokens."""
    camper = state.mover
    legal = state.legal_actions()
    if TurnBack() in legal and camper.tokens <= 2:
        return TurnBack()
    announcements = [a for a in legal if isinstance(a, Announce)]
    if not announcements:
        return legal[0]
    low = min(announcements, key=lambda a: a.plates)
    high = max((a for a in announcements if a.plates <= 3), key=lambda a: a.plates, default=low)
    return [(low, 0.5), (high, 0.5)] if high != low else low


def watcher(state: TourState):
    """Turns back once 1 plate beyond the other camper's reach (plate outward, marker home-bound), else 2 a turn."""
    camper = state.mover
    other = state.campers[1 - state.to_move]
    reach = other.position if other.phase == Phase.OUTWARD else other.marker if other.phase == Phase.RETURN else 0
    legal = state.legal_actions()
    if TurnBack() in legal and (camper.position > reach or camper.tokens <= 1):
        return TurnBack()
    announcements = [a for a in legal if isinstance(a, Announce)]
    if not announcements:
        return legal[0]
    return min(announcements, key=lambda a: abs(a.plates - (1 if other.tokens > camper.tokens else 2)))


def looker(state: TourState):
    """One-ply look-ahead through the rules model: the announcement with the best chance that its roll moves it
    (ties to the larger); turns back when that chance times the plates gained falls below one plate."""
    legal = state.legal_actions()
    scored = []
    for action in legal:
        if isinstance(action, Announce):
            rolled = state.child(action)
            moved = sum(float(p) for o, p in rolled.chance_outcomes() if o > action.plates)
            scored.append((moved * action.plates, action.plates, action))
    if not scored:
        return legal[0]
    best = max(scored, key=lambda item: item[:2])
    if TurnBack() in legal and (best[0] < 1.5 or state.mover.tokens <= 2):
        return TurnBack()
    return best[2]


OPPONENTS = {
    "greedy": greedy,
    "announce-7": announce_seven,
    "solo-optimal": solo_optimal,
    "mixed": mixed,
    "watcher": watcher,
    "looker": looker,
}


@cache
def _tiny(plates: int, tokens: int) -> R.Config:
    return all_normal(plates, tokens)


@pytest.mark.parametrize("name", sorted(OPPONENTS))
@pytest.mark.parametrize("x_seat", [0, 1])
def test_duel_equals_the_brute_force_oracle_on_a_tiny_route(name, x_seat):
    config = _tiny(4, 3)
    policy = OPPONENTS[name]
    result = solve_duel(policy, config, x_seat=x_seat, marker_floor=-80)
    assert result.x_first == pytest.approx(_oracle(policy, config, x_seat, first=x_seat), abs=1e-9)
    assert result.y_first == pytest.approx(_oracle(policy, config, x_seat, first=1 - x_seat), abs=1e-9)
    assert not result.read_laid


@pytest.mark.parametrize("name", ["greedy", "watcher", "race"])
def test_duel_equals_the_oracle_on_a_longer_route(name):
    config = _tiny(5, 4)
    policy = {**OPPONENTS, "race": race}[name]
    result = solve_duel(policy, config, x_seat=0, marker_floor=-80)
    assert result.x_first == pytest.approx(_oracle(policy, config, 0, first=0), abs=1e-9)
    assert result.y_first == pytest.approx(_oracle(policy, config, 0, first=1), abs=1e-9)


def test_tracing_records_what_the_opponent_read():
    config = _tiny(4, 3)
    assert "marker" in solve_duel(watcher, config, marker_floor=-80).read_x  # it reads the other's reach
    # greedy reads nothing of the other camper but whether it is on the journey (the last-camper rule)
    read = solve_duel(greedy, config, marker_floor=-80).read_x
    assert read and read <= {"active", "phase"}  # traced (not empty), and nothing beyond those

    def counts_plates(state: TourState):
        return Announce(1) if len(state.laid) < 2 and Announce(1) in state.legal_actions() else greedy(state)

    assert solve_duel(counts_plates, config, marker_floor=-80).read_laid


def test_ceiling_averages_the_two_seats_and_reports_specials_left_out():
    report = ceiling_report(greedy, _tiny(4, 3), marker_floor=-80)
    assert report.exact
    assert report.value == pytest.approx(
        (_oracle(greedy, _tiny(4, 3), 0, 0) + _oracle(greedy, _tiny(4, 3), 1, 0)) / 2, abs=1e-9
    )
    with_specials = R.Config(plate_count=4, starting_tokens=3, specials=((R.PlateKind.VILLAGE_FESTIVAL, 1),))
    left_out = ceiling_report(greedy, with_specials, marker_floor=-80)
    assert not left_out.exact and any("special plates are left out" in n for n in left_out.notes)
    assert left_out.value == pytest.approx(report.value, abs=1e-12)
    assert ceiling(greedy, _tiny(4, 3)) == pytest.approx(report.value, abs=1e-12)


@pytest.mark.parametrize("name", ["greedy", "watcher", "mixed"])
def test_a_seat_symmetric_opponent_gives_both_seats_from_one_solve(name):
    config = _tiny(4, 3)
    both = ceiling_report(OPPONENTS[name], config, marker_floor=-80)
    one = ceiling_report(OPPONENTS[name], config, marker_floor=-80, seat_symmetric=True)
    assert one.first == pytest.approx(both.first, abs=1e-12) and one.second == pytest.approx(both.second, abs=1e-12)


def test_an_illegal_opponent_move_is_refused():
    with pytest.raises(ValueError, match="not a legal move"):
        solve_duel(lambda state: Announce(10), _tiny(4, 3))


def test_last_camper_table_equals_the_players_exact_recursion():
    space = XSpace(12, 6, -80)
    table = XLastCamper(space)
    rng = np.random.default_rng(8_200_001)
    for _ in range(200):
        p, t = int(rng.integers(2, 13)), int(rng.integers(0, 7))
        slack = int(rng.integers(-2, 40))
        got = float(table.slack_value(p, np.array([t]), np.array([slack]))[0])
        assert got == pytest.approx(last_camper_win_probability(p, t, slack), abs=1e-12)


def supply_reader(state: TourState):
    """Computes the box's room from both campers' tokens (as a supply-rule player does) and the other's marker
    minus its tokens, yet answers from its own camper alone unless the room is impossible: the answer never
    depends on the other camper's numbers."""
    other = state.campers[1 - state.to_move]
    room = max(0, state.config.token_supply - sum(c.tokens for c in state.campers if c.active))
    spare = other.marker - other.tokens + 2 * other.tokens
    legal = state.legal_actions()
    if room > 10_000 or spare > 10_000:
        return legal[-1]
    return greedy(state)


def random_mixed(state: TourState):
    """A mixed player whose weights change with a linear comparison of the other camper's numbers and with a
    seeded draw per own state: (announcement, weight) over up to three legal announcements."""
    camper = state.mover
    other = state.campers[1 - state.to_move]
    legal = state.legal_actions()
    if TurnBack() in legal and camper.tokens <= 1:
        return TurnBack()
    announcements = [a for a in legal if isinstance(a, Announce)][:3]
    if not announcements:
        return legal[0]
    rng = np.random.default_rng([camper.position, camper.tokens, camper.marker + 1000, 41])
    weights = rng.random(len(announcements)) + 0.1
    if other.tokens + other.marker > camper.tokens:
        weights = weights[::-1]
    weights = weights / weights.sum()
    return [(a, float(w)) for a, w in zip(announcements, weights, strict=True)]


@pytest.mark.parametrize("name", ["supply", "random-mixed"])
def test_symbolic_numbers_give_the_oracles_values(name):
    """X's tokens and marker reach the opponent as symbolic numbers: the values stay the brute-force oracle's
    (the opponents of the tiny-route test above, `watcher` among them, run through them too)."""
    policy = {"supply": supply_reader, "random-mixed": random_mixed}[name]
    config = _tiny(4, 3)
    result = solve_duel(policy, config, x_seat=1, marker_floor=-80)
    assert result.x_first == pytest.approx(_oracle(policy, config, 1, first=1), abs=1e-9)
    assert result.y_first == pytest.approx(_oracle(policy, config, 1, first=0), abs=1e-9)


def _exact_tracing(monkeypatch):
    """The tracing before symbolic numbers: X's tokens and marker recorded by value."""
    from campsolver.solver.camper_tour import duel

    monkeypatch.setattr(duel, "_SYMBOLIC_FIELDS", frozenset())
    monkeypatch.setattr(duel, "_CAMPER_FIELDS", duel._CAMPER_FIELDS | {"tokens", "marker"})


@pytest.mark.parametrize("name", ["supply", "random-mixed", "watcher", "mixed"])
def test_symbolic_numbers_equal_the_exact_tracing_and_ask_less(name, monkeypatch):
    policy = {"supply": supply_reader, "random-mixed": random_mixed, "watcher": watcher, "mixed": mixed}[name]
    config = _tiny(6, 4)
    symbolic = solve_duel(policy, config, marker_floor=-40)
    _exact_tracing(monkeypatch)
    exact = solve_duel(policy, config, marker_floor=-40)
    assert symbolic.x_first == pytest.approx(exact.x_first, abs=1e-12)
    assert symbolic.y_first == pytest.approx(exact.y_first, abs=1e-12)
    assert symbolic.opponent_states == exact.opponent_states
    assert symbolic.opponent_calls <= exact.opponent_calls
    if name == "supply":  # it computes with X's numbers, never answers by them: asked about as often as greedy
        greedy_calls = solve_duel(greedy, config, marker_floor=-40).opponent_calls
        assert symbolic.opponent_calls <= 1.05 * greedy_calls < exact.opponent_calls


@pytest.mark.slow
@pytest.mark.parametrize("style", ["steady", "sprinter", "thumb"])
def test_symbolic_numbers_equal_the_exact_tracing_for_the_outside_players(style, monkeypatch):
    from bench import ceilings
    from bench.arena.cells import outside_players

    policy = ceilings._policy(outside_players("camper_tour")[style], {})
    config = all_normal(8, 25)
    symbolic = solve_duel(policy, config)
    _exact_tracing(monkeypatch)
    exact = solve_duel(policy, config)
    assert symbolic.x_first == pytest.approx(exact.x_first, abs=1e-12)
    assert symbolic.y_first == pytest.approx(exact.y_first, abs=1e-12)
    # steady and sprinter compute the box's room from X's tokens (it matters only on special plates); thumb reads
    # nothing of X's numbers but the score to beat, which both tracings read exactly
    assert symbolic.opponent_calls < exact.opponent_calls if style != "thumb" else symbolic == exact


class _ChecksAllowed(Budget):
    """A budget whose `check` stops the solve at its (n+1)-th call, counting the calls."""

    def __init__(self, allowed: int) -> None:
        super().__init__(900)
        self.allowed, self.checks = allowed, 0

    def check(self) -> None:
        self.checks += 1
        if self.checks > self.allowed:
            raise SolveInterrupted("deadline")
        super().check()


def test_the_reachable_states_enumeration_stops_at_the_budget(monkeypatch):
    """The opponent's reachable states are enumerated before any table is built (minutes on the full route), so the
    enumeration itself asks the budget: a solve stopped at its tenth check has classified about ten states, not
    every one reachable."""
    from campsolver.solver.camper_tour import duel as D

    classified = []
    real = D._Duel._classify_y

    def counted(self, key):
        classified.append(key)
        return real(self, key)

    monkeypatch.setattr(D._Duel, "_classify_y", counted)
    whole = solve_duel(greedy, all_normal(12, 6))
    everything = len(classified)
    classified.clear()
    with pytest.raises(SolveInterrupted):
        solve_duel(greedy, all_normal(12, 6), budget=_ChecksAllowed(10))
    assert 0 < len(classified) <= 11 < everything
    assert 0.0 < whole.x_first < 1.0
