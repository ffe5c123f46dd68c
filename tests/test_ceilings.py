"""bench.ceilings: the arena's Camper Tour ceiling (the exact best response to a fixed opponent) on short routes."""

from __future__ import annotations

import pytest
from campsolver.solver.camper_tour.ceiling import ceiling_report
from campsolver.solver.camper_tour.rules import all_normal

from bench import ceilings
from bench.arena.cells import ArenaCell, outside_players
from bench.arena.tables import ceiling_functions, summarise

STYLES = sorted(outside_players("camper_tour"))


def _short():
    return all_normal(6, 4)


@pytest.mark.parametrize("style", STYLES)
def test_outside_players_are_seat_symmetric_so_one_solve_gives_both_seats(style):
    policy = ceilings._policy(outside_players("camper_tour")[style], {})
    both = ceiling_report(policy, _short())
    one = ceiling_report(policy, _short(), seat_symmetric=True)
    assert one.first == pytest.approx(both.first, abs=1e-12)
    assert one.second == pytest.approx(both.second, abs=1e-12)
    assert 0.0 < both.value < 1.0


def test_the_hook_answers_fixed_two_camper_opponents_only_and_keeps_its_answer(tmp_path, monkeypatch):
    assert ceiling_functions()["camper_tour"] is ceilings.camper_tour_ceiling
    cache = tmp_path / "ceilings.json"
    for text in ("camper_tour:3:out:thumb", "camper_tour:2:gbot4", "camper_tour:2:hint10x"):
        assert ceilings.camper_tour_ceiling(ArenaCell.parse(text), [], config=_short(), cache_path=cache) is None
    cell = ArenaCell.parse("camper_tour:2:out:thumb")
    found = ceilings.camper_tour_ceiling(cell, [], config=_short(), cache_path=cache)
    assert found is not None and cache.exists()
    policy = ceilings._policy(outside_players("camper_tour")["thumb"], {})
    assert found.share == pytest.approx(ceiling_report(policy, _short()).value, abs=1e-12)
    assert "both seats averaged" in found.how

    def no_solve(*args, **kwargs):
        raise AssertionError("solved again: the cache was not read")

    monkeypatch.setattr(ceilings, "ceiling_report", no_solve)
    again = ceilings.camper_tour_ceiling(cell, [], config=_short(), cache_path=cache)
    assert again == found


def _won_game() -> dict:
    """One arena game row: the hint (seat 0) beat out:thumb."""
    return {
        "index": 0,
        "hint_return": 1.0,
        "hint_seat": 0,
        "seats": ["hint", "out:thumb"],
        "scores": [30, 20],
        "hint_cpu": [0.01],
        "opponent_cpu": {"1": [0.001]},
        "seed": 1,
    }


def test_the_arena_row_shows_the_ceiling(tmp_path):
    cell = ArenaCell.parse("camper_tour:2:out:thumb")
    header = {"hint_cpu_s": 0.05, "hint_budget_s": 0.05, "first_seed": 1}
    game = _won_game()

    def fn(c, games):
        return ceilings.camper_tour_ceiling(c, games, config=_short(), cache_path=tmp_path / "c.json")

    row = summarise(cell, [header, game], {"camper_tour": fn})
    assert row["ceiling"] is not None and 0.0 < row["ceiling"]["share"] < 1.0


def test_a_ceiling_that_does_not_finish_within_its_cpu_shows_none_and_is_retried_only_with_more(tmp_path, monkeypatch):
    cache = tmp_path / "ceilings.json"
    cell = ArenaCell.parse("camper_tour:2:out:steady")
    assert ceilings.camper_tour_ceiling(cell, [], config=_short(), cache_path=cache, cpu_s=1e-6) is None
    real = ceilings.ceiling_report

    def no_solve(*args, **kwargs):
        raise AssertionError("tried again with no more CPU")

    monkeypatch.setattr(ceilings, "ceiling_report", no_solve)
    assert ceilings.camper_tour_ceiling(cell, [], config=_short(), cache_path=cache, cpu_s=1e-6) is None
    monkeypatch.setattr(ceilings, "ceiling_report", real)
    found = ceilings.camper_tour_ceiling(cell, [], config=_short(), cache_path=cache, cpu_s=600.0)
    assert found is not None and 0.0 < found.share < 1.0


def test_a_summary_reads_kept_ceilings_and_never_solves_one(tmp_path, monkeypatch, capsys):
    cache = tmp_path / "ceilings.json"
    cell = ArenaCell.parse("camper_tour:2:out:thumb")

    def no_solve(*args, **kwargs):
        raise AssertionError("a summary solved a ceiling")

    real = ceilings.ceiling_report
    monkeypatch.setattr(ceilings, "ceiling_report", no_solve)
    assert ceilings.camper_tour_ceiling(cell, [], config=_short(), cache_path=cache, solve=False) is None
    assert not cache.exists() and "no kept ceiling for out:thumb" in capsys.readouterr().err
    monkeypatch.setattr(ceilings, "ceiling_report", real)
    kept = ceilings.camper_tour_ceiling(cell, [], config=_short(), cache_path=cache)
    monkeypatch.setattr(ceilings, "ceiling_report", no_solve)
    assert kept is not None
    assert ceilings.camper_tour_ceiling(cell, [], config=_short(), cache_path=cache, solve=False) == kept
    reading = ceiling_functions(solve=False)["camper_tour"]
    assert reading(ArenaCell.parse("camper_tour:2:out:steady"), [], config=_short(), cache_path=cache) is None


@pytest.mark.parametrize("flag", ["--summary", "--estimate"])
def test_the_arena_summary_and_estimate_never_solve_a_ceiling(tmp_path, monkeypatch, flag):
    import json

    from bench.arena import __main__ as arena

    cell = ArenaCell.parse("camper_tour:2:out:thumb")
    header = {"cell": cell.text, "hint_cpu_s": 0.05, "hint_budget_s": 0.05, "first_seed": 1, "bots": {}}
    (tmp_path / f"{cell.name}.jsonl").write_text(json.dumps(header) + "\n" + json.dumps(_won_game()) + "\n")

    def no_solve(*args, **kwargs):
        raise AssertionError(f"{flag} solved a ceiling")

    monkeypatch.setattr(ceilings, "ceiling_report", no_solve)
    monkeypatch.setattr(arena, "write_json", lambda *args, **kwargs: None)
    arena.main([flag, "--cells", cell.text, "--games", "1", "--hint-cpu", "0.05", "--run-dir", str(tmp_path)])


def test_a_summary_says_when_a_kept_ceiling_did_not_finish(tmp_path, capsys):
    cache = tmp_path / "ceilings.json"
    cell = ArenaCell.parse("camper_tour:2:out:steady")
    assert ceilings.camper_tour_ceiling(cell, [], config=_short(), cache_path=cache, cpu_s=1e-6) is None
    capsys.readouterr()
    assert ceilings.camper_tour_ceiling(cell, [], config=_short(), cache_path=cache, solve=False) is None
    assert "tried with 1e-06 CPU-s, not finished" in capsys.readouterr().err
