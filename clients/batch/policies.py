"""Named policies for tournaments, per game: a small registry the other games extend with their own entry.

A game's `PolicySet` says how one game between named policies is played (`play`, a task function) and which
players a match seats. Everything is seeded: the same seed and policies give the same game on any worker.
Policies with a search use a fixed effort (depth, rollout count), not a time slice, so a game does not change
with the machine's load; the task budget still bounds the whole game (running out fails the task, it is never
answered with a shallower search).
"""

from __future__ import annotations

import contextvars
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from campsolver.solver.core.budget import Budget

#: Rolls offered in one Happy Campers tournament game (the game ends at the first roll that fits nowhere).
HAPPY_CAMPERS_ROLLS = 40
#: Rollouts per Happy Campers hint (a fixed effort: about 10 ms per hint on one core).
HAPPY_CAMPERS_HINT_ROLLOUTS = 100
#: Win-probability playouts per candidate move at most, for the Camper Tour `hint` policy and for the cheaper
#: `lookahead` (a fixed effort: the same seed gives the same game whatever the machine's load).
CAMPER_TOUR_HINT_PLAYOUTS = 32
CAMPER_TOUR_LOOKAHEAD_PLAYOUTS = 8
#: Distinct hint seeds per game: a move's playouts are seeded by (game seed, decision number).
CAMPER_TOUR_SEEDS_PER_GAME = 10_000
#: Camper Tour campers per game (head to head).
CAMPER_TOUR_SEATS = 2
#: Safety stop for a Camper Tour game (a real game takes a few hundred decisions).
CAMPER_TOUR_MAX_DECISIONS = 5_000
#: Deluxe Camping, Campsite: two campers at one table (head to head, seats rotated).
DELUXE_CAMPING_SEATS = 2
CAMPSITE_SEATS = 2
#: Adventure Tours is for 3 to 6 players: one policy against two copies of the other, seats rotated.
ADVENTURE_TOURS_SEATS = 3
#: Samples per play at most for the Adventure Tours hint (a fixed effort; exact expectimax is off in
#: tournaments because it runs under a time share and falls back to sampling when that share runs out).
ADVENTURE_TOURS_HINT_SAMPLES = 16
#: Distinct hint / random-player seeds per game (seeded by game seed and decision number or seat).
SEEDS_PER_GAME = 10_000
#: Safety stop for a Deluxe Camping, Campsite or Adventure Tours game (real games take at most a few hundred).
TABLE_MAX_DECISIONS = 5_000
#: OpenSpiel's bots as tournament policies (`mcts` for Deluxe Camping and Camper Tour, `ismcts` for Campsite and
#: Adventure Tours; needs the `openspiel` extra): a fixed effort of this many simulations a decision, UCT
#: constant and random rollouts a leaf as `python -m bench.openspiel` uses them, so a game depends on its seed
#: only, never on the machine's load.
OPENSPIEL_SIMULATIONS = 100
OPENSPIEL_UCT_C = 2.0
OPENSPIEL_ROLLOUTS = 1
#: Policies a tournament plays only when `--policies` names them (they need the openspiel extra and cost far
#: more CPU a game than the others).
NAMED_ONLY = ("mcts", "ismcts")
_BOT = f"; mcts / ismcts (named only): OpenSpiel's bot, {OPENSPIEL_SIMULATIONS} simulations a decision"


#: Set by a tournament that reviews its games (`tournament.play_and_review`): every play function appends the game's
#: transitions as it plays them, `("act", state, action)` and `("chance", state, outcome)` (Happy Campers:
#: `("roll", roll)` and `("draw", placement)`), so the game's record is the game as played, not a replay.
RECORDING: contextvars.ContextVar[list[tuple[Any, ...]] | None] = contextvars.ContextVar(
    "campsolver_tournament_recording", default=None
)


def _record(*entry: Any) -> None:
    recording = RECORDING.get()
    if recording is not None:
        recording.append(entry)


@dataclass(frozen=True)
class PolicySet:
    """The policies of one game and how a game between them is played.

    `seats`: 1 when every policy plays the same seeded sequence alone and scores are compared (solo games);
    2 or more when the policies sit at one table (seats are rotated by the tournament).
    `play(params, budget)`: params hold `seed` and `policies` (one name per seat); returns `scores` per seat
    and `winner` (seat index, or None for a tie / nobody finished).
    """

    game: str
    policies: tuple[str, ...]
    seats: int
    play: Callable[[dict[str, Any], Budget], dict[str, Any]]
    description: str


# --- OpenSpiel's MCTS / IS-MCTS on the rules state, through the adapter ------------------------------------


def _openspiel_game(short_name: str, players: int) -> Any:
    """The adapter's game (`campsolver.openspiel`), loaded once a process."""
    cached = _OPENSPIEL_GAMES.get((short_name, players))
    if cached is None:
        try:
            import pyspiel

            import campsolver.openspiel  # noqa: F401  (registers the games)
        except ImportError as missing:
            raise RuntimeError(
                "the mcts / ismcts policies need the openspiel extra (pip install 'campsolver[openspiel]')"
            ) from missing
        cached = _OPENSPIEL_GAMES[(short_name, players)] = pyspiel.load_game(short_name, {"players": players})
    return cached


_OPENSPIEL_GAMES: dict[tuple[str, int], Any] = {}


def openspiel_move(
    short_name: str, players: int, rules_state: Any, seed: int, simulations: int = OPENSPIEL_SIMULATIONS
) -> Any:
    """The rules-model move OpenSpiel's bot picks for the player to move in `rules_state`: `MCTSBot` (random
    rollouts) in a perfect-information game, `ISMCTSBot` (worlds redrawn by the adapter's resampler from what
    the player may know) in a hidden-information one; `simulations` a decision, everything seeded by `seed`."""
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    from campsolver.openspiel.common import AdapterState

    game = _openspiel_game(short_name, players)
    rng = np.random.RandomState(seed % 2**32)
    evaluator = mcts.RandomRolloutEvaluator(OPENSPIEL_ROLLOUTS, rng)
    if game.imperfect:
        bot: Any = ismcts.ISMCTSBot(
            game, evaluator, OPENSPIEL_UCT_C, simulations, random_state=rng, allow_inconsistent_action_sets=True
        )
        bot.set_resampler(lambda state, player: state.resample_from_infostate(player, bot.random_number))
    else:
        bot = mcts.MCTSBot(game, OPENSPIEL_UCT_C, simulations, evaluator, random_state=rng, solve=False)
    action = bot.step(AdapterState(game, rules_state))
    return game.encoding.decode(rules_state, int(action))


# --- Happy Campers: the same 40 seeded rolls for every policy; the higher final score wins -------------------


def play_happy_campers(params: dict[str, Any], budget: Budget) -> dict[str, Any]:
    from campsolver.solver.core.seeding import rng_for
    from campsolver.solver.happy_campers.hint import HintOptions, hint, turn_state
    from campsolver.solver.happy_campers.policies import play_game
    from campsolver.solver.happy_campers.rules import can_draw, draw, empty_grid, score

    (policy,) = params["policies"]
    seed = int(params["seed"])
    dice = rng_for(seed, "batch-tournament-happy-campers-rolls").integers(1, 7, size=(HAPPY_CAMPERS_ROLLS, 2))
    rolls = [(int(a), int(b)) for a, b in dice]
    if policy in ("greedy", "random"):
        played = play_game(None, rolls, (), policy=policy, seed=seed, budget=budget)
        for roll, placement in zip(rolls, played.placements, strict=False):
            _record("roll", roll)
            _record("draw", placement)
        if played.rolls_used > len(played.placements):
            _record("roll", rolls[played.rolls_used - 1])  # the roll that fitted nowhere ended the game
        return {"scores": [played.breakdown.total], "rolls_used": played.rolls_used}
    if policy != "hint":
        raise ValueError(f"unknown Happy Campers policy {policy!r}")
    grid = empty_grid()
    used = 0
    for turn, roll in enumerate(rolls):
        budget.check()
        used = turn + 1
        _record("roll", roll)
        if not can_draw(grid, roll):
            break
        result = hint(
            turn_state(grid, roll, ()),
            budget,
            options=HintOptions(seed=seed * 1000 + turn, rollouts=HAPPY_CAMPERS_HINT_ROLLOUTS),
        )
        if result.interrupted:
            raise TimeoutError("the task budget ran out inside a hint; allow more --time-limit")
        _record("draw", result.best.move.placements[0])
        grid = draw(grid, result.best.move.placements[0])  # the rules model checks the hinted move
    return {"scores": [score(grid).total], "rolls_used": used}


# --- Camper Tour: two campers at one table, seats rotated ---------------------------------------------------


def camper_tour_rule_of_thumb(state: Any) -> Any:
    """A table player's rule: go out while the tokens cover the way home, then budget the tokens home.

    Outward: announce 6 (a fair risk), turn back once the tokens left only just cover the way home at the
    budgeting heuristic's expected payment per plate. Return: the puzzle grader's token-budgeting heuristic.
    Unexpected Comforts: recover tokens outward, get rid of surplus tokens on the way home.
    """
    from campsolver.solver.camper_tour.puzzle import budgeting_heuristic, expected_payment
    from campsolver.solver.camper_tour.rules import Announce, ComfortsChoice, Phase, TurnBack

    actions = state.legal_actions()
    camper = state.mover
    if all(isinstance(action, ComfortsChoice) for action in actions):
        wanted = (
            ComfortsChoice.RECOVER if camper.phase == Phase.OUTWARD or camper.tokens < 0 else (ComfortsChoice.DISCARD)
        )
        return wanted if wanted in actions else actions[0]
    announcements = [action for action in actions if isinstance(action, Announce)]
    if camper.phase == Phase.OUTWARD:
        home_cost = (camper.position - 1) * expected_payment(6) / 6
        if TurnBack() in actions and camper.tokens <= math.ceil(home_cost):
            return TurnBack()
        if announcements:
            return min(announcements, key=lambda action: (abs(action.plates - 6), -action.plates))
        return actions[0]
    if announcements:
        return budgeting_heuristic(state)
    return actions[0]


def play_out(
    state: Any, chance: Any, budget: Budget, move: Callable[[Any, int, int], Any], max_decisions: int
) -> tuple[Any, int]:
    """Play a game to its end through the rules model (every game with chance nodes shares this loop): chance
    outcomes are sampled from `chance`, each decision is `move(state, mover, decision_number)` returning the
    next state. Returns the final state and the number of decisions."""
    from campsolver.solver.core.game import CHANCE, TERMINAL, sample_outcome

    decisions = 0
    _record("start", state)
    while (mover := state.current_player()) != TERMINAL:
        budget.check()
        if mover == CHANCE:
            outcome = sample_outcome(state, chance)
            _record("chance", state, outcome)
            state = state.child(outcome)
            continue
        decisions += 1
        if decisions > max_decisions:
            raise RuntimeError(f"the game did not end within {max_decisions} decisions")
        state = move(state, mover, decisions)
    return state, decisions


def play_camper_tour(params: dict[str, Any], budget: Budget) -> dict[str, Any]:
    from campsolver.solver.camper_tour.hint import HintOptions, Objective, hint
    from campsolver.solver.camper_tour.opponents import Decision
    from campsolver.solver.camper_tour.rules import Config, new_game
    from campsolver.solver.core.seeding import rng_for

    names, seed = _seated(params, CAMPER_TOUR)
    record: list[Decision] = []  # the game so far, as a client at the table sees it: the hint reads styles from it
    chance = rng_for(seed, "batch-tournament-camper-tour-chance")
    random_choice = [rng_for(seed, "batch-tournament-camper-tour-random", seat) for seat in range(len(names))]

    def move(state: Any, player: int, decisions: int) -> Any:
        name = names[player]
        if name in ("hint", "lookahead"):
            playouts = CAMPER_TOUR_HINT_PLAYOUTS if name == "hint" else CAMPER_TOUR_LOOKAHEAD_PLAYOUTS
            result = hint(
                state,
                budget,
                options=HintOptions(
                    objective=Objective.WIN_PROBABILITY,
                    max_playouts=playouts,
                    seed=seed * CAMPER_TOUR_SEEDS_PER_GAME + decisions,
                    history=record,
                ),
            )
            if result.interrupted:
                raise TimeoutError("the task budget ran out inside a hint; allow more --time-limit")
            action = result.moves[0].action
        elif name == "rule-of-thumb":
            action = camper_tour_rule_of_thumb(state)
        elif name == "mcts":
            action = openspiel_move(
                "campsolver_camper_tour", len(names), state, seed * CAMPER_TOUR_SEEDS_PER_GAME + decisions
            )
        else:
            actions = state.legal_actions()
            action = actions[int(random_choice[player].integers(len(actions)))]
        record.append(Decision(state, action))
        _record("act", state, action)
        return state.child(action)  # the rules model checks the move

    state, decisions = play_out(new_game(Config(), len(names)), chance, budget, move, CAMPER_TOUR_MAX_DECISIONS)
    return {"scores": [int(value) for value in state.returns()], "winner": state.winner(), "decisions": decisions}


# --- Deluxe Camping, Campsite, Adventure Tours: table games with the hint and each bench's baselines ----------


def unique_winner(scores: list[int]) -> int | None:
    """The seat with the strictly highest score; None on a tie for first (a shared win counts as a tie)."""
    best = max(scores)
    leaders = [seat for seat, value in enumerate(scores) if value == best]
    return leaders[0] if len(leaders) == 1 else None


def _seated(params: dict[str, Any], spec: PolicySet) -> tuple[list[str], int]:
    """The seats' policy names (each one of the game's) and the game's seed."""
    names = list(params["policies"])
    for name in names:
        if name not in spec.policies:
            raise ValueError(f"unknown {spec.game} policy {name!r}")
    return names, int(params["seed"])


def _interrupted() -> TimeoutError:
    """The task budget cut a move short: the game fails rather than be played with a cut search."""
    return TimeoutError("the task budget ran out inside a move; allow more --time-limit")


#: The tournament's Deluxe Camping hint deepens to this many reply plies: a fixed effort, so the games do not
#: depend on the machine (the service's hint goes as deep as its budget allows instead).
DELUXE_CAMPING_HINT_REPLY_PLIES = 2


def play_deluxe_camping(params: dict[str, Any], budget: Budget) -> dict[str, Any]:
    from campsolver.solver.core.seeding import rng_for
    from campsolver.solver.deluxe_camping import rules
    from campsolver.solver.deluxe_camping.hint import HintOptions, hint
    from campsolver.solver.deluxe_camping.players import greedy_player, random_player

    names, seed = _seated(params, DELUXE_CAMPING)
    state = rules.random_setup(rules.Config(players=len(names)), rng_for(seed, "batch-tournament-deluxe-camping"))
    _record("start", state)
    seat_rng = [rng_for(seed, "batch-tournament-deluxe-camping-player", seat) for seat in range(len(names))]
    baselines = {"greedy": greedy_player, "random": random_player}
    decisions = 0
    while state.stage is not rules.Stage.OVER:
        budget.check()
        decisions += 1
        if decisions > TABLE_MAX_DECISIONS:
            raise RuntimeError(f"the game did not end within {TABLE_MAX_DECISIONS} decisions")
        seat = state.to_move
        name = names[seat]
        if name == "hint":
            # The whole search (depth 1, then the deepening to a fixed depth) within the task budget: a fixed
            # effort unless the budget cuts it, and then the game fails rather than being played shallower.
            result = hint(state, budget, options=HintOptions(max_replies=DELUXE_CAMPING_HINT_REPLY_PLIES))
            if result.interrupted or budget.expired():
                raise _interrupted()
            action = result.choices[0].choice
        elif name == "mcts":
            action = openspiel_move("campsolver_deluxe_camping", len(names), state, seed * SEEDS_PER_GAME + decisions)
        else:
            action = baselines[name](state, seat_rng[seat])
        _record("act", state, action)
        state = state.child(action)  # the rules model checks the move
    scores = [int(value) for value in state.scores()]
    return {"scores": scores, "winner": unique_winner(scores), "decisions": decisions}


def play_campsite(params: dict[str, Any], budget: Budget) -> dict[str, Any]:
    import random

    from campsolver.solver.campsite import rules as R
    from campsolver.solver.campsite.hint import hint
    from campsolver.solver.campsite.players import greedy_policy, play_options, random_policy
    from campsolver.solver.core.budget import SolveInterrupted
    from campsolver.solver.core.seeding import rng_for

    names, seed = _seated(params, CAMPSITE)
    chance = rng_for(seed, "batch-tournament-campsite-chance")
    seat_rng = [random.Random(seed * SEEDS_PER_GAME + seat) for seat in range(len(names))]

    def move(state: Any, mover: int, decisions: int) -> Any:
        name = names[state.to_move]
        if name == "ismcts":  # the card, then the tent: two decisions of the bot
            for half in range(2):
                action = openspiel_move(
                    "campsolver_campsite", len(names), state, (seed * SEEDS_PER_GAME + decisions) * 2 + half
                )
                _record("act", state, action)
                state = state.child(action)
            return state
        try:
            if name == "hint":
                result = hint(state, budget, options=play_options(state))
                if result.interrupted or not result.choices:
                    raise _interrupted()
                placement, tent = result.choices[0].choice
            elif name == "greedy":
                placement, tent = greedy_policy(state, budget)
            else:
                placement, tent = random_policy(state, seat_rng[state.to_move])
        except SolveInterrupted as stop:
            raise _interrupted() from stop
        if budget.expired():
            raise _interrupted()  # the move may have been ranked only in part
        # The rules model checks both halves of the turn.
        card, pitch = R.PlayCard(placement), R.PitchTent(tent.token, tent.row, tent.col)
        _record("act", state, card)
        laid = state.child(card)
        _record("act", laid, pitch)
        return laid.child(pitch)

    state, decisions = play_out(R.new_game(len(names)), chance, budget, move, TABLE_MAX_DECISIONS)
    scores = [int(value) for value in state.totals]
    return {"scores": scores, "winner": unique_winner(scores), "decisions": decisions}


def play_adventure_tours(params: dict[str, Any], budget: Budget) -> dict[str, Any]:
    from campsolver.solver.adventure_tours.hint import HintOptions, hint
    from campsolver.solver.adventure_tours.information import observe
    from campsolver.solver.adventure_tours.policies import greedy_action, random_action
    from campsolver.solver.adventure_tours.rules import Config, new_game
    from campsolver.solver.core.seeding import rng_for

    names, seed = _seated(params, ADVENTURE_TOURS)
    chance = rng_for(seed, "batch-tournament-adventure-tours-chance")
    seat_rng = [rng_for(seed, "batch-tournament-adventure-tours-player", seat) for seat in range(len(names))]

    def move(state: Any, mover: int, decisions: int) -> Any:
        name = names[mover]
        if name == "hint":
            result = hint(
                observe(state, mover),
                budget,
                options=HintOptions(
                    seed=seed * SEEDS_PER_GAME + decisions, allow_exact=False, max_samples=ADVENTURE_TOURS_HINT_SAMPLES
                ),
            )
            if result.interrupted or budget.expired():
                raise _interrupted()
            play = list(result.best.play)
        elif name == "greedy":
            play = [greedy_action(state)]
        elif name == "ismcts":
            play = [openspiel_move("campsolver_adventure_tours", len(names), state, seed * SEEDS_PER_GAME + decisions)]
        else:
            play = [random_action(state, seat_rng[mover])]
        for action in play:  # a hint's play can be several actions of the mover
            if state.current_player() != mover:
                break
            _record("act", state, action)
            state = state.child(action)  # the rules model checks the move
        return state

    state, decisions = play_out(new_game(Config(len(names))), chance, budget, move, TABLE_MAX_DECISIONS)
    scores = [int(value) for value in state.totals]
    return {"scores": scores, "winner": unique_winner(scores), "decisions": decisions}


HAPPY_CAMPERS = PolicySet(
    game="happy-campers",
    policies=("hint", "greedy", "random"),
    seats=1,
    play=play_happy_campers,
    description=(
        f"each policy plays the same {HAPPY_CAMPERS_ROLLS} seeded rolls on an empty map; the higher final "
        f"score wins (hint: {HAPPY_CAMPERS_HINT_ROLLOUTS} rollouts per move)"
    ),
)

CAMPER_TOUR = PolicySet(
    game="camper-tour",
    policies=("hint", "lookahead", "rule-of-thumb", "random", "mcts"),
    seats=CAMPER_TOUR_SEATS,
    play=play_camper_tour,
    description=(
        f"two campers on the default 72-plate stack, seats rotated; the rulebook's winner (highest "
        f"score among finished campers, ties to the later arrival) wins; hint: win probability from at "
        f"most {CAMPER_TOUR_HINT_PLAYOUTS} playouts a candidate move, lookahead: at most "
        f"{CAMPER_TOUR_LOOKAHEAD_PLAYOUTS}" + _BOT
    ),
)

DELUXE_CAMPING = PolicySet(
    game="deluxe-camping",
    policies=("hint", "greedy", "random", "mcts"),
    seats=DELUXE_CAMPING_SEATS,
    play=play_deluxe_camping,
    description=(
        "two campers from a seeded random setup, seats rotated; the strictly higher score wins (a tie is "
        "a tie); hint: the full two-ply search within the task budget (interrupted: the game fails), "
        "greedy / random: the bench's baselines" + _BOT
    ),
)

CAMPSITE = PolicySet(
    game="campsite",
    policies=("hint", "greedy", "random", "ismcts"),
    seats=CAMPSITE_SEATS,
    play=play_campsite,
    description=(
        "two campers, seeded draws, seats rotated; the strictly higher total wins (a tie is a tie); hint: "
        "every play ranked within the task budget (interrupted: the game fails), greedy: best immediate "
        "gain (the bench's baseline), random: a uniformly random card placement and tent" + _BOT
    ),
)

ADVENTURE_TOURS = PolicySet(
    game="adventure-tours",
    policies=("hint", "greedy", "random", "ismcts"),
    seats=ADVENTURE_TOURS_SEATS,
    play=play_adventure_tours,
    description=(
        f"three players (the rulebook's minimum): one policy against two copies of the other, seats "
        f"rotated; the strictly highest money wins (several winners count as a tie); hint: Monte Carlo "
        f"with at most {ADVENTURE_TOURS_HINT_SAMPLES} seeded samples a play" + _BOT
    ),
)

#: Game -> its policies. A new game adds one line here.
POLICY_SETS: dict[str, PolicySet] = {
    spec.game: spec for spec in (HAPPY_CAMPERS, DELUXE_CAMPING, CAMPSITE, CAMPER_TOUR, ADVENTURE_TOURS)
}
