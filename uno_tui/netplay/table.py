"""The table at a network game: the game's own table, fed by the host's updates, with chat.

A network table is the game's table screen (same widgets, keys and pickers) with
:class:`NetTableScreen` on top, which adds what a remote table needs:

* a key press only *sends* an intent: what happened is drawn when the host's update comes
  back (the session posts it to the table, as a local game's moves are);
* a chat line (``t`` or ``/`` opens it, enter sends, escape closes) and chat in the log;
* each seat's status from the lobby (away, a bot playing for them) in the players list;
* the link's state (lost, restored) on a line above the keys;
* spectators: no hand, the public table only;
* between rounds the host deals; a joiner's "next" just says so.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Input, Static

from core import IllegalAction

from ..faces import face_for
from ..faces.face import Face
from ..screens.round_over import RoundOverScreen
from ..screens.table import TableScreen
from ..widgets import GameLog
from .news import ChatHeard, LinkChanged, LobbyChanged, NoteAdded
from .session import NetSession

CHAT_STYLE = "bold magenta"
NET_STYLE = "italic cyan"


NET_CSS = """
#net-bar {
    dock: bottom;
    height: 1;
    background: $panel;
    color: $text-muted;
    padding: 0 1;
}
#net-bar.-lost { background: $error; color: $text; text-style: bold; }
#chat-input { dock: bottom; display: none; height: 3; }
#chat-input.-open { display: block; }
"""

NET_BINDINGS = [
    Binding("t,slash", "open_chat", "chat", key_display="t"),
    Binding("escape", "close_chat", "close chat", show=False),
]


class NetTableScreen:
    """What a table at a network game adds to a game's table screen; every network table is one.

    A plain mixin, put before the game's table (:func:`net_table_class`): Textual gathers CSS
    along a class's first base only and bindings from DOM classes, so the concrete class made
    there carries the chat key and the styles.
    """

    session: NetSession
    gone: str | None  # (the table screen's)

    def __init__(self, session: NetSession, *, face: Face, pacing: tuple[float, float] = (0.6, 0.9)) -> None:
        super().__init__(session, face=face, pacing=pacing)  # type: ignore[call-arg]
        self._seats_seen: list[dict[str, Any]] | None = None

    # -- layout -------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield from super().compose()  # type: ignore[misc]
        yield Static(self._bar_text(), id="net-bar")
        yield Input(placeholder="say something to the table · enter sends · escape closes",
                    max_length=300, id="chat-input")

    def on_mount(self) -> None:
        # (Textual runs TableScreen.on_mount too, after this one: it is a message handler.)
        if self.session.lobby is not None:
            self._seats_seen = self.session.lobby["seats"]
            self._show_away(self._seats_seen)
        self.call_after_refresh(self._replay_chat)

    def _replay_chat(self) -> None:
        for line in self.session.chat[-8:]:  # the end of the lobby's conversation
            self.add_chat(line)

    def _bar_text(self) -> str:
        s = self.session
        lobby = s.lobby or {}
        where = f"{lobby.get('host') or s.client.host_name or 'the host'} at {s.client.address}"
        role = "watching" if s.spectator else ("hosting" if s.is_host else f"seat {s.me + 1}")
        return f"online · {where} · {role} · t: chat"

    # -- the host's news (posted by the app: see .news) ---------------------------------------
    # Plain ``on_`` handlers: Textual finds them on a mixin too (``@on`` needs a DOM class).
    def on_lobby_changed(self, message: LobbyChanged) -> None:
        if message.lobby is not None:
            self.lobby_changed(message.lobby)

    def on_chat_heard(self, message: ChatHeard) -> None:
        self.add_chat(message.line)

    def on_note_added(self, message: NoteAdded) -> None:
        self.add_note(message.text)

    def on_link_changed(self, message: LinkChanged) -> None:
        self.link_changed(message.state, message.reason)

    def lobby_changed(self, lobby: dict[str, Any]) -> None:
        """Seats' statuses changed: relabel the players and tell the log who left or came back."""
        players = self._players()
        if players is not None and hasattr(players, "labels"):
            players.labels = list(self.session.labels)
            players.refresh(layout=True)
        self._show_away(lobby["seats"])
        before, self._seats_seen = self._seats_seen, lobby["seats"]
        if before is None or len(before) != len(lobby["seats"]):
            return
        for old, new in zip(before, lobby["seats"]):
            if new["kind"] != "human" or new["seat"] == self.session.me:
                continue
            name = new["name"]
            if new["away"] and not old["away"]:
                self.add_note(f"{name} lost the link; their seat waits for them.")
            elif new["bot_plays"] and not old["bot_plays"]:
                self.add_note(f"{name} is still away: a bot plays for them until they return.")
            elif old["away"] and not new["away"]:
                self.add_note(f"{name} is back.")

    def _show_away(self, seats: list[dict[str, Any]]) -> None:
        """Who is away (and whether a bot plays for them), under the players list at any width."""
        away = [f"{s['name']} away" + (", a bot plays" if s["bot_plays"] else "")
                for s in seats if s["kind"] == "human" and s["away"]]
        players = self._players()
        if players is not None:
            players.border_subtitle = " · ".join(away) or None

    def _players(self) -> Widget | None:
        """The seats' panel: ``#players`` on the UNO table, ``#seats`` on the trick table."""
        found = self.query("#players, #seats")
        return found.first() if found else None

    def link_changed(self, state: str, reason: str) -> None:
        bar = self.query_one("#net-bar", Static)
        if state == "lost":
            bar.add_class("-lost")
            bar.update("link to the host lost: reconnecting…")
            self.add_note("The link to the host was lost; reconnecting…")
        elif state == "restored":
            bar.remove_class("-lost")
            bar.update(self._bar_text())
            self.add_note("The link to the host is back.")
        else:
            bar.add_class("-lost")
            bar.update(f"disconnected: {reason} · ctrl+q quits")
            self.add_note(f"Disconnected: {reason}")
            # A round's summary up (or to come) offers no next round or rematch any more.
            self.gone = reason
            for screen in self.app.screen_stack:
                if isinstance(screen, RoundOverScreen):
                    screen.table_gone(reason)
            # Nothing is played here any more: no "Your turn." under a table that is gone.
            for status in self.query("#status"):
                status.display = False

    def add_chat(self, line: dict[str, Any]) -> None:
        text = Text(f"<{line['from']}> ", CHAT_STYLE)
        text.append(line["text"])
        self.query_one(GameLog).add(text)

    def add_note(self, note: str) -> None:
        self.query_one(GameLog).add(Text(note, NET_STYLE))

    # -- chat ---------------------------------------------------------------------------------
    def action_open_chat(self) -> None:
        box = self.query_one("#chat-input", Input)
        box.add_class("-open")
        box.focus()

    def action_close_chat(self) -> None:
        box = self.query_one("#chat-input", Input)
        box.remove_class("-open")
        box.value = ""
        self.set_focus(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "chat-input":
            return
        text = event.value.strip()
        self.action_close_chat()
        if not text:
            return
        try:
            self.session.say(text)
        except IllegalAction as e:
            self._explain(str(e))


_CLASSES: dict[type, type] = {}


def net_table_class(base: type[TableScreen]) -> type[TableScreen]:
    """``base`` (a game's table screen) with :class:`NetTableScreen` on top."""
    cls = _CLASSES.get(base)
    if cls is None:
        name = "Net" + base.__name__
        cls = _CLASSES[base] = type(name, (NetTableScreen, base), {
            "BINDINGS": NET_BINDINGS, "DEFAULT_CSS": NET_CSS, "__module__": __name__,
            "__doc__": f"{base.__name__} at a network game."})
    return cls


def net_table_screen(session: NetSession, *, pacing: tuple[float, float] = (0.6, 0.9)) -> TableScreen:
    """The table that draws the session's game, as a network table."""
    face = face_for(session.observation()["variant"])
    return net_table_class(face.table_screen())(session, face=face, pacing=pacing)  # type: ignore[arg-type]
