"""What the relay sends each link at once, and what it may keep back a moment: keys dealt to others.

A card drawn brings an ``sdeal`` entry from every other participant, each a box for the drawer
alone. Only the drawer waits for them (:mod:`.dealing`); every other peer files them whenever they
come. Sent as they arrive, ten entries would wake every process of a ten-peer table ten times for
one card, on the same cores the drawer's keys are being made and opened on. So the relay sends an
``sdeal`` at once to the links of its recipients and its author (a peer that both sends and
receives keys in one deal, as in a round's first, counts its own entry in) and keeps the other
links' copies in a
:class:`Postbox`, which sends them together, in the log's order, before anything else goes to
that link, or :data:`HOLD` seconds after the first was kept. Every link still gets every entry,
in the log's order; only the moment changes.
"""

from __future__ import annotations

import asyncio
from typing import Any

import msgpack

from .link import Link

HOLD = 0.015
"""Seconds the relay may keep an ``sdeal`` entry from the links it holds no box for."""


def recipients(m: Any) -> set[int] | None:
    """The participants an ``sdeal`` entry's boxes are for; None for any other entry (or one that is
    not plainly a list of boxes: it goes to everyone at once, as any entry does)."""
    if not isinstance(m, bytes) or b"sdeal" not in m[:16]:  # the body's first key is its kind
        return None
    try:
        body = msgpack.unpackb(m, raw=False)
    except Exception:  # noqa: BLE001  (msgpack raises several types for junk)
        return None
    envs = body.get("envs") if isinstance(body, dict) and body.get("k") == "sdeal" else None
    if not isinstance(envs, list) or not all(isinstance(w, list) and len(w) == 3 for w in envs):
        return None
    return {w[1] for w in envs}


class Postbox:
    """Bodies kept back per link, each link's in the log's order."""

    def __init__(self, hold: float = HOLD) -> None:
        self.hold = hold
        """Seconds after the first body kept that every kept body goes out."""
        self._kept: dict[Link, list[bytes]] = {}
        self._timer: asyncio.TimerHandle | None = None

    def keep(self, link: Link, body: bytes) -> None:
        self._kept.setdefault(link, []).append(body)
        if self._timer is None:
            try:
                self._timer = asyncio.get_running_loop().call_later(self.hold, self.flush_all)
            except RuntimeError:  # no loop: a test feeding the log by hand
                self.flush_all()

    def send(self, link: Link, body: bytes) -> None:
        """Send ``body`` to ``link`` after whatever is kept for it."""
        kept = self._kept.pop(link, None)
        if kept:
            kept.append(body)
            link.send_many(kept)
        else:
            link.send_packed(body)

    def flush_all(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        kept, self._kept = self._kept, {}
        for link, bodies in kept.items():
            link.send_many(bodies)


__all__ = ["HOLD", "Postbox", "recipients"]
