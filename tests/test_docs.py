"""The docs stay honest: every test a reading cites exists, and the docs are readable on their own.

Rule readings live in docs/rules/*.md (one file per game plus the index), solver explanations in docs/solvers/*.md.
README examples really run (tests/test_readme.py).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
GAMES = ("happy-campers", "deluxe-camping", "campsite", "camper-tour", "adventure-tours")
RULE_DOCS = sorted((DOCS / "rules").glob("*.md")) + sorted((DOCS / "solvers").glob("*.md")) + [DOCS / "architecture.md"]
CITATION = re.compile(r"(tests/[\w/]+\.py)::(\w+)")
#: Longest line any doc may have (table rows included); prose is wrapped at about 120 characters.
MAX_LINE = 1000
#: What a reader cannot follow: paths outside the repository and the project's internal work items.
UNREADABLE = re.compile(r"\.\./shared|\bissues? #?\d+|\bstop \d+\b|§")


def cited_tests() -> list[tuple[str, str, str]]:
    found = []
    for doc in RULE_DOCS:
        for path, name in CITATION.findall(doc.read_text()):
            found.append((doc.relative_to(ROOT).as_posix(), path, name))
    return found


def test_every_game_has_a_rules_doc_that_cites_tests() -> None:
    assert (DOCS / "rules" / "README.md").exists()
    assert not (DOCS / "rules.md").exists(), "the readings moved to docs/rules/"
    for game in GAMES:
        doc = DOCS / "rules" / f"{game}.md"
        assert doc.exists(), f"missing {doc.relative_to(ROOT)}"
        assert len(CITATION.findall(doc.read_text())) >= 10, f"{doc.name} should pin its readings to tests"


def test_every_cited_test_exists() -> None:
    missing = []
    for doc, path, name in cited_tests():
        source = ROOT / path
        if not source.exists() or not re.search(rf"def {name}\b", source.read_text()):
            missing.append(f"{doc}: {path}::{name}")
    assert not missing, "cited tests that do not exist:\n" + "\n".join(missing)


def test_docs_have_no_overlong_lines_nor_references_a_reader_cannot_follow() -> None:
    problems = []
    for doc in sorted(DOCS.rglob("*.md")):
        name = doc.relative_to(ROOT).as_posix()
        for number, line in enumerate(doc.read_text().splitlines(), start=1):
            if len(line) > MAX_LINE:
                problems.append(f"{name}:{number}: {len(line)} characters")
            found = UNREADABLE.search(line)
            if found:
                problems.append(f"{name}:{number}: refers to {found.group(0)!r}")
    assert not problems, "\n".join(problems)


def test_the_line_check_catches_what_it_is_meant_to() -> None:
    for text in ("see ../shared/rules/x.txt", "issue 7", "issues 12", "since stop 23", "part §4"):
        assert UNREADABLE.search(text), text
    for text in ("the rulebook's words", "a stop at plate 23", "tests/test_docs.py"):
        assert not UNREADABLE.search(text), text
