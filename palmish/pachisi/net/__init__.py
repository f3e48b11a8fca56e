"""Pachisi over the network (docs/network.md): the host's table (table.py), a
joiner's copy of it (mirror.py), the app's view of both (seats.py), and the
engine the descriptor names for palmish/network/ (engine.py)."""
