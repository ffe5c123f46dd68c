"""The Campsite hint's tent value tables, built from the fitted growth (`hint_growth.py`).

value[token, base, open, fair] = points now (base x 2 when doubled) + the fitted growth a1 x open + a2 x open^2
(never below 0, never past the most the tent can still gain: 8 matching squares, 6 terrains for Wilderness,
doubled when doubled now), for a tent whose owner has `own` cards still to come this round and the others
`other`. A (players, own, other) not in the fit takes the nearest fitted cell of the nearest player count.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np
from campsolver.solver.campsite.hint_growth import GROWTH

#: What keeping the Wilderness token is worth while the owner still has a later turn this round, subtracted from
#: a new Wilderness tent's value. Why: greedy play spends it early (it scores 4-6 almost anywhere), and the last
#: turns then force a terrain token onto a poor square (self-play of the sparring partners, 60 games: a terrain
#: tent pitched on the owner's 1st turn ends with 11.7 points on average, on the 7th with 6.2; Wilderness
#: pitched on the 6th turn still 9.4). Tuned on self-play (seeds 8,300,000-8,399,999, before the tuning range
#: moved below 7,000,000; disjoint from the report seeds 7,000,000 + game // players).
RESERVE_WILD = 0.0


def _growth_key(players: int, own: int, other: int) -> tuple[int, int, int]:
    if (players, own, other) in GROWTH:
        return (players, own, other)
    counts = sorted({p for p, _, _ in GROWTH}, key=lambda p: (abs(p - players), p))
    for p in counts:
        keys = [k for k in GROWTH if k[0] == p]
        if keys:
            return min(keys, key=lambda k: (abs(k[1] - own) * 3 + abs(k[2] - other), k))
    raise KeyError(players)


@cache
def _table(key: tuple[int, int, int]) -> np.ndarray:
    base = np.arange(9)[:, None, None].astype(np.float64)
    opens = np.arange(9)[None, :, None].astype(np.float64)
    fair = np.arange(2)[None, None, :].astype(np.float64)
    table = np.zeros((7, 9, 9, 2))
    cell = GROWTH[key]
    for token in range(7):
        wild = token == 6
        room = np.maximum((6.0 if wild else 8.0) - base, 0.0) * (1 + fair)
        coefficients = np.array([cell[2 * wild], cell[2 * wild + 1]])  # (fair, 2)
        a1 = coefficients[:, 0][None, None, :]
        a2 = coefficients[:, 1][None, None, :]
        growth = np.clip(a1 * opens + a2 * opens**2, 0.0, None)
        table[token] = base * (1 + fair) + np.minimum(growth, room)
    table.setflags(write=False)
    return table


def tables_for(players: int) -> Callable[[int, int], np.ndarray]:
    """(owner's cards to come, others' cards to come) -> value table (7, 9, 9, 2)."""
    return lambda own, other: _table(_growth_key(players, own, other))


def reserve(players: int, own: int, other: int, wild: float | None = None) -> np.ndarray:
    """Per token, what keeping it for a later turn is worth with `own` of the owner's cards still to come after
    this one (see RESERVE_WILD; `wild` overrides it)."""
    out = np.zeros(7)
    if own >= 1:
        out[6] = RESERVE_WILD if wild is None else wild
    return out
