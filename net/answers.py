"""What makes a player's answer in the seed exchange a good one.

The host checks every seed commitment, ack and reveal on arrival
(:meth:`net.dealer.Dealer.on_signed`): a bad one is refused and struck, so
the log never holds a player's message that every audit would then hold
against the honest host (an ack over a made-up set reads as equivocation, a
reveal that does not open as a broken deal). A strike for a refused answer
carries the answer itself, and every auditor runs the same check on it
(:class:`net.fair.Ledger`): a strike for an answer that was good is the
host's fraud. One function per kind, shared by both sides.
"""

from __future__ import annotations

from typing import Any

from .fair import seed_commitment


def seed_fault(md: dict[str, Any], root: bytes) -> str | None:
    """A seed commitment must be made against the deck root of its epoch's attempt."""
    if md.get("root") != root:
        return "a seed commitment against another deck root than this epoch's"
    return None


def ack_fault(md: dict[str, Any], shown: bytes) -> str | None:
    """An ack must sign the hash of the set of commitments the log shows."""
    if md.get("set") != shown:
        return "an ack of another set of seed commitments than the one shown"
    return None


def reveal_fault(md: dict[str, Any], root: bytes, key: bytes, committed: bytes | None) -> str | None:
    """A reveal must open the seed commitment its player made for the same root."""
    r = md.get("r")
    if committed is None or not isinstance(r, bytes) or seed_commitment(root, key, r) != committed:
        return "a seed that does not open its commitment"
    return None


def answer_fault(kind: str, md: dict[str, Any], *, root: bytes, shown: bytes | None, key: bytes,
                 committed: bytes | None) -> str | None:
    """The fault of a ``seed``, ``ack`` or ``reveal`` message for an epoch whose state is given, or None."""
    if kind == "seed":
        return seed_fault(md, root)
    if kind == "ack":
        return ack_fault(md, shown or b"")
    if kind == "reveal":
        return reveal_fault(md, root, key, committed)
    return f"{kind!r} is not an answer in the seed exchange"
