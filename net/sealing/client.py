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
from ..errors import Refused
from ..identity import Identity, KnownHosts
from ..messages import MAX_NAME, clean_text
from ..secure import HandshakeError
from . import link as link_mod
from .link import Link
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

    async def run(self, host: str, port: int, fingerprint: str | None = None) -> SealedPeer:
        """Join the table at ``host:port`` (``fingerprint``: the start of the host key's, checked)
        and play (or watch) it to its end."""
        reader, writer = await asyncio.open_connection(host, port)
        try:
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

            async def read() -> None:  # one reader for the link's life: no frame is cut by a cancel
                try:
                    while True:
                        frames.put_nowait(await link.recv())
                except (framing.FrameError, ConnectionError, HandshakeError, asyncio.IncompleteReadError) as e:
                    frames.put_nowait(e)

            async def frame() -> dict[str, Any]:
                got = await frames.get()
                if isinstance(got, Exception):
                    frames.put_nowait(got)  # the link is over for every later reader too
                    raise got
                return got

            reading = asyncio.ensure_future(read())
            peer: SealedPeer | None = None
            played = 0
            try:
                while True:
                    try:
                        start = self._early or await frame()
                        self._early = None
                        while start.get("k") != "start":  # the waiting room
                            self._heard(start)
                            start = await frame()
                    except (framing.FrameError, ConnectionError, asyncio.IncompleteReadError):
                        if peer is not None:  # the host closed the table after the match
                            return peer
                        raise
                    peer = await self._play(link, start, frame)
                    self.played.append(peer)
                    played += 1
                    if self.matches is not None and played >= self.matches:
                        return peer
            finally:
                reading.cancel()
        finally:
            writer.close()
            if self.transcript is not None:
                self.transcript.close()

    async def _play(self, link: Link, start: dict[str, Any], frame: Callable[[], Any]) -> SealedPeer:
        """One match, from its ``start``: the log so far, then the peer's walk over the rest."""
        check_start(start, None if self.spectator else self.identity.public)
        backlog: list[dict[str, Any]] = []
        while (msg := await frame()).get("k") != "live":  # the log so far
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
        self.peer = peer = self.peer_class(
            variant=start["variant"], names=[clean_text(n, MAX_NAME) for n in start["names"]],
            options=start["options"], game_id=start["game"], roster={p: i for p, i in start["roster"]},
            owners=start["owners"], pid=pid, identity=None if pid is None else self.identity,
            send=lambda signed: link.send({"k": "msg", **signed}),
            secrets=SecretStore(self._secrets_file(start["game"])), bot_level=self.bot_level or start["level"],
            rounds=start["rounds"], already=sum(1 for e in backlog if e.get("from") == pid),
            turn_timer=start.get("timer"),
            **({"manual": (q for q, o in enumerate(start["owners"]) if o == pid)} if not self.peer_class.auto
               else {}))
        for e in backlog:
            peer.feed(e)

        async def pump() -> None:
            with contextlib.suppress(framing.FrameError, ConnectionError, asyncio.IncompleteReadError):
                while True:
                    msg = await frame()
                    if msg.get("k") == "log":
                        peer.feed(msg["e"])
                        if self.transcript is not None:
                            self.transcript.entry(msg["e"])
                    elif msg.get("k") == "start":  # a rematch's, before this peer saw its match end
                        self._early = msg
                        return
                    else:
                        self._heard(msg)

        pumping = asyncio.ensure_future(pump())
        try:
            await peer.run()
        finally:
            pumping.cancel()
        return peer

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
        if kind in ("lobby", "chat"):
            for listener in list(self.listeners):
                listener(kind, msg)

    def say(self, text: str) -> None:
        """Send a chat line to the table (the host cleans it, and everyone again)."""
        if self.link is not None and not self.spectator:
            self.link.send({"k": "chat", "text": text})


__all__ = ["SealedClient"]
