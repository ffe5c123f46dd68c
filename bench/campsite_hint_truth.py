"""A fixed set of Campsite decisions with each candidate play's value measured by many play-outs, to judge and
tune the hint's evaluation offline (cheaper and steadier than whole games).

    python -m bench.campsite_hint_truth make --players 2 --positions 200 --rollouts 24 --out /tmp/truth2.pkl
    python -m bench.campsite_hint_truth judge /tmp/truth2.pkl

make: positions from games among the sparring partners (seeds 6,350,000+, the tuning range), one decision in
every few; candidates = the best few plays by immediate margin, by the hint's one-ply value and by the one-ply
ranking the hint used before; each candidate played out to the round's end `rollouts` times (the same sampled
worlds for every candidate of a position: the other hands and the pile drawn from the mover's unseen cards),
every seat then playing the immediate-margin rule; its value = the mean final round margin (mover minus the best
other seat), with its standard error.
judge: for each evaluator, the mean regret (best candidate's measured value minus the value of the one it
picks) and how often it picks the measured best; evaluators are the hint's one-ply value with variants.
"""

from __future__ import annotations

import argparse
import pickle
import random
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from campsolver.solver.campsite import hint as hints
from campsolver.solver.campsite import lookahead as L
from campsolver.solver.campsite import rules as R
from campsolver.solver.campsite.fast import hand_pictures, points_table
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.game import CHANCE, TERMINAL


class PointsModel:
    """Tent values = points as the table stands (the immediate-margin rule's view)."""

    def __init__(self, players: int) -> None:
        self.players = players
        self._points = points_table()
        self.stacks: dict = {}

    def table(self, own: int, other: int) -> np.ndarray:
        return self._points

    def reserve(self, own: int, other: int) -> np.ndarray:
        return np.zeros(7)


@dataclass
class Position:
    state: R.CampsiteState
    seed: int
    candidates: list[tuple[int, int, int, int]]  # (root placement index, token, array row, array col)
    labels: list[str]
    samples: np.ndarray  # (candidates, rollouts) final round margins
    mean_margins: np.ndarray | None = None  # (candidates, rollouts) mover minus the others' mean
    wins: np.ndarray | None = None  # (candidates, rollouts) 1 / k when the mover is among k best, else 0


def _view(state: R.CampsiteState) -> L.SeatView:
    seat = state.to_move
    return L.seat_view(
        state.table, state.hands[seat], state.tokens[seat], seat, state.players, state.deck, state.totals
    )


def _root(view: L.SeatView, model: object) -> L.Ply:
    return L.one_ply(
        view,
        view.board,
        hand_pictures(view.hand),
        view.player,
        view.tokens[view.player],
        view.played,
        model,
        view.totals,
        True,
    )


def candidates_of(
    state: R.CampsiteState, per: int = 4
) -> tuple[L.SeatView, L.Ply, list[tuple[int, int, int, int]], list[str]]:
    view = _view(state)
    points_root = _root(view, PointsModel(view.players))
    fitted_root = _root(view, L.ValueModel(view.players))
    found: dict[tuple[int, int, int, int], str] = {}
    for label, ply in (("margin", points_root), ("oneply", fitted_root)):
        for i in np.argsort(-ply.value, kind="stable")[:per]:
            key = (int(i), int(ply.options.token[i]), int(ply.options.row[i]), int(ply.options.col[i]))
            found.setdefault(key, label)
    # The ranking the hint used before (rules-model objects, mapped to the engine's indices).
    to_come = R.TURNS_PER_ROUND * state.players - state.turn - 1
    old = hints.hint_one_ply(state, Budget(30), options=hints.HintOptions(top=per, cards_to_come=to_come))
    pl = points_root.pl
    index_of = {view.board.placement_of(pl, i).signature(): i for i in range(len(pl))}
    for play in old.choices:
        i = index_of.get(play.placement.signature())
        if i is None:
            continue
        row, col = play.tent.row - view.board.r0, play.tent.col - view.board.c0
        found.setdefault((int(i), int(play.tent.token), row, col), "old")
    return view, points_root, list(found), list(found.values())


def measure(
    view: L.SeatView, root: L.Ply, candidates: list[tuple[int, int, int, int]], rollouts: int, seed: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(margin over the best other, margin over the others' mean, win share) per candidate and rollout, of the
    round's final scores plus the earlier rounds' totals."""
    model = PointsModel(view.players)
    rng = np.random.default_rng(seed)
    shape = (len(candidates), rollouts)
    margin, mean_margin, wins = np.zeros(shape), np.zeros(shape), np.zeros(shape)
    for r in range(rollouts):
        world = L.sample_world(view, rng)
        for k, (index, token, row, col) in enumerate(candidates):
            candidate = L.Candidate(index, token, row, col, 0.0)
            final = L.play_out(view, root, candidate, world, model, True, 10_000, standings_out=True)
            others = np.delete(final, view.player)
            margin[k, r] = final[view.player] - others.max()
            mean_margin[k, r] = final[view.player] - others.mean()
            best = final.max()
            wins[k, r] = (1.0 / np.sum(final == best)) if final[view.player] == best else 0.0
    return margin, mean_margin, wins


def make(players: int, positions: int, rollouts: int, first_seed: int, every: float, out: Path) -> None:
    from bench.campsite_sparring import make_policy

    names = ["margin1", "cardtent", "planner", "oldhint"]
    found: list[Position] = []
    seed = first_seed
    while len(found) < positions:
        rng = random.Random(seed)
        policies = [make_policy(names[(seed + p) % len(names)], 0.15, seed * 10 + p, 0.2) for p in range(players)]
        state = R.new_game(players)
        while state.current_player() != TERMINAL and len(found) < positions:
            if state.current_player() == CHANCE:
                pile = sorted(state.pile)
                state = state.child(pile[rng.randrange(len(pile))])
                continue
            last = state.turn + 1 >= R.TURNS_PER_ROUND * players
            if not last and rng.random() < every:
                view, root, candidates, labels = candidates_of(state)
                if len(candidates) > 1:
                    samples, mean_margins, wins = measure(view, root, candidates, rollouts, seed * 100 + state.turn)
                    found.append(Position(state, seed, candidates, labels, samples, mean_margins, wins))
                    print(
                        f"position {len(found)}: seed {seed} round {state.round} turn {state.turn}, "
                        f"{len(candidates)} candidates, spread {np.ptp(samples.mean(axis=1)):.2f}",
                        file=sys.stderr,
                        flush=True,
                    )
                    if len(found) % 10 == 0:
                        out.write_bytes(pickle.dumps([vars(p) for p in found]))
            placement, tent = policies[state.to_move](state)
            state = state.child(R.PlayCard(placement)).child(R.PitchTent(tent.token, tent.row, tent.col))
        seed += 1
    out.write_bytes(pickle.dumps([vars(p) for p in found]))


def judge(paths: list[Path], evaluators: dict | None = None) -> None:
    positions = [Position(**p) for path in paths for p in pickle.loads(path.read_bytes())]
    evaluators = evaluators or default_evaluators()
    print(f"{len(positions)} positions")
    for name, evaluate in evaluators.items():
        regrets, hits = [], 0
        for position in positions:
            means = position.samples.mean(axis=1)
            scores = evaluate(position)
            pick = int(np.argmax(scores))
            regrets.append(means.max() - means[pick])
            hits += int(means[pick] >= means.max() - 1e-9)
        regrets = np.array(regrets)
        print(
            f"{name:28s} regret {regrets.mean():.3f} +- {regrets.std(ddof=1) / np.sqrt(len(regrets)):.3f}"
            f"  best {hits / len(positions):.2f}"
        )


def _one_ply_scores(position: Position, model: object) -> np.ndarray:
    view = _view(position.state)
    root = _root(view, model)
    values = []
    for index, token, row, col in position.candidates:
        values.append(_play_value(view, root, index, token, row, col))
    return np.array(values)


def _play_value(view: L.SeatView, root: L.Ply, index: int, token: int, row: int, col: int) -> float:
    """The one-ply value of one play (placement `index`, that tent)."""
    for value, t, r, c in hints._placement_tents(
        view.board, root.pl, index, sorted(view.tokens[view.player]), root.new_table, root.bonus
    ):
        if (t, r, c) == (token, row, col):
            return float(root.value[index] - root.options.value[index] + value)
    raise KeyError((index, token, row, col))


def _old_scores(position: Position) -> np.ndarray:
    state = position.state
    to_come = R.TURNS_PER_ROUND * state.players - state.turn - 1
    best = hints.hint_one_ply(state, Budget(30), options=hints.HintOptions(top=1, cards_to_come=to_come)).choices[0]
    view = _view(state)
    scores = np.zeros(len(position.candidates))
    for k, (index, token, row, col) in enumerate(position.candidates):
        placement = view.board.placement_of(_root(view, PointsModel(view.players)).pl, index)
        cell = view.board.cell(row, col)
        if placement.signature() == best.placement.signature() and (token, cell) == (
            int(best.tent.token),
            best.tent.cell,
        ):
            scores[k] = 1.0
    return scores


def _look_ahead_scores(position: Position, worlds: int, depth: int | None = None, seed: int = 1) -> np.ndarray:
    """The hint's look-ahead value of every candidate: mean over `worlds` sampled worlds (its own seed)."""
    view = _view(position.state)
    model = L.ValueModel(view.players)
    root = _root(view, model)
    rng = np.random.default_rng(L.view_seed(view, seed))
    sampled = [L.sample_world(view, rng) for _ in range(worlds)]
    depth = view.players if depth is None else depth
    scores = []
    for index, token, row, col in position.candidates:
        candidate = L.Candidate(index, token, row, col, 0.0)
        scores.append(np.mean([L.play_out(view, root, candidate, w, model, True, depth) for w in sampled]))
    return np.array(scores)


def default_evaluators() -> dict:
    return {
        "look-ahead 1 world": lambda p: _look_ahead_scores(p, 1),
        "look-ahead 2 worlds": lambda p: _look_ahead_scores(p, 2),
        "look-ahead 4 worlds": lambda p: _look_ahead_scores(p, 4),
        "look-ahead 8 worlds": lambda p: _look_ahead_scores(p, 8),
        "look-ahead 16 worlds": lambda p: _look_ahead_scores(p, 16),
        "look-ahead 32 worlds": lambda p: _look_ahead_scores(p, 32),
        "look-ahead 8 worlds depth 1": lambda p: _look_ahead_scores(p, 8, 1),
        "look-ahead 8 worlds depth 4": lambda p: _look_ahead_scores(p, 8, 4),
        "immediate margin": lambda p: _one_ply_scores(p, PointsModel(p.state.players)),
        "one-ply fitted": lambda p: _one_ply_scores(p, L.ValueModel(p.state.players)),
        "old one-ply ranking": _old_scores,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("make")
    m.add_argument("--players", type=int, default=2)
    m.add_argument("--positions", type=int, default=200)
    m.add_argument("--rollouts", type=int, default=24)
    m.add_argument("--first-seed", type=int, default=6_350_000)
    m.add_argument("--every", type=float, default=0.15)
    m.add_argument("--out", type=Path, required=True)
    j = sub.add_parser("judge")
    j.add_argument("data", type=Path, nargs="+")
    args = parser.parse_args(argv)
    if args.command == "make":
        make(args.players, args.positions, args.rollouts, args.first_seed, args.every, args.out)
    else:
        judge(args.data)


if __name__ == "__main__":
    main()
