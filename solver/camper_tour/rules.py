"""Camper Tour rules model: every clause of the rulebook as an immutable `GameState`.

The route is numbered 1..N from the starting plate (plate 1); campers start off the route at
position 0 (`OFF_ROUTE`), so a first move of k lands on plate k. Plates are laid as campers move onto
new ground; with no fixed layout each newly laid plate's kind is a chance node whose probabilities come
from what is left in the stack, so the generic expectimax, the exact solo solver's brute-force oracle and
the simulations all see the rulebook's exact odds.

Every reading the rulebook leaves open is decided here and listed in docs/rules/camper-tour.md together
with the test that pins it. Nothing in this module searches: solvers live in `solo`, `hint`, `puzzle`.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from campsolver.solver.core.game import CHANCE, TERMINAL, GameSpec

# --- Game facts (rulebook "Components" and "How to Play") -------------------------------------------

#: Track plates in the box, and the length of the longest possible outward journey.
PLATE_COUNT = 72
#: Camper tokens each player is dealt at the setup.
STARTING_TOKENS = 25
#: Camper tokens in the box ("100 wooden camper tokens"): gains are taken from the tokens nobody holds.
TOKEN_SUPPLY = 100
#: Announcement bounds ("from a minimum of 1 to a maximum of 10").
MIN_ANNOUNCEMENT = 1
MAX_ANNOUNCEMENT = 10
#: Players around the table (the rulebook's 2-4; 1 is the solo `max` setting).
MIN_CAMPERS = 1
MAX_CAMPERS = 4
#: Position of a camper that has not yet entered the route (or has left it).
OFF_ROUTE = 0
#: The first plate laid; the return journey ends there.
STARTING_PLATE = 1
#: Tokens recovered or discarded on Unexpected Comforts.
COMFORTS_TOKENS = 3
#: Tokens lost on No Parking when no move back is possible.
NO_PARKING_PENALTY = 3
#: Village Festival: a die showing at least this many gains that many tokens.
FESTIVAL_MIN_GAIN = 4
DIE_FACES = 6

#: The dice sum (2d6) with exact probabilities.
TWO_DICE: tuple[tuple[int, Fraction], ...] = tuple(
    (total, Fraction(DIE_FACES - abs(total - 7), DIE_FACES * DIE_FACES)) for total in range(2, 13)
)
#: One die, for the special plates.
ONE_DIE: tuple[tuple[int, Fraction], ...] = tuple((face, Fraction(1, DIE_FACES)) for face in range(1, 7))


class PlateKind(enum.IntEnum):
    """What a track plate does to the camper that stops on it (its index is used in stack counts)."""

    NORMAL = 0
    UNEXPECTED_COMFORTS = 1
    MECHANICAL_PROBLEM = 2
    VILLAGE_FESTIVAL = 3
    NO_PARKING = 4


SPECIAL_KINDS = (
    PlateKind.UNEXPECTED_COMFORTS,
    PlateKind.MECHANICAL_PROBLEM,
    PlateKind.VILLAGE_FESTIVAL,
    PlateKind.NO_PARKING,
)
#: The rulebook says "12 special plates" but not which: three of each is the documented default.
DEFAULT_SPECIALS: tuple[tuple[PlateKind, int], ...] = tuple((kind, 3) for kind in SPECIAL_KINDS)


class TokenRule(enum.Enum):
    """Where "take those you can ... the total number of tokens constitutes a limit" puts the limit."""

    #: Default: gains are taken from the supply (the box's tokens that nobody holds; paid and discarded
    #: tokens go back to it), so a camper may hold more than it was dealt.
    SUPPLY = "supply"
    #: Named variant: nobody may hold more than the starting count (the supply is then never short).
    PER_CAMPER_CAP = "per_camper_cap"


class NoParkingReturn(enum.Enum):
    """Which way No Parking's "move back" goes for a camper on the return journey."""

    #: Default: toward the starting plate (the only bound the clause names); a free advance home.
    TOWARD_START = "toward_start"
    #: Named variant: back the way the camper came (away from home), never past the furthest plate laid.
    AWAY_FROM_HOME = "away_from_home"


class Phase(enum.Enum):
    OUTWARD = "outward"
    RETURN = "return"
    FINISHED = "finished"  # reached the starting plate; removed from the route
    ELIMINATED = "eliminated"


#: The phases still on the journey (`Camper.active`), as a tuple of the members themselves: the playouts' hot
#: loops test membership by identity, without the enum class's attribute lookups.
_ON_JOURNEY = (Phase.OUTWARD, Phase.RETURN)


class Pending(enum.Enum):
    """An effect that a special plate leaves for the camper's next turn."""

    NONE = "none"
    SKIP_TURN = "skip_turn"  # Mechanical Problem, failed Village Festival: the next turn is lost
    COMFORTS_CHOICE = "comforts_choice"  # Unexpected Comforts: next turn stays still and chooses +3/-3/neither


class Stage(enum.Enum):
    """Where in a turn the state is; all but DECIDE and OVER are chance nodes."""

    DECIDE = "decide"
    ROLL = "roll"  # 2d6 after an announcement
    LAY = "lay"  # drawing the next plate from the stack
    EFFECT = "effect"  # the die of Mechanical Problem, Village Festival or No Parking
    OVER = "over"


_set = object.__setattr__


def replace(obj, **changes):  # type: ignore[no-untyped-def]
    """`dataclasses.replace` for the frozen, slotted state classes, without its introspection cost.

    Search creates millions of states; the standard helper dominated the brute-force oracle's run time.
    """
    cls = type(obj)
    new = object.__new__(cls)
    for name in cls.__slots__:
        _set(new, name, changes[name] if name in changes else getattr(obj, name))
    return new


# --- Actions ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Announce:
    """Announce a move of `plates` (1-10) and roll; moves exactly `plates` if the dice beat it."""

    plates: int


@dataclass(frozen=True)
class TurnBack:
    """Start the return journey at the start of the turn: marker on the current plate, then announce."""


@dataclass(frozen=True)
class Pass:
    """Only legal when no announcement is (every target occupied or off the route): the turn is lost."""


class ComfortsChoice(enum.Enum):
    """The turn spent on Unexpected Comforts ("you may recover or get rid of 3 camper tokens")."""

    RECOVER = "recover"  # +3, or what the supply (or the per-camper cap) allows
    DISCARD = "discard"  # -3, but never discarding tokens one does not have
    DECLINE = "decline"  # "may": neither


Action = Announce | TurnBack | Pass | ComfortsChoice

#: One instance per announcement (playouts make hundreds of thousands of legal-action lists).
_ANNOUNCE = {n: Announce(n) for n in range(MIN_ANNOUNCEMENT, MAX_ANNOUNCEMENT + 1)}
_TURN_BACK = TurnBack()
_PASS = Pass()


# --- Configuration and state ------------------------------------------------------------------------


@dataclass(frozen=True)
class Config:
    """A table: route length, tokens, and either a stack composition or an exact layout.

    `specials` gives the special plates in the shuffled stack (the rest are normal); `layout`, if set,
    fixes the kind of every plate 1..plate_count and makes plate laying deterministic (`specials` is
    then ignored).
    """

    plate_count: int = PLATE_COUNT
    starting_tokens: int = STARTING_TOKENS
    specials: tuple[tuple[PlateKind, int], ...] = DEFAULT_SPECIALS
    layout: tuple[PlateKind, ...] | None = None
    token_rule: TokenRule = TokenRule.SUPPLY
    no_parking_return: NoParkingReturn = NoParkingReturn.TOWARD_START
    token_supply: int = TOKEN_SUPPLY

    def __post_init__(self) -> None:
        if self.token_supply < self.starting_tokens:
            raise ValueError("the token supply must hold at least one camper's starting tokens")
        if self.plate_count < 2:
            raise ValueError("the route needs at least 2 plates")
        if self.starting_tokens < 1:
            raise ValueError("campers need at least one token")
        if any(count < 0 for _, count in self.specials):
            raise ValueError("special counts must be non-negative")
        if self.layout is None and sum(count for _, count in self.specials) > self.plate_count:
            raise ValueError("more special plates than plates")
        if self.layout is not None and len(self.layout) != self.plate_count:
            raise ValueError("a layout must give the kind of every plate")

    def stack_counts(self) -> tuple[int, ...]:
        """Plates of each `PlateKind` in the full stack (index = kind)."""
        if self.layout is not None:
            return tuple(sum(1 for k in self.layout if k == kind) for kind in PlateKind)
        counts = [0] * len(PlateKind)
        for kind, count in self.specials:
            counts[kind] += count
        counts[PlateKind.NORMAL] = self.plate_count - sum(counts)
        return tuple(counts)

    @property
    def token_limit(self) -> int:
        """Most tokens one camper can ever hold: the whole supply, or the starting count under the cap variant."""
        return self.starting_tokens if self.token_rule == TokenRule.PER_CAMPER_CAP else self.token_supply

    @property
    def has_specials(self) -> bool:
        return any(count for kind, count in enumerate(self.stack_counts()) if kind != PlateKind.NORMAL)


def all_normal(plate_count: int = PLATE_COUNT, starting_tokens: int = STARTING_TOKENS) -> Config:
    """A route without special plates (the reference setting of the solo `max` figure)."""
    return Config(plate_count=plate_count, starting_tokens=starting_tokens, specials=())


@dataclass(frozen=True, slots=True)
class Camper:
    """One camper: where it is, its tokens, its phase and marker, and any effect left for its next turn."""

    position: int = OFF_ROUTE
    tokens: int = STARTING_TOKENS  # never negative: a shortfall on the return moves the marker instead
    phase: Phase = Phase.OUTWARD
    marker: int = 0  # the place marker: set on turning back, moved back one plate per token missing
    pending: Pending = Pending.NONE
    arrival: int = 0  # 1 for the first camper home, 2 for the next... (the tie rule)

    @property
    def active(self) -> bool:
        """Still on the journey (occupies its plate, takes turns)."""
        return self.phase in _ON_JOURNEY

    @property
    def score(self) -> int:
        """Final score: the marker (already moved back for every missing token) minus the tokens left at
        arrival; 0 for a camper that did not finish."""
        if self.phase != Phase.FINISHED:
            return 0
        return self.marker - self.tokens


@dataclass(frozen=True, slots=True)
class TourState:
    """The whole table. Immutable and hashable: the generic expectimax memoises on it.

    `laid[i]` is the kind of plate i+1. `announced` and `target` only matter inside a turn (ROLL: the
    announcement; LAY: the plate the mover will stop on once the new plates are laid).
    """

    config: Config
    campers: tuple[Camper, ...]
    to_move: int = 0
    laid: tuple[PlateKind, ...] = ()
    stage: Stage = Stage.DECIDE
    announced: int = 0
    target: int = 0

    # --- GameState protocol -----------------------------------------------------------------------

    def current_player(self) -> int:
        if self.stage == Stage.OVER:
            return TERMINAL
        if self.stage == Stage.DECIDE:
            return self.to_move
        return CHANCE

    def legal_actions(self) -> list[Action]:
        if self.stage != Stage.DECIDE:
            return []
        camper = self.mover
        actions: list[Action] = []
        if camper.phase == Phase.OUTWARD and camper.position >= STARTING_PLATE + 1:
            actions.append(_TURN_BACK)  # "at the start of their turn": a turn spent still is a turn too
        if camper.pending == Pending.COMFORTS_CHOICE:
            return actions + list(ComfortsChoice)
        actions.extend([_ANNOUNCE[n] for n in self.legal_announcements()])
        return actions or [_PASS]

    def open_announcements(self) -> list[int]:
        """The announcements `legal_actions` lists now: none outside a decision or while the Unexpected Comforts
        choice is pending, else `legal_announcements` (the one place the players and `is_legal` ask)."""
        if self.stage != Stage.DECIDE or self.mover.pending == Pending.COMFORTS_CHOICE:
            return []
        return self.legal_announcements()

    def is_legal(self, action: object) -> bool:
        """`action in legal_actions()`, without building the list (the playouts' every step asks it)."""
        if self.stage != Stage.DECIDE:
            return False
        camper = self.mover
        if isinstance(action, Announce):
            return action.plates in self.open_announcements()
        if isinstance(action, TurnBack):
            return camper.phase == Phase.OUTWARD and camper.position >= STARTING_PLATE + 1
        if isinstance(action, ComfortsChoice):
            return camper.pending == Pending.COMFORTS_CHOICE
        if isinstance(action, Pass):
            return self.legal_actions() == [_PASS]
        return False

    def chance_outcomes(self) -> list[tuple[object, Fraction]]:
        if self.stage == Stage.ROLL:
            return list(TWO_DICE)
        if self.stage == Stage.LAY:
            return [(kind, p) for kind, p in self.next_plate_distribution()]
        if self.stage == Stage.EFFECT:
            return list(self._effect_outcomes())
        return []

    def child(self, action: object) -> TourState:
        if self.stage == Stage.DECIDE:
            return self._apply_action(action)
        if self.stage == Stage.ROLL:
            return self._apply_roll(int(action))  # type: ignore[call-overload]
        if self.stage == Stage.LAY:
            return self._apply_lay(PlateKind(action))  # type: ignore[call-overload]
        if self.stage == Stage.EFFECT:
            return self._apply_effect(int(action))  # type: ignore[call-overload]
        raise ValueError("the game is over")

    def returns(self) -> list[float]:
        return [float(c.score) for c in self.campers]

    # --- Queries ----------------------------------------------------------------------------------

    @property
    def mover(self) -> Camper:
        return self.campers[self.to_move]

    def others_in_game(self) -> list[int]:
        """The other campers not eliminated (finished ones included: their score is still one to beat)."""
        return [i for i, c in enumerate(self.campers) if i != self.to_move and c.phase != Phase.ELIMINATED]

    @property
    def cap(self) -> int:
        """Most tokens the mover may hold after a gain ("take those you can")."""
        return self.gain_limit(self.to_move)

    def gain_limit(self, index: int) -> int:
        """Most tokens camper `index` may hold after a gain: its own tokens plus what the supply has left
        (tokens in the box nobody on the journey holds), or the starting count under the cap variant."""
        config = self.config
        if config.token_rule == TokenRule.PER_CAMPER_CAP:
            return max(config.starting_tokens, self.campers[index].tokens)
        return config.token_supply - sum(c.tokens for i, c in enumerate(self.campers) if i != index and c.active)

    def plate_kind(self, plate: int) -> PlateKind:
        """The kind that acts on a camper stopping on `plate` (the starting plate is never special)."""
        if plate <= STARTING_PLATE or plate > len(self.laid):
            return PlateKind.NORMAL
        return self.laid[plate - 1]

    def occupied(self, plate: int, *, besides: int) -> bool:
        """Whether another active camper stands on `plate` (off the route is not a plate)."""
        if plate < STARTING_PLATE:
            return False
        return any(i != besides and c.active and c.position == plate for i, c in enumerate(self.campers))

    def legal_announcements(self) -> list[int]:
        """Announcements of the mover that stay on the route and do not end on an occupied plate."""
        camper = self.mover
        position = camper.position
        # The plates other active campers stand on, gathered once (`occupied` per target dominated playouts).
        to_move = self.to_move
        taken = {c.position for i, c in enumerate(self.campers) if i != to_move and c.phase in _ON_JOURNEY}
        # Every destination is a plate (>= STARTING_PLATE), as `occupied` asks; none is beyond the route's end.
        if camper.phase == Phase.OUTWARD:
            last = min(MAX_ANNOUNCEMENT, self.config.plate_count - position)
            return [n for n in range(MIN_ANNOUNCEMENT, last + 1) if position + n not in taken]
        last = min(MAX_ANNOUNCEMENT, position - STARTING_PLATE)
        return [n for n in range(MIN_ANNOUNCEMENT, last + 1) if position - n not in taken]

    def remaining_stack(self) -> tuple[int, ...]:
        """Plates of each kind still face down."""
        counts = list(self.config.stack_counts())
        for kind in self.laid:
            counts[kind] -= 1
        return tuple(counts)

    def next_plate_distribution(self) -> list[tuple[PlateKind, Fraction]]:
        """Exact odds of the next plate's kind (certain under a fixed layout)."""
        if self.config.layout is not None:
            return [(self.config.layout[len(self.laid)], Fraction(1))]
        counts = self.remaining_stack()
        total = sum(counts)
        return [(PlateKind(k), Fraction(c, total)) for k, c in enumerate(counts) if c > 0]

    @property
    def last_camper_rule(self) -> bool:
        """The rulebook's last-camper rule: a multi-camper game with exactly one camper still travelling."""
        campers = self.campers
        if len(campers) < 2:
            return False
        active = 0
        for camper in campers:
            if camper.phase in _ON_JOURNEY:
                active += 1
        return active == 1

    def winner(self) -> int | None:
        """Highest final score among finished campers, ties to the one who returned last; None if nobody."""
        finished = [i for i, c in enumerate(self.campers) if c.phase == Phase.FINISHED]
        if not finished:
            return None
        return max(finished, key=lambda i: (self.campers[i].score, self.campers[i].arrival))

    # --- Transitions ------------------------------------------------------------------------------

    def _with_mover(self, camper: Camper, **changes: object) -> TourState:
        campers = list(self.campers)
        campers[self.to_move] = camper
        return replace(self, campers=tuple(campers), **changes)  # type: ignore[arg-type]

    def _apply_action(self, action: object) -> TourState:
        if not self.is_legal(action):
            raise ValueError(f"illegal action {action!r}")
        camper = self.mover
        if isinstance(action, ComfortsChoice):
            tokens = camper.tokens
            if action == ComfortsChoice.RECOVER:
                tokens = max(tokens, min(self.cap, tokens + COMFORTS_TOKENS))
            elif action == ComfortsChoice.DISCARD and tokens > 0:
                tokens = max(0, tokens - COMFORTS_TOKENS)
            camper = replace(camper, tokens=tokens, pending=Pending.NONE)
            return self._with_mover(camper)._after_token_loss()._end_turn()
        if isinstance(action, TurnBack):
            # The marker goes on the current plate; the same turn continues (an announcement home, or the
            # Unexpected Comforts choice of a turn spent still).
            camper = replace(camper, phase=Phase.RETURN, marker=camper.position)
            return self._with_mover(camper)
        if isinstance(action, Pass):
            return self._end_turn()
        assert isinstance(action, Announce)
        return replace(self, stage=Stage.ROLL, announced=action.plates)

    def _apply_roll(self, total: int) -> TourState:
        camper = self.mover
        announced = self.announced
        base = replace(self, stage=Stage.DECIDE, announced=0)
        if total <= announced:
            if self.last_camper_rule:
                return base._eliminate_mover()
            return base._end_turn()
        payment = total - announced
        if camper.phase == Phase.OUTWARD:
            tokens = camper.tokens - payment
            if tokens <= 0:
                # Ran out before turning back. The plates this move would lay are not drawn: the stack is
                # shuffled, so which plates come next is equally likely either way.
                return base._with_mover(replace(camper, tokens=0))._eliminate_mover()
            destination = camper.position + announced
            moved = base._with_mover(replace(camper, position=destination, tokens=tokens))
            if destination > len(self.laid):
                return replace(moved, stage=Stage.LAY, target=destination)._lay_known_plates()
            return moved._land()
        destination = camper.position - announced
        moved = base._with_mover(replace(pay_on_return(camper, payment), position=destination))
        if destination == STARTING_PLATE:
            return moved._arrive()
        return moved._land()

    def _lay_known_plates(self) -> TourState:
        """Under a fixed layout laying is not a chance event: lay everything at once."""
        if self.config.layout is None:
            return self
        laid = self.config.layout[: self.target]
        return replace(self, laid=laid, stage=Stage.DECIDE, target=0)._land()

    def _apply_lay(self, kind: PlateKind) -> TourState:
        laid = (*self.laid, kind)
        if len(laid) < self.target:
            return replace(self, laid=laid)
        return replace(self, laid=laid, stage=Stage.DECIDE, target=0)._land()

    def _land(self) -> TourState:
        """The mover has stopped on its plate after a normal move: apply the plate."""
        camper = self.mover
        kind = self.plate_kind(camper.position)
        if kind == PlateKind.UNEXPECTED_COMFORTS:
            return self._with_mover(replace(camper, pending=Pending.COMFORTS_CHOICE))._end_turn()
        if kind == PlateKind.MECHANICAL_PROBLEM and camper.phase == Phase.OUTWARD:
            return replace(self, stage=Stage.EFFECT)
        if kind in (PlateKind.VILLAGE_FESTIVAL, PlateKind.NO_PARKING):
            return replace(self, stage=Stage.EFFECT)
        return self._end_turn()

    def _no_parking_destination(self, face: int) -> int:
        camper = self.mover
        if camper.phase == Phase.RETURN and self.config.no_parking_return == NoParkingReturn.AWAY_FROM_HOME:
            return camper.position + face
        return camper.position - face

    def _no_parking_possible(self, destination: int) -> bool:
        """Inside the route: never beyond the starting plate, nor (moving away from home) the furthest plate laid."""
        return STARTING_PLATE <= destination <= len(self.laid)

    def _effect_outcomes(self) -> list[tuple[int, Fraction]]:
        kind = self.plate_kind(self.mover.position)
        if kind != PlateKind.NO_PARKING:
            return list(ONE_DIE)
        # "If the arrival plate is occupied by another camper, roll the die again": conditioned away.
        free = [
            face for face, _ in ONE_DIE if not self.occupied(self._no_parking_destination(face), besides=self.to_move)
        ]  # a face that leaves the route is not occupied: it is "no possible move" (lose 3)
        return [(face, Fraction(1, len(free))) for face in free]

    def _apply_effect(self, face: int) -> TourState:
        camper = self.mover
        kind = self.plate_kind(camper.position)
        base = replace(self, stage=Stage.DECIDE)
        if kind == PlateKind.MECHANICAL_PROBLEM:
            camper = replace(camper, tokens=camper.tokens - face, pending=Pending.SKIP_TURN)
            return base._with_mover(camper)._after_token_loss()._end_turn()
        if kind == PlateKind.VILLAGE_FESTIVAL:
            if face >= FESTIVAL_MIN_GAIN:
                camper = replace(camper, tokens=max(camper.tokens, min(self.cap, camper.tokens + face)))
            else:
                camper = replace(camper, pending=Pending.SKIP_TURN)
            return base._with_mover(camper)._end_turn()
        assert kind == PlateKind.NO_PARKING
        destination = self._no_parking_destination(face)
        if not self._no_parking_possible(destination):
            if camper.phase == Phase.RETURN:
                camper = pay_on_return(camper, NO_PARKING_PENALTY)
            else:
                camper = replace(camper, tokens=camper.tokens - NO_PARKING_PENALTY)
            return base._with_mover(camper)._after_token_loss()._end_turn()
        moved = base._with_mover(replace(camper, position=destination))
        if destination == STARTING_PLATE and camper.phase == Phase.RETURN:
            return moved._arrive()
        return moved._end_turn()  # the plate reached by moving back is treated as normal

    def _after_token_loss(self) -> TourState:
        """Running out of tokens before turning back eliminates the camper."""
        camper = self.mover
        if camper.phase == Phase.OUTWARD and camper.tokens <= 0:
            return self._with_mover(replace(camper, tokens=0))._eliminate_mover(end_turn=False)
        return self

    def _eliminate_mover(self, *, end_turn: bool = True) -> TourState:
        camper = replace(self.mover, phase=Phase.ELIMINATED, position=OFF_ROUTE, pending=Pending.NONE)
        state = self._with_mover(camper)
        return state._end_turn() if end_turn else state

    def _arrive(self) -> TourState:
        """The mover reached the starting plate: removed from the route, maybe ending the game."""
        arrivals = sum(1 for c in self.campers if c.phase == Phase.FINISHED)
        camper = replace(
            self.mover, phase=Phase.FINISHED, position=OFF_ROUTE, pending=Pending.NONE, arrival=arrivals + 1
        )
        state = self._with_mover(camper)
        if state._furthest_ahead(self.to_move):
            return replace(state, stage=Stage.OVER)
        return state._end_turn()

    def _furthest_ahead(self, index: int) -> bool:
        """Whether camper `index`'s final marker is the furthest ahead on the route.

        Compared with finished campers' final markers (a tie goes to the later arrival, i.e. this one),
        with returning campers' markers and with outward campers' positions (both must be strictly
        behind: they could still equal it and, returning later, win the tie).
        """
        score = self.campers[index].score
        for i, other in enumerate(self.campers):
            if i == index:
                continue
            if other.phase == Phase.FINISHED and other.score > score:
                return False
            if other.phase == Phase.RETURN and other.marker >= score:
                return False
            if other.phase == Phase.OUTWARD and other.position >= score:
                return False
        return True

    @property
    def game_over(self) -> bool:
        """The game has ended by the rules: an arrival furthest ahead, or nobody left on the journey.

        Read from `stage`, which only the transitions set to OVER (`_arrive`, `_end_turn`): the end is checked
        at an arrival, so the campers as they stand cannot tell it apart from a game that went on after an
        arrival and whose other campers fell behind later (`read_game_over`).
        """
        return self.stage == Stage.OVER

    def _end_turn(self) -> TourState:
        """Pass the dice clockwise; a pending skipped turn is consumed on the way."""
        count = len(self.campers)
        campers = list(self.campers)
        index = self.to_move
        for _ in range(2 * count + 1):
            if not any(c.phase in _ON_JOURNEY for c in campers):
                return replace(self, campers=tuple(campers), stage=Stage.OVER, announced=0, target=0)
            index = (index + 1) % count
            camper = campers[index]
            if not camper.active:
                continue
            if camper.pending == Pending.SKIP_TURN:
                campers[index] = replace(camper, pending=Pending.NONE)
                continue
            return TourState(self.config, tuple(campers), index, self.laid, Stage.DECIDE, 0, 0)
        raise AssertionError("turn order did not settle")  # pragma: no cover


def pay_on_return(camper: Camper, tokens: int) -> Camper:
    """Pay `tokens` on the return journey: what is missing moves the place marker back at once, one plate
    per token ("for each camper token that we should have consumed ... move our place marker back")."""
    shortfall = max(0, tokens - camper.tokens)
    return replace(camper, tokens=max(0, camper.tokens - tokens), marker=camper.marker - shortfall)


def ended_by_arrival(campers: Sequence[Camper]) -> bool:
    """Whether a table where nobody is mid-turn is over by the rules, read from the campers alone.

    Over when nobody is on the journey any more, or when the latest camper home is furthest ahead of
    everybody as they stand. The arrival rule is checked at arrival, so this is necessary for the end but not
    sufficient (the others may have fallen behind since): it is the reading of a table whose sender does not
    say whether the game goes on (`read_game_over`), taking the present as the moment of the latest arrival.
    """
    if not any(c.active for c in campers):
        return True
    finished = [i for i, c in enumerate(campers) if c.phase == Phase.FINISHED]
    if not finished:
        return False
    latest = max(finished, key=lambda i: campers[i].arrival)
    state = TourState(
        config=Config(plate_count=max(2, *(c.position for c in campers)), specials=()), campers=tuple(campers)
    )
    return state._furthest_ahead(latest)


def read_game_over(campers: Sequence[Camper], game_over: bool | None) -> bool:
    """Whether a table where nobody is mid-turn is over, given what its sender says (`None`: not said).

    The campers as they stand settle it in part: with nobody on the journey the game is over, and with campers
    travelling it can only be over if the latest camper home is furthest ahead of them (nothing moves after
    the arrival that ended it). The rest only the record of the latest arrival tells, and `game_over` is that
    record; `None` reads the present as the moment of the latest arrival (`ended_by_arrival`). ValueError when
    `game_over` contradicts the campers.
    """
    if not any(c.active for c in campers):
        if game_over is False:
            raise ValueError("nobody is on the journey any more: the game is over")
        return True
    if game_over is None:
        return ended_by_arrival(campers)
    if game_over and not ended_by_arrival(campers):
        if not any(c.phase == Phase.FINISHED for c in campers):
            raise ValueError("campers are on the journey and nobody has reached the starting plate: the game goes on")
        raise ValueError(
            "the latest camper home is not furthest ahead of the campers on the journey: its arrival "
            "did not end the game, and it goes on"
        )
    return game_over


# --- Construction helpers ---------------------------------------------------------------------------


def new_game(config: Config | None = None, campers: int = 2, *, first: int = 0) -> TourState:
    """The setup: every camper off the route with the starting tokens, nothing laid, `first` to play."""
    config = config or Config()
    if not MIN_CAMPERS <= campers <= MAX_CAMPERS:
        raise ValueError(f"{MIN_CAMPERS}-{MAX_CAMPERS} campers")
    if config.token_rule == TokenRule.SUPPLY and campers * config.starting_tokens > config.token_supply:
        raise ValueError(f"{campers} x {config.starting_tokens} tokens: more than the {config.token_supply} in the box")
    players = tuple(Camper(tokens=config.starting_tokens) for _ in range(campers))
    return TourState(config=config, campers=players, to_move=first)


def position_state(
    config: Config,
    campers: Sequence[Camper],
    *,
    to_move: int = 0,
    laid: Sequence[PlateKind] | None = None,
) -> TourState:
    """A mid-game decision state (puzzles, hints, tests), validated against the rules' invariants.

    `laid` defaults to the fixed layout's prefix (or all-normal plates) up to the furthest plate any
    camper has reached or marked.
    """
    reach = max([c.position for c in campers] + [c.marker for c in campers] + [0])
    if laid is None:
        laid = config.layout[:reach] if config.layout is not None else (PlateKind.NORMAL,) * reach
    state = TourState(config=config, campers=tuple(campers), to_move=to_move, laid=tuple(laid))
    validate(state)
    return state


def validate(state: TourState) -> None:
    """Raise ValueError if `state` breaks an invariant of the rules (every state the rules can reach passes)."""
    config = state.config
    if not MIN_CAMPERS <= len(state.campers) <= MAX_CAMPERS:
        raise ValueError("1-4 campers")
    if len(state.laid) > config.plate_count:
        raise ValueError("more plates laid than exist")
    if config.layout is not None and tuple(state.laid) != config.layout[: len(state.laid)]:
        raise ValueError("laid plates disagree with the fixed layout")
    if any(c < 0 for c in state.remaining_stack()):
        raise ValueError("laid plates not in the stack")
    plates = [c.position for c in state.campers if c.active and c.position >= STARTING_PLATE]
    if len(plates) != len(set(plates)):
        raise ValueError("two campers on one plate")
    held = sum(c.tokens for c in state.campers if c.active)
    if config.token_rule == TokenRule.SUPPLY and held > config.token_supply:
        raise ValueError(f"the campers hold {held} tokens, more than the {config.token_supply} in the box")
    for c in state.campers:
        if c.tokens < 0:
            raise ValueError("tokens are never negative (a shortfall moves the place marker back instead)")
        if config.token_rule == TokenRule.PER_CAMPER_CAP and c.tokens > config.starting_tokens:
            raise ValueError("tokens above the per-camper cap")
        if c.active and c.position > len(state.laid):
            raise ValueError("camper beyond the laid plates")
        if c.phase == Phase.OUTWARD and c.active and c.tokens <= 0:
            raise ValueError("an outward camper without tokens is eliminated")
        if c.phase == Phase.OUTWARD and c.marker != 0:
            raise ValueError("an outward camper has no place marker yet")
        if c.phase == Phase.RETURN:
            if c.position <= STARTING_PLATE:
                raise ValueError("a returning camper stands on plate 2 or later (plate 1 is home)")
            if c.marker > len(state.laid):
                raise ValueError("place marker beyond the laid plates")
        if c.phase == Phase.FINISHED and c.marker > config.plate_count:
            raise ValueError("place marker beyond the route")
    arrivals = [c.arrival for c in state.campers if c.phase == Phase.FINISHED]
    if len(arrivals) != len(set(arrivals)):
        raise ValueError("two campers home with the same arrival number (it decides ties and the latest arrival)")
    if state.stage == Stage.OVER and any(c.active for c in state.campers) and not ended_by_arrival(state.campers):
        raise ValueError(
            "the game is over with campers on the journey, yet the latest camper home is not furthest ahead of them"
        )
    if state.stage == Stage.DECIDE and not state.mover.active:
        raise ValueError("the camper to move is not on the journey")
    if state.stage == Stage.DECIDE and len(state.campers) >= 2 and state.mover.pending == Pending.SKIP_TURN:
        # The turn order consumes a skipped turn before the camper could ever be asked to decide; in the solo
        # setting a lost turn costs nothing and is accepted.
        raise ValueError("the camper to move has a skipped turn pending: the turn passes to the next camper")


# --- the game (solver.core.game.Game) -------------------------------------------------------------------

#: The state of a Camper Tour game, named after the game (the same class as `TourState`).
CamperTourState = TourState


@dataclass(frozen=True)
class CamperTourSetup:
    """A table: how many campers, the rules `Config` and who plays first (`new_game`'s arguments)."""

    players: int
    config: Config = field(default_factory=Config)
    first: int = 0


#: Camper Tour as a `Game`: 1 (solo) to 4 campers, everybody off the route with the starting tokens.
GAME: GameSpec[CamperTourSetup, TourState] = GameSpec(
    name="camper_tour",
    min_players=MIN_CAMPERS,
    max_players=MAX_CAMPERS,
    make_config=lambda players: CamperTourSetup(players),
    players_of=lambda setup: setup.players,
    start=lambda setup: new_game(setup.config, setup.players, first=setup.first),
    scores=lambda state: tuple(camper.score for camper in state.campers),
)
