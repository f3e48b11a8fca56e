"""Play and beam across the internet by a code alone (docs/network.md, "Across
the internet"): Magic Wormhole's mailbox server for the rendezvous and its
transit (direct, then through its relay) for the bytes, under the unchanged
session layer (docs/network-session.md), so a relay sees only ciphertext.
"""
