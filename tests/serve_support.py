"""Helpers for the ``uno-tui serve`` tests: a server on loopback, and players who read their screen.

A :class:`Player` is a real SSH client (asyncssh) with a pseudo-terminal;
what the server sends is fed to a terminal emulator (pyte), so the tests
read the screen as a person sees it. Waiting is on the data: a check runs
each time bytes arrive, with a deadline only as the point of failure.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import os
import re
import tempfile
from pathlib import Path
from typing import Any, Callable

import asyncssh
import pyte

from uno_tui.serve.access import Admission
from uno_tui.serve.server import ServeConfig, ServeServer
from uno_tui.serve.spawn import Spawner
from uno_tui.widgets.cards import card_text

CHIP = re.compile(r"[│┃]([^│┃]{4})[│┃]")
"""A card chip in the hand panel (its label is inside)."""
KEYS = {
    "enter": b"\r", "up": b"\x1b[A", "down": b"\x1b[B", "right": b"\x1b[C", "left": b"\x1b[D",
    "escape": b"\x1b", "ctrl+q": b"\x11", "space": b" ", "tab": b"\t",
}
WAIT = 20.0
"""Seconds a screen may take to show what a test waits for (a bound for failure, not a pause)."""


def make_config(tmp_path: Path, **overrides: Any) -> ServeConfig:
    settings: dict[str, Any] = dict(ssh_port=0, bind="127.0.0.1", host_key=str(tmp_path / "host_key"),
                                    max_sessions=8, bot_delay=0.0, pacing=(0.0, 0.0), idle_timeout=600.0,
                                    state_dir=str(tmp_path / "serve-state"))
    settings.update(overrides)
    return ServeConfig(**settings)


SPAWNER = Spawner()
"""One fork server for all the tests' servers (each would start its own; the imports take a while)."""
atexit.register(SPAWNER.close)


@contextlib.asynccontextmanager
async def running(tmp_path: Path, **overrides: Any) -> Any:
    """A started :class:`ServeServer` on loopback (closed afterwards)."""
    config = make_config(tmp_path, **overrides)
    server = ServeServer(config, Admission.from_options(config.authorized_keys, config.password), spawner=SPAWNER)
    await server.start()
    try:
        yield server
    finally:
        await server.close()


class Terminal:
    """A terminal emulator fed with a session's output."""

    def __init__(self, cols: int, rows: int) -> None:
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        self.changed = asyncio.Event()
        self.closed = False

    def feed(self, data: bytes) -> None:
        self.raw += data
        self.stream.feed(data)
        self.changed.set()

    def resize(self, cols: int, rows: int) -> None:
        self.screen.resize(rows, cols)

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def plain(self) -> str:
        """Everything received, escapes removed (for messages printed before or after the app)."""
        return re.sub(rb"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]", b"", bytes(self.raw)).decode(
            "utf-8", "replace")

    async def wait(self, cond: Callable[[], Any] | str, timeout: float = WAIT, what: str = "") -> Any:
        """Until ``cond()`` is true (or the text appears on the screen); its value."""
        check: Callable[[], Any] = (lambda: cond in self.text()) if isinstance(cond, str) else cond
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            value = check()
            if value:
                return value
            left = end - loop.time()
            if left <= 0 or self.closed:
                fd, path = tempfile.mkstemp(prefix="uno-tui-serve-screen-", suffix=".raw")
                os.write(fd, bytes(self.raw))
                os.close(fd)
                raise AssertionError(f"timed out waiting for {what or cond!r}; the screen shows:\n{self.text()}\n"
                                     f"(the whole stream is in {path}; escapes removed, it ends with:\n"
                                     f"{self.plain()[-600:]})")
            self.changed.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                # A condition on the host's state may turn true with no change on the screen: look again.
                await asyncio.wait_for(self.changed.wait(), min(left, 0.1))


class _ClientSession(asyncssh.SSHClientSession):  # type: ignore[misc]
    def __init__(self, terminal: Terminal) -> None:
        self.terminal = terminal
        self.status: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()

    def data_received(self, data: bytes, datatype: Any) -> None:
        self.terminal.feed(data)

    def exit_status_received(self, status: int) -> None:
        if not self.status.done():
            self.status.set_result(status)

    def connection_lost(self, exc: Exception | None) -> None:
        self.terminal.closed = True
        self.terminal.changed.set()
        if not self.status.done():
            self.status.set_result(None)


class Player:
    """Someone at ``ssh -p PORT NAME@127.0.0.1``, with a pty of ``size`` (or none)."""

    def __init__(self, name: str, *, key: asyncssh.SSHKey | None = None, password: str | None = None,
                 size: tuple[int, int] | None = (80, 24), term: str | None = "xterm-256color") -> None:
        self.name = name
        self.key = key
        self.password = password
        self.size = size
        self.term = term
        self.terminal = Terminal(*(size or (80, 24)))
        self.conn: asyncssh.SSHClientConnection | None = None
        self.chan: asyncssh.SSHClientChannel | None = None
        self.session: _ClientSession | None = None

    async def connect(self, port: int, command: str | None = None) -> "Player":
        self.conn = await asyncssh.connect(
            "127.0.0.1", port, username=self.name, known_hosts=None,
            client_keys=[self.key] if self.key is not None else [],
            # An open server takes any password from a client without a key (OpenSSH asks nothing: it
            # uses keyboard-interactive, which an open server answers with no question).
            password=self.password if self.password is not None else ("" if self.key is None else None),
            agent_path=None, preferred_auth="publickey,keyboard-interactive,password")
        pty: dict[str, Any] = {}
        if self.term is not None and self.size is not None:
            pty = {"term_type": self.term, "term_size": self.size}
        self.chan, self.session = await self.conn.create_session(lambda: _ClientSession(self.terminal), command,
                                                                 encoding=None, **pty)
        return self

    def press(self, *keys: str) -> None:
        assert self.chan is not None
        for key in keys:
            self.chan.write(KEYS.get(key, key.encode()))

    def resize(self, cols: int, rows: int) -> None:
        assert self.chan is not None
        self.terminal.resize(cols, rows)
        self.chan.change_terminal_size(cols, rows)

    async def wait(self, cond: Callable[[], Any] | str, timeout: float = WAIT, what: str = "") -> Any:
        return await self.terminal.wait(cond, timeout, what)

    def text(self) -> str:
        return self.terminal.text()

    async def exit_status(self, timeout: float = WAIT) -> int | None:
        assert self.session is not None
        return await asyncio.wait_for(asyncio.shield(self.session.status), timeout)

    async def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.conn.wait_closed(), 5)


async def until(cond: Callable[[], Any], what: str, timeout: float = WAIT, step: float = 0.02) -> Any:
    """Until ``cond()`` is true, for state that no screen shows (the server's tables and sessions)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not (value := cond()):
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(step)
    return value


# -- a person's moves, by keys (for any player with press/wait/text and a pyte terminal) -----------------
async def open_table(player: Player, *, seats: int, bots: int) -> None:
    """From the menu: open a classic table with ``seats`` seats, ``bots`` of them bots; wait for the lobby."""
    await player.wait("Open a table on this server")
    player.press("down", "enter")
    await player.wait("Open the table (enter)")
    player.press("down")  # the seats (4 to start with)
    player.press(*(["left"] * (4 - seats) if seats < 4 else ["right"] * (seats - 4)))
    player.press("down", *(["right"] * bots))
    await player.wait(lambda: f"◂ {seats} " in player.text() and (bots == 0 or f"{bots} bot" in player.text()),
                      what=f"{seats} seats and {bots} bots chosen")
    player.press("enter")
    await player.wait("(you)", what="the lobby")


def hand_labels(player: Player) -> list[str] | None:
    """The cards in the hand panel, as their chips read (R4, Y+2, W...); None when no hand is shown."""
    lines = player.text().splitlines()
    start = next((i for i, line in enumerate(lines) if "Your hand" in line), None)
    if start is None:
        return None
    labels = []
    for line in lines[start + 1:]:
        if line.lstrip().startswith("╰"):
            break
        labels += [m.strip() for m in CHIP.findall(line[1:-1])]
    return sorted(labels)


def selected_label(player: Player) -> str | None:
    """The label of the chip the ▲ marker sits under: two rows up (under the chip's bottom edge), or
    one row up when the hand takes two rows and its chips are drawn without edges (a hand of a dozen
    cards or more at 80 columns: a penalty of six cards was enough to time the test out)."""
    where = marker(player)
    if where is None:
        return None
    y, x = where
    display = player.terminal.screen.display
    above = display[y - 1]
    row = above if x >= 1 and above[x - 1:x] in ("│", "┃") else display[y - 2]
    return row[x:x + 4].strip()


YOUR_TURN = re.compile(r"▶ .*\(you\)")
"""The players panel's row of the viewer, marked as the one to act."""


def shows_piles(text: str, obs: dict[str, Any]) -> bool:
    """Whether the piles on the screen count what ``obs`` counts (where the screen has room for them)."""
    discards = re.search(r"Discards: (\d+)", text)
    left = re.search(r"(\d+) left", text)
    return (discards is None or int(discards[1]) == len(obs["discard"])) and \
        (left is None or int(left[1]) == obs["draw_count"])


def marker(player: Player) -> tuple[int, int] | None:
    """Where the ▲ marker under the chosen chip is (row, column)."""
    for y, line in enumerate(player.terminal.screen.display):
        x = line.find("▲▲▲▲")
        if x >= 0 and y >= 2:
            return y, x
    return None


async def play_a_card(player: Player, host: Any, seat: int) -> dict[str, Any]:
    """Play one card by keys, as a person would (drawing first when nothing fits); the card played.

    The server's game says what is legal; the keys go only by what the screen shows (the ▲ under a chip).
    """
    def ready() -> dict[str, Any] | None:
        obs = host.game.observation(seat)
        shown = sorted(card_text(c) for c in obs["hand"])
        # Our move, whatever the phase: a bot may have opened with a Wild Draw Four on us, and
        # then the keys draw (or challenge) before any card can be played.
        mine = obs["current"] == seat and bool(obs["legal"]) and not obs["over"]
        # The screen must be at this state too: the turn's first update moves the selection to a
        # playable card, and a key pressed before it would go one card too far. (A screen still at
        # an earlier decision of ours, answering a Wild Draw Four, shows our turn and our hand.)
        text = player.text()
        told = YOUR_TURN.search(text) is not None and shows_piles(text, obs)
        # And the selection must have settled: a new turn moves it to a card that can be played,
        # and a frame read half drawn may show the turn with the marker still where it was (a
        # key pressed then goes from the settled place, one card further than the test thinks).
        playable = {card_text(c) for c in obs["hand"] if c["id"] in {a.get("card") for a in obs["legal"]
                                                                      if a["kind"] == "play"}}
        settled = not playable or selected_label(player) in playable
        return obs if mine and told and settled and "Your hand" in text and hand_labels(player) == shown else None

    for _ in range(30):
        obs = await player.wait(ready, what="our turn, drawn on the screen")
        # A card that needs no colour first (a wild opens the picker, which the keys answer too).
        plays = sorted((a for a in obs["legal"] if a["kind"] == "play"), key=lambda a: "color" in a)
        if not plays:
            version = obs["version"]
            kinds = {a["kind"] for a in obs["legal"]}
            player.press("d" if "draw" in kinds else "p" if "pass" in kinds else "c")
            await player.wait(lambda: host.game.version != version, what="the draw or the pass")
            continue
        card = next(c for c in obs["hand"] if c["id"] == plays[0]["card"])
        label = card_text(card)
        shown = sorted(card_text(c) for c in obs["hand"])
        for _ in range(len(obs["hand"])):
            # A screen read between two writes of one repaint can show no marker at all: wait for one,
            # or a half-drawn frame would count as a move and the next press would go one too far.
            await player.wait(lambda: marker(player) is not None, what="the selection marker")
            if selected_label(player) == label:
                break
            before = marker(player)  # (not the label: the selection may move from one W to another)
            player.press("right")
            await player.wait(lambda: marker(player) not in (before, None) and sorted(hand_labels(player) or []) == shown,
                              what="the selection to move")
        assert selected_label(player) == label
        player.press("enter")
        if "color" in plays[0]:
            await player.wait("Name a colour", what="the colour picker")
            player.press("r")
        # Gone from the hand for good (the hand's size may be back up already: a bot can answer with a +2).
        # The keys chose by label: with two alike in the hand, either may be the one played.
        alike = {c["id"] for c in obs["hand"] if card_text(c) == label}

        def played() -> dict[str, Any] | None:
            held = {c["id"] for c in host.game.observation(seat)["hand"]}
            return next((c for c in obs["hand"] if c["id"] in alike - held), None)

        # (The host's state; the wait shows the screen if it times out.)
        return await player.wait(played, what=f"the card to be played ({label}, by enter)")
    raise AssertionError("never had a card to play")
