"""A player's side of a sealed table over TCP: its link to the host, the waiting room and chat, and its
peer for each match (:class:`net.sealing.SealedPeer`), which a bot or a person at a screen plays.

The client checks the host's ``start`` whole (:func:`net.sealing.room.check_start`) before it builds
its replica, keeps its own copy of the log (:mod:`.transcript`) and its round secrets
(:class:`.store.SecretStore`), and stays for rematches when asked to (``matches=None``).
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any, Callable

from .. import framing
from ..errors import NetError, Refused
from ..identity import Identity, KnownHosts, fingerprint
from ..messages import MAX_NAME, clean_text
from ..secure import HandshakeError
from . import link as link_mod
from .link import Link
from .deck import deck_ahead
from .lockstep import SealedPeer
from .room import check_start
from .store import SecretStore
from .transcript import SealedTranscript


class SealedClient:
    """A player's side of a sealed table: its link, and its peer (a bot chooses its moves)."""

    def __init__(self, identity: Identity | None = None, *, peer_class: type[SealedPeer] = SealedPeer,
                 save_path: str | Path | None = None, spectator: bool = False,
                 bot_level: str | None = None, name: str = "", password: str | None = None,
                 transcript_dir: str | Path | None = None, matches: int | None = 1,
                 known_hosts: KnownHosts | None = None) -> None:
        self.identity = identity or Identity.generate()
        self.known_hosts = known_hosts
        """Where the host keys this client joined are remembered, by ``host:port`` (None: nowhere); the
        LAN's list of sealed tables (:mod:`.lan`) marks a key seen before, or changed."""
        self.password = password
        self.listeners: list[Callable[[str, dict[str, Any]], None]] = []
        """Told ``("lobby", frame)`` and ``("chat", frame)`` as they come (frames as the host sent them:
        clean them for a screen with :func:`net.sealing.room.heard` / :func:`~net.sealing.room.lobby_text`)."""
        self.link: Link | None = None
        self.transcript_dir = transcript_dir
        """Where this client writes its own copy of the log (None: nowhere), for ``uno-tui audit``."""
        self.transcript: SealedTranscript | None = None
        self.matches = matches
        """How many matches this client plays before it leaves (None: every rematch, until the host
        closes the table)."""
        self._early: dict[str, Any] | None = None
        self.played: list[SealedPeer] = []
        """The matches this client has played to their end (a rematch's come after)."""
        self.name = name
        """The name this client asks for at the table (the host may add a number to make it unique)."""
        self.bot_level = bot_level
        """How well this client's bot plays (None: as the host's bots)."""
        self.spectator = spectator
        self.peer_class = peer_class
        self.save_path = Path(save_path) if save_path is not None else None
        """Where this client keeps its round secrets: a file, or a directory holding one file a game
        (``GAME.secrets``, so that a new table never reads another's)."""
        self.peer: SealedPeer | None = None
        self.reconnect_for = 120.0
        """Seconds a client whose link to the host is lost in a match tries to connect again (a host
        restarted with ``--resume`` takes its place)."""
        self.retry_every = 0.25
        """Seconds between those tries."""
        self.close_grace = 30.0
        """Seconds a client's peer has to end its match with the log it holds once the host said it
        closed the table (``closed``: the match is whole); then the table is gone."""
        self.host_key = b""
        self._where: tuple[str, int, str | None] = ("", 0, None)
        self._writer: asyncio.StreamWriter | None = None
        self._reading: asyncio.Future[None] | None = None
        self._frames: asyncio.Queue[Any] = asyncio.Queue()
        self._outbox: list[dict[str, Any]] = []
        self._mine: set[bytes] = set()
        self._seen: list[bytes] = []  # the body of each log entry of the match, in order (a host back is checked)

    async def _connect(self, host: str, port: int, fingerprint: str | None) -> None:
        """Open the link (the handshake, then ``hello``) and start its one reader: a frame is never cut
        by a cancel. A link that comes again (:meth:`_rejoin`) replaces the last."""
        if self._writer is not None:
            self._writer.close()
        if self._reading is not None:
            self._reading.cancel()
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), link_mod.TIMEOUT)
        self._writer = writer
        link, self.host_key = await asyncio.wait_for(
            link_mod.connect(reader, writer, self.identity, fingerprint, self.password), link_mod.TIMEOUT)
        self.link = link
        if self.known_hosts is not None:
            with contextlib.suppress(OSError):
                self.known_hosts.remember(f"{host}:{port}", self.host_key)
        hello: dict[str, Any] = {"k": "hello", "name": self.name}
        if self.spectator:
            hello["role"] = "spectator"
        link.send(hello)
        frames: asyncio.Queue[Any] = asyncio.Queue()
        self._frames = frames

        async def read() -> None:
            try:
                while True:
                    frames.put_nowait(await link.recv())
            except (framing.FrameError, ConnectionError, HandshakeError, asyncio.IncompleteReadError) as e:
                frames.put_nowait(e)

        self._reading = asyncio.ensure_future(read())

    async def _frame(self) -> dict[str, Any]:
        frames = self._frames
        got = await frames.get()
        if isinstance(got, Exception):
            frames.put_nowait(got)  # the link is over for every later reader too
            raise got
        return got

    async def run(self, host: str, port: int, fingerprint: str | None = None) -> SealedPeer:
        """Join the table at ``host:port`` (``fingerprint``: the start of the host key's, checked)
        and play (or watch) it to its end."""
        self._where = (host, port, fingerprint)
        try:
            await self._connect(host, port, fingerprint)
            peer: SealedPeer | None = None
            played = 0
            while True:
                try:
                    start = self._early or await self._frame()
                    self._early = None
                    while start.get("k") != "start":  # the waiting room
                        self._heard(start)
                        start = await self._frame()
                except (framing.FrameError, ConnectionError, asyncio.IncompleteReadError):
                    if peer is not None:  # the host closed the table after the match
                        return peer
                    raise
                peer = await self._play(start)
                self.played.append(peer)
                played += 1
                if self.matches is not None and played >= self.matches:
                    return peer
        finally:
            if self._reading is not None:
                self._reading.cancel()
            if self._writer is not None:
                self._writer.close()
            if self.transcript is not None:
                self.transcript.close()

    def _send(self, signed: dict[str, Any]) -> None:
        """The peer's signed message to the host (kept until the log holds it: a host that crashed
        before logging it is sent it again when the link comes back)."""
        self._outbox.append(signed)
        if self.link is not None:
            self.link.send({"k": "msg", **signed})

    def _logged(self, entry: dict[str, Any], pid: int | None) -> None:
        self._seen.append(entry.get("m") if isinstance(entry.get("m"), bytes) else b"")
        if pid is not None and entry.get("from") == pid and isinstance(entry.get("m"), bytes):
            self._mine.add(entry["m"])

    async def _play(self, start: dict[str, Any]) -> SealedPeer:
        """One match, from its ``start``: the log so far, then the peer's walk over the rest."""
        check_start(start, None if self.spectator else self.identity.public)
        backlog: list[dict[str, Any]] = []
        while (msg := await self._frame()).get("k") != "live":  # the log so far
            if msg.get("k") == "log":
                backlog.append(msg["e"])
            else:
                self._heard(msg)
        pid = start["pid"]
        if self.transcript is not None:
            self.transcript.close()
        if self.transcript_dir is not None:
            self.transcript = record = SealedTranscript.create(
                self.transcript_dir, "sealed-watch" if pid is None else f"sealed-{pid}", start)
            for e in backlog:
                record.entry(e)
        self._outbox, self._mine, self._seen = [], set(), []
        for e in backlog:
            self._logged(e, pid)
        self.peer = peer = self.peer_class(
            variant=start["variant"], names=[clean_text(n, MAX_NAME) for n in start["names"]],
            options=start["options"], game_id=start["game"], roster={p: i for p, i in start["roster"]},
            owners=start["owners"], pid=pid, identity=None if pid is None else self.identity,
            send=self._send, secrets=SecretStore(self._secrets_file(start["game"])),
            bot_level=self.bot_level or start["level"],
            rounds=start["rounds"], already=sum(1 for e in backlog if e.get("from") == pid),
            turn_timer=start.get("timer"),
            **({"manual": (q for q, o in enumerate(start["owners"]) if o == pid)} if not self.peer_class.auto
               else {}))
        for e in backlog:
            peer.feed(e)
        fed = [len(backlog)]
        closed: list[bool] = []

        async def pump() -> None:
            while True:
                try:
                    msg = await self._frame()
                except (framing.FrameError, ConnectionError, asyncio.IncompleteReadError, HandshakeError):
                    await self._rejoin(peer, start, fed)
                    continue
                if msg.get("k") == "log":
                    fed[0] += 1
                    self._logged(msg["e"], pid)
                    peer.feed(msg["e"])
                    if self.transcript is not None:
                        self.transcript.entry(msg["e"])
                elif msg.get("k") == "start":  # a rematch's, before this peer saw its match end
                    self._early = msg
                    return
                elif msg.get("k") == "closed":  # the host closed the table: the log is whole, no reconnecting
                    closed.append(True)
                    self._heard(msg)
                    return
                else:
                    self._heard(msg)

        pumping = asyncio.ensure_future(pump())
        running = asyncio.ensure_future(peer.run())
        try:
            await asyncio.wait({pumping, running}, return_when=asyncio.FIRST_COMPLETED)
            if not running.done() and pumping.exception() is not None:
                running.cancel()
                raise pumping.exception()  # type: ignore[misc]  (the host did not come back)
            if closed and not running.done():
                # What the peer has is all it will get: it ends its match with it, or the table is gone.
                done, _ = await asyncio.wait({running}, timeout=self.close_grace)
                if not done:
                    raise NetError("gone", "the host closed the table before the match ended")
            await running
        finally:
            pumping.cancel()
            running.cancel()
        return peer

    async def _rejoin(self, peer: SealedPeer, start: dict[str, Any], fed: list[int]) -> None:
        """The link to the host is lost in a match (the host crashed, or the network): connect again for
        :attr:`reconnect_for` seconds, read the log the host sends again from its start (the entries this
        peer has are not fed twice), and send again what this peer signed that the log does not hold
        (the host may have crashed before logging it). A host that comes back with another table, or
        not at all, ends this client's match with :class:`~net.errors.NetError`."""
        self._link_note(False)
        peer.link_breaks += 1
        loop = asyncio.get_running_loop()
        until = loop.time() + self.reconnect_for
        host, port, fp = self._where
        while True:
            try:
                await self._connect(host, port, fp if fp is not None else fingerprint(self.host_key))
                again = await self._frame()
                while again.get("k") != "start":
                    self._heard(again)
                    again = await self._frame()
                break
            except (OSError, asyncio.TimeoutError, framing.FrameError, asyncio.IncompleteReadError) as e:
                if loop.time() >= until:
                    raise NetError("gone", f"the host did not come back within {self.reconnect_for:g} s "
                                           f"({type(e).__name__})") from None
                await asyncio.sleep(self.retry_every)
        if again.get("game") != start["game"] or again.get("pid") != start["pid"]:
            raise NetError("gone", "the host came back with another table: this match is over")
        n = 0
        while (msg := await self._frame()).get("k") != "live":
            if msg.get("k") != "log":
                self._heard(msg)
                continue
            n += 1
            if n <= fed[0]:  # an entry this peer has: the same one, or the host lost or changed its log
                if msg["e"].get("m") != self._seen[n - 1]:
                    raise NetError("gone", f"the host came back with another log (entry {n} differs from the "
                                           "one it sent before): this match cannot go on")
                continue
            fed[0] = n
            self._logged(msg["e"], start["pid"])
            peer.feed(msg["e"])
            if self.transcript is not None:
                self.transcript.entry(msg["e"])
        if n < fed[0]:
            raise NetError("gone", f"the host came back with {n} entries of its log, not the {fed[0]} it had sent "
                                   "(its disk lost them): this match cannot go on")
        for signed in self._outbox:
            if signed["m"] not in self._mine and self.link is not None:
                self.link.send({"k": "msg", **signed})
        peer.link_breaks += 1
        self._link_note(True)

    def _link_note(self, up: bool) -> None:
        for listener in list(self.listeners):
            listener("link", {"up": up})

    def _secrets_file(self, game: bytes) -> Path | None:
        if self.save_path is None or not self.save_path.is_dir():
            return self.save_path
        return self.save_path / f"{game.hex()}.secrets"

    def _heard(self, msg: dict[str, Any]) -> None:
        """A waiting-room or chat frame, told to the listeners; anything else beside the log is ignored."""
        kind = msg.get("k")
        if kind == "refuse":
            raise Refused(clean_text(msg.get("code") or "refused", 32),
                          clean_text(msg.get("reason") or "refused by the host", 200))
        if kind == "lobby" and isinstance(msg.get("seats"), list):
            deck_ahead(msg.get("variant"), len(msg["seats"]), msg.get("options"))  # while the table fills
        if kind in ("lobby", "chat", "closed"):
            for listener in list(self.listeners):
                listener(kind, msg)

    def say(self, text: str) -> None:
        """Send a chat line to the table (the host cleans it, and everyone again)."""
        if self.link is not None and not self.spectator:
            self.link.send({"k": "chat", "text": text})


__all__ = ["SealedClient"]
