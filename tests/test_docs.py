"""docs/rules.md stays honest: every test it cites exists. README examples really run (tests/test_readme.py)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULE_DOCS = [ROOT / "docs" / "rules.md"]
CITATION = re.compile(r"(tests/[\w/]+\.py)::(\w+)")


def cited_tests() -> list[tuple[str, str, str]]:
    found = []
    for doc in RULE_DOCS:
        for path, name in CITATION.findall(doc.read_text()):
            found.append((doc.name, path, name))
    return found


def test_rules_doc_exists_and_cites_tests() -> None:
    assert (ROOT / "docs" / "rules.md").exists()
    assert len(cited_tests()) >= 10, "docs/rules.md should pin its decisions to tests"


def test_every_cited_test_exists() -> None:
    missing = []
    for doc, path, name in cited_tests():
        source = ROOT / path
        if not source.exists() or not re.search(rf"def {name}\b", source.read_text()):
            missing.append(f"{doc}: {path}::{name}")
    assert not missing, "cited tests that do not exist:\n" + "\n".join(missing)
