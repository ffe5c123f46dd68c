"""The collapse games: against OpenSpiel's MCTS with 10 random-rollout simulations (bench.openspiel's seats, play
loop and bot settings), the earlier hint scored 0-12 in these two-player games where it scored 137-184 in the rest
(its plan needed the whole supply; the bot's barriers never helped; the supply ran out with every region mixed).
The hint at the bench's 0.05 CPU-s a call must not collapse there: it scores at least `FLOOR` in each, and wins.
These seeds are regression cases only (never used to tune). One game runs by default, all seven in `make test-slow`.
"""

from __future__ import annotations

import pytest

from bench import deluxe_camping_sparring as sparring

#: The earlier hint's scores in these games were 0-12; the hint now scores 165-186 in them (0.05 CPU-s a call).
FLOOR = 60


@pytest.mark.parametrize(
    ("seed", "seat"),
    [
        pytest.param(seed, seat, marks=() if (seed, seat) == (990007, 0) else pytest.mark.slow)
        for seed, seat in sparring.COLLAPSE_GAMES
    ],
)
def test_the_hint_does_not_collapse_against_mcts(seed: int, seat: int) -> None:
    (row,) = sparring.collapse_games("hint", 0.05, games=((seed, seat),))
    scores = row["scores"]
    assert scores[seat] >= FLOOR, scores
    assert scores[seat] > max(s for p, s in enumerate(scores) if p != seat), scores
