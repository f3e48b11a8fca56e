"""Network version 2's session layer (docs/network-session.md): the routing
hello, the key exchange (the short code as a SPAKE2 password, or paired keys),
sealed frames, typed message records, guessing limits, identity keys and dice
nobody can rig. The crypto libraries are imported only when a session is made.
"""
