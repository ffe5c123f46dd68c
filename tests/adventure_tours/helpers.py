"""Small decks and positions written card by card for the Adventure Tours tests."""

from __future__ import annotations

from campsolver.solver.adventure_tours.deck import Ability, Act, Board, Card, Colour
from campsolver.solver.adventure_tours.rules import Config, MoneyFloor, State, position

R, B, Y = Colour.RED, Colour.BLUE, Colour.YELLOW


def card(colour: Colour, demand: int, money: int = 1, value: int = 1, action: Act = Act.NONE) -> Card:
    return Card(f"{colour.name[0]}{demand}", colour, demand, money, value, action)


def filler(count: int) -> list[Card]:
    """Plain cards nobody can use as members (demand 20) to pad a deck."""
    return [card(Colour(i % 3), 20, 1, 1) for i in range(count)]


def table(
    cards: list[Card],
    hands: list[list[int]],
    *,
    pile: list[int] | None = None,
    equipment: list[list[int]] | None = None,
    members: list[list[int]] | None = None,
    discard: list[int] = (),  # type: ignore[assignment]
    abilities: list[Ability] | None = None,
    to_move: int = 0,
    rounds: int = 1,
    totals: list[int] | None = None,
    money_floor: MoneyFloor = MoneyFloor.PILE,
) -> State:
    """A position with a known pile order (default: every other card, in id order); `totals`: money held."""
    players = len(hands)
    if abilities is not None:
        boards = [Board(f"b{i}", (3, 3, 3), a) for i, a in enumerate(abilities)]
        config = Config(
            players, deck=cards, expert=True, boards=boards, rounds=rounds, allow_small=True, money_floor=money_floor
        )
    else:
        config = Config(players, deck=cards, rounds=rounds, allow_small=True, money_floor=money_floor)
    placed = {c for row in (*hands, *(equipment or []), *(members or [])) for c in row} | set(discard)
    if pile is None:
        pile = [c for c in range(len(cards)) if c not in placed]
    return position(
        config,
        hands=hands,
        equipment=equipment,
        members=members,
        discard=list(discard) + [c for c in range(len(cards)) if c not in placed and c not in pile],
        deck=pile,
        deck_ordered=True,
        to_move=to_move,
        totals=totals,
    )


def draw_all(state: State) -> State:
    """Resolve chance nodes of a known pile (single outcomes)."""
    from campsolver.solver.core.game import CHANCE

    while state.current_player() == CHANCE:
        (outcome, _), *_ = state.chance_outcomes()
        state = state.child(outcome)
    return state
