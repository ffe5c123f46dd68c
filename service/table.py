"""The web table's sessions: a game held on the server, each seat shown only what its player may see.

A browser never holds a game's state. `POST /table/new` opens a table (a game, its seats: one person, the others
bots) and answers the person's *seat view*: the picture drawn from what that seat may see (its own hand and
tokens, the public table, other hands by their size only), the legend of every mark, the moves open to the
person (each with the board marks a click picks it by), the log (dice, drawn cards the seat may know, outcomes,
why a camper left the game), the scores and, at the end, the winners. The game's state, the other hands and the
record of the game stay in this process; no response carries them.

Every rule stays with the game's own service handlers, called through the server's one call path
(`server.answer`: the same validation, solver slots and worker processes as a gRPC call): `NewGame` and `Play`
move the game on (the k-th `Play` of a table with seed s resolves its chance from seed `s * 1000 + k`, so a seed
and the moves replay the game), `LegalMoves` lists the person's moves, and `Hint` ranks them from the person's
own information only (each game's adapter builds that request, `service.table_games`); the bots are the same
hint (a greedy bot: the hint with no time to search, its rule of thumb's move). Bots move one call at a time
(`POST /table/{id}/step`), so the page can show each move as it comes.

Bounds: at most `MAX_TABLES` tables are open at once; a table unused for `IDLE_S` seconds is closed, and when
the cap is reached the table used longest ago is closed to make room. A request body is at most
`MAX_BODY_BYTES`. Bad input answers 400 with one line naming the field (`{"error": "players: 3-6, got 9"}`), an
unknown or closed table 404, a move out of turn or from a stale view 409; never a traceback.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable
from concurrent import futures
from dataclasses import dataclass, field
from typing import Any

from campsolver.service.errors import RequestError, excerpt
from campsolver.service.table_games import ADAPTERS, Adapter, LogLine, Offer, seat_letter
from google.protobuf import json_format
from google.protobuf.message import Message
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

log = logging.getLogger("campsolver.table")

#: Tables open at once, at most (the one used longest ago is closed to make room for a new one).
MAX_TABLES = 64
#: Seconds a table may stay unused before it is closed.
IDLE_S = 30 * 60.0
#: Largest request body the table routes read.
MAX_BODY_BYTES = 64 * 1024
#: The person's hint: default and largest seconds a call may ask for.
HINT_SECONDS = 1.0
MAX_HINT_SECONDS = 10.0
#: A hint bot's seconds a move (default and largest); a greedy bot asks for this little, so the service answers
#: its rule of thumb's move without searching.
BOT_SECONDS = 0.5
MAX_BOT_SECONDS = 5.0
GREEDY_SECONDS = 0.01
#: Seconds a call to the service may take beyond its own time limit before it is given up.
CALL_SLACK_S = 30.0
#: The review of a game at the table: seconds the whole review may take (default and most a request may ask).
REVIEW_SECONDS = 30.0
MAX_REVIEW_SECONDS = 300.0
#: Chance of the k-th Play of a table with seed s comes from seed s * PLAY_SEED_STRIDE + k.
PLAY_SEED_STRIDE = 1000
#: Largest seed a request may give (the Play seeds derived from it must fit a uint64).
MAX_SEED = 2**53
#: Most hint rows answered (the page shows five, the rest on request).
MAX_HINT_ROWS = 200
BOT_KINDS = ("greedy", "hint")

#: The service call the sessions make: (game, RPC, request, seconds allowed) -> response; raises RequestError.
Call = Callable[[str, str, Message, float], Message]


class TableError(Exception):
    """A refused table request: its HTTP status and one line saying why (a field named first when one is)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = excerpt(" ".join(message.split()), 400)


def _bad(field: str, description: str) -> TableError:
    return TableError(400, f"{field}: {description}")


@dataclass
class RecordStep:
    """One Play call of the table: its move (None: a chance step alone), its seed and the state it answered."""

    move: Message | None
    seed: int
    state: Message
    seat: int | None  # the seat that decided (None: chance)


@dataclass
class Table:
    """One open table. `state` is the game's proto state after the last Play; `start` and `steps` its record."""

    id: str
    adapter: Adapter
    players: int
    person: int
    bots: str
    bot_seconds: float
    seed: int
    seed_given: bool
    start: Message
    state: Message
    turn: Any
    used: float
    steps: list[RecordStep] = field(default_factory=list)
    log: list[LogLine] = field(default_factory=list)
    offered: dict[str, Offer] = field(default_factory=dict)
    offered_ply: int = -1
    pending: dict[str, Any] = field(default_factory=dict)  # a two-stage choice in progress (Campsite)
    review: dict[str, Any] | None = None
    review_response: Message | None = None  # the Review RPC's answer, kept on the server (it names every move)
    best_moves: dict[int, Message] = field(default_factory=dict)  # the review's best move at the person's steps
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def ply(self) -> int:
        return len(self.steps)

    def kind_of(self, seat: int) -> str:
        if seat == self.person:
            return "you"
        return "hint bot" if self.bots == "hint" else "greedy bot"


class TableSessions:
    """Every open table, bounded in number and idle time; thread-safe (the routes run on executor threads)."""

    def __init__(
        self,
        call: Call,
        *,
        max_tables: int = MAX_TABLES,
        idle_s: float = IDLE_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._call = call
        self.max_tables = max_tables
        self.idle_s = idle_s
        self._clock = clock
        self._tables: dict[str, Table] = {}
        self._lock = threading.Lock()
        self.closed_idle = 0
        self.closed_for_room = 0

    # --- bookkeeping ---------------------------------------------------------------------------------------

    def __len__(self) -> int:
        with self._lock:
            return len(self._tables)

    def _expire(self, now: float) -> None:
        for key in [k for k, t in self._tables.items() if now - t.used > self.idle_s]:
            del self._tables[key]
            self.closed_idle += 1

    def _get(self, table_id: str) -> Table:
        now = self._clock()
        with self._lock:
            self._expire(now)
            table = self._tables.get(table_id)
            if table is None:
                raise TableError(
                    404,
                    f"no table {excerpt(table_id, 40)!r}: it was closed (unused for "
                    f"{self.idle_s / 60:g} minutes, or to make room) or never opened",
                )
            table.used = now
            return table

    def table(self, table_id: str) -> Table:
        """The open table (tests read its record through this; the routes never send it)."""
        return self._get(table_id)

    def _run(self, table_id: str, work: Callable[[Table], dict[str, Any]]) -> dict[str, Any]:
        table = self._get(table_id)
        if not table.lock.acquire(blocking=False):
            raise TableError(409, "the table is still answering an earlier request; try again")
        try:
            return work(table)
        finally:
            table.used = self._clock()
            table.lock.release()

    # --- the service -----------------------------------------------------------------------------------------

    def call(self, table: Table, rpc: str, request: Message, seconds: float = 0.0) -> Message:
        return self._call(table.adapter.name, rpc, request, seconds + CALL_SLACK_S)

    def _play(self, table: Table, move: Message | None, seat: int | None) -> None:
        """One Play call: the move (None: chance alone), its chance from the table's seed, the record and log."""
        adapter = table.adapter
        seed = table.seed * PLAY_SEED_STRIDE + table.ply
        request = adapter.play_request(table.state, move, seed)
        before = adapter.parse(table.state)
        response = self.call(table, "Play", request)
        after = adapter.parse(response.state)
        lines = adapter.narrate(before, move, seed, after, table.ply + 1)
        table.steps.append(RecordStep(move, seed, response.state, seat))
        table.state, table.turn = response.state, response.turn
        table.log.extend(lines)
        table.offered, table.offered_ply, table.pending = {}, -1, {}

    # --- requests ----------------------------------------------------------------------------------------------

    def new(self, body: dict[str, Any]) -> dict[str, Any]:
        name = body.get("game")
        if name not in ADAPTERS:
            raise _bad("game", f"one of {', '.join(ADAPTERS)}")
        adapter = ADAPTERS[name]
        low, high, default = adapter.players
        players = _int(body, "players", default, low, high)
        person = _int(body, "seat", 0, 0, players - 1)
        bots = body.get("bots", "greedy")
        if bots not in BOT_KINDS:
            raise _bad("bots", f"one of {', '.join(BOT_KINDS)}")
        bot_seconds = _number(body, "botSeconds", BOT_SECONDS, 0.05, MAX_BOT_SECONDS)
        seed_given = body.get("seed") not in (None, "")
        seed = _int(body, "seed", 0, 0, MAX_SEED) if seed_given else secrets.randbelow(2**31)
        response = self._call(name, "NewGame", adapter.new_game_request(players, seed), CALL_SLACK_S)
        now = self._clock()
        table = Table(
            id=secrets.token_urlsafe(12),
            adapter=adapter,
            players=players,
            person=person,
            bots=bots,
            bot_seconds=bot_seconds,
            seed=seed,
            seed_given=seed_given,
            start=response.state,
            state=response.state,
            turn=response.turn,
            used=now,
        )
        table.log.extend(adapter.opening_lines(adapter.parse(response.state), players))
        with self._lock:
            self._expire(now)
            while len(self._tables) >= self.max_tables:
                oldest = min(self._tables.values(), key=lambda t: t.used)
                del self._tables[oldest.id]
                self.closed_for_room += 1
            self._tables[table.id] = table
        with table.lock:
            return self._view(table)

    def view(self, table_id: str) -> dict[str, Any]:
        return self._run(table_id, self._view)

    def move(self, table_id: str, body: dict[str, Any]) -> dict[str, Any]:
        def work(table: Table) -> dict[str, Any]:
            self._check_ply(table, body)
            seat = self._person_to_move(table)
            move = self._chosen_move(table, body)
            try:
                self._play(table, move, seat)
            except RequestError as error:
                raise TableError(400, error.detail()) from None
            return self._view(table)

        return self._run(table_id, work)

    def step(self, table_id: str, body: dict[str, Any]) -> dict[str, Any]:
        """The next bot decision (or a pending chance step), played by the service's hint."""

        def work(table: Table) -> dict[str, Any]:
            self._check_ply(table, body)
            if table.turn.game_over:
                raise TableError(409, "the game is over")
            if table.turn.chance_next:
                self._play(table, None, None)
                return self._view(table)
            seat = table.turn.to_move
            if seat == table.person:
                raise TableError(409, f"it is your turn ({seat_letter(seat)}): the bots wait for your move")
            self._bot_move(table, seat)
            return self._view(table)

        return self._run(table_id, work)

    def hint(self, table_id: str, body: dict[str, Any]) -> dict[str, Any]:
        """The person's hint, from what the person's seat may see only (the adapter builds the request)."""

        def work(table: Table) -> dict[str, Any]:
            self._check_ply(table, body)
            seat = self._person_to_move(table)
            seconds = _number(body, "seconds", HINT_SECONDS, 0.05, MAX_HINT_SECONDS)
            adapter = table.adapter
            state = adapter.parse(table.state)
            request = adapter.hint_request(table.state, state, seat, seconds, self._history(table))
            try:
                response = self.call(table, "Hint", request, seconds)
            except RequestError as error:
                raise TableError(
                    503 if error.code.name in ("UNAVAILABLE", "DEADLINE_EXCEEDED") else 400, error.detail()
                ) from None
            self._offers(table)
            return _hint_table(table, state, response)

        return self._run(table_id, work)

    def options(self, table_id: str, body: dict[str, Any]) -> dict[str, Any]:
        """The second stage of a two-stage move (Campsite: the tent, once the card is laid)."""

        def work(table: Table) -> dict[str, Any]:
            self._check_ply(table, body)
            seat = self._person_to_move(table)
            offers = self._offers(table)
            chosen = body.get("moveId")
            offer = offers.get(chosen) if isinstance(chosen, str) else None
            if offer is None or offer.move is not None:
                raise _bad("moveId", "the id of a first-stage choice of this view")
            adapter = table.adapter
            state = adapter.parse(table.state)
            stage = adapter.second_stage(
                state, table.state, seat, offer, lambda rpc, request: self.call(table, rpc, request)
            )
            table.pending = {"first": chosen}
            for item in stage.offers:
                table.offered[item.id] = item
            view = self._view(table)
            view.update(stage.view)
            view["moves"] = [item.public() for item in stage.offers]
            view["stage"] = {"title": stage.title, "first": chosen, "label": offer.label}
            return view

        return self._run(table_id, work)

    def position(self, table_id: str, ply: int) -> dict[str, Any]:
        """The position before the person's decision at record step `ply`, as the person saw it then."""

        def work(table: Table) -> dict[str, Any]:
            if not 0 <= ply < table.ply:
                raise _bad("ply", f"a step of this game's record, 0-{table.ply - 1}")
            step = table.steps[ply]
            if step.seat != table.person:
                raise _bad("ply", "not one of your decisions (another seat's position shows its hidden cards)")
            adapter = table.adapter
            before = table.start if ply == 0 else table.steps[ply - 1].state
            state = adapter.parse(before)
            shown = adapter.seat_view(state, table.person, table.players)
            assert step.move is not None
            answer = {
                "ply": ply,
                "played": adapter.label(state, step.move, table.person),
                "playedGhost": adapter.ghost(state, step.move),
                **shown,
            }
            best = table.best_moves.get(ply)
            if best is not None:
                answer["best"] = adapter.label(state, best, table.person)
                answer["bestGhost"] = adapter.ghost(state, best)
            return answer

        return self._run(table_id, work)

    def review(self, table_id: str, body: dict[str, Any]) -> dict[str, Any]:
        """The game's review (the Review RPC on the table's record), the person's own decisions in full and every
        seat's totals; answered once the game is over, and kept."""

        def work(table: Table) -> dict[str, Any]:
            if not table.turn.game_over:
                raise TableError(409, "the review comes at the end of the game")
            if table.review is None:
                table.review = self._review(table, _number(body, "seconds", REVIEW_SECONDS, 1.0, MAX_REVIEW_SECONDS))
            return table.review

        return self._run(table_id, work)

    # --- helpers -------------------------------------------------------------------------------------------------

    def _review(self, table: Table, seconds: float) -> dict[str, Any]:
        from campsolver.service.registry import games

        game = games()[table.adapter.name]
        try:
            command = game.by_rpc("Review")
        except KeyError:
            raise TableError(501, "this server has no Review RPC yet") from None
        request = table.adapter.review_request(command.request_type, table.start, table.steps, seconds)
        try:
            response = self.call(table, "Review", request, seconds)
        except RequestError as error:
            raise TableError(503, error.detail()) from None
        table.review_response = response
        return review_panel(table, response)

    def _check_ply(self, table: Table, body: dict[str, Any]) -> None:
        if "ply" not in body:
            return
        ply = body["ply"]
        if not isinstance(ply, int) or isinstance(ply, bool):
            raise _bad("ply", "the view's ply, an integer")
        if ply != table.ply:
            raise TableError(
                409, f"ply: the table is at ply {table.ply}, the request was made at ply {ply}; reload the view"
            )

    def _person_to_move(self, table: Table) -> int:
        turn = table.turn
        if turn.game_over:
            raise TableError(409, "the game is over")
        if turn.chance_next or not turn.HasField("to_move") or turn.to_move != table.person:
            who = "chance" if turn.chance_next else seat_letter(turn.to_move)
            raise TableError(409, f"it is not your turn ({who} is next)")
        return turn.to_move

    def _offers(self, table: Table) -> dict[str, Offer]:
        """The person's moves of this ply (listed once a ply, kept so a click can name one by its id)."""
        if table.offered_ply != table.ply:
            adapter = table.adapter
            state = adapter.parse(table.state)
            listed = adapter.offers(
                state, table.state, table.person, lambda rpc, request: self.call(table, rpc, request)
            )
            table.offered = {offer.id: offer for offer in listed}
            table.offered_ply = table.ply
        return table.offered

    def _chosen_move(self, table: Table, body: dict[str, Any]) -> Message:
        adapter = table.adapter
        if "moveId" in body:
            offers = self._offers(table)
            chosen = body["moveId"]
            offer = offers.get(chosen) if isinstance(chosen, str) else None
            if offer is None:
                raise _bad("moveId", "not a move of this view (reload it)")
            if offer.move is None:
                raise _bad("moveId", "a first-stage choice: complete the move first")
            return offer.move
        if "move" in body:
            text = body["move"]
            move_type = adapter.move_type()
            message = move_type()
            try:
                if isinstance(text, str):
                    json_format.Parse(text, message, ignore_unknown_fields=False)
                elif isinstance(text, dict):
                    json_format.ParseDict(text, message, ignore_unknown_fields=False)
                else:
                    raise _bad("move", "a move as proto3 JSON (an object or its text)")
            except json_format.ParseError as error:
                raise _bad("move", f"not a {move_type.DESCRIPTOR.name} in proto3 JSON ({error})") from None
            return message
        raise _bad("moveId", "give moveId (a move of the view) or move (proto3 JSON)")

    def _bot_move(self, table: Table, seat: int) -> None:
        adapter = table.adapter
        seconds = GREEDY_SECONDS if table.bots == "greedy" else table.bot_seconds
        state = adapter.parse(table.state)
        request = adapter.hint_request(table.state, state, seat, seconds, self._history(table))
        move = None
        try:
            response = self.call(table, "Hint", request, seconds)
            alternatives = adapter.alternatives(response)
            if alternatives:
                move = alternatives[0][0]
        except RequestError as error:
            log.warning(
                "table %s: the hint for seat %s refused the position (%s); a legal move instead",
                table.id,
                seat,
                error.detail(),
            )
        if move is None:
            listed = adapter.offers(state, table.state, seat, lambda rpc, r: self.call(table, rpc, r))
            playable = [o.move for o in listed if o.move is not None]
            move = playable[0] if playable else adapter.first_legal(state)
        self._play(table, move, seat)

    def _history(self, table: Table) -> list[tuple[Message, Message, int]]:
        """The decisions played so far (state before, move, seat): public facts, for hints that read them."""
        found = []
        before = table.start
        for step in table.steps:
            if step.move is not None and step.seat is not None:
                found.append((before, step.move, step.seat))
            before = step.state
        return found

    def _view(self, table: Table) -> dict[str, Any]:
        return seat_view(table, self._offers(table) if _person_moves(table) else {})


def _person_moves(table: Table) -> bool:
    turn = table.turn
    return not turn.game_over and not turn.chance_next and turn.HasField("to_move") and turn.to_move == table.person


def seat_view(table: Table, offers: dict[str, Offer]) -> dict[str, Any]:
    """What the person's page gets: everything drawn from the person's seat only."""
    adapter = table.adapter
    state = adapter.parse(table.state)
    turn = table.turn
    over = turn.game_over
    previous = None
    if table.steps:
        previous = adapter.parse(table.steps[-2].state if len(table.steps) > 1 else table.start)
    shown = adapter.seat_view(state, table.person, table.players, previous)
    scores = list(turn.scores)
    out = {line.seat: line.text for line in table.log if line.kind == "out" and line.seat is not None}
    seats = []
    for q in range(table.players):
        note = shown["notes"][q] if q < len(shown["notes"]) else ""
        if q in out:  # why the seat left the game, as the log said it
            note = out[q].replace(f"{seat_letter(q)} is out of the game: ", "out: ", 1)
        seats.append(
            {
                "name": seat_letter(q),
                "who": table.kind_of(q),
                "score": scores[q] if q < len(scores) else None,
                "toMove": (not over and not turn.chance_next and turn.HasField("to_move") and turn.to_move == q),
                "note": note,
            }
        )
    if over:
        winners = list(turn.winners)
        status = adapter.result_text(state, winners, scores)
    elif turn.chance_next:
        status = "Chance is next"
    elif turn.to_move == table.person:
        status = f"Your turn ({seat_letter(table.person)}): {adapter.task(state, table.person)}"
    else:
        status = f"{seat_letter(turn.to_move)} ({table.kind_of(turn.to_move)}) is to move"
    view: dict[str, Any] = {
        "table": table.id,
        "game": adapter.name,
        "title": adapter.title,
        "ply": table.ply,
        "you": table.person,
        "seats": seats,
        "status": status,
        "over": over,
        "yourTurn": _person_moves(table) and not over,
        "pictures": shown["pictures"],
        "legend": shown["legend"],
        "facts": shown["facts"],
        "moves": [offer.public() for offer in offers.values()],
        "keyLabels": shown.get("keyLabels", {}),
        "log": [line.text_for(table.person) for line in table.log],
    }
    if over:
        view["result"] = {
            "winners": [seat_letter(w) for w in turn.winners],
            "scores": scores,
            "text": adapter.result_text(state, list(turn.winners), scores),
        }
        view["seed"] = table.seed
    elif table.seed_given:
        view["seed"] = table.seed
    return view


def _fmt(value: float) -> float:
    return round(value, 4)


def _hint_table(table: Table, state: Any, response: Message) -> dict[str, Any]:
    """The person's hint as rows (best first), each row's move playable by its id; the note shared by every row
    said once; tied values marked."""
    adapter = table.adapter
    offers = table.offered
    by_key = {adapter.move_key(state, offer.move): offer for offer in offers.values() if offer.move is not None}
    rows = []
    for index, (move, ranking) in enumerate(adapter.alternatives(response)[:MAX_HINT_ROWS]):
        key = adapter.move_key(state, move)
        offer = by_key.get(key)
        if offer is None:
            offer = Offer(f"h{index}", adapter.label(state, move, table.person), [], move, adapter.ghost(state, move))
            offers[offer.id] = offer
        row: dict[str, Any] = {"rank": ranking.rank, "label": offer.label, "moveId": offer.id, "note": ranking.note}
        if ranking.HasField("value"):
            row["value"] = _fmt(ranking.value)
            row["loss"] = _fmt(ranking.loss)
        if ranking.HasField("standard_error"):
            row["se"] = _fmt(ranking.standard_error)
        if ranking.sampled:
            row["samples"] = ranking.samples
        rows.append(row)
    notes = {row["note"] for row in rows}
    shared_note = notes.pop() if len(notes) == 1 and len(rows) > 1 else ""
    if shared_note:
        for row in rows:
            row["note"] = ""
    stats = getattr(response, "stats", None)
    proof = ""
    proof_field = type(response).DESCRIPTOR.fields_by_name.get("proof")
    if proof_field is not None and response.proof:
        proof = proof_field.enum_type.values_by_number[response.proof].name
    summary = {
        "proof": proof.replace("PROOF_STATUS_", "").lower().replace("_", " ") or "none claimed",
        "method": getattr(stats, "method", "") if stats is not None else "",
        "seconds": round(stats.wall_time_seconds, 3) if stats is not None else None,
        "fallback": getattr(stats, "fallback", "") if stats is not None else "",
        "note": " ".join(x for x in (getattr(response, "note", ""), shared_note) if x),
        "unit": adapter.hint_unit(response),
    }
    return {"ply": table.ply, "rows": rows, "summary": summary, "ties": _ties(rows)}


def _ties(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Runs of rows with the same value (to 1e-9): a page can show them as one compact group."""
    groups = []
    start = 0
    while start < len(rows):
        end = start + 1
        if "value" in rows[start]:
            while end < len(rows) and "value" in rows[end] and abs(rows[end]["value"] - rows[start]["value"]) < 1e-9:
                end += 1
        if end - start > 1:
            groups.append({"first": start, "count": end - start, "value": rows[start]["value"]})
        start = end
    return groups


def review_panel(table: Table, response: Message) -> dict[str, Any]:
    """The review as the person may see it: every seat's totals (losses, accuracy, counts) and the person's own
    decisions with their losses, their moves named as the table names them (seats A, B, ...); nothing of another
    seat's decisions beyond its totals."""
    review = response.review
    adapter = table.adapter
    states = [table.start] + [step.state for step in table.steps]
    labels: dict[int, tuple[str, str]] = {}
    for moved in getattr(response, "moves", []):
        step = review.steps[moved.step]
        if step.WhichOneof("kind") != "decision" or step.decision.player != table.person:
            continue
        ply = step.record_step
        before = adapter.parse(states[ply])
        played = adapter.label(before, moved.played, table.person) if moved.HasField("played") else ""
        best = ""
        if moved.HasField("best"):
            table.best_moves[ply] = moved.best
            best = adapter.label(before, moved.best, table.person)
        labels[moved.step] = (played, best)
    players = []
    for summary in review.players:
        item: dict[str, Any] = {
            "seat": seat_letter(summary.player),
            "player": summary.player,
            "decisions": summary.decisions,
            "reviewed": summary.reviewed,
            "totalLoss": _fmt(summary.total_loss),
            "meanLoss": _fmt(summary.mean_loss),
            "inaccuracies": summary.inaccuracies,
            "mistakes": summary.mistakes,
            "blunders": summary.blunders,
        }
        if summary.HasField("accuracy"):
            item["accuracy"] = _fmt(summary.accuracy)
        if summary.HasField("total_loss_standard_error"):
            item["totalLossSe"] = _fmt(summary.total_loss_standard_error)
        if summary.player == table.person:
            item["costliest"] = [_reviewed(review.steps[i], i, labels) for i in summary.costliest]
        players.append(item)
    mine = [
        _reviewed(step, i, labels)
        for i, step in enumerate(review.steps)
        if step.WhichOneof("kind") == "decision" and step.decision.player == table.person
    ]
    thresholds = review.thresholds
    return {
        "unit": review.unit,
        "complete": review.complete,
        "note": review.note,
        "players": players,
        "decisions": mine,
        "notReviewed": sum(p["decisions"] - p["reviewed"] for p in players),
        "thresholds": {
            "inaccuracy": thresholds.inaccuracy,
            "mistake": thresholds.mistake,
            "blunder": thresholds.blunder,
            "reason": thresholds.reason,
        },
        "decisionCpuSeconds": review.decision_cpu_seconds,
    }


def _enum_words(enum_name: str, prefix: str) -> dict[int, str]:
    """A review enum's values as the page words them, from the proto's names ("REVIEW_MARK_BLUNDER" -> "blunder";
    the unspecified value -> "")."""
    from campsolver.v1 import common_pb2

    values = common_pb2.DESCRIPTOR.enum_types_by_name[enum_name].values
    return {v.number: "" if v.number == 0 else v.name.removeprefix(prefix).lower().replace("_", " ") for v in values}


_MARKS = _enum_words("ReviewMark", "REVIEW_MARK_")
_STATUS = _enum_words("ReviewStatus", "REVIEW_STATUS_")


def _reviewed(step: Any, index: int, labels: dict[int, tuple[str, str]]) -> dict[str, Any]:
    decision = step.decision
    played, best = labels.get(index, (decision.played, decision.best))
    item: dict[str, Any] = {
        "index": index,
        "ply": step.record_step,
        "status": _STATUS.get(decision.status, ""),
        "mark": _MARKS.get(decision.mark, ""),
        "played": played or decision.played,
        "best": best or decision.best,
        "note": decision.note,
        "rank": decision.played_rank,
        "choices": decision.choices,
    }
    for name, key in (
        ("played_value", "playedValue"),
        ("best_value", "bestValue"),
        ("loss", "loss"),
        ("loss_standard_error", "lossSe"),
    ):
        if decision.HasField(name):
            item[key] = _fmt(getattr(decision, name))
    return item


def _decimal(text: str, digits: int = 18) -> bool:
    """`text` is a plain ASCII decimal number of at most `digits` digits (`str.isdigit` also takes '²', which
    `int` refuses, and a string of thousands of digits that `int` refuses too)."""
    return text.isascii() and text.isdigit() and len(text) <= digits


def _int(body: dict[str, Any], name: str, default: int, low: int, high: int) -> int:
    value = body.get(name, default)
    if isinstance(value, str) and _decimal(value.strip().removeprefix("-")):
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        raise _bad(name, f"an integer {low}-{high}")
    if not low <= value <= high:
        raise _bad(name, f"{low}-{high}, got {value}")
    return value


def _number(body: dict[str, Any], name: str, default: float, low: float, high: float) -> float:
    value = body.get(name, default)
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            raise _bad(name, f"a number of seconds, {low:g}-{high:g}") from None
    if not isinstance(value, int | float) or isinstance(value, bool) or value != value:
        raise _bad(name, f"a number of seconds, {low:g}-{high:g}")
    if not low <= value <= high:
        raise _bad(name, f"{low:g}-{high:g} seconds, got {value:g}")
    return float(value)


# --- HTTP ------------------------------------------------------------------------------------------------------


def routes(sessions: TableSessions, executor: futures.Executor) -> Callable[..., Any]:
    """The ASGI app of the table's paths (under /table/), each request answered on `executor`:

    POST /table/new, GET /table/{id}, POST /table/{id}/move|step|hint|options|review,
    GET /table/{id}/position/{ply}. Anything else under /table/ is 404 (a known path with another method 405),
    always as JSON `{"error": "..."}`.
    """
    posts: dict[str, Callable[[str, dict[str, Any]], dict[str, Any]]] = {
        "move": sessions.move,
        "step": sessions.step,
        "hint": sessions.hint,
        "options": sessions.options,
        "review": sessions.review,
    }

    def resolve(method: str, parts: list[str]) -> Callable[[dict[str, Any]], dict[str, Any]]:
        if parts == ["new"]:
            if method != "POST":
                raise TableError(405, "/table/new takes POST")
            return sessions.new
        if len(parts) == 1:
            if method != "GET":
                raise TableError(405, "/table/{id} takes GET")
            return lambda _body: sessions.view(parts[0])
        if len(parts) == 2 and parts[1] in posts:
            if method != "POST":
                raise TableError(405, f"/table/{{id}}/{parts[1]} takes POST")
            return lambda body: posts[parts[1]](parts[0], body)
        if len(parts) == 3 and parts[1] == "position":
            if method != "GET":
                raise TableError(405, "/table/{id}/position/{ply} takes GET")
            if not _decimal(parts[2], 9):
                raise _bad("ply", "a step number")
            return lambda _body: sessions.position(parts[0], int(parts[2]))
        raise TableError(404, f"no such table route: {excerpt('/'.join(parts), 80)}")

    async def app(scope: Any, receive: Any, send: Any) -> None:
        request = Request(scope, receive)
        try:
            parts = [p for p in scope["path"][len("/table/") :].split("/") if p]
            work = resolve(request.method, parts)
            body: dict[str, Any] = {}
            if request.method == "POST":
                data = await _read_body(request)
                if data.strip():
                    try:
                        body = json.loads(data)
                    except (ValueError, UnicodeDecodeError) as error:
                        raise TableError(400, f"body: not JSON ({error})") from None
                    if not isinstance(body, dict):
                        raise TableError(400, "body: a JSON object")
            loop = asyncio.get_running_loop()
            result = await loop.run_in_executor(executor, work, body)
            response: Response = JSONResponse(result, headers={"Cache-Control": "no-store"})
        except TableError as error:
            response = JSONResponse({"error": error.message}, status_code=error.status)
        except Exception:  # never a traceback to the page
            log.exception("table request %s failed", scope.get("path"))
            response = JSONResponse({"error": "internal error (logged on the server)"}, status_code=500)
        await response(scope, receive, send)

    return app


async def _read_body(request: Request) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and _decimal(declared) and int(declared) > MAX_BODY_BYTES:
        raise TableError(413, f"body: {declared} bytes, more than the {MAX_BODY_BYTES} a table request may send")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise TableError(413, f"body: more than the {MAX_BODY_BYTES} bytes a table request may send")
        chunks.append(chunk)
    return b"".join(chunks)
