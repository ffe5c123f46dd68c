"""The Camper Tour zeros bench: its causes agree with the game's end, and report seeds are refused."""

from __future__ import annotations

import pytest

from bench import camper_tour_zeros as zeros

CAUSES = {
    "finished",
    "last-camper failed roll",
    "out of tokens outward",
    "still outward at the end",
    "still return at the end",
}


@pytest.mark.parametrize("seat", [0, 2])
def test_each_game_gets_one_cause_that_agrees_with_its_score(seat: int) -> None:
    game = zeros.play(3_960_001, seat, ["steady", "sprinter"], 0.02)
    assert game["cause"] in CAUSES
    if game["won"]:
        assert game["cause"] == "finished"
    if game["cause"] != "finished":
        assert game["score"] == 0  # eliminated or still travelling: the rules score nothing
    assert 0 <= game["same_as_race"] <= game["hint_calls"] > 0
    assert len(game["others_turned_back_on"]) == zeros.CAMPERS - 1


def test_report_seeds_are_refused() -> None:
    with pytest.raises(SystemExit) as refused:
        zeros.main(["--first-seed", "7000000", "--games", "3"])
    assert refused.value.code == 2
