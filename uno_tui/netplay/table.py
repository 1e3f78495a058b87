"""The table at a network game: the local table, fed by the host's updates, with chat.

:class:`NetTableScreen` is the local :class:`uno_tui.screens.TableScreen`
(same widgets, keys and colour picker) with what a remote table adds:

* the host's updates are pushed in by the app through :meth:`host_update`
  (a key press only *sends* an intent; what happened is drawn when it comes back);
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

from core import Event, IllegalAction

from ..screens import RoundOverScreen, TableScreen, TrickRoundOverScreen, table_screen_for
from ..widgets import GameLog
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


class NetTableMixin:
    """What a table at a network game adds to a local table screen (see :func:`net_table_screen`).

    A plain mixin (Textual gathers bindings and CSS only from DOM classes, so
    the concrete class made by :func:`net_table_class` carries them).
    """

    session: NetSession

    def __init__(self, session: NetSession, *, pacing: tuple[float, float] = (0.6, 0.9)) -> None:
        super().__init__(session, pacing=pacing)  # type: ignore[call-arg]
        self._round_key: tuple[int, int] | None = None  # (round, scores total) of the deal shown last
        self._last_version = -1
        self._seats_seen: list[dict[str, Any]] | None = None

    # -- layout -------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield from super().compose()  # type: ignore[misc]
        yield Static(self._bar_text(), id="net-bar")
        yield Input(placeholder="say something to the table · enter sends · escape closes",
                    max_length=300, id="chat-input")

    def on_mount(self) -> None:
        # (Textual runs TableScreen.on_mount too, after this one: it is a message handler.)
        obs = self.session.observation()
        self._round_key = self._key(obs)
        self._last_version = obs["version"]
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

    # -- spectators have no hand and no score of their own -----------------------------------
    def _refresh(self) -> None:
        if not self.session.spectator:
            super()._refresh()
            return
        self.obs = self.session.observation()
        self.query_one("#hand-panel").border_title = "Watching · every hand is hidden"

    def _explain(self, message: str) -> None:
        if self.session.me is None:  # a spectator: there is no "you" to address
            self.notify(message[:1].upper() + message[1:], title="Not now", severity="warning", timeout=4)
            return
        super()._explain(message)

    # -- pushed in by the app ------------------------------------------------------------
    @staticmethod
    def _key(obs: dict[str, Any]) -> tuple[int, int]:
        return obs["round"], sum(obs["scores"])

    def host_update(self, events: list[Event]) -> None:
        """The host says the state changed: log it, redraw, and show the end of a round."""
        obs = self.session.observation()
        new_deal = any(e.kind == "deal" for e in events) or (
            self._key(obs) != self._round_key and not obs["over"]
        ) or obs["version"] < self._last_version
        self._last_version = obs["version"]
        if new_deal:
            rematch = obs["round"] == 0 and self._round_key is not None
            self._round_key = self._key(obs)
            self._round_over_pending = False
            if isinstance(self.app.screen, (RoundOverScreen, TrickRoundOverScreen)):
                self.app.screen.dismiss("stay")  # the host dealt: back to the table
            self.query_one(GameLog).add_heading(("New match · " if rematch else "") + f"Round {obs['round'] + 1}")
        self._after(events)

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

    # -- between rounds: the host deals --------------------------------------------------------
    def _deal(self, how: str) -> None:  # type: ignore[override]
        self._round_over_pending = False
        try:
            if how == "rematch":
                self.session.rematch()
            else:
                self.session.next_round()
        except IllegalAction as e:
            self.notify(str(e)[:1].upper() + str(e)[1:], title="Between rounds", timeout=4)


_CLASSES: dict[type, type] = {}


def net_table_class(base: type[TableScreen]) -> type[TableScreen]:
    """``base`` (the UNO table or the trick table) with :class:`NetTableMixin` on top."""
    cls = _CLASSES.get(base)
    if cls is None:
        name = "Net" + base.__name__
        cls = _CLASSES[base] = type(name, (NetTableMixin, base), {
            "BINDINGS": NET_BINDINGS, "DEFAULT_CSS": NET_CSS, "__module__": __name__,
            "__doc__": f"{base.__name__} at a network game."})
    return cls


NetTableScreen = net_table_class(TableScreen)
"""The UNO table at a network game."""


def net_table_screen(session: NetSession, *, pacing: tuple[float, float] = (0.6, 0.9)) -> TableScreen:
    """The table that fits the session's variant, as a network table."""
    base = type(table_screen_for(session, pacing=pacing))
    return net_table_class(base)(session, pacing=pacing)
