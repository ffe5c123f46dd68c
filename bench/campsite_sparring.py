"""Campsite sparring: the hint against players written here from the rulebook, for developing the hint.

    python -m bench.campsite_sparring --hint hint --opponent cardtent --players 2 --games 100 \
        --first-seed 6300000 --cpu 0.05 --log /tmp/x.jsonl [--jobs 2]

These sparring partners are sensible strategies written from the rulebook (docs/rules/campsite.md) and the rules
model alone, by the hint's author, to develop and tune the hint: they are NOT the independent outside players the
hint is judged against (those live in bench/opponents/, which neither this module nor the hint reads). Every
partner reads only what its seat may know: its own hand, the table, every seat's unused tokens, the totals and
the unseen cards' composition (never another hand or the pile's order). Tune only on seeds 6,300,000-6,399,999
and 6,600,000-6,699,999 (below the report seeds, used by no test).

Paired A/B of hint variants over a field of partners (the same deals and seats for every variant; a seed's games
for every variant and partner are played before the next seed's, so a cut run stays paired):

    python -m bench.campsite_sparring --hints hint,hint-u --opponents planner,cardtent,margin1 --games 100 \
        --first-seed 6600000 --cpu 0.15 --log /tmp/ab.jsonl
    python -m bench.campsite_sparring --paired /tmp/ab.jsonl   # paired differences against the first variant

Partners (each a few ms a turn on the numpy engine `solver/campsite/fast.py`, except the hints and `mc`):
- `greedy`: the repository's greedy (the play with the best immediate own gain).
- `margin1`: the play with the best immediate own gain minus the best opponent's immediate gain from the card.
- `cardtent`: first the card (gain to my tents minus the best opponent's, plus the best square it makes for me),
  then the tent: points now + a share of its open squares by the unseen cards' odds, a little for standing next
  to an opponent's tent with open squares (denial), Wilderness kept back until late unless it scores well.
- `planner`: values a tent by its points plus what the other cards of its own hand could add around it next turn,
  minus half the opponents' gain.
- `mc`: flat Monte Carlo: the 6 best plays by immediate margin, each played out to the end of the round several
  times by `margin1` for every seat in worlds sampled from the unseen cards (opponents' hands and the pile), best
  mean round margin; `--mc-cpu` CPU-s a turn (a stand-in for a greedy-rollout IS-MCTS).
- `hint`: the repository's hint (`players.hint_policy`) at `--cpu` CPU-s a call (CpuBudget); `hint10` at 10x.
- `oldhint`: the hint as it was before the look-ahead (`hint.rank_plays` one-ply ranking) at max(--cpu, 0.15).

Games: seed s deals every seat's games (the hint in seat g mod players for game g = players x (s - first) + g');
chance draws from the pile uniformly with `random.Random(s)`; a tie for the highest total shares the win.
Each game's line in the log: seed, hint seat, totals, round scores, the hint's CPU-s per call.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from campsolver.solver.campsite import rules as R
from campsolver.solver.campsite.fast import WILD, Board, best_tents, points_table
from campsolver.solver.core.budget import Budget, CpuBudget
from campsolver.solver.core.game import CHANCE, TERMINAL

from bench.common import wilson

Policy = Callable[[R.CampsiteState], tuple[R.Placement, R.Tent]]
POINTS = points_table()


# --- what a seat may know ---------------------------------------------------------------------------------------


def unseen(state: R.CampsiteState, seat: int) -> list[R.Card]:
    """The deck minus the table and the seat's own hand: the opponents' hands and the pile, as a multiset."""
    left = Counter(state.deck)
    for card in [p.card for p in state.table.placements] + list(state.hands[seat]):
        left[card] -= 1
    return sorted(left.elements())


def terrain_share(cards: list[R.Card]) -> np.ndarray:
    """Per terrain: the share of the cards' squares that are coloured and feature it."""
    share = np.zeros(6)
    for card in cards:
        for t in card.terrains:
            share[int(t)] += len(card.pattern)
    return share / max(6 * len(cards), 1)


def _play(board: Board, pl: Any, index: int, token: int, i: int, j: int, seat: int) -> tuple[R.Placement, R.Tent]:
    placement = board.placement_of(pl, index)
    r, c = board.cell(i, j)
    return placement, R.Tent(seat, R.Token(token), r, c)


def _tent_delta(board: Board, pl: Any) -> np.ndarray:
    """(players, P) change of each seat's pitched-tent points by each placement."""
    out = np.zeros((board.players, len(pl)))
    if len(board.t_r):
        after = pl.tent_base * np.where(pl.tent_fair, 2, 1)
        before = board.tent_points()[:, None]
        np.add.at(out, board.t_player, after - before)
    return out


def _pick(values: np.ndarray, rng: random.Random) -> int:
    best = values.max()
    ties = np.flatnonzero(values >= best - 1e-9)
    return int(ties[rng.randrange(len(ties))])


# --- partners ---------------------------------------------------------------------------------------------------


def margin1(state: R.CampsiteState, rng: random.Random) -> tuple[R.Placement, R.Tent]:
    seat = state.to_move
    board = Board(state.table, state.players)
    pl = board.placements(state.hands[seat])
    opt = best_tents(board, pl, [int(t) for t in state.tokens[seat]], POINTS)
    delta = _tent_delta(board, pl)
    others = [k for k in range(board.players) if k != seat]
    opp = delta[others].max(axis=0) if others else 0.0
    index = _pick(delta[seat] + opt.value - opp, rng)
    return _play(board, pl, index, int(opt.token[index]), int(opt.row[index]), int(opt.col[index]), seat)


def _future_table(share: np.ndarray, weight: float, wild_penalty: float) -> np.ndarray:
    """points + weight x open x P(match) (Wilderness: P(a new terrain), roughly), Wilderness less wild_penalty."""
    table = POINTS.copy()
    opens = np.arange(9)[None, :, None]
    for token in range(7):
        p = share[token] if token < 6 else 0.5
        room = (8 if token < 6 else 6) - np.arange(9)[:, None, None]
        growth = np.minimum(np.maximum(room, 0), weight * opens * p) * (1 + np.arange(2)[None, None, :])
        table[token] += growth
    table[WILD] -= wild_penalty
    return table


def cardtent(state: R.CampsiteState, rng: random.Random) -> tuple[R.Placement, R.Tent]:
    seat = state.to_move
    board = Board(state.table, state.players)
    pl = board.placements(state.hands[seat])
    tokens = [int(t) for t in state.tokens[seat]]
    delta = _tent_delta(board, pl)
    others = [k for k in range(board.players) if k != seat]
    opp = delta[others].max(axis=0) if others else 0.0
    turns_left = R.TURNS_PER_ROUND - (state.turn // state.players)  # this turn included
    share = terrain_share(unseen(state, seat))
    table = _future_table(share, 0.25 * min(turns_left - 1, 3), 2.0 if turns_left > 2 else 0.0)
    # Denial: a square next to an opponent's tent that still has open squares is worth a little.
    bonus = np.zeros(board.occ.shape)
    for r, c, player, open_ in zip(board.t_r, board.t_c, board.t_player, board.t_open, strict=True):
        if player != seat and open_ > 0:
            bonus[r - 1 : r + 2, c - 1 : c + 2] += 0.5
    opt = best_tents(board, pl, tokens, table, bonus)
    card_score = delta[seat] - opp + 0.5 * opt.value
    index = _pick(card_score, rng)
    return _play(board, pl, index, int(opt.token[index]), int(opt.row[index]), int(opt.col[index]), seat)


def planner(state: R.CampsiteState, rng: random.Random) -> tuple[R.Placement, R.Tent]:
    seat = state.to_move
    board = Board(state.table, state.players)
    hand = state.hands[seat]
    pl = board.placements(hand)
    tokens = [int(t) for t in state.tokens[seat]]
    delta = _tent_delta(board, pl)
    others = [k for k in range(board.players) if k != seat]
    opp = delta[others].max(axis=0) if others else 0.0
    last_turn = state.turn + state.players >= R.TURNS_PER_ROUND * state.players
    best_total = np.full(len(pl), -np.inf)
    best_choice = np.zeros((len(pl), 3), dtype=int)
    for card in sorted(set(hand)):
        rest = list(hand)
        rest.remove(card)
        # What the rest of the hand could add next turn around a tent of each terrain: squares featuring it.
        supply = np.zeros(7)
        for other in rest:
            for t in other.terrains:
                supply[int(t)] = max(supply[int(t)], len(other.pattern))
        supply[WILD] = 1.0 if rest else 0.0
        table = POINTS.copy()
        if not last_turn:
            for token in range(7):
                opens = np.arange(9)[None, :, None]
                table[token] += 0.5 * np.minimum(opens, supply[token]) * (1 + np.arange(2)[None, None, :])
        mask = np.array([pl.pictures[p].card == card for p in pl.pic])
        opt = best_tents(board, pl, tokens, table)
        total = np.where(mask, delta[seat] + opt.value - 0.5 * opp, -np.inf)
        better = total > best_total
        best_total = np.where(better, total, best_total)
        best_choice[better] = np.stack([opt.token, opt.row, opt.col], axis=1)[better]
    index = _pick(best_total, rng)
    token, i, j = best_choice[index]
    return _play(board, pl, index, int(token), int(i), int(j), seat)


def mc(state: R.CampsiteState, rng: random.Random, cpu_s: float) -> tuple[R.Placement, R.Tent]:
    """Flat Monte Carlo over the 6 best plays by immediate margin, played out by `margin1` to the round's end."""
    budget = CpuBudget(cpu_s)
    seat = state.to_move
    board = Board(state.table, state.players)
    pl = board.placements(state.hands[seat])
    tokens = [int(t) for t in state.tokens[seat]]
    opt = best_tents(board, pl, tokens, POINTS)
    delta = _tent_delta(board, pl)
    others = [k for k in range(board.players) if k != seat]
    opp = delta[others].max(axis=0) if others else 0.0
    value = delta[seat] + opt.value - opp
    top = np.argsort(-value, kind="stable")[:6]
    plays = [_play(board, pl, int(i), int(opt.token[i]), int(opt.row[i]), int(opt.col[i]), seat) for i in top]
    if len(plays) == 1 or state.turn + 1 >= R.TURNS_PER_ROUND * state.players:
        return plays[0]
    hidden = unseen(state, seat)
    sums = [0.0] * len(plays)
    counts = [0] * len(plays)
    while not budget.expired():
        world = list(hidden)
        rng.shuffle(world)
        for k, (placement, tent) in enumerate(plays):
            sums[k] += _rollout(state, seat, world, placement, tent, rng)
            counts[k] += 1
            if budget.expired():
                break
    means = [s / c if c else -math.inf for s, c in zip(sums, counts, strict=True)]
    return plays[int(np.argmax(means))]


def _rollout(
    state: R.CampsiteState, seat: int, world: list[R.Card], placement: R.Placement, tent: R.Tent, rng: random.Random
) -> float:
    """Round margin of `seat` after its play, the others' hands dealt from `world`, then the pile in its order."""
    hands = [list(h) for h in state.hands]
    pos = 0
    for k in range(state.players):
        if k != seat:
            hands[k] = world[pos : pos + len(hands[k])]
            pos += len(hands[k])
    pile = world[pos:]
    hands[seat].remove(placement.card)
    tokens = [set(t) for t in state.tokens]
    tokens[seat].discard(tent.token)
    table = state.table.place(placement).pitch(tent)
    if pile:
        hands[seat].append(pile.pop(0))
    turn = state.turn + 1
    total_turns = R.TURNS_PER_ROUND * state.players
    while turn < total_turns:
        mover = (state.starter + turn) % state.players
        sim = R.CampsiteState(
            players=state.players,
            deck=state.deck,
            turn=turn,
            stage=R.Stage.CARD,
            hands=tuple(tuple(sorted(h)) for h in hands),
            table=table,
            tokens=tuple(frozenset(t) for t in tokens),
            starter=state.starter,
        )
        placement, tent = margin1(sim, rng)
        table = table.place(placement).pitch(tent)
        hands[mover].remove(placement.card)
        tokens[mover].discard(tent.token)
        if pile:
            hands[mover].append(pile.pop(0))
        turn += 1
    scores = R.player_scores(table, state.players)
    return scores[seat] - max(s for k, s in enumerate(scores) if k != seat)


# --- the players by name ----------------------------------------------------------------------------------------


def make_policy(name: str, cpu_s: float, seed: int, mc_cpu_s: float) -> Policy:
    rng = random.Random(seed)
    if name == "greedy":
        from campsolver.solver.campsite.players import greedy_policy

        return lambda s: greedy_policy(s, Budget(60))
    if name == "margin1":
        return lambda s: margin1(s, rng)
    if name == "cardtent":
        return lambda s: cardtent(s, rng)
    if name == "planner":
        return lambda s: planner(s, rng)
    if name == "mc":
        return lambda s: mc(s, rng, mc_cpu_s)
    if (name.startswith("hint") and name != "hint10") or name == "hint10":
        # hint, hint10 (10x the CPU), hint-w4-d1-x3-m8-u-h2 (look-ahead width 4, depth 1, CPU x3, at most 8
        # worlds, distinct candidates, one leaves the race every 2 worlds) ... -c / -b: each card's best play
        # among the candidates (the default) / the plain best by one-ply value
        from campsolver.solver.campsite.players import hint_policy

        options: dict[str, Any] = {}
        factor = 10.0 if name == "hint10" else 1.0
        for part in name.split("-")[1:]:
            key, value = part[0], part[1:]
            if key == "w":
                options["width"] = int(value)
            elif key == "d":
                options["depth"] = int(value)
            elif key == "x":
                factor = float(value)
            elif key == "m":
                options["max_worlds"] = int(value)
            elif key == "u":
                options["distinct"] = True
            elif key == "c":
                options["every_card"] = True
            elif key == "b":
                options["every_card"] = False  # the plain best `width` by one-ply value (the default before)
            elif key == "h":
                options["halving"] = int(value)
            elif key == "l":
                options["leak"] = float(value)
            elif key == "r":
                options["reserve_wild"] = float(value)
            else:
                raise SystemExit(f"unknown hint option {part!r}")
        calls = [0]

        def new(s: R.CampsiteState) -> tuple[R.Placement, R.Tent]:
            calls[0] += 1
            return hint_policy(s, CpuBudget(cpu_s * factor), seed * 1000 + calls[0], **options)

        return new
    if name == "oldhint":
        from campsolver.solver.campsite import hint as hints

        def old(s: R.CampsiteState) -> tuple[R.Placement, R.Tent]:
            cards_to_come = R.TURNS_PER_ROUND * s.players - s.turn - 1
            options = hints.HintOptions(top=1, cards_to_come=cards_to_come)
            best = hints.hint_one_ply(s, CpuBudget(max(cpu_s, 0.15)), options=options).choices[0]
            return best.placement, best.tent

        return old
    raise SystemExit(f"unknown player {name!r}")


# --- games ------------------------------------------------------------------------------------------------------


def play_game(policies: list[Policy], seed: int, timed: int) -> dict[str, Any]:
    """One game; `timed` is the seat whose CPU-s per call is recorded."""
    rng = random.Random(seed)
    state = R.new_game(len(policies))
    cpu: list[float] = []
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            pile = sorted(state.pile)
            state = state.child(pile[rng.randrange(len(pile))])
            continue
        mover = state.to_move
        started = time.process_time()
        placement, tent = policies[mover](state)
        if mover == timed:
            cpu.append(time.process_time() - started)
        state = state.child(R.PlayCard(placement)).child(R.PitchTent(tent.token, tent.row, tent.col))
    return {"totals": list(state.totals), "rounds": [list(r) for r in state.round_scores], "cpu": cpu}


def _one(job: tuple) -> dict[str, Any]:
    hint_name, opponent, players, seed, seat, cpu_s, mc_cpu_s = job
    policies = []
    for p in range(players):
        name = hint_name if p == seat else opponent
        policies.append(make_policy(name, cpu_s, seed * 10 + p, mc_cpu_s))
    row = play_game(policies, seed, seat)
    totals = row["totals"]
    best = max(totals)
    leaders = [k for k, t in enumerate(totals) if t == best]
    row.update(
        seed=seed,
        hint_seat=seat,
        hint=hint_name,
        opponent=opponent,
        players=players,
        cpu_s=cpu_s,
        share=(1 / len(leaders)) if seat in leaders else 0.0,
        margin=totals[seat] - max(t for k, t in enumerate(totals) if k != seat),
    )
    return row


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(rows)
    share = sum(r["share"] for r in rows)
    low, high = wilson(share, n)
    margins = [r["margin"] for r in rows]
    cpu = [x for r in rows for x in r["cpu"]]
    own = [r["totals"][r["hint_seat"]] for r in rows]
    opp = [statistics.fmean(t for k, t in enumerate(r["totals"]) if k != r["hint_seat"]) for r in rows]
    return {
        "games": n,
        "share": share / n if n else None,
        "wilson_low": low,
        "wilson_high": high,
        "margin": statistics.fmean(margins) if n else None,
        "margin_se": statistics.stdev(margins) / math.sqrt(n) if n > 1 else None,
        "score": statistics.fmean(own) if n else None,
        "opponent_score": statistics.fmean(opp) if n else None,
        "cpu_mean": statistics.fmean(cpu) if cpu else None,
        "cpu_median": statistics.median(cpu) if cpu else None,
        "cpu_max": max(cpu) if cpu else None,
    }


def read_log(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    rows = []
    for line in path.read_text().splitlines():
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return rows


def table(paths: list[Path]) -> list[dict[str, Any]]:
    """One row per (hint, opponent, players, CPU-s) over the logs' games."""
    groups: dict[tuple, list[dict[str, Any]]] = {}
    for path in paths:
        for row in read_log(path):
            groups.setdefault((row["hint"], row["opponent"], row["players"], row["cpu_s"]), []).append(row)
    out = []
    for (hint, opponent, players, cpu_s), rows in sorted(groups.items()):
        seeds = sorted({r["seed"] for r in rows})
        out.append(
            {
                "hint": hint,
                "opponent": opponent,
                "players": players,
                "cpu_s": cpu_s,
                "seeds": f"{seeds[0]}-{seeds[-1]}",
                **summarise(rows),
            }
        )
    return out


def markdown(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| hint | opponent | players | CPU-s a call | games | share [Wilson 95%] | margin +- s.e. | "
        "score / opponents' | hint CPU-s mean / median / max | seeds |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['hint']} | {r['opponent']} | {r['players']} | {r['cpu_s']:g} | {r['games']} | "
            f"{r['share']:.3f} [{r['wilson_low']:.3f}, {r['wilson_high']:.3f}] | {r['margin']:+.1f} +- "
            f"{r['margin_se'] or 0:.1f} | {r['score']:.1f} / {r['opponent_score']:.1f} | "
            f"{r['cpu_mean']:.3f} / {r['cpu_median']:.3f} / {r['cpu_max']:.3f} | {r['seeds']} |"
        )
    return "\n".join(lines)


def tuning_seeds(first: int, seeds: int) -> bool:
    """The seeds [first, first + seeds) lie in a tuning range (below the report seeds, used by no test)."""
    return any(low <= first and first + seeds <= high for low, high in ((6_300_000, 6_400_000), (6_600_000, 6_700_000)))


def paired_run(args: argparse.Namespace) -> None:
    """Every hint variant against every partner on the same seeds and seats, seed by seed (resumable)."""
    hints = args.hints.split(",") if args.hints else [args.hint]
    opponents = args.opponents.split(",") if args.opponents else [args.opponent]
    done = {(r["hint"], r["opponent"], r["seed"], r["hint_seat"], r["cpu_s"]) for r in read_log(args.log)}
    args.log.parent.mkdir(parents=True, exist_ok=True)
    with args.log.open("a") as out:
        for g in range(args.games):
            seed, seat = args.first_seed + g // args.players, g % args.players
            for opponent in opponents:
                for hint in hints:
                    if (hint, opponent, seed, seat, args.cpu) in done:
                        continue
                    row = _one((hint, opponent, args.players, seed, seat, args.cpu, args.mc_cpu))
                    out.write(json.dumps(row) + "\n")
                    out.flush()
    print(json.dumps(paired_summary(read_log(args.log)), indent=1))


def paired_summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per partner and pooled: each variant's share and margin, and its paired difference from the first variant
    seen (games both played: same seed, seat, partner, players and CPU) with its standard error."""
    variants: list[str] = []
    games: dict[tuple, dict[str, dict[str, Any]]] = {}
    for r in rows:
        if r["hint"] not in variants:
            variants.append(r["hint"])
        games.setdefault((r["opponent"], r["seed"], r["hint_seat"], r["players"], r["cpu_s"]), {})[r["hint"]] = r
    reference = variants[0] if variants else None
    out: dict[str, Any] = {"reference": reference}
    fields = [*sorted({key[0] for key in games}), "pooled"]
    for field_name in fields:
        keyed = {k: v for k, v in games.items() if field_name == "pooled" or k[0] == field_name}
        entry: dict[str, Any] = {}
        for variant in variants:
            both = [v for v in keyed.values() if variant in v and reference in v]
            if not both:
                continue
            share = [v[variant]["share"] - v[reference]["share"] for v in both]
            margin = [v[variant]["margin"] - v[reference]["margin"] for v in both]
            n = len(both)
            entry[variant] = {
                "games": n,
                "share": round(statistics.fmean(v[variant]["share"] for v in both), 3),
                "margin": round(statistics.fmean(v[variant]["margin"] for v in both), 2),
                "d_share": round(statistics.fmean(share), 3),
                "d_share_se": round(statistics.stdev(share) / math.sqrt(n), 3) if n > 1 else None,
                "d_margin": round(statistics.fmean(margin), 2),
                "d_margin_se": round(statistics.stdev(margin) / math.sqrt(n), 2) if n > 1 else None,
                "cpu_mean": round(statistics.fmean(x for v in both for x in v[variant]["cpu"]), 4),
                "cpu_median": round(statistics.median(x for v in both for x in v[variant]["cpu"]), 4),
            }
        out[field_name] = entry
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hint", default="hint")
    parser.add_argument("--opponent", default="cardtent")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=100, help="games (each seed gives `players` games)")
    parser.add_argument("--first-seed", type=int, default=6_300_000)
    parser.add_argument("--cpu", type=float, default=0.05, help="the hint's CPU-s a call")
    parser.add_argument("--mc-cpu", type=float, default=0.2, help="the mc partner's CPU-s a turn")
    parser.add_argument("--log", type=Path)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--table", type=Path, nargs="*", help="print the markdown table of these logs (and --log)")
    parser.add_argument("--hints", help="paired A/B: hint variants, comma-separated (the first is the reference)")
    parser.add_argument("--opponents", help="paired A/B: partners, comma-separated")
    parser.add_argument("--paired", type=Path, nargs="+", help="print paired differences of these A/B logs")
    args = parser.parse_args(argv)
    if args.paired:
        print(json.dumps(paired_summary([r for p in args.paired for r in read_log(p)]), indent=1))
        return
    if args.log is None:
        raise SystemExit("--log is required")
    if args.table is not None:
        print(markdown(table([args.log, *args.table])))
        return
    if not tuning_seeds(args.first_seed, args.games // args.players):
        raise SystemExit("tune only on seeds 6,300,000-6,399,999 or 6,600,000-6,699,999")
    if args.hints or args.opponents:
        paired_run(args)
        return
    done = {
        (r["seed"], r["hint_seat"])
        for r in read_log(args.log)
        if r.get("hint") == args.hint and r.get("opponent") == args.opponent and r.get("cpu_s") == args.cpu
    }
    jobs = []
    for g in range(args.games):
        seed, seat = args.first_seed + g // args.players, g % args.players
        if (seed, seat) not in done:
            jobs.append((args.hint, args.opponent, args.players, seed, seat, args.cpu, args.mc_cpu))
    args.log.parent.mkdir(parents=True, exist_ok=True)
    with args.log.open("a") as out:
        if args.jobs > 1:
            with mp.get_context("fork").Pool(args.jobs) as pool:
                for row in pool.imap_unordered(_one, jobs):
                    out.write(json.dumps(row) + "\n")
                    out.flush()
        else:
            for job in jobs:
                out.write(json.dumps(_one(job)) + "\n")
                out.flush()
    rows = [
        r
        for r in read_log(args.log)
        if r.get("hint") == args.hint
        and r.get("opponent") == args.opponent
        and r.get("cpu_s") == args.cpu
        and r["players"] == args.players
    ]
    print(
        json.dumps(
            {
                "hint": args.hint,
                "opponent": args.opponent,
                "players": args.players,
                "cpu_s": args.cpu,
                **summarise(rows),
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
