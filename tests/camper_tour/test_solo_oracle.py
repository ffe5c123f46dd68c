"""The solo DP against an independent, Fraction-exact recursive solver written from the rulebook.

The oracle below shares no code with `solver.camper_tour` (not even its constants): plates 1..N, start
off the route at 0, a first move of k lands on k, outward never past N, tokens <= 0 before turning back
eliminate (score 0), turning back at the start of a turn on plate >= 2 (a turn spent still on Unexpected
Comforts included) puts the marker there and the same turn announces toward plate 1 (or makes the Comforts
choice), on the return tokens never go below 0: each token that should have been paid moves the marker
back at once and is never refunded ("running out of tokens"), final score = marker - tokens left at
arrival, failed rolls are free (the value of an announcement is conditioned on the roll beating it).
Gains are capped at `cap` (the supply a lone camper can draw on). Special plates follow docs/rules/camper-tour.md
(Camper Tour); No Parking is left out (its refill cycles have no finite recursion).
"""

from fractions import Fraction
from functools import cache

import pytest
from campsolver.solver.camper_tour.rules import Announce, PlateKind, TurnBack
from campsolver.solver.camper_tour.solo import KnownLayoutTables

DICE = {total: Fraction(6 - abs(total - 7), 36) for total in range(2, 13)}
N, C, M, F = "normal", "comforts", "mechanical", "festival"
TOLERANCE = 1e-12


def make_oracle(kinds: tuple[str, ...], cap: int):  # type: ignore[no-untyped-def]
    plates = len(kinds)

    def kind(plate: int) -> str:
        return N if plate <= 1 else kinds[plate - 1]

    def success(a: int) -> list[tuple[int, Fraction]]:
        """(payment, P(payment | roll > a))."""
        beat = sum(p for total, p in DICE.items() if total > a)
        return [(total - a, p / beat) for total, p in DICE.items() if total > a]

    def discard(t: int) -> int:
        return max(0, t - 3) if t > 0 else t

    @cache
    def cost(p: int, t: int) -> Fraction:
        """Least expected marker loss (tokens missing on the way + tokens left at arrival) from the start of a
        returning turn on plate p >= 2 with t >= 0 tokens."""
        assert t >= 0
        return min(
            sum(w * (max(0, c - t) + land_back(p - a, max(0, t - c))) for c, w in success(a))
            for a in range(1, min(10, p - 1) + 1)
        )

    def land_back(q: int, t: int) -> Fraction:
        if q == 1:
            return Fraction(t)
        k = kind(q)
        if k == C:
            return min(cost(q, min(cap, t + 3)), cost(q, discard(t)), cost(q, t))
        if k == F:
            return sum((cost(q, min(cap, t + d)) if d >= 4 else cost(q, t)) for d in range(1, 7)) / 6
        return cost(q, t)  # normal, and Mechanical Problem on the return

    @cache
    def outward(p: int, t: int) -> Fraction:
        """Best expected score from the start of an outward turn on plate p (0: off the route), t > 0."""
        return max(v for _, v in alternatives(p, t))

    def alternatives(p: int, t: int) -> list[tuple[object, Fraction]]:
        result: list[tuple[object, Fraction]] = []
        if p >= 2:
            result.append((TurnBack(), p - cost(p, t)))
        for a in range(1, min(10, plates - p) + 1):
            result.append((Announce(a), sum(w * land_out(p + a, t - c) for c, w in success(a))))
        return result

    def alive(q: int, t: int) -> Fraction:
        return outward(q, t) if t > 0 else Fraction(0)

    def land_out(q: int, t: int) -> Fraction:
        if t <= 0:
            return Fraction(0)
        k = kind(q)
        if k == C:  # turning back at the start of the turn spent still is allowed too
            back = q - min(cost(q, min(cap, t + 3)), cost(q, discard(t)), cost(q, t))
            return max(alive(q, min(cap, t + 3)), alive(q, discard(t)), alive(q, t), back)
        if k == M:
            return sum(alive(q, t - d) for d in range(1, 7)) / 6
        if k == F:
            return sum((alive(q, min(cap, t + d)) if d >= 4 else alive(q, t)) for d in range(1, 7)) / 6
        return outward(q, t)

    return outward, alternatives, cost


KIND = {
    N: PlateKind.NORMAL,
    C: PlateKind.UNEXPECTED_COMFORTS,
    M: PlateKind.MECHANICAL_PROBLEM,
    F: PlateKind.VILLAGE_FESTIVAL,
}

ROUTES = [
    ((N,) * 5, 4),
    ((N,) * 8, 6),
    ((N,) * 8, 9),
    ((N, F, N, M, C, N, F, N), 6),  # the special plates; plate 2 is a festival on both journeys
    ((N, F, N, M, C, N, F, N), 14),  # gains beyond the starting count (the supply)
    ((C, M, N, C, F, M, N), 5),  # a special starting plate is not one
    ((N, N, N, C, N, N, F, N, C, N), 3),  # few tokens: turning back on Comforts, shortfalls then gains
]


@pytest.mark.parametrize(("kinds", "cap"), ROUTES)
def test_known_layout_tables_equal_the_independent_fraction_oracle(kinds, cap):
    outward, alternatives, cost = make_oracle(kinds, cap)
    tables = KnownLayoutTables(tuple(KIND[k] for k in kinds), cap)
    assert tables.converged
    plates = len(kinds)
    for p in range(plates + 1):
        for t in range(1, cap + 1):
            assert abs(tables.outward_value(p, t) - float(outward(p, t))) < TOLERANCE, (p, t)
            expected = dict(alternatives(p, t))
            got = dict(tables.outward_alternatives(p, t))
            assert set(got) == set(expected)
            for action, value in expected.items():
                assert abs(got[action] - float(value)) < TOLERANCE, (p, t, action)
        # the return table (tokens never negative)
        for t in range(0, cap + 1):
            if p >= 2:
                assert abs(tables.back.cost_at(p, t) - float(cost(p, t))) < TOLERANCE, (p, t)


def test_oracle_hand_checked_on_the_shortest_route():
    # One token on two plates: every successful roll costs at least one token, so the outward camper is always
    # eliminated: value 0.
    outward, _, cost = make_oracle((N, N), 1)
    assert outward(0, 1) == 0
    # Returning from plate 2 with 0 tokens: announce 1, every roll beats it and costs roll - 1: E = 7 - 1 = 6.
    assert cost(2, 0) == 6


def test_issue_example_recover_flips_under_the_rulebook_reading():
    """Issue 7 section 1: returning on plate 11, "marker 20, tokens -3" (by the rulebook: marker 17, 0 tokens),
    Comforts pending. The oracle alone: recover 15.333, decline 15.667 (the old reading ranked recover at
    18.667); the DP must agree."""
    _, _, cost = make_oracle((N,) * 20, 100)
    recover, decline = 17 - cost(11, 3), 17 - cost(11, 0)
    assert float(recover) == pytest.approx(15 + 1 / 3, abs=1e-12)
    assert float(decline) == pytest.approx(15 + 2 / 3, abs=1e-12)
    tables = KnownLayoutTables((PlateKind.NORMAL,) * 20, 100)
    assert 17 - tables.back.cost_at(11, 3) == pytest.approx(float(recover), abs=TOLERANCE)
    assert 17 - tables.back.cost_at(11, 0) == pytest.approx(float(decline), abs=TOLERANCE)


def test_72_plate_25_token_value_and_policy_equal_the_independent_oracle():
    """Issue 13: the headline figure 69.894372 and the whole optimal policy, from the oracle alone (exact
    Fractions), compared with the DP the service answers from."""
    outward, alternatives, _ = make_oracle((N,) * 72, 25)
    value = outward(0, 25)
    assert f"{float(value):.6f}" == "69.894372"
    tables = KnownLayoutTables((PlateKind.NORMAL,) * 72, 25)
    assert abs(tables.outward_value(0, 25) - float(value)) < 1e-9
    for p in range(0, 73):
        for t in range(1, 26):
            expected = dict(alternatives(p, t))
            best = max(expected.values())
            got = dict(tables.outward_alternatives(p, t))
            chosen = max(got, key=got.get)
            assert expected[chosen] == best or float(best - expected[chosen]) < 1e-12, (p, t, chosen)
