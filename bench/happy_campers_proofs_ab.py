"""Happy Campers proof table, two code versions side by side on the same cases and load.

Run: `python -m bench.happy_campers_proofs_ab --base main --new HEAD [--part singles|pairs] [--seeds N]
[--rolls 10,15,20] [--limit S] [--cards a,a+b] [--first-seed K] [--out PATH]`.

On a shared machine the proof share within a 10-s wall limit depends on the load more than on the code
(the same singles table: 34/63 at load 1-2, 12/63 at load 10), so "before" and "after" figures from
different hours do not compare. Here each case (card set, roll count, seed of `seeded_rolls`) is solved by
both versions back to back, in alternating order, each in its own process (`git archive` of each ref into
a temporary directory, imported as `campsolver` ahead of the installed tree). Every answer is the checked
one `clairvoyant_max` returns (replayed, re-scored, OPTIMAL only from CP-SAT's status). Writes one JSON
line per run (load average and CPU seconds included) to `--out` and prints the table by card set and
roll count.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAPPED_ROOTS = ("solver", "service", "clients")
CARDS = ("privacy", "quick_pee", "tent_together", "river_town", "nature_reserve", "dangerous_animals", "great_divide")
ONE_RUN = """
import json, os, sys, time
import campsolver.solver.happy_campers.maximise as maximise_module
from campsolver.solver.core.budget import Budget
from campsolver.solver.happy_campers.maximise import clairvoyant_max
from campsolver.solver.happy_campers.rules import Challenge
from bench.happy_campers_max import seeded_rolls
cards, count, seed, limit = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
load = os.getloadavg()[0]
wall, cpu = time.monotonic(), time.process_time()
r = clairvoyant_max(None, seeded_rolls(seed, count), [Challenge(c) for c in cards.split("+")], budget=Budget(limit))
print(json.dumps({"cards": cards, "rolls": count, "seed": seed, "score": r.score, "bound": r.bound,
    "proof": r.proof.value if r.proof else None, "wall": round(time.monotonic() - wall, 2),
    "cpu": round(time.process_time() - cpu, 2), "load": round(load, 2),
    "module": os.path.realpath(maximise_module.__file__)}))
"""


def checkout(ref: str, into: Path) -> Path:
    """The tree of `ref` under `into`, with a `campsolver` package mapping solver/service/clients the way
    setup.py does; returns the directory to put first on PYTHONPATH (next to the tree itself)."""
    tree = into / "tree"
    tree.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", ref], cwd=ROOT, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    package = into / "pkg" / "campsolver"
    package.mkdir(parents=True)
    for item in (tree / "campsolver").iterdir():
        target = package / item.name
        if item.is_dir():
            target.symlink_to(item)
        else:
            target.write_bytes(item.read_bytes())
    for root in MAPPED_ROOTS:
        (package / root).symlink_to(tree / root)
    return tree


def cases(
    part: str, rolls: tuple[int, ...], seeds: int, only: frozenset[str] = frozenset(), first_seed: int = 0
) -> list[tuple[str, int, int]]:
    """(card set, rolls, seed) per case; `only` keeps the card sets named "a" or "a+b" (either order)."""
    sets = [(c,) for c in CARDS] if part == "singles" else list(itertools.combinations(CARDS, 2))
    if only:
        sets = [s for s in sets if "+".join(s) in only or "+".join(reversed(s)) in only]
    # Seed by seed, so a run stopped early still covers every card set evenly.
    return [("+".join(s), n, seed) for seed in range(first_seed, first_seed + seeds) for s in sets for n in rolls]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--base", default="main")
    parser.add_argument("--new", default="HEAD")
    parser.add_argument("--part", choices=("singles", "pairs"), default="singles")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--rolls", default="10,15,20")
    parser.add_argument("--limit", type=float, default=10.0)
    parser.add_argument("--cards", default="", help="only these card sets (comma separated, a+b)")
    parser.add_argument("--first-seed", type=int, default=0, help="seeds first-seed .. first-seed + seeds - 1")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "happy_campers_proofs_ab.jsonl"))
    args = parser.parse_args(argv)
    rolls = tuple(int(x) for x in args.rolls.split(","))
    with tempfile.TemporaryDirectory() as scratch:
        trees = {tag: checkout(ref, Path(scratch) / tag) for tag, ref in (("base", args.base), ("new", args.new))}
        tally = {tag: [0, 0] for tag in trees}
        with open(args.out, "a") as out:
            for i, (cards, count, seed) in enumerate(
                cases(args.part, rolls, args.seeds, frozenset(c for c in args.cards.split(",") if c), args.first_seed)
            ):
                for tag in ("base", "new") if i % 2 == 0 else ("new", "base"):
                    tree = trees[tag]
                    env = dict(os.environ, PYTHONPATH=f"{tree.parent / 'pkg'}:{tree}")
                    run = [sys.executable, "-c", ONE_RUN, cards, str(count), str(seed), str(args.limit)]
                    # Not cwd=tree: `python -c` puts the working directory first on sys.path, where the tree's
                    # own campsolver/ (without solver/) would shadow the mapped package, and the installed
                    # editable finder would then serve the *working copy's* solver to both versions.
                    done = subprocess.run(run, env=env, cwd=tree.parent, capture_output=True, text=True, check=True)
                    row = {"tag": tag, **json.loads(done.stdout.strip().splitlines()[-1])}
                    module = Path(row.pop("module"))
                    if not module.is_relative_to(tree.resolve()):
                        raise SystemExit(f"{tag} ran {module}, not its own tree {tree}")
                    tally[tag][0] += row["proof"] == "OPTIMAL"
                    tally[tag][1] += 1
                    out.write(json.dumps(row) + "\n")
                    out.flush()
                    print(json.dumps(row), flush=True)
    print({tag: f"{proven}/{n}" for tag, (proven, n) in tally.items()})


if __name__ == "__main__":
    main()
