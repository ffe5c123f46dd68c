"""Deterministic randomness: the same seed gives the same answer, everywhere.

Every random choice in campsolver draws from a `numpy.random.Generator` derived from a request seed and
a purpose label, so two phases of one request never share a stream by accident.
"""

from __future__ import annotations

import hashlib

import numpy as np


def rng_for(seed: int, *purpose: object) -> np.random.Generator:
    """A generator determined by `seed` and the purpose labels (stable across runs and platforms)."""
    digest = hashlib.sha256(repr((int(seed), *map(str, purpose))).encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:16], "little"))
