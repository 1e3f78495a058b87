"""The sealed table over TCP: the host orders and relays signed messages; each client runs its own peer.

The host (:class:`SealedHost`) is a sequencer. Each message a client sends is signed by the
client's identity; the host checks the signature, appends the message to the log byte for
byte (``{from, m, s}``) and sends the entry to everyone, itself included: its own peer (the
bots' seats, a person's seat when the host plays) reads the log like any other. The host never
holds another participant's secret, and the envelopes it relays are sealed boxes to their
recipients. What it can still do is the host's part in the threat model: stall, drop, reorder
arrivals (``docs/sealed-design.md``, section 4).

Links are the project's encrypted, authenticated links (:mod:`.link`: the handshake of
:mod:`net.secure`, then sealed frames). The sealed wire is its own small protocol (``hello``,
``lobby``, ``chat``, ``start``, ``msg``, ``log``, ``live``), beside the table's gateway; the
client's side is :mod:`.client`, the waiting room and chat :mod:`.room`.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import core

from .. import framing
from ..identity import Identity, verify
from ..messages import MAX_NAME, clean_text
from ..secure import HandshakeError
from ..throttle import PasswordThrottle
from . import link as link_mod
from .link import Link
from .deck import deck_ahead
from .lockstep import SealedPeer
from .postbox import Postbox, next_in_line, recipients
from .room import ChatBrake, chat_line
from .signed import TAG, Alarm, sign
from .store import SecretStore
from .transcript import SealedTranscript

MAX_REFUSED = 8
"""Messages a link may send that are refused (not signed by its identity, not a message) before
the host closes it: an honest client never sends one, and a peer sending junk must not fill the
host's memory or time. The participant may connect again; its seat waits for it as for a crash."""

@dataclass(eq=False)
class _Waiting:
    """A person in the waiting room: its link, identity key and the name it asked for."""

    link: Link
    identity: bytes
    name: str


class SealedHost:
    """A sealed table's host: ``people`` seats for clients (the first seats not the host's), ``host_seats`` the
    host's own person plays (its peer chooses for them), the rest bots of the host's."""

    def __init__(self, *, variant: str, seats: int, people: int, identity: Identity | None = None,
                 options: dict[str, Any] | None = None, rounds: int | None = 1, bot_level: str = "normal",
                 host_seats: tuple[int, ...] = (), peer_class: type[SealedPeer] = SealedPeer,
                 save_path: str | Path | None = None, host_person: bool = False, name: str = "Host",
                 password: str | None = None, grace: float = 30.0, turn_timer: float | None = None,
                 transcript_dir: str | Path | None = None) -> None:
        core.variant_class(variant)  # a ValueError names the known variants
        if not 0 <= people <= seats:
            raise ValueError("people must be between 0 and the number of seats")
        if turn_timer is not None and not turn_timer > 0:
            raise ValueError(f"--turn-timer must be more than 0 seconds, not {turn_timer:g}")
        if not grace >= 0:
            raise ValueError(f"--grace must be 0 seconds or more, not {grace:g}")
        self.variant, self.seats, self.people = variant, seats, people
        self.options = options
        self.identity = identity or Identity.generate()
        self.rounds, self.bot_level = rounds, bot_level
        self.host_seats = host_seats
        self.host_person = host_person
        """The host's person plays ``host_seats`` at a screen (else the host's bot plays them)."""
        self.name = clean_text(name, MAX_NAME) or "Host"
        """The host's person's name, on the seats it plays."""
        self.asked_names: dict[int, str] = {}
        """The name each client asked for in its hello (cleaned), by participant."""
        self.peer_class = peer_class
        self.save_path = Path(save_path) if save_path is not None else None
        self.log: list[dict[str, Any]] = []
        """Every entry of the signed log, in order (the transcript)."""
        self.frames: list[bytes] = []
        """Every frame body the host sent (what it relayed, before each link seals it), kept for inspection."""
        self.links: dict[int, Link] = {}
        self.watchers: list[Link] = []
        """Spectators' links: they get the log and send nothing."""
        self.log_bodies: list[bytes] = []
        self.postbox = Postbox()
        """Copies of keys dealt to others, kept back a moment from the links they are not for."""
        self._start: dict[str, Any] | None = None
        self.identities: dict[int, bytes] = {0: self.identity.public}
        self.names: list[str] = []
        self._joined = asyncio.Event()
        self._server: asyncio.base_events.Server | None = None
        self.peer: SealedPeer | None = None
        self.refused: list[tuple[int | None, str]] = []
        self.password = password
        """The table's password (None: anyone with the address may join)."""
        self.grace = grace
        """Seconds a participant's seat waits for its link to come back before the host voids the round
        (its keys left with it: nobody can open the cards it holds a key to)."""
        self.turn_timer = turn_timer
        """Seconds a person has for a decision before its own client's bot makes it; a participant the
        table still waits on :attr:`grace` seconds after that (connected but silent) voids the round."""
        self._last = 0.0
        self.transcript_dir = transcript_dir
        """Where the host writes the match's transcript (None: nowhere), which ``uno-tui audit`` checks."""
        self.transcript: SealedTranscript | None = None
        self.voided: dict[str, Any] | None = None
        """The void the host logged (``{r, who, why}``), if it did."""
        self._done = False
        self.ended = False
        """The host's peer ended the match (its last round, or an alarm): closing now is for good, and its
        clients are told so (``closed``); a host stopped mid-match may come back (``--resume``)."""
        self._timers: set[asyncio.Future[None]] = set()
        self.throttle = PasswordThrottle()
        """Slows down whoever guesses the password wrong, per address (as the open host's)."""
        self.waiting: list[_Waiting] = []
        """The people in the waiting room, in the order they came (their seats are given at the start)."""
        self.listeners: list[Callable[[str, dict[str, Any]], None]] = []
        """Told ``("lobby", frame)``, ``("chat", frame)``, ``("refused", {who, why})``: what the host's
        own screen or printer shows."""
        self.advertisement: Any = None
        """The table's announcement on the LAN (:mod:`.lan`), while it has one."""

    async def start(self, bind: str = "127.0.0.1", port: int = 0) -> int:
        deck_ahead(self.variant, self.seats, self.options)  # while the players come
        self._server = await asyncio.start_server(self._link, bind, port)
        if not self._client_seats():
            self._joined.set()
        return self._server.sockets[0].getsockname()[1]

    def _client_seats(self) -> list[int]:
        return [q for q in range(self.seats) if q not in self.host_seats][:self.people]

    async def _link(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        seat: _Waiting | None = None
        link: Link | None = None
        ident = b""
        try:
            link, ident = await link_mod.accept(reader, writer, self.identity, self.password, self.throttle)
            hello = await asyncio.wait_for(link.recv(), link_mod.TIMEOUT)
            if hello.get("k") != "hello":
                writer.close()
                return
            if hello.get("role") == "spectator":
                self.watchers.append(link)
                if self._start is not None:
                    self._catch_up(link, None)
                else:
                    link.send(self.lobby())
                # A spectator sends nothing: its link stays until it leaves, and ends if it sends
                # anything (never buffered: a flood must not fill the host's memory).
                await reader.read(1)
                self.watchers.remove(link)
                return
            back = [p for p, i in self.identities.items() if i == ident and p != 0]
            again = [w for w in self.waiting if w.identity == ident]
            if back:  # a participant back after a crash or a lost link: the log from its start
                old = self.links.get(back[0])
                if old is not None:
                    old.close()
                self.links[back[0]] = link
                self._catch_up(link, back[0])
            elif self._start is None and again:  # back in the waiting room: its place kept
                seat = again[0]
                seat.link.close()
                seat.link = link
                self._tell_lobby()
            elif self._start is None and len(self.waiting) < len(self._client_seats()):
                seat = _Waiting(link, ident, clean_text(hello.get("name") or "", MAX_NAME))
                self.waiting.append(seat)
                self._tell_lobby()
                if len(self.waiting) == len(self._client_seats()):
                    self._joined.set()
            else:
                link_mod.refuse(writer, "full", "every seat of this table is taken" if self._start is None
                                else "this table has started: its seats are taken")
                return
            await self._serve(link, ident)
        except (framing.FrameError, ConnectionError, HandshakeError, asyncio.TimeoutError):
            pass
        except asyncio.CancelledError:
            # The host closing: a link's handler ends quietly (asyncio's server would otherwise
            # log each cancelled handler as an error at shutdown).
            pass
        finally:
            writer.close()
            gone = [w for w in self.waiting if w.link.writer is writer] if self._start is None else []
            for w in gone:  # left the waiting room: its place is open again
                self.waiting.remove(w)
                self._joined.clear()
                self._tell_lobby()
            pid = self._pid_of(ident) if self._start is not None else None
            if pid is not None and link is not None and self.links.get(pid) is link and not self._done:
                task = asyncio.ensure_future(self._absent(pid, link))
                self._timers.add(task)
                task.add_done_callback(self._timers.discard)

    async def _absent(self, pid: int, link: Link) -> None:
        """A participant's link is gone: if no other takes its place within :attr:`grace`, the round is void."""
        await asyncio.sleep(self.grace)
        if self.links.get(pid) is link and not self._done:
            name = self._name_of(self.identities[pid])
            self.void(pid, f"{name} left the table and did not come back within {self.grace:g} s")

    def void(self, pid: int, why: str) -> None:
        """Log the host's signed word that participant ``pid`` left for good: every peer ends the match
        with the round void (:class:`net.sealing.signed.Voided`)."""
        if self.voided is not None or self.peer is None:
            return
        self.voided = {"r": getattr(self.peer, "round", 0), "who": pid, "why": why}
        self._own(sign(self.identity, {"k": "svoid", **self.voided}))

    async def _serve(self, link: Link, ident: bytes) -> None:
        """Read one participant's link: its signed messages into the log, its chat to everyone; refused
        messages counted, and the link closed at :data:`MAX_REFUSED`."""
        refused = 0
        brake = ChatBrake()
        while refused < MAX_REFUSED:
            msg = await link.recv()
            pid = self._pid_of(ident)
            if msg.get("k") == "chat":
                line = chat_line(self._name_of(ident), msg.get("text")) if brake.allow() else None
                if line is None:
                    self._refuse(pid, "a chat line over the limit, or empty")
                    refused += 1
                    continue
                self.chat(line)
                continue
            if pid is None or msg.get("k") != "msg" or not isinstance(msg.get("m"), bytes) \
                    or not isinstance(msg.get("s"), bytes) or not verify(ident, msg["s"], TAG, msg["m"]):
                self._refuse(pid, "a message it did not sign" if pid is not None else "a message before the start")
                refused += 1
                continue  # refused: never logged
            if self.peer is not None:
                self.peer.vouch(pid, msg["m"], msg["s"])  # checked just now: the host's peer need not again
            self.append({"from": pid, "m": msg["m"], "s": msg["s"]})

    def _pid_of(self, ident: bytes) -> int | None:
        return next((p for p, i in self.identities.items() if i == ident and p != 0), None)

    def _name_of(self, ident: bytes) -> str:
        pid = self._pid_of(ident)
        if pid is not None and self.names:
            return next((self.names[q] for q, o in enumerate(self.owners()) if o == pid), "?")
        return next((w.name or "a player" for w in self.waiting if w.identity == ident), "?")

    def _refuse(self, pid: int | None, why: str) -> None:
        self.refused.append((pid, why))
        self._emit("refused", {"who": pid, "why": why})

    def _emit(self, kind: str, data: dict[str, Any]) -> None:
        for listener in list(self.listeners):
            listener(kind, data)

    def _everyone(self) -> list[Link]:
        return [*self.links.values(), *(w.link for w in self.waiting if self._start is None), *self.watchers]

    def chat(self, line: dict[str, Any]) -> None:
        """Send a chat frame (:func:`net.sealing.room.chat_line`) to everyone, the host's screen included."""
        for link in self._everyone():
            link.send(line)
        self._emit("chat", line)

    def say(self, text: str) -> None:
        """The host's person says ``text`` to the table."""
        line = chat_line(self.name, text)
        if line is not None:
            self.chat(line)

    def lobby(self) -> dict[str, Any]:
        """The waiting room as everyone sees it, in the open table's lobby's shape (so the same screen
        draws it): each seat's name and kind (``human``, ``bot``, ``open``), before the seats are given.
        Everyone at a sealed table is ready by being there: the deal starts when the seats fill, or when
        the host says (:meth:`start_now`)."""
        clients = self._client_seats()
        seats = []
        for q in range(self.seats):
            seat: dict[str, Any] = {"seat": q, "ready": True, "away": False, "bot_plays": False}
            if q in clients:
                i = clients.index(q)
                seat.update({"name": self.waiting[i].name or f"Player {q + 1}", "kind": "human"}
                            if i < len(self.waiting) else {"name": "", "kind": "open"})
            elif q in self.host_seats and self.host_person:
                seat.update(name=self.name, kind="human")
            else:
                seat.update(name=f"Bot {q + 1}", kind="bot")
            seats.append(seat)
        return {"k": "lobby", "phase": "lobby", "host": self.name, "variant": self.variant,
                "password": self.password is not None, "options": dict(self.options or {}), "rounds": self.rounds,
                "turn_timer": self.turn_timer, "grace": self.grace, "spectators": len(self.watchers),
                "seats": seats}

    def _tell_lobby(self) -> None:
        frame = self.lobby()
        for link in self._everyone():
            link.send(frame)
        self._emit("lobby", frame)

    def rematch(self) -> None:
        """After a match that ended (cleanly or void): back to the waiting room with the same people,
        each still in the seat it had; call :meth:`run` again for the new match (a new game id, new
        keys). Someone who has left frees their place, as in any waiting room."""
        if not self._done:
            raise ValueError("the match is not over")
        if self.transcript is not None:
            self.transcript.close()
            self.transcript = None
        clients = self._client_seats()
        # In participant order, which is seat order (owners()): each takes its seat again.
        back = [_Waiting(self.links[pid], self.identities[pid], self.asked_names.get(pid, ""))
                for pid in sorted(self.links) if not self.links[pid].writer.is_closing()]
        self.identities, self.links, self.asked_names = {0: self.identity.public}, {}, {}
        self.waiting = back
        self.log, self.log_bodies, self.names = [], [], []
        self._start, self.peer, self.voided, self._done, self.ended = None, None, None, False, False
        self._joined.clear()
        if len(self.waiting) >= len(clients):
            self._joined.set()
        self._tell_lobby()

    def start_now(self) -> None:
        """Deal with whoever is waiting: the seats still open go to the host's bots."""
        if self._start is None:
            self.people = len(self.waiting)
            self._joined.set()

    def _catch_up(self, link: Link, pid: int | None) -> None:
        """Tell a peer joining a table under way the start and the whole log, then that it is live
        (all at once: no entry can come between)."""
        assert self._start is not None
        link.send({**self._start, "pid": pid})
        for body in self.log_bodies:
            link.send_packed(body)
        link.send({"k": "live"})

    def append(self, entry: dict[str, Any]) -> None:
        """Log ``entry`` and send it to everyone (the host's own peer included)."""
        self.log.append(entry)
        if self.transcript is not None:
            self.transcript.entry(entry)
        with contextlib.suppress(RuntimeError):  # no loop: a test feeding the log by hand
            self._last = asyncio.get_running_loop().time()
        body = framing.pack({"k": "log", "e": entry})
        self.frames.append(body)
        self.log_bodies.append(body)
        m = entry.get("m")
        to, timed = recipients(m), True
        if to is None and (nxt := next_in_line(m, sorted(self.identities))) is not None:
            to, timed = nxt, False  # a pass: the others' copies wait for the next entry sent to each
        for pid, link in [*self.links.items(), *((None, w) for w in self.watchers)]:
            if to is not None and pid not in to:  # (its author counted its own keys in as they left)
                self.postbox.keep(link, body, timed=timed)  # together, later (postbox.py)
            else:
                self.postbox.send(link, body)
        if self.peer is not None:
            self.peer.feed(entry)

    def _own(self, signed: dict[str, Any]) -> None:
        self.append({"from": 0, **signed})

    def seat_names(self, owners: list[int]) -> list[str]:
        """Each seat's name: the one its person asked for (made unique), the host's person's, or a bot's."""
        names: list[str] = []
        for q in range(self.seats):
            if owners[q]:
                want = self.asked_names.get(owners[q]) or f"Player {q + 1}"
            elif q in self.host_seats and self.host_person:
                want = self.name
            else:
                want = f"Bot {q + 1}"
            name, n = want, 2
            while name in names:  # two people called Ann: Ann and Ann 2
                name, n = f"{want[:MAX_NAME - 3]} {n}", n + 1
            names.append(name)
        return names

    def owners(self) -> list[int]:
        owners = [0] * self.seats
        for pid, q in enumerate(self._client_seats(), start=1):
            owners[q] = pid
        return owners

    async def run(self) -> SealedPeer:
        """Wait for the clients, start them, and play the match with the host's own peer."""
        while True:
            await self._joined.wait()
            if len(self.waiting) >= len(self._client_seats()):
                break
            self._joined.clear()  # someone left as the room filled
        for pid, w in enumerate(self.waiting[:len(self._client_seats())], start=1):
            self.identities[pid], self.links[pid], self.asked_names[pid] = w.identity, w.link, w.name
        owners = self.owners()
        names = self.seat_names(owners)
        game_id = secrets.token_bytes(16)
        roster = [[p, i] for p, i in sorted(self.identities.items())]
        self.names = names
        self._start = {"k": "start", "roster": roster, "owners": owners, "names": names, "variant": self.variant,
                       "options": self.options, "game": game_id, "rounds": self.rounds, "level": self.bot_level,
                       "timer": self.turn_timer}
        if self.transcript_dir is not None:
            self.transcript = SealedTranscript.create(self.transcript_dir, "sealed-host", self._start)
            for e in self.log:
                self.transcript.entry(e)
        self._started()
        for pid, w in self.links.items():
            self._catch_up(w, pid)
        for w in self.watchers:
            self._catch_up(w, None)
        return await self._play()

    async def _play(self, already: int = 0) -> SealedPeer:
        """The host's own peer over the match's log (``already``: its messages the log holds, after a restart)."""
        assert self._start is not None
        self.peer = self.peer_class(variant=self.variant, names=self.names, options=self.options,
                                    game_id=self._start["game"], roster=dict(self.identities),
                                    owners=self._start["owners"], pid=0, identity=self.identity,
                                    send=self._own, secrets=SecretStore(self.save_path), bot_level=self.bot_level,
                                    rounds=self.rounds, manual=self.host_seats if self.host_person else (),
                                    turn_timer=self.turn_timer, already=already)
        for e in self.log:  # whatever arrived before the host's peer was made
            self.peer.feed(e)
        watch = asyncio.ensure_future(self._watch()) if self.turn_timer is not None else None
        try:
            try:
                await self.peer.run()
            except Alarm:
                self.ended = True  # stopped for everyone: its alarm is in the log
                raise
            self.ended = True
        finally:
            self._done = True
            if watch is not None:
                watch.cancel()
        return self.peer

    def _started(self) -> None:
        """The match's ``start`` is made and its transcript open, before any peer is (a hook: the
        resumable host of :mod:`.resume` saves where to find them)."""

    async def _watch(self) -> None:
        """The turn timer's backstop: when the log has not grown for the timer and the grace, the round
        is void, naming a participant the table waits on (its client should have moved by itself)."""
        assert self.turn_timer is not None and self.peer is not None
        loop = asyncio.get_running_loop()
        self._last = loop.time()
        limit = self.turn_timer + self.grace
        while not self._done:
            await asyncio.sleep(max(0.05, self._last + limit - loop.time()))
            late = sorted(p for p in self.peer.waiting_on if p != 0)
            if loop.time() - self._last >= limit and late:
                name = self._name_of(self.identities[late[0]])
                self.void(late[0], f"{name} sent nothing for {limit:g} s (the turn timer and the grace)")
                return

    async def close(self) -> None:
        self.postbox.flush_all()  # every link gets the whole log before it closes
        if self.ended:  # the match is whole: a client finishes with what it has, and does not reconnect
            for link in self._everyone():
                link.send({"k": "closed"})
        if self.transcript is not None:
            self.transcript.close()
        for t in list(self._timers):
            t.cancel()
        for w in [*self.links.values(), *(w.link for w in self.waiting)]:
            w.close()
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await self._server.wait_closed()


__all__ = ["SealedHost"]
