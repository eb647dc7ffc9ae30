"""The UrServer wire bot asks again for its held seat when a retake is refused, until its
reconnect window ends (a scripted server over real TCP)."""

from __future__ import annotations

import asyncio

from gamehall.bots.ursuppe.wire import UrWireBot

SEATED = "SPIELERIN_AKZEPTIERT 0 b1"
REFUSED = "FEHLER 28 Das Spiel ist schon voll."


async def test_a_refused_retake_is_asked_again_until_the_window_ends() -> None:
    """On a hall of several nodes the survivor may refuse the retake until it has adopted the
    room of the bot's dead node (docs/scale-out.md, "Failover and drain"): the bot asks again,
    as a player would, instead of giving its seat up at the first FEHLER."""
    connections: asyncio.Queue[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = asyncio.Queue()

    async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await connections.put((reader, writer))

    server = await asyncio.start_server(accept, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    bot = UrWireBot("127.0.0.1", port, "b1", creates=False, players=3, game_prefix="g", reconnect_s=3.0)
    run = asyncio.create_task(bot.run())
    try:
        reader, writer = await asyncio.wait_for(connections.get(), 5)
        assert (await reader.readline()).strip() == b"LISTE"
        writer.write(b"SPIELE 1\nSPIEL g1 3 0\n")
        assert (await reader.readline()).startswith(b"TEILNEHMEN g1")
        writer.write(f"{SEATED}\n".encode())
        await writer.drain()
        writer.close()  # seated, then the node died
        refusals = 0
        while not run.done():  # every retake refused, until the bot's window ran out
            got = asyncio.ensure_future(connections.get())
            await asyncio.wait({got, run}, timeout=10, return_when=asyncio.FIRST_COMPLETED)
            if not got.done():
                got.cancel()
                break
            reader, writer = got.result()
            assert (await reader.readline()).startswith(b"TEILNEHMEN g1")
            writer.write(f"{REFUSED}\n".encode())
            await writer.drain()
            await reader.read()  # the bot closes the refused connection
            writer.close()
            refusals += 1
        result = await asyncio.wait_for(run, 10)
    finally:
        run.cancel()
        server.close()
    assert refusals >= 3  # about one a half second for 3 s, not one and done
    assert bot.reconnects == 1 and result.games == [{}]
