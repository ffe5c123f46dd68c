"""Multi-player hints: rollouts follow `modes.MultiplayerState` drawing by drawing (neighbours' doubles on
your map, players out, the bonus turn), and the hint's multi-player mode ranks legal moves of that game."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.happy_campers.hint import HintMode, HintOptions, Stage, hint, rollout_policy, turn_state
from campsolver.solver.happy_campers.modes import MultiplayerState
from campsolver.solver.happy_campers.multiplayer_rollout import Record, drawer_of, multiplayer_rollout
from campsolver.solver.happy_campers.policies import FastMap, board_tables, play_game, random_rolls
from campsolver.solver.happy_campers.rules import (
    DEFAULT_COMPONENTS,
    Challenge,
    Components,
    Grid,
    RulesError,
    draw,
    empty_grid,
    legal_placements,
    score,
)

from tests.timing import Timed

SMALL = Components(rows=4, cols=5)
CARD_SETS = ((), (Challenge.NOISY_NEIGHBOURS,), (Challenge.FESTIVAL, Challenge.PRIVACY))
FULL_TREES: Grid = tuple((1,) * DEFAULT_COMPONENTS.cols for _ in range(DEFAULT_COMPONENTS.rows))


def _replay(state: MultiplayerState, drawn: dict[int, tuple[int, int, int]]) -> MultiplayerState:
    """Apply this turn's recorded drawings (map -> mask, around, element) through the rules model."""
    cols = state.components.cols
    while state.current_player() >= 0 and state.roll is not None:
        target = state.to_draw[0]
        mask, _, element = drawn.pop(target)
        cells = frozenset((i // cols, i % cols) for i in range(state.components.cell_count) if mask >> i & 1)
        matches = [p for p in state.legal_actions() if p.cells == cells and int(p.element) == element]
        assert matches, f"map {target}: the rollout's drawing is not legal for the rules model"
        state = state.child(matches[0])
    assert not drawn, f"the rollout drew on maps the rules model did not: {sorted(drawn)}"
    return state


def _seeded_future(seed: int, label: str, turns: int) -> tuple[np.ndarray, np.ndarray]:
    """A rollout's future from one seeded stream: two dice a turn, then a tie-break key a turn."""
    rng = rng_for(seed, label)
    dice = rng.integers(1, 7, size=(turns, 2))
    return dice, rng.integers(0, 2**31, size=turns)


@pytest.mark.parametrize("seed", range(12))
def test_rollout_plays_the_multiplayer_game_as_the_rules_model(seed: int) -> None:
    components = SMALL if seed % 2 else DEFAULT_COMPONENTS
    cards = CARD_SETS[seed % len(CARD_SETS)]
    players = 2 + seed % 3
    tables = board_tables(components)
    dice, keys = _seeded_future(seed, "multiplayer-rollout-test", tables.max_turns())
    state = MultiplayerState.new(players, cards, components)
    # The current turn: a plain roll, map 0 draws its first legal drawing (the hinted move), the rollout
    # finishes the turn on the other maps and plays the rest of the game.
    roll = (1, 2) if seed % 3 else (3, 6)
    state = state.child(roll)
    mine = state.legal_actions()[seed % len(state.legal_actions())]
    maps = [FastMap.from_grid(draw(state.maps[0], mine, components), cards, components)]
    maps += [FastMap.from_grid(g, cards, components) for g in state.maps[1:]]
    record: Record = []
    value = multiplayer_rollout(maps, roll, False, dice, keys, rollout_policy(), cards, components, record)
    state = state.child(mine)
    by_turn: dict[int, dict[int, tuple[int, int, int]]] = {}
    for turn, index, drawing in record:
        assert index not in by_turn.setdefault(turn, {}), "two drawings on one map in one turn"
        by_turn[turn][index] = drawing
    state = _replay(state, by_turn.pop(-1, {}))
    turn = 0
    while state.current_player() >= 0 or (state.roll is None and not state.over):
        state = state.child((int(dice[turn, 0]), int(dice[turn, 1])))
        if state.over:
            break
        state = _replay(state, by_turn.pop(turn, {}))
        turn += 1
    assert state.over, "the rules model's game went on after the rollout stopped"
    assert not by_turn, f"the rollout drew after the game was over: turns {sorted(by_turn)}"
    assert value == state.final_scores()[0]
    assert [m.to_grid() for m in maps] == list(state.maps)


def test_a_full_rival_ends_the_game_after_one_bonus_turn() -> None:
    """The rival cannot draw this turn's roll: they are out, the next turn is the bonus turn, then over."""
    tables = board_tables(DEFAULT_COMPONENTS)
    dice, keys = _seeded_future(1, "multiplayer-bonus-test", tables.max_turns())
    start = play_game(None, random_rolls(2, 3, "mp"), (), policy="greedy", seed=2).final_grid
    maps = [FastMap.from_grid(start, (), DEFAULT_COMPONENTS), FastMap.from_grid(FULL_TREES, (), DEFAULT_COMPONENTS)]
    record: Record = []
    multiplayer_rollout(maps, (1, 2), False, dice, keys, rollout_policy(), (), DEFAULT_COMPONENTS, record)
    assert {turn for turn, _, _ in record} <= {0}
    assert sum(1 for turn, index, _ in record if index == 0) <= 1


def test_bonus_turn_values_are_the_final_scores_after_the_move() -> None:
    grid = play_game(None, random_rolls(5, 8, "mp"), (), policy="greedy", seed=5).final_grid
    roll = (2, 5)
    result = hint(
        turn_state(grid, roll, (), mode=HintMode.MULTIPLAYER, players=3, bonus_turn=True),
        Budget(30),
        options=HintOptions(seed=3, rollouts=64),
    )
    assert result.game_ends_after and not result.interrupted
    exact = {p: score(draw(grid, p), ()).total for p in legal_placements(grid, roll)}
    for alternative in result.alternatives:
        (placement,) = alternative.move.placements
        assert placement in exact
        if alternative.value is not None:
            assert alternative.value == exact[placement]
            assert alternative.standard_error is not None
    assert result.best is not None and result.best.value == max(exact.values())


def test_multiplayer_hint_ranks_legal_moves_of_the_game() -> None:
    grid = play_game(None, random_rolls(7, 4, "mp"), (), policy="greedy", seed=7).final_grid
    rival = play_game(None, random_rolls(8, 4, "mp"), (), policy="greedy", seed=8).final_grid
    roll = (3, 4)
    result = hint(
        turn_state(grid, roll, (Challenge.NOISY_NEIGHBOURS,), mode="multiplayer", other_grids=[rival, empty_grid()]),
        Budget(30),
        options=HintOptions(seed=1, rollouts=120),
    )
    state = MultiplayerState.new(3, (Challenge.NOISY_NEIGHBOURS,), DEFAULT_COMPONENTS, (grid, rival, empty_grid()))
    legal = set(state.child(roll).legal_actions())
    assert {a.move.placements[0] for a in result.alternatives} == legal
    assert result.method.startswith("monte-carlo: multi-player")
    finalists = [a for a in result.alternatives if a.stage is Stage.FINALIST]
    # The value is a margin over the best rival: within the range of a score difference.
    assert finalists and all(a.value is not None and -45 <= a.value <= 45 for a in finalists)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"mode": "multiplayer", "players": 3, "roll": (2, 2)}, "roll"),
        ({"mode": "multiplayer", "players": 1}, "players"),
        ({"mode": "multiplayer"}, "players"),
        ({"mode": "multiplayer", "players": 4, "other_grids": [FULL_TREES]}, "players"),
        ({"mode": "multiplayer", "other_grids": []}, "other_grids"),
        ({"mode": "own_map", "players": 3}, "players"),
        ({"mode": "own_map", "bonus_turn": True}, "bonus_turn"),
        ({"mode": "own_map", "other_grids": [FULL_TREES]}, "other_grids"),
    ],
)
def test_multiplayer_arguments_are_checked(kwargs: dict, field: str) -> None:
    roll = kwargs.pop("roll", (1, 2))
    with pytest.raises(RulesError) as error:
        hint(turn_state(None, roll, (), **kwargs), Budget(5), options=HintOptions(rollouts=8))
    assert error.value.field == field


def test_doubles_go_to_the_neighbours_as_the_rules_model_says() -> None:
    for players in (2, 3, 4):
        for face in range(1, 7):
            state = MultiplayerState.new(players).child((face, face))
            for index in range(players):
                assert drawer_of(index, (face, face), players) == state.drawer_of(index)
        assert drawer_of(1, (2, 5), players) == 1


def _service_hint(request):
    from campsolver.service import dispatch
    from campsolver.service.registry import game

    return dispatch.run(game("happy-campers").commands["hint"], request, Budget(30))


def test_service_multiplayer_hint_and_its_field_errors() -> None:
    from campsolver.service.errors import InvalidArgument

    from campsolver.v1 import common_pb2
    from campsolver.v1 import happy_campers_pb2 as pb

    rival = play_game(None, random_rolls(8, 4, "mp"), (), policy="greedy", seed=8).final_grid
    rival_rows = ["".join(".TW~AE"[v] for v in row) for row in rival]
    options = common_pb2.SolveOptions(time_limit_seconds=1.0, seed=2)
    response = _service_hint(
        pb.HappyCampersServiceHintRequest(
            roll=pb.HappyCampersRoll(first=2, second=4),
            mode=pb.HINT_MODE_MULTIPLAYER,
            other_maps=[pb.HappyCampersMap(rows=rival_rows)],
            bonus_turn=True,
            options=options,
        )
    )
    assert response.alternatives and response.game_ends_after
    assert response.stats.method.startswith("monte-carlo: multi-player")
    top = response.alternatives[0]
    # The bonus turn on an empty map: nothing follows, and one drawing on an empty map is incomplete (0);
    # the value is the margin over the rival, who draws the roll in the bonus turn too (a complete map with
    # many empty squares scores below 0).
    rival_scores = {score(draw(rival, p), ()).total for p in legal_placements(rival, (2, 4))}
    assert -top.ranking.value in rival_scores
    bad = [
        (
            pb.HappyCampersServiceHintRequest(
                roll=pb.HappyCampersRoll(first=2, second=2), mode=pb.HINT_MODE_MULTIPLAYER, players=3
            ),
            "roll",
        ),
        (
            pb.HappyCampersServiceHintRequest(
                roll=pb.HappyCampersRoll(first=2, second=3), mode=pb.HINT_MODE_MULTIPLAYER
            ),
            "players",
        ),
        (
            pb.HappyCampersServiceHintRequest(
                roll=pb.HappyCampersRoll(first=2, second=3), mode=pb.HINT_MODE_MULTIPLAYER, players=1
            ),
            "players",
        ),
        (
            pb.HappyCampersServiceHintRequest(
                roll=pb.HappyCampersRoll(first=2, second=3),
                mode=pb.HINT_MODE_MULTIPLAYER,
                other_maps=[pb.HappyCampersMap(rows=["T.."])],
            ),
            "other_maps[0].rows",
        ),
        (pb.HappyCampersServiceHintRequest(roll=pb.HappyCampersRoll(first=2, second=3), players=3), "players"),
        (pb.HappyCampersServiceHintRequest(roll=pb.HappyCampersRoll(first=2, second=3), bonus_turn=True), "bonus_turn"),
    ]
    for request, field in bad:
        with pytest.raises(InvalidArgument) as caught:
            _service_hint(request)
        assert caught.value.violations[0].field == field


#: A full map with every element in one row-long cluster: complete, 45 points, and it can take no roll.
FULL_COMPLETE: Grid = tuple((r + 1,) * DEFAULT_COMPONENTS.cols for r in range(DEFAULT_COMPONENTS.rows))


@pytest.mark.parametrize("seed", range(6))
def test_rollout_margin_is_the_rules_models_margin(seed: int) -> None:
    """With `margin=True` the rollout plays the same drawings and returns player 0's score minus the best
    other player's, as `MultiplayerState.final_scores` counts them (Festival across maps included)."""
    cards = CARD_SETS[seed % len(CARD_SETS)]
    players = 2 + seed % 3
    tables = board_tables(DEFAULT_COMPONENTS)
    dice, keys = _seeded_future(seed, "multiplayer-margin-test", tables.max_turns())
    start = [
        play_game(None, random_rolls(seed * 10 + j, 3, "mp"), cards, policy="greedy", seed=j).final_grid
        for j in range(players)
    ]
    plain = [FastMap.from_grid(g, cards, DEFAULT_COMPONENTS) for g in start]
    with_margin = [FastMap.from_grid(g, cards, DEFAULT_COMPONENTS) for g in start]
    own = multiplayer_rollout(plain, None, False, dice, keys, rollout_policy(), cards, DEFAULT_COMPONENTS)
    margin = multiplayer_rollout(
        with_margin, None, False, dice, keys, rollout_policy(), cards, DEFAULT_COMPONENTS, margin=True
    )
    grids = tuple(m.to_grid() for m in with_margin)
    assert grids == tuple(m.to_grid() for m in plain)
    scores = MultiplayerState.new(players, cards, DEFAULT_COMPONENTS, grids).final_scores()
    assert own == scores[0]
    assert margin == scores[0] - max(scores[1:])


def test_multiplayer_hint_ranks_by_the_margin_over_the_best_rival() -> None:
    """Bonus turn against a full, complete rival (45, it cannot draw): every value is exactly this move's
    final score minus 45, the best move is the best margin, and `multiplayer_value="score"` gives the score."""
    grid = play_game(None, random_rolls(5, 8, "mp"), (), policy="greedy", seed=5).final_grid
    roll = (2, 5)
    exact = {p: score(draw(grid, p), ()).total for p in legal_placements(grid, roll)}
    assert score(FULL_COMPLETE, ()).total == 45
    for value_kind, offset in (("margin", 45), ("score", 0)):
        result = hint(
            turn_state(grid, roll, (), mode=HintMode.MULTIPLAYER, other_grids=[FULL_COMPLETE], bonus_turn=True),
            Budget(30),
            options=HintOptions(seed=3, rollouts=48, multiplayer_value=value_kind),
        )
        assert ("margin" in result.method) == (value_kind == "margin")
        sampled = [a for a in result.alternatives if a.value is not None]
        assert sampled
        for alternative in sampled:
            assert alternative.value == exact[alternative.move.placements[0]] - offset
        assert result.best is not None and result.best.value == max(exact.values()) - offset


@pytest.mark.timing
def test_multiplayer_hint_holds_its_budget() -> None:
    """Four maps a rollout, a 0.3 s limit: the answer comes within the limit (plus scheduling slack for a
    loaded machine), every legal move listed (a loaded machine may cut the race to no rollout at all)."""
    grid = play_game(None, random_rolls(3, 3, "mp"), (), policy="greedy", seed=3).final_grid
    limit = 0.3
    with Timed() as timed:
        result = hint(
            turn_state(grid, (1, 4), (), mode=HintMode.MULTIPLAYER, players=4),
            Budget(limit),
            options=HintOptions(seed=4),
        )
    assert {a.move.placements[0] for a in result.alternatives} == set(legal_placements(grid, (1, 4)))
    assert result.wall_time_s <= timed.wall
    assert timed.within(limit, 0.25), timed.explain(limit, 0.25)  # overrun in CPU terms: load does not fail it
    assert result.interrupted or result.rollouts > 0


def test_head_to_head_bench_plays_legal_seeded_games_with_seats_rotated() -> None:
    """The multi-player bench: every drawing went through `MultiplayerState.child` (so it is legal), the
    recorded scores are the rules model's, seats rotate over consecutive games, and a game is reproducible."""
    from bench.happy_campers_multiplayer import play_one, summarise

    settings = {"hint_budget": 1.0, "rollouts": 8, "safety_s": 10.0, "value": "margin"}
    rows = [play_one((game, 2, "hint", "greedy", settings)) for game in range(2)]
    assert [r["seat"] for r in rows] == [0, 1]
    for row in rows:
        seat = row["seat"]
        best_other = max(s for i, s in enumerate(row["scores"]) if i != seat)
        assert row["margin"] == row["scores"][seat] - best_other
        assert row["hint_calls"] > 0
    assert play_one((1, 2, "hint", "greedy", settings))["scores"] == rows[1]["scores"]
    summary = summarise(rows)
    assert summary["games"] == 2 and 0 <= summary["win_rate_ci95"][0] <= summary["win_rate"]
    assert summary["win_rate"] <= summary["win_rate_ci95"][1] <= 1


def _ranking(result) -> list[tuple[str, float | None, int]]:
    return [(c.label, c.value, c.samples) for c in result.choices]


def test_a_multiplayer_state_is_hinted_for_the_map_due_in_seat_order() -> None:
    """`hint` on the rules model's `MultiplayerState` after its roll: on a plain roll the drawing due on map
    `to_draw[0]` is its owner's, the other maps in seat order from the owner's left neighbour (the same answer as
    `turn_state` with that owner in seat 0); on a double it is the neighbour's drawing on that map, the same as a
    `MapTurn` on the neighbour's map. A state before its roll is refused by name."""
    from campsolver.solver.happy_campers.hint import MapTurn

    maps = tuple(
        play_game(None, random_rolls(20 + j, 4, "mp"), (), policy="greedy", seed=j).final_grid for j in range(3)
    )
    state = MultiplayerState.new(3, (), DEFAULT_COMPONENTS, maps)
    options = HintOptions(seed=6, rollouts=40)
    plain = state.child((2, 5))
    due = plain.to_draw[1]
    seated = hint(replace(plain, to_draw=plain.to_draw[1:]), Budget(60), options=options)
    others = [maps[(due + k) % 3] for k in (1, 2)]
    direct = hint(
        turn_state(maps[due], (2, 5), mode=HintMode.MULTIPLAYER, other_grids=others), Budget(60), options=options
    )
    assert seated.mode is HintMode.MULTIPLAYER and _ranking(seated) == _ranking(direct)
    double = state.child((3, 3))
    on_neighbour = hint(double, Budget(60), options=options)
    alone = hint(MapTurn(maps[double.to_draw[0]], (3, 3), neighbour_map=True), Budget(60), options=options)
    assert on_neighbour.mode is HintMode.NEIGHBOUR_MAP and _ranking(on_neighbour) == _ranking(alone)
    with pytest.raises(RulesError) as error:
        hint(state, Budget(5), options=options)
    assert error.value.field == "roll"
