"""Campsite at the web table: the table and every tent are public; a seat sees its own hand and tokens, the
others' hands by their size. A play has two stages: lay a card (click it in the hand, choose its turn, click
where its top-left square goes), then pitch a tent (click a token, then an empty square)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from campsolver.service.games import campsite as service
from campsolver.service.table_games.base import Adapter, LogLine, Offer, SecondStage, legend, plural, seat_letter
from campsolver.solver.campsite import render, rules
from campsolver.solver.campsite.rules import CampsiteState, Card, Placement, Stage, Tent, Token
from google.protobuf.message import Message

from campsolver.v1 import campsite_pb2 as pb
from campsolver.v1 import common_pb2

TURNS = {0: "", 1: ", turned 90° clockwise", 2: ", turned 180°", 3: ", turned 270° clockwise (90° anticlockwise)"}


def _card(card: Card) -> str:
    return card.text()


class Campsite(Adapter):
    name = "campsite"
    title = "Campsite"
    players = (2, 6, 2)
    module = service
    pb = pb
    new_game_type = "CampsiteServiceNewGameRequest"
    play_type = "CampsiteServicePlayRequest"
    hint_type = "CampsiteServiceHintRequest"

    def to_proto(self, state: Any) -> Message:
        return service.game_to_proto(state)

    def parse(self, state: Message) -> CampsiteState:
        return service.game_from_proto(state)

    def apply(self, state: CampsiteState, move: Message) -> CampsiteState:
        return service._apply_play(state, move)

    def play_parts(self, move: Message) -> tuple[Placement, Tent]:
        return (
            service.placement_from_proto(move.placement, "move.placement"),
            service.tent_from_proto(move.tent, "move.tent"),
        )

    def move_key(self, state: CampsiteState, move: Message) -> Any:
        placement, tent = self.play_parts(move)
        return placement.signature(), tent

    def alternatives(self, response: Message) -> list[tuple[Message, Any]]:
        return [(alternative.play, alternative.ranking) for alternative in response.alternatives]

    # --- words ---------------------------------------------------------------------------------------------

    def place_text(self, placement: Placement) -> str:
        return (
            f"lay {_card(placement.card)} with its top-left on r{placement.row}c{placement.col}"
            f"{TURNS[placement.rotation]}"
        )

    def label(self, state: CampsiteState, move: Message, viewer: int) -> str:
        placement, tent = self.play_parts(move)
        return f"{self.place_text(placement)}; tent {render.TOKEN_NAMES[tent.token.letter]} on r{tent.row}c{tent.col}"

    def ghost(self, state: CampsiteState, move: Message) -> list[str]:
        placement, tent = self.play_parts(move)
        return [f"c:{r},{c}" for r, c in sorted(placement.squares())] + [f"c:{tent.row},{tent.col}"]

    def opening(self, state: CampsiteState, players: int) -> str:
        start = " and ".join(_card(p.card) for p in state.table.placements)
        return (
            f"A new game of Campsite for {players} players: {rules.ROUNDS} rounds of {rules.TURNS_PER_ROUND} "
            f"turns, {len(state.deck)} cards in the deck. Round 1: starting cards {start}; "
            f"{seat_letter(state.starter)} begins."
        )

    def opening_private(self, state: CampsiteState, players: int) -> dict[int, str]:
        return {q: "you are dealt " + ", ".join(map(_card, state.hands[q])) for q in range(players)}

    def describe_chance(self, outcomes: list[tuple[Any, Any, Any]], ply: int) -> list[LogLine]:
        lines: list[LogLine] = []
        dealt: dict[int, list[Card]] = {}
        starting: list[Card] = []

        def flush() -> None:
            if starting:
                lines.append(LogLine(ply, None, "chance", "starting cards: " + " and ".join(map(_card, starting))))
                starting.clear()
            if dealt:
                private = {seat: "you are dealt " + ", ".join(map(_card, cards)) for seat, cards in dealt.items()}
                lines.append(LogLine(ply, None, "chance", f"each player is dealt {rules.HAND_SIZE} cards", private))
                dealt.clear()

        for before, card, after in outcomes:
            if before.stage is Stage.DRAW:
                flush()
                seat = before.to_move
                lines.append(
                    LogLine(ply, seat, "chance", f"{seat_letter(seat)} draws a card", {seat: f"you draw {_card(card)}"})
                )
            elif len(before.table.placements) < rules.STARTING_CARDS:
                starting.append(card)
            else:
                seat = next(q for q in range(before.players) if len(after.hands[q]) > len(before.hands[q]))
                dealt.setdefault(seat, []).append(card)
        flush()
        return lines

    def describe_events(self, before: CampsiteState, after: CampsiteState, ply: int) -> list[LogLine]:
        lines = []
        for index in range(len(before.round_scores), len(after.round_scores)):
            scores = after.round_scores[index]
            text = ", ".join(f"{seat_letter(q)} +{s}" for q, s in enumerate(scores))
            lines.append(LogLine(ply, None, "round", f"round {index + 1} over: {text} (every tent scored)"))
            if after.stage is not Stage.OVER and index == len(after.round_scores) - 1:
                lines.append(
                    LogLine(
                        ply,
                        None,
                        "round",
                        f"round {after.round + 1}: the cards are shuffled and "
                        f"dealt again, tokens back; {seat_letter(after.starter)} "
                        "begins",
                    )
                )
        if after.stage is Stage.OVER and before.stage is not Stage.OVER:
            lines.append(LogLine(ply, None, "end", "Game over: three rounds played."))
        return lines

    def task(self, state: CampsiteState, viewer: int) -> str:
        return (
            "lay a card: click it in your hand, choose its turn, click where its top-left square goes; then "
            "pitch a tent"
        )

    # --- the seat's view -------------------------------------------------------------------------------------

    def seat_view(self, state: CampsiteState, viewer: int, players: int, previous: Any = None) -> dict[str, Any]:
        laid = None
        if (
            previous is not None
            and previous.round == state.round
            and len(state.table.placements) > len(previous.table.placements)
        ):
            laid = state.table.placements[-1]
        return self._view(state, viewer, state.table, state.hands[viewer], state.tokens[viewer], laid)

    def _view(
        self,
        state: CampsiteState,
        viewer: int,
        table: rules.Table,
        hand: Sequence[Card],
        tokens: frozenset[Token],
        laid: Placement | None,
    ) -> dict[str, Any]:
        notes = []
        for q in range(state.players):
            pitched = sorted(t.token.letter for t in table.tents if t.player == q)
            left = "".join(t.letter for t in sorted(state.tokens[q]))
            notes.append(
                f"{plural(len(state.hands[q]), 'card')} in hand; tokens left {left or 'none'}"
                + (f"; pitched {''.join(pitched)}" if pitched else "")
            )
        round_scores = rules.player_scores(table, state.players)
        turn = min(state.turn // state.players + 1, rules.TURNS_PER_ROUND)
        facts = [
            f"round {state.round + 1} of {rules.ROUNDS}, turn {turn} of {rules.TURNS_PER_ROUND}; "
            f"{plural(len(state.pile), 'card')} in the draw pile",
            "this round's tents so far: " + ", ".join(f"{seat_letter(q)} {s}" for q, s in enumerate(round_scores)),
            "a tent scores, at the round's end, 1 per square of the 8 around it that shows its terrain (the "
            "Wilderness token: 1 per different terrain), x2 if one of them is a Fair Weather card's",
        ]
        if state.round_scores:
            facts.append(
                "earlier rounds: "
                + "; ".join(
                    f"round {i + 1}: " + ", ".join(f"{seat_letter(q)} {s}" for q, s in enumerate(scores))
                    for i, scores in enumerate(state.round_scores)
                )
            )
        pictures = [
            {"title": "The table", "svg": render.seat_table_svg(table, laid=laid)},
            {
                "title": f"Your hand and tokens ({seat_letter(viewer)})",
                "svg": render.seat_hand_svg(hand, sorted(tokens), viewer),
            },
        ]
        labels = {f"rot:{k}": ("as in your hand" if k == 0 else TURNS[k].lstrip(", ")) for k in range(4)}
        labels.update({f"token:{t.letter}": f"{render.TOKEN_NAMES[t.letter]} token" for t in rules.ALL_TOKENS})
        return {
            "pictures": pictures,
            "legend": legend(render.seat_legend_entries(state.players)),
            "facts": facts,
            "notes": notes,
            "keyLabels": labels,
        }

    def turn_state(self, state: CampsiteState, viewer: int) -> pb.CampsiteTurnState:
        """What seat `viewer` knows at its turn: the table, its own hand and tokens, the players, the deck's
        composition (not its order, which nobody knows)."""
        deck = [] if state.deck == rules.default_deck() else [service.card_to_proto(c) for c in state.deck]
        return pb.CampsiteTurnState(
            table=service.table_to_proto(state.table),
            hand=[service.card_to_proto(c) for c in state.hands[viewer]],
            tokens=[service.TOKEN_TO_PROTO[t] for t in sorted(state.tokens[viewer])],
            player=viewer,
            players=state.players,
            deck=deck,
        )

    def offers(self, state: CampsiteState, proto: Message, viewer: int, call: Any) -> list[Offer]:
        """The first stage: every distinct card placement (from LegalMoves on the seat's own turn)."""
        response = call("LegalMoves", pb.CampsiteServiceLegalMovesRequest(state=self.turn_state(state, viewer)))
        hand = list(state.hands[viewer])
        found = []
        for index, message in enumerate(response.placements):
            placement = service.placement_from_proto(message, "placement")
            card = hand.index(placement.card)
            cells = [f"c:{r},{c}" for r, c in sorted(placement.squares())]
            keys = [f"card:{card}", f"rot:{placement.rotation}", f"at:{placement.row},{placement.col}"]
            found.append(Offer(f"p{index}", self.place_text(placement), keys, None, cells, data=message))
        return found

    def second_stage(self, state: CampsiteState, proto: Message, viewer: int, offer: Offer, call: Any) -> SecondStage:
        message = offer.data
        placement = service.placement_from_proto(message, "placement")
        response = call(
            "LegalMoves", pb.CampsiteServiceLegalMovesRequest(state=self.turn_state(state, viewer), after=message)
        )
        found = []
        for token_number in response.tokens:
            token = service.TOKEN_FROM_PROTO[token_number]
            for cell in response.tent_squares:
                move = pb.CampsitePlay(
                    placement=message,
                    tent=pb.CampsiteTent(player=viewer, token=token_number, row=cell.row, col=cell.col),
                )
                found.append(
                    Offer(
                        f"{offer.id}t{len(found)}",
                        f"{render.TOKEN_NAMES[token.letter]} tent on r{cell.row}c{cell.col}",
                        [f"token:{token.letter}", f"sq:{cell.row},{cell.col}"],
                        move,
                        [f"c:{cell.row},{cell.col}"],
                    )
                )
        table = state.table.place(placement)
        hand = list(state.hands[viewer])
        hand.remove(placement.card)
        view = self._view(state, viewer, table, hand, state.tokens[viewer], placement)
        return SecondStage("Pitch a tent: click a token, then an empty square", found, view)

    def first_legal(self, state: CampsiteState) -> Message:
        action = state.legal_actions()[0]
        after = state.child(action)
        pitch = after.legal_actions()[0]
        placement = action.placement
        return pb.CampsitePlay(
            placement=service.placement_to_proto(placement),
            tent=pb.CampsiteTent(
                player=state.to_move, token=service.TOKEN_TO_PROTO[pitch.token], row=pitch.row, col=pitch.col
            ),
        )

    # --- hints ---------------------------------------------------------------------------------------------

    def hint_request(
        self,
        proto: Message,
        state: CampsiteState,
        viewer: int,
        seconds: float,
        history: Sequence[tuple[Message, Message, int]],
    ) -> Message:
        """Built from the seat's own turn (its hand and tokens, the public table, the deck's composition): the
        other hands are not in the request at all."""
        return pb.CampsiteServiceHintRequest(
            state=self.turn_state(state, viewer), options=common_pb2.SolveOptions(time_limit_seconds=seconds)
        )

    def hint_unit(self, response: Message) -> str:
        if response.objective == common_pb2.OBJECTIVE_EXPECTED_SCORE:
            return "points (this turn's gain + an estimate of the rest)"
        return "points over the best opponent (this turn's gain + an estimate of the rest)"


__all__ = ["Campsite"]
