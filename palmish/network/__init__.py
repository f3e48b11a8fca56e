"""Handhelds together over the network (docs/network.md): the message format,
the asyncio transport, discovery, and the Pachisi table a host keeps.

It imports the device and the games' engines, never the frontend; the device
and the games never import it (the command line and the window wire it in).
"""
