"""Camper Tour at the web table: everything is public; a click on a plate announces the drive to it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from campsolver.service.games import camper_tour as service
from campsolver.service.table_games.base import Adapter, LogLine, Offer, legend, plural, seat_letter
from campsolver.solver.camper_tour import render, rules
from campsolver.solver.camper_tour.opponents import MAX_RECORD
from campsolver.solver.camper_tour.rules import (
    Announce,
    ComfortsChoice,
    Pass,
    Pending,
    Phase,
    PlateKind,
    Stage,
    TourState,
    TurnBack,
)
from google.protobuf.message import Message

from campsolver.v1 import camper_tour_pb2 as pb
from campsolver.v1 import common_pb2

KIND_NAME = {PlateKind.NORMAL: "normal", **render.NAME}
COMFORTS_TEXT = {
    ComfortsChoice.RECOVER: "recover 3 tokens (Unexpected Comforts)",
    ComfortsChoice.DISCARD: "discard 3 tokens (Unexpected Comforts)",
    ComfortsChoice.DECLINE: "neither recover nor discard (Unexpected Comforts)",
}


def _tokens(count: int) -> str:
    return plural(count, "token")


class CamperTour(Adapter):
    name = "camper-tour"
    title = "Camper Tour"
    players = (2, 4, 2)
    module = service
    pb = pb
    new_game_type = "CamperTourServiceNewGameRequest"
    play_type = "CamperTourServicePlayRequest"
    hint_type = "CamperTourServiceHintRequest"

    def to_proto(self, state: Any) -> Message:
        return service.state_to_proto(state)

    def parse(self, state: Message) -> TourState:
        return service.state_from_proto(state)

    def apply(self, state: TourState, move: Message) -> TourState:
        return service._apply_move(state, move)

    def action(self, move: Message) -> rules.Action:
        return service.move_from_proto(move, "move")

    def move_key(self, state: TourState, move: Message) -> Any:
        return self.action(move)

    # --- words ---------------------------------------------------------------------------------------------

    def label(self, state: TourState, move: Message, viewer: int) -> str:
        action = self.action(move)
        camper = state.campers[state.to_move]
        if isinstance(action, Announce):
            target = (
                camper.position + action.plates if camper.phase == Phase.OUTWARD else camper.position - action.plates
            )
            return f"announce {action.plates} (to plate {target})"
        if isinstance(action, TurnBack):
            return f"turn back here (place marker on plate {camper.position})"
        if isinstance(action, Pass):
            return "pass (every plate within reach is taken)"
        return COMFORTS_TEXT[action]

    def ghost(self, state: TourState, move: Message) -> list[str]:
        action = self.action(move)
        camper = state.mover
        if isinstance(action, Announce):
            sign = 1 if camper.phase == Phase.OUTWARD else -1
            return [f"plate:{camper.position + sign * action.plates}"]
        return [f"plate:{camper.position}"] if camper.position else []

    def opening(self, state: TourState, players: int) -> str:
        first = seat_letter(state.to_move)
        return (
            f"A new game of Camper Tour: {players} campers with {_tokens(state.config.starting_tokens)} each, "
            f"{state.config.plate_count} plates in the stack; {first} begins."
        )

    def describe_move(self, state: TourState, move: Message, seat: int, ply: int) -> list[LogLine]:
        return [LogLine(ply, seat, "move", f"{seat_letter(seat)}: {self.label(state, move, seat)}")]

    def describe_chance(self, outcomes: list[tuple[Any, Any, Any]], ply: int) -> list[LogLine]:
        lines: list[LogLine] = []
        laid: list[tuple[int, PlateKind]] = []

        def flush() -> None:
            if not laid:
                return
            first, last = laid[0][0], laid[-1][0]
            where = f"plate {first}" if first == last else f"plates {first}-{last}"
            specials = [f"{plate} {KIND_NAME[kind]}" for plate, kind in laid if kind != PlateKind.NORMAL]
            what = (
                "; " + ", ".join(specials) + (", the rest normal" if len(specials) < len(laid) else "")
                if specials
                else ": normal"
            )
            lines.append(LogLine(ply, None, "chance", f"{where} laid{what}"))
            laid.clear()

        for before, outcome, after in outcomes:
            who = seat_letter(before.to_move)
            mover, moved = before.mover, after.campers[before.to_move]
            if before.stage == Stage.LAY:
                laid.append((len(before.laid) + 1, PlateKind(outcome)))
                continue
            flush()
            if before.stage == Stage.ROLL:
                text = self._roll_text(before, int(outcome), mover, moved)
                lines.append(LogLine(ply, before.to_move, "chance", text))
            elif before.stage == Stage.EFFECT:
                lines.append(
                    LogLine(
                        ply,
                        before.to_move,
                        "chance",
                        f"die {outcome}: {self._effect_text(before, int(outcome), mover, moved)}",
                    )
                )
            if moved.phase == Phase.ELIMINATED and mover.phase != Phase.ELIMINATED:
                lines.append(
                    LogLine(
                        ply, before.to_move, "out", f"{who} is out of the game: {self._why_out(before, outcome, mover)}"
                    )
                )
        flush()
        return lines

    def _roll_text(self, state: TourState, total: int, mover: rules.Camper, moved: rules.Camper) -> str:
        who = seat_letter(state.to_move)
        announced = state.announced
        if total <= announced:
            return f"dice {total}, not above {announced}: {who} does not move"
        pay = total - announced
        target = mover.position + announced if mover.phase == Phase.OUTWARD else mover.position - announced
        if moved.phase == Phase.ELIMINATED:
            return f"dice {total}, above {announced}: {who} owes {_tokens(pay)} and has {_tokens(mover.tokens)}"
        short = max(0, pay - mover.tokens) if mover.phase == Phase.RETURN else 0
        text = f"dice {total}, above {announced}: {who} pays {_tokens(pay - short)} and drives to plate {target}"
        if short:
            text += f"; {short} short, so the place marker moves back to plate {mover.marker - short}"
        return text

    def _effect_text(self, state: TourState, face: int, mover: rules.Camper, moved: rules.Camper) -> str:
        who = seat_letter(state.to_move)
        kind = state.plate_kind(mover.position)
        if kind == PlateKind.MECHANICAL_PROBLEM:
            return f"Mechanical Problem: {who} loses {_tokens(face)} and the next turn"
        if kind == PlateKind.VILLAGE_FESTIVAL:
            if face >= rules.FESTIVAL_MIN_GAIN:
                return f"Village Festival: {who} gains {_tokens(moved.tokens - mover.tokens)}"
            return f"Village Festival: {who} loses the next turn"
        if moved.position != mover.position:
            return f"No Parking: {who} moves to plate {moved.position}"
        return f"No Parking: no plate to move to, {who} loses {rules.NO_PARKING_PENALTY} tokens"

    def _why_out(self, state: TourState, outcome: Any, mover: rules.Camper) -> str:
        if state.stage == Stage.ROLL and int(outcome) <= state.announced and state.last_camper_rule:
            return (
                "the last camper still travelling must beat the announcement, and the dice did not "
                f"({outcome} against {state.announced})"
            )
        return "ran out of tokens before turning back"

    def describe_events(self, before: TourState, after: TourState, ply: int) -> list[LogLine]:
        lines = []
        for q, (old, new) in enumerate(zip(before.campers, after.campers, strict=True)):
            who = seat_letter(q)
            if new.phase == Phase.FINISHED and old.phase != Phase.FINISHED:
                lines.append(
                    LogLine(
                        ply,
                        q,
                        "event",
                        f"{who} is home: final score {new.score} "
                        f"(place marker {new.marker} minus {_tokens(new.tokens)} left)",
                    )
                )
            if old.pending == Pending.SKIP_TURN and new.pending == Pending.NONE and new.active:
                lines.append(LogLine(ply, q, "event", f"{who} misses a turn"))
        if after.game_over and not before.game_over:
            lines.append(LogLine(ply, None, "end", self._end_reason(after)))
        return lines

    def _end_reason(self, state: TourState) -> str:
        if not any(c.active for c in state.campers):
            return "Game over: nobody is left on the journey."
        latest = max(
            (i for i, c in enumerate(state.campers) if c.phase == Phase.FINISHED),
            key=lambda i: state.campers[i].arrival,
        )
        return (
            f"Game over: {seat_letter(latest)} got home furthest ahead of every camper still travelling, "
            "so nobody can pass that score."
        )

    def task(self, state: TourState, viewer: int) -> str:
        camper = state.mover
        if camper.pending == Pending.COMFORTS_CHOICE:
            return "choose what Unexpected Comforts gives you (or turn back)"
        if camper.phase == Phase.OUTWARD:
            return "click the plate to drive to (an announcement of 1-10), or turn back"
        return "click the plate to drive to on the way home (an announcement of 1-10)"

    def result_text(self, state: TourState, winners: Sequence[int], scores: Sequence[int]) -> str:
        if not winners:
            return "Game over: no winner (nobody got home)."
        return super().result_text(state, winners, scores)

    # --- the seat's view -------------------------------------------------------------------------------------

    def seat_view(self, state: TourState, viewer: int, players: int, previous: Any = None) -> dict[str, Any]:
        counts = state.remaining_stack()
        stack = sum(counts)
        specials = ", ".join(f"{counts[kind]} {render.NAME[kind]}" for kind in render.NAME)
        notes = [self._note(state, q) for q in range(len(state.campers))]
        facts = [f"{plural(len(state.laid), 'plate')} laid; {stack} in the stack ({specials})"]
        if state.config.token_rule == rules.TokenRule.SUPPLY:
            held = sum(c.tokens for c in state.campers if c.active)
            facts.append(f"tokens in the supply: {state.config.token_supply - held}")
        facts.append(
            "rules: a camper who runs out of tokens before turning back is out; the last camper still "
            "travelling is out when the dice do not beat the announcement"
        )
        return {
            "pictures": [{"title": "The route", "svg": render.seat_svg(state, viewer)}],
            "legend": legend(render.seat_legend(state)),
            "facts": facts,
            "notes": notes,
            "keyLabels": {
                **{f"n:{n}": f"announce {n}" for n in range(1, rules.MAX_ANNOUNCEMENT + 1)},
                "turnback": "turn back here",
                "pass": "pass",
                **{f"comforts:{c.value}": COMFORTS_TEXT[c] for c in ComfortsChoice},
            },
        }

    def _note(self, state: TourState, q: int) -> str:
        camper = state.campers[q]
        if camper.phase == Phase.OUTWARD:
            where = "at the start" if camper.position == 0 else f"outward on plate {camper.position}"
            text = f"{where}, {_tokens(camper.tokens)}"
        elif camper.phase == Phase.RETURN:
            text = f"heading home on plate {camper.position}, marker {camper.marker}, {_tokens(camper.tokens)}"
        elif camper.phase == Phase.FINISHED:
            text = f"home: score {camper.score}"
        else:
            text = "out of the game"
        if camper.pending == Pending.SKIP_TURN:
            text += "; misses the next turn"
        if camper.pending == Pending.COMFORTS_CHOICE:
            text += "; Unexpected Comforts choice next turn"
        return text

    def offers(self, state: TourState, proto: Message, viewer: int, call: Any) -> list[Offer]:
        found = []
        for index, action in enumerate(state.legal_actions()):
            move = service.move_to_proto(action)
            if isinstance(action, Announce):
                keys = [self.ghost(state, move)[0], f"n:{action.plates}"]
            elif isinstance(action, TurnBack):
                keys = ["turnback"]
            elif isinstance(action, Pass):
                keys = ["pass"]
            else:
                keys = [f"comforts:{action.value}"]
            found.append(Offer(f"m{index}", self.label(state, move, viewer), keys, move, self.ghost(state, move)))
        return found

    def first_legal(self, state: TourState) -> Message:
        return service.move_to_proto(state.legal_actions()[0])

    # --- hints ---------------------------------------------------------------------------------------------

    def hint_request(
        self,
        proto: Message,
        state: TourState,
        viewer: int,
        seconds: float,
        history: Sequence[tuple[Message, Message, int]],
    ) -> Message:
        """Everything is public: the state, and the game's record (the hint reads the other campers' past
        decisions to recognise the solo policy)."""
        request = pb.CamperTourServiceHintRequest(
            state=proto, options=common_pb2.SolveOptions(time_limit_seconds=seconds)
        )
        for before, move, _seat in list(history)[-MAX_RECORD:]:
            request.history.add(state=before, move=move)
        return request

    def hint_unit(self, response: Message) -> str:
        if response.objective == common_pb2.OBJECTIVE_EXPECTED_SCORE:
            return "expected final score"
        return "win probability"
