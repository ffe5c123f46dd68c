"""Deluxe Camping at the web table: the board is public; a click picks a square (setup), a piece then where it
goes (movement, up to two steps), or an edge (the free barrier)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from campsolver.service.games import deluxe_camping as service
from campsolver.service.table_games.base import Adapter, LogLine, Offer, legend, plural, seat_letter
from campsolver.solver.deluxe_camping import render, rules
from campsolver.solver.deluxe_camping.rules import Barrier, DCState, Move, Place, Stage
from google.protobuf.message import Message

from campsolver.v1 import deluxe_camping_pb2 as pb

PLACED = {
    Stage.POOL: "the swimming pool",
    Stage.MYSTERY: "a mystery token",
    Stage.BUNGALOW: "the bungalow",
    Stage.TRAILER: "a trailer",
}
SETUP = frozenset(PLACED)


class DeluxeCamping(Adapter):
    name = "deluxe-camping"
    title = "Deluxe Camping"
    players = (2, 4, 2)
    module = service
    pb = pb
    new_game_type = "DeluxeCampingServiceNewGameRequest"
    play_type = "DeluxeCampingServicePlayRequest"
    hint_type = "DeluxeCampingServiceHintRequest"

    def to_proto(self, state: Any) -> Message:
        return service.state_to_proto(state)

    def parse(self, state: Message) -> DCState:
        return service.state_from_proto(state)

    def apply(self, state: DCState, move: Message) -> DCState:
        return service._apply_move(state, move)

    def action(self, state: DCState, move: Message) -> rules.Action:
        return service.move_from_proto(move, state.config, "move")

    def move_key(self, state: DCState, move: Message) -> Any:
        action = self.action(state, move)
        if isinstance(action, Move):  # movements are one move by where the pieces end
            return "move", state._result_key(dict(_ends(action)))
        return action

    def at(self, state: DCState, square: int) -> str:
        r, c = state.config.cell(square)
        return f"r{r}c{c}"

    # --- words ---------------------------------------------------------------------------------------------

    def label(self, state: DCState, move: Message, viewer: int) -> str:
        action = self.action(state, move)
        if isinstance(action, Place):
            return f"place {PLACED[state.stage]} on {self.at(state, action.square)}"
        if isinstance(action, Move):
            if not action.steps:
                return "stay put"
            pieces = []
            for origin, path in _paths(action):
                what = "the pain-in-the-neck" if origin == state.nuisance else "trailer"
                pieces.append(f"{what} {' to '.join(self.at(state, s) for s in path)}")
            return "; ".join(pieces)
        if isinstance(action, Barrier):
            if action.edge is None:
                return "no free barrier"
            a, b = action.edge
            return f"barrier between {self.at(state, a)} and {self.at(state, b)}"
        return rules.describe_action(state.config, action)

    def ghost(self, state: DCState, move: Message) -> list[str]:
        action = self.action(state, move)
        if isinstance(action, Place):
            return [f"sq:{action.square}"]
        if isinstance(action, Move):
            return [f"sq:{s}" for origin, path in _paths(action) for s in path]
        if isinstance(action, Barrier) and action.edge is not None:
            return [f"edge:{action.edge[0]}-{action.edge[1]}"]
        return []

    def opening(self, state: DCState, players: int) -> str:
        config = state.config
        return (
            f"A new game of Deluxe Camping for {players} players on a {config.rows}x{config.cols} board: a "
            f"bungalow and {plural(config.trailers, 'trailer')} each, {config.supply} barriers; "
            f"{seat_letter(state.to_move)} begins by placing the swimming pool."
        )

    def describe_move(self, state: DCState, move: Message, seat: int, ply: int) -> list[LogLine]:
        who = seat_letter(seat)
        lines = [LogLine(ply, seat, "move", f"{who}: {self.label(state, move, seat)}")]
        action = self.action(state, move)
        after = state.child(action)
        if isinstance(action, Move | Place):
            walls = len(after.barriers) - len(state.barriers)
            if walls:
                lines.append(
                    LogLine(
                        ply,
                        None,
                        "event",
                        f"{plural(walls, 'automatic barrier')} between neighbouring pieces of different players",
                    )
                )
        return lines

    def describe_chance(self, outcomes: list[tuple[Any, Any, Any]], ply: int) -> list[LogLine]:
        lines = []
        for before, outcome, after in outcomes:
            ice = " and ".join(self.at(after, s) for s in after.ice_creams)
            lines.append(
                LogLine(
                    ply,
                    None,
                    "chance",
                    f"the reveal: the pain-in-the-neck is under "
                    f"{self.at(before, int(outcome))}; ice-cream stands on {ice}",
                )
            )
        return lines

    def describe_events(self, before: DCState, after: DCState, ply: int) -> list[LogLine]:
        lines = []
        if after.stage in (Stage.MOVE, Stage.BARRIER, Stage.OVER):
            for p in range(after.config.players):
                if after.stopped(p) and not before.stopped(p):
                    lines.append(
                        LogLine(
                            ply,
                            p,
                            "event",
                            f"{seat_letter(p)} stops: every one of "
                            f"{seat_letter(p)}'s pieces stands in a site of its own "
                            "(no more turns; its sites score)",
                        )
                    )
        if after.stage is Stage.OVER and before.stage is not Stage.OVER:
            active = [p for p in range(after.config.players) if not after.stopped(p)]
            if not active:
                reason = "every player's pieces stand in sites of their own"
            elif after.supply_left == 0:
                reason = "the barriers are used up"
            else:
                reason = "a whole round of turns went by without a barrier"
            lines.append(LogLine(ply, None, "end", f"Game over: {reason}."))
        return lines

    def task(self, state: DCState, viewer: int) -> str:
        if state.stage in SETUP:
            return f"place {PLACED[state.stage]}: click a square"
        if state.stage is Stage.MOVE:
            return (
                "move: click a trailer (or the pain-in-the-neck), then where it goes (up to two steps in all), "
                "or stay put"
            )
        return "place the free barrier: click an edge between two squares"

    # --- the seat's view -------------------------------------------------------------------------------------

    def seat_view(self, state: DCState, viewer: int, players: int, previous: Any = None) -> dict[str, Any]:
        config = state.config
        scores = state.scores()
        notes = []
        for p in range(config.players):
            if state.stage in SETUP:
                placed = len(state.trailers[p]) if p < len(state.trailers) else 0
                notes.append(f"{placed} of {config.trailers} trailers placed")
            else:
                notes.append(
                    f"sites score {scores[p]}"
                    + ("; stopped: every piece in a site of its own" if state.stopped(p) else "")
                )
        facts = [f"barriers: {len(state.barriers)} placed, {state.supply_left} in the supply", render_rule()]
        if state.stage in (Stage.MOVE, Stage.BARRIER) and state.idle_turns:
            facts.append(
                f"{plural(state.idle_turns, 'turn')} in a row without a barrier (a whole round of them ends the game)"
            )
        shown = previous if previous is not None and previous.config == config else None
        return {
            "pictures": [{"title": "The campground", "svg": render.seat_svg(state, viewer, previous=shown)}],
            "legend": legend(
                [
                    *render.seat_legend(state),
                    (render.swatch("tint", "#ffffff", "r2", "#555"), "row and column numbers: r2c5 is row 2, column 5"),
                ]
            ),
            "facts": facts,
            "notes": notes,
            "keyLabels": {"stay": "stay put", "nobarrier": "no free barrier"},
        }

    def offers(self, state: DCState, proto: Message, viewer: int, call: Any) -> list[Offer]:
        found = []
        for index, action in enumerate(state.legal_actions()):
            move = service.move_to_proto(state.config, action)
            if isinstance(action, Place):
                keys = [f"sq:{action.square}"]
            elif isinstance(action, Move):
                if not action.steps:
                    keys = ["stay"]
                else:
                    keys = []
                    for origin, path in _paths(action):
                        keys += [f"from:{origin}", f"sq:{path[-1]}"]
            elif isinstance(action, Barrier):
                keys = ["nobarrier"] if action.edge is None else [f"edge:{action.edge[0]}-{action.edge[1]}"]
            else:
                continue
            found.append(Offer(f"m{index}", self.label(state, move, viewer), keys, move, self.ghost(state, move)))
        return found

    def first_legal(self, state: DCState) -> Message:
        return service.move_to_proto(state.config, state.legal_actions()[0])

    def hint_unit(self, response: Message) -> str:
        return "margin over the best opponent (points)"


def render_rule() -> str:
    return (
        "a site (a region closed by barriers) holding one player's pieces only scores for that player: 1 a "
        "square, x2 with the pool, +5 an ice-cream stand, -10 with the pain-in-the-neck (not below 0)"
    )


def _paths(action: Move) -> list[tuple[int, list[int]]]:
    """Each moved piece's origin and the squares it passes, in order (steps of one piece are chained)."""
    paths: dict[int, list[int]] = {}
    where: dict[int, int] = {}
    for a, b in action.steps:
        origin = where.pop(a, a)
        paths.setdefault(origin, [a]).append(b)
        where[b] = origin
    return [(origin, path) for origin, path in paths.items()]


def _ends(action: Move) -> list[tuple[int, int]]:
    return [(origin, path[-1]) for origin, path in _paths(action)]


__all__ = ["DeluxeCamping", "Sequence"]
