"""Public versus hidden information: what one player sees, and the states consistent with it.

Public (rulebook "General information"): the discard pile, every hand's size, every expedition's boards,
equipment and members, the pile's size, scores. Hidden: the other hands and the pile's order. The hint is
given an `Observation` only, so it cannot read what its player could not see.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from campsolver.solver.adventure_tours.rules import Config, State, Step, _settle


@dataclass(frozen=True)
class Observation:
    """Everything `player` knows at a decision of theirs."""

    config: Config
    player: int
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    equipment: tuple[tuple[int, ...], ...]
    members: tuple[tuple[int, ...], ...]
    discard: tuple[int, ...]
    seat_boards: tuple[int, ...]
    pending: tuple[Step, ...]
    to_move: int
    starter: int
    round_index: int
    totals: tuple[int, ...]
    deck_size: int
    extra_turns: int
    ability_used: bool


def observe(state: State, player: int) -> Observation:
    return Observation(
        config=state.config,
        player=player,
        hand=state.hands[player],
        hand_sizes=tuple(len(h) for h in state.hands),
        equipment=state.equipment,
        members=state.members,
        discard=state.discard,
        seat_boards=state.seat_boards,
        pending=state.pending,
        to_move=state.to_move,
        starter=state.starter,
        round_index=state.round_index,
        totals=state.totals,
        deck_size=len(state.deck),
        extra_turns=state.extra_turns,
        ability_used=state.ability_used,
    )


def unseen_pool(obs: Observation) -> tuple[int, ...]:
    """Cards the player cannot see: the other hands and the pile, together."""
    seen = set(obs.hand) | set(obs.discard)
    for rows in (obs.equipment, obs.members):
        for row in rows:
            seen.update(row)
    return tuple(c for c in range(len(obs.config.deck)) if c not in seen)


def _base(obs: Observation, hands: tuple[tuple[int, ...], ...], deck: tuple[int, ...], ordered: bool) -> State:
    return State(
        config=obs.config,
        hands=hands,
        equipment=obs.equipment,
        members=obs.members,
        deck=deck,
        discard=obs.discard,
        seat_boards=obs.seat_boards,
        pending=obs.pending,
        to_move=obs.to_move,
        starter=obs.starter,
        round_index=obs.round_index,
        totals=obs.totals,
        extra_turns=obs.extra_turns,
        ability_used=obs.ability_used,
        deck_ordered=ordered,
    )


def public_state(obs: Observation) -> State:
    """The player's own view as a state: other hands empty, every unseen card in the pile. Only for
    enumerating the player's own choices, which never depend on hidden cards."""
    hands = tuple(obs.hand if q == obs.player else () for q in range(obs.config.players))
    return _base(obs, hands, unseen_pool(obs), False)


def belief_root(obs: Observation) -> State:
    """A chance node that deals the other hands from the unseen pool (exact probabilities), then continues
    with the observed pending steps: the uniform prior over hidden cards consistent with what is public."""
    n = obs.config.players
    hands = tuple(obs.hand if q == obs.player else () for q in range(n))
    deals = tuple(Step("deal", q) for q in range(n) if q != obs.player for _ in range(obs.hand_sizes[q]))
    state = _base(obs, hands, unseen_pool(obs), False)
    return _settle(replace(state, pending=deals + obs.pending)) if deals else state


def determinise(obs: Observation, rng: Any) -> State:
    """One full state drawn uniformly from those consistent with `obs`: other hands and the pile's order."""
    pool = list(unseen_pool(obs))
    order = [pool[i] for i in rng.permutation(len(pool))]
    hands: list[tuple[int, ...]] = []
    at = 0
    for q in range(obs.config.players):
        if q == obs.player:
            hands.append(obs.hand)
        else:
            hands.append(tuple(sorted(order[at : at + obs.hand_sizes[q]])))
            at += obs.hand_sizes[q]
    return _base(obs, tuple(hands), tuple(order[at:]), True)
