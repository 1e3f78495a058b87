"""A seat at a remote table, behind the same :class:`uno_tui.session.Session` protocol as a local game.

The table screen reads :meth:`NetSession.observation` and calls
:meth:`NetSession.send`; nothing there knows about sockets. The differences:

* :meth:`send` only *sends* the intent (through :meth:`net.Client.send_intent`):
  what happened comes back from the host a moment later, in an ``update``
  that :meth:`absorb_update` turns into a :class:`~uno_tui.session.SessionChanged`
  for the table, as a local game's moves are. A refusal comes back as a
  ``reject`` and is shown as a notification. What can be refused before
  anything is sent (a spectator acting, the link being down) raises
  :class:`core.IllegalAction` at once, like a local game.
* The host runs the bots: :meth:`wake` has nothing to wake, and ``pacing`` is the host's.
* :meth:`next_round` / :meth:`rematch` deal only for the host's own player
  (the in-process :class:`net.Host` is given); a joiner is told the host deals.

Incoming messages are read by the app (one pump over ``client.messages``),
which feeds :meth:`absorb_lobby` / :meth:`absorb_update` and routes the rest.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from typing import TYPE_CHECKING, Any, Callable, Coroutine

from core import Action, Event, IllegalAction

from ..session import SessionChanged, Watcher, with_match_length

if TYPE_CHECKING:
    from net import Client, Host

log = logging.getLogger("uno_tui.netplay")

Observation = dict[str, Any]

RESEND_GUARD = 2.0
"""Seconds during which the very same intent is not sent twice (a double key press)."""


def seat_label(seat: dict[str, Any], me: int | None) -> str:
    """A few words on a lobby seat for the players list ("you", "bot", "away", ...)."""
    if seat["seat"] == me:
        return "you"
    if seat["kind"] == "bot":
        return "bot"
    if seat["kind"] == "open":
        return "open"
    if seat["away"]:
        return "away, a bot plays" if seat["bot_plays"] else "away"
    return "player"


def _deal_of(events: list[Event]) -> list[dict[str, Any]] | None:
    """The deal that opens ``events`` as this seat saw it (the deal, the hands dealt, the card
    turned up), to tell one deal from another: a rematch's ``deal`` event alone says only who
    dealt how many, but this seat's own hand and the starting card differ from deal to deal."""
    start = next((i for i, e in enumerate(events) if e.kind == "deal"), None)
    if start is None:
        return None
    out = []
    for e in events[start:start + 24]:
        out.append(e.to_dict())
        if e.kind == "start":
            break
    return out


class NetSession:
    """One seat (or a spectator's chair) at a table run by a :class:`net.Host`.

    ``client`` is connected already. ``host`` is the in-process host when the
    person at this screen is hosting (it deals rounds and rematches).
    ``on_problem`` is told, in words, when an intent could not be sent.
    """

    def __init__(self, client: "Client", *, host: "Host | None" = None,
                 on_problem: Callable[[str], None] | None = None) -> None:
        self.client = client
        self.host = host
        self.on_problem = on_problem
        self.lobby: dict[str, Any] | None = client.lobby
        self.names: list[str] = []
        self.labels: list[str] = []
        self.chat: list[dict[str, Any]] = []
        """Every chat line heard, oldest first (``{from, seat, text}``)."""
        self.received: deque[dict[str, Any]] = deque(maxlen=2000)
        """The latest ``update`` messages the host sent this seat, in order (what this seat was shown)."""
        self._opening: list[Event] = []
        self._watcher: Watcher | None = None
        self._last_sent: tuple[dict[str, Any], int | None, float] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        if self.lobby is not None:
            self.absorb_lobby(self.lobby)

    # -- who is where -------------------------------------------------------------------
    @property
    def me(self) -> int | None:
        """This screen's seat; ``None`` for a spectator."""
        return self.client.seat

    @property
    def spectator(self) -> bool:
        return self.client.seat is None

    @property
    def is_host(self) -> bool:
        return self.host is not None

    @property
    def connected(self) -> bool:
        return self.client.connected

    def absorb_lobby(self, lobby: dict[str, Any]) -> None:
        """Take the host's latest lobby message: seat names and what each seat is."""
        self.lobby = lobby
        seats = lobby["seats"]
        # The names are fixed once a game is dealt (the engine's names are the seats' names then).
        if not self.names or lobby["phase"] == "lobby" or len(self.names) != len(seats):
            self.names = [s["name"] or f"Seat {s['seat'] + 1}" for s in seats]
        self.labels = [seat_label(s, self.me) for s in seats]

    def absorb_update(self, msg: dict[str, Any]) -> list[Event]:
        """Take an ``update`` and tell the table; returns its events as this seat may see them."""
        events = [Event.from_dict(d) for d in msg["events"]]
        if any(e.kind == "deal" for e in events):
            self._opening = events
        elif msg.get("history"):
            # Joined (or rejoined) mid-round: the host tells the round so far, for the log to open with.
            try:
                history = [Event.from_dict(d) for d in msg["history"]]
            except (ValueError, KeyError, TypeError):
                log.info("the host's history of the round was not readable; the log starts now")
                history = []
            if not self._opening:
                self._opening = history + events
            elif _deal_of(history) is not None and _deal_of(history) != _deal_of(self._opening):
                # Back after the end of a match, and the host dealt a rematch while we were away:
                # the table hears that deal and the moves since, as if it had been here.
                self._opening = events = history + events
        self.received.append(msg)
        if self._last_sent is not None and msg.get("seq") == self._last_sent[1]:
            self._last_sent = None
        if not self.names:
            self.names = [f"Seat {i + 1}" for i in range(len(msg["obs"]["players"]))]
            self.labels = ["you" if i == self.me else "player" for i in range(len(self.names))]
        if self._watcher is not None:
            self._watcher.post_message(SessionChanged(events))
        return events

    def absorb_reject(self, msg: dict[str, Any]) -> None:
        if self._last_sent is not None and msg.get("seq") == self._last_sent[1]:
            self._last_sent = None

    # -- Session -----------------------------------------------------------------------
    def observation(self) -> Observation:
        obs = self.client.observation
        if obs is None:
            raise RuntimeError("no game is being played at this table yet")
        return with_match_length(obs, (self.lobby or {}).get("rounds"))

    def opening_events(self) -> list[Event]:
        return list(self._opening)

    def attach(self, watcher: Watcher | None, *, pacing: tuple[float, float] = (0.6, 0.9)) -> None:
        self._watcher = watcher

    def wake(self) -> None:
        pass  # the host plays the bots, at its own pace

    def send(self, action: Action) -> None:
        """Send the intent to the host; the outcome arrives as an update (or a reject)."""
        if self.spectator:
            raise IllegalAction("you are watching: spectators cannot play")
        if not self.client.connected:
            raise IllegalAction("the link to the host is down; wait until it is back")
        now = time.monotonic()
        wanted = action.to_dict()
        if self._last_sent is not None and self._last_sent[0] == wanted and now - self._last_sent[2] < RESEND_GUARD:
            return  # the same key twice before the host answered: once is enough
        self._last_sent = (wanted, None, now)
        self._spawn(self._send(action, wanted))

    async def _send(self, action: Action, wanted: dict[str, Any]) -> None:
        try:
            seq = await self.client.send_intent(action)
        except Exception as e:  # NotConnected, a reset socket...
            self._last_sent = None
            if self.on_problem is not None:
                self.on_problem(f"could not send that to the host: {e}")
            return
        if self._last_sent is not None and self._last_sent[0] == wanted and self._last_sent[1] is None:
            self._last_sent = (wanted, seq, self._last_sent[2])

    @property
    def deals(self) -> bool:
        return self.host is not None  # only the in-process host deals

    def next_round(self) -> None:
        obs = self.client.observation
        if obs is None or not obs["over"]:
            raise IllegalAction("the round is still being played")
        if self.host is None:
            raise IllegalAction("the host deals the next round; wait for them")
        try:
            self.host.next_round()  # the deal arrives as an update, like everyone else's
        except ValueError as e:
            raise IllegalAction(str(e)) from None

    def rematch(self) -> None:
        if self.host is None:
            raise IllegalAction("the host decides on a rematch; wait for them")
        try:
            self.host.rematch()
        except ValueError as e:
            raise IllegalAction(str(e)) from None

    # -- beyond the protocol -------------------------------------------------------------
    def rebind(self, client: "Client") -> None:
        """Go on with another client for the same seat (after the match ended and we came back)."""
        self.client = client
        self._last_sent = None

    def say(self, text: str) -> None:
        """Send a chat line (the host's own lines go straight through the host)."""
        text = text.strip()
        if not text:
            return
        if not self.client.connected:
            raise IllegalAction("the link to the host is down; wait until it is back")
        self._spawn(self.client.chat(text))

    def set_ready(self, ready: bool) -> None:
        if self.spectator:
            raise IllegalAction("spectators have no seat to be ready in")
        if not self.client.connected:
            raise IllegalAction("the link to the host is down; wait until it is back")
        self._spawn(self.client.ready(ready))

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        """Run ``work`` on the app's loop, keeping a reference until it is done."""
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @property
    def ready(self) -> bool:
        if self.lobby is None or self.me is None:
            return False
        return bool(self.lobby["seats"][self.me]["ready"])
