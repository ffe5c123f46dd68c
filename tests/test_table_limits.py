"""Play's chance listing at its limits, on a synthetic game (the rules models never reach them in one step):
`MAX_LISTED_OUTCOMES` distinct outcomes are listed and one more is RESOURCE_EXHAUSTED naming `list_outcomes`;
`MAX_LISTED_CHANCE_NODES` chance nodes are walked and one more is refused the same way."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import grpc
import pytest
from campsolver.service.errors import RequestError
from campsolver.service.games import shared
from campsolver.solver.core.game import CHANCE, TERMINAL

PLAY = shared.TablePlay(
    scores=lambda state: [0],
    winners=lambda state: [0],
    describe=lambda state: "",
    chance_label=lambda s, o: str(o),
    picture=lambda state: "",
    chance_states=False,
)


@dataclass(frozen=True)
class Fan:
    """A chance node with `width` equally likely outcomes; `nested`: each leads to a one-outcome chance node
    (so the walk visits 1 + width nodes); `merge`: every outcome ends in the same final state."""

    width: int
    nested: bool = False
    merge: bool = False
    step: int = 0  # 0: the root, 1: a nested chance node, 2: final
    label: int = 0

    def current_player(self) -> int:
        return CHANCE if self.step < 2 else TERMINAL

    def legal_actions(self) -> list[int]:
        return []

    def chance_outcomes(self) -> list[tuple[int, Fraction]]:
        if self.step == 1:
            return [(0, Fraction(1))]
        return [(i, Fraction(1, self.width)) for i in range(self.width)]

    def child(self, outcome: int) -> Fan:
        step = 1 if self.step == 0 and self.nested else 2
        label = self.label if self.step == 1 else (0 if self.merge else outcome)
        return Fan(self.width, self.nested, self.merge, step, label)

    def returns(self) -> list[float]:
        return [0.0]


def test_the_most_outcomes_are_listed_exactly() -> None:
    listed = shared.list_outcomes(Fan(shared.MAX_LISTED_OUTCOMES), PLAY)
    assert len(listed) == shared.MAX_LISTED_OUTCOMES
    assert sum(o.probability for o in listed) == 1


def test_one_outcome_more_is_resource_exhausted_naming_list_outcomes() -> None:
    with pytest.raises(RequestError) as refused:
        shared.list_outcomes(Fan(shared.MAX_LISTED_OUTCOMES + 1), PLAY)
    assert refused.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert [v.field for v in refused.value.violations] == ["list_outcomes"]


def test_the_most_chance_nodes_are_walked_and_one_more_is_refused() -> None:
    # The root plus `width` nested chance nodes, all ending in one merged outcome of probability 1.
    listed = shared.list_outcomes(Fan(shared.MAX_LISTED_CHANCE_NODES - 1, nested=True, merge=True), PLAY)
    assert [o.probability for o in listed] == [1]
    with pytest.raises(RequestError) as refused:
        shared.list_outcomes(Fan(shared.MAX_LISTED_CHANCE_NODES, nested=True, merge=True), PLAY)
    assert refused.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert [v.field for v in refused.value.violations] == ["list_outcomes"]
