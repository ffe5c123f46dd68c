"""Territory features of a Deluxe Camping position, fast enough to value every choice of a turn and the replies.

Pure Python on plain data (piece map, barrier edge ids), no `DCState`: a child state costs more than this.

Per player:
- `allotted`: the points of the sites already allotted (exact: they never change again).
- `territory`: the open squares the player's pieces reach first (multi-source breadth first from every piece
  not standing in an allotted site, barriers as walls), scored as the rulebook scores a site: a square a
  point, the pool doubles the player's connected territory around it, +5 a stand, -10 the pain-in-the-neck
  (never more than that territory is worth). A square two players reach at the same distance is *contested*:
  nobody's.
- `frontier`: open edges between the player's territory and a square that is not theirs.
Besides: `contested` squares, `needed` = open edges between squares of different claims, the supply left.

`Board` keeps a position's distances per player, so that a barrier or a movement after it is valued by a local
repair of the distances (an edge that is no shortest path's changes nothing; a barrier that splits a region is
valued from scratch). `Board.features()` equals `features()` of the same position (property-tested).
"""

from __future__ import annotations

import heapq
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from campsolver.solver.deluxe_camping import rules
from campsolver.solver.deluxe_camping.hint_search import edge_id, edge_ids
from campsolver.solver.deluxe_camping.hint_search import edge_links as links
from campsolver.solver.deluxe_camping.rules import DCState, Edge

INF = 1 << 30


def edge_of_id(squares: int, ident: int) -> Edge:
    a, b = divmod(ident, squares)
    return (a, b)


def barrier_ids(state: DCState) -> frozenset[int]:
    """The state's barriers as edge ids (cached on the state)."""
    ids = state._cache.get("territory_barrier_ids")
    if ids is None:
        n = state.config.squares
        ids = state._cache["territory_barrier_ids"] = frozenset(edge_ids(n, state.barriers))
    return ids


@dataclass
class Features:
    """What a position's territory measures (per-player lists are indexed by player)."""

    allotted: list[float]
    territory: list[float]
    squares: list[int]  # open squares claimed
    frontier: list[int]
    contested: int
    needed: int
    open_squares: int  # squares outside every allotted site
    supply_left: int
    active: list[bool]  # the player has a piece outside their allotted sites (not stopped)

    @property
    def over(self) -> bool:
        """No barrier left, or nobody left to play (every square allotted): the allotted points are final."""
        return self.supply_left <= 0 or not any(self.active)


def features(
    config: rules.Config,
    owner_at: Mapping[int, int],
    barriers: Collection[int],
    pool: int,
    ice_creams: Sequence[int],
    nuisance: int,
    supply_left: int,
) -> Features:
    """The territory features of a position given as plain data (`barriers`: edge ids)."""
    return Board(config, dict(owner_at), frozenset(barriers), pool, tuple(ice_creams), nuisance, supply_left).features()


def state_features(state: DCState, extra: Edge | None = None) -> Features:
    """`features` of a state, optionally with one more barrier."""
    ids = barrier_ids(state)
    if extra is not None:
        ids = ids | {edge_id(state.config.squares, extra)}
    return Board(
        state.config,
        state.owner_at,
        ids,
        state.pool,
        state.ice_creams,
        state.nuisance,
        state.supply_left - (extra is not None),
    ).features()


def _single(mask: int) -> int:
    """The player of a one-player claim, else -1."""
    return mask.bit_length() - 1 if mask and not mask & (mask - 1) else -1


#: `_single` of every claim of up to four players (a list lookup in the hot loops).
SINGLE = tuple(_single(mask) for mask in range(1 << rules.MAX_PLAYERS))


class Board:
    """A position with its regions, per-player distances and claims, for incremental valuing.

    `owner_at` (square -> player) and `barriers` (edge ids) must not be changed afterwards (shared, not copied).
    `bungalows`: the squares of the pieces that never move (the searches move trailers only).
    """

    def __init__(
        self,
        config: rules.Config,
        owner_at: Mapping[int, int],
        barriers: frozenset[int],
        pool: int,
        ice_creams: Sequence[int],
        nuisance: int,
        supply_left: int,
        bungalows: frozenset[int] = frozenset(),
    ) -> None:
        self.config = config
        self.bungalows = bungalows
        self.n = n = config.squares
        self.players = config.players
        self.link = links(config.rows, config.cols)
        self.owner_at = owner_at
        self.barriers = barriers
        self.pool = pool
        self.ice = frozenset(ice_creams)
        self.nuisance = nuisance
        self.supply_left = supply_left
        self._regions()
        self.dist: list[list[int] | None] = [None] * self.players
        for p in range(self.players):
            sources = [s for s, who in owner_at.items() if who == p and not self.closed[s]]
            if sources:
                self.dist[p] = self._bfs(sources)
        self.claim = [0] * n
        for s in range(n):
            self.claim[s] = self._claim_of(s, self.dist)
        self._bridges: dict[int, tuple[int, int]] | None = None
        self._features: Features | None = None
        self._ice_bonus: list[int] = []
        self._pool_part: tuple[int, frozenset[int]] = (-1, frozenset())
        self._nuisance_part: tuple[int, frozenset[int]] = (-1, frozenset())

    # --- construction -------------------------------------------------------------------------------------

    def _regions(self) -> None:
        n, link, barriers, owner_at = self.n, self.link, self.barriers, self.owner_at
        region = [-1] * n
        closed = [False] * n
        allotted = [0.0] * self.players
        region_pieces: list[int] = []
        label = 0
        for start in range(n):
            if region[start] >= 0:
                continue
            region[start] = label
            members = [start]
            mask = 0
            pieces = 0
            i = 0
            while i < len(members):
                s = members[i]
                i += 1
                who = owner_at.get(s)
                if who is not None:
                    mask |= 1 << who
                    pieces += 1
                for t, e in link[s]:
                    if region[t] < 0 and e not in barriers:
                        region[t] = label
                        members.append(t)
            region_pieces.append(pieces)
            who = SINGLE[mask]
            if who >= 0:
                allotted[who] += rules.site_value(
                    len(members), self.pool in members, sum(s in self.ice for s in members), self.nuisance in members
                )
                for s in members:
                    closed[s] = True
            label += 1
        self.region = region
        self.closed = closed
        self.allotted = allotted
        self.region_pieces = region_pieces

    def _bfs(self, sources: Iterable[int]) -> list[int]:
        link, barriers, closed = self.link, self.barriers, self.closed
        d = [INF] * self.n
        frontier = list(sources)
        for s in frontier:
            d[s] = 0
        i = 0
        while i < len(frontier):
            s = frontier[i]
            i += 1
            ds = d[s] + 1
            for t, e in link[s]:
                if d[t] > ds and e not in barriers and not closed[t]:
                    d[t] = ds
                    frontier.append(t)
        return d

    def _claim_of(self, s: int, dist: Sequence[list[int] | None]) -> int:
        best, mask = INF, 0
        for p, d in enumerate(dist):
            if d is None:
                continue
            v = d[s]
            if v < best:
                best, mask = v, 1 << p
            elif v == best and v < INF:
                mask |= 1 << p
        return mask

    # --- features -------------------------------------------------------------------------------------------

    def features(self) -> Features:
        if self._features is None:
            self._features = self._count()
        return self._features

    def _count(self) -> Features:
        """The features from scratch; keeps the parts `after` updates (ice bonus, the pool's and the
        pain-in-the-neck's claimed components)."""
        players, link, closed, claim, barriers = self.players, self.link, self.closed, self.claim, self.barriers
        squares = [0] * players
        frontier = [0] * players
        contested = needed = open_squares = 0
        for s in range(self.n):
            if closed[s]:
                continue
            open_squares += 1
            c = claim[s]
            who = SINGLE[c]
            if who >= 0:
                squares[who] += 1
            elif c:
                contested += 1
            for t, e in link[s]:
                if t < s or e in barriers:
                    continue
                ct = claim[t]
                if ct != c:
                    needed += 1
                    if who >= 0:
                        frontier[who] += 1
                    other = SINGLE[ct]
                    if other >= 0:
                        frontier[other] += 1
        self._ice_bonus = self._ice(claim)
        self._pool_part = self._pool(claim, barriers)
        self._nuisance_part = self._nuisance(claim, barriers, self.nuisance)
        territory = self._territory(squares, self._ice_bonus, self._pool_part, self._nuisance_part)
        active = [d is not None for d in self.dist]
        return Features(
            list(self.allotted), territory, squares, frontier, contested, needed, open_squares, self.supply_left, active
        )

    def _ice(self, claim: list[int]) -> list[int]:
        bonus = [0] * self.players
        for s in self.ice:
            who = SINGLE[claim[s]]
            if who >= 0:
                bonus[who] += rules.ICE_CREAM_BONUS
        return bonus

    def _pool(self, claim: list[int], barriers: Collection[int]) -> tuple[int, frozenset[int]]:
        """(owner or -1, the owner's claimed component around the pool)."""
        if self.pool < 0 or self.closed[self.pool] or SINGLE[claim[self.pool]] < 0:
            return -1, frozenset()
        return SINGLE[claim[self.pool]], self._component(claim, barriers, self.pool)

    def _nuisance(self, claim: list[int], barriers: Collection[int], nuisance: int) -> tuple[int, frozenset[int]]:
        if nuisance < 0 or self.closed[nuisance] or SINGLE[claim[nuisance]] < 0:
            return -1, frozenset()
        return SINGLE[claim[nuisance]], self._component(claim, barriers, nuisance)

    def _territory(
        self,
        squares: list[int],
        ice_bonus: list[int],
        pool: tuple[int, frozenset[int]],
        nuisance: tuple[int, frozenset[int]],
    ) -> list[float]:
        territory = [float(squares[p] + ice_bonus[p]) for p in range(self.players)]
        if pool[0] >= 0:
            territory[pool[0]] += (rules.POOL_FACTOR - 1) * len(pool[1])
        if nuisance[0] >= 0:
            component = nuisance[1]
            worth = len(component) * (rules.POOL_FACTOR if self.pool in component else 1) + rules.ICE_CREAM_BONUS * len(
                component & self.ice
            )
            territory[nuisance[0]] -= min(rules.NUISANCE_PENALTY, worth)
        return territory

    def _component(self, claim: list[int], barriers: Collection[int], start: int) -> frozenset[int]:
        """Squares of the same claim connected to `start` (barriers as walls)."""
        c = claim[start]
        link = self.link
        seen = {start}
        stack = [start]
        while stack:
            s = stack.pop()
            for t, e in link[s]:
                if t not in seen and claim[t] == c and e not in barriers:
                    seen.add(t)
                    stack.append(t)
        return frozenset(seen)

    # --- legal barriers -------------------------------------------------------------------------------------

    def bridges(self) -> dict[int, tuple[int, int]]:
        """Bridges of the open regions: edge id -> (pieces on the far side, pieces in the region)."""
        if self._bridges is None:
            self._bridges = self._find_bridges()
        return self._bridges

    def _find_bridges(self) -> dict[int, tuple[int, int]]:
        n, link, barriers, closed, owner_at = self.n, self.link, self.barriers, self.closed, self.owner_at
        order = [-1] * n
        low = [0] * n
        below = [0] * n
        found: dict[int, tuple[int, int]] = {}
        counter = 0
        for root in range(n):
            if order[root] >= 0 or closed[root]:
                continue
            pieces = self.region_pieces[self.region[root]]
            order[root] = low[root] = counter
            counter += 1
            below[root] = 1 if root in owner_at else 0
            stack = [(root, -1, iter(link[root]))]
            while stack:
                s, parent_edge, it = stack[-1]
                advanced = False
                for t, e in it:
                    if e in barriers or e == parent_edge:
                        continue
                    if order[t] < 0:
                        order[t] = low[t] = counter
                        counter += 1
                        below[t] = 1 if t in owner_at else 0
                        stack.append((t, e, iter(link[t])))
                        advanced = True
                        break
                    if order[t] < low[s]:
                        low[s] = order[t]
                if advanced:
                    continue
                stack.pop()
                if stack:
                    parent = stack[-1][0]
                    if low[s] < low[parent]:
                        low[parent] = low[s]
                    below[parent] += below[s]
                    if low[s] > order[parent]:
                        found[parent_edge] = (below[s], pieces)
        return found

    def legal_barriers(self) -> list[int]:
        """Edge ids where the free barrier may go (as `rules.legal_barrier_edges`, and the strict-colours
        variant), sorted; empty when the supply is."""
        if self.supply_left <= 0:
            return []
        n, link, barriers, closed = self.n, self.link, self.barriers, self.closed
        bridges = self.bridges()
        strict = self.config.strict_colours
        owner_at = self.owner_at
        legal = []
        for s in range(n):
            if closed[s]:
                continue
            for t, e in link[s]:
                if t < s or e in barriers:
                    continue
                split = bridges.get(e)
                if split is not None and (split[0] == 0 or split[0] == split[1]):
                    continue
                if strict and s in owner_at and owner_at.get(t) == owner_at[s]:
                    continue
                legal.append(e)
        legal.sort()
        return legal

    # --- incremental values ---------------------------------------------------------------------------------

    def with_barrier(self, e: int) -> Features:
        """The features with one more barrier on open edge `e` (the supply one less)."""
        return self.after(blocked=(e,), spent=1)

    def after(
        self,
        moves: Sequence[tuple[int, int]] = (),
        blocked: Sequence[int] = (),
        nuisance: int | None = None,
        spent: int | None = None,
    ) -> Features:
        """The features after `moves` ((from, to) of trailers, applied in order; the owner is the piece's),
        the pain-in-the-neck on `nuisance`, and barriers on the open edges `blocked` (`spent`: barriers used,
        default len(blocked)). Barriers that may split a region (a bridge, or two barriers) are valued from scratch."""
        spent = len(blocked) if spent is None else spent
        # One barrier splits a region only when it is a bridge; two may split one together (a cycle cut twice).
        if len(blocked) > 1 or (blocked and blocked[0] in self.bridges()):
            return self.child(moves, blocked, nuisance, spent).features()
        dist, touched, barriers = self._distances_after(moves, blocked)
        base = self.features()
        claim, changed = self._claims_after(dist, touched)
        nuisance_at = self.nuisance if nuisance is None else nuisance
        squares, contested, edges = self._squares_after(base, claim, changed, blocked)
        ice_bonus = self._ice_bonus
        if changed and not self.ice.isdisjoint(changed):
            ice_bonus = self._ice(claim)
        frontier, needed = self._frontier_after(base, claim, edges, barriers)
        pool = self._pool_part
        if self._stale(pool, changed, blocked, claim, self.pool):
            pool = self._pool(claim, barriers)
        nuisance_part = self._nuisance_part
        if nuisance_at != self.nuisance or self._stale(nuisance_part, changed, blocked, claim, self.nuisance):
            nuisance_part = self._nuisance(claim, barriers, nuisance_at)
        territory = self._territory(squares, ice_bonus, pool, nuisance_part)
        return Features(
            list(base.allotted),
            territory,
            squares,
            frontier,
            contested,
            needed,
            base.open_squares,
            self.supply_left - spent,
            list(base.active),
        )

    def _distances_after(
        self, moves: Sequence[tuple[int, int]], blocked: Sequence[int]
    ) -> tuple[list[list[int] | None], set[int], frozenset[int]]:
        """Each player's distances after the moves and the barriers (a player's list copied only when it changes),
        the squares whose distance changed, and the barriers then."""
        dist = list(self.dist)
        copied = [False] * self.players
        touched: set[int] = set()

        def writable(p: int) -> list[int]:
            if not copied[p]:
                dist[p] = list(dist[p])  # type: ignore[arg-type]
                copied[p] = True
            return dist[p]  # type: ignore[return-value]

        barriers = self.barriers
        for a, b in moves:
            d = writable(self.owner_at[a] if a in self.owner_at else _moved_owner(self.owner_at, moves, a))
            touched.update(self._lower(d, b, barriers))
            touched.update(self._repair(d, a, barriers))
        for e in blocked:
            barriers = barriers | {e}
            a, b = divmod(e, self.n)
            for p in range(self.players):
                d = dist[p]
                if d is None:
                    continue
                da, db = d[a], d[b]
                if da == db or da >= INF or db >= INF:
                    continue
                child = b if db > da else a
                if self._supported(d, child, barriers):
                    continue
                touched.update(self._repair(writable(p), child, barriers))
        return dist, touched, barriers

    def _claims_after(self, dist: Sequence[list[int] | None], touched: set[int]) -> tuple[list[int], list[int]]:
        """Each square's claim under the new distances (a copy only when some touched square changes) and the
        squares whose claim changed."""
        old = self.claim
        claim = old
        changed = []
        if touched:
            claim = list(old)
            for s in touched:
                c = self._claim_of(s, dist)
                if c != old[s]:
                    claim[s] = c
                    changed.append(s)
        return claim, changed

    def _squares_after(
        self, base: Features, claim: list[int], changed: list[int], blocked: Sequence[int]
    ) -> tuple[list[int], int, set[int]]:
        """Each player's claimed squares and the contested count after the claim changes, and the edges whose
        frontier may have changed (the new barriers and every edge of a changed square)."""
        old, link = self.claim, self.link
        squares = list(base.squares)
        contested = base.contested
        edges = set(blocked)
        for s in changed:
            was, now = SINGLE[old[s]], SINGLE[claim[s]]
            if was >= 0:
                squares[was] -= 1
            else:
                contested -= 1
            if now >= 0:
                squares[now] += 1
            else:
                contested += 1
            for _, e in link[s]:
                edges.add(e)
        return squares, contested, edges

    def _frontier_after(
        self, base: Features, claim: list[int], edges: set[int], barriers: Collection[int]
    ) -> tuple[list[int], int]:
        """Each player's frontier and the barriers needed, recounted on `edges` (open edges between two claims)."""
        old, n, old_barriers = self.claim, self.n, self.barriers
        frontier = list(base.frontier)
        needed = base.needed
        for e in edges:
            a, b = divmod(e, n)
            if e not in old_barriers:
                ca, cb = old[a], old[b]
                if ca != cb:
                    needed -= 1
                    for c in (ca, cb):
                        who = SINGLE[c]
                        if who >= 0:
                            frontier[who] -= 1
            if e not in barriers:
                ca, cb = claim[a], claim[b]
                if ca != cb:
                    needed += 1
                    for c in (ca, cb):
                        who = SINGLE[c]
                        if who >= 0:
                            frontier[who] += 1
        return frontier, needed

    def _stale(
        self,
        part: tuple[int, frozenset[int]],
        changed: list[int],
        blocked: Sequence[int],
        claim: list[int],
        square: int,
    ) -> bool:
        """Whether a claimed component around `square` may differ after the changes: its claim changed, a
        changed square is in it or beside it, or a new barrier lies inside it."""
        if square < 0:
            return False
        if claim[square] != self.claim[square]:
            return True
        component = part[1]
        if not component:
            return False
        link, n = self.link, self.n
        for s in changed:
            if s in component:
                return True
            for t, _ in link[s]:
                if t in component:
                    return True
        for e in blocked:
            a, b = divmod(e, n)
            if a in component and b in component:
                return True
        return False

    def _supported(self, d: list[int], s: int, barriers: Collection[int]) -> bool:
        """`s` keeps a neighbour one step closer over an open edge (its distance stands)."""
        target = d[s] - 1
        return any(d[t] == target and e not in barriers for t, e in self.link[s])

    def _lower(self, d: list[int], source: int, barriers: Collection[int]) -> list[int]:
        """A new source on `source`: distances that drop, breadth first (returns the squares changed)."""
        link, closed = self.link, self.closed
        d[source] = 0
        changed = [source]
        i = 0
        while i < len(changed):
            s = changed[i]
            i += 1
            ds = d[s] + 1
            for t, e in link[s]:
                if d[t] > ds and e not in barriers and not closed[t]:
                    d[t] = ds
                    changed.append(t)
        return changed

    def _repair(self, d: list[int], root: int, barriers: Collection[int]) -> set[int]:
        """`root` lost its support (a barrier cut its last shorter neighbour, or its piece left): every square
        whose distance depended on it only is found in order of distance, then valued again from the squares
        around them (returns the squares whose distance was re-valued)."""
        link = self.link
        affected = {root}
        queue = [root]
        i = 0
        while i < len(queue):
            x = queue[i]
            i += 1
            dy = d[x] + 1
            for y, e in link[x]:
                if d[y] != dy or y in affected or e in barriers:
                    continue
                supported = False
                for z, ez in link[y]:
                    if d[z] == dy - 1 and z not in affected and ez not in barriers:
                        supported = True
                        break
                if not supported:
                    affected.add(y)
                    queue.append(y)
        heap: list[tuple[int, int]] = []
        for y in affected:
            d[y] = INF
        for y in affected:
            best = INF
            for z, ez in link[y]:
                if z not in affected and d[z] < INF and ez not in barriers and d[z] + 1 < best:
                    best = d[z] + 1
            if best < INF:
                heap.append((best, y))
        heapq.heapify(heap)
        while heap:
            dy, y = heapq.heappop(heap)
            if dy >= d[y]:
                continue
            d[y] = dy
            for z, ez in link[y]:
                if z in affected and dy + 1 < d[z] and ez not in barriers:
                    heapq.heappush(heap, (dy + 1, z))
        return affected

    def child(
        self,
        moves: Sequence[tuple[int, int]] = (),
        blocked: Sequence[int] = (),
        nuisance: int | None = None,
        spent: int | None = None,
    ) -> Board:
        """The board after `after`'s changes, built from scratch (a base for the next choices)."""
        owner_at = dict(self.owner_at)
        for a, b in moves:
            owner_at[b] = owner_at.pop(a)
        spent = len(blocked) if spent is None else spent
        return Board(
            self.config,
            owner_at,
            self.barriers | frozenset(blocked),
            self.pool,
            tuple(self.ice),
            self.nuisance if nuisance is None else nuisance,
            self.supply_left - spent,
            self.bungalows,
        )


@dataclass(frozen=True)
class MoveChange:
    """A movement as `Board.after` takes it: trailer steps, where the pain-in-the-neck ends, the automatic
    barriers (edge ids) it brings."""

    trailers: tuple[tuple[int, int], ...]
    nuisance: int
    blocked: tuple[int, ...]


def move_change(state: DCState, move: rules.Move) -> MoveChange:
    """Split a legal movement of `state` into what `Board.after` needs (the rules model's automatic barriers)."""
    nuisance = state.nuisance
    trailers = []
    owner_at = dict(state.owner_at)
    for a, b in move.steps:
        if a == nuisance:
            nuisance = b
        else:
            trailers.append((a, b))
            owner_at[b] = owner_at.pop(a)
    walls = rules.automatic_barriers(state.config, owner_at, state.barriers)
    n = state.config.squares
    return MoveChange(tuple(trailers), nuisance, tuple(sorted(a * n + b for a, b in walls)))


def board_of(state: DCState) -> Board:
    """The `Board` of a state (cached on it)."""
    board = state._cache.get("territory_board")
    if board is None:
        board = state._cache["territory_board"] = Board(
            state.config,
            state.owner_at,
            barrier_ids(state),
            state.pool,
            state.ice_creams,
            state.nuisance,
            state.supply_left,
            frozenset(b for b in state.bungalows if b >= 0),
        )
    return board


def _moved_owner(owner_at: Mapping[int, int], moves: Sequence[tuple[int, int]], square: int) -> int:
    """The owner of the piece standing on `square` part way through `moves` (a piece's second step)."""
    origin = square
    for a, b in reversed(moves):
        if b == origin:
            origin = a
    return owner_at[origin]


__all__ = [
    "INF",
    "Board",
    "Features",
    "MoveChange",
    "barrier_ids",
    "board_of",
    "edge_id",
    "edge_of_id",
    "features",
    "links",
    "move_change",
    "state_features",
]
