"""The fixed players (bench opponents and rollout policy) always return a legal move, and the rules of thumb
do what their documentation says."""

from dataclasses import replace

import pytest
from campsolver.solver.camper_tour.players import PLAYERS, announce_seven, greedy, solo_optimal
from campsolver.solver.camper_tour.rules import (
    Announce,
    Camper,
    Config,
    Pending,
    Phase,
    TurnBack,
    new_game,
    position_state,
)
from campsolver.solver.camper_tour.solo import all_normal_tables
from campsolver.solver.core.game import sample_outcome
from campsolver.solver.core.seeding import rng_for

NORMAL = Config(plate_count=40, specials=())


@pytest.mark.parametrize("name", sorted(PLAYERS))
@pytest.mark.parametrize("config", [Config(), NORMAL], ids=["specials", "normal"])
def test_every_player_only_plays_legal_moves_to_the_end(name, config):
    for seed in range(6):
        state = new_game(config, 2 + seed % 3)
        rng = rng_for(seed, "players-test")
        moves = 0
        while not state.game_over:
            if state.current_player() >= 0:
                action = PLAYERS[name](state)
                assert action in state.legal_actions()
                state = state.child(action)
                moves += 1
            else:
                state = state.child(sample_outcome(state, rng))
        assert (moves > 0 and state.winner() is not None) or all(c.score == 0 for c in state.campers)


def test_the_solo_policy_plays_its_best_legal_alternative():
    """`solo_optimal` outward takes the first legal move of its value-ranked, cached alternatives: the same move as
    the maximum over the legal alternatives (equal values: the tables' order), on every decision of seeded games of
    2-4 campers, specials included, the seats played by every player in turn."""
    players = [PLAYERS[name] for name in sorted(PLAYERS)]
    checked = 0
    for seed in range(40):
        state = new_game(Config(), 2 + seed % 3)
        rng = rng_for(seed, "solo-policy-test")
        while not state.game_over:
            if state.current_player() < 0:
                state = state.child(sample_outcome(state, rng))
                continue
            camper = state.mover
            if camper.phase == Phase.OUTWARD:
                tables = all_normal_tables(state.config.plate_count, state.config.token_limit)
                tokens = min(camper.tokens, tables.axis.cap)
                if camper.pending == Pending.COMFORTS_CHOICE:
                    options = tables.comforts_alternatives(camper.position, tokens)
                else:
                    options = tables.outward_alternatives(camper.position, tokens)
                legal = state.legal_actions()
                options = [(a, v) for a, v in options if a in legal]
                expected = max(options, key=lambda item: item[1])[0] if options else legal[0]
                assert solo_optimal(state) == expected
                checked += 1
            state = state.child(players[checked % len(players)](state))
    assert checked >= 1000


def test_rules_of_thumb_do_what_they_say():
    state = position_state(NORMAL, [Camper(position=10, tokens=12), Camper(position=12, tokens=20)])
    assert announce_seven(state) == TurnBack()  # 12 tokens: turn back
    state = position_state(NORMAL, [Camper(position=10, tokens=13), Camper(position=17, tokens=20)])
    assert announce_seven(state) == Announce(6)  # 7 would land on the other camper: the largest legal below
    state = position_state(NORMAL, [Camper(position=20, tokens=6), Camper(position=12, tokens=20)])
    assert greedy(state) == TurnBack()  # reserve max(4, 0.3 x 20) = 6
    assert isinstance(greedy(position_state(NORMAL, [Camper(position=2, tokens=25)])), Announce)


def test_race_duels_with_two_on_the_journey_and_plays_seven_in_a_crowd():
    from campsolver.solver.camper_tour.players import (
        CROWD_RESERVE_MIN,
        CROWD_RESERVE_PER_PLATE,
        DUEL,
        RUSH_TURN_BACK_TOKENS,
        race,
    )
    from campsolver.solver.camper_tour.rules import Phase

    two = position_state(NORMAL, [Camper(position=10, tokens=20), Camper(position=3, tokens=20)])
    assert race(two) == Announce(DUEL.out_announcement)
    two = position_state(NORMAL, [Camper(position=10, tokens=RUSH_TURN_BACK_TOKENS), Camper(position=3, tokens=20)])
    assert race(two) == TurnBack()
    # a duel: home once lead_margin plates beyond a returning rival's marker, not before
    rival = Camper(position=6, tokens=8, phase=Phase.RETURN, marker=12)
    ahead = position_state(NORMAL, [Camper(position=12 + DUEL.lead_margin, tokens=20), rival])
    assert race(ahead) == TurnBack()
    behind = position_state(NORMAL, [Camper(position=12 + DUEL.lead_margin - 1, tokens=20), rival])
    assert race(behind) == Announce(DUEL.out_announcement)
    # ...and home from rush_from_plate on when the rival is chase_gap plates or more further out, and so far out
    # that, turning back there, it would win as the last camper with at most DUEL.chase_risk (rival on plate 30
    # with 5 tokens, 22 plates beyond the mover's plate 8: 0.02)
    far = DUEL.rush_from_plate + 22
    chased = position_state(NORMAL, [Camper(position=DUEL.rush_from_plate, tokens=20), Camper(position=far, tokens=5)])
    assert race(chased) == TurnBack()
    early = position_state(
        NORMAL, [Camper(position=DUEL.rush_from_plate - 1, tokens=20), Camper(position=far, tokens=5)]
    )
    assert race(early) == Announce(DUEL.out_announcement)
    # home-bound, the announcement whose cost per plate spends the tokens in hand by the starting plate:
    # 10 plates to go with 6 tokens is 0.6 a plate, announcing 5 (0.63)
    home = position_state(
        NORMAL, [Camper(position=11, tokens=6, phase=Phase.RETURN, marker=14), Camper(position=20, tokens=10)]
    )
    assert race(home) == Announce(5)
    crowd = [
        Camper(position=10, tokens=RUSH_TURN_BACK_TOKENS),
        Camper(position=3, tokens=20),
        Camper(position=6, tokens=20),
    ]  # not a slow field: one camper is beyond half the mover's plate
    assert race(position_state(NORMAL, crowd)) == Announce(7)
    reserve = CROWD_RESERVE_MIN + CROWD_RESERVE_PER_PLATE * 10
    crowd[0] = Camper(position=10, tokens=int(reserve))
    assert race(position_state(NORMAL, crowd)) == TurnBack()
    # in a crowd, not yet beyond a returner's marker: go on while more than CROWD_TOKEN_FLOOR tokens are left
    crowd[2] = Camper(position=5, tokens=20, phase=Phase.RETURN, marker=12)
    assert race(position_state(NORMAL, crowd)) == Announce(7)
    # somebody already home: no rush (a rushed low score could not beat a finished camper's)
    home = Camper(phase=Phase.FINISHED, marker=30, tokens=0, arrival=1)
    state = position_state(NORMAL, [Camper(position=10, tokens=20), Camper(position=3, tokens=20), home])
    assert race(state) == Announce(7)


def test_race_chases_only_a_rival_who_would_likely_fail_as_the_last_camper():
    """With a chase_risk, the duel's chase rule (home first while the rival is chase_gap or more plates further out)
    holds only while the rival's exact last-camper chance, turning back where it stands against a score of the
    mover's plate, is at most chase_risk; with None (the default: a bound did not win more), whatever that chance."""
    from campsolver.solver.camper_tour.players import DUEL, DUEL_CHASE_RISK, last_camper_win_probability, race

    assert DUEL.chase_risk is DUEL_CHASE_RISK is None
    bounded = replace(DUEL, chase_risk=0.3)
    mover = Camper(position=10, tokens=20)
    # rival 7 plates further out (plate 17), its chance as the last camper by its tokens: 5 -> 0.270, 15 -> 0.478
    for tokens, chased in ((5, True), (15, False)):
        risk = last_camper_win_probability(17, tokens, 7)
        assert (risk <= bounded.chase_risk) is chased
        state = position_state(NORMAL, [mover, Camper(position=17, tokens=tokens)])
        assert race(state, duel=bounded) == (TurnBack() if chased else Announce(DUEL.out_announcement))
        assert race(state) == TurnBack()
    assert abs(last_camper_win_probability(17, 5, 7) - 0.2695) < 5e-4
    assert abs(last_camper_win_probability(17, 15, 7) - 0.4784) < 5e-4


def test_race_in_a_crowd_turns_back_once_ahead_when_every_other_camper_is_home_bound():
    """Left outward while every other camper on the journey heads home, `race` turns back once CROWD_ALONE_MARGIN
    plates beyond every other camper's reach (their markers, finished scores), whatever its tokens; behind them, or
    with another camper still outward, the crowd rule as before."""
    from campsolver.solver.camper_tour.players import CROWD, CROWD_ALONE_MARGIN, race
    from campsolver.solver.camper_tour.rules import Phase

    assert CROWD.alone_margin == CROWD_ALONE_MARGIN == 1
    returning = Camper(position=8, tokens=9, phase=Phase.RETURN, marker=20)
    home = Camper(phase=Phase.FINISHED, marker=18, tokens=0, arrival=1)
    for other in (Camper(position=5, tokens=6, phase=Phase.RETURN, marker=14), home):
        at = position_state(NORMAL, [Camper(position=20 + CROWD_ALONE_MARGIN, tokens=24), returning, other])
        assert race(at) == TurnBack()
        short = position_state(NORMAL, [Camper(position=20 + CROWD_ALONE_MARGIN - 1, tokens=24), returning, other])
        assert race(short) == Announce(7)
    # a finished camper's score counts as a reach: beyond the returner's marker but not the score, go on
    ahead = Camper(phase=Phase.FINISHED, marker=26, tokens=1, arrival=1)
    state = position_state(NORMAL, [Camper(position=22, tokens=24), returning, ahead])
    assert race(state) == Announce(7)
    # one other camper still outward (behind the mover): not alone, the reserve rule goes on with 24 tokens
    state = position_state(NORMAL, [Camper(position=22, tokens=24), returning, Camper(position=15, tokens=10)])
    assert race(state) == Announce(7)
    # the parameter off: as before
    state = position_state(NORMAL, [Camper(position=22, tokens=24), returning, home])
    assert race(state, replace(CROWD, alone_margin=None)) == Announce(7)


def test_race_against_a_slow_field_announces_six_and_turns_back_sooner():
    from campsolver.solver.camper_tour.players import (
        AGAINST_SLOW,
        CROWD,
        SLOW_FRACTION,
        SLOW_FROM_PLATE,
        race,
        slow_field,
    )
    from campsolver.solver.camper_tour.rules import Phase

    mover = Camper(position=20, tokens=20)
    behind = int(SLOW_FRACTION * 20)
    slow = position_state(NORMAL, [mover, Camper(position=behind, tokens=24), Camper(position=2, tokens=25)])
    assert slow_field(slow)
    assert race(slow) == Announce(AGAINST_SLOW.out_announcement) == Announce(6)
    # between the two turn-back reserves: the slow-field one turns back, the crowd's goes on
    tokens = int(AGAINST_SLOW.reserve_min + AGAINST_SLOW.reserve_per_plate * 20)
    assert tokens > CROWD.reserve_min + CROWD.reserve_per_plate * 20
    between = position_state(
        NORMAL, [Camper(position=20, tokens=tokens), Camper(position=behind, tokens=24), Camper(position=2, tokens=25)]
    )
    assert race(between) == TurnBack()
    # one camper keeping up, one returning or home, or the mover too early on: not a slow field (the crowd's 7; the
    # marker and score 17 are less than CROWD.follow_margin plates behind the mover, so it does not follow them)
    home = Camper(phase=Phase.FINISHED, marker=17, tokens=0, arrival=1)
    for others in (
        [Camper(position=behind + 1, tokens=24), Camper(position=2, tokens=25)],
        [Camper(position=3, tokens=24, phase=Phase.RETURN, marker=17), Camper(position=2, tokens=25)],
        [home, Camper(position=2, tokens=25)],
    ):
        state = position_state(NORMAL, [mover, *others])
        assert not slow_field(state) and race(state) == Announce(7)
    early = position_state(
        NORMAL,
        [Camper(position=SLOW_FROM_PLATE - 1, tokens=24), Camper(position=1, tokens=25), Camper(position=0, tokens=25)],
    )
    assert not slow_field(early)
    alone = position_state(NORMAL, [mover, Camper(position=2, tokens=25)])  # one other camper is not a field
    assert not slow_field(alone)


def test_race_rule_beats_announce_seven_and_greedy_with_two_campers():
    """The win-probability hint's baseline: 60 seeded games a pairing, seats rotated (fast: no search)."""
    from campsolver.solver.camper_tour.players import play_game, race

    for opponent in (announce_seven, greedy):
        wins = 0
        for g in range(60):
            seat = g % 2
            players = [opponent, opponent]
            players[seat] = race
            state = play_game(NORMAL, players, rng_for(g, "race-test"))
            wins += state.winner() == seat
        assert wins >= 45, (opponent.__name__, wins)  # Wilson 95% lower end of 45/60 is 0.63


class _WinNode:
    """A rules state whose returns are 1 for the winner (the rules' tie rule), 0 for everybody else: the generic
    expectimax over it is an independent oracle for the last camper's win probability."""

    def __init__(self, state):
        self.state = state

    def __hash__(self):
        return hash(self.state)

    def __eq__(self, other):
        return self.state == other.state

    def current_player(self):
        return self.state.current_player()

    def legal_actions(self):
        return self.state.legal_actions()

    def chance_outcomes(self):
        return self.state.chance_outcomes()

    def child(self, action):
        return _WinNode(self.state.child(action))

    def returns(self):
        winner = self.state.winner()
        return [1.0 if i == winner else 0.0 for i in range(len(self.state.campers))]


@pytest.mark.parametrize(
    ("position", "tokens", "marker", "finished_score"),
    [(6, 2, 9, 6), (7, 0, 7, 5), (5, 6, 8, 3), (8, 3, 12, 9), (4, 0, 4, 4)],
)
def test_last_camper_table_matches_expectimax_over_the_rules_model(position, tokens, marker, finished_score):
    """The last camper's exact table (all-normal return, the finished camper's score as the target, a tie won by
    returning last) against the generic expectimax over the rules model, every announcement and the optimum."""
    from campsolver.solver.camper_tour.players import last_camper_announcements, last_camper_win_probability
    from campsolver.solver.camper_tour.rules import Phase
    from campsolver.solver.core.expectimax import expectimax

    home = Camper(phase=Phase.FINISHED, marker=finished_score, tokens=0, arrival=1)
    last = Camper(position=position, tokens=tokens, phase=Phase.RETURN, marker=marker)
    state = position_state(Config(plate_count=20, specials=()), [last, home])
    assert state.last_camper_rule
    oracle = expectimax(_WinNode(state))
    slack = marker - finished_score
    assert last_camper_win_probability(position, tokens, slack) == pytest.approx(oracle.values[0], abs=1e-12)
    table = last_camper_announcements(position, tokens, slack)
    for alternative in oracle.alternatives:
        assert table[alternative.action.plates] == pytest.approx(alternative.values[0], abs=1e-12)


def test_race_as_the_last_camper_plays_the_tables_best_move_and_never_risks_a_sure_win():
    from campsolver.solver.camper_tour.players import last_camper_announcements, race
    from campsolver.solver.camper_tour.rules import Phase

    # Far above the target (slack 25 covers 11 tokens a plate for 2 plates): announcing 1 never fails, so the
    # table says 1.0 and the rule takes no risk.
    low = Camper(phase=Phase.FINISHED, marker=5, tokens=0, arrival=1)
    state = position_state(NORMAL, [Camper(position=3, tokens=0, phase=Phase.RETURN, marker=30), low])
    assert last_camper_announcements(3, 0, 25)[1] == pytest.approx(1.0, abs=1e-12)
    assert race(state) == Announce(1)
    home = Camper(phase=Phase.FINISHED, marker=30, tokens=0, arrival=1)
    # Tight: the best move of the table (ties to the smaller announcement).
    state = position_state(NORMAL, [Camper(position=9, tokens=4, phase=Phase.RETURN, marker=33), home])
    values = last_camper_announcements(9, 4, 3)
    best = max(values.values())
    assert race(state) == Announce(min(a for a, v in values.items() if v == best))
    # Nobody home (the others were eliminated): any arrival wins, and an announcement of 1 never fails.
    gone = Camper(phase=Phase.ELIMINATED)
    state = position_state(NORMAL, [Camper(position=7, tokens=2, phase=Phase.RETURN, marker=20), gone])
    assert race(state) == Announce(1)


@pytest.mark.parametrize(
    "crowd",
    [
        {"out_announcement": 6, "return_announcement": 8, "lead": 10, "alone_margin": 4},
        {"reserve_min": 2, "token_floor": 1, "outward_margin": 5, "outward_ratio": 1.5},
        {"alone_margin": None, "follow_margin": 2, "follow_count": 2},
        {"follow_margin": 0, "follow_outward": 1},
        {"alone_margin": None, "follow_margin": 4, "follow_outward": 2, "lead": 0},
        {"proxy_outward": False, "proxy_return": False, "return_burn": False},
        {"proxy_from_gap": None, "return_burn": True},
    ],
)
def test_race_with_other_crowd_parameters_only_plays_legal_moves(crowd):
    """The tuning tries parameter sets away from the defaults: every one must still play by the rules."""
    from campsolver.solver.camper_tour.players import CrowdParameters, race

    params = CrowdParameters(**crowd)
    for seed in range(4):
        for config in (Config(), NORMAL):
            state = new_game(config, 3 + seed % 2)
            rng = rng_for(seed, "crowd-legal")
            while not state.game_over:
                if state.current_player() >= 0:
                    action = race(state, params)
                    assert action in state.legal_actions()
                    state = state.child(action)
                else:
                    state = state.child(sample_outcome(state, rng))


def _home_bound_crowd(rng, campers: int) -> tuple[Camper, list[Camper]]:
    """A mover (outward or home-bound) and `campers` - 1 home-bound others, on distinct plates of the table's
    72-plate route, nobody home."""
    from campsolver.solver.camper_tour.rules import Phase

    plates = [int(p) for p in rng.choice(range(2, 45), size=campers, replace=False)]
    others = []
    for plate in plates[1:]:
        marker = plate + int(rng.integers(0, 15))
        others.append(Camper(position=plate, tokens=int(rng.integers(0, 20)), phase=Phase.RETURN, marker=marker))
    if rng.random() < 0.5:
        mover = Camper(position=plates[0], tokens=int(rng.integers(1, 25)))
    else:
        marker = plates[0] + int(rng.integers(0, 15))
        mover = Camper(position=plates[0], tokens=int(rng.integers(0, 20)), phase=Phase.RETURN, marker=marker)
    return mover, others


def test_race_plays_the_solved_duel_against_the_best_marker_when_every_other_camper_is_home_bound():
    """With every other camper on the journey home-bound and nobody home, `race` plays the solved two-camper duel
    against the home-bound camper with the best marker (`proxy_rival`), as if the others were not there: the move of
    the two-camper game of the mover and that camper alone, when legal on the real table (outward, only from
    CROWD.proxy_from_gap plates beyond that marker)."""
    from campsolver.solver.camper_tour.outward_duel import outward_duel_move
    from campsolver.solver.camper_tour.players import CROWD, proxy_rival, race
    from campsolver.solver.camper_tour.return_duel import duel_return_move
    from campsolver.solver.camper_tour.rules import Phase

    assert CROWD.proxy_outward and CROWD.proxy_return
    rng = rng_for(0, "proxy-duel")
    played = {Phase.OUTWARD: 0, Phase.RETURN: 0}
    for trial in range(600):
        mover, others = _home_bound_crowd(rng, 3 + trial % 2)
        state = position_state(Config(), [mover, *others])
        best = max(range(1, len(state.campers)), key=lambda i: (state.campers[i].marker, -state.campers[i].position))
        assert proxy_rival(state) == best
        duel = position_state(Config(), [mover, state.campers[best]])
        expected = outward_duel_move(duel) if mover.phase == Phase.OUTWARD else duel_return_move(duel)
        gap = mover.position - state.campers[best].marker
        too_far_behind = mover.phase == Phase.OUTWARD and gap < CROWD.proxy_from_gap
        if expected is None or expected not in state.legal_actions() or too_far_behind:
            continue
        assert race(state) == expected
        played[mover.phase] += 1
    assert min(played.values()) >= 50, played


def test_the_proxy_duel_needs_every_other_camper_home_bound_and_nobody_home():
    from campsolver.solver.camper_tour.players import proxy_rival
    from campsolver.solver.camper_tour.rules import Phase

    mover = Camper(position=20, tokens=12)
    returning = Camper(position=10, tokens=8, phase=Phase.RETURN, marker=21)
    assert proxy_rival(position_state(Config(), [mover, returning, Camper(position=15, tokens=8)])) is None
    home = Camper(phase=Phase.FINISHED, marker=18, tokens=0, arrival=1)
    assert proxy_rival(position_state(Config(), [mover, returning, home])) is None
    # an eliminated camper counts for nothing; one home-bound rival alone is the plain duel, not a proxy
    gone = Camper(phase=Phase.ELIMINATED, position=0, tokens=0)
    assert proxy_rival(position_state(Config(), [mover, returning, gone])) is None
    other = Camper(position=12, tokens=8, phase=Phase.RETURN, marker=25)
    assert proxy_rival(position_state(Config(), [mover, returning, other, gone])) == 2


def test_race_in_a_crowd_turns_back_once_far_beyond_every_other_camper():
    """CROWD_LEAD plates beyond every other camper's reach (outward plates, markers), `race` turns back whatever its
    tokens; a plate short of that, the crowd rule goes on."""
    from campsolver.solver.camper_tour.players import CROWD, CROWD_LEAD, race, slow_field

    assert CROWD.lead == CROWD_LEAD > 0
    others = [Camper(position=12, tokens=20), Camper(position=8, tokens=22)]  # not a slow field: 12 > half of 23
    far = position_state(NORMAL, [Camper(position=12 + CROWD_LEAD, tokens=24), *others])
    assert not slow_field(far) and race(far) == TurnBack()
    short = position_state(NORMAL, [Camper(position=12 + CROWD_LEAD - 1, tokens=24), *others])
    assert not slow_field(short) and race(short) == Announce(7)


def test_race_in_a_crowd_follows_once_at_most_one_other_camper_is_still_outward():
    """With at most CROWD_FOLLOW_OUTWARD other campers still outward (the rest home-bound or home), `race` turns back
    once CROWD_FOLLOW_MARGIN plates beyond their markers and scores, whatever its tokens; a plate short of that, or
    with two others still outward, the crowd rule goes on."""
    from campsolver.solver.camper_tour.players import CROWD, CROWD_FOLLOW_MARGIN, CROWD_FOLLOW_OUTWARD, race
    from campsolver.solver.camper_tour.rules import Phase

    assert (CROWD.follow_margin, CROWD.follow_outward) == (CROWD_FOLLOW_MARGIN, CROWD_FOLLOW_OUTWARD) == (4, 1)
    outward = Camper(position=15, tokens=10)
    returning = Camper(position=8, tokens=9, phase=Phase.RETURN, marker=20)
    home = Camper(phase=Phase.FINISHED, marker=18, tokens=0, arrival=1)
    for ahead, other in ((20, returning), (18, home)):
        at = position_state(NORMAL, [Camper(position=ahead + CROWD_FOLLOW_MARGIN, tokens=24), other, outward])
        assert race(at) == TurnBack()
        short = position_state(NORMAL, [Camper(position=ahead + CROWD_FOLLOW_MARGIN - 1, tokens=24), other, outward])
        assert race(short) == Announce(7)
        # the parameter off: as before
        assert race(at, replace(CROWD, follow_margin=None, follow_outward=None)) == Announce(7)
    # four campers: two others still outward, go on; one of them home-bound instead, follow
    mover = Camper(position=20 + CROWD_FOLLOW_MARGIN, tokens=24)
    two_out = position_state(NORMAL, [mover, returning, outward, Camper(position=12, tokens=15)])
    assert race(two_out) == Announce(7)
    one_out = Camper(position=5, tokens=3, phase=Phase.RETURN, marker=16)
    assert race(position_state(NORMAL, [mover, returning, outward, one_out])) == TurnBack()
