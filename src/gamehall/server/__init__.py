"""The asyncio shell around the hall: the only code that touches sockets and the event loop.

- :mod:`~gamehall.server.app`: :func:`~gamehall.server.app.run_server` (``gamehall serve``),
  :class:`~gamehall.server.app.Server` and the ``running_server`` test helper;
- :mod:`~gamehall.server.connection`: one TCP client (batched writes, backpressure, limits);
- :mod:`~gamehall.server.websocket` and :mod:`~gamehall.server.web`: the browser's WebSocket
  and the HTTP routes (client files, ``/metrics``, ``/healthz``, ``/api``);
- :mod:`~gamehall.server.limits`, :mod:`~gamehall.server.tracker`,
  :mod:`~gamehall.server.metrics`, :mod:`~gamehall.server.clock`, :mod:`~gamehall.server.listeners`.

Nothing is imported here, so importing one module does not pull in aiohttp or the hall.
"""
