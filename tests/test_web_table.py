"""The web table in a real browser (Playwright driving Debian's headless Chromium, no browser download).

For each game: a seeded two-player game from New game to its end, the person's seat playing the hint's top move
each turn (a short hint budget, clicking the first row of the hint table; every decision the game reaches must
be one the hint ranks) against greedy bots; then the same
seeded game through the Python gRPC client must end with the same scores. A hint with a wall-clock budget is
not reproducible, so the reference takes the person's moves from the page's log (each checked to be the move the
page's hint ranked first), and recomputes everything else itself: the setup, every chance step (the page's
documented seeds), the greedy bot's moves (the service's rule of thumb) and the scores. A screenshot per game is
checked to be non-blank; with CAMPSOLVER_UPDATE_SCREENSHOTS=1 it refreshes the copy kept in docs/web/.
"""

from __future__ import annotations

import os
import struct
import tempfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from campsolver.clients.client import CampsolverClient, CampsolverError
from campsolver.service.registry import GAME_TABLE, games
from campsolver.service.server import CampsolverServer, ServerConfig
from google.protobuf import json_format

ROOT = Path(__file__).resolve().parents[1]
#: The screenshots kept in docs/ are refreshed only when asked (`CAMPSOLVER_UPDATE_SCREENSHOTS=1`), so a test run
#: leaves the tree as it found it; otherwise they go to a temporary folder (each is checked non-blank either way).
SCREENSHOTS = (ROOT / "docs" / "web" if os.environ.get("CAMPSOLVER_UPDATE_SCREENSHOTS") == "1"
               else Path(tempfile.gettempdir()) / "campsolver-web-screenshots")
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
#: The page's seats for these tests: the person first, greedy bots after (deterministic, so replayable); as many
#: as the game's smallest multi-player table.
PLAYERS = {"adventure-tours": 3}


def seats_of(game_name: str) -> tuple[str, ...]:
    return ("person",) + ("greedy",) * (PLAYERS.get(game_name, 2) - 1)
#: What the page's GAMES table says: how a Hint request holds the state, where an alternative keeps its move.
HINT_STATE = {"happy-campers": "game", "campsite": "game"}
ALT_MOVE = {"campsite": "play"}
GREEDY_SECONDS = 0.01
HINT_SECONDS = 0.15
#: Long games (seconds of browser play each) run with `make test-slow`; Camper Tour stays in the default suite.
FAST_GAME = "camper-tour"


@pytest.fixture(scope="session")
def browser_type_launch_args() -> dict[str, Any]:
    """pytest-playwright's launch arguments: the system Chromium, headless, nothing fetched from the network."""
    return {"executable_path": CHROMIUM, "args": CHROMIUM_ARGS, "headless": True}


@pytest.fixture(scope="module")
def server() -> Iterator[CampsolverServer]:
    running = CampsolverServer(ServerConfig(port=0, http_port=0, workers=2))
    running.start()
    assert running.http is not None and running.http.wait_started()
    yield running
    running.stop(grace_s=2.0)


def start_game(page: Any, url: str, game_name: str, seed: int) -> None:
    page.goto(f"{url}/?fast=1")
    page.select_option("#game", game_name)
    page.select_option("#players", str(len(seats_of(game_name))))
    for seat, kind in enumerate(seats_of(game_name)):
        page.select_option(f"#seat-{seat}", kind)
    page.fill("#seed", str(seed))
    page.fill("#hint-seconds", str(HINT_SECONDS))
    page.click("#new-game")


def play_to_the_end(page: Any, max_turns: int = 400) -> dict[str, Any]:
    """Click Hint and then the top-ranked move whenever the person is to move, until the game is over. Where the
    hint refuses the position (INVALID_ARGUMENT, e.g. a setup step it does not rank), the page says so and the
    person plays the first of the Legal moves instead; the table returned counts those turns."""
    refused = 0
    for _ in range(max_turns):
        page.wait_for_function(
            "(refused) => window.table.done || window.table.errors.length > refused"
            " || !document.getElementById('hint').disabled",
            arg=refused, timeout=120_000,
        )
        table = page.evaluate("() => window.table")
        assert len(table["errors"]) == refused, table["errors"]
        if table["done"]:
            return {**table, "hint_refused": refused}
        page.click("#hint")
        page.wait_for_function(
            "(refused) => !document.getElementById('hint-table').hidden || window.table.errors.length > refused",
            arg=refused, timeout=60_000,
        )
        if page.evaluate("() => window.table.errors.length") > refused:
            refused += 1
            assert page.inner_text("#error").startswith("invalid_argument: "), page.inner_text("#error")
            page.click("#legal")
            page.click("#legal-list li >> nth=0")
        else:
            page.click("#hint-table tbody tr[data-rank='1']")
        page.wait_for_function("(ply) => window.table.ply > ply", arg=table["ply"], timeout=60_000)
    raise AssertionError(f"no end after {max_turns} of the person's turns")


def replay(client: CampsolverClient, game_name: str, seed: int, page_log: list[dict[str, Any]]) -> list[int]:
    """The same seeded game through the gRPC client: the final scores. Bot moves and chance are recomputed."""
    game = games()[game_name]
    service = client.game(game_name)
    state_key, move_key = HINT_STATE.get(game_name, "state"), ALT_MOVE.get(game_name, "move")

    def request(rpc: str, body: dict[str, Any]) -> Any:
        return json_format.ParseDict(body, game.by_rpc(rpc).request_type())

    seats = seats_of(game_name)
    response = service.call("NewGame", request("NewGame", {"players": len(seats), "seed": seed}), timeout=60)
    ply = 0
    while not response.turn.game_over:
        state = json_format.MessageToDict(response.state)
        body: dict[str, Any] = {"state": state, "seed": seed * 1000 + ply}
        if not response.turn.chance_next:
            seat = response.turn.to_move
            logged = page_log[ply]
            assert logged["seat"] == seat, (ply, logged)
            if seats[seat] == "person":
                body["move"] = logged["move"]
            else:
                hint_body = {state_key: state, "options": {"timeLimitSeconds": GREEDY_SECONDS}}
                try:
                    hint = service.call("Hint", request("Hint", hint_body), timeout=60)
                    body["move"] = json_format.MessageToDict(getattr(hint.alternatives[0], move_key))
                except CampsolverError as error:  # as the page's bot: a position the hint refuses
                    assert error.code == grpc.StatusCode.INVALID_ARGUMENT, error
                    legal = service.call("LegalMoves", request("LegalMoves", {state_key: state}), timeout=60)
                    body["move"] = json_format.MessageToDict(legal.moves[0])
                assert body["move"] == logged["move"], (ply, "the page's greedy bot played another move")
        response = service.call("Play", request("Play", body), timeout=60)
        ply += 1
    assert ply == len(page_log), "the page played a different number of steps"
    return list(response.turn.scores)


def png_is_not_blank(data: bytes) -> bool:
    """Whether a PNG's pixels vary: many distinct byte values, and thousands of bytes off the background."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    offset, idat = 8, b""
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset:offset + 4])
        kind = data[offset + 4:offset + 8]
        if kind == b"IDAT":
            idat += data[offset + 8:offset + 8 + length]
        offset += 12 + length
    pixels = zlib.decompress(idat)
    most_common = max(set(pixels), key=pixels.count)
    drawn = len(pixels) - pixels.count(most_common)
    return len(set(pixels)) > 32 and drawn > 2000


GAME_CASES = [
    pytest.param(name, marks=() if name == FAST_GAME else pytest.mark.slow) for name in GAME_TABLE
]


@pytest.mark.parametrize("game_name", GAME_CASES)
def test_a_seeded_game_in_the_browser_ends_with_the_python_clients_scores(
    page: Any, server: CampsolverServer, game_name: str
) -> None:
    assert server.http is not None
    seed = 3
    start_game(page, server.http.url, game_name, seed)
    table = play_to_the_end(page)
    final = page.inner_text("#final")
    assert "Final scores" in final and ("Winner" in final or "No winner" in final)
    persons = [entry for entry in table["log"] if entry["seat"] == 0]
    assert persons and all(entry["move"] for entry in persons)
    assert table["hint_refused"] == 0, "the hint refused a position the game reached (the page said so)"
    with CampsolverClient(server.address) as client:
        assert replay(client, game_name, seed, table["log"]) == table["finalScores"]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot = page.screenshot(full_page=True)
    assert png_is_not_blank(page.locator("#board").screenshot()), "the board is blank"
    assert png_is_not_blank(shot)
    (SCREENSHOTS / f"{game_name}.png").write_bytes(shot)


def test_the_hint_table_and_an_illegal_moves_readable_error(page: Any, server: CampsolverServer) -> None:
    assert server.http is not None
    start_game(page, server.http.url, FAST_GAME, seed=5)
    page.wait_for_function("() => !document.getElementById('hint').disabled", timeout=60_000)
    played = page.evaluate("() => window.table.ply")  # the bot may have moved first
    # The hint table: every ranked move with its value, standard error, loss and note, and the proof status.
    page.fill("#hint-seconds", "1")
    page.click("#hint")
    page.wait_for_selector("#hint-table:not([hidden]) tbody tr", timeout=60_000)
    rows = page.locator("#hint-table tbody tr")
    assert rows.count() >= 2
    first = rows.nth(0).locator("td").all_inner_texts()
    assert first[0] == "1" and first[1] and first[4] in ("0", "—"), first
    assert page.inner_text("#hint-summary").startswith("proof: ")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / "hint-table.png").write_bytes(page.screenshot(full_page=True))
    page.click("#move-entry summary")
    page.fill("#move-json", '{"announce": 99}')
    page.click("#play-json")
    error = page.locator("#error")
    error.wait_for(state="visible", timeout=30_000)
    text = error.inner_text()
    assert text.startswith("invalid_argument: "), text
    assert "move" in text and "99" in text, text
    page.fill("#move-json", "not json")
    page.click("#play-json")
    page.wait_for_function("() => document.getElementById('error').textContent.includes('not JSON')")
    assert page.evaluate("() => window.table.ply") == played, "nothing was played"
    assert not page.is_disabled("#hint"), "the person may still move"
