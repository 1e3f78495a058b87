"""The sealed table's waiting room on the screen: the open table's :class:`~uno_tui.netplay.lobby.LobbyScreen`
over a sealed host or client, then the table when the deal comes.

:class:`SealedRoom` is the lobby's :class:`~uno_tui.netplay.lobby.Room` (and the seat's session the lobby
reads): it keeps the host's last waiting room (cleaned by :func:`net.sealing.room.clean_lobby`) and the
chat (cleaned by :func:`net.sealing.room.heard`), and sends the person's chat and the host's "deal now".
:class:`SealedApp` opens on the lobby and swaps in the table screen once the peer has dealt.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Callable

from textual import events

from core import IllegalAction
from net.sealing import SealedPeer
from net.sealing.room import clean_lobby, heard

from .app import UnoApp
from .netplay.lobby import LobbyScreen
from .netplay.news import ChatHeard, LinkChanged, LobbyChanged, NoteAdded
from .netplay.table import net_table_screen
from .sealed_session import SealedSession
from .session import TableConfig


class _Dealer:
    """The host's side of the lobby's b and s keys: deal now, the open seats to the host's bots."""

    def __init__(self, start_now: Callable[[], None]) -> None:
        self.fill_with_bots = self.start_game = start_now


class SealedRoom:
    """The waiting room of one seat (or a host's, or a spectator's) at a sealed table."""

    sealed = True
    ready = True
    """Being there is being ready: the deal starts when the seats fill, or when the host says."""

    def __init__(self, *, where: str, say: Callable[[str], None], start_now: Callable[[], None] | None = None,
                 spectator: bool = False) -> None:
        self.where = where or "a sealed table"
        """Where the table is, in words (the lobby never falls back to a link's address: there is none)."""
        self.notes: list[str] = []
        self.lobby: dict[str, Any] | None = None
        self.chat: list[dict[str, Any]] = []
        self._say = say
        self.host = _Dealer(start_now) if start_now is not None else None
        self.is_host = start_now is not None
        self.spectator = spectator
        self.me: int | None = None
        self.screens: list[Any] = []
        """Where the room's news goes: the lobby screen, and the table's once it is dealt."""

    @property
    def session(self) -> "SealedRoom":
        return self  # the lobby reads the seat's session from its room: here they are one

    def heard(self, kind: str, msg: dict[str, Any]) -> None:
        """A listener of :class:`net.sealing.SealedClient` / :class:`~net.sealing.SealedHost`."""
        if kind == "lobby":
            self.lobby = clean_lobby(msg) or self.lobby
            self._post(LobbyChanged(self.lobby))
        elif kind == "link":  # the client's link to the host, lost and back (it reconnects by itself)
            self._post(LinkChanged("restored" if msg.get("up") else "lost", ""))
        elif kind == "closed":  # the match is whole and the host closed the table: no reconnecting
            self._post(LinkChanged("closed", "the host closed the table"))
        elif kind == "chat":
            who, text = heard(msg)
            line = {"from": who, "seat": None, "text": text}
            self.chat.append(line)
            self._post(ChatHeard(line))

    def note(self, text: str) -> None:
        self.notes.append(text)
        self._post(NoteAdded(text))

    def _post(self, message: Any) -> None:
        for screen in self.screens:
            screen.post_message(message)

    def say(self, text: str) -> None:
        self._say(text)

    def set_ready(self, ready: bool) -> None:
        raise IllegalAction("at a sealed table being here is being ready: the deal starts when the seats fill")


@dataclass
class _Where:
    """What the network table's bar reads of its link: the host's name and where it is."""

    address: str
    host_name: str = ""


class SealedTable(SealedSession):
    """A sealed seat as the network table screen reads it (:class:`~uno_tui.netplay.table.NetTableScreen`:
    the chat line and the room's news at the table), its room's chat and waiting room beside the game."""

    def __init__(self, peer: SealedPeer, room: SealedRoom, rematch: Callable[[], None] | None = None) -> None:
        super().__init__(peer, rematch)
        self.room = room
        self.client = _Where(room.where.removeprefix("players join with: uno-tui join ").removeprefix("at "))

    @property
    def lobby(self) -> dict[str, Any] | None:
        return self.room.lobby

    @property
    def chat(self) -> list[dict[str, Any]]:
        return self.room.chat

    @property
    def spectator(self) -> bool:
        return self.room.spectator

    @property
    def is_host(self) -> bool:
        return self.room.is_host

    def say(self, text: str) -> None:
        self.room.say(text)


class SealedApp(UnoApp):
    """The app of a sealed seat: the waiting room first, then the table."""

    def __init__(self, room: SealedRoom, peer: Callable[[], SealedPeer | None], *,
                 config: TableConfig | None = None) -> None:
        """``peer()``: the seat's peer once the table has started (None before)."""
        super().__init__(None, config=config)
        self.room = room
        self.peer = peer
        self.rematch: Callable[[], None] | None = None
        """The host's: a new match with the same people (a joiner's rematch comes from its host)."""
        room.screens = [LobbyScreen(room)]  # type: ignore[arg-type]

    def get_default_screen(self) -> LobbyScreen:
        return self.room.screens[0]

    def on_mount(self, event: events.Mount) -> None:
        event.prevent_default()  # no new-game screen (UnoApp's on_mount): the host chose the game
        self.run_worker(self._wait_for_the_deal(), group="deal")

    async def _wait_for_the_deal(self) -> None:
        # The peer deals in its own task (every pass of every participant): looked at between frames.
        # A rematch brings a new peer, and its table replaces the last one.
        shown = None
        while True:
            p = self.peer()
            if p is not None and p is not shown and p.settled:
                shown = p
                self.dealt(p)
            await asyncio.sleep(0.02)

    def dealt(self, peer: SealedPeer) -> None:
        """A match's first deal is done: its table opens over the lobby (over the last match's)."""
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.session = SealedTable(peer, self.room, self.rematch)  # type: ignore[assignment]
        table = net_table_screen(self.session, pacing=self.pacing)  # type: ignore[arg-type]
        self.room.screens = [self.room.screens[0], table]
        self.push_screen(table)


__all__ = ["SealedApp", "SealedRoom"]
