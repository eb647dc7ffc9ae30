"""Test-suite wide setup.

Tests are imported with ``--import-mode=importlib`` so that two layers may each have, say, a
``test_codec.py``. That mode does not put a test's folder on ``sys.path``, so helper modules that
live beside the tests of one package (oracles, fixtures builders) are made importable here.
Their names must stay unique across the suite.
"""

from __future__ import annotations

import sys
from pathlib import Path

_TESTS = Path(__file__).parent
for folder in sorted(
    {p.parent for p in _TESTS.rglob("*.py") if not p.name.startswith(("test_", "conftest"))}
):
    if str(folder) not in sys.path:
        sys.path.append(str(folder))

pytest_plugins = ["node_fixtures"]  # importable once the folders above are on sys.path
