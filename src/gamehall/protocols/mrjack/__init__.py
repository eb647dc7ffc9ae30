"""The Mr. Jack in New York protocol: Prolog-style terms, one per line (``mrjack-newyork.md``).

- :mod:`.terms`: the term subset of the seed, read and written in both wire styles;
- :mod:`.codec`: line framing (LF, CR dropped, 4096-byte cap, UTF-8 with a Latin-1 fallback);
- :mod:`.messages`, :mod:`.texts`: the seed's messages and ``ok``/``err`` texts;
- :mod:`.seating`: which game ``init`` joins, and the ``ison`` roster;
- :mod:`.dialogue`: one connection's state machine over the hall.
"""
