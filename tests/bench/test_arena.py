"""The arena (`bench.arena`): greedy-rollout bots, cells of every opponent kind (outside players by a stand-in),
the in-game calibration on the mean, the tables (collapses, ceilings, CPU on both sides), resumable runs."""

from __future__ import annotations

import json
import sys
import types
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from campsolver.solver.campsite import rules as cs
from campsolver.solver.core.game import CHANCE, TERMINAL, sample_outcome

from bench import openspiel as bench
from bench.arena import bots, cells, tables
from bench.arena.__main__ import default_cells, main


def _walk(spec: bench.GameSpec, game: Any, decisions: int, seed: int = 3) -> Any:
    """An adapter state after `decisions` greedy decisions (chance drawn from a seeded generator)."""
    rng = np.random.default_rng(seed)
    state = bench.new_state(spec, game, seed)
    made = 0
    while made < decisions and not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(bench._sample_chance(state, rng))
            continue
        rules = state.rules_state
        state.apply_action(game.encoding.encode(rules, spec.greedy(rules, rules.current_player(), rng)[0]))
        made += 1
    while state.is_chance_node():
        state.apply_action(bench._sample_chance(state, rng))
    return state


# --- cells ------------------------------------------------------------------------------------------------------


def test_cells_parse_every_opponent_kind_and_seat_mixed_tables_in_turn() -> None:
    cell = cells.ArenaCell.parse("camper_tour:4:out:a+gbot16+hint10x")
    assert [o.name for o in cell.opponents] == ["out:a", "gbot16", "hint10x"]
    assert cell.text == "camper_tour:4:out:a+gbot16+hint10x" and cell.name == "camper_tour_4p_out-a+gbot16+hint10x"
    assert [cell.opponent_at(p, 2).name for p in (3, 0, 1)] == ["out:a", "gbot16", "hint10x"]  # after the hint
    two = cells.ArenaCell.parse("campsite:4:out:a+out:b")
    assert [two.opponent_at(p, 0).name for p in (1, 2, 3)] == ["out:a", "out:b", "out:a"]  # cycling
    assert cells.Opponent.parse("rbot4").is_bot and cells.Opponent.parse("gbot2.5").factor == 2.5
    for bad in ("chess:2:greedy", "camper_tour:2:gbot", "camper_tour:2:out:a+out:b", "camper_tour:x:greedy"):
        with pytest.raises(ValueError):
            cells.ArenaCell.parse(bad)
        with pytest.raises(SystemExit) as stop:
            main(["--cells", bad, "--estimate"])
        assert stop.value.code == 2


def test_report_seeds_are_apart_from_tuning_calibration_and_the_issues_outside_seeds() -> None:
    first = cells.REPORT_FIRST_SEED
    assert first == 7_000_000
    for used in (
        0,
        bench.TUNE_FIRST_SEED,
        bench.CALIBRATION_SEED,
        cells.GAME_CALIBRATION_SEED,
        990_000,
        996_000,
        5_000_000,
        9_100_000,
    ):
        assert not used <= first < used + 1_000_000 or used == first
    assert first > cells.GAME_CALIBRATION_SEED + cells.CALIBRATION_ROUNDS * cells.CALIBRATION_ROTATIONS


def test_the_hint_at_10x_gets_ten_times_the_real_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Campsite's hint asked 0.05 really gets 0.15 (`cs_budget`), so its 10x opponent gets 1.5, and seeds differ."""
    asked: list[tuple[int, float, int]] = []
    spec = bench.GAMES["campsite"]

    def recording(s: Any, seat: int, cpu_s: float, seed: int) -> bench.Plan:
        asked.append((seat, cpu_s, seed))
        return bench.cs_greedy(s, seat, np.random.default_rng(0))

    monkeypatch.setitem(bench.GAMES, "campsite", replace(spec, hint=recording))
    cell = cells.ArenaCell.parse("campsite:2:hint10x")
    config = cells.cell_config(cell, 0.05, 7, {})
    assert config["hint_budget_s"] == pytest.approx(0.15)
    game = bench.load_game(bench.GAMES["campsite"], 2)
    state = _walk(bench.GAMES["campsite"], game, 0)
    for p in (0, 1):
        cells.make_seat(cell, game, config, p, 0, 7).policy(state.rules_state, p)
    assert asked[0][:2] == (0, 0.05) and asked[1][:2] == (1, pytest.approx(1.5)) and asked[0][2] != asked[1][2]


# --- greedy-rollout bots ----------------------------------------------------------------------------------------


def test_the_margin_value_is_half_the_win_and_half_a_scale_free_margin() -> None:
    value = bots.margin_value([30.0, 10.0, 30.0], [0.5, 0.0, 0.5])
    assert value[0] == pytest.approx(0.25 + 0.25) and value[2] == value[0]  # level with the best other: margin 0
    assert value[1] == pytest.approx(0.25 * (1 - 20 / 41)) and all(0 <= v <= 1 for v in value)
    spec = bench.GAMES["camper_tour"]
    state = _walk(spec, bench.load_game(spec, 2), 6)
    margin = bots.GreedyRolloutEvaluator(spec, np.random.default_rng(1), value="margin").evaluate(state)
    wins = bots.GreedyRolloutEvaluator(spec, np.random.default_rng(1)).evaluate(state)  # the same playout
    assert all(0.5 * w <= m <= 0.5 * w + 0.5 for w, m in zip(wins, margin, strict=True))


def test_a_greedy_playout_ends_the_game_and_the_evaluator_returns_win_shares() -> None:
    spec = bench.GAMES["camper_tour"]
    game = bench.load_game(spec, 2)
    state = _walk(spec, game, 6)
    final = bots.greedy_playout(spec, state.rules_state, np.random.default_rng(1))
    assert final.current_player() == TERMINAL
    evaluator = bots.GreedyRolloutEvaluator(spec, np.random.default_rng(1), rollouts=3)
    value = evaluator.evaluate(state)
    assert value.shape == (2,) and value.sum() == pytest.approx(1.0) and evaluator.playouts == 3
    assert all(x * 3 == pytest.approx(round(x * 6) / 2) for x in value)  # each playout 1 / 0 / a shared half
    evaluator.skip_root = len(state.history())
    assert list(evaluator.evaluate(state)) == [0.5, 0.5] and evaluator.playouts == 3  # the root: no playout


def test_the_greedy_prior_weights_greedy_s_move_and_sums_to_one() -> None:
    spec = bench.GAMES["camper_tour"]
    game = bench.load_game(spec, 2)
    state = _walk(spec, game, 4)
    rules = state.rules_state
    greedy = game.encoding.encode(rules, spec.greedy(rules, rules.current_player(), np.random.default_rng(0))[0])
    prior = dict(bots.GreedyRolloutEvaluator(spec, np.random.default_rng(0)).prior(state))
    assert sorted(prior) == sorted(state.legal_actions()) and sum(prior.values()) == pytest.approx(1.0)
    if len(prior) > 1:
        rest = (1 - bots.GREEDY_PRIOR) / len(prior)
        assert prior[greedy] == pytest.approx(bots.GREEDY_PRIOR + rest) and max(prior, key=prior.get) == greedy
        assert all(p == pytest.approx(rest) for a, p in prior.items() if a != greedy)
    uniform = bots.GreedyRolloutEvaluator(spec, np.random.default_rng(0), prior="uniform").prior(state)
    assert {p for _, p in uniform} == {1.0 / len(prior)}
    with pytest.raises(ValueError):
        bots.GreedyRolloutEvaluator(spec, np.random.default_rng(0), prior="smart")


@pytest.mark.parametrize("key", ["camper_tour", "adventure_tours"])
def test_too_few_simulations_to_try_every_move_play_the_greedy_move_not_a_random_one(key: str) -> None:
    """With the greedy prior, MCTS (Camper Tour) and IS-MCTS (Adventure Tours) whose simulations do not reach
    every move once try greedy's move first and play it: every tried move has one visit, and the tie goes to the
    prior, not to one lucky playout (OpenSpiel's own choice would)."""
    spec = bench.GAMES[key]
    game = bench.load_game(spec, spec.smallest)
    checked = 0
    for decisions in range(0, 40, 3):
        state = _walk(spec, game, decisions, seed=11)
        if state.is_terminal() or len(state.legal_actions()) < 2:
            continue
        rules = state.rules_state
        greedy = game.encoding.encode(rules, spec.greedy(rules, rules.current_player(), np.random.default_rng(0))[0])
        simulations = min(len(state.legal_actions()), 4)  # at most one playout a move
        seat = bots.make_search_bot(spec, game, bots.GreedyBotSetting(), simulations, seed=decisions)
        chosen = seat.act(state.clone())
        if spec.hidden:  # greedy's move in the world the search drew (another hand may change greedy's choice)
            prior = seat.bot._root_node.prior_map
            greedy = max(prior, key=prior.get)
            assert prior[greedy] > bots.GREEDY_PRIOR
        assert chosen == greedy
        assert seat.playouts == [simulations - 1] and len(seat.cpu) == 1  # the root's evaluation skipped
        checked += 1
    assert checked >= 3


def test_the_campsite_greedy_answers_a_tent_when_a_search_laid_the_card() -> None:
    state = cs.new_game(2)
    rng = np.random.default_rng(5)
    while state.current_player() == CHANCE:
        state = state.child(sample_outcome(state, rng))
    state = state.child(state.legal_actions()[0])
    assert state.stage is cs.Stage.TENT
    (tent,) = bench.cs_greedy(state, state.to_move, rng)
    mover = state.to_move

    def points(move: cs.PitchTent) -> int:
        return cs.player_scores(state.table.pitch(cs.Tent(mover, move.token, move.row, move.col)), 2)[mover]

    assert tent in state.legal_actions() and points(tent) == max(points(m) for m in state.legal_actions())


# --- outside players, games, runs -------------------------------------------------------------------------------


@pytest.fixture
def stand_in(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """A stand-in `bench.opponents`: the greedy player wrapped (and one that answers an illegal move)."""
    calls: dict[str, Any] = {"copy": 0}

    def copy(state: Any, seat: int, rng: np.random.Generator) -> bench.Plan:
        calls["copy"] += 1
        return bench.ct_greedy(state, seat, rng)

    def cheat(state: Any, seat: int, rng: np.random.Generator) -> bench.Plan:
        return ["not a move"]

    def prepare(game: str) -> None:
        calls.setdefault("prepared", []).append(game)

    module = types.ModuleType("bench.opponents")
    module.PLAYERS = {"camper_tour": {"copy": copy, "cheat": cheat}}  # type: ignore[attr-defined]
    module.prepare = prepare  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bench.opponents", module)
    monkeypatch.setattr(cells, "_PREPARED", set())
    return calls


def test_an_outside_player_is_loaded_when_a_game_needs_it(stand_in: dict[str, Any]) -> None:
    cell = cells.ArenaCell.parse("camper_tour:3:out:copy+greedy")
    row = cells.play_game(cells.cell_config(cell, 0.005, 7_000_000, {}), 4)
    assert row["seed"] == 7_000_001 and row["hint_seat"] == 1 and row["seats"] == ["greedy", "hint", "out:copy"]
    assert stand_in["copy"] > 0 and set(row["opponent_cpu"]) == {"0", "2"} and row["hint_cpu"]
    assert sorted(cells.outside_players("camper_tour")) == ["cheat", "copy"]
    assert stand_in["prepared"] == ["camper_tour"]  # once a process, before the first game
    with pytest.raises(RuntimeError, match="illegal move"):
        cells.play_game(cells.cell_config(cells.ArenaCell.parse("camper_tour:2:out:cheat"), 0.005, 7, {}), 0)
    with pytest.raises(RuntimeError, match="no outside player"):
        cells.play_game(cells.cell_config(cells.ArenaCell.parse("camper_tour:2:out:none"), 0.005, 7, {}), 0)


def test_without_the_outside_module_the_default_cells_leave_outside_players_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(cells, "OUTSIDE_MODULE", "bench.no_such_module")
    found = default_cells()
    assert found[:5] == [f"{k}:{s.smallest}:gbot4" for k, s in bench.GAMES.items()]
    assert not [c for c in found if "out:" in c] and len(found) == 10


def test_default_cells_mix_outside_styles_at_three_and_four_players(stand_in: dict[str, Any]) -> None:
    found = default_cells()
    assert [c for c in found if c.startswith("campsite") and "out:" in c] == []  # the stand-in has Camper Tour only
    assert "camper_tour:2:out:cheat" in found and "camper_tour:3:out:cheat+out:copy" in found
    assert "camper_tour:4:out:cheat+out:copy+out:cheat" in found


def test_a_run_on_a_pool_of_two_is_kept_a_game_a_line_and_resumed(stand_in: dict[str, Any], tmp_path: Path) -> None:
    """Two games on a fork pool of 2, then a rerun asking for three plays only the third (in this process); the
    table's row is that of the games in the file."""
    argv = ["--cells", "camper_tour:2:out:copy", "--hint-cpu", "0.005", "--run-dir", str(tmp_path), "--chunk", "2"]
    main([*argv, "--games", "2", "--workers", "2"])
    path = tmp_path / "camper_tour_2p_out-copy.jsonl"
    first = bench.read_games(path)
    assert len(first) == 3 and sorted(g["index"] for g in first[1:]) == [0, 1]
    assert first[0] == cells.cell_config(cells.ArenaCell.parse("camper_tour:2:out:copy"), 0.005, 7_000_000, {})
    main([*argv, "--games", "3"])
    again = bench.read_games(path)
    assert again[:3] == first and [g["index"] for g in again[1:]] == [*(g["index"] for g in first[1:]), 2]
    row = tables.summarise(cells.ArenaCell.parse("camper_tour:2:out:copy"), again, ceilings={})
    assert row["games"] == 3 and row["first_seed"] == 7_000_000
    assert row["hint_cpu_mean_s"] == pytest.approx(np.mean([x for g in again[1:] for x in g["hint_cpu"]]))
    with pytest.raises(SystemExit, match="other settings"):
        main([*argv, "--games", "3", "--hint-cpu", "0.01"])
    assert json.loads((Path(bench.RESULTS_DIR) / f"arena_{tmp_path.name}.json").read_text())["rows"][0]["games"] == 3
    (Path(bench.RESULTS_DIR) / f"arena_{tmp_path.name}.json").unlink()


def test_the_calibration_measures_the_mean_in_games_and_keeps_every_round() -> None:
    spec = bench.GAMES["camper_tour"]
    result = cells.calibrate_in_games(
        spec, 2, cells.Opponent.parse("gbot4"), bots.GreedyBotSetting(), 0.004, log=lambda line: None
    )
    rounds = result["rounds"]
    assert 1 <= len(rounds) <= cells.CALIBRATION_ROUNDS and rounds[0]["simulations"] == cells.MIN_SIMULATIONS
    for r in rounds:
        assert r["target_s"] == pytest.approx(4 * r["hint_mean_s"])
        assert r["ratio"] == pytest.approx(r["bot_mean_s"] / r["target_s"])
        assert r["seed"] >= cells.GAME_CALIBRATION_SEED
    assert result["simulations"] in {r["simulations"] for r in rounds}
    chosen = min(rounds, key=lambda r: abs(np.log(r["ratio"])))  # the round closest to the target
    assert result["simulations"] == chosen["simulations"]
    line = tables.calibration_markdown({"camper_tour_2p_gbot4": result}).splitlines()[2]
    assert line.startswith(f"| camper_tour_2p_gbot4 | {result['simulations']} | {len(rounds)} |")
    assert result["ratio"] == chosen["ratio"] and result["bot_mean_s"] == chosen["bot_mean_s"]


# --- tables -----------------------------------------------------------------------------------------------------


def _rows(scores: list[tuple[float, float]], cell: str = "deluxe_camping:2:gbot4") -> list[dict[str, Any]]:
    header = cells.cell_config(cells.ArenaCell.parse(cell), 0.05, 7_000_000, {"gbot4": {"simulations": 2}})
    games = []
    for i, (hint, other) in enumerate(scores):
        seat = i % 2
        pair = [hint, other] if seat == 0 else [other, hint]
        games.append(
            {
                "index": i,
                "seed": 7_000_000 + i // 2,
                "hint_seat": seat,
                "scores": pair,
                "hint_return": 1.0 if hint > other else 0.5 if hint == other else 0.0,
                "seats": ["hint", "gbot4"] if seat == 0 else ["gbot4", "hint"],
                "hint_cpu": [0.01, 0.03],
                "opponent_cpu": {str(1 - seat): [0.1, 0.2, 0.6]},
                "opponent_playouts": {str(1 - seat): [1, 1, 2]},
            }
        )
    return [header, *games]


def test_a_row_counts_collapses_states_cpu_on_both_sides_and_shows_a_ceiling() -> None:
    rows = _rows([(150, 20), (160, 30), (5, 90), (170, 40), (0, 120)])
    seen: list[int] = []

    def ceiling(cell: cells.ArenaCell, games: list[dict[str, Any]]) -> tables.Ceiling:
        seen.append(len(games))
        return tables.Ceiling(0.9, "best response")

    row = tables.summarise(cells.ArenaCell.parse("deluxe_camping:2:gbot4"), rows, {"deluxe_camping": ceiling})
    assert row["collapses"] == 2 and {(c["seed"], c["hint_seat"]) for c in row["collapse_games"]} == {
        (7_000_001, 0),
        (7_000_002, 0),
    }  # under 20% of the median 150
    assert row["games"] == 5 and row["hint_share"] == pytest.approx(3 / 5) and seen == [5]
    assert row["hint_cpu_mean_s"] == pytest.approx(0.02) and row["hint_cpu_median_s"] == pytest.approx(0.02)
    assert row["opponent_cpu_mean_s"] == pytest.approx(0.3) and row["opponent_cpu_median_s"] == pytest.approx(0.2)
    assert row["ratio_mean"] == pytest.approx(15) and row["ratio_median"] == pytest.approx(10)
    assert row["hint_mean_score"] == pytest.approx(97) and row["opponent_mean_score"] == pytest.approx(60)
    assert row["ceiling"] == {"share": 0.9, "how": "best response"} and row["bot_playouts_mean"] == pytest.approx(4 / 3)
    text = tables.markdown([row])
    assert "2 of 5" in text and "0.900" in text and "greedy-rollout MCTS 4x (2 sims)" in text
    assert "15.00x; 10.00x (over 4x)" in text and row["factor"] == 4.0
    assert row["opponent_cpu_by_kind"] == {"gbot4": {"mean_s": pytest.approx(0.3), "median_s": pytest.approx(0.2)}}
    blanked = tables.collapses(_rows([(0, 20), (0, 25), (12, 30)])[1:])  # the hint's median 0: the opponents' 25
    assert [c["hint_score"] for c in blanked] == [0, 0]
    assert tables.collapses(_rows([(-5, -3), (-2, -1)])[1:]) == []  # no positive reference, no collapse


def test_the_curve_table_puts_the_10x_hint_first_and_estimates_come_from_games_or_budgets() -> None:
    row = tables.summarise(cells.ArenaCell.parse("deluxe_camping:2:gbot4"), _rows([(150, 20)]), {})
    ten = {**row, "opponent": "hint10x"}
    text = tables.curve_markdown({0.05: [row, ten], 0.2: [ten]})
    assert text.splitlines()[0].index("vs hint10x") < text.splitlines()[0].index("vs gbot4")
    assert len(text.splitlines()) == 4
    cell = cells.ArenaCell.parse("camper_tour:2:hint10x")
    guess = tables.estimate_cpu(cell, [], 200, 0.05)
    calls = tables.HINT_CALLS_A_GAME["camper_tour"]
    assert guess["from"] == "budgets" and guess["total_s"] == pytest.approx(200 * calls * 0.05 * 11)
    floor = {"hint_cpu_s": 0.05, "hint_mean_s": 0.02, "bot_mean_s": 0.45, "floor": True}
    sixteen = tables.estimate_cpu(cells.ArenaCell.parse("campsite:2:gbot16"), [], 1, 0.05, {}, [floor])
    assert sixteen["per_game_s"] == pytest.approx(
        tables.HINT_CALLS_A_GAME["campsite"] * 0.15 + tables.DECISIONS_A_GAME["campsite"] * 0.45
    )  # the floor
    played = tables.estimate_cpu(cell, _rows([(1, 0), (0, 1)]), 10, 0.05)
    assert played["from"] == "played" and played["per_game_s"] == pytest.approx(0.04 + 0.9)


def test_tuning_plays_each_setting_on_tuning_seeds_and_keeps_the_strongest(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`--tune-bots`: each setting calibrated and played on seeds from TUNE_FIRST_SEED; the one the hint scores
    least against is saved with the grid and chosen by later runs."""
    from campsolver.clients.batch.engine import InProcess

    grid = (bots.GreedyBotSetting(1.4, "greedy"), bots.GreedyBotSetting(1.4, "uniform", value="margin"))
    monkeypatch.setattr(cells, "TUNE_GRID", grid)
    calibrations = cells.GameCalibrations(tmp_path)
    best = cells.tune_bots(
        bench.GAMES["camper_tour"], 2, tmp_path, 0.004, calibrations, InProcess(), log=lambda line: None
    )
    saved = json.loads((tmp_path / "bot_settings.json").read_text())["camper_tour"]
    names = {"c1.4_greedy_r1_win", "c1.4_uniform_r1_margin"}
    assert set(saved["grid"]) == names and best in grid
    assert saved["grid"][f"c1.4_{best.prior}_r1_{best.value}"] == min(saved["grid"].values())
    assert cells.bot_settings(tmp_path) == {"camper_tour": best}
    for setting in grid:
        name = f"c1.4_{setting.prior}_r1_{setting.value}"
        games = bench.read_games(tmp_path / "tune" / name / "camper_tour_2p_gbot4.jsonl")
        assert [g["seed"] for g in games[1:]] == [bench.TUNE_FIRST_SEED] * 2
        assert games[0]["bots"]["gbot4"]["setting"]["prior"] == setting.prior
