"""Counters, gauges and a histogram, rendered in the Prometheus text exposition format.

Why not ``prometheus_client``: the server needs four kinds of series, some of them read from
the hall at scrape time (rooms per game, users), and the text format is a few lines of rules
(``# HELP``, ``# TYPE``, ``name{label="value"} number``, cumulative ``_bucket``/``_sum``/
``_count`` for a histogram). Writing it here keeps the dependency list short and the series
exactly the ones :class:`ServerMetrics` documents; the tests parse the output line by line.

Everything here runs on the event loop thread only, so there is no locking.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping, Sequence

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
"""The HTTP Content-Type of the text exposition format."""

LabelValues = tuple[str, ...]


def _format_number(value: float) -> str:
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    if math.isnan(value):
        return "NaN"
    if float(value).is_integer() and abs(value) < 2**53:
        return str(int(value))
    return repr(float(value))


def _escape_label(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _escape_help(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\n", "\\n")


def _labels(names: Sequence[str], values: Sequence[str]) -> str:
    if not names:
        return ""
    pairs = ",".join(f'{name}="{_escape_label(value)}"' for name, value in zip(names, values, strict=True))
    return "{" + pairs + "}"


class _Metric:
    kind = "untyped"

    def __init__(self, name: str, help_text: str, label_names: Sequence[str] = ()) -> None:
        self.name = name
        self.help_text = help_text
        self.label_names = tuple(label_names)

    def _check(self, values: LabelValues) -> LabelValues:
        if len(values) != len(self.label_names):
            raise ValueError(f"{self.name} takes labels {self.label_names}, got {values!r}")
        return values

    def render(self) -> Iterable[str]:
        yield f"# HELP {self.name} {_escape_help(self.help_text)}"
        yield f"# TYPE {self.name} {self.kind}"
        yield from self._samples()

    def _samples(self) -> Iterable[str]:
        return ()


class Counter(_Metric):
    """A number that only goes up (messages, errors), one series per label combination."""

    kind = "counter"

    def __init__(self, name: str, help_text: str, label_names: Sequence[str] = ()) -> None:
        super().__init__(name, help_text, label_names)
        self._values: dict[LabelValues, float] = {}

    def inc(self, *labels: str, amount: float = 1.0) -> None:
        key = self._check(labels)
        self._values[key] = self._values.get(key, 0.0) + amount

    def touch(self, *labels: str) -> None:
        """Make the series exist at 0, so a scrape shows it before the first event."""
        self._values.setdefault(self._check(labels), 0.0)

    def value(self, *labels: str) -> float:
        return self._values.get(labels, 0.0)

    def _samples(self) -> Iterable[str]:
        for key, value in sorted(self._values.items()):
            yield f"{self.name}{_labels(self.label_names, key)} {_format_number(value)}"


class Gauge(_Metric):
    """A number read at scrape time from ``collect`` (label values -> value)."""

    kind = "gauge"

    def __init__(
        self,
        name: str,
        help_text: str,
        label_names: Sequence[str],
        collect: Callable[[], Mapping[LabelValues, float]],
    ) -> None:
        super().__init__(name, help_text, label_names)
        self._collect = collect

    def _samples(self) -> Iterable[str]:
        for key, value in sorted(self._collect().items()):
            yield f"{self.name}{_labels(self.label_names, self._check(key))} {_format_number(value)}"


class Histogram(_Metric):
    """Observations counted into cumulative buckets (upper bounds in seconds, say)."""

    kind = "histogram"

    def __init__(self, name: str, help_text: str, buckets: Sequence[float]) -> None:
        super().__init__(name, help_text)
        bounds = sorted(float(b) for b in buckets)
        if not bounds or bounds[-1] != math.inf:
            bounds.append(math.inf)
        self.bounds = tuple(bounds)
        self._counts = [0] * len(self.bounds)
        self.count = 0
        self.sum = 0.0

    def observe(self, value: float) -> None:
        # The first bound >= value (the last is +Inf), found in C: observed once per input.
        self._counts[bisect_left(self.bounds, value)] += 1
        self.count += 1
        self.sum += value

    def snapshot(self) -> list[tuple[float, int]]:
        """(upper bound, observations in that bucket) per bucket, for the host console's charts
        (which take differences of two snapshots to get an interval's percentiles)."""
        return list(zip(self.bounds, self._counts, strict=True))

    def _samples(self) -> Iterable[str]:
        cumulative = 0
        for bound, count in zip(self.bounds, self._counts, strict=True):
            cumulative += count
            yield f'{self.name}_bucket{{le="{_format_number(bound)}"}} {cumulative}'
        yield f"{self.name}_sum {_format_number(self.sum)}"
        yield f"{self.name}_count {self.count}"


class MetricsRegistry:
    """An ordered set of metrics rendered together."""

    def __init__(self) -> None:
        self._metrics: dict[str, _Metric] = {}

    def add(self, metric: _Metric) -> None:
        if metric.name in self._metrics:
            raise ValueError(f"metric {metric.name} registered twice")
        self._metrics[metric.name] = metric

    def render(self) -> str:
        """The whole exposition, one metric family after another, ending in a newline."""
        lines: list[str] = []
        for metric in self._metrics.values():
            lines.extend(metric.render())
        return "\n".join(lines) + "\n"


LATENCY_BUCKETS: tuple[float, ...] = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)
"""Seconds. Handling one input is normally well under a millisecond; the top buckets catch
stalls (a slow store commit, a huge broadcast)."""


class ServerMetrics:
    """The series the server exposes on ``/metrics``.

    - ``gamehall_connections{protocol}``: open connections (gauge);
    - ``gamehall_connections_total{protocol}``: connections accepted;
    - ``gamehall_rooms{game}``, ``gamehall_users``: read from the hall at scrape time;
    - ``gamehall_messages_in_total{protocol}``: inputs handed to dialogues. For TCP protocols an
      input is one read from the socket (the server does not decode; a read may hold several
      frames or part of one); for the web protocol it is one WebSocket text message;
    - ``gamehall_messages_out_total{protocol}``: frames sent (each ``Wire.send`` is one frame;
      the web: each text message). Counted in bulk (:meth:`sent`) as a batch leaves a
      connection's queue, written or dropped, so a scrape may lag one loop turn behind;
    - ``gamehall_bytes_in_total`` / ``gamehall_bytes_out_total{protocol}``;
    - ``gamehall_errors_total{protocol}``: a dialogue raised, or a connection broke a limit;
    - ``gamehall_disconnects_total{protocol,reason}``: why connections ended;
    - ``gamehall_action_latency_seconds``: time a dialogue took to handle one input (decoding,
      the hall command, the store append and every resulting send).
    """

    def __init__(self) -> None:
        self.registry = MetricsRegistry()
        self._open: dict[str, int] = {}
        self._rooms: Callable[[], Mapping[str, int]] = dict
        self._users: Callable[[], int] = lambda: 0
        self.registry.add(
            Gauge("gamehall_connections", "Open client connections.", ("protocol",), self._open_series)
        )
        self.connections_total = Counter(
            "gamehall_connections_total", "Client connections accepted.", ("protocol",)
        )
        self.registry.add(self.connections_total)
        self.registry.add(Gauge("gamehall_rooms", "Open rooms.", ("game",), self._room_series))
        self.registry.add(Gauge("gamehall_users", "Logged-in users.", (), lambda: {(): float(self._users())}))
        self.messages_in = Counter(
            "gamehall_messages_in_total",
            "Inputs handed to dialogues (TCP: socket reads; web: WebSocket messages).",
            ("protocol",),
        )
        self.messages_out = Counter(
            "gamehall_messages_out_total", "Frames or messages sent to clients.", ("protocol",)
        )
        self.bytes_in = Counter("gamehall_bytes_in_total", "Bytes received from clients.", ("protocol",))
        self.bytes_out = Counter("gamehall_bytes_out_total", "Bytes queued for clients.", ("protocol",))
        self.errors = Counter(
            "gamehall_errors_total",
            "Dialogue exceptions and connection limit violations.",
            ("protocol",),
        )
        self.disconnects = Counter(
            "gamehall_disconnects_total", "Connections ended, by reason.", ("protocol", "reason")
        )
        self.action_latency = Histogram(
            "gamehall_action_latency_seconds",
            "Time a dialogue took to handle one input, sends included.",
            LATENCY_BUCKETS,
        )
        for metric in (
            self.messages_in,
            self.messages_out,
            self.bytes_in,
            self.bytes_out,
            self.errors,
            self.disconnects,
            self.action_latency,
        ):
            self.registry.add(metric)

    # ---- wiring ----------------------------------------------------------------------------

    def add_protocol(self, protocol: str) -> None:
        """Show ``protocol``'s series at 0 before its first connection."""
        self._open.setdefault(protocol, 0)
        for counter in (
            self.connections_total,
            self.messages_in,
            self.messages_out,
            self.bytes_in,
            self.bytes_out,
            self.errors,
        ):
            counter.touch(protocol)

    def watch_node(self, node_id: str, rooms_owned: Callable[[], int]) -> None:
        """On a node of several: ``gamehall_rooms_owned{node="ID"}``, the rooms whose lease
        this node holds, read at scrape time (docs/scale-out.md)."""
        self.registry.add(
            Gauge(
                "gamehall_rooms_owned",
                "Rooms whose lease this node holds.",
                ("node",),
                lambda: {(node_id,): float(rooms_owned())},
            )
        )

    def watch_hall(self, rooms: Callable[[], Mapping[str, int]], users: Callable[[], int]) -> None:
        """Read rooms per game and the user count from the hall at scrape time."""
        self._rooms = rooms
        self._users = users

    # ---- events ----------------------------------------------------------------------------

    def connection_opened(self, protocol: str) -> None:
        self._open[protocol] = self._open.get(protocol, 0) + 1
        self.connections_total.inc(protocol)

    def connection_closed(self, protocol: str, reason: str) -> None:
        self._open[protocol] = max(0, self._open.get(protocol, 0) - 1)
        self.disconnects.inc(protocol, reason)

    def sent(self, protocol: str, frames: int, size: int) -> None:
        """``frames`` frames of ``size`` bytes in all left a connection's queue: one update
        per series for a whole batch, not one per frame."""
        self.messages_out.inc(protocol, amount=frames)
        self.bytes_out.inc(protocol, amount=size)

    def open_connections(self, protocol: str | None = None) -> int:
        if protocol is None:
            return sum(self._open.values())
        return self._open.get(protocol, 0)

    def render(self) -> str:
        return self.registry.render()

    # ---- scrape-time series ----------------------------------------------------------------

    def _open_series(self) -> dict[LabelValues, float]:
        return {(protocol,): float(count) for protocol, count in self._open.items()}

    def _room_series(self) -> dict[LabelValues, float]:
        return {(game,): float(count) for game, count in self._rooms().items()}
