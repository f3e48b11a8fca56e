"""Handhelds together over the network (docs/network.md): the message format,
the asyncio transport, discovery, the kept files, and what it needs of a game
(engine.py: each game that plays over the network names its engine in its
descriptor).

It imports the device and the game registry, never a game package nor the
frontend; a game's network engine imports it, the device and the apps never do
(the command line and the window wire it in).
"""
