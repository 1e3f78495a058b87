"""A seat at a table on this server: ``uno-tui join``'s app, with the owner's keys when it is yours.

The tables live in the server's process (:mod:`.tables`); a session joins one
over loopback exactly as ``uno-tui join`` does, with the person's own
identity and seat tokens. The person who opened the table also gets the
host's keys in the lobby and between rounds (bots fill the open seats, start,
deal the next round, rematch): :class:`OwnerControls` stands where the
in-process :class:`net.Host` stands for ``uno-tui host``, and asks the server,
which checks that this session's person owns the table.
"""

from __future__ import annotations

from typing import Any

from uno_tui.netplay.app import NetApp

from .control import ControlClient, ControlError
from .styles import SharedStyles
from .window import WindowGuard


class OwnerControls:
    """The owner's moves, sent to the server (the lobby and the table call these as the host's)."""

    def __init__(self, control: ControlClient, table: str) -> None:
        self.control = control
        self.table = table
        self.app: Any = None

    def fill_with_bots(self) -> None:
        self._ask("fill_bots")

    def start_game(self) -> None:
        self._ask("start")

    def next_round(self) -> None:
        self._ask("next_round")

    def rematch(self) -> None:
        self._ask("rematch")

    def _ask(self, action: str) -> None:
        # Off the app's loop: the answer is a round trip to the server, and a refusal comes back as a note.
        self.app.run_worker(lambda: self._call(action), thread=True, group="owner")

    def _call(self, action: str) -> None:
        try:
            self.control.call("owner", table=self.table, action=action)
        except ControlError as e:
            text = str(e)
            self.app.call_from_thread(self.app.notify, text[:1].upper() + text[1:], title="Not now",
                                      severity="warning", timeout=4)


class ServedNetApp(SharedStyles, WindowGuard, NetApp):
    """:class:`NetApp` joined to a table on this server; ``controls`` when the person owns it."""

    def __init__(self, *, controls: OwnerControls | None = None, outside: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__(browse=None, mdns=False, **kwargs)
        self.controls = controls
        self.outside = outside
        if controls is not None:
            controls.app = self

    async def _attach(self, client: Any) -> None:
        self.where = "on this server" + (f" · with their own uno-tui, others join with: uno-tui join {self.outside}"
                                         if self.outside else "")
        await super()._attach(client)
        if self.controls is not None and self.session is not None:
            self.session.host = self.controls  # type: ignore[assignment]
            if self.lobby_screen.is_mounted:
                self.lobby_screen.refresh_lobby()
