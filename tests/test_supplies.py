"""Every supply of every game used up exactly: the last piece can be taken (the edge), and one more cannot (one
past it), each by the rules model.

- Deluxe Camping: the barrier supply (automatic barriers of a trailer placed in the setup, of a movement, the
  free barrier, the end of the game, a position's count) and the trailers each player places.
- Camper Tour: the token supply gains are taken from (Unexpected Comforts, Village Festival), the per-camper cap
  variant, and the tokens dealt at the setup.
- Campsite: the seven tent tokens of a round, and the draw pile (the smallest deck, the last card drawn).
- Adventure Tours: the draw pile (a deck that deals every hand and one card more; the round ends as the last
  card is drawn).
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from campsolver.solver.adventure_tours import rules as at
from campsolver.solver.camper_tour.rules import (
    STARTING_TOKENS,
    TOKEN_SUPPLY,
    Announce,
    Camper,
    ComfortsChoice,
    Config,
    Pending,
    Phase,
    PlateKind,
    Stage,
    TokenRule,
    new_game,
    position_state,
)
from campsolver.solver.campsite import rules as cs
from campsolver.solver.core.game import CHANCE, TERMINAL
from campsolver.solver.deluxe_camping import rules as dc

# --- Deluxe Camping: barriers ----------------------------------------------------------------------------------------


def _trailer_stage(supply: int) -> dc.DCState:
    """A 4 x 4 board, two players with one trailer each, at the first trailer: player 0's bungalow on r1c2 and
    player 1's on r2c1, so a trailer on r1c1 lies beside player 1's bungalow (one automatic barrier)."""
    state = dc.initial_state(dc.Config(rows=4, cols=4, players=2, trailers=1, supply=supply))
    for square in (0, 3, 12, 15, 6, 9):  # the pool, three mystery tokens, the two bungalows
        state = state.child(dc.Place(square))
    assert state.stage is dc.Stage.TRAILER and state.to_move == 0
    return state


BESIDE_THE_OTHER = 5  # r1c1, beside player 1's bungalow on r2c1


def test_a_setup_trailer_may_take_the_last_barrier_of_the_supply_and_no_more() -> None:
    edge = _trailer_stage(supply=1)
    assert dc.Place(BESIDE_THE_OTHER) in edge.legal_actions()
    placed = edge.child(dc.Place(BESIDE_THE_OTHER))
    assert placed.stage is dc.Stage.TRAILER and placed.to_move == 1
    # Player 1 beside player 0's trailer or bungalow would need a second barrier: none is left.
    needs_one_more = [a for a in placed.legal_actions() if placed._new_adjacencies_with(a.square, 1)]
    assert needs_one_more == []
    past = _trailer_stage(supply=0)
    assert dc.Place(BESIDE_THE_OTHER) not in past.legal_actions()
    with pytest.raises(dc.IllegalAction):
        past.child(dc.Place(BESIDE_THE_OTHER))


NEAR_B = """
+-----+
|A a .|
+ + + +
|. . b|
+ + + +
|N . B|
+-----+
"""


def _near_b(extra: int) -> dc.DCState:
    """The 3 x 3 picture with its automatic barriers and `extra` barriers left in the supply."""
    placed = len(dc.parse_board(NEAR_B, add_automatic=True).barriers)
    return dc.parse_board(NEAR_B, supply=placed + extra, add_automatic=True)


def test_a_movement_may_take_the_last_barrier_of_the_supply_and_no_more() -> None:
    step = dc.Move(((1, 2),))  # a from r0c1 to r0c2, beside b on r1c2: one automatic barrier
    edge = _near_b(1)
    assert edge.supply_left == 1 and step in edge.legal_moves()
    after = edge.child(step)
    assert after.supply_left == 0
    # No barrier left for the free one: the turn ends, and with the supply empty the game is over.
    assert after.stage is dc.Stage.OVER and after.current_player() == TERMINAL
    past = _near_b(0)
    assert step not in past.legal_moves()
    with pytest.raises(dc.IllegalAction):
        past.child(step)


def test_the_free_barrier_takes_the_last_of_the_supply_then_the_game_ends() -> None:
    edge = _near_b(1).child(dc.Move(()))  # stays put: no automatic barrier, one left for the free one
    assert edge.stage is dc.Stage.BARRIER and edge.has_free_barrier() and edge.legal_barriers()
    final = edge.child(dc.Barrier(edge.legal_barriers()[0]))
    assert final.supply_left == 0 and final.stage is dc.Stage.OVER
    past = _near_b(0)
    assert not past.has_free_barrier() and past.legal_barriers() == []


WALLED = """
+-----+
|A a|.|
+ + + +
|. . b|
+ +-+ +
|N . B|
+-----+
"""


def test_a_position_may_hold_exactly_its_supply_of_barriers() -> None:
    state = dc.parse_board(WALLED, supply=2)
    assert len(state.barriers) == 2
    dc.validate(state, complete=False)
    with pytest.raises(ValueError, match="supply holds"):
        dc.validate(replace(state, config=replace(state.config, supply=1)), complete=False)


@pytest.mark.parametrize(("players", "trailers"), [(2, 6), (3, 4), (4, 2)])
def test_each_player_places_exactly_the_rulebooks_trailers(players: int, trailers: int) -> None:
    rng = random.Random(players)
    state = dc.initial_state(dc.Config(players=players))
    assert state.config.trailers == trailers
    placements = 0
    while state.stage is not dc.Stage.REVEAL:
        if state.stage is dc.Stage.TRAILER:
            placements += 1
            last = state
        state = state.child(rng.choice(state.legal_actions()))
    assert placements == players * trailers
    assert all(len(mine) == trailers for mine in state.trailers)
    # The last trailer placed ended the setup; one fewer would have left the stage at TRAILER.
    assert [len(mine) for mine in last.trailers].count(trailers - 1) == 1


# --- Camper Tour: the token supply --------------------------------------------------------------------------------

COMFORTS_AT_5 = Config(
    plate_count=20, layout=tuple(PlateKind.UNEXPECTED_COMFORTS if i == 4 else PlateKind.NORMAL for i in range(20))
)
FESTIVAL_AT_6 = Config(
    plate_count=20, layout=tuple(PlateKind.VILLAGE_FESTIVAL if i == 5 else PlateKind.NORMAL for i in range(20))
)


def _waiting_on_comforts(config: Config, others_hold: int) -> object:
    """Camper 0 on Unexpected Comforts with 20 tokens, the three others holding `others_hold` between them."""
    held = [others_hold // 3 + (1 if i < others_hold % 3 else 0) for i in range(3)]
    campers = [
        Camper(5, 20, Phase.OUTWARD, 0, Pending.COMFORTS_CHOICE),
        *(Camper(9 + i, tokens) for i, tokens in enumerate(held)),
    ]
    return position_state(config, campers)


@pytest.mark.parametrize(("left", "gained"), [(3, 3), (2, 2), (0, 0)])
def test_comforts_takes_what_the_supply_has_left(left: int, gained: int) -> None:
    """Three to recover: all three when exactly three are left (the edge), two when two are (one past)."""
    state = _waiting_on_comforts(COMFORTS_AT_5, TOKEN_SUPPLY - 20 - left)
    assert state.gain_limit(0) == 20 + left
    assert state.child(ComfortsChoice.RECOVER).campers[0].tokens == 20 + gained


@pytest.mark.parametrize(("left", "gained"), [(6, 6), (5, 5)])
def test_the_festival_takes_what_the_supply_has_left(left: int, gained: int) -> None:
    """A six won: all six with exactly six left, five with five."""
    others = TOKEN_SUPPLY - 22 - left  # camper 0 pays 2 on the way (24 -> 22)
    held = [others // 3 + (1 if i < others % 3 else 0) for i in range(3)]
    state = position_state(FESTIVAL_AT_6, [Camper(2, 24), *(Camper(9 + i, t) for i, t in enumerate(held))])
    state = state.child(Announce(4)).child(6)
    assert state.stage == Stage.EFFECT and state.campers[0].tokens == 22
    assert state.child(6).campers[0].tokens == 22 + gained


def test_the_tokens_of_campers_off_the_journey_are_back_in_the_box() -> None:
    """Only campers on the journey hold tokens from the supply: a finished camper's do not bind a gain."""
    done = Camper(0, 40, Phase.FINISHED, 12, Pending.NONE, arrival=1)
    state = position_state(
        COMFORTS_AT_5,
        [Camper(5, 20, Phase.OUTWARD, 0, Pending.COMFORTS_CHOICE), Camper(9, TOKEN_SUPPLY - 20 - 3), done],
    )
    assert state.child(ComfortsChoice.RECOVER).campers[0].tokens == 23


def test_the_per_camper_cap_is_reached_exactly() -> None:
    capped = replace(COMFORTS_AT_5, token_rule=TokenRule.PER_CAMPER_CAP)
    at_22 = position_state(capped, [Camper(5, 22, Phase.OUTWARD, 0, Pending.COMFORTS_CHOICE), Camper(9)])
    assert at_22.child(ComfortsChoice.RECOVER).campers[0].tokens == STARTING_TOKENS  # 22 + 3: the cap exactly
    at_23 = position_state(capped, [Camper(5, 23, Phase.OUTWARD, 0, Pending.COMFORTS_CHOICE), Camper(9)])
    assert at_23.child(ComfortsChoice.RECOVER).campers[0].tokens == STARTING_TOKENS  # one past: two only


def test_the_setup_may_deal_the_whole_supply_and_no_more() -> None:
    full = new_game(Config(), 4)  # 4 x 25 = the 100 in the box
    assert sum(c.tokens for c in full.campers) == TOKEN_SUPPLY
    with pytest.raises(ValueError, match="in the box"):
        new_game(Config(token_supply=TOKEN_SUPPLY - 1), 4)
    position_state(Config(), [Camper(5, 60), Camper(6, 40)])  # holding the whole supply between them
    with pytest.raises(ValueError, match="in the box"):
        position_state(Config(), [Camper(5, 60), Camper(6, 41)])


# --- Campsite: tent tokens and the draw pile ----------------------------------------------------------------------


def _play_turn(state: cs.CampsiteState, rng: random.Random) -> cs.CampsiteState:
    """One turn (a card and a tent chosen at random, the draw from the seed's stream)."""
    state = state.child(rng.choice(state.legal_actions()))
    state = state.child(rng.choice(state.legal_actions()))
    while state.current_player() == CHANCE and state.stage is cs.Stage.DRAW:
        outcomes = state.chance_outcomes()
        state = state.child(rng.choice(outcomes)[0])
    return state


def _deal(state: cs.CampsiteState, rng: random.Random) -> cs.CampsiteState:
    while state.current_player() == CHANCE:
        state = state.child(rng.choice(state.chance_outcomes())[0])
    return state


def test_each_tent_token_is_used_once_a_round_and_the_last_turn_has_one_left() -> None:
    rng = random.Random(4)
    state = _deal(cs.new_game(2), rng)
    for turn in range(cs.TURNS_PER_ROUND * 2):
        mover = state.to_move
        assert state.stage is cs.Stage.CARD and state.round == 0
        tokens_left = len(state.tokens[mover])
        assert tokens_left == len(cs.ALL_TOKENS) - turn // 2
        after_card = state.child(rng.choice(state.legal_actions()))
        assert {a.token for a in after_card.legal_actions()} == set(state.tokens[mover])
        state = _deal(_play_turn(state, rng), rng) if turn < cs.TURNS_PER_ROUND * 2 - 1 else _play_turn(state, rng)
    # Every token used exactly once by each player: the round is scored and the next one deals them anew.
    assert state.round == 1 and len(state.round_scores) == 1
    assert all(tokens == frozenset(cs.ALL_TOKENS) for tokens in state.tokens)


def test_the_smallest_deck_deals_and_runs_dry_and_one_card_fewer_is_refused() -> None:
    smallest = 2 + 7 * 2  # the two starting cards, and a card for each of the 7 turns of both players
    assert cs.minimum_deck_size(2) == smallest
    deck = cs.default_deck()[:smallest]
    rng = random.Random(2)
    state = _deal(cs.new_game(2, deck), rng)
    drawn_dry = False
    for _ in range(cs.TURNS_PER_ROUND * 2):
        before = len(state.pile)
        mover = state.to_move
        hand = len(state.hands[mover])
        state = state.child(rng.choice(state.legal_actions()))
        state = state.child(rng.choice(state.legal_actions()))
        if before == 0:
            assert state.stage is not cs.Stage.DRAW and len(state.hands[mover]) == hand - 1  # no draw
        else:
            assert state.stage is cs.Stage.DRAW
            state = state.child(rng.choice(state.chance_outcomes())[0])
            drawn_dry |= before == 1 and not state.pile
        if state.round == 1:
            break
    assert drawn_dry, "the last card of the pile was never drawn"
    assert state.round == 1, "every player laid a card on each of the seven turns"
    with pytest.raises(cs.IllegalMove, match="at least"):
        cs.new_game(2, deck[:-1])


# --- Adventure Tours: the draw pile -------------------------------------------------------------------------------


def test_an_adventure_tours_deck_must_deal_every_hand_and_one_card_more() -> None:
    full = at.Config(3).deck
    hands = at.HAND_SIZE * 3
    at.new_game(at.Config(3, deck=full[: hands + 1]))
    with pytest.raises(ValueError, match="cannot deal"):
        at.new_game(at.Config(3, deck=full[:hands]))


def test_the_round_ends_as_the_last_card_is_drawn_not_before() -> None:
    """Random games on a deck short enough to run dry: a draw that takes the last card ends the round there; a
    draw that leaves one card goes on in the same round."""
    deck = at.Config(3).deck[: at.HAND_SIZE * 3 + 6]
    seen = {"last": 0, "one left": 0}
    for seed in range(12):
        rng = random.Random(seed)
        state = at.new_game(at.Config(3, deck=deck))
        while not state.over:
            if state.current_player() == CHANCE:
                step = state.pending[0]
                outcome = rng.choice(state.chance_outcomes())[0]
                after = state.child(outcome)
                if step.kind == "draw":
                    if len(state.deck) == 1:
                        assert after.round_index == state.round_index + 1 or after.over
                        seen["last"] += 1
                    elif len(state.deck) == 2:
                        assert after.round_index == state.round_index and len(after.deck) == 1
                        seen["one left"] += 1
                state = after
            else:
                state = state.child(rng.choice(state.legal_actions()))
    assert seen["last"] and seen["one left"], seen


def test_an_adventure_tours_game_deals_from_seat_0_and_seat_0_plays_first() -> None:
    """The deal of the first round goes round the table from seat 0, a card at a time, and seat 0 plays first
    (the next rounds begin left of the player who ended the last one). Found by the mutation run: a first round
    begun by seat 1 survived."""
    state = at.new_game(at.Config(3))
    receivers = []
    while state.current_player() == CHANCE:
        receivers.append(state.pending[0].player)
        state = state.child(state.chance_outcomes()[0][0])
    assert receivers[:6] == [0, 1, 2, 0, 1, 2] and len(receivers) == at.HAND_SIZE * 3
    assert state.current_player() == 0 and state.to_move == 0
