"""The hint engine and the rules model agree: every move a hint lists is a legal move of the corresponding
`modes.py` state (replayed through `SoloState.child` / `MultiplayerState.child`), and no legal move is
missing (solo pairs: the listed pairs plus `unlisted_pairs` are exactly the legal pairs). The solo rollout
the hint plays the future with (`policies.modes_solo_turn`) is replayed step by step through `SoloState`.

Positions come from random play *through the modes states themselves* (seeded), so they include detached
solo pieces, blocked maps, the one extra turn and multi-player bonus turns.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.game import CHANCE, TERMINAL
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.happy_campers.hint import HintMode, HintMove, HintOptions, HintResult, hint, turn_state
from campsolver.solver.happy_campers.modes import MultiplayerState, SoloDraw, SoloState, SoloStep
from campsolver.solver.happy_campers.policies import (
    SOLO_NORMAL,
    SOLO_OVER,
    FastMap,
    board_tables,
    candidate_of,
    candidate_placement,
    modes_solo_turn,
    solo_candidates,
)
from campsolver.solver.happy_campers.rules import (
    DEFAULT_COMPONENTS,
    Challenge,
    Components,
    drawn_cells,
    legal_placements_for_option,
    roll_options,
)
from hypothesis import given, settings
from hypothesis import strategies as st

SMALL = Components(rows=4, cols=5)
#: Fewest rollouts a hint accepts: legality, not values, is under test here.
FEW_ROLLOUTS = 8
SOLO_CARDS = [c for c in Challenge if c is not Challenge.NOISY_NEIGHBOURS]


def random_roll(rng) -> tuple[int, int]:
    return int(rng.integers(1, 7)), int(rng.integers(1, 7))


def random_solo_state(seed: int, turns: int, components: Components, gap: int, cards=((), ())) -> SoloState:
    """A solo position before a roll, reached by uniformly random legal play through `SoloState`."""
    rng = rng_for(seed, "test-solo-position")
    state = SoloState.new(cards, components, double_gap=gap)
    for _ in range(turns):
        if state.current_player() == TERMINAL:
            break
        state = state.child(random_roll(rng))
        while state.current_player() == 0:
            actions = state.legal_actions()
            state = state.child(actions[int(rng.integers(len(actions)))])
    return state


def replay_solo(turn: SoloState, move: HintMove) -> SoloState:
    """Apply a hinted solo move through the rules model (`SoloState.child` raises IllegalMove if refused)."""
    state = turn
    for map_index, placement in enumerate(move.placements):
        if placement is not None:
            state = state.child(SoloDraw(map_index, placement))
    return state


def solo_hint(state: SoloState, roll, seed: int = 0) -> HintResult:
    return hint(
        turn_state(
            state.maps[0],
            roll,
            state.challenges[0],
            state.components,
            mode=HintMode.SOLO,
            second_grid=state.maps[1],
            second_challenges=state.challenges[1],
            solo_double_gap=state.double_gap,
            solo_last_turn_map=state.last_turn_map,
        ),
        Budget(30.0),
        options=HintOptions(seed=seed, rollouts=FEW_ROLLOUTS),
    )


def legal_pair_count(turn: SoloState) -> int:
    """Legal two-map moves of a FIRST_OF_TWO step, counted through `child` (one follow-up state per option)."""
    by_option = Counter(a.placement.option for a in turn.legal_actions())
    total = 0
    for option, count in by_option.items():
        first = next(a for a in turn.legal_actions() if a.placement.option == option)
        total += count * len(turn.child(first).legal_actions())
    return total


def assert_solo_hint_agrees(state: SoloState, roll, seen: Counter) -> None:
    """The core agreement check; `seen` counts which kinds of step were exercised."""
    turn = state.child(roll)
    result = solo_hint(state, roll)
    assert result.blocked == (turn.current_player() == TERMINAL)
    if result.blocked:
        assert result.alternatives == ()
        seen["over"] += 1
        return
    assert not result.interrupted
    moves = [a.move for a in result.alternatives]
    assert len(set(moves)) == len(moves), "a move is listed once"
    after = [replay_solo(turn, move) for move in moves]  # every hinted move is legal in modes.py
    if turn.step is SoloStep.FIRST_OF_TWO:
        seen["pairs"] += 1
        assert all(None not in move.placements for move in moves)
        assert all(s.current_player() == CHANCE and s.last_turn_map is None for s in after)
        assert not result.game_ends_after and result.blocked_maps == ()
        total = legal_pair_count(turn)
        assert len(moves) + result.unlisted_pairs == total
        if result.unlisted_pairs == 0:
            seen["pairs, all listed"] += 1
            everything = {
                (a.placement, b.placement) for a in turn.legal_actions() for b in turn.child(a).legal_actions()
            }
            assert {tuple(m.placements) for m in moves} == everything
        detached = [move for move in moves if not _touches(state.maps[0], move.placements[0])]
        if roll[0] == roll[1] and drawn_cells(state.maps[0]) and detached:
            seen["detached double listed"] += 1
    else:
        seen[turn.step.value] += 1
        assert result.unlisted_pairs == 0 and result.game_ends_after
        listed = {(index, placement) for move in moves for index, placement in enumerate(move.placements) if placement}
        assert all(sum(p is not None for p in move.placements) == 1 for move in moves)
        assert listed == {(a.map_index, a.placement) for a in turn.legal_actions()}
        assert set(result.blocked_maps) == {0, 1} - {a.map_index for a in turn.legal_actions()}
        if turn.step is SoloStep.LAST_TURN:
            assert all(s.current_player() == TERMINAL for s in after)
        else:
            for move, s in zip(moves, after, strict=True):
                drawn_on = next(i for i, p in enumerate(move.placements) if p is not None)
                assert s.current_player() == CHANCE and s.last_turn_map == drawn_on


def _touches(grid, placement) -> bool:
    drawn = drawn_cells(grid)
    return any((r + dr, c + dc) in drawn for r, c in placement.cells for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)))


def test_solo_hints_list_exactly_the_rules_models_moves_on_seeded_positions():
    """Seeded positions of every kind: two-map turns (with and without the pre-screen), doubles with the gap
    rule, a blocked map, both maps fitting only the same option, the extra turn, the end of the game."""
    seen: Counter = Counter()
    for seed in range(36):
        rng = rng_for(seed, "test-solo-agreement")
        components = SMALL if seed % 3 else DEFAULT_COMPONENTS
        turns = int(rng.integers(0, 9 if components is SMALL else 5))
        gap = 1 + seed % 2
        cards = tuple(
            tuple(SOLO_CARDS[int(i)] for i in rng.choice(len(SOLO_CARDS), size=int(rng.integers(0, 2))))
            for _ in range(2)
        )
        state = random_solo_state(seed, turns, components, gap, cards)
        if state.current_player() == TERMINAL:
            seen["game already over"] += 1
            continue
        roll = random_roll(rng) if seed % 4 else (int(rng.integers(1, 7)),) * 2
        assert_solo_hint_agrees(state, roll, seen)
    for kind in ("pairs", "pairs, all listed", "only_one", "last_turn", "over", "detached double listed"):
        assert seen[kind] > 0, f"no seeded case exercised {kind!r}: {dict(seen)}"


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    turns=st.integers(0, 10),
    gap=st.integers(1, 3),
    roll=st.tuples(st.integers(1, 6), st.integers(1, 6)),
)
def test_solo_hints_agree_with_the_rules_model_on_random_small_positions(seed, turns, gap, roll):
    state, roll = live_solo_turn(seed, turns, SMALL, gap, roll)  # every example is a usable one
    seen: Counter = Counter()
    assert_solo_hint_agrees(state, roll, seen)
    assert seen["over"] == 0


def test_a_hint_in_the_extra_turn_uses_the_ordinary_rule_on_a_double():
    # Map 1 is out; map 0 has its one extra turn. A double is a plain roll there: no detached drawing.
    state = random_solo_state(3, 2, SMALL, 1)
    last = SoloState.new(state.challenges, SMALL, state.maps, 1, last_turn_map=0)
    result = solo_hint(last, (1, 1))
    expected = set(legal_placements_for_option(last.maps[0], roll_options((1, 1))[0], SMALL))
    assert {a.move.placements[0] for a in result.alternatives} == expected
    assert all(a.move.placements[1] is None for a in result.alternatives)
    assert result.game_ends_after and result.blocked_maps == (1,)


def test_solo_hint_accepts_maps_with_detached_pieces():
    # A solo double may leave a detached piece (the gap rule); such a map is a legal solo position.
    state = SoloState.new(((), ()), SMALL).child((1, 2))
    state = state.child(state.legal_actions()[0]).child(state.child(state.legal_actions()[0]).legal_actions()[0])
    state = state.child((1, 1))
    far = next(a for a in state.legal_actions() if not _touches(state.maps[0], a.placement))
    state = state.child(far)
    state = state.child(state.legal_actions()[0])
    assert state.current_player() == CHANCE
    assert_solo_hint_agrees(state, (2, 3), Counter())


# --------------------------------------------------------------------------------------- multi-player


ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def live_solo_turn(seed: int, turns: int, components: Components, gap: int, roll) -> tuple[SoloState, tuple]:
    """A solo position that is not over and a roll that leaves player 0 a drawing: the seeded position with
    `turns` random turns, or fewer when the game ended earlier; the given roll, or the next of the 21 rolls
    that can be drawn. Turn 0 (two empty maps) takes every roll, so a usable case always exists."""
    for played in range(turns, -1, -1):
        state = random_solo_state(seed, played, components, gap)
        if state.current_player() == TERMINAL:
            continue
        start = ALL_ROLLS.index(tuple(sorted(roll)))
        for candidate in ALL_ROLLS[start:] + ALL_ROLLS[:start]:
            if state.child(candidate).current_player() == 0:
                return state, candidate
    raise AssertionError("two empty maps take every roll")


def random_multiplayer_state(seed: int, turns: int, players: int, cards, components) -> MultiplayerState:
    rng = rng_for(seed, "test-multiplayer-position")
    state = MultiplayerState.new(players, cards, components)
    for _ in range(turns):
        if state.current_player() == TERMINAL:
            break
        state = state.child(random_roll(rng))
        while state.current_player() not in (CHANCE, TERMINAL):
            actions = state.legal_actions()
            state = state.child(actions[int(rng.integers(len(actions)))])
    return state


def multiplayer_hint(state: MultiplayerState, map_index: int) -> HintResult:
    """The hint for map `map_index` this turn: own map on a plain roll, the neighbour's map on a double."""
    assert state.roll is not None
    double = state.roll[0] == state.roll[1]
    return hint(
        turn_state(
            state.maps[map_index],
            state.roll,
            state.challenges,
            state.components,
            mode=HintMode.NEIGHBOUR_MAP if double else HintMode.OWN_MAP,
        ),
        Budget(30.0),
        options=HintOptions(seed=0, rollouts=FEW_ROLLOUTS),
    )


@pytest.mark.parametrize("seed", range(12))
def test_multiplayer_hints_list_exactly_the_legal_drawings_of_each_map(seed):
    rng = rng_for(seed, "test-multiplayer-agreement")
    components = SMALL if seed % 2 else DEFAULT_COMPONENTS
    cards = (Challenge.NOISY_NEIGHBOURS,) if seed % 3 == 0 else ((Challenge.FESTIVAL,) if seed % 3 == 1 else ())
    turns = int(rng.integers(0, 8))
    state = random_multiplayer_state(seed, turns, 2 + seed % 2, cards, components)
    while state.current_player() == TERMINAL:  # fewer turns until the game is still on: no empty case
        turns -= 1
        state = random_multiplayer_state(seed, turns, 2 + seed % 2, cards, components)
    roll = random_roll(rng) if seed % 4 else (1 + seed % 6,) * 2
    turn = state.child(roll)
    if turn.current_player() == TERMINAL:
        for j in range(state.players):
            if state.in_game[j]:
                assert multiplayer_hint(replace(state, roll=roll), j).blocked
        return
    for j in range(state.players):  # maps in the game that cannot take the roll: the hint says blocked
        if state.in_game[j] and j not in turn.to_draw:
            assert multiplayer_hint(turn, j).blocked
    while turn.current_player() not in (CHANCE, TERMINAL):
        target = turn.to_draw[0]
        result = multiplayer_hint(turn, target)
        listed = [a.move.placements[0] for a in result.alternatives]
        assert Counter(listed) == Counter(set(turn.legal_actions()))
        assert not result.blocked
        pick = listed[int(rng.integers(len(listed)))]
        turn = turn.child(pick)  # a hinted move applied through modes.py is legal


# ------------------------------------------------------------------------- the conforming solo rollout


@pytest.mark.parametrize("gap", [1, 2])
@pytest.mark.parametrize("seed", range(6))
def test_modes_solo_turn_replays_through_solo_state_for_a_whole_game(seed, gap):
    """Each greedy turn of the rollout is a legal `SoloState` turn, and the phases match: pair -> next
    turn, one drawing -> that map's extra turn, extra turn or nothing fits -> game over."""
    components = SMALL if seed % 2 else DEFAULT_COMPONENTS
    tables = board_tables(components)
    rng = rng_for(seed, "test-modes-solo-turn")
    state = SoloState.new(((), (Challenge.PRIVACY,)), components, double_gap=gap)
    maps = [FastMap.from_grid(m, ch, components) for m, ch in zip(state.maps, state.challenges, strict=True)]
    phase = SOLO_NORMAL
    for _ in range(tables.max_turns()):
        if phase == SOLO_OVER:
            break
        roll = random_roll(rng)
        before = [m.copy() for m in maps]
        phase = modes_solo_turn(maps, phase, roll, int(rng.integers(0, 2**31)), components, gap=gap)
        state = state.child(roll)
        for index in (0, 1):
            new = maps[index].drawn & ~before[index].drawn
            if not new:
                continue
            element = next(v for v in range(1, 6) if maps[index].masks[v] & new)
            matches = [
                a
                for a in state.legal_actions()
                if a.map_index == index
                and candidate_of(a.placement, components)[0] == new
                and a.placement.element == element
            ]
            assert matches, f"map {index}: the rollout drew something SoloState does not allow"
            state = state.child(matches[0])
        assert maps[0].to_grid() == state.maps[0] and maps[1].to_grid() == state.maps[1]
        if phase == SOLO_OVER:
            assert state.current_player() == TERMINAL
        else:
            assert state.current_player() == CHANCE
            assert state.last_turn_map == (None if phase == SOLO_NORMAL else phase)
    assert phase == SOLO_OVER and state.current_player() == TERMINAL
    assert min(m.final_score() for m in maps) == state.final_score()


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    turns=st.integers(0, 8),
    gap=st.integers(1, 3),
    roll=st.tuples(st.integers(1, 6), st.integers(1, 6)),
)
def test_solo_candidates_are_the_solo_states_drawings(seed, turns, gap, roll):
    state, roll = live_solo_turn(seed, turns, SMALL, gap, roll)  # every example is a usable one
    turn = state.child(roll)
    assert turn.allowed
    double = roll[0] == roll[1] and turn.step is not SoloStep.LAST_TURN
    for map_index, option in turn.allowed:
        fast = FastMap.from_grid(turn.maps[map_index], (), SMALL)
        ours = solo_candidates(fast, option.shape_face, option.element_face, SMALL, double, gap)
        assert {candidate_placement(c, SMALL.cols) for c in ours} == set(turn.drawings(map_index, option))
        assert all(candidate_of(candidate_placement(c, SMALL.cols), SMALL) == c for c in ours)


@pytest.mark.parametrize("mode", [HintMode.OWN_MAP, HintMode.SOLO])
def test_hint_refuses_to_rank_when_the_rollout_engine_disagrees(monkeypatch, mode):
    # A rollout engine that loses a drawing must stop the hint (HintMismatch), never rank on other rules.
    import campsolver.solver.happy_campers.hint as hint_module

    original = FastMap.candidates

    def missing_one(fast, shape_face, element_face, components, *rest):
        return original(fast, shape_face, element_face, components)[1:]

    monkeypatch.setattr(hint_module.FastMap, "candidates", missing_one)
    monkeypatch.setattr(
        hint_module, "solo_candidates", lambda fast, s, e, components, double, gap: missing_one(fast, s, e, components)
    )
    with pytest.raises(hint_module.HintMismatch):
        hint(
            turn_state(None, (2, 3), (), SMALL, mode=mode),
            Budget(30.0),
            options=HintOptions(seed=0, rollouts=FEW_ROLLOUTS),
        )
