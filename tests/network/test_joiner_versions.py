"""A joiner facing a host of another protocol version stops with one line
(a fake host on 127.0.0.1, in-process, bounded in time), and so does a host
facing a joiner of version 1 (tests/network/test_processes.py)."""

from __future__ import annotations

import asyncio

import pytest

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
        request = JoinRequest("127.0.0.1", port, "1234", "Ann", level="easy",
                              comeback_s=1.0, app="pachisi")
        await asyncio.wait_for(join_table(request, lambda line: None), 10)
    finally:
        server.close()


def test_a_version_1_host_is_named_by_its_version() -> None:
    # What a version 1 host answers a hello of another version, then closes.
    refusal = (b'{"t":"refused","v":1,"reason":"protocol version 2 is not spoken here '
               b'(this host speaks 1)"}\n')
    with pytest.raises(OSError, match=r"127.0.0.1:\d+ speaks network version 1; this handheld "
                                      r"speaks version 2: update palmish there"):
        asyncio.run(against(refusal))
    with pytest.raises(OSError, match="speaks network version 3"):
        asyncio.run(against(b'{"t":"hello","v":3,"app":"pachisi","nonce":"00"}\n'))


def test_a_refusal_before_the_handshake_is_one_line() -> None:
    with pytest.raises(Refused, match=r"^this is a palmish beam, not a pachisi$"):
        asyncio.run(against(b'{"t":"refused","v":2,"reason":"this is a palmish beam, not a '
                            b'pachisi","why":"app"}\n'))
