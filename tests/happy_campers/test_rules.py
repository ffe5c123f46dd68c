"""Happy Campers rules model: each rulebook clause pinned by a hand-checked case.

Maps are written with `parse_grid`: . empty, T trees, W toilets, ~ water, A tents, E entertainment.
Expected scores in comments were counted by hand from the rulebook, not by calling the code under test.
"""

from __future__ import annotations

import pytest
from campsolver.solver.happy_campers.rules import (
    ANY_FACE,
    DEFAULT_COMPONENTS,
    DOMINO,
    ELEMENTS,
    L_TROMINO,
    SQUARE_TETROMINO,
    STRAIGHT_TROMINO,
    T_TETROMINO,
    Challenge,
    Components,
    Element,
    IllegalMove,
    Option,
    Placement,
    RulesError,
    can_draw,
    divide_sides,
    draw,
    empty_grid,
    festival_winners,
    legal_placements,
    legal_placements_for,
    max_disjoint_rivers,
    max_disjoint_tent_squares,
    parse_grid,
    roll_options,
    score,
    validate_grid,
    validate_roll,
)

SMALL = Components(rows=4, cols=5)

# 4x5 map used by several scoring tests, counted by hand:
#   trees (0,0),(0,1),(1,0) = 3, plus a lone tree (3,4); toilets (0,3),(1,3) = 2; water (1,1),(1,2),(2,2) = 3;
#   tents (1,4),(2,4),(2,3) = 3; entertainment (2,0),(2,1) = 2;
#   empty: (0,2), (0,4) isolated, (3,0..3) a region of 4.
SAMPLE = """
TT.W.
T~~WA
EE~AA
....T
"""


def sample() -> tuple:
    return parse_grid(SAMPLE, SMALL)


def mask(text: str, symbol: str) -> tuple[int, int, int]:
    """(bitmask of `symbol` squares, rows, cols) of a hand-drawn map."""
    lines = [line.strip() for line in text.strip().splitlines()]
    bits = 0
    for r, line in enumerate(lines):
        for c, ch in enumerate(line):
            if ch == symbol:
                bits |= 1 << (r * len(line) + c)
    return bits, len(lines), len(lines[0])


# ----------------------------------------------------------------------------------------------- components


def test_default_components_are_the_documented_ones():
    assert (DEFAULT_COMPONENTS.rows, DEFAULT_COMPONENTS.cols) == (5, 9)
    assert DEFAULT_COMPONENTS.shapes == (DOMINO, STRAIGHT_TROMINO, L_TROMINO, SQUARE_TETROMINO, T_TETROMINO)
    assert DEFAULT_COMPONENTS.elements == ELEMENTS
    assert [len(s) for s in DEFAULT_COMPONENTS.shapes] == [2, 3, 3, 4, 4]


def test_components_normalise_custom_shapes_and_compare_equal():
    shifted = Components(shapes=({(5, 5), (5, 6)}, *DEFAULT_COMPONENTS.shapes[1:]))
    assert shifted == DEFAULT_COMPONENTS
    assert hash(shifted) == hash(DEFAULT_COMPONENTS)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"rows": 13}, "rows"),
        ({"cols": 0}, "cols"),
        ({"rows": True}, "rows"),
        ({"shapes": (frozenset(), *DEFAULT_COMPONENTS.shapes[1:])}, "shapes[0]"),
        ({"shapes": ({(0, 0), (1, 1)}, *DEFAULT_COMPONENTS.shapes[1:])}, "shapes[0]"),  # diagonal only
        ({"shapes": ({(0, c) for c in range(10)}, *DEFAULT_COMPONENTS.shapes[1:])}, "shapes[0]"),  # too big
        ({"shapes": DEFAULT_COMPONENTS.shapes[:4]}, "shapes"),
        ({"rows": 1, "cols": 3}, "shapes[2]"),  # the L-tromino does not fit on a 1x3 map
        ({"elements": (1, 1, 2, 3, 4)}, "elements"),
        ({"elements": (0, 1, 2, 3, 4)}, "elements"),
    ],
)
def test_bad_components_raise_rules_error_naming_the_field(kwargs, field):
    with pytest.raises(RulesError) as info:
        Components(**kwargs)
    assert info.value.field == field


@pytest.mark.parametrize("roll", [(0, 3), (7, 1), (1,), (1, 2, 3), (1.5, 2), (True, 2), "12"])
def test_bad_rolls_are_rejected(roll):
    with pytest.raises(RulesError) as info:
        validate_roll(roll)
    assert info.value.field == "roll"


def test_validate_grid_rejects_bad_pre_drawn_maps():
    with pytest.raises(RulesError, match="element value"):
        validate_grid(((7, 0, 0, 0, 0),) + ((0,) * 5,) * 3, SMALL)
    with pytest.raises(RulesError, match="must be 4x5"):
        validate_grid(((0,) * 5,) * 3, SMALL)
    detached = parse_grid("T....\n.....\n..W..\n.....")
    with pytest.raises(RulesError, match="connected"):
        validate_grid(detached, SMALL)
    # Diagonal contact is not a connection either.
    diagonal = parse_grid("T....\n.W...\n.....\n.....")
    with pytest.raises(RulesError, match="connected"):
        validate_grid(diagonal, SMALL)
    assert validate_grid(detached, SMALL, require_connected=False) == detached
    assert validate_grid([[1, 1, 0, 0, 0]] + [[0] * 5] * 3, SMALL) == parse_grid("TT...\n.....\n.....\n.....")


# -------------------------------------------------------------------------------------------- rolls / options


def test_roll_gives_shape_a_with_element_b_and_shape_b_with_element_a():
    assert roll_options((4, 2)) == (Option(4, 2), Option(2, 4))


def test_double_gives_one_option():
    assert roll_options((3, 3)) == (Option(3, 3),)


def test_option_rejects_bad_faces():
    with pytest.raises(RulesError):
        Option(0, 1)
    with pytest.raises(RulesError):
        Option(1, 7)


def test_face_six_means_any_shape_or_any_element():
    grid = empty_grid(SMALL)
    found = legal_placements(grid, (ANY_FACE, 1), SMALL)
    any_shape = [p for p in found if p.option == Option(ANY_FACE, 1)]
    any_element = [p for p in found if p.option == Option(1, ANY_FACE)]
    assert {len(p.cells) for p in any_shape} == {2, 3, 4}
    assert {p.element for p in any_shape} == {Element.TREES}
    assert {p.element for p in any_element} == set(ELEMENTS)
    assert {len(p.cells) for p in any_element} == {2}
    # Double six: every shape with every element: 5 elements x (positions of all five shapes).
    positions = sum(len(legal_placements_for(grid, s, Element.TREES, Option(6, 6), SMALL)) for s in SMALL.shapes)
    assert len(legal_placements(grid, (6, 6), SMALL)) == 5 * positions


# --------------------------------------------------------------------------------------------- legality


def test_first_shape_can_go_anywhere_on_an_empty_map():
    # Domino on 4x5: 4 horizontal per row x 4 rows + 3 vertical per column x 5 columns = 31.
    found = legal_placements(empty_grid(SMALL), (1, 1), SMALL)
    assert len(found) == 31
    assert all(p.element == Element.TREES for p in found)


@pytest.mark.parametrize(
    ("shape", "orientation_count"),
    [(DOMINO, 2), (STRAIGHT_TROMINO, 2), (L_TROMINO, 4), (SQUARE_TETROMINO, 1), (T_TETROMINO, 4)],
)
def test_rotations_are_allowed(shape, orientation_count):
    grid = empty_grid(SMALL)
    found = legal_placements_for(grid, shape, Element.WATER, Option(1, 3), SMALL)
    shapes = {
        frozenset((r - min(x for x, _ in p.cells), c - min(y for _, y in p.cells)) for r, c in p.cells) for p in found
    }
    assert len(shapes) == orientation_count


def test_reflections_are_allowed():
    s_tetromino = frozenset({(0, 1), (0, 2), (1, 0), (1, 1)})
    components = Components(rows=4, cols=5, shapes=(s_tetromino, *DEFAULT_COMPONENTS.shapes[1:]))
    z_tetromino = frozenset({(0, 0), (0, 1), (1, 1), (1, 2)})  # the mirror image of S
    grid = empty_grid(components)
    drawn = draw(grid, Placement(z_tetromino, Element.TENTS, Option(1, 4)), components)
    assert sum(v == Element.TENTS for row in drawn for v in row) == 4


def test_later_shapes_must_touch_a_drawn_square_orthogonally():
    grid = parse_grid("..T..\n.....\n.....\n.....")
    found = legal_placements(grid, (1, 2), SMALL)
    assert found
    for p in found:
        assert any(abs(r - 0) + abs(c - 2) == 1 for r, c in p.cells)
    # Orthogonally next to the tree: legal.
    assert draw(grid, Placement(frozenset({(1, 2), (2, 2)}), Element.TOILETS, Option(1, 2)), SMALL)[1][2] == 2


def test_diagonal_contact_does_not_count_as_adjacent():
    grid = parse_grid("..T..\n.....\n.....\n.....")
    diagonal = Placement(frozenset({(1, 3), (1, 4)}), Element.TOILETS, Option(1, 2))
    with pytest.raises(IllegalMove, match="adjacent"):
        draw(grid, diagonal, SMALL)
    assert diagonal not in legal_placements(grid, (1, 2), SMALL)


def test_shapes_cannot_overlap_drawn_squares():
    grid = parse_grid("..T..\n.....\n.....\n.....")
    overlapping = Placement(frozenset({(0, 2), (0, 3)}), Element.TOILETS, Option(1, 2))
    with pytest.raises(IllegalMove, match="already drawn"):
        draw(grid, overlapping, SMALL)


def test_shapes_must_lie_inside_the_map():
    grid = parse_grid("....T\n.....\n.....\n.....")
    outside = Placement(frozenset({(0, 5), (0, 6)}), Element.TOILETS, Option(1, 2))
    with pytest.raises(IllegalMove, match="outside"):
        draw(grid, outside, SMALL)


def test_drawing_must_match_its_option():
    grid = empty_grid(SMALL)
    wrong_shape = Placement(frozenset({(0, 0), (0, 1), (0, 2)}), Element.TOILETS, Option(1, 2))
    with pytest.raises(IllegalMove, match="shape"):
        draw(grid, wrong_shape, SMALL)
    wrong_element = Placement(frozenset({(0, 0), (0, 1)}), Element.WATER, Option(1, 2))
    with pytest.raises(IllegalMove, match="element"):
        draw(grid, wrong_element, SMALL)


def test_draw_does_not_change_the_original_map():
    grid = empty_grid(SMALL)
    after = draw(grid, Placement(frozenset({(0, 0), (0, 1)}), Element.TOILETS, Option(1, 2)), SMALL)
    assert grid == empty_grid(SMALL)
    assert after[0][:2] == (2, 2)


def test_can_draw_false_when_no_option_fits():
    # Only single isolated empty squares remain: no domino, no square fits.
    grid = parse_grid("T.TTT\nTTTTT\nTTT.T\nTTTTT")
    assert not can_draw(grid, (1, 4), SMALL)
    assert legal_placements(grid, (1, 4), SMALL) == []
    # A domino hole makes the domino option drawable, the 2x2 option still not.
    grid2 = parse_grid("T..TT\nTTTTT\nTTTTT\nTTTTT")
    assert can_draw(grid2, (1, 4), SMALL)
    assert {p.option for p in legal_placements(grid2, (1, 4), SMALL)} == {Option(1, 4)}


# ---------------------------------------------------------------------------------------------- scoring


def test_missing_an_element_scores_zero_even_with_challenge_points():
    grid = parse_grid("TTTT.\nWW~~.\n.....\n.....")  # no tents, no entertainment
    result = score(grid, (Challenge.PRIVACY, Challenge.FESTIVAL), SMALL)
    assert not result.complete
    assert result.total == 0
    assert result.challenge_points[Challenge.FESTIVAL] == 5  # computed, but not paid out


def test_largest_cluster_of_each_element_minus_empty_squares():
    result = score(sample(), (), SMALL)
    assert result.complete
    assert result.clusters == {
        Element.TREES: 3,
        Element.TOILETS: 2,
        Element.WATER: 3,
        Element.TENTS: 3,
        Element.ENTERTAINMENT: 2,
    }
    assert result.empty_points == -6
    assert result.total == 13 - 6


def test_only_the_largest_cluster_counts_and_diagonals_do_not_join():
    # Trees: (0,0) and (1,1) touch only diagonally -> two clusters of 1; (3,3),(3,4) is a cluster of 2.
    grid = parse_grid("TWWWW\n~T~~~\nAAAEE\nEEETT")
    result = score(grid, (), SMALL)
    assert result.clusters[Element.TREES] == 2
    assert result.clusters[Element.ENTERTAINMENT] == 3  # (3,0..2); (2,3),(2,4) is a separate cluster of 2
    # 2 + 4 + 3 + 3 + 3 = 15, no empty squares.
    assert result.total == 15


def test_nature_reserve_single_empty_squares_score_plus_two():
    result = score(sample(), (Challenge.NATURE_RESERVE,), SMALL)
    # Two isolated empty squares: +2 each; the region of four: -1 each. 13 + 4 - 4 = 13.
    assert result.challenge_points[Challenge.NATURE_RESERVE] == 6
    assert result.empty_points == -6
    assert result.total == 13


def test_privacy_counts_tree_squares_on_the_edge():
    result = score(sample(), (Challenge.PRIVACY,), SMALL)
    assert result.challenge_points[Challenge.PRIVACY] == 4  # (0,0), (0,1), (1,0), (3,4)
    assert result.total == 7 + 4


def test_quick_pee_counts_rows_and_columns_with_a_toilet():
    result = score(sample(), (Challenge.QUICK_PEE,), SMALL)
    assert result.challenge_points[Challenge.QUICK_PEE] == 3  # rows 0 and 1, column 3
    assert result.total == 7 + 3


def test_dangerous_animals_costs_a_point_per_tent_on_the_edge():
    result = score(sample(), (Challenge.DANGEROUS_ANIMALS,), SMALL)
    assert result.challenge_points[Challenge.DANGEROUS_ANIMALS] == -2  # (1,4), (2,4); (2,3) is inside
    assert result.total == 7 - 2


def test_festival_pays_five_when_won_only():
    assert score(sample(), (Challenge.FESTIVAL,), SMALL).total == 7 + 5
    lost = score(sample(), (Challenge.FESTIVAL,), SMALL, festival_won=False)
    assert lost.challenge_points[Challenge.FESTIVAL] == 0
    assert lost.total == 7


def test_festival_winners_ties_all_win():
    a = parse_grid("EE...\n.....\n.....\n.....")
    b = parse_grid("E.E..\n.....\n.....\n.....")
    c = parse_grid("...EE\n.....\n.....\n.....")
    assert festival_winners((a, b, c), SMALL) == (True, False, True)


def test_noisy_neighbours_scores_no_points():
    result = score(sample(), (Challenge.NOISY_NEIGHBOURS,), SMALL)
    assert result.challenge_points[Challenge.NOISY_NEIGHBOURS] == 0
    assert result.total == 7


@pytest.mark.parametrize(
    ("text", "squares"),
    [
        ("AAA..\nAAA..\nAAA..\n.....", 1),  # 3x3 tents: four overlapping 2x2 squares, only one disjoint
        ("AAAA.\nAAAA.\n.....\n.....", 2),
        ("AAAA.\nAAAA.\nAAAA.\n.....", 2),
        ("AAAA.\nAAAA.\nAAAA.\nAAAA.", 4),
        ("AA...\nAAA..\n.AA..\n.....", 1),  # staircase: the two squares share (1,1)
        ("AA.AA\nAA.AA\n.....\n.....", 2),
        ("A.A..\n.A...\n.....\n.....", 0),
    ],
)
def test_tent_together_counts_disjoint_full_tent_squares(text, squares):
    assert max_disjoint_tent_squares(*mask(text, "A")) == squares


def test_tent_together_needs_the_best_packing_not_a_greedy_one():
    # Full 2x2 squares have top-left corners (0,1), (1,0), (1,1), (1,2). Taking the first one in reading
    # order, (0,1), blocks all the others; the best packing is (1,0) + (1,2) = 2.
    text = ".AA.\nAAAA\nAAAA\n...."
    assert max_disjoint_tent_squares(*mask(text, "A")) == 2


def test_tent_together_points_in_score():
    grid = parse_grid("AAAAT\nAAAAW\n~E...\n.....")
    result = score(grid, (Challenge.TENT_TOGETHER,), SMALL)
    assert result.challenge_points[Challenge.TENT_TOGETHER] == 6
    # Clusters 1 + 1 + 1 + 8 + 1 = 12, 8 empty squares.
    assert result.total == 12 - 8 + 6


@pytest.mark.parametrize(
    ("text", "rivers"),
    [
        ("~~~~~\n.....\n~~~~~\n~....", 2),
        ("~...~\n~~~~~\n~...~\n.....", 1),  # every path squeezes through row 1: one river
        ("~~~..\n..~~~\n.....\n.....", 1),  # bends are fine
        ("~~.~~\n.....\n.....\n.....", 0),
        ("~~~~~\n~~~~~\n~~~~~\n~~~~~", 4),
        ("~.~.~\n~~~~~\n~.~.~\n~~~~~", 2),
    ],
)
def test_river_town_counts_square_disjoint_left_to_right_rivers(text, rivers):
    assert max_disjoint_rivers(*mask(text, "~")) == rivers


def test_river_town_on_a_single_column_map_each_water_square_is_a_river():
    # Left and right border are the same column: a water square touches both.
    assert max_disjoint_rivers(0b1011, 4, 1) == 3


def test_river_town_points_in_score():
    grid = parse_grid("~~~~~\nTWAE.\n~~~~~\n.....")
    result = score(grid, (Challenge.RIVER_TOWN,), SMALL)
    assert result.challenge_points[Challenge.RIVER_TOWN] == 10
    # Clusters 1 + 1 + 5 + 1 + 1 = 9, 6 empty squares.
    assert result.total == 9 - 6 + 10


def test_great_divide_sides_with_odd_columns_share_the_middle_column():
    assert divide_sides(5) == (range(0, 3), range(2, 5))
    assert divide_sides(9) == (range(0, 5), range(4, 9))
    assert divide_sides(4) == (range(0, 2), range(2, 4))


def test_great_divide_requires_all_elements_on_both_sides():
    components = Components(rows=5, cols=5)
    # Every element only in the middle column (col 2 of 5): it belongs to both sides -> complete.
    middle = parse_grid("..T..\n..W..\n..~..\n..A..\n..E..")
    assert score(middle, (Challenge.GREAT_DIVIDE,), components).complete
    # Move the tent one column right: the left side (cols 0-2) lacks tents -> incomplete, 0 points.
    left_missing = parse_grid("..T..\n..W..\n..~..\n..#A.\n..E..".replace("#", "E"))
    result = score(left_missing, (Challenge.GREAT_DIVIDE,), components)
    assert not result.complete
    assert result.total == 0
    assert score(left_missing, (), components).complete


def test_great_divide_even_columns_split_in_half():
    components = Components(rows=4, cols=4)
    # Left (cols 0-1) has all five, right (cols 2-3) lacks entertainment.
    grid = parse_grid("TW~A\nAE~T\n..W.\n....")
    assert score(grid, (), components).complete
    assert not score(grid, (Challenge.GREAT_DIVIDE,), components).complete
    # A shape crossing the line counts on both sides.
    crossing = parse_grid("TW~A\nAEET\n.~W.\n....")  # the EE domino spans cols 1-2
    assert score(crossing, (Challenge.GREAT_DIVIDE,), components).complete


def test_score_full_default_map():
    grid = (*((1,) * 9 for _ in range(4)), (2, 3, 4, 5, 1, 1, 1, 1, 1))
    # Trees: all but four squares in one cluster (45 - 4 = 41), one square each of the others.
    result = score(grid, ())
    assert result.total == 41 + 4
    assert result.empty_points == 0


# Hand-counted, one map for every card (issue 13: the oracle and CP-SAT share `rules.score`, so these
# numbers are counted by hand from the rulebook, not computed).
#   T T W ~ ~ ~     trees: cluster of 3 (top left) and 1 (bottom) -> 3; toilets: two singles -> 1
#   T A A ~ E .     water: one cluster of 10 -> 10; tents: the 2x2 block (4) and a single -> 4
#   ~ A A ~ E W     entertainment: 2; empty: one square (1,5), isolated -> -1
#   ~ ~ ~ ~ T A     base total 3 + 1 + 10 + 4 + 2 - 1 = 19
HAND_MAP = """
TTW~~~
TAA~E.
~AA~EW
~~~~TA
"""
HAND_BASE = 19
HAND_COUNTS = {
    # card: (the card's own points, the total)
    Challenge.PRIVACY: (4, 23),  # trees on the edge: (0,0) (0,1) (1,0) (3,4)
    Challenge.QUICK_PEE: (4, 23),  # toilets in rows 0 and 2, columns 2 and 5
    Challenge.TENT_TOGETHER: (3, 22),  # one 2x2 all-tent square
    Challenge.NATURE_RESERVE: (3, 22),  # the one isolated empty square scores +2 instead of -1
    Challenge.RIVER_TOWN: (5, 24),  # one left-to-right river: only (0,5) of the water touches the right border
    Challenge.DANGEROUS_ANIMALS: (-1, 18),  # the single tent at (3,5) is on the edge
    Challenge.NOISY_NEIGHBOURS: (0, 19),  # changes doubles only
    Challenge.FESTIVAL: (5, 24),  # won (the default when no other map is compared)
    Challenge.GREAT_DIVIDE: (0, 0),  # left half (columns 0-2) has no entertainment: incomplete
}


@pytest.mark.parametrize("card", list(Challenge))
def test_every_card_scores_the_hand_counted_points(card):
    components = Components(rows=4, cols=6)
    grid = parse_grid(HAND_MAP, components)
    assert score(grid, (), components).total == HAND_BASE
    points, total = HAND_COUNTS[card]
    breakdown = score(grid, (card,), components)
    assert breakdown.total == total
    assert breakdown.challenge_points.get(card, 0) == points
    if card is Challenge.FESTIVAL:
        assert score(grid, (card,), components, festival_won=False).total == HAND_BASE


def test_great_divide_counts_the_middle_column_on_both_sides_by_hand():
    # 5 columns: the left side is columns 0-2, the right side 2-4; E only in the middle column counts twice.
    components = Components(rows=2, cols=5)
    grid = parse_grid("TWE~A\n~AEWT", components)
    # left (cols 0-2): T W E ~ A E -> all five; right (cols 2-4): E ~ A E W T -> all five
    assert score(grid, (Challenge.GREAT_DIVIDE,), components).total == score(grid, (), components).total > 0
    lopsided = parse_grid("TWE~A\nTTTTT", components)  # right side (cols 2-4): E ~ A T, no toilets
    assert score(lopsided, (), components).complete
    assert score(lopsided, (Challenge.GREAT_DIVIDE,), components).total == 0
