"""The solo solver's choice between its exact stack search and its heuristic rests on counting the layouts the
unrevealed stack can still take (`_layout_count`, stopping early once past `EXACT_LAYOUT_LIMIT`). The count is
checked against a brute force of distinct orderings, and the full route is past the limit. Found by the mutation
run: the early stop's test negated made every route look like a single layout, so the exact search was tried (and
abandoned) on the 72-plate route, and no test noticed."""

from __future__ import annotations

from itertools import permutations

import pytest
from campsolver.solver.camper_tour.rules import Config, PlateKind
from campsolver.solver.camper_tour.solo import EXACT_LAYOUT_LIMIT, _layout_count

SMALL = [
    (Config(plate_count=6, specials=((PlateKind.NO_PARKING, 1), (PlateKind.VILLAGE_FESTIVAL, 2))), ()),
    (
        Config(
            plate_count=7,
            specials=((PlateKind.UNEXPECTED_COMFORTS, 2), (PlateKind.MECHANICAL_PROBLEM, 1), (PlateKind.NO_PARKING, 1)),
        ),
        (PlateKind.NORMAL,),
    ),
    (Config(plate_count=5, specials=((PlateKind.VILLAGE_FESTIVAL, 1),)), (PlateKind.VILLAGE_FESTIVAL,)),
]


@pytest.mark.parametrize(("config", "laid"), SMALL)
def test_layout_count_is_the_number_of_distinct_orderings_left(config: Config, laid: tuple[PlateKind, ...]) -> None:
    stack = [PlateKind(k) for k, c in enumerate(config.stack_counts()) for _ in range(c)]
    for kind in laid:
        stack.remove(kind)
    assert _layout_count(config, laid) == len(set(permutations(stack)))


def test_the_full_route_is_past_the_exact_search_limit() -> None:
    assert _layout_count(Config(), ()) > EXACT_LAYOUT_LIMIT
