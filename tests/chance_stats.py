"""Goodness of fit for seeded chance draws: a chi-square test against exact probabilities, with no SciPy.

Every draw in the tests that use this comes from fixed seeds, so a test's outcome is the same on every run: the
significance level `ALPHA` only says how unlikely a failure of correct code would have been had the seeds been
drawn at random (one in a million per check), and the draw counts make a wrong distribution fail by a wide margin
(a face made impossible, or one made twice as likely, gives a statistic in the hundreds where the critical value
is about 30-60).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping
from fractions import Fraction

#: The significance level of every check (per check; fixed seeds make each outcome deterministic).
ALPHA = 1e-6
#: Draws per chance node kind in the default run (the issue's floor: 30,000).
DRAWS = 30_000


def _lower_series(a: float, x: float) -> float:
    """The regularised lower incomplete gamma P(a, x) by its series (x < a + 1)."""
    term = total = 1.0 / a
    n = a
    for _ in range(10_000):
        n += 1
        term *= x / n
        total += term
        if abs(term) < abs(total) * 1e-15:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _upper_fraction(a: float, x: float) -> float:
    """The regularised upper incomplete gamma Q(a, x) by its continued fraction (modified Lentz; x >= a + 1)."""
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def chi2_sf(statistic: float, df: int) -> float:
    """P(X >= statistic) for X chi-square with `df` degrees of freedom."""
    if statistic <= 0:
        return 1.0
    a, x = df / 2.0, statistic / 2.0
    if x < a + 1.0:
        return max(0.0, 1.0 - _lower_series(a, x))
    return _upper_fraction(a, x)


def assert_distribution(draws: Iterable[Hashable], expected: Mapping[Hashable, Fraction], what: str) -> Counter:
    """Fail unless `draws` fit `expected` (outcome -> exact probability, summing to 1): no outcome outside the
    support, every outcome of the support seen, and a chi-square statistic below the `ALPHA` critical value.
    Outcomes expected fewer than 5 times are pooled (the chi-square approximation needs it). Returns the counts."""
    assert sum(expected.values()) == 1, f"{what}: the expected probabilities do not sum to 1"
    counts = Counter(draws)
    n = sum(counts.values())
    strange = set(counts) - {o for o, p in expected.items() if p > 0}
    assert not strange, f"{what}: drew outcomes that cannot happen: {sorted(map(repr, strange))[:5]}"
    unseen = [o for o, p in expected.items() if p > 0 and counts[o] == 0 and n * p >= 5]
    assert not unseen, f"{what}: never drew {sorted(map(repr, unseen))[:5]} in {n} draws"
    cells: list[tuple[float, int]] = []
    pooled_e, pooled_o = 0.0, 0
    for outcome, p in expected.items():
        e = n * float(p)
        if e <= 0:
            continue
        if e < 5:
            pooled_e += e
            pooled_o += counts[outcome]
        else:
            cells.append((e, counts[outcome]))
    if pooled_e > 0:
        cells.append((pooled_e, pooled_o))
    if len(cells) < 2:
        return counts
    statistic = sum((o - e) ** 2 / e for e, o in cells)
    p_value = chi2_sf(statistic, len(cells) - 1)
    worst = sorted(
        ((counts[o], round(n * float(p), 1), o) for o, p in expected.items() if p > 0),
        key=lambda row: -abs(row[0] - row[1]) / math.sqrt(max(row[1], 1e-9)),
    )[:3]
    assert p_value > ALPHA, (
        f"{what}: chi-square {statistic:.1f} on {len(cells) - 1} df (p = {p_value:.2g} < {ALPHA:g}) over {n} draws; "
        f"worst (seen, expected, outcome): {worst}"
    )
    return counts
