"""The cg states as data: one enum, one transition table, one way to move (``.states``), and a
package whose modules import one way."""

from __future__ import annotations

import ast
import logging
from pathlib import Path

import pytest
from cg_support import CgHarness

from gamehall.protocols.cg import states
from gamehall.protocols.cg.states import TRANSITIONS, CgState, Transition, after

CG_PACKAGE = Path(states.__file__).parent


def test_the_table_takes_a_connection_from_versioncheck_through_a_game_and_back() -> None:
    path = [
        Transition.VERSION_AGREED,
        Transition.LOGGED_IN,
        Transition.ENTERED_LOBBY,
        Transition.GAME_STARTED,
        Transition.GAME_ENDED,
        Transition.LEFT_LOBBY,
    ]
    state = CgState.VERSIONCHECK
    seen = [state]
    for transition in path:
        moved = after(state, transition)
        assert moved is not None, (state, transition)
        state = moved
        seen.append(state)
    assert seen == ["versioncheck", "auth", "active", "lobby", "game_dk", "lobby", "active"]
    assert set(TRANSITIONS) == set(Transition)


def test_no_transition_skips_the_login_or_leaves_a_game_except_by_its_end() -> None:
    assert after(CgState.VERSIONCHECK, Transition.LOGGED_IN) is None
    assert after(CgState.AUTH, Transition.ENTERED_LOBBY) is None
    assert after(CgState.GAME_DK, Transition.LEFT_LOBBY) is None
    assert after(CgState.ACTIVE, Transition.GAME_STARTED) is None


def test_a_move_the_table_does_not_allow_keeps_the_state_and_is_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    client = CgHarness().connect("alice")
    client.handshake()
    assert client.dialogue.state is CgState.AUTH
    with caplog.at_level(logging.ERROR, logger="gamehall.protocols.cg.dialogue"):
        client.dialogue.move(Transition.GAME_ENDED)
    assert client.dialogue.state is CgState.AUTH
    assert "game_ended" in caplog.text.lower() and "not in the table" in caplog.text


def _runtime_imports(module: Path) -> set[str]:
    """The package modules ``module`` imports when it runs (``TYPE_CHECKING`` blocks left out)."""
    found: set[str] = set()
    tree = ast.parse(module.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            node.body = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            if node.module == "gamehall.protocols.cg":
                found |= {alias.name for alias in node.names}
            elif node.module.startswith("gamehall.protocols.cg."):
                found.add(node.module.rsplit(".", 1)[1])
    return found


def test_the_modules_of_the_package_import_each_other_without_a_loop() -> None:
    graph = {path.stem: _runtime_imports(path) for path in CG_PACKAGE.glob("*.py")}
    done: set[str] = set()

    def visit(name: str, trail: tuple[str, ...]) -> None:
        assert name not in trail, " -> ".join((*trail, name))
        if name in done:
            return
        for imported in graph.get(name, set()):
            visit(imported, (*trail, name))
        done.add(name)

    for name in graph:
        visit(name, ())
    assert [name for name, imported in graph.items() if "dialogue" in imported] == ["spec"]
