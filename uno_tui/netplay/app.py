"""The network app: ``uno-tui join`` and the interactive ``uno-tui host``.

One :class:`NetApp` holds one :class:`net.Client` (and, when hosting, the
:class:`net.Host` itself, running on Textual's own asyncio loop). A single
worker pumps ``client.messages`` and routes each message:

* ``lobby``  → :class:`~.session.NetSession`, then :class:`~.news.LobbyChanged` to the screens
  (the lobby redraws, the table relabels its seats);
* ``update`` → the session, which tells the table (the first one opens it);
* ``chat``   → :class:`~.news.ChatHeard`: the lobby's chat and the table's log;
* ``reject`` / ``error`` → a notification;
* ``link``   → :class:`~.news.LinkChanged`: "link lost / restored" on the screens;
* ``end``    → the match is over; the seat comes back (with its token) so a
  rematch the host deals reaches it.

The app calls no screen's methods: it posts the news of :mod:`.news` to the screens it shows,
and each draws what concerns it.

The host's own player joins over loopback with the token of a seat reserved
for them (:meth:`net.Host.reserve_seat`), exactly as anyone else does.
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import logging
from pathlib import Path
from typing import Any

from textual import on
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen
from textual.worker import Worker

from net import DEFAULT_PORT, Client, Host, HostConfig, Refused
from net.seats import RUNTIME_SETTINGS
from net import discovery
from net.address import connect_error
from net.commands import TRUSTED_HOST_LINE, listen_error

from ..narration import humanize_error
from ..notices import OneLineNotices
from ..screens.confirm import ConfirmScreen
from .lobby import Browse, ConnectScreen, LobbyScreen
from .news import ChatHeard, JoinFailed, LinkChanged, LobbyChanged, NoteAdded
from .seats import forget_token, load_token, save_token
from .session import NetSession
from .table import NetTableScreen, net_table_screen

log = logging.getLogger("uno_tui.netplay")

WILDCARDS = discovery.WILDCARDS


def default_name() -> str:
    try:
        name = getpass.getuser()
    except Exception:
        name = ""
    return (name or "Player").capitalize()[:24]


class NetApp(OneLineNotices):
    """A seat (or a spectator's chair) at a network table; with ``host``, the table too."""

    CSS_PATH = str(Path(__file__).resolve().parents[1] / "app.tcss")
    TITLE = "uno-tui"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "quit", "quit", priority=True)]

    def __init__(
        self,
        *,
        address: str | None = None,
        name: str | None = None,
        password: str | None = None,
        spectate: bool = False,
        host: Host | None = None,
        bind: str = "0.0.0.0",
        port: int = DEFAULT_PORT,
        mdns: bool = True,
        record: str | None = None,
        browse: Browse | None = discovery.browse,
        pacing: tuple[float, float] = (0.6, 0.9),
        bell: bool = True,
        english: bool = False,
    ) -> None:
        super().__init__()
        self.english_cards = english
        """The extended rules' cards named in English (the tables read it as they open)."""
        self.bell_on = bell
        """Ring the bell and set the terminal's title when it becomes your turn (``--no-bell``: off)."""
        self._waiting = False  # the last update asked something of this seat
        self._title_pushed = False
        self.address = address
        self.player_name = name or default_name()
        self.password = password
        self.spectate = spectate
        self.host = host
        self.bind_address = bind
        self.port = port
        self.mdns = mdns
        self.record = record
        """Where the moves record (JSON, ``--record``) is written when the match ends."""
        self.browse = browse
        self.pacing = pacing
        self.client: Client | None = None
        self.session: NetSession | None = None
        self.lobby_screen = LobbyScreen(self)
        self.table: NetTableScreen | None = None
        self.notes: list[str] = []
        """Lines for the lobby's log before it is shown (the host's address, discovery)."""
        self.where = ""
        self.advertisement: discovery.Advertisement | None = None
        self._pump: Worker[None] | None = None
        self._match_ended = False
        self._shut = False

    # -- start ---------------------------------------------------------------------------
    def get_default_screen(self) -> Screen:
        if self.host is None and self.address is None:
            return ConnectScreen(self.browse)
        return self.lobby_screen

    def on_mount(self) -> None:
        if self.host is not None:
            self.run_worker(self._start_hosting(), group="connect")
        elif self.address is not None:
            self.where = f"connecting to {self.address}…"
            self.connect_to(self.address, password=self.password)

    # -- calling the player back to the terminal ----------------------------------------------
    def _wants_me(self, obs: dict[str, Any]) -> bool:
        """Whether the table waits for this seat: its turn, or a decision that is its to make."""
        me = obs.get("me")
        if me is None or obs.get("over"):
            return False
        if "actor" in obs:  # the extended rules: whoever must answer now, not only whose turn it is
            return obs["actor"] == me
        return obs.get("current") == me

    def _attend(self, obs: dict[str, Any]) -> None:
        """Bell and terminal title when the table starts waiting for you (once per wait)."""
        waiting = self._wants_me(obs)
        was, self._waiting = self._waiting, waiting
        if waiting == was or not self.bell_on:
            return
        if waiting:
            self.bell()
        self.set_terminal_title(f"▶ your turn · {self.TITLE}" if waiting else self.TITLE)

    def set_terminal_title(self, title: str) -> None:
        """The terminal window's title (xterm's OSC 2); the old one is kept on the title stack
        and put back when the app ends."""
        if self.is_headless or self._driver is None:
            return
        if not self._title_pushed:
            self._driver.write("\x1b[22;0t")  # push the title the terminal had
            self._title_pushed = True
        self._driver.write(f"\x1b]2;{title}\x07")

    def _restore_title(self) -> None:
        if self._title_pushed and self._driver is not None:
            self._driver.write("\x1b[23;0t")
            self._title_pushed = False

    def note(self, text: str) -> None:
        """A line about the table for the lobby's log and the table's (kept for a lobby not shown yet)."""
        self.notes.append(text)
        self._tell(NoteAdded, text)

    def _tell(self, news: type[Message], *args: Any) -> None:
        """Post ``news(*args)`` to every screen shown (the lobby, the table, ...): each handles what it draws."""
        for screen in self.screen_stack:
            screen.post_message(news(*args))

    # -- joining -----------------------------------------------------------------------------
    @on(ConnectScreen.JoinRequested)
    def _join_requested(self, message: ConnectScreen.JoinRequested) -> None:
        self.connect_to(message.address, password=message.password)

    def connect_to(self, address: str, *, password: str | None = None) -> None:
        self.run_worker(self._connect(address, password), exclusive=True, group="connect")

    async def _connect(self, address: str, password: str | None) -> None:
        password = password if password is not None else self.password
        try:
            client = Client(address, self.player_name, password=password, spectate=self.spectate)
            # A seat this player held at this table before (the terminal was closed): take it back.
            token = None if self.spectate else load_token(client.address, self.player_name)
            try:
                client.token = token
                await client.connect()
            except Refused as e:
                if token is None or e.code != "token":
                    raise
                forget_token(client.address, self.player_name)  # a table since gone: join as anyone does
                client = Client(address, self.player_name, password=password, spectate=self.spectate)
                await client.connect()
        except Refused as e:
            reason = e.reason
            if e.code == "started" and not self.spectate and "spectate" not in reason:
                reason += " (uno-tui join --spectate)"
            self._connect_failed(address, reason, password=e.code == "password")
            return
        except ValueError as e:
            self._connect_failed(address, str(e))
            return
        except (OSError, asyncio.TimeoutError) as e:
            self._connect_failed(address, connect_error(address, e))
            return
        except Exception as e:  # a handshake that failed some other way (a bad frame, a bad key...)
            log.info("joining %s failed", address, exc_info=True)
            self._connect_failed(address, f"could not join {address}: {e or type(e).__name__}")
            return
        if client.token is not None:
            save_token(client.address, self.player_name, client.token)
        self.where = f"at {client.address}"
        await self._attach(client)

    def _connect_failed(self, address: str, reason: str, *, password: bool = False) -> None:
        reason = reason[:1].upper() + reason[1:]
        if isinstance(self.screen, ConnectScreen):
            self.screen.post_message(JoinFailed(reason, password=password))
        else:
            self.push_screen(ConnectScreen(None, address=address, error=reason, ask_password=password))

    async def _attach(self, client: Client) -> None:
        """A connected client: a session over it, the lobby on screen, the pump running."""
        self.client = client
        self.session = NetSession(client, host=self.host, on_problem=self._problem)
        if self.lobby_screen in self.screen_stack:  # under the connect screen that was shown after a failure
            while self.screen is not self.lobby_screen:
                await self.pop_screen()
            self.lobby_screen.post_message(LobbyChanged(self.session.lobby))
        else:
            await self.push_screen(self.lobby_screen)
        self._pump = self.run_worker(self._pump_messages(client), group="pump")

    def _problem(self, text: str) -> None:
        self.notify(text[:1].upper() + text[1:], title="Not sent", severity="warning", timeout=4)

    # -- hosting ---------------------------------------------------------------------------------
    async def _start_hosting(self) -> None:
        host = self.host
        assert host is not None
        try:
            _, port = await host.start(self.bind_address, self.port)
        except OSError as e:
            self.exit(1, 1, f"uno-tui host: {listen_error(self.bind_address, self.port, e)}")
            return
        if self.record:
            host.listeners.append(self._write_record)
        shown = discovery.local_ip() if self.bind_address in WILDCARDS else self.bind_address
        # The address with the host key's fingerprint, as --headless prints it: a joiner who types it
        # knows they reached this host and no other.
        self.where = f"players join with: uno-tui join --trusted-host {host.address(shown)}"
        self.note(TRUSTED_HOST_LINE)
        self.note(f"Listening on {self.bind_address}:{port}. Players join with: uno-tui join --trusted-host "
                  f"{host.address(shown)}" + (f" (on this machine: uno-tui join --trusted-host "
                                              f"{host.address('localhost')})" if shown != "127.0.0.1" else ""))
        lan_ip, why_not = discovery.lan_address(self.bind_address)
        if self.mdns and lan_ip is None:
            self.note(why_not[:1].upper() + why_not[1:] + ".")
        elif self.mdns:
            self.run_worker(self._advertise(port, lan_ip), group="mdns")
        token = next((s.token for s in host.seats if s.reserved and s.token), None)  # a resumed game
        if token is None:
            try:
                token = host.reserve_seat(self.player_name)
            except ValueError:
                self.exit(2, 2, "uno-tui host: every seat went to a bot; leave one for yourself (--bots < --seats)")
                return
        loop_addr = "::1" if self.bind_address == "::" else "127.0.0.1" if self.bind_address in WILDCARDS \
            else self.bind_address
        client = Client((loop_addr, port), self.player_name, password=host.config.password, token=token)
        try:
            await client.connect()
            await client.ready(True)
        except Exception as e:
            self.exit(1, 1, f"uno-tui host: the host's own seat could not join: {e}")
            return
        await self._attach(client)

    async def _advertise(self, port: int, ip: str) -> None:
        assert self.host is not None
        ad, note = await discovery.advertise(self.host.config.name, port, ip=ip, properties={
            "variant": self.host.config.variant, "seats": str(self.host.config.seats)})
        self.advertisement = ad
        self.note(note[:1].upper() + note[1:] + ".")

    def _write_record(self, kind: str, data: dict[str, Any]) -> None:
        host = self.host
        if kind == "end" and self.record and host is not None and host.record and host.game:
            try:
                host.record.write_json(self.record, list(host.game.scores), host.game.match_winner)
                self.note(f"The moves record is written to {self.record}.")
            except OSError as e:
                self.note(f"Could not write the moves record to {self.record}: {e}")

    # -- the host's messages ---------------------------------------------------------------------
    async def _pump_messages(self, client: Client) -> None:
        while True:
            msg = await client.messages.get()
            if client is not self.client or self._shut or not self.is_running:
                return
            try:
                await self._handle(msg)
            except Exception:
                if self.is_running and not self._shut:
                    log.exception("handling %s failed", msg.get("type"))

    async def _handle(self, msg: dict[str, Any]) -> None:
        session = self.session
        assert session is not None
        kind = msg["type"]
        if kind == "lobby":
            session.absorb_lobby(msg)
            self._tell(LobbyChanged, msg)
        elif kind == "update":
            events = session.absorb_update(msg)  # and the table, once open, is told by the session
            self._attend(session.observation())
            if any(e.kind == "deal" for e in events):
                self._match_ended = False
            if self.table is None:
                table_screen = net_table_screen(session, pacing=self.pacing)
                self.table = table_screen  # type: ignore[assignment]
                await self.push_screen(table_screen)
        elif kind == "chat":
            session.chat.append(msg)
            self._tell(ChatHeard, msg)
        elif kind == "reject":
            session.absorb_reject(msg)
            me = session.me
            text = humanize_error(msg["reason"], session.names, me) if me is not None else msg["reason"]
            self.notify(text, title="Not now", severity="warning", timeout=4)
        elif kind == "error":
            self.notify(msg["reason"], title="The host says", severity="error" if msg["fatal"] else "warning",
                        timeout=6)
        elif kind == "link":
            self._link(msg["state"], msg.get("reason", ""))
        elif kind == "end":
            self._ended(msg)
        elif kind in ("fairness", "security", "audit", "verdict", "auto", "accused"):
            self._checks(msg)

    def _checks(self, msg: dict[str, Any]) -> None:
        """What the client's own checks of the host found (the fair deal, the host's key)."""
        kind, reason = msg["type"], str(msg.get("reason") or "")
        if kind == "security":
            self.notify(reason, title="Security", severity="warning", timeout=10)
            self.note(f"Security: {reason}")
        elif kind == "fairness":
            self.notify(reason, title="The deal failed a check", severity="error", timeout=10)
            self.note(f"Fair-deal check failed: {reason}")
        elif kind == "audit" and msg.get("ok"):
            self.note(f"Round {int(msg.get('round', 0)) + 1} audited: the deal was fair.")
        elif kind == "audit":
            self.notify(reason, title="The round's audit failed", severity="error", timeout=10)
            self.note(f"Round {int(msg.get('round', 0)) + 1} failed its audit: {reason}")
        elif kind == "verdict" and not msg.get("ok"):
            self.note(f"{msg.get('name', 'A player')}'s audit of round {int(msg.get('round', 0)) + 1} "
                      f"failed: {reason}")
        elif kind == "auto":
            text = played_for_you(msg)
            self.notify(text, title="Played for you", severity="warning", timeout=6)
            self.note(text)
        elif kind == "accused":
            self.notify(reason, title="The host accuses you", severity="error", timeout=15)
            self.note(f"Accused by the host: {reason}")

    def _link(self, state: str, reason: str) -> None:
        if self._match_ended and state in ("lost", "gave_up"):
            # After the match the host may close the table: that is no failure to retry.
            if self.client is not None:
                self.run_worker(self.client.close(), group="close")
            state, reason = "gave_up", "the host has closed the table"
        if state == "lost":
            self.notify("The link to the host was lost: reconnecting…", severity="warning", timeout=4)
        elif state == "restored":
            self.notify("The link to the host is back.", timeout=3)
        else:
            self.notify(f"Disconnected: {reason}", severity="error", timeout=8)
        self._tell(LinkChanged, state, reason)

    def _ended(self, msg: dict[str, Any]) -> None:
        session = self.session
        assert session is not None
        self._match_ended = True
        winner = msg["winner"]
        who = session.names[winner] if winner is not None and winner < len(session.names) else None
        if who is not None and winner == session.me:
            who = "You"
        text = ("The match is over" if msg["reason"] == "match_over" else "The rounds are played") + (
            f": {who} {'win' if who == 'You' else 'wins'}." if who else ".")
        self.note(text + (" Deal a rematch from the round's summary (r), or ctrl+q to close the table."
                          if session.is_host else " The host may deal a rematch; ctrl+q leaves."))
        self.run_worker(self._come_back(), group="connect")

    async def _come_back(self) -> None:
        """After ``end`` the client hangs up; take the seat back so a rematch reaches this screen."""
        old = self.client
        if old is None or self._shut:
            return
        await asyncio.sleep(0.5)
        extra = {"fingerprint": old.expected_fp} if getattr(old, "expected_fp", None) else {}
        client = Client((old.host, old.port), old.name, password=old.password, spectate=old.spectate,
                        token=old.token, **extra)
        try:
            await client.connect()
        except Exception:  # refused, unreachable, a failed handshake: the table is gone
            self._match_ended = False
            self._link("gave_up", "the host has closed the table")
            return
        if self._pump is not None:
            self._pump.cancel()
        assert self.session is not None
        self.client = client
        self.session.rebind(client)
        self._pump = self.run_worker(self._pump_messages(client), group="pump")

    # -- leaving ---------------------------------------------------------------------------------
    async def action_quit(self) -> None:
        others = self._others_at_table()
        if others and not self._shut and not isinstance(self.screen, ConfirmScreen):
            # Closing the host's table ends the game for everyone: ask first (ctrl+q again says yes).
            people = f"{others} other " + ("person" if others == 1 else "people")
            detail = (f"You are the host: leaving closes the lobby for the {people} in it."
                      if self.host is not None and self.host.phase == "lobby" else
                      f"You are the host: leaving ends the game for the {people} connected to it. "
                      "It is saved: `uno-tui host --resume` deals it on later.")
            self.push_screen(ConfirmScreen("Close the table for everyone?", detail,
                                           yes="close the table", no="stay"), self._quit_answered)
            return
        await self.shutdown()
        self.exit(0)

    async def _quit_answered(self, yes: bool | None) -> None:
        if yes:
            await self.shutdown()
            self.exit(0)

    def _others_at_table(self) -> int:
        """People connected to the table this app hosts, besides its own seat (0 when not hosting)."""
        if self.host is None or self._match_ended:
            return 0
        return max(0, len(self.host.peers) - (self.client is not None))

    async def on_unmount(self) -> None:
        await self.shutdown()

    async def shutdown(self) -> None:
        """Say goodbye, withdraw the advertisement, close the table (when hosting)."""
        if self._shut:
            return
        self._shut = True
        self._restore_title()
        with contextlib.suppress(Exception):
            if self.client is not None:
                await asyncio.wait_for(self.client.close(), 2)
        with contextlib.suppress(Exception):
            if self.advertisement is not None:
                await asyncio.wait_for(self.advertisement.close(), 3)
        with contextlib.suppress(Exception):
            if self.host is not None:
                await asyncio.wait_for(self.host.close("the host has left the table"), 3)


AUTO_WHY = {"timer": "your turn timer ran out", "away": "you were away", "bench": "your seat was benched"}
AUTO_MOVE = {"draw": "drew a card", "pass": "passed", "play": "played a card", "uno": "called UNO",
             "catch": "caught a player", "challenge": "challenged"}


def played_for_you(msg: dict[str, Any]) -> str:
    """A move the host made for this seat, in words (the client reports each one: see ``net.watch``)."""
    action = msg.get("action") or {}
    what = AUTO_MOVE.get(str(action.get("kind")), f"made a move ({action.get('kind', '?')})")
    why = AUTO_WHY.get(str(msg.get("why")), "no reason given")
    return f"The host {what} for you in round {int(msg.get('round') or 0) + 1}: {why}."


# -- the commands ----------------------------------------------------------------------------------
def run_join(*, address: str | None = None, name: str | None = None, password: str | None = None,
             spectate: bool = False, browse: Browse | None = discovery.browse, bell: bool = True,
             english: bool = False) -> int:
    """``uno-tui join [ADDRESS]``: the lobby, then the table; 0 when the player leaves."""
    if address is not None:
        from net import address as net_address

        try:
            split = getattr(net_address, "split_fingerprint", None)  # uno://host:port#fingerprint
            net_address.parse_address(split(address)[0] if split else address)
        except ValueError as e:
            import sys

            print(f"uno-tui join: {e}", file=sys.stderr)
            return 2
    app = NetApp(address=address, name=name, password=password, spectate=spectate, browse=browse, bell=bell,
                 english=english)
    app.run()
    return app.return_code or 0


def run_interactive_host(**opts: Any) -> int:
    """``uno-tui host`` without ``--headless``: the table is served from this screen and its owner plays."""
    import sys

    from net.save import default_save_path

    save_path = opts.get("save") or str(default_save_path())
    port = opts.get("port")
    try:
        if opts.get("resume"):
            host = Host.resume(save_path, **HostConfig.given(opts, RUNTIME_SETTINGS), auto_start=False,
                               auto_next=False)
            if opts.get("rounds") is not None:
                host.config.rounds = opts["rounds"]
            if port is None:
                port = host.saved_port or DEFAULT_PORT
        else:
            config = HostConfig.from_options(opts, auto_start=False, auto_next=False, save_path=save_path)
            if config.bots >= config.seats:
                raise ValueError(f"--bots {config.bots} leaves no seat for you at a table of {config.seats}; "
                                 "use --headless to host without playing")
            host = Host(config)
    except (ValueError, OSError) as e:
        print(f"uno-tui host: {e}", file=sys.stderr)
        return 2
    app = NetApp(host=host, name=opts.get("name") or "Host", bind=opts.get("bind", "0.0.0.0"),
                 port=DEFAULT_PORT if port is None else port, mdns=opts.get("mdns", True),
                 record=opts.get("record"), bell=opts.get("bell", True), english=opts.get("english", False))
    app.run()
    return app.return_code or 0

