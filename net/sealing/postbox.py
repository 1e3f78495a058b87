"""What the relay writes each link, and when: entries only one peer needs now wait, the rest go at the end of the turn.

A card drawn brings an ``sdeal`` entry from every other participant, each a box for the drawer
alone. Only the drawer waits for them (:mod:`.dealing`); every other peer files them whenever they
come. Sent as they arrive, ten entries would wake every process of a ten-peer table ten times for
one card, on the same cores the drawer's keys are being made and opened on. So the relay sends an
``sdeal`` at once to the links of its recipients (its author counted its own keys in as they left:
:meth:`net.sealing.dealing.Dealing._send_keys`) and keeps the other links' copies, its author's
among them, in a :class:`Postbox`, which sends them together, in the log's order, before anything
else goes to that link, or :data:`HOLD` seconds after the first was kept.

A shuffle's passes (``spass``) are the same in kind: each is the next participant's input, and
nobody else does anything with it before the epoch's last pass, which everyone needs (the deck the
cards open from). Sent to everyone, the twenty passes of a ten-peer deal woke every process twenty
times, each to read and check a pass while the participant whose turn it was multiplied on the
same two cores. So a pass goes at once to the participant whose pass is due next and to the one
after it (which reads the passes before it meanwhile), and the other links' copies wait, with no
timer, for the next entry sent to them: a participant reads the passes before its own in two goes,
and everyone gets the rest with the last pass.

"At once" is at the end of the event loop's turn: the entries the relay read in one turn (the keys
of several senders, come together while the host was busy) go to each link in one write. Every
link still gets every entry, in the log's order; only the moment changes.
"""

from __future__ import annotations

import asyncio
from typing import Any, Sequence

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


_AFTER = {"rekey": "mask", "mask": "lock"}
"""The kind of pass that follows a kind's last (:class:`net.sealed.epoch.Epoch`; a lock pass is
an epoch's last kind)."""


def next_in_line(m: Any, order: Sequence[int]) -> set[int] | None:
    """Who gets an ``spass`` entry (its body ``m``) at once: the participant whose pass is due next,
    and the one after it, who reads the passes kept for it while the next multiplies (so that when
    its turn comes it has one pass to read, not all those before). The participants pass in
    ``order``, kind by kind. None for the epoch's last pass (a lock pass by the last in line), for
    any other entry, and for one that is not plainly a pass by a participant: those go to everyone
    at once, as any entry does."""
    if not isinstance(m, bytes) or b"spass" not in m[:16]:  # the body's first key is its kind
        return None
    try:
        p = msgpack.unpackb(m, raw=False)["p"]
        kind, i = p["kind"], list(order).index(p["by"])
    except Exception:  # noqa: BLE001  (junk of any shape goes to everyone)
        return None
    if kind not in ("rekey", "mask", "lock"):
        return None
    out: set[int] = set()
    for _ in range(2):
        if i + 1 < len(order):
            i += 1
        elif kind in _AFTER:
            kind, i = _AFTER[kind], 0
        else:
            break  # the next is the epoch's last pass, which goes to everyone
        out.add(order[i])
    return out or None


class Postbox:
    """What the relay has yet to write to each link, each link's in the log's order.

    A body sent (:meth:`send`) goes out at the end of this turn of the event loop, in one write with
    whatever else this turn sent that link: keys from several senders read together reach their
    drawer in one write, one wake-up (on loopback a write to a sleeping reader costs the writer some
    50 µs, and the reader its wake-up). A body kept (:meth:`keep`) waits for the next body sent to
    its link, or :attr:`hold` seconds (or with no timer at all)."""

    def __init__(self, hold: float = HOLD) -> None:
        self.hold = hold
        """Seconds after the first body kept that every kept body goes out."""
        self._out: dict[Link, list[bytes]] = {}
        self._due: dict[Link, None] = {}  # links written to at the end of this turn (ordered)
        self._timer: asyncio.TimerHandle | None = None
        self._soon: asyncio.Handle | None = None

    def keep(self, link: Link, body: bytes, *, timed: bool = True) -> None:
        """Keep ``body`` for ``link`` until the next body sent to it, or (``timed``) :attr:`hold`
        seconds; untimed, it also goes with everything kept when a timer runs out, or at
        :meth:`flush_all`."""
        self._out.setdefault(link, []).append(body)
        if timed and self._timer is None:
            try:
                self._timer = asyncio.get_running_loop().call_later(self.hold, self.flush_all)
            except RuntimeError:  # no loop: a test feeding the log by hand
                self.flush_all()

    def send(self, link: Link, body: bytes) -> None:
        """Send ``body`` to ``link`` after whatever is kept for it, at the end of this turn."""
        self._out.setdefault(link, []).append(body)
        self._due[link] = None
        if self._soon is None:
            try:
                self._soon = asyncio.get_running_loop().call_soon(self._flush_due)
            except RuntimeError:  # no loop: a test feeding the log by hand
                self._flush_due()

    def _flush_due(self) -> None:
        self._soon = None
        due, self._due = self._due, {}
        for link in due:
            bodies = self._out.pop(link, None)
            if bodies:
                self._write(link, bodies)

    def flush_all(self) -> None:
        """Write everything, now."""
        for handle in (self._timer, self._soon):
            if handle is not None:
                handle.cancel()
        self._timer = self._soon = None
        self._due = {}
        out, self._out = self._out, {}
        for link, bodies in out.items():
            self._write(link, bodies)

    def _write(self, link: Link, bodies: list[bytes]) -> None:
        """One write: the reader wakes once for all of ``bodies``."""
        link.send_many(bodies)


__all__ = ["HOLD", "Postbox", "next_in_line", "recipients"]
