"""Comparing two answers to the same example request (in-process versus gRPC, same seed).

Solve statistics (wall time, nodes) always differ, so `stats` is left out. An answer whose stats say the
budget interrupted the method is budget-dependent (a different machine moment may reach a different depth
or incumbent): for those the fields present must agree and an interrupted answer may not claim a proof. Two
OPTIMAL answers must agree on the optimum (the solutions may be different optima). The callers assert
that at least half of the examples compare exactly, so the relaxation cannot hide a whole suite.
"""

from __future__ import annotations

from campsolver.service.registry import Command, games
from campsolver.solver.happy_campers.puzzle import SKIPPED_OVER_CAP
from google.protobuf.message import Message

from campsolver.v1 import common_pb2

IMPLEMENTED: list[tuple[str, str]] = [
    (game_name, command.cli_name)
    for game_name, game in games().items()
    for command in game.commands.values()
    if command.handler is not None
]


def command_of(game_name: str, cli_name: str) -> Command:
    return games()[game_name].commands[cli_name]


def without_stats(message: Message) -> Message:
    copy = type(message)()
    copy.CopyFrom(message)
    if "stats" in copy.DESCRIPTOR.fields_by_name:
        copy.ClearField("stats")
    if "puzzle" in copy.DESCRIPTOR.fields_by_name:
        # grade evidence holds effort measurements (branches, seconds) that differ run to run like stats do;
        # the grade itself and which evidence is given must agree
        for evidence in copy.puzzle.evidence:  # type: ignore[attr-defined]
            evidence.value = 0.0
    return copy


def budget_dependent(message: Message) -> bool:
    """Cut by its budget (`stats.interrupted`), or a Happy Campers puzzle whose seed skipped a candidate over its
    cap (said in `stats.method`: on a loaded machine the same seed may give a later candidate)."""
    if "stats" not in message.DESCRIPTOR.fields_by_name:
        return False
    stats = message.stats  # type: ignore[attr-defined]
    return stats.interrupted or SKIPPED_OVER_CAP in stats.method


def assert_same_answer(local: Message, remote: Message) -> bool:
    """Assert the two answers agree; True when they were compared field for field."""
    assert type(local) is type(remote)
    if budget_dependent(local) or budget_dependent(remote):
        assert {f.name for f, _ in local.ListFields()} == {f.name for f, _ in remote.ListFields()}
        if "proof" in local.DESCRIPTOR.fields_by_name and local.proof != remote.proof:  # type: ignore[attr-defined]
            # A run stopped by its budget may prove less than one that finished, never more: the interrupted
            # answer must not claim a proof.
            proven = {common_pb2.PROOF_STATUS_OPTIMAL, common_pb2.PROOF_STATUS_EXACT}
            for answer in (local, remote):
                if budget_dependent(answer):
                    assert answer.proof not in proven, "an interrupted solve claimed a proof"  # type: ignore[attr-defined]
        return False
    fields = local.DESCRIPTOR.fields_by_name
    objective = next((name for name in ("value", "score") if name in fields), None)
    if "proof" in fields and objective and local != remote:
        optimal = common_pb2.PROOF_STATUS_OPTIMAL
        if local.proof == remote.proof == optimal:  # type: ignore[attr-defined]
            # CP-SAT with several workers may return a different one of several optimal solutions: the proven
            # optimum must agree (each solution is re-scored by the rules model in the game's own tests).
            assert getattr(local, objective) == getattr(remote, objective)
            return False
    assert without_stats(local) == without_stats(remote)
    return True
