"""NewGame and Play of every game over gRPC: seeded games from the setup to the end with moves from LegalMoves,
every state checked by Score and LegalMoves (and Hint where a player decides), final scores equal to the rules
model's, listed chance outcomes summing to exactly 1, illegal moves INVALID_ARGUMENT naming the field, and the
CLI's exit 2 with one line on a bad move."""

from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import grpc
import pytest
from campsolver.clients import CampsolverError
from campsolver.service.games import adventure_tours as at_service
from campsolver.service.games import camper_tour as ct_service
from campsolver.service.games import campsite as cs_service
from campsolver.service.games import deluxe_camping as dc_service
from campsolver.service.games import happy_campers as hc_service
from campsolver.service.games import protocol
from campsolver.solver.core.budget import Budget
from google.protobuf import json_format

from campsolver.v1 import adventure_tours_pb2 as at
from campsolver.v1 import camper_tour_pb2 as ct
from campsolver.v1 import campsite_pb2 as cs
from campsolver.v1 import common_pb2
from campsolver.v1 import deluxe_camping_pb2 as dc
from campsolver.v1 import happy_campers_pb2 as hc

ROOT = Path(__file__).resolve().parents[1]
#: A short hint budget: the test checks the state is accepted, not the hint's quality.
HINT_OPTIONS = common_pb2.SolveOptions(time_limit_seconds=0.2, seed=1)


def _state_request(pb: Any, name: str, state: Any, **fields: Any) -> Any:
    """A Score/LegalMoves/Hint request holding a NewGame/Play state (as `state`, or `game` where the state
    message is the game's whole-game message)."""
    request_type = getattr(pb, name)
    key = "game" if "game" in request_type.DESCRIPTOR.fields_by_name else "state"
    return request_type(**{key: state}, **fields)


def _pick_simple(pb: Any, prefix: str) -> Callable[[Any, Any, Any, random.Random], Any]:
    def pick(client: Any, state: Any, turn: Any, rng: random.Random) -> Any:
        moves = client.legal_moves(_state_request(pb, f"{prefix}ServiceLegalMovesRequest", state), timeout=30).moves
        assert moves, "a player decides, so there is a legal move"
        return rng.choice(list(moves))

    return pick


def _pick_happy_campers(client: Any, state: Any, turn: Any, rng: random.Random) -> Any:
    moves = client.legal_moves(hc.HappyCampersServiceLegalMovesRequest(game=state), timeout=30).moves
    assert moves
    return hc.HappyCampersHintMove(placements=[rng.choice(list(moves))])


def _pick_campsite(client: Any, state: Any, turn: Any, rng: random.Random) -> Any:
    placement = rng.choice(list(client.legal_moves(cs.CampsiteServiceLegalMovesRequest(game=state)).placements))
    after = client.legal_moves(cs.CampsiteServiceLegalMovesRequest(game=state, after=placement), timeout=30)
    square = rng.choice(list(after.tent_squares))
    tent = cs.CampsiteTent(player=turn.to_move, token=rng.choice(list(after.tokens)), row=square.row, col=square.col)
    return cs.CampsitePlay(placement=placement, tent=tent)


def _final_scores(parse: Callable[[Any], Any], scores: Callable[[Any], list[int]]) -> Callable[[Any], list[int]]:
    return lambda message: scores(parse(message))


#: game -> (its pb module, message prefix, NewGame fields, move picker, final scores by the rules model)
GAMES: dict[str, tuple[Any, str, dict[str, Any], Any, Callable[[Any], list[int]]]] = {
    "happy-campers": (
        hc,
        "HappyCampers",
        {"players": 3, "challenges": [hc.CHALLENGE_FESTIVAL]},
        _pick_happy_campers,
        _final_scores(hc_service.game_from_proto, lambda s: list(s.final_scores())),
    ),
    "deluxe-camping": (
        dc,
        "DeluxeCamping",
        {"players": 2},
        _pick_simple(dc, "DeluxeCamping"),
        _final_scores(dc_service.state_from_proto, lambda s: list(s.scores())),
    ),
    "campsite": (
        cs,
        "Campsite",
        {"players": 2},
        _pick_campsite,
        _final_scores(cs_service.game_from_proto, lambda s: list(s.totals)),
    ),
    "camper-tour": (
        ct,
        "CamperTour",
        {"players": 3},
        _pick_simple(ct, "CamperTour"),
        _final_scores(ct_service.state_from_proto, lambda s: [c.score for c in s.campers]),
    ),
    "adventure-tours": (
        at,
        "AdventureTours",
        {"players": 3},
        _pick_simple(at, "AdventureTours"),
        _final_scores(at_service.game_state_from_proto, lambda s: list(s.totals)),
    ),
}


def _check_listing(response: Any) -> None:
    total = sum(Fraction(o.probability.numerator, o.probability.denominator) for o in response.outcomes)
    assert total == 1, f"listed probabilities sum to {total}"
    for outcome in response.outcomes:
        assert outcome.label
        assert abs(outcome.probability.value - outcome.probability.numerator / outcome.probability.denominator) < 1e-12


@pytest.mark.parametrize("name", list(GAMES))
def test_a_seeded_game_from_new_game_to_the_end(client: Any, name: str) -> None:
    pb, prefix, settings, pick, final_scores = GAMES[name]
    game = client.game(name)
    new = game.new_game(getattr(pb, f"{prefix}ServiceNewGameRequest")(seed=7, want_picture=True, **settings))
    again = game.new_game(getattr(pb, f"{prefix}ServiceNewGameRequest")(seed=7, **settings))
    assert again.state == new.state, "the same seed gives the same game"
    assert "<svg" in new.picture_svg and not again.picture_svg
    state, turn = new.state, new.turn
    rng = random.Random(7)
    listed = hinted = 0
    for step in range(1, 400):
        assert game.score(_state_request(pb, f"{prefix}ServiceScoreRequest", state), timeout=30)
        if turn.game_over:
            break
        assert turn.HasField("to_move") and not turn.chance_next, "chance is resolved from the seed"
        assert turn.description.startswith(("player", "camper"))
        if hinted < 2:
            hint = game.hint(_state_request(pb, f"{prefix}ServiceHintRequest", state, options=HINT_OPTIONS))
            assert hint.alternatives
            hinted += 1
        move = pick(game, state, turn, rng)
        if listed < 2:
            try:
                listing = game.play(
                    getattr(pb, f"{prefix}ServicePlayRequest")(state=state, move=move, list_outcomes=True)
                )
            except CampsolverError as error:  # too many outcomes to list: the field says what to change
                assert error.code == grpc.StatusCode.RESOURCE_EXHAUSTED, error
                assert error.violations[0].field == "list_outcomes"
                listing = None
            if listing is not None and listing.outcomes:
                _check_listing(listing)
                listed += 1
        answer = game.play(getattr(pb, f"{prefix}ServicePlayRequest")(state=state, move=move, seed=step))
        assert not answer.outcomes
        state, turn = answer.state, answer.turn
    assert turn.game_over and not turn.HasField("to_move")
    assert list(turn.scores) == final_scores(state)
    assert (turn.winners and all(turn.scores[w] == max(turn.scores) for w in turn.winners)) or name == "camper-tour"
    assert hinted >= 1
    assert listed >= 1 or name == "deluxe-camping", "a move followed by chance was listed"


def test_happy_campers_waits_on_the_dice_and_lists_the_roll() -> None:
    """A state may wait on chance: Play with no move lists the 21 rolls (1/36 a double, 2/36 otherwise) or
    resolves them from a seed."""
    new = hc_service.new_game(hc.HappyCampersServiceNewGameRequest(players=1, seed=3), budget=None)
    state = new.state
    move = hc.HappyCampersHintMove(
        placements=[
            hc_service.placement_to_proto(a.placement, map_index=a.map_index)
            for a in _solo_turn(hc_service.game_from_proto(state))
        ]
    )
    waiting = hc_service.play(hc.HappyCampersServicePlayRequest(state=state, move=move), budget=None)
    assert waiting.turn.chance_next and not waiting.turn.HasField("to_move")
    assert waiting.turn.description.startswith("chance")
    listed = hc_service.play(hc.HappyCampersServicePlayRequest(state=waiting.state, list_outcomes=True), budget=None)
    assert len(listed.outcomes) == 21
    _check_listing(listed)
    assert {o.probability.denominator for o in listed.outcomes} == {36, 18}
    assert listed.turn.chance_next, "the state message holds the chance state itself"
    rolled = hc_service.play(hc.HappyCampersServicePlayRequest(state=waiting.state, seed=5), budget=None)
    assert rolled.state in [o.state for o in listed.outcomes]


def _solo_turn(state: Any) -> list[Any]:
    """The first legal solo turn: one drawing, or two on a two-map turn."""
    first = state.legal_actions()[0]
    after = state.child(first)
    return [first, after.legal_actions()[0]] if after.current_player() == 0 and after.roll is not None else [first]


def _illegal(name: str, client: Any) -> tuple[Any, str]:
    """A Play request whose move breaks a rule, and the field the answer must name."""
    game = client.game(name)
    if name == "happy-campers":
        state = game.new_game(hc.HappyCampersServiceNewGameRequest(players=2, seed=1)).state
        cells = [hc.HappyCampersCell(row=0, col=c) for c in range(5)]  # no shape is five squares long
        move = hc.HappyCampersHintMove(
            placements=[
                hc.HappyCampersPlacement(
                    shape_face=state.roll.first, element_face=state.roll.second, element="T", cells=cells
                )
            ]
        )
        return hc.HappyCampersServicePlayRequest(state=state, move=move), "move.placements[0]"
    if name == "deluxe-camping":
        state = game.new_game(dc.DeluxeCampingServiceNewGameRequest(players=2, seed=1)).state
        move = dc.DeluxeCampingMove(place=dc.DeluxeCampingSquare(row=99, col=0))
        return dc.DeluxeCampingServicePlayRequest(state=state, move=move), "move.place.row"
    if name == "campsite":
        new = game.new_game(cs.CampsiteServiceNewGameRequest(players=2, seed=1))
        play = cs_service.EXAMPLES["Play"]().move
        play.tent.player = 1 - new.turn.to_move
        return cs.CampsiteServicePlayRequest(state=new.state, move=play), "move.tent.player"
    if name == "camper-tour":
        state = game.new_game(ct.CamperTourServiceNewGameRequest(players=2, seed=1)).state
        return ct.CamperTourServicePlayRequest(state=state, move=ct.CamperTourMove(announce=99)), "move.announce"
    new = game.new_game(at.AdventureToursServiceNewGameRequest(players=3, seed=1))
    other = (new.turn.to_move + 1) % 3
    card = new.state.players[other].hand[0]  # a card of another player's hand
    move = at.AdventureMove(steps=[at.AdventureStep(play=at.AdventurePlay(card=card, member=False))])
    return at.AdventureToursServicePlayRequest(state=new.state, move=move), "move.steps[0]"


@pytest.mark.parametrize("name", list(GAMES))
def test_an_illegal_move_is_invalid_argument_naming_the_field(client: Any, name: str) -> None:
    request, field = _illegal(name, client)
    with pytest.raises(CampsolverError) as caught:
        client.game(name).play(request)
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.violations[0].field == field, caught.value.violations


def test_no_move_when_a_player_decides_and_no_move_after_the_end(client: Any) -> None:
    game = client.game("camper-tour")
    state = game.new_game(ct.CamperTourServiceNewGameRequest(players=2, seed=1)).state
    with pytest.raises(CampsolverError) as caught:
        game.play(ct.CamperTourServicePlayRequest(state=state, seed=1))
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT and caught.value.violations[0].field == "move"
    waiting = hc_service.new_game(hc.HappyCampersServiceNewGameRequest(players=2, seed=2), budget=None).state
    waiting.ClearField("roll")
    waiting.ClearField("to_draw")
    with pytest.raises(CampsolverError) as caught:
        client.happy_campers.play(
            hc.HappyCampersServicePlayRequest(
                state=waiting, move=hc.HappyCampersHintMove(placements=[hc.HappyCampersPlacement()])
            )
        )
    assert caught.value.violations[0].field == "move" and "chance" in caught.value.violations[0].description


def test_cli_new_then_play_and_a_bad_move_exits_2_with_one_line(tmp_path: Path) -> None:
    new = _cli("camper-tour", "new", stdin=json.dumps({"players": 2, "seed": 4}))
    assert new.returncode == 0, new.stderr
    state = json.loads(new.stdout)["state"]
    legal = _cli("camper-tour", "legal", stdin=json.dumps({"state": state}))
    move = json.loads(legal.stdout)["moves"][0]
    request = json.dumps({"state": state, "move": move, "seed": "1"})
    played = _cli("camper-tour", "play", "--format", "text", stdin=request)
    assert played.returncode == 0 and "to move" in played.stdout, played.stdout + played.stderr
    bad = _cli("camper-tour", "play", stdin=json.dumps({"state": state, "move": {"announce": 99}, "seed": "1"}))
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "move.announce" in bad.stderr, bad.stderr


def _cli(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "campsolver", *args[:2], "--request", "-", *args[2:]],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )


def test_new_game_and_play_examples_round_trip_as_json() -> None:
    for service in (hc_service, dc_service, cs_service, ct_service, at_service):
        for rpc in ("NewGame", "Play"):
            request = service.SERVICE.examples[rpc]()
            answer = protocol.handler(service.SERVICE, rpc)(request, None)
            assert answer.HasField("turn") and answer.HasField("state")
            assert json_format.Parse(json_format.MessageToJson(answer), type(answer)()) == answer


SERVICES = {
    "happy-campers": hc_service,
    "deluxe-camping": dc_service,
    "campsite": cs_service,
    "camper-tour": ct_service,
    "adventure-tours": at_service,
}


def _round_trips(name: str) -> tuple[list[Any], Callable[[Any], Any], Callable[[Any], Any], Callable[[Any], bool]]:
    """Start states, the state message's writer and reader, and which states the message holds."""
    from campsolver.solver.adventure_tours import rules as at_rules
    from campsolver.solver.camper_tour import rules as ct_rules
    from campsolver.solver.campsite import rules as cs_rules
    from campsolver.solver.core.game import CHANCE
    from campsolver.solver.deluxe_camping import rules as dc_rules
    from campsolver.solver.happy_campers import modes

    if name == "happy-campers":
        from campsolver.solver.happy_campers.rules import Challenge

        starts = [
            modes.SoloState.new(((Challenge.PRIVACY,), (Challenge.RIVER_TOWN,))),
            modes.MultiplayerState.new(3, (Challenge.FESTIVAL, Challenge.NOISY_NEIGHBOURS)),
        ]
        return starts, hc_service.game_to_proto, hc_service.game_from_proto, lambda s: True
    if name == "deluxe-camping":
        return (
            [dc_rules.initial_state(dc_rules.Config(players=3), first_player=1)],
            dc_service.state_to_proto,
            dc_service.state_from_proto,
            lambda s: True,
        )
    if name == "campsite":
        return (
            [cs_rules.new_game(2)],
            cs_service.game_to_proto,
            cs_service.game_from_proto,
            lambda s: s.stage is not cs_rules.Stage.TENT,
        )  # Play lays the card and pitches the tent in one move
    if name == "camper-tour":
        config = ct_rules.Config(token_rule=ct_rules.TokenRule.PER_CAMPER_CAP)
        return (
            [ct_rules.new_game(config, 3, first=2)],
            ct_service.state_to_proto,
            ct_service.state_from_proto,
            lambda s: s.current_player() != CHANCE,
        )
    configs = [
        at_rules.Config(4, expert=True, variation=at_rules.Variation.LOWEST_CHOOSES),
        at_rules.Config(3, expert=True, variation=at_rules.Variation.SHUFFLE),
    ]
    return (
        [at_rules.new_game(c) for c in configs],
        at_service.game_state_to_proto,
        at_service.game_state_from_proto,
        lambda s: True,
    )


def _same(read: Any, state: Any) -> bool:
    """Equal rules states; Adventure Tours compares its table (`Config`) by identity, so here by content."""
    if hasattr(state, "config") and type(state).__name__ == "State":
        a, b = read.config, state.config
        same_table = (a.players, a.deck, a.boards, a.expert, a.rounds, a.variation, a.hand_size) == (
            b.players,
            b.deck,
            b.boards,
            b.expert,
            b.rounds,
            b.variation,
            b.hand_size,
        )
        fields = [f.name for f in dataclasses.fields(state) if f.name != "config"]
        return same_table and all(getattr(read, f) == getattr(state, f) for f in fields)
    return read == state


@pytest.mark.parametrize("name", list(GAMES))
def test_every_state_of_a_random_game_reads_back_as_the_same_rules_state(name: str) -> None:
    """What NewGame and Play write is read back as the very rules state (every flow field kept), so a client
    that sends a state back continues the same game; every such state has a picture and a description."""
    from campsolver.service.games.shared import draw_outcome
    from campsolver.solver.core.game import CHANCE, TERMINAL

    starts, write, read, held = _round_trips(name)
    play = SERVICES[name].TABLE_PLAY
    rng = random.Random(11)
    for state in starts:
        checked = 0
        while True:
            if held(state):
                assert _same(read(write(state)), state), f"step {checked}: {state}"
                assert play.picture(state).startswith("<svg") and play.describe(state)
                checked += 1
            player = state.current_player()
            if player == TERMINAL:
                break
            state = state.child(draw_outcome(state, rng) if player == CHANCE else rng.choice(state.legal_actions()))
        assert checked > 10


def test_the_seed_picks_who_begins_where_the_rulebook_draws_the_first_player() -> None:
    """Deluxe Camping ("The first player is randomly selected") and Camper Tour (the dice go to "the first
    player"): NewGame draws the first seat from its seed, every seat possible, the same seed the same seat."""
    for service, pb, prefix in ((dc_service, dc, "DeluxeCamping"), (ct_service, ct, "CamperTour")):
        request_type = getattr(pb, f"{prefix}ServiceNewGameRequest")
        firsts = {service.new_game(request_type(players=3, seed=seed), None).turn.to_move for seed in range(30)}
        assert firsts == {0, 1, 2}, (prefix, firsts)
        once, twice = (service.new_game(request_type(players=3, seed=5), None) for _ in range(2))
        assert once.state == twice.state


def test_deluxe_camping_scores_zero_during_the_setup() -> None:
    """No site can be allotted before the turns (barriers come only then): Score answers 0 for everyone on a
    setup state, mystery tokens unrevealed included, instead of refusing the state NewGame returned."""
    state = dc_service.new_game(dc.DeluxeCampingServiceNewGameRequest(players=3, seed=1), None).state
    while state.stage != dc.DELUXE_CAMPING_STAGE_BUNGALOW:
        move = dc_service.legal_moves(dc.DeluxeCampingServiceLegalMovesRequest(state=state), None).moves[0]
        state = dc_service.play(dc.DeluxeCampingServicePlayRequest(state=state, move=move), None).state
    assert len(state.mystery) == 3
    assert list(dc_service.score(dc.DeluxeCampingServiceScoreRequest(state=state), None).scores) == [0, 0, 0]


def test_happy_campers_solo_without_second_cards_gives_map_1_the_same_cards() -> None:
    """As the solo hint reads a request without `second_challenges`: the same challenge cards on both maps."""
    new = hc_service.new_game(
        hc.HappyCampersServiceNewGameRequest(players=1, seed=1, challenges=[hc.CHALLENGE_PRIVACY]), None
    )
    assert list(new.state.second_challenges) == [hc.CHALLENGE_PRIVACY] and new.state.solo


def test_deluxe_camping_hints_every_setup_placement() -> None:
    """The setup is played too: Hint ranks every legal placement of each setup stage (one placement deep by the
    territory estimate, the reveal's exact expectation once it is next), within the hint contract."""
    from campsolver.service.games.shared import ranking_contract_violations

    state = dc_service.new_game(dc.DeluxeCampingServiceNewGameRequest(players=2, seed=4), None).state
    stages = set()
    while state.stage != dc.DELUXE_CAMPING_STAGE_MOVE:
        if state.stage == dc.DELUXE_CAMPING_STAGE_REVEAL:
            state = dc_service.play(dc.DeluxeCampingServicePlayRequest(state=state, seed=1), None).state
            continue
        hint = dc_service.hint(dc.DeluxeCampingServiceHintRequest(state=state, options=HINT_OPTIONS), Budget(5.0))
        legal = dc_service.legal_moves(dc.DeluxeCampingServiceLegalMovesRequest(state=state), None).moves
        assert sorted(a.move.SerializeToString() for a in hint.alternatives) == sorted(
            m.SerializeToString() for m in legal
        )
        assert not ranking_contract_violations([a.ranking for a in hint.alternatives])
        assert hint.proof == common_pb2.PROOF_STATUS_HEURISTIC and "setup" in hint.stats.method
        stages.add(state.stage)
        best = hint.alternatives[0].move
        state = dc_service.play(dc.DeluxeCampingServicePlayRequest(state=state, move=best), None).state
    assert stages == {
        dc.DELUXE_CAMPING_STAGE_POOL,
        dc.DELUXE_CAMPING_STAGE_MYSTERY,
        dc.DELUXE_CAMPING_STAGE_BUNGALOW,
        dc.DELUXE_CAMPING_STAGE_TRAILER,
    }


def test_happy_campers_solo_hint_between_the_two_drawings_of_a_turn() -> None:
    """After map 0's drawing of a two-map turn the hint ranks map 1's drawings of the other option (the rules
    model's `SoloStep.SECOND`), within the hint contract, and its best one completes the turn."""
    from campsolver.service.games.shared import ranking_contract_violations

    for seed in range(20):
        state = hc_service.new_game(hc.HappyCampersServiceNewGameRequest(players=1, seed=seed), None).state
        if hc_service.game_from_proto(state).step.value == "first_of_two":
            break
    first = hc_service.legal_moves(hc.HappyCampersServiceLegalMovesRequest(game=state), None).moves[0]
    halfway = hc_service.play(
        hc.HappyCampersServicePlayRequest(state=state, move=hc.HappyCampersHintMove(placements=[first])), None
    )
    assert halfway.state.HasField("solo_follow") and halfway.turn.to_move == 0
    hint = hc_service.hint(hc.HappyCampersServiceHintRequest(game=halfway.state, options=HINT_OPTIONS), Budget(5.0))
    legal = hc_service.legal_moves(hc.HappyCampersServiceLegalMovesRequest(game=halfway.state), None).moves
    assert [p for a in hint.alternatives for p in a.move.placements] and all(
        len(a.move.placements) == 1 and a.move.placements[0].map_index == 1 for a in hint.alternatives
    )
    assert {a.move.placements[0].SerializeToString() for a in hint.alternatives} == {
        m.SerializeToString() for m in legal
    }
    assert not ranking_contract_violations([a.ranking for a in hint.alternatives])
    done = hc_service.play(hc.HappyCampersServicePlayRequest(state=halfway.state, move=hint.alternatives[0].move), None)
    assert done.turn.chance_next and not done.state.HasField("solo_follow")


def test_chance_needs_a_seed_or_a_listing_and_not_both() -> None:
    """At a state that waits on chance, Play with no move needs `seed` or `list_outcomes` (the field is named),
    never both; after a move whose chance the state message cannot hold, the same."""
    from campsolver.service.errors import InvalidArgument

    waiting = hc_service.new_game(hc.HappyCampersServiceNewGameRequest(players=2, seed=2), None).state
    waiting.ClearField("roll")
    waiting.ClearField("to_draw")
    cases = [
        (hc_service.play, hc.HappyCampersServicePlayRequest(state=waiting), "seed"),
        (
            hc_service.play,
            hc.HappyCampersServicePlayRequest(state=waiting, seed=1, list_outcomes=True),
            "list_outcomes",
        ),
    ]
    tour = ct_service.new_game(ct.CamperTourServiceNewGameRequest(players=2, seed=1), None).state
    cases.append(
        (ct_service.play, ct.CamperTourServicePlayRequest(state=tour, move=ct.CamperTourMove(announce=2)), "seed")
    )
    for handler, request, field in cases:
        with pytest.raises(InvalidArgument) as caught:
            handler(request, None)
        assert caught.value.violations[0].field == field


def _mutate(message: Any, rng: random.Random) -> None:
    """One random change somewhere in `message`: a number nudged, a flag flipped, an entry added or dropped."""
    from google.protobuf.descriptor import FieldDescriptor

    field = rng.choice(list(message.DESCRIPTOR.fields))
    value = getattr(message, field.name)
    if field.is_repeated:
        if field.message_type is not None:
            if len(value) and rng.random() < 0.6:
                _mutate(rng.choice(value), rng)
            elif len(value):
                del value[rng.randrange(len(value))]
            else:
                value.add()
        elif len(value) and rng.random() < 0.5:
            del value[rng.randrange(len(value))]
        elif field.type == FieldDescriptor.TYPE_STRING:
            value.append(rng.choice(["", "x", "T", "##", "play", "end_turn"]))
        elif field.type == FieldDescriptor.TYPE_BOOL:
            value.append(rng.random() < 0.5)
        else:
            value.append(rng.choice([-1, 0, 1, 2, 3, 7, 100]))
    elif field.message_type is not None:
        _mutate(value, rng)
    elif field.type == FieldDescriptor.TYPE_STRING:
        setattr(message, field.name, rng.choice(["", "x", "T", "##", "play"]))
    elif field.type == FieldDescriptor.TYPE_BOOL:
        setattr(message, field.name, not value)
    elif field.type == FieldDescriptor.TYPE_ENUM:
        setattr(message, field.name, rng.choice([v.number for v in field.enum_type.values]))
    else:
        nudged = rng.choice([value - 1, value + 1, 0, -1, 2, 50])
        setattr(message, field.name, max(nudged, 0) if field.type == FieldDescriptor.TYPE_UINT64 else nudged)


@pytest.mark.parametrize("name", list(GAMES))
def test_a_mangled_state_is_refused_by_field_never_an_internal_error(name: str) -> None:
    """States come back from clients: seeded random changes to real NewGame/Play states get an answer or a
    request error (INVALID_ARGUMENT / RESOURCE_EXHAUSTED naming a field) from Score, LegalMoves, Play and Hint,
    never another exception (the first run of this found six kinds of internal error)."""
    from campsolver.service.errors import RequestError

    service, (pb, prefix, settings, _pick, _scores) = SERVICES[name], GAMES[name]
    rng = random.Random(3)
    new = service.new_game(getattr(pb, f"{prefix}ServiceNewGameRequest")(seed=2, **settings), None)
    states, state = [new.state], new.state
    for step in range(12):  # a few real states to start from (the first legal move each time)
        answer = service.play(
            getattr(pb, f"{prefix}ServicePlayRequest")(
                state=state, seed=step, move=_first_move(name, service, pb, prefix, state)
            ),
            None,
        )
        states.append(answer.state)
        state = answer.state
        if answer.turn.game_over:
            break
    refused = 0
    for _ in range(80):
        mangled = type(state)()
        mangled.CopyFrom(rng.choice(states))
        for _ in range(rng.randint(1, 3)):
            _mutate(mangled, rng)
        requests = [
            (service.score, _state_request(pb, f"{prefix}ServiceScoreRequest", mangled)),
            (service.legal_moves, _state_request(pb, f"{prefix}ServiceLegalMovesRequest", mangled)),
            (service.play, getattr(pb, f"{prefix}ServicePlayRequest")(state=mangled, seed=1)),
            (service.hint, _state_request(pb, f"{prefix}ServiceHintRequest", mangled)),
        ]
        for handler, request in requests:
            try:
                handler(request, Budget(0.05))
            except RequestError as error:
                assert error.violations, error
                refused += 1
    assert refused > 40, "the changes reached the validators"


def _first_move(name: str, service: Any, pb: Any, prefix: str, state: Any) -> Any:
    """The first legal move of a decision state, as Play takes it."""
    legal = service.legal_moves(_state_request(pb, f"{prefix}ServiceLegalMovesRequest", state), Budget(5.0))
    if name == "happy-campers":
        return hc.HappyCampersHintMove(placements=[legal.moves[0]])
    if name == "campsite":
        after = service.legal_moves(cs.CampsiteServiceLegalMovesRequest(game=state, after=legal.placements[0]), None)
        mover = cs_service.game_from_proto(state).to_move
        square = after.tent_squares[0]
        tent = cs.CampsiteTent(player=mover, token=after.tokens[0], row=square.row, col=square.col)
        return cs.CampsitePlay(placement=legal.placements[0], tent=tent)
    return legal.moves[0]
