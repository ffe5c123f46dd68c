"""Puzzle pages as a reader solves them: what the statement and the picture must say beyond the board.

Campsite: a turned card says which way it turns (clockwise, as the rules model turns it), opponents' tents are
explained, and the laid card's dashed outline runs clear of every label. Camper Tour: the page names the rules
variants the puzzle is played under and the solution its expected value. Happy Campers: the maps carry row and
column numbers (the answer names cells) and the page says when doubles are off.
(Adventure Tours and Deluxe Camping pages: tests/adventure_tours/test_puzzle.py, tests/deluxe_camping/
test_hint_puzzle.py.)
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest
from campsolver.clients.batch.service_calls import call
from campsolver.solver.campsite.rules import Placement, parse_card
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.picture import Box

SVG = "{http://www.w3.org/2000/svg}"


def _texts(svg: str) -> list[ET.Element]:
    return list(ET.fromstring(svg).iter(f"{SVG}text"))


def _words(svg: str) -> str:
    return " ".join(" ".join(t.text or "" for t in _texts(svg)).split())


def _outline_bands(svg: str) -> list[Box]:
    """The four edges of the laid card's dashed outline, each as the band its stroke covers."""
    bands = []
    for rect in ET.fromstring(svg).iter(f"{SVG}rect"):
        if rect.get("class") != "laid":
            continue
        x, y, w, h = (float(rect.get(k, "0")) for k in ("x", "y", "width", "height"))
        half = float(rect.get("stroke-width", "1")) / 2
        bands += [
            Box(x - half, y - half, w + 2 * half, 2 * half),
            Box(x - half, y + h - half, w + 2 * half, 2 * half),
            Box(x - half, y - half, 2 * half, h + 2 * half),
            Box(x + w - half, y - half, 2 * half, h + 2 * half),
        ]
    return bands


def test_campsite_turns_say_clockwise_as_the_rules_model_turns() -> None:
    card = parse_card("DT #.#/###")
    # a quarter turn clockwise carries the landscape card's top-left square to the top-right of the portrait card
    assert Placement(card, 0, 0, 1).squares()[(0, 1)] and Placement(card, 0, 0, 1).squares()[(1, 1)] is False
    assert Placement(card, 0, 0, 1).label().endswith("turned 90 clockwise")
    assert Placement(card, 0, 0, 2).label().endswith("turned 180")
    assert Placement(card, 0, 0, 3).label().endswith("turned 270 clockwise")


@pytest.mark.parametrize("seed", [0, 3, 7])  # turned 270, turned 90, unturned (the example)
def test_campsite_page_explains_turns_and_opponents_and_the_outline_clears_every_label(seed: int) -> None:
    response: Any = call("campsite", "puzzle", {"seed": seed}, Budget(60))
    envelope = response.puzzle
    rotation = response.solution.placement.rotation
    if rotation in (1, 3):
        assert f"turned {90 * rotation} clockwise" in envelope.solution_text
        assert f"turned {90 * rotation} clockwise" in _words(envelope.solution_svg)
    for svg in (envelope.svg, envelope.solution_svg):
        words = _words(svg)
        assert "quarter turns clockwise" in words
        opponents = sorted({t.player for t in response.state.table.tents} - {0})
        assert ("an opponent" in words) == bool(opponents)  # seeds 0 and 7 have one, seed 3 none
        for seat in opponents:
            assert f"a tent of seat {seat}, an opponent: it scores for seat {seat} only" in words
    assert "a tent of another seat (an opponent) scores for that seat only" in " ".join(envelope.text.split())
    bands = _outline_bands(envelope.solution_svg)
    assert len(bands) == 4
    crossed = [
        (t.text, band)
        for t in _texts(envelope.solution_svg)
        for band in bands
        if Box(*map(float, t.get("data-box", "0 0 0 0").split())).overlaps(band, slack=0.0)
    ]
    assert crossed == []


def test_the_outline_check_sees_a_label_on_the_card_edge() -> None:
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg"><rect class="laid" x="10" y="10" width="72" height="36" '
        'stroke-width="4"/><text data-box="12 11 20 14">DF</text></svg>'
    )
    bands = _outline_bands(svg)
    assert any(Box(12, 11, 20, 14).overlaps(band, slack=0.0) for band in bands)


@pytest.mark.parametrize("seed", [0, 7])
def test_campsite_tent_outlines_clear_their_labels(seed: int) -> None:
    """Every tent's triangle (the new one drawn thick) ends above its label: no outline runs through a label."""
    envelope: Any = call("campsite", "puzzle", {"seed": seed}, Budget(60)).puzzle
    for svg in (envelope.svg, envelope.solution_svg):
        root = ET.fromstring(svg)
        tents = [p for p in root.iter(f"{SVG}polygon") if p.get("class") == "tent"]
        labels = [t for t in root.iter(f"{SVG}text") if t.get("class") == "tent"]
        assert tents and len(tents) == len(labels)
        for polygon, label in zip(tents, labels, strict=True):
            points = [tuple(map(float, p.split(","))) for p in (polygon.get("points") or "").split()]
            bottom = max(py for _, py in points) + float(polygon.get("stroke-width", "1")) / 2
            box = Box(*map(float, (label.get("data-box") or "").split()))
            assert box.y >= bottom, (label.text, box, bottom)
            assert min(px for px, _ in points) <= box.x + box.width / 2 <= max(px for px, _ in points)


@pytest.mark.parametrize(("seed", "opponents"), [(7, False), (0, True)])
def test_camper_tour_page_names_its_rules_variants_and_the_solution_its_expected_value(
    seed: int, opponents: bool
) -> None:
    from campsolver.service.games.camper_tour import state_from_proto
    from campsolver.solver.camper_tour.render import rules_words

    request = {"seed": seed, "withOpponents": True} if opponents else {"seed": seed}
    response: Any = call("camper-tour", "puzzle", request, Budget(60))
    envelope = response.puzzle
    state = state_from_proto(response.state)
    words = rules_words(state)
    said = " ".join(words)
    assert "No Parking moves a camper back toward the starting plate" in said
    assert "from the box's 100 tokens" in said
    if len(state.campers) == 1:
        assert "the last-camper rule does not apply" in said
    else:
        assert opponents and f"{len(state.campers)} campers: the last-camper rule applies" in said
    for line in words:
        assert line in envelope.text
    for svg in (envelope.svg, envelope.solution_svg):
        assert " ".join(said.split()) in _words(svg)
    best = response.alternatives[0].ranking.value
    assert f"expected final score {best:.3f}" in _words(envelope.solution_svg)
    assert f"expected final score {best:.3f}" in envelope.solution_text
    assert f"{best:.3f}" not in _words(envelope.svg)


def test_happy_campers_maps_carry_the_coordinates_the_answer_names_and_the_page_says_doubles_are_off(
    example_puzzles: dict[str, Any],
) -> None:
    import re

    from campsolver.solver.happy_campers.render import COORDINATE_RULE, DOUBLE_RULE

    envelope = example_puzzles["happy-campers"].puzzle
    named = {(int(r), int(c)) for r, c in re.findall(r"\br(\d+)c(\d+)\b", envelope.solution_text)}
    assert named, "the solution text names the cells it draws"
    for svg in (envelope.svg, envelope.solution_svg):
        labels = {t.text for t in _texts(svg) if t.get("class") == "coordinate"}
        height, width = map(int, re.search(r"Map (\d+)x(\d+)", envelope.text).groups())  # type: ignore[union-attr]
        rows = {f"r{r}" for r in range(height)}
        cols = {f"c{c}" for c in range(width)}
        assert labels == rows | cols
        assert {f"r{r}" for r, _ in named} <= labels and {f"c{c}" for _, c in named} <= labels
    words = _words(envelope.svg)  # the puzzle picture; the solution's states the answer
    assert " ".join(DOUBLE_RULE.split()) in words and " ".join(COORDINATE_RULE.split()) in words
    assert DOUBLE_RULE in envelope.text and COORDINATE_RULE in envelope.text
