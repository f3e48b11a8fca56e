"""A joiner facing a host of another protocol version stops with one line
(a fake host on 127.0.0.1, in-process, bounded in time)."""

from __future__ import annotations

import asyncio

import pytest

from palmish.network.engine import HostError
from palmish.network.joining import JoinRequest, Refused, join_table


async def against(first_line: bytes) -> None:
    async def fake_host(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await asyncio.wait_for(reader.readline(), 5)
        writer.write(first_line)
        await writer.drain()
        await asyncio.sleep(1)
        writer.close()

    server = await asyncio.start_server(fake_host, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        request = JoinRequest("127.0.0.1", port, "1234", "Ann", "a" * 32, level="easy",
                              comeback_s=1.0, app="pachisi")
        await asyncio.wait_for(join_table(request, lambda line: None), 10)
    finally:
        server.close()


def test_a_newer_host_is_named_by_its_version() -> None:
    with pytest.raises(HostError, match="the host speaks protocol version 2; this is 1"):
        asyncio.run(against(b'{"t":"welcome","v":2,"app":"pachisi","table":"T","seat":0,'
                            b'"colour":"red"}\n'))
    with pytest.raises(HostError, match="the host speaks protocol version 3; this is 1"):
        asyncio.run(against(b'{"t":"welcome","v":3,"app":"pachisi","table":"T","seat":0}\n'))


def test_a_refusal_is_one_line() -> None:
    with pytest.raises(Refused, match=r"^the game is full$"):
        asyncio.run(against(b'{"t":"refused","v":1,"reason":"the game is full"}\n'))
