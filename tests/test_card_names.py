"""One name per card: every card enum's display name comes from one table (`service.card_names`, which maps the
proto enums onto the names beside each rules model), and every surface uses exactly that name: the proto enum
comments, the CLI's `--format text`, puzzle text, score details and docs/rules/.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from campsolver.clients import textout
from campsolver.service import card_names
from google.protobuf.descriptor import EnumDescriptor, FieldDescriptor

from campsolver.v1 import adventure_tours_pb2, camper_tour_pb2, happy_campers_pb2

ROOT = Path(__file__).resolve().parents[1]
PB2 = {
    "campsolver.v1.Challenge": happy_campers_pb2,
    "campsolver.v1.AdventureAction": adventure_tours_pb2,
    "campsolver.v1.AdventureAbility": adventure_tours_pb2,
    "campsolver.v1.PlateKind": camper_tour_pb2,
}
#: Enum values that are no card: unset, "no action / no ability", an ordinary plate.
NOT_CARDS = re.compile(r"_(UNSPECIFIED|NONE|NORMAL)$")


def enum_of(full_name: str) -> EnumDescriptor:
    return PB2[full_name].DESCRIPTOR.enum_types_by_name[full_name.rsplit(".", 1)[1]]


def field_of(full_name: str) -> FieldDescriptor:
    """Some message field holding this enum (textout renders fields, not bare numbers)."""
    for message in PB2[full_name].DESCRIPTOR.message_types_by_name.values():
        for field in message.fields:
            if field.enum_type is not None and field.enum_type.full_name == full_name:
                return field
    raise AssertionError(f"no field of type {full_name}")


def test_the_table_covers_every_card_enum_and_every_card_once() -> None:
    assert set(card_names.CARD_ENUMS) == set(PB2)
    for full_name in PB2:
        names = card_names.names_of(full_name)
        cards = [v for v in enum_of(full_name).values if not NOT_CARDS.search(v.name)]
        assert sorted(names) == sorted(v.number for v in cards), full_name
        assert len(set(names.values())) == len(names), f"{full_name}: two cards share a name"
        assert all(name == name.strip() and name for name in names.values())


@pytest.mark.parametrize("full_name", sorted(PB2))
def test_proto_comments_give_each_card_its_display_name(full_name: str) -> None:
    enum = enum_of(full_name)
    source = (ROOT / "protos" / enum.file.name).read_text().splitlines()
    names = card_names.names_of(full_name)
    start = source.index(f"enum {enum.name} {{")
    for value in enum.values:
        line = next(i for i in range(start, len(source)) if source[i].strip().startswith(f"{value.name} ="))
        comment = source[line - 1].strip()
        if value.number in names:
            assert comment == f'// Display name: "{names[value.number]}".', (value.name, comment)
        else:
            assert "Display name" not in comment, value.name


@pytest.mark.parametrize("full_name", sorted(PB2))
def test_cli_text_prints_the_display_name(full_name: str) -> None:
    field = field_of(full_name)
    for number, name in card_names.names_of(full_name).items():
        assert textout._scalar(field, number) == name


def test_happy_campers_puzzle_text_and_score_details_use_the_display_names() -> None:
    from campsolver.service.games import happy_campers as hc_service
    from campsolver.solver.happy_campers import render
    from campsolver.solver.happy_campers.rules import CHALLENGE_NAMES, Challenge

    every = tuple(Challenge)
    assert render._cards(SimpleNamespace(challenges=every)) == ", ".join(CHALLENGE_NAMES[c] for c in every)
    request = hc_service.EXAMPLES["Score"]()
    scoring = [c for c in every if c is not Challenge.NOISY_NEIGHBOURS]  # it scores nothing (no detail line)
    request.challenges[:] = [hc_service.CHALLENGE_TO_PROTO[c] for c in scoring]
    response = hc_service.SERVICE.score(request, None)
    details = {d.name for d in response.score.details if d.name.startswith("challenge ")}
    assert details <= {f"challenge {CHALLENGE_NAMES[c]}" for c in scoring}
    assert details, "no challenge detail to compare"


def test_camper_tour_route_legend_uses_the_display_names() -> None:
    from campsolver.service.games import camper_tour as ct_service
    from campsolver.solver.camper_tour import render

    legend = render.text_board(ct_service.state_from_proto(ct_service.examples._example_state()))
    for kind, name in render.NAME.items():
        assert f"{render.LETTER[kind]} {name}" in legend


def test_docs_name_every_card_by_its_display_name() -> None:
    pages = sorted((ROOT / "docs" / "rules").glob("*.md")) + sorted((ROOT / "docs" / "solvers").glob("*.md"))
    docs = " ".join("\n".join(page.read_text() for page in pages).split())  # names may wrap across lines
    for full_name in PB2:
        for name in card_names.names_of(full_name).values():
            assert name in docs, f"docs/rules/ and docs/solvers/ never name {name!r} ({full_name})"
    assert "The Great Divide" not in docs, "one name per card: 'Great Divide'"
