"""The one kind of log entry whose signature a sealed peer checks later: keys dealt to someone else.

A draw brings an ``sdeal`` entry from every other participant, each holding a box of its key for
the drawer; every peer used to check all their signatures as the card was dealt (ten Ed25519
verifications a peer, a hundred at a table of ten, for one card). A box for someone else is
opaque to a peer and changes nothing in its game (who holds which card is public); its recipient
checks the entry at once, and the sender's signature inside each box it opens. So a peer sets
such an entry's signature aside and checks it once its log has been quiet for :attr:`QUIET`
seconds, and in any case before it takes an entry of another kind and before it raises any alarm
(:meth:`net.sealing.SealedPeer.run`): a forged one (only a relay could log one) is named as it
was, as a log entry its author did not sign, before anything it could have caused. This is the
open client's rule for the host's entries (check when the link is quiet), for the one kind only
its recipient needs at once.
"""

from __future__ import annotations

import asyncio
from typing import Any

from ..identity import verify
from ..sealed import Fault
from .signed import TAG, Alarm

_QUIET: dict[str, Any] = {}
"""Put in a peer's inbox when its log has been quiet (:meth:`WaitingSignatures._next`); never a log entry."""


class WaitingSignatures:
    """The signatures a peer has set aside, and when it checks them (mixed into the sealed peer)."""

    QUIET = 0.05
    """Seconds of a quiet log after which the peer checks the signatures it set aside."""
    inbox: asyncio.Queue[dict[str, Any]]
    pid: int | None
    _unchecked: list[tuple[int, bytes, bytes, bytes]]
    """Log entries whose signatures wait: ``(author, identity, signature, body)``, in the log's order."""

    def _check_signatures(self) -> None:
        """Check the signatures set aside (:meth:`_entry`), in the log's order: the first bad one is
        :class:`Alarm`, as it would have been when it was read."""
        while self._unchecked:
            author, ident, s, m = self._unchecked.pop(0)
            if not verify(ident, s, TAG, m):
                self._unchecked.clear()
                raise Alarm(Fault("protocol", "a log entry its author did not sign", author))

    async def _next(self) -> dict[str, Any]:
        """The next raw entry; when the log has been quiet for :attr:`QUIET` seconds, the signatures
        set aside are checked meanwhile (a marker put in the inbox wakes the walk for it)."""
        while True:
            if not self._unchecked or not self.inbox.empty():
                e = await self.inbox.get()
            else:
                timer = asyncio.get_running_loop().call_later(self.QUIET, self.inbox.put_nowait, _QUIET)
                try:
                    e = await self.inbox.get()
                finally:
                    timer.cancel()
            if e is not _QUIET:
                return e
            self._check_signatures()

    def _mine(self, body: dict[str, Any]) -> bool:
        """Whether an ``sdeal`` body holds a box for this peer, or is not plainly a list of boxes."""
        envs = body.get("envs")
        if not isinstance(envs, list):
            return True
        return any(not (isinstance(w, list) and len(w) == 3) or w[1] == self.pid for w in envs)
