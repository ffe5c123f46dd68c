"""What the outside players share: the seat interface, a game loop through the rules model, win shares.

A player is `fn(state, seat, rng) -> list[move]`: `state` is the rules-model state (what
`bench.openspiel.AdapterState.rules_state` holds), `seat` the player index, `rng` a numpy Generator; the list
holds that seat's rules-model moves for its turn, first = now. `play_game` plays one game to its end with the
rules model alone (chance drawn from each node's exact odds by a generator seeded from the game seed), replaying
a player's plan while its next move stays legal, as `bench.openspiel.PlanSeat` does.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from campsolver.solver.core.game import CHANCE, TERMINAL

Plan = list[Any]
Player = Callable[[Any, int, np.random.Generator], Plan]

#: Safety stop: no game of the five comes near it.
MAX_DECISIONS = 20_000


def new_state(game: str, players: int, seed: int) -> Any:
    """The rules-model start of a game. Deluxe Camping starts after a seeded random setup (placements and the
    reveal), as bench.openspiel's `dc_start` does; the other games start from their first chance node."""
    if game == "happy_campers":
        from campsolver.solver.happy_campers.modes import MultiplayerState

        return MultiplayerState.new(players)
    if game == "deluxe_camping":
        from campsolver.solver.core.seeding import rng_for
        from campsolver.solver.deluxe_camping import rules as dc

        return dc.random_setup(dc.Config(players=players), rng_for(seed, "openspiel-bench-deluxe-camping-setup"))
    if game == "campsite":
        from campsolver.solver.campsite import rules as cs

        return cs.new_game(players)
    if game == "camper_tour":
        from campsolver.solver.camper_tour import rules as ct

        return ct.new_game(ct.Config(), players)
    if game == "adventure_tours":
        from campsolver.solver.adventure_tours import rules as at

        return at.new_game(at.Config(players))
    raise ValueError(f"unknown game {game!r}")


def sample_chance(state: Any, rng: np.random.Generator) -> Any:
    outcomes = state.chance_outcomes()
    weights = np.asarray([float(p) for _, p in outcomes])
    return outcomes[int(rng.choice(len(outcomes), p=weights / weights.sum()))][0]


def winners(game: str, state: Any) -> list[int]:
    """Who won by the rules model: Camper Tour's own winner (ties to the later arrival; nobody home: shared),
    elsewhere the top scorers (a tie shared)."""
    if game == "camper_tour":
        winner = state.winner()
        return list(range(len(state.campers))) if winner is None else [winner]
    scores = [float(x) for x in state.returns()]
    best = max(scores)
    return [i for i, s in enumerate(scores) if s == best]


def win_shares(game: str, state: Any) -> list[float]:
    won = winners(game, state)
    count = len(state.returns())
    return [1.0 / len(won) if p in won else 0.0 for p in range(count)]


@dataclass
class Seat:
    """One seat's player with its plan (replayed while legal) and the CPU seconds of each call."""

    player: Player
    seat: int
    rng: np.random.Generator
    plan: Plan = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    def act(self, state: Any) -> Any:
        if self.plan:
            move = self.plan.pop(0)
            if move in state.legal_actions():
                return move
            self.plan = []
        started = time.process_time()
        self.plan = list(self.player(state, self.seat, self.rng))
        self.cpu.append(time.process_time() - started)
        if not self.plan:
            raise RuntimeError(f"player {self.player!r} gave no move")
        return self.plan.pop(0)


@dataclass
class GameRecord:
    final: Any
    scores: list[float]
    shares: list[float]
    cpu: list[list[float]]
    decisions: int
    moves: list[tuple[int, Any]]  # (seat, move) of every decision, in order


def play_game(game: str, players: list[Player], seed: int, *, check_legal: bool = True) -> GameRecord:
    """One game to its end through the rules model; seat p is played by `players[p]` (its generator seeded
    from the game seed and the seat). Every move is checked against `legal_actions()` first when
    `check_legal` (the rules model's `child` checks it too)."""
    state = new_state(game, len(players), seed)
    chance = np.random.default_rng([seed, 7919])
    seats = [Seat(fn, p, np.random.default_rng([seed, p, 17])) for p, fn in enumerate(players)]
    decisions = 0
    moves: list[tuple[int, Any]] = []
    while True:
        player = state.current_player()
        if player == TERMINAL:
            break
        if player == CHANCE:
            state = state.child(sample_chance(state, chance))
            continue
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise RuntimeError(f"{game}: no end within {MAX_DECISIONS} decisions")
        move = seats[player].act(state)
        if check_legal and move not in state.legal_actions():
            raise AssertionError(f"{game}: seat {player} played an illegal move {move!r}")
        moves.append((player, move))
        state = state.child(move)
    return GameRecord(
        state, [float(x) for x in state.returns()], win_shares(game, state), [s.cpu for s in seats], decisions, moves
    )
