"""Nature Reserve's roll-independent caps (`max_nature`), shipped as data: the data is what the derivation gives,
the derivation is right on small maps, and no map a legal game draws beats them.

The caps enter the clairvoyant model as constraints (clusters - empty + Nature Reserve <= cap[drawn squares]),
so a cap too low would let CP-SAT "prove" a smaller maximum."""

from __future__ import annotations

import itertools
import json

import pytest
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.cpsat import Proof
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.happy_campers import exhaustive, max_nature, rules
from campsolver.solver.happy_campers.rules import Challenge, Components

from tests.happy_campers.instances import TINY_3x4, random_rolls


def brute_isolated(rows: int, cols: int) -> dict[int, int]:
    """`isolated_profile` by enumerating every drawn/empty pattern."""
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    best: dict[int, int] = {}
    for pattern in itertools.product((0, 1), repeat=len(cells)):
        drawn = {cell for cell, v in zip(cells, pattern, strict=True) if v}

        def around(cell):
            r, c = cell
            return [
                (r + dr, c + dc)
                for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                if 0 <= r + dr < rows and 0 <= c + dc < cols
            ]

        if any(not any(nb in drawn for nb in around(cell)) for cell in drawn):
            continue
        isolated = sum(1 for cell in cells if cell not in drawn and all(nb in drawn for nb in around(cell)))
        best[len(drawn)] = max(best.get(len(drawn), -1), isolated)
    return dict(sorted(best.items()))


@pytest.mark.parametrize(("rows", "cols"), [(3, 4), (4, 3), (2, 5), (4, 4), (1, 6)])
def test_the_column_programme_equals_enumeration(rows, cols):
    assert max_nature.isolated_profile(rows, cols) == brute_isolated(rows, cols)


def test_the_shipped_caps_are_what_their_derivation_gives():
    """The shipped 5x9 table: its isolated-square profile is re-derived here (a second), its caps follow from the
    profile and the absolute maximum's proven bound by the rule in `derive`, and that maximum was proven OPTIMAL."""
    shipped = json.loads(max_nature.CAPS_FILE.read_text())["tables"]
    table = next(t for t in shipped if t["components"] == max_nature._components_key(rules.DEFAULT_COMPONENTS))
    profile = max_nature.isolated_profile(5, 9)
    assert {int(d): iso for d, iso in table["isolated_by_drawn"].items()} == profile
    top = table["absolute_max"]["bound"]
    assert table["absolute_max"]["proof"] == "OPTIMAL" and table["absolute_max"]["score"] == top
    n = rules.DEFAULT_COMPONENTS.cell_count
    assert {int(d): cap for d, cap in table["cap_by_drawn"].items()} == {
        d: min(top, 2 * d - n + 3 * iso) for d, iso in profile.items()
    }
    assert max_nature.caps_for(rules.DEFAULT_COMPONENTS) == {int(d): c for d, c in table["cap_by_drawn"].items()}
    assert max_nature.caps_for(Components(rows=5, cols=8)) is None


def test_a_small_derivation_agrees_with_the_exhaustive_oracle():
    """`derive` on 3x4: its absolute maximum is the exhaustive oracle's, and every drawable map the oracle's search
    can make scores at most its cap (checked on random legal plays)."""
    table = max_nature.derive(TINY_3x4, limit_s=60.0)
    oracle = exhaustive.absolute_max(TINY_3x4, [Challenge.NATURE_RESERVE], budget=Budget(120.0))
    assert table["absolute_max"]["proven"] and table["absolute_max"]["bound"] == oracle.score
    caps = {int(d): c for d, c in table["cap_by_drawn"].items()}
    rng = rng_for(5, "test_max_nature", "tiny")
    for _ in range(200):
        grid = rules.empty_grid(TINY_3x4)
        for roll in random_rolls(rng, 6):
            moves = rules.legal_placements(grid, roll, TINY_3x4)
            if not moves:
                break
            move = moves[int(rng.integers(len(moves)))]
            grid = rules.fill(grid, move.cells, move.element)
        breakdown = rules.score(grid, [Challenge.NATURE_RESERVE], TINY_3x4)
        if not breakdown.complete:
            continue  # the caps bound complete maps (the model's complete phase)
        drawn = sum(1 for row in grid for v in row if v)
        part = (
            sum(breakdown.clusters.values())
            + breakdown.empty_points
            + breakdown.challenge_points[Challenge.NATURE_RESERVE]
        )
        assert part <= caps[drawn], (rules.render_grid(grid), part, caps[drawn])


def random_legal_grid(rng) -> rules.Grid:
    """The default map after 8-20 random rolls, each drawn by a uniformly random legal placement (fewer where one
    finds no place)."""
    grid = rules.empty_grid()
    for roll in random_rolls(rng, int(rng.integers(8, 21))):
        moves = rules.legal_placements(grid, roll)
        if not moves:
            break
        move = moves[int(rng.integers(len(moves)))]
        grid = rules.fill(grid, move.cells, move.element)
    return grid


def test_legal_games_on_the_default_map_stay_under_the_shipped_caps():
    caps = max_nature.caps_for(rules.DEFAULT_COMPONENTS)
    assert caps is not None
    rng = rng_for(6, "test_max_nature", "default")
    for _ in range(150):
        grid = random_legal_grid(rng)
        breakdown = rules.score(grid, [Challenge.NATURE_RESERVE])
        if not breakdown.complete:
            continue
        drawn = sum(1 for row in grid for v in row if v)
        part = (
            sum(breakdown.clusters.values())
            + breakdown.empty_points
            + breakdown.challenge_points[Challenge.NATURE_RESERVE]
        )
        assert part <= caps[drawn]


@pytest.mark.slow
def test_the_shipped_absolute_maximum_is_proven_again():
    """The 5x9 absolute maximum with Nature Reserve, re-proven by CP-SAT (about 6 CPU-s on a quiet machine)."""
    from campsolver.solver.happy_campers.maximise import absolute_max

    shipped = json.loads(max_nature.CAPS_FILE.read_text())["tables"]
    table = next(t for t in shipped if t["components"] == max_nature._components_key(rules.DEFAULT_COMPONENTS))
    result = absolute_max(rules.DEFAULT_COMPONENTS, [Challenge.NATURE_RESERVE], Budget(300.0))
    assert result.proof is Proof.OPTIMAL
    assert result.score == table["absolute_max"]["bound"]
