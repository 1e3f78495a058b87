"""The first thing a visitor sees: play against bots, open a table here, or join one.

:class:`MenuApp` runs in the session's own process (:mod:`.child`) and ends
with a :class:`MenuChoice` (or ``None``: the person leaves). The tables come
from the server over the control socket (:mod:`.control`) and are listed
again every second: who sits where, who is ready, who is away, who watches.
A browser has no ``ssh NAME@``, so there the menu first asks for a name (and
the server's password, when it has one).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text
from textual import events, on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option, OptionDoesNotExist

from uno_tui.narration import variant_title
from uno_tui.screens.new_game import FormLine, NewGameScreen

from .control import ControlClient, ControlError
from .styles import SharedStyles
from .window import APP_CSS, WindowGuard

REFRESH = 1.0
"""Seconds between two looks at the tables open here."""


@dataclass
class Visit:
    """One person's stay at the server, across the menus and games of the session."""

    name: str | None
    control: ControlClient
    ask_password: bool = False
    info: dict[str, Any] = field(default_factory=dict)
    highlighted: str | None = None
    """The menu line chosen last (the menu comes back on it)."""
    english: bool = False
    """The extended rules' cards named in English: chosen in a new-game form, kept for the visit's tables."""


@dataclass
class MenuChoice:
    """What the menu ends with."""

    kind: str
    """``"bots"``: a game against bots; ``"table"``: a table on this server."""
    address: str = ""
    """Where the table listens (``uno://127.0.0.1:PORT#FP``)."""
    table: str = ""
    spectate: bool = False
    owner: bool = False
    outside: str | None = None
    """How players with their own uno-tui reach the table (None: they cannot)."""


# -- the lines of the menu ------------------------------------------------------------------------
def seat_words(seat: dict[str, Any]) -> str:
    """``Ann (ready)``, ``Ben (away)``, ``Cleo (bot)``, ``open``."""
    if seat["kind"] == "open":
        return "open"
    state = "bot" if seat["kind"] == "bot" else (
        "away" if seat["away"] else ("ready" if seat["ready"] else "not ready"))
    return f"{seat['name']}{' (you)' if seat.get('mine') else ''} ({state})"


def table_line(t: dict[str, Any]) -> Text:
    """One table in the list: whose, which game, what is happening, who sits there."""
    people = sum(s["kind"] == "human" for s in t["seats"])
    free = sum(s["kind"] == "open" for s in t["seats"])
    line = Text()
    line.append(f"{t['owner']}'s table", "bold")
    line.append(f" · {variant_title(t['variant'])} · ")
    if t["phase"] == "lobby":
        line.append(f"waiting · {free} open seat{'s' if free != 1 else ''}" if free else "about to start",
                    "green" if free else "")
    else:
        line.append("playing", "yellow")
    line.append(f" · {people} {'person' if people == 1 else 'people'}")
    if t["spectators"]:
        line.append(f" · {t['spectators']} watching", "dim")
    if t.get("my_seat") is not None:
        line.append("  ← your seat", "bold cyan")
    return line


def table_details(t: dict[str, Any]) -> str:
    """The highlighted table in full: seats, rules, how to reach it from outside."""
    seats = " · ".join(f"{s['seat'] + 1} {seat_words(s)}" for s in t["seats"])
    lines = [f"Seats: {seats}"]
    if t.get("rules"):
        lines.append(f"Rules: {t['rules']}")
    verb = "enter takes your seat again" if t.get("my_seat") is not None else (
        "enter sits down, w watches" if t["phase"] == "lobby" and any(s["kind"] == "open" for s in t["seats"])
        else "enter or w watches")
    lines.append(verb + (f" · from your own uno-tui: uno-tui join {t['outside']}" if t.get("outside") else ""))
    return "\n".join(lines)


def key_line(*keys: tuple[str, str]) -> Static:
    """The keys of a menu screen, drawn as the other screens' footer draws them.

    Not Textual's ``Footer``: that one is drawn empty first and filled with its keys a moment later
    (a second layout and a second whole frame), which was a third of what a session cost its
    machine before its menu was up (``benchmarks/serve.py``); these screens' keys never change.
    """
    return Static("  ".join(f"[b $footer-key-foreground]{key}[/] {what}" for key, what in keys), classes="key-line")


# -- screens ------------------------------------------------------------------------------------
class LoginScreen(Screen[None]):
    """A browser's first screen: the name to play under; then, when the server has one, its password."""

    AUTO_FOCUS = "#login-input"

    def __init__(self, name: str | None = None) -> None:
        super().__init__()
        self.player = name
        """The name given, when this screen asks for the password."""

    def compose(self) -> ComposeResult:
        asking = "This server's password:" if self.player else "The name the other players will see:"
        with Vertical(id="login"):
            yield Static(Text.assemble((" UNO ", "bold #f2c12e on #d0312d"),
                                       (f"  Welcome{', ' + self.player if self.player else ''}", "bold")),
                         id="login-title")
            yield Static(asking)
            if self.player:
                yield Input(placeholder="password", password=True, id="login-input")
            else:
                yield Input(placeholder="your name", max_length=24, id="login-input")
            yield Static("", id="login-error")
        yield key_line(("⏎", "go on"), ("^q", "leave"))

    @property
    def menu_app(self) -> "MenuApp":
        return self.app  # type: ignore[return-value]

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        if self.player is None:
            name = event.value.strip()
            if not name:
                return
            if self.menu_app.visit.ask_password:
                self.app.switch_screen(LoginScreen(name))  # the password, on a screen of its own
                return
            self._login(name, None)
        else:
            self._login(self.player, event.value)

    @work(thread=True, exclusive=True, group="login")
    def _login(self, name: str, password: str | None) -> None:
        try:
            answer = self.menu_app.visit.control.call("login", name=name, password=password)
        except ControlError as e:
            self.app.call_from_thread(self._refused, str(e))
            return
        self.app.call_from_thread(self.menu_app.logged_in, answer["name"], answer["env"])

    def _refused(self, reason: str) -> None:
        self.query_one("#login-error", Static).update(reason[:1].upper() + reason[1:] + ".")
        self.query_one("#login-input", Input).value = ""


class MenuScreen(Screen[None]):
    """What to do: bots, a new table here, or one of the tables open here."""

    AUTO_FOCUS = "#menu"
    BINDINGS = [
        Binding("w", "watch", "watch"),
        Binding("q", "leave", "leave"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, dict[str, Any]] = {}
        self.error = ""
        self._placed = False
        """The highlight has been put where it belongs once the tables were first listed."""
        self._details_text = ""
        self._resumed = False

    @property
    def menu_app(self) -> "MenuApp":
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        visit = self.menu_app.visit
        with Vertical(id="menu-box"):
            title = Text.assemble((" UNO ", "bold #f2c12e on #d0312d"),
                                  (f"  on {visit.info.get('server') or 'this server'}", "bold"))
            yield Static(title, id="menu-title")
            yield Static(f"Hello, {visit.name}. Choose with ↑↓ and enter.", id="menu-hello")
            yield OptionList(id="menu")
            yield Static("", id="menu-details")
            yield Static(visit.info.get("fairness", ""), id="menu-fairness")
        yield key_line(("↑↓", "choose"), ("⏎", "go"), ("w", "watch"), ("q", "leave"))

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        # Textual's own handler runs after this one (a subclass's first) and styles every node of the
        # screen again; the first time, they were all styled as they mounted a moment before, and
        # doing it again was an eighth of what a session's first menu cost its machine.
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False

    def on_mount(self) -> None:
        self._fill([])
        self.refresh_tables()
        self.set_interval(REFRESH, self.refresh_tables)

    @work(thread=True, exclusive=True, group="tables")
    def refresh_tables(self) -> None:
        try:
            tables = self.menu_app.visit.control.call("tables")["tables"]
            error = ""
        except ControlError as e:
            tables, error = list(self.tables.values()), str(e)
        self.app.call_from_thread(self._show, tables, error)

    def _show(self, tables: list[dict[str, Any]], error: str) -> None:
        self.error = error
        if tables != list(self.tables.values()):
            self._fill(tables)  # (only when they changed: each fill draws the whole list again)
        if not error and not self._placed:
            self._placed = True
            self._place()
        self._details()

    def _fill(self, tables: list[dict[str, Any]]) -> None:
        menu = self.query_one("#menu", OptionList)
        keep = menu.highlighted_option.id if menu.highlighted_option is not None else None
        self.tables = {t["id"]: t for t in tables}
        options: list[Option | None] = [
            Option(Text.assemble(("Play against bots", "bold"), ("   a game of your own, any variant", "dim")),
                   id="bots"),
            Option(Text.assemble(("Open a table on this server", "bold"),
                                 ("   friends join it from here", "dim")), id="open"),
            None,
        ]
        for t in self._mine() + [t for t in tables if t.get("my_seat") is None]:
            options.append(Option(table_line(t), id=f"table:{t['id']}"))
        if not tables:
            options.append(Option(Text("No tables open here yet: open one, and friends can join it.", "dim"),
                                  id="none", disabled=True))
        options += [None, Option(Text("Leave", "bold"), id="leave")]
        menu.clear_options()
        menu.add_options(options)
        self._highlight(keep)

    def _mine(self) -> list[dict[str, Any]]:
        return [t for t in self.tables.values() if t.get("my_seat") is not None]

    def _place(self) -> None:
        """Once the tables are first known: back on the line chosen before the last game, else on a
        seat of theirs that waits for them."""
        wanted = self.menu_app.visit.highlighted
        mine = self._mine()
        if wanted in ("bots", "open", "leave") or (wanted or "").removeprefix("table:") in self.tables:
            self._highlight(wanted)
        elif mine:
            self._highlight(f"table:{mine[0]['id']}")

    def _highlight(self, option_id: str | None) -> None:
        menu = self.query_one("#menu", OptionList)
        try:
            index = menu.get_option_index(option_id) if option_id not in (None, "none") else 0
        except OptionDoesNotExist:
            index = 0
        if menu.highlighted != index:
            menu.highlighted = index

    def _highlighted_table(self) -> dict[str, Any] | None:
        option = self.query_one("#menu", OptionList).highlighted_option
        if option is None or not (option.id or "").startswith("table:"):
            return None
        return self.tables.get(option.id[6:])  # type: ignore[index]

    def _details(self) -> None:
        table = self._highlighted_table()
        text = table_details(table) if table is not None else ""
        if self.error:
            text = f"{self.error}\n{text}".strip()
        if text != self._details_text:  # (an update lays the screen out again, even with the same words)
            self._details_text = text
            self.query_one("#menu-details", Static).update(text)

    @on(OptionList.OptionHighlighted, "#menu")
    def _moved(self) -> None:
        self._details()

    @on(OptionList.OptionSelected, "#menu")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        choice = event.option.id or ""
        self.menu_app.visit.highlighted = choice
        if choice == "bots":
            self.app.exit(MenuChoice("bots"))
        elif choice == "open":
            self.app.push_screen(OpenTableScreen(), self._open)
        elif choice == "leave":
            self.app.exit(None)
        elif choice.startswith("table:"):
            table = self.tables.get(choice[6:])
            if table is not None:
                self._sit(table, watch=False)

    def action_watch(self) -> None:
        table = self._highlighted_table()
        if table is not None:
            self._sit(table, watch=True)

    def action_leave(self) -> None:
        self.app.exit(None)

    def _sit(self, table: dict[str, Any], *, watch: bool) -> None:
        free = table["phase"] == "lobby" and any(s["kind"] == "open" for s in table["seats"])
        spectate = watch or (table.get("my_seat") is None and not free)
        self.app.exit(MenuChoice("table", address=table["address"], table=table["id"], spectate=spectate,
                                 owner=bool(table.get("yours")), outside=table.get("outside")))

    def _open(self, choice: dict[str, Any] | None) -> None:
        if choice is not None:
            self.menu_app.visit.english = bool(choice.pop("english", False))  # a choice of this screen's, not the table's
            self._open_table(choice)

    @work(thread=True, exclusive=True, group="open")
    def _open_table(self, choice: dict[str, Any]) -> None:
        try:
            answer = self.menu_app.visit.control.call("open", **choice)
        except ControlError as e:
            self.app.call_from_thread(self.notify, str(e), title="No table opened", severity="error", timeout=6)
            return
        self.menu_app.visit.highlighted = f"table:{answer['table']}"
        self.app.call_from_thread(self.app.exit, MenuChoice("table", address=answer["address"],
                                                            table=answer["table"], owner=True,
                                                            outside=answer.get("outside")))


class OpenTableScreen(NewGameScreen):
    """The new-game form for a table on this server: seats, how many of them bots take, the rules."""

    START_LABEL = "Open the table"
    BINDINGS = [
        Binding("enter", "start", "open the table", key_display="⏎"),
        Binding("escape", "cancel", "back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.values["bot_seats"] = 0

    def _load_options(self, variant: str, given: dict[str, Any] | None = None) -> None:
        bot_seats = self.values.get("bot_seats", 0)
        super()._load_options(variant, given)
        self.values["bot_seats"] = min(bot_seats, self.values["players"] - 1)

    def lines(self) -> list[FormLine]:
        out = super().lines()
        for i, line in enumerate(out):
            if line.key == "players":
                out[i] = FormLine("players", "Seats", line.values, doc="everyone at the table, you included")
                out.insert(i + 1, FormLine("bot_seats", "Bots", range(0, self.values["players"]),
                                           doc="bots take the last seats; the others wait for people "
                                               "(b in the lobby fills them with bots later)"))
            elif line.key == "bots":
                out[i] = FormLine("bots", "Bot level", line.values, doc=line.doc)
        return out

    def describe(self, key: str, value: Any) -> str:
        if key == "bot_seats":
            return "none" if value == 0 else f"{value} bot{'s' if value != 1 else ''}"
        return super().describe(key, value)

    def _set(self, key: str, value: Any) -> None:
        super()._set(key, value)
        self.values["bot_seats"] = min(self.values["bot_seats"], self.values["players"] - 1)
        self._update()

    def on_mount(self) -> None:
        # After the new-game screen's own on_mount (Textual runs both, this one first), which names it.
        self.call_later(setattr, self.query_one("#new-game"), "border_title", "Open a table on this server")

    def action_start(self) -> None:
        c = self.choice()
        self.dismiss({"variant": c.variant, "seats": c.players, "bots": self.values["bot_seats"],
                      "bot_level": c.bots, "options": c.options, "english": c.english})  # type: ignore[arg-type]


class MenuApp(SharedStyles, WindowGuard, App[MenuChoice | None]):
    """The menu of one visit (a new one each time the person comes back from a game)."""

    CSS_PATH = [APP_CSS, "serve.tcss"]
    TITLE = "uno-tui"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "leave", "leave", priority=True)]

    def __init__(self, visit: Visit) -> None:
        super().__init__()
        self.visit = visit

    def get_default_screen(self) -> Screen:
        return MenuScreen() if self.visit.name is not None else Screen()

    def on_mount(self) -> None:
        if self.visit.name is None:
            self.push_screen(LoginScreen())  # pushed, so that the menu can take its place

    def on_app_focus(self) -> None:
        # Textual focuses a screen's AUTO_FOCUS only while the app has the focus: a terminal that says
        # "focus out" as the app starts (a browser tab not yet clicked) would leave nothing focused.
        screen = self.screen
        if screen.focused is None and screen.AUTO_FOCUS:
            target = next(iter(screen.query(screen.AUTO_FOCUS)), None)
            if target is not None and target.focusable:
                target.focus()

    def logged_in(self, name: str, env: dict[str, str]) -> None:
        """The server took the browser's login: this person's files and name from now on."""
        os.environ.update(env)
        self.visit.name = name
        self.switch_screen(MenuScreen())

    def action_leave(self) -> None:
        self.exit(None)
