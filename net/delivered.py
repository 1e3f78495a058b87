"""What the host delivered to each seat this round, and the receipts it is owed for it.

Every card that reaches a person's hand goes to them alone in a signed
``deliver`` message (its opening); the player answers with a signed receipt,
and the host logs the receipts with its next entry. The messages are resent
whenever the seat reconnects, until the round is closed (its openings then
say everything).

All of it is in the host's save. The save is written before anything leaves
(:meth:`net.persistence.Store.save_soon`), and a host killed just after it
may lose what it had written to the sockets, so a player can be behind the
save a host resumes from: it is owed the deliveries of the log entries it
missed, and the resumed host must still know which receipts it is owed.
"""

from __future__ import annotations

from typing import Any

from .commitments import entry_hash, unpack

Key = tuple[int, ...]
"""A card's place in the deck: (epoch, attempt, draw)."""


class Delivered:
    """The deliveries of one round, by seat (the dealer's; see the module's docstring)."""

    def __init__(self) -> None:
        self.sent: dict[int, list[tuple[bytes, bytes]]] = {}
        """Seat -> the signed deliveries made to it this round, in order."""
        self.owed: dict[int, dict[bytes, list[Key]]] = {}
        """Seat -> delivery hash -> its cards' places: deliveries still to be receipted."""
        self.receipted: dict[int, set[bytes]] = {}
        """Seat -> hashes of the deliveries it receipted (a second receipt, after a resend, is no fault)."""
        self.receipts: list[list[Any]] = []
        """Receipts taken and not yet logged: they go with the next step (or close) as ``rc``."""

    def add(self, seat: int, m: bytes, sig: bytes, keys: list[Key]) -> None:
        """A delivery made to ``seat`` of the cards at ``keys``."""
        self.sent.setdefault(seat, []).append((m, sig))
        self.owed.setdefault(seat, {})[entry_hash(m)] = sorted(keys)

    def receipt(self, seat: int, m: bytes, sig: bytes, d: dict[str, Any]) -> str | None:
        """Take ``seat``'s receipt ``d`` (signed as ``m``, ``sig``); returns why it is refused, if it is."""
        owed = self.owed.get(seat, {})
        cards = owed.get(d["x"])
        if cards is None:
            if d["x"] in self.receipted.get(seat, set()):
                return None  # a second receipt for a delivery resent after a reconnect: logged already
            return "a receipt for a delivery this seat was never sent"
        if sorted(map(tuple, d["cards"])) != cards:
            return "a receipt that lists other cards than the delivery's"
        del owed[d["x"]]
        self.receipted.setdefault(seat, set()).add(d["x"])
        self.receipts.append([seat, m, sig])
        return None

    def take_receipts(self) -> list[list[Any]]:
        """The receipts not logged yet (the caller logs them)."""
        rc, self.receipts = self.receipts, []
        return rc

    def resend(self, seat: int, closed: int) -> list[dict[str, Any]]:
        """The ``deliver`` messages a reconnecting ``seat`` is sent (none of a round closed already)."""
        return [{"type": "deliver", "m": m, "sig": sig} for m, sig in self.sent.get(seat, [])
                if unpack(m)["r"] > closed]

    # -- saving ------------------------------------------------------------------------------------
    def to_save(self) -> dict[str, Any]:
        return {"sent": [[p, [list(b) for b in blobs]] for p, blobs in self.sent.items()],
                "owed": [[p, [[x, [list(k) for k in keys]] for x, keys in owed.items()]]
                         for p, owed in self.owed.items()],
                "receipted": [[p, sorted(xs)] for p, xs in self.receipted.items()],
                "receipts": list(self.receipts)}

    @classmethod
    def from_save(cls, d: dict[str, Any]) -> "Delivered":
        out = cls()
        out.sent = {int(p): [(bytes(m), bytes(sig)) for m, sig in blobs] for p, blobs in d["sent"]}
        out.owed = {int(p): {bytes(x): [tuple(k) for k in keys] for x, keys in owed} for p, owed in d["owed"]}
        out.receipted = {int(p): {bytes(x) for x in xs} for p, xs in d["receipted"]}
        out.receipts = [list(rc) for rc in d["receipts"]]
        return out
