"""The head-to-head bench (`bench.openspiel`): games through the adapter, results kept a game a line and resumed,
and hints that read only what their seat may know."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from campsolver.solver.campsite import rules as cs
from campsolver.solver.core.game import CHANCE, sample_outcome

from bench import openspiel as bench


def test_a_cell_is_written_a_game_a_line_and_a_rerun_resumes_it(tmp_path: Path) -> None:
    """Two Camper Tour games against greedy (a tiny hint budget), then a rerun asking for three plays only the
    third; the summary's share and Wilson interval are those of the games in the file."""
    cell = bench.Cell("camper_tour", 2, "greedy")
    calibrations = bench.Calibrations(tmp_path, 0.005)
    first = bench.run_cell(cell, 2, tmp_path, 0.005, calibrations, log=False)
    lines = (tmp_path / f"{cell.name}.jsonl").read_text().splitlines()
    assert len(lines) == 3 and json.loads(lines[0])["cell"] == cell.name
    assert [g["hint_seat"] for g in first[1:]] == [0, 1]  # seats rotated, one seed a rotation
    assert first[1]["seed"] == first[2]["seed"]
    again = bench.run_cell(cell, 3, tmp_path, 0.005, calibrations, log=False)
    assert again[1:3] == first[1:] and len(again) == 4
    assert len((tmp_path / f"{cell.name}.jsonl").read_text().splitlines()) == 4
    row = bench.summarise(cell, again)
    share = sum(g["hint_return"] for g in again[1:])
    assert row["games"] == 3 and row["hint_share"] == pytest.approx(share / 3)
    low, high = bench.wilson(share, 3)
    assert row["wilson95_low"] == low <= share / 3 <= high == row["wilson95_high"]
    for game in again[1:]:
        assert game["hint_return"] in (0.0, 0.5, 1.0) and game["hint_cpu"]


def test_campsite_hint_seat_reads_neither_the_other_hand_nor_the_pile() -> None:
    """The bench's Campsite hint answers the same turn when only the opponent's hand and the pile differ."""
    rng = random.Random(4)
    chance = np.random.default_rng(4)
    state = cs.new_game(2)
    while state.current_player() == CHANCE or state.stage is not cs.Stage.CARD or state.turn < 3:
        if state.current_player() == CHANCE:
            state = state.child(sample_outcome(state, chance))
        else:
            actions = state.legal_actions()
            state = state.child(actions[rng.randrange(len(actions))])
    seat, other = state.to_move, 1 - state.to_move
    unseen = list(state.hands[other]) + list(state.pile)
    rng.shuffle(unseen)
    hands = list(state.hands)
    hands[other] = tuple(sorted(unseen[: len(hands[other])]))
    swapped = replace(state, hands=tuple(hands), pile=tuple(sorted(unseen[len(hands[other]) :])))
    assert swapped.hands[other] != state.hands[other]
    plan = bench.cs_hint(state, seat, 30.0, 0)  # a budget that never cuts the ranking: the answer is fixed
    assert plan == bench.cs_hint(swapped, seat, 30.0, 0)
    assert isinstance(plan[0], cs.PlayCard) and plan[0] in state.legal_actions()
    assert plan[1] in state.child(plan[0]).legal_actions()


def test_default_cells_put_the_smallest_tables_first() -> None:
    cells = bench.default_cells()
    assert len(cells) == len(set(cells)) == 5 * 3 * 2
    first = [bench.Cell.parse(c) for c in cells[:10]]
    assert {(c.opponent, c.players == bench.GAMES[c.game].smallest) for c in first} == {
        ("greedy", True),
        ("bot1", True),
    }


def test_two_runs_sharing_a_directory_keep_each_others_calibrations(tmp_path: Path) -> None:
    """Each run loads calibration.json once and saves on every new key; a save merges with the file, so a key
    another run wrote since is kept (two runs used to clobber each other's)."""
    first = bench.Calibrations(tmp_path, 0.05)
    second = bench.Calibrations(tmp_path, 0.05)
    first.data["a"] = {"simulations": 2}
    first._save()
    second.data["b"] = {"simulations": 4}
    second._save()
    saved = json.loads((tmp_path / "calibration.json").read_text())
    assert saved == {"a": {"simulations": 2}, "b": {"simulations": 4}}
    assert not list(tmp_path.glob("*.tmp"))


def test_a_reverse_run_plays_only_the_indices_missing_and_duplicates_count_once(tmp_path: Path) -> None:
    """A second run on a cell (`--reverse`) plays the missing games from the last index down and skips what the
    file already has; a game index written twice (two runs meeting on it) counts once, the first line."""
    cell = bench.Cell("camper_tour", 2, "greedy")
    calibrations = bench.Calibrations(tmp_path, 0.005)
    bench.run_cell(cell, 2, tmp_path, 0.005, calibrations, log=False)
    games = bench.run_cell(cell, 4, tmp_path, 0.005, calibrations, log=False, reverse=True)
    path = tmp_path / f"{cell.name}.jsonl"
    assert [g["index"] for g in games[1:]] == [0, 1, 3, 2]
    with path.open("a") as out:
        out.write(json.dumps({**games[2], "hint_return": 0.5}) + "\n")
    again = bench.read_games(path)
    assert again == games and bench.summarise(cell, again)["games"] == 4
