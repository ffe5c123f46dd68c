"""What every game's OpenSpiel adapter shares: the state wrapper, returns, observers and the resampler hook.

Each game module (one small file per game) supplies an `Encoding`: how its rules-model moves and chance
outcomes become integer action ids and back, how a rules state reads as text, and (for hidden information)
what each player may see. Everything else is written once here, so the five adapters differ only in what is
truly theirs. The adapter never decides a rule: legality, transitions, chance probabilities and scores all
come from the rules model's `GameState` (`legal_actions`, `child`, `chance_outcomes`, `returns`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pyspiel

from campsolver.solver.core.game import CHANCE, TERMINAL

# The rules models use OpenSpiel's own player ids for chance and terminal: the adapter relies on it.
assert int(pyspiel.PlayerId.CHANCE) == CHANCE and int(pyspiel.PlayerId.TERMINAL) == TERMINAL

#: `returns` parameter values: play to win (win 1, loss 0, ties shared) or the final scores.
RETURNS_WIN = "win"
RETURNS_SCORES = "scores"


class Frozen:
    """Holds an immutable rules state inside an OpenSpiel state.

    OpenSpiel clones a Python state by deep-copying its attributes; the rules states are immutable, so a
    clone shares them (a deep copy would cost more than the move itself in MCTS). Pickling (OpenSpiel's
    serialization) still copies the value.
    """

    __slots__ = ("legal", "value")

    def __init__(self, value: Any) -> None:
        self.value = value
        self.legal: list[int] | None = None  # the legal action ids, computed once (OpenSpiel asks often)

    def __deepcopy__(self, memo: dict[int, Any]) -> Frozen:
        return self

    def __getstate__(self) -> Any:
        return self.value

    def __setstate__(self, value: Any) -> None:
        self.value = value
        self.legal = None


@dataclass(frozen=True)
class Encoding:
    """A game's integer encoding (the part of an adapter that is the game's own).

    `encode(state, move)` and `decode(state, action_id)` map a decision of the rules state to its action id
    and back; `encode_chance` / `decode_chance` do the same for chance outcomes. `move_text` names a
    decision, `chance_text` a chance outcome, `describe` renders a whole state. `private_chance(state,
    outcome)` returns the players who see a chance outcome (None: everyone); `observe(state, player)` is
    what `player` sees of the state right now (the public part plus their own hidden part); `record_text`
    is a decision as every player sees it in their record (default `move_text`). `legal_ids(state)`, where a
    game has one, lists the sorted ids of the legal decisions without building each move (it must equal the
    ids `encode` gives the rules model's `legal_actions`; the encoding tests check it).
    """

    encode: Callable[[Any, Any], int]
    decode: Callable[[Any, int], Any]
    encode_chance: Callable[[Any, Any], int]
    decode_chance: Callable[[Any, int], Any]
    move_text: Callable[[Any, Any], str]
    chance_text: Callable[[Any, Any], str]
    describe: Callable[[Any], str]
    private_chance: Callable[[Any, Any], frozenset[int] | None] = lambda state, outcome: None
    observe: Callable[[Any, int], str] | None = None
    record_text: Callable[[Any, Any], str] | None = None
    legal_ids: Callable[[Any], list[int]] | None = None


def win_returns(scores: Sequence[float], winners: Sequence[int]) -> list[float]:
    """Win 1, loss 0; `winners` share the 1 (nobody named: everybody shares it)."""
    count = len(scores)
    shared = list(winners) or list(range(count))
    return [1.0 / len(shared) if i in shared else 0.0 for i in range(count)]


def top_scorers(scores: Sequence[float]) -> list[int]:
    """The players with the highest score (the win rule of games that share a tie)."""
    best = max(scores)
    return [i for i, s in enumerate(scores) if s == best]


def game_type(
    short_name: str,
    long_name: str,
    *,
    players: tuple[int, int],
    imperfect: bool,
    constant_sum: bool,
    parameters: dict[str, Any],
) -> pyspiel.GameType:
    """An honest `GameType`: explicit chance, sequential, terminal rewards; information and utility as told."""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if imperfect
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=(pyspiel.GameType.Utility.CONSTANT_SUM if constant_sum else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players[1],
        min_num_players=players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification=parameters,
    )


def merged(defaults: dict[str, Any], params: dict[str, Any] | None) -> dict[str, Any]:
    """The game's parameters: defaults overridden by what the caller gave (unknown names refused)."""
    params = dict(params or {})
    unknown = set(params) - set(defaults)
    if unknown:
        raise ValueError(f"unknown parameters: {sorted(unknown)}")
    return {**defaults, **params}


def check_returns_mode(value: str) -> str:
    if value not in (RETURNS_WIN, RETURNS_SCORES):
        raise ValueError(f"returns must be {RETURNS_WIN!r} or {RETURNS_SCORES!r}, got {value!r}")
    return value


class AdapterGame(pyspiel.Game):
    """Base of the five games: holds the parameters and builds states; subclasses set `encoding` and say how
    to start (`initial_rules_state`) and how a final state is scored (`final_scores`, `winners`)."""

    encoding: Encoding
    imperfect: bool = False

    def __init__(self, game_type_: pyspiel.GameType, info: pyspiel.GameInfo, params: dict[str, Any]) -> None:
        super().__init__(game_type_, info, params)
        self.params = params
        self.returns_mode = params.get("returns", RETURNS_WIN)

    # --- what a game module provides -------------------------------------------------------------------

    def initial_rules_state(self) -> Any:
        raise NotImplementedError

    def final_scores(self, rules_state: Any) -> list[float]:
        """Each player's final score by the rules model."""
        return [float(x) for x in rules_state.returns()]

    def winners(self, rules_state: Any) -> list[int]:
        """Who won by the rules model (several: a shared tie; none: everybody shares)."""
        return top_scorers(self.final_scores(rules_state))

    def resample(self, rules_state: Any, player: int, rng: random.Random) -> Any:
        """Hidden-information games: a rules state `player` cannot tell from `rules_state`, drawn at random."""
        raise NotImplementedError

    # --- OpenSpiel -----------------------------------------------------------------------------------------

    def new_initial_state(self) -> AdapterState:
        return AdapterState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        """The two observers OpenSpiel asks for: the default observation and the perfect-recall information
        state. A hidden-information game refuses other kinds (public-only, everybody's private cards): it has no
        string for them, and answering with the player's own view would show cards such an observer must not see.
        """
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        if iig_obs_type is None:
            return Observer(perfect_recall=False)
        single = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        if self.imperfect and not (single and iig_obs_type.public_info):
            raise ValueError("only the player's own view is observable (public and private information)")
        return Observer(perfect_recall=bool(iig_obs_type.perfect_recall))


class AdapterState(pyspiel.State):
    """An OpenSpiel state wrapping one immutable rules state, plus what each player has seen (for the
    perfect-recall information state of hidden-information games)."""

    def __init__(self, game: AdapterGame, rules_state: Any = None) -> None:
        super().__init__(game)
        self._rules = Frozen(rules_state if rules_state is not None else game.initial_rules_state())
        # One entry per applied action: (text everyone sees, {player: private text}) -- the record each
        # player's information state is built from.
        self._record = Frozen(())  # shared by clones like the rules state (a deep copy walks every entry)

    # --- access ---------------------------------------------------------------------------------------------

    @property
    def rules_state(self) -> Any:
        """The rules model's state this OpenSpiel state stands for."""
        return self._rules.value

    @property
    def _seen(self) -> tuple[tuple[str, tuple[tuple[int, str], ...]], ...]:
        return self._record.value  # type: ignore[no-any-return]

    @property
    def adapter_game(self) -> AdapterGame:
        return self.get_game()  # type: ignore[no-any-return]

    # --- OpenSpiel API --------------------------------------------------------------------------------------

    def current_player(self) -> int:
        return int(self.rules_state.current_player())

    def _legal_actions(self, player: int) -> list[int]:
        state = self.rules_state
        if player != state.current_player():
            return []
        if self._rules.legal is None:
            encoding = self.adapter_game.encoding
            if encoding.legal_ids is not None:
                self._rules.legal = encoding.legal_ids(state)
            else:
                self._rules.legal = sorted(encoding.encode(state, move) for move in state.legal_actions())
        return list(self._rules.legal)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        state = self.rules_state
        encode = self.adapter_game.encoding.encode_chance
        return sorted((encode(state, outcome), float(p)) for outcome, p in state.chance_outcomes())

    def _apply_action(self, action: int) -> None:
        state = self.rules_state
        encoding = self.adapter_game.encoding
        if state.current_player() == CHANCE:
            outcome = encoding.decode_chance(state, int(action))
            viewers = encoding.private_chance(state, outcome)
            text = encoding.chance_text(state, outcome)
            if viewers is None:
                entry: tuple[str, tuple[tuple[int, str], ...]] = (text, ())
            else:
                entry = ("chance:hidden", tuple((p, text) for p in sorted(viewers)))
            self._record = Frozen((*self._seen, entry))
            self._rules = Frozen(state.child(outcome))
            return
        move = encoding.decode(state, int(action))
        record = encoding.record_text or encoding.move_text
        self._record = Frozen((*self._seen, (f"p{state.current_player()}:{record(state, move)}", ())))
        self._rules = Frozen(state.child(move))

    def _action_to_string(self, player: int, action: int) -> str:
        state = self.rules_state
        encoding = self.adapter_game.encoding
        if player == CHANCE:
            return encoding.chance_text(state, encoding.decode_chance(state, int(action)))
        return encoding.move_text(state, encoding.decode(state, int(action)))

    def is_terminal(self) -> bool:
        return self.rules_state.current_player() == TERMINAL

    def returns(self) -> list[float]:
        game = self.adapter_game
        state = self.rules_state
        if state.current_player() != TERMINAL:
            return [0.0] * game.num_players()
        scores = game.final_scores(state)
        if game.returns_mode == RETURNS_SCORES or game.num_players() == 1:
            return scores
        return win_returns(scores, game.winners(state))

    def __str__(self) -> str:
        return self.adapter_game.encoding.describe(self.rules_state)

    # --- information --------------------------------------------------------------------------------------

    def information_string(self, player: int) -> str:
        """Perfect recall: every event in order as `player` saw it (hidden chance outcomes others drew as
        `chance:hidden`), then what `player` sees now."""
        lines = [f"p{player}"]
        for public, private in self._seen:
            mine = dict(private).get(player)
            lines.append(mine if mine is not None else public)
        lines.append(self.observation_text(player))
        return "\n".join(lines)

    def observation_text(self, player: int) -> str:
        """What `player` sees of the state now (the whole state in a perfect-information game)."""
        observe = self.adapter_game.encoding.observe
        if observe is None:
            return str(self)
        return observe(self.rules_state, player)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> AdapterState:
        """A state drawn from those `player_id` cannot tell apart from this one (ISMCTS's hook).

        Perfect-information games return a copy of this state. Hidden-information games override
        `AdapterGame.resample` and redraw the hidden part consistently with what the player has seen.
        """
        game = self.adapter_game
        rng = random.Random(None if probability_sampler is None else int(probability_sampler() * 2**31))
        resampled = game.resample(self.rules_state, player_id, rng) if game.imperfect else self.rules_state
        clone = self.clone()
        clone._rules = Frozen(resampled)
        # Other players' own draws are no longer those of the resampled world: their record shows them hidden.
        clone._record = Frozen(
            tuple((public, tuple(item for item in private if item[0] == player_id)) for public, private in self._seen)
        )
        return clone


class Observer:
    """OpenSpiel's observer protocol, strings only: the perfect-recall information state or the observation."""

    def __init__(self, *, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: AdapterState, player: int) -> None:
        """No tensor to fill: the games provide strings only."""

    def string_from(self, state: AdapterState, player: int) -> str:
        if self.perfect_recall:
            return state.information_string(player)
        return state.observation_text(player)


def resampler(state: AdapterState, player: int) -> AdapterState:
    """The callback for `ISMCTSBot.set_resampler`: the state's own `resample_from_infostate`."""
    return state.resample_from_infostate(player, None)
