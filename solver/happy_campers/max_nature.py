"""Happy Campers maxima: Nature Reserve's roll-independent cap, proven once and shipped as data.

With Nature Reserve a map scores clusters - empty + 3 x isolated empty squares. The clairvoyant model's relaxation
sees each empty square as possibly isolated, and its bound sat at 61-63 on every roll sequence (the best maps
57-60). Two facts hold whatever the rolls, for every map drawn from an empty map of the same components:

- the absolute maximum with Nature Reserve (`maximise.absolute_max`, CP-SAT OPTIMAL): no map scores more;
- per number D of drawn squares, clusters - empty + 3 isolated <= 2 D - n + 3 iso(D), where iso(D) is the most
  empty squares with every neighbour drawn among all maps with D drawn squares none of which stands alone (every
  drawing is a shape of two or more squares). iso(D) comes from an exact column-by-column programme over the
  drawn/empty pattern (state: the last two columns; a column is judged once both its neighbours are known).

`cap[D]` = the smaller of the two. `caps_for(components)` reads them from `nature_reserve_caps.json` (shipped in
the package, written by `python -m campsolver.solver.happy_campers.max_nature`, which derives them again and
records how: the solver status of the absolute maximum, the CPU seconds, the ortools version). They hold for
maps grown from an empty map only (a pre-drawn start map may hold squares no drawing could make), so the
maximiser uses them only then, and only for the components they were derived for.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from functools import lru_cache
from pathlib import Path
from typing import Any

from campsolver.solver.core.budget import Budget
from campsolver.solver.core.geometry import normalise
from campsolver.solver.happy_campers.rules import DEFAULT_COMPONENTS, Challenge, Components

CAPS_FILE = Path(__file__).with_name("nature_reserve_caps.json")
#: The column programme's state is two columns of the shorter side: 4^side states.
MAX_PROFILE_SIDE = 6
#: Derivation: time for the absolute maximum's CP-SAT proof (it took 6 s on one quiet worker for the 5x9 map).
DERIVE_LIMIT_S = 600.0


def _components_key(components: Components) -> dict[str, Any]:
    """What the caps depend on: the map size and the shapes (normalised, sorted)."""
    shapes = sorted(sorted(normalise(shape)) for shape in components.shapes)
    return {"rows": components.rows, "cols": components.cols, "shapes": [[list(cell) for cell in s] for s in shapes]}


def isolated_profile(rows: int, cols: int) -> dict[int, int]:
    """D -> the most isolated empty squares (every orthogonal neighbour drawn) over rows x cols patterns with D
    drawn squares, none of them without a drawn neighbour. Exact, by a programme along the longer side."""
    if rows > cols:
        rows, cols = cols, rows  # the pattern's count is the same transposed
    if rows > MAX_PROFILE_SIDE:
        raise ValueError(f"the column programme takes maps up to {MAX_PROFILE_SIDE} squares on the shorter side")
    masks = range(1 << rows)
    bits = [[m >> r & 1 for r in range(rows)] for m in masks]
    count = [bin(m).count("1") for m in masks]

    def judged(left: int | None, mid: int, right: int | None) -> int | None:
        """Isolated squares of column `mid` between its neighbours (None: the map's border), or None when a
        drawn square of it has no drawn neighbour."""
        isolated = 0
        for r in range(rows):
            around = [bits[mid][r - 1]] if r > 0 else []
            if r < rows - 1:
                around.append(bits[mid][r + 1])
            if left is not None:
                around.append(bits[left][r])
            if right is not None:
                around.append(bits[right][r])
            if bits[mid][r]:
                if not any(around):
                    return None
            elif all(around):
                isolated += 1
        return isolated

    if cols == 1:
        result: dict[int, int] = {}
        for m in masks:
            value = judged(None, m, None)
            if value is not None:
                result[count[m]] = max(result.get(count[m], -1), value)
        return dict(sorted(result.items()))
    # state (column before last, last column) -> drawn squares -> most isolated squares in the judged columns
    states: dict[tuple[int | None, int], dict[int, int]] = {(None, m): {count[m]: 0} for m in masks}
    for _ in range(1, cols):
        nxt: dict[tuple[int | None, int], dict[int, int]] = defaultdict(dict)
        for (left, mid), by_drawn in states.items():
            for right in masks:
                value = judged(left, mid, right)
                if value is None:
                    continue
                target = nxt[(mid, right)]
                for drawn, best in by_drawn.items():
                    key = drawn + count[right]
                    if target.get(key, -1) < best + value:
                        target[key] = best + value
        states = nxt
    result = {}
    for (left, mid), by_drawn in states.items():
        value = judged(left, mid, None)
        if value is None:
            continue
        for drawn, best in by_drawn.items():
            result[drawn] = max(result.get(drawn, -1), best + value)
    return dict(sorted(result.items()))


def derive(components: Components = DEFAULT_COMPONENTS, limit_s: float = DERIVE_LIMIT_S) -> dict[str, Any]:
    """The caps and how they were proven (the JSON this module ships)."""
    from campsolver.solver.core.cpsat import Proof
    from campsolver.solver.happy_campers.maximise import absolute_max
    from ortools import __version__ as ortools_version

    if min(len(shape) for shape in components.shapes) < 2:
        raise ValueError("the caps assume every shape has two or more squares (no drawn square stands alone)")
    n = components.cell_count
    started = time.process_time()
    profile = isolated_profile(components.rows, components.cols)
    profile_cpu = time.process_time() - started
    started = time.process_time()
    absolute = absolute_max(components, [Challenge.NATURE_RESERVE], Budget(limit_s), workers=1)
    absolute_cpu = time.process_time() - started
    if absolute.bound is None:
        raise RuntimeError("the absolute maximum proved no bound within the limit")
    top = absolute.bound
    caps = {d: min(top, 2 * d - n + 3 * iso) for d, iso in profile.items()}
    return {
        "components": _components_key(components),
        "cap_by_drawn": {str(d): cap for d, cap in sorted(caps.items())},
        "absolute_max": {
            "bound": top,
            "score": absolute.score,
            "proof": absolute.proof.name if absolute.proof is not None else None,
            "proven": absolute.proof is Proof.OPTIMAL,
            "cpu_s": round(absolute_cpu, 2),
        },
        "isolated_by_drawn": {str(d): iso for d, iso in profile.items()},
        "profile_cpu_s": round(profile_cpu, 2),
        "ortools": ortools_version,
        "command": f"python -m campsolver.solver.happy_campers.max_nature --rows {components.rows} "
        f"--cols {components.cols}",
    }


@lru_cache(maxsize=8)
def _shipped() -> tuple[dict[str, Any], ...]:
    if not CAPS_FILE.exists():
        return ()
    data = json.loads(CAPS_FILE.read_text())
    return tuple(data["tables"])


def caps_for(components: Components) -> dict[int, int] | None:
    """The shipped caps (drawn squares -> cap) for these components, or None when none were derived for them."""
    key = _components_key(components)
    for table in _shipped():
        if table["components"] == key:
            return {int(d): cap for d, cap in table["cap_by_drawn"].items()}
    return None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Derive Nature Reserve's roll-independent caps (default shapes).")
    parser.add_argument("--rows", type=int, default=DEFAULT_COMPONENTS.rows)
    parser.add_argument("--cols", type=int, default=DEFAULT_COMPONENTS.cols)
    parser.add_argument("--limit", type=float, default=DERIVE_LIMIT_S, help="seconds for the absolute maximum")
    parser.add_argument("--out", type=Path, default=CAPS_FILE, help="JSON file to write (its other tables kept)")
    args = parser.parse_args(argv)
    components = Components(rows=args.rows, cols=args.cols)
    table = derive(components, args.limit)
    if not table["absolute_max"]["proven"]:
        bound = table["absolute_max"]["bound"]
        print(f"warning: the absolute maximum is not proven optimal; its bound {bound} is used")
    tables = json.loads(args.out.read_text())["tables"] if args.out.exists() else []
    tables = [t for t in tables if t["components"] != table["components"]] + [table]
    args.out.write_text(json.dumps({"tables": tables}, indent=1) + "\n")
    print(json.dumps({k: table[k] for k in ("absolute_max", "cap_by_drawn")}))


if __name__ == "__main__":
    main()
