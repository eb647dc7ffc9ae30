"""The UrServer 1.13 line protocol for Ursuppe (spec note ``urserver-ursuppe.md``).

:mod:`.codec` frames lines, :mod:`.commands` parses a client line, :mod:`.lobby` holds the games
of one hall by their wire names, :mod:`.render` writes table events and the STATUS/SPIELFELD
blocks, and :mod:`.dialogue` is one connection's state machine.
"""
