"""Proto enums <-> the rules model's and solvers' Python enums, matched by name.

A proto value is named after its enum type and the member it stands for (`DeluxeCampingStage` has
`DELUXE_CAMPING_STAGE_POOL` for `Stage.POOL`), so the mapping is read off the names rather than written out: a
value added on one side without the other fails at import, and tests/test_proto_maps.py pins every mapping by
name from outside. Only values whose names differ are spelled out (`read_as`), and each game keeps its hand-written
maps where the names genuinely differ (said where they are).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from typing import TypeVar

from google.protobuf.internal.enum_type_wrapper import EnumTypeWrapper

E = TypeVar("E", bound=enum.Enum)

UNSPECIFIED = "UNSPECIFIED"


def prefix(proto_enum: EnumTypeWrapper) -> str:
    """The prefix of every value name of a proto enum: its type name in upper snake case (`PlateKind` ->
    `PLATE_KIND_`), as buf's ENUM_VALUE_PREFIX rule requires."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", proto_enum.DESCRIPTOR.name).upper() + "_"


def from_proto(
    proto_enum: EnumTypeWrapper,
    members: type[E],
    *,
    unspecified: E | None = None,
    read_as: Mapping[str, E] | None = None,
) -> dict[int, E]:
    """Every value of `proto_enum` -> the member of `members` of its own name (the name after the prefix).

    `unspecified`: what the `_UNSPECIFIED` value reads as (None: it is left out, so the caller refuses it).
    `read_as`: the values, by their name after the prefix, that stand for a member of another name.
    ValueError when a value names no member: the two enums have drifted apart.
    """
    start = prefix(proto_enum)
    extra = dict(read_as or {})
    table: dict[int, E] = {}
    for value in proto_enum.DESCRIPTOR.values:
        if not value.name.startswith(start):
            raise ValueError(f"{value.name} does not start with its enum's prefix {start}")
        name = value.name[len(start) :]
        if name == UNSPECIFIED:
            if unspecified is not None:
                table[value.number] = unspecified
            continue
        if name in extra:
            table[value.number] = extra.pop(name)
        elif name in members.__members__:
            table[value.number] = members[name]
        else:
            raise ValueError(f"{value.name} names no member of {members.__name__}")
    if extra:
        raise ValueError(f"read_as names values {sorted(extra)} that {proto_enum.DESCRIPTOR.name} does not have")
    return table


def to_proto(table: Mapping[int, E]) -> dict[E, int]:
    """The inverse of a `from_proto` table: each member to the value of its own name (never UNSPECIFIED)."""
    return {member: number for number, member in table.items() if number}
