"""Every clause of the Adventure Tours rulebook and Guide pinned by a test on a hand-built table."""

import itertools
from fractions import Fraction

import pytest
from campsolver.solver.adventure_tours.deck import Ability, Act
from campsolver.solver.adventure_tours.rules import (
    Accept,
    Config,
    GiftChoice,
    GiveTwo,
    IllegalAction,
    MoneyFloor,
    Place,
    Play,
    Protect,
    Skip,
    State,
    Target,
    money_change,
    new_game,
)
from campsolver.solver.core.game import CHANCE, TERMINAL

from tests.adventure_tours.helpers import B, R, Y, card, draw_all, filler, table


def test_equipment_raises_its_colour_then_draws_and_pays_nothing() -> None:
    cards = [card(R, 9, money=5, value=2), card(B, 1), *filler(4)]
    state = table(cards, [[0, 1], [2], [3]], pile=[4, 5])
    assert state.equipment_level(0, int(R)) == 3
    after = state.child(Play(0, False))
    assert after.current_player() == CHANCE  # "must draw a new adventurer card"
    after = draw_all(after)
    assert after.equipment_level(0, int(R)) == 5
    assert after.hands[0] == (1, 4) and after.income(0) == 0
    assert after.to_move == 1


def test_member_demand_check_no_draw_and_money() -> None:
    cards = [card(R, 3, money=4), card(R, 4, money=9), card(B, 1), *filler(4)]
    state = table(cards, [[0, 1, 2], [3], [4]], pile=[5, 6])
    legal = state.legal_actions()
    assert Play(0, True) in legal  # demand 3 == equipment 3: allowed ("may not exceed")
    assert Play(1, True) not in legal and Play(1, False) in legal
    after = state.child(Play(0, True))
    assert after.hands[0] == (1, 2) and after.deck == (5, 6)  # no draw
    assert after.income(0) == 4 and after.to_move == 1
    with pytest.raises(IllegalAction):
        state.child(Play(1, True))


def test_round_ends_when_a_hand_is_empty_at_the_end_of_a_turn_and_scores() -> None:
    # Rulebook example: income 3+4+2+5 = 14, two cards in hand -> 10.
    cards = [card(R, 1, money=m) for m in (3, 4, 2, 5)] + [card(B, 1, money=1), *filler(4)]
    state = table(cards, [[4], [5, 6], [7]], members=[[], [0, 1, 2, 3], []], pile=[8])
    end = state.child(Play(4, True))
    assert end.current_player() == TERMINAL
    assert end.last_round == (1, 14 - 4, 0)  # player 2: income 0 - 2 -> never below 0
    assert end.ender == 0


def test_pile_depletion_ends_the_round_at_once_with_a_short_final_draw() -> None:
    cards = [card(R, 1, action=Act.GIVE_TWO), *filler(5)]
    state = table(cards, [[0, 1], [2], [3]], pile=[4])
    after = state.child(Play(0, True)).child(GiveTwo(1, 1))
    assert after.current_player() == CHANCE
    end = draw_all(after)
    # Only one card was left: player 1 got it and the round ended before the second draw.
    assert end.current_player() == TERMINAL
    assert len(end.hands[1]) == 2 and not end.deck


def test_no_reshuffle_of_the_discard_pile() -> None:
    cards = [card(R, 1, action=Act.DISCARD_EQUIPMENT), card(B, 1), *filler(4)]
    state = table(cards, [[0, 1], [2], [3]], equipment=[[], [4], []], pile=[5])
    after = state.child(Play(0, True)).child(Target(1))
    assert after.discard == (4,)
    end = draw_all(after.child(Play(2, False)))
    assert end.current_player() == TERMINAL and end.discard == (4,)


def test_give_one_any_player_including_yourself() -> None:
    cards = [card(R, 1, action=Act.GIVE_ONE), *filler(6)]
    state = table(cards, [[0, 1], [2], [3]], pile=[4, 5, 6])
    at_action = state.child(Play(0, True))
    assert set(at_action.legal_actions()) == {Target(0), Target(1), Target(2), Skip()}
    own = draw_all(at_action.child(Target(0)))
    assert own.hands[0] == (1, 4)
    other = draw_all(at_action.child(Target(2)))
    assert other.hands[2] == (3, 4) and other.hands[0] == (1,)


def test_give_two_both_to_one_or_one_each_announced_together() -> None:
    cards = [card(R, 1, action=Act.GIVE_TWO), *filler(6)]
    state = table(cards, [[0, 1], [2], [3]], pile=[4, 5, 6])
    at_action = state.child(Play(0, True))
    legal = at_action.legal_actions()
    assert GiveTwo(1, 1) in legal and GiveTwo(1, 2) in legal and GiveTwo(0, 0) in legal
    assert GiveTwo(2, 1) not in legal  # one announcement per pair
    split = draw_all(at_action.child(GiveTwo(1, 2)))
    assert split.hands[1] == (2, 4) and split.hands[2] == (3, 5)
    both = draw_all(at_action.child(GiveTwo(2, 2)))
    assert both.hands[2] == (3, 4, 5)


def test_extra_equipment_with_its_draw() -> None:
    cards = [card(R, 1, action=Act.EXTRA_EQUIPMENT), card(B, 9, value=3), card(Y, 9), *filler(5)]
    state = table(cards, [[0, 1, 2], [3], [4]], pile=[5, 6, 7])
    after = draw_all(state.child(Play(0, True)).child(Place(1)))
    assert after.equipment[0] == (1,) and after.equipment_level(0, int(B)) == 6
    assert after.hands[0] == (2, 5) and after.to_move == 1


def test_discard_equipment_of_any_player_members_untouched() -> None:
    cards = [card(R, 1, action=Act.DISCARD_EQUIPMENT), card(B, 5, money=3), card(B, 9, value=2), *filler(4)]
    # Player 1 had raised blue to 5 with card 2 and laid member 1 (demand 5); losing the equipment keeps it.
    state = table(cards, [[0, 3], [4], [5]], equipment=[[], [2], []], members=[[], [1], []], pile=[6])
    at_action = state.child(Play(0, True))
    assert Target(1) in at_action.legal_actions() and Target(2) not in at_action.legal_actions()
    after = at_action.child(Target(1))
    assert after.equipment[1] == () and after.members[1] == (1,) and 2 in after.discard
    assert after.equipment_level(1, int(B)) == 3


def test_steal_equipment_joins_yours_without_a_draw() -> None:
    cards = [card(R, 1, action=Act.STEAL_EQUIPMENT), card(B, 9, value=2), card(Y, 9, value=1), *filler(4)]
    state = table(cards, [[0, 3], [4], [5]], equipment=[[2], [1], []], pile=[6])
    at_action = state.child(Play(0, True))
    assert Target(0) not in at_action.legal_actions()  # stealing from yourself would change nothing
    after = at_action.child(Target(1))
    assert after.equipment[0] == (2, 1) and after.equipment[1] == ()
    assert after.hands[0] == (3,) and after.deck == (6,)  # no replacement card drawn


def test_extra_turn_is_a_complete_turn() -> None:
    cards = [card(R, 1, action=Act.EXTRA_TURN), card(B, 1, money=2), card(B, 2), *filler(4)]
    state = table(cards, [[0, 1, 2], [3], [4]], pile=[5, 6])
    after = state.child(Play(0, True)).child(Accept())
    assert after.current_player() == 0 and after.step().kind == "play"
    after = after.child(Play(1, True))
    assert after.current_player() == 1
    declined = state.child(Play(0, True)).child(Skip())
    assert declined.current_player() == 1


def test_same_colour_member_with_its_action_if_the_demand_is_met() -> None:
    cards = [
        card(R, 1, action=Act.SAME_COLOUR_MEMBER),
        card(R, 2, money=2, action=Act.GIVE_ONE),
        card(B, 1),
        card(R, 7),
        *filler(4),
    ]
    state = table(cards, [[0, 1, 2, 3], [4], [5]], pile=[6, 7])
    at_action = state.child(Play(0, True))
    assert set(at_action.legal_actions()) == {Place(1), Skip()}  # blue: wrong colour; R7: demand too high
    after = at_action.child(Place(1))
    assert after.members[0] == (0, 1) and after.step().kind == "action" and after.step().card == 1
    after = draw_all(after.child(Target(0)))
    assert after.hands[0] == (2, 3, 6)


def test_discard_member_erratum_last_member_of_any_player() -> None:
    cards = [card(R, 1, action=Act.DISCARD_MEMBER), card(B, 1, money=3), card(B, 1, money=4), *filler(4)]
    state = table(cards, [[0, 3], [4], [5]], members=[[], [1, 2], []], pile=[6])
    after = state.child(Play(0, True)).child(Target(1))
    assert after.members[1] == (1,) and 2 in after.discard
    own = state.child(Play(0, True)).child(Target(0))  # yourself included ("any player")
    assert own.members[0] == () and 0 in own.discard


def test_steal_member_becomes_equipment_without_its_action() -> None:
    cards = [
        card(R, 1, action=Act.STEAL_MEMBER),
        card(B, 1, money=3, value=2, action=Act.GIVE_TWO),
        *filler(5),
    ]
    state = table(cards, [[0, 2], [3], [4]], members=[[], [1], []], pile=[5, 6])
    after = state.child(Play(0, True)).child(Target(1))
    assert after.members[1] == () and after.equipment[0] == (1,)
    assert after.equipment_level(0, int(B)) == 5
    assert after.current_player() == 1 and after.deck == (5, 6)  # no action, no draw


def test_pater_miller_parries_one_attack_and_is_removed() -> None:
    cards = [
        card(R, 1, action=Act.DISCARD_MEMBER),
        card(B, 1, money=2, action=Act.PATER_MILLER),
        card(B, 1, money=5),
        *filler(4),
    ]
    state = table(cards, [[0, 3], [4], [5]], members=[[], [1, 2], []], pile=[6])
    attacked = state.child(Play(0, True)).child(Target(1))
    assert attacked.current_player() == 1 and set(attacked.legal_actions()) == {Protect(True), Protect(False)}
    parried = attacked.child(Protect(True))
    assert parried.members[1] == (2,) and parried.discard == (1,)  # the Pater Miller goes, the attack fails
    taken = attacked.child(Protect(False))
    assert taken.members[1] == (1,) and taken.discard == (2,)


def test_pater_miller_has_no_action_of_its_own_and_gifts_are_not_attacks() -> None:
    cards = [card(R, 1, action=Act.PATER_MILLER), card(R, 1, action=Act.GIVE_TWO), *filler(6)]
    state = table(cards, [[0, 1], [2], [3]], members=[[], [], []], pile=[4, 5, 6, 7])
    after = state.child(Play(0, True))
    assert after.current_player() == 1  # no action step after laying Pater Miller
    protected = table(cards, [[1, 2], [3], [4]], members=[[], [0], []], pile=[5, 6, 7])
    gift = protected.child(Play(1, True)).child(GiveTwo(1, 1))
    assert gift.current_player() == CHANCE  # no Pater Miller question for a gift


def test_attacking_yourself_is_not_parried() -> None:
    cards = [card(R, 1, action=Act.DISCARD_MEMBER), card(B, 1, action=Act.PATER_MILLER), card(B, 1), *filler(4)]
    state = table(cards, [[0, 3], [4], [5]], members=[[1, 2], [], []], pile=[6])
    after = state.child(Play(0, True)).child(Target(0))
    assert after.members[0] == (1, 2)  # the attacker's own last member: card 0 just laid
    assert after.current_player() == 1


def test_ability_extra_equipment_after_the_turn() -> None:
    cards = [card(R, 1, money=2), card(B, 9, value=2), card(Y, 9), *filler(5)]
    abilities = [Ability.EXTRA_EQUIPMENT, Ability.NONE, Ability.NONE]
    state = table(cards, [[0, 1, 2], [3], [4]], pile=[5, 6, 7], abilities=abilities)
    after = state.child(Play(0, True))
    assert after.current_player() == 0 and after.step().kind == "offer_a"
    after = draw_all(after.child(Place(1)))
    assert after.equipment[0] == (1,) and after.hands[0] == (2, 5) and after.to_move == 1


def test_ability_gift_after_equipment_draw_optional() -> None:
    cards = [card(R, 9), card(B, 9), *filler(6)]
    abilities = [Ability.GIFT_AFTER_EQUIPMENT] + [Ability.NONE] * 2
    state = table(cards, [[0], [2], [3]], pile=[4, 5, 6, 7], abilities=abilities)
    offer = state.child(Play(0, False))
    assert offer.step().kind == "offer_b" and GiftChoice(False, 1) in offer.legal_actions()
    # No draw and a gift: the hand is empty at the end of the turn, so the round ends (the exception).
    end = draw_all(offer.child(GiftChoice(False, 1)))
    assert end.current_player() == TERMINAL and end.hands[1] == (2, 4)
    own = draw_all(offer.child(GiftChoice(True, 0)))
    assert own.hands[0] == (4, 5)


def test_ability_equipment_action_counts_the_new_equipment() -> None:
    cards = [card(R, 4, value=1, action=Act.GIVE_ONE), card(R, 9, action=Act.GIVE_ONE), *filler(6)]
    abilities = [Ability.EQUIPMENT_ACTION] + [Ability.NONE] * 2
    state = table(cards, [[0, 1], [2], [3]], pile=[4, 5, 6, 7], abilities=abilities)
    offer = state.child(Play(0, False))  # red 3 + 1 = 4 meets demand 4
    assert offer.step().kind == "offer_c"
    after = draw_all(offer.child(Accept()).child(Target(2)))
    assert after.hands[2] == (3, 4) and after.hands[0] == (1, 5)  # the gift, then the usual draw
    too_high = state.child(Play(1, False))
    assert too_high.current_player() == CHANCE  # demand 9 not met: no offer, just the draw


def test_ability_equipment_pater_miller_protects() -> None:
    cards = [card(R, 1, action=Act.DISCARD_EQUIPMENT), card(B, 9, action=Act.PATER_MILLER), *filler(5)]
    abilities = [Ability.NONE, Ability.EQUIPMENT_ACTION, Ability.NONE]
    state = table(cards, [[0, 2], [3], [4]], equipment=[[], [1], []], pile=[5, 6], abilities=abilities)
    attacked = state.child(Play(0, True)).child(Target(1))
    assert attacked.current_player() == 1
    assert attacked.child(Protect(True)).equipment[1] == ()


def test_ability_extra_member_of_any_colour_with_its_action() -> None:
    cards = [card(R, 1), card(B, 2, action=Act.EXTRA_TURN), *filler(5)]
    abilities = [Ability.EXTRA_MEMBER] + [Ability.NONE] * 2
    state = table(cards, [[0, 1, 2], [3], [4]], pile=[5, 6], abilities=abilities)
    offer = state.child(Play(0, True))
    assert offer.step().kind == "offer_d" and Place(1) in offer.legal_actions()
    after = offer.child(Place(1))
    assert after.step().kind == "action" and after.members[0] == (0, 1)
    assert after.child(Accept()).current_player() == 0  # the extra member's extra turn


def test_ability_double_action_two_separate_attacks_and_pater_miller_only_parries_one() -> None:
    cards = [
        card(R, 1, action=Act.DISCARD_MEMBER),
        card(B, 1, action=Act.PATER_MILLER),
        card(B, 1, money=4),
        *filler(4),
    ]
    abilities = [Ability.DOUBLE_ACTION] + [Ability.NONE] * 2
    state = table(cards, [[0, 3], [4], [5]], members=[[], [2, 1], []], pile=[6], abilities=abilities)
    first = state.child(Play(0, True)).child(Target(1))
    assert first.current_player() == 1
    parried = first.child(Protect(True))
    assert parried.step().kind == "offer_e"
    second = parried.child(Accept()).child(Target(1))  # no Pater Miller left: the attack goes through
    assert second.members[1] == () and set(second.discard) == {1, 2}


def test_ability_double_action_not_for_pater_miller() -> None:
    cards = [card(R, 1, action=Act.PATER_MILLER), *filler(6)]
    abilities = [Ability.DOUBLE_ACTION] + [Ability.NONE] * 2
    state = table(cards, [[0, 1], [2], [3]], pile=[4, 5, 6], abilities=abilities)
    assert state.child(Play(0, True)).current_player() == 1


def test_ability_extra_turn_once_per_turn() -> None:
    cards = [card(R, 1), card(R, 1), card(R, 1), *filler(4)]
    abilities = [Ability.EXTRA_TURN] + [Ability.NONE] * 2
    state = table(cards, [[0, 1, 2], [3], [4]], pile=[5, 6], abilities=abilities)
    offer = state.child(Play(0, True))
    assert offer.step().kind == "offer_f"
    again = offer.child(Accept())
    assert again.current_player() == 0 and again.step().kind == "play"
    after = again.child(Play(1, True))
    assert after.current_player() == 1  # no second offer within the same turn


def test_three_rounds_fresh_shuffle_next_starter_and_totals() -> None:
    import numpy as np
    from campsolver.solver.core.game import sample_outcome

    config = Config(3)
    state = new_game(config)
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == 1
    for outcome, p in outcomes:  # exact: cards of the drawn kind over the cards in the pile
        same = sum(1 for c in config.deck if c.kind == config.deck[outcome].kind)
        assert p == Fraction(same, 102)
    rng = np.random.default_rng(5)
    enders, starters, rounds_seen = [], [], []
    while state.current_player() != TERMINAL:
        before = state.round_index
        if state.current_player() == CHANCE:
            state = state.child(sample_outcome(state, rng))
        else:
            legal = state.legal_actions()
            state = state.child(legal[int(rng.integers(len(legal)))])
        if state.round_index != before and not state.over:
            enders.append(state.ender)
            starters.append(state.starter)
            rounds_seen.append(state.last_round)
            assert len(state.deck) == 102 and not state.discard
    assert len(enders) == 2
    assert starters == [(e + 1) % 3 for e in enders]
    assert sum(sum(r) for r in rounds_seen) + sum(state.last_round) == sum(state.totals)


def test_variation_two_lowest_scorer_chooses_first() -> None:
    from campsolver.solver.adventure_tours.rules import ChooseBoard, Variation, _end_round

    config = Config(3, expert=True, variation=Variation.LOWEST_CHOOSES)
    deck_cards = list(range(102))
    state = draw_all(new_game(config))
    # End the round by hand: player 1 scores least, players 0 and 2 tie -> clockwise from the new starter.
    from dataclasses import replace

    rigged = replace(state, members=((0,), (), (1,)), hands=((),) * 3, deck=tuple(deck_cards[2:]))
    nxt = _end_round(rigged, ender=0)
    assert nxt.starter == 1
    assert nxt.current_player() == 1  # lowest round score chooses first
    chosen = nxt.child(ChooseBoard(2))
    assert chosen.seat_boards[1] == 2 and 2 not in chosen.choosing


def test_variation_one_reshuffles_boards_uniformly() -> None:
    from campsolver.solver.adventure_tours.rules import Variation

    config = Config(3, expert=True, variation=Variation.SHUFFLE)
    state = new_game(config)
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 6 * 5 * 4 and sum(p for _, p in outcomes) == 1
    assert state.child(outcomes[7][0]).seat_boards == outcomes[7][0]


def test_default_deck_summary_figures() -> None:
    from campsolver.solver.adventure_tours.deck import DEFAULT_DECK, deck_summary

    summary = deck_summary()
    assert summary["cards"] == 102 and summary["per_colour"] == {"RED": 34, "BLUE": 34, "YELLOW": 34}
    assert summary["demand_range"] == (1, 9) and summary["total_money"] == 315
    assert summary["mean_demand"] == 4.647 and summary["mean_value"] == 2.118 and summary["kinds"] == 96
    assert summary["actions"]["Pater Miller"] == 9 and summary["actions"]["none"] == 27
    assert {c.action for c in DEFAULT_DECK} == set(Act)  # every Guide action is in the deck
    demands = sorted({c.demand for c in DEFAULT_DECK})
    for low, high in itertools.pairwise(demands):
        assert min(c.money for c in DEFAULT_DECK if c.demand == high) >= max(
            c.money for c in DEFAULT_DECK if c.demand == low
        )


def _hand_costs_eat_money_position(money_floor: MoneyFloor) -> State:
    """The rulebook's floor clause at work: player 1 holds 20 coins, has members paying 3 and 4 cards in hand
    when player 0 ends the round by laying their last card."""
    cards = [card(R, 1, money=1), card(B, 1, money=3), *filler(6)]
    return table(
        cards,
        [[0], [2, 3, 4, 5], [6]],
        members=[[], [1], []],
        pile=[7],
        totals=[0, 20, 5],
        rounds=2,
        money_floor=money_floor,
    )


def test_money_pile_floor_by_default_hand_costs_eat_earlier_money() -> None:
    # "Every adventurer still held in the hand costs 2 coins ... a player can drop no lower than 0 with his money":
    # 20 held + income 3 - 4 x 2 = 15; player 2 (5 held, no income, 1 card) pays 2 from the pile: 3.
    state = _hand_costs_eat_money_position(MoneyFloor.PILE)
    assert state.config.money_floor is MoneyFloor.PILE == Config(3).money_floor
    end = state.child(Play(0, True))
    assert end.round_index == 1 and end.last_round == (1, -5, -2)
    assert end.totals == (1, 15, 3)


def test_per_round_floor_variant_keeps_earlier_money() -> None:
    # The named variant "per-round floor": each round's income minus hand costs is at least 0 (the same case: 20).
    end = _hand_costs_eat_money_position(MoneyFloor.ROUND).child(Play(0, True))
    assert end.last_round == (1, 0, 0) and end.totals == (1, 20, 5)


@pytest.mark.parametrize("floor", list(MoneyFloor))
def test_the_money_pile_never_drops_below_zero(floor: MoneyFloor) -> None:
    for held in range(0, 12):
        for income in range(0, 8):
            for cards in range(0, 7):
                after = held + money_change(floor, held, income, cards)
                assert after >= 0
                net = income - 2 * cards
                expected = held + max(net, 0) if floor is MoneyFloor.ROUND else max(held + net, 0)
                assert after == expected


def _dealt_boards(config: Config, seed: int) -> tuple[int, ...]:
    """The boards of a new game once its first chance node is resolved from `seed` (as every seeded player of
    new games does: the bench, the batch tournaments, OpenSpiel's chance sampling)."""
    from campsolver.solver.core.game import sample_outcome
    from campsolver.solver.core.seeding import rng_for

    state = new_game(config)
    assert state.current_player() == CHANCE and state.step().kind == "shuffle_boards"
    return state.child(sample_outcome(state, rng_for(seed, "adventure-tours board deal"))).seat_boards


def test_boards_are_dealt_at_random_from_the_seed() -> None:
    # "each player receives a board at random": a 3-player expert game sees all six boards over seeds (seat i no
    # longer always gets board i), every seat a board of its own, and a seed deals the same boards every time.
    config = Config(3, expert=True)
    deals = [_dealt_boards(config, seed) for seed in range(40)]
    assert {board for deal in deals for board in deal} == set(range(6))
    assert len(set(deals)) > 10 and all(len(set(deal)) == 3 for deal in deals)
    assert deals == [_dealt_boards(Config(3, expert=True), seed) for seed in range(40)]
    outcomes = new_game(config).chance_outcomes()
    assert len(outcomes) == 6 * 5 * 4 and all(p == Fraction(1, 120) for _, p in outcomes)


def test_the_basic_game_deals_no_boards_and_variation_one_deals_once_a_round() -> None:
    # Desert sides are all alike: no chance node for them. Variation 1 reshuffles before each round, the first
    # deal included (one shuffle, not two).
    from campsolver.solver.adventure_tours.rules import Variation

    assert new_game(Config(3)).step().kind == "deal"
    shuffled = new_game(Config(3, expert=True, variation=Variation.SHUFFLE))
    assert shuffled.step().kind == "shuffle_boards"
    after = shuffled.child(shuffled.chance_outcomes()[0][0])
    assert after.step().kind == "deal"


def test_a_game_seats_three_to_six_players_and_the_solvers_one_to_six() -> None:
    # The rulebook gives no player count: six boards in the box bound it at 6; attacks and gifts on "any player"
    # and "the player on the left" want a table, so a game seats at least 3. MaxScore and puzzles also take a
    # solo table or two players (`allow_small`).
    for players in (3, 4, 5, 6):
        assert new_game(Config(players)).config.players == players
    for players in (1, 2, 7):
        with pytest.raises(ValueError, match="3-6 players"):
            Config(players)
    assert Config(1, allow_small=True).players == 1 and Config(2, allow_small=True).players == 2
    with pytest.raises(ValueError, match="1-6 players"):
        Config(7, allow_small=True)
