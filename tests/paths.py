"""Where the tests' data files are."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
DATA = TESTS / "data"
BAD = TESTS / "bad"
HAND = DATA / "hand.yaml"
FINANCE = DATA / "finance.yaml"
