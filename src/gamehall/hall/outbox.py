"""The outbox: what one turn of the loop wrote, committed together, then delivered in order.

Every hall call runs to the end without calling a connection back. Rooms and the hall only
*queue* here: the store writes an input caused (log entries, meta changes, new and finished
rooms) and the listener calls it caused (deliveries, ``ended``, chat, ``disconnect``). When
the outermost hall call has returned and the loop's turn is over, :meth:`Outbox.flush`
commits every queued write in one store transaction (group commit) and only then makes the
listener calls, in the order they were queued. So:

- an accepted move is in the store before anybody hears of it ("log before broadcast"),
  batch by batch;
- a dialogue never sees the hall re-enter it while its own call into the hall is on the stack,
  and may call the hall again from any listener method (what used to need per-protocol
  deferrals: ``_held_back``, ``_logout_soon``, ``call_later(0)``);
- the order of everything one room or one connection hears is the order it was queued in,
  because one queue holds every listener call of the hall.

The flush is scheduled on the hall's clock (``call_later(0)``: after everything the loop is
handling in this turn). The server's connections pass :meth:`Outbox.barrier` right before they
write to a socket: it flushes (:meth:`Outbox.flush` is idempotent) and, if a background commit
still holds writes queued before the barrier, makes the connection wait for it. So a
dialogue's own answer to an input never leaves before the commit of what that input changed,
with an embedded store and with a networked one alike. Tests on a fake clock flush with
``clock.run_due()`` (or :meth:`Outbox.flush`).

When a flush has committed and delivered everything (nothing queued, no commit under way),
it calls :attr:`Outbox.on_settled` once: the lobby feed's push, which reads the rooms' live
state and so may run only when that state is all committed (:mod:`gamehall.hall.lobby_feed`).

Listener calls made while flushing (a dialogue that logs out in ``ended``) queue more work,
which the same flush commits and delivers before it returns.

A store whose :meth:`~gamehall.store.base.Store.commit` returns an awaitable (a networked one)
needs a :data:`Waiter` (the server's, on its event loop): the flush hands the awaitable over
and delivers the batch when it finished; the next batch is committed only after that.

If a commit fails, nothing of that batch is delivered for the rooms it wrote to; the hall
closes those rooms (their state ran ahead of their log) and the next start rebuilds them from
what was committed.

On a node of several (docs/scale-out.md) the outbox has an :attr:`Outbox.ownership`: every
batch goes through its ``admit`` first (answered at once from local lease deadlines, or, while
a new room's lease is being taken, as an awaitable: then the commit is awaited like a
networked store's), the writes of rooms whose lease this node no longer holds are dropped
with everything they would have revealed, and the hall is told to close those rooms
(:attr:`Outbox.on_refused`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from gamehall.hall.ownership import Admitted, Ownership
from gamehall.protocols._core import Cancellable, Clock
from gamehall.store.base import Store, Write

log = logging.getLogger(__name__)

Waiter = Callable[[Awaitable[None], Callable[[BaseException | None], None]], None]
"""Waits for an awaitable commit off the hall's stack, then calls back with its error or
``None`` (the server's runs it as a task on its event loop)."""

Resume = Callable[[], None]
"""Called once the commit a :meth:`Outbox.barrier` waited for has finished."""

CommitFailed = Callable[[frozenset[str]], None]
"""Told the rooms whose writes a failed commit lost (the hall closes them)."""

Refused = Callable[[frozenset[str]], None]
"""Told the rooms whose writes were refused because this node lost their lease."""


@dataclass(slots=True)
class _Send:
    """One queued listener call; ``room_id`` is the room whose writes it may reveal."""

    room_id: str | None
    call: Callable[[], None]


class Outbox:
    """One hall's queue of writes and listener calls. See the module docstring."""

    def __init__(self, store: Store, clock: Clock, *, waiter: Waiter | None = None) -> None:
        self._store = store
        self._clock = clock
        self._waiter = waiter
        self._writes: list[Write] = []
        self._sends: list[_Send] = []
        self._handle: Cancellable | None = None
        self._flushing = False
        self._in_flight = False
        self._queued = 0  # writes ever queued
        self._settled = 0  # writes ever committed or lost (a failed commit)
        self._barriers: list[tuple[int, frozenset[int], Resume]] = []  # (writes, holds, resume)
        self._holds: set[int] = set()  # forwarded inputs not answered yet (hall/cross_node_follower.py)
        self.on_commit_failed: CommitFailed | None = None
        """Set by the hall: closes the rooms a failed commit lost."""
        self.on_settled: Callable[[], None] | None = None
        """Set by the hall: the lobby feed's push, made when everything is committed."""
        self.ownership: Ownership | None = None
        """Set by the hall on a node of several: admits each batch before its commit."""
        self.on_refused: Refused | None = None
        """Set by the hall: closes the rooms whose lease this node lost."""
        self._refused: frozenset[str] = frozenset()
        self.batches = 0
        """How many batches were committed (for the benchmark and tests)."""

    # ---------------------------------------------------------------- queueing

    def write(self, write: Write) -> None:
        """Queue a store write; it is committed with the rest of this turn's writes."""
        self._writes.append(write)
        self._queued += 1
        self._schedule()

    def send(self, room_id: str | None, call: Callable[[], None]) -> None:
        """Queue a listener call, made after this turn's writes are committed. ``room_id``
        names the room it speaks of (``None`` for hall-wide chat and disconnects)."""
        self._sends.append(_Send(room_id, call))
        self._schedule()

    def forget(self, room_ids: frozenset[str]) -> None:
        """Drop the queued (not yet committing) writes and listener calls of rooms this node
        may no longer write: they could never be committed. Called before those rooms close,
        so that what the close queues (the players' ``ended``) is not dropped with them."""
        base = self._queued - len(self._writes)  # the queued writes are numbered base+1...
        dropped = [base + 1 + i for i, w in enumerate(self._writes) if w.room_id in room_ids]
        self._writes = [w for w in self._writes if w.room_id not in room_ids]
        self._sends = [s for s in self._sends if s.room_id not in room_ids]
        if dropped:  # renumber: a barrier no longer waits for writes that will never commit
            self._queued -= len(dropped)
            self._barriers = [
                (mark - sum(d <= mark for d in dropped), h, go) for mark, h, go in self._barriers
            ]
            self._settle([])

    @property
    def idle(self) -> bool:
        """Whether nothing is queued and no commit is under way."""
        return not (self._writes or self._sends or self._in_flight)

    def poke(self) -> None:
        """Ask for a flush at the end of this turn although nothing is queued (the lobby feed
        has rooms to look at; :attr:`on_settled` runs at its end)."""
        self._schedule()

    def _schedule(self) -> None:
        if self._handle is None and not self._flushing and not self._in_flight:
            self._handle = self._clock.call_later(0.0, self.flush)

    # ---------------------------------------------------------------- flushing

    def flush(self) -> None:
        """Commit what is queued, then make the queued listener calls, until nothing is left
        (listener calls may queue more). Does nothing while a flush or an awaitable commit is
        under way (that one picks up the new work)."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        if self._flushing or self._in_flight:
            return
        self._flushing = True
        try:
            while True:
                while self._writes or self._sends:
                    writes, self._writes = self._writes, []
                    sends, self._sends = self._sends, []
                    if not writes:
                        self._deliver(sends)
                        continue
                    pending = self._commit(writes, sends)
                    if pending is not None:
                        self._wait(pending, writes, sends)
                        return
                if self.on_settled is not None:
                    self.on_settled()  # may queue more (a watcher that calls the hall)
                if not (self._writes or self._sends):
                    return
        finally:
            self._flushing = False

    def barrier(self, resume: Resume) -> bool:
        """The write barrier of a connection: flush, then say whether every write queued so far
        is committed. ``True``: the connection may write now. ``False``: a background commit
        holds some of them; ``resume`` is called once they are committed (or lost: a failed
        commit closes their rooms), after that batch's deliveries, and the connection writes
        then what it held at the barrier (what it queued later passes the barrier again)."""
        self.flush()
        if self._settled >= self._queued and not self._holds:
            return True
        self._barriers.append((self._queued, frozenset(self._holds), resume))
        return False

    def hold(self, key: int) -> None:
        """Count an input forwarded to the room's owner on another node as a write not yet
        committed: barriers made from now on wait for :meth:`release` of ``key`` too, so no
        connection here writes before the owner committed it (hall/cross_node_follower.py)."""
        self._holds.add(key)

    def release(self, key: int) -> None:
        """The owner answered forwarded input ``key`` (done or refused)."""
        self._holds.discard(key)
        self._settle([])

    def _settle(self, writes: list[Write]) -> None:
        """``writes`` are committed or lost: resume the barriers that waited for them."""
        self._settled += len(writes)
        holds = self._holds
        ready = [go for mark, held, go in self._barriers if mark <= self._settled and not (held & holds)]
        if not ready:
            return
        self._barriers = [
            (mark, held, go) for mark, held, go in self._barriers if mark > self._settled or held & holds
        ]
        for resume in ready:
            try:
                resume()
            except Exception:  # one connection's bug must not stall the others
                log.exception("a connection failed to resume after a commit")

    def _commit(self, writes: list[Write], sends: list[_Send]) -> Awaitable[None] | None:
        """Commit ``writes``; an embedded store is done here and ``sends`` are delivered."""
        if self.ownership is not None:
            return self._owned_commit(self.ownership, writes, sends)
        try:
            pending = self._store.commit(writes)
        except Exception as exc:
            self._failed(writes, sends, exc)
            self._settle(writes)
            return None
        if pending is None:
            self.batches += 1
            self._deliver(sends)
            self._settle(writes)
        return pending

    def _owned_commit(
        self, ownership: Ownership, writes: list[Write], sends: list[_Send]
    ) -> Awaitable[None] | None:
        """:meth:`_commit` on a node of several: only what ``ownership`` admits is committed,
        the refused rooms' listener calls are dropped and the hall is told of those rooms."""
        answer = ownership.admit(writes)
        if not isinstance(answer, Admitted):  # a room's lease is still being taken
            return self._commit_when_admitted(answer)
        refused = answer.refused
        try:
            pending = self._store.commit(answer.writes) if answer.writes else None
        except Exception as exc:
            self._failed(answer.writes, _kept(sends, refused), exc)
            self._tell_refused(refused)
            self._settle(writes)
            return None
        if pending is None:
            self.batches += 1
            self._deliver(_kept(sends, refused))
            self._tell_refused(refused)
            self._settle(writes)
        else:
            self._refused = refused  # for _wait's callback
        return pending

    async def _commit_when_admitted(self, answer: Awaitable[Admitted]) -> None:
        """Commit what the ownership admits once its claims are answered; the refused rooms
        wait in ``_refused`` for :meth:`_wait`'s callback. No await lies between the lease
        check and the store's commit starting."""
        admitted = await answer
        self._refused = admitted.refused
        if admitted.writes:
            pending = self._store.commit(admitted.writes)
            if pending is not None:
                await pending

    def _take_refused(self) -> frozenset[str]:
        refused, self._refused = self._refused, frozenset()
        return refused

    def _tell_refused(self, refused: frozenset[str]) -> None:
        if refused and self.on_refused is not None:
            self.on_refused(refused)

    def _wait(self, pending: Awaitable[None], writes: list[Write], sends: list[_Send]) -> None:
        if self._waiter is None:
            raise RuntimeError("this store commits in the background; the hall needs a waiter")
        self._in_flight = True

        def done(error: BaseException | None) -> None:
            self._in_flight = False
            refused = self._take_refused()
            if error is None:
                self.batches += 1
                self._deliver(_kept(sends, refused))
            else:
                self._failed([w for w in writes if w.room_id not in refused], _kept(sends, refused), error)
            self._tell_refused(refused)
            self._settle(writes)
            self.flush()

        self._waiter(pending, done)

    def _deliver(self, sends: list[_Send]) -> None:
        for send in sends:
            try:
                send.call()
            except Exception:  # a bug in one connection must not cost the others their events
                log.exception("a listener failed on a queued call; the other connections go on")

    def _failed(self, writes: list[Write], sends: list[_Send], error: BaseException) -> None:
        """The batch is not in the store: drop what it would have revealed, deliver the rest,
        and let the hall close the rooms that lost writes."""
        lost = frozenset(w.room_id for w in writes)
        log.error("the store refused a batch of %d writes (rooms %s): %s", len(writes), sorted(lost), error)
        self._deliver([s for s in sends if s.room_id not in lost])
        if self.on_commit_failed is not None:
            self.on_commit_failed(lost)


def _kept(sends: list[_Send], refused: frozenset[str]) -> list[_Send]:
    """``sends`` without the listener calls of refused rooms (they would reveal writes that
    are not in the store)."""
    return [s for s in sends if s.room_id not in refused] if refused else sends
