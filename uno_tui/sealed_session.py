"""A person's seat at a sealed table (issue 16): the table screen over a :class:`net.sealing.SealedPeer`.

The peer's own game knows this seat's hand (the faces opened to it) and the public cards, so the
screen shows the hand and offers only the moves that game finds legal; :meth:`SealedSession.send`
sends the move with the keys of the cards it shows. Everything else (the epochs, the openings,
the round's audit and verdict) the peer does by itself; each deal and move it follows comes back
to the screen as a :class:`~uno_tui.session.SessionChanged`.
"""

from __future__ import annotations

from typing import Callable

from core import Action, Event, IllegalAction
from net.sealing import SealedPeer

from .narration import match_decided
from .session import Observation, SessionChanged, Watcher, with_match_length


class ScreenPeer(SealedPeer):
    """A sealed peer whose seat is played by a person at a screen (no bot chooses for it)."""

    auto = False


class SealedSession:
    """One seat (or a spectator's chair) at a sealed table, for :class:`uno_tui.app.UnoApp`.

    ``peer`` is running (its first deal done: :attr:`SealedPeer.game` is set)."""

    @property
    def deals(self) -> bool | None:
        """Whether this seat starts what comes next: the table deals its next round by itself (every
        peer, once every verdict is in: None), so only a host whose match is decided does (its rematch)."""
        obs = self._obs
        if not (obs["over"] and match_decided(obs)):  # (the last round of a --rounds match, too, until it ends)
            return None
        return self._rematch is not None

    def __init__(self, peer: SealedPeer, rematch: Callable[[], None] | None = None) -> None:
        """``rematch``: the host's (a new match with the same people); a joiner's session has none."""
        if not peer.settled:
            raise ValueError("the sealed table has not dealt yet, or is in a move (see SealedPeer.settled)")
        self.peer = peer
        self._rematch = rematch
        # The person's seat: the one its peer leaves to it (a host's peer also holds its bots').
        self._me = min(peer.manual) if peer.manual else (peer.seats[0] if peer.seats else None)
        self.names = list(peer.names)
        self.labels = ["you" if q == self.me else ("bot" if peer.owners[q] == 0 and q not in peer.manual
                                                   else "player") for q in range(len(self.names))]
        self._watcher: Watcher | None = None
        # The round so far: the deal, and the moves made before this screen came to the table (a
        # bot that acts first may have played while the person's client was opening its hand).
        self._round: list[Event] = self._seen(getattr(peer, "round_events", []))
        self._obs = self._observe()
        peer.listeners.append(self._changed)

    def _observe(self) -> Observation:
        """The seat's view now: taken only once a deal or move is whole (between the move and the
        opening of the cards it brings, the game holds cards still sealed to this seat)."""
        g = self.peer.game
        assert g is not None
        return with_match_length(g.observation(self.me), self.peer.rounds)  # type: ignore[arg-type,return-value]

    @property
    def me(self) -> int | None:
        return self._me

    def _seen(self, events: list[Event]) -> list[Event]:
        g = self.peer.game
        assert g is not None
        return [e.view(self.me) for e in g.fill(events)]

    def _changed(self, events: list[Event]) -> None:
        seen = self._seen(events)
        self._obs = self._observe()
        if any(e.kind == "deal" for e in seen):
            self._round = []
        self._round += seen
        if self._watcher is not None:
            self._watcher.post_message(SessionChanged(seen))

    # -- Session ------------------------------------------------------------------------
    def observation(self) -> Observation:
        return self._obs

    def opening_events(self) -> list[Event]:
        return list(self._round)

    def attach(self, watcher: Watcher | None, *, pacing: tuple[float, float] = (0.6, 0.9)) -> None:
        self._watcher = watcher

    def wake(self) -> None:
        pass  # the others move on their own clients' clocks

    def send(self, action: Action) -> None:
        if self.me is None:
            raise IllegalAction("a spectator makes no moves")
        self.peer.move(self.me, action)

    @property
    def in_progress(self) -> bool:
        """A round under way (leaving asks first: the others' round is void once the host's grace is over)."""
        g = self.peer.game
        return g is not None and g.phase != "over" and self.peer.alarm is None

    def next_round(self) -> None:
        raise IllegalAction("the sealed table deals the next round by itself once every verdict is in")

    def rematch(self) -> None:
        if self._rematch is None:
            raise IllegalAction("the host decides on a rematch: stay, and it comes to you")
        if self.in_progress:
            raise IllegalAction("the match is still being played")
        try:
            self._rematch()
        except ValueError:  # the round's last verdicts are still coming in
            raise IllegalAction("the round's audit is still under way: try again in a moment") from None

    def __repr__(self) -> str:  # pragma: no cover
        return f"SealedSession(seat {self.me})"


__all__ = ["ScreenPeer", "SealedSession"]
