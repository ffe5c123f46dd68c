"""A sanity table for the outside players (not tuning): each style against each other style of its game and
against a uniformly random player, seats rotated, through the rules model alone.

    python -m bench.opponents.sanity [--games N] [--first-seed S] [--games-only g1,g2]

A cell (game, A, B) plays A in one seat and B in every other seat; games k*players .. k*players+players-1 share the
seed first_seed + k with A in seat k % players... so every seed is played with A in each seat. The table gives A's
win share (ties shared; fair share 1/players) with its Wilson 95% interval, both sides' mean scores and A's CPU
milliseconds a call (median / mean / max; a call may answer more than one decision: Campsite's card and tent, the
Deluxe Camping banker's movement and barrier). Results go to bench/opponents/sanity.json and the markdown table
to stdout.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np

from bench.common import wilson
from bench.opponents import PLAYERS
from bench.opponents.common import play_game

SMALLEST = {"happy_campers": 2, "deluxe_camping": 2, "campsite": 2, "camper_tour": 2, "adventure_tours": 3}
FIRST_SEED = 6_000_000
OUT = Path(__file__).with_name("sanity.json")


def random_player(state: Any, seat: int, rng: np.random.Generator) -> list[Any]:
    legal = state.legal_actions()
    return [legal[int(rng.integers(len(legal)))]]


def cell(game: str, a: str, b: str, games: int, first_seed: int) -> dict[str, Any]:
    players = SMALLEST[game]
    fa = PLAYERS[game][a]
    fb = random_player if b == "random" else PLAYERS[game][b]
    shares, mine, theirs, cpu = [], [], [], []
    started = time.process_time()
    for index in range(games):
        seed = first_seed + index // players
        seat = index % players
        table = [fb] * players
        table[seat] = fa
        record = play_game(game, table, seed)
        shares.append(record.shares[seat])
        mine.append(record.scores[seat])
        theirs.append(statistics.fmean(record.scores[p] for p in range(players) if p != seat))
        cpu.extend(record.cpu[seat])
    low, high = wilson(sum(shares), len(shares))
    return {
        "game": game,
        "players": players,
        "style": a,
        "opponent": b,
        "games": games,
        "share": statistics.fmean(shares),
        "wilson95": [low, high],
        "fair": 1 / players,
        "score": statistics.fmean(mine),
        "opponent_score": statistics.fmean(theirs),
        "cpu_call_median_s": statistics.median(cpu),
        "cpu_call_mean_s": statistics.fmean(cpu),
        "cpu_call_max_s": max(cpu),
        "calls": len(cpu),
        "seeds": [first_seed, first_seed + (games - 1) // players],
        "cell_cpu_s": time.process_time() - started,
    }


def markdown(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| game | style | against | games | style's share [Wilson 95%] | fair | mean score style / against | "
        "style's CPU ms a call: median / mean / max |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        low, high = r["wilson95"]
        lines.append(
            f"| {r['game'].replace('_', ' ')} | {r['style']} | {r['opponent']} | {r['games']} | "
            f"{r['share']:.2f} [{low:.2f}, {high:.2f}] | {r['fair']:.2f} | {r['score']:.1f} / "
            f"{r['opponent_score']:.1f} | {1000 * r['cpu_call_median_s']:.2f} / {1000 * r['cpu_call_mean_s']:.2f} / "
            f"{1000 * r['cpu_call_max_s']:.1f} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games a cell (a multiple of the players is best)")
    parser.add_argument("--first-seed", type=int, default=FIRST_SEED)
    parser.add_argument("--only", default="", help="comma list of games (default: all five)")
    args = parser.parse_args(argv)
    games = [g for g in PLAYERS if not args.only or g in args.only.split(",")]
    rows = json.loads(OUT.read_text())["rows"] if OUT.exists() else []
    rows = [r for r in rows if r["game"] not in games]
    for game in games:
        styles = list(PLAYERS[game])
        pairs = [(a, "random") for a in styles] + [(a, b) for i, a in enumerate(styles) for b in styles[i + 1 :]]
        pairs += [(b, a) for i, a in enumerate(styles) for b in styles[i + 1 :]] if SMALLEST[game] > 2 else []
        for a, b in pairs:
            row = cell(game, a, b, args.games, args.first_seed)
            rows.append(row)
            print(
                f"{game}: {a} vs {b}: {row['share']:.2f} [{row['wilson95'][0]:.2f}, {row['wilson95'][1]:.2f}] "
                f"scores {row['score']:.1f}/{row['opponent_score']:.1f} "
                f"cpu {row['cpu_call_median_s'] * 1000:.1f} ms ({row['cell_cpu_s']:.0f} s)",
                flush=True,
            )
        OUT.write_text(json.dumps({"first_seed": args.first_seed, "rows": rows}, indent=1) + "\n")
    order = list(PLAYERS)
    rows.sort(key=lambda r: order.index(r["game"]))
    print(markdown(rows))


if __name__ == "__main__":
    main()
