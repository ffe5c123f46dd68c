"""Happy Campers at the web table (the multi-player game): every map is public; a drawing is picked by clicking
its squares on the map it goes on (and its element, when the roll leaves a choice)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from campsolver.service.games import happy_campers as service
from campsolver.service.table_games.base import Adapter, LogLine, Offer, legend, plural, seat_letter, swatch_svg
from campsolver.solver.happy_campers import modes, render, rules
from campsolver.solver.happy_campers.rules import ANY_FACE, Element, Placement
from google.protobuf.message import Message

from campsolver.v1 import common_pb2
from campsolver.v1 import happy_campers_pb2 as pb

SHAPE_NAMES = ("domino", "straight tromino", "L tromino", "square tetromino", "T tetromino")


def _element(element: int) -> str:
    return Element(element).name.lower()


def _cells(cells: frozenset[tuple[int, int]]) -> str:
    return " ".join(render.cell_label(cell) for cell in sorted(cells))


def _shape_name(components: rules.Components, face: int) -> str:
    if face == ANY_FACE and len(components.shapes) < ANY_FACE:
        return "any shape"
    index = face - 1
    if components.shapes == rules.DEFAULT_SHAPES and index < len(SHAPE_NAMES):
        return SHAPE_NAMES[index]
    return f"shape {face}"


def _element_face(components: rules.Components, face: int) -> str:
    return "any element" if face == ANY_FACE else _element(int(components.elements[face - 1]))


class HappyCampers(Adapter):
    name = "happy-campers"
    title = "Happy Campers"
    players = (2, 6, 2)
    module = service
    pb = pb
    new_game_type = "HappyCampersServiceNewGameRequest"
    play_type = "HappyCampersServicePlayRequest"
    hint_type = "HappyCampersServiceHintRequest"

    def to_proto(self, state: Any) -> Message:
        return service.game_to_proto(state)

    def parse(self, state: Message) -> modes.MultiplayerState:
        return service.game_from_proto(state)

    def apply(self, state: Any, move: Message) -> Any:
        return service._apply_move(state, move)

    def placement(self, state: modes.MultiplayerState, move: Message) -> Placement:
        drawn = move.placements[0]
        return service.placement_from_proto(drawn, state.components, "move.placements[0]")

    def move_key(self, state: Any, move: Message) -> Any:
        placement = self.placement(state, move)
        return placement.cells, int(placement.element)

    def _move(self, placement: Placement) -> Message:
        return pb.HappyCampersHintMove(placements=[service.placement_to_proto(placement)])

    # --- words ---------------------------------------------------------------------------------------------

    def label(self, state: modes.MultiplayerState, move: Message, viewer: int) -> str:
        placement = self.placement(state, move)
        target = state.to_draw[0] if state.to_draw else viewer
        where = "" if state.roll is None or state.drawer_of(target) == target else f" on {seat_letter(target)}'s map"
        shape = _shape_name(state.components, placement.option.shape_face)
        return f"{_element(int(placement.element))} {shape} on {_cells(placement.cells)}{where}"

    def ghost(self, state: modes.MultiplayerState, move: Message) -> list[str]:
        target = state.to_draw[0]
        return [f"cell:{target}:{render.cell_label(cell)}" for cell in sorted(self.placement(state, move).cells)]

    def opening(self, state: modes.MultiplayerState, players: int) -> str:
        cards = ", ".join(c.display_name for c in state.challenges) or "none"
        roll = f" First roll: {state.roll[0]} and {state.roll[1]}." if state.roll is not None else ""
        return (
            f"A new game of Happy Campers for {players} players, one {state.components.rows}x"
            f"{state.components.cols} map each; challenge cards: {cards}.{roll}"
        )

    def describe_chance(self, outcomes: list[tuple[Any, Any, Any]], ply: int) -> list[LogLine]:
        lines = []
        for before, roll, after in outcomes:
            a, b = roll
            text = f"roll {a} and {b}"
            if a == b:
                side = "left" if a in modes.LEFT_NEIGHBOUR_FACES else "right"
                text += f": a double, everyone draws on the {side} neighbour's map"
            lines.append(LogLine(ply, None, "chance", text))
            for q in range(before.players):
                if before.in_game[q] and not after.in_game[q]:
                    last = "" if after.over else " (the next turn is the last)"
                    lines.append(
                        LogLine(
                            ply,
                            q,
                            "out",
                            f"{seat_letter(q)}'s map cannot take roll {a} and {b}: {seat_letter(q)} is out{last}",
                        )
                    )
            if after.bonus_turn:
                lines.append(LogLine(ply, None, "event", "the bonus turn: the last turn of the game"))
        return lines

    def describe_events(self, before: Any, after: Any, ply: int) -> list[LogLine]:
        if after.over and not before.over:
            reason = (
                "the bonus turn, the last, is over"
                if before.bonus_turn or before.bonus_next
                else "no map can take the roll"
            )
            return [LogLine(ply, None, "end", f"Game over: {reason}.")]
        return []

    def task(self, state: modes.MultiplayerState, viewer: int) -> str:
        a, b = state.roll
        target = state.to_draw[0]
        on = "your map" if target == viewer else f"{seat_letter(target)}'s map (a double: you draw for them)"
        return f"roll {a} and {b}: draw on {on}: click the squares of your drawing"

    # --- the seat's view -------------------------------------------------------------------------------------

    def seat_view(
        self, state: modes.MultiplayerState, viewer: int, players: int, previous: Any = None
    ) -> dict[str, Any]:
        components = state.components
        scores = state.final_scores()
        pictures = []
        for q, grid in enumerate(state.maps):
            recent: frozenset[tuple[int, int]] = frozenset()
            if previous is not None and previous.maps[q] != grid:
                recent = frozenset(
                    (r, c) for r, row in enumerate(grid) for c, v in enumerate(row) if v and not previous.maps[q][r][c]
                )
            title = f"{seat_letter(q)}'s map" + (" (you)" if q == viewer else "")
            if not state.in_game[q]:
                title += ": out of the game"
            pictures.append({"title": title, "svg": render.seat_map_svg(grid, q, recent=recent, label=title)})
        notes = []
        for q, grid in enumerate(state.maps):
            breakdown = rules.score(grid, state.challenges, components)
            missing = [_element(int(e)) for e in rules.ELEMENTS if not breakdown.clusters.get(e)]
            text = f"score {scores[q]}" if breakdown.complete else f"0 until drawn: {', '.join(missing)}"
            notes.append(text + ("" if state.in_game[q] else "; out"))
        facts = []
        if state.roll is not None:
            a, b = state.roll
            options = [
                f"{_shape_name(components, o.shape_face)} ({o.shape_face}) with "
                f"{_element_face(components, o.element_face)} ({o.element_face})"
                for o in state.roll_option_for_maps()
            ]
            facts.append(f"roll {a} and {b}: " + " or ".join(options))
        cards = ", ".join(c.display_name for c in state.challenges) or "none"
        facts.append(f"challenge cards: {cards}")
        facts.append(
            "a map scores its largest cluster of each element, -1 per empty square; a map missing an "
            "element scores 0. A double (1-3: left, 4-6: right) draws on a neighbour's map."
        )
        entries = [
            (
                swatch_svg(render.ELEMENT_COLOURS[int(e)], render.ELEMENT_LETTERS[int(e)], letter_fill="#ffffff"),
                f"{_element(int(e))} (element {face})",
            )
            for face, e in enumerate(components.elements, start=1)
        ]
        entries.append((swatch_svg("#ffffff"), "an empty square (-1 point at the end)"))
        entries.append((swatch_svg("#ffffff", stroke="#000"), "outlined: the drawing made since your last look"))
        entries += [
            (render.shape_svg(shape), f"shape {face}: {_shape_name(components, face)}")
            for face, shape in enumerate(components.shapes, start=1)
        ]
        if len(components.shapes) < ANY_FACE:
            entries.append(
                (swatch_svg("#f4f4f4", "?"), "a 6 on the shape die: any shape; on the element die: any element")
            )
        entries.append(
            (
                swatch_svg("#ffffff", "r1", letter_fill="#555", stroke="#ffffff"),
                "row and column numbers: r1c4 is row 1, column 4 (as the hint names squares)",
            )
        )
        return {
            "pictures": pictures,
            "legend": legend(entries),
            "facts": facts,
            "notes": notes,
            "keyLabels": {f"elem:{int(e)}": _element(int(e)) for e in rules.ELEMENTS},
        }

    def offers(self, state: modes.MultiplayerState, proto: Message, viewer: int, call: Any) -> list[Offer]:
        target = state.to_draw[0]
        found, seen = [], set()
        for placement in state.legal_actions():
            key = (placement.cells, int(placement.element))
            if key in seen:
                continue  # the same drawing reached through another option of the roll
            seen.add(key)
            move = self._move(placement)
            cells = [f"cell:{target}:{render.cell_label(cell)}" for cell in sorted(placement.cells)]
            found.append(
                Offer(
                    f"m{len(found)}",
                    self.label(state, move, viewer),
                    [*cells, f"elem:{int(placement.element)}"],
                    move,
                    cells,
                )
            )
        return found

    def first_legal(self, state: Any) -> Message:
        return self._move(state.legal_actions()[0])

    def hint_request(
        self, proto: Message, state: Any, viewer: int, seconds: float, history: Sequence[tuple[Message, Message, int]]
    ) -> Message:
        return pb.HappyCampersServiceHintRequest(
            game=proto, options=common_pb2.SolveOptions(time_limit_seconds=seconds)
        )

    def hint_unit(self, response: Message) -> str:
        return "expected final margin over the best other map"

    def result_text(self, state: Any, winners: Sequence[int], scores: Sequence[int]) -> str:
        return super().result_text(state, winners, scores)


__all__ = ["HappyCampers", "plural"]
