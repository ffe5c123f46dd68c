"""Head to head through OpenSpiel: each game's hint against the repository's greedy and OpenSpiel's own bots.

    python -m bench.openspiel [--cells CELLS] [--games N] [--chunk N] [--hint-cpu S] [--tune] [--summary]

Every game is played through the OpenSpiel adapter (`campsolver_<game>`, win 1 / loss 0 / ties shared), chance
drawn from the game's exact odds by a generator seeded per game, the hint's seat rotated game by game (games
2k .. 2k+players-1 share the seed k). A cell is (game, players, opponent); the opponent sits in every other
seat:

- `greedy`: the repository's greedy player for the game (one-step best gain; `solver/<game>/players|policies`).
- `bot1`, `bot4`: OpenSpiel's MCTS (`open_spiel.python.algorithms.mcts.MCTSBot`, random-rollout evaluator) for
  the perfect-information games (Happy Campers, Deluxe Camping, Camper Tour) or IS-MCTS (`ismcts.ISMCTSBot`,
  resampling worlds with the adapter's `resampler`) for Campsite and Adventure Tours. Its simulation count is
  calibrated in the same run (on decision states of greedy self-play, seeds apart from the report's) so that
  its median CPU seconds a decision is at least 1x / 4x the hint's median CPU seconds a hint call; both
  medians, as measured in the games, are in the table.

The hint gets `--hint-cpu` CPU seconds a call (`CpuBudget`: the machine's load does not change its answers)
and answers from what its seat may know: Campsite and Adventure Tours see their own hand, the table and the
deck's composition (never another hand or the pile's order); the hints use no game record (neither can the
bots). A hint call that answers a whole turn (Campsite: the card and its tent; Adventure Tours: a play of
several actions) plays the rest of its turn without a new call. Deluxe Camping starts from a seeded random
setup (placements and reveal, as the repository's tournament does), so both sides play the turns only.

Results go to `bench/results/openspiel/<cell>.jsonl` (one line a game: a killed run keeps its games and a
rerun resumes them; the calibration is kept beside it) and the summary to
`bench/results/openspiel_head_to_head.json`. `--tune` picks the bots' UCT constant and rollout count per game
on seeds from `TUNE_FIRST_SEED` on (apart from the report's seeds 0..), by the bot's score against the hint.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from campsolver.solver.core.budget import CpuBudget
from open_spiel.python.algorithms import ismcts, mcts

import campsolver.openspiel  # noqa: F401  (registers the games)
from bench.common import RESULTS_DIR, print_table, wilson, write_json
from campsolver.openspiel.common import AdapterState

#: Tuning and calibration seeds start here; report seeds start at 0, so they never meet.
TUNE_FIRST_SEED = 1_000_000
CALIBRATION_SEED = 2_000_000
#: The bot settings `--tune` tries (UCT constant, random rollouts a leaf).
TUNE_GRID = ((0.5, 1), (1.4, 1), (4.0, 1), (1.4, 3))
#: Decision states a calibration measures CPU a move on.
CALIBRATION_STATES = 16
#: The calibration aims this much above factor x the hint's median: states of greedy self-play cost the bot
#: more than the average state of a game against the hint (Camper Tour: 0.033 in game against 0.048 CPU-s a
#: decision calibrated, 25 games), and the in-game medians are what the table reports.
CALIBRATION_MARGIN = 1.5
#: Per (game, players), where the calibration states cost the bot more still than the games do (in-game CPU under
#: the factor at 1.5: Camper Tour at 4 players spent 0.81x / 3.1x), the margin that brings it to its factor.
CALIBRATION_MARGINS = {("camper_tour", 4): 3.0}
#: The hint's CPU seconds a call by default (small enough that hundreds of games a cell fit).
DEFAULT_HINT_CPU_S = 0.05
#: Safety stop (no game of the five comes near it).
MAX_DECISIONS = 5_000
RUN_DIR = RESULTS_DIR / "openspiel"

Plan = list[Any]  # rules-model moves of one seat's turn, first = now


@dataclass(frozen=True)
class BotSetting:
    uct_c: float = 2.0
    rollouts: int = 1


# --- the five games: the hint's and greedy's turns, on the rules state, from what the seat may know -----------


def _hc_greedy_choice(s: Any, rng: np.random.Generator) -> Any:
    from campsolver.solver.happy_campers.policies import FastMap, candidate_of

    legal = s.legal_actions()
    target = s.to_draw[0]
    fast = FastMap.from_grid(s.maps[target], s.challenges, s.components)
    values = fast.gains([candidate_of(p, s.components) for p in legal])  # policies.GREEDY's own gain
    own = target == s.current_player()
    best = max(values) if own else min(values)  # on a neighbour's map: the worst for its owner
    ties = [i for i, v in enumerate(values) if v == best]
    return legal[ties[int(rng.integers(len(ties)))]]


def hc_greedy(s: Any, seat: int, rng: np.random.Generator) -> Plan:
    return [_hc_greedy_choice(s, rng)]


def hc_hint(s: Any, seat: int, cpu_s: float, seed: int) -> Plan:
    from campsolver.solver.happy_campers.hint import HintMode, HintOptions, hint, turn_state

    target = s.to_draw[0]
    budget = CpuBudget(cpu_s)
    if target == seat:
        others = [s.maps[(seat + k) % s.players] for k in range(1, s.players)]  # left neighbour first
        result = hint(
            turn_state(
                s.maps[target],
                s.roll,
                s.challenges,
                s.components,
                mode=HintMode.MULTIPLAYER,
                other_grids=others,
                bonus_turn=s.bonus_turn,
            ),
            budget,
            options=HintOptions(seed=seed),
        )
    else:
        result = hint(
            turn_state(s.maps[target], s.roll, s.challenges, s.components, mode=HintMode.NEIGHBOUR_MAP),
            budget,
            options=HintOptions(seed=seed),
        )
    assert result.best is not None
    return [result.best.move.placements[0]]


def dc_greedy(s: Any, seat: int, rng: np.random.Generator) -> Plan:
    from campsolver.solver.deluxe_camping.players import greedy_player

    return [greedy_player(s, rng)]


def dc_hint(s: Any, seat: int, cpu_s: float, seed: int) -> Plan:
    from campsolver.solver.deluxe_camping.hint import hint

    return [hint(s, CpuBudget(cpu_s)).choices[0].choice]


def dc_start(game: pyspiel.Game, seed: int) -> AdapterState:
    from campsolver.solver.core.seeding import rng_for
    from campsolver.solver.deluxe_camping import rules

    rules_state = rules.random_setup(game.config, rng_for(seed, "openspiel-bench-deluxe-camping-setup"))
    return AdapterState(game, rules_state)


def cs_plan(s: Any, placement: Any, tent: Any) -> Plan:
    from campsolver.solver.campsite import rules as R

    return [R.PlayCard(placement), R.PitchTent(tent.token, tent.row, tent.col)]


def cs_greedy(s: Any, seat: int, rng: np.random.Generator) -> Plan:
    """The greedy play of a turn; asked at a tent (a search or playout that laid the card itself), the tent with the
    most round points for the mover as the table then stands (greedy's immediate own gain, the card fixed)."""
    from campsolver.solver.campsite import rules as R
    from campsolver.solver.campsite.players import greedy_policy

    if s.stage is R.Stage.TENT:
        player = s.to_move

        def points(move: Any) -> int:
            tent = R.Tent(player, move.token, move.row, move.col)
            return R.player_scores(s.table.pitch(tent), s.players)[player]

        return [max(s.legal_actions(), key=points)]  # ties: the first in the rules model's order
    return cs_plan(s, *greedy_policy(s, CpuBudget(60.0)))


def cs_budget(cpu_s: float) -> float:
    """Campsite's hint gets at least `players.HINT_CPU_S`: what a ranking of every play of a 4-player turn needs
    (the bots are calibrated on the CPU the hint actually uses, so they get as much)."""
    from campsolver.solver.campsite.players import HINT_CPU_S

    return max(cpu_s, HINT_CPU_S)


def same_budget(cpu_s: float) -> float:
    return cpu_s


def cs_hint(s: Any, seat: int, cpu_s: float, seed: int) -> Plan:
    from campsolver.solver.campsite.hint import hint
    from campsolver.solver.campsite.players import play_options

    # The hint reads the seat's own hand, the table, the tokens, the totals and the round deck's composition.
    best = hint(s, CpuBudget(cs_budget(cpu_s)), options=play_options(s)).choices[0]
    return cs_plan(s, best.placement, best.tent)


def ct_greedy(s: Any, seat: int, rng: np.random.Generator) -> Plan:
    from campsolver.solver.camper_tour.players import greedy

    return [greedy(s)]


def ct_hint(s: Any, seat: int, cpu_s: float, seed: int) -> Plan:
    from campsolver.solver.camper_tour.hint import HintOptions, hint

    return [hint(s, CpuBudget(cpu_s), options=HintOptions(seed=seed)).best.action]


def at_greedy(s: Any, seat: int, rng: np.random.Generator) -> Plan:
    from campsolver.solver.adventure_tours.policies import greedy_action

    return [greedy_action(s)]


def at_hint(s: Any, seat: int, cpu_s: float, seed: int) -> Plan:
    from campsolver.solver.adventure_tours.hint import HintOptions, hint
    from campsolver.solver.adventure_tours.information import observe

    return list(
        hint(observe(s, seat), CpuBudget(cpu_s), options=HintOptions(seed=seed)).best.play
    )  # the seat's own view only


@dataclass(frozen=True)
class GameSpec:
    key: str
    short_name: str
    smallest: int
    hidden: bool  # IS-MCTS (else MCTS)
    hint: Callable[[Any, int, float, int], Plan]
    greedy: Callable[[Any, int, np.random.Generator], Plan]
    start: Callable[[pyspiel.Game, int], AdapterState] | None = None
    hint_reads: str = "own view; no game record"
    #: The CPU seconds a hint call is really given when `--hint-cpu` asks for x (Campsite: at least 0.15).
    budget: Callable[[float], float] = same_budget


GAMES: dict[str, GameSpec] = {
    spec.key: spec
    for spec in (
        GameSpec("happy_campers", "campsolver_happy_campers", 2, False, hc_hint, hc_greedy),
        GameSpec("deluxe_camping", "campsolver_deluxe_camping", 2, False, dc_hint, dc_greedy, dc_start),
        GameSpec("camper_tour", "campsolver_camper_tour", 2, False, ct_hint, ct_greedy),
        GameSpec("campsite", "campsolver_campsite", 2, True, cs_hint, cs_greedy, budget=cs_budget),
        GameSpec("adventure_tours", "campsolver_adventure_tours", 3, True, at_hint, at_greedy),
    )
}
OPPONENTS = {"greedy": None, "bot1": 1.0, "bot4": 4.0}


def default_cells() -> list[str]:
    """Every cell, most important first: smallest table vs greedy and bot 1x, then bot 4x, then 4 players."""
    cells = []
    for opponents, table in ((("greedy", "bot1"), "small"), (("bot4",), "small"), (("greedy", "bot1", "bot4"), 4)):
        for opponent in opponents:
            for spec in GAMES.values():
                players = spec.smallest if table == "small" else 4
                cells.append(f"{spec.key}:{players}:{opponent}")
    return cells


# --- seats ------------------------------------------------------------------------------------------------------


class PlanSeat:
    """A seat played by a rules-level policy that may answer a whole turn at once (the rest of it is replayed
    without a new call while it stays legal). `cpu` lists the CPU seconds of each call."""

    def __init__(self, policy: Callable[[Any, int], Plan], seat: int) -> None:
        self.policy = policy
        self.seat = seat
        self.plan: Plan = []
        self.cpu: list[float] = []

    def act(self, state: AdapterState) -> int:
        rules_state = state.rules_state
        encode = state.adapter_game.encoding.encode
        if self.plan:
            action = encode(rules_state, self.plan.pop(0))
            if action in state.legal_actions():
                return action
            self.plan = []
        started = time.process_time()
        self.plan = list(self.policy(rules_state, self.seat))
        self.cpu.append(time.process_time() - started)
        return encode(rules_state, self.plan.pop(0))


class BotSeat:
    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.cpu: list[float] = []

    def act(self, state: AdapterState) -> int:
        started = time.process_time()
        action = self.bot.step(state)
        self.cpu.append(time.process_time() - started)
        return int(action)


def make_bot(spec: GameSpec, game: pyspiel.Game, setting: BotSetting, simulations: int, seed: int) -> Any:
    rng = np.random.RandomState(seed % 2**32)
    evaluator = mcts.RandomRolloutEvaluator(setting.rollouts, rng)
    if spec.hidden:
        bot = ismcts.ISMCTSBot(
            game, evaluator, setting.uct_c, simulations, random_state=rng, allow_inconsistent_action_sets=True
        )
        # The adapter's resampler (`common.resampler`), drawing from the bot's own seeded generator.
        bot.set_resampler(lambda state, player: state.resample_from_infostate(player, bot.random_number))
        return bot
    return mcts.MCTSBot(game, setting.uct_c, simulations, evaluator, random_state=rng, solve=False)


def _sample_chance(state: pyspiel.State, rng: np.random.Generator) -> int:
    actions, probs = zip(*state.chance_outcomes(), strict=True)
    return int(rng.choice(actions, p=np.asarray(probs) / sum(probs)))


def new_state(spec: GameSpec, game: pyspiel.Game, seed: int) -> AdapterState:
    return spec.start(game, seed) if spec.start is not None else game.new_initial_state()


def play(spec: GameSpec, game: pyspiel.Game, seed: int, seats: list[Any]) -> AdapterState:
    """One game to its end; `seats[p].act(state)` gives player p's action id."""
    rng = np.random.default_rng(seed)
    state = new_state(spec, game, seed)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(_sample_chance(state, rng))
            continue
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise RuntimeError(f"{spec.key}: the game did not end within {MAX_DECISIONS} decisions")
        state.apply_action(seats[state.current_player()].act(state))
    return state


def hint_seat(spec: GameSpec, seat: int, cpu_s: float, seed: int) -> PlanSeat:
    calls = [0]

    def policy(s: Any, p: int) -> Plan:
        calls[0] += 1
        return spec.hint(s, p, cpu_s, seed * 10_000 + calls[0])

    return PlanSeat(policy, seat)


def greedy_seat(spec: GameSpec, seat: int, seed: int) -> PlanSeat:
    rng = np.random.default_rng([seed, seat, 17])
    return PlanSeat(lambda s, p: spec.greedy(s, p, rng), seat)


# --- calibration ------------------------------------------------------------------------------------------------


def sample_states(spec: GameSpec, game: pyspiel.Game, count: int, seed: int) -> list[AdapterState]:
    """Decision states of greedy self-play (games seeded from `seed`, apart from the report's)."""
    rng = np.random.default_rng(seed)
    states: list[AdapterState] = []
    game_seed = seed
    while len(states) < count:
        seats = [greedy_seat(spec, p, game_seed) for p in range(game.num_players())]
        chance = np.random.default_rng(game_seed)
        state = new_state(spec, game, game_seed)
        while not state.is_terminal() and len(states) < count:
            if state.is_chance_node():
                state.apply_action(_sample_chance(state, chance))
                continue
            seat = seats[state.current_player()]
            if not seat.plan and rng.random() < 0.15:
                states.append(state.clone())
            state.apply_action(seat.act(state))
        game_seed += 1
    return states


def hint_median_cpu(spec: GameSpec, states: list[AdapterState], cpu_s: float) -> float:
    spent = []
    for i, state in enumerate(states):
        started = time.process_time()
        spec.hint(state.rules_state, state.current_player(), cpu_s, CALIBRATION_SEED + i)
        spent.append(time.process_time() - started)
    return statistics.median(spent)


def bot_median_cpu(
    spec: GameSpec, game: pyspiel.Game, states: list[AdapterState], setting: BotSetting, simulations: int
) -> float:
    bot = make_bot(spec, game, setting, simulations, CALIBRATION_SEED)
    spent = []
    for state in states:
        started = time.process_time()
        bot.step(state.clone())
        spent.append(time.process_time() - started)
    return statistics.median(spent)


def calibrate(
    spec: GameSpec, game: pyspiel.Game, states: list[AdapterState], setting: BotSetting, target_s: float
) -> tuple[int, float]:
    """The smallest simulation count found (doubling, then one bisection step) whose median CPU a decision on
    `states` is at least `target_s`."""
    simulations, median = 2, 0.0  # MCTSBot needs two: the first only expands the root
    while True:
        median = bot_median_cpu(spec, game, states, setting, simulations)
        if median >= target_s or simulations >= 1 << 16:
            break
        simulations *= 2
    if simulations > 4:
        middle = simulations * 3 // 4
        middle_median = bot_median_cpu(spec, game, states, setting, middle)
        if middle_median >= target_s:
            return middle, middle_median
    return simulations, median


# --- cells ------------------------------------------------------------------------------------------------------


@dataclass
class Cell:
    game: str
    players: int
    opponent: str

    @classmethod
    def parse(cls, text: str) -> Cell:
        game, players, opponent = text.split(":")
        if game not in GAMES or opponent not in OPPONENTS:
            raise SystemExit(f"unknown cell {text!r}: game one of {sorted(GAMES)}, opponent one of {sorted(OPPONENTS)}")
        return cls(game, int(players), opponent)

    @property
    def name(self) -> str:
        return f"{self.game}_{self.players}p_{self.opponent}"

    @property
    def spec(self) -> GameSpec:
        return GAMES[self.game]


def load_game(spec: GameSpec, players: int) -> pyspiel.Game:
    return pyspiel.load_game(spec.short_name, {"players": players})


def _settings_path(run_dir: Path) -> Path:
    return run_dir / "settings.json"


def bot_setting(run_dir: Path, game: str) -> BotSetting:
    path = _settings_path(run_dir)
    if path.exists():
        saved = json.loads(path.read_text()).get(game)
        if saved:
            return BotSetting(saved["uct_c"], saved["rollouts"])
    return BotSetting()


class Calibrations:
    """The hint's median CPU a call and the bot's simulation counts per (game, players, factor), measured once
    a run directory and kept (a resumed run plays the games it misses with the same opponents)."""

    def __init__(self, run_dir: Path, hint_cpu_s: float) -> None:
        self.path = run_dir / "calibration.json"
        self.hint_cpu_s = hint_cpu_s
        self.data: dict[str, Any] = json.loads(self.path.read_text()) if self.path.exists() else {}
        self.states: dict[tuple[str, int], list[AdapterState]] = {}

    def _states(self, spec: GameSpec, game: pyspiel.Game, players: int) -> list[AdapterState]:
        key = (spec.key, players)
        if key not in self.states:
            self.states[key] = sample_states(spec, game, CALIBRATION_STATES, CALIBRATION_SEED)
        return self.states[key]

    def hint_median(self, spec: GameSpec, game: pyspiel.Game, players: int) -> float:
        key = f"{spec.key}_{players}p_hint"
        if key not in self.data:
            self.data[key] = {
                "hint_cpu_s": self.hint_cpu_s,
                "median_s": hint_median_cpu(spec, self._states(spec, game, players), self.hint_cpu_s),
            }
            self._save()
        return float(self.data[key]["median_s"])

    def simulations(
        self, spec: GameSpec, game: pyspiel.Game, players: int, factor: float, setting: BotSetting
    ) -> tuple[int, float, float]:
        margin = CALIBRATION_MARGINS.get((spec.key, players), CALIBRATION_MARGIN)
        key = f"{spec.key}_{players}p_bot{factor:g}_c{setting.uct_c:g}_r{setting.rollouts}_m{margin:g}"
        if key not in self.data:
            hint = self.hint_median(spec, game, players)
            simulations, median = calibrate(
                spec, game, self._states(spec, game, players), setting, margin * factor * hint
            )
            self.data[key] = {"simulations": simulations, "bot_median_s": median, "target_s": margin * factor * hint}
            self._save()
            print(
                f"calibrated {key}: {simulations} simulations, bot {median:.4f} CPU-s/decision >= "
                f"{margin:g} x {factor:g} x hint {hint:.4f}",
                flush=True,
            )
        row = self.data[key]
        return int(row["simulations"]), float(row["bot_median_s"]), float(row["target_s"])

    def _save(self) -> None:
        """Merge into what is on disk, so runs sharing a directory keep each other's new keys."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        on_disk = json.loads(self.path.read_text()) if self.path.exists() else {}
        self.data = {**on_disk, **self.data}
        tmp = self.path.with_suffix(f".{os.getpid()}.tmp")  # two runs saving at once never share one
        tmp.write_text(json.dumps(self.data, indent=2) + "\n")
        tmp.replace(self.path)


def play_cell_game(
    cell: Cell,
    game: pyspiel.Game,
    index: int,
    first_seed: int,
    hint_cpu_s: float,
    setting: BotSetting,
    simulations: int,
) -> dict[str, Any]:
    """Game `index` of a cell: seed first_seed + index // players, the hint in seat index % players."""
    spec = cell.spec
    players = cell.players
    seed = first_seed + index // players
    seat = index % players
    seats: list[Any] = []
    for p in range(players):
        if p == seat:
            seats.append(hint_seat(spec, p, hint_cpu_s, seed))
        elif cell.opponent == "greedy":
            seats.append(greedy_seat(spec, p, seed))
        else:
            seats.append(BotSeat(make_bot(spec, game, setting, simulations, seed * 100 + p)))
    started = time.time()
    final = play(spec, game, seed, seats)
    others = [s for p, s in enumerate(seats) if p != seat]
    return {
        "index": index,
        "seed": seed,
        "hint_seat": seat,
        "hint_return": final.returns()[seat],
        "scores": [float(x) for x in game.final_scores(final.rules_state)],
        "hint_cpu": seats[seat].cpu,
        "opponent_cpu": [x for s in others for x in s.cpu],
        "wall_s": time.time() - started,
    }


def read_games(path: Path) -> list[dict[str, Any]]:
    """The header and each game index once (the first line written for it: two runs sharing a cell may meet
    on the same index)."""
    if not path.exists():
        return []
    games: list[dict[str, Any]] = []
    seen: set[int] = set()
    for line in path.read_text().splitlines():
        with contextlib.suppress(json.JSONDecodeError):  # a line cut by a kill
            row = json.loads(line)
            if "index" in row:
                if row["index"] in seen:
                    continue
                seen.add(row["index"])
            games.append(row)
    return games


def cell_header(cell: Cell, hint_cpu_s: float, setting: BotSetting, simulations: int | None) -> dict[str, Any]:
    return {
        "cell": cell.name,
        "hint_cpu_s": hint_cpu_s,
        "simulations": simulations,
        **({} if cell.opponent == "greedy" else asdict(setting)),
    }


def run_cell(
    cell: Cell,
    target: int,
    run_dir: Path,
    hint_cpu_s: float,
    calibrations: Calibrations,
    first_seed: int = 0,
    setting: BotSetting | None = None,
    log: bool = True,
    reverse: bool = False,
) -> list[dict[str, Any]]:
    """Play the cell's games up to `target` (resuming what its JSONL file has); returns all of them. `reverse`
    plays the missing indices from the last down, so a second run on the same cell meets the first in the
    middle: the file is read again before each game and an index already there is skipped."""
    spec = cell.spec
    game = load_game(spec, cell.players)
    setting = setting or bot_setting(run_dir, cell.game)
    simulations = None
    if cell.opponent != "greedy":
        simulations, _, _ = calibrations.simulations(spec, game, cell.players, OPPONENTS[cell.opponent], setting)
    path = run_dir / f"{cell.name}.jsonl"
    header = cell_header(cell, hint_cpu_s, setting, simulations)
    games = read_games(path)
    if games and games[0] != header:
        raise SystemExit(f"{path} was played with other settings ({games[0]}); use another --run-dir")
    if not games:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(header) + "\n")
        games = [header]
    done = {g["index"] for g in games[1:]}
    with path.open("a") as out:
        for index in reversed(range(target)) if reverse else range(target):
            if index in done or index in {g.get("index") for g in read_games(path)[1:]}:
                continue
            row = play_cell_game(cell, game, index, first_seed, hint_cpu_s, setting, simulations or 0)
            out.write(json.dumps(row) + "\n")
            out.flush()
            done.add(index)
            if log:
                print(
                    f"{cell.name} game {index}: hint {row['hint_return']:.2f} scores {row['scores']} "
                    f"{row['wall_s']:.1f}s",
                    flush=True,
                )
    return read_games(path)


def summarise(cell: Cell, games: list[dict[str, Any]]) -> dict[str, Any]:
    header, played = games[0], games[1:]
    n = len(played)
    share = sum(g["hint_return"] for g in played)
    low, high = wilson(share, n)
    hint_cpu = [x for g in played for x in g["hint_cpu"]]
    opp_cpu = [x for g in played for x in g["opponent_cpu"]]
    return {
        "game": cell.game,
        "players": cell.players,
        "opponent": cell.opponent,
        "games": n,
        "hint_share": share / n if n else None,
        "wilson95_low": low,
        "wilson95_high": high,
        "fair_share": 1 / cell.players,
        "beats_fair": bool(n and low > 1 / cell.players),
        "hint_cpu_call_s": statistics.median(hint_cpu) if hint_cpu else None,
        "opp_cpu_decision_s": statistics.median(opp_cpu) if opp_cpu else None,
        "opp_over_hint_cpu": (
            statistics.median(opp_cpu) / statistics.median(hint_cpu)
            if hint_cpu and opp_cpu and statistics.median(hint_cpu) > 0
            else None
        ),
        "bot_simulations": header.get("simulations"),
        "uct_c": header.get("uct_c"),
        "rollouts": header.get("rollouts"),
        "hint_reads": GAMES[cell.game].hint_reads,
    }


def summary(run_dir: Path, cells: list[Cell], hint_cpu_s: float, name: str = "openspiel_head_to_head") -> None:
    rows = [summarise(c, g) for c in cells if len(g := read_games(run_dir / f"{c.name}.jsonl")) > 1]
    short = [
        {
            k: r[k]
            for k in (
                "game",
                "players",
                "opponent",
                "games",
                "hint_share",
                "wilson95_low",
                "wilson95_high",
                "hint_cpu_call_s",
                "opp_cpu_decision_s",
                "opp_over_hint_cpu",
                "bot_simulations",
            )
        }
        for r in rows
    ]
    print_table(f"hint ({hint_cpu_s:g} CPU-s a call) vs greedy / OpenSpiel bots", short)
    print(markdown(rows))
    write_json(
        name,
        {
            "hint_cpu_s": hint_cpu_s,
            "rows": rows,
            "settings": json.loads(_settings_path(run_dir).read_text()) if _settings_path(run_dir).exists() else {},
        },
    )


def markdown(rows: list[dict[str, Any]]) -> str:
    """The summary as the table in docs/openspiel.md."""
    lines = [
        "| game | players | opponent | games | hint's share [Wilson 95%] | fair | hint CPU-s a call | "
        "opponent CPU-s a decision | opponent / hint CPU | bot simulations |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    names = {"greedy": "greedy", "bot1": "bot 1x", "bot4": "bot 4x"}
    for r in rows:
        bot = "IS-MCTS" if GAMES[r["game"]].hidden else "MCTS"
        opponent = names[r["opponent"]].replace("bot", bot)
        sims = r["bot_simulations"] if r["bot_simulations"] is not None else "-"
        opp = f"{r['opp_cpu_decision_s']:.4f}" if r["opp_cpu_decision_s"] is not None else "-"
        # The bot's in-game CPU over the hint's, beside its factor: a bot cell under its factor says so.
        ratio = "-" if r["opponent"] == "greedy" else f"{r['opp_over_hint_cpu']:.2f}x"
        if r["opponent"] != "greedy" and r["opp_over_hint_cpu"] < OPPONENTS[r["opponent"]]:
            ratio += " (under)"
        lines.append(
            f"| {r['game'].replace('_', ' ')} | {r['players']} | {opponent} | {r['games']} | "
            f"{r['hint_share']:.3f} [{r['wilson95_low']:.3f}, {r['wilson95_high']:.3f}] | "
            f"{r['fair_share']:.3f} | {r['hint_cpu_call_s']:.4f} | {opp} | {ratio} | {sims} |"
        )
    return "\n".join(lines)


def tune(spec: GameSpec, games: int, run_dir: Path, hint_cpu_s: float, calibrations: Calibrations) -> BotSetting:
    """The bot setting that scores best against the hint at 1x on the tuning seeds (the strongest opponent)."""
    players = spec.smallest
    tune_dir = run_dir / "tune"
    scores = []
    for uct_c, rollouts in TUNE_GRID:
        setting = BotSetting(uct_c, rollouts)
        cell = Cell(spec.key, players, "bot1")
        games_played = run_cell(
            cell,
            games,
            tune_dir / f"c{uct_c:g}_r{rollouts}_m{CALIBRATION_MARGIN:g}",
            hint_cpu_s,
            calibrations,
            first_seed=TUNE_FIRST_SEED,
            setting=setting,
            log=False,
        )
        share = statistics.fmean(g["hint_return"] for g in games_played[1:])
        scores.append((share, setting))
        print(f"tune {spec.key}: uct_c={uct_c} rollouts={rollouts}: hint share {share:.3f} of {games}", flush=True)
    best = min(scores, key=lambda item: item[0])[1]
    path = _settings_path(run_dir)
    saved = json.loads(path.read_text()) if path.exists() else {}
    last_seed = TUNE_FIRST_SEED + (games - 1) // players
    saved[spec.key] = {
        **asdict(best),
        "tuned_on_seeds": f"{TUNE_FIRST_SEED}..{last_seed}",
        "games_per_setting": games,
        "grid": {f"c{s.uct_c:g}_r{s.rollouts}": share for share, s in scores},
    }
    path.write_text(json.dumps(saved, indent=2) + "\n")
    return best


def _tuned(run_dir: Path, game: str) -> bool:
    path = _settings_path(run_dir)
    return path.exists() and game in json.loads(path.read_text())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--cells",
        default=",".join(default_cells()),
        help="game:players:opponent,... (opponent greedy, bot1 or bot4), most important first",
    )
    parser.add_argument("--games", type=int, default=200, help="games a cell")
    parser.add_argument("--chunk", type=int, default=50, help="games a cell per pass (every cell gets some soon)")
    parser.add_argument("--greedy-chunks", type=int, default=1, help="chunks a pass for the cells against greedy")
    parser.add_argument("--hint-cpu", type=float, default=DEFAULT_HINT_CPU_S, help="the hint's CPU seconds a call")
    parser.add_argument("--tune", default="", help="games to tune on first: comma list or 'all'")
    parser.add_argument("--tune-games", type=int, default=16)
    parser.add_argument("--run-dir", default=str(RUN_DIR))
    parser.add_argument("--summary", action="store_true", help="print and write the summary only")
    parser.add_argument(
        "--reverse",
        action="store_true",
        help="play each cell's missing games from the last index down (a second run on the same "
        "cells, with --chunk equal to --games, meets the first in the middle)",
    )
    args = parser.parse_args(argv)
    random.seed(0)
    run_dir = Path(args.run_dir)
    # Another run directory (another hint budget, say) keeps its own summary beside the report's.
    summary_name = "openspiel_head_to_head" + ("" if run_dir.resolve() == RUN_DIR.resolve() else f"_{run_dir.name}")
    cells = [Cell.parse(text) for text in args.cells.split(",") if text]
    calibrations = Calibrations(run_dir, args.hint_cpu)
    to_tune = set(GAMES if args.tune == "all" else [k for k in args.tune.split(",") if k])
    if not args.summary:
        target = 0
        while target < args.games:
            target = min(target + args.chunk, args.games)
            for cell in cells:
                if cell.opponent != "greedy" and cell.game in to_tune and not _tuned(run_dir, cell.game):
                    tune(cell.spec, args.tune_games, run_dir, args.hint_cpu, calibrations)
                    to_tune.discard(cell.game)
                # A greedy cell costs a fraction of a bot cell: it goes ahead by `--greedy-chunks` chunks a pass.
                ahead = target if cell.opponent != "greedy" else target + (args.greedy_chunks - 1) * args.chunk
                run_cell(cell, min(ahead, args.games), run_dir, args.hint_cpu, calibrations, reverse=args.reverse)
            summary(run_dir, cells, args.hint_cpu, summary_name)
    summary(run_dir, cells, args.hint_cpu, summary_name)


if __name__ == "__main__":
    main()
