"""The proof vocabulary on the wire: each solver verdict becomes the proto enum value of the same name.

The expectation is read from the .proto source itself (not from `PROOF_TO_PROTO` or the generated module), so
a mapping that sends FEASIBLE_WITH_BOUND as OPTIMAL, or two verdicts to one number, fails here even though a
test comparing in-process answers with gRPC answers runs the same mapping on both sides.
"""

from __future__ import annotations

import re
from pathlib import Path

from campsolver.service.games.shared import PROOF_TO_PROTO
from campsolver.solver.core.proof import Proof

from campsolver.v1 import common_pb2

COMMON_PROTO = Path(__file__).resolve().parents[1] / "protos" / "campsolver" / "v1" / "common.proto"


def proof_status_numbers_in_the_proto_source() -> dict[str, int]:
    """`ProofStatus` as written in common.proto: name without its prefix -> number."""
    text = COMMON_PROTO.read_text()
    block = re.search(r"enum ProofStatus \{(.*?)\}", text, re.S)
    assert block is not None, "common.proto has no ProofStatus enum"
    return {name: int(number) for name, number in re.findall(r"PROOF_STATUS_(\w+)\s*=\s*(\d+);", block.group(1))}


def test_every_verdict_maps_to_the_proto_value_of_its_own_name() -> None:
    numbers = proof_status_numbers_in_the_proto_source()
    assert set(PROOF_TO_PROTO) == set(Proof)
    for proof in Proof:
        assert PROOF_TO_PROTO[proof] == numbers[proof.name], proof
        assert common_pb2.ProofStatus.Name(PROOF_TO_PROTO[proof]) == f"PROOF_STATUS_{proof.name}", proof


def test_the_mapping_is_one_to_one_onto_every_specified_status() -> None:
    numbers = proof_status_numbers_in_the_proto_source()
    specified = {number for name, number in numbers.items() if name != "UNSPECIFIED"}
    values = list(PROOF_TO_PROTO.values())
    assert len(set(values)) == len(values) == len(Proof)
    assert set(values) == specified
    assert numbers["UNSPECIFIED"] == 0 and 0 not in values  # an answer never says "no verdict" by mistake
