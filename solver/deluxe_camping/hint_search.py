"""The fast position estimate behind the hint search (pure Python, no state objects: ~10x cheaper than building
a child `DCState`, so the search can value every free barrier after every movement).

The estimate of a position, per player: the points of the sites already allotted (exact), plus the *territory*
still open: every open square goes to its nearest trailer or bungalow (breadth first from all pieces at once,
barriers as walls, ties to the piece reached first in a fixed order), touching squares of one owner form one
site scored by the rulebook. The open territory is discounted by the share of the barriers it still needs
(edges between squares of different owners without a barrier) that the supply holds: when the barriers run out,
open regions score nothing.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from functools import cache

from campsolver.solver.deluxe_camping import rules
from campsolver.solver.deluxe_camping.rules import Edge, neighbour_table


@cache
def edge_links(rows: int, cols: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per square: (neighbour, edge id) pairs; an edge `(a, b)` has the id `a * squares + b` (an int set
    lookup is several times cheaper than hashing an edge tuple, and this loop does thousands per estimate)."""
    table = neighbour_table(rows, cols)
    n = rows * cols
    return tuple(tuple((t, edge_id(n, rules.edge_of(s, t))) for t in table[s]) for s in range(n))


def edge_id(squares: int, edge: Edge) -> int:
    return edge[0] * squares + edge[1]


def edge_ids(squares: int, barriers: Collection[Edge]) -> set[int]:
    """The ids of a set of barriers (see `edge_links`)."""
    return {a * squares + b for a, b in barriers}


def estimate(
    config: rules.Config,
    owner_at: Mapping[int, int],
    barriers: Collection[int],
    pool: int,
    ice_creams: Sequence[int],
    nuisance: int,
    supply_left: int,
) -> list[float]:
    """Per-player estimate of the final score (see the module docstring); exact on a board with no open
    region. `barriers` holds edge ids (`edge_ids`)."""
    n = config.squares
    links = edge_links(config.rows, config.cols)
    # Regions (barriers and the board edge as walls) and who has pieces in each.
    region = [-1] * n
    region_owners: list[set[int]] = []
    region_squares: list[list[int]] = []
    for start in range(n):
        if region[start] >= 0:
            continue
        label = len(region_squares)
        region[start] = label
        members = [start]
        owners: set[int] = set()
        i = 0
        while i < len(members):
            s = members[i]
            i += 1
            if s in owner_at:
                owners.add(owner_at[s])
            for t, edge in links[s]:
                if region[t] < 0 and edge not in barriers:
                    region[t] = label
                    members.append(t)
        region_squares.append(members)
        region_owners.append(owners)
    ice = set(ice_creams)
    secured = [0.0] * config.players
    owner = [-1] * n
    queue: list[int] = []
    for label, members in enumerate(region_squares):
        owners = region_owners[label]
        if len(owners) == 1:
            (who,) = owners
            secured[who] += rules.site_value(
                len(members), pool in members, sum(s in ice for s in members), nuisance in members
            )
            for s in members:
                owner[s] = -2  # allotted: not territory
    for s, who in owner_at.items():
        if owner[s] == -1:
            owner[s] = who
            queue.append(s)
    # Nearest-piece territory over the open regions.
    i = 0
    while i < len(queue):
        s = queue[i]
        i += 1
        who = owner[s]
        for t, edge in links[s]:
            if owner[t] == -1 and edge not in barriers:
                owner[t] = who
                queue.append(t)
    territory = [0.0] * config.players
    needed = 0
    seen = [False] * n
    for start in queue:
        if seen[start]:
            continue
        who = owner[start]
        seen[start] = True
        stack = [start]
        size = ice_count = 0
        has_pool = has_nuisance = False
        while stack:
            s = stack.pop()
            size += 1
            ice_count += s in ice
            has_pool = has_pool or s == pool
            has_nuisance = has_nuisance or s == nuisance
            for t, edge in links[s]:
                if edge in barriers:
                    continue
                if owner[t] == who:
                    if not seen[t]:
                        seen[t] = True
                        stack.append(t)
                elif t > s:
                    needed += 1  # an edge between two owners' territories, counted from its smaller square
        territory[who] += rules.site_value(size, has_pool, ice_count, has_nuisance)
    share = 1.0 if needed <= supply_left else supply_left / needed
    return [secured[p] + share * territory[p] for p in range(config.players)]
