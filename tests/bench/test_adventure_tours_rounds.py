"""bench.adventure_tours_rounds: a game's rounds add up to its money, estimates are kept per round, report seeds are
refused."""

from __future__ import annotations

import pytest

from bench import adventure_tours_rounds as bench


def test_a_game_records_three_rounds_that_add_up_and_the_summary_counts_them() -> None:
    game = bench.play_game(4_300_000, 1, bench.field("patient", 0.005), cpu=0.005, rollout=bench.ROLLOUTS["default"])
    assert len(game["rounds"]) == 3
    assert game["rounds"][-1]["totals"] == game["totals"]
    assert all(0 <= r < 3 for r, _ in game["estimates"]) and game["hint_cpu"]
    summary = bench.summarise([game])
    assert summary["games"] == 1 and 0.0 <= summary["share"] <= 1.0
    assert sum(row["rounds"] for row in summary["rounds_by_ender"].values()) == 3
    assert sum(row["calls"] for row in summary["estimate_vs_margin"].values()) == len(game["estimates"])


def test_report_seeds_are_refused() -> None:
    with pytest.raises(SystemExit):
        bench.main(["--first-seed", "6999999", "--games", "6"])


def test_a_mixed_field_seats_each_kind_and_a_hint_opponent_plays_legally() -> None:
    """`hint+greedy`: the seat after the hint's is the hint (at the bench's budget), the next greedy; a game ends."""
    others = bench.field("hint+greedy", 0.005)
    assert set(others) == {0, 1}
    game = bench.play_game(4_300_001, 2, others, cpu=0.005, rollout=bench.ROLLOUTS["default"], halving=False)
    assert len(game["rounds"]) == 3 and game["rounds"][-1]["totals"] == game["totals"]
    with pytest.raises(ValueError):
        bench.opponent("nobody")
