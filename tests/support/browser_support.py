"""What every browser test needs: Debian's Chromium, the real server on a background thread
(Playwright's API is blocking), and a fresh page that fails the test on any JavaScript error."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Coroutine, Iterator, Mapping
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from gamehall.config import ServerConfig
from gamehall.server.app import Server, running_server
from gamehall.store.memory import MemoryStore

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
"""As run here as root: without the background-networking flags Chromium keeps trying hosts
this machine cannot reach."""


class ServerThread:
    """The gamehall server on its own event loop in a background thread, listening on the
    ephemeral ports of ``listen`` (e.g. ``{"aah": 0, "web": 0}``), with an in-memory store."""

    def __init__(self, listen: Mapping[str, int], config: ServerConfig | None = None) -> None:
        self.listen = dict(listen)
        self.config = config or ServerConfig(bind="127.0.0.1", db=":memory:")
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="gamehall-server", daemon=True)
        self._context: Any = None
        self.server: Server | None = None

    def start(self) -> Server:
        self._thread.start()
        self._context = running_server(self.config, listen=self.listen, store=MemoryStore())
        self.server = self.run(self._context.__aenter__())
        return self.server

    def run(self, coroutine: Coroutine[Any, Any, Any], timeout: float = 20.0) -> Any:
        """Run a coroutine on the server's loop and wait for its result."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def spawn(self, coroutine: Coroutine[Any, Any, Any]) -> Future[Any]:
        """Start a coroutine on the server's loop without waiting."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop)

    def stop(self) -> None:
        if self._context is not None:
            self.run(self._context.__aexit__(None, None, None))
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(5)

    @property
    def web_url(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.ports['web']}/"


@contextlib.contextmanager
def serving(listen: Mapping[str, int], config: ServerConfig | None = None) -> Iterator[ServerThread]:
    """A started :class:`ServerThread`, stopped on exit (the body of a ``server`` fixture)."""
    thread = ServerThread(listen, config)
    thread.start()
    try:
        yield thread
    finally:
        thread.stop()


@contextlib.contextmanager
def launched_chromium(sync_api: Any) -> Iterator[Any]:
    """One headless Chromium (starting it is the slow part: share it across a module)."""
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextlib.contextmanager
def fresh_page(
    browser: Any, *, width: int, height: int, step_ms: int, locale: str | None = None
) -> Iterator[Any]:
    """A fresh browser context (empty localStorage; ``locale`` is the browser's language, e.g.
    "de-DE", which the page's language follows); fails the test on any page error."""
    extra = {"locale": locale} if locale else {}
    context = browser.new_context(viewport={"width": width, "height": height}, **extra)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.set_default_timeout(step_ms)
        yield page
        assert errors == [], f"JavaScript errors on the page: {errors}"
    finally:
        context.close()
