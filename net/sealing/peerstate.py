"""What the sealed peer's parts read of one another, declared once.

:class:`~net.sealing.SealedPeer` is made of parts (its deliveries, its round end, ...), each a base
class of its own module; they share the peer's state. This base names the state and the methods
more than one part reads, so that each part need declare only what is its alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import core

from ..sealed import Envelope, RoundKeys, RoundSecret
from ..sealed.epoch import Slot


class PeerState:
    """The sealed peer's state, as its parts read it (set by :class:`~net.sealing.SealedPeer`)."""

    pid: int | None
    round: int
    game: core.Game | None
    keys: RoundKeys
    secret: RoundSecret | None
    envelopes: list[Envelope]
    handle_of: dict[Slot, int]

    if TYPE_CHECKING:  # the peer's (see net.sealing.lockstep)
        @property
        def pids(self) -> list[int]: ...

        @property
        def deck(self) -> tuple[tuple[str | None, str], ...]: ...

        def _size(self) -> int: ...

        def send(self, body: dict[str, Any]) -> None: ...


__all__ = ["PeerState"]
