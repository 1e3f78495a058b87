"""The host's side of the fair deal: running the commit-reveal protocol and logging the game.

The engine asks its deck source for an order synchronously, in the middle of
a deal or an action; the protocol needs round trips. So the host's engine
gets a :class:`FairSource` that answers only for epochs the protocol has
already settled and otherwise raises :class:`NeedEpoch` (carrying the cards
the engine wants shuffled). The host catches it, puts the game back as it
was before the call (it snapshots with ``to_dict`` first), runs the protocol
for that epoch (:meth:`Dealer.run_epoch`), and then does the same thing
again; this time the source answers. The engine is deterministic, so the
second try asks for exactly the same cards.

A shuffle of public tokens (Diez's bag, strings rather than cards) runs the
same protocol as a *public* epoch (see :mod:`net.fair`): the commit lists the
items, the joint seeds permute them, and nothing is delivered or opened.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

import core
from core import Event

from .answers import answer_fault
from .fair import (HOST_PID, TAG_DELIVER, TAG_PEER, TAG_RULING, EpochSecret, TableLog, canonical, combined_key,
                   entry_hash, pack, peer_message, seed_commitment, set_hash, unpack)
from .identity import Identity, verify
from .messages import MAX_WHY, MAX_WORD, clean_text
from .save import Packed, PartList

if TYPE_CHECKING:
    from .host import Host
    from .peer import Peer

log = logging.getLogger("net.dealer")

RC_BUDGET = 24 * 1024
"""Bytes of receipts a step carries; more go in an entry of their own (every entry fits a frame)."""


class NeedEpoch(Exception):
    """The engine wants epoch ``epoch`` of ``items`` before the protocol has settled it."""

    def __init__(self, epoch: int, items: Sequence[Any]) -> None:
        super().__init__(f"epoch {epoch} is not settled yet")
        self.epoch = epoch
        self.items = list(items)


class FairSource:
    """The host engine's deck source: orders fixed by the protocol, nothing else."""

    def __init__(self, dealer: "Dealer") -> None:
        self.dealer = dealer

    def shuffle(self, items: Sequence[Any], epoch: int) -> list[Any]:
        sec = self.dealer.secrets.get(epoch)
        if sec is None or sec.items != canonical(items):
            raise NeedEpoch(epoch, items)
        self.dealer.consumed(sec)
        if sec.public is not None:
            return list(self.dealer.order_for(sec))  # public tokens: the strings themselves
        by_id = {c.id: c for c in items}
        return [by_id[i] for i in self.dealer.order_for(sec)]


@dataclass
class _Attempt:
    """One attempt at an epoch under way: what the players' answers are checked against on arrival."""

    sec: EpochSecret
    parts: list[int]
    seeds: dict[int, bytes] = field(default_factory=dict)
    """Each player's seed commitment, once shown."""
    shown: bytes | None = None
    """The hash of the set of commitments shown (what an ack signs)."""


class Dealer:
    """Runs the seed exchange for each epoch and writes the table's log for one match."""

    def __init__(self, host: "Host", identity: Identity, game_id: bytes | None = None,
                 log: TableLog | None = None) -> None:
        self.host = host
        self.identity = identity
        self.game_id = game_id or secrets.token_bytes(16)
        self.log = log if log is not None else TableLog(identity)
        """One log for the host's whole session: a rematch goes on with a new ``match`` entry."""
        self.source = FairSource(self)
        self.secrets: dict[int, EpochSecret] = {}
        self.attempts: dict[int, int] = {}
        self.round_epochs: list[EpochSecret] = []
        self.pos: dict[int, EpochSecret] = {}
        self.drawn: set[tuple[int, int, int]] = set()
        self.opened: set[tuple[int, int, int]] = set()
        self.known: dict[int, set[int]] = {}
        self.deliveries: dict[int, list[tuple[bytes, bytes]]] = {}
        self.strikes: dict[int, int] = {}
        self.receipts: list[list[Any]] = []
        """Receipts taken and not yet logged: they go with the next step (or close) as ``rc``."""
        self.unreceipted: dict[int, dict[bytes, list[tuple[int, ...]]]] = {}
        """Seat -> delivery hash -> its cards' (epoch, attempt, draw): deliveries still to be receipted."""
        self.receipted: dict[int, set[bytes]] = {}
        self.last_n: dict[int, int] = {}
        self.closed = -1
        """The last round whose closing entries are in the log."""
        self.verdicts: dict[int, set[int]] = {}
        """Round -> seats whose verdict on it (or a strike for missing it) is in the log."""
        self._verdict_wait: dict[int, asyncio.Future[Any]] = {}
        self.current: _Attempt | None = None
        """The attempt at an epoch under way: what its answers are checked against."""
        self.open_attempt: tuple[int, int] | None = None
        """(epoch, attempt) committed in the log and neither settled nor called off (saved: a resumed
        host calls it off first, see :meth:`call_off`)."""
        self._n = 0
        self._waiting: dict[tuple[str, int, int], dict[int, asyncio.Future[Any]]] = {}
        self._w4: dict[int, tuple[str | None, list[int]]] = {}
        self.listeners: list[Any] = []
        """``f(e_bytes, sig)`` for each new entry (the host's transcript writer)."""
        self.timeout = host.config.fair_timeout

    # -- the log -------------------------------------------------------------------------------
    def append(self, kind: str, **fields: Any) -> None:
        """Sign and log an entry, send it to every peer, and have the host save soon (the save counts it)."""
        if self.receipts and kind in ("step", "close", "note"):
            rc, self.receipts = self.receipts, []
            if kind != "note" and sum(len(x[1]) for x in rc) > RC_BUDGET:
                self.append("note", rc=rc)  # many large receipts: an entry of their own
            else:
                fields["rc"] = rc
        if kind == "commit":
            self.open_attempt = (fields["e"], fields["a"])
        elif kind in ("abort", "reveals"):
            self.open_attempt = None
        e, sig = self.log.append(kind, **fields)
        self.host.broadcast_log(e, sig)
        for f in list(self.listeners):
            try:
                f(e, sig)
            except Exception:
                log.exception("a log listener failed")
        self.host.logged()

    def start_match(self, host: "Host") -> None:
        """The match header: every seat's name and its person's key (a bot's seat has none), the people
        not at the table as it begins (``away``: a bot plays for them until they come back), and the clocks."""
        cfg = host.config
        keys = [s.identity if s.kind == "human" else None for s in host.seats]
        away = [s.index for s in host.seats if s.kind == "human" and s.stand_in]
        self.append("match", g=self.game_id, variant=cfg.variant, names=[s.name for s in host.seats],
                    options=dict(host.options), keys=keys, host=self.identity.public, away=away,
                    **self.clocks(cfg))

    @staticmethod
    def clocks(cfg: Any) -> dict[str, Any]:
        """The settings the log's rules read: turn timer, grace period, deadline of each step of the deal."""
        return {"timer": cfg.turn_timer or None, "grace": cfg.grace, "deadline": cfg.fair_timeout}

    def start_round(self, r: int) -> None:
        self.round_epochs = []
        self.drawn = set()
        self.opened = set()
        self.known = {}
        self.deliveries = {}
        self.unreceipted = {}
        self.receipted = {}
        self._w4 = {}
        self.append("round", r=r)

    # -- the source's side ----------------------------------------------------------------------
    def order_for(self, sec: EpochSecret) -> list[Any]:
        """The engine's order for a settled epoch: the one the seeds chose (a test double bends it)."""
        return sec.order

    def consumed(self, sec: EpochSecret) -> None:
        if sec.public is not None:
            return  # tokens, not cards: no card's position changes
        for cid in sec.sigma:
            self.pos[cid] = sec

    # -- the protocol ---------------------------------------------------------------------------
    def participants(self) -> list[int]:
        """The host and every seated person who takes part: not benched, not away past the grace period.

        Exactly the set every client expects (:meth:`net.fair.Ledger.people`): the
        log shows who is benched and who is away, so nobody can be left out quietly.
        """
        return [HOST_PID] + [s.index for s in self.host.seats
                             if s.kind == "human" and not s.benched and not s.stand_in]

    async def run_epoch(self, e: int, items: Sequence[Any]) -> EpochSecret:
        """Settle epoch ``e`` of ``items``: commitments, seeds, acks, reveals. Restarts on a missed deadline.

        Each attempt first waits until every seated person is connected (or away
        past the grace period, which the log then shows): the seed exchange is
        between the host and all of them, never fewer.
        """
        while True:
            await self.host.wait_for_people()
            a = self.attempts.get(e, -1) + 1
            self.attempts[e] = a
            sec = self.make_secret(e, a, items)
            parts = self.participants()
            self.current = _Attempt(sec, parts)
            self.publish_commit(sec, parts)
            r_host = secrets.token_bytes(32)
            d_host = seed_commitment(sec.root, self.identity.public, r_host)
            own = self.sign("seed", e=e, a=a, root=sec.root, d=d_host)
            got = await self._collect("seed", e, a, parts)
            if isinstance(got, list):
                self._abort(e, a, got, "commit")
                continue
            blobs = [[HOST_PID, own[0], own[1]]] + [[pid, *got[pid]] for pid in sorted(got)]
            self.current.seeds = {pid: unpack(m)["d"] for pid, (m, _s) in got.items()}
            self.publish_commits(e, a, blobs)
            self.current.shown = set_hash(sec.root, blobs)
            acks = await self._collect("ack", e, a, parts)
            if isinstance(acks, list):
                self._abort(e, a, acks, "ack")
                continue
            self.append("acks", e=e, a=a, acks=[[pid, *acks[pid]] for pid in sorted(acks)])
            m, sig = self.sign("reveal", e=e, a=a, r=r_host)
            self.append("hreveal", e=e, a=a, m=m, sig=sig)
            reveals = await self._collect("reveal", e, a, parts)
            if isinstance(reveals, list):
                self._abort(e, a, reveals, "reveal")
                continue
            seeds = {HOST_PID: r_host}
            for pid, (m, _s) in reveals.items():
                seeds[pid] = unpack(m)["r"]
            sec.finish(combined_key(sec.root, seeds))
            self.secrets[e] = sec
            self.round_epochs.append(sec)
            self.current = None
            self.append("reveals", e=e, a=a, set=[[pid, *reveals[pid]] for pid in sorted(reveals)])
            return sec

    # -- the steps a test double bends (an honest dealer's own) ------------------------------
    # The dishonest hosts of the fairness tests subclass the dealer and override these; the
    # protocol around them is the honest one, so each test shows what one lie costs.
    def make_secret(self, e: int, a: int, items: Sequence[Any]) -> EpochSecret:
        """The secret order and salts of attempt ``a`` at epoch ``e``: a fresh random order."""
        return EpochSecret(self.game_id, e, a, items)

    def publish_commit(self, sec: EpochSecret, parts: list[int]) -> None:
        """Step 1: the slot commitments and their root, to every peer (the same entry for all)."""
        public = {} if sec.public is None else {"items": sec.public}
        self.append("commit", e=sec.e, a=sec.a, n=sec.n, c=sec.commits, root=sec.root, parts=parts, **public)

    def publish_commits(self, e: int, a: int, blobs: list[list[Any]]) -> None:
        """Step 3: every participant's seed commitment, shown to all."""
        self.append("commits", e=e, a=a, set=blobs)

    def cards_for(self, seat: int, cards: list[list[Any]]) -> list[list[Any]]:
        """The openings delivered to ``seat`` after a step: exactly the cards that reached its hand."""
        return cards

    def sign(self, kind: str, **fields: Any) -> tuple[bytes, bytes]:
        self._n += 1
        return peer_message(self.identity, kind, self.game_id, None, self._n, self.log.head, **fields)

    async def _collect(self, kind: str, e: int, a: int, parts: list[int]) -> dict[int, tuple[bytes, bytes]] | list[int]:
        """Each participant's signed ``kind`` message for (e, a); a list of the missing ones on a timeout."""
        loop = asyncio.get_running_loop()
        people = [p for p in parts if p != HOST_PID]
        futs = {p: loop.create_future() for p in people}
        self._waiting[(kind, e, a)] = futs
        try:
            if futs:
                done, _ = await asyncio.wait(list(futs.values()), timeout=self.timeout)
        finally:
            self._waiting.pop((kind, e, a), None)
        missing = [p for p, f in futs.items() if not f.done()]
        if missing:
            return missing
        return {p: f.result() for p, f in futs.items()}

    def _abort(self, e: int, a: int, missing: list[int], stage: str) -> None:
        self.current = None
        self.append("abort", e=e, a=a, missing=missing, stage=stage)
        for pid in missing:
            self._count_strike(pid, stage)

    def call_off(self) -> None:
        """A resumed host calls off the attempt its crash interrupted (logged as an ``abort`` at ``restart``)."""
        open_ = self.open_attempt
        self.open_attempt = None
        if open_ is not None:
            self.append("abort", e=open_[0], a=open_[1], missing=[], stage="restart")

    def strike(self, seat: int, stage: str, why: str, evidence: tuple[bytes, bytes] | None = None,
               **where: Any) -> None:
        """Strike ``seat`` outside an abort: a refused answer (logged with it as evidence) or a missed verdict."""
        extra = {"m": evidence[0], "sig": evidence[1]} if evidence is not None else {}
        self.append("strike", seat=seat, stage=stage, why=why[:MAX_WHY], **where, **extra)
        self._count_strike(seat, stage, why)

    def _count_strike(self, pid: int, stage: str, why: str = "") -> None:
        self.strikes[pid] = self.strikes.get(pid, 0) + 1
        seat = self.host.seats[pid]
        self.host.emit("strike", {"seat": pid, "name": seat.name, "strikes": self.strikes[pid], "stage": stage,
                                  "why": why})
        if self.strikes[pid] >= 2 and not seat.benched:
            seat.benched = True
            seat.stand_in = True
            self.append("bench", seat=pid)
            self.host.emit("bench", {"seat": pid, "name": seat.name})
            self.host.broadcast_lobby()
            self.host.people_changed()

    def check_signed(self, peer: "Peer", m: bytes, sig: bytes, d: dict[str, Any]) -> tuple[str, str] | None:
        """Who may have sent it, its signature, game, freshness and the head it quotes: ``(code, reason)`` or None.

        ``d`` was checked against :data:`net.messages.SIGNED_SCHEMAS` already.
        """
        if peer.seat is None or peer.identity is None:
            return "spectator", "only seated players sign messages"
        if d["seat"] != peer.seat:
            return "impersonation", f"this connection holds seat {peer.seat}, not seat {d['seat']}"
        if not verify(peer.identity, sig, TAG_PEER, m):
            return "signature", "the signature does not verify under this connection's identity"
        if d["g"] != self.game_id:
            return "signature", "a signed message for another game"
        if d["n"] <= self.last_n.get(peer.seat, -1):
            return "replay", "a replayed signed message (its counter is not new)"
        self.last_n[peer.seat] = d["n"]
        if not self.log.quotes(d["h"]):
            return "head", "a signed message quoting a log head that never existed"
        return None

    def on_signed(self, peer: "Peer", m: bytes, sig: bytes, d: dict[str, Any]) -> None:
        """A peer's signed answer in the deal, a receipt or a verdict: checked on arrival, taken or refused.

        A bad one is answered with ``error{code: "refused"}`` and struck (the
        strike logs the message as its evidence), so the log never holds a
        player's message that every audit would hold against the host.
        """
        failure = self.check_signed(peer, m, sig, d)
        seat = peer.seat
        if failure is not None:
            code, reason = failure
            if code == "head" and seat is not None:
                self._refuse(peer, "head", reason, (m, sig))
            else:
                peer.violation(code, reason)
            return
        assert seat is not None
        kind = d["k"]
        if kind in ("seed", "ack", "reveal"):
            futs = self._waiting.get((kind, d["e"], d["a"]))
            fut = futs.get(seat) if futs else None
            if fut is None or fut.done() or self.current is None:
                return  # late or unexpected: harmless, ignored
            fault = self.answer_fault(kind, seat, d)
            if fault is not None:
                self._refuse(peer, kind, fault, (m, sig))
                return
            fut.set_result((m, sig))
        elif kind == "rcpt":
            self._receipt(peer, seat, m, sig, d)
        elif kind == "verdict":
            self._verdict(peer, seat, m, sig, d)

    def answer_fault(self, kind: str, seat: int, d: dict[str, Any]) -> str | None:
        """What is wrong with ``seat``'s answer ``d`` (a seed, ack or reveal) to the attempt under way, if anything.

        (A dishonest host that shows players different decks must take answers made
        against them: its test double overrides this.)
        """
        cur = self.current
        key = self.host.seats[seat].identity
        if cur is None or key is None:
            return "no answer is wanted now"
        return answer_fault(kind, d, root=cur.sec.root, shown=cur.shown, key=key, committed=cur.seeds.get(seat))

    def _refuse(self, peer: "Peer", stage: str, why: str, evidence: tuple[bytes, bytes]) -> None:
        self.strike(peer.seat, stage, why, evidence)  # type: ignore[arg-type]
        peer.violation("refused", f"{why}: refused, and a strike")

    def _receipt(self, peer: "Peer", seat: int, m: bytes, sig: bytes, d: dict[str, Any]) -> None:
        """A receipt acknowledges exactly one delivery to this seat, once."""
        owed = self.unreceipted.get(seat, {})
        cards = owed.get(d["x"])
        if cards is None:
            if d["x"] in self.receipted.get(seat, set()):
                return  # a second receipt for a delivery resent after a reconnect: already logged
            self._refuse(peer, "rcpt", "a receipt for a delivery this seat was never sent", (m, sig))
            return
        if sorted(map(tuple, d["cards"])) != cards:
            self._refuse(peer, "rcpt", "a receipt that lists other cards than the delivery's", (m, sig))
            return
        del owed[d["x"]]
        self.receipted.setdefault(seat, set()).add(d["x"])
        self.receipts.append([seat, m, sig])

    # -- verdicts -------------------------------------------------------------------------------
    def _verdict(self, peer: "Peer", seat: int, m: bytes, sig: bytes, d: dict[str, Any]) -> None:
        """One verdict per person on the round just closed; more are ignored (a flood costs nothing)."""
        r = d["r"]
        if r > self.closed:
            peer.violation("refused", f"a verdict on round {r + 1}, which is not over")
            return
        if r < self.closed or seat in self.verdicts.get(r, set()):
            return  # late, or said already: nothing more enters the log
        self.verdicts.setdefault(r, set()).add(seat)
        self.append("verdict", seat=seat, m=m, sig=sig)
        fut = self._verdict_wait.pop(seat, None)
        if fut is not None and not fut.done():
            fut.set_result(True)
        self.host.emit("verdict", {"seat": seat, "name": self.host.seats[seat].name, "ok": d["ok"],
                                   "code": clean_text(d["code"], MAX_WORD), "reason": clean_text(d["why"], MAX_WHY),
                                   "round": r})

    async def collect_verdicts(self, r: int) -> None:
        """Wait for every seated person's verdict on round ``r``; strike those missing at the deadline.

        The host deals the next round, or ends the match, only after this: so
        every client knows every verdict, and a verdict the host dropped shows
        (the log must hold each person's verdict or a strike for missing it).
        """
        await self.host.wait_for_people()
        loop = asyncio.get_running_loop()
        have = self.verdicts.setdefault(r, set())
        want = [p for p in self.participants() if p != HOST_PID and p not in have]
        self._verdict_wait = {p: loop.create_future() for p in want}
        try:
            if want:
                await asyncio.wait(list(self._verdict_wait.values()), timeout=self.timeout)
        finally:
            self._verdict_wait = {}
        for p in self.participants():
            if p != HOST_PID and p not in have and r == self.closed:
                have.add(p)
                self.strike(p, "verdict", f"no verdict on round {r + 1} by the deadline", r=r)

    # -- after every deal and action ------------------------------------------------------------
    def record_step(self, game: core.Game, seat: int | None, action: Any, auto: bool,
                    intent: tuple[bytes, bytes] | None, events: list[Event], pre_color: str | None,
                    public: list[dict[str, Any]] | None = None, why: str | None = None) -> int:
        """Log a deal or an action with its draws and openings; deliver new cards to their holders.

        ``public``: the events as everyone sees them, if the caller built them already.
        ``why``: for a move the host made for a person (``auto``): ``timer``, ``away`` or ``bench``.
        """
        if public is None:
            public = [ev.view(None).to_dict() for ev in events]
        draws: list[list[int]] = []
        openings: list[list[Any]] = []
        shown: list[tuple[int, int | None]] = []
        for ev in events:
            if ev.visible_to is None:
                for c in ev.cards:
                    shown.append((c.id, ev.player))
        hands = [set(c.id for c in h) for h in game.hands]
        fresh_by_seat: list[tuple[int, int]] = []
        for p, ids in enumerate(hands):
            for cid in ids - self.known.get(p, set()):
                fresh_by_seat.append((cid, p))
        for cid, who in fresh_by_seat + [(cid, -1 if p is None else p) for cid, p in shown]:
            sec = self.pos.get(cid)
            if sec is None:
                continue
            k = sec.k_of_slot[sec.slot_of[cid]]
            key = (sec.e, sec.a, k)
            if key not in self.drawn:
                self.drawn.add(key)
                draws.append([sec.e, sec.a, k, who])
        for cid, _who in shown:
            sec = self.pos.get(cid)
            if sec is None:
                continue
            o = sec.opening(cid)
            key = (o[0], o[1], o[2])
            if key not in self.opened:
                self.opened.add(key)
                openings.append(o)
        draws.sort()
        fields: dict[str, Any] = {"r": game.round, "v": game.version, "seat": seat, "auto": auto,
                                  "a": action.to_dict() if action is not None else None,
                                  "in": list(intent) if intent else None, "d": draws, "o": openings, "ev": public}
        if auto and why is not None:
            fields["why"] = why
        self.append("step", **fields)
        index = len(self.log) - 1
        for p, ids in enumerate(hands):
            new = ids - self.known.get(p, set())
            self.known[p] = ids
            if new and self.host.seats[p].kind == "human":
                cards = self.cards_for(p, [self.pos[cid].opening(cid) for cid in sorted(new) if cid in self.pos])
                m = pack({"g": self.game_id, "r": game.round, "seat": p, "i": index, "cards": cards})
                blob = (m, self.identity.sign(TAG_DELIVER, m))
                self.deliveries.setdefault(p, []).append(blob)
                self.unreceipted.setdefault(p, {})[entry_hash(m)] = sorted(tuple(o[:3]) for o in cards)
                self.host.send_private(p, {"type": "deliver", "m": blob[0], "sig": blob[1]})
        # A challengeable play (a Wild Draw Four, ...): remember the hand it was played from.
        if action is not None and action.kind == "play":
            if pre_color is not None:
                self._w4[seat] = (pre_color, [c.id for c in game.hands[seat]])
            else:  # judged against no colour (a new pile, ...): no older hand may rule a challenge of it
                self._w4.pop(seat, None)
        for ev in events:
            if ev.kind == "challenge" and ev.target is not None and ev.player is not None:
                self._rule(game, index, ev)
        return index

    def _rule(self, game: core.Game, index: int, ev: Event) -> None:
        by, to = ev.target, ev.player
        color, ids = self._w4.pop(by, (None, []))
        cards = [self.pos[cid].opening(cid) for cid in ids if cid in self.pos]
        m = pack({"g": self.game_id, "i": index, "by": by, "to": to, "color": color,
                  "guilty": ev.reason == "guilty", "cards": cards})
        msg = {"type": "ruling", "m": m, "sig": self.identity.sign(TAG_RULING, m)}
        for p in (to, by):
            self.host.send_private(p, msg)

    def close_round(self, game: core.Game) -> None:
        self.closed = game.round
        epochs = [[s.e, s.a] for s in self.round_epochs]
        self.append("close", r=game.round, winner=game.winner, points=game.last_points, scores=list(game.scores),
                    epochs=epochs)
        for sec in self.round_epochs:
            if sec.public is not None:
                continue  # a public epoch was open from its commit
            self.append("open", e=sec.e, a=sec.a, slots=[[sec.salts[s], cid] for s, cid in enumerate(sec.sigma)])

    def resend(self, peer: "Peer", have: int) -> None:
        """Bring a (re)connecting peer's copy of the log up to date, then its own deliveries."""
        entries = self.log.entries
        head = entries[-1][0] if entries else b""
        peer.send({"type": "sync", "len": len(entries), "head": entry_hash(head) if entries else b""})
        start = have if have <= len(entries) else len(entries)
        for e, sig in entries[start:]:
            peer.send({"type": "log", "e": e, "sig": sig})
        if peer.seat is not None:
            for m, sig in self.deliveries.get(peer.seat, []):
                peer.send({"type": "deliver", "m": m, "sig": sig})

    # -- saving ------------------------------------------------------------------------------------
    def to_save(self) -> dict[str, Any]:
        return {"g": self.game_id, "secrets": PartList(Packed(s.packed_save()) for s in self.secrets.values()),
                "round_epochs": [s.e for s in self.round_epochs], "attempts": list(self.attempts.items()),
                "strikes": list(self.strikes.items()), "last_n": list(self.last_n.items()),
                "log_len": len(self.log), "known": [[p, sorted(ids)] for p, ids in self.known.items()],
                "drawn": sorted(self.drawn), "opened": sorted(self.opened), "n": self._n, "closed": self.closed,
                "verdicts": [[r, sorted(seats)] for r, seats in self.verdicts.items() if r == self.closed],
                "open": list(self.open_attempt) if self.open_attempt is not None else None}

    def restore(self, fair: dict[str, Any]) -> None:
        """Take back the state :meth:`to_save` saved (the log is read beside the save)."""
        for d in sorted(fair["secrets"], key=lambda x: x["e"]):
            sec = EpochSecret.from_save(self.game_id, d)
            self.secrets[sec.e] = sec
            self.consumed(sec)
        self.round_epochs = [self.secrets[e] for e in fair["round_epochs"] if e in self.secrets]
        self.attempts = {int(k): int(v) for k, v in fair["attempts"]}
        self.strikes = {int(k): int(v) for k, v in fair["strikes"]}
        self.last_n = {int(k): int(v) for k, v in fair["last_n"]}
        self.known = {int(p): set(ids) for p, ids in fair["known"]}
        self.drawn = {tuple(x) for x in fair["drawn"]}  # type: ignore[misc]
        self.opened = {tuple(x) for x in fair["opened"]}  # type: ignore[misc]
        # Its own signed messages go on numbering past any the crash may have lost.
        self._n = int(fair.get("n", 0)) + 1_000_000
        if fair.get("closed") is not None:  # (older saves were written after the closing entries)
            self.closed = int(fair["closed"])
        self.verdicts = {int(r): set(seats) for r, seats in fair.get("verdicts", ())}
        self.open_attempt = tuple(fair["open"]) if fair.get("open") else None  # type: ignore[assignment]
