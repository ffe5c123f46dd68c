"""The by-name matching every derived enum map is built with (`service.games.enum_maps`): each proto value to the
member of its own name, UNSPECIFIED only where a default is given, synonyms only where listed, and drift (a value
or a synonym with no counterpart) refused at import. tests/test_proto_maps.py pins the maps themselves."""

from __future__ import annotations

import enum

import pytest
from campsolver.service.games import enum_maps

from campsolver.v1 import adventure_tours_pb2, camper_tour_pb2, common_pb2, deluxe_camping_pb2


class Stage(enum.Enum):
    POOL = "pool"
    MYSTERY = "mystery"
    BUNGALOW = "bungalow"
    TRAILER = "trailer"
    REVEAL = "reveal"
    MOVE = "move"
    BARRIER = "barrier"
    OVER = "over"


def test_the_prefix_is_the_type_name_in_upper_snake_case() -> None:
    assert enum_maps.prefix(deluxe_camping_pb2.DeluxeCampingStage) == "DELUXE_CAMPING_STAGE_"
    assert enum_maps.prefix(camper_tour_pb2.PlateKind) == "PLATE_KIND_"
    assert enum_maps.prefix(common_pb2.ProofStatus) == "PROOF_STATUS_"


def test_each_value_maps_to_the_member_of_its_name_and_back() -> None:
    table = enum_maps.from_proto(deluxe_camping_pb2.DeluxeCampingStage, Stage)
    assert {deluxe_camping_pb2.DeluxeCampingStage.Name(n): m.name for n, m in table.items()} == {
        f"DELUXE_CAMPING_STAGE_{m.name}": m.name for m in Stage
    }
    assert enum_maps.to_proto(table) == {
        m: deluxe_camping_pb2.DeluxeCampingStage.Value(f"DELUXE_CAMPING_STAGE_{m.name}") for m in Stage
    }


def test_unspecified_reads_as_the_default_given_and_is_never_written() -> None:
    table = enum_maps.from_proto(deluxe_camping_pb2.DeluxeCampingStage, Stage, unspecified=Stage.MOVE)
    assert table[deluxe_camping_pb2.DELUXE_CAMPING_STAGE_UNSPECIFIED] is Stage.MOVE
    assert enum_maps.to_proto(table)[Stage.MOVE] == deluxe_camping_pb2.DELUXE_CAMPING_STAGE_MOVE
    assert 0 not in enum_maps.to_proto(table).values()
    assert deluxe_camping_pb2.DELUXE_CAMPING_STAGE_UNSPECIFIED not in enum_maps.from_proto(
        deluxe_camping_pb2.DeluxeCampingStage, Stage
    )


def test_a_value_naming_no_member_is_refused() -> None:
    class Short(enum.Enum):
        POOL = 1

    with pytest.raises(ValueError, match="DELUXE_CAMPING_STAGE_MYSTERY names no member of Short"):
        enum_maps.from_proto(deluxe_camping_pb2.DeluxeCampingStage, Short)


def test_synonyms_are_read_as_listed_and_a_synonym_of_no_value_is_refused() -> None:
    class Floor(enum.Enum):
        PILE = "money pile"
        ROUND = "per round"

    table = enum_maps.from_proto(
        adventure_tours_pb2.AdventureMoneyFloor, Floor, read_as={"MONEY_PILE": Floor.PILE, "PER_ROUND": Floor.ROUND}
    )
    assert table == {
        adventure_tours_pb2.ADVENTURE_MONEY_FLOOR_MONEY_PILE: Floor.PILE,
        adventure_tours_pb2.ADVENTURE_MONEY_FLOOR_PER_ROUND: Floor.ROUND,
    }
    with pytest.raises(ValueError, match="does not have"):
        enum_maps.from_proto(
            adventure_tours_pb2.AdventureMoneyFloor,
            Floor,
            read_as={"MONEY_PILE": Floor.PILE, "PER_ROUND": Floor.ROUND, "PER_GAME": Floor.ROUND},
        )
