"""Encode once and cg (docs/architecture.md): cg opts out of the shared render cache on
purpose. Its packets come from each connection's own translator (card positions and values it
has been shown, its buttons) and leave through its own pacer and flavor filter, so every cg
connection translates every event for itself and leaves the room's render cache alone."""

from __future__ import annotations

import pytest
from cg_support import CgHarness, start_vs_bots

from gamehall.protocols._core import Delivery
from gamehall.protocols.cg.dialogue import CgDialogue
from gamehall.protocols.cg.game_out import GameTranslator


def test_a_cg_connection_translates_every_event_itself_and_shares_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    delivered: list[Delivery] = []
    translated: list[object] = []
    deliver, packets = CgDialogue.deliver, GameTranslator.packets

    def recording_deliver(self: CgDialogue, room_id: str, delivery: Delivery) -> None:
        delivered.append(delivery)
        deliver(self, room_id, delivery)

    def counting_packets(self: GameTranslator, event: object) -> list[object]:
        translated.append(event)
        return packets(self, event)  # type: ignore[arg-type, return-value]

    monkeypatch.setattr(CgDialogue, "deliver", recording_deliver)
    monkeypatch.setattr(GameTranslator, "packets", counting_packets)
    harness = CgHarness()
    start_vs_bots(harness)
    harness.run(20)
    assert translated, "the game did not get going"
    assert all(d.renders == {} for d in delivered)  # the cache was there, and cg left it alone
