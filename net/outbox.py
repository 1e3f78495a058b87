"""How the table speaks to the world: the :class:`Outbox` it is given, and the :class:`Update` it sends.

The table (:mod:`net.table`) owns the game and knows nothing of sockets; the
gateway (:mod:`net.gateway`) owns the sockets and implements this protocol,
the way boardgame.io's master is handed its transport. Everything the table
and its dealer say goes through these five calls, so a test can hold a table
with an outbox of its own, and a later transport can replace the gateway.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from core import Event


@dataclass
class Update:
    """The state changed (or a peer needs the state again): each peer is sent its own view.

    The gateway builds every peer's view from the table's (its public part once, each
    seat's own part, a patch to what the peer holds: :mod:`net.views`) with the events
    as that peer may see them.
    """

    events: list[Event] = field(default_factory=list)
    """What happened, as the engine told it (each peer gets :meth:`core.Event.view` of them)."""
    public: list[dict[str, Any]] | None = None
    """The events as everyone sees them, when the table built them already."""
    actor: int | None = None
    """The seat that moved (None: a deal, or a resend)."""
    auto: bool = False
    """A bot moved for a person (turn timer, away, benched)."""
    cause: int | None = None
    """The seat whose intent this was: its peer hears first, and gets ``seq``."""
    seq: int | None = None
    then: dict[str, Any] | None = None
    """A message every peer gets right behind its update, in the same write (the lobby at a round's end)."""
    only: int | None = None
    """Send to this seat alone (a resend after a reject: its view now, no events)."""


class Outbox(Protocol):
    """Where the table's words go (the gateway, or a test's recorder)."""

    def send(self, seat: int, msg: dict[str, Any]) -> None:
        """To the person in ``seat`` alone; dropped while they are away (what matters is resent on return)."""

    def broadcast(self, msg: dict[str, Any]) -> None:
        """To every peer that has said hello (players and spectators), the same bytes for all."""

    def update(self, update: Update) -> None:
        """A change of state: to every peer (or ``update.only``), each its own view."""

    def fault(self, seat: int, code: str, reason: str) -> None:
        """The person in ``seat`` broke the protocol: told so and counted (dropped past the limit)."""

    def emit(self, kind: str, data: dict[str, Any]) -> None:
        """News for the host's own listeners (its screen, the headless printer); nothing goes on the wire."""
