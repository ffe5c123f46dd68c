"""The layers of docs/architecture.md hold: every game's package depends on the core only, the core on nothing
of the project, no solver on the service, the clients or OpenSpiel; and every game's rules model exports its
`GAME` and its state named after the game."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest
from campsolver.solver.core.game import Game, GameState

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("happy_campers", "deluxe_camping", "campsite", "camper_tour", "adventure_tours")
#: Third-party packages no solver may import: the server's and the adapters' own.
OUTSIDE = ("grpc", "pyspiel", "open_spiel", "ray", "campsolver.service", "campsolver.clients", "campsolver.openspiel")


def imports(path: Path) -> set[str]:
    """Every module a file imports (absolute names; a relative import is the file's own package)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def project_layers(path: Path) -> set[str]:
    """The project packages a file imports, as `solver.<package>` (or `service`, `clients`, `openspiel`)."""
    layers = set()
    for name in imports(path):
        parts = name.split(".")
        if parts[0] == "campsolver" and len(parts) > 1:
            layers.add(".".join(parts[1:3]) if parts[1] == "solver" and len(parts) > 2 else parts[1])
    return layers


@pytest.mark.parametrize("package", [*GAMES, "core"])
def test_a_game_depends_on_the_core_only(package: str) -> None:
    allowed = {"solver.core", f"solver.{package}"}
    for path in sorted((ROOT / "solver" / package).rglob("*.py")):
        extra = project_layers(path) - allowed
        assert not extra, f"{path.relative_to(ROOT)} imports {sorted(extra)}"
        outside = [name for name in imports(path) if name.startswith(OUTSIDE)]
        assert not outside, f"{path.relative_to(ROOT)} imports {outside}"


def test_the_toy_games_rules_model_needs_only_the_core() -> None:
    """As a game's package under solver/ (its OpenSpiel adapter, like the five games', imports the adapters)."""
    assert project_layers(ROOT / "tests" / "toy_game" / "rules.py") <= {"solver.core"}


@pytest.mark.parametrize("package", GAMES)
def test_every_rules_model_exports_its_game_and_a_state_named_after_it(package: str) -> None:
    rules = importlib.import_module(f"campsolver.solver.{package}.rules")
    game = rules.GAME
    assert isinstance(game, Game) and game.name == package
    state_name = "".join(word.capitalize() for word in package.split("_")) + "State"
    state_type = getattr(rules, state_name)
    start = game.new_initial_state()
    assert isinstance(start, state_type) and isinstance(start, GameState)
    assert game.min_players <= game.num_players() <= game.max_players  # the default table


@pytest.mark.parametrize("package", GAMES)
def test_every_game_answers_its_hint_and_its_maximum_from_modules_of_those_names(package: str) -> None:
    """A newcomer finds a game's hint in `hint.py` (`hint(state, budget, *, options)`) and its maximum in
    `maximise.py`, and the service reaches the maximum through that module."""
    import inspect

    hint = importlib.import_module(f"campsolver.solver.{package}.hint")
    assert list(inspect.signature(hint.hint).parameters)[:3] == ["state", "budget", "options"]
    maximise = importlib.import_module(f"campsolver.solver.{package}.maximise")
    public = [name for name in getattr(maximise, "__all__", dir(maximise)) if not name.startswith("_")]
    assert any(callable(getattr(maximise, name)) for name in public)
    handlers = ROOT / "service" / "games" / package / "handlers.py"
    assert f"campsolver.solver.{package}.maximise" in imports(handlers) or any(
        name == f"campsolver.solver.{package}" and "maximise" in _names_from(handlers, name)
        for name in imports(handlers)
    )


def _names_from(path: Path, module: str) -> set[str]:
    """The names a file imports from `module` (`from module import a, b`)."""
    return {
        alias.name
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ImportFrom) and node.module == module
        for alias in node.names
    }
