"""Happy Campers hints: every legal drawing of the current roll ranked by its expected final score.

The value of a move is the expected final score when the future rolls are uniformly random (two fair dice
a turn, the game lasting until a roll cannot be drawn) and the future drawings are made by the rollout
policy (`rollout_policy()`: shaped greedy, `policies.ShapedGreedyPolicy`, played by the exact vector engine
`vector_rollout` when the map allows; solo rollouts stay plain greedy). It is estimated by Monte-Carlo
rollouts:

- Common random numbers: future f (its rolls and the policy's tie-break keys) is the same for every
  candidate move, so differences between moves are measured on the same futures (paired estimates).
- Dedupe: moves that give the same map, or maps equal up to a symmetry of the rectangle (flips and the
  half turn, which every card respects), are one *position class*; they have exactly the same value.
- Pre-screen: classes are ordered by the rollout policy's own evaluation of the move (solo: greedy's);
  the best as many as the budget races (`ROLLOUTS_PER_RACED`) enter the race (and, with a non-zero
  `SCREEN_SHARE`, a wider entry round of two rollouts each picks them by mean); the rest are "screened
  out" with that evaluation only (0 rollouts, value None).
- Racing: the entry round's best means enter successive halving; each round adds samples to the better
  half, all on the same futures.
- Confirmation: the race picks the top move (the finalist with the best mean over every future the finalists
  shared); then `CONFIRM_SHARE` of the rollouts goes to fresh futures for that move alone. Its value is their
  mean: unbiased, not inflated by the selection (the maximum of noisy means reads high: the winner's curse).
  Its standard error takes the spread of every rollout of the move, never below the pooled spread of all
  sampled moves (`_top_variance`: a few fresh rollouts that missed the long low tail read high and narrow).
- Values and order: every other sampled move is ranked by its paired shortfall against the top move on the
  futures the race compared them on (>= 0: successive halving kept the top move over each move it dropped on
  exactly those futures), and its value is the top value minus that shortfall. So rank order is value order,
  `loss` is the shortfall, and the ranking is what the race decided on. Such a value may read low (the move
  lost on those futures); its standard error adds the top value's variance and the shortfall's (disjoint
  futures). Moves without a rollout have no value (screened out). No shrinkage of values.

Determinism: sample counts follow a fixed schedule computed from the budget's *time limit* and a nominal
rollout rate (never from measured wall-clock speed), so a seed gives the same answer on any machine. The
deadline is only a safety stop: a rollout starts only if twice the slowest one so far and a 5% reserve
still fit; if the stop comes (a machine slower than the nominal rate, or cancellation), rollouts having been
added one future at a time across the raced moves, the unfinished layer is dropped and the completed
layers are kept (paired), `interrupted` is set, and a race cut before `MIN_LAYERS_TO_RANK` futures a move is
ordered by the rollout policy's evaluation and listed without values (`ranked_by_screen`: the rule of thumb's
move first). The race stops early enough to leave time for the confirmation rollouts (in proportion to the
rollouts it did); a confirmation cut short keeps the mean of its fresh rollouts from 2 on, and below that falls
back to the mean of the rollouts that chose the move, says so (`HintAlternative.estimate`) and claims no standard
error. Times are read on the budget's own clock, so a `CpuBudget` counts CPU seconds.

Modes (readings in docs/solvers/happy-campers.md, "Happy Campers: hints"). Every legal move comes from the rules
model, never from a private copy of the rules:
- OWN_MAP: a single map, doubles are plain rolls (the single-map game of `maximise.clairvoyant_max`); moves
  are `rules.legal_placements_for_option` of `rules.roll_options`.
- NEIGHBOUR_MAP: a multi-player double drawn on the neighbour's map; the options are
  `modes.multiplayer_options` (Noisy Neighbours frees the shape), exactly what `modes.MultiplayerState`
  offers the drawer. `objective` says whether to help (OWNER_BEST) or hurt (OWNER_WORST, the default: the
  game is competitive) the map's owner, whose future is played by the rollout policy on their own map.
- SOLO: two maps; the moves are those of the `modes.SoloState` after the roll (pairs, one option per map, a
  double on both with the solo gap rule; one drawing when no assignment fits both maps; the one extra turn
  of the remaining map); the lower final score counts. Rollouts continue with `policies.modes_solo_rollout`,
  which plays the same `SoloState` flow (pinned by tests/happy_campers/test_hint_agreement.py).

Before ranking, the fast engine the rollouts use is checked to generate exactly the rules model's drawings at
the root (`_replay_check`); the tests replay every hinted move through `rules.draw` / the `modes` states.
"""

from __future__ import annotations

import enum
import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from operator import itemgetter

import numpy as np
from campsolver.solver.core.budget import Budget, SolveInterrupted
from campsolver.solver.core.game import CHANCE, TERMINAL
from campsolver.solver.core.hint import HintClock, HintResultBase, RankedChoice
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.happy_campers.modes import (
    SOLO_DOUBLE_GAP,
    MultiplayerState,
    SoloState,
    SoloStep,
    multiplayer_options,
)
from campsolver.solver.happy_campers.multiplayer_rollout import multiplayer_rollout
from campsolver.solver.happy_campers.policies import (
    DEFAULT_MISSING_PENALTY,
    SHAPED_CROWD_WEIGHT,
    SHAPED_EXPOSURE_WEIGHT,
    SOLO_NORMAL,
    SOLO_OVER,
    Candidate,
    FastMap,
    ShapedGreedyPolicy,
    board_tables,
    candidate_of,
    candidate_placement,
    modes_solo_rollout,
    rollout,
    solo_candidates,
)
from campsolver.solver.happy_campers.rules import (
    DEFAULT_COMPONENTS,
    Challenge,
    Components,
    Element,
    Grid,
    Option,
    Placement,
    RulesError,
    empty_grid,
    legal_placements_for_option,
    roll_options,
    validate_grid,
    validate_roll,
)
from campsolver.solver.happy_campers.vector_rollout import supports as vector_supports
from campsolver.solver.happy_campers.vector_rollout import vector_rollout

Roll = tuple[int, int]

#: Default thinking time of a hint (seconds).
DEFAULT_HINT_TIME_S = 1.0
#: Nominal rollouts per second of the rollout policy (shaped greedy, vector path) on the default 5x9 map (one
#: map, no costly card), deliberately below the measured rate (about 1,600 whole games a CPU second) so the
#: fixed schedule usually finishes inside the deadline on a shared machine; when it does not, the answer is
#: the last completed layer of futures (see `extend`).
NOMINAL_ROLLOUTS_PER_SECOND = 600.0
#: Cards that make every rollout evaluation slower (extra work per candidate drawing).
COSTLY_CARDS = frozenset(
    {
        Challenge.PRIVACY,
        Challenge.QUICK_PEE,
        Challenge.TENT_TOGETHER,
        Challenge.NATURE_RESERVE,
        Challenge.RIVER_TOWN,
        Challenge.DANGEROUS_ANIMALS,
    }
)
#: Rate divisor per costly card in play (measured: Privacy + River Town + Tent Together cost about 2.7x).
COSTLY_CARD_FACTOR = 0.6
#: Cap on how much faster than a whole game a rollout from a fuller map is assumed to be.
MAX_SHORT_ROLLOUT_SPEEDUP = 12.0
#: Nominal cost of listing, deduplicating and checking one legal move (seconds).
NOMINAL_SETUP_S_PER_MOVE = 1.0e-4
#: Share of the time limit the schedule plans for (the rest covers enumeration, screening and answer).
PLANNED_SHARE = 0.7
#: Share of the planned rollouts given to classes that only get an entry round (the rest races the best
#: ones). 0: the race takes the best classes by the rollout policy's own evaluation directly (measured on
#: 30 seeded games at the 0.3 s schedule: 42.1 against 40.4 with a 0.2 share spent on 2-rollout entries,
#: whose noisy means picked the race worse than the shaped evaluation does).
SCREEN_SHARE = 0.0
#: Rollouts each screened-out class gets (two are needed for a standard error).
SCREEN_SAMPLES = 2
#: Fewest rollouts a raced class gets in a halving round.
MIN_ROUND_SAMPLES = 2
#: Share of the racing rollouts given to the final round: the finalists' reported values come from it alone
#: (fresh futures, after the selection), so they are not inflated by the winner's curse.
FINAL_ROUND_SHARE = 0.4
#: Share of the planned rollouts spent, after the race has chosen the top move, on fresh futures for that move
#: alone: its reported value is their mean, an unbiased estimate (the race's own means of the move it picked are
#: the maximum of noisy means and read high: the winner's curse).
CONFIRM_SHARE = 0.2
#: Fewest confirmation rollouts planned for the top move (the wire shows a standard error from about this many,
#: see `service.games.shared.MIN_SAMPLES_FOR_STANDARD_ERROR`). A confirmation cut by the deadline keeps the mean of
#: its fresh rollouts from 2 on (unbiased; no standard error on the wire below 10); below 2 the value is the mean
#: of the rollouts that chose the move ("selection": may read high), with no standard error at all.
MIN_CONFIRM_SAMPLES = 10
#: 1: the race's last round picks the top move by the mean over every future the finalists shared (what the
#: halving rounds also rank by); 0: by the final round's futures alone (the earlier rule, kept for `--variant`).
DECIDE_ON_ALL_SAMPLES = 1
#: Raced classes: about one per this many planned racing rollouts, at least MIN_RACED.
ROLLOUTS_PER_RACED = 24
MIN_RACED = 4
#: Futures are generated in blocks of this many, each from its own seeded stream, so future f is the same
#: whatever the total number of futures.
FUTURE_BLOCK = 64
#: Weight (in pseudo-samples) of the pooled variance in each class's variance estimate: a class whose few
#: rollouts happened to agree still gets an honest, non-zero standard error.
VARIANCE_PRIOR_WEIGHT = 2.0
#: Fewest futures a raced move needs before its mean outranks the rollout policy's own evaluation: a race cut
#: by the deadline below this (a loaded machine) is ordered by that evaluation (shaped greedy's choice)
#: rather than by one or two noisy rollouts (a final score's spread is about 4 points).
MIN_LAYERS_TO_RANK = 6
#: Share of the time limit kept back for ranking and answering after the last rollout.
ANSWER_RESERVE_SHARE = 0.05
#: CPU seconds per listed move of ranking it and turning it into the answer (labels, placements, notes; measured
#: about 0.1 ms a move on one core, doubled for slack): kept back from the rollouts on top of the reserve share.
ANSWER_CPU_S_PER_MOVE = 2.0e-4
#: A rollout starts only if this many times the slowest rollout so far still fits before the reserve.
ROLLOUT_SLACK = 2.0
#: Solo: candidates kept per map and option before forming pairs (pairs are a product).
SOLO_PER_MAP_KEEP = 12


#: The rollout policy's crowd and exposure weights (`ShapedGreedyPolicy`; module constants so the bench's
#: `--variant` can compare settings). Kept at the plain shaped weights: crowd 0.5 with exposure 1.5 plays
#: better whole games (38.64 against 37.72, +0.92 +- 0.09 on 3,000 paired seeded games, best of 18 settings),
#: but the hint rolling out with it did not score higher: -0.84 +- 0.89 on 19 paired games (seeds 0-18) and
#: -0.26 +- 0.65 on 34 fresh ones (seeds 100-133), 0.3 s schedule.
ROLLOUT_CROWD_WEIGHT = SHAPED_CROWD_WEIGHT
ROLLOUT_EXPOSURE_WEIGHT = SHAPED_EXPOSURE_WEIGHT


def rollout_policy(missing_penalty: float = DEFAULT_MISSING_PENALTY) -> ShapedGreedyPolicy:
    """The policy one-map rollouts play the future with (and the pre-screen ranks moves by): shaped greedy
    (`policies.ShapedGreedyPolicy`, 37.9 a game against plain greedy's 27.6 on the default map), so the
    values estimate the final score of a player who keeps the empty region fillable."""
    return ShapedGreedyPolicy(
        missing_penalty=missing_penalty, crowd_weight=ROLLOUT_CROWD_WEIGHT, exposure_weight=ROLLOUT_EXPOSURE_WEIGHT
    )


class HintMode(enum.Enum):
    OWN_MAP = "own_map"
    NEIGHBOUR_MAP = "neighbour_map"
    SOLO = "solo"
    MULTIPLAYER = "multiplayer"  # your own map in the multi-player game (neighbours' doubles, bonus turn)


class MultiplayerValue(enum.Enum):
    """What a multi-player hint ranks by (the project rule: in a multi-player game rank by what wins)."""

    MARGIN = "margin"  # your final score minus the best other player's (default: what wins the game)
    SCORE = "score"  # your own final score alone


class Objective(enum.Enum):
    """Whose interest a neighbour-map move serves (the other modes always maximise: OWNER_BEST)."""

    OWNER_BEST = "owner_best"
    OWNER_WORST = "owner_worst"


class Stage(enum.Enum):
    """How far a move's position class got in the allocation."""

    FINALIST = "finalist"  # survived every halving round
    HALVED_OUT = "halved_out"  # dropped by its mean after `stage_round` (0: the entry round's few rollouts)
    SCREENED_OUT = "screened_out"  # no rollout: the rollout policy's evaluation ranked it too low
    ONLY_MOVE = "only_move"  # the single position class (nothing to compare)


# The own-map (and neighbour-map) hint's method; solo and multi-player name theirs below.
OWN_MAP_METHOD = "monte-carlo: shaped-greedy rollouts, common random numbers, successive halving"


@dataclass(frozen=True)
class HintMove:
    """One hinted move: a drawing per map (own/neighbour mode: one map; solo: two, None = nothing drawn)."""

    placements: tuple[Placement | None, ...]

    def label(self) -> str:
        parts = []
        for index, placement in enumerate(self.placements):
            if placement is None:
                continue
            cells = " ".join(f"r{r}c{c}" for r, c in sorted(placement.cells))
            where = f"map {index + 1}: " if len(self.placements) > 1 else ""
            parts.append(
                f"{where}shape {placement.option.shape_face} as {Element(placement.element).name.lower()} "
                f"(faces {placement.option.shape_face}/{placement.option.element_face}) on {cells}"
            )
        return "; ".join(parts)


@dataclass(kw_only=True)
class HintAlternative(RankedChoice[HintMove]):
    """A legal move (`choice`, also `move`) with its estimated value, on the shared `RankedChoice`.

    value: Monte-Carlo estimate of the expected final score (the map owner's in neighbour mode, the lower
      map's in solo; multi-player: your final score minus the best other player's, unless
      `multiplayer_value="score"`) after this move when every later drawing is made by the rollout policy
      (`rollout_policy()`; solo: greedy). Which estimate it is, `estimate` says: "fresh" (the top move: the
      mean of rollouts on futures drawn after the race chose it, unbiased), "selection" (the top move when the
      deadline cut that confirmation below 2 rollouts: the mean of the rollouts that chose it, may read high,
      so neither it nor the paired values built on it carry a standard error), "paired" (every
      other move: the top value minus this move's mean shortfall against the top on the futures the race
      compared them on, so rank order is value order; the move lost on those futures, so it may read low).
      None when the move got no value: screened out before any rollout, or the deadline cut the race so
      early that every move is ordered by the rollout policy's evaluation (`HintResult.ranked_by_screen`).
    sample_value: the same number (kept for callers of the earlier shrunk value).
    standard_error: of `value` (the top value's and the paired shortfall's variances added: their futures are
      disjoint; each variance pulled towards the pooled one by a couple of pseudo-samples; the top value's from
      every rollout of the move and never below the pooled one, `_top_variance`), None when not estimable (fewer
      than 2 samples) or when the top value is a "selection" estimate. The service reports it only from
      `value_samples` >= 10.
    loss: the paired shortfall against the top move in the objective's direction (>= 0; the top: 0), None
      without a value.
    loss_standard_error: of `loss` (0 for the top move itself).
    samples: rollouts of this move's position class (the top move's confirmation included).
    value_samples: the samples behind `value` (the fewer of the two means it combines for a paired value).
    position_class: moves with the same class reach the same map(s) up to symmetry: exactly equal value.
    tie_group: alternatives whose `value` is exactly equal share a group number.
    screen_value: the rollout policy's evaluation of the move (solo: greedy's gain), what the pre-screen
      ranked by.
    note: which estimate `value` is, or why there is none (`hint_note`), on the asker's scale; with the exact
      tie group when other moves share it.
    """

    rank: int
    sample_value: float | None
    loss_standard_error: float | None
    stage: Stage
    stage_round: int
    position_class: int
    tie_group: int
    screen_value: float
    value_samples: int = 0
    estimate: str = ""

    @property
    def move(self) -> HintMove:
        """The move (the shared `choice`)."""
        return self.choice

    @property
    def sampled(self) -> bool:
        return self.samples > 0

    @property
    def label(self) -> str:
        return self.move.label()


@dataclass(kw_only=True)
class HintResult(HintResultBase[HintAlternative]):
    """Every legal move ranked best first (`choices`, also `alternatives`), and the race's figures."""

    mode: HintMode
    objective: Objective
    blocked: bool  # no legal drawing: the game is over for this map (solo: for both maps)
    blocked_maps: tuple[int, ...]  # solo: maps with no drawing open this turn (0-based; out, or cannot take it)
    # solo: after this move at most the one extra turn of the drawn map follows (a single drawing because no
    # assignment fits both maps), or nothing (this is the extra turn)
    game_ends_after: bool
    legal_moves: int  # alternatives listed (every legal move; solo: every pair formed, see unlisted_pairs)
    unlisted_pairs: int  # solo only: legal pairs not formed because a side failed the per-map pre-screen
    position_classes: int
    raced_classes: int
    rollouts: int
    futures: int
    rounds: int
    method: str = OWN_MAP_METHOD
    # The deadline cut the race before MIN_LAYERS_TO_RANK futures a move: raced moves are ordered by the
    # rollout policy's evaluation (values still shown as sampled).
    ranked_by_screen: bool = False

    @property
    def alternatives(self) -> tuple[HintAlternative, ...]:
        """The ranked moves (the shared `choices`)."""
        return tuple(self.choices)


# ---------------------------------------------------------------------------------------------------------
# Futures (common random numbers)
# ---------------------------------------------------------------------------------------------------------


class _Futures:
    """Future f: its rolls and the rollout policy's tie-break keys, identical for every candidate."""

    def __init__(self, seed: int, turns: int) -> None:
        self.seed = seed
        self.turns = turns
        self.blocks: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def get(self, index: int) -> tuple[np.ndarray, np.ndarray]:
        block, offset = divmod(index, FUTURE_BLOCK)
        if block not in self.blocks:
            rng = rng_for(self.seed, "happy-campers-hint-futures", block)
            dice = rng.integers(1, 7, size=(FUTURE_BLOCK, self.turns, 2), dtype=np.int64)
            keys = rng.integers(0, 2**31, size=(FUTURE_BLOCK, self.turns), dtype=np.int64)
            self.blocks[block] = (dice, keys)
        dice, keys = self.blocks[block]
        return dice[offset], keys[offset]


# ---------------------------------------------------------------------------------------------------------
# Position classes and symmetry
# ---------------------------------------------------------------------------------------------------------


def _symmetries(rows: int, cols: int) -> list[tuple[int, ...]]:
    """Index permutations of the rectangle's flips and half turn (valid for every card: borders, rows,
    columns, left-right rivers and the Great Divide's middle line are all preserved)."""
    perms = []
    for flip_rows in (False, True):
        for flip_cols in (False, True):
            perm = []
            for r in range(rows):
                for c in range(cols):
                    rr = rows - 1 - r if flip_rows else r
                    cc = cols - 1 - c if flip_cols else c
                    perm.append(rr * cols + cc)
            perms.append(tuple(perm))
    return perms


@lru_cache(maxsize=16)
def _permuters(perms: tuple[tuple[int, ...], ...]) -> tuple[Callable[[Sequence[int]], tuple[int, ...]], ...]:
    """`operator.itemgetter` per symmetry: permuting a map is then one C call (hot: once per legal move)."""
    return tuple(itemgetter(*perm) for perm in perms)


def _canonical(flat: Sequence[int], perms: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    if len(flat) < 2:
        return tuple(flat)
    return min(permute(flat) for permute in _permuters(tuple(perms)))


def _flat_after(flat: Sequence[int], mask: int, element: int) -> list[int]:
    out = list(flat)
    index = 0
    while mask:
        if mask & 1:
            out[index] = element
        mask >>= 1
        index += 1
    return out


@dataclass
class _Class:
    """Moves reaching the same map(s) up to symmetry: one set of rollouts serves them all."""

    maps: tuple[FastMap, ...]
    phase: int  # solo phase after the move (SOLO_NORMAL, a bonus map, SOLO_OVER); unused for one map
    screen: float  # the rollout policy's evaluation (oriented: higher = better for the objective)
    raw_screen: float  # the same, not oriented
    sign: float = 1.0  # +1: higher final score is better for the objective; -1 (hurt the owner): lower
    samples: list[float] = field(default_factory=list)
    stage: Stage = Stage.SCREENED_OUT
    stage_round: int = 0
    # Finalists: samples[fresh_from:] were drawn in the last round (DECIDE_ON_ALL_SAMPLES = 0 decides on them).
    fresh_from: int | None = None
    # The top move only: rollouts on futures drawn after the race chose it (indices past every raced future).
    confirm: list[float] = field(default_factory=list)


# ---------------------------------------------------------------------------------------------------------
# Public entry point
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HintOptions:
    """The hint's knobs. `objective`: on a neighbour's map, hurt (OWNER_WORST, default) or help the owner (the
    other modes always maximise your own value); `missing_penalty`: the rollout policy's penalty for an element
    still missing; `rollouts`: replaces the schedule's planned total (a machine-independent way to ask for a given
    effort; the budget still stops it); `multiplayer_value`: what a multi-player hint ranks by (the margin over the
    best other player, default, or your own score); `seed`: fixes the sampled futures (same seed, same budget time
    limit -> same answer unless the deadline interrupts the schedule, see the module docs)."""

    objective: Objective | str = Objective.OWNER_WORST
    missing_penalty: float = DEFAULT_MISSING_PENALTY
    rollouts: int | None = None
    multiplayer_value: MultiplayerValue | str = MultiplayerValue.MARGIN
    seed: int = 0


@dataclass(frozen=True)
class MapTurn:
    """A roll to draw on one map with no other map in play: a turn of the single-map game (doubles are plain
    rolls; `maximise.clairvoyant_max`'s game), or with `neighbour_map` a multi-player double drawn on the
    neighbour's map (its options `modes.multiplayer_options`: Noisy Neighbours frees the shape). `hint`
    validates the map and the roll."""

    grid: Grid
    roll: Roll
    challenges: tuple[Challenge, ...] = ()
    components: Components = DEFAULT_COMPONENTS
    neighbour_map: bool = False


#: What a Happy Campers hint is asked on: the rules model's state after a roll (`HappyCampersState`: a solo game's
#: turn, or a multi-player game's drawing on the map `to_draw[0]`), or one map alone (`MapTurn`).
HintState = SoloState | MultiplayerState | MapTurn


def hint(state: HintState, budget: Budget | None = None, *, options: HintOptions = HintOptions()) -> HintResult:
    """Rank every legal move of the state's roll, best first, in the mode the state says (`HintMode`):

    - `SoloState` after its roll (SOLO): the moves the rules state offers now (a pair, one map's drawing, the
      extra turn, or map 1's drawing at `SoloStep.SECOND`); a state over answers blocked.
    - `MultiplayerState` after its roll, the map `to_draw[0]` due: on a plain roll its owner's (MULTIPLAYER; the
      other maps in seat order from the left neighbour, `bonus_turn` from the state), on a double the
      neighbour's drawing on it (NEIGHBOUR_MAP).
    - `MapTurn`: OWN_MAP, or NEIGHBOUR_MAP with `neighbour_map` (a double only).

    `budget` defaults to `DEFAULT_HINT_TIME_S`; `options` (`HintOptions`) hold the knobs. `turn_state` builds the
    state from maps and a roll (what the service and the benches hold).
    """
    clock = HintClock()
    budget = budget if budget is not None else Budget(DEFAULT_HINT_TIME_S)
    objective = Objective(options.objective)
    penalty = options.missing_penalty
    if isinstance(state, SoloState):
        mode, cards, components = HintMode.SOLO, state.challenges[0], state.components
        if state.current_player() == CHANCE:
            raise RulesError("roll", "the solo state must have its roll")
        setup = _solo_setup(state, penalty)
    elif isinstance(state, MultiplayerState):
        mode, cards, components, setup = _multiplayer_setup(state, options)
    else:
        mode = HintMode.NEIGHBOUR_MAP if state.neighbour_map else HintMode.OWN_MAP
        roll = validate_roll(state.roll)
        if mode is HintMode.NEIGHBOUR_MAP and roll[0] != roll[1]:
            raise RulesError("roll", "a move on the neighbour's map happens only on a double")
        cards, components = tuple(state.challenges), state.components
        start = validate_grid(state.grid, components)
        setup = _single_setup(start, _mode_options(roll, cards, mode, components), cards, components, penalty)
    if mode is not HintMode.NEIGHBOUR_MAP:
        objective = Objective.OWNER_BEST  # on your own maps you are the owner
    sign = -1.0 if objective is Objective.OWNER_WORST else 1.0
    return _rank(
        setup, mode, objective, sign, cards, components, budget, options.seed, clock, penalty, options.rollouts
    )


def _multiplayer_setup(
    state: MultiplayerState, options: HintOptions
) -> tuple[HintMode, tuple[Challenge, ...], Components, _Setup]:
    """The drawing due on map `to_draw[0]` of a multi-player state: its owner's on a plain roll, the neighbour's on a
    double."""
    if state.roll is None or not state.to_draw:
        raise RulesError("roll", "the multi-player state must have its roll and a map to draw")
    cards, components, roll = state.challenges, state.components, state.roll
    target = state.to_draw[0]
    grid = state.maps[target]
    if roll[0] == roll[1]:
        mode = HintMode.NEIGHBOUR_MAP
        options_here = _mode_options(roll, cards, mode, components)
        return mode, cards, components, _single_setup(grid, options_here, cards, components, options.missing_penalty)
    setup = _single_setup(grid, roll_options(roll), cards, components, options.missing_penalty)
    others = state.maps[target + 1 :] + state.maps[:target]  # seat order from the left neighbour
    setup.others = tuple(FastMap.from_grid(g, cards, components) for g in others)
    setup.pending_roll = roll
    setup.bonus_turn = state.bonus_turn
    setup.margin = MultiplayerValue(options.multiplayer_value) is MultiplayerValue.MARGIN
    setup.game_ends_after = state.bonus_turn
    if state.bonus_turn:
        setup.notes.append("the bonus turn: the game is over after this drawing")
    return HintMode.MULTIPLAYER, cards, components, setup


def turn_state(
    grid: Grid | None,
    roll: Roll,
    challenges: Iterable[Challenge] = (),
    components: Components = DEFAULT_COMPONENTS,
    *,
    mode: HintMode | str = HintMode.OWN_MAP,
    second_grid: Grid | None = None,
    second_challenges: Iterable[Challenge] | None = None,
    solo_double_gap: int = SOLO_DOUBLE_GAP,
    solo_last_turn_map: int | None = None,
    players: int | None = None,
    other_grids: Sequence[Grid] | None = None,
    bonus_turn: bool = False,
    solo_follow: Option | None = None,
) -> HintState:
    """The hint's state for `roll` on `grid` (None: an empty map) in `mode`, validated (a `RulesError` names the bad
    argument): what the service and the benches hold, as the rules model's state.

    SOLO: the `SoloState` of `grid` and `second_grid` after the roll (`second_challenges` default to `challenges`;
    `solo_double_gap` the doubles' gap rule; `solo_last_turn_map` (0 or 1): the other map is out and this roll is
    the one extra turn of that map; `solo_follow`: map 0 is already drawn this turn and map 1 must take this
    option, `SoloStep.SECOND`). MULTIPLAYER (your own map on a plain roll): the `MultiplayerState` with you in seat
    0 drawing, `other_grids` the other players' maps in seat order (your left neighbour first, your right neighbour
    last; omitted: blank maps, then `players` says how many players there are), `bonus_turn` this roll is the bonus
    turn (the game ends after it). OWN_MAP and NEIGHBOUR_MAP: a `MapTurn`."""
    mode = HintMode(mode)
    roll = validate_roll(roll)
    cards = tuple(challenges)
    if mode is HintMode.SOLO:
        second_cards = tuple(second_challenges) if second_challenges is not None else cards
        maps = (
            grid if grid is not None else empty_grid(components),
            second_grid if second_grid is not None else empty_grid(components),
        )
        # The rules model validates (solo maps may hold detached pieces) and decides the turn's moves.
        before = SoloState.new((cards, second_cards), components, maps, solo_double_gap, solo_last_turn_map)
        return _solo_second(before, roll, solo_follow) if solo_follow is not None else before.child(roll)
    if solo_last_turn_map is not None:
        raise RulesError("solo_last_turn_map", "only in solo mode")
    if solo_follow is not None:
        raise RulesError("solo_follow", "only in solo mode")
    if mode is not HintMode.MULTIPLAYER:
        for name, value in (("players", players), ("other_grids", other_grids), ("bonus_turn", bonus_turn or None)):
            if value is not None:
                raise RulesError(name, "only in multi-player mode")
    elif roll[0] == roll[1]:
        raise RulesError(
            "roll", "on a double your map is drawn by a neighbour and you draw on theirs (neighbour_map mode)"
        )
    if mode is HintMode.NEIGHBOUR_MAP and roll[0] != roll[1]:
        raise RulesError("roll", "a move on the neighbour's map happens only on a double")
    start = validate_grid(grid, components) if grid is not None else empty_grid(components)
    if mode is not HintMode.MULTIPLAYER:
        return MapTurn(start, roll, cards, components, mode is HintMode.NEIGHBOUR_MAP)
    maps = (start, *_other_maps(players, other_grids, components))
    return MultiplayerState(
        maps, cards, components, (True,) * len(maps), bonus_turn=bool(bonus_turn), roll=roll, to_draw=(0,)
    )


@dataclass
class _Setup:
    """Moves (each a tuple of per-map placements) and their position classes."""

    moves: list[HintMove]
    move_class: list[int]
    classes: list[_Class]
    blocked: bool
    blocked_maps: tuple[int, ...]
    game_ends_after: bool
    unlisted_pairs: int
    solo: bool
    notes: list[str]
    grids: tuple[Grid, ...] = ()
    options: tuple[Option, ...] = ()  # one-map modes: the options of the roll on this map
    turn: SoloState | None = None  # solo: the rules model's state after the roll
    double_gap: int = SOLO_DOUBLE_GAP
    others: tuple[FastMap, ...] | None = None  # multi-player: the other players' maps (seat order)
    pending_roll: Roll | None = None  # multi-player: this turn's roll, still to be drawn on the other maps
    bonus_turn: bool = False  # multi-player: this turn is the bonus turn
    margin: bool = False  # multi-player: values are your margin over the best other player


def _other_maps(players: int | None, other_grids: Sequence[Grid] | None, components: Components) -> list[Grid]:
    """The other players' maps, validated like yours (`MultiplayerState` requires connected maps)."""
    if players is not None and (isinstance(players, bool) or not isinstance(players, int) or players < 2):
        raise RulesError("players", "the multi-player game needs at least 2 players")
    if other_grids is None:
        if players is None:
            raise RulesError("players", "give the number of players or the other players' maps")
        return [empty_grid(components)] * (players - 1)
    grids = [validate_grid(g, components) for g in other_grids]
    if not grids:
        raise RulesError("other_grids", "the multi-player game needs at least one other map")
    if players is not None and players != len(grids) + 1:
        raise RulesError("players", f"{players} players but {len(grids)} other maps (one per other player)")
    return grids


def _mode_options(
    roll: Roll, cards: Sequence[Challenge], mode: HintMode, components: Components = DEFAULT_COMPONENTS
) -> tuple[Option, ...]:
    """The options of the roll on the hinted map, from the rules model: the single-map game's own roll
    options (`rules.roll_options`), or on the neighbour's map the multi-player options of a double
    (`modes.multiplayer_options`: Noisy Neighbours frees the shape)."""
    if mode is HintMode.NEIGHBOUR_MAP:
        return multiplayer_options(roll, cards, components)
    return roll_options(roll)


def _single_setup(
    start: Grid, options: tuple[Option, ...], cards: tuple[Challenge, ...], components: Components, penalty: float
) -> _Setup:
    """One-map moves: every drawing the rules model lists for the options (`legal_placements_for_option`)."""
    fast = FastMap.from_grid(start, cards, components)
    flat = [v for row in start for v in row]
    perms = _symmetries(components.rows, components.cols)
    placements = [p for option in options for p in legal_placements_for_option(start, option, components)]
    candidates = [candidate_of(p, components) for p in placements]
    gains = rollout_policy(penalty).values(fast, candidates)
    moves: list[HintMove] = []
    move_class: list[int] = []
    classes: list[_Class] = []
    index_of: dict[tuple[int, ...], int] = {}
    for placement, candidate, gain in zip(placements, candidates, gains, strict=True):
        mask, around, element = candidate[:3]
        key = _canonical(_flat_after(flat, mask, element), perms)
        if key not in index_of:
            after = fast.copy()
            after.commit(mask, around, element)
            index_of[key] = len(classes)
            classes.append(_Class((after,), SOLO_NORMAL, gain, gain))
        moves.append(HintMove((placement,)))
        move_class.append(index_of[key])
    return _Setup(moves, move_class, classes, not moves, (), False, 0, False, [], (start,), options)


def _solo_second(state: SoloState, roll: Roll, follow: Option) -> SoloState:
    """The rules state between the two drawings of a two-map turn (map 0 drawn, map 1 due with `follow`)."""
    if follow not in roll_options(roll):
        raise RulesError("solo_follow", "an option of the roll")
    if state.last_turn_map is not None:
        raise RulesError("solo_follow", "not in the extra turn (one map only)")
    turn = replace(state, roll=roll, step=SoloStep.SECOND, allowed=((1, follow),))
    if not turn.legal_actions():
        raise RulesError("solo_follow", "map 1 cannot take this option")
    return turn


#: A solo move before its class is known: the candidate or None per map, the placement or None per map, the phase
#: after the move.
_SoloCombo = tuple[tuple[Candidate | None, ...], tuple[Placement | None, ...], int]


def _solo_setup(turn: SoloState, penalty: float) -> _Setup:
    """Solo moves exactly as `modes.SoloState` allows them at `turn` (after the roll): pairs (one option per map, a
    double on both with the gap rule), a single drawing when no assignment fits both maps (that map then gets one
    extra turn, the other is out), the extra turn itself, or map 1's drawing completing a two-map turn. The
    rollouts continue with `policies.modes_solo_rollout`, which follows the same flow."""
    grids = turn.maps
    if turn.current_player() == TERMINAL:
        notes = ["no drawing fits: the game is over"]
        return _Setup([], [], [], True, (0, 1), True, 0, True, notes, grids, (), turn, turn.double_gap)
    components = turn.components
    maps = tuple(FastMap.from_grid(g, cards, components) for g, cards in zip(grids, turn.challenges, strict=True))
    if turn.step is SoloStep.FIRST_OF_TWO:
        combos, unlisted, notes = _solo_pairs(turn, maps, penalty)
        blocked_maps: tuple[int, ...] = ()
    else:
        combos, blocked_maps, notes = _solo_singles(turn)
        unlisted = 0
    ends = turn.step not in (SoloStep.FIRST_OF_TWO, SoloStep.SECOND)
    moves, move_class, classes = _solo_classes(turn, maps, combos, penalty)
    return _Setup(
        moves,
        move_class,
        classes,
        not moves,
        blocked_maps,
        ends,
        unlisted,
        True,
        notes,
        grids,
        (),
        turn,
        turn.double_gap,
    )


def _solo_pairs(turn: SoloState, maps: tuple[FastMap, ...], penalty: float) -> tuple[list[_SoloCombo], int, list[str]]:
    """A two-map turn's pairs: per opening option, the top `SOLO_PER_MAP_KEEP` drawings of each map paired; the
    count of legal pairs left out, and a note saying so."""
    components = turn.components
    combos: list[_SoloCombo] = []
    unlisted = 0
    for _, option in turn.allowed:
        left = turn.drawings(0, option)
        right = turn.drawings(1, turn.follow_option(option))
        kept_left = _top(maps[0], left, penalty, SOLO_PER_MAP_KEEP, components)
        kept_right = _top(maps[1], right, penalty, SOLO_PER_MAP_KEEP, components)
        unlisted += len(left) * len(right) - len(kept_left) * len(kept_right)
        combos.extend(((x[1], y[1]), (x[0], y[0]), SOLO_NORMAL) for x in kept_left for y in kept_right)
    notes = [f"{unlisted} legal pairs not listed: a side was outside the top {SOLO_PER_MAP_KEEP} of its map"]
    return combos, unlisted, notes if unlisted else []


def _solo_singles(turn: SoloState) -> tuple[list[_SoloCombo], tuple[int, ...], list[str]]:
    """A one-map drawing (map 1's second drawing, the one drawing when no pair fits, or the extra turn): every
    drawing the state allows, the maps that cannot take the roll, and a note on where the turn stands."""
    last_turn = turn.step is SoloStep.LAST_TURN
    second = turn.step is SoloStep.SECOND
    open_maps = {m for m, _ in turn.allowed}
    blocked_maps = () if second else tuple(m for m in (0, 1) if m not in open_maps)
    if second:
        note = "the second drawing of the turn: map 0 is drawn, map 1 takes the roll's other option"
    elif last_turn:
        note = f"the one extra turn of map {turn.last_turn_map + 1}: a double is a plain roll"
    elif blocked_maps:
        survivor = 1 - blocked_maps[0]
        note = (
            f"map {blocked_maps[0] + 1} cannot take the roll: one drawing on map {survivor + 1}, "
            "then its one extra turn"
        )
    else:
        note = (
            "no assignment fits both maps: one drawing on one map; the other map is out and the drawn "
            "map gets one extra turn"
        )
    combos: list[_SoloCombo] = []
    for m, option in turn.allowed:
        phase = SOLO_OVER if last_turn else SOLO_NORMAL if second else m
        for placement in turn.drawings(m, option):
            candidate = candidate_of(placement, turn.components)
            pair_c = (candidate, None) if m == 0 else (None, candidate)
            pair_p = (placement, None) if m == 0 else (None, placement)
            combos.append((pair_c, pair_p, phase))
    return combos, blocked_maps, [note]


def _solo_classes(
    turn: SoloState, maps: tuple[FastMap, ...], combos: list[_SoloCombo], penalty: float
) -> tuple[list[HintMove], list[int], list[_Class]]:
    """The solo moves and their position classes (both maps up to symmetry, and the phase after the move), each
    class screened by the lower map's greedy evaluation gained."""
    flats = [[v for row in g for v in row] for g in turn.maps]
    perms = _symmetries(turn.components.rows, turn.components.cols)
    evals = [fast.evaluation(penalty) for fast in maps]
    moves: list[HintMove] = []
    move_class: list[int] = []
    classes: list[_Class] = []
    index_of: dict[tuple[object, ...], int] = {}
    gain_cache: dict[tuple[int, int, int, int], float] = {}
    for pair, placements, phase in combos:
        after_evals = list(evals)
        keys: list[tuple[int, ...]] = []
        for m, candidate in enumerate(pair):
            if candidate is None:
                keys.append(_canonical(flats[m], perms))
                continue
            cache_key = (m, *candidate[:3])
            if cache_key not in gain_cache:
                gain_cache[cache_key] = maps[m].gains((candidate,), penalty)[0]
            after_evals[m] += gain_cache[cache_key]
            keys.append(_canonical(_flat_after(flats[m], candidate[0], candidate[2]), perms))
        key = (*keys, phase)
        if key not in index_of:
            index_of[key] = len(classes)
            screen = min(after_evals) - min(evals)
            classes.append(_Class(_solo_after(maps, pair), phase, screen, screen))
        moves.append(HintMove(placements))
        move_class.append(index_of[key])
    return moves, move_class, classes


def _solo_after(maps: tuple[FastMap, ...], pair: tuple[Candidate | None, ...]) -> tuple[FastMap, ...]:
    """Both maps after a solo move (copies; a None side is not drawn)."""
    after_maps = []
    for m, candidate in enumerate(pair):
        fast = maps[m].copy()
        if candidate is not None:
            fast.commit(*candidate[:3])
        after_maps.append(fast)
    return tuple(after_maps)


def _top(
    fast: FastMap, placements: list[Placement], penalty: float, keep: int, components: Components
) -> list[tuple[Placement, Candidate]]:
    """The `keep` drawings with the best greedy gain (ties: rules-model order), with their candidates."""
    candidates = [candidate_of(p, components) for p in placements]
    gains = fast.gains(candidates, penalty)
    order = sorted(range(len(candidates)), key=lambda i: (-gains[i], i))
    return [(placements[i], candidates[i]) for i in order[:keep]]


# ---------------------------------------------------------------------------------------------------------
# Allocation: screening and successive halving on common futures
# ---------------------------------------------------------------------------------------------------------


def planned_rollouts(
    time_limit_s: float,
    cards: Iterable[Challenge],
    solo: bool,
    empty_share: float = 1.0,
    moves: int = 0,
    *,
    maps_played: int = 1,
) -> int:
    """The fixed schedule's total rollouts: a nominal rate times the planned share of the time limit.

    Never measured, so it is the same on every machine. The nominal rate is for whole games from an empty
    map; a rollout from a fuller map is shorter (fewer turns, fewer legal drawings per turn: about the
    square of the empty share), and listing/checking the moves costs a nominal time per move.
    """
    costly = len(COSTLY_CARDS & frozenset(cards))
    rate = NOMINAL_ROLLOUTS_PER_SECOND / (1.0 + COSTLY_CARD_FACTOR * costly)
    rate *= min(1.0 / max(empty_share, 1e-9) ** 2, MAX_SHORT_ROLLOUT_SPEEDUP)
    if solo:
        rate /= 2.0
    rate /= max(maps_played, 1)  # multi-player rollouts play every map
    seconds = max(time_limit_s * PLANNED_SHARE - moves * NOMINAL_SETUP_S_PER_MOVE, time_limit_s * 0.1)
    return max(int(seconds * rate), MIN_RACED * MIN_ROUND_SAMPLES)


class _Race:
    """One hint's Monte-Carlo race over the position classes: common futures for every class, the rollout
    clock (how long rollouts take, how many were run), and the stages: the only move valued, or an entry
    round by the screen, successive halving of the raced classes and the chosen move's confirmation.

    `_rank` runs one race and answers with its result; the race's counters are what the answer reports."""

    def __init__(
        self,
        setup: _Setup,
        sign: float,
        cards: tuple[Challenge, ...],
        components: Components,
        budget: Budget,
        seed: int,
        penalty: float,
    ) -> None:
        _replay_check(setup, components)
        self.setup, self.cards, self.components, self.budget = setup, cards, components, budget
        self.classes = setup.classes
        for c in self.classes:
            c.sign = sign
            c.screen = sign * c.raw_screen
        self.tables = board_tables(components)
        self.futures = _Futures(seed, self.tables.max_turns())
        self.policy = rollout_policy(penalty)
        self.penalty = penalty
        self.rollouts_done = 0
        self.longest_rollout = 0.0
        self.rollout_time = 0.0  # budget-clock seconds spent in rollouts
        self.pending_confirm = 0  # confirmation rollouts the race must leave time for
        self.answer_cpu_s = ANSWER_CPU_S_PER_MOVE * len(setup.moves)
        self.interrupted = False
        self.rounds = 0
        self.raced: list[int] = []
        self.top: _Class | None = None

    def reserve(self) -> float:
        """Time kept back for ranking and answering: a share of the limit plus the answer's CPU cost per listed
        move, stretched by this process's CPU share on a loaded machine (1 for a CpuBudget)."""
        return ANSWER_RESERVE_SHARE * self.budget.time_limit_s + self.answer_cpu_s / self.budget.cpu_share()

    def sample(self, c: _Class, index: int) -> float:
        """One rollout of class `c` on future `index` (the same future for every class: common random numbers)."""
        setup, components, policy = self.setup, self.components, self.policy
        dice, keys = self.futures.get(index)
        if setup.solo:
            return float(
                modes_solo_rollout(
                    [m.copy() for m in c.maps], c.phase, dice, keys, components, self.penalty, setup.double_gap
                )
            )
        if c.phase == SOLO_OVER:
            return float(c.maps[0].final_score())
        if setup.others is not None:
            maps = [c.maps[0].copy(), *(m.copy() for m in setup.others)]
            return float(
                multiplayer_rollout(
                    maps,
                    setup.pending_roll,
                    setup.bonus_turn,
                    dice,
                    keys,
                    policy,
                    self.cards,
                    components,
                    margin=setup.margin,
                )
            )
        start = c.maps[0].copy()
        if vector_supports(start):
            return float(vector_rollout(start, dice, keys, policy, components))
        return float(rollout(start, dice, keys, policy, components))

    def extend(self, group: Sequence[_Class], target: int) -> None:
        """Bring every class of `group` to `target` samples, one future at a time across the whole group
        (layer by layer). On interruption only the unfinished layer is undone: every class keeps the same
        completed futures (so paired comparisons stay paired) and SolveInterrupted propagates; the caller
        answers with what the completed layers show (anytime, "the best so far")."""
        if not group:
            return
        budget = self.budget
        try:
            for index in range(min(len(c.samples) for c in group), target):
                for c in group:
                    if len(c.samples) <= index:
                        budget.check()
                        # Stop early enough that one more rollout (as slow as the slowest so far, with
                        # slack for a loaded machine) and the answer still fit before the deadline.
                        # The race also leaves time for the top move's confirmation rollouts.
                        mean_rollout = self.rollout_time / max(self.rollouts_done, 1)
                        kept_back = _confirm_count(self.pending_confirm, self.rollouts_done) * mean_rollout
                        if budget.remaining() < self.reserve() + ROLLOUT_SLACK * self.longest_rollout + kept_back:
                            raise SolveInterrupted("deadline")
                        begun = budget.elapsed()  # the budget's own clock: CPU seconds for a CpuBudget
                        c.samples.append(self.sample(c, index))
                        spent = budget.elapsed() - begun
                        self.longest_rollout = max(self.longest_rollout, spent)
                        self.rollout_time += spent
                        self.rollouts_done += 1
                budget.report(samples=self.rollouts_done, depth=index + 1)
        except SolveInterrupted:
            layer = min(len(c.samples) for c in group)
            for c in group:
                self.rollouts_done -= len(c.samples) - layer
                del c.samples[layer:]
            raise

    def planned_total(self, planned: int | None) -> int:
        """The rollouts this race plans: the caller's number (at least a minimal race) or what the time pays."""
        if planned is not None:
            return max(planned, MIN_RACED * MIN_ROUND_SAMPLES)
        setup = self.setup
        drawn = (sum(1 for row in g for v in row if v) for g in setup.grids)
        empty_share = max((1.0 - g_drawn / self.tables.cells for g_drawn in drawn), default=1.0)
        return planned_rollouts(
            self.budget.time_limit_s,
            self.cards,
            setup.solo,
            empty_share,
            len(setup.moves),
            maps_played=1 + len(setup.others or ()),
        )

    def run(self, planned: int | None) -> None:
        """The whole race: the only move valued, or the entry round, the halving and the confirmation."""
        classes = self.classes
        order = sorted(range(len(classes)), key=lambda i: (-classes[i].screen, i))
        total = self.planned_total(planned)
        if len(classes) == 1:
            self.value_only_move(total)
        elif classes:
            confirm_total = self.race(order, total)
            self.top = _decided_top(classes)
            top = self.top
            if top is not None and confirm_total and len(top.samples) >= MIN_LAYERS_TO_RANK:
                self.confirm(top, confirm_total)

    def value_only_move(self, total: int) -> None:
        """A single class: no race, only a value for it (every sample fresh)."""
        only = self.classes[0]
        only.stage = Stage.ONLY_MOVE
        only.fresh_from = 0  # nothing is selected: every sample is fresh
        self.raced = [0]
        self.top = only
        try:
            self.extend([only], max(total // 4, MIN_CONFIRM_SAMPLES))  # a value for the only move
            self.rounds = 1
        except SolveInterrupted:
            self.interrupted = True

    def race(self, order: list[int], total: int) -> int:
        """Entry round and successive halving; returns the confirmation rollouts planned (0: none)."""
        classes = self.classes
        race_count = min(len(classes), max(MIN_RACED, int(total * (1 - SCREEN_SHARE)) // ROLLOUTS_PER_RACED))
        # Entry round: the best classes by the rollout policy's evaluation (as many as the screening share pays for,
        # at least the race) get SCREEN_SAMPLES rollouts each; the best of them by mean enter the race.
        entry_count = min(len(classes), max(race_count, int(total * SCREEN_SHARE) // SCREEN_SAMPLES))
        entry = [classes[i] for i in order[:entry_count]]
        try:
            self.extend(entry, SCREEN_SAMPLES)
            self.rounds = 1
        except SolveInterrupted:
            # The entry classes were chosen by the screen alone, not by their rollouts: the completed
            # layers are fresh samples of each, ranked among themselves.
            self.interrupted = True
            self.raced = [order[k] for k in range(entry_count)]
            for c in entry:
                c.stage = Stage.FINALIST
                c.fresh_from = 0
            return 0
        by_mean = sorted(range(entry_count), key=lambda k: (-_oriented_mean(entry[k]), k))
        self.raced = [order[k] for k in sorted(by_mean[:race_count])]
        for k in by_mean[race_count:]:
            entry[k].stage = Stage.HALVED_OUT
            entry[k].stage_round = 0
        confirm_total = max(MIN_CONFIRM_SAMPLES, int(total * CONFIRM_SHARE))
        race_total = max(total - SCREEN_SAMPLES * entry_count - confirm_total, MIN_ROUND_SAMPLES * len(self.raced))
        self.pending_confirm = confirm_total
        self.interrupted, race_rounds = _successive_halving([classes[i] for i in self.raced], race_total, self.extend)
        self.pending_confirm = 0
        self.rounds += race_rounds
        return confirm_total

    def confirm(self, top: _Class, confirm_total: int) -> None:
        """Fresh futures for the chosen move alone: past every future the race used, so its value is unbiased."""
        budget = self.budget
        offset = max(len(c.samples) for c in self.classes)
        try:
            for k in range(_confirm_count(confirm_total, self.rollouts_done)):
                budget.check()
                if budget.remaining() < self.reserve() + ROLLOUT_SLACK * self.longest_rollout:
                    raise SolveInterrupted("deadline")
                begun = budget.elapsed()
                top.confirm.append(self.sample(top, offset + k))
                self.longest_rollout = max(self.longest_rollout, budget.elapsed() - begun)
                self.rollouts_done += 1
            budget.report(samples=self.rollouts_done)
        except SolveInterrupted:
            self.interrupted = True

    def result(self, mode: HintMode, objective: Objective, sign: float, clock: HintClock) -> HintResult:
        """The answer: every move ranked by the race (or by the screen when the race could not rank them)."""
        setup, classes, top, interrupted = self.setup, self.classes, self.top, self.interrupted
        finalist_samples = [len(c.samples) for c in classes if c.stage in (Stage.FINALIST, Stage.ONLY_MOVE)]
        by_screen = bool(classes) and (
            top is None or (interrupted and max(finalist_samples, default=0) < MIN_LAYERS_TO_RANK)
        )
        if by_screen and classes:
            setup.notes.append(
                f"the deadline stopped the race before {MIN_LAYERS_TO_RANK} futures a move: every move is ordered by "
                "the rollout policy's evaluation (the rule of thumb) and listed without a value"
            )
        alternatives = _alternatives(setup, sign, None if by_screen else top)
        _set_notes(alternatives, by_screen, objective)
        return HintResult(
            mode=mode,
            objective=objective,
            choices=tuple(alternatives),
            blocked=setup.blocked,
            blocked_maps=setup.blocked_maps,
            game_ends_after=setup.game_ends_after,
            legal_moves=len(setup.moves),
            unlisted_pairs=setup.unlisted_pairs,
            position_classes=len(classes),
            raced_classes=len(self.raced),
            rollouts=self.rollouts_done,
            futures=max((len(c.samples) for c in classes), default=0),
            rounds=self.rounds,
            interrupted=interrupted,
            wall_time_s=clock.wall(),
            cpu_time_s=clock.cpu(),
            method=(
                SOLO_METHOD
                if setup.solo
                else (MULTIPLAYER_MARGIN_METHOD if setup.margin else MULTIPLAYER_METHOD)
                if setup.others is not None
                else OWN_MAP_METHOD
            ),
            ranked_by_screen=by_screen,
            notes=tuple(setup.notes),
        )


def _rank(
    setup: _Setup,
    mode: HintMode,
    objective: Objective,
    sign: float,
    cards: tuple[Challenge, ...],
    components: Components,
    budget: Budget,
    seed: int,
    clock: HintClock,
    penalty: float,
    planned: int | None,
) -> HintResult:
    """Rank the setup's moves by one Monte-Carlo race (`_Race`) and answer with the result."""
    race = _Race(setup, sign, cards, components, budget, seed, penalty)
    race.run(planned)
    return race.result(mode, objective, sign, clock)


SOLO_METHOD = "monte-carlo: greedy rollouts (solo), common random numbers, successive halving"
MULTIPLAYER_METHOD = (
    "monte-carlo: multi-player rollouts (every map played, hostile neighbours on doubles, bonus turn), "
    "common random numbers, successive halving"
)
MULTIPLAYER_MARGIN_METHOD = MULTIPLAYER_METHOD.replace(
    "monte-carlo: multi-player rollouts", "monte-carlo: multi-player rollouts, value = margin over the best rival"
)


class HintMismatch(RuntimeError):
    """The fast engine produced a drawing the rules model refuses: a bug, never a user error."""


def _replay_check(setup: _Setup, components: Components) -> None:
    """The listed moves come from the rules model; what is checked here is the fast engine the rollouts play
    the future with: at the root it must generate exactly the rules model's drawings (one-map modes:
    `FastMap.candidates` of every option; solo: `policies.solo_candidates` of every (map, option) the
    `SoloState` allows, gap rule included), so rollouts start from the same rules the move list uses."""
    if setup.solo:
        turn = setup.turn
        if turn is None or turn.current_player() != 0:
            return
        assert turn.roll is not None
        double = turn.roll[0] == turn.roll[1] and turn.step is not SoloStep.LAST_TURN
        pairs = list(turn.allowed)
        if turn.step is SoloStep.FIRST_OF_TWO:
            pairs += [(1, turn.follow_option(option)) for _, option in turn.allowed]
        checks = []
        for m, option in pairs:
            fast = FastMap.from_grid(turn.maps[m], (), components)
            ours = solo_candidates(fast, option.shape_face, option.element_face, components, double, turn.double_gap)
            checks.append((ours, set(turn.drawings(m, option))))
    else:
        fast = FastMap.from_grid(setup.grids[0], (), components)
        legal = {m.placements[0] for m in setup.moves}
        ours = [c for o in setup.options for c in fast.candidates(o.shape_face, o.element_face, components)]
        checks = [(ours, legal)]
    for candidates, legal in checks:
        generated = {candidate_placement(c, components.cols) for c in candidates}
        if generated != legal:
            raise HintMismatch(
                f"the rollout engine disagrees with the rules model: {len(generated - legal)} extra, "
                f"{len(legal - generated)} missing drawings"
            )


def _successive_halving(
    raced: list[_Class], race_total: int, extend: Callable[[Sequence[_Class], int], None]
) -> tuple[bool, int]:
    """Halve the raced classes each round by mean on shared futures; returns (interrupted, rounds done)."""
    survivors = list(raced)
    round_count = max(1, math.ceil(math.log2(len(survivors))))
    for c in survivors:
        c.stage = Stage.FINALIST
    done = 0
    for round_index in range(round_count):
        last = round_index == round_count - 1 or len(survivors) <= 1
        if round_count == 1:
            share = race_total
        elif last:
            share = race_total * FINAL_ROUND_SHARE
        else:
            share = race_total * (1.0 - FINAL_ROUND_SHARE) / (round_count - 1)
        start = len(survivors[0].samples) if survivors[0].samples else 0
        target = max(MIN_ROUND_SAMPLES, start + int(share // len(survivors)))
        if last:
            for c in survivors:
                c.fresh_from = start  # the final round's futures decide nothing about who is here
        try:
            extend(survivors, target)
        except SolveInterrupted:
            # Completed layers are kept (see `extend`); in the final round they are still fresh futures.
            if not last:
                for c in survivors:
                    c.fresh_from = None
            return True, done
        done += 1
        if last:
            break
        ranked = sorted(range(len(survivors)), key=lambda i: (-_oriented_mean(survivors[i]), i))
        keep = max(1, math.ceil(len(survivors) / 2))
        dropped = [survivors[i] for i in ranked[keep:]]
        for c in dropped:
            c.stage = Stage.HALVED_OUT
            c.stage_round = round_index + 1
        survivors = [survivors[i] for i in sorted(ranked[:keep])]
    return False, done


def _confirm_count(planned: int, raced: int) -> int:
    """Confirmation rollouts after `raced` race rollouts: the planned count, or less when the deadline cut the race
    (kept at the planned proportion CONFIRM_SHARE of the rollouts, at least MIN_CONFIRM_SAMPLES)."""
    if planned <= 0:
        return 0
    share = CONFIRM_SHARE / max(1.0 - CONFIRM_SHARE, 1e-9)
    return min(planned, max(MIN_CONFIRM_SAMPLES, math.ceil(share * raced)))


def _decision_window(c: _Class) -> slice:
    """The futures the race's last comparison among the finalists was made on."""
    if not DECIDE_ON_ALL_SAMPLES and c.fresh_from is not None and len(c.samples) > c.fresh_from:
        return slice(c.fresh_from, len(c.samples))
    return slice(0, len(c.samples))


def _decided_top(classes: Sequence[_Class]) -> _Class | None:
    """The move the race chose: among the classes that survived every round (all on the same futures), the best
    mean on the decision window; None when no survivor has a rollout (then the rule of thumb decides)."""
    survivors = [(k, c) for k, c in enumerate(classes) if c.stage in (Stage.FINALIST, Stage.ONLY_MOVE) and c.samples]
    if not survivors:
        return None
    return min(survivors, key=lambda kc: (-kc[1].sign * float(np.mean(kc[1].samples[_decision_window(kc[1])])), kc[0]))[
        1
    ]


def _survival(c: _Class) -> int:
    """How far a class got in the race: finalists (and an only move) above every class halved out, later
    rounds above earlier ones. Ranking by it first keeps a class with two lucky rollouts, dropped in the
    entry round, from outranking a finalist with hundreds; values are compared within one level."""
    if c.stage in (Stage.FINALIST, Stage.ONLY_MOVE):
        return 1_000_000
    if c.stage is Stage.HALVED_OUT:
        return c.stage_round
    return -1


def _oriented_mean(c: _Class) -> float:
    return c.sign * float(np.mean(c.samples))


def _shrunk_variance(variance: float, n: int, pooled: float) -> float:
    """The class's sample variance pulled towards the pooled one by VARIANCE_PRIOR_WEIGHT pseudo-samples."""
    own = max(n - 1, 0)
    return (own * variance + VARIANCE_PRIOR_WEIGHT * pooled) / (own + VARIANCE_PRIOR_WEIGHT)


def _top_variance(fresh: np.ndarray, race: np.ndarray | None, pooled: float) -> float:
    """Variance of one rollout of the top move, for the standard error of its fresh mean.

    The move's own spread, from every rollout it had (the fresh ones around their mean and the race's around
    theirs, pulled towards `pooled` by VARIANCE_PRIOR_WEIGHT pseudo-samples), but never below `pooled`, the
    spread of all the position's sampled moves. Why: final scores have a long low tail, and 10-20 rollouts that
    missed it read both high and narrow, so with the fresh rollouts' own variance the misses all fell high
    (top-move coverage 0.915, sd of z 1.17, 7 of 8 misses high on 94 positions); the race's rollouts of the
    chosen move are the lucky ones and read narrow too (median 0.90 of the pooled variance). This rule: 0.953,
    sd of z 1.03 on the same positions (bench/happy_campers_hint_coverage.py, development seeds 6,100,000+)."""
    groups = [fresh] if race is None or len(race) < 2 else [fresh, race]
    df = sum(max(len(g) - 1, 0) for g in groups)
    within = sum(float(np.var(g, ddof=1)) * (len(g) - 1) for g in groups if len(g) > 1) / df if df else 0.0
    return max((df * within + VARIANCE_PRIOR_WEIGHT * pooled) / (df + VARIANCE_PRIOR_WEIGHT), pooled)


def _pooled(vectors: Iterable[np.ndarray]) -> float:
    weight = 0
    total = 0.0
    for x in vectors:
        if len(x) >= 2:
            total += float(np.var(x, ddof=1)) * (len(x) - 1)
            weight += len(x) - 1
    return total / weight if weight else 0.0


def _alternatives(setup: _Setup, sign: float, top: _Class | None) -> list[HintAlternative]:
    """The ranked alternatives, ranked by what the race decided on, with values that say the same.

    `top`: the move the race chose (None: the deadline cut the race too early, or nothing was sampled; then every
    move is ordered by the rollout policy's evaluation and listed without a value). Otherwise, in the oriented
    scale (higher = better for the objective):
    - the top move's value is the mean of its confirmation rollouts (fresh futures: unbiased; an only move's
      rollouts are all fresh) from 2 of them on, its standard error from `_top_variance`; when the deadline cut
      the confirmation below 2, the mean of every rollout it had (estimate "selection": the maximum of noisy
      means, may read high), and then no standard error for it or the values below (they are built on it);
    - every other sampled move's loss is its paired shortfall against the top move on the futures the two
      shared when the race compared them (>= 0 by construction of successive halving: the top move beat every
      move it eliminated on exactly those futures), and its value is the top value minus that loss (estimate
      "paired": the move was dropped on those futures, so it may read low);
    - moves are ranked by that loss: rank order is value order, loss = best - value.
    """
    classes = setup.classes
    members: dict[int, list[int]] = {}
    for move_index, class_index in enumerate(setup.move_class):
        members.setdefault(class_index, []).append(move_index)
    first_move = {k: moves[0] for k, moves in members.items()}
    est = _Estimates()
    if top is not None:
        oriented = [sign * np.asarray(c.samples, dtype=float) for c in classes]
        t, top_var, m = _estimate_top(est, classes, oriented, top, sign)
        _estimate_paired(est, classes, oriented, t, top_var, m)
    class_order = sorted(
        range(len(classes)),
        key=lambda i: (
            (0, est.losses[i], -_survival(classes[i]), first_move.get(i, 0))
            if i in est.values
            else (1, -classes[i].screen, first_move.get(i, 0))
        ),
    )
    return _listed(setup, est, class_order, members, sign)


@dataclass
class _Estimates:
    """Per position class (index): the oriented value, its loss against the top, their standard errors, the
    samples behind the value, which estimate it is (see `_alternatives`)."""

    values: dict[int, float] = field(default_factory=dict)
    losses: dict[int, float] = field(default_factory=dict)
    errors: dict[int, float | None] = field(default_factory=dict)
    loss_errors: dict[int, float] = field(default_factory=dict)
    value_samples: dict[int, int] = field(default_factory=dict)
    estimates: dict[int, str] = field(default_factory=dict)


def _estimate_top(
    est: _Estimates, classes: Sequence[_Class], oriented: list[np.ndarray], top: _Class, sign: float
) -> tuple[int, float, int]:
    """The top move's value (fresh, or "selection" when the deadline cut its confirmation) and standard error;
    returns its class index, the variance of its value (NaN when none is claimed) and its sample count."""
    t = classes.index(top)
    y_top = oriented[t]
    confirm = sign * np.asarray(top.confirm, dtype=float)
    pooled = _pooled(y for y in oriented if len(y))
    if top.stage is Stage.ONLY_MOVE or len(confirm) >= 2:
        # Fresh futures only: unbiased whatever the race did.
        fresh = y_top if top.stage is Stage.ONLY_MOVE else confirm
        est.estimates[t] = "fresh"
        m = len(fresh)
        top_var = _top_variance(fresh, y_top if top.stage is not Stage.ONLY_MOVE else None, pooled) / m
        est.errors[t] = math.sqrt(top_var) if m > 1 else None
    else:
        # The deadline cut the confirmation: the mean of the rollouts that chose the move reads high by an
        # unknown amount (the winner's curse), so no standard error is claimed for it or for values built on it.
        fresh = np.concatenate([y_top, confirm])
        est.estimates[t] = "selection"
        m = len(fresh)
        top_var = math.nan
        est.errors[t] = None
    est.values[t], est.losses[t], est.loss_errors[t], est.value_samples[t] = float(fresh.mean()), 0.0, 0.0, m
    return t, top_var, m


def _estimate_paired(
    est: _Estimates, classes: Sequence[_Class], oriented: list[np.ndarray], t: int, top_var: float, m: int
) -> None:
    """Every other sampled move: its paired shortfall against the top move (`loss`) and value = top - loss."""
    top = classes[t]
    y_top = oriented[t]
    window = _decision_window(top)
    diffs: dict[int, np.ndarray] = {}
    for i, c in enumerate(classes):
        if i == t or not len(oriented[i]):
            continue
        n = len(oriented[i])
        # Finalists were compared with the top move on the decision window; moves halved out on every
        # future they had (the top move had the same ones when they were dropped).
        shared = window if c.stage is Stage.FINALIST else slice(0, n)
        diffs[i] = y_top[shared] - oriented[i][shared]
    pooled_diff = _pooled(diffs.values())
    for i, d in diffs.items():
        n = len(d)
        est.losses[i] = max(float(d.mean()), 0.0) + 0.0  # + 0.0: no -0.0
        est.values[i] = est.values[t] - est.losses[i]
        var_d = _shrunk_variance(float(np.var(d, ddof=1)) if n > 1 else 0.0, n, pooled_diff) / n
        est.loss_errors[i] = math.sqrt(var_d)
        # The top value's futures are disjoint from the compared ones: the variances add.
        est.errors[i] = math.sqrt(top_var + var_d) if n > 1 and est.errors[t] is not None else None
        est.value_samples[i] = min(n, m)
        est.estimates[i] = "paired"


def _listed(
    setup: _Setup, est: _Estimates, class_order: list[int], members: dict[int, list[int]], sign: float
) -> list[HintAlternative]:
    """Every move of every class in `class_order`, with its class's figures on the stated scale; moves whose
    values are exactly equal share a tie group."""
    tie_groups: dict[object, int] = {}
    alternatives: list[HintAlternative] = []
    for class_index in class_order:
        c = setup.classes[class_index]
        value = est.values.get(class_index)
        shown = sign * value if value is not None else None  # back to the stated scale (the owner's score)
        group_key: object = value if value is not None else ("unvalued", class_index)
        group = tie_groups.setdefault(group_key, len(tie_groups))
        for move_index in members.get(class_index, []):
            alternatives.append(
                HintAlternative(
                    rank=len(alternatives) + 1,
                    choice=setup.moves[move_index],
                    value=shown,
                    sample_value=shown,
                    standard_error=est.errors.get(class_index),
                    loss=est.losses.get(class_index),
                    loss_standard_error=est.loss_errors.get(class_index),
                    samples=len(c.samples) + len(c.confirm),
                    stage=c.stage,
                    stage_round=c.stage_round,
                    position_class=class_index,
                    tie_group=group,
                    screen_value=c.raw_screen,
                    value_samples=est.value_samples.get(class_index, 0),
                    estimate=est.estimates.get(class_index, ""),
                )
            )
    return alternatives


def _set_notes(alternatives: list[HintAlternative], by_screen: bool, objective: Objective) -> None:
    """Each ranked move's note (`hint_note`), with its exact tie group when other valued moves share it."""
    sign = -1.0 if objective is Objective.OWNER_WORST else 1.0
    ties = Counter(a.tie_group for a in alternatives)
    for alternative in alternatives:
        alternative.note = hint_note(alternative, by_screen, sign)
        if alternative.value is not None and ties[alternative.tie_group] > 1:
            alternative.note += f"; exact tie group {alternative.tie_group} (same map up to symmetry)"


def hint_note(alternative: HintAlternative, ranked_by_screen: bool, sign: float) -> str:
    """What a reader needs to read a ranked move's value: which estimate it is, or why it has none (`sign` -1:
    the value is shown as minus the map owner's expected final score, hurting the neighbour)."""
    scale = "minus the map owner's expected final score; " if sign < 0 else ""
    if alternative.value is None:
        if ranked_by_screen:
            first = "the rule of thumb's move: " if alternative.rank == 1 else ""
            return (
                f"{first}no value: the deadline cut the race after {alternative.samples} rollouts a move, too few to "
                f"rank by; ordered by the rollout policy's evaluation {alternative.screen_value:g}"
            )
        return (
            f"screened out before any rollout (the rollout policy's evaluation {alternative.screen_value:g} "
            "ranked it below the sampled moves)"
        )
    if alternative.estimate == "fresh":
        return f"{scale}value: mean of {alternative.value_samples} fresh rollouts after this move was chosen (unbiased)"
    if alternative.estimate == "selection":
        return (
            f"{scale}value: the deadline cut the confirmation rollouts, so this is the mean of the "
            f"{alternative.value_samples} rollouts that chose the move (may read high; no standard error claimed)"
        )
    how = "a finalist" if alternative.stage is Stage.FINALIST else f"halved out after round {alternative.stage_round}"
    return (
        f"{scale}value: rank 1's value minus this move's mean shortfall on the {alternative.value_samples} futures "
        f"it shared with rank 1 ({how}; it lost on those futures, so it may read low)"
    )
