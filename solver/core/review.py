"""Game review, written once for every game: each decision of a played game against the hint's best.

A record comes in as rules-model transitions, already checked by the rules model by whoever walked it (the
service from a NewGame/Play record, a tournament from its own play): `Act` (a player's action from a state) and
`Chance` (a chance step, its label and exact probability). `decisions` groups the actions into the decisions the
game's hint ranks (`Adapter.continues`: a Campsite turn is a card and a tent, a solo Happy Campers turn two
drawings, an Adventure Tours play the mover's run of decisions). `review` then ranks each decision with the
game's adapter (its hint, called through the hint's public function, from what the deciding player could see)
and computes:

- the loss of the move made: the best move's value minus the played move's (never negative; 0 when the played
  move is the best), in the unit of the hint's objective (`Ranking.unit`). A played move the ranking lists
  without a value (a budget cut, a screen) is valued on its own (`Adapter.evaluate`); when that fails too the
  decision says so (`Status.VALUE_MISSING`, with the reason) and stays out of the totals: never a silent 0;
- a mark from the game's thresholds (`Thresholds`: inaccuracy, mistake, blunder);
- per player: the total loss (the sum of the reviewed decisions' losses), an accuracy figure (the share of the
  reviewed, unforced decisions whose loss is below the inaccuracy threshold, in percent) and the three costliest
  decisions.

Budgets: each decision's ranking runs under its own CPU budget (`decision_cpu_s`, counted on this process's CPU
clock, `DecisionBudget`), which also stops at the whole review's deadline; a played move valued on its own gets
`EVALUATION_SHARE` of that budget more. The review is anytime: a decision is
started only while the review's budget has time left, a decision the deadline cuts is marked not reviewed, and so
is every later one; the answer is the decisions reviewed so far. Every loop here is over the record (one ranking a
step); the rankings check their own budgets.
"""

from __future__ import annotations

import enum
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

from campsolver.solver.core.budget import Budget, SolveInterrupted
from campsolver.solver.core.seeding import rng_for

#: Fewest samples behind a sample mean from which its standard error is stated (the service's hint contract:
#: `service.games.shared.MIN_SAMPLES_FOR_STANDARD_ERROR`).
MIN_SAMPLES_FOR_STANDARD_ERROR = 10
#: A decision is started only while the review's budget has at least this much wall time left.
MIN_DECISION_WALL_S = 0.02
#: A played move the ranking gives no value is valued on its own within this share of the decision's CPU budget,
#: on top of the ranking's (the ranking is the hint's at the full budget, as a player asking for a hint gets it).
EVALUATION_SHARE = 0.5
#: Losses at most this small count as none (floating-point rounding of equal values).
LOSS_TOLERANCE = 1e-9


class Status(enum.Enum):
    """What became of a decision (common.proto's `ReviewStatus`)."""

    REVIEWED = "reviewed"
    FORCED = "forced"
    NOT_REVIEWED = "not reviewed"
    VALUE_MISSING = "value missing"
    INCOMPLETE = "incomplete"
    NOT_RANKED = "not ranked"


class Mark(enum.Enum):
    """How much a reviewed decision cost (common.proto's `ReviewMark`)."""

    BEST = "best"
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


@dataclass(frozen=True)
class Thresholds:
    """Losses from which a decision is an inaccuracy, a mistake, a blunder (in `unit`), and why these numbers."""

    inaccuracy: float
    mistake: float
    blunder: float
    unit: str
    reason: str

    def __post_init__(self) -> None:
        if not 0 < self.inaccuracy < self.mistake < self.blunder:
            raise ValueError("thresholds must rise: 0 < inaccuracy < mistake < blunder")

    def mark(self, loss: float) -> Mark:
        if loss <= LOSS_TOLERANCE:
            return Mark.BEST
        if loss < self.inaccuracy:
            return Mark.GOOD
        if loss < self.mistake:
            return Mark.INACCURACY
        if loss < self.blunder:
            return Mark.MISTAKE
        return Mark.BLUNDER


# --- the record ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Act:
    """A player's action in the record: `after` is `state.child(action)`; `source` the record step it came from."""

    source: int
    state: Any
    action: Any
    after: Any


@dataclass(frozen=True)
class Chance:
    """A chance step of the record: what happened, in words, and its exact probability."""

    source: int
    label: str
    probability: Fraction


@dataclass(frozen=True)
class Decision:
    """One decision as the hint ranks it: the player's actions from `state` to `after` (one or several).
    `complete` is False when the record ends (or chance comes) inside it."""

    source: int
    player: int
    state: Any
    actions: tuple[Any, ...]
    after: Any
    complete: bool = True


Item = Decision | Chance


def decisions(entries: Sequence[Act | Chance], continues: Callable[[Any, Any, int], bool]) -> list[Item]:
    """Group the record's actions into decisions: consecutive actions of one player while `continues(start, now,
    player)` says the decision begun at `start` is still going on at `now`."""
    items: list[Item] = []
    run: list[Act] = []

    def flush() -> None:
        if run:
            player = run[0].state.current_player()
            last = run[-1].after
            ongoing = last.current_player() == player and continues(run[0].state, last, player)
            items.append(
                Decision(run[0].source, player, run[0].state, tuple(a.action for a in run), last, complete=not ongoing)
            )
            run.clear()

    for entry in entries:
        if isinstance(entry, Chance):
            flush()
            items.append(entry)
            continue
        player = entry.state.current_player()
        if run and player == run[0].state.current_player() and continues(run[0].state, entry.state, player):
            run.append(entry)
            continue
        flush()
        run.append(entry)
    flush()
    return items


# --- what an adapter answers ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Value:
    """A value in the ranking's unit: exact (`standard_error` 0), a sample mean (`samples`, its standard error),
    or an estimate with no sampling error to state (`standard_error` None, `samples` 0)."""

    value: float
    standard_error: float | None = None
    samples: int = 0
    exact: bool = False

    @property
    def shown_error(self) -> float | None:
        """The standard error a client is shown: 0 when exact, a sample mean's from 10 samples on, else none."""
        if self.exact:
            return 0.0
        if self.samples >= MIN_SAMPLES_FOR_STANDARD_ERROR and self.standard_error is not None:
            return self.standard_error
        return None


@dataclass(frozen=True)
class Choice:
    """One choice of the hint's list: the actions it stands for, a label, its value (None: not valued, `note`
    says why)."""

    actions: tuple[Any, ...]
    label: str
    value: Value | None
    note: str = ""


@dataclass(frozen=True)
class Ranking:
    """The hint's list at a decision, its answer first. The valued choices are one quantity, in `unit`."""

    choices: tuple[Choice, ...]
    unit: str
    note: str = ""
    interrupted: bool = False  # the decision's budget cut the ranking: its values depend on the budget


@dataclass(frozen=True)
class Valuation:
    """The played move valued on its own, when the ranking gives it no value. `ranking`: a replacement list
    whose valued choices are one quantity with it (the best is then read from there), or None (the first list's
    best stands)."""

    value: Value | None
    note: str
    ranking: Ranking | None = None
    #: The loss's own standard error when the valuation compares the two moves on paired samples (smaller than
    #: the two values' errors combined); None: combined from the two.
    loss_standard_error: float | None = None


class Adapter(Protocol):
    """What one game gives the review (`solver/<game>/review.py`)."""

    thresholds: Thresholds

    def continues(self, start: Any, now: Any, player: int) -> bool:
        """Whether the decision `player` began at `start` is still going on at `now` (a decision node of theirs)."""
        ...

    def label(self, state: Any, actions: tuple[Any, ...]) -> str:
        """The move made, in words."""
        ...

    def rank(self, decision: Decision, budget: Budget, seed: int, earlier: Sequence[Decision]) -> Ranking:
        """The hint's ranking at the decision, from the deciding player's information only (`earlier`: the
        record's decisions before it, for a hint that reads the opponents' style)."""
        ...

    def evaluate(
        self, decision: Decision, ranking: Ranking, budget: Budget, seed: int, earlier: Sequence[Decision]
    ) -> Valuation:
        """The played move's own value, when `ranking` gives it none."""
        ...

    # Optional: `not_ranked(decision) -> str`, why a decision is listed but not ranked ("" to rank it), for a
    # decision where the hint's value is not in the review's unit (Deluxe Camping's setup placements).


# --- the budget of one decision ------------------------------------------------------------------------------


class DecisionBudget(Budget):
    """A CPU-second budget (this process's CPU clock, as `CpuBudget`) that also ends at `parent`'s deadline and
    with `parent`'s cancel: one decision of a review. Its phases (`limited`, `sub_budget`) keep both limits."""

    _now = staticmethod(time.process_time)
    counts_cpu = True

    def __init__(self, time_limit_s: float, parent: Budget | None = None) -> None:
        super().__init__(time_limit_s)
        self.parent = parent
        if parent is not None:
            parent.on_cancel(self.cancel)

    def _remaining(self) -> float:
        own = max(self.deadline - self._now(), 0.0)
        return own if self.parent is None else min(own, self.parent.remaining())

    def expired(self) -> bool:
        return super().expired() or (self.parent is not None and self.parent.expired())

    def check(self) -> None:
        super().check()
        if self.parent is not None:
            self.parent.check()

    def _new_child(self, seconds: float) -> Budget:
        return DecisionBudget(seconds, self.parent)


# --- the review ----------------------------------------------------------------------------------------------


@dataclass
class Reviewed:
    """One decision's review."""

    decision: Decision
    status: Status
    played_label: str
    played: Value | None = None
    best_actions: tuple[Any, ...] | None = None
    best_label: str = ""
    best: Value | None = None
    loss: float | None = None
    loss_standard_error: float | None = None
    mark: Mark | None = None
    played_rank: int = 0
    choices: int = 0
    unit: str = ""
    note: str = ""
    cpu_s: float = 0.0
    interrupted: bool = False

    @property
    def exact(self) -> bool:
        return bool(self.played and self.best and self.played.exact and self.best.exact)


@dataclass
class PlayerSummary:
    """One player's totals over the review."""

    player: int
    decisions: int = 0
    reviewed: int = 0
    forced: int = 0
    not_reviewed: int = 0
    values_missing: int = 0
    total_loss: float = 0.0
    total_loss_standard_error: float | None = 0.0
    accuracy: float | None = None
    inaccuracies: int = 0
    mistakes: int = 0
    blunders: int = 0
    costliest: list[int] = field(default_factory=list)  # indices into `ReviewResult.items`

    @property
    def mean_loss(self) -> float:
        return self.total_loss / self.reviewed if self.reviewed else 0.0


@dataclass
class ReviewResult:
    items: list[Reviewed | Chance]
    players: list[PlayerSummary]
    thresholds: Thresholds
    decision_cpu_s: float
    complete: bool  # every decision reviewed (none left by the deadline)
    interrupted: bool  # some ranking was cut by its budget (its values depend on the budget)
    wall_s: float
    cpu_s: float


def _ranked_always(decision: Decision) -> str:
    return ""


def decision_seed(seed: int, index: int) -> int:
    """The seed of the ranking of item `index` (a stable function of the review's seed)."""
    return int(rng_for(seed, "review-decision", index).integers(2**62))


def review(
    items: Sequence[Item],
    adapter: Adapter,
    budget: Budget,
    *,
    players: int,
    decision_cpu_s: float,
    seed: int = 0,
) -> ReviewResult:
    """Review every decision of `items` (see the module docstring). SolveInterrupted only on a cancel."""
    started, cpu_started = time.monotonic(), time.process_time()
    out: list[Reviewed | Chance] = []
    earlier: list[Decision] = []
    stopped = ""  # why the rest is not reviewed (the deadline came)
    interrupted = False
    total = sum(isinstance(item, Decision) for item in items)
    for index, item in enumerate(items):
        if isinstance(item, Chance):
            out.append(item)
            continue
        label = adapter.label(item.state, item.actions)
        if not item.complete:
            out.append(
                Reviewed(
                    item,
                    Status.INCOMPLETE,
                    label,
                    note="the record ends inside this decision (part of a move the hint ranks as one): not ranked",
                )
            )
        elif stopped:
            out.append(Reviewed(item, Status.NOT_REVIEWED, label, note=stopped))
        elif skip := getattr(adapter, "not_ranked", _ranked_always)(item):
            out.append(Reviewed(item, Status.NOT_RANKED, label, note=skip))
        elif len(item.actions) == 1 and len(item.state.legal_actions()) == 1:
            out.append(Reviewed(item, Status.FORCED, label, loss=0.0, note="the only legal choice"))
        else:
            if budget.cancelled:
                raise SolveInterrupted("cancelled")
            if budget.expired() or budget.remaining() < MIN_DECISION_WALL_S:
                stopped = "not reviewed: the review's deadline came first"
                out.append(Reviewed(item, Status.NOT_REVIEWED, label, note=stopped))
            else:
                reviewed = _review_decision(
                    item, label, adapter, budget, decision_cpu_s, decision_seed(seed, index), earlier
                )
                if reviewed.status is Status.NOT_REVIEWED:
                    stopped = "not reviewed: the review's deadline came first"
                interrupted |= reviewed.interrupted
                out.append(reviewed)
        earlier.append(item)
        budget.report(reviewed=f"{len(earlier)}/{total}")
    summaries = summarise(out, players, adapter.thresholds)
    return ReviewResult(
        out,
        summaries,
        adapter.thresholds,
        decision_cpu_s,
        complete=not stopped,
        interrupted=interrupted,
        wall_s=time.monotonic() - started,
        cpu_s=time.process_time() - cpu_started,
    )


def _review_decision(
    decision: Decision,
    label: str,
    adapter: Adapter,
    whole: Budget,
    decision_cpu_s: float,
    seed: int,
    earlier: Sequence[Decision],
) -> Reviewed:
    cpu_started = time.process_time()
    budget = DecisionBudget(decision_cpu_s, whole)
    cut = Reviewed(
        decision, Status.NOT_REVIEWED, label, note="not reviewed: the review's deadline came during this decision"
    )
    try:
        ranking = adapter.rank(decision, budget, seed, earlier)
    except SolveInterrupted:
        if whole.cancelled:
            raise
        cut.cpu_s = time.process_time() - cpu_started
        return cut
    if whole.expired():
        cut.cpu_s = time.process_time() - cpu_started
        return cut
    result = _compare(decision, label, ranking)
    if (
        result.played is None
        and result.status is not Status.FORCED
        and ranking.choices
        and ranking.choices[0].value is not None
    ):
        own = DecisionBudget(decision_cpu_s * EVALUATION_SHARE, whole)
        try:
            valuation = adapter.evaluate(decision, ranking, own, seed, earlier)
        except SolveInterrupted:
            if whole.cancelled:
                raise
            valuation = Valuation(None, "the decision's budget ended before the played move was valued on its own")
        if whole.expired():
            cut.cpu_s = time.process_time() - cpu_started
            return cut
        result = _with_valuation(result, decision, label, ranking, valuation)
        result.interrupted = own.expired() or bool(valuation.ranking and valuation.ranking.interrupted)
    result.cpu_s = time.process_time() - cpu_started
    result.interrupted |= ranking.interrupted or budget.expired()
    return result


def _find(ranking: Ranking, actions: tuple[Any, ...]) -> tuple[int, Choice | None]:
    for rank, choice in enumerate(ranking.choices, start=1):
        if choice.actions == actions:
            return rank, choice
    return 0, None


def _compare(decision: Decision, label: str, ranking: Ranking) -> Reviewed:
    """The played move against the ranking's best, when both have a value in it."""
    rank, played = _find(ranking, decision.actions)
    result = Reviewed(
        decision,
        Status.VALUE_MISSING,
        label,
        played_rank=rank,
        choices=len(ranking.choices),
        unit=ranking.unit,
        note=ranking.note,
    )
    if not ranking.choices:
        result.note = _join(ranking.note, "the hint listed no choice")
        return result
    if len(ranking.choices) == 1 and rank == 1:
        result.status, result.loss, result.mark = Status.FORCED, 0.0, None
        result.best_actions, result.best_label = ranking.choices[0].actions, ranking.choices[0].label
        result.note = _join(ranking.note, "the only choice the hint lists")
        return result
    best = ranking.choices[0]
    result.best_actions, result.best_label, result.best = best.actions, best.label, best.value
    if best.value is None:
        result.note = _join(
            ranking.note,
            f"the hint valued no move within the decision's budget ({best.note})"
            if best.note
            else "the hint valued no move within the decision's budget",
        )
        return result
    if played is None or played.value is None:
        why = played.note if played is not None and played.note else "not among the hint's valued choices"
        result.note = _join(ranking.note, f"the played move: {why}")
        return result
    result.played = played.value
    return _finish(result, rank == 1)


def _with_valuation(
    result: Reviewed, decision: Decision, label: str, ranking: Ranking, valuation: Valuation
) -> Reviewed:
    if valuation.ranking is not None:
        replaced = _compare(decision, label, valuation.ranking)
        replaced.played_rank, replaced.choices = result.played_rank, result.choices  # as the hint listed them
        if replaced.played is None and valuation.value is not None and replaced.best is not None:
            replaced.played = valuation.value
            replaced = _finish(replaced, False)
        replaced.note = _join(valuation.note, replaced.note)
        if valuation.loss_standard_error is not None and replaced.status is Status.REVIEWED:
            replaced.loss_standard_error = valuation.loss_standard_error
        return replaced
    if valuation.value is None:
        result.note = _join(result.note, f"no value for the played move: {valuation.note}")
        return result
    result.played = valuation.value
    result.note = _join(result.note, valuation.note)
    return _finish(result, False)


def _finish(result: Reviewed, played_is_best: bool) -> Reviewed:
    """Loss, its standard error and the mark, once both values are known."""
    assert result.played is not None and result.best is not None
    result.status = Status.REVIEWED
    if played_is_best:
        result.loss, result.loss_standard_error = 0.0, 0.0
    else:
        loss = result.best.value - result.played.value
        if loss < -LOSS_TOLERANCE:
            result.note = _join(result.note, "the played move's value is above the best's (both estimates): loss 0")
        result.loss = max(loss, 0.0)
        errors = (result.best.shown_error, result.played.shown_error)
        result.loss_standard_error = math.hypot(*errors) if None not in errors else None  # type: ignore[arg-type]
    return result


def _join(*parts: str) -> str:
    return "; ".join(part for part in parts if part)


def summarise(items: Sequence[Reviewed | Chance], players: int, thresholds: Thresholds) -> list[PlayerSummary]:
    """Each player's totals: losses summed over the reviewed decisions, the accuracy figure, the costliest three."""
    summaries = [PlayerSummary(player) for player in range(players)]
    variance: list[float | None] = [0.0] * players
    within: list[list[bool]] = [[] for _ in range(players)]
    for item in items:
        if isinstance(item, Chance):
            continue
        summary = summaries[item.decision.player]
        summary.decisions += 1
        if item.status is Status.FORCED:
            summary.forced += 1
        elif item.status in (Status.NOT_REVIEWED, Status.INCOMPLETE, Status.NOT_RANKED):
            summary.not_reviewed += 1
        elif item.status is Status.VALUE_MISSING:
            summary.values_missing += 1
        if item.status is not Status.REVIEWED or item.loss is None:
            continue
        item.mark = thresholds.mark(item.loss)
        summary.reviewed += 1
        summary.total_loss += item.loss
        player = item.decision.player
        se = item.loss_standard_error
        current = variance[player]
        variance[player] = None if se is None or current is None else current + se * se
        within[player].append(item.loss < thresholds.inaccuracy)
        summary.inaccuracies += item.mark is Mark.INACCURACY
        summary.mistakes += item.mark is Mark.MISTAKE
        summary.blunders += item.mark is Mark.BLUNDER
    for player, summary in enumerate(summaries):
        total = variance[player]
        summary.total_loss_standard_error = None if total is None else math.sqrt(total)
        if within[player]:
            summary.accuracy = 100.0 * sum(within[player]) / len(within[player])
        costly = [
            (item.loss, index)
            for index, item in enumerate(items)
            if isinstance(item, Reviewed)
            and item.decision.player == player
            and item.status is Status.REVIEWED
            and item.loss is not None
            and item.loss > LOSS_TOLERANCE
        ]
        summary.costliest = [index for _, index in sorted(costly, key=lambda pair: (-pair[0], pair[1]))[:3]]
    return summaries
