"""Rollouts of the multi-player game from your map's point of view (the hint's HintMode.MULTIPLAYER).

The single-map game ends at the first roll your map cannot take. In the multi-player game
(`modes.MultiplayerState`, readings in docs/rules/happy-campers.md) two more things shape your final score:

- Noisy neighbours: on a double every player draws on a neighbour's map (faces 1-3 the left one, 4-6 the
  right one), so on doubles your map gets a drawing you did not choose (with the Noisy Neighbours card
  the drawer also picks the shape: `modes.multiplayer_options`).
- The bonus turn: when any player cannot draw a roll they are out, everyone who could draw gets one
  more (bonus) turn, and the game is over. A rival's map filling up ends your game too.

A rollout here plays every map to the end exactly as `MultiplayerState` allows it (pinned drawing by
drawing in tests/happy_campers/test_multiplayer_hint.py): each owner draws their own map with the hint's
rollout policy (shaped greedy); a neighbour drawing on a map on a double is *hostile*: they pick the
drawing with the lowest value for the map's owner by that same policy's evaluation (ties by the future's
key), the competitive reading the neighbour-map hint also defaults to (documented in docs/rules/happy-campers.md).
The value is player 0's final score, or (what the hint ranks by) its margin over the best other player
(`final_margin`); Festival is compared with every map, as `MultiplayerState.final_scores` does.

Seats as in `MultiplayerState`: map 0 is yours, map 1 your left neighbour (i + 1), map n - 1 your right.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from campsolver.solver.happy_campers.modes import multiplayer_options
from campsolver.solver.happy_campers.policies import Candidate, FastMap, ShapedGreedyPolicy
from campsolver.solver.happy_campers.rules import FESTIVAL_POINTS, Challenge, Components, Element
from campsolver.solver.happy_campers.vector_rollout import choose_index
from campsolver.solver.happy_campers.vector_rollout import supports as vector_supports

#: Tie-break keys of different maps in one turn are the turn's key mixed with the map index.
_KEY_MIX = 0x9E3779B1
_KEY_MASK = 2**31 - 1

#: (turn, map index, (mask, around, element)) of every drawing (turn -1: the pending turn), for the
#: agreement test.
Record = list[tuple[int, int, tuple[int, int, int]]]


def drawer_of(map_index: int, roll: tuple[int, int], players: int) -> int:
    """`MultiplayerState.drawer_of`: the owner on a plain roll; on a double the neighbour drawing on it."""
    a, b = roll
    if a != b:
        return map_index
    if a <= 3:  # modes.LEFT_NEIGHBOUR_FACES: everyone draws on their left neighbour (i + 1)
        return (map_index - 1) % players
    return (map_index + 1) % players


def _candidates(
    fast: FastMap, roll: tuple[int, int], cards: Sequence[Challenge], components: Components
) -> list[Candidate]:
    found: list[Candidate] = []
    for option in multiplayer_options(roll, cards, components):
        found.extend(fast.candidates(option.shape_face, option.element_face, components))
    return found


def _key(key: int, map_index: int) -> int:
    return (key ^ (map_index * _KEY_MIX)) & _KEY_MASK


def _draw(
    maps: list[FastMap],
    index: int,
    roll: tuple[int, int],
    key: int,
    policy: ShapedGreedyPolicy,
    cards: Sequence[Challenge],
    components: Components,
) -> tuple[int, int, int] | None:
    """One drawing (mask, around, element) on map `index` by whoever draws on it this turn; None when
    nothing fits."""
    fast = maps[index]
    own = roll[0] != roll[1]
    if own and vector_supports(fast):
        chosen = choose_index(fast, roll, key, policy, components)
        if chosen is None:
            return None
        fast.commit(*chosen)
        return chosen
    candidates = _candidates(fast, roll, cards, components)
    if not candidates:
        return None
    values = policy.values(fast, candidates)
    target = max(values) if own else min(values)  # a neighbour's drawing is hostile
    ties = [i for i, v in enumerate(values) if v == target]
    mask, around, element, _, _ = candidates[ties[key % len(ties)]]
    fast.commit(mask, around, element)
    return mask, around, element


def can_take(fast: FastMap, roll: tuple[int, int], cards: Sequence[Challenge], components: Components) -> bool:
    """True when some option of the roll (multi-player options) fits on the map."""
    return any(fast.can_draw_option(o.shape_face, components) for o in multiplayer_options(roll, cards, components))


def final_scores(maps: Sequence[FastMap], cards: Sequence[Challenge]) -> list[int]:
    """Every player's final score (`MultiplayerState.final_scores`): Festival only for the biggest
    entertainment cluster (ties all win); an incomplete map scores 0."""
    scores = [m.final_score() for m in maps]
    if Challenge.FESTIVAL in cards:
        biggest = max(m.largest[Element.ENTERTAINMENT] for m in maps)
        for index, m in enumerate(maps):
            if m.missing() == 0 and m.largest[Element.ENTERTAINMENT] < biggest:
                scores[index] -= FESTIVAL_POINTS
    return scores


def final_score(maps: Sequence[FastMap], cards: Sequence[Challenge]) -> int:
    """Player 0's final score."""
    return final_scores(maps, cards)[0]


def final_margin(maps: Sequence[FastMap], cards: Sequence[Challenge]) -> int:
    """Player 0's final score minus the best other player's: positive means player 0 won outright, what
    the multi-player hint ranks by (a bigger score that loses is worth nothing more)."""
    scores = final_scores(maps, cards)
    return scores[0] - max(scores[1:])


def multiplayer_rollout(
    maps: list[FastMap],
    pending_roll: tuple[int, int] | None,
    bonus_turn_now: bool,
    dice: np.ndarray,
    keys: np.ndarray,
    policy: ShapedGreedyPolicy,
    cards: Sequence[Challenge],
    components: Components,
    record: Record | None = None,
    *,
    margin: bool = False,
) -> int:
    """Play every map (mutated) to the end of the multi-player game; return player 0's final score (with
    `margin`: player 0's final score minus the best other player's, `final_margin`).

    `pending_roll`: the current turn's plain roll, already drawn on map 0 (the hinted move); the other maps
    still draw it now (those that cannot are out, and the next turn is the bonus turn). `bonus_turn_now`:
    the current turn is the bonus turn, so the game is over after it. Future turn t uses `dice[t]` and
    `keys[t]`; the pending turn uses the last key.
    """
    players = len(maps)
    in_game = [True] * players
    bonus_turn = False
    if pending_roll is not None:
        pending_key = int(keys[-1])
        out = False
        for j in range(1, players):
            drawn = _draw(maps, j, pending_roll, _key(pending_key, j), policy, cards, components)
            if drawn is None:
                out = True
                if not bonus_turn_now:
                    in_game[j] = False
            elif record is not None:
                record.append((-1, j, drawn))
        if bonus_turn_now:
            return final_margin(maps, cards) if margin else final_score(maps, cards)
        bonus_turn = out
    for turn in range(len(dice) - 1):
        roll = (int(dice[turn, 0]), int(dice[turn, 1]))
        active = [j for j in range(players) if in_game[j]]
        can = {j: can_take(maps[j], roll, cards, components) for j in active}
        due = [j for j in active if can[j]]
        if not due:
            break
        if not bonus_turn:
            for j in active:
                in_game[j] = can[j]
        key = int(keys[turn])
        for j in due:
            drawn = _draw(maps, j, roll, _key(key, drawer_of(j, roll, players)), policy, cards, components)
            if drawn is None:  # cannot happen: `can` said an option fits
                raise AssertionError("a map that could take the roll had no drawing")
            if record is not None:
                record.append((turn, j, drawn))
        if bonus_turn:
            break
        bonus_turn = any(not can[j] for j in active)
    return final_margin(maps, cards) if margin else final_score(maps, cards)
