"""Drive the web table in Chromium as a person does: by clicks on the board, the choice buttons and Play.

Shared by the browser tests (tests/test_web_table*.py) and the screenshot refresh. Playwright drives Debian's own
/usr/bin/chromium; nothing is downloaded.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: Players of each game at its smallest table.
PLAYERS = {"adventure-tours": 3}
WAIT_MS = 120_000


def players_of(game: str) -> int:
    return PLAYERS.get(game, 2)


def start(page: Any, url: str, game: str, seed: int, *, players: int | None = None, seat: int = 0) -> None:
    page.goto(f"{url}/?fast=1")
    page.select_option("#game", game)
    page.select_option("#players", str(players or players_of(game)))
    page.select_option("#seat", str(seat))
    page.fill("#seed", str(seed))
    page.click("#new-game")
    wait_for_person(page)


def wait_for_person(page: Any) -> dict[str, Any]:
    """Until the game is over or the person may move (the bots have moved); the page's table state."""
    page.wait_for_function(
        "() => window.table.errors.length > 0 || (window.table.view && !window.table.busy"
        " && (window.table.view.over || window.table.view.yourTurn))",
        timeout=WAIT_MS,
    )
    table = page.evaluate("() => ({done: window.table.done, ply: window.table.ply, errors: window.table.errors})")
    assert not table["errors"], table["errors"]
    return table


@dataclass
class ClickLog:
    """What the person did: clicks on board marks, on choice buttons, on hint rows, and moves played."""

    board: int = 0
    chips: int = 0
    lists: int = 0
    hint_rows: int = 0
    moves: int = 0
    stages: int = 0
    keys: list[str] = field(default_factory=list)


def _open(page: Any) -> list[dict[str, Any]]:
    return page.evaluate("() => candidates().map((m) => ({id: m.id, keys: m.keys, final: m.final}))")


def click_key(page: Any, key: str, log: ClickLog) -> None:
    """Click the board mark carrying `key`, or else the choice button for it."""
    selector = f"#pictures [data-key~={json.dumps(key)}]"
    if page.locator(selector).count():
        page.locator(selector).first.click()
        log.board += 1
    else:
        page.locator(f"#chips button[data-key={json.dumps(key)}]").click()
        log.chips += 1
    log.keys.append(key)


def choose_by_clicks(page: Any, rng: random.Random, log: ClickLog) -> None:
    """Pick one of the person's moves at random and single it out by clicking its keys, then press Play (a
    two-stage move: its first stage, then the second the same way)."""
    for _ in range(40):
        moves = _open(page)
        assert moves, "the person has a move but the page offers none"
        if len(moves) == 1:
            before = page.evaluate("() => window.table.ply")
            final = moves[0]["final"]
            page.click("#play-chosen")
            if final:
                log.moves += 1
                page.wait_for_function(
                    "(p) => window.table.ply > p || window.table.errors.length > 0", arg=before, timeout=WAIT_MS
                )
                return
            log.stages += 1
            page.wait_for_function(
                "() => window.table.stage !== null || window.table.errors.length > 0", timeout=WAIT_MS
            )
            assert not page.evaluate("() => window.table.errors"), page.evaluate("() => window.table.errors")
            continue
        target = rng.choice(moves)
        selection = set(page.evaluate("() => window.table.selection"))
        narrowing = [
            k for k in target["keys"] if k not in selection and 0 < sum(k in m["keys"] for m in moves) < len(moves)
        ]
        if not narrowing:  # moves that share every key: the list of matching moves picks one
            page.locator("#choice .list button").first.click()
            log.lists += 1
            continue
        click_key(page, narrowing[0], log)
    raise AssertionError("forty clicks did not single out a move")


def play_hint_row(page: Any, log: ClickLog, seconds: float = 0.2) -> None:
    """Ask for a hint, click its top row, then Play."""
    before = page.evaluate("() => window.table.ply")
    page.fill("#hint-seconds", str(seconds))
    page.click("#hint")
    page.wait_for_selector("#hint-table:not([hidden]) tbody tr", timeout=WAIT_MS)
    page.click("#hint-table tbody tr >> nth=0")
    log.hint_rows += 1
    page.click("#play-chosen")
    log.moves += 1
    page.wait_for_function("(p) => window.table.ply > p || window.table.errors.length > 0", arg=before, timeout=WAIT_MS)


def play_game(
    page: Any, *, seed: int = 0, hint_every: int = 0, max_moves: int = 400, stop_after: int | None = None
) -> ClickLog:
    """The person's moves by clicks until the game is over (or `stop_after` moves): a random move singled out
    on the board each turn, every `hint_every`-th turn the hint's top row instead."""
    rng = random.Random(seed)
    log = ClickLog()
    for turn in range(max_moves):
        table = wait_for_person(page)
        if table["done"] or (stop_after is not None and log.moves >= stop_after):
            return log
        if hint_every and turn % hint_every == hint_every - 1:
            play_hint_row(page, log)
        else:
            choose_by_clicks(page, rng, log)
    raise AssertionError(f"no end after {max_moves} of the person's moves")
