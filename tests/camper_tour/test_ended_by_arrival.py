"""`ended_by_arrival` read on its own (it is the reading of a table whose sender does not say whether the game
goes on): a table with nobody on the journey is over, whoever finished or dropped out; one with a camper still
travelling and nobody home is not; a table near the start is read by the arrival rule. Found by the mutation
run: the first answer negated (the rules model's own callers check that case before they ask), and the route read
from the campers allowed to be 1 plate long, survived every test."""

from __future__ import annotations

from dataclasses import replace

import pytest
from campsolver.solver.camper_tour.rules import Camper, Config, Phase, TourState, ended_by_arrival, validate


def test_nobody_on_the_journey_is_over() -> None:
    home = Camper(position=0, phase=Phase.FINISHED, marker=5, tokens=1, arrival=1)
    out = Camper(position=0, phase=Phase.ELIMINATED)
    assert ended_by_arrival([home, Camper(position=0, phase=Phase.FINISHED, marker=7, tokens=0, arrival=2)])
    assert ended_by_arrival([home, out])
    assert ended_by_arrival([out, out])


def test_a_camper_travelling_with_nobody_home_is_not_over() -> None:
    assert not ended_by_arrival([Camper(position=3), Camper(position=5, phase=Phase.RETURN, marker=6)])


def test_a_table_near_the_start_is_read_by_the_arrival_rule() -> None:
    """Every camper at home or on plate 1 (a route read from the campers is still at least 2 plates long): over
    when the camper home is strictly ahead of the outward one, not over when the outward one could still tie."""
    starting = Camper(position=1)
    assert ended_by_arrival([Camper(position=0, phase=Phase.FINISHED, marker=5, tokens=0, arrival=1), starting])
    assert not ended_by_arrival([Camper(position=0, phase=Phase.FINISHED, marker=1, tokens=1, arrival=1), starting])


def test_the_rules_model_refuses_a_finished_marker_beyond_the_route_only() -> None:
    """`validate`: a camper home with its marker past the last plate is refused; an outward camper (marker 0) and
    a camper home within the route are not."""
    config = Config(plate_count=10, specials=())
    home = Camper(position=0, phase=Phase.FINISHED, marker=10, tokens=0, arrival=1)
    validate(TourState(config=config, campers=(home, Camper()), to_move=1))
    with pytest.raises(ValueError, match="beyond the route"):
        validate(TourState(config=config, campers=(replace(home, marker=11), Camper()), to_move=1))
