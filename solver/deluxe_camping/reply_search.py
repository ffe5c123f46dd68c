"""The default hint search: every choice valued by the territory estimate, the best against the next player's
best reply.

Why this shape: the territory estimate (`value_of`: allotted points plus the open squares each player reaches
first, late in the game scaled by how much of its frontier the player can still close) is cheap enough to value
every choice of a turn at the bench's 0.05 CPU-s a call (`territory.Board` repairs distances locally), and a
player who looks one reply ahead beats one who does not (the next player's free barrier takes back what a
barrier claimed; docs/solvers/deluxe-camping.md has the games). A turn is a movement then a free barrier; the
search plans the whole turn:

1. *Turn* values. At a BARRIER decision every legal barrier. At a MOVE decision every movement is first
   *screened* (its position before the free barrier), then, best screened first, completed with the mover's best
   free barrier among the candidates (the best barriers if the mover stayed put, the edges around the squares
   the movement touches): its *turn* value.
2. *Reply* values, best turn first, as many as the budget allows: the next player (the next one not stopped)
   replies with the best of staying put and their most threatening movements (ranked once, at the root), each
   completed with their best barrier among their most threatening ones (ranked once at the root, plus the edges
   the mover's turn touched), best by *their* margin over their best opponent. The choice's value is the
   mover's value after that reply; a line that ends the game is scored by the rules.

Values are from the mover's side: the margin over the best opponent (`OBJECTIVE_MARGIN`, what wins) or the
mover's own score (`OWN`), as the estimate predicts it (`value_of`). Every loop checks the budget; what was
valued when it ends is the answer.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

from campsolver.solver.deluxe_camping import territory as terr
from campsolver.solver.deluxe_camping.rules import Action, Barrier, DCState, Move, Stage
from campsolver.solver.deluxe_camping.territory import Board, Features

#: Barriers a player is likely to place, ranked once at the root (the mover's own candidates after a movement,
#: the next player's candidates in a reply); the edges a turn touches are added to them.
BARRIER_CANDIDATES = 16
#: The next player's movements tried in a reply besides staying put (their best, ranked once at the root).
REPLY_MOVES = 3
#: Barrier candidates after one of those movements (the best of the reply candidates, re-valued there).
REPLY_MOVE_BARRIERS = 8
#: At a movement: movements completed with their barrier, then turns replied to, in turn (best first).
COMPLETE_BATCH = 4
REPLY_BATCH = 2


class Group(enum.IntEnum):
    """What a choice's value is; ranked by group first (lower first), then by value."""

    REPLY = 0  # after the next player's best reply (or the game's end within the line)
    TURN = 1  # after the mover's whole turn (movement and free barrier), no reply
    SCREEN = 2  # after the movement only, before the free barrier
    NONE = 3  # not valued in time


@dataclass
class Choice:
    """One legal choice and what the search learnt of it."""

    index: int
    action: Action
    screen: float | None = None
    turn: float | None = None
    reply: float | None = None
    turn_final: bool = False  # the turn ends the game: `turn` is the final objective, by the rules
    turn_exhaustive: bool = False  # every legal free barrier was tried and valued final (or none follows)
    reply_final: bool = False  # the reply line ends the game: `reply` is that line's final objective
    barrier: Barrier | None = None  # after a movement: the mover's barrier in the line
    reply_line: tuple[Action, ...] = ()

    @property
    def group(self) -> Group:
        if self.reply is not None:
            return Group.REPLY
        if self.turn is not None:
            return Group.TURN
        if self.screen is not None:
            return Group.SCREEN
        return Group.NONE

    @property
    def value(self) -> float | None:
        return {Group.REPLY: self.reply, Group.TURN: self.turn, Group.SCREEN: self.screen}.get(self.group)

    @property
    def line(self) -> tuple[Action, ...]:
        """The actions after this choice that its value assumes (the mover's barrier, the reply)."""
        own = (self.barrier,) if self.barrier is not None else ()
        return (*own, *self.reply_line) if self.group is Group.REPLY else own if self.group is Group.TURN else ()


#: The closure share phases in as the supply runs down: no share while at least this part of the box's barriers is
#: left, the whole share from `CLOSURE_FULL` on (on the default 60: from 40 down to 20 barriers).
CLOSURE_NONE = 2 / 3
CLOSURE_FULL = 1 / 3


def closure_weights(supply: int) -> tuple[float, float]:
    """The supply levels (no share at or above the first, the whole share at or below the second) for a box of
    `supply` barriers."""
    return supply * CLOSURE_NONE, supply * CLOSURE_FULL


def value_of(f: Features, player: int, own: bool = False, closure: tuple[float, float] | None = None) -> float:
    """The estimate of `player`'s final margin over the best opponent (or own score): allotted points plus
    territory; once the game is over (no barrier left, nobody left to play), the allotted points alone.

    `closure` = (from, full) supply levels: as the supply runs down from `from` to `full`, each player's
    territory is scaled more and more by the share of its frontier (the open edges around it) that the player's
    own share of the supply (the barriers left over the players still playing) could close: territory that
    cannot be closed before the barriers run out scores nothing (against an opponent who keeps pieces inside it,
    the plain estimate called a lost game won)."""
    if f.over:
        scores = f.allotted
    elif closure is None:
        scores = [f.allotted[p] + f.territory[p] for p in range(len(f.allotted))]
    else:
        start, full = closure
        weight = min(1.0, max(0.0, (f.supply_left - full) / (start - full))) if start > full else 0.0
        own_share = f.supply_left / max(1, sum(f.active))
        scores = [
            f.allotted[p] + (weight + (1.0 - weight) * min(1.0, own_share / max(1, f.frontier[p]))) * f.territory[p]
            for p in range(len(f.allotted))
        ]
    if own:
        return float(scores[player])
    return float(scores[player] - max(s for p, s in enumerate(scores) if p != player))


def next_player(f: Features, after: int, players: int) -> int | None:
    """Who plays after `after`'s turn: the next player not stopped (None: the game is over)."""
    if f.over:
        return None
    for k in range(1, players + 1):
        p = (after + k) % players
        if f.active[p]:
            return p
    return None


class Search:
    """One hint's search (see the module docstring). `check()` raises when the budget is spent."""

    def __init__(
        self, state: DCState, check: Callable[[], None], own: bool = False, replies: bool = True, closure: bool = True
    ) -> None:
        self.state = state
        self.closure = closure_weights(state.config.supply) if closure else None
        self.check = check
        self.own = own
        self.replies = replies
        self.me = state.to_move
        self.players = state.config.players
        self.n = state.config.squares
        self.root = terr.board_of(state)
        self.evaluations = 0
        self.choices = [Choice(i, a) for i, a in enumerate(state.legal_actions())]
        self._my_barriers: list[int] | None = None
        self._threats: dict[int, tuple[list[int], list[Move]]] = {}

    def mine(self, f: Features) -> float:
        return value_of(f, self.me, self.own, self.closure)

    def theirs(self, f: Features, player: int) -> float:
        """`player`'s margin (how a reply is chosen)."""
        return value_of(f, player, closure=self.closure)

    # --- 1. turn values ------------------------------------------------------------------------------------

    def run(self) -> None:
        """Every phase in turn until the budget ends it (`check` raises; what was valued stays). At a movement,
        completing movements and replying to the best completed ones alternate (`COMPLETE_BATCH`,
        `REPLY_BATCH`), so that a short budget still searches replies."""
        if self.state.stage is Stage.BARRIER:
            self._barrier_turns()
            if self.replies:
                self._replies()
            return
        self._screen_moves()
        self.my_barriers()
        pending = sorted((c for c in self.choices if c.turn is None), key=lambda c: (-(c.screen or 0.0), c.index))
        while True:
            batch, pending = pending[:COMPLETE_BATCH], pending[COMPLETE_BATCH:]
            for choice in batch:
                self._complete(choice)
            waiting = sorted(
                (c for c in self.choices if c.turn is not None and c.reply is None),
                key=lambda c: (-(c.turn or 0.0), c.index),
            )
            if not self.replies:
                waiting = []
            if not waiting and not pending:
                return
            for choice in waiting[:REPLY_BATCH] if pending else waiting:
                self.check()
                self._reply(choice)

    def _barrier_turns(self) -> None:
        root = self.root
        for choice in self.choices:
            self.check()
            edge = choice.action.edge  # type: ignore[union-attr]
            f = root.features() if edge is None else root.with_barrier(terr.edge_id(self.n, edge))
            self.evaluations += 1
            choice.turn = self.mine(f)
            choice.turn_final = f.over
            choice.turn_exhaustive = True

    def _screen_moves(self) -> None:
        root, state = self.root, self.state
        for choice in self.choices:
            self.check()
            change = terr.move_change(state, choice.action)  # type: ignore[arg-type]
            f = root.after(change.trailers, change.blocked, change.nuisance)
            self.evaluations += 1
            choice.screen = self.mine(f)
            if f.over or not f.active[self.me] or f.supply_left <= 0:
                choice.turn, choice.turn_final = choice.screen, f.over  # no free barrier follows
                choice.turn_exhaustive = True

    def my_barriers(self) -> list[int]:
        """The mover's best barriers if they stayed put (ranked once)."""
        if self._my_barriers is None:
            self._my_barriers = self._rank_barriers(self.root, self.me)
        return self._my_barriers

    def _rank_barriers(self, board: Board, player: int) -> list[int]:
        scored = []
        for e in board.legal_barriers():
            self.check()
            scored.append((self.theirs(board.with_barrier(e), player), e))
            self.evaluations += 1
        scored.sort(key=lambda pair: (-pair[0], pair[1]))
        return [e for _, e in scored[:BARRIER_CANDIDATES]]

    def _complete(self, choice: Choice) -> None:
        """The mover's best free barrier after a movement (among the candidates): its turn value."""
        self.check()
        change = terr.move_change(self.state, choice.action)  # type: ignore[arg-type]
        board = self.root.child(change.trailers, change.blocked, change.nuisance)
        legal = board.legal_barriers()
        if board.supply_left == 1 or len(legal) <= BARRIER_CANDIDATES:
            edges = legal  # the last barrier (it ends the game) or few: every one, so a final value is exact
        else:
            edges = self._touched_edges(board, choice.action.steps, self.my_barriers())  # type: ignore[union-attr]
            edges = edges or legal[:1]
        if not edges:  # no free barrier follows (cannot happen when the screen found one possible)
            choice.turn = choice.screen
            return
        best: tuple[float, int, Features] | None = None
        every_final = True
        for e in edges:
            self.check()
            f = board.with_barrier(e)
            self.evaluations += 1
            every_final = every_final and f.over
            v = self.mine(f)
            if best is None or v > best[0]:
                best = (v, e, f)
        assert best is not None
        choice.turn, choice.turn_final = best[0], best[2].over
        # Exact only if every barrier was tried and each ended the game: the best of one final value and several
        # estimates is not the turn's value (an estimated barrier may really be worth more).
        choice.turn_exhaustive = edges is legal and every_final
        choice.barrier = Barrier(terr.edge_of_id(self.n, best[1]))

    def _touched_edges(self, board: Board, squares: object, candidates: list[int]) -> list[int]:
        """Legal barriers of `board` among `candidates` and the edges around the squares in `squares`
        (steps (a, b) or edge ids)."""
        legal = set(board.legal_barriers())
        touched: list[int] = []
        link = board.link
        around: set[int] = set()
        for item in squares:  # type: ignore[attr-defined]
            pair = item if isinstance(item, tuple) else divmod(item, self.n)
            for s in pair:
                around.add(s)
        for s in around:
            for _, e in link[s]:
                touched.append(e)
        return [e for e in dict.fromkeys([*candidates, *touched]) if e in legal]

    # --- 2. replies ----------------------------------------------------------------------------------------

    def threats(self, player: int) -> tuple[list[int], list[Move]]:
        """`player`'s most threatening barriers and single-piece movements, ranked once on the root board as if
        they were to play now (their margin)."""
        if player not in self._threats:
            self._threats[player] = (self._rank_barriers(self.root, player), self._rank_moves(player))
        return self._threats[player]

    def _rank_moves(self, player: int) -> list[Move]:
        """`player`'s single-piece movements (one or two steps) on the root board, best screened first."""
        root = self.root
        scored: list[tuple[float, Move]] = []
        for move in single_piece_moves(root, player):
            self.check()
            change = change_on(root, move, player)
            if change is None:
                continue
            f = root.after(change.trailers, change.blocked, change.nuisance)
            self.evaluations += 1
            scored.append((self.theirs(f, player), move))
        scored.sort(key=lambda pair: -pair[0])
        return [move for _, move in scored[:REPLY_MOVES]]

    def _replies(self) -> None:
        order = sorted((c for c in self.choices if c.turn is not None), key=lambda c: (-(c.turn or 0.0), c.index))
        for choice in order:
            self.check()
            self._reply(choice)

    def _after_turn(self, choice: Choice) -> Board:
        """The board after the mover's whole turn for `choice`."""
        if isinstance(choice.action, Barrier):
            edge = choice.action.edge
            return self.root.child(blocked=() if edge is None else (terr.edge_id(self.n, edge),))
        change = terr.move_change(self.state, choice.action)  # type: ignore[arg-type]
        blocked = list(change.blocked)
        spent = len(blocked)
        if choice.barrier is not None and choice.barrier.edge is not None:
            blocked.append(terr.edge_id(self.n, choice.barrier.edge))
            spent += 1
        return self.root.child(change.trailers, tuple(blocked), change.nuisance, spent)

    def _reply(self, choice: Choice) -> None:
        if choice.turn_final:
            choice.reply, choice.reply_final = choice.turn, True
            return
        board = self._after_turn(choice)
        f0 = board.features()
        player = next_player(f0, self.me, self.players)
        if player is None:
            choice.reply, choice.reply_final = self.mine(f0), True
            return
        if player == self.me:  # everyone else stopped: the mover plays on alone; no reply to model
            choice.reply = self.mine(f0)
            return
        barriers, moves = self.threats(player)
        touched = self._turn_edges(choice)
        best_f, best_v, best_line = f0, float("-inf"), (Move(()),)
        edges = self._touched_edges(board, touched, barriers)
        if not edges:
            legal = board.legal_barriers()
            edges = legal[:1]
        for e in edges:
            self.check()
            f = board.with_barrier(e)
            self.evaluations += 1
            v = self.theirs(f, player)
            if v > best_v:
                best_f, best_v, best_line = f, v, (Move(()), Barrier(terr.edge_of_id(self.n, e)))
        if not edges:
            best_f, best_v = f0, self.theirs(f0, player)
        for move in moves:
            self.check()
            change = change_on(board, move, player)
            if change is None:
                continue
            moved = board.child(change.trailers, change.blocked, change.nuisance)
            mf = moved.features()
            self.evaluations += 1
            legal = set(moved.legal_barriers())
            tried = [e for e in barriers if e in legal][:REPLY_MOVE_BARRIERS]
            if not tried or mf.over:
                v = self.theirs(mf, player)
                if v > best_v:
                    best_f, best_v, best_line = mf, v, (move,)
                continue
            for e in tried:
                self.check()
                f = moved.with_barrier(e)
                self.evaluations += 1
                v = self.theirs(f, player)
                if v > best_v:
                    best_f, best_v = f, v
                    best_line = (move, Barrier(terr.edge_of_id(self.n, e)))
        choice.reply = self.mine(best_f)
        choice.reply_final = best_f.over
        choice.reply_line = best_line

    def _turn_edges(self, choice: Choice) -> list[object]:
        """The squares and edges the mover's turn touched (the reply's barriers around them are tried)."""
        touched: list[object] = []
        if isinstance(choice.action, Move):
            touched.extend(choice.action.steps)
        for barrier in (choice.action if isinstance(choice.action, Barrier) else None, choice.barrier):
            if barrier is not None and barrier.edge is not None:
                touched.append(terr.edge_id(self.n, barrier.edge))
        return touched


def _occupied(board: Board) -> set[int]:
    return {*board.owner_at, board.pool, board.nuisance, *board.ice} - {-1}


def single_piece_moves(board: Board, player: int) -> list[Move]:
    """`player`'s movements of one piece (one of their trailers or the pain-in-the-neck outside allotted sites),
    one step or two, by the rules' steps (free squares, no barrier crossed); one movement per end square."""
    occupied = _occupied(board)
    link, barriers, closed = board.link, board.barriers, board.closed
    movable = [s for s, who in board.owner_at.items() if who == player and not closed[s] and s not in board.bungalows]
    if board.nuisance >= 0 and not closed[board.nuisance]:
        movable.append(board.nuisance)
    moves: list[Move] = []
    for a in sorted(movable):
        ends: set[int] = set()
        for b, e1 in link[a]:
            if b in occupied or e1 in barriers:
                continue
            if b not in ends:
                ends.add(b)
                moves.append(Move(((a, b),)))
            for c, e2 in link[b]:
                if c != a and c not in occupied and e2 not in barriers and c not in ends:
                    ends.add(c)
                    moves.append(Move(((a, b), (b, c))))
    return moves


def change_on(board: Board, move: Move, player: int) -> terr.MoveChange | None:
    """`move` (one piece's steps) on `board` as a `MoveChange`, or None when it is not legal there (the piece
    gone or allotted, a square taken, a barrier crossed, more automatic barriers than the supply holds)."""
    occupied = _occupied(board)
    a = move.steps[0][0]
    end = move.steps[-1][1]
    if a != board.nuisance and (board.owner_at.get(a) != player or a in board.bungalows):
        return None
    if board.closed[a]:
        return None
    position = a
    for x, y in move.steps:
        if x != position or (y in occupied and y != a):
            return None
        if min(x, y) * board.n + max(x, y) in board.barriers:
            return None
        position = y
    if end in occupied:
        return None
    if a == board.nuisance:
        return terr.MoveChange((), end, ())
    n = board.n
    walls = tuple(
        sorted(
            min(end, t) * n + max(end, t)
            for t, e in board.link[end]
            if t != a and board.owner_at.get(t, player) != player and e not in board.barriers
        )
    )
    if len(walls) > board.supply_left:
        return None
    return terr.MoveChange(((a, end),), board.nuisance, walls)


__all__ = [
    "BARRIER_CANDIDATES",
    "REPLY_MOVES",
    "Choice",
    "Group",
    "Search",
    "change_on",
    "next_player",
    "single_piece_moves",
    "value_of",
]
