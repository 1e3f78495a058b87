"""The host's side of the fair deal: running the commit-reveal protocol and logging the game.

The engine says before a deal or an action which shuffle it needs
(:meth:`core.Game.chance_for`, a :class:`core.Chance`); the protocol needs
round trips. So the host asks first, runs the protocol for that epoch
(:meth:`Dealer.settle`), hands the agreed order to the game
(:meth:`core.Game.settle`) and asks again, until the move needs nothing more;
then it makes the move, which uses exactly those orders. Nothing is rolled
back. The game's own deck source (:class:`FairSource`) answers only for
epochs settled so: an engine that asked for anything else would be a bug,
and says so.

A shuffle of public tokens (Diez's bag, strings rather than cards) runs the
same protocol as a *public* epoch (see :mod:`net.fair`): the commit lists the
items, the joint seeds permute them, and nothing is delivered or opened.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import core
from core import Event

from .answers import answer_fault
from .commitments import (HOST_PID, TAG_DELIVER, TAG_PEER, TAG_RULING, combined_key, entry_hash, pack,
                          peer_message, seed_commitment, set_hash, unpack)
from .delivered import Delivered
from .tablelog import EpochSecret, FairSource, TableLog
from .identity import Identity, verify
from .messages import MAX_WHY, MAX_WORD, clean_text
from .outbox import Outbox
from .save import Packed, PartList
from .seats import HostConfig, Roster

log = logging.getLogger("net.dealer")

RC_BUDGET = 24 * 1024
"""Bytes of receipts a step carries; more go in an entry of their own (every entry fits a frame)."""
UNNAMED_MOVES = {"swap": "named", "rotate": "all", "withdraw": "named"}
"""Event kinds that hand cards to a seat without naming them (see :meth:`Dealer.received`): whose
hands to read, the seats the event names (player and target) or every seat."""


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
    """Runs the seed exchange for each epoch and writes the table's log for one match.

    It speaks through the table's :class:`~net.outbox.Outbox` (log entries to
    everyone, deliveries and rulings to one seat, strikes and verdicts to the
    host's listeners) and knows the seats through the table's
    :class:`~net.seats.Roster`.
    """

    def __init__(self, outbox: Outbox, identity: Identity, roster: Roster, *, timeout: float,
                 game_id: bytes | None = None, log: TableLog | None = None) -> None:
        self.outbox = outbox
        self.roster = roster
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
        self.known: dict[int, set[tuple[int, int, int]]] = {}
        """Seat -> (card id, epoch, attempt) of every card it was delivered this round, at that position."""
        self.delivered = Delivered()
        """This round's deliveries to each seat and the receipts owed for them."""
        self.strikes: dict[int, int] = {}
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
        """Seat -> (colour in play, hand) before its last play that may be challenged (saved: a challenge
        may come after a crash)."""
        self.listeners: list[Callable[[bytes, bytes], None]] = []
        """``f(e_bytes, sig)`` for each new entry (the log's side file, the transcript, the table's save)."""
        self.on_bench: Callable[[int], None] | None = None
        """Told when a seat is benched (the table shows it in the lobby; its bots take the seat)."""
        self.timeout = timeout
        """Seconds each participant has for each step of the seed exchange, and for its verdict."""

    # -- the log -------------------------------------------------------------------------------
    @property
    def seats(self) -> list[Any]:
        return self.roster.seats

    def append(self, kind: str, **fields: Any) -> None:
        """Sign and log an entry, send it to every peer, and tell the listeners (the table saves soon: the save counts it)."""
        if self.delivered.receipts and kind in ("step", "close", "note"):
            rc = self.delivered.take_receipts()
            if kind != "note" and sum(len(x[1]) for x in rc) > RC_BUDGET:
                self.append("note", rc=rc)  # many large receipts: an entry of their own
            else:
                fields["rc"] = rc
        if kind == "commit":
            self.open_attempt = (fields["e"], fields["a"])
        elif kind in ("abort", "reveals"):
            self.open_attempt = None
        e, sig = self.log.append(kind, **fields)
        self.outbox.broadcast({"type": "log", "e": e, "sig": sig})
        for f in list(self.listeners):
            try:
                f(e, sig)
            except Exception:
                log.exception("a log listener failed")

    def start_match(self, variant: str, options: dict[str, Any], clocks: dict[str, Any]) -> None:
        """The match header: every seat's name and its person's key (a bot's seat has none), the people
        not at the table as it begins (``away``: a bot plays for them until they come back), and the clocks."""
        seats = self.seats
        keys = [s.identity if s.kind == "human" else None for s in seats]
        away = [s.index for s in seats if s.kind == "human" and s.stand_in]
        self.append("match", g=self.game_id, variant=variant, names=[s.name for s in seats],
                    options=dict(options), keys=keys, host=self.identity.public, away=away, **clocks)

    @staticmethod
    def clocks(cfg: HostConfig) -> dict[str, Any]:
        """The settings the log's rules read: turn timer, grace period, deadline of each step of the deal."""
        return {"timer": cfg.turn_timer or None, "grace": cfg.grace, "deadline": cfg.fair_timeout}

    def start_round(self, r: int) -> None:
        self.round_epochs = []
        self.drawn = set()
        self.opened = set()
        self.known = {}
        self.delivered = Delivered()
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

        Exactly the set every client expects (:meth:`net.ledger.Ledger.people`): the
        log shows who is benched and who is away, so nobody can be left out quietly.
        """
        return [HOST_PID] + [s.index for s in self.seats if s.kind == "human" and not s.benched and not s.stand_in]

    async def run_epoch(self, e: int, items: Sequence[Any]) -> EpochSecret:
        """Settle epoch ``e`` of ``items``: commitments, seeds, acks, reveals. Restarts on a missed deadline.

        Each attempt first waits until every seated person is connected (or away
        past the grace period, which the log then shows): the seed exchange is
        between the host and all of them, never fewer.
        """
        while True:
            await self.roster.wait()
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

    async def settle(self, chance: core.Chance) -> list[Any]:
        """Settle ``chance`` with the players (:meth:`run_epoch`): the order to give the game."""
        await self.run_epoch(chance.epoch, chance.items)
        return self.source.shuffle(chance.items, chance.epoch)

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

    def cards_for(self, game: core.Game, seat: int, cards: list[list[Any]]) -> list[list[Any]]:
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
        seat = self.seats[pid]
        self.outbox.emit("strike", {"seat": pid, "name": seat.name, "strikes": self.strikes[pid], "stage": stage,
                                    "why": why})
        if self.strikes[pid] >= 2 and not seat.benched:
            seat.benched = True
            seat.stand_in = True
            self.append("bench", seat=pid)
            self.outbox.emit("bench", {"seat": pid, "name": seat.name})
            if self.on_bench is not None:
                self.on_bench(pid)

    def check_signed(self, seat: int | None, key: bytes | None, m: bytes, sig: bytes,
                     d: dict[str, Any]) -> tuple[str, str] | None:
        """A signed message ``m`` that came on the link of ``seat`` (holding identity ``key``): who may have
        sent it, its signature, game, freshness and the head it quotes. ``(code, reason)`` or None.

        ``d`` is ``m`` decoded and checked against :data:`net.messages.SIGNED_SCHEMAS` already.
        """
        if seat is None or key is None:
            return "spectator", "only seated players sign messages"
        if d["seat"] != seat:
            return "impersonation", f"this connection holds seat {seat}, not seat {d['seat']}"
        if not verify(key, sig, TAG_PEER, m):
            return "signature", "the signature does not verify under this connection's identity"
        if d["g"] != self.game_id:
            return "signature", "a signed message for another game"
        if d["n"] <= self.last_n.get(seat, -1):
            return "replay", "a replayed signed message (its counter is not new)"
        self.last_n[seat] = d["n"]
        if not self.log.quotes(d["h"]):
            return "head", "a signed message quoting a log head that never existed"
        return None

    def on_signed(self, seat: int, m: bytes, sig: bytes, d: dict[str, Any]) -> None:
        """``seat``'s signed answer in the deal, a receipt or a verdict (:meth:`check_signed` passed): taken or refused.

        A bad one is answered with ``error{code: "refused"}`` and struck (the
        strike logs the message as its evidence), so the log never holds a
        player's message that every audit would hold against the host.
        """
        kind = d["k"]
        if kind in ("seed", "ack", "reveal"):
            futs = self._waiting.get((kind, d["e"], d["a"]))
            fut = futs.get(seat) if futs else None
            if fut is None or fut.done() or self.current is None:
                return  # late or unexpected: harmless, ignored
            fault = self.answer_fault(kind, seat, d)
            if fault is not None:
                self.refuse(seat, kind, fault, (m, sig))
                return
            fut.set_result((m, sig))
        elif kind == "rcpt":
            self._receipt(seat, m, sig, d)
        elif kind == "verdict":
            self._verdict(seat, m, sig, d)

    def answer_fault(self, kind: str, seat: int, d: dict[str, Any]) -> str | None:
        """What is wrong with ``seat``'s answer ``d`` (a seed, ack or reveal) to the attempt under way, if anything.

        (A dishonest host that shows players different decks must take answers made
        against them: its test double overrides this.)
        """
        cur = self.current
        key = self.seats[seat].identity
        if cur is None or key is None:
            return "no answer is wanted now"
        return answer_fault(kind, d, root=cur.sec.root, shown=cur.shown, key=key, committed=cur.seeds.get(seat))

    def refuse(self, seat: int, stage: str, why: str, evidence: tuple[bytes, bytes]) -> None:
        """Refuse ``seat``'s signed ``evidence`` (a bad answer, or one quoting a head never logged): a strike."""
        self.strike(seat, stage, why, evidence)
        self.outbox.fault(seat, "refused", f"{why}: refused, and a strike")

    def _receipt(self, seat: int, m: bytes, sig: bytes, d: dict[str, Any]) -> None:
        """A receipt acknowledges exactly one delivery to this seat, once."""
        why = self.delivered.receipt(seat, m, sig, d)
        if why is not None:
            self.refuse(seat, "rcpt", why, (m, sig))

    # -- verdicts -------------------------------------------------------------------------------
    def _verdict(self, seat: int, m: bytes, sig: bytes, d: dict[str, Any]) -> None:
        """One verdict per person on the round just closed; more are ignored (a flood costs nothing)."""
        r = d["r"]
        if r > self.closed:
            self.outbox.fault(seat, "refused", f"a verdict on round {r + 1}, which is not over")
            return
        if r < self.closed or seat in self.verdicts.get(r, set()):
            return  # late, or said already: nothing more enters the log
        self.verdicts.setdefault(r, set()).add(seat)
        self.append("verdict", seat=seat, m=m, sig=sig)
        fut = self._verdict_wait.pop(seat, None)
        if fut is not None and not fut.done():
            fut.set_result(True)
        self.outbox.emit("verdict", {"seat": seat, "name": self.seats[seat].name, "ok": d["ok"],
                                     "code": clean_text(d["code"], MAX_WORD), "reason": clean_text(d["why"], MAX_WHY),
                                     "round": r})

    async def collect_verdicts(self, r: int) -> None:
        """Wait for every seated person's verdict on round ``r``; strike those missing at the deadline.

        The host deals the next round, or ends the match, only after this: so
        every client knows every verdict, and a verdict the host dropped shows
        (the log must hold each person's verdict or a strike for missing it).
        """
        await self.roster.wait()
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
        shown = [(c.id, ev.player) for ev in events if ev.visible_to is None for c in ev.cards]
        fresh = self.received(game, events)
        for cid, who in fresh + [(cid, -1 if p is None else p) for cid, p in shown]:
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
        to: dict[int, list[int]] = {}
        for cid, p in fresh:
            to.setdefault(p, []).append(cid)
        for p in sorted(to):
            if self.seats[p].kind == "human":
                cards = self.cards_for(game, p, [self.pos[cid].opening(cid) for cid in sorted(to[p])])
                m = pack({"g": self.game_id, "r": game.round, "seat": p, "i": index, "cards": cards})
                sig = self.identity.sign(TAG_DELIVER, m)
                self.delivered.add(p, m, sig, [tuple(o[:3]) for o in cards])
                self.outbox.send(p, {"type": "deliver", "m": m, "sig": sig})
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

    def received(self, game: core.Game, events: list[Event]) -> list[tuple[int, int]]:
        """(card id, seat) for each card that reached a seat's hand in this step at a place in the deck
        that seat was not delivered yet (its opening is sent to it with the step).

        The events say where the cards went: those that show cards to some seats only
        (``visible_to``: a draw shows the drawer its cards, a Share or a card handed over
        shows them to giver and taker) name them, and each goes to whichever of those
        seats holds it now; a card drawn face up (No Mercy's roulette, Wild Rawz's
        take) goes to the seat the event names, its player or target. A few moves hand
        cards over without naming them: whole hands swapped or passed on, a 后悔药
        giving back cards that rode face down on a transfer (:data:`UNNAMED_MOVES`);
        for those the hands of the seats they name are read.
        """
        hands = game.hands
        out: list[tuple[int, int]] = []
        for ev in events:
            if ev.kind in UNNAMED_MOVES:
                seats = range(len(hands)) if UNNAMED_MOVES[ev.kind] == "all" else \
                    [p for p in (ev.player, ev.target) if p is not None]
                for p in seats:
                    for c in hands[p]:
                        self._deliverable(c.id, p, out)
            elif ev.cards:
                named = ev.visible_to if ev.visible_to is not None else \
                    [p for p in (ev.player, ev.target) if p is not None]
                for c in ev.cards:
                    holder = next((p for p in named if 0 <= p < len(hands) and c in hands[p]), None)
                    if holder is not None:
                        self._deliverable(c.id, holder, out)
        return out

    def _deliverable(self, cid: int, p: int, out: list[tuple[int, int]]) -> None:
        sec = self.pos.get(cid)
        if sec is None:
            return  # never dealt from an epoch (a scripted position): nothing to open
        key = (cid, sec.e, sec.a)
        have = self.known.setdefault(p, set())
        if key not in have:
            have.add(key)
            out.append((cid, p))

    def _rule(self, game: core.Game, index: int, ev: Event) -> None:
        by, to = ev.target, ev.player
        color, ids = self._w4.pop(by, (None, []))
        cards = [self.pos[cid].opening(cid) for cid in ids if cid in self.pos]
        m = pack({"g": self.game_id, "i": index, "by": by, "to": to, "color": color,
                  "guilty": ev.reason == "guilty", "cards": cards})
        msg = {"type": "ruling", "m": m, "sig": self.identity.sign(TAG_RULING, m)}
        for p in (to, by):
            self.outbox.send(p, msg)

    def close_round(self, game: core.Game) -> None:
        self.closed = game.round
        epochs = [[s.e, s.a] for s in self.round_epochs]
        self.append("close", r=game.round, winner=game.winner, points=game.last_points, scores=list(game.scores),
                    epochs=epochs)
        for sec in self.round_epochs:
            if sec.public is not None:
                continue  # a public epoch was open from its commit
            self.append("open", e=sec.e, a=sec.a, slots=[[sec.salts[s], cid] for s, cid in enumerate(sec.sigma)])

    def catch_up(self, have: int, seat: int | None) -> list[dict[str, Any]]:
        """What brings a (re)connecting peer's copy of the log up to date (it holds ``have`` entries),
        then the deliveries to its seat this round."""
        entries = self.log.entries
        head = entries[-1][0] if entries else b""
        out: list[dict[str, Any]] = [{"type": "sync", "len": len(entries),
                                      "head": entry_hash(head) if entries else b""}]
        start = have if have <= len(entries) else len(entries)
        out += [{"type": "log", "e": e, "sig": sig} for e, sig in entries[start:]]
        if seat is not None:
            out += self.delivered.resend(seat, self.closed)
        return out

    # -- saving ------------------------------------------------------------------------------------
    def to_save(self) -> dict[str, Any]:
        return {"g": self.game_id, "secrets": PartList(Packed(s.packed_save()) for s in self.secrets.values()),
                "round_epochs": [s.e for s in self.round_epochs], "attempts": list(self.attempts.items()),
                "strikes": list(self.strikes.items()), "last_n": list(self.last_n.items()),
                "log_len": len(self.log), "known": [[p, sorted(keys)] for p, keys in self.known.items()],
                "drawn": sorted(self.drawn), "opened": sorted(self.opened), "n": self._n, "closed": self.closed,
                "verdicts": [[r, sorted(seats)] for r, seats in self.verdicts.items() if r == self.closed],
                "open": list(self.open_attempt) if self.open_attempt is not None else None,
                "delivered": self.delivered.to_save(),
                "w4": [[p, color, ids] for p, (color, ids) in self._w4.items()]}

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
        # (An older save lists card ids: each is taken at the place in the deck it has now.)
        self.known = {int(p): {tuple(k) if isinstance(k, list) else (k, self.pos[k].e, self.pos[k].a)
                               for k in keys if not isinstance(k, int) or k in self.pos}
                      for p, keys in fair["known"]}  # type: ignore[misc]
        self.drawn = {tuple(x) for x in fair["drawn"]}  # type: ignore[misc]
        self.opened = {tuple(x) for x in fair["opened"]}  # type: ignore[misc]
        # Its own signed messages go on numbering past any the crash may have lost.
        self._n = int(fair.get("n", 0)) + 1_000_000
        if fair.get("closed") is not None:  # (older saves were written after the closing entries)
            self.closed = int(fair["closed"])
        self.verdicts = {int(r): set(seats) for r, seats in fair.get("verdicts", ())}
        self.open_attempt = tuple(fair["open"]) if fair.get("open") else None  # type: ignore[assignment]
        # (Older saves had neither: a seat behind such a save may see a false alarm.)
        if fair.get("delivered") is not None:
            self.delivered = Delivered.from_save(fair["delivered"])
        self._w4 = {int(p): (color, [int(i) for i in ids]) for p, color, ids in fair.get("w4", ())}
