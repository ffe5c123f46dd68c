"""Fixed players: the documented greedy rule of thumb (the hint's rollout policy, the bench's sparring partner, the
puzzles' others), the patient rule (a rule of the hint's opt-in `PATIENT_MIX` model: greedy, except that it
sponsors toward its hand's better cards while the round is young) and a uniformly random legal player. All read
only what their player may see: the public table, the hand sizes and their own hand (never another hand or the
pile's order).
"""

from __future__ import annotations

from typing import Any

from campsolver.solver.adventure_tours.deck import ATTACKS, Act
from campsolver.solver.adventure_tours.rules import (
    Accept,
    Action,
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


def _unlocked_money(state: State, player: int, card: int) -> int:
    """Money of the other hand cards that the equipment `card` would let join (and cannot join now)."""
    cfg = state.config
    colour, value = cfg.colour[card], cfg.value[card]
    level = state.equipment_level(player, colour)
    return sum(
        cfg.money[c]
        for c in state.hands[player]
        if c != card and cfg.colour[c] == colour and level < cfg.demand[c] <= level + value
    )


def _equipment_choice(state: State, player: int, cards: list[int]) -> int:
    """Sponsor with the card that unlocks the most money, else the one that pays least as a member."""
    cfg = state.config
    return max(cards, key=lambda c: (_unlocked_money(state, player, c), -cfg.money[c], cfg.value[c], -c))


def _leader(state: State, player: int, candidates: list[int]) -> int:
    """The opponent doing best this round (income, then fewest cards), first clockwise on ties."""
    n = state.config.players
    return max(candidates, key=lambda q: (state.income(q), -len(state.hands[q]), -((q - player) % n)))


def greedy_action(state: State) -> Action:
    """The greedy rule of thumb (docs/solvers/adventure-tours.md, "Greedy player"):

    - play the best-paying card that can join as a member; if none can, sponsor with the card that unlocks
      the most money in hand (else the one paying least);
    - attacks hit the opponent with the highest income (members: the one whose last member pays most);
      cards are given to the opponent with the fewest cards in hand, never to oneself;
    - take every extra turn, extra member and extra action; parry every attack with Pater Miller when the
      attack would cost a member, or when the Pater Miller is only equipment;
    - ability 1 (extra equipment) only with three or more cards in hand; ability 2: draw, gift to an opponent.
    """
    step = state.pending[0]
    legal = state.legal_actions()
    p = step.player
    cfg = state.config
    kind = step.kind
    if kind == "play":
        members = [a for a in legal if isinstance(a, Play) and a.member]
        if members:
            return max(members, key=lambda a: (cfg.money[a.card], cfg.demand[a.card], -a.card))
        card = _equipment_choice(state, p, list(state.hands[p]))
        return Play(card, False)
    if kind == "defend":
        act = cfg.action[step.card]
        row, _ = state.protectors(p)[-1]
        return Protect(act in (Act.DISCARD_MEMBER, Act.STEAL_MEMBER) or row == "equipment")
    if kind == "choose_board":
        return legal[0]
    if kind == "offer_b":
        opponents = [q for q in range(cfg.players) if q != p]
        return GiftChoice(True, _fewest_cards(state, p, opponents)) if opponents else GiftChoice(True, -1)
    if kind in ("offer_c", "offer_e", "offer_f"):
        return Accept()
    if kind in ("offer_d",):
        places = [a for a in legal if isinstance(a, Place)]
        return max(places, key=lambda a: (cfg.money[a.card], -a.card))
    if kind == "offer_a":
        if len(state.hands[p]) >= 3:
            return Place(_equipment_choice(state, p, list(state.hands[p])))
        return Skip()
    assert kind == "action"
    return _greedy_action_choice(state, p, step.card, legal)


def _fewest_cards(state: State, player: int, opponents: list[int]) -> int:
    n = state.config.players
    return min(opponents, key=lambda q: (len(state.hands[q]), (q - player) % n))


def _greedy_action_choice(state: State, p: int, card: int, legal: list[Action]) -> Action:
    cfg = state.config
    act = cfg.action[card]
    opponents = [q for q in range(cfg.players) if q != p]
    if act is Act.GIVE_ONE:
        return Target(_fewest_cards(state, p, opponents)) if opponents else Skip()
    if act is Act.GIVE_TWO:
        if not opponents:
            return Skip()
        q = _fewest_cards(state, p, opponents)
        return GiveTwo(q, q)
    if act is Act.EXTRA_EQUIPMENT:
        if len(state.hands[p]) >= 2:
            return Place(_equipment_choice(state, p, list(state.hands[p])))
        return Skip()
    if act is Act.EXTRA_TURN:
        return Accept()
    if act is Act.SAME_COLOUR_MEMBER:
        places = [a for a in legal if isinstance(a, Place)]
        return max(places, key=lambda a: (cfg.money[a.card], -a.card))
    assert act in ATTACKS
    targets = [a.player for a in legal if isinstance(a, Target) and a.player != p]
    if not targets:
        return Skip()
    if act in (Act.DISCARD_MEMBER, Act.STEAL_MEMBER):
        best = max(targets, key=lambda q: (cfg.money[state.members[q][-1]], -((q - p) % cfg.players)))
        return Target(best)
    return Target(_leader(state, p, targets))


#: Patient player: a sponsor is preferred to the best member when the money it unlocks or brings nearer (below)
#: is at least this share of that member's money.
PATIENT_RATIO = 1.0
#: Worth of a hand card's money still out of reach after the sponsor, per point of the gap the sponsor closes.
PATIENT_PROGRESS = 0.3
#: The round is near its end (play members greedily) when another player holds at most this many cards.
PATIENT_CLOSE = 2


def _sponsor_gain(state: State, player: int, card: int) -> float:
    """Money of the same-colour hand cards the equipment `card` unlocks, plus `PATIENT_PROGRESS` of the money of
    those still out of reach per point of the gap it closes, minus the card's own money if it could join now."""
    cfg = state.config
    colour, value = cfg.colour[card], cfg.value[card]
    level = state.equipment_level(player, colour)
    gain = 0.0
    for c in state.hands[player]:
        if c == card or cfg.colour[c] != colour or cfg.demand[c] <= level:
            continue
        if cfg.demand[c] <= level + value:
            gain += cfg.money[c]
        else:
            gain += PATIENT_PROGRESS * cfg.money[c] * value / (cfg.demand[c] - level)
    return gain - (cfg.money[card] if state.can_join(player, card) else 0)


def patient_action(state: State) -> Action:
    """A patient rule of thumb (docs/solvers/adventure-tours.md, "Patient player"): like `greedy_action`, except
    that at its regular play it sponsors with the card of the best `_sponsor_gain` when that gain is at least
    `PATIENT_RATIO` x the money of the best member it could lay, unless another player is down to
    `PATIENT_CLOSE` cards (the round may end before a sponsor pays back). Reads only the public table and its own
    hand, like greedy."""
    step = state.pending[0]
    if step.kind != "play":
        return greedy_action(state)
    p = step.player
    cfg = state.config
    hand = state.hands[p]
    others = [len(state.hands[q]) for q in range(cfg.players) if q != p]
    joinable = [c for c in hand if state.can_join(p, c)]
    if joinable and others and min(others) <= PATIENT_CLOSE:
        return greedy_action(state)
    best_member = max((cfg.money[c] for c in joinable), default=0)
    sponsor = max(hand, key=lambda c: (_sponsor_gain(state, p, c), -cfg.money[c], cfg.value[c], -c))
    if not joinable or _sponsor_gain(state, p, sponsor) >= PATIENT_RATIO * best_member:
        return Play(sponsor, False)
    return greedy_action(state)


def random_action(state: State, rng: Any) -> Action:
    """A uniformly random legal action (`rng`: numpy Generator)."""
    legal = state.legal_actions()
    return legal[int(rng.integers(len(legal)))]


__all__ = ["ChooseBoard", "greedy_action", "patient_action", "random_action"]
