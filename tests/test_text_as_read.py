"""`--format text` as a person reads it: Camper Tour's Play draws the board after the move (the position the
answer is about, not the one sent), and a 0 that is a value is printed (a challenge that scored no points,
player 0 owning a site or winning, no barriers left), while zeros that say nothing stay out of the way."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from campsolver.clients.textout import inline, render
from campsolver.service import dispatch
from campsolver.service.games import camper_tour as ct_service
from campsolver.service.registry import games
from campsolver.solver.camper_tour.render import text_board
from campsolver.solver.core.budget import Budget
from google.protobuf import json_format

from campsolver.v1 import camper_tour_pb2 as ct_pb
from campsolver.v1 import common_pb2
from campsolver.v1 import deluxe_camping_pb2 as dc_pb
from campsolver.v1 import happy_campers_pb2 as hc_pb

ROOT = Path(__file__).resolve().parents[1]


def _run(game_name: str, command_name: str, request: object) -> object:
    command = games()[game_name].commands[command_name]
    return dispatch.run(command, request, Budget(10.0))


def test_camper_tour_play_draws_the_board_after_the_move() -> None:
    request = games()["camper-tour"].commands["play"].example()
    response = _run("camper-tour", "play", request)
    before = text_board(ct_service.state_from_proto(request.state))
    after = text_board(ct_service.state_from_proto(response.state))
    assert before != after, "the example's move changes the board"
    text = render("camper-tour", request, response)
    assert text.startswith(after) and before not in text
    # The board agrees with the turn printed under it: the camper marked to move is the one the turn names.
    assert f"to move: player {response.turn.to_move}" in text
    mover = "ABCD"[response.turn.to_move]
    assert f"\n{mover} (to move):" in text


def test_camper_tour_new_game_draws_the_new_table_and_listed_outcomes_say_which_board_they_follow() -> None:
    new = ct_pb.CamperTourServiceNewGameRequest(players=2, seed=7)
    table = _run("camper-tour", "new", new)
    assert render("camper-tour", new, table).startswith(text_board(ct_service.state_from_proto(table.state)))
    listing = ct_pb.CamperTourServicePlayRequest(
        state=table.state, move=ct_pb.CamperTourMove(announce=2), list_outcomes=True
    )
    outcomes = _run("camper-tour", "play", listing)
    assert list(outcomes.outcomes) and not outcomes.HasField("state")
    text = render("camper-tour", listing, outcomes)
    assert text.startswith("Before the move") and text_board(ct_service.state_from_proto(table.state)) in text


def test_the_cli_play_text_shows_the_board_after_the_move() -> None:
    """What the person ran: `campsolver camper-tour play --format text` on the README's table."""
    table = subprocess.run(
        [sys.executable, "-m", "campsolver", "camper-tour", "new", "--request", "-"],
        input='{"players": 2, "seed": 7}',
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=True,
    ).stdout
    play = json.dumps({"state": json.loads(table)["state"], "move": {"announce": 3}, "seed": 1})
    played = subprocess.run(
        [sys.executable, "-m", "campsolver", "camper-tour", "play", "--request", "-", "--format", "text"],
        input=play,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=True,
    ).stdout
    answer = ct_service.play(json_format.Parse(play, ct_pb.CamperTourServicePlayRequest()), Budget(10.0))
    assert played.startswith(text_board(ct_service.state_from_proto(answer.state)))
    assert "A (to move): at the start" not in played  # the board before the move had camper A to move, off route


def test_a_challenge_with_no_points_says_points_0() -> None:
    request = games()["happy-campers"].commands["score"].example()
    response = _run("happy-campers", "score", request)
    zero = [d.name for d in response.score.details if d.points == 0]
    assert zero, "the example has a challenge that scored nothing"
    text = render("happy-campers", request, response)
    for name in zero:
        assert f"name {name}, points 0" in text, text


def test_player_0_owning_a_site_and_winning_and_no_barriers_left_are_printed() -> None:
    response = dc_pb.DeluxeCampingServiceScoreResponse(
        scores=[7, 0],
        game_over=True,
        winner=0,
        barriers_left=0,
        sites=[
            dc_pb.DeluxeCampingSite(squares=[dc_pb.DeluxeCampingSquare(row=0, col=0)], owner=0, points=7),
            dc_pb.DeluxeCampingSite(squares=[dc_pb.DeluxeCampingSquare(row=1, col=1)], owner=1, points=0),
        ],
        details=[common_pb2.ScoreDetail(name="player 1 sites", points=0)],
    )
    text = render("deluxe-camping", dc_pb.DeluxeCampingServiceScoreRequest(), response)
    assert "scores: 7, 0" in text
    assert "winner: 0" in text and "barriers left: 0" in text
    assert "squares r0c0, owner 0, points 7" in text and "squares r1c1, owner 1, points 0" in text
    assert "name player 1 sites, points 0" in text


def test_zeros_that_say_nothing_stay_out() -> None:
    """A list of drawings all on turn 0 of map 0 (the multi-player game's legal moves) does not repeat it; where
    the maps differ (the solo game's two maps), map 0 is said."""
    request = games()["happy-campers"].commands["legal"].example()
    text = render("happy-campers", request, _run("happy-campers", "legal", request))
    assert "turn 0" not in text and "map index 0" not in text
    moves = [
        hc_pb.HappyCampersPlacement(map_index=0, shape_face=1),
        hc_pb.HappyCampersPlacement(map_index=1, shape_face=1),
    ]
    lines = render("happy-campers", request, hc_pb.HappyCampersServiceLegalMovesResponse(moves=moves))
    assert "map index 0" in lines and "map index 1" in lines
    assert "map index" not in inline(hc_pb.HappyCampersPlacement(shape_face=1))


def test_a_max_that_fell_back_says_the_time_it_really_took() -> None:
    """A Happy Campers max whose CP-SAT found no map before the deadline answers the rule of thumb's play, whose
    own stats count 0 s: the text said "solved in 0.00 s" after seconds of search. It says the call's time."""
    request = games()["happy-campers"].commands["max"].example()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "campsolver",
            "happy-campers",
            "max",
            "--request",
            "-",
            "--format",
            "text",
            "--timeout",
            "0.3",
        ],
        input=json_format.MessageToJson(request),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=True,
    ).stdout
    summary = next(line for line in done.splitlines() if line.startswith("solved in "))
    seconds = float(summary.removeprefix("solved in ").split(" s")[0])
    # the search ran until its deadline: 0.3 s less the reply's margin (0.15 s) leaves it 0.15 s; before, 0.00
    assert seconds >= 0.1, summary
    stats = common_pb2.SolveStats(wall_time_seconds=0.0, method="fallback")
    response = hc_pb.HappyCampersServiceMaxScoreResponse(stats=stats)
    assert render("happy-campers", request, response, elapsed_s=11.04).endswith("solved in 11.04 s, method fallback")
    assert render("happy-campers", request, response).endswith("solved in 0.00 s, method fallback")


def test_a_max_that_fell_back_states_its_search_time_on_the_wire() -> None:
    """The JSON answer of a max that fell back to the rule of thumb states the time the search ran (JSON clients
    never see the CLI's own clock), not the fallback's 0 s."""
    request = games()["happy-campers"].commands["max"].example()
    done = subprocess.run(
        [sys.executable, "-m", "campsolver", "happy-campers", "max", "--request", "-", "--timeout", "0.3"],
        input=json_format.MessageToJson(request),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=True,
    ).stdout
    answer = json.loads(done)
    assert "found no map" in answer["stats"]["method"], answer["stats"]  # the case this pins: it fell back
    assert answer["stats"]["wallTimeSeconds"] >= 0.1, answer["stats"]  # 0.3 s less the reply margin (0.15 s)
