"""Campsite players for self-play: the hint, the greedy baseline and a uniformly random legal player.

They live in the solver package (not in the bench) so the installed batch client's tournaments and the repo's
bench seat the same players: one definition. A policy returns the whole turn, `(placement, tent)`; the caller
plays it through the rules model (`PlayCard` then `PitchTent`), which rejects an illegal move.
"""

from __future__ import annotations

import random

from campsolver.solver.campsite import hint as hints
from campsolver.solver.campsite import rules as R
from campsolver.solver.core.budget import Budget

#: CPU seconds a hint call needs to rank every play of a turn (4 players, late in a round: at most 0.12 CPU-s
#: measured on 200 games). A budget cut ranks only the first placements (card by card), and at 0.05 CPU-s that
#: was half the 4-player turns and lost the hint its edge over greedy (bench/results/campsite.md).
HINT_CPU_S = 0.15


def play_options(state: R.CampsiteState, seed: int = 0, **options: object) -> hints.HintOptions:
    """The hint's options in self-play: the best play only, the cards still to come in this round from the
    state's turn, `seed`, and any other knob of `hints.HintOptions` given by name."""
    cards_to_come = R.TURNS_PER_ROUND * state.players - state.turn - 1
    return hints.HintOptions(top=1, cards_to_come=cards_to_come, seed=seed, **options)  # type: ignore[arg-type]


def hint_policy(state: R.CampsiteState, budget: Budget, seed: int = 0, **options: object) -> tuple[R.Placement, R.Tent]:
    """The hint's best play (whatever it ranked within `budget`)."""
    best = hints.hint(state, budget, options=play_options(state, seed, **options)).choices[0]
    return best.placement, best.tent


def greedy_policy(state: R.CampsiteState, budget: Budget) -> tuple[R.Placement, R.Tent]:
    """The play with the best immediate own gain (the bench's baseline)."""
    seat = state.to_move
    return hints.greedy_play(state.table, state.hands[seat], state.tokens[seat], seat, state.players, budget)


def random_policy(state: R.CampsiteState, rng: random.Random) -> tuple[R.Placement, R.Tent]:
    """A uniformly random legal card placement, then a uniformly random legal tent on the new table."""
    play = state.legal_actions()
    card = play[rng.randrange(len(play))]
    assert isinstance(card, R.PlayCard)
    pitches = state.child(card).legal_actions()
    pitch = pitches[rng.randrange(len(pitches))]
    assert isinstance(pitch, R.PitchTent)
    return card.placement, R.Tent(state.to_move, pitch.token, pitch.row, pitch.col)
