"""Ursuppe bots: policies for in-hall bots (:mod:`.policy`), the shared judgement of a table
state (:mod:`.judgement`) and an UrServer wire client (:mod:`.wire`)."""

from gamehall.bots.ursuppe.policy import POLICIES, UrsuppePolicy

__all__ = ["POLICIES", "UrsuppePolicy"]
