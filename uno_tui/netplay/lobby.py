"""Before the game: finding a table (:class:`ConnectScreen`) and waiting at it (:class:`LobbyScreen`).

Neither knows the app: the connect screen asks to join with a message (:class:`ConnectScreen.JoinRequested`),
the lobby reads the seat's session from the :class:`Room` it is given, and both hear the host's news as
the messages of :mod:`.news`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Awaitable, Callable, Protocol

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from core import IllegalAction

from ..widgets.log import WrappingLog
from .news import ChatHeard, JoinFailed, LinkChanged, LobbyChanged, NoteAdded
from .session import NetSession

if TYPE_CHECKING:
    from net.discovery import Found

Browse = Callable[[float], Awaitable[tuple[list["Found"], str]]]


class Room(Protocol):
    """What the lobby reads of the seat it waits in (the network app is one)."""

    session: NetSession | None
    """The seat's session, once joined."""
    notes: list[str]
    """Lines about the table so far (its address, discovery), for the lobby's log."""
    where: str
    """Where the table is, in words ("players join with: ...")."""

LOBBY_CSS = """
ConnectScreen, LobbyScreen { align: center top; }
#connect, #lobby { width: 100; max-width: 100%; height: 1fr; padding: 0 1; }
#connect-title, #lobby-title { text-style: bold; color: $accent; padding: 1 0 0 0; }
#browse-status, #lobby-where, #lobby-options { color: $text-muted; }
#found { height: auto; max-height: 10; border: round $primary 60%; }
#found.-empty { display: none; }
#connect-error { color: $error; text-style: bold; height: auto; }
#address, #password, #lobby-chat-input { margin: 1 0 0 0; }
#password { display: none; }
#password.-open { display: block; }
#lobby-seats { border: round $primary 60%; height: auto; padding: 0 1; }
#lobby-chat { border: round $primary 60%; height: 1fr; min-height: 4; }
#lobby-status { text-style: bold; padding: 1 0 0 0; height: auto; }
#lobby-status.-ready { color: $success; }
#lobby-status.-lost { color: $error; }
"""


class ConnectScreen(Screen[None]):
    """``uno-tui join`` with no address: tables found on the LAN, or an address typed in."""

    DEFAULT_CSS = LOBBY_CSS
    AUTO_FOCUS = "#address"
    BINDINGS = [Binding("ctrl+r", "browse", "look again")]

    class JoinRequested(Message):
        """Join the table at ``address`` (with ``password``, when one was typed)."""

        def __init__(self, address: str, password: str | None) -> None:
            super().__init__()
            self.address = address
            self.password = password

    def __init__(self, browse: Browse | None, *, address: str = "", error: str = "",
                 ask_password: bool = False) -> None:
        super().__init__()
        self.ask_password = ask_password
        self.browse = browse
        self.address = address
        self.error = error
        self.found: list[Found] = []

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.browse is not None if action == "browse" else True

    def compose(self) -> ComposeResult:
        with Vertical(id="connect"):
            yield Static("Join a game of UNO", id="connect-title")
            yield Static("", id="browse-status")
            yield OptionList(id="found", classes="-empty")
            yield Input(value=self.address, placeholder="the host's address, e.g. 192.168.1.20:7777",
                        id="address")
            yield Input(placeholder="this table's password", password=True, id="password")
            yield Static(self.error, id="connect-error")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        if self.browse is not None and not self.address:
            self.action_browse()
        else:
            self.set_status("Type the host's address (host or host:port) and press enter.")
        if self.ask_password:
            self.show_error(self.error, password=True)

    def set_status(self, text: str) -> None:
        self.query_one("#browse-status", Static).update(text)

    def show_error(self, text: str, *, password: bool = False) -> None:
        self.query_one("#connect-error", Static).update(text)
        box = self.query_one("#password", Input)
        if password:
            box.add_class("-open")
            box.value = ""  # a wrong password is typed again, not added to
            self.call_after_refresh(box.focus)  # once it is displayed

    def focus_address(self) -> None:
        self.query_one("#address", Input).focus()

    def action_browse(self) -> None:
        if self.browse is None:
            return
        self.set_status("Looking for tables on the LAN…")
        self.run_worker(self._browse, exclusive=True, group="browse")  # made when it runs: none left unawaited

    async def _browse(self) -> None:
        assert self.browse is not None
        found, note = await self.browse(3.0)
        self.found = found
        options = self.query_one("#found", OptionList)
        options.clear_options()
        for f in found:
            options.add_option(Option(Text(self.describe(f))))  # a name is the sender's text: never markup
        options.set_class(not found, "-empty")
        if found:
            self.set_status(f"{note}: pick one with the arrows and enter, or type an address below.")
            options.focus()
            options.highlighted = 0
        else:
            self.set_status(note)
            self.query_one("#address", Input).focus()

    def describe(self, f: Found) -> str:
        """A table found, as its line in the list."""
        props = f.properties
        extra = " · ".join(x for x in (props.get("variant", ""),
                                       f"{props['seats']} seats" if props.get("seats") else "") if x)
        return f"{f.name}  ({f.address}{' · ' + extra if extra else ''})"

    @on(OptionList.OptionSelected, "#found")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        found = self.found[event.option_index]
        self.query_one("#address", Input).value = found.address
        self._connect(found.address)

    @on(Input.Submitted)
    def _typed(self, event: Input.Submitted) -> None:
        self._connect(self.query_one("#address", Input).value.strip())

    def _connect(self, address: str) -> None:
        if not address:
            self.show_error("Type the host's address first.")
            return
        password = self.query_one("#password", Input).value or None
        self.show_error("")
        self.set_status(f"Connecting to {address}…")
        self.post_message(self.JoinRequested(address, password))

    @on(JoinFailed)
    def _failed(self, message: JoinFailed) -> None:
        self.show_error(message.reason, password=message.password)
        self.set_status("Type the host's address (host or host:port) and press enter.")
        if not message.password:
            self.focus_address()  # typing goes to the address, not to the list of tables


class LobbyScreen(Screen[None]):
    """The seats, who is ready, the table's rules, and the chat, until the host deals."""

    DEFAULT_CSS = LOBBY_CSS
    AUTO_FOCUS = None
    BINDINGS = [
        Binding("r", "toggle_ready", "ready"),
        Binding("t,slash", "open_chat", "chat", key_display="t"),
        Binding("escape", "close_chat", "close chat", show=False),
        Binding("b", "fill_bots", "bots fill the open seats"),
        Binding("s", "start", "start the game"),
    ]

    def __init__(self, room: Room) -> None:
        super().__init__()
        self.room = room
        self.lost = ""

    def compose(self) -> ComposeResult:
        with Vertical(id="lobby"):
            yield Static("", id="lobby-title")
            yield Static("", id="lobby-where")
            yield Static("", id="lobby-options")
            yield Static("", id="lobby-seats")
            yield WrappingLog(id="lobby-chat")  # wraps long lines (the join address) at any width
            yield Input(placeholder="t: chat · enter sends · escape closes", max_length=300, id="lobby-chat-input")
            yield Static("", id="lobby-status")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one("#lobby-chat").border_title = "Chat"
        self.query_one("#lobby-seats").border_title = "Seats"
        self.query_one("#lobby-chat", WrappingLog).can_focus = False
        for line in self.room.notes:
            self.add_note(line)
        session = self.room.session
        for line in session.chat if session else ():
            self.add_chat(line)
        self.refresh_lobby()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        session = self.room.session
        if action in ("fill_bots", "start"):
            return session is not None and session.is_host
        if action == "toggle_ready":  # at a sealed table being there is being ready
            return session is not None and not session.spectator and not getattr(session, "sealed", False)
        return True

    # -- drawing ----------------------------------------------------------------------
    def refresh_lobby(self) -> None:
        room = self.room
        session = room.session
        lobby = session.lobby if session else None
        title = self.query_one("#lobby-title", Static)
        where = self.query_one("#lobby-where", Static)
        if session is None or lobby is None:
            title.update("Connecting…")
            where.update(room.where or "")
            self._status("")
            return
        title.update(f"{lobby['host']}'s table · {lobby['variant']}" + (" · password" if lobby["password"] else "")
                     + (" · sealed deal" if lobby.get("sealed") else ""))
        where.update(room.where or f"at {session.client.address}")
        # The rules that are on (a False or "none" house rule is simply the standard game).
        opts = ", ".join(k.replace("_", " ") if v is True else f"{k.replace('_', ' ')} {v}"
                         for k, v in sorted(lobby["options"].items()) if v not in (False, None, "none"))
        more = []
        if lobby["rounds"] is not None:
            more.append(f"{lobby['rounds']} round{'s' if lobby['rounds'] != 1 else ''}")
        if lobby["turn_timer"]:
            more.append(f"{lobby['turn_timer']:g} s per turn")
        more.append(f"a player away {lobby['grace']:g} s voids the round (their keys left with them)"
                    if lobby.get("sealed") else f"away players get {lobby['grace']:g} s before a bot stands in")
        self.query_one("#lobby-options", Static).update(f"rules: {opts or 'standard'} · " + " · ".join(more))
        seats = self.query_one("#lobby-seats", Static)
        seats.update(self._seats_table(lobby, session.me))
        # One row a seat, plus the border. Set, not left to `height: auto`: a box first laid out
        # while "Connecting…" was shown could keep its old height when the table came (seen on a
        # busy machine over serve: a second player's lobby showed only the first seat's row).
        seats.styles.height = len(lobby["seats"]) + 2
        self.refresh_bindings()
        self._status(self._status_text(lobby))

    def _seats_table(self, lobby: dict[str, Any], me: int | None) -> Table:
        table = Table.grid(padding=(0, 2))
        table.add_column(justify="right")
        table.add_column()
        table.add_column()
        for s in lobby["seats"]:
            if s["kind"] == "open":
                table.add_row(str(s["seat"] + 1), Text("(open)", "dim"), "")
                continue
            name = Text(s["name"], "bold" if s["seat"] == me else "")
            if s["seat"] == me:
                name.append(" (you)", "dim")
            if s["kind"] == "bot":
                state = Text("bot", "cyan")
            elif s["away"]:
                state = Text("away" + (", a bot plays" if s["bot_plays"] else ""), "yellow")
            elif s["ready"]:
                state = Text("ready ✓", "green")
            else:
                state = Text("not ready", "dim")
            table.add_row(str(s["seat"] + 1), name, state)
        if lobby["spectators"]:
            n = lobby["spectators"]
            table.add_row("", Text(f"{n} watching", "dim"), "")
        return table

    def _status_text(self, lobby: dict[str, Any]) -> str:
        session = self.room.session
        assert session is not None
        if self.lost:
            return self.lost
        open_seats = sum(s["kind"] == "open" for s in lobby["seats"])
        if lobby["phase"] != "lobby":
            return "The game is on: the table opens with the next deal…"
        if session.spectator:
            return "You are watching. Waiting for the host to start…"
        if session.is_host:
            unready = [s["name"] for s in lobby["seats"] if s["kind"] == "human" and not s["ready"]]
            if open_seats:
                return (f"{open_seats} open seat{'s' if open_seats != 1 else ''}: "
                        "wait for players, or b fills them with bots.")
            if unready:
                return "Waiting for " + ", ".join(unready) + " to be ready (s starts anyway)."
            return "Everyone is here and ready: s starts the game."
        if getattr(session, "sealed", False):
            return ("Waiting for the seats to fill, or for the host to deal" + (
                f" ({open_seats} seat{'s' if open_seats != 1 else ''} still open)" if open_seats else "") + "…")
        if session.ready:
            return "Ready ✓ · waiting for the host to start" + (
                f" ({open_seats} seat{'s' if open_seats != 1 else ''} still open)" if open_seats else "") + "…"
        return "Press r when you are ready."

    def _status(self, text: str) -> None:
        status = self.query_one("#lobby-status", Static)
        status.update(text)
        session = self.room.session
        status.set_class(bool(session and session.ready and not self.lost), "-ready")
        status.set_class(bool(self.lost), "-lost")

    # -- the host's news -------------------------------------------------------------
    @on(LobbyChanged)
    def _lobby_changed(self, message: LobbyChanged) -> None:
        self.refresh_lobby()

    @on(ChatHeard)
    def _chat_heard(self, message: ChatHeard) -> None:
        self.add_chat(message.line)

    @on(NoteAdded)
    def _note_added(self, message: NoteAdded) -> None:
        self.add_note(message.text)

    @on(LinkChanged)
    def _link_changed(self, message: LinkChanged) -> None:
        self.link_changed(message.state, message.reason)

    def add_chat(self, line: dict[str, Any]) -> None:
        text = Text(f"<{line['from']}> ", "bold magenta")
        text.append(line["text"])
        self.query_one("#lobby-chat", WrappingLog).add(text)

    def add_note(self, note: str) -> None:
        self.query_one("#lobby-chat", WrappingLog).add(Text(note, "italic cyan"))

    def link_changed(self, state: str, reason: str) -> None:
        if state == "lost":
            self.lost = "The link to the host was lost: reconnecting…"
        elif state == "restored":
            self.lost = ""
        else:
            self.lost = f"Disconnected: {reason} · ctrl+q quits"
        self.add_note(self.lost or "The link to the host is back.")
        self.refresh_lobby()

    # -- keys ---------------------------------------------------------------------------
    def _try(self, what: Callable[[], None]) -> None:
        try:
            what()
        except (IllegalAction, ValueError) as e:
            text = str(e)
            self.notify(text[:1].upper() + text[1:], title="Not now", severity="warning", timeout=4)

    def action_toggle_ready(self) -> None:
        session = self.room.session
        if session is not None:
            self._try(lambda: session.set_ready(not session.ready))

    def action_open_chat(self) -> None:
        self.query_one("#lobby-chat-input", Input).focus()

    def action_close_chat(self) -> None:
        box = self.query_one("#lobby-chat-input", Input)
        box.value = ""
        self.set_focus(None)

    @on(Input.Submitted, "#lobby-chat-input")
    def _say(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        self.action_close_chat()
        session = self.room.session
        if text and session is not None:
            self._try(lambda: session.say(text))

    def action_fill_bots(self) -> None:
        session = self.room.session
        if session is not None and session.host is not None:
            self._try(session.host.fill_with_bots)

    def action_start(self) -> None:
        session = self.room.session
        if session is not None and session.host is not None:
            self._try(session.host.start_game)
