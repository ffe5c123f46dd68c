"""Outside players for Adventure Tours, written from the rulebook and its Guide
(/work/shared/rules/adventure-tours.txt), the project's readings (docs/rules/adventure-tours.md) and the
rules-model API (`solver/adventure_tours/rules.py`, whose default deck and boards live in `deck.py`) alone,
without reading the hint's code, notes or bench results; never tuned against the hint.

A player reads only what its seat may see (`SeatView`, built by `seat_view`): its own hand, every expedition
(equipment and members), the discard pile, how many cards each player holds, the size of the draw pile, the
totals, the boards and the steps of the turn in progress; of the unseen cards (the pile and the other hands
together) only their composition. It answers one decision at a time, every kind the rules model asks: the play,
an action's target, a defence with Pater Miller, a board's offer, a board choice.

Each style values a play by money and by the round's clock: a member pays its money and takes a card out of the
hand (2 coins saved at the round end), plus what its action is worth; equipment is worth the hand cards it
unlocks (their money, discounted by how many turns the round may still last: the smallest other hand and the
pile say that) and costs the member the card could have been. Actions aim at the leader (money banked plus the
round's income minus 2 a card in hand). The styles:

- `merchant`: one ply as above: members or equipment by money and the hand cards it unlocks; actions hit the
  leader.
- `builder`: patient: early in the round equipment also counts for the progress it makes toward the hand's
  expensive cards (not only those it unlocks at once); it lays members when the round's end draws near.
- `rusher`: tempo: members first (any member beats equipment unless nothing can join), to empty its hand and end
  the round while the others still hold cards; gifts of cards go to the player with the fewest cards in hand
  (delaying their end and costing them 2 a card).

Cost (3 players, measured in the sanity games): a decision looks at each hand card or each target once: median
~0.03 ms, at most ~0.3 ms.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np
from campsolver.solver.adventure_tours import rules as A
from campsolver.solver.adventure_tours.deck import ATTACKS, Ability, Act

# --- what the seat may see -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatView:
    seat: int
    config: A.Config
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    equipment: tuple[tuple[int, ...], ...]
    members: tuple[tuple[int, ...], ...]
    discard: tuple[int, ...]
    pile_size: int
    unseen: tuple[tuple[int, int], ...]  # (card, 1) for each card in the pile or another hand, sorted
    totals: tuple[int, ...]
    seat_boards: tuple[int, ...]
    step: A.Step
    pending: tuple[A.Step, ...]
    to_move: int
    round_index: int
    ability_used: bool
    choosing: tuple[int, ...]
    legal: tuple[Any, ...]


def seat_view(state: A.State, seat: int) -> SeatView:
    """What `seat` may know of `state`: nothing of another hand or of the pile but their cards taken together."""
    seen = set(state.hands[seat]) | set(state.discard)
    for rows in (state.equipment, state.members):
        for row in rows:
            seen.update(row)
    unseen = tuple((c, 1) for c in range(len(state.config.deck)) if c not in seen)
    return SeatView(
        seat=seat,
        config=state.config,
        hand=tuple(state.hands[seat]),
        hand_sizes=tuple(len(h) for h in state.hands),
        equipment=tuple(state.equipment),
        members=tuple(state.members),
        discard=tuple(state.discard),
        pile_size=len(state.deck),
        unseen=unseen,
        totals=tuple(state.totals),
        seat_boards=tuple(state.seat_boards),
        step=state.pending[0],
        pending=tuple(state.pending),
        to_move=state.to_move,
        round_index=state.round_index,
        ability_used=state.ability_used,
        choosing=tuple(state.choosing),
        legal=tuple(state.legal_actions()),
    )


# --- facts read from the view --------------------------------------------------------------------------------------


def level(view: SeatView, player: int, colour: int) -> int:
    cfg = view.config
    board = cfg.boards[view.seat_boards[player]]
    return board.start[colour] + sum(cfg.value[c] for c in view.equipment[player] if cfg.colour[c] == colour)


def ability(view: SeatView, player: int) -> Ability:
    return view.config.ability(view.seat_boards[player])


def standing(view: SeatView, player: int) -> float:
    """Money banked plus the round's income minus 2 a card in hand (what the round would leave now)."""
    cfg = view.config
    income = sum(cfg.money[c] for c in view.members[player])
    return view.totals[player] + income - A.HAND_PENALTY * view.hand_sizes[player]


def leader(view: SeatView, exclude_me: bool = True) -> int:
    others = [p for p in range(view.config.players) if not (exclude_me and p == view.seat)]
    return max(others, key=lambda p: (standing(view, p), -((p - view.seat) % view.config.players)))


def turns_left(view: SeatView) -> float:
    """My turns the round may still last: another player may empty a hand of h cards in about h turns (members
    only; equipment keeps the hand), and each turn of equipment takes a card off the pile."""
    players = view.config.players
    others = [view.hand_sizes[p] for p in range(players) if p != view.seat]
    by_hands = 1.0 + 1.5 * min(others) if others else 10.0
    by_pile = 1.0 + view.pile_size / max(1.0, 0.5 * players)
    return max(1.0, min(by_hands, by_pile))


@dataclass(frozen=True)
class Style:
    unlock: float  # worth of a hand card unlocked, as a share of its money, with time to play it
    progress: float  # worth of progress toward a hand card's demand short of unlocking it
    member_first: bool  # any member beats any equipment
    gift_to_fewest: bool  # gifts to the player with the fewest cards (else the leader)


STYLES = {
    "merchant": Style(unlock=0.7, progress=0.0, member_first=False, gift_to_fewest=False),
    "builder": Style(unlock=0.9, progress=0.35, member_first=False, gift_to_fewest=False),
    "rusher": Style(unlock=0.4, progress=0.0, member_first=True, gift_to_fewest=True),
}


def _action_worth(view: SeatView, card: int, style: Style) -> float:
    """Rough worth (coins) of a member's action, as this player would use it."""
    cfg = view.config
    act = cfg.action[card]
    if act in (Act.NONE, Act.PATER_MILLER):
        return 0.6 if act is Act.PATER_MILLER else 0.0  # Pater Miller: a shield for later
    if act is Act.GIVE_ONE:
        return 1.0
    if act is Act.GIVE_TWO:
        return 2.0
    if act is Act.EXTRA_TURN:
        return 2.5
    if act is Act.EXTRA_EQUIPMENT:
        return 1.0 if len(view.hand) > 2 else 0.0
    if act is Act.SAME_COLOUR_MEMBER:
        colour = cfg.colour[card]
        best = [
            cfg.money[c]
            for c in view.hand
            if c != card and cfg.colour[c] == colour and cfg.demand[c] <= level(view, view.seat, colour)
        ]
        return max(best) + 2.0 if best else 0.0
    if act in (Act.DISCARD_MEMBER, Act.STEAL_MEMBER):
        target = leader(view)
        if not view.members[target]:
            return 0.0
        taken = view.members[target][-1]
        gain = cfg.money[taken] + (cfg.value[taken] * 0.5 if act is Act.STEAL_MEMBER else 0.0)
        return gain * (0.5 if _protected(view, target) else 1.0)
    if act in (Act.DISCARD_EQUIPMENT, Act.STEAL_EQUIPMENT):
        target = leader(view)
        if not view.equipment[target]:
            return 0.0
        worth = 1.0 + (cfg.value[view.equipment[target][-1]] * 0.7 if act is Act.STEAL_EQUIPMENT else 0.0)
        return worth * (0.5 if _protected(view, target) else 1.0)
    return 0.0


def _protected(view: SeatView, player: int) -> bool:
    cfg = view.config
    rows = list(view.members[player])
    if ability(view, player) is Ability.EQUIPMENT_ACTION:
        rows += list(view.equipment[player])
    return any(cfg.action[c] is Act.PATER_MILLER for c in rows)


def _member_worth(view: SeatView, card: int, style: Style) -> float:
    return view.config.money[card] + A.HAND_PENALTY + _action_worth(view, card, style)


def _equipment_worth(view: SeatView, card: int, style: Style, hand: tuple[int, ...] | None = None) -> float:
    """What laying `card` as equipment is worth: the hand cards it unlocks (and, for a patient style, the progress
    toward the others), against the member it could have been."""
    cfg = view.config
    hand = view.hand if hand is None else hand
    colour = cfg.colour[card]
    now = level(view, view.seat, colour)
    after = now + cfg.value[card]
    time = turns_left(view)
    usable = min(1.0, (time - 1.0) / 3.0)  # the turns to play what it unlocks
    worth = 0.0
    for other in hand:
        if other == card or cfg.colour[other] != colour:
            continue
        demand = cfg.demand[other]
        if now < demand <= after:
            worth += style.unlock * usable * (cfg.money[other] + A.HAND_PENALTY)
        elif demand > after:
            worth += style.progress * usable * cfg.money[other] * cfg.value[card] / (demand - now)
    worth += 0.5 * usable  # the card drawn in its place
    own = cfg.money[card] + A.HAND_PENALTY if cfg.demand[card] <= now else 0.4 * cfg.money[card]
    return worth - 0.6 * own


def _play_choice(view: SeatView, style: Style, rng: np.random.Generator) -> A.Play:
    options: list[tuple[float, A.Play]] = []
    has_member = any(isinstance(a, A.Play) and a.member for a in view.legal)
    for action in view.legal:
        if not isinstance(action, A.Play):
            continue
        if action.member:
            value = _member_worth(view, action.card, style)
            if style.member_first:
                value += 100.0
        else:
            value = _equipment_worth(view, action.card, style)
            if style.member_first and has_member:
                value -= 100.0
        options.append((value, action))
    return _best(options, rng)


def _best(options: list[tuple[float, Any]], rng: np.random.Generator) -> Any:
    top = max(v for v, _ in options)
    ties = [a for v, a in options if v >= top - 1e-9]
    return ties[int(rng.integers(len(ties)))]


def _gift_target(view: SeatView, style: Style) -> int:
    players = view.config.players
    others = [p for p in range(players) if p != view.seat]
    if style.gift_to_fewest:
        return min(others, key=lambda p: (view.hand_sizes[p], -standing(view, p)))
    return leader(view)


def _action_choice(view: SeatView, style: Style, rng: np.random.Generator) -> Any:
    cfg = view.config
    act = cfg.action[view.step.card]
    legal = list(view.legal)
    me = view.seat
    if act is Act.GIVE_ONE:
        target = _gift_target(view, style)
        return A.Target(target) if A.Target(target) in legal else A.Skip()
    if act is Act.GIVE_TWO:
        target = _gift_target(view, style)
        two = A.GiveTwo(target, target)
        return two if two in legal else A.Skip()
    if act is Act.EXTRA_TURN:
        return A.Accept()
    if act is Act.EXTRA_EQUIPMENT:
        options = [(_equipment_worth(view, a.card, style), a) for a in legal if isinstance(a, A.Place)]
        best = _best(options, rng) if options else A.Skip()
        return best if options and max(v for v, _ in options) > -1.0 else A.Skip()
    if act is Act.SAME_COLOUR_MEMBER:
        options = [(_member_worth(view, a.card, style), a) for a in legal if isinstance(a, A.Place)]
        return _best(options, rng) if options else A.Skip()
    if act in ATTACKS:
        targets = [a for a in legal if isinstance(a, A.Target) and a.player != me]
        if not targets:
            return A.Skip()

        def hurt(p: int) -> float:
            row = view.members[p] if act in (Act.DISCARD_MEMBER, Act.STEAL_MEMBER) else view.equipment[p]
            if not row:
                return -1.0
            card = row[-1]
            loss = cfg.money[card] if act in (Act.DISCARD_MEMBER, Act.STEAL_MEMBER) else cfg.value[card]
            shield = 0.5 if _protected(view, p) else 1.0
            return shield * (loss + 0.1 * standing(view, p))

        options = [(hurt(a.player), a) for a in targets]
        return _best(options, rng) if max(v for v, _ in options) > 0 else A.Skip()
    return A.Skip() if A.Skip() in legal else legal[0]


def _defend_choice(view: SeatView) -> A.Protect:
    """Parry when the attack costs more than the Pater Miller that would go (its money as a member)."""
    cfg = view.config
    me = view.seat
    act = cfg.action[view.step.card]
    member_attack = act in (Act.DISCARD_MEMBER, Act.STEAL_MEMBER)
    row = view.members[me] if member_attack else view.equipment[me]
    if not row:
        return A.Protect(False)
    lost = cfg.money[row[-1]] if member_attack else 1.5 * cfg.value[row[-1]]
    shields = [c for c in view.members[me] if cfg.action[c] is Act.PATER_MILLER]
    shield_cost = min((cfg.money[c] for c in shields), default=0)
    if member_attack and cfg.action[row[-1]] is Act.PATER_MILLER:
        return A.Protect(False)  # the card taken is the shield itself
    return A.Protect(lost > shield_cost)


def _offer_choice(view: SeatView, style: Style, rng: np.random.Generator) -> Any:
    kind = view.step.kind
    legal = list(view.legal)
    if kind == "offer_a":  # one more card as equipment (and its draw)
        options = [(_equipment_worth(view, a.card, style), a) for a in legal if isinstance(a, A.Place)]
        if options and max(v for v, _ in options) > 0:
            return _best(options, rng)
        return A.Skip()
    if kind == "offer_b":  # optional draw and a gift
        draw = turns_left(view) > 2.5
        gift = _gift_target(view, style)
        choice = A.GiftChoice(draw, gift)
        return choice if choice in legal else legal[0]
    if kind in ("offer_c", "offer_e"):  # an action (the equipment card's, or the member's a second time)
        return A.Accept() if _action_worth(view, view.step.card, style) > 0 else A.Skip()
    if kind == "offer_d":  # another member of any colour
        options = [(_member_worth(view, a.card, style), a) for a in legal if isinstance(a, A.Place)]
        return _best(options, rng) if options else A.Skip()
    if kind == "offer_f":
        return A.Accept()
    return legal[0]


#: Board preference for a board choice (variation 2): abilities that bring the most, by this reading.
BOARD_ORDER = (
    Ability.EXTRA_TURN,
    Ability.DOUBLE_ACTION,
    Ability.EXTRA_MEMBER,
    Ability.EXTRA_EQUIPMENT,
    Ability.GIFT_AFTER_EQUIPMENT,
    Ability.EQUIPMENT_ACTION,
    Ability.NONE,
)


def decide(view: SeatView, style: Style, rng: np.random.Generator) -> list[Any]:
    kind = view.step.kind
    if len(view.legal) == 1:
        return [view.legal[0]]
    if kind == "play":
        return [_play_choice(view, style, rng)]
    if kind == "action":
        return [_action_choice(view, style, rng)]
    if kind == "defend":
        return [_defend_choice(view)]
    if kind == "choose_board":
        boards = view.config.boards

        def rank(choice: A.ChooseBoard) -> tuple[int, int]:
            board = boards[choice.board]
            return BOARD_ORDER.index(board.ability), -sum(board.start)

        return [min((a for a in view.legal if isinstance(a, A.ChooseBoard)), key=rank)]
    return [_offer_choice(view, style, rng)]


def _player(name: str) -> Any:
    style = STYLES[name]

    def play(state: A.State, seat: int, rng: np.random.Generator) -> list[Any]:
        return decide(seat_view(state, seat), style, rng)

    play.__name__ = name
    play.__doc__ = f"Adventure Tours `{name}` style (module docstring); reads only `seat_view(state, seat)`."
    return play


merchant = _player("merchant")
builder = _player("builder")
rusher = _player("rusher")

PLAYERS = {"merchant": merchant, "builder": builder, "rusher": rusher}


def unseen_composition(view: SeatView) -> Counter[tuple]:
    """The unseen cards by kind (what a draw may bring): the only use of the unseen pool a style may make."""
    return Counter(view.config.kind[c] for c, _ in view.unseen)
