"""Cells of the arena: who sits at the table with the hint, how a game is played and kept, how bots are calibrated.

A cell is `game:players:opponents`, opponents one kind or several joined by `+` (they fill the seats after the
hint's in turn: `camper_tour:3:out:a+out:b` seats a right after the hint and b after a):

- `greedy`: the repository's greedy player (`bench.openspiel`'s `*_greedy`).
- `gbot<F>` (`gbot4`, `gbot16`): MCTS (Happy Campers, Deluxe Camping, Camper Tour) or IS-MCTS (Campsite, Adventure
  Tours) with greedy rollouts (`bench.arena.bots`), its simulation count calibrated in games so that its MEAN CPU
  a decision is F x the hint's MEAN CPU a call (`calibrate_in_games`). `rbot<F>`: the same with OpenSpiel's
  random rollouts (the old yardstick, calibrated the same way).
- `hint<K>x` (`hint10x`): the same hint at K x the hint's real budget (seeded apart from the hint's own calls).
- `out:<style>`: an outside player, `bench.opponents.PLAYERS[game][style]`, loaded when a game needs it; fn(state,
  seat, rng) -> the rules-model moves of the seat's turn (the shape of the `*_greedy` functions).

Games are played as in `bench.openspiel` (its `play` loop, seats and seeding): game i of a cell has seed
first_seed + i // players and the hint in seat i % players. Report seeds start at `REPORT_FIRST_SEED`, tuning at
`bench.openspiel.TUNE_FIRST_SEED`, in-game calibration at `GAME_CALIBRATION_SEED`. One JSON line a game in
`<run_dir>/<cell>.jsonl` (first line: the cell's settings), so a run is resumable and two runs meet safely.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import re
import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel

from bench.arena.bots import GreedyBotSetting, make_search_bot
from bench.openspiel import (
    GAMES,
    TUNE_FIRST_SEED,
    GameSpec,
    Plan,
    PlanSeat,
    greedy_seat,
    load_game,
    play,
    read_games,
)

#: Report seeds of the arena's cells (outside players, greedy-rollout bots, hint at 10x, the budget curve). Never
#: used for tuning by anyone; apart from the issue's outside seeds (990,000+, 996,000+, 5,000,000+, 9,100,000+),
#: from bench.openspiel's report (0+), tuning (1,000,000+) and calibration (2,000,000+) seeds.
REPORT_FIRST_SEED = 7_000_000
#: In-game calibration of the bots: round r plays `CALIBRATION_ROTATIONS` rotations, on seeds
#: GAME_CALIBRATION_SEED + r x CALIBRATION_ROTATIONS on.
GAME_CALIBRATION_SEED = 2_200_000
#: Rotations (the hint once in every seat) a calibration round: one left a Happy Campers bot at 2.9x in games
#: where its round had measured 4.1x (2 smoke games; the bot's CPU a decision follows the game's phase).
CALIBRATION_ROTATIONS = 2
#: The module outside players come from (written apart from this repository's hints).
OUTSIDE_MODULE = "bench.opponents"
#: A calibration is done when the bot's mean CPU a decision is within this band of F x the hint's mean.
CALIBRATION_BAND = (0.85, 1.2)
CALIBRATION_ROUNDS = 5
#: The fewest simulations a bot plays (MCTS's first simulation only evaluates the root).
MIN_SIMULATIONS = 2
#: A hint opponent's call seeds are apart from the hint's own (seed x 10,000 + call).
HINT_OPPONENT_SEED_OFFSET = 5_000

_KIND = re.compile(
    r"^(greedy|gbot(?P<g>\d+(\.\d+)?)|rbot(?P<r>\d+(\.\d+)?)|hint(?P<h>\d+(\.\d+)?)x"
    r"|out:(?P<o>[\w-]+))$"
)


@dataclass(frozen=True)
class Opponent:
    """One opponent kind (see the module docstring)."""

    kind: str  # greedy | gbot | rbot | hint | out
    factor: float = 0.0
    style: str = ""

    @classmethod
    def parse(cls, text: str) -> Opponent:
        match = _KIND.match(text)
        if match is None:
            raise ValueError(f"unknown opponent {text!r}: greedy, gbot<F>, rbot<F>, hint<K>x or out:<style>")
        if text == "greedy":
            return cls("greedy")
        if match["g"]:
            return cls("gbot", float(match["g"]))
        if match["r"]:
            return cls("rbot", float(match["r"]))
        if match["h"]:
            return cls("hint", float(match["h"]))
        return cls("out", style=match["o"])

    @property
    def name(self) -> str:
        if self.kind in ("gbot", "rbot"):
            return f"{self.kind}{self.factor:g}"
        if self.kind == "hint":
            return f"hint{self.factor:g}x"
        return f"out:{self.style}" if self.kind == "out" else self.kind

    @property
    def is_bot(self) -> bool:
        return self.kind in ("gbot", "rbot")


@dataclass(frozen=True)
class ArenaCell:
    game: str
    players: int
    opponents: tuple[Opponent, ...]

    @classmethod
    def parse(cls, text: str) -> ArenaCell:
        parts = text.split(":", 2)
        if len(parts) != 3 or parts[0] not in GAMES or not parts[1].isdigit():
            raise ValueError(f"cell {text!r}: game:players:opponent[+opponent...], game one of {sorted(GAMES)}")
        opponents = tuple(Opponent.parse(o) for o in parts[2].split("+"))
        players = int(parts[1])
        if players < 2 or len(opponents) > players - 1:
            raise ValueError(f"cell {text!r}: {len(opponents)} opponent kinds for {players - 1} seats")
        return cls(parts[0], players, opponents)

    @property
    def text(self) -> str:
        return f"{self.game}:{self.players}:{self.opponent_text}"

    @property
    def opponent_text(self) -> str:
        return "+".join(o.name for o in self.opponents)

    @property
    def name(self) -> str:
        return f"{self.game}_{self.players}p_{self.opponent_text.replace(':', '-')}"

    @property
    def spec(self) -> GameSpec:
        return GAMES[self.game]

    def opponent_at(self, seat: int, hint_seat: int) -> Opponent:
        """The opponent in `seat`: the kinds fill the seats after the hint's in turn, cycling."""
        k = (seat - hint_seat) % self.players
        return self.opponents[(k - 1) % len(self.opponents)]


# --- outside players --------------------------------------------------------------------------------------------


_PREPARED: set[str] = set()


def outside_players(game: str) -> dict[str, Callable[[Any, int, np.random.Generator], Plan]]:
    """The outside players of `game` (imported when first needed). The module's `prepare(game)`, where it has one,
    runs once a process first, so tables it builds once (Camper Tour's) are not charged to a game's first calls."""
    try:
        module = importlib.import_module(OUTSIDE_MODULE)
    except ModuleNotFoundError as missing:
        raise RuntimeError(f"outside players need {OUTSIDE_MODULE} (not found: {missing})") from missing
    if game not in _PREPARED and hasattr(module, "prepare"):
        module.prepare(game)
        _PREPARED.add(game)
    return dict(module.PLAYERS.get(game, {}))


def outside_seat(game: str, style: str, seat: int, seed: int) -> PlanSeat:
    players = outside_players(game)
    if style not in players:
        raise RuntimeError(f"no outside player {style!r} for {game} (have {sorted(players)})")
    fn = players[style]
    rng = np.random.default_rng([seed, seat, 23])

    def policy(s: Any, p: int) -> Plan:
        plan = list(fn(s, p, rng))
        if not plan or plan[0] not in s.legal_actions():
            raise RuntimeError(f"outside player {game}/{style} answered an illegal move {plan[:1]!r}")
        return plan

    return PlanSeat(policy, seat)


def hint_seat(spec: GameSpec, seat: int, cpu_s: float, seed: int, offset: int = 0) -> PlanSeat:
    """The hint at `cpu_s` a call (bench.openspiel's seeding: seed x 10,000 + call, plus `offset`)."""
    calls = [0]

    def policy(s: Any, p: int) -> Plan:
        calls[0] += 1
        return spec.hint(s, p, cpu_s, seed * 10_000 + offset + calls[0])

    return PlanSeat(policy, seat)


# --- one game ---------------------------------------------------------------------------------------------------


def cell_config(cell: ArenaCell, hint_cpu_s: float, first_seed: int, bots: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Everything a game of the cell depends on (the JSONL header; what a worker is sent)."""
    return {
        "cell": cell.text,
        "hint_cpu_s": hint_cpu_s,
        "hint_budget_s": cell.spec.budget(hint_cpu_s),
        "first_seed": first_seed,
        "bots": bots,
    }


def make_seat(cell: ArenaCell, game: pyspiel.Game, config: dict[str, Any], p: int, hint_at: int, seed: int) -> Any:
    spec = cell.spec
    if p == hint_at:
        return hint_seat(spec, p, config["hint_cpu_s"], seed)
    opponent = cell.opponent_at(p, hint_at)
    if opponent.kind == "greedy":
        return greedy_seat(spec, p, seed)
    if opponent.kind == "hint":
        return hint_seat(
            spec, p, opponent.factor * spec.budget(config["hint_cpu_s"]), seed, HINT_OPPONENT_SEED_OFFSET + 100 * p
        )
    if opponent.kind == "out":
        return outside_seat(cell.game, opponent.style, p, seed)
    bot = config["bots"][opponent.name]
    return make_search_bot(
        spec,
        game,
        GreedyBotSetting(**bot["setting"]),
        int(bot["simulations"]),
        seed * 100 + p,
        rollout="greedy" if opponent.kind == "gbot" else "random",
    )


def play_game(config: dict[str, Any], index: int) -> dict[str, Any]:
    """Game `index` of the cell `config` describes: seed first_seed + index // players, hint in index % players."""
    cell = ArenaCell.parse(config["cell"])
    game = load_game(cell.spec, cell.players)
    seed = config["first_seed"] + index // cell.players
    hint_at = index % cell.players
    seats = [make_seat(cell, game, config, p, hint_at, seed) for p in range(cell.players)]
    started = time.time()
    final = play(cell.spec, game, seed, seats)
    others = [p for p in range(cell.players) if p != hint_at]
    return {
        "index": index,
        "seed": seed,
        "hint_seat": hint_at,
        "hint_return": final.returns()[hint_at],
        "scores": [float(x) for x in game.final_scores(final.rules_state)],
        "seats": [("hint" if p == hint_at else cell.opponent_at(p, hint_at).name) for p in range(cell.players)],
        "hint_cpu": seats[hint_at].cpu,
        "opponent_cpu": {str(p): seats[p].cpu for p in others},
        "opponent_playouts": {str(p): seats[p].playouts for p in others if hasattr(seats[p], "playouts")},
        "wall_s": time.time() - started,
    }


def play_task(params: dict[str, Any], budget: Any = None) -> dict[str, Any]:
    """A game as a batch task (`clients.batch.engine`: InProcess, a process pool or Ray)."""
    return play_game(params["config"], int(params["index"]))


# --- in-game calibration ----------------------------------------------------------------------------------------


def _mean(values: list[float]) -> float:
    return statistics.fmean(values) if values else 0.0


def calibrate_in_games(
    spec: GameSpec,
    players: int,
    opponent: Opponent,
    setting: GreedyBotSetting,
    hint_cpu_s: float,
    log: Callable[[str], None] = print,
) -> dict[str, Any]:
    """The simulation count whose mean CPU a decision, in games against the hint, is `opponent.factor` x the hint's
    mean CPU a call in the same games. Round r plays `CALIBRATION_ROTATIONS` rotations (`players` games each, the
    bot in every other seat) on seeds from GAME_CALIBRATION_SEED + r x CALIBRATION_ROTATIONS; the hint's mean is
    pooled over the rounds, the bot's is that of the round; the next count scales the playouts by target /
    measured. Stops inside `CALIBRATION_BAND`, at the 2-simulation floor when even that costs more than the
    target, or after `CALIBRATION_ROUNDS` (keeping the round closest to the target)."""
    cell = ArenaCell(spec.key, players, (opponent,))
    simulations = MIN_SIMULATIONS
    hint_cpu: list[float] = []
    rounds: list[dict[str, Any]] = []
    for r in range(CALIBRATION_ROUNDS):
        bots = {opponent.name: {"simulations": simulations, "setting": asdict(setting)}}
        first_seed = GAME_CALIBRATION_SEED + r * CALIBRATION_ROTATIONS
        config = cell_config(cell, hint_cpu_s, first_seed, bots)
        bot_cpu: list[float] = []
        for index in range(players * CALIBRATION_ROTATIONS):
            row = play_game(config, index)
            hint_cpu += row["hint_cpu"]
            bot_cpu += [x for cpu in row["opponent_cpu"].values() for x in cpu]
        target = opponent.factor * _mean(hint_cpu)
        ratio = _mean(bot_cpu) / target if target > 0 else float("inf")
        rounds.append(
            {
                "simulations": simulations,
                "seed": first_seed,
                "bot_mean_s": _mean(bot_cpu),
                "bot_median_s": statistics.median(bot_cpu),
                "hint_mean_s": _mean(hint_cpu),
                "hint_median_s": statistics.median(hint_cpu),
                "target_s": target,
                "ratio": ratio,
            }
        )
        log(
            f"calibrate {cell.name}: {simulations} simulations -> bot mean {_mean(bot_cpu):.4f} CPU-s a decision, "
            f"target {target:.4f} ({opponent.factor:g} x hint mean {_mean(hint_cpu):.4f}), ratio {ratio:.2f}"
        )
        low, high = CALIBRATION_BAND
        if low <= ratio <= high or (simulations == MIN_SIMULATIONS and ratio > high):
            break
        # One playout a simulation but the first (the root, not played out): scale the playouts.
        playouts = max(simulations - 1, 1) * min(target / max(_mean(bot_cpu), 1e-9), 16.0)
        following = max(MIN_SIMULATIONS, round(playouts) + 1)
        if following == simulations:
            break
        simulations = following
    # The count kept: the last round's, unless an earlier round came closer to the target.
    best = min(rounds, key=lambda x: abs(np.log(max(x["ratio"], 1e-9))))
    return {
        "simulations": best["simulations"],
        "setting": asdict(setting),
        "factor": opponent.factor,
        "hint_cpu_s": hint_cpu_s,
        "hint_mean_s": _mean(hint_cpu),
        "hint_median_s": statistics.median(hint_cpu),
        "target_s": best["target_s"],
        "ratio": best["ratio"],
        "bot_mean_s": best["bot_mean_s"],
        "bot_median_s": best["bot_median_s"],
        "floor": best["simulations"] == MIN_SIMULATIONS and best["ratio"] > CALIBRATION_BAND[1],
        "rounds": rounds,
    }


class GameCalibrations:
    """The bots' simulation counts per (game, players, opponent, setting, hint budget), measured once a run
    directory (`calibration_games.json`, merged on save so runs sharing the directory keep each other's keys)."""

    def __init__(self, run_dir: Path) -> None:
        self.path = run_dir / "calibration_games.json"
        self.data: dict[str, Any] = json.loads(self.path.read_text()) if self.path.exists() else {}

    @staticmethod
    def key(game: str, players: int, opponent: Opponent, setting: GreedyBotSetting, hint_cpu_s: float) -> str:
        value = "" if setting.value == "win" else f"_{setting.value}"
        return (
            f"{game}_{players}p_{opponent.name}_c{setting.uct_c:g}_{setting.prior}_r{setting.rollouts}{value}"
            f"_hint{hint_cpu_s:g}"
        )

    def get(
        self, spec: GameSpec, players: int, opponent: Opponent, setting: GreedyBotSetting, hint_cpu_s: float
    ) -> dict[str, Any]:
        key = self.key(spec.key, players, opponent, setting, hint_cpu_s)
        if key not in self.data:
            self.data[key] = calibrate_in_games(spec, players, opponent, setting, hint_cpu_s)
            self._save()
        return dict(self.data[key])

    def _save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        on_disk = json.loads(self.path.read_text()) if self.path.exists() else {}
        self.data = {**on_disk, **self.data}
        tmp = self.path.with_suffix(f".{os.getpid()}.tmp")  # two runs saving at once never share one
        tmp.write_text(json.dumps(self.data, indent=2) + "\n")
        tmp.replace(self.path)


def bot_settings(run_dir: Path) -> dict[str, GreedyBotSetting]:
    """Per game, the greedy-rollout bots' settings `--tune-bots` chose (`bot_settings.json`); else the default."""
    path = run_dir / "bot_settings.json"
    saved = json.loads(path.read_text()) if path.exists() else {}
    fields = ("uct_c", "prior", "rollouts", "value")
    return {game: GreedyBotSetting(**{k: v for k, v in saved[game].items() if k in fields}) for game in saved}


#: The settings `--tune-bots` tries (UCT constant, prior, playout value), each calibrated at 4x and played on
#: tuning seeds.
TUNE_GRID = (
    GreedyBotSetting(1.4, "greedy"),
    GreedyBotSetting(0.5, "greedy"),
    GreedyBotSetting(4.0, "greedy"),
    GreedyBotSetting(1.4, "uniform"),
    GreedyBotSetting(1.4, "greedy", value="margin"),
    GreedyBotSetting(0.5, "greedy", value="margin"),
)


def _setting_name(setting: GreedyBotSetting) -> str:
    return f"c{setting.uct_c:g}_{setting.prior}_r{setting.rollouts}_{setting.value}"


def tune_bots(
    spec: GameSpec,
    games: int,
    run_dir: Path,
    hint_cpu_s: float,
    calibrations: GameCalibrations,
    backend: Any,
    log: Callable[[str], None] = print,
) -> GreedyBotSetting:
    """The greedy-rollout bot setting the hint scores least against at 4x, on seeds from TUNE_FIRST_SEED (never
    the report's), `games` games a setting at the game's smallest table; saved in `bot_settings.json`."""
    cell = ArenaCell(spec.key, spec.smallest, (Opponent("gbot", 4.0),))
    scores = []
    for setting in TUNE_GRID:
        tune_dir = run_dir / "tune" / _setting_name(setting)
        config = prepare(cell, tune_dir, hint_cpu_s, TUNE_FIRST_SEED, calibrations, {spec.key: setting})
        path = tune_dir / f"{cell.name}.jsonl"
        run_games([(config, path, i) for i in missing(path, games)], backend, log)
        share = statistics.fmean(g["hint_return"] for g in read_games(path)[1 : games + 1])
        scores.append((share, setting))
        log(f"tune {spec.key}: {_setting_name(setting)}: hint share {share:.3f} of {games}")
    best = min(scores, key=lambda item: item[0])[1]
    path = run_dir / "bot_settings.json"
    saved = json.loads(path.read_text()) if path.exists() else {}
    last = TUNE_FIRST_SEED + (games - 1) // spec.smallest
    saved[spec.key] = {
        **asdict(best),
        "tuned_on_seeds": f"{TUNE_FIRST_SEED}..{last}",
        "games_per_setting": games,
        "hint_cpu_s": hint_cpu_s,
        "grid": {_setting_name(s): share for share, s in scores},
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(saved, indent=2) + "\n")
    return best


def prepare(
    cell: ArenaCell,
    run_dir: Path,
    hint_cpu_s: float,
    first_seed: int,
    calibrations: GameCalibrations,
    settings: dict[str, GreedyBotSetting] | None = None,
) -> dict[str, Any]:
    """The cell's config (calibrating its bots first if needed) and its JSONL file, created or checked."""
    setting = (settings or {}).get(cell.game, GreedyBotSetting())
    bots = {}
    for opponent in cell.opponents:
        if opponent.is_bot:
            row = calibrations.get(cell.spec, cell.players, opponent, setting, hint_cpu_s)
            bots[opponent.name] = {"simulations": row["simulations"], "setting": asdict(setting)}
    config = cell_config(cell, hint_cpu_s, first_seed, bots)
    path = run_dir / f"{cell.name}.jsonl"
    games = read_games(path)
    if games and games[0] != config:
        raise SystemExit(f"{path} was played with other settings ({games[0]}); use another --run-dir")
    if not games:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(config) + "\n")
    return config


def missing(path: Path, target: int) -> list[int]:
    done = {g["index"] for g in read_games(path)[1:]}
    return [i for i in range(target) if i not in done]


def append_game(path: Path, row: dict[str, Any]) -> bool:
    """Append a game unless its index is in the file already (another run played it); True if written."""
    if row["index"] in {g.get("index") for g in read_games(path)[1:]}:
        return False
    with path.open("a") as out:
        out.write(json.dumps(row) + "\n")
    return True


# --- running: in this process, a process pool or Ray ----------------------------------------------------------


class PoolBackend:
    """A process pool (fork) with the batch engine's backend interface: `run(tasks, time_limit_s, retries,
    on_done)`; a failed game is reported as the engine does (status failed, one-line error)."""

    name = "process-pool"

    def __init__(self, workers: int) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        self.cpus = workers
        self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork"))

    def run(
        self, tasks: list[Any], time_limit_s: float, retries: int, on_done: Callable[[Any, dict[str, Any]], None]
    ) -> None:
        from concurrent.futures import as_completed

        from campsolver.clients.batch.engine import execute

        futures = {self.pool.submit(execute, task.function, task.params, time_limit_s): task for task in tasks}
        for future in as_completed(futures):
            on_done(futures[future], future.result())

    def close(self) -> None:
        self.pool.shutdown()


def make_backend(workers: int, ray_address: str | None) -> Any:
    """In this process (workers 1), a fork pool (workers > 1), or Ray (`ray_address`: 'local' or a cluster's)."""
    from campsolver.clients.batch.engine import InProcess, RayBackend

    if ray_address:
        # Ray's workers on this machine import bench.arena from this checkout (they inherit the environment).
        root = str(Path(__file__).resolve().parents[2])
        paths = os.environ.get("PYTHONPATH", "").split(os.pathsep)
        if root not in paths:
            os.environ["PYTHONPATH"] = os.pathsep.join([root, *[p for p in paths if p]])
        backend = RayBackend(None if ray_address == "local" else ray_address, workers, warm=False)
        backend.warm(("bench.arena.cells", "numpy"))
        return backend
    return PoolBackend(workers) if workers > 1 else InProcess()


#: A game's wall-time limit in a batch task (the games check no budget; this only bounds a hung worker).
TASK_TIME_LIMIT_S = 3600.0


def run_games(work: list[tuple[dict[str, Any], Path, int]], backend: Any, log: Callable[[str], None] = print) -> int:
    """Play (config, path, index) games on `backend`, appending each row to its file as it arrives; returns the
    failures (reported, not raised: a rerun plays them again)."""
    from campsolver.clients.batch.engine import Task

    tasks = [
        Task("arena", cfg["cell"].split(":")[0], str(path), {"config": cfg, "index": index}, play_task)
        for cfg, path, index in work
    ]
    failures = [0]

    def on_done(task: Any, outcome: dict[str, Any]) -> None:
        if task is None:
            return
        path = Path(task.kind)
        if outcome["status"] != "ok":
            failures[0] += 1
            log(f"{task.params['config']['cell']} game {task.params['index']} failed: {outcome['error']}")
            return
        row = outcome["result"]
        if append_game(path, row):
            log(
                f"{task.params['config']['cell']} game {row['index']}: hint {row['hint_return']:.2f} "
                f"scores {row['scores']} hint CPU {sum(row['hint_cpu']):.2f}s"
            )

    backend.run(tasks, TASK_TIME_LIMIT_S, 0, on_done)
    return failures[0]


def load_games(path: Path) -> list[dict[str, Any]]:
    with contextlib.suppress(FileNotFoundError):
        return read_games(path)
    return []
