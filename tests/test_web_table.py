"""The web table in a real browser (Playwright driving Debian's headless Chromium, no browser download).

A person plays by clicks only: the board's marks (a plate, a square, a piece, an edge, a card), the choice buttons
(an element, a card's turn, a token, an announcement) and Play; now and then the hint's top row instead. Checked
on the way: the page never holds another seat's hidden cards (the DOM, and every response the page received),
every visible text is at least 11 CSS px at 1280x800 and no line is clipped, the page is usable at 390x844
(no horizontal scroll, a move played by clicks), the hint table is compact, a typed move's error is one readable
line, and at the end the winner and the scores show. Whole games of Camper Tour and Adventure Tours run in the
default suite; the other three play their opening turns there and whole games with `make test-slow`.
Screenshots (start, middle, end) go to a temporary folder, or refresh docs/web/ with
CAMPSOLVER_UPDATE_SCREENSHOTS=1.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import struct
import tempfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from campsolver.service.server import CampsolverServer, ServerConfig
from campsolver.service.table_games.base import seat_letter

from tests.test_table_session import CARD_ID, hidden_all_through, hidden_cards_at, seen_in_line
from tests.web_table_driver import (
    CHROMIUM,
    CHROMIUM_ARGS,
    ClickLog,
    choose_by_clicks,
    play_game,
    players_of,
    start,
    wait_for_person,
)

ROOT = Path(__file__).resolve().parents[1]
#: The screenshots kept in docs/ are refreshed only when asked (`CAMPSOLVER_UPDATE_SCREENSHOTS=1`), so a test run
#: leaves the tree as it found it; otherwise they go to a temporary folder (each is checked non-blank either way).
SCREENSHOTS = (
    ROOT / "docs" / "web"
    if os.environ.get("CAMPSOLVER_UPDATE_SCREENSHOTS") == "1"
    else Path(tempfile.gettempdir()) / "campsolver-web-screenshots"
)
GAMES = ["happy-campers", "deluxe-camping", "campsite", "camper-tour", "adventure-tours"]
#: Whole games in the default suite (a few seconds each); the others play whole games with `make test-slow`.
WHOLE_BY_DEFAULT = ("camper-tour", "adventure-tours")
SEED = 3
#: The smallest text the page may show at 1280x800 (CSS px), HTML and SVG alike.
MIN_FONT_PX = 11.0


@pytest.fixture(scope="session")
def browser_type_launch_args() -> dict[str, Any]:
    """pytest-playwright's launch arguments: the system Chromium, headless, nothing fetched from the network."""
    return {"executable_path": CHROMIUM, "args": CHROMIUM_ARGS, "headless": True}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "viewport": {"width": 1280, "height": 800}}


@pytest.fixture(scope="module")
def server() -> Iterator[CampsolverServer]:
    running = CampsolverServer(ServerConfig(port=0, http_port=0, workers=2))
    running.start()
    assert running.http is not None and running.http.wait_started()
    yield running
    running.stop(grace_s=2.0)


# --- what the page shows ------------------------------------------------------------------------------------------

#: Every visible text node's rendered size: CSS font size for HTML, font size x the SVG's screen scale for SVG.
SMALLEST_TEXT_JS = """
(minimum) => {
  const found = [];
  let smallest = Infinity;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.textContent.trim()) continue;
    const el = node.parentElement;
    if (!el || el.closest("title") || el.closest("script") || el.closest("option")) continue;
    if (el.getClientRects().length === 0) continue;  // not shown (hidden, closed details, display none)
    let size = parseFloat(getComputedStyle(el).fontSize);
    const text = el.closest("text");
    if (text) {
      const m = text.getScreenCTM();
      size = parseFloat(getComputedStyle(text).fontSize) * Math.hypot(m.a, m.b);
    }
    smallest = Math.min(smallest, size);
    if (size < minimum - 0.01) found.push(`${size.toFixed(2)} px: ${node.textContent.trim().slice(0, 40)}`);
  }
  return {smallest, found: found.slice(0, 12)};
}
"""

#: Boxes whose content is wider than the box (a clipped or spilling line), SVG labels outside their picture,
#: and a page wider than the window.
CLIPPED_JS = """
() => {
  const found = [];
  for (const el of document.querySelectorAll("body *")) {
    if (el.closest("svg") || ["SELECT", "INPUT", "TEXTAREA", "OPTION"].includes(el.tagName)) continue;
    if (el.getClientRects().length === 0) continue;
    if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
      found.push(`${el.tagName}#${el.id}.${el.className}: ${el.scrollWidth} > ${el.clientWidth}`);
    }
    const style = getComputedStyle(el);
    if (["hidden", "clip", "auto", "scroll"].includes(style.overflowY) && el.scrollHeight > el.clientHeight + 1) {
      found.push(`${el.tagName}#${el.id}: scrolls or clips vertically ${el.scrollHeight} > ${el.clientHeight}`);
    }
  }
  for (const text of document.querySelectorAll("svg text")) {
    const svg = text.ownerSVGElement;
    if (!svg || svg.getClientRects().length === 0) continue;
    const a = text.getBoundingClientRect();
    const b = svg.getBoundingClientRect();
    if (a.width && (a.left < b.left - 1 || a.right > b.right + 1 || a.top < b.top - 1 || a.bottom > b.bottom + 1)) {
      found.push(`svg text outside its picture: ${text.textContent}`);
    }
  }
  const page = document.documentElement;
  if (page.scrollWidth > window.innerWidth) found.push(`page ${page.scrollWidth} wider than ${window.innerWidth}`);
  return found.slice(0, 12);
}
"""


def check_readable(page: Any) -> float:
    """No text under MIN_FONT_PX, nothing clipped; the smallest size found."""
    sizes = page.evaluate(SMALLEST_TEXT_JS, MIN_FONT_PX)
    assert not sizes["found"], sizes["found"]
    clipped = page.evaluate(CLIPPED_JS)
    assert not clipped, clipped
    return float(sizes["smallest"])


def png_is_not_blank(data: bytes) -> bool:
    """Whether a PNG's pixels vary: many distinct byte values, and thousands of bytes off the background."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    offset, idat = 8, b""
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        kind = data[offset + 4 : offset + 8]
        if kind == b"IDAT":
            idat += data[offset + 8 : offset + 8 + length]
        offset += 12 + length
    pixels = zlib.decompress(idat)
    most_common = max(set(pixels), key=pixels.count)
    drawn = len(pixels) - pixels.count(most_common)
    return len(set(pixels)) > 32 and drawn > 2000


def screenshot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot = page.screenshot(full_page=True)
    assert png_is_not_blank(shot)
    (SCREENSHOTS / f"{name}.png").write_bytes(shot)


# --- hidden cards ---------------------------------------------------------------------------------------------------


class Responses:
    """Every /table/ response body the page received, in order."""

    def __init__(self, page: Any) -> None:
        self.bodies: list[dict[str, Any]] = []
        page.on("response", self._seen)

    def _seen(self, response: Any) -> None:
        if "/table/" in response.url and response.request.method in ("GET", "POST"):
            with contextlib.suppress(Exception):  # a body that never arrived: nothing the page received
                self.bodies.append(json.loads(response.body()))


def table_of(server: CampsolverServer, page: Any) -> Any:
    assert server.http is not None
    return server.http.tables.table(page.evaluate("() => window.table.id"))


def check_adventure_tours_bodies(table: Any, bodies: list[dict[str, Any]]) -> int:
    """Every view and hint the page received names no card that was hidden from the person at its ply."""
    adapter = table.adapter
    states = [table.start] + [step.state for step in table.steps]
    checked = 0
    for body in bodies:
        if "ply" not in body or "error" in body:
            continue
        hidden = hidden_cards_at(adapter.parse(states[body["ply"]]), table.person)
        shown = json.dumps({k: body.get(k) for k in ("pictures", "moves", "keyLabels", "facts", "seats", "rows")})
        named = {int(n) for n in CARD_ID.findall(shown)} | {int(n) for n in re.findall(r"card:(\d+)", shown)}
        assert not named & hidden, (body["ply"], sorted(named & hidden))
        for line in body.get("log", []):
            cards = {int(n) for n in CARD_ID.findall(line["text"])}
            then = hidden_all_through(table, line["ply"]) - seen_in_line(table, line)
            assert not cards & then, line
        checked += 1
    return checked


def check_adventure_tours_dom(page: Any, table: Any) -> None:
    """The page's DOM now: no hidden card in the pictures, choices or hint rows; none in a log line that the
    person did not see at its ply."""
    hidden = hidden_cards_at(table.adapter.parse(table.state), table.person)
    html = page.evaluate(
        "() => ['pictures', 'chips', 'choice', 'hint-table', 'seats', 'facts']"
        ".map((id) => document.getElementById(id).outerHTML).join(' ')"
    )
    named = {int(n) for n in CARD_ID.findall(html)} | {int(n) for n in re.findall(r"card:(\d+)", html)}
    assert not named & hidden, sorted(named & hidden)
    lines = page.evaluate(
        "() => [...document.querySelectorAll('#log li')].map((li) => ({ply: li.value, "
        "kind: li.className, private: li.dataset.private === '1', text: li.textContent}))"
    )
    for line in lines:
        cards = {int(n) for n in CARD_ID.findall(line["text"])}
        assert not cards & (hidden_all_through(table, line["ply"]) - seen_in_line(table, line)), line


def check_campsite_dom(page: Any, table: Any, bodies: list[dict[str, Any]]) -> None:
    """The hand on the page is the person's own; no view the page received drew another hand."""
    state = table.adapter.parse(table.state)
    titles = page.evaluate(
        "() => [...document.querySelectorAll('#pictures title')].map((t) => t.textContent)"
        ".filter((t) => t.startsWith('card '))"
    )
    assert [t.split(": ", 1)[1] for t in titles] == [card.text() for card in state.hands[table.person]]
    states = [table.start] + [step.state for step in table.steps]
    for body in bodies:
        if "pictures" not in body or body.get("stage"):
            continue
        seen = table.adapter.parse(states[body["ply"]])
        hand = re.findall(r"<title>card \d+: ([^<]+)</title>", body["pictures"][1]["svg"])
        assert hand == [card.text() for card in seen.hands[table.person]]
        for line in body["log"]:
            if line["seat"] not in (None, "A") and "draw" in line["text"]:
                assert line["text"].endswith("draws a card"), line


# --- the tests --------------------------------------------------------------------------------------------------


GAME_CASES = [pytest.param(game, marks=() if game in WHOLE_BY_DEFAULT else pytest.mark.slow) for game in GAMES]


@pytest.mark.parametrize("game", GAME_CASES)
def test_a_person_plays_a_whole_game_by_clicks(page: Any, server: CampsolverServer, game: str) -> None:
    assert server.http is not None
    responses = Responses(page)
    start(page, server.http.url, game, SEED)
    smallest = check_readable(page)
    screenshot(page, f"{game}-start")
    log = play_game(page, seed=SEED, hint_every=5, stop_after=3)
    smallest = min(smallest, check_readable(page))
    screenshot(page, f"{game}-middle")
    table = table_of(server, page)
    if game == "adventure-tours":
        check_adventure_tours_dom(page, table)
    rest = play_game(page, seed=SEED + 1, hint_every=5)
    assert page.evaluate("() => window.table.done")
    moves = log.moves + rest.moves
    assert moves >= 3 and log.board + rest.board >= moves // 2, (log, rest)
    assert len(table.steps) > moves and sum(step.seat == table.person for step in table.steps) == moves
    smallest = min(smallest, check_readable(page))
    status = page.inner_text("#status")
    assert status.startswith("Game over: ") and status.count("Game over") == 1 and "to move" not in status
    assert page.is_visible("#result") and page.inner_text("#result-text") == status
    assert page.locator("#final-scores tbody tr").count() == table.players
    if game == "adventure-tours":
        check_adventure_tours_dom(page, table)
        assert check_adventure_tours_bodies(table, responses.bodies) >= moves
    if game == "campsite":
        check_campsite_dom(page, table, responses.bodies)
    screenshot(page, f"{game}-end")
    print(f"{game}: {moves} moves by clicks, smallest text {smallest:.1f} px")


@pytest.mark.parametrize("game", [g for g in GAMES if g not in WHOLE_BY_DEFAULT])
def test_the_opening_turns_by_clicks(page: Any, server: CampsolverServer, game: str) -> None:
    """The games whose whole game runs with `make test-slow`: their first turns by clicks, readable, and (for
    Campsite) the person's own hand only."""
    assert server.http is not None
    responses = Responses(page)
    start(page, server.http.url, game, SEED)
    log = play_game(page, seed=SEED, stop_after=2)
    assert log.moves == 2 and log.board >= 2, log
    if game == "campsite":
        assert log.stages == 2, "each play laid its card first, then pitched its tent"
        check_campsite_dom(page, table_of(server, page), responses.bodies)
    check_readable(page)


@pytest.mark.parametrize("game", GAMES)
def test_usable_on_a_phone(browser: Any, server: CampsolverServer, game: str) -> None:
    """390x844: no horizontal scroll at the start and after two moves made by clicks (the board shrinks to the
    width; every control stays reachable)."""
    assert server.http is not None
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        start(page, server.http.url, game, SEED)
        width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], width
        log = ClickLog()
        import random

        rng = random.Random(1)
        for _ in range(2):
            if wait_for_person(page)["done"]:
                break
            choose_by_clicks(page, rng, log)
        width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], width
        assert log.moves >= 1
        if game == "campsite":
            screenshot(page, "campsite-phone")
    finally:
        context.close()


def test_the_hint_table_is_compact(page: Any, server: CampsolverServer) -> None:
    """Deluxe Camping's setup (every placement listed): the top five rows, ties said as such, the rest on
    request, the shared note once; a row picks the move on the board and Play plays it."""
    assert server.http is not None
    start(page, server.http.url, "deluxe-camping", 2)
    page.fill("#hint-seconds", "0.3")
    page.click("#hint")
    page.wait_for_selector("#hint-table:not([hidden]) tbody tr", timeout=60_000)
    hint = page.evaluate("() => window.table.hint")
    rows = page.locator("#hint-table tbody tr")
    assert 1 <= rows.count() <= 5
    assert len(hint["rows"]) > 5 and page.is_visible("#hint-more")
    assert page.inner_text("#hint-more") == f"Show all {len(hint['rows'])} moves"
    note = page.inner_text("#hint-note")
    assert note and all(note not in text for text in rows.all_inner_texts()), "the shared note is said once"
    if hint["ties"] and hint["ties"][0]["first"] == 0:
        assert "tied with" in rows.nth(0).inner_text() and rows.nth(0).inner_text().startswith("1=")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / "hint-table.png").write_bytes(page.screenshot(full_page=True))
    page.click("#hint-more")
    assert rows.count() == len(hint["rows"])
    page.click("#hint-more")
    assert rows.count() <= 5
    before = page.evaluate("() => window.table.ply")
    rows.nth(0).click()
    assert page.locator("#pictures .hit.ghost").count() >= 1, "the row's move shows on the board"
    page.click("#play-chosen")
    page.wait_for_function("(p) => window.table.ply > p", arg=before, timeout=60_000)


def test_a_typed_move_is_the_fallback_and_its_error_one_line(page: Any, server: CampsolverServer) -> None:
    assert server.http is not None
    start(page, server.http.url, "camper-tour", 5)
    played = page.evaluate("() => window.table.ply")
    page.click("#typed summary")
    page.fill("#move-json", '{"announce": 99}')
    page.click("#play-json")
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error") == "move.announce: announce 1-10 plates, got 99"
    page.fill("#move-json", "not json")
    page.click("#play-json")
    page.wait_for_function("() => document.getElementById('error').textContent.includes('not JSON')")
    assert page.evaluate("() => window.table.ply") == played, "nothing was played"
    page.fill("#move-json", '{"announce": 1}')
    page.click("#play-json")
    page.wait_for_function("(p) => window.table.ply > p", arg=played, timeout=60_000)
    assert page.is_hidden("#error")


def test_the_readability_checks_catch_small_text_and_clipped_lines(page: Any, server: CampsolverServer) -> None:
    """The checks above are not vacuous: an 8 px text, a box cutting its line, an SVG label leaving its picture
    and a page wider than the window are each reported."""
    assert server.http is not None
    page.goto(f"{server.http.url}/?fast=1")
    assert not page.evaluate(SMALLEST_TEXT_JS, MIN_FONT_PX)["found"]
    assert not page.evaluate(CLIPPED_JS)
    page.evaluate("""() => {
      const tiny = document.createElement('p'); tiny.style.fontSize = '8px'; tiny.textContent = 'tiny words';
      const cut = document.createElement('div');
      cut.style.cssText = 'width: 60px; overflow: hidden; white-space: nowrap';
      cut.textContent = 'a line far too long for its box';
      const picture = document.createElement('div');
      picture.innerHTML = '<svg width="100" height="40" viewBox="0 0 100 40"><text x="70" y="20" font-size="14">'
        + 'outside</text></svg>';
      const wide = document.createElement('div'); wide.style.cssText = 'width: 3000px; height: 2px';
      document.body.append(tiny, cut, picture, wide);
    }""")
    small = page.evaluate(SMALLEST_TEXT_JS, MIN_FONT_PX)
    assert small["smallest"] == 8 and any("tiny words" in item for item in small["found"])
    clipped = " | ".join(page.evaluate(CLIPPED_JS))
    assert "DIV#." in clipped and "svg text outside its picture: outside" in clipped and "page 3" in clipped


@pytest.mark.parametrize("game", [g if g == "camper-tour" else pytest.param(g, marks=pytest.mark.slow) for g in GAMES])
def test_the_review_panel_shows_the_review_rpcs_totals(page: Any, server: CampsolverServer, game: str) -> None:
    """A game played to its end by clicks, then "Review this game": the panel's totals for every seat are the
    Review RPC's answer on the table's record (kept on the server), the page stays readable, and the end with its
    review is the screenshot kept in docs/web."""
    assert server.http is not None
    page.goto(f"{server.http.url}/?fast=1&review=30")
    page.select_option("#game", game)
    page.select_option("#players", str(players_of(game)))
    page.fill("#seed", str(SEED))
    page.click("#new-game")
    wait_for_person(page)
    play_game(page, seed=SEED + 2)
    assert page.evaluate("() => window.table.done")
    page.click("#review-button")
    page.wait_for_selector("#review-totals li", timeout=120_000)
    table = table_of(server, page)
    assert table.review_response is not None, "the panel answered without the Review RPC"
    summaries = {summary.player: summary for summary in table.review_response.review.players}
    items = page.locator("#review-totals li")
    assert items.count() == len(summaries) == table.players
    for index in range(items.count()):
        item = items.nth(index)
        text = item.inner_text()
        seat = item.get_attribute("data-seat")
        summary = next(s for p, s in summaries.items() if seat_letter(p) == seat)
        assert float(item.get_attribute("data-total-loss")) == pytest.approx(summary.total_loss, abs=1e-4)
        assert int(item.get_attribute("data-reviewed")) == summary.reviewed
        if summary.HasField("accuracy"):
            assert float(item.get_attribute("data-accuracy")) == pytest.approx(summary.accuracy, abs=1e-4)
        assert f"{summary.reviewed} of {summary.decisions} decisions reviewed" in text
    check_readable(page)
    screenshot(page, f"{game}-review")
