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
from typing import TYPE_CHECKING, Any, Sequence

import core
from core import Event

from .fair import (HOST_PID, TAG_DELIVER, TAG_PEER, TAG_RULING, EpochSecret, TableLog, canonical, combined_key,
                   pack, peer_message, seed_commitment, set_hash, unpack)
from .identity import Identity, verify
from .save import Packed, PartList

if TYPE_CHECKING:
    from .host import Host
    from .peer import Peer

log = logging.getLogger("net.dealer")


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
        self.last_n: dict[int, int] = {}
        self.closed = -1
        """The last round whose closing entries are in the log."""
        self._n = 0
        self._waiting: dict[tuple[str, int, int], dict[int, asyncio.Future[Any]]] = {}
        self._w4: dict[int, tuple[str | None, list[int]]] = {}
        self.listeners: list[Any] = []
        """``f(e_bytes, sig)`` for each new entry (the host's transcript writer)."""
        self.timeout = host.config.fair_timeout

    # -- the log -------------------------------------------------------------------------------
    def append(self, kind: str, **fields: Any) -> None:
        if self.receipts and kind in ("step", "close", "note"):
            fields["rc"], self.receipts = self.receipts, []
        e, sig = self.log.append(kind, **fields)
        self.host.broadcast_log(e, sig)
        for f in list(self.listeners):
            try:
                f(e, sig)
            except Exception:
                log.exception("a log listener failed")

    def start_match(self, host: "Host") -> None:
        cfg = host.config
        keys = [s.identity if s.kind == "human" else None for s in host.seats]
        self.append("match", g=self.game_id, variant=cfg.variant, names=[s.name for s in host.seats],
                    options=dict(host.options), keys=keys, host=self.identity.public)

    def start_round(self, r: int) -> None:
        self.round_epochs = []
        self.drawn = set()
        self.opened = set()
        self.known = {}
        self.deliveries = {}
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
        out = [HOST_PID]
        for seat in self.host.seats:
            if seat.kind == "human" and seat.peer is not None and not seat.benched:
                out.append(seat.index)
        return out

    async def run_epoch(self, e: int, items: Sequence[Any]) -> EpochSecret:
        """Settle epoch ``e`` of ``items``: commitments, seeds, acks, reveals. Restarts on a missed deadline."""
        while True:
            a = self.attempts.get(e, -1) + 1
            self.attempts[e] = a
            sec = self.make_secret(e, a, items)
            parts = self.participants()
            self.publish_commit(sec, parts)
            r_host = secrets.token_bytes(32)
            d_host = seed_commitment(sec.root, self.identity.public, r_host)
            own = self.sign("seed", e=e, a=a, root=sec.root, d=d_host)
            got = await self._collect("seed", e, a, parts)
            if isinstance(got, list):
                self._abort(e, a, got, "commit")
                continue
            blobs = [[HOST_PID, own[0], own[1]]] + [[pid, *got[pid]] for pid in sorted(got)]
            self.publish_commits(e, a, blobs)
            want = set_hash(sec.root, blobs)
            acks = await self._collect("ack", e, a, parts)
            if isinstance(acks, list):
                self._abort(e, a, acks, "ack")
                continue
            self.append("acks", e=e, a=a, acks=[[pid, *acks[pid]] for pid in sorted(acks)])
            if any(unpack(m).get("set") != want for m, _ in acks.values()):
                log.warning("epoch %d: a player acked another set of commitments", e)
            m, sig = self.sign("reveal", e=e, a=a, r=r_host)
            self.append("hreveal", e=e, a=a, m=m, sig=sig)
            reveals = await self._collect("reveal", e, a, parts)
            if isinstance(reveals, list):
                self._abort(e, a, reveals, "reveal")
                continue
            seeds = {HOST_PID: r_host}
            for pid, (m, _s) in reveals.items():
                seeds[pid] = unpack(m)["r"]
            self.append("reveals", e=e, a=a, set=[[pid, *reveals[pid]] for pid in sorted(reveals)])
            sec.finish(combined_key(sec.root, seeds))
            self.secrets[e] = sec
            self.round_epochs.append(sec)
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
        self.append("abort", e=e, a=a, missing=missing, stage=stage)
        for pid in missing:
            self.strikes[pid] = self.strikes.get(pid, 0) + 1
            seat = self.host.seats[pid]
            self.host.emit("strike", {"seat": pid, "name": seat.name, "strikes": self.strikes[pid], "stage": stage})
            if self.strikes[pid] >= 2 and not seat.benched:
                seat.benched = True
                seat.stand_in = True
                self.append("bench", seat=pid)
                self.host.emit("bench", {"seat": pid, "name": seat.name})
                self.host.broadcast_lobby()

    def check_signed(self, peer: "Peer", m: bytes, sig: bytes, d: dict[str, Any]) -> tuple[str, str] | None:
        """Who may have sent it, its signature, game and freshness: ``(code, reason)`` or None."""
        if peer.seat is None or peer.identity is None:
            return "spectator", "only seated players sign messages"
        if d.get("seat") != peer.seat:
            return "impersonation", f"this connection holds seat {peer.seat}, not seat {d.get('seat')}"
        if not verify(peer.identity, sig, TAG_PEER, m):
            return "signature", "the signature does not verify under this connection's identity"
        if d.get("g") != self.game_id:
            return "signature", "a signed message for another game"
        n = d.get("n")
        if not isinstance(n, int) or isinstance(n, bool) or n <= self.last_n.get(peer.seat, -1):
            return "replay", "a replayed signed message (its counter is not new)"
        self.last_n[peer.seat] = n
        return None

    def on_signed(self, peer: "Peer", m: bytes, sig: bytes) -> str | None:
        """A peer's signed message; returns an error reason for the peer, or None."""
        try:
            d = unpack(m)
        except Exception:
            return "the signed message is not msgpack"
        if not isinstance(d, dict):
            return "the signed message is not a map"
        failure = self.check_signed(peer, m, sig, d)
        if failure is not None:
            return failure[1]
        kind = d.get("k")
        if kind in ("seed", "ack", "reveal"):
            futs = self._waiting.get((kind, d.get("e"), d.get("a")))
            fut = futs.get(peer.seat) if futs else None
            if fut is None or fut.done():
                return None  # late or unexpected: harmless, ignored
            if kind == "seed" and not isinstance(d.get("d"), bytes):
                return "a seed commitment without its hash"
            if kind == "reveal" and not isinstance(d.get("r"), bytes):
                return "a reveal without its seed"
            fut.set_result((m, sig))
            return None
        if kind == "rcpt":
            self.receipts.append([peer.seat, m, sig])
            return None
        if kind == "verdict":
            self.append("verdict", seat=peer.seat, m=m, sig=sig)
            self.host.emit("verdict", {"seat": peer.seat, "name": self.host.seats[peer.seat].name,
                                       "ok": bool(d.get("ok")), "code": str(d.get("code", "")),
                                       "reason": str(d.get("why", "")), "round": d.get("r")})
            return None
        return f"unknown signed message kind {kind!r}"

    # -- after every deal and action ------------------------------------------------------------
    def record_step(self, game: core.Game, seat: int | None, action: Any, auto: bool,
                    intent: tuple[bytes, bytes] | None, events: list[Event], pre_color: str | None,
                    public: list[dict[str, Any]] | None = None) -> int:
        """Log a deal or an action with its draws and openings; deliver new cards to their holders.

        ``public``: the events as everyone sees them, if the caller built them already.
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
        from .fair import entry_hash
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
                "drawn": sorted(self.drawn), "opened": sorted(self.opened), "n": self._n, "closed": self.closed}
