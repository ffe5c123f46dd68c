"""The shared part of each game at the web table (`service.table`): how a seat sees it, which moves it offers
the person and how a click picks one, whose information a hint may read, and the log in words.

Every rule stays in the game's own modules: states are parsed and moves applied by the game's service mapping
(`service.games.<game>`), legality comes from the rules model (or the game's `LegalMoves`), pictures from the
game's `render.seat_svg`. What a seat may see is decided here, per game, and tested (tests/test_table_*.py):

- Happy Campers, Deluxe Camping, Camper Tour: perfect information (Deluxe Camping's mystery tokens are unknown to
  everybody until the reveal, a chance step), so every seat sees the whole table.
- Campsite: the seat's own hand and tokens; the other hands by their size; the table and every pitched tent.
- Adventure Tours: the seat's own hand; the other hands by their size; boards, members, equipment, money.
  A card drawn is named to the seat that draws it only; the log tells the others that a card was drawn.

A move the page offers is an `Offer`: its label, the *keys* a click on the board (or a chip) adds to a
selection (`cell:2:r1c4`, `card:17`, `n:6` ...; an offer is picked when the keys clicked single it out) and the
*ghost*, the board marks to highlight while it is chosen. Hit marks in the pictures carry the same keys
(`data-key`) and identities (`data-cell`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from campsolver.service.games import shared
from campsolver.solver.core.game import CHANCE
from campsolver.solver.core.picture import SEAT_LETTERS
from google.protobuf.message import Message

from campsolver.v1 import common_pb2

ServiceCall = Callable[[str, Message], Message]


def seat_letter(seat: int | None) -> str:
    return "chance" if seat is None or seat < 0 else SEAT_LETTERS[seat]


@dataclass
class Offer:
    """One move open to the person: `move` is the Play request's move (None: the first stage of a two-stage
    move, completed by `second_stage`)."""

    id: str
    label: str
    keys: list[str]
    move: Message | None
    ghost: list[str] = field(default_factory=list)
    data: Any = None  # what a first-stage choice carries to its second stage

    def public(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "label": self.label,
            "keys": self.keys,
            "ghost": self.ghost,
            "final": self.move is not None,
        }


@dataclass
class LogLine:
    """One line of the table's log. `private` holds what a seat may read instead of `text` (its own draws)."""

    ply: int
    seat: int | None
    kind: str  # start, move, chance, event, out, round, end
    text: str
    private: dict[int, str] = field(default_factory=dict)

    def text_for(self, viewer: int) -> dict[str, Any]:
        line = {
            "ply": self.ply,
            "seat": None if self.seat is None else seat_letter(self.seat),
            "kind": self.kind,
            "text": self.private.get(viewer, self.text),
        }
        if viewer in self.private:
            line["private"] = True  # what this seat alone reads (its own draw)
        return line


@dataclass
class SecondStage:
    """The second stage of a two-stage move: its offers and what the view shows meanwhile."""

    title: str
    offers: list[Offer]
    view: dict[str, Any]


def swatch_svg(
    fill: str,
    letter: str = "",
    *,
    shape: str = "rect",
    letter_fill: str = "#212121",
    stroke: str = "#555",
    dashed: bool = False,
) -> str:
    """A 24 x 24 legend mark as a standalone SVG (letters at 12 units: 12 CSS px on the page)."""
    dash = ' stroke-dasharray="4 3"' if dashed else ""
    if shape == "circle":
        mark = f'<circle cx="12" cy="12" r="11" fill="{fill}" stroke="{stroke}"/>'
    elif shape == "line":
        mark = f'<line x1="2" y1="12" x2="22" y2="12" stroke="{fill}" stroke-width="5" stroke-linecap="round"/>'
    elif shape == "triangle":
        mark = f'<polygon points="3,21 12,4 21,21" fill="{fill}" stroke="{stroke}"/>'
    else:
        mark = f'<rect x="1" y="1" width="22" height="22" fill="{fill}" stroke="{stroke}"{dash}/>'
    text = (
        (
            f'<text x="12" y="16.5" font-size="12" font-weight="bold" text-anchor="middle" fill="{letter_fill}">'
            f"{letter}</text>"
        )
        if letter
        else ""
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" '
        f'font-family="DejaVu Sans, Verdana, sans-serif">{mark}{text}</svg>'
    )


def legend(entries: Sequence[tuple[str, str]]) -> list[dict[str, str]]:
    return [{"swatch": mark, "text": text} for mark, text in entries]


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


class Adapter:
    """What `service.table` needs of one game; the subclasses below fill it in."""

    name = ""
    title = ""
    players: tuple[int, int, int] = (2, 4, 2)  # fewest, most, default
    #: The game's service mapping module and generated proto module.
    module: Any = None
    pb: Any = None
    new_game_type = ""
    play_type = ""
    hint_type = ""

    # --- protos and the rules model --------------------------------------------------------------------------

    def new_game_request(self, players: int, seed: int) -> Message:
        return getattr(self.pb, self.new_game_type)(players=players, seed=seed)

    def play_request(self, state: Message, move: Message | None, seed: int) -> Message:
        request = getattr(self.pb, self.play_type)(state=state, seed=seed)
        if move is not None:
            request.move.CopyFrom(move)
        return request

    def move_type(self) -> type[Message]:
        return type(getattr(self.pb, self.play_type)().move)

    def parse(self, state: Message) -> Any:
        raise NotImplementedError

    def apply(self, state: Any, move: Message) -> Any:
        """The rules model's state after the person's or a bot's move (the game's own Play mapping)."""
        raise NotImplementedError

    def review_request(
        self, request_type: type[Message], start: Message, steps: Sequence[Any], seconds: float
    ) -> Message:
        """The Review request of a table's record (every Play call after NewGame, with its seed and answer)."""
        request = request_type()
        request.record.start.CopyFrom(start)
        for step in steps:
            item = request.record.steps.add(seed=step.seed)
            if step.move is not None:
                item.move.CopyFrom(step.move)
            item.state.CopyFrom(step.state)
        if seconds:
            request.options.time_limit_seconds = seconds
        return request

    # --- the log ---------------------------------------------------------------------------------------------

    def to_proto(self, state: Any) -> Message:
        """The game's state message of a rules state (as NewGame and Play answer it)."""
        raise NotImplementedError

    def replay(self, before: Any, move: Message | None, seed: int) -> tuple[Any, list[tuple[Any, Any, Any]]]:
        """One Play call done again on the rules model: the move, then every chance outcome drawn from the call's
        seed exactly as Play draws them (`shared.seeded_rng`, `shared.draw_outcome`); the state reached and the
        chance steps (state, outcome, next state) in order. Tests check it reaches Play's own answer."""
        state = self.apply(before, move) if move is not None else before
        rng = shared.seeded_rng(seed)
        outcomes = []
        while state.current_player() == CHANCE:
            outcome = shared.draw_outcome(state, rng)
            following = state.child(outcome)
            outcomes.append((state, outcome, following))
            state = following
        return state, outcomes

    def narrate(self, before: Any, move: Message | None, seed: int, after: Any, ply: int) -> list[LogLine]:
        """The log lines of one Play call: the move, then every chance outcome in order (each told to the seats
        that may know it), then what followed."""
        lines: list[LogLine] = []
        if move is not None:
            lines += self.describe_move(before, move, before.current_player(), ply)
        state, outcomes = self.replay(before, move, seed)
        lines += self.describe_chance(outcomes, ply)
        lines += self.describe_events(before, state, ply)
        return lines

    def opening(self, state: Any, players: int) -> str:
        return f"A new game of {self.title} for {players} players."

    def opening_private(self, state: Any, players: int) -> dict[int, str]:
        """What each seat alone learns at the setup (its own hand), by seat."""
        return {}

    def opening_lines(self, state: Any, players: int) -> list[LogLine]:
        lines = [LogLine(0, None, "start", self.opening(state, players))]
        private = self.opening_private(state, players)
        if private:
            lines.append(LogLine(0, None, "chance", "the cards are dealt", private))
        return lines

    def describe_move(self, state: Any, move: Message, seat: int, ply: int) -> list[LogLine]:
        return [LogLine(ply, seat, "move", f"{seat_letter(seat)}: {self.label(state, move, seat)}")]

    def describe_chance(self, outcomes: list[tuple[Any, Any, Any]], ply: int) -> list[LogLine]:
        return []

    def describe_events(self, before: Any, after: Any, ply: int) -> list[LogLine]:
        return []

    # --- the person's view and moves -------------------------------------------------------------------------

    def seat_view(self, state: Any, viewer: int, players: int, previous: Any = None) -> dict[str, Any]:
        """pictures [{title, svg}], legend [{swatch, text}], facts [str], notes [one per seat], keyLabels; drawn
        from what seat `viewer` may see only. `previous`: the state one Play earlier (to mark what changed)."""
        raise NotImplementedError

    def offers(self, state: Any, proto: Message, viewer: int, call: ServiceCall) -> list[Offer]:
        raise NotImplementedError

    def second_stage(self, state: Any, proto: Message, viewer: int, offer: Offer, call: ServiceCall) -> SecondStage:
        raise NotImplementedError(f"{self.title} has no two-stage moves")

    def first_legal(self, state: Any) -> Message:
        raise NotImplementedError

    def label(self, state: Any, move: Message, viewer: int) -> str:
        raise NotImplementedError

    def ghost(self, state: Any, move: Message) -> list[str]:
        return []

    def move_key(self, state: Any, move: Message) -> Any:
        return move.SerializeToString(deterministic=True)

    def task(self, state: Any, viewer: int) -> str:
        return "your move"

    def result_text(self, state: Any, winners: Sequence[int], scores: Sequence[int]) -> str:
        if not winners:
            return (
                "Game over: no winner. Scores " + ", ".join(f"{seat_letter(q)} {s}" for q, s in enumerate(scores)) + "."
            )
        names = " and ".join(seat_letter(w) for w in winners)
        best = scores[winners[0]] if scores else 0
        verb = "share the win" if len(winners) > 1 else "wins"
        return f"Game over: {names} {verb} with {plural(best, 'point')}."

    # --- hints ---------------------------------------------------------------------------------------------

    def hint_request(
        self, proto: Message, state: Any, viewer: int, seconds: float, history: Sequence[tuple[Message, Message, int]]
    ) -> Message:
        return getattr(self.pb, self.hint_type)(
            state=proto, options=common_pb2.SolveOptions(time_limit_seconds=seconds)
        )

    def alternatives(self, response: Message) -> list[tuple[Message, Any]]:
        return [(alternative.move, alternative.ranking) for alternative in response.alternatives]

    def hint_unit(self, response: Message) -> str:
        return ""
