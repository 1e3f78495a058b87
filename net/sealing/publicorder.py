"""A round's public orders (a token drawn from the bag, a pick of handles), as every peer makes them:
from every participant's share, each committed to before anyone's was seen (a part of
:class:`net.sealing.SealedPeer`).

A card's shuffle is an epoch of passes nobody can see through; a shuffle of anything else is public
(everyone must see which token came out). Its order comes from a seed no participant can choose:
each announces, with its round key, a commitment to a share of it (:attr:`KeyAnnouncement.pub
<net.sealed.keys.KeyAnnouncement.pub>`), and when the round first needs a public order every
participant opens its share (``sseed``), checked at once against its commitment
(:meth:`net.sealed.RoundKeys.public_seed`). The seed is a hash of them all: while one participant
keeps its share, nobody knows it, and nobody can grind its own (as it could a seed taken from the
round's keys, which the last to announce could choose after seeing the others'). The last to open
its share can only withhold it, and the watchdog names it. A round that needs no public order
(classic's never do) opens nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from core.source import SeededSource

from ..sealed import Fault
from .peerstate import PeerState
from .signed import Alarm


class PublicOrder(PeerState):
    """The round's public orders (a base of :class:`~net.sealing.SealedPeer`, whose state it reads)."""

    public: SeededSource | None
    """The round's source of public orders, once every share is open (None until it is needed)."""

    if TYPE_CHECKING:  # the peer's (see net.sealing.lockstep)
        async def take(self, kind: str, authors: Iterable[int], *, deadline: float | None = None,
                       missing: str = "protocol") -> dict[int, dict[str, Any]]: ...

    async def _public_order(self) -> SeededSource:
        """The round's source of public orders: at its first need, every participant's share opened."""
        if self.public is None:
            if self.secret is not None:
                self.send({"k": "sseed", "r": self.round, "v": self.secret.public_share})
            got = await self.take("sseed", self.pids)
            try:
                seed = self.keys.public_seed({p: body.get("v") for p, body in got.items()})
            except Fault as f:
                raise Alarm(f) from None
            self.public = SeededSource(seed)
        return self.public


__all__ = ["PublicOrder"]
