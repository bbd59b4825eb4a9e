"""Sealed tables (``cardtui-sealed/1``): a deal that no one, the host included, can read.

Each seated person's client shuffles and locks the deck in turn with secrets of its own
(commutative locks: a point of secp256k1 multiplied by a secret scalar), then relocks every card
under a key of its own for that card alone. A card is opened only with every seat's key for it:
its holder is sent the others' keys, sealed for it alone, and keeps its own; a card played or
shown is opened with all of them, in the open, and every client and the server check it.

This package is the scheme alone, pure (no I/O, no clock; every secret derived from bytes it is
handed), shared by the server (which checks and deals locked cards it cannot open) and the client
(which locks, unlocks, seals and checks): the group and its points (``group``), the proof of equal
logarithms every step carries (``proofs``), the deck's two passes and its keys (``deck``), the proof
that a lock is a shuffle (``shuffle``), who is dealt which places and when their keys reach them
(``plan``), the envelopes that carry keys from one seat to another through the host (``envelopes``),
a hand as everyone follows and checks it (``ledger``) and one seat's side of it (``seat``), a hand
written down and replayed (``record``), and what a cheat is named for (``faults``). The
specification is ``docs/deal.md``, "Sealed tables"; its vectors are ``docs/sealed-vectors.json``.
"""

from __future__ import annotations

SCHEME = "cardtui-sealed/1"
"""The sealed scheme's name: in every tag it hashes, on the wire and in the histories."""
