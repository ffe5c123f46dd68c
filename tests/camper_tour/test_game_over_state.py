"""A Camper Tour state says whether the game goes on.

The rulebook checks the end when a camper reaches the starting plate ("their place marker is also the furthest
ahead"), so the campers as they stand cannot always tell: a camper home who was not furthest ahead when it
arrived leaves the game going on even after the others fall behind it (No Parking). The rules model keeps the
end in the state (`stage` OVER, set only by its transitions) and the wire state carries it (`game_over`).
These tests play the two examples through the rules model and ask every state RPC about them, and play seeded
2-4 camper games with special plates checking Score, LegalMoves and Hint against the rules model on every
state reached, after a proto round trip.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import grpc
import pytest
from campsolver.clients.client import CampsolverClient, CampsolverError
from campsolver.service.errors import InvalidArgument
from campsolver.service.games import camper_tour as service
from campsolver.solver.camper_tour import rules
from campsolver.solver.camper_tour.rules import (
    SPECIAL_KINDS,
    Action,
    Announce,
    Camper,
    Config,
    Phase,
    PlateKind,
    Stage,
    TourState,
    TurnBack,
    ended_by_arrival,
    new_game,
    read_game_over,
    replace,
    validate,
)
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.game import TERMINAL, sample_outcome
from campsolver.solver.core.seeding import rng_for

from campsolver.v1 import camper_tour_pb2 as pb
from campsolver.v1 import common_pb2

A = Announce
#: Example 1: camper 0 goes out to plate 20, turns back and arrives with 7 tokens left (13 points) while camper
#: 1 stands on plate 14: not furthest ahead, the game goes on. Camper 1 then moves onto No Parking (plate 15)
#: and the die sends it back 5 plates, to plate 10.
HOME_13_SCRIPT: tuple[object, ...] = (
    A(2),
    12,
    A(5),
    6,
    A(10),
    12,
    A(9),
    10,
    A(8),
    11,
    A(10),
    5,  # out: camper 0 on plate 20, camper 1 on 14
    TurnBack(),
    A(10),
    12,
    A(10),
    3,
    A(9),
    10,  # camper 0 home: marker 20 - 7 tokens = 13; camper 1 stays on 14
    A(1),
    12,
    5,  # camper 1 onto No Parking (plate 15), die 5: back to plate 10
)
HOME_13_PLATES = {15: PlateKind.NO_PARKING}
#: Example 2: camper 0 arrives with 4 points while camper 1 stands on plate 4 (a tie it could still win by
#: returning later: the game goes on); camper 1 then lands on No Parking (plate 5) and the die sends it to 3.
HOME_4_SCRIPT: tuple[object, ...] = (
    A(3),
    12,
    A(4),
    5,
    A(3),
    12,
    A(10),
    2,  # camper 0 on plate 6 with 7 tokens, camper 1 on plate 4
    TurnBack(),
    A(5),
    10,  # camper 0 home: marker 6 - 2 tokens = 4
    A(1),
    12,
    2,  # camper 1 onto No Parking (plate 5), die 2: back to plate 3
)
HOME_4_PLATES = {5: PlateKind.NO_PARKING}


def play(script: Sequence[object], plates: dict[int, PlateKind], *, campers: int = 2) -> list[TourState]:
    """Every state of a scripted game with the default rules (72 plates, 3 of each special): each step is a
    legal action or a chance outcome the rules model offers; laid plates are normal unless `plates` says."""
    state = new_game(Config(), campers)
    states = [state]
    steps = list(script)
    while steps or state.stage == Stage.LAY:
        if state.stage == Stage.LAY:
            step: object = plates.get(len(state.laid) + 1, PlateKind.NORMAL)
        else:
            step = steps.pop(0)
        if state.current_player() >= 0:
            assert step in state.legal_actions(), (step, state)
        else:
            assert step in [outcome for outcome, p in state.chance_outcomes() if p > 0], (step, state)
        state = state.child(step)
        states.append(state)
    return states


EXAMPLES = {
    "home 13, other back to plate 10": (HOME_13_SCRIPT, HOME_13_PLATES, 13, 10),
    "home 4, other back to plate 3": (HOME_4_SCRIPT, HOME_4_PLATES, 4, 3),
}


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_the_rules_model_plays_on_after_an_arrival_that_did_not_end_the_game(name: str) -> None:
    script, plates, home_score, plate = EXAMPLES[name]
    states = play(script, plates)
    arrived = next(s for s in states if s.campers[0].phase == Phase.FINISHED)
    # At the arrival the other camper stood on a plate at least as far as the score: the game went on.
    assert arrived.campers[0].score == home_score and arrived.campers[1].position >= home_score
    assert not arrived.game_over and not ended_by_arrival(arrived.campers)
    final = states[-1]
    home, other = final.campers
    assert home.score == home_score and other.phase == Phase.OUTWARD and other.position == plate
    # The game goes on: the camper on the route moves, although the campers as they stand would read as over.
    assert not final.game_over and final.current_player() == 1 and final.legal_actions()
    assert ended_by_arrival(final.campers)
    assert read_game_over(final.campers, False) is False and read_game_over(final.campers, None) is True
    validate(final)
    for state in states:
        assert state.game_over == (state.stage == Stage.OVER)
        if state.stage in (Stage.DECIDE, Stage.OVER):
            validate(state)


def test_read_game_over_refuses_what_contradicts_the_campers() -> None:
    home = Camper(phase=Phase.FINISHED, marker=13, tokens=0, arrival=1)
    ahead = [home, Camper(position=14, tokens=12)]  # camper 1 on plate 14 could still pass 13: not over
    with pytest.raises(ValueError, match="not furthest ahead"):
        read_game_over(ahead, True)
    assert read_game_over(ahead, None) is False and read_game_over(ahead, False) is False
    with pytest.raises(ValueError, match="nobody has reached the starting plate"):
        read_game_over([Camper(position=3), Camper(position=5)], True)
    everybody_home = [home, Camper(phase=Phase.FINISHED, marker=9, tokens=0, arrival=2)]
    with pytest.raises(ValueError, match="nobody is on the journey"):
        read_game_over(everybody_home, False)
    assert read_game_over(everybody_home, None) and read_game_over(everybody_home, True)
    # validate holds every state to the same invariant: OVER with a camper travelling needs an arrival ahead.
    config = Config(plate_count=20, specials=())
    with pytest.raises(ValueError, match="not furthest ahead"):
        validate(TourState(config, tuple(ahead), 0, (PlateKind.NORMAL,) * 14, Stage.OVER))
    with pytest.raises(ValueError, match="same arrival number"):
        validate(TourState(config, (home, replace(home, marker=9), Camper(position=2)), 2, (PlateKind.NORMAL,) * 2))


# --- on the wire --------------------------------------------------------------------------------------


def _moves(moves: Sequence[Action | pb.CamperTourMove]) -> list[bytes]:
    """Moves (rules-model actions or move messages) as comparable wire bytes."""
    return [
        (m if isinstance(m, pb.CamperTourMove) else service.move_to_proto(m)).SerializeToString(deterministic=True)
        for m in moves
    ]


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_the_examples_on_the_wire(client: CampsolverClient, name: str) -> None:
    script, plates, home_score, _ = EXAMPLES[name]
    state = play(script, plates)[-1]
    message = service.state_to_proto(state)
    assert message.HasField("game_over") and not message.game_over
    legal = client.camper_tour.legal_moves(pb.CamperTourServiceLegalMovesRequest(state=message), timeout=10)
    assert legal.to_move == 1 and _moves(legal.moves) == _moves(state.legal_actions())
    score = client.camper_tour.score(pb.CamperTourServiceScoreRequest(state=message), timeout=10)
    assert not score.game_over and list(score.scores) == [home_score, 0] and score.winner == 0
    hint = client.camper_tour.hint(
        pb.CamperTourServiceHintRequest(state=message, options=common_pb2.SolveOptions(time_limit_seconds=0.3, seed=1)),
        timeout=10,
    )
    assert sorted(_moves([a.move for a in hint.alternatives])) == sorted(_moves(state.legal_actions()))
    # Unset keeps the old reading (the present taken as the moment of the arrival): over, no moves, no hint.
    message.ClearField("game_over")
    legal = client.camper_tour.legal_moves(pb.CamperTourServiceLegalMovesRequest(state=message), timeout=10)
    assert legal.to_move == -1 and not legal.moves
    with pytest.raises(CampsolverError) as caught:
        client.camper_tour.hint(pb.CamperTourServiceHintRequest(state=message), timeout=10)
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT and caught.value.violations[0].field == "state"


def test_a_game_over_that_contradicts_the_campers_is_refused_naming_the_field(client: CampsolverClient) -> None:
    normal = pb.CamperTourRules(unexpected_comforts=0, mechanical_problem=0, village_festival=0, no_parking=0)
    going_on = pb.CamperTourState(
        rules=normal,
        to_move=1,
        game_over=True,
        campers=[
            pb.Camper(phase=pb.CAMPER_PHASE_FINISHED, marker=13, tokens=0, arrival=1),
            pb.Camper(position=14, phase=pb.CAMPER_PHASE_OUTWARD, tokens=12),
        ],
    )
    all_home = pb.CamperTourState(
        rules=normal,
        game_over=False,
        campers=[
            pb.Camper(phase=pb.CAMPER_PHASE_FINISHED, marker=13, tokens=0, arrival=1),
            pb.Camper(phase=pb.CAMPER_PHASE_FINISHED, marker=9, tokens=0, arrival=2),
        ],
    )
    same_arrival = pb.CamperTourState(
        rules=normal,
        to_move=2,
        campers=[
            pb.Camper(phase=pb.CAMPER_PHASE_FINISHED, marker=13, tokens=0, arrival=1),
            pb.Camper(phase=pb.CAMPER_PHASE_FINISHED, marker=9, tokens=0, arrival=1),
            pb.Camper(position=2, phase=pb.CAMPER_PHASE_OUTWARD, tokens=12),
        ],
    )
    for state, field in (
        (going_on, "state.game_over"),
        (all_home, "state.game_over"),
        (same_arrival, "state.campers[1].arrival"),
    ):
        for call in (client.camper_tour.score, client.camper_tour.legal_moves):
            request = (
                pb.CamperTourServiceScoreRequest
                if call == client.camper_tour.score
                else pb.CamperTourServiceLegalMovesRequest
            )(state=state)
            with pytest.raises(CampsolverError) as caught:
                call(request, timeout=10)
            assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
            assert caught.value.violations[0].field == field


# --- property: every state of seeded games ---------------------------------------------------------------

#: The default table (72 plates, 3 of each special) and a short route dense with specials (No Parking often).
PROPERTY_CONFIGS = (Config(), Config(plate_count=30, specials=tuple((kind, 4) for kind in SPECIAL_KINDS)))
#: Hint is asked on every state where the game's end is in question and on every this-many-th other state.
HINT_EVERY = 40


def _policy(state: TourState, rng) -> Action:  # type: ignore[no-untyped-def]
    """A random legal move, leaning toward turning back as the camper goes further, toward exact arrivals, and
    (short of tokens on the return) toward short announcements whose overshoot moves the place marker back: so
    that games often reach arrivals, and arrivals the others fall behind afterwards."""
    actions = state.legal_actions()
    mover = state.mover
    urge = min(0.6, mover.position / 30 + (0.3 if mover.tokens < 8 else 0.0))
    if TurnBack() in actions and rng.random() < urge:
        return TurnBack()
    if mover.phase == Phase.RETURN:
        home = [a for a in actions if isinstance(a, Announce) and mover.position - a.plates == rules.STARTING_PLATE]
        if home and rng.random() < 0.7:
            return home[0]
        short = [a for a in actions if isinstance(a, Announce) and a.plates <= 2]
        if mover.tokens <= 2 and short:
            return short[int(rng.integers(len(short)))]
    return actions[int(rng.integers(len(actions)))]


def _check_on_the_wire(state: TourState, ask_hint: bool, seed: int) -> None:
    """Score, LegalMoves (and Hint if asked) on `state` after a proto round trip agree with the rules model."""
    wire = pb.CamperTourState.FromString(service.state_to_proto(state).SerializeToString())
    assert service.state_from_proto(wire) == state
    budget = Budget(5.0)
    score = service.score(pb.CamperTourServiceScoreRequest(state=wire), budget)
    winner = state.winner()
    assert score.game_over == state.game_over
    assert list(score.scores) == [c.score for c in state.campers]
    assert score.winner == (-1 if winner is None else winner)
    legal = service.legal_moves(pb.CamperTourServiceLegalMovesRequest(state=wire), budget)
    assert _moves(legal.moves) == _moves(state.legal_actions())
    assert legal.to_move == (-1 if state.game_over else state.to_move)
    if not ask_hint:
        return
    request = pb.CamperTourServiceHintRequest(
        state=wire, options=common_pb2.SolveOptions(time_limit_seconds=0.01, seed=seed)
    )
    if state.game_over:
        with pytest.raises(InvalidArgument) as refused:
            service.hint(request, Budget(0.01))
        assert refused.value.violations[0].field == "state"
        return
    hint = service.hint(request, Budget(0.01))
    assert sorted(_moves([a.move for a in hint.alternatives])) == sorted(_moves(state.legal_actions()))


def play_and_check(games: range) -> Counter[str]:
    """Seeded 2-4 camper games (random legal moves, chance drawn from the rules model's odds); every decision
    state and every final state is validated and checked on the wire. Returns counts of what was seen."""
    seen: Counter[str] = Counter()
    for seed in games:
        rng = rng_for(seed, "camper-tour-game-over-property")
        state = new_game(PROPERTY_CONFIGS[seed % len(PROPERTY_CONFIGS)], 2 + seed % 3, first=seed % 2)
        while True:
            player = state.current_player()
            if player >= 0 or player == TERMINAL:
                validate(state)
                in_question = any(c.phase == Phase.FINISHED for c in state.campers) and (
                    state.game_over or ended_by_arrival(state.campers)
                )
                seen["states"] += 1
                seen["present reads over, game goes on"] += in_question and not state.game_over
                ask = in_question or state.game_over or seen["states"] % HINT_EVERY == 0
                seen["hints"] += ask
                _check_on_the_wire(state, ask, seed)
            if player == TERMINAL:
                seen["ended by an arrival" if any(c.active for c in state.campers) else "ended with nobody left"] += 1
                break
            state = state.child(_policy(state, rng) if player >= 0 else sample_outcome(state, rng))
    return seen


def test_every_state_of_200_seeded_games_agrees_on_the_wire() -> None:
    seen = play_and_check(range(200))
    # The games reach the case in question (an arrival that did not end the game, the others behind it since)
    # and both kinds of end.
    assert seen["present reads over, game goes on"] >= 1
    assert seen["ended by an arrival"] >= 1 and seen["ended with nobody left"] >= 1


@pytest.mark.slow
def test_every_state_of_1000_seeded_games_agrees_on_the_wire() -> None:
    seen = play_and_check(range(1000, 2000))
    assert seen["present reads over, game goes on"] >= 5
    assert seen["ended by an arrival"] >= 1 and seen["ended with nobody left"] >= 1
