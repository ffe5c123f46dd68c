"""Ceilings for bench.arena's tables (`bench.arena.tables.ceiling_functions` reads `CEILINGS`).

Camper Tour with 2 campers against one fixed opponent (the repository's `greedy`, or an outside player
`out:<style>`): the exact best response's share (`solver.camper_tour.ceiling`), both seats averaged, on the
table's route with its special plates left out (the exact duel covers routes without specials; the row says so).
Bots and the hint at another budget are no fixed policies: no ceiling. An outside player's turn is a plan (a list of
moves): its first move is its answer in the state asked, and after a turn back the state it reached is asked again
(a plan whose second move differs from its own answer there would be played differently). A player that draws
from its generator is answered with a generator seeded the same on every call: the ceiling is then against that
fixed version of it, and the row's `how` says so.

An outside player plays the same from either seat (it reads its own camper as the mover), so one solve gives
both seats' values (`ceiling_report(seat_symmetric=True)`); the repository's greedy is solved in both seats.
A ceiling costs minutes of CPU, so each is kept in `bench/results/camper_tour_ceilings.json`, keyed by the opponent,
the route and the source text of the player's module and of the solver (a changed player is solved again).
"""

from __future__ import annotations

import hashlib
import inspect
import json
import resource
import sys
from pathlib import Path
from typing import Any

import numpy as np
from campsolver.solver.camper_tour import duel
from campsolver.solver.camper_tour.ceiling import ceiling_report
from campsolver.solver.camper_tour.rules import Action, Config, TourState
from campsolver.solver.core.budget import CpuBudget, SolveInterrupted

from bench.arena.cells import ArenaCell, outside_players
from bench.arena.tables import Ceiling
from bench.common import RESULTS_DIR

CACHE = RESULTS_DIR / "camper_tour_ceilings.json"
#: CPU seconds a ceiling may take before the row shows none (the outside players took 94-216 CPU-s on a 24-plate
#: route and 190-355 on 32; the 72-plate route, about 1,400-5,800 CPU-s by the measured growth, is not solved in it).
CEILING_CPU_S = 1200.0


class _RecordingRng:
    """A seeded generator that remembers whether the player drew from it."""

    def __init__(self, flags: dict[str, bool]) -> None:
        self._rng = np.random.default_rng(0)
        self._flags = flags

    def __getattr__(self, name: str) -> Any:
        self._flags["random"] = True
        return getattr(self._rng, name)


def _policy(fn: Any, flags: dict[str, bool]) -> Any:
    def policy(state: TourState) -> Action:
        plan = list(fn(state, state.to_move, _RecordingRng(flags)))
        return plan[0]

    return policy


def camper_tour_ceiling(
    cell: ArenaCell,
    games: list[dict[str, Any]],
    *,
    config: Config | None = None,
    cache_path: Path = CACHE,
    cpu_s: float = CEILING_CPU_S,
    solve: bool = True,
) -> Ceiling | None:
    """The best response's share against the cell's one fixed opponent (None for any other cell, and when the
    solve does not finish within `cpu_s` CPU seconds: that is kept, and tried again only with more CPU); `config`
    the route (default: the OpenSpiel game's, whose specials are left out), solved once and kept in `cache_path`.
    `solve=False` (the arena's `--summary` and `--estimate`) answers from the cache only: a ceiling not kept there
    is None, and one line on stderr says why, rather than minutes of CPU and gigabytes of memory spent on a table."""
    if cell.players != 2 or len(cell.opponents) != 1 or cell.opponents[0].kind not in ("greedy", "out"):
        return None
    from campsolver.solver.camper_tour.players import greedy

    from campsolver.openspiel.camper_tour import DEFAULTS, config_from

    opponent = cell.opponents[0]
    config = config or config_from(dict(DEFAULTS))
    flags: dict[str, bool] = {}
    if opponent.kind == "greedy":
        policy, module = greedy, inspect.getmodule(greedy)
    else:
        fn = outside_players(cell.game)[opponent.style]
        policy, module = _policy(fn, flags), inspect.getmodule(fn)
    # The player's whole module (its helpers and tables) and the solver's: a change to either is solved again.
    source = inspect.getsource(module) + inspect.getsource(duel)  # type: ignore[arg-type]
    digest = hashlib.sha256(source.encode()).hexdigest()
    key = f"{opponent.name}|{config.plate_count}|{config.starting_tokens}|{digest}"
    cache = json.loads(cache_path.read_text()) if cache_path.exists() else {}
    if (key not in cache or cache[key]["share"] is None) and not solve:
        why = (
            f"tried with {cache[key]['cpu_limit_s']:g} CPU-s, not finished"
            if key in cache
            else "the player or the solver changed, or it was never solved"
        )
        print(
            f"bench.ceilings: no kept ceiling for {opponent.name} on {config.plate_count} plates ({why}); a run "
            "that plays the cell solves it",
            file=sys.stderr,
        )
        return None
    unfinished = cache.get(key, {}).get("share", 0.0) is None and cache[key]["cpu_limit_s"] >= cpu_s
    if unfinished:
        return None  # tried before with at least this much CPU: not again
    if key not in cache or cache[key]["share"] is None:
        # The outside players read their own camper as the mover and the other as the other, whatever the seat
        # (tests/test_ceilings.py checks that on a short route): one solve values both seats.
        try:
            report = ceiling_report(policy, config, budget=CpuBudget(cpu_s), seat_symmetric=opponent.kind == "out")
        except SolveInterrupted:
            _write(
                cache_path, key, {"share": None, "how": f"not finished within {cpu_s:g} CPU-s", "cpu_limit_s": cpu_s}
            )
            return None
        how = (
            f"exact best response, both seats averaged ({report.first:.3f} first, {report.second:.3f} second), "
            f"{report.plates} plates, {report.tokens} tokens, " + "; ".join(report.notes)
        )
        if flags.get("random"):
            how += (
                "; the player draws random numbers: each call got the same seeded generator, so this is the "
                "ceiling against that fixed version of it"
            )
        cache[key] = {
            "share": report.value,
            "first": report.first,
            "second": report.second,
            "how": how,
            "cpu_seconds": report.cpu_seconds,
            "opponent_states": report.opponent_states,
            "opponent_calls": report.opponent_calls,
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        }
        _write(cache_path, key, cache[key])
    entry = cache[key]
    return Ceiling(share=entry["share"], how=entry["how"])


def _write(cache_path: Path, key: str, entry: dict[str, Any]) -> None:
    # Read again before writing: another process may have added its own ceiling meanwhile.
    cache = {**(json.loads(cache_path.read_text()) if cache_path.exists() else {}), key: entry}
    cache_path.write_text(json.dumps(cache, indent=1, sort_keys=True) + "\n")


CEILINGS = {"camper_tour": camper_tour_ceiling}
