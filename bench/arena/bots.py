"""Generic search opponents with greedy rollouts: OpenSpiel's MCTS and IS-MCTS whose leaves are judged by a game
played to its end by the repository's greedy player in every seat (`bench.openspiel`'s `*_greedy` functions, on
the rules state), instead of random moves.

Why: random rollouts are a weak yardstick here (in Camper Tour a random camper scores mostly below zero, so a
random playout says little about a position); the greedy player finishes a game the way a plausible opponent
would, and a playout through the rules model costs less than a random one through the adapter in Happy Campers,
Camper Tour and Adventure Tours (10-40 ms against 3-60 ms). In Deluxe Camping and Campsite the greedy player
itself is slow (one playout from the start: 1.2-1.5 and 0.7 CPU-s), so at the bench's budgets those bots get a
few playouts a decision; with `prior="greedy"` such a bot still plays at least the greedy move (below).

- `GreedyRolloutEvaluator.evaluate(state)`: the win returns (1 / 0 / a shared tie) of one greedy playout from a
  copy of `state` (chance drawn with the exact odds from the evaluator's own generator). The search's root is
  never played out: MCTS and IS-MCTS evaluate the root on their first simulation, and that value never decides
  a move, so the evaluator answers it with an even split at no cost (`skip_root`, set by the seat before each
  search).
- `prior(state)`: `uniform` (1/n each), or `greedy`: `GREEDY_PRIOR` on the greedy player's move mixed with the
  uniform prior (greedy's move GREEDY_PRIOR + (1 - GREEDY_PRIOR) / n, every other (1 - GREEDY_PRIOR) / n).
  With the greedy prior the bots try the moves in prior order (greedy's move first, then the others at random)
  before UCT takes over. The most visited move is played, ties in visits going to the higher prior (greedy's
  move), then to the higher return: a move must earn more visits than greedy's to replace it. OpenSpiel breaks
  those ties by total return (MCTS) or at random (IS-MCTS), and with fewer simulations than moves every tried
  move has one visit, so one lucky playout of a random move would decide. MCTS: `prior_first_uct` as the child
  selection (UCT, unvisited children by prior) and `PriorFirstMCTSBot` (the final choice); IS-MCTS:
  `PriorFirstISMCTSBot` (expansion by prior, the final choice). So a bot whose simulations do not reach every
  move once plays the greedy move, and above that UCT's visits decide.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel
from campsolver.solver.core.game import CHANCE, TERMINAL, sample_outcome
from open_spiel.python.algorithms import ismcts, mcts

from bench.openspiel import GameSpec, Plan
from campsolver.openspiel.common import AdapterState

#: The weight of the greedy player's move in the greedy prior (mixed with the uniform prior for the rest).
GREEDY_PRIOR = 0.5
PRIORS = ("greedy", "uniform")
VALUES = ("win", "margin")


def margin_value(scores: list[float], wins: list[float]) -> np.ndarray:
    """Half the win return plus half the margin over the best other score, scaled into [0, 1] without a game's
    score range: (mine - best other) / (|mine| + |best other| + 1) maps to 0..1."""
    out = []
    for p, mine in enumerate(scores):
        other = max(x for q, x in enumerate(scores) if q != p)
        out.append(0.5 * wins[p] + 0.25 * (1.0 + (mine - other) / (abs(mine) + abs(other) + 1.0)))
    return np.asarray(out)


@dataclass(frozen=True)
class GreedyBotSetting:
    """A greedy-rollout bot's settings: UCT constant, prior (`greedy` or `uniform`), playouts a leaf."""

    uct_c: float = 1.4
    prior: str = "greedy"
    rollouts: int = 1
    #: What a playout returns: `win` (1 / 0 / a shared tie) or `margin` (half the win, half the scale-free margin
    #: over the best other score, `margin_value`): a continuous value, less noisy a playout.
    value: str = "win"


def greedy_playout(spec: GameSpec, rules_state: Any, rng: np.random.Generator) -> Any:
    """The rules state at the end of a game from `rules_state` with the greedy player in every seat (a plan of
    several moves is replayed while it stays legal, as the bench's seats do)."""
    state = rules_state
    plan: Plan = []
    planner = -1
    while (player := state.current_player()) != TERMINAL:
        if player == CHANCE:
            state = state.child(sample_outcome(state, rng))
            continue
        if plan and planner == player and plan[0] in state.legal_actions():
            state = state.child(plan.pop(0))
            continue
        plan, planner = list(spec.greedy(state, player, rng)), player
        state = state.child(plan.pop(0))
    return state


class GreedyRolloutEvaluator(mcts.Evaluator):
    """Leaves judged by greedy playouts; see the module docstring."""

    def __init__(
        self, spec: GameSpec, rng: np.random.Generator, prior: str = "greedy", rollouts: int = 1, value: str = "win"
    ) -> None:
        if prior not in PRIORS or value not in VALUES:
            raise ValueError(f"prior one of {PRIORS} (not {prior!r}), value one of {VALUES} (not {value!r})")
        self.value = value
        self.spec = spec
        self.rng = rng
        self.prior_kind = prior
        self.rollouts = rollouts
        #: History length of the search's root (set by the seat before a search): its evaluation is skipped.
        self.skip_root: int | None = None
        self.playouts = 0

    def evaluate(self, state: AdapterState) -> np.ndarray:
        players = state.get_game().num_players()
        if self.skip_root is not None and len(state.history()) == self.skip_root:
            return np.full(players, 1.0 / players)
        total = np.zeros(players)
        for _ in range(self.rollouts):
            final = AdapterState(state.get_game(), greedy_playout(self.spec, state.rules_state, self.rng))
            wins = final.returns()
            if self.value == "margin" and players > 1:
                total += margin_value(final.adapter_game.final_scores(final.rules_state), wins)
            else:
                total += np.asarray(wins)
            self.playouts += 1
        return total / self.rollouts

    def prior(self, state: AdapterState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        if self.prior_kind == "uniform":
            return [(action, 1.0 / len(legal)) for action in legal]
        rules_state = state.rules_state
        move = self.spec.greedy(rules_state, rules_state.current_player(), self.rng)[0]
        best = state.adapter_game.encoding.encode(rules_state, move)
        rest = (1.0 - GREEDY_PRIOR) / len(legal)
        return [(action, GREEDY_PRIOR + rest if action == best else rest) for action in legal]


def prior_first_uct(child: mcts.SearchNode, parent_explore_count: int, uct_c: float) -> float:
    """UCT, where a child not yet visited comes before any visited one and the unvisited ones come in prior
    order (OpenSpiel's UCT takes them in shuffled order)."""
    if child.outcome is None and child.explore_count == 0:
        return 1e9 + child.prior
    return float(mcts.SearchNode.uct_value(child, parent_explore_count, uct_c))


class PriorFirstMCTSBot(mcts.MCTSBot):
    """OpenSpiel's MCTS whose final choice breaks ties in visits by prior before total return: a move must earn
    more visits than greedy's to replace it, never win on one lucky playout (see the module docstring)."""

    def step_with_policy(self, state: Any) -> tuple[list[tuple[int, float]], int]:
        root = self.mcts_search(state)

        def key(child: mcts.SearchNode) -> tuple[float, int, float, float]:
            proven = 0.0 if child.outcome is None else float(child.outcome[child.player])
            return (proven, child.explore_count, child.prior, child.total_reward)

        best = max(root.children, key=key).action
        return [(a, 1.0 if a == best else 0.0) for a in state.legal_actions(state.current_player())], best


class PriorFirstISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's IS-MCTS with unexpanded actions tried in prior order and the final choice's ties in visits
    broken by prior, then mean return (see the module docstring)."""

    def check_expand(self, node: Any, legal_actions: list[int]) -> int:
        fresh = [a for a in legal_actions if a not in node.child_info]
        if not fresh:
            return pyspiel.INVALID_ACTION
        top = max(node.prior_map.get(a, 0.0) for a in fresh)
        best = [a for a in fresh if node.prior_map.get(a, 0.0) >= top - 1e-12]
        return int(best[self._random_state.randint(len(best))])

    def get_final_policy(self, state: Any, node: Any) -> list[tuple[int, float]]:
        def key(item: tuple[int, Any]) -> tuple[float, float, float]:
            action, child = item
            return (child.visits, node.prior_map.get(action, 0.0), child.value() if child.visits else -math.inf)

        choice = max(node.child_info.items(), key=key)[0]
        return [(action, 1.0 if action == choice else 0.0) for action in state.legal_actions()]


class SearchSeat:
    """A seat played by an MCTS / IS-MCTS bot; `cpu` lists the CPU seconds of each decision, `playouts` the
    greedy playouts of each (the root's skipped evaluation not counted)."""

    def __init__(self, bot: Any, evaluator: mcts.Evaluator) -> None:
        self.bot = bot
        self.evaluator = evaluator
        self.cpu: list[float] = []
        self.playouts: list[int] = []

    def act(self, state: AdapterState) -> int:
        started = time.process_time()
        before = getattr(self.evaluator, "playouts", 0)
        if isinstance(self.evaluator, GreedyRolloutEvaluator):
            self.evaluator.skip_root = len(state.history())
        action = self.bot.step(state)
        self.cpu.append(time.process_time() - started)
        self.playouts.append(getattr(self.evaluator, "playouts", 0) - before)
        return int(action)


def make_search_bot(
    spec: GameSpec, game: pyspiel.Game, setting: GreedyBotSetting, simulations: int, seed: int, rollout: str = "greedy"
) -> SearchSeat:
    """MCTS (perfect information) or IS-MCTS (Campsite, Adventure Tours) with greedy (or, `rollout="random"`,
    OpenSpiel's random) rollouts, seeded by `seed`; IS-MCTS redraws worlds with the adapter's resampler."""
    random_state = np.random.RandomState(seed % 2**32)
    evaluator: mcts.Evaluator
    if rollout == "greedy":
        evaluator = GreedyRolloutEvaluator(
            spec, np.random.default_rng([seed, 31]), setting.prior, setting.rollouts, setting.value
        )
    elif rollout == "random":
        evaluator = mcts.RandomRolloutEvaluator(setting.rollouts, random_state)
    else:
        raise ValueError(f"rollout must be greedy or random, not {rollout!r}")
    if spec.hidden:
        kind: Callable[..., Any] = PriorFirstISMCTSBot if rollout == "greedy" else ismcts.ISMCTSBot
        bot = kind(
            game, evaluator, setting.uct_c, simulations, random_state=random_state, allow_inconsistent_action_sets=True
        )
        bot.set_resampler(lambda state, player: state.resample_from_infostate(player, bot.random_number))
    else:
        selection = prior_first_uct if rollout == "greedy" else mcts.SearchNode.uct_value
        kind = PriorFirstMCTSBot if rollout == "greedy" else mcts.MCTSBot
        bot = kind(
            game,
            setting.uct_c,
            simulations,
            evaluator,
            random_state=random_state,
            solve=False,
            child_selection_fn=selection,
        )
    return SearchSeat(bot, evaluator)
