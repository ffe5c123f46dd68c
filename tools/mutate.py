"""A small mutation run: does the test suite notice a meaningful change to the code it is meant to pin?

Why not mutmut: mutmut 3 copies the code to mutate into `mutants/` and runs the tests there, but this repository
installs `solver/`, `service/` and `clients/` as `campsolver.*` through a `package_dir` mapping (setup.py) and an
editable finder that points at the original folders, so the tests would import the unmutated code. This tool does
the same copy with the mapping rebuilt by symlinks inside the copy, so the worktree is never touched and another
test run may go on beside it.

What it mutates (AST-based, each mutant one change, spliced into the original text):
- comparisons: < <=, > >=, == !=, in / not in, is / is not swapped;
- integer constants off by one (n+1, n-1); True / False swapped;
- boolean logic: `not x` -> `x`, `and` <-> `or`, an `if`/`while` condition negated;
- enum members: `Proof.OPTIMAL` -> another member of the same enum seen in the file (also proto enum constants
  such as `common_pb2.PROOF_STATUS_OPTIMAL`).

Where: the sites in `SITES` (area, file, which nodes, which tests), sampled with `--sample` per site (or
`--sample-area AREA=N`). Each mutant runs its site's default tests (`-m "not slow" -x`, the cheapest judges first,
narrowed to the game by `-k` in the shared test files) with a timeout; killed = the tests failed (or timed out),
survived = they passed. Results: a table on stdout, JSON (`--json`), and one JSON line an outcome as it comes
(`--log`); `--rerun FILE` runs a past run's survivors again against today's tests.

    make mutate                                                    # the sampled run of docs/mutation-run.md
    python -m tools.mutate --area proof-claims --list              # the mutants, without running anything
    python -m tools.mutate --rerun mutation.json --no-baseline     # the survivors, after adding tests
"""

from __future__ import annotations

import argparse
import ast
import copy
import dataclasses
import itertools
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAPPED = ("solver", "service", "clients")  # installed as campsolver.<name> (setup.py package_dir)

#: Which nodes of a file are mutated: every node, those on lines matching a pattern, those inside module-level
#: ALL_CAPS dict literals (the proto mappings), or (`defs(...)`) those inside the named functions, methods and
#: classes and the named module-level assignments.
ALL, MAPS = "all", "maps"
DEFS_PREFIX = "def:"


def defs(*names: str) -> str:
    """A `select` of the nodes inside the functions, methods, classes or module-level assignments named."""
    return DEFS_PREFIX + ",".join(names)


PROOF_LINES = r"Proof\.|proof|interrupted|converged|exact|optimal|OPTIMAL|EXACT"
VALIDATOR_LINES = r"require\(|raise_invalid|_invalid|INVALID"


@dataclasses.dataclass(frozen=True)
class Site:
    """Where to mutate and what tests judge it: `tests` (files, run in this order with `-x`, so the quickest
    judges first), narrowed by `keyword` (`pytest -k`, e.g. the game's name: the shared files' cases of that game
    and every case in the game's own folder) when given."""

    area: str
    path: str
    select: str  # ALL, MAPS, or a regex over source lines
    tests: tuple[str, ...]
    keyword: str | None = None


GAMES = ("happy_campers", "deluxe_camping", "campsite", "camper_tour", "adventure_tours")
GAME_RULE_TESTS = {
    "happy_campers": (
        "tests/happy_campers/test_legal_placements_complete.py",
        "tests/happy_campers/test_river_paths_brute_force.py",
        "tests/happy_campers/test_rules.py",
        "tests/happy_campers/test_rules_modes.py",
        "tests/happy_campers/test_rules_properties.py",
    ),
    "deluxe_camping": ("tests/deluxe_camping/test_rules.py", "tests/deluxe_camping/test_properties.py"),
    "campsite": ("tests/campsite/test_rules.py", "tests/campsite/test_properties.py"),
    "camper_tour": (
        "tests/camper_tour/test_ended_by_arrival.py",
        "tests/camper_tour/test_rules.py",
        "tests/camper_tour/test_game_over_state.py",
    ),
    "adventure_tours": ("tests/adventure_tours/test_rules.py", "tests/adventure_tours/test_properties.py"),
}
#: Every game's rules tests also check that the model's values stay frozen (one cheap case a game).
GAME_RULE_TESTS = {
    game: (f"tests/test_rules_values_frozen.py::test_every_rules_dataclass_is_frozen[{game}]", *tests)
    for game, tests in GAME_RULE_TESTS.items()
}
#: ... and the shared conformance module's cases of the game (its `GAME`: the players it seats, the tables it refuses,
#: one random game at its smallest table), after the game's own tests.
_SEATS = {
    "happy_campers": (1, 6),
    "deluxe_camping": (2, 4),
    "campsite": (1, 6),
    "camper_tour": (1, 4),
    "adventure_tours": (3, 6),
}
GAME_RULE_TESTS = {
    game: (
        *tests,
        *(
            f"tests/test_rules_conformance.py::test_the_game_seats_its_players[{game}-{players}]"
            for players in range(_SEATS[game][0], _SEATS[game][1] + 1)
        ),
        f"tests/test_rules_conformance.py::test_a_table_outside_the_range_is_refused[{game}]",
        f"tests/test_rules_conformance.py::test_random_play_reaches_the_end_by_the_rules[{game}-{_SEATS[game][0]}]",
    )
    for game, tests in GAME_RULE_TESTS.items()
}
#: The wire-level tests every game's handler answers to: its input limits and proof claims (cheap, first), its
#: service tests, and the shared in-process-versus-gRPC comparisons (narrowed to the game by `-k`).
WIRE_TESTS = (
    "tests/test_proto_maps.py",
    "tests/test_input_edges.py",
    "tests/test_input_limits.py",
    "tests/test_proof_claims.py",
)
SHARED_SERVICE_TESTS = ("tests/test_service_games.py", "tests/test_card_names.py")


#: A game's own handler tests, where they exist (the cheap claim and note checks first).
OWN_SERVICE_TESTS = (
    "test_max_fallback_claims.py",
    "test_value_notes.py",
    "test_max_no_partition_note.py",
    "test_max_note_claims.py",
    "test_hint_note_claims.py",
    "test_one_turn_round.py",
    "test_service.py",
    "test_hint_contract.py",
)


def _service_tests(game: str) -> tuple[str, ...]:
    own = tuple(f"tests/{game}/{name}" for name in OWN_SERVICE_TESTS if (ROOT / "tests" / game / name).exists())
    return WIRE_TESTS + own + SHARED_SERVICE_TESTS


def _service_path(game: str) -> str:
    """A game's service: its package, one site over its modules (`convert`, `examples`, `handlers`)."""
    return f"service/games/{game}"


def site_files(site: Site) -> list[str]:
    """The files a site mutates: its file, or the modules of its package in name order (not the `__init__`, which
    only binds them)."""
    folder = ROOT / site.path
    if not folder.is_dir():
        return [site.path]
    return [f"{site.path}/{path.name}" for path in sorted(folder.glob("*.py")) if path.name != "__init__.py"]


def _proof_tests(*own: str) -> tuple[str, ...]:
    """A solver's proof-claim site: the outside-in claim tests first (cheap), then the solver's own tests."""
    return ("tests/test_proof_claims.py", *own)


CHANCE_TESTS = ("tests/test_chance_distributions.py",)
#: (file, nodes, tests, `-k` keyword): the chance tests, then the game's rules tests (a mutant that leaves the
#: odds alone may still break a rule), narrowed to the game.
CHANCE_SITES: tuple[tuple[str, str, tuple[str, ...], str | None], ...] = (
    ("solver/core/game.py", defs("sample_outcome"), CHANCE_TESTS, "numpy"),
    (
        "service/games/shared.py",
        defs("seeded_rng", "draw_outcome", "resolve_chance", "play_flow"),
        (*CHANCE_TESTS, "tests/test_table_play.py"),
        None,
    ),
    (
        "solver/happy_campers/modes.py",
        defs("roll_distribution", "chance_outcomes"),
        (*CHANCE_TESTS, *GAME_RULE_TESTS["happy_campers"]),
        "happy_campers or happy-campers",
    ),
    (
        "solver/camper_tour/rules.py",
        defs(
            "TWO_DICE",
            "ONE_DIE",
            "chance_outcomes",
            "stack_counts",
            "remaining_stack",
            "next_plate_distribution",
            "_effect_outcomes",
            "_no_parking_destination",
            "occupied",
        ),
        (*CHANCE_TESTS, *GAME_RULE_TESTS["camper_tour"]),
        "camper_tour or camper-tour",
    ),
    (
        "solver/deluxe_camping/rules.py",
        defs("chance_outcomes", "random_setup"),
        (*CHANCE_TESTS, *GAME_RULE_TESTS["deluxe_camping"]),
        "deluxe_camping or deluxe-camping",
    ),
    (
        "solver/campsite/rules.py",
        defs("chance_outcomes", "_take"),
        (*CHANCE_TESTS, *GAME_RULE_TESTS["campsite"]),
        "campsite",
    ),
    (
        "solver/adventure_tours/rules.py",
        defs("chance_outcomes"),
        (*CHANCE_TESTS, *GAME_RULE_TESTS["adventure_tours"]),
        "adventure_tours or adventure-tours",
    ),
)
HTTP_CODE_TESTS = ("tests/test_connect_codes.py",)
OPENSPIEL_INFO_TESTS = (
    "tests/openspiel/test_information_states.py",
    "tests/openspiel/test_information.py",
    "tests/openspiel/test_scoring.py",
)
OPENSPIEL_INFO_SITES: tuple[tuple[str, str], ...] = (
    (
        "common",
        defs(
            "win_returns",
            "returns",
            "information_string",
            "observation_text",
            "_apply_action",
            "resample_from_infostate",
        ),
    ),
    ("campsite", defs("_receiver", "private_chance", "observe", "chance_text", "resample")),
    ("adventure_tours", defs("private_chance", "observe", "record_text", "chance_text", "resample")),
)
#: (game, nodes): the supply tests, then the game's rules tests.
SUPPLY_SITES: tuple[tuple[str, str], ...] = (
    (
        "deluxe_camping",
        defs(
            "TRAILERS_BY_PLAYERS",
            "supply_left",
            "_placement_ok",
            "_walls_needed",
            "_apply_move",
            "has_free_barrier",
            "legal_barriers",
            "_next_active",
        ),
    ),
    ("camper_tour", defs("token_limit", "gain_limit", "_apply_effect", "new_game")),
    ("campsite", defs("minimum_deck_size", "_pitch", "_end_turn", "new_game")),
    ("adventure_tours", defs("new_game", "_resolve_chance")),
)
#: Lines that state or test a standard error or an exactness claim ("exactly one camper" in a validator is not one).
STANDARD_ERROR_LINES = r"standard_error|\bexact\b|EXACT"
STANDARD_ERROR_TESTS = ("tests/camper_tour/test_standard_error_claims.py", "tests/camper_tour/test_hint_note_claims.py")

SITES: tuple[Site, ...] = (
    # proof claims: where a solver or a handler says OPTIMAL / EXACT / FEASIBLE_WITH_BOUND
    Site(
        "proof-claims",
        "service/games/shared.py",
        MAPS,
        (
            "tests/test_proof_labels.py",
            "tests/test_proto_maps.py",
            "tests/test_proof_claims.py",
            "tests/test_service_games.py",
        ),
    ),
    Site(
        "proof-claims",
        "solver/campsite/best_round.py",
        PROOF_LINES,
        _proof_tests("tests/campsite/test_one_turn_round.py", "tests/campsite/test_best_round.py"),
        "campsite",
    ),
    Site(
        "proof-claims",
        "solver/campsite/best_turn.py",
        PROOF_LINES,
        _proof_tests("tests/campsite/test_best_turn.py"),
        "campsite",
    ),
    Site(
        "proof-claims",
        "solver/campsite/round_cpsat.py",
        PROOF_LINES,
        _proof_tests("tests/campsite/test_round_cpsat.py"),
        "campsite",
    ),
    Site(
        "proof-claims",
        "solver/happy_campers/maximise.py",
        PROOF_LINES,
        _proof_tests(
            "tests/happy_campers/test_max_fallback_claims.py",
            "tests/happy_campers/test_maximise.py",
            "tests/happy_campers/test_max_levels.py",
        ),
        "happy_campers",
    ),
    Site(
        "proof-claims",
        "solver/camper_tour/solo.py",
        PROOF_LINES,
        _proof_tests("tests/camper_tour/test_layout_count.py", "tests/camper_tour/test_solo.py"),
        "camper_tour",
    ),
    Site(
        "proof-claims",
        "solver/deluxe_camping/maximise.py",
        PROOF_LINES,
        _proof_tests("tests/deluxe_camping/test_maximise.py"),
        "deluxe_camping",
    ),
    Site(
        "proof-claims",
        "solver/adventure_tours/maximise.py",
        PROOF_LINES,
        _proof_tests("tests/adventure_tours/test_search.py", "tests/adventure_tours/test_search_on_the_bound.py"),
        "adventure_tours",
    ),
    Site("proof-claims", "solver/core/cpsat.py", PROOF_LINES, ("tests/core/test_core_helpers.py",)),
    Site(
        "proof-claims",
        "solver/deluxe_camping/hint.py",
        defs("value_note"),
        ("tests/deluxe_camping/test_value_notes.py",),
        "deluxe_camping",
    ),
    Site(
        "proof-claims",
        "solver/happy_campers/hint.py",
        defs("hint_note", "_set_notes"),
        (
            "tests/happy_campers/test_hint_contract.py",
            "tests/happy_campers/test_hint.py",
            "tests/core/test_hint_vocabulary.py",
        ),
        "happy_campers",
    ),
    *(Site("proof-claims", _service_path(game), PROOF_LINES, _service_tests(game), game) for game in GAMES),
    # the proto mappings: the written-out enum maps of every game's handler, and the by-name matching the others
    # are derived with
    *(Site("proto-maps", _service_path(game), MAPS, _service_tests(game), game) for game in GAMES),
    Site("proto-maps", "service/games/enum_maps.py", ALL, ("tests/test_enum_maps.py", "tests/test_proto_maps.py")),
    # the request validators
    *(Site("validators", _service_path(game), VALIDATOR_LINES, _service_tests(game), game) for game in GAMES),
    # each game's rules model
    *(Site("rules", f"solver/{game}/rules.py", ALL, GAME_RULE_TESTS[game]) for game in GAMES),
    # chance: every kind of chance node's odds, and the draws made from them (the service's seeded stream, the
    # solvers' numpy draw, the OpenSpiel adapters' outcomes, the set-up draws)
    *(Site("chance", path, select, tests, keyword) for path, select, tests, keyword in CHANCE_SITES),
    # the gRPC status of every error on the HTTP protocols (Connect JSON, Connect binary, gRPC-Web)
    Site("http-codes", "service/http_server.py", defs("CODES", "connect_error", "decode"), HTTP_CODE_TESTS),
    Site("http-codes", "service/server.py", defs("failure_status"), HTTP_CODE_TESTS),
    # what each player's OpenSpiel information state and observation show, and the solo returns
    *(
        Site("openspiel-info", f"campsolver/openspiel/{name}.py", select, OPENSPIEL_INFO_TESTS)
        for name, select in OPENSPIEL_INFO_SITES
    ),
    # every supply used up exactly: barriers, trailers, tokens, tent tokens, draw piles
    *(
        Site("supplies", f"solver/{game}/rules.py", select, ("tests/test_supplies.py", *GAME_RULE_TESTS[game]))
        for game, select in SUPPLY_SITES
    ),
    # a Camper Tour value's standard error: 0 only for exact values, none for values neither sampled nor exact
    Site("standard-errors", _service_path("camper_tour"), STANDARD_ERROR_LINES, STANDARD_ERROR_TESTS),
)

COMPARE_SWAP: dict[type, type] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
ENUM_MEMBER = re.compile(r"^[A-Z][A-Z0-9_]+$")


@dataclasses.dataclass(frozen=True)
class Mutant:
    """One change: replace bytes [start, end) of the file with `text`."""

    area: str
    path: str
    line: int
    operator: str
    start: int
    end: int
    original: str
    text: str
    tests: tuple[str, ...]
    keyword: str | None = None

    @property
    def label(self) -> str:
        return f"{self.original} -> {self.text}"


def _line_offsets(source: bytes) -> list[int]:
    offsets, total = [0], 0
    for line in source.splitlines(keepends=True):
        total += len(line)
        offsets.append(total)
    return offsets


def _skipped_nodes(tree: ast.AST) -> set[int]:
    """Ids of nodes never mutated: annotations, docstrings and f-string parts."""
    skipped: set[int] = set()

    def skip(node: ast.AST | None) -> None:
        if node is not None:
            skipped.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, ast.arg | ast.AnnAssign):
            skip(node.annotation)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            skip(node.returns)
        elif isinstance(node, ast.JoinedStr):
            skip(node)
    return skipped


def _map_nodes(tree: ast.Module) -> set[int]:
    """Ids of the nodes inside module-level `ALL_CAPS = {...}` dict literals and comprehensions, and inside
    `ALL_CAPS = enum_maps.from_proto(...)` (a map derived by name: its default and synonyms)."""
    inside: set[int] = set()
    for statement in tree.body:
        value = statement.value if isinstance(statement, ast.Assign) else None
        derived = (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute)
            and isinstance(value.func.value, ast.Name)
            and value.func.value.id == "enum_maps"
        )
        if (
            isinstance(statement, ast.Assign)
            and (derived or isinstance(statement.value, ast.Dict | ast.DictComp))
            and all(isinstance(t, ast.Name) and ENUM_MEMBER.match(t.id) for t in statement.targets)
        ):
            inside.update(id(n) for n in ast.walk(statement.value))
    return inside


def _named_nodes(tree: ast.Module, names: set[str]) -> set[int]:
    """Ids of the nodes inside the functions, methods and classes called one of `names` (at any depth), and
    inside the module-level assignments to one of `names`."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.name in names:
            inside.update(id(n) for n in ast.walk(node))
    for statement in tree.body:
        targets = (
            statement.targets
            if isinstance(statement, ast.Assign)
            else ([statement.target] if isinstance(statement, ast.AnnAssign) else [])
        )
        if any(isinstance(t, ast.Name) and t.id in names for t in targets):
            inside.update(id(n) for n in ast.walk(statement))
    found = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)}
    found |= {
        t.id
        for st in tree.body
        if isinstance(st, ast.Assign | ast.AnnAssign)
        for t in (st.targets if isinstance(st, ast.Assign) else [st.target])
        if isinstance(t, ast.Name)
    }
    missing = names - found
    if missing:
        raise ValueError(f"no definition named {sorted(missing)}")
    return inside


def mutants_of(site: Site) -> list[Mutant]:
    """Every mutant of a site, in source order (file by file for a package)."""
    return [mutant for path in site_files(site) for mutant in _file_mutants(site, path)]


def _statement_first_lines(tree: ast.AST) -> dict[int, int]:
    """Each node's innermost statement's first line, so that a line pattern (`require(`) still picks a condition the
    formatter wrapped onto the lines below it."""
    first: dict[int, int] = {}
    for statement in (s for s in ast.walk(tree) if isinstance(s, ast.stmt)):
        for child in ast.walk(statement):
            first[id(child)] = statement.lineno  # inner statements are walked later and win
    return first


def _file_mutants(site: Site, path: str) -> list[Mutant]:
    source = (ROOT / path).read_bytes()
    tree = ast.parse(source)
    offsets = _line_offsets(source)
    lines = source.decode().splitlines()
    skipped = _skipped_nodes(tree)
    chosen: set[int] | None = None
    if site.select == MAPS:
        chosen = _map_nodes(tree)
    elif site.select.startswith(DEFS_PREFIX):
        chosen = _named_nodes(tree, set(site.select[len(DEFS_PREFIX) :].split(",")))
    elif site.select != ALL:
        pattern = re.compile(site.select)
        first = _statement_first_lines(tree)
        chosen = {
            id(n)
            for n in ast.walk(tree)
            if hasattr(n, "lineno")
            and (pattern.search(lines[n.lineno - 1]) or pattern.search(lines[first.get(id(n), n.lineno) - 1]))
        }

    members: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and ENUM_MEMBER.match(node.attr):
            members.setdefault(ast.unparse(node.value), set()).add(node.attr)

    found: list[Mutant] = []

    def span(node: ast.AST) -> tuple[int, int]:
        return (offsets[node.lineno - 1] + node.col_offset, offsets[node.end_lineno - 1] + node.end_col_offset)

    def add(node: ast.AST, operator: str, text: str) -> None:
        start, end = span(node)
        original = source[start:end].decode()
        if " ".join(original.split()) != text:
            found.append(
                Mutant(
                    site.area,
                    path,
                    node.lineno,
                    operator,
                    start,
                    end,
                    " ".join(original.split()),
                    text,
                    site.tests,
                    site.keyword,
                )
            )

    for node in ast.walk(tree):
        if id(node) in skipped or (chosen is not None and id(node) not in chosen):
            continue
        if isinstance(node, ast.Compare) and type(node.ops[0]) in COMPARE_SWAP:
            changed = copy.deepcopy(node)
            changed.ops[0] = COMPARE_SWAP[type(node.ops[0])]()
            add(node, "compare", f"({ast.unparse(changed)})")
        elif isinstance(node, ast.Constant) and type(node.value) is bool:
            add(node, "bool-constant", str(not node.value))
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            add(node, "off-by-one", str(node.value + 1))
            add(node, "off-by-one", str(node.value - 1) if node.value > 0 else f"({node.value - 1})")
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            add(node, "negation", f"({ast.unparse(node.operand)})")
        elif isinstance(node, ast.BoolOp):
            changed = copy.deepcopy(node)
            changed.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
            add(node, "and-or", f"({ast.unparse(changed)})")
        elif isinstance(node, ast.If | ast.While | ast.IfExp) and not isinstance(node.test, ast.UnaryOp):
            add(node.test, "negation", f"(not ({ast.unparse(node.test)}))")
        elif isinstance(node, ast.Attribute) and ENUM_MEMBER.match(node.attr) and isinstance(node.ctx, ast.Load):
            base = ast.unparse(node.value)
            others = sorted(members.get(base, set()))
            if len(others) >= 2:
                swapped = others[(others.index(node.attr) + 1) % len(others)]
                add(node, "enum-swap", f"{base}.{swapped}")
    found.sort(key=lambda m: (m.start, m.operator, m.text))
    return found


def _copy_tree(destination: Path) -> None:
    """The repository without .git/.venv/caches, and campsolver/<name> -> ../<name> so the copy imports itself."""
    ignore = shutil.ignore_patterns(
        ".git",
        ".venv",
        "__pycache__",
        ".pytest_cache",
        ".ruff_cache",
        ".hypothesis",
        "*.egg-info",
        "build",
        "mutants",
        "bench_results*",
    )
    for entry in ROOT.iterdir():
        if entry.name in {".git", ".venv", "build", ".pytest_cache", ".ruff_cache", ".hypothesis"}:
            continue
        if entry.is_dir():
            shutil.copytree(entry, destination / entry.name, ignore=ignore, symlinks=True)
        else:
            shutil.copy2(entry, destination / entry.name)
    for name in MAPPED:
        link = destination / "campsolver" / name
        if not link.exists():
            link.symlink_to(Path("..") / name)


@dataclasses.dataclass
class Outcome:
    mutant: Mutant
    status: str  # killed / survived / timeout
    killed_by: str
    seconds: float


def _run_tests(
    copy_root: Path, tests: tuple[str, ...], keyword: str | None, timeout_s: float
) -> tuple[str, str, float]:
    """Run `tests` (narrowed by `-k keyword`) in the copy: ("passed" | "failed" | "timeout", first failing test,
    seconds)."""
    env = {**os.environ, "PYTHONPATH": str(copy_root), "PYTHONDONTWRITEBYTECODE": "1", "CI": "true"}
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-x",
        "-q",
        "-m",
        "not slow",
        "-p",
        "no:cacheprovider",
        "--timeout",
        str(int(timeout_s)),
        *(["-k", keyword] if keyword else []),
        *tests,
    ]
    started = time.monotonic()
    try:
        done = subprocess.run(
            command, cwd=copy_root, env=env, capture_output=True, text=True, timeout=timeout_s, stdin=subprocess.DEVNULL
        )
    except subprocess.TimeoutExpired:
        return "timeout", f"(no answer in {timeout_s:.0f} s)", time.monotonic() - started
    seconds = time.monotonic() - started
    if done.returncode == 0:
        return "passed", "", seconds
    failing = re.search(r"^(?:FAILED|ERROR) (\S+)", done.stdout, re.MULTILINE)
    return "failed", failing.group(1) if failing else f"(exit {done.returncode})", seconds


def run(
    mutants: list[Mutant],
    timeout_factor: float,
    min_timeout_s: float,
    deadline: float,
    progress: bool = True,
    check_baseline: bool = True,
    log: Path | None = None,
) -> list[Outcome]:
    """Each mutant against its tests, in a private copy of the repository; stops starting new ones at `deadline`.
    `log`: each outcome appended as a JSON line as soon as it is known (a long run can be read while it goes)."""
    outcomes: list[Outcome] = []
    with tempfile.TemporaryDirectory(prefix="campsolver-mutate-") as scratch:
        copy_root = Path(scratch) / "repo"
        copy_root.mkdir()
        _copy_tree(copy_root)
        baselines: dict[tuple[tuple[str, ...], str | None], float] = {}
        for mutant in mutants:
            if time.monotonic() > deadline:
                break
            command = (mutant.tests, mutant.keyword)
            if command not in baselines and not check_baseline:
                baselines[command] = min_timeout_s / timeout_factor
            if command not in baselines:
                status, failing, seconds = _run_tests(copy_root, mutant.tests, mutant.keyword, 1800)
                if status != "passed":
                    raise SystemExit(f"the unmutated tests fail ({failing}): {' '.join(mutant.tests)}")
                baselines[command] = seconds
            target = copy_root / mutant.path
            original = target.read_bytes()
            target.write_bytes(original[: mutant.start] + mutant.text.encode() + original[mutant.end :])
            try:
                timeout = max(min_timeout_s, timeout_factor * baselines[command])
                status, failing, seconds = _run_tests(copy_root, mutant.tests, mutant.keyword, timeout)
            finally:
                target.write_bytes(original)
            outcome = Outcome(mutant, {"passed": "survived", "failed": "killed"}.get(status, status), failing, seconds)
            outcomes.append(outcome)
            if log is not None:
                with log.open("a") as stream:
                    stream.write(json.dumps(_outcome_json(outcome)) + "\n")
            if progress:
                print(
                    f"{outcome.status:8} {mutant.path}:{mutant.line} {mutant.operator} {mutant.label} {failing}",
                    flush=True,
                )
    return outcomes


def _outcome_json(outcome: Outcome) -> dict[str, object]:
    return {
        **dataclasses.asdict(outcome.mutant),
        "status": outcome.status,
        "killed_by": outcome.killed_by,
        "seconds": round(outcome.seconds, 2),
    }


def survivors_of(path: Path) -> list[Mutant]:
    """The survivors recorded in a run's --json or --log file, still present in today's source, with today's test
    command of their site (to re-run them after adding tests)."""
    text = path.read_text()
    entries = (
        json.loads(text)["mutants"]
        if text.lstrip().startswith("{\n")
        else [json.loads(line) for line in text.splitlines() if line.strip()]
    )
    found: list[Mutant] = []
    for entry in entries:
        if entry["status"] != "survived":
            continue
        site = next((s for s in SITES if s.area == entry["area"] and entry["path"] in site_files(s)), None)
        tests, keyword = (site.tests, site.keyword) if site else (tuple(entry["tests"]), entry.get("keyword"))
        # today's test command of its site: the tests added since judge it too
        mutant = Mutant(
            **{**{k: entry[k] for k in entry if k in Mutant.__dataclass_fields__}, "tests": tests, "keyword": keyword}
        )
        source = (ROOT / mutant.path).read_bytes()[mutant.start : mutant.end].decode()
        if " ".join(source.split()) != mutant.original:
            print(f"skipped (source changed): {mutant.path}:{mutant.line} {mutant.label}", file=sys.stderr)
            continue
        found.append(mutant)
    return found


def select(
    sites: tuple[Site, ...], sample: int | None, seed: int, per_area: dict[str, int] | None = None
) -> list[Mutant]:
    """Every site's mutants, or `sample` of them drawn per site (`per_area[area]` instead where given; seeded: the
    same run gives the same mutants)."""
    per_site: list[list[Mutant]] = []
    for site in sites:
        mutants = mutants_of(site)
        count = (per_area or {}).get(site.area, sample)
        if count is not None and len(mutants) > count:
            mutants = sorted(
                random.Random(f"{seed}:{site.area}:{site.path}").sample(mutants, count), key=lambda m: m.start
            )
        per_site.append(mutants)
    # Round robin over the areas, and within an area over its sites: a run cut short by --max-minutes has still
    # covered every area about evenly (an area of 15 sites does not crowd out one of 5).
    per_area_lists: dict[str, list[Mutant]] = {}
    for area in dict.fromkeys(site.area for site in sites):
        lists = [mutants for site, mutants in zip(sites, per_site, strict=True) if site.area == area]
        per_area_lists[area] = [m for layer in itertools.zip_longest(*lists) for m in layer if m is not None]
    return [m for layer in itertools.zip_longest(*per_area_lists.values()) for m in layer if m is not None]


def summary(outcomes: list[Outcome]) -> dict[str, dict[str, float]]:
    """Per area: mutants run, killed (timeouts count as killed), survived, kill rate."""
    areas: dict[str, dict[str, float]] = {}
    for outcome in outcomes:
        row = areas.setdefault(outcome.mutant.area, {"run": 0, "killed": 0, "survived": 0})
        row["run"] += 1
        row["survived" if outcome.status == "survived" else "killed"] += 1
    for row in areas.values():
        row["kill_rate"] = round(row["killed"] / row["run"], 3) if row["run"] else 0.0
    return areas


def table(outcomes: list[Outcome]) -> str:
    """Markdown: one row a mutant (file, line, mutation, outcome, killed by), then the kill rate per area."""
    rows = ["| area | file:line | mutation | outcome | killed by |", "| --- | --- | --- | --- | --- |"]
    for o in outcomes:
        label = o.mutant.label.replace("|", "\\|")
        rows.append(
            f"| {o.mutant.area} | {o.mutant.path}:{o.mutant.line} | {o.mutant.operator}: `{label}` | "
            f"{o.status} | {o.killed_by} |"
        )
    rows += ["", "| area | run | killed | survived | kill rate |", "| --- | --- | --- | --- | --- |"]
    for area, row in summary(outcomes).items():
        rows.append(f"| {area} | {row['run']} | {row['killed']} | {row['survived']} | {row['kill_rate']:.0%} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--area", action="append", help="only these areas (repeatable)")
    parser.add_argument("--path", action="append", help="only sites in these files (repeatable)")
    parser.add_argument("--sample", type=int, help="at most this many mutants a site (seeded draw)")
    parser.add_argument(
        "--sample-area",
        action="append",
        default=[],
        metavar="AREA=N",
        help="at most N mutants a site in AREA (overrides --sample there; repeatable)",
    )
    parser.add_argument("--rerun", type=Path, help="run only the survivors recorded in this --json or --log file")
    parser.add_argument(
        "--log", type=Path, help="append each outcome here as a JSON line as it is known (a run resumes from it)"
    )
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    parser.add_argument("--json", type=Path, help="write the outcomes here")
    parser.add_argument("--markdown", type=Path, help="write the table here")
    parser.add_argument("--max-minutes", type=float, default=60.0, help="start no mutant after this long")
    parser.add_argument("--timeout-factor", type=float, default=4.0, help="a mutant's timeout: this x baseline")
    parser.add_argument("--min-timeout", type=float, default=60.0)
    parser.add_argument(
        "--no-baseline",
        action="store_true",
        help="skip the unmutated run of each test command (when main is known green)",
    )
    args = parser.parse_args(argv)
    sites = tuple(s for s in SITES if (not args.area or s.area in args.area) and (not args.path or s.path in args.path))
    per_area = {area: int(n) for area, n in (item.split("=", 1) for item in args.sample_area)}
    mutants = survivors_of(args.rerun) if args.rerun else select(sites, args.sample, args.seed, per_area)
    if args.log and args.log.exists() and not args.rerun:  # resume: what the log already judged is not run again
        done = {
            (e["path"], e["start"], e["end"], e["text"])
            for e in (json.loads(line) for line in args.log.read_text().splitlines() if line.strip())
        }
        mutants = [m for m in mutants if (m.path, m.start, m.end, m.text) not in done]
    if args.list:
        for m in mutants:
            print(f"{m.area:13} {m.path}:{m.line:<5} {m.operator:13} {m.label}")
        print(f"{len(mutants)} mutants")
        return 0
    outcomes = run(
        mutants,
        args.timeout_factor,
        args.min_timeout,
        time.monotonic() + 60 * args.max_minutes,
        check_baseline=not args.no_baseline,
        log=args.log,
    )
    text = table(outcomes)
    print(text)
    if args.markdown:
        args.markdown.write_text(text + "\n")
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "summary": summary(outcomes),
                    "mutants": [_outcome_json(o) for o in outcomes],
                },
                indent=1,
            )
            + "\n"
        )
    return 0


def iter_sites() -> Iterator[Site]:
    """The sites `make mutate` covers (for tests and docs)."""
    yield from SITES


if __name__ == "__main__":
    raise SystemExit(main())
