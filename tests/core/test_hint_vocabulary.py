"""Every game on the shared hint vocabulary (solver/core/hint.py, docs/architecture.md): `hint(state, budget, *,
options)` with a frozen `HintOptions`, a result on `HintResultBase` whose choices are `RankedChoice`s, and the
shared fields filled the same way: each choice legal in the rules model, values best first within the ranked
quantity, `loss` = best value - value there, a note on every choice, the method and the CPU time."""

from __future__ import annotations

import dataclasses
import inspect
import random

import numpy as np
import pytest
from campsolver.solver.adventure_tours import hint as at_hints
from campsolver.solver.camper_tour import hint as ct_hints
from campsolver.solver.campsite import hint as cs_hints
from campsolver.solver.campsite import rules as cs_rules
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.game import CHANCE
from campsolver.solver.core.hint import HintResultBase, RankedChoice, losses_from_best
from campsolver.solver.deluxe_camping import hint as dc_hints
from campsolver.solver.deluxe_camping import rules as dc_rules
from campsolver.solver.happy_campers import hint as hc_hints

#: The games on the vocabulary: (hint module, its ranked-choice class, the state it takes as annotated: the rules
#: model's state named after the game; Happy Campers: its rules states or one map alone, `HintState`; Adventure Tours:
#: what the deciding seat sees, `Observation`).
GAMES = {
    "deluxe_camping": (dc_hints, dc_hints.RankedMove, ("DeluxeCampingState", "DCState")),
    "campsite": (cs_hints, cs_hints.RankedPlay, ("CampsiteState",)),
    "happy_campers": (hc_hints, hc_hints.HintAlternative, ("HintState",)),
    "camper_tour": (ct_hints, ct_hints.RankedMove, ("CamperTourState",)),
    "adventure_tours": (at_hints, at_hints.RankedPlay, ("Observation",)),
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_hint_takes_its_state_a_budget_and_frozen_options(game: str) -> None:
    module, ranked, state_names = GAMES[game]
    parameters = inspect.signature(module.hint).parameters
    assert list(parameters) == ["state", "budget", "options"]
    assert parameters["options"].kind is inspect.Parameter.KEYWORD_ONLY
    annotation = parameters["state"].annotation
    assert getattr(annotation, "__name__", annotation) in state_names
    assert dataclasses.fields(module.HintOptions) and module.HintOptions.__dataclass_params__.frozen
    module.HintOptions()  # every knob has a default
    assert issubclass(module.HintResult, HintResultBase) and issubclass(ranked, RankedChoice)


def _dc_position() -> dc_rules.DeluxeCampingState:
    rng = np.random.default_rng(4)
    state = dc_rules.random_setup(dc_rules.Config(players=2), rng)
    for _ in range(8):
        actions = state.legal_actions()
        state = state.child(actions[int(rng.integers(len(actions)))])
    while state.stage not in (dc_rules.Stage.MOVE, dc_rules.Stage.OVER):
        state = state.child(state.legal_actions()[0])
    return state


def _cs_position() -> cs_rules.CampsiteState:
    rng = random.Random(6)
    state = cs_rules.new_game(3)
    while state.current_player() == CHANCE or state.turn < 4 or state.stage is not cs_rules.Stage.CARD:
        if state.current_player() == CHANCE:
            state = state.child(sorted(state.pile)[rng.randrange(len(state.pile))])
            continue
        actions = state.legal_actions()
        state = state.child(actions[rng.randrange(len(actions))])
    return state


def test_the_shared_fields_mean_the_same_in_every_game() -> None:
    dc_state, cs_state = _dc_position(), _cs_position()
    dc = dc_hints.hint(dc_state, Budget(60))
    cs = cs_hints.hint(cs_state, Budget(60), options=cs_hints.HintOptions(seed=2, max_worlds=4))
    dc_legal = set(dc_state.legal_actions())
    assert {c.choice for c in dc.choices} == dc_legal
    for placement, tent in (c.choice for c in cs.choices):
        after = cs_state.child(cs_rules.PlayCard(placement))  # the rules model refuses an illegal play
        after.child(cs_rules.PitchTent(tent.token, tent.row, tent.col))
    for result in (dc, cs):
        assert result.method and result.cpu_time_s >= 0 and result.wall_time_s >= 0 and result.best is result.choices[0]
        assert all(c.note for c in result.choices)
        compared = [c for c in result.choices if c.loss is not None]
        assert compared and compared[0] is result.choices[0] and compared[0].loss == 0
        values = [c.value for c in compared]
        assert values == sorted(values, reverse=True)  # type: ignore[type-var]
        for c in compared:
            assert c.loss == pytest.approx(compared[0].value - c.value)  # type: ignore[operator]


def test_losses_from_best_in_either_direction() -> None:
    choices = [RankedChoice(choice=k, value=v) for k, v in enumerate([5.0, 3.5, None, 1.0])]
    losses_from_best(choices)
    assert [c.loss for c in choices] == [0.0, 1.5, None, 4.0]
    lowest = [RankedChoice(choice=k, value=v) for k, v in enumerate([1.0, 2.0])]
    losses_from_best(lowest, maximise=False)
    assert [c.loss for c in lowest] == [0.0, 1.0]


def test_happy_campers_result_is_on_the_shared_base() -> None:
    """Happy Campers answers on the shared result: legal choices, a note on each, losses against the best value,
    the method and the CPU time."""
    from campsolver.solver.happy_campers import rules as hc_rules

    grid = hc_rules.empty_grid(hc_rules.DEFAULT_COMPONENTS)
    result = hc_hints.hint(
        hc_hints.turn_state(grid, (2, 5)), Budget(60), options=hc_hints.HintOptions(seed=3, rollouts=80)
    )
    assert isinstance(result, HintResultBase) and all(isinstance(c, hc_hints.HintAlternative) for c in result.choices)
    assert isinstance(result.best, RankedChoice) and result.best is result.choices[0]
    legal = set(hc_rules.legal_placements(grid, (2, 5)))
    listed = [c.choice.placements[0] for c in result.choices]
    assert len(listed) == len(legal) and set(listed) == legal
    assert result.method and result.cpu_time_s >= 0 and result.wall_time_s >= 0
    assert all(c.note for c in result.choices)
    assert result.alternatives == tuple(result.choices) and result.best.move is result.best.choice
    compared = [c for c in result.choices if c.loss is not None]
    assert compared and compared[0] is result.choices[0] and compared[0].loss == 0
    for c in compared:
        assert c.loss == pytest.approx(compared[0].value - c.value)  # type: ignore[operator]


def test_camper_tour_and_adventure_tours_fill_the_shared_fields() -> None:
    """Camper Tour and Adventure Tours on the shared result: every legal choice listed once, `exact` exactly where
    the proof says so, `loss` the shortfall against the best value, the method and the times; the older names
    (`moves` / `action`, `plays` / `play`) read the same as `choices` / `choice`."""
    from campsolver.solver.adventure_tours.information import observe
    from campsolver.solver.camper_tour import rules as ct_rules
    from campsolver.solver.core.proof import Proof

    from tests.adventure_tours.test_hint import tiny_position

    route = ct_rules.Config(plate_count=40, starting_tokens=25)
    campers = [
        ct_rules.Camper(position=9, tokens=5, phase=ct_rules.Phase.RETURN, marker=20),
        ct_rules.Camper(position=6, tokens=4, phase=ct_rules.Phase.RETURN, marker=19),
    ]
    ct_state = ct_rules.position_state(route, campers)
    ct = ct_hints.hint(
        ct_state, Budget(60), options=ct_hints.HintOptions(max_depth=2, objective=ct_hints.Objective.EXPECTED_SCORE)
    )
    assert sorted(map(repr, (c.choice for c in ct.choices))) == sorted(map(repr, ct_state.legal_actions()))
    assert ct.moves == tuple(ct.choices) and all(c.action is c.choice for c in ct.choices)
    at_state = tiny_position()
    at_exact = at_hints.hint(observe(at_state, 0), Budget(60))
    at_sampled = at_hints.hint(
        observe(at_state, 0), Budget(60), options=at_hints.HintOptions(seed=1, allow_exact=False, max_samples=8)
    )
    assert at_exact.proof is Proof.EXACT and all(c.exact for c in at_exact.choices)
    assert at_sampled.proof is Proof.HEURISTIC and not any(c.exact for c in at_sampled.choices)
    for result in (at_exact, at_sampled):
        assert result.plays == list(result.choices) and all(c.play is c.choice for c in result.choices)
        for choice in result.choices:
            end = at_state
            for action in choice.choice:  # the rules model refuses an illegal play
                end = end.child(action)
    for result in (ct, at_exact, at_sampled):
        assert result.method and result.cpu_time_s >= 0 and result.wall_time_s >= 0 and result.best is result.choices[0]
        assert all(c.exact == (result.proof is Proof.EXACT) for c in result.choices)
        valued = [c for c in result.choices if c.loss is not None]
        assert valued and max(c.value for c in valued) == valued[0].value
        for c in valued:
            assert c.loss == pytest.approx(valued[0].value - c.value) and c.loss >= 0
