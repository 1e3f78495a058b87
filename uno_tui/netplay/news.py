"""What the network app tells its screens: the host's news, as messages each screen handles.

The app reads the client's messages (one pump) and posts these to every screen it shows (the
lobby, the table, the connect screen); a screen handles what it draws and lets the rest go. The
table's own news, the game's updates, come from the session as
:class:`uno_tui.session.SessionChanged`. None of these bubble: each is for the screen it is posted to.
"""

from __future__ import annotations

from typing import Any

from textual.message import Message


class LobbyChanged(Message, bubble=False):
    """The seats changed (who sits where, who is ready, who is away): the session has the new lobby
    (``None`` before the host has sent one)."""

    def __init__(self, lobby: dict[str, Any] | None) -> None:
        super().__init__()
        self.lobby = lobby


class ChatHeard(Message, bubble=False):
    """A chat line from the table (``{from, seat, text}``, cleaned by the client)."""

    def __init__(self, line: dict[str, Any]) -> None:
        super().__init__()
        self.line = line


class NoteAdded(Message, bubble=False):
    """A line about the table for the log: its address, a check's verdict, the end of the match."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class LinkChanged(Message, bubble=False):
    """The link to the host: ``"lost"`` (reconnecting), ``"restored"``, or ``"gave_up"`` (with why)."""

    def __init__(self, state: str, reason: str) -> None:
        super().__init__()
        self.state = state
        self.reason = reason


class JoinFailed(Message, bubble=False):
    """Joining failed, for ``reason``; ``password``: the table wants a (or another) password."""

    def __init__(self, reason: str, *, password: bool = False) -> None:
        super().__init__()
        self.reason = reason
        self.password = password
