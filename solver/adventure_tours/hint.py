"""Hint: every play of the player to move ranked, from that player's information only.

A *play* is the mover's run of decisions up to the next card drawn, the next decision of another player, or
the next regular play (an extra turn): card and place, action and targets, ability use.

What a play's value means (one quantity, computed two ways):
    value(play) = E[ objective at the round end | the mover makes `play`, then every player, the mover too,
                   follows the rollout model (`ROLLOUT_POLICY`: `PATIENT_MIX`, below) ]
where the expectation is over the other hands (uniform over every deal of the unseen cards consistent with
the public hand sizes) and over the pile's order. This is a one-step policy improvement over the rollout policy:
never worse than it in the model, and exactly computable. `policy` takes another rule or a `RolloutModel` (the
mover's rule, and rules each opponent follows with fixed prior odds, e.g. `PATIENT_MIX`); the value is then the
expectation over those odds too.
- EXACT: when the unseen pool is small, expectimax (`solver.core.expectimax`) over a chance tree that deals the
  hidden hands and every draw card by card with exact `Fraction` probabilities.
- Sampled: otherwise, determinisations (hands + pile order) shared by every play (common random numbers), the
  rest of the round played out; mean and standard error per play, weak plays screened out as samples come in;
  at a small budget the worse half of the plays dropped in stages (sequential halving, `halving_schedule`), a
  dropped play valued by its paired difference with the leading survivor.
Objectives (`Objective`): MARGIN (default): money after this round minus the best opponent's; EXPECTED_SCORE:
own round income; WIN_PROBABILITY: 1 when no opponent has more money after this round (ties win: "more than
one winner").
"""

from __future__ import annotations

import enum
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from campsolver.solver.adventure_tours.information import (
    Observation,
    belief_root,
    determinise,
    public_state,
    unseen_pool,
)
from campsolver.solver.adventure_tours.policies import greedy_action, patient_action
from campsolver.solver.adventure_tours.rules import Action, State
from campsolver.solver.core.budget import Budget, SolveInterrupted
from campsolver.solver.core.expectimax import expectimax
from campsolver.solver.core.game import CHANCE, TERMINAL
from campsolver.solver.core.hint import HintClock, HintResultBase, RankedChoice
from campsolver.solver.core.proof import Proof
from campsolver.solver.core.seeding import rng_for

#: Unseen pools at most this large are tried exactly first.
EXACT_POOL_LIMIT = 7
#: Share of the budget the exact attempt may use before sampling takes over.
EXACT_BUDGET_SHARE = 0.4
#: Samples per play per batch, and the fewest before a play can be screened out.
BATCH = 4
MIN_SAMPLES_BEFORE_SCREENING = 12
#: A play is screened out when its mean + this many SE is below the best mean - this many SE.
SCREEN_Z = 2.5
#: A contender whose paired difference with the leader is under this many of its SE may have lost by noise alone:
#: its paired SE widens the leader's (`_widen_for_selection`).
SELECTION_Z = 2.0
#: Stop sampling a play after this many samples (the estimate is then good to a few cents).
MAX_SAMPLES = 4000

Policy = Callable[[State], Action]


@dataclass(frozen=True)
class RolloutModel:
    """Who plays what after the play in the hint's model: the mover follows `own`; each other player follows one
    rule of `others`, drawn independently with its prior probability (fixed: the hint never infers who its
    opponents are from their play). The expectation over these draws is part of a play's value."""

    own: Policy
    others: tuple[tuple[Policy, float], ...]

    def __post_init__(self) -> None:
        if not self.others or abs(sum(w for _, w in self.others) - 1.0) > 1e-9 or min(w for _, w in self.others) < 0:
            raise ValueError("others: rules with prior probabilities summing to 1")

    def assignments(self, mover: int, players: int) -> list[tuple[float, tuple[Policy, ...]]]:
        """Every seating of the rules with its probability (for the exact values)."""
        seats = [[(self.own, 1.0)] if q == mover else list(self.others) for q in range(players)]
        out: list[tuple[float, tuple[Policy, ...]]] = []
        for combo in itertools.product(*seats):
            weight = math.prod(w for _, w in combo)
            if weight > 0:
                out.append((weight, tuple(rule for rule, _ in combo)))
        return out

    def draw(self, mover: int, players: int, rng: Any) -> tuple[Policy, ...]:
        """One seating drawn from the priors (for a sampled world)."""
        rules = [rule for rule, _ in self.others]
        weights = [w for _, w in self.others]
        return tuple(self.own if q == mover else rules[int(rng.choice(len(rules), p=weights))] for q in range(players))


def seated(rules: tuple[Policy, ...]) -> Policy:
    """The policy that asks the rule seated at the player to decide."""
    return lambda state: rules[state.current_player()](state)


def as_model(policy: Policy | RolloutModel) -> RolloutModel:
    """A plain policy is the model where every player follows it."""
    return policy if isinstance(policy, RolloutModel) else RolloutModel(policy, ((policy, 1.0),))


#: Each opponent's prior share of the patient rule in `PATIENT_MIX` (the rest greedy).
PATIENT_SHARE = 0.5
#: The hint's model after the play: the mover follows the patient rule; each opponent the patient rule or greedy,
#: even odds (a fixed prior: the hint never infers who its opponents are). Chosen on the repository's own players
#: (seeds 4,300,000+, 0.05 CPU-s, paired games): 0.833 vs 0.726 of 42 against two greedy and 0.659 vs 0.432 of 44
#: against two patient, over greedy rollouts for everyone. Checked against the outside players on tuning seeds
#: (mixed against the builder: 0.425 vs 0.333 of 93 paired games in bench.arena, 0.390 vs 0.508 of 59 in
#: bench.adventure_tours_rounds; docs/solvers/adventure-tours.md).
PATIENT_MIX = RolloutModel(patient_action, ((patient_action, PATIENT_SHARE), (greedy_action, 1 - PATIENT_SHARE)))
#: The hint's rollout model by default.
ROLLOUT_POLICY: Policy | RolloutModel = PATIENT_MIX


class Objective(enum.Enum):
    MARGIN = "margin"
    EXPECTED_SCORE = "expected score"
    WIN_PROBABILITY = "win probability"


def objective_value(state: State, player: int, objective: Objective) -> float:
    """The objective once the round is over (`state.last_round`/`totals` hold its result)."""
    if objective is Objective.EXPECTED_SCORE:
        return float(state.last_round[player])
    others = [t for q, t in enumerate(state.totals) if q != player]
    best_other = max(others) if others else 0
    if objective is Objective.MARGIN:
        return float(state.totals[player] - best_other)
    return 1.0 if state.totals[player] >= best_other else 0.0


def round_finished(state: State, round_index: int) -> bool:
    return state.over or state.round_index != round_index


@dataclass(frozen=True)
class Scripted:
    """A `GameState` where `mover` plays `script` first, then everyone follows `policy`; it ends with the
    round, and its returns are the objective for every player (only the mover's is used)."""

    inner: State
    mover: int
    script: tuple[Action, ...]
    round_index: int
    objective: Objective
    policy: Policy = field(compare=False, hash=False, default=greedy_action)

    def current_player(self) -> int:
        if round_finished(self.inner, self.round_index):
            return TERMINAL
        return self.inner.current_player()

    def legal_actions(self) -> list[Action]:
        if self.current_player() < 0:
            return []
        if self.script and self.inner.current_player() == self.mover:
            return [self.script[0]]
        return [self.policy(self.inner)]

    def chance_outcomes(self) -> Any:
        return self.inner.chance_outcomes()

    def child(self, action: Any) -> Scripted:
        script = self.script
        if self.inner.current_player() == self.mover and script:
            script = script[1:]
        return Scripted(self.inner.child(action), self.mover, script, self.round_index, self.objective, self.policy)

    def returns(self) -> list[float]:
        value = objective_value(self.inner, self.mover, self.objective)
        return [value] * self.inner.config.players


def enumerate_plays(state: State, mover: int, budget: Budget | None = None) -> list[tuple[Action, ...]]:
    """Every distinct play of `mover` from `state` (the mover's decisions until a draw, another player's
    decision or the next regular play)."""
    plays: list[tuple[Action, ...]] = []

    def walk(s: State, prefix: tuple[Action, ...]) -> None:
        if budget is not None:
            budget.check()
        for action in s.legal_actions():
            nxt = s.child(action)
            line = (*prefix, action)
            step = nxt.step()
            if (
                nxt.current_player() == mover
                and step is not None
                and step.kind != "play"
                and nxt.round_index == state.round_index
            ):
                walk(nxt, line)
            else:
                plays.append(line)

    walk(state, ())
    return plays


def greedy_play(state: State, mover: int, policy: Policy = greedy_action) -> tuple[Action, ...]:
    """The play of a rule of thumb (`policy`, greedy by default): its decisions until the play ends, as
    `enumerate_plays` cuts them."""
    line: list[Action] = []
    while True:
        action = policy(state)
        line.append(action)
        state = state.child(action)
        step = state.step()
        if state.current_player() != mover or step is None or step.kind == "play":
            return tuple(line)


def apply_play(state: State, play: tuple[Action, ...]) -> State:
    for action in play:
        state = state.child(action)
    return state


def rollout(state: State, round_index: int, policy: Policy = greedy_action, budget: Budget | None = None) -> State:
    """Play the rest of the round by `policy` (the pile's order must be known); a long round under a loaded
    machine can take tens of milliseconds, so the budget is polled inside."""
    steps = 0
    while not round_finished(state, round_index):
        steps += 1
        if budget is not None and steps % 8 == 0:
            budget.check()
        if state.current_player() == CHANCE:
            (outcome, _), *_ = state.chance_outcomes()
            state = state.child(outcome)
        else:
            state = state.child_of_legal(policy(state))
    return state


@dataclass(kw_only=True)
class RankedPlay(RankedChoice[tuple[Action, ...]]):
    """One play of the turn (`choice`, also `play`) on the shared `RankedChoice`: `value` exact (`exact`, standard
    error 0) or a sample mean over `samples` worlds with its standard error (NaN when nothing was evaluated: the
    rule-of-thumb fallback; a play with no sample has mean -inf and is listed after the sampled ones); `screened`:
    the race stopped sampling it (the leader beat it clearly on the worlds they shared); `loss`: its value's
    shortfall against the best valued play's."""

    value: float
    standard_error: float
    samples: int  # 0 when exact
    screened: bool = False

    @property
    def play(self) -> tuple[Action, ...]:
        """The play (the shared `choice`)."""
        return self.choice


def _play(play: tuple[Action, ...], value: float, standard_error: float, samples: int, **known: object) -> RankedPlay:
    return RankedPlay(choice=play, value=value, standard_error=standard_error, samples=samples, **known)


def _set_losses(ranked: list[RankedPlay]) -> None:
    """Each valued play's shortfall against the best valued play's value (exact, or sampled at least once)."""
    valued = [r for r in ranked if (r.exact or r.samples) and math.isfinite(r.value)]
    best = max((r.value for r in valued), default=None)
    for r in valued:
        r.loss = max(best - r.value, 0.0) + 0.0  # type: ignore[operator]


@dataclass(kw_only=True)
class HintResult(HintResultBase[RankedPlay]):
    """The plays ranked best first (`choices`, also `plays`), the nodes of an exact search, the worlds sampled and
    the objective the values measure."""

    nodes: int = 0
    samples: int = 0
    objective: Objective = Objective.MARGIN

    @property
    def plays(self) -> list[RankedPlay]:
        """The ranked plays (the shared `choices`)."""
        return list(self.choices)


@dataclass(frozen=True)
class HintOptions:
    """The hint's knobs. `objective`: what the values measure (the margin by default); `seed`: the sampled worlds;
    `allow_exact`: an exact expectimax where the unseen pool is small (`EXACT_POOL_LIMIT`); `max_samples`: the
    sampled worlds a play at most (with a budget that does not run out, the answer is a function of the observation
    and the seed); `policy`: the players' rule after the play in the model (`ROLLOUT_POLICY`, a rollout model, by
    default); `halving`: when the budget affords few worlds a play, drop the worse half of the plays in stages
    (`halving_schedule`) so that the better ones get more worlds."""

    objective: Objective = Objective.MARGIN
    seed: int = 0
    allow_exact: bool = True
    max_samples: int = MAX_SAMPLES
    policy: Policy | RolloutModel = ROLLOUT_POLICY
    halving: bool = True


def exact_values(
    obs: Observation,
    plays: list[tuple[Action, ...]],
    objective: Objective,
    budget: Budget | None,
    policy: Policy | RolloutModel = ROLLOUT_POLICY,
) -> tuple[list[float], int]:
    """Each play's value by full expectimax over hidden hands and draws, the players following `policy` after
    the play (a rollout model: the probability-weighted sum over its seatings; raises SolveInterrupted)."""
    root = belief_root(obs)
    seatings = as_model(policy).assignments(obs.player, obs.config.players)
    values = []
    nodes = 0
    for play in plays:
        value = 0.0
        for weight, rules in seatings:
            result = expectimax(
                Scripted(root, obs.player, play, obs.round_index, objective, seated(rules)), budget=budget
            )
            value += weight * result.values[obs.player]
            nodes += result.nodes
        values.append(value)
    return values, nodes


def sampled_values(
    obs: Observation,
    plays: list[tuple[Action, ...]],
    objective: Objective,
    budget: Budget,
    seed: int,
    max_samples: int = MAX_SAMPLES,
    *,
    screen: bool = True,
    policy: Policy | RolloutModel = ROLLOUT_POLICY,
    halving: bool = False,
) -> tuple[list[RankedPlay], int, bool]:
    """Monte Carlo values with common random numbers: every play still in the race is played out on the same
    sampled worlds (other hands + pile order), a world counting only once every such play has been played on
    it, so the comparisons stay paired. A play is screened out when the leader beats it on the shared worlds by
    more than `SCREEN_Z` standard errors of the paired difference. With `halving`, when the budget (measured on
    the first world) affords fewer than `HALVING_MAX_WORLDS` worlds a play, the worse half of the plays in the race
    is dropped at the world counts of `halving_schedule` (sequential halving); a dropped play's value is then the
    paired estimate `_paired_value` against the play that ended first. Returns (plays, worlds drawn, interrupted)."""
    rng = rng_for(seed, "adventure-tours hint", obs.round_index)
    seating_rng = rng_for(seed, "adventure-tours hint seatings", obs.round_index)
    model = as_model(policy)
    values: list[list[float]] = [[] for _ in plays]
    alive = list(range(len(plays)))
    drawn = 0
    interrupted = False
    started = budget.elapsed()
    schedule: list[int] | None = None if halving else []
    halved: set[int] = set()
    try:
        while alive:
            for _ in range(BATCH):
                world = determinise(obs, rng)
                world_policy = seated(model.draw(obs.player, obs.config.players, seating_rng))
                drawn += 1
                outcome = []
                for index in alive:
                    budget.check()
                    end = rollout(apply_play(world, plays[index]), obs.round_index, world_policy, budget=budget)
                    outcome.append(objective_value(end, obs.player, objective))
                for index, value in zip(alive, outcome, strict=True):
                    values[index].append(value)
                budget.report(samples=drawn)
                if schedule is None:
                    # Worlds still affordable: by the first world's CPU, and never beyond the sample cap (a capped
                    # call with time to spare plans the same stages whatever the clock says: reproducible).
                    spent = max(budget.elapsed() - started, 1e-9)
                    worlds_left = min(budget.remaining() / spent, max_samples - 1)
                    schedule = halving_schedule(len(alive), len(alive) * worlds_left)
                if schedule and drawn == schedule[0]:
                    schedule.pop(0)
                    kept = _halve(alive, values)
                    halved.update(i for i in alive if i not in kept)
                    alive = kept
            if screen:
                alive = _screen(alive, values)
            if all(len(values[i]) >= max_samples for i in alive):
                break
    except SolveInterrupted:
        interrupted = True
    ranked = []
    reference = max(alive, key=lambda i: _mean(values[i])) if halved else -1
    for index, play in enumerate(plays):
        sample = values[index]
        if index in halved:
            value, error = _paired_value(values[reference], sample)
        else:
            value, error = _mean(sample), reported_standard_error(sample)
        ranked.append(_play(play, value, error, len(sample), screened=index not in alive))
    _widen_for_selection(ranked, values)
    return ranked, drawn, interrupted


def _widen_for_selection(ranked: list[RankedPlay], values: list[list[float]]) -> None:
    """The leader's mean is the largest of several noisy means, so it errs upward (winner's curse): measured on
    fresh seeds at 1 CPU-s, value +- 2 SE covered the leader's long-run value 35 times in 40. Its standard error
    is widened by the paired standard error of its difference with the closest contender not clearly beaten
    (paired difference under `SELECTION_Z` of its SE), the size of that selection bias."""
    sampled = [i for i, r in enumerate(ranked) if r.samples >= 2]
    if len(sampled) < 2:
        return
    leader = max(sampled, key=lambda i: ranked[i].value)
    widest = 0.0
    for i in sampled:
        if i == leader:
            continue
        shared = min(len(values[i]), len(values[leader]))
        if shared < 2:
            continue
        diffs = [values[leader][k] - values[i][k] for k in range(shared)]
        se = _standard_error(diffs)
        if se > 0 and sum(diffs) / shared < SELECTION_Z * se:
            widest = max(widest, se)
    top = ranked[leader]
    top.standard_error = math.sqrt(top.standard_error**2 + widest**2)


def reported_standard_error(sample: list[float]) -> float:
    """The standard error a client is shown for a sample mean: the sample's, widened by t / 2 (t the Student
    quantile of a two-sided 95.45% interval with n - 1 degrees of freedom), so that value +- 2 SE is the
    t-interval, not the normal one that covers only ~92% at n = 10 (measured: bench/hint_trust.py)."""
    n = len(sample)
    if n < 2:
        return float("inf")
    return _standard_error(sample) * _t_quantile(n - 1) / 2.0


def _t_quantile(dof: int, z: float = 2.0) -> float:
    """Student's t quantile matching the normal quantile `z` (Cornish-Fisher; within 0.3% from 5 dof on)."""
    return z + (z**3 + z) / (4 * dof) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * dof**2)


def _standard_error(sample: list[float]) -> float:
    n = len(sample)
    if n < 2:
        return float("inf") if n == 1 else float("nan")
    mean = sum(sample) / n
    variance = sum((x - mean) ** 2 for x in sample) / (n - 1)
    return math.sqrt(variance / n)


#: Halving is planned only when the budget affords fewer worlds a play than this (above it the race's paired
#: screening has the samples it needs).
HALVING_MAX_WORLDS = 32


def halving_schedule(plays: int, rollouts_left: float) -> list[int]:
    """Sequential halving over `plays` with about `rollouts_left` rollouts to spend: the world counts after which
    the worse half of the plays still in the race is dropped, each stage (down to two plays) given an equal share
    of the rollouts. Empty when the budget affords `HALVING_MAX_WORLDS` worlds a play (the race then decides)."""
    if plays <= 2 or rollouts_left / plays >= HALVING_MAX_WORLDS:
        return []
    sizes = [plays]
    while sizes[-1] > 2:
        sizes.append(max(2, (sizes[-1] + 1) // 2))
    share = (rollouts_left + plays) / len(sizes)
    points, worlds = [], 0
    for size in sizes[:-1]:
        worlds += max(1, int(share / size))
        points.append(worlds)
    return points


def _mean(sample: list[float]) -> float:
    return sum(sample) / len(sample) if sample else float("-inf")


def _paired_value(reference: list[float], sample: list[float]) -> tuple[float, float]:
    """A play dropped by halving, valued against a play sampled on every world it saw and more (`reference`):
    the reference's mean minus the mean paired difference on the shared worlds (unbiased like the play's own mean,
    and paired, so it never ranks above a reference that beat it on those worlds), with the standard error of the
    reference's mean and of the paired difference combined."""
    shared = len(sample)
    diffs = [reference[k] - sample[k] for k in range(shared)]
    value = _mean(reference) - sum(diffs) / shared
    if shared < 2:
        return value, float("inf")
    error = math.hypot(reported_standard_error(reference), reported_standard_error(diffs))
    return value, error


def _halve(alive: list[int], values: list[list[float]]) -> list[int]:
    """The better half (at least two) of the plays in the race by their mean over the worlds they all share."""
    if len(alive) <= 2:
        return alive
    shared = min(len(values[i]) for i in alive)
    keep = max(2, (len(alive) + 1) // 2)
    best = sorted(alive, key=lambda i: -sum(values[i][:shared]))[:keep]
    return sorted(best)


def _screen(alive: list[int], values: list[list[float]]) -> list[int]:
    """Keep the plays the leader does not beat clearly on the worlds they share (paired differences)."""
    if len(alive) <= 1 or min(len(values[i]) for i in alive) < MIN_SAMPLES_BEFORE_SCREENING:
        return alive
    means = {i: sum(values[i]) / len(values[i]) for i in alive}
    leader = max(alive, key=lambda i: means[i])
    kept = []
    for i in alive:
        if i == leader:
            kept.append(i)
            continue
        shared = min(len(values[i]), len(values[leader]))
        diffs = [values[leader][k] - values[i][k] for k in range(shared)]
        mean = sum(diffs) / shared
        se = _standard_error(diffs)
        if not (se == 0.0 and mean > 0) and not mean > SCREEN_Z * se:
            kept.append(i)
    return kept


def _sized(obs: Observation, seed: int) -> State:
    """A state the rule of thumb can read for the fallback play: the table and hand sizes as observed (the hidden
    cards dealt from the seed; the rules of thumb read only the public table, hand sizes and their own hand)."""
    return determinise(obs, rng_for(seed, "adventure-tours hint fallback"))


#: Seconds a hint with no time left may still spend listing the plays beside its rule-of-thumb answer.
FALLBACK_LISTING_S = 0.05


def hint(state: Observation, budget: Budget, *, options: HintOptions = HintOptions()) -> HintResult:
    """Rank every play of the player whose view `state` is (an `information.Observation`: what that seat sees of
    the game; the player must be the one to decide) within `budget`, every player following `options.policy`
    after the play in the model."""
    clock = HintClock()
    obs = state
    objective, seed, policy = options.objective, options.seed, options.policy
    public = public_state(obs)
    if public.current_player() != obs.player:
        raise ValueError("it is not this player's decision")
    notes: list[str] = []
    try:
        plays = enumerate_plays(public, obs.player, budget)
    except SolveInterrupted:
        # Listing the plays alone outran the budget: answer in time with the rule of thumb's play first, then every
        # other play (listed within a short allowance of its own, as LegalMoves lists them), none evaluated.
        play = greedy_play(_sized(obs, seed), obs.player, as_model(policy).own)
        try:
            others = [p for p in enumerate_plays(public, obs.player, Budget(FALLBACK_LISTING_S)) if p != play]
        except SolveInterrupted:
            others = []
        return HintResult(
            choices=[_play(p, float("nan"), float("nan"), 0) for p in [play, *others]],
            proof=Proof.HEURISTIC,
            method="rule-of-thumb fallback",
            wall_time_s=clock.wall(),
            cpu_time_s=clock.cpu(),
            interrupted=True,
            objective=objective,
            notes=(
                "the budget ended while listing the plays: the rule of thumb's play (the rollout model's own rule) "
                "first, nothing evaluated",
            ),
        )
    if not plays:
        raise ValueError("no play to rank: the position awaits chance or is over")
    if options.allow_exact and len(unseen_pool(obs)) <= EXACT_POOL_LIMIT:
        try:
            values, nodes = exact_values(obs, plays, objective, budget.sub_budget(EXACT_BUDGET_SHARE), policy)
            ranked = sorted(
                (_play(p, v, 0.0, 0, exact=True) for p, v in zip(plays, values, strict=True)), key=lambda r: -r.value
            )
            _set_losses(ranked)
            return HintResult(
                choices=ranked,
                proof=Proof.EXACT,
                method="expectimax",
                wall_time_s=clock.wall(),
                cpu_time_s=clock.cpu(),
                nodes=nodes,
                objective=objective,
            )
        except SolveInterrupted:
            notes.append("exact expectimax ran out of its share of the budget; sampled instead")
    if len(plays) == 1:
        notes.append("only one legal play")
    ranked, drawn, interrupted = sampled_values(
        obs, plays, objective, budget, seed, options.max_samples, policy=policy, halving=options.halving
    )
    ranked.sort(key=lambda r: (r.samples > 0, r.value), reverse=True)
    if not ranked[0].samples:
        # Not one sample in time: lead with the rule of thumb's play rather than an arbitrary one.
        fallback = greedy_play(_sized(obs, seed), obs.player, as_model(policy).own)
        ranked.sort(key=lambda r: r.play != fallback)
        notes.append(
            "the budget ended before any sample: the rule of thumb's play (the rollout model's own rule) first, "
            "nothing evaluated"
        )
    _set_losses(ranked)
    return HintResult(
        choices=ranked,
        proof=Proof.HEURISTIC,
        method="monte-carlo",
        wall_time_s=clock.wall(),
        cpu_time_s=clock.cpu(),
        samples=drawn,
        interrupted=interrupted,
        objective=objective,
        notes=tuple(notes),
    )
