"""Adventure Tours at the web table: a seat sees its own hand, the public table (boards, members, equipment,
money, every hand's size) and nothing else. Every picture and move list is drawn from the seat's
`Observation` (the rules' own notion of what a player knows), never from the full state; a card drawn is named
in the log to the seat that draws it only."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from campsolver.service.games import adventure_tours as service
from campsolver.service.table_games.base import Adapter, LogLine, Offer, legend, plural, seat_letter
from campsolver.solver.adventure_tours import hint as hints
from campsolver.solver.adventure_tours import render, rules
from campsolver.solver.adventure_tours.deck import ATTACKS, Act
from campsolver.solver.adventure_tours.information import Observation, observe, public_state
from campsolver.solver.adventure_tours.rules import (
    Accept,
    ChooseBoard,
    GiftChoice,
    GiveTwo,
    Place,
    Play,
    Protect,
    Skip,
    State,
    Target,
)
from google.protobuf.message import Message

from campsolver.v1 import adventure_tours_pb2 as pb
from campsolver.v1 import common_pb2

ACCEPT_TEXT = {
    "action": "take another complete turn",
    "offer_c": "use the equipment card's action (your board)",
    "offer_e": "use the member's action a second time (your board)",
    "offer_f": "take another complete turn (your board)",
}
SKIP_TEXT = {
    "action": "skip the card's action",
    "offer_a": "place no extra equipment",
    "offer_c": "leave the equipment's action",
    "offer_d": "place no extra member",
    "offer_e": "use the action once only",
    "offer_f": "no extra turn",
}


def card_text(config: rules.Config, card: int) -> str:
    deck_card = config.deck[card]
    colour = render.COLOUR_NAMES[int(deck_card.colour)]
    action = "" if deck_card.action is Act.NONE else f", {deck_card.action.value}"
    return f"#{card} ({colour} {deck_card.demand}, ${deck_card.money}, +{deck_card.value}{action})"


def action_text(state: State, action: rules.Action, kind: str) -> str:
    """One decision in words, seats named A, B, ..."""
    config = state.config
    if isinstance(action, Play):
        return f"play {card_text(config, action.card)} as {'a member' if action.member else 'equipment'}"
    if isinstance(action, Target):
        act = config.action[state.pending[0].card] if state.pending else Act.NONE
        who = seat_letter(action.player)
        if act is Act.GIVE_ONE or kind == "offer_b":
            return f"{who} draws a card"
        if act in ATTACKS:
            return f"{act.value} from {who}"
        return f"target {who}"
    if isinstance(action, GiveTwo):
        if action.first == action.second:
            return f"two cards to {seat_letter(action.first)}"
        return f"one card each to {seat_letter(action.first)} and {seat_letter(action.second)}"
    if isinstance(action, Place):
        member = kind == "offer_d" or (
            kind == "action" and config.action[state.pending[0].card] is Act.SAME_COLOUR_MEMBER
        )
        return f"place {card_text(config, action.card)} as {'a member' if member else 'equipment'}"
    if isinstance(action, Accept):
        return ACCEPT_TEXT.get(kind, "accept")
    if isinstance(action, Skip):
        return SKIP_TEXT.get(kind, "skip")
    if isinstance(action, Protect):
        return "protect with Pater Miller" if action.use else "let the attack happen"
    if isinstance(action, GiftChoice):
        gift = "no gift" if action.gift < 0 else f"a card to {seat_letter(action.gift)}"
        return f"{'draw a card' if action.draw else 'no draw'}, {gift}"
    if isinstance(action, ChooseBoard):
        return f"take the {config.boards[action.board].name} board"
    return repr(action)


def walk(state: State, play: Sequence[rules.Action]) -> list[tuple[State, str, rules.Action]]:
    """Each step of a play with the state it is taken in and that state's step kind."""
    found = []
    for action in play:
        kind = state.pending[0].kind
        found.append((state, kind, action))
        state = state.child(action)
    return found


def step_key(state: State, kind: str, action: rules.Action) -> str:
    """The key a click adds for one decision (board marks: card:N, place:N, seat:Q; chips: the rest)."""
    if isinstance(action, Play):
        return f"card:{action.card}"
    if isinstance(action, Target):
        return f"seat:{action.player}"
    if isinstance(action, Place):
        return f"place:{action.card}"
    if isinstance(action, GiveTwo):
        return f"give:{action.first}-{action.second}"
    if isinstance(action, Accept):
        return f"{kind}:accept"
    if isinstance(action, Skip):
        return f"{kind}:skip"
    if isinstance(action, Protect):
        return f"protect:{'yes' if action.use else 'no'}"
    if isinstance(action, GiftChoice):
        return f"gift:{int(action.draw)}:{action.gift}"
    if isinstance(action, ChooseBoard):
        return f"board:{action.board}"
    raise TypeError(action)


class AdventureTours(Adapter):
    name = "adventure-tours"
    title = "Adventure Tours"
    players = (3, 6, 3)
    module = service
    pb = pb
    new_game_type = "AdventureToursServiceNewGameRequest"
    play_type = "AdventureToursServicePlayRequest"
    hint_type = "AdventureToursServiceHintRequest"

    def to_proto(self, state: Any) -> Message:
        return service.game_state_to_proto(state)

    def parse(self, state: Message) -> State:
        return service.game_state_from_proto(state)

    def apply(self, state: State, move: Message) -> State:
        return service._apply_move(state, move)

    def steps(self, move: Message) -> tuple[rules.Action, ...]:
        return tuple(service.step_from_proto(step) for step in move.steps)

    def move_key(self, state: State, move: Message) -> Any:
        return self.steps(move)

    def view_of(self, state: State, viewer: int) -> Observation:
        return observe(state, viewer)

    # --- words ---------------------------------------------------------------------------------------------

    def label(self, state: State, move: Message, viewer: int) -> str:
        seen = public_state(observe(state, state.current_player()))
        return "; ".join(action_text(s, action, kind) for s, kind, action in walk(seen, self.steps(move)))

    def ghost(self, state: State, move: Message) -> list[str]:
        cells = []
        for action in self.steps(move):
            if isinstance(action, Play | Place):
                cells.append(f"card:{action.card}")
            elif isinstance(action, Target):
                cells.append(f"seat:{action.player}")
        return cells

    def opening(self, state: State, players: int) -> str:
        return (
            f"A new game of Adventure Tours for {players} players: {state.config.rounds} rounds, "
            f"{len(state.config.deck)} cards, {rules.HAND_SIZE} cards dealt to each player; "
            f"{seat_letter(state.to_move)} begins."
        )

    def opening_private(self, state: State, players: int) -> dict[int, str]:
        return {
            q: "you are dealt " + ", ".join(card_text(state.config, c) for c in state.hands[q]) for q in range(players)
        }

    def describe_move(self, state: State, move: Message, seat: int, ply: int) -> list[LogLine]:
        lines = [LogLine(ply, seat, "move", f"{seat_letter(seat)}: {self.label(state, move, seat)}")]
        after = self.apply(state, move)
        for q in range(state.config.players):
            for row in ("members", "equipment"):
                before_row, after_row = getattr(state, row)[q], getattr(after, row)[q]
                lost = [c for c in before_row if c not in after_row]
                for card in lost:
                    where = (
                        "the discard pile"
                        if card in after.discard
                        else next(
                            (
                                f"{seat_letter(p)}'s equipment"
                                for p in range(state.config.players)
                                if card in after.equipment[p]
                            ),
                            "elsewhere",
                        )
                    )
                    what = "member" if row == "members" else "equipment"
                    lines.append(
                        LogLine(
                            ply, q, "event", f"{seat_letter(q)} loses {what} {card_text(state.config, card)} to {where}"
                        )
                    )
        return lines

    def describe_chance(self, outcomes: list[tuple[Any, Any, Any]], ply: int) -> list[LogLine]:
        lines: list[LogLine] = []
        dealt: dict[int, list[int]] = {}
        config = outcomes[0][0].config if outcomes else None

        def flush() -> None:
            if dealt:
                private = {
                    q: "you are dealt " + ", ".join(card_text(config, c) for c in sorted(cards))
                    for q, cards in dealt.items()
                }
                lines.append(LogLine(ply, None, "chance", f"each player is dealt {rules.HAND_SIZE} cards", private))
                dealt.clear()

        for before, outcome, _after in outcomes:
            step = before.pending[0]
            if step.kind == "deal":
                dealt.setdefault(step.player, []).append(outcome)
                continue
            flush()
            if step.kind == "shuffle_boards":
                boards = ", ".join(f"{seat_letter(q)} {before.config.boards[b].name}" for q, b in enumerate(outcome))
                lines.append(LogLine(ply, None, "chance", f"boards dealt: {boards}"))
            else:
                who = seat_letter(step.player)
                lines.append(
                    LogLine(
                        ply,
                        step.player,
                        "chance",
                        f"{who} draws a card",
                        {step.player: f"you draw {card_text(before.config, outcome)}"},
                    )
                )
        flush()
        return lines

    def describe_events(self, before: State, after: State, ply: int) -> list[LogLine]:
        lines = []
        if after.round_index != before.round_index or (after.over and not before.over):
            scores = after.last_round
            text = ", ".join(f"{seat_letter(q)} {s:+d}" for q, s in enumerate(scores))
            lines.append(
                LogLine(
                    ply,
                    None,
                    "round",
                    f"round {before.round_index + 1} over (income minus "
                    f"{rules.HAND_PENALTY} a card left in hand): {text}",
                )
            )
            if not after.over:
                lines.append(
                    LogLine(
                        ply,
                        None,
                        "round",
                        f"round {after.round_index + 1}: new hands; {seat_letter(after.starter)} begins",
                    )
                )
        if after.over and not before.over:
            lines.append(LogLine(ply, None, "end", "Game over: the last round is played."))
        return lines

    def task(self, state: State, viewer: int) -> str:
        kind = state.pending[0].kind
        return {
            "play": "click a card of your hand, then as a member or as equipment (and its action's choices)",
            "defend": "you are attacked: protect with Pater Miller or let it happen",
            "choose_board": "choose your board for the next round",
        }.get(kind, service._STEP_TEXT.get(kind, "your decision"))

    def result_text(self, state: State, winners: Sequence[int], scores: Sequence[int]) -> str:
        names = " and ".join(seat_letter(w) for w in winners)
        verb = "share the win" if len(winners) > 1 else "wins"
        return f"Game over: {names} {verb} with {scores[winners[0]]} coins."

    # --- the seat's view -------------------------------------------------------------------------------------

    def seat_view(self, state: State, viewer: int, players: int, previous: Any = None) -> dict[str, Any]:
        obs = self.view_of(state, viewer)
        notes = []
        for q in range(players):
            income = sum(obs.config.money[c] for c in obs.members[q])
            notes.append(
                f"{obs.totals[q]} coins; income {income} this round; {plural(obs.hand_sizes[q], 'card')} in hand"
            )
        pictures = [
            {"title": "The table", "svg": render.seat_table_svg(obs, over=state.over)},
            {"title": f"Your hand ({seat_letter(viewer)})", "svg": render.seat_hand_svg(obs)},
        ]
        facts = [
            f"round {obs.round_index + 1} of {obs.config.rounds}; {obs.deck_size} cards in the pile",
            "at a round's end each player earns the money of their members, minus "
            f"{rules.HAND_PENALTY} a card left in hand; the round ends when the pile runs out or a hand "
            "is empty",
        ]
        labels = {
            "protect:yes": "protect with Pater Miller",
            "protect:no": "let the attack happen",
            "as:member": "as a member",
            "as:equipment": "as equipment",
        }
        config = obs.config
        for kind, text in ACCEPT_TEXT.items():
            labels[f"{kind}:accept"] = text
        for kind, text in SKIP_TEXT.items():
            labels[f"{kind}:skip"] = text
        n = config.players
        for p in range(n):
            for q in range(p, n):
                labels[f"give:{p}-{q}"] = action_text(public_state(obs), GiveTwo(p, q), "action")
            for draw in (0, 1):
                labels[f"gift:{draw}:{p}"] = action_text(public_state(obs), GiftChoice(bool(draw), p), "offer_b")
        for draw in (0, 1):
            labels[f"gift:{draw}:-1"] = action_text(public_state(obs), GiftChoice(bool(draw), -1), "offer_b")
        for b, board in enumerate(config.boards):
            labels[f"board:{b}"] = f"take the {board.name} board"
        return {
            "pictures": pictures,
            "legend": legend(render.seat_legend_entries(config)),
            "facts": facts,
            "notes": notes,
            "keyLabels": labels,
        }

    def offers(self, state: State, proto: Message, viewer: int, call: Any) -> list[Offer]:
        """Every play of the seat (its decisions until a draw, another player's decision or the next regular
        play), listed from the seat's own observation as LegalMoves lists them."""
        seen = public_state(observe(state, viewer))
        found = []
        for index, play in enumerate(hints.enumerate_plays(seen, viewer)):
            keys = []
            for s, kind, action in walk(seen, play):
                keys.append(step_key(s, kind, action))
                if isinstance(action, Play):
                    keys.append("as:member" if action.member else "as:equipment")
            move = service.move_to_proto(seen, play)
            label = "; ".join(action_text(s, action, kind) for s, kind, action in walk(seen, play))
            found.append(Offer(f"m{index}", label, keys, move, self.ghost(state, move)))
        return found

    def first_legal(self, state: State) -> Message:
        seen = public_state(observe(state, state.current_player()))
        return service.move_to_proto(seen, hints.enumerate_plays(seen, state.current_player())[0])

    def hint_request(
        self, proto: Message, state: State, viewer: int, seconds: float, history: Sequence[tuple[Message, Message, int]]
    ) -> Message:
        """The hint reads the seat's observation only (`service.adventure_tours.hint` turns the state into the
        deciding player's `Observation` before anything else; tests/test_table_hidden.py pins it)."""
        return pb.AdventureToursServiceHintRequest(
            state=proto, options=common_pb2.SolveOptions(time_limit_seconds=seconds)
        )

    def hint_unit(self, response: Message) -> str:
        return "coins over the best opponent at the round's end"


__all__ = ["AdventureTours"]
