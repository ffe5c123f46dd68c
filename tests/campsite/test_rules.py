"""Every clause of the Campsite rules model, the rulebook's scoring examples, and the default deck."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest
from campsolver.solver.campsite import rules as R
from campsolver.solver.campsite.deck_data import DEFAULT_DECK
from campsolver.solver.campsite.rules import (
    Card,
    IllegalMove,
    Placement,
    Table,
    Tent,
    Terrain,
    Token,
    parse_card,
    score_tent,
)
from campsolver.solver.core.game import CHANCE, TERMINAL

from tests.campsite import oracle

FULL_WATER = parse_card("WT ###/##.")  # 5 coloured squares featuring Water (and Trail)
BLANKISH = parse_card("DF #../...")  # 1 coloured square (Desert/Forest), 5 empty


def tent_table(cards_and_places: list[tuple[str, int, int, int]], tents: list[Tent]) -> Table:
    return R.table_from_placements([Placement(parse_card(c), r, col, t) for c, r, col, t in cards_and_places], tents)


# --- the rulebook's scoring examples -----------------------------------------------------------------------


def test_rulebook_example_six_water_squares_score_6() -> None:
    # Water cards above and below the tent's row: 3 + 3 Water squares among the 8, none Fair Weather.
    # Row 0: a Water/Trail card coloured x3; rows 1-2: a Water/Meadow card over the empty row, coloured below.
    table = tent_table([("WT ###/...", 0, 0, 0), ("WM .../###", 1, 0, 0)], [])
    table = table.pitch(Tent(0, Token.WATER, 1, 1))
    assert score_tent(table, table.tents[0]).points == 6
    assert oracle.player_total(_laid(table), _tents(table), 0) == 6


def test_rulebook_example_four_meadow_with_fair_weather_score_8() -> None:
    # A Fair Weather Meadow/Forest card (top row coloured), a Meadow/Desert card over its empty bottom row.
    table = tent_table([("MF ###/... x2", 0, 0, 0), ("MD .../#..", 1, 0, 0)], [])
    table = table.pitch(Tent(0, Token.MEADOW, 1, 1))
    found = score_tent(table, table.tents[0])
    assert found.base == 4 and found.doubled and found.points == 8
    assert oracle.player_total(_laid(table), _tents(table), 0) == 8


def test_rulebook_example_wilderness_among_four_terrains_scores_4() -> None:
    # Desert/Trail and Meadow/Water squares around the tent: 4 distinct terrains.
    table = tent_table([("DT ###/...", 0, 0, 0), ("MW .../###", 1, 0, 0)], [])
    table = table.pitch(Tent(0, Token.WILDERNESS, 1, 1))
    assert score_tent(table, table.tents[0]).points == 4
    # One more terrain pair adds up to 6 at most.
    assert score_tent(table, Tent(0, Token.DESERT, 1, 1)).points == 3


def test_wilderness_is_capped_at_6_and_doubles_with_fair_weather() -> None:
    table = tent_table([("DF ###/...", 0, 0, 0), ("MP .../#.# x2", 1, 0, 0), ("WT #../...", 1, 3, 0)], [])
    table = table.pitch(Tent(0, Token.WILDERNESS, 1, 2))
    found = score_tent(table, table.tents[0])
    assert found.base == 6 and found.doubled and found.points == 12


def _laid(table: Table) -> list[tuple[str, int, int, int]]:
    return [(p.card.text(), p.row, p.col, p.rotation) for p in table.placements]


def _tents(table: Table) -> list[tuple[int, str, int, int]]:
    return [(t.player, t.token.letter, t.row, t.col) for t in table.tents]


# --- cards --------------------------------------------------------------------------------------------------


def test_cards_are_2_by_3_with_1_to_5_coloured_squares_of_two_terrains() -> None:
    with pytest.raises(IllegalMove):
        Card((Terrain.DESERT, Terrain.DESERT), frozenset({(0, 0)}))
    with pytest.raises(IllegalMove):
        Card((Terrain.DESERT, Terrain.WATER), frozenset())
    with pytest.raises(IllegalMove):
        Card((Terrain.DESERT, Terrain.WATER), frozenset((r, c) for r in range(2) for c in range(3)))
    with pytest.raises(IllegalMove):
        Card((Terrain.DESERT, Terrain.WATER), frozenset({(2, 0)}))
    with pytest.raises(IllegalMove):
        parse_card("DW ####/...")
    card = parse_card("WD #.#/.#. x2")
    assert card.terrains == (Terrain.DESERT, Terrain.WATER) and card.fair_weather
    assert parse_card(card.text()) == card


def test_four_rotations_clockwise_and_never_face_down() -> None:
    card = parse_card("DF #../...")  # coloured at the top-left
    assert card.squares(0)[(0, 0)]
    assert card.squares(1)[(0, 1)]  # a quarter turn clockwise: top-left -> top-right of a 3 x 2 card
    assert card.squares(2)[(1, 2)]
    assert card.squares(3)[(2, 0)]
    assert {max(r for r, _ in card.squares(t)) + 1 for t in (1, 3)} == {3}
    # A mirror image (face down) is never one of the four orientations.
    mirrored = {(0, 2)}
    assert all({cell for cell, coloured in card.squares(t).items() if coloured} != mirrored for t in (0, 2))
    with pytest.raises(IllegalMove):
        card.squares(4)


def test_every_rotation_agrees_with_the_oracle() -> None:
    card = parse_card("MP ##./..#")
    for turns in range(4):
        assert Placement(card, 2, -1, turns).squares() == oracle.card_cells(card.text(), 2, -1, turns)


# --- placing a card -------------------------------------------------------------------------------------------


def start() -> Table:
    return R.starting_table(parse_card("DF #../..."), parse_card("MW ..#/..."))


def test_starting_cards_lie_side_by_side() -> None:
    table = start()
    assert set(table.grid) == {(r, c) for r in range(2) for c in range(6)}
    state = R.deal_in_order(R.new_game(2), [parse_card(t) for t in DEFAULT_DECK[:8]])
    assert [(p.row, p.col, p.rotation) for p in state.table.placements] == [(0, 0, 0), (0, 3, 0)]


def test_adjacent_means_sharing_a_square_side() -> None:
    table = start()
    card = parse_card("PT ##./###")
    table.check_placement(Placement(card, 2, 0, 0))  # below, sharing three sides
    table.check_placement(Placement(card, 2, 5, 0))  # below, sharing one square side
    with pytest.raises(IllegalMove, match="share a square side"):
        table.check_placement(Placement(card, 2, 6, 0))  # touches only at a corner
    with pytest.raises(IllegalMove, match="share a square side"):
        table.check_placement(Placement(card, 5, 0, 0))  # far away


def test_overlap_only_on_empty_squares_and_never_under() -> None:
    table = start()
    card = parse_card("PT #../...")
    # (0,1) is empty on the first card: covering it with the new card's coloured square is allowed.
    after = table.place(Placement(card, 0, 1, 0))
    assert after.grid[(0, 1)].coloured and after.grid[(0, 1)].mask == card.mask
    # The new card lies on top: its empty squares hide the empty squares below too.
    assert not after.grid[(1, 2)].coloured and after.grid[(1, 2)].layer == 2
    with pytest.raises(IllegalMove, match="coloured terrain"):
        table.check_placement(Placement(card, 0, 0, 0))  # would cover the Desert/Forest square at (0,0)
    with pytest.raises(IllegalMove, match="coloured terrain"):
        table.check_placement(Placement(card, -1, 4, 1))  # a portrait card over (0,5), coloured


def test_a_card_never_covers_a_tent() -> None:
    table = start().pitch(Tent(0, Token.WATER, 1, 1))
    with pytest.raises(IllegalMove, match="holds a tent"):
        table.check_placement(Placement(parse_card("PT #../..."), 1, 1, 0))


def test_gaps_are_allowed() -> None:
    table = start()
    table = table.place(Placement(parse_card("PT #../..."), 2, 0, 0))
    table = table.place(Placement(parse_card("PT #../..."), 2, 4, 0))  # leaves a hole at (2,3)..(3,3)
    assert (2, 3) not in table.grid and (2, 4) in table.grid


def test_every_legal_placement_agrees_with_the_oracle() -> None:
    table = start().pitch(Tent(0, Token.MEADOW, 1, 4))
    table = table.place(Placement(parse_card("WT ##./#.#"), 2, 2, 1))
    hand = [parse_card("DP .#./#.#"), parse_card("MF ###/..#")]
    ours = {(p.card.text(), p.row, p.col, p.rotation) for p in table.legal_placements(hand)}
    laid, tents = _laid(table), _tents(table)
    theirs = set()
    for card in hand:
        for t in range(4):
            for r in range(-5, 8):
                for c in range(-5, 10):
                    if oracle.may_lay(laid, tents, card.text(), r, c, t):
                        theirs.add((card.text(), r, c, t))
    # Ours keeps one placement per distinct picture; every one is legal and every legal one is covered.
    assert ours <= theirs
    pictures = {(*tuple(sorted(oracle.card_cells(card, r, c, t).items())), card) for card, r, c, t in theirs}
    assert len(ours) == len(pictures)


# --- placing a tent -------------------------------------------------------------------------------------------


def test_tents_go_on_visible_empty_squares_of_cards_only() -> None:
    table = start()
    with pytest.raises(IllegalMove, match="table surface"):
        table.pitch(Tent(0, Token.WATER, 2, 0))
    with pytest.raises(IllegalMove, match="coloured"):
        table.pitch(Tent(0, Token.WATER, 0, 0))
    table = table.pitch(Tent(0, Token.WATER, 1, 1))
    with pytest.raises(IllegalMove, match="already holds a tent"):
        table.pitch(Tent(1, Token.DESERT, 1, 1))
    assert (1, 1) not in table.free_squares()


def test_the_tent_square_itself_does_not_score() -> None:
    table = start().pitch(Tent(0, Token.DESERT, 1, 0))
    # Around (1,0): only (0,0) is coloured Desert/Forest.
    assert score_tent(table, table.tents[0]).points == 1


def test_fair_weather_doubles_once_and_counts_its_empty_squares() -> None:
    table = tent_table([("DW #../... x2", 0, 0, 0), ("DW ..#/... x2", 0, 3, 0)], [])
    table = table.pitch(Tent(0, Token.WATER, 1, 2))
    # (0,1) and (0,3) are Fair Weather squares (one empty), the only Water among the 8 is none... (0,0) is not
    # adjacent; (0,3)? empty. So the base is 0 and doubling gives 0.
    assert score_tent(table, table.tents[0]).points == 0
    table = table.place(Placement(parse_card("WT #../..."), 2, 1, 0))  # Water at (2,1): base 1, x2 once
    found = score_tent(table, table.tents[0])
    assert found.base == 1 and found.doubled and found.points == 2


def test_a_covered_fair_weather_square_no_longer_doubles() -> None:
    table = tent_table([("DF #../...", 0, 0, 0), ("MW ..#/... x2", 0, 3, 0)], [])
    table = table.pitch(Tent(0, Token.DESERT, 1, 1))
    # Around (1,1): (0,0) Desert; (0,2)? first card empty; no Fair Weather square is adjacent: x1.
    assert score_tent(table, table.tents[0]).points == 1
    table = table.pitch(Tent(0, Token.DESERT, 1, 2))
    assert score_tent(table, table.tents[1]).doubled  # (0,3), (1,3) belong to the Fair Weather card
    # Cover both adjacent Fair Weather squares with a plain portrait card: the doubling is gone.
    covered = table.place(Placement(parse_card("PT .../#.."), 0, 3, 1))
    assert not score_tent(covered, covered.tents[1]).doubled


def test_scores_grow_after_the_tent_is_pitched() -> None:
    table = start().pitch(Tent(0, Token.DESERT, 1, 1))
    before = score_tent(table, table.tents[0]).points
    table = table.place(Placement(parse_card("DP ###/..."), 2, 0, 0))
    assert score_tent(table, table.tents[0]).points == before + 3


# --- the game -----------------------------------------------------------------------------------------------


def test_deck_data_is_the_documented_recipe() -> None:
    deck = R.default_deck()
    assert deck == R.deck_recipe()
    assert len(deck) == 60
    assert {c.terrains for c in deck} == set(combinations(Terrain, 2))
    assert Counter(len(c.pattern) for c in deck) == {k: 12 for k in range(1, 6)}
    assert sum(c.fair_weather for c in deck) == 10
    assert len({c.pattern for c in deck}) > 30  # varied patterns


def test_deal_draw_and_chance_probabilities_are_exact() -> None:
    state = R.new_game(2)
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == 1
    assert all(p == Fraction(1, 60) for _, p in outcomes)  # 60 distinct cards
    state = R.deal_in_order(state, R.default_deck()[:8])
    assert state.stage is R.Stage.CARD and [len(h) for h in state.hands] == [3, 3]
    assert state.current_player() == 0 and len(state.pile) == 52


def test_a_turn_is_card_then_tent_then_draw_and_tokens_are_used_once() -> None:
    state = R.deal_in_order(R.new_game(2), R.default_deck()[:8])
    action = state.legal_actions()[0]
    state = state.child(action)
    assert state.stage is R.Stage.TENT
    with pytest.raises(IllegalMove):
        state.child(action)
    tent = next(a for a in state.legal_actions() if a.token is Token.WATER)
    state = state.child(tent).child(state.pile[0])
    assert len(state.hands[0]) == 3 and state.to_move == 1
    state = state.child(state.legal_actions()[0])
    state = state.child(state.legal_actions()[0]).child(state.pile[0])
    state = state.child(state.legal_actions()[0])
    assert all(a.token is not Token.WATER for a in state.legal_actions())  # player 0 used Water
    with pytest.raises(IllegalMove, match="already used"):
        state.child(R.PitchTent(Token.WATER, *state.table.free_squares()[0]))


def play_randomly(state: R.CampsiteState, seed: int) -> R.CampsiteState:
    import random

    rng = random.Random(seed)
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            state = state.child(rng.choices([c for c, _ in outcomes], [float(p) for _, p in outcomes])[0])
        else:
            state = state.child(rng.choice(state.legal_actions()))
    return state


def test_empty_draw_pile_means_no_draw() -> None:
    deck = R.default_deck()[: R.minimum_deck_size(2)]  # 16 cards: the pile runs dry in round 1
    state = R.new_game(2, deck)
    with pytest.raises(IllegalMove):
        R.new_game(2, deck[:-1])
    final = play_randomly(state, seed=3)
    assert len(final.round_scores) == R.ROUNDS


def test_three_rounds_of_seven_turns_with_fresh_shuffles() -> None:
    state = R.new_game(2)
    seen_rounds = set()
    import random

    rng = random.Random(0)
    while state.current_player() != TERMINAL:
        seen_rounds.add(state.round)
        if state.stage is R.Stage.DEAL and not state.table.placements:
            assert len(state.pile) == 60 and all(len(t) == 7 for t in state.tokens)
            assert state.starter == state.round % 2  # the first seat rotates each round
        if state.current_player() == CHANCE:
            state = state.child(rng.choice([c for c, _ in state.chance_outcomes()]))
        else:
            previous_round = state.round
            state = state.child(rng.choice(state.legal_actions()))
            assert state.round == previous_round or not state.table.placements
    assert seen_rounds == {0, 1, 2}
    assert len(state.round_scores) == 3
    assert list(state.totals) == [sum(r[i] for r in state.round_scores) for i in range(2)]


def _resulting_pictures_by_brute_force(table: Table, hand: list[str]) -> set[tuple]:
    """Every distinct table that laying one card of `hand` can leave, by the oracle: each card, each quarter
    turn, each corner near the table; the picture is every visible square (terrain pair, coloured, Fair Weather)."""
    laid, tents = _laid(table), _tents(table)
    rows = [r for _, r, _, _ in laid]
    cols = [c for _, _, c, _ in laid]
    pictures = set()
    for card in hand:
        for t in range(4):
            for r in range(min(rows) - 4, max(rows) + 5):
                for c in range(min(cols) - 4, max(cols) + 6):
                    if oracle.may_lay(laid, tents, card, r, c, t):
                        top = oracle.view([*laid, (card, r, c, t)])
                        pictures.add(
                            tuple(
                                sorted(
                                    (cell, "".join(sorted(letters)), coloured, fair)
                                    for cell, (letters, coloured, fair) in top.items()
                                )
                            )
                        )
    return pictures


@pytest.mark.parametrize(
    "hand",
    [
        ["WF #.#/.##"],
        ["WF #.#/.##", "FW ##./#.#"],  # two different cards, each the other turned 180 degrees
        ["WF #.#/.##", "FW ##./#.#", "DM .#./###"],
        ["DM #.#/#.#", "DM .#./.#."],  # symmetric patterns: two rotations each
        ["PT ##./... x2", "PT .../.## x2", "PT .../.##"],  # half turns; the third differs by Fair Weather
    ],
)
def test_one_placement_per_resulting_picture_across_the_hand(hand: list[str]) -> None:
    table = start().pitch(Tent(0, Token.MEADOW, 1, 4))
    table = table.place(Placement(parse_card("WT ##./#.#"), 2, 2, 1))
    ours = table.legal_placements([parse_card(text) for text in hand])
    pictures = [
        tuple(
            sorted(
                (cell, "".join(sorted(t.letter for t in Terrain if sq.mask & t.bit)), sq.coloured, sq.fair_weather)
                for cell, sq in table.place(p).grid.items()
            )
        )
        for p in ours
    ]
    assert len(set(pictures)) == len(pictures)  # no picture twice
    assert set(pictures) == _resulting_pictures_by_brute_force(table, hand)  # and every one there
