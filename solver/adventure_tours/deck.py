"""Component data the rulebook omits: the default 102-card deck and the six expedition boards.

The real card list is not public. This default is designed from what the rulebook shows (three colours,
demands about 1-9, money growing with demand, equipment values small enough that three improvements raise
9 to 15 as in the rulebook's example, every Guide action present including "Pater Miller") and is recorded
with its summary figures in docs/rules/adventure-tours.md. Requests may override it card by card.
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass


class Colour(enum.IntEnum):
    """The three equipment categories; a card's colour names the one its demand (and its value) refers to."""

    RED = 0  # technology
    BLUE = 1  # provisions
    YELLOW = 2  # clothing


COLOURS = (Colour.RED, Colour.BLUE, Colour.YELLOW)


class Act(enum.Enum):
    """The adventurer's action (Guide, "Actions"), usable only directly after the card joins as a member."""

    NONE = "none"
    GIVE_ONE = "give one"  # any player (yourself included) gets 1 card from the draw pile
    GIVE_TWO = "give two"  # 2 cards to one player or 1 each to two players, announced first
    EXTRA_EQUIPMENT = "extra equipment"  # one more card from hand as equipment, with its draw
    DISCARD_EQUIPMENT = "discard equipment"  # last equipment card of any player to the discard pile
    STEAL_EQUIPMENT = "steal equipment"  # last equipment card of another player becomes yours, no draw
    EXTRA_TURN = "extra turn"  # take another complete turn
    SAME_COLOUR_MEMBER = "same-colour member"  # another member of the same colour, with its action
    DISCARD_MEMBER = "discard member"  # erratum: last expedition member of any player to the discard pile
    STEAL_MEMBER = "steal member"  # last member of any player becomes your equipment, without its action
    PATER_MILLER = "Pater Miller"  # no action when laid: protects its expedition against one attack


#: Actions that hurt another player's expedition: only these can be parried by Pater Miller.
ATTACKS = frozenset({Act.DISCARD_EQUIPMENT, Act.STEAL_EQUIPMENT, Act.DISCARD_MEMBER, Act.STEAL_MEMBER})


class Ability(enum.Enum):
    """The special ability of an expert expedition board (Guide, "Special abilities"), once per turn."""

    NONE = "none"
    EXTRA_EQUIPMENT = "extra equipment after the turn"
    GIFT_AFTER_EQUIPMENT = "optional draw and a gift after equipment"
    EQUIPMENT_ACTION = "action of the equipment card"
    EXTRA_MEMBER = "another member of any colour"
    DOUBLE_ACTION = "member's action twice"
    EXTRA_TURN = "another complete turn"


@dataclass(frozen=True)
class Card:
    """One adventurer card: played on top it demands `demand` of its colour's equipment and pays `money`;
    played to the right it raises its colour's equipment by `value`."""

    name: str
    colour: Colour
    demand: int
    money: int
    value: int
    action: Act

    @property
    def kind(self) -> tuple[int, int, int, int, str]:
        """Cards with the same kind are interchangeable (chance nodes group them)."""
        return (int(self.colour), self.demand, self.money, self.value, self.action.value)

    def label(self) -> str:
        action = "" if self.action is Act.NONE else f" {self.action.value}"
        return f"{self.colour.name[0]}{self.demand}(${self.money},+{self.value}{action})"


@dataclass(frozen=True)
class Board:
    """An expedition board side: starting equipment per colour and its ability."""

    name: str
    start: tuple[int, int, int]
    ability: Ability = Ability.NONE


#: Basic game: the desert side, 3/3/3, no ability.
DESERT = Board("desert", (3, 3, 3), Ability.NONE)

#: Expert sides (starting values are our choice: stronger abilities start lower; every side sums 7-8).
EXPERT_BOARDS: tuple[Board, ...] = (
    Board("jungle", (3, 2, 3), Ability.EXTRA_EQUIPMENT),
    Board("arctic", (3, 3, 2), Ability.GIFT_AFTER_EQUIPMENT),
    Board("mountains", (2, 3, 3), Ability.EQUIPMENT_ACTION),
    Board("ocean", (2, 3, 2), Ability.EXTRA_MEMBER),
    Board("volcano", (3, 2, 2), Ability.DOUBLE_ACTION),
    Board("canyon", (2, 2, 3), Ability.EXTRA_TURN),
)

#: Cards per demand level in each colour (34 per colour, 102 in all).
DEMAND_COUNTS: dict[int, int] = {1: 3, 2: 4, 3: 5, 4: 5, 5: 5, 6: 4, 7: 3, 8: 3, 9: 2}
#: Money paid by a member of each demand ("money grows with demand").
MONEY_BY_DEMAND: dict[int, int] = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 4, 7: 5, 8: 6, 9: 7}
#: Equipment value of each demand: easy adventurers sponsor more (values 1-3, mean 2).
VALUE_BY_DEMAND: dict[int, int] = {1: 3, 2: 3, 3: 3, 4: 2, 5: 2, 6: 2, 7: 1, 8: 1, 9: 1}
#: Actions per colour (34 cards): every Guide action, three Pater Millers, nine plain cards.
ACTIONS_PER_COLOUR: tuple[tuple[Act, int], ...] = (
    (Act.NONE, 9),
    (Act.GIVE_ONE, 3),
    (Act.GIVE_TWO, 2),
    (Act.EXTRA_EQUIPMENT, 3),
    (Act.DISCARD_EQUIPMENT, 3),
    (Act.STEAL_EQUIPMENT, 2),
    (Act.EXTRA_TURN, 2),
    (Act.SAME_COLOUR_MEMBER, 3),
    (Act.DISCARD_MEMBER, 2),
    (Act.STEAL_MEMBER, 2),
    (Act.PATER_MILLER, 3),
)
#: Stride that spreads the actions over the demand levels (coprime with 34).
_ACTION_STRIDE = 7


def default_deck() -> tuple[Card, ...]:
    """The documented 102-card default: per colour the same demand curve, actions spread over demands."""
    actions = [act for act, count in ACTIONS_PER_COLOUR for _ in range(count)]
    demands = [d for d, count in sorted(DEMAND_COUNTS.items()) for _ in range(count)]
    assert len(actions) == len(demands) == 34
    cards: list[Card] = []
    for colour in COLOURS:
        offset = int(colour) * 5
        for index, demand in enumerate(demands):
            act = actions[(index * _ACTION_STRIDE + offset) % len(actions)]
            money = MONEY_BY_DEMAND[demand]
            value = VALUE_BY_DEMAND[demand]
            cards.append(Card(f"{colour.name.lower()}-{index + 1}", colour, demand, money, value, act))
    return tuple(cards)


DEFAULT_DECK: tuple[Card, ...] = default_deck()


def deck_summary(deck: tuple[Card, ...] = DEFAULT_DECK) -> dict[str, object]:
    """The figures docs/rules/adventure-tours.md quotes (a test recomputes them)."""
    return {
        "cards": len(deck),
        "per_colour": {c.name: sum(1 for card in deck if card.colour == c) for c in COLOURS},
        "demand_range": (min(c.demand for c in deck), max(c.demand for c in deck)),
        "mean_demand": round(sum(c.demand for c in deck) / len(deck), 3),
        "total_money": sum(c.money for c in deck),
        "mean_money": round(sum(c.money for c in deck) / len(deck), 3),
        "mean_value": round(sum(c.value for c in deck) / len(deck), 3),
        "actions": dict(sorted(Counter(c.action.value for c in deck).items())),
        "kinds": len({c.kind for c in deck}),
    }
