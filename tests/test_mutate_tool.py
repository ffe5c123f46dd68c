"""The mutation tool (tools/mutate.py) itself: its mutants are real, single, parseable changes at the sites it
names, its draws are reproducible, and its private copy imports the mutated code, not the worktree's."""

from __future__ import annotations

import ast
import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tools import mutate


def _spliced(mutant: mutate.Mutant) -> str:
    source = (mutate.ROOT / mutant.path).read_bytes()
    return (source[: mutant.start] + mutant.text.encode() + source[mutant.end :]).decode()


def test_proto_mapping_mutants_swap_proof_statuses_and_parse() -> None:
    site = next(s for s in mutate.SITES if s.path == "service/games/shared.py" and s.select == mutate.MAPS)
    mutants = mutate.mutants_of(site)
    swaps = [m for m in mutants if m.operator == "enum-swap"]
    # the five Proof members and the five proto statuses of PROOF_TO_PROTO, each swapped for another member
    assert any(m.original == "common_pb2.PROOF_STATUS_OPTIMAL" for m in swaps)
    assert any(m.original == "Proof.FEASIBLE_WITH_BOUND" for m in swaps)
    original = (mutate.ROOT / site.path).read_text()
    for mutant in mutants:
        text = _spliced(mutant)
        assert text != original
        ast.parse(text)  # every mutant is valid Python
        assert "PROOF_TO_PROTO" in original[: mutant.start] or "GRADE_BY_NAME" in original[: mutant.start]


def test_operators_cover_comparisons_constants_and_logic() -> None:
    site = mutate.Site("rules", "solver/deluxe_camping/rules.py", mutate.ALL, ())
    operators = {m.operator for m in mutate.mutants_of(site)}
    assert {"compare", "off-by-one", "bool-constant", "negation", "and-or", "enum-swap"} <= operators


def test_sampling_is_seeded_and_per_site() -> None:
    sites = tuple(s for s in mutate.SITES if s.area == "rules")[:2]
    first = mutate.select(sites, 5, seed=1)
    assert first == mutate.select(sites, 5, seed=1) and len(first) == 10
    assert first != mutate.select(sites, 5, seed=2)


def test_the_private_copy_imports_its_own_code(tmp_path: Path) -> None:
    """The copy maps campsolver.solver/service/clients to its own folders, so a mutant written there is what the
    tests import (the editable install would point them at the worktree)."""
    mutate._copy_tree(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    code = (
        "import campsolver.solver.core.proof as p, campsolver.service.games.shared as s;print(p.__file__, s.__file__)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, check=True
    )
    assert all(Path(f).resolve().is_relative_to(tmp_path.resolve()) for f in done.stdout.split())


def test_summary_counts_timeouts_as_killed() -> None:
    mutant = mutate.Mutant("a", "f.py", 1, "compare", 0, 1, "x", "y", ())
    outcomes = [
        mutate.Outcome(mutant, "killed", "t", 1.0),
        mutate.Outcome(mutant, "timeout", "", 1.0),
        mutate.Outcome(mutant, "survived", "", 1.0),
    ]
    assert mutate.summary(outcomes)["a"] == {"run": 3, "killed": 2, "survived": 1, "kill_rate": 0.667}
    assert "| a | 3 | 2 | 1 | 67% |" in mutate.table(outcomes)


def test_per_area_sample_and_rerun_of_survivors_with_todays_tests(tmp_path: Path) -> None:
    """`--sample-area` draws per area; `--rerun` takes a run's survivors (log or JSON) with today's test command."""
    sites = tuple(s for s in mutate.SITES if s.area in ("rules", "validators"))
    drawn = mutate.select(sites, 1, seed=3, per_area={"validators": 2})
    per_area = {area: sum(m.area == area for m in drawn) for area in ("rules", "validators")}
    assert per_area == {"rules": 5, "validators": 10}
    survivor, killed = drawn[0], drawn[1]
    stale = {"tests": ["tests/gone.py"], "keyword": None}
    lines = [
        {**mutate._outcome_json(mutate.Outcome(survivor, "survived", "", 1.0)), **stale},
        mutate._outcome_json(mutate.Outcome(killed, "killed", "t", 1.0)),
    ]
    log = tmp_path / "run.jsonl"
    log.write_text("".join(mutate.json.dumps(line) + "\n" for line in lines))
    again = mutate.survivors_of(log)
    site = next(s for s in mutate.SITES if s.area == survivor.area and survivor.path in mutate.site_files(s))
    assert again == [dataclasses.replace(survivor, tests=site.tests, keyword=site.keyword)]


def test_named_definitions_select_only_their_own_nodes() -> None:
    """`defs(...)` mutates inside the named functions and module-level assignments only, and refuses a name the
    file does not define (a renamed function must not silently leave a site empty)."""
    site = mutate.Site("chance", "solver/camper_tour/rules.py", mutate.defs("TWO_DICE", "_effect_outcomes"), ())
    mutants = mutate.mutants_of(site)
    source = (mutate.ROOT / site.path).read_text().splitlines()
    tree = ast.parse("\n".join(source))
    spans = [
        (n.lineno, n.end_lineno)
        for n in ast.walk(tree)
        if (isinstance(n, ast.FunctionDef) and n.name == "_effect_outcomes")
        or (isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name) and n.target.id == "TWO_DICE")
    ]
    assert len(spans) == 2 and mutants
    assert all(any(a <= m.line <= b for a, b in spans) for m in mutants)
    assert {a for a, _ in spans} <= {m.line for m in mutants} | {a for a, b in spans if b > a}
    with pytest.raises(ValueError, match="no definition"):
        mutate.mutants_of(mutate.Site("chance", site.path, mutate.defs("no_such_function"), ()))


def test_the_new_areas_name_existing_tests_and_have_mutants() -> None:
    for area in ("chance", "http-codes", "openspiel-info", "supplies", "standard-errors"):
        sites = [s for s in mutate.SITES if s.area == area]
        assert sites, area
        for site in sites:
            assert mutate.mutants_of(site), f"{area}: {site.path} has no mutant"
            for test in site.tests:
                assert (mutate.ROOT / test.split("::")[0]).exists(), test


def test_the_rules_sites_name_conformance_cases_that_exist() -> None:
    """A node id pytest cannot find fails the run, which the tool would count as a kill: every conformance case a
    rules site names is one the conformance module has (the player ranges in `mutate._SEATS` are the games')."""
    from tests.test_rules_conformance import CASES, GAMES

    module = "tests/test_rules_conformance.py"
    cases = {case.id for case in CASES}
    existing = {
        *(f"{module}::test_the_game_seats_its_players[{case}]" for case in cases),
        *(f"{module}::test_random_play_reaches_the_end_by_the_rules[{case}]" for case in cases),
        *(f"{module}::test_a_table_outside_the_range_is_refused[{game.name}]" for game in GAMES),
    }
    named = [test for tests in mutate.GAME_RULE_TESTS.values() for test in tests if test.startswith(module)]
    assert named and set(named) <= existing
    for game in GAMES:
        if game.name in mutate._SEATS:
            assert mutate._SEATS[game.name] == (game.min_players, game.max_players)


def test_a_package_site_mutates_its_modules_not_its_init() -> None:
    """A game's service is a package: its site covers convert, examples and handlers (the `__init__` only binds
    them), one draw per site as for a single file; a survivor's file leads back to its site."""
    site = next(s for s in mutate.SITES if s.area == "validators" and s.keyword == "deluxe_camping")
    assert mutate.site_files(site) == [f"{site.path}/{name}.py" for name in ("convert", "examples", "handlers")]
    paths = {m.path for m in mutate.mutants_of(site)}
    assert {f"{site.path}/convert.py", f"{site.path}/handlers.py"} <= paths
    assert f"{site.path}/__init__.py" not in paths
    assert len(mutate.select((site,), 3, seed=1)) == 3


def test_a_line_pattern_picks_a_condition_the_formatter_wrapped_below_its_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "checks.py").write_text(
        "def check(count, limit):\n"
        "    require(\n"
        "        0 <= count < limit and limit > 1,\n"
        '        "field",\n'
        '        "in range",\n'
        "    )\n"
        "    total = count + 1\n"
        "    return total\n"
    )
    monkeypatch.setattr(mutate, "ROOT", tmp_path)
    mutants = mutate.mutants_of(mutate.Site("validators", "checks.py", mutate.VALIDATOR_LINES, ()))
    assert {m.line for m in mutants} == {3}  # the wrapped condition, nothing from the lines after the call
    assert {"compare", "and-or", "off-by-one"} <= {m.operator for m in mutants}
