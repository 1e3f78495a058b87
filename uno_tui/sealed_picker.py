"""``uno-tui join`` with no address at a sealed table: the sealed tables on the LAN, or an address typed in.

The open host's connect screen (:class:`~uno_tui.netplay.lobby.ConnectScreen`) over
:func:`net.sealing.lan.find_tables`: each table is listed with its host key's fingerprint as its
host's screen shows it, and whether this account joined that host under that key before. Picking
one (or typing an address) ends this small app with the address, ``uno://HOST:PORT#FINGERPRINT``,
and the table is joined as if it had been typed: the fingerprint is checked in the handshake.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual import on
from textual.app import App
from textual.binding import Binding

from net.discovery import Found
from net.sealing.lan import SealedTable, find_tables

from .netplay.lobby import Browse, ConnectScreen
from .netplay.news import JoinFailed


class SealedConnectScreen(ConnectScreen):
    """The connect screen, its tables described as sealed tables (with their keys)."""

    def describe(self, f: Found) -> str:
        return f.label() if isinstance(f, SealedTable) else super().describe(f)

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#connect-title").update("Join a sealed table")  # type: ignore[attr-defined]


class PickerApp(App[tuple[str, str | None] | None]):
    """Ends with the ``(address, password)`` picked or typed (None: the person left)."""

    CSS_PATH = str(Path(__file__).resolve().parent / "app.tcss")
    TITLE = "uno-tui"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "quit", "quit", priority=True)]

    def __init__(self, browse: Browse | None, *, address: str = "", error: str = "",
                 ask_password: bool = False) -> None:
        super().__init__()
        self.browse = browse
        self.address, self.error, self.ask_password = address, error, ask_password

    def get_default_screen(self) -> SealedConnectScreen:
        return SealedConnectScreen(self.browse, address=self.address, error=self.error,
                                   ask_password=self.ask_password)

    @on(ConnectScreen.JoinRequested)
    def _chosen(self, message: ConnectScreen.JoinRequested) -> None:
        from net.address import parse_address

        try:
            parse_address(message.address)
        except ValueError as e:
            self.screen.post_message(JoinFailed(str(e)))
            return
        self.exit((message.address, message.password))

    async def action_quit(self) -> None:
        self.exit(None)


def sealed_browse(known: Any = None) -> Browse:
    """The browse the picker runs: sealed tables only, marked against ``known`` (a ``KnownHosts``)."""
    async def browse(timeout: float) -> tuple[list[Found], str]:
        tables, note = await find_tables(timeout, known=known)
        return list(tables), note

    return browse


__all__ = ["PickerApp", "SealedConnectScreen", "sealed_browse"]
