"""Campsite through a real gRPC server and the CLI; every answer re-checked by the rules model; bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import grpc
import pytest
from campsolver.clients.client import CampsolverClient, CampsolverError
from campsolver.service.games import campsite as cs_service
from campsolver.solver.campsite import rules as R
from campsolver.solver.core.budget import CpuBudget
from google.protobuf import json_format

from campsolver.v1 import campsite_pb2 as pb
from campsolver.v1 import common_pb2
from tests.campsite import oracle

ROOT = Path(__file__).resolve().parents[2]


def turn_of(message: pb.CampsiteTurnState) -> cs_service.Turn:
    return cs_service.Turn(message, "state")


def laid(table: R.Table) -> list[tuple[str, int, int, int]]:
    return [(p.card.text(), p.row, p.col, p.rotation) for p in table.placements]


def tents(table: R.Table) -> list[tuple[int, str, int, int]]:
    return [(t.player, t.token.letter, t.row, t.col) for t in table.tents]


def apply(turn: cs_service.Turn, play: pb.CampsitePlay) -> R.Table:
    placement = cs_service.placement_from_proto(play.placement, "placement")
    tent = cs_service.tent_from_proto(play.tent, "tent")
    assert placement.card in turn.hand and tent.token in turn.tokens and tent.player == turn.player
    return turn.table.place(placement).pitch(tent)  # raises IllegalMove when not legal


@pytest.mark.parametrize("method", [pb.CAMPSITE_MAX_METHOD_EXACT, pb.CAMPSITE_MAX_METHOD_CP_SAT])
def test_max_turn_is_legal_and_equals_the_oracle(client: CampsolverClient, method: int) -> None:
    request = cs_service.EXAMPLES["MaxScore"]()
    request.method = method
    response = client.campsite.max_score(request, timeout=60)
    turn = turn_of(request.turn)
    expected = oracle.best_turn_value(
        laid(turn.table), tents(turn.table), [c.text() for c in turn.hand], "".join(t.letter for t in turn.tokens)
    )
    assert response.score == expected
    assert response.proof in (common_pb2.PROOF_STATUS_EXACT, common_pb2.PROOF_STATUS_OPTIMAL)
    after = apply(turn, response.plays[0])
    assert R.player_scores(after, 2)[0] == response.score
    before = R.player_scores(turn.table, 2)[0]
    assert response.gain == response.score - before


def test_hint_plays_are_legal_ranked_and_gains_are_the_rules_model(client: CampsolverClient) -> None:
    request = cs_service.EXAMPLES["Hint"]()
    response = client.campsite.hint(request, timeout=60)
    turn = turn_of(request.state)
    assert response.objective == common_pb2.OBJECTIVE_MARGIN
    assert response.proof == common_pb2.PROOF_STATUS_HEURISTIC
    values = [a.ranking.value for a in response.alternatives]
    assert values == sorted(values, reverse=True) and len(values) == request.top
    before = R.player_scores(turn.table, 2)
    for alternative in response.alternatives:
        after = R.player_scores(apply(turn, alternative.play), 2)
        assert alternative.immediate_gain == after[0] - before[0]
        assert alternative.opponent_gain == after[1] - before[1]
        assert alternative.ranking.loss == pytest.approx(values[0] - alternative.ranking.value)
    solo = cs_service.EXAMPLES["Hint"]()
    solo.objective = common_pb2.OBJECTIVE_EXPECTED_SCORE
    assert client.campsite.hint(solo, timeout=60).objective == common_pb2.OBJECTIVE_EXPECTED_SCORE


def test_score_and_legal_moves_agree_with_the_rules_model(client: CampsolverClient) -> None:
    request = cs_service.EXAMPLES["Score"]()
    response = client.campsite.score(request, timeout=10)
    table = cs_service.table_from_proto(request.table, "table")
    assert list(response.scores) == R.player_scores(table, 2)
    assert [t.points for t in response.tents] == [oracle.player_total(laid(table), [x], x[0]) for x in tents(table)]
    legal = client.campsite.legal_moves(cs_service.EXAMPLES["LegalMoves"](), timeout=10)
    turn = turn_of(cs_service.EXAMPLES["LegalMoves"]().state)
    assert len(legal.placements) == len(turn.table.legal_placements(turn.hand))
    assert {(c.row, c.col) for c in legal.tent_squares} == set(turn.table.free_squares())
    after = pb.CampsiteServiceLegalMovesRequest(state=cs_service.EXAMPLES["LegalMoves"]().state)
    after.after.CopyFrom(legal.placements[0])
    squares = client.campsite.legal_moves(after, timeout=10).tent_squares
    placed = turn.table.place(cs_service.placement_from_proto(legal.placements[0], "p"))
    assert {(c.row, c.col) for c in squares} == set(placed.free_squares())


def test_puzzle_is_reproducible_unique_and_its_solution_is_the_best(client: CampsolverClient) -> None:
    request = cs_service.EXAMPLES["GeneratePuzzle"]()
    first = client.campsite.generate_puzzle(request, timeout=60)
    second = client.campsite.generate_puzzle(request, timeout=60)
    assert first.state == second.state and first.solution == second.solution
    assert first.puzzle.unique and first.puzzle.proof == common_pb2.PROOF_STATUS_EXACT
    turn = turn_of(first.state)
    after = apply(turn, first.solution)
    assert R.player_scores(after, 2)[0] == first.best_score
    every = list(
        oracle.turns(
            laid(turn.table), tents(turn.table), [c.text() for c in turn.hand], "".join(t.letter for t in turn.tokens)
        )
    )
    best = max(e[-1] for e in every)
    assert best == first.best_score
    # Unique: every oracle play reaching the best is the solution's (same card, tent square and token).
    winners = {(e[0], e[4], e[5], e[6]) for e in every if e[-1] == best}
    sol = first.solution
    token = cs_service.token_from_proto(sol.tent.token, "t").letter
    assert winners == {(sol.placement.card.text, token, sol.tent.row, sol.tent.col)}
    assert first.second_best_score == max(e[-1] for e in every if e[-1] < best)
    assert first.puzzle.question in first.puzzle.text
    assert str(first.best_score) not in first.puzzle.question
    assert first.puzzle.svg.startswith("<svg") and first.puzzle.solution_svg.startswith("<svg")
    assert "stroke-dasharray" in first.puzzle.solution_svg and "stroke-dasharray" not in first.puzzle.svg


def test_max_round_is_legal_and_within_its_bound(client: CampsolverClient) -> None:
    deck = list(R.default_deck())
    order = [pb.CampsiteCard(text=c.text()) for c in deck[::5][:12]]
    request = pb.CampsiteServiceMaxScoreRequest(
        round=pb.CampsiteRound(order=order, turns=3), options=common_pb2.SolveOptions(time_limit_seconds=20)
    )
    response = client.campsite.max_score(request, timeout=60)
    assert response.proof in (common_pb2.PROOF_STATUS_FEASIBLE_WITH_BOUND, common_pb2.PROOF_STATUS_EXACT)
    assert response.score <= response.stats.bound
    cards = [R.parse_card(c.text) for c in order]
    table = R.starting_table(cards[0], cards[1])
    hand = cards[2:5]
    drawn = 5
    used = set()
    for play in response.plays:
        placement = cs_service.placement_from_proto(play.placement, "p")
        tent = cs_service.tent_from_proto(play.tent, "t")
        assert placement.card in hand and tent.token not in used
        hand.remove(placement.card)
        hand.append(cards[drawn])
        drawn += 1
        used.add(tent.token)
        table = table.place(placement).pitch(tent)
    assert R.player_scores(table, 1)[0] == response.score


def test_max_round_of_one_turn_is_exact_and_equals_the_oracle(client: CampsolverClient) -> None:
    deck = list(R.default_deck())
    cards = [deck[7], deck[30], deck[44], deck[12], deck[58], deck[3]]
    request = pb.CampsiteServiceMaxScoreRequest(
        round=pb.CampsiteRound(order=[pb.CampsiteCard(text=c.text()) for c in cards], turns=1)
    )
    response = client.campsite.max_score(request, timeout=60)
    assert response.proof == common_pb2.PROOF_STATUS_EXACT
    start = R.starting_table(cards[0], cards[1])
    assert response.score == oracle.best_turn_value(laid(start), [], [c.text() for c in cards[2:5]], "DFMPWTX")


def expect_error(call, code: grpc.StatusCode, field: str) -> None:
    with pytest.raises(CampsolverError) as caught:
        call()
    assert caught.value.code == code, caught.value
    assert caught.value.violations and caught.value.violations[0].field == field, caught.value.violations


def test_bad_input_names_the_field(client: CampsolverClient) -> None:
    # A card that is not 2 x 3.
    request = cs_service.EXAMPLES["LegalMoves"]()
    request.state.hand[0].text = ""
    request.state.hand[0].rows[:] = ["###", "#"]
    request.state.hand[0].first = pb.TERRAIN_DESERT
    request.state.hand[0].second = pb.TERRAIN_WATER
    expect_error(
        lambda: client.campsite.legal_moves(request, timeout=10), grpc.StatusCode.INVALID_ARGUMENT, "state.hand[0].rows"
    )
    # Overlap on a coloured square.
    request = cs_service.EXAMPLES["Score"]()
    request.table.placements.add(card=pb.CampsiteCard(text="DF #../..."), row=0, col=0)
    expect_error(
        lambda: client.campsite.score(request, timeout=10), grpc.StatusCode.INVALID_ARGUMENT, "table.placements[3]"
    )
    # A card that touches nothing.
    request = cs_service.EXAMPLES["Score"]()
    request.table.placements.add(card=pb.CampsiteCard(text="DF #../..."), row=9, col=9)
    expect_error(
        lambda: client.campsite.score(request, timeout=10), grpc.StatusCode.INVALID_ARGUMENT, "table.placements[3]"
    )
    # A token already used.
    request = cs_service.EXAMPLES["Hint"]()
    request.state.tokens[:] = [pb.TENT_TOKEN_DESERT, pb.TENT_TOKEN_WATER]
    expect_error(lambda: client.campsite.hint(request, timeout=10), grpc.StatusCode.INVALID_ARGUMENT, "state.tokens[1]")
    # A tent on the table surface.
    request = cs_service.EXAMPLES["Score"]()
    request.table.tents.add(player=1, token=pb.TENT_TOKEN_WATER, row=7, col=7)
    expect_error(lambda: client.campsite.score(request, timeout=10), grpc.StatusCode.INVALID_ARGUMENT, "table.tents[2]")
    # A table over the size limit.
    request = cs_service.EXAMPLES["Score"]()
    for k in range(cs_service.MAX_TABLE_CARDS):
        request.table.placements.add(card=pb.CampsiteCard(text="DF #../..."), row=2 + 2 * k, col=0)
    expect_error(
        lambda: client.campsite.score(request, timeout=10), grpc.StatusCode.RESOURCE_EXHAUSTED, "table.placements"
    )
    # A hand over the limit, an unknown rotation, no problem, an unsupported objective, a bad card text.
    request = cs_service.EXAMPLES["MaxScore"]()
    request.turn.hand.extend([pb.CampsiteCard(text="DF #../...")] * 10)
    expect_error(
        lambda: client.campsite.max_score(request, timeout=10), grpc.StatusCode.RESOURCE_EXHAUSTED, "turn.hand"
    )
    request = cs_service.EXAMPLES["Score"]()
    request.table.placements[2].rotation = 4
    expect_error(
        lambda: client.campsite.score(request, timeout=10),
        grpc.StatusCode.INVALID_ARGUMENT,
        "table.placements[2].rotation",
    )
    expect_error(
        lambda: client.campsite.max_score(pb.CampsiteServiceMaxScoreRequest(), timeout=10),
        grpc.StatusCode.INVALID_ARGUMENT,
        "problem",
    )
    request = cs_service.EXAMPLES["Hint"]()
    request.objective = common_pb2.OBJECTIVE_WIN_PROBABILITY
    expect_error(lambda: client.campsite.hint(request, timeout=10), grpc.StatusCode.INVALID_ARGUMENT, "objective")
    request = cs_service.EXAMPLES["Hint"]()
    request.state.hand[1].text = "DD #../..."
    expect_error(lambda: client.campsite.hint(request, timeout=10), grpc.StatusCode.INVALID_ARGUMENT, "state.hand[1]")


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "campsolver.clients.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )


@pytest.mark.parametrize("command", ["max"])
def test_every_command_through_the_cli(command: str) -> None:
    """tests/test_cli.py round-trips every command's example for every game; here the answer is checked too."""
    example = run_cli("campsite", "example", command)
    assert example.returncode == 0, example.stderr
    result = run_cli("campsite", command, "--request", "-", stdin=example.stdout)
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer
    if command == "max":
        response = json_format.ParseDict(answer, pb.CampsiteServiceMaxScoreResponse())
        assert response.proof == common_pb2.PROOF_STATUS_EXACT


def test_cli_bad_input_is_one_line_naming_the_field() -> None:
    request = json_format.MessageToDict(cs_service.EXAMPLES["Score"]())
    request["table"]["placements"][1]["card"]["text"] = "DW ####/..."
    result = run_cli("campsite", "score", "--request", "-", stdin=json.dumps(request))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "INVALID_ARGUMENT" in lines[0] and "table.placements[1].card" in lines[0]


def test_every_terrain_maps_to_the_proto_terrain_of_its_name_and_back() -> None:
    """The expectation from the names, not from the mapping: a swapped terrain entry fails here."""
    for terrain in R.Terrain:
        number = cs_service.TERRAIN_TO_PROTO[terrain]
        assert pb.Terrain.Name(number) == f"TERRAIN_{terrain.name}"
        assert cs_service.TERRAIN_FROM_PROTO[number] is terrain


def test_a_half_turned_twin_card_adds_no_optimal_play_nor_legal_move() -> None:
    """MaxScore's optimal-play count and LegalMoves count one play per resulting picture: adding to the hand a
    different card that is a half turn of one already there changes neither (every resulting table is already
    reachable), and each optimal play counted is a distinct table by the oracle's brute force."""
    counts = []
    for hand in (["WF #.#/.##"], ["WF #.#/.##", "FW ##./#.#"]):
        request = cs_service.EXAMPLES["MaxScore"]()
        del request.turn.hand[:]
        request.turn.hand.extend(pb.CampsiteCard(text=text) for text in hand)
        request.method = pb.CAMPSITE_MAX_METHOD_EXACT
        best = cs_service.max_score(request, CpuBudget(60))
        assert best.proof == common_pb2.PROOF_STATUS_EXACT
        legal = cs_service.legal_moves(pb.CampsiteServiceLegalMovesRequest(state=request.turn), CpuBudget(10))
        turn = turn_of(request.turn)
        # Brute force: every (card, corner, turn, token, square) whose total is the optimum; distinct final tables.
        optimal_tables = {
            (*tuple(sorted(oracle.view([*laid(turn.table), (card, r, c, t)]).items())), (token, tr, tc))
            for card, r, c, t, token, tr, tc, total in oracle.turns(
                laid(turn.table), tents(turn.table), hand, "".join(x.letter for x in turn.tokens)
            )
            if total == best.score
        }
        distinct_layouts = {
            tuple(sorted(oracle.view([*laid(turn.table), (p.card.text, p.row, p.col, p.rotation)]).items()))
            for p in legal.placements
        }
        assert len(distinct_layouts) == len(legal.placements)
        counts.append((best.optimal_plays, len(legal.placements), best.score))
        assert best.optimal_plays == len(_normalised(optimal_tables))
    assert counts[0] == counts[1]


def _normalised(tables: set[tuple]) -> set[tuple]:
    """The oracle names a card's terrains as written (WF, FW): the same picture either way."""
    return {
        (
            *((cell, ("".join(sorted(letters)), coloured, fair)) for cell, (letters, coloured, fair) in table[:-1]),
            table[-1],
        )
        for table in tables
    }
