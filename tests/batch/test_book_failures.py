"""A book puzzle that cannot be made: the book first tries other seeds in the time left, says on the puzzle's page
which seed made it and why the asked one did not, and when none does, its title page says in words which puzzle
and why (it printed "RuntimeError: happy-campers puzzle: DEADLINE_EXCEEDED: ..." in red)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from campsolver.clients.batch import book
from campsolver.clients.batch.engine import Task, execute
from campsolver.service import dispatch
from campsolver.service.registry import games
from campsolver.solver.core.budget import Budget

PARAMS = {"game": "happy-campers", "grade": "hard", "seed": 3}


def _task(params: dict[str, Any] = PARAMS) -> Task:
    return Task("book", params["game"], "puzzle", dict(params), book.generate)


def _example_response() -> Any:
    command = games()["camper-tour"].commands["puzzle"]
    request = command.example()
    return dispatch.run(command, request, Budget(60.0))


def _calls(monkeypatch: pytest.MonkeyPatch, outcomes: dict[int, Any]) -> list[tuple[int, float]]:
    """`book.call` answering by seed: an exception is raised, anything else returned; the calls are recorded."""
    seen: list[tuple[int, float]] = []

    def fake(game: str, command: str, request: dict[str, Any], budget: Budget) -> Any:
        seen.append((request["seed"], budget.time_limit_s))
        outcome = outcomes[request["seed"]]
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    monkeypatch.setattr(book, "call", fake)
    return seen


OUT_OF_TIME = RuntimeError(
    "happy-campers puzzle: DEADLINE_EXCEEDED: no answer within the 72.00 s budget; allow more time"
)
NO_SUCH_GRADE = RuntimeError("happy-campers puzzle: INVALID_ARGUMENT: grade: no puzzle of that grade for this seed")


def test_a_seed_that_runs_out_of_time_gives_way_to_the_next_and_the_page_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    response = _example_response()
    seen = _calls(monkeypatch, {3: NO_SUCH_GRADE, 1003: response})
    result = book.generate(PARAMS, Budget(100.0))
    assert [seed for seed, _ in seen] == [3, 1003]
    first, second = (limit for _, limit in seen)
    assert 80 <= first <= 86 and 45 <= second <= 51  # 85% of the time, then half of what is left
    assert result["seed"] == response.puzzle.seed and result["retried"] == [
        {"seed": 3, "why": "has no puzzle of that grade", "seconds": 85, "timed_out": False}
    ]
    html = book.render("Book", [(_task(), result, None)])
    page = html.split('id="puzzle-1"')[1].split("</section>")[0]
    assert f"Seed {result['seed']} (seed 3 has no puzzle of that grade)" in page


def test_a_seed_that_ran_out_of_time_leaves_too_little_for_another(monkeypatch: pytest.MonkeyPatch) -> None:
    """After a time-out only 15% of the limit is left: no other seed is tried with so little, and the words say so."""
    import time

    def slow(game: str, command: str, request: dict[str, Any], budget: Budget) -> Any:
        time.sleep(budget.remaining())
        raise OUT_OF_TIME

    monkeypatch.setattr(book, "call", slow)
    with pytest.raises(book.PuzzleNotMade) as caught:
        book.generate(PARAMS, Budget(1.0))
    assert str(caught.value) == (
        "no Happy Campers hard puzzle from seed 3: seed 3 ran out of time in its 1 s; run the "
        "book again with --retry-failed and a longer --time-limit (this one was 1 s)"
    )


def test_no_puzzle_from_any_seed_is_said_in_words_on_the_title_page(monkeypatch: pytest.MonkeyPatch) -> None:
    _calls(monkeypatch, {3: OUT_OF_TIME, 1003: NO_SUCH_GRADE, 2003: OUT_OF_TIME})
    outcome = execute(book.generate, PARAMS, 100.0)  # as the batch engine runs a task and stores its error
    assert outcome["status"] == "failed"
    html = book.render("Book", [(_task(), None, outcome["error"])])
    title = html.split('<section class="page title">')[1].split("</section>")[0]
    line = re.search(r'<li class="failed">(.*?)</li>', title).group(1)
    assert "Error" not in line and "NotMade" not in line and "DEADLINE_EXCEEDED" not in line, line
    assert line.startswith("No Happy Campers hard puzzle from seed 3 or the 2 seed(s) tried after it"), line
    assert "seed 3 ran out of time in its 85 s" in line and "seed 1003 has no puzzle of that grade" in line
    assert "--retry-failed and a longer --time-limit (this one was 100 s)" in line
    assert "Not in this book" in title


def test_other_failures_are_said_in_words_too() -> None:
    for error, words in [
        (
            "RuntimeError: happy-campers puzzle: DEADLINE_EXCEEDED: no answer within the 60.00 s budget",
            "it ran out of time (no answer within the 60.00 s budget)",
        ),
        ("RayTaskError(RuntimeError): the worker died", "the worker died"),
        (
            "RuntimeError: happy-campers puzzle: INTERNAL: internal error (logged on the server)",
            "the solver failed (internal error (logged on the server))",
        ),
    ]:
        line = book.failure_words(_task(), error)
        assert line.startswith(f"No Happy Campers hard puzzle from seed 3: {words}"), line
        assert "RuntimeError" not in line and "RayTaskError" not in line


def test_a_real_puzzle_with_too_little_time_is_not_made_and_says_why() -> None:
    """Through the real handler: a Happy Campers hard puzzle in 0.8 s runs out of time on every seed it tries."""
    with pytest.raises(book.PuzzleNotMade) as caught:
        book.generate(PARAMS, Budget(0.8))
    text = str(caught.value)
    assert text.startswith("no Happy Campers hard puzzle from seed 3") and "ran out of time" in text, text
    assert "--retry-failed and a longer --time-limit" in text
