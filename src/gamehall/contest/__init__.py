"""Contest mode: bot tournaments over the games' legacy protocols (issue 14).

The runner (:mod:`gamehall.contest.runner` and friends) schedules games, starts entrants and
computes standings; the hall side (:mod:`gamehall.contest.hall_side`) reserves seats, enforces
the per-move deadlines and turns a finished room into a typed :class:`~gamehall.contest.ports.GameReport`;
the browser shows a contest at ``/contest/ID``. :mod:`gamehall.contest.ports` is the contract
between them.
"""
