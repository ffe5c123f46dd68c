"""The web table's sessions (service/table.py) without a browser: bad input answers one line naming the field;
tables are capped and expire; a whole game of each title through the sessions, its log replayed from the seeds
exactly as Play drew them and its record replayed through the Play handler; what a seat sees depends on that
seat's information only (Campsite, Adventure Tours); the hint table says a shared note once and marks ties."""

from __future__ import annotations

import json
import random
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from campsolver.service import dispatch
from campsolver.service.games import adventure_tours as at_service
from campsolver.service.registry import games
from campsolver.service.server import CampsolverServer, ServerConfig
from campsolver.service.table import MAX_BODY_BYTES, TableError, TableSessions, _hint_table
from campsolver.service.table_games import ADAPTERS, LogLine
from campsolver.solver.adventure_tours.information import observe
from google.protobuf.message import Message

from campsolver.v1 import camper_tour_pb2, common_pb2

GAMES = list(ADAPTERS)


def in_process_call(game: str, rpc: str, request: Message, seconds: float) -> Message:
    """The server's call path without a server: a hint with no time to search answers its rule of thumb's move,
    as `server.answer` does; every other call runs its handler under the request's budget."""
    command = games()[game].by_rpc(rpc)
    budget = dispatch.budget_for(request, seconds)
    if budget.remaining() < dispatch.MIN_SEARCH_S:
        answered = dispatch.answer_without_search(command, request)
        if answered is not None:
            return answered
    return dispatch.run(command, request, budget)


@pytest.fixture(scope="module")
def server() -> Iterator[CampsolverServer]:
    running = CampsolverServer(ServerConfig(port=0, http_port=0, workers=1, solve_in_process=True))
    running.start()
    assert running.http is not None and running.http.wait_started()
    yield running
    running.stop(grace_s=2.0)


def http(
    server: CampsolverServer, method: str, path: str, body: Any = None, raw: bytes | None = None
) -> tuple[int, dict[str, Any]]:
    assert server.http is not None
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    request = urllib.request.Request(
        f"{server.http.url}{path}", data=data, method=method, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


BAD_NEW = [
    ({"game": "chess"}, 400, r"^game: one of happy-campers, "),
    ({"game": "campsite", "players": 9}, 400, r"^players: 2-6, got 9$"),
    ({"game": "campsite", "players": "many"}, 400, r"^players: an integer 2-6$"),
    ({"game": "adventure-tours", "players": 2}, 400, r"^players: 3-6, got 2$"),
    ({"game": "camper-tour", "seat": 2}, 400, r"^seat: 0-1, got 2$"),
    ({"game": "camper-tour", "bots": "smart"}, 400, r"^bots: one of greedy, hint$"),
    ({"game": "camper-tour", "botSeconds": 99}, 400, r"^botSeconds: 0.05-5 seconds, got 99$"),
    ({"game": "camper-tour", "seed": -1}, 400, r"^seed: 0-"),
]


@pytest.mark.parametrize(("body", "status", "pattern"), BAD_NEW)
def test_a_bad_new_table_answers_one_line_naming_the_field(
    server: CampsolverServer, body: dict[str, Any], status: int, pattern: str
) -> None:
    code, answer = http(server, "POST", "/table/new", body)
    assert code == status, answer
    assert re.search(pattern, answer["error"]), answer
    assert "\n" not in answer["error"] and "Traceback" not in answer["error"]


def test_malformed_bodies_methods_and_paths(server: CampsolverServer) -> None:
    code, answer = http(server, "POST", "/table/new", raw=b"{not json")
    assert code == 400 and answer["error"].startswith("body: not JSON"), answer
    code, answer = http(server, "POST", "/table/new", raw=b"[1, 2]")
    assert (code, answer["error"]) == (400, "body: a JSON object")
    code, answer = http(server, "POST", "/table/new", raw=b"x" * (MAX_BODY_BYTES + 1))
    assert code == 413 and answer["error"].startswith("body: "), answer
    assert http(server, "GET", "/table/new")[0] == 405
    code, answer = http(server, "GET", "/table/no-such-table")
    assert code == 404 and answer["error"].startswith("no table 'no-such-table'"), answer
    assert http(server, "GET", "/table/a/b/c/d")[0] == 404
    assert http(server, "POST", "/table/a/unknown", {})[0] == 404
    assert http(server, "GET", "/table/a/position/x")[0] == 400
    assert http(server, "GET", "/table/a/position/%C2%B2")[0] == 400  # '²' passes str.isdigit, not int
    for players in ("\u00b2", "9" * 5000):  # a number `int` refuses: one line, 400, never a 500
        code, answer = http(server, "POST", "/table/new", {"game": "camper-tour", "players": players})
        assert code == 400 and answer["error"].startswith("players: "), answer


def test_moves_out_of_turn_stale_or_malformed_are_refused(server: CampsolverServer) -> None:
    code, view = http(server, "POST", "/table/new", {"game": "camper-tour", "seed": 5})
    assert code == 200, view
    table = view["table"]
    while not view["yourTurn"]:
        code, view = http(server, "POST", f"/table/{table}/step", {"ply": view["ply"]})
        assert code == 200, view
    ply = view["ply"]
    refusals = [
        ("move", {"ply": ply, "moveId": "nope"}, 400, r"^moveId: not a move of this view"),
        ("move", {"ply": ply, "move": "{bad"}, 400, r"^move: not a CamperTourMove in proto3 JSON"),
        ("move", {"ply": ply, "move": {"announce": 99}}, 400, r"^move\.announce: announce 1-10 plates, got 99$"),
        ("move", {"ply": ply, "move": {"colour": 1}}, 400, r"^move: not a CamperTourMove"),
        ("move", {"ply": ply}, 400, r"^moveId: give moveId"),
        ("move", {"ply": ply + 3, "moveId": view["moves"][0]["id"]}, 409, r"^ply: the table is at ply"),
        ("move", {"ply": "one"}, 400, r"^ply: the view's ply, an integer$"),
        ("step", {"ply": ply}, 409, r"^it is your turn \(A\)"),
        ("hint", {"ply": ply, "seconds": 0}, 400, r"^seconds: 0.05-10 seconds, got 0$"),
        ("review", {}, 409, r"^the review comes at the end of the game$"),
        ("options", {"ply": ply, "moveId": view["moves"][0]["id"]}, 400, r"^moveId: the id of a first-stage"),
    ]
    for route, body, status, pattern in refusals:
        code, answer = http(server, "POST", f"/table/{table}/{route}", body)
        assert code == status and re.search(pattern, answer.get("error", "")), (route, body, code, answer)
    code, answer = http(server, "GET", f"/table/{table}/position/{ply + 5}")
    assert code == 400 and answer["error"].startswith("ply: "), answer
    # Nothing was played by the refusals: the person still moves at the same ply.
    code, again = http(server, "GET", f"/table/{table}")
    assert code == 200 and again["ply"] == ply and again["yourTurn"]


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_tables_are_capped_and_closed_when_idle() -> None:
    clock = FakeClock()
    sessions = TableSessions(in_process_call, max_tables=3, idle_s=60.0, clock=clock)
    opened = []
    for seed in range(3):
        opened.append(sessions.new({"game": "camper-tour", "seed": seed})["table"])
        clock.now += 10
    sessions.view(opened[0])  # used most recently now: opened[1] is the one used longest ago
    fourth = sessions.new({"game": "camper-tour", "seed": 9})["table"]
    assert len(sessions) == 3 and sessions.closed_for_room == 1
    with pytest.raises(TableError) as closed:
        sessions.view(opened[1])
    assert closed.value.status == 404
    sessions.view(opened[2])
    clock.now += 30
    sessions.view(fourth)
    clock.now += 45  # opened[0] and opened[2] idle for 75 s and 45+30 s; fourth for 45 s
    with pytest.raises(TableError):
        sessions.view(opened[0])
    assert sessions.view(fourth)["table"] == fourth
    assert sessions.closed_idle == 2 and len(sessions) == 1


# --- whole games ---------------------------------------------------------------------------------------------

CARD_ID = re.compile(r"#(\d+)\b")


def hidden_cards_at(state: Any, viewer: int) -> set[int]:
    """Adventure Tours: the cards `viewer` cannot see in `state` (the other hands and the pile)."""
    hidden = set(state.deck)
    for q, hand in enumerate(state.hands):
        if q != viewer:
            hidden.update(hand)
    return hidden


def check_adventure_tours_view(sessions: TableSessions, view: dict[str, Any]) -> None:
    """No hidden card of the moment is named in the pictures, the moves or the labels; no log line names a card
    that stayed hidden to the person all through the Play call that wrote it (before the move, after it, after
    each chance step: a card played is public once played, even if the round then ends and it is shuffled
    back)."""
    table = sessions.table(view["table"])
    adapter = table.adapter
    hidden = hidden_cards_at(adapter.parse(table.state), table.person)
    shown = json.dumps({k: view[k] for k in ("pictures", "moves", "keyLabels", "facts", "seats")})
    named = {int(n) for n in CARD_ID.findall(shown)} | {int(n) for n in re.findall(r"card:(\d+)", shown)}
    assert not named & hidden, sorted(named & hidden)
    for line in view["log"]:
        cards = {int(n) for n in CARD_ID.findall(line["text"])}
        if not cards:
            continue
        then = hidden_all_through(table, line["ply"])
        then -= seen_in_line(table, line)
        assert not cards & then, (line, sorted(cards & then))


def seen_in_line(table: Any, line: dict[str, Any]) -> set[int]:
    """The cards a log line may name beyond those public during its Play call: a move's own cards (shown by
    playing them), and in a line only the person reads, the cards the person received in that call."""
    if line["ply"] == 0:
        return set(table.adapter.parse(table.start).hands[table.person]) if line.get("private") else set()
    step = table.steps[line["ply"] - 1]
    adapter = table.adapter
    if line["kind"] == "move":
        return {getattr(action, "card", -1) for action in adapter.steps(step.move)}
    if not line.get("private"):
        return set()
    before = adapter.parse(table.start if line["ply"] == 1 else table.steps[line["ply"] - 2].state)
    return {
        outcome
        for state, outcome, _ in adapter.replay(before, step.move, step.seed)[1]
        if state.pending[0].kind in ("draw", "deal") and state.pending[0].player == table.person
    }


_HIDDEN: dict[tuple[str, int], set[int]] = {}


def hidden_all_through(table: Any, ply: int) -> set[int]:
    """The cards hidden to the person in every state of the Play call `ply` (0: the setup's end)."""
    key = (table.id, ply)
    if key not in _HIDDEN:
        _HIDDEN[key] = _hidden_all_through(table, ply)
    return set(_HIDDEN[key])


def _hidden_all_through(table: Any, ply: int) -> set[int]:
    adapter = table.adapter
    if ply == 0:
        return hidden_cards_at(adapter.parse(table.start), table.person)
    step = table.steps[ply - 1]
    before = adapter.parse(table.start if ply == 1 else table.steps[ply - 2].state)
    hidden = hidden_cards_at(before, table.person)
    if step.move is not None:
        hidden &= hidden_cards_at(adapter.apply(before, step.move), table.person)
    for _state, _outcome, after in adapter.replay(before, step.move, step.seed)[1]:
        hidden &= hidden_cards_at(after, table.person)
    return hidden


def check_campsite_view(sessions: TableSessions, view: dict[str, Any]) -> None:
    """The hand picture holds the person's own cards, and no log line tells another seat's draw."""
    table = sessions.table(view["table"])
    state = table.adapter.parse(table.state)
    hand_svg = view["pictures"][1]["svg"]
    titles = re.findall(r"<title>card \d+: ([^<]+)</title>", hand_svg)
    assert titles == [card.text() for card in state.hands[table.person]]
    for line in view["log"]:
        if line["seat"] not in (None, "A") and "draws" in line["text"]:
            assert line["text"].endswith("draws a card"), line


CHECKS = {"adventure-tours": check_adventure_tours_view, "campsite": check_campsite_view}


def play_through(sessions: TableSessions, game: str, seed: int, players: int | None = None) -> dict[str, Any]:
    """A whole game: the person picks a random offer (a first stage, then its second), the greedy bots step."""
    rng = random.Random(seed)
    body: dict[str, Any] = {"game": game, "seed": seed}
    if players:
        body["players"] = players
    view = sessions.new(body)
    check = CHECKS.get(game)
    for _ in range(2000):
        if check is not None:
            check(sessions, view)
        assert "Traceback" not in json.dumps(view)
        if view["over"]:
            return view
        if not view["yourTurn"]:
            view = sessions.step(view["table"], {"ply": view["ply"]})
            continue
        offer = rng.choice(view["moves"])
        if not offer["final"]:
            staged = sessions.options(view["table"], {"ply": view["ply"], "moveId": offer["id"]})
            offer = rng.choice(staged["moves"])
        view = sessions.move(view["table"], {"ply": view["ply"], "moveId": offer["id"]})
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_logged_as_play_drew_it_and_recorded_as_play_answered(game: str) -> None:
    sessions = TableSessions(in_process_call)
    view = play_through(sessions, game, seed=11)
    table = sessions.table(view["table"])
    adapter = table.adapter
    assert view["over"] and view["result"]["text"].startswith("Game over: ")
    assert view["result"]["winners"] == [chr(65 + w) for w in table.turn.winners]
    assert view["status"] == view["result"]["text"] and "to move" not in view["status"]
    assert not any(seat["toMove"] for seat in view["seats"])
    # The log's replay of each Play call (the move, then chance from the call's seed) reaches Play's answer.
    before = table.start
    play = games()[game].by_rpc("Play")
    for step in table.steps:
        replayed, _ = adapter.replay(adapter.parse(before), step.move, step.seed)
        assert adapter.to_proto(replayed) == step.state
        # ... and the record replays through the Play handler itself.
        request = adapter.play_request(before, step.move, step.seed)
        assert in_process_call(game, "Play", request, 30).state == step.state
        before = step.state
    assert play.rpc_name == "Play"
    kinds = {line["kind"] for line in view["log"]}
    assert {"start", "move", "end"} <= kinds, kinds
    assert view["log"][-1]["kind"] == "end"


def test_camper_tour_logs_dice_outcomes_and_why_a_camper_left() -> None:
    """Seeded games until one has an elimination: the log says the dice, the plates laid and the reason."""
    sessions = TableSessions(in_process_call)
    for seed in range(40):
        view = play_through(sessions, "camper-tour", seed)
        texts = [line["text"] for line in view["log"]]
        assert any(text.startswith("dice ") for text in texts)
        assert any(" laid" in text for text in texts)
        out = [line for line in view["log"] if line["kind"] == "out"]
        if out:
            assert re.search(
                r"is out of the game: (ran out of tokens before turning back|the last camper)", out[0]["text"]
            ), out
            seat = next(s for s in view["seats"] if s["name"] == out[0]["seat"])
            assert seat["note"].startswith("out: "), seat
            return
    raise AssertionError("no seeded game eliminated a camper")


# --- what a seat sees --------------------------------------------------------------------------------------


def _swap_hidden_at(state: Any, viewer: int, rng: random.Random) -> Any | None:
    """Adventure Tours: the same position for `viewer`, with one card of another hand exchanged for one of the
    pile (what `viewer` cannot tell apart)."""
    from dataclasses import replace

    others = [q for q in range(state.config.players) if q != viewer and state.hands[q]]
    if not others or not state.deck:
        return None
    q = rng.choice(others)
    hand = list(state.hands[q])
    given = rng.choice(hand)
    taken = rng.choice(state.deck)
    hand[hand.index(given)] = taken
    if state.deck_ordered:
        return None
    deck = (*(c for c in state.deck if c != taken), given)
    hands = tuple(tuple(sorted(hand)) if p == q else h for p, h in enumerate(state.hands))
    return replace(state, hands=hands, deck=tuple(sorted(deck)))


def _swap_hidden_cs(state: Any, viewer: int, rng: random.Random) -> Any | None:
    """Campsite: one card of another hand exchanged for one of the draw pile."""
    from dataclasses import replace

    others = [q for q in range(state.players) if q != viewer and state.hands[q]]
    if not others or not state.pile:
        return None
    q = rng.choice(others)
    hand = list(state.hands[q])
    given = rng.choice(hand)
    taken = rng.choice(state.pile)
    hand.remove(given)
    pile = list(state.pile)
    pile.remove(taken)
    hands = tuple(tuple(sorted([*hand, taken])) if p == q else h for p, h in enumerate(state.hands))
    return replace(state, hands=hands, pile=tuple(sorted([*pile, given])))


SWAPS = {"adventure-tours": _swap_hidden_at, "campsite": _swap_hidden_cs}


def _fields(observation: Any) -> dict[str, Any]:
    """An observation's fields but its config (compared by identity; each parse builds its own)."""
    return {name: value for name, value in vars(observation).items() if name != "config"}


@pytest.mark.parametrize("game", sorted(SWAPS))
def test_what_a_seat_sees_depends_on_its_own_information_only(game: str) -> None:
    """Along a seeded game: the person's picture, legend, facts, notes and moves are the same when another
    hand holds other cards; so is the person's hint request (Campsite) or the observation the hint reads
    (Adventure Tours); and the log tells the person the same when another seat draws another card."""
    sessions = TableSessions(in_process_call)
    view = play_through(sessions, game, seed=4)
    table = sessions.table(view["table"])
    adapter = table.adapter
    rng = random.Random(1)
    compared = 0
    for step in [table.start] + [s.state for s in table.steps]:
        state = adapter.parse(step)
        other = SWAPS[game](state, table.person, rng)
        if other is None or other == state:
            continue
        assert other.hands[table.person] == state.hands[table.person]
        assert adapter.seat_view(other, table.person, table.players) == adapter.seat_view(
            state, table.person, table.players
        )
        if state.current_player() == table.person:
            call = lambda rpc, request: in_process_call(game, rpc, request, 30)  # noqa: E731
            mine = [o.public() for o in adapter.offers(state, step, table.person, call)]
            theirs = [o.public() for o in adapter.offers(other, adapter.to_proto(other), table.person, call)]
            assert mine == theirs
            if game == "campsite":
                assert adapter.hint_request(step, state, table.person, 1.0, []) == adapter.hint_request(
                    adapter.to_proto(other), other, table.person, 1.0, []
                )
            else:
                ours = at_service.convert._decision_observation(adapter.to_proto(state))
                assert _fields(ours) == _fields(at_service.convert._decision_observation(adapter.to_proto(other)))
                assert _fields(ours) == _fields(observe(state, table.person))
        compared += 1
    assert compared >= 10


def test_another_seats_draw_is_told_to_it_alone() -> None:
    """Campsite's and Adventure Tours' draw lines: the drawing seat reads its card, everybody else that a card
    was drawn."""
    sessions = TableSessions(in_process_call)
    for game in SWAPS:
        view = play_through(sessions, game, seed=2)
        table = sessions.table(view["table"])
        draws = [line for line in table.log if line.private and line.kind == "chance"]
        assert draws
        for line in draws:
            for seat, text in line.private.items():
                assert text.startswith("you "), text
                assert line.text_for(seat)["text"] == text
                for other in range(table.players):
                    if other not in line.private:
                        assert line.text_for(other)["text"] == line.text
            assert "you" not in line.text


# --- the hint table ---------------------------------------------------------------------------------------------


def test_the_hint_table_says_a_shared_note_once_and_groups_ties() -> None:
    sessions = TableSessions(in_process_call)
    view = sessions.new({"game": "camper-tour", "seed": 1})
    while not view["yourTurn"]:
        view = sessions.step(view["table"], {"ply": view["ply"]})
    table = sessions.table(view["table"])
    sessions._offers(table)
    response = camper_tour_pb2.CamperTourServiceHintResponse(note="searched")
    state = table.adapter.parse(table.state)
    for rank, action in enumerate(state.legal_actions()[:7], start=1):
        alternative = response.alternatives.add(move=table.adapter.module.move_to_proto(action))
        alternative.ranking.CopyFrom(
            common_pb2.RankedAlternative(
                rank=rank,
                label="x",
                value=0.5 if rank <= 4 else 0.25 - rank / 100,
                loss=0.0 if rank <= 4 else 0.25,
                note="the same for every row",
            )
        )
    answer = _hint_table(table, state, response)
    assert all(row["note"] == "" for row in answer["rows"])
    assert "the same for every row" in answer["summary"]["note"] and "searched" in answer["summary"]["note"]
    assert answer["ties"] == [{"first": 0, "count": 4, "value": 0.5}]
    offered = {o.id for o in table.offered.values()}
    assert {row["moveId"] for row in answer["rows"]} <= offered


def test_the_persons_hint_over_http_ranks_moves_the_person_can_play(server: CampsolverServer) -> None:
    code, view = http(server, "POST", "/table/new", {"game": "deluxe-camping", "seed": 2})
    table = view["table"]
    while not view["yourTurn"]:
        code, view = http(server, "POST", f"/table/{table}/step", {"ply": view["ply"]})
    code, hint = http(server, "POST", f"/table/{table}/hint", {"ply": view["ply"], "seconds": 0.3})
    assert code == 200, hint
    assert hint["rows"] and [row["rank"] for row in hint["rows"]] == list(range(1, len(hint["rows"]) + 1))
    ids = {move["id"] for move in view["moves"]}
    assert hint["rows"][0]["moveId"] in ids  # a hint row is one of the moves the board offers
    chosen = {"ply": view["ply"], "moveId": hint["rows"][0]["moveId"]}
    code, after = http(server, "POST", f"/table/{table}/move", chosen)
    assert code == 200 and after["ply"] == view["ply"] + 1
    assert any(line["text"] == f"A: {hint['rows'][0]['label']}" for line in after["log"]), after["log"][-3:]


def test_the_page_and_the_adapters_agree_with_the_protos() -> None:
    """The page's seat bounds are the adapters' (the server checks them again), and each adapter's request
    types are its game's NewGame, Play and Hint requests (a proto change that breaks the table fails here)."""
    from campsolver.service.http_server import WEB_ROOT

    script = (WEB_ROOT / "app.js").read_text()
    bounds = {
        name: [int(n) for n in numbers.split(",")]
        for name, numbers in re.findall(r'"([a-z-]+)": \[(\d+, \d+, \d+)\]', script)
    }
    assert bounds == {name: list(adapter.players) for name, adapter in ADAPTERS.items()}
    for name, adapter in ADAPTERS.items():
        game = games()[name]
        for rpc, type_name in (
            ("NewGame", adapter.new_game_type),
            ("Play", adapter.play_type),
            ("Hint", adapter.hint_type),
        ):
            assert game.by_rpc(rpc).request_type.DESCRIPTOR.name == type_name
        assert adapter.move_type() is type(game.by_rpc("Play").request_type().move)


def test_log_lines_have_the_page_shape() -> None:
    line = LogLine(3, 1, "chance", "B draws a card", {1: "you draw #4"})
    assert line.text_for(0) == {"ply": 3, "seat": "B", "kind": "chance", "text": "B draws a card"}
    assert line.text_for(1) == {"ply": 3, "seat": "B", "kind": "chance", "text": "you draw #4", "private": True}
