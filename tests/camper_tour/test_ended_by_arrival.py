"""`ended_by_arrival` read on its own (it is the reading of a table whose sender does not say whether the game
goes on): a table with nobody on the journey is over, whoever finished or dropped out; one with a camper still
travelling and nobody home is not. Found by the mutation run: the first answer negated survived every test (the
callers in the rules model check that case before they ask)."""

from __future__ import annotations

from campsolver.solver.camper_tour.rules import Camper, Phase, ended_by_arrival


def test_nobody_on_the_journey_is_over() -> None:
    home = Camper(position=0, phase=Phase.FINISHED, marker=5, tokens=1, arrival=1)
    out = Camper(position=0, phase=Phase.ELIMINATED)
    assert ended_by_arrival([home, Camper(position=0, phase=Phase.FINISHED, marker=7, tokens=0, arrival=2)])
    assert ended_by_arrival([home, out])
    assert ended_by_arrival([out, out])


def test_a_camper_travelling_with_nobody_home_is_not_over() -> None:
    assert not ended_by_arrival([Camper(position=3), Camper(position=5, phase=Phase.RETURN, marker=6)])
