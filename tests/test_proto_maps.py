"""Every game service's enum mappings (`service/games/<game>/convert.py`), pinned by name: each proto value maps
to the model member of its own name (the proto name ends with the member's), both ways, and every value of the
proto enum is understood. The expectation comes from the names, never from the mapping itself (most maps are now
derived from the names by `enum_maps`, and this test reads the names on its own); the few values that are not
names of a member (an UNSPECIFIED default, a synonym) are listed here with the member the service documents for
them. Proof statuses are pinned in tests/test_proof_labels.py. Found by the mutation run: `HINT_MODE_OWN_MAP` read
as the solo mode survived every test."""

from __future__ import annotations

import enum
import importlib

import pytest

from campsolver.v1 import common_pb2

#: (game, mapping) -> the proto enum it speaks.
MAPS = {
    ("happy_campers", "CHALLENGE_FROM_PROTO"): "Challenge",
    ("happy_campers", "CHALLENGE_TO_PROTO"): "Challenge",
    ("happy_campers", "HINT_MODE_FROM_PROTO"): "HintMode",
    ("happy_campers", "OBJECTIVE_FROM_PROTO"): "HintObjective",
    ("deluxe_camping", "STAGE_FROM_PROTO"): "DeluxeCampingStage",
    ("deluxe_camping", "STAGE_TO_PROTO"): "DeluxeCampingStage",
    ("deluxe_camping", "MAX_OBJECTIVE_FROM_PROTO"): "DeluxeCampingMaxObjective",
    ("deluxe_camping", "HINT_OBJECTIVE_FROM_PROTO"): "Objective",
    ("deluxe_camping", "HINT_LEAF_FROM_PROTO"): "DeluxeCampingHintLeaf",
    ("campsite", "TERRAIN_FROM_PROTO"): "Terrain",
    ("campsite", "TERRAIN_TO_PROTO"): "Terrain",
    ("campsite", "TOKEN_FROM_PROTO"): "TentToken",
    ("campsite", "TOKEN_TO_PROTO"): "TentToken",
    ("camper_tour", "PLATE_FROM_PROTO"): "PlateKind",
    ("camper_tour", "PLATE_TO_PROTO"): "PlateKind",
    ("camper_tour", "PHASE_FROM_PROTO"): "CamperPhase",
    ("camper_tour", "PHASE_TO_PROTO"): "CamperPhase",
    ("camper_tour", "PENDING_FROM_PROTO"): "PendingEffect",
    ("camper_tour", "PENDING_TO_PROTO"): "PendingEffect",
    ("camper_tour", "TOKEN_RULE_FROM_PROTO"): "TokenRule",
    ("camper_tour", "NO_PARKING_FROM_PROTO"): "NoParkingReturn",
    ("camper_tour", "COMFORTS_FROM_PROTO"): "ComfortsChoice",
    ("camper_tour", "COMFORTS_TO_PROTO"): "ComfortsChoice",
    ("camper_tour", "OBJECTIVE_FROM_PROTO"): "Objective",
    ("camper_tour", "OBJECTIVE_TO_PROTO"): "Objective",
    ("adventure_tours", "COLOUR_FROM_PROTO"): "AdventureColour",
    ("adventure_tours", "COLOUR_TO_PROTO"): "AdventureColour",
    ("adventure_tours", "ACTION_FROM_PROTO"): "AdventureAction",
    ("adventure_tours", "ACTION_TO_PROTO"): "AdventureAction",
    ("adventure_tours", "ABILITY_FROM_PROTO"): "AdventureAbility",
    ("adventure_tours", "VARIATION_FROM_PROTO"): "AdventureVariation",
    ("adventure_tours", "OBJECTIVE_FROM_PROTO"): "Objective",
    ("campsite", "GAME_STAGE_FROM_PROTO"): "CampsiteStage",
    ("campsite", "GAME_STAGE_TO_PROTO"): "CampsiteStage",
    ("camper_tour", "TOKEN_RULE_TO_PROTO"): "TokenRule",
    ("camper_tour", "NO_PARKING_TO_PROTO"): "NoParkingReturn",
    ("adventure_tours", "MONEY_FLOOR_FROM_PROTO"): "AdventureMoneyFloor",
    ("adventure_tours", "VARIATION_TO_PROTO"): "AdventureVariation",
}
#: Members a state message never carries (names of the member), so they have no proto value.
NOT_ON_THE_WIRE = {
    # A Campsite move is a card and its tent in one Play: a whole-game state is never between the two.
    ("campsite", "GAME_STAGE_TO_PROTO"): {"TENT"},
}
#: Proto values that are not the name of a member: the member each stands for (defaults and synonyms).
READ_AS = {
    ("happy_campers", "HINT_MODE_UNSPECIFIED"): "OWN_MAP",
    ("happy_campers", "HINT_OBJECTIVE_UNSPECIFIED"): "OWNER_WORST",
    ("deluxe_camping", "DELUXE_CAMPING_STAGE_UNSPECIFIED"): "MOVE",
    ("deluxe_camping", "DELUXE_CAMPING_MAX_OBJECTIVE_UNSPECIFIED"): "OWN",
    ("deluxe_camping", "OBJECTIVE_UNSPECIFIED"): "MARGIN",
    ("deluxe_camping", "OBJECTIVE_EXPECTED_SCORE"): "OWN",
    ("deluxe_camping", "DELUXE_CAMPING_HINT_LEAF_UNSPECIFIED"): "REPLY",  # the reply search, the default
    ("camper_tour", "CAMPER_PHASE_UNSPECIFIED"): "OUTWARD",
    ("camper_tour", "PENDING_EFFECT_UNSPECIFIED"): "NONE",
    ("camper_tour", "TOKEN_RULE_UNSPECIFIED"): "SUPPLY",
    ("camper_tour", "NO_PARKING_RETURN_UNSPECIFIED"): "TOWARD_START",
    ("adventure_tours", "ADVENTURE_VARIATION_UNSPECIFIED"): "NONE",
    ("adventure_tours", "OBJECTIVE_UNSPECIFIED"): "MARGIN",
    ("adventure_tours", "ADVENTURE_MONEY_FLOOR_UNSPECIFIED"): "PILE",
}


def _convert(game: str):
    """The game's conversion module (where its enum maps live)."""
    return importlib.import_module(f"campsolver.service.games.{game}.convert")


def _proto_enum(game: str, name: str):
    module = _convert(game)
    for owner in (module.pb, common_pb2):
        if name in owner.DESCRIPTOR.enum_types_by_name:
            return owner.DESCRIPTOR.enum_types_by_name[name]
    raise AssertionError(f"no proto enum {name}")


def _reads_as(game: str, proto_name: str, member: enum.Enum) -> bool:
    expected = READ_AS.get((game, proto_name))
    return member.name == expected if expected else proto_name.endswith("_" + member.name)


def test_every_mapping_of_every_handler_is_listed() -> None:
    found = set()
    for game in {g for g, _ in MAPS}:
        module = _convert(game)
        found |= {
            (game, name)
            for name, value in vars(module).items()
            if name.isupper()
            and name != "PROOF_TO_PROTO"
            and isinstance(value, dict)
            and value
            and all(isinstance(k, enum.Enum) != isinstance(v, enum.Enum) for k, v in value.items())
        }
    assert found == set(MAPS)


@pytest.mark.parametrize(("game", "mapping"), sorted(MAPS))
def test_each_proto_value_maps_to_the_member_of_its_own_name(game: str, mapping: str) -> None:
    module = _convert(game)
    table = getattr(module, mapping)
    proto = _proto_enum(game, MAPS[game, mapping])
    names = {value.number: value.name for value in proto.values}
    if mapping.endswith("_FROM_PROTO"):
        pairs = list(table.items())
        # every value of the game's own enum is understood (an UNSPECIFIED left out is refused as unspecified);
        # the shared Objective enum holds every game's objectives, each game reads its own
        if MAPS[game, mapping] in module.pb.DESCRIPTOR.enum_types_by_name:
            unread = {names[n] for n in set(names) - set(table)}
            assert unread <= {n for n in names.values() if n.endswith("_UNSPECIFIED")}
    else:
        pairs = [(n, m) for m, n in table.items()]
        skipped = NOT_ON_THE_WIRE.get((game, mapping), set())
        members = {member for member in type(next(iter(table))) if member.name not in skipped}
        assert set(table) == members, "every member has a proto value"
    assert all(n in names for n, _ in pairs)
    assert {names[n]: m.name for n, m in pairs if not _reads_as(game, names[n], m)} == {}


#: The values of the shared Objective enum each game's hint reads, as its request documents them (the game's own
#: proto: "Default (UNSPECIFIED): MARGIN ... EXPECTED_SCORE: own score"); an UNSPECIFIED left out is the handler's
#: default by table size (Camper Tour), a value left out is refused.
SHARED_OBJECTIVES_READ = {
    ("deluxe_camping", "HINT_OBJECTIVE_FROM_PROTO"): {
        "OBJECTIVE_UNSPECIFIED",
        "OBJECTIVE_MARGIN",
        "OBJECTIVE_EXPECTED_SCORE",
    },
    ("camper_tour", "OBJECTIVE_FROM_PROTO"): {"OBJECTIVE_WIN_PROBABILITY", "OBJECTIVE_EXPECTED_SCORE"},
    ("adventure_tours", "OBJECTIVE_FROM_PROTO"): {
        "OBJECTIVE_UNSPECIFIED",
        "OBJECTIVE_MARGIN",
        "OBJECTIVE_EXPECTED_SCORE",
        "OBJECTIVE_WIN_PROBABILITY",
    },
}


@pytest.mark.parametrize(("game", "mapping"), sorted(SHARED_OBJECTIVES_READ))
def test_each_game_reads_the_shared_objectives_it_documents(game: str, mapping: str) -> None:
    """The shared Objective enum holds every game's objectives, so the by-name test above cannot say which a game
    must read: a value the game documents and its map lost (found by the mutation run: Deluxe Camping's MARGIN key
    turned into a second UNSPECIFIED) would be refused. Listed here from the game's proto comments."""
    assert MAPS[game, mapping] == "Objective"
    names = {value.number: value.name for value in common_pb2.Objective.DESCRIPTOR.values}
    assert {names[n] for n in getattr(_convert(game), mapping)} == SHARED_OBJECTIVES_READ[game, mapping]


def test_every_puzzle_grade_name_maps_to_the_proto_grade_of_its_name() -> None:
    from campsolver.service.games import shared

    assert {name: common_pb2.DifficultyGrade.Name(value) for name, value in shared.GRADE_BY_NAME.items()} == {
        name: f"DIFFICULTY_GRADE_{name.upper()}" for name in shared.GRADE_BY_NAME
    }
    assert set(shared.GRADE_BY_NAME.values()) == set(common_pb2.DifficultyGrade.values()) - {0}
