"""Fit the Campsite hint's tent value tables on self-play: what a tent standing so, with so many cards still to
come from its owner and from the others, scores at the round's end (on average).

    python -m bench.campsite_hint_fit collect --players 2 --games 400 --policy hint --out /tmp/t.npz
    python -m bench.campsite_hint_fit fit /tmp/t2.npz /tmp/t4.npz   # writes solver/campsite/hint_growth.py

Collect: games among the named self-play policy (seeds 6,300,000+, the tuning range); after every play, one row
per tent on the table: players, the owner's cards still to come, the others' cards still to come, token,
matching squares (terrains seen for Wilderness), open surrounding squares, doubled?, and at the round's end the
tent's final points. Fit: per (players, owner's cards to come, others' cards to come, token kind, matches, open,
doubled) the mean final points, shrunk toward a parametric fit where cells are thin (see `fit`).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np
from campsolver.solver.campsite import rules as R
from campsolver.solver.campsite.fast import Board
from campsolver.solver.core.game import CHANCE, TERMINAL

COLUMNS = ("players", "own_left", "other_left", "token", "base", "open", "fair", "final", "game")
TABLES_DATA_PATH = Path(__file__).resolve().parents[1] / "solver" / "campsite" / "hint_growth.py"


def cards_to_come(state_turn: int, players: int, starter: int, owner: int) -> tuple[int, int]:
    """(owner's, others') cards still to be laid this round after `state_turn` turns were played."""
    total = R.TURNS_PER_ROUND * players
    own = sum(1 for t in range(state_turn, total) if (starter + t) % players == owner)
    return own, total - state_turn - own


def collect(
    players: int, games: int, policy_name: str, first_seed: int, cpu_s: float, epsilon: float, out: Path | None = None
) -> np.ndarray:
    from bench.campsite_sparring import make_policy

    rows: list[tuple[int, ...]] = []
    for game in range(games):
        seed = first_seed + game
        rng = random.Random(seed)
        names = policy_name.split(",")
        policies = [make_policy(names[(game + p) % len(names)], cpu_s, seed * 10 + p, 0.2) for p in range(players)]
        state = R.new_game(players)
        pending: list[tuple[int, ...]] = []  # this round's rows waiting for the final points: (tent index, ...)
        while state.current_player() != TERMINAL:
            if state.current_player() == CHANCE:
                pile = sorted(state.pile)
                state = state.child(pile[rng.randrange(len(pile))])
                continue
            mover = state.to_move
            if epsilon and rng.random() < epsilon:
                actions = state.legal_actions()
                card = actions[rng.randrange(len(actions))]
                pitches = state.child(card).legal_actions()
                pitch = pitches[rng.randrange(len(pitches))]
                placement, tent = card.placement, R.Tent(mover, pitch.token, pitch.row, pitch.col)
            else:
                placement, tent = policies[mover](state)
            after = state.table.place(placement).pitch(tent)
            board = Board(after, players)
            played = state.turn + 1
            if played < R.TURNS_PER_ROUND * players:
                for index in range(len(board.t_r)):
                    owner = int(board.t_player[index])
                    own, other = cards_to_come(played, players, state.starter, owner)
                    pending.append(
                        (
                            index,
                            players,
                            own,
                            other,
                            int(board.t_token[index]),
                            int(board.t_base[index]),
                            int(board.t_open[index]),
                            int(board.t_fair[index]),
                        )
                    )
            else:
                finals = board.tent_points()
                for index, *features in pending:
                    rows.append((*features, int(finals[index]), game))
                pending = []
            state = state.child(R.PlayCard(placement)).child(R.PitchTent(tent.token, tent.row, tent.col))
        print(f"game {game} done, {len(rows)} rows", file=sys.stderr, flush=True)
        if out is not None and game % 10 == 9:
            np.savez_compressed(out, rows=np.array(rows, dtype=np.int16), columns=np.array(COLUMNS))
    return np.array(rows, dtype=np.int16)


#: Rows a (players, owner's cards, others' cards, kind, doubled) cell needs before it is fitted alone; thinner
#: cells pool the owner's cards to come +- 1.
MIN_ROWS = 60


def fit(paths: list[Path]) -> None:
    """Least squares, per (players, owner's cards to come, others' cards to come, kind (terrain / Wilderness),
    doubled now), of the growth final - points now on open and open^2 (no intercept: a tent with no open square
    cannot grow); writes the coefficients to `hint_tables.py`."""
    data = np.concatenate([np.load(p)["rows"].astype(np.int64) for p in paths])
    players, own, other, token, base, opn, fair, final, _game = data.T
    growth = final - base * (1 + fair)
    kind = (token == 6).astype(np.int64)
    coefficients: dict[tuple[int, int, int], list[list[float]]] = {}
    for p in sorted(set(players.tolist())):
        keys = sorted(set(zip(own[players == p].tolist(), other[players == p].tolist(), strict=True)))
        for o, q in keys:
            cell = []
            for k in (0, 1):
                for f in (0, 1):
                    widen = 0
                    while True:
                        m = (
                            (players == p)
                            & (np.abs(own - o) <= widen)
                            & (np.abs(other - q) <= 2 * widen)
                            & (kind == k)
                            & (fair == f)
                        )
                        if m.sum() >= MIN_ROWS or widen >= 3:
                            break
                        widen += 1
                    x = np.stack([opn[m], opn[m] ** 2], axis=1).astype(np.float64)
                    y = growth[m].astype(np.float64)
                    if len(y) < 10 or (o == 0 and q == 0):
                        cell.append([0.0, 0.0])
                        continue
                    coef, *_ = np.linalg.lstsq(x, y, rcond=None)
                    cell.append([round(float(v), 4) for v in coef])
            coefficients[(int(p), int(o), int(q))] = cell
    lines = [
        '"""Fitted tent growth for the Campsite hint (generated by `python -m bench.campsite_hint_fit fit`; do not',
        "edit by hand). GROWTH[(players, owner's cards to come, others' cards to come)] = [[a1, a2] for (terrain,",
        "undoubled), (terrain, doubled), (Wilderness, undoubled), (Wilderness, doubled)]: a tent with `open` open",
        "surrounding squares gains on average a1 x open + a2 x open^2 points by the round's end (its points then",
        "minus its points now), fitted by least squares on self-play rows (see the generator's docstring for",
        'the games and seeds)."""',
        "",
        f"ROWS = {len(data)}",
        "GROWTH = {",
    ]
    for key, cell in sorted(coefficients.items()):
        lines.append(f"    {key}: {cell},")
    lines.append("}")
    TABLES_DATA_PATH.write_text("\n".join(lines) + "\n")
    print(f"wrote {TABLES_DATA_PATH} from {len(data)} rows, {len(coefficients)} cells")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--players", type=int, default=2)
    c.add_argument("--games", type=int, default=200)
    c.add_argument("--policy", default="cardtent")
    c.add_argument("--first-seed", type=int, default=6_390_000)
    c.add_argument("--cpu", type=float, default=0.05)
    c.add_argument("--epsilon", type=float, default=0.0)
    c.add_argument("--out", type=Path, required=True)
    f = sub.add_parser("fit")
    f.add_argument("data", type=Path, nargs="+")
    args = parser.parse_args(argv)
    if args.command == "collect":
        data = collect(args.players, args.games, args.policy, args.first_seed, args.cpu, args.epsilon, args.out)
        np.savez_compressed(args.out, rows=data, columns=np.array(COLUMNS))
    else:
        fit(args.data)


if __name__ == "__main__":
    main()
