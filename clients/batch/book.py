"""The puzzle book: GeneratePuzzle tasks for any game of the registry, and `book.html`.

`book.html` is one self-contained file (inline CSS and SVG, no script, no external resource): a title page,
one page per puzzle (question, picture, statement, grade and proof), then the solutions, one per page (the
answer picture, the answer, and the grade's evidence: a greedy player's score or a heuristic's loss beside the
statement would let a reader compute the answer; see `_puzzle_picture` for games that draw statement and answer
in one picture). Pictures print at most `PRINT_WIDTH_MM` x `PRINT_MAX_HEIGHT_MM` (solver/core/picture.py), the
size the renderers keep their smallest text readable at.
Print CSS starts every puzzle and every solution on a new page and keeps it on one: each is an A4-high column whose
picture gives up height (down to `MIN_PICTURE_MM`) when the text and the evidence need it; a page whose text needs
more than that goes on over a second sheet, never cut. The content depends only
on the puzzles (no dates, no timings), so the same seeds give the same file.
"""

from __future__ import annotations

import re
from html import escape
from typing import Any

from campsolver.clients.batch.engine import Task
from campsolver.clients.batch.service_calls import call, grade_name, proof_name, to_dict
from campsolver.service.registry import GAME_TABLE
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.picture import PRINT_MAX_HEIGHT_MM, PRINT_WIDTH_MM, print_scale, svg_size

from campsolver import __version__

GRADES = ("easy", "medium", "hard", "expert")
DEFAULT_GRADES = ("easy", "medium", "hard")


def game_title(game: str) -> str:
    return " ".join(word.capitalize() for word in game.split("-"))


def puzzle_seed(base_seed: int, index: int) -> int:
    """The generator seed of puzzle `index` (0-based) of a (game, grade): consecutive from --seed."""
    return base_seed + index


#: When the asked seed gives no puzzle (none of that grade, or none before its share of the time limit), the book
#: tries this many other seeds, this far apart, in the time left: a puzzle from a nearby seed rather than a gap.
RETRY_SEEDS = 2
RETRY_SEED_STRIDE = 1000
#: The asked seed's share of the puzzle's time limit (most of it: some puzzles need nearly all of it); the other
#: seeds share what is left equally, which is much when the asked seed had no puzzle of that grade (said at once).
FIRST_SEED_SHARE = 0.85
#: Another seed is tried only with at least this share of the time limit left (and `MIN_ATTEMPT_S`): after the asked
#: seed ran out of time, a few seconds would not make a puzzle either.
MIN_RETRY_SHARE = 0.2
MIN_ATTEMPT_S = 0.5


class PuzzleNotMade(Exception):
    """No seed gave the puzzle within its time limit; the message says which puzzle and why, in words."""


def _why(error: Exception) -> tuple[str, bool]:
    """What went wrong with one seed, in words, and whether it was the time (more time may make it)."""
    text = str(error)
    if "DEADLINE_EXCEEDED" in text:
        return "ran out of time", True
    if "no puzzle" in text:
        return "has no puzzle of that grade", False
    detail = text.split(": ", 2)[-1] if text.count(": ") >= 2 else text
    return f"failed ({detail})", False


def generate(params: dict[str, Any], budget: Budget) -> dict[str, Any]:
    """One puzzle through the game's GeneratePuzzle RPC: the envelope plus the game's solution fields.

    The asked seed gets `FIRST_SEED_SHARE` of the time limit; if it gives no puzzle, up to `RETRY_SEEDS` other
    seeds (`RETRY_SEED_STRIDE` apart) share the rest while enough is left (`MIN_RETRY_SHARE`), and the result says
    which seed made it and why the asked one did not (`retried`). If none does, `PuzzleNotMade` says in words which
    puzzle, what each seed did and what to do (a longer `--time-limit` with `--retry-failed`)."""
    asked = int(params["seed"])
    tried: list[dict[str, Any]] = []
    seeds = [asked + k * RETRY_SEED_STRIDE for k in range(1 + RETRY_SEEDS)]
    for index, seed in enumerate(seeds):
        if budget.remaining() < max(MIN_ATTEMPT_S, MIN_RETRY_SHARE * budget.time_limit_s if index else 0.0):
            break
        share = FIRST_SEED_SHARE if index == 0 else 1.0 / (len(seeds) - index)
        seconds = budget.remaining() * share
        request: dict[str, Any] = {"seed": seed}
        if params.get("grade"):
            request["grade"] = "DIFFICULTY_GRADE_" + params["grade"].upper()
        try:
            result = puzzle_result(
                call(params["game"], "puzzle", request, budget if index == len(seeds) - 1 else budget.sub_budget(share))
            )
        except RuntimeError as error:
            why, timed_out = _why(error)
            # The time given, rounded: the book's text depends on the settings, not on how long a call took.
            tried.append({"seed": seed, "why": why, "seconds": round(seconds), "timed_out": timed_out})
            continue
        if tried:
            result["retried"] = tried
        return result
    raise PuzzleNotMade(not_made_text(params, tried, budget.time_limit_s))


def not_made_text(params: dict[str, Any], tried: list[dict[str, Any]], time_limit_s: float) -> str:
    """Which puzzle the book could not make, what each seed did, and what to do, in words."""
    grade = f"{params['grade']} " if params.get("grade") else ""
    what = f"{game_title(params['game'])} {grade}puzzle from seed {params['seed']}"
    if not tried:
        return f"no {what}: its {time_limit_s:g} s time limit left no time to try"
    done = "; ".join(
        f"seed {t['seed']} {t['why']}" + (f" in its {t['seconds']} s" if t["timed_out"] else "") for t in tried
    )
    advice = (
        f"run the book again with --retry-failed and a longer --time-limit (this one was {time_limit_s:g} s)"
        if any(t["timed_out"] for t in tried)
        else "ask for another grade or other seeds (--seed)"
    )
    others = f" or the {len(tried) - 1} seed(s) tried after it" if len(tried) > 1 else ""
    return f"no {what}{others}: {done}; {advice}"


def puzzle_result(response: Any) -> dict[str, Any]:
    """A GeneratePuzzle response as the book stores it: the envelope plus the game's solution fields."""
    envelope = response.puzzle
    extra = {
        name: value
        for name, value in to_dict(response).items()
        if name.startswith("solution") or name in ("optimum", "margin")
    }
    return {
        "seed": int(envelope.seed),
        "grade": grade_name(envelope.grade),
        "proof": proof_name(envelope.proof),
        "unique": bool(envelope.unique),
        "question": envelope.question,
        "text": envelope.text,
        "svg": envelope.svg,
        "solution_text": envelope.solution_text,
        "solution_svg": envelope.solution_svg,
        "evidence": [{"name": e.name, "value": e.value, "description": e.description} for e in envelope.evidence],
        "solution_fields": extra,
    }


def book_tasks(games: list[str], grades: tuple[str, ...], count: int, base_seed: int) -> list[Task]:
    return [
        Task("book", game, "puzzle", {"game": game, "grade": grade, "seed": puzzle_seed(base_seed, index)}, generate)
        for game in games
        for grade in grades
        for index in range(count)
    ]


_CSS = """
/* Selectors name their HTML element: the inline SVG pictures use class names of their own (title, question). */
body { font-family: Georgia, 'DejaVu Serif', serif; margin: 0; color: #222; }
.page { padding: 18mm 16mm; box-sizing: border-box; min-height: 100vh; border-bottom: 1px dashed #bbb; }
section.title { display: flex; flex-direction: column; justify-content: center; text-align: center; }
section.title h1 { font-size: 34pt; margin-bottom: 4mm; }
section.title table { margin: 8mm auto; border-collapse: collapse; text-align: left; }
section.title td, section.title th, table.evidence td, table.evidence th {
  padding: 1mm 3mm; border-bottom: 1px solid #ddd; }
h2 { margin-top: 0; font-size: 18pt; }
p.question { font-size: 13pt; font-weight: bold; margin: 3mm 0 5mm; }
.picture svg { display: block; max-width: 100%; height: auto; max-height: 120mm; margin: 0 auto 4mm; }
pre { font-family: 'DejaVu Sans Mono', monospace; font-size: 8.5pt; white-space: pre-wrap; background: #f7f7f4;
      padding: 3mm; border-radius: 2mm; }
p.meta { color: #555; font-size: 10pt; }
table.evidence { border-collapse: collapse; font-size: 9pt; margin-top: 3mm; }
li.failed { color: #222; }
@page { size: A4; margin: 0; }
@media print {
  .page { min-height: auto; border: none; break-after: page; page-break-after: always; }
  .page:last-child { break-after: auto; page-break-after: auto; }
  section.title { height: 297mm; }
  /* One A4 page a puzzle (picture and statement), one a solution (picture, answer and evidence table). */
  .page { padding: 12mm PAGE_SIDE_MM; }
  .picture svg { max-height: PICTURE_HEIGHT_MM; margin-bottom: 2mm; }
  pre { font-size: 7.5pt; padding: 2mm; margin: 2mm 0; }
  p.question { margin: 2mm 0 3mm; }
  table.evidence { font-size: 8pt; margin-top: 1mm; }
  table.evidence td, table.evidence th { padding: 0.4mm 2mm; }
  /* Each puzzle and solution page is one A4 column: the text and the evidence keep their size and the picture
     takes what is left of the page (at most its print size), so a long solution stays on one page while the
     picture can shrink to the floor. */
  section.puzzle, section.solution { min-height: PAGE_HEIGHT_MM; display: flex; flex-direction: column; }
  section.puzzle > *, section.solution > * { flex: 0 0 auto; }
  section.solution > table.evidence { align-self: flex-start; }
  /* The picture starts at the floor (or its print size when smaller) and grows into the room the page has left,
     up to its print size (--print-height, set on each picture): never stretched, never below the floor. A page
     whose text needs more than the floor leaves grows onto a second sheet instead of being cut. */
  section.puzzle > .picture, section.solution > .picture {
    flex: 1 0 min(MIN_PICTURE_MM, var(--print-height)); max-height: var(--print-height); min-height: 0;
    display: flex; flex-direction: column; align-items: center; margin-bottom: 2mm; }
  section.puzzle > .picture svg, section.solution > .picture svg { flex: 1 1 0; min-height: 0; max-height: none;
                                                                   width: auto; margin: 0; }
}
"""

#: A page's height in print: A4 less a little, so that rounding never pushes a full page onto a second sheet.
PAGE_HEIGHT_MM = 296.0
#: The least a picture is shrunk to when a page's text is long: two thirds of the tallest print size, so that the
#: renderers' smallest text (2 mm at print size, solver/core/picture.py) stays above 1.3 mm. Every picture prints
#: at least 110 mm tall today; a shorter one would get blank space below it rather than be enlarged.
MIN_PICTURE_MM = 100.0

_CSS = (
    _CSS.replace("PAGE_SIDE_MM", f"{(210 - PRINT_WIDTH_MM) / 2:g}mm")
    .replace("PICTURE_HEIGHT_MM", f"{PRINT_MAX_HEIGHT_MM:g}mm")
    .replace("PAGE_HEIGHT_MM", f"{PAGE_HEIGHT_MM:g}mm")
    .replace("MIN_PICTURE_MM", f"{MIN_PICTURE_MM:g}mm")
)

_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>\s*")


def _inline_svg(picture: str) -> str:
    """An SVG string ready to sit inside HTML (declaration dropped); empty when there is no picture."""
    picture = _XML_DECLARATION.sub("", picture or "").strip()
    if not picture.startswith("<svg"):
        return ""
    try:
        width, height = svg_size(picture)
        printed = height * print_scale(width, height)
    except ValueError:  # no width and height on the root: the browser sizes it, up to the tallest print size
        printed = PRINT_MAX_HEIGHT_MM
    return f'<div class="picture" style="--print-height: {printed:.2f}mm">{picture}</div>'


def _evidence_table(evidence: list[dict[str, Any]]) -> str:
    if not evidence:
        return ""
    rows = "".join(
        f"<tr><td>{escape(e['name'])}</td><td>{e['value']:g}</td><td>{escape(e['description'])}</td></tr>"
        for e in evidence
    )
    return f'<table class="evidence"><tr><th>evidence</th><th>value</th><th>meaning</th></tr>{rows}</table>'


def render(title: str, puzzles: list[tuple[Task, dict[str, Any] | None, str | None]]) -> str:
    """The whole book; `puzzles` are (task, result, error) in book order (failed tasks are listed, not drawn)."""
    made = [(task, result) for task, result, _ in puzzles if result is not None]
    failed = [(task, error) for task, result, error in puzzles if result is None]
    counts: dict[tuple[str, str], int] = {}
    for task, result in made:
        key = (task.game, result["grade"])
        counts[key] = counts.get(key, 0) + 1
    contents = "".join(
        f"<tr><td>{escape(game_title(game))}</td><td>{escape(grade)}</td><td>{count}</td></tr>"
        for (game, grade), count in counts.items()
    )
    failures = "".join(f'<li class="failed">{escape(failure_words(task, error))}</li>' for task, error in failed)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(title)}</title>",
        f"<style>{_CSS}</style></head><body>",
        '<section class="page title">',
        f"<h1>{escape(title)}</h1>",
        f"<p>{len(made)} puzzles, each with a proven best answer and a difficulty grade. Solutions at the end.</p>",
        f"<table><tr><th>game</th><th>grade</th><th>puzzles</th></tr>{contents}</table>",
        f'<p class="meta">Made by campsolver {escape(__version__)}; every puzzle names its seed.</p>',
        f'<p class="meta">Not in this book:</p><ul>{failures}</ul>' if failures else "",
        "</section>",
    ]
    for number, (task, result) in enumerate(made, start=1):
        question = result["question"] or "Find the best answer."
        proof = result["proof"] + (", unique" if result["unique"] else "")
        picture = _puzzle_picture(result)
        # The question once on the page: in the picture where it states it (under the picture's own title), else
        # in words under the heading; the statement below the picture goes without it.
        parts += [
            f'<section class="page puzzle" id="puzzle-{number}">',
            f"<h2>Puzzle {number} &middot; {escape(game_title(task.game))} &middot; {escape(result['grade'])}</h2>",
            "" if _states_question(picture) else f'<p class="question">{escape(question)}</p>',
            _inline_svg(picture),
            f"<pre>{escape(_without_question(_statement(result), result['question']))}</pre>",
            f'<p class="meta">Seed {result["seed"]}{escape(_retried_words(result))} &middot; grade '
            f"{escape(result['grade'])} &middot; proof {escape(proof)} &middot; answer: Solution {number}, "
            "after the last puzzle</p>",
            "</section>",
        ]
    for number, (task, result) in enumerate(made, start=1):
        parts += [
            f'<section class="page solution" id="solution-{number}">',
            f"<h2>Solution {number} &middot; {escape(game_title(task.game))}</h2>",
            _inline_svg(_solution_picture(result)),
            f"<pre>{escape(_solution(result))}</pre>",
            f'<p class="meta">Grade {escape(result["grade"])}, from this evidence:</p>' if result["evidence"] else "",
            _evidence_table(result["evidence"]),
            "</section>",
        ]
    parts.append("</body></html>")
    return "\n".join(part for part in parts if part) + "\n"


#: How the batch engine writes a task's error: "ExceptionType: message".
_ERROR_TYPE = re.compile(r"^\w+(?:\([^)]*\))?: ")


def failure_words(task: Task, error: str | None) -> str:
    """A puzzle the book lacks, in words: which one and why (no exception names: a reader is not a programmer)."""
    text = (error or "").strip()
    if text.startswith(f"{PuzzleNotMade.__name__}: "):
        words = text.removeprefix(f"{PuzzleNotMade.__name__}: ")
        return words[:1].upper() + words[1:] + "."
    grade = f"{task.params['grade']} " if task.params.get("grade") else ""
    reason = _ERROR_TYPE.sub("", text)
    reason = re.sub(r"^[\w-]+ puzzle: ", "", reason)  # "happy-campers puzzle: DEADLINE_EXCEEDED: ..."
    words = {
        "DEADLINE_EXCEEDED": "it ran out of time",
        "UNAVAILABLE": "the solver was busy",
        "INTERNAL": "the solver failed",
        "INVALID_ARGUMENT": "the request was refused",
        "RESOURCE_EXHAUSTED": "a limit was reached",
    }
    code, _, detail = reason.partition(": ")
    if code in words:
        reason = f"{words[code]} ({detail})" if detail else words[code]
    return (
        f"No {game_title(task.game)} {grade}puzzle from seed {task.params['seed']}: {reason or 'no reason given'}"
        "; run the book again with --retry-failed (and a longer --time-limit if it ran out of time)."
    )


def _retried_words(result: dict[str, Any]) -> str:
    """After the seed of a puzzle made from another seed than the one asked: why the asked one was not used."""
    tried = result.get("retried") or []
    if not tried:
        return ""
    return " (" + "; ".join(f"seed {t['seed']} {t['why']}" for t in tried) + ")"


def _puzzle_picture(result: dict[str, Any]) -> str:
    """The statement's picture, only when the game draws the answer apart (`solution_svg`).

    A game that has no separate answer picture may draw the answer into `svg` (Happy Campers did, before the
    envelope split them), so its picture waits for the solution page: the book never gives an answer away.
    """
    return result["svg"] if result["solution_svg"] else ""


def _states_question(picture: str) -> bool:
    """Whether a puzzle picture writes its question (every renderer marks those lines `class="question"`)."""
    return 'class="question"' in (picture or "")


def _without_question(text: str, question: str) -> str:
    """The statement without the line that asks the question (with its label, "Question: " or "Task: "): the page
    states it already."""
    if not question:
        return text
    lines = text.splitlines()
    kept = [
        line for line in lines if not re.fullmatch(r"\s*(?:[A-Z][\w ]{0,20}:\s*)?" + re.escape(question) + r"\s*", line)
    ]
    if len(kept) == len(lines):
        return text
    cleaned = "\n".join(kept)
    return re.sub(r"\n{3,}", "\n\n", cleaned).strip("\n")


def _solution_picture(result: dict[str, Any]) -> str:
    return result["solution_svg"] or result["svg"]


def _statement(result: dict[str, Any]) -> str:
    """The statement alone: when a game still prints its answer inside `text`, cut it at the solution."""
    text: str = result["text"]
    if not result["solution_text"]:
        cut = re.search(r"^=+\s*$|^Solution\b", text, flags=re.MULTILINE)
        if cut:
            text = text[: cut.start()].rstrip()
    return text


def _solution(result: dict[str, Any]) -> str:
    if result["solution_text"]:
        return result["solution_text"]
    text: str = result["text"]
    cut = re.search(r"^=+\s*$|^Solution\b", text, flags=re.MULTILINE)
    if cut:
        return text[cut.end() :].strip()
    import json

    return json.dumps(result["solution_fields"], indent=1, sort_keys=True)


__all__ = [
    "DEFAULT_GRADES",
    "GAME_TABLE",
    "GRADES",
    "PuzzleNotMade",
    "book_tasks",
    "failure_words",
    "generate",
    "puzzle_result",
    "render",
]
