"""The log entries whose signatures a sealed peer checks a moment later: moves, and keys dealt.

Every peer follows every move, and a draw brings an ``sdeal`` entry from every other participant;
checking each signature as it came put ten Ed25519 verifications in every peer's path for every
move and a hundred at a table of ten for every card drawn. A move is followed by the public rules
(who holds which card is public), and a box of keys is opaque to all but its recipient, who opens
it at once and needs no proof of who sent keys that open its card. So a peer sets such an entry's
signature aside and checks it once its log has been quiet for :attr:`QUIET` seconds, and in any
case before it takes an entry of another kind, before it sends anything of its own
(:meth:`net.sealing.restart.Restart.send`: no key leaves on the strength of a forged draw) and
before it raises any alarm (:meth:`net.sealing.SealedPeer.run`). Keys a peer deals rest on the moves
alone (who is to see which card is public, and follows from the moves): before it sends them, the
``sdeal`` entries set aside may wait still. A draw brings nine of them at a table of ten, and moves
come too often for the log to be quiet between them, so every peer checked the last draw's nine as
the next draw's keys left, on the drawer's critical path. A forged one (only a relay could
log one) is named as it was, as a log entry its author did not sign, before anything it could
have caused. This is the open client's rule for the host's entries (check when the link is
quiet).
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable

import msgpack

from ..identity import verify
from ..messages import clean_text
from ..sealed import Fault
from .signed import TAG, Alarm, Voided

_QUIET: dict[str, Any] = {}
"""Put in a peer's inbox when its log has been quiet (:meth:`WaitingSignatures._next`); never a log entry."""
_FAILED: dict[str, Any] = {}
"""Put in a peer's inbox when a check failed outside its walk (:meth:`WaitingSignatures._hand_to_walk`)."""


class WaitingSignatures:
    """The signatures a peer has set aside, and when it checks them (mixed into the sealed peer)."""

    QUIET = 0.02
    """Seconds of a quiet log after which the peer checks the signatures it set aside."""
    inbox: asyncio.Queue[dict[str, Any]]
    pid: int | None
    _unchecked: list[tuple[int, bytes, bytes, bytes, bool]]
    """Log entries whose signatures wait: ``(author, identity, signature, body, keys dealt)``, in the log's order."""
    _failed: Exception
    _unopened: list[Callable[[], None]]
    """Checks that wait, after the signatures: the cards moves named, opened with their keys (lockstep.py)."""
    _vouched: dict[bytes, tuple[int, bytes]]
    """Signature -> ``(author, body)`` of entries whose signature needs no check: this peer's own (it
    signed them), and those the relay in this process checked as it took them (restart.py, ``vouch``)."""
    roster: dict[int, bytes]
    _accusation: Callable[[int, dict[str, Any]], Fault]

    async def _read(self) -> tuple[int, dict[str, Any]]:
        """The next entry of the log, its signature checked: ``(author, body)``; the signature of a
        move or of keys dealt waits (:class:`~net.sealing.waiting.WaitingSignatures`)."""
        e = await self._next()
        try:
            author, m, s = e["from"], e["m"], e["s"]
            ident = self.roster[author]
        except (KeyError, TypeError):
            self._check_signatures()
            raise Alarm(Fault("protocol", "a malformed log entry")) from None
        body: Any = None
        if isinstance(m, bytes) and isinstance(s, bytes):
            try:
                body = msgpack.unpackb(m, raw=False, strict_map_key=True)
            except Exception:  # noqa: BLE001  (msgpack raises several types for junk)
                body = None
        # A signature this peer knows already: its own, or one its relay checked (in this process).
        vouched = isinstance(s, bytes) and self._vouched.pop(s, None) == (author, m)
        if isinstance(body, dict) and self._may_wait(body):
            if not vouched:
                self._unchecked.append((author, ident, s, m, body.get("k") == "sdeal"))
            return author, body
        self._check_signatures()
        if not vouched and not (isinstance(m, bytes) and isinstance(s, bytes) and verify(ident, s, TAG, m)):
            raise Alarm(Fault("protocol", "a log entry its author did not sign", author))
        if body is None:
            raise Alarm(Fault("protocol", "a log entry that is not msgpack", author))
        if not isinstance(body, dict):
            raise Alarm(Fault("protocol", "a log entry that is not a map", author))
        if body.get("k") == "salarm":
            raise Alarm(Fault(str(body.get("code")), f"participant {author} says: {body.get('reason')}",
                              body.get("culprit")), told=True, by=author)
        if body.get("k") == "saccuse":
            raise Alarm(self._accusation(author, body), told=True)
        if body.get("k") == "svoid":  # the host's word that a participant left for good (relay.py)
            if author != 0:
                raise Alarm(Fault("protocol", "a void by someone who is not the host", author))
            who = body.get("who")
            raise Voided(getattr(self, "round", 0), who if isinstance(who, int) else None,
                         clean_text(body.get("why") or "a participant left the table for good", 200))
        return author, body

    def _check_signatures(self, *, keys_too: bool = True) -> None:
        """Check the signatures set aside (:meth:`_entry`), in the log's order: the first bad one is
        :class:`Alarm`, as it would have been when it was read; then the cards moves named, opened
        with their keys (a bad one names its mover). ``keys_too`` false: the ``sdeal`` entries' wait
        still (nothing but the moves decides which keys this peer deals)."""
        waiting = []
        while self._unchecked:
            entry = self._unchecked.pop(0)
            author, ident, s, m, keys = entry
            if keys and not keys_too:
                waiting.append(entry)
                continue
            if not verify(ident, s, TAG, m):
                self._unchecked.clear()
                self._unopened.clear()
                raise Alarm(Fault("protocol", "a log entry its author did not sign", author))
        self._unchecked = waiting
        while self._unopened:
            self._unopened.pop(0)()

    async def _next(self) -> dict[str, Any]:
        """The next raw entry; when the log has been quiet for :attr:`QUIET` seconds, the signatures
        set aside are checked meanwhile (a marker put in the inbox wakes the walk for it)."""
        while True:
            if not (self._unchecked or self._unopened) or not self.inbox.empty():
                e = await self.inbox.get()
            else:
                timer = asyncio.get_running_loop().call_later(self.QUIET, self.inbox.put_nowait, _QUIET)
                try:
                    e = await self.inbox.get()
                finally:
                    timer.cancel()
            if e is _FAILED:
                raise self._failed
            if e is not _QUIET:
                return e
            self._check_signatures()

    def _hand_to_walk(self, e: Exception) -> None:
        """A check that waited failed as this peer was about to send from outside its walk (a person's
        move, a turn timer): nothing was sent, and the walk raises it next, as its own finding."""
        self._failed = e
        self.inbox.put_nowait(_FAILED)

    def _may_wait(self, body: dict[str, Any]) -> bool:
        """Whether an entry's signature may wait: a move's (a peer follows it by the public rules, and
        sends nothing before the check), or keys dealt (plainly a list of boxes: their recipient
        opens them at once, and keys that open its card need no proof of who sent them)."""
        k = body.get("k")
        if k == "smove":
            return True
        envs = body.get("envs")
        return k == "sdeal" and isinstance(envs, list) and all(isinstance(w, list) and len(w) == 3 for w in envs)
