"""The Camper Tour position's text (board description and puzzle question) counts tokens in English."""

from __future__ import annotations

from dataclasses import replace

from campsolver.solver.camper_tour import render
from campsolver.solver.camper_tour.rules import Phase, new_game


def test_one_token_is_singular_and_others_plural() -> None:
    state = new_game(campers=2)
    one = replace(state.campers[0], tokens=1)
    three = replace(state.campers[1], tokens=3, phase=Phase.RETURN, position=4, marker=6)
    text = render.text_board(replace(state, campers=(one, three)))
    assert "1 token" in text and "1 tokens" not in text
    assert "3 tokens" in text
