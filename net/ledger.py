"""What a peer knows and has checked of the table's log: the verifier every player, spectator and audit runs.

:class:`Ledger` takes the host's log entries, deliveries and rulings one by one
and checks each on arrival; who takes part and owes a verdict is checked by its
base :class:`net.duties.Duties`, and each closed round is audited in full by
replaying the engine over the log (:class:`net.replay.Replay`).
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

import core
from core import Card

from .commitments import (HOST_PID, TAG_DELIVER, TAG_LOG, TAG_PEER, TAG_RULING, ZERO, Unfair, combined_key,
                          deck_root, entry_hash, inverse, public_commits, seed_commitment, set_hash, slot_hash,
                          unpack)
from .duties import Duties
from .epochs import EpochPublic, Step
from .identity import verify
from .replay import Replay

class Ledger(Duties, Replay):
    """What one peer knows and has checked of the table's log (or what an offline audit rebuilds).

    :meth:`add_entry`, :meth:`add_delivery` and :meth:`add_ruling` raise
    :class:`Unfair` at the first failed check and return what the owner
    should do next (commit a seed, ack a set, reveal, audit a round...).

    ``defer_signatures`` (a client at the table) takes each log entry at once
    with every check but the host's signature over it, which waits in
    :attr:`unchecked` for :meth:`check_signatures`: the owner calls it when
    its link is quiet, and :meth:`audit_round` and :meth:`rebuilt` call it
    first, so the audit covers every signature as the offline audit does.
    Meanwhile the entry is vouched for by the sealed link it came on (only
    the host holds the link's keys) and by the hash chain; the signature is
    what makes it evidence for anyone else, and it costs a tenth of a
    millisecond per entry and per player, on the path of every move.
    """

    def __init__(self, host_pub: bytes | None = None, *, seat: int | None = None,
                 me: bytes | None = None, defer_signatures: bool = False) -> None:
        self.host_pub = host_pub
        self.seat = seat
        self.me = me
        self.defer_signatures = defer_signatures
        self.unchecked: list[tuple[int, bytes, bytes]] = []
        """(index, entry, signature) of the entries whose signature is still to check."""
        self.bad_signature: Unfair | None = None
        """The failed signature check, once one failed (every later check fails with it)."""
        self.entries: list[tuple[bytes, bytes]] = []
        self.hashes: list[bytes] = []
        self.hash_at: dict[bytes, int] = {}
        """Each entry hash -> its index (a signed message quotes a head: found without a scan)."""
        self.head = ZERO
        self.game_id: bytes | None = None
        self.variant = ""
        self.names: list[str] = []
        self.options: dict[str, Any] = {}
        self.keys: list[bytes | None] = []
        self.deck: list[Card] = []
        self.round = -1
        self.epochs: dict[tuple[int, int], EpochPublic] = {}
        self.final: dict[int, EpochPublic] = {}
        self.strikes: dict[int, int] = {}
        self.benched: set[int] = set()
        self.steps: list[Step] = []
        self.round_epochs: list[tuple[int, int]] = []
        self.close: dict[str, Any] | None = None
        self.drawn: set[tuple[int, int, int]] = set()
        self.public_ids: dict[int, tuple[int, int, int]] = {}
        self.mine: dict[int, tuple[int, int, int]] = {}
        self.deliveries: list[tuple[bytes, bytes]] = []
        self.rulings: list[tuple[bytes, bytes]] = []
        self.peer_blobs: list[tuple[int | None, bytes, bytes, int]] = []
        self.replay: core.Game | None = None
        self.audited: list[int] = []
        """The rounds of this match audited already (a delivery of one is a resend)."""
        self.matches = 0
        # What the log says about the seats (see the ``match``, ``away``, ``strike`` entries).
        self.timer: float | None = None
        """The turn timer in force (``match``/``settings``): a host move ``auto`` for ``timer`` needs one."""
        self.grace: float | None = None
        self.deadline: float | None = None
        """Seconds a participant has for each step of the seed exchange (and for its verdict)."""
        self.away: set[int] = set()
        """Seats the log shows away past the grace period (a bot stands in; out of the seed exchange)."""
        self.counters: set[tuple[int, int]] = set()
        """(participant, counter) of every signed message in this match: each is used once."""
        self.open_attempts: dict[int, int] = {}
        """Epoch -> the attempt committed and neither settled nor called off."""
        self.rewinds: dict[bytes, int] = {}
        """Game id -> times the host's log went back past a revealed shuffle (see :meth:`rebuilt`)."""
        self.restarts: dict[bytes, int] = {}
        """Game id -> attempts the host called off after revealing its seed (``abort`` at stage ``restart``)."""
        self.verdicts: dict[int, set[int]] = {}
        """Round -> seats whose verdict on it (or a strike for missing it) is in the log."""
        self.closed_round: int | None = None
        """The last round closed whose verdicts are still to be checked for (at the next deal or match)."""
        self.shown: dict[int, frozenset[int]] = {}
        """State version -> the card ids this seat was shown in its hand then (the audit compares them)."""

    # -- entries ---------------------------------------------------------------------------
    def add_entry(self, e: bytes, sig: bytes, decoded: Any = None) -> list[tuple[Any, ...]]:
        """Take log entry ``e`` (``decoded``: ``unpack(e)`` when the caller has it already)."""
        if self.host_pub is None:
            raise Unfair("protocol", "no host key to check the log against")
        if self.defer_signatures:
            self.unchecked.append((len(self.entries), e, sig))
        elif not verify(self.host_pub, sig, TAG_LOG, e):
            raise Unfair("signature", f"log entry {len(self.entries)} is not signed by the host")
        if decoded is not None:
            d = decoded
        else:
            try:
                d = unpack(e)
            except Exception:
                raise Unfair("protocol", f"log entry {len(self.entries)} is not msgpack") from None
        if not isinstance(d, dict) or d.get("i") != len(self.entries) or d.get("prev") != self.head:
            raise Unfair("chain", f"log entry {len(self.entries)} does not follow the previous one "
                                  "(index or hash chain broken)")
        self.entries.append((e, sig))
        h = entry_hash(e)
        self.hash_at.setdefault(h, len(self.hashes))
        self.hashes.append(h)
        self.head = h
        try:
            return self._entry(d)
        except Unfair:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as ex:
            raise Unfair("protocol", f"log entry {d.get('i')} ({d.get('k')}) is malformed: {ex!r}") from None

    def _entry(self, d: dict[str, Any]) -> list[tuple[Any, ...]]:
        k = d["k"]
        out: list[tuple[Any, ...]] = []
        if k == "match":
            self._match(d)
        elif k == "round":
            self._new_round(int(d["r"]))
        elif k == "commit":
            e, a, n = int(d["e"]), int(d["a"]), int(d["n"])
            c = d["c"]
            if len(c) != 32 * n or deck_root(self.game_id or b"", e, a, n, c) != d["root"]:
                raise Unfair("commitment", f"epoch {e}: the deck root does not match its slot commitments")
            ep = EpochPublic(e, a, n, c, d["root"], [int(p) for p in d["parts"]])
            self._check_parts(ep)
            self._check_attempt(e, a)
            if d.get("items") is not None:
                items = d["items"]
                if not isinstance(items, list) or len(items) != n or not all(isinstance(x, str) for x in items) \
                        or items != sorted(items):
                    raise Unfair("commitment", f"epoch {e}: the public items are not {n} tokens in canonical order")
                if public_commits(self.game_id or b"", e, a, items) != c:
                    raise Unfair("commitment", f"epoch {e}: the slot commitments are not those of its public items")
                ep.items = list(items)
                ep.sigma = list(range(n))  # public: nothing hidden, nothing to open later
            self.epochs[(e, a)] = ep
            self.open_attempts[e] = a
            if self.seat is not None and self.seat in ep.parts:
                out.append(("seed", e, a, ep.root))
        elif k == "commits":
            ep = self._ep(d)
            blobs = d["set"]
            pids = sorted(int(b[0]) for b in blobs)
            if pids != sorted(ep.parts):
                raise Unfair("protocol", f"epoch {ep.e}: the commitments shown are not one per participant")
            for pid, m, sig in blobs:
                md = unpack(m)
                if md.get("k") != "seed" or md.get("e") != ep.e or md.get("a") != ep.a:
                    raise Unfair("protocol", f"epoch {ep.e}: participant {pid}'s commitment is for another epoch")
                if md["root"] != ep.root:
                    raise Unfair("equivocation", f"epoch {ep.e}: participant {pid} committed against another "
                                                 "deck root: the host showed different decks to different players")
                ep.seeds[int(pid)] = md["d"]
                self._counter(int(pid), md)
                self.peer_blobs.append((None if pid == HOST_PID else int(pid), m, sig, len(self.entries) - 1))
            ep.set_blobs = blobs
            ep.set_hash = set_hash(ep.root, blobs)
            if self.seat is not None and self.seat in ep.parts:
                out.append(("ack", ep.e, ep.a, ep.set_hash))
        elif k == "acks":
            ep = self._ep(d)
            peers = sorted(p for p in ep.parts if p != HOST_PID)
            if sorted(int(b[0]) for b in d["acks"]) != peers:
                raise Unfair("protocol", f"epoch {ep.e}: the acks shown are not one per participant")
            for pid, m, sig in d["acks"]:
                key = self._key(int(pid))
                if not verify(key, sig, TAG_PEER, m):
                    raise Unfair("signature", f"epoch {ep.e}: the ack of seat {pid} is not signed by that player")
                md = unpack(m)
                if md.get("k") != "ack" or md.get("e") != ep.e or md.get("a") != ep.a or md.get("set") != ep.set_hash:
                    raise Unfair("equivocation", f"epoch {ep.e}: seat {pid} signed a different set of commitments "
                                                 "than the one shown here: the host showed different "
                                                 "commitments to different players")
                self._counter(int(pid), md)
            ep.acks = d["acks"]
        elif k == "hreveal":
            ep = self._ep(d)
            m, sig = d["m"], d["sig"]
            md = unpack(m)
            if not verify(self.host_pub, sig, TAG_PEER, m) or md.get("e") != ep.e or md.get("a") != ep.a:
                raise Unfair("signature", f"epoch {ep.e}: the host's reveal is not signed by the host")
            if HOST_PID not in ep.seeds or seed_commitment(ep.root, self.host_pub or b"", md["r"]) != ep.seeds[HOST_PID]:
                raise Unfair("reveal", f"epoch {ep.e}: the host's seed does not open its commitment")
            ep.reveals[HOST_PID] = md["r"]
            ep.reveal_blobs.append([HOST_PID, m, sig])
            self._counter(HOST_PID, md)
            if self.seat is not None and self.seat in ep.parts:
                out.append(("reveal", ep.e, ep.a))
        elif k == "reveals":
            ep = self._ep(d)
            if HOST_PID not in ep.reveals:
                raise Unfair("protocol", f"epoch {ep.e}: the others revealed before the host")
            peers = sorted(p for p in ep.parts if p != HOST_PID)
            if sorted(int(b[0]) for b in d["set"]) != peers:
                raise Unfair("protocol", f"epoch {ep.e}: the reveals shown are not one per participant")
            for pid, m, sig in d["set"]:
                md = unpack(m)
                r = md["r"]
                if md.get("k") != "reveal" or md.get("e") != ep.e or md.get("a") != ep.a or \
                        seed_commitment(ep.root, self._key(int(pid)) or b"", r) != ep.seeds[int(pid)]:
                    raise Unfair("reveal", f"epoch {ep.e}: seat {pid}'s seed does not open its commitment")
                ep.reveals[int(pid)] = r
                self._counter(int(pid), md)
                self.peer_blobs.append((int(pid), m, sig, len(self.entries) - 1))
            ep.reveal_blobs += d["set"]
            ep.pi = core.permutation(combined_key(ep.root, ep.reveals), ep.n)
            ep.k_of_slot = inverse(ep.pi)
            self.final[ep.e] = ep
            self.open_attempts.pop(ep.e, None)
            if (ep.e, ep.a) not in self.round_epochs:
                self.round_epochs.append((ep.e, ep.a))
        elif k == "abort":
            out += self._abort(d)
        elif k == "strike":
            self._strike(d)
        elif k == "bench":
            seat = int(d["seat"])
            if self.strikes.get(seat, 0) < 2:
                raise Unfair("strike", f"the host handed seat {seat}'s play to a bot with "
                                       f"{self.strikes.get(seat, 0)} strike(s) in the log (it takes two)")
            self.benched.add(seat)
        elif k == "away":
            seat = self._person(d["seat"], "away")
            self.away.add(seat)
        elif k == "back":
            self.away.discard(self._person(d["seat"], "back"))
        elif k == "settings":
            self.timer, self.grace, self.deadline = d["timer"], d["grace"], d["deadline"]
        elif k == "step":
            out += self._step(d)
        elif k == "close":
            self.close = d
            self.closed_round = self.round
            self.verdicts.setdefault(self.round, set())
            if all(self.epochs[(int(e), int(a))].sigma is not None for e, a in d["epochs"]):
                out.append(("audit", self.round))  # nothing left to open (no epoch, or public ones only)
        elif k == "open":
            ep = self._ep(d)
            if ep.items is not None:
                raise Unfair("protocol", f"epoch {ep.e} is public: it has no secret slots to open")
            slots = d["slots"]
            if len(slots) != ep.n:
                raise Unfair("commitment", f"epoch {ep.e}: {len(slots)} openings for {ep.n} slots")
            # Each slot is checked against its commitment by the audit (:meth:`_check_openings`),
            # the only reader of the opened order: a hundred hashes off the round's last move.
            ep.sigma = [int(cid) for _salt, cid in slots]
            ep.unchecked_slots = slots
            assert self.close is not None
            if all(self.epochs[(e, a)].sigma is not None for e, a in self.close["epochs"]):
                out.append(("audit", self.round))
        elif k == "verdict":
            m, sig = d["m"], d["sig"]
            seat = self._person(d["seat"], "verdict")
            md = unpack(m)
            r = md.get("r")
            if self.close is None or r != self.round or md.get("seat") != seat or md.get("k") != "verdict":
                raise Unfair("verdict", f"log entry {d['i']}: seat {seat}'s verdict is for round {r}, "
                                        "not the round just closed")
            if seat in self.verdicts.setdefault(self.round, set()):
                raise Unfair("verdict", f"log entry {d['i']}: a second verdict (or one after a strike for "
                                        f"missing it) from seat {seat} on round {self.round + 1}")
            self.verdicts[self.round].add(seat)
            self._counter(seat, md)
            self.peer_blobs.append((seat, m, sig, len(self.entries) - 1))
            out.append(("verdict", seat, bool(md.get("ok")), str(md.get("code", "")), str(md.get("why", "")),
                        md.get("r")))
        elif k == "note":
            pass
        else:
            raise Unfair("protocol", f"unknown log entry kind {k!r}")
        for rc in d.get("rc", ()):
            self._counter(int(rc[0]), unpack(rc[1]))
            self.peer_blobs.append((int(rc[0]), rc[1], rc[2], len(self.entries) - 1))
        return out

    def note_hand(self, version: int, ids: Iterable[int]) -> None:
        """Remember the hand this seat was shown at state ``version`` (checked against the rules at the audit)."""
        self.shown[version] = frozenset(ids)

    def _match(self, d: dict[str, Any]) -> None:
        if d["host"] != self.host_pub:
            raise Unfair("signature", "the match header names another host key than the link's")
        if self.game_id is not None:
            self._check_verdicts("a new match began")
        self.game_id = d["g"]
        self.variant = d["variant"]
        self.names = list(d["names"])
        self.options = dict(d["options"])
        self.keys = [k if k else None for k in d["keys"]]
        if len(self.keys) != len(self.names):
            raise Unfair("protocol", "the match header's keys are not one per seat")
        if self.seat is not None and self.me is not None and 0 <= self.seat < len(self.keys) \
                and self.keys[self.seat] != self.me:
            raise Unfair("identity", f"the match header gives this seat ({self.seat + 1}) "
                                     + ("no identity key" if self.keys[self.seat] is None else "another identity key")
                                     + " than this player's: the host could move for you with no signed intent")
        self.timer, self.grace, self.deadline = d.get("timer"), d.get("grace"), d.get("deadline")
        self.deck = core.deck(self.variant, num_players=len(self.names), options=self.options)
        self.replay = None
        self.round = -1
        self.peer_blobs = []
        self.deliveries = []
        self.rulings = []
        self.epochs.clear()
        self.final.clear()
        self.strikes.clear()
        self.benched.clear()
        self.away = {self._person(p, "match's away") for p in d.get("away") or ()}
        self.counters.clear()
        self.open_attempts.clear()
        self.verdicts.clear()
        self.closed_round = None
        self.audited = []  # a match's rounds count from 0 again: its round 0 is not the last match's
        self.matches += 1

    def _new_round(self, r: int) -> None:
        self._check_verdicts(f"the host dealt round {r + 1}")
        self.round = r
        self.shown = {}
        self.steps = []
        self.round_epochs = []
        self.close = None
        self.drawn = set()
        self.public_ids = {}
        self.mine = {}

    def _ep(self, d: dict[str, Any]) -> EpochPublic:
        ep = self.epochs.get((int(d["e"]), int(d["a"])))
        if ep is None:
            raise Unfair("protocol", f"an entry for epoch {d['e']} attempt {d['a']}, which was never committed")
        return ep

    def _key(self, pid: int) -> bytes | None:
        if pid == HOST_PID:
            return self.host_pub
        if not 0 <= pid < len(self.keys):
            raise Unfair("protocol", f"participant {pid} has no seat")
        return self.keys[pid]

    def _check_opening(self, ep: EpochPublic, slot: int, salt: bytes, cid: int) -> None:
        if not 0 <= slot < ep.n:
            raise Unfair("commitment", f"epoch {ep.e}: slot {slot} does not exist")
        if not 0 <= cid < len(self.deck):
            raise Unfair("deck", f"epoch {ep.e}: card id {cid} is not in the {self.variant} deck")
        want = ep.commit(slot)
        if slot_hash(self.game_id or b"", ep.e, ep.a, slot, salt, cid, self.deck[cid].notation) != want:
            raise Unfair("commitment", f"epoch {ep.e}: {self.deck[cid]} (id {cid}) does not match the "
                                       f"commitment to slot {slot}")

    def _opening(self, o: Sequence[Any], what: str) -> int:
        e, a, k, slot, salt, cid = int(o[0]), int(o[1]), int(o[2]), int(o[3]), o[4], int(o[5])
        ep = self.final.get(e)
        if ep is None or (ep.e, ep.a) != (e, a) or ep.pi is None:
            raise Unfair("order", f"{what}: epoch {e} attempt {a} was never completed")
        if ep.items is not None:
            raise Unfair("order", f"{what}: epoch {e} is a shuffle of public tokens, not of cards")
        if not 0 <= k < ep.n or ep.pi[k] != slot:
            raise Unfair("order", f"{what}: draw {k} of epoch {e} is slot "
                                  f"{ep.pi[k] if 0 <= k < ep.n else '?'} by the agreed permutation, not slot {slot}")
        self._check_opening(ep, slot, salt, cid)
        return cid

    def _step(self, d: dict[str, Any]) -> list[tuple[Any, ...]]:
        if d["r"] != self.round:
            raise Unfair("protocol", f"a step of round {d['r']} during round {self.round}")
        for e, a, k, who in d["d"]:
            ep = self.final.get(int(e))
            if ep is None or (ep.e, ep.a) != (e, a) or not 0 <= k < ep.n:
                raise Unfair("order", f"a draw from epoch {e} attempt {a}, which was not agreed")
            if ep.items is not None:
                raise Unfair("order", f"a card drawn from epoch {e}, a shuffle of public tokens")
            if (e, a, k) in self.drawn:
                raise Unfair("order", f"draw {k} of epoch {e} was dealt twice")
            self.drawn.add((e, a, k))
        for o in d["o"]:
            cid = self._opening(o, "a card shown to the table")
            if (int(o[0]), int(o[1]), int(o[2])) not in self.drawn:
                raise Unfair("order", f"{self.deck[cid]} was shown before it was drawn")
            self.public_ids[cid] = (int(o[0]), int(o[1]), int(o[2]))
        intent = d.get("in")
        seat = d["seat"]
        if intent is not None and seat is not None:
            self._counter(int(seat), unpack(intent[0]))
            self.peer_blobs.append((int(seat), intent[0], intent[1], len(self.entries) - 1))
        if seat is not None and d["a"] is not None and self._key(int(seat)) is not None:
            self._check_move(d, int(seat), intent)
        self.steps.append(Step(int(d["i"]), int(d["v"]), seat, bool(d["auto"]), d["a"], intent,
                               d["d"], d["ev"]))
        return []

    def _check_move(self, d: dict[str, Any], seat: int, intent: Any) -> None:
        """A person's move is their signed intent, or the host's ``auto`` move for a reason the log supports.

        The reasons: ``timer`` (the match has a turn timer), ``away`` (the log shows
        the seat away past the grace period), ``bench`` (the log shows it benched).
        Whether a timer really ran out, only the player at the table can tell
        (:class:`net.watch.SeatWatch` does).
        """
        auto, why = bool(d["auto"]), d.get("why")
        if intent is not None:
            if auto:
                raise Unfair("auto", f"step {d['i']}: a move marked both automatic and {self.who([seat])}'s own")
            return
        if not auto:
            raise Unfair("signature", f"step {d['i']}: {self.who([seat])}'s move carries no signed intent")
        if why == "timer" and self.timer:
            return
        if why == "away" and seat in self.away:
            return
        if why == "bench" and seat in self.benched:
            return
        said = {"timer": "the turn timer ran out, but the match has no turn timer",
                "away": "the player was away past the grace period, but the log does not show them away",
                "bench": "the seat was benched, but the log does not show it benched"}.get(
            why, f"{str(why)[:32]!r}, which is no reason the protocol knows")
        raise Unfair("auto", f"step {d['i']}: the host moved for {self.who([seat])} with no signed intent, "
                             f"saying {said}")

    # -- private messages ---------------------------------------------------------------------
    def add_delivery(self, m: bytes, sig: bytes) -> list[list[Any]]:
        """Check cards delivered to this seat; returns the receipt items ``[[e, a, k], ...]``."""
        if not verify(self.host_pub or b"", sig, TAG_DELIVER, m):
            raise Unfair("signature", "a card delivery is not signed by the host")
        d = unpack(m)
        if d.get("g") != self.game_id or d.get("seat") != self.seat or d.get("r") != self.round:
            raise Unfair("delivery", "a card delivery meant for another seat, round or game")
        if (m, sig) in self.deliveries or d["r"] in self.audited:
            return []  # resent after a reconnect: taken (and receipted) already
        self.deliveries.append((m, sig))
        got = []
        for o in d["cards"]:
            cid = self._opening(o, "a card delivered to this hand")
            key = (int(o[0]), int(o[1]), int(o[2]))
            if key not in self.drawn:
                raise Unfair("delivery", f"{self.deck[cid]} was delivered but the table never saw it drawn")
            for other, where in self.mine.items():
                if where[:2] == key[:2] and other == cid and where != key:
                    raise Unfair("deck", f"{self.deck[cid]} (id {cid}) was delivered twice from epoch {key[0]}")
            self.mine[cid] = key
            got.append(list(key))
        return got

    def check_hand(self, hand: Sequence[dict[str, Any]]) -> None:
        """Every card the host shows in this seat's hand was delivered and opened, face for face."""
        for c in hand:
            cid = c.get("id")
            if not isinstance(cid, int) or not 0 <= cid < len(self.deck):
                raise Unfair("delivery", f"a card that is not in the deck appeared in this hand: {c}")
            card = self.deck[cid]
            if (c.get("color"), c.get("rank")) != card.face:
                raise Unfair("delivery", f"card id {cid} is {card} in the deck but shown as "
                                         f"{core.notation(c.get('color'), str(c.get('rank')))}")
            if cid not in self.mine and cid not in self.public_ids:
                raise Unfair("delivery", f"{card} (id {cid}) is in this hand but was never delivered "
                                         "with a commitment that opens")

    def add_ruling(self, m: bytes, sig: bytes) -> None:
        """A challenge ruling shown to the challenger and the challenged: check it against the hand."""
        if not verify(self.host_pub or b"", sig, TAG_RULING, m):
            raise Unfair("signature", "a challenge ruling is not signed by the host")
        d = unpack(m)
        if d.get("g") != self.game_id:
            raise Unfair("ruling", "a ruling for another game")
        self.rulings.append((m, sig))
        ids = [self._opening(o, "a card of the challenged hand") for o in d["cards"]]
        color = d["color"]
        guilty = any(self.deck[i].color == color for i in ids)
        if guilty != bool(d["guilty"]):
            held = [str(self.deck[i]) for i in ids if self.deck[i].color == color]
            raise Unfair("ruling", f"the host ruled the Wild Draw Four challenge "
                                   f"{'guilty' if d['guilty'] else 'innocent'}, but the hand shown "
                                   + (f"holds {', '.join(held)} of the colour in play ({color})" if held
                                      else f"holds no {color} card"))
        step = next((s for s in reversed(self.steps) if s.index == d["i"]), None)
        if step is not None:
            told = [ev.get("reason") for ev in step.events if ev.get("kind") == "challenge"]
            if told and (told[0] == "guilty") != guilty:
                raise Unfair("ruling", f"the table was told the challenge was {told[0]}, but the hand says otherwise")

    def check_signatures(self, limit: int | None = None) -> bool:
        """Check the host's signature on entries taken unchecked, oldest first, at most ``limit`` of them.

        Returns whether some are left; raises :class:`Unfair` (code ``signature``) at a bad one,
        and again at every later call.
        """
        if self.bad_signature is not None:
            raise self.bad_signature
        todo = self.unchecked if limit is None else self.unchecked[:limit]
        for n, (i, e, sig) in enumerate(todo):
            if not verify(self.host_pub or b"", sig, TAG_LOG, e):
                del self.unchecked[:n]
                self.bad_signature = Unfair("signature", f"log entry {i} is not signed by the host")
                raise self.bad_signature
        del self.unchecked[:len(todo)]
        return bool(self.unchecked)

    def _check_openings(self) -> None:
        """Every slot opened at the end of the round opens its commitment."""
        for ep in self.epochs.values():
            slots, ep.unchecked_slots = ep.unchecked_slots, None
            if slots is None:
                continue
            try:
                for s, (salt, cid) in enumerate(slots):
                    self._check_opening(ep, s, salt, int(cid))
            except Unfair:
                ep.unchecked_slots = slots  # every later audit fails on it too
                raise
            except (TypeError, ValueError) as ex:
                ep.unchecked_slots = slots
                raise Unfair("protocol", f"epoch {ep.e}: the opened slots are malformed: {ex!r}") from None

    # -- truncation (a host that restarted from its save) ---------------------------------------
    def rebuilt(self, length: int) -> "Ledger":
        """A fresh ledger fed with the first ``length`` entries (and the private messages before them).

        A host resumed from its save goes back to where the save was made; this
        is the ledger as it was then. Every round closed in those entries is
        audited again on the way (so the engine replayed across rounds is the
        one the rules give), each delivery is taken right after the entry it
        follows, and the hands shown at versions still held are kept.

        Going back past a revealed shuffle (a ``hreveal`` or ``reveals``
        entry among those dropped) lets a host deal again once it has seen the
        seeds: it is counted, and past :data:`MAX_REDRAWS` in a match it fails
        with ``rewind``.
        """
        self.check_signatures()  # what was received is checked whole, as the offline audit checks it
        fresh = Ledger(self.host_pub, seat=self.seat, me=self.me, defer_signatures=True)
        fresh.rewinds = dict(self.rewinds)
        follows: dict[int, list[tuple[bytes, bytes]]] = {}
        for m, sig in self.deliveries:
            follows.setdefault(int(unpack(m).get("i", 0)), []).append((m, sig))
        for index, (e, sig) in enumerate(self.entries[:length]):
            acts = fresh.add_entry(e, sig)
            fresh.unchecked.clear()  # checked just above: not again
            if any(act[0] == "audit" for act in acts):
                fresh.audit_round()
            for m, dsig in follows.get(index, ()):
                try:
                    fresh.add_delivery(m, dsig)
                except Unfair:
                    pass
        dropped = {unpack(e).get("k") for e, _sig in self.entries[length:]}
        if dropped & {"hreveal", "reveals"}:
            g = fresh.game_id or b""
            fresh.rewinds[g] = fresh.rewinds.get(g, 0) + 1
            fresh._check_redraws()
        if fresh.round == self.round and fresh.steps:
            last = fresh.steps[-1].version
            fresh.shown = {v: h for v, h in self.shown.items() if v <= last}
        fresh.defer_signatures = self.defer_signatures
        return fresh
