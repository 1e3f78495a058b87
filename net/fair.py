"""The fair deal: commitments, the table's signed log, and the checks every peer runs.

One *epoch* is one shuffle the engine asks for (a round's deal, a card sent
back at the start, each reshuffle of the discards). For each epoch the host
runs, before the engine needs it (see :mod:`net.dealer`):

1. ``commit``: the host picks a secret order of the cards, ``sigma`` (slot ->
   card id), and a fresh 16-byte salt per slot, and publishes the slot
   commitments ``c[s] = H(game, epoch, attempt, s, salt[s], id, notation)``
   and their root;
2. every participant (the host and each connected person) commits to a
   random 32-byte seed: ``d = H(root, identity key, r)`` (``seed``);
3. the host shows everyone the set of commitments (``commits``), every
   participant signs the hash of the set it was shown (``ack``), and the host
   shows all the acks (``acks``): a host that showed different commitments to
   different players is caught here;
4. the host reveals its seed first (``hreveal``), then the others (``reveals``);
   each reveal must open its commitment. The combined key
   ``H(root, (pid, r) for every participant)`` drives
   :func:`core.permutation` into ``pi``; the k-th card drawn in the epoch is
   slot ``pi[k]``;
5. a card that reaches a hand is *delivered* to its holder alone with its
   draw index, slot and salt, and the holder checks it against the
   commitment and the permutation; a card that becomes public (played,
   turned) is opened in the log for everyone;
6. at the end of the round every slot is opened (``open``) and every peer
   *audits* the round on its own: signatures and the hash chain, every
   commitment, the deck (exactly the variant's deck, or exactly the cards the
   rules reshuffle), the permutations, every delivery, and the engine
   replayed over the log must accept every action and reach the same
   rulings and scores.

Some chance is not about cards: Diez draws tokens from a bag everyone can
count. The engine hands such a shuffle *public tokens* (plain strings, see
:mod:`core.source`), and the epoch is a *public* one: the ``commit`` entry
lists the items in their canonical (sorted) order, each slot's commitment is
``H(game, epoch, attempt, s, item)`` over that list (no salt, no secret
order: ``sigma`` is the identity), and the same seed exchange fixes ``pi``.
The k-th item drawn is ``items[pi[k]]``, which every peer computes as soon as
the reveals are in; nothing is delivered or opened later, and the audit
replays the draws from the agreed permutation like the cards.

Everything the host says is a *log entry*: msgpack bytes holding its index
``i`` and the hash of the previous entry ``prev``, signed by the host's
identity over those exact bytes. What a peer says (seed commitments, acks,
reveals, intents, receipts, verdicts) is a msgpack message signed by the
peer, which the host copies into the log byte for byte.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

import msgpack

import core
from core import Action, Card, IllegalAction

from .identity import H, Identity, verify
from .messages import MAX_ENTRY

TAG_LOG = b"uno-tui/log/v2\0"
TAG_PEER = b"uno-tui/peer/v2\0"
TAG_DELIVER = b"uno-tui/deliver/v2\0"
TAG_RULING = b"uno-tui/ruling/v2\0"
HOST_PID = -1
"""The host's participant id in the seed exchange (people use their seat numbers)."""
ZERO = bytes(32)
MAX_REDRAWS = 1
"""Times in one match a client lets the host go back past a revealed shuffle: a crash may do it once."""


class Unfair(Exception):
    """A check failed: ``code`` names the kind of cheating or damage, ``reason`` says it in words."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason


def pack(obj: Any) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)


def unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


def entry_hash(e: bytes) -> bytes:
    return hashlib.sha256(b"uno-tui/entry/v2\0" + e).digest()


def slot_hash(game: bytes, e: int, a: int, slot: int, salt: bytes, card_id: int, notation: str) -> bytes:
    return H(b"uno-tui/slot/v2", game, e.to_bytes(4, "big"), a.to_bytes(4, "big"), slot.to_bytes(4, "big"),
             salt, card_id.to_bytes(4, "big"), notation.encode())


def item_hash(game: bytes, e: int, a: int, slot: int, item: str) -> bytes:
    """The commitment to slot ``slot`` of a public epoch: its item in the canonical order."""
    return H(b"uno-tui/item/v2", game, e.to_bytes(4, "big"), a.to_bytes(4, "big"), slot.to_bytes(4, "big"),
             item.encode())


def public_commits(game: bytes, e: int, a: int, items: Sequence[str]) -> bytes:
    return b"".join(item_hash(game, e, a, s, x) for s, x in enumerate(items))


def public_items(items: Sequence[Any]) -> list[str] | None:
    """The canonical list of a shuffle of public tokens (strings), or None for a shuffle of cards.

    A source is given either cards or strings (see :mod:`core.source`); a mix is a bug in the engine.
    """
    if not items or not isinstance(items[0], str):
        if any(isinstance(x, str) for x in items):
            raise TypeError("a shuffle of cards and public tokens mixed")
        return None
    if not all(isinstance(x, str) for x in items):
        raise TypeError("a shuffle of public tokens and something else mixed")
    return sorted(items)


def canonical(items: Sequence[Any]) -> list[Any]:
    """What an epoch commits to, comparable across hosts and replays: sorted card ids or sorted tokens."""
    public = public_items(items)
    return public if public is not None else sorted(c.id for c in items)


def deck_root(game: bytes, e: int, a: int, n: int, commits: bytes) -> bytes:
    return H(b"uno-tui/root/v2", game, e.to_bytes(4, "big"), a.to_bytes(4, "big"), n.to_bytes(4, "big"), commits)


def seed_commitment(root: bytes, public: bytes, r: bytes) -> bytes:
    return H(b"uno-tui/seed/v2", root, public, r)


def set_hash(root: bytes, items: Sequence[Sequence[Any]]) -> bytes:
    return H(b"uno-tui/set/v2", root, *[pack(list(x)) for x in items])


def combined_key(root: bytes, reveals: dict[int, bytes]) -> bytes:
    parts = [pid.to_bytes(4, "big", signed=True) + r for pid, r in sorted(reveals.items())]
    return H(b"uno-tui/combine/v2", root, *parts)


def engine_order(sigma: Sequence[int], pi: Sequence[int]) -> list[int]:
    """The engine's list for an epoch: it pops from the end, so draw ``k`` sits at ``n - 1 - k``."""
    n = len(sigma)
    return [sigma[pi[n - 1 - j]] for j in range(n)]


def inverse(pi: Sequence[int]) -> list[int]:
    inv = [0] * len(pi)
    for k, s in enumerate(pi):
        inv[s] = k
    return inv


# -- the host's secrets ------------------------------------------------------------------
class EpochSecret:
    """The host's side of one attempt at one epoch: the secret order and the salts.

    For a public epoch (``items`` are strings) there is no secret: ``public``
    is the canonical list, ``sigma`` the identity and ``order`` the strings.
    """

    def __init__(self, game: bytes, e: int, a: int, items: Sequence[Any], *,
                 sigma: list[int] | None = None, salts: list[bytes] | None = None,
                 notations: dict[int, str] | None = None) -> None:
        self.game, self.e, self.a = game, e, a
        self.public: list[str] | None = public_items(items)
        self.pi: list[int] | None = None
        self.k_of_slot: list[int] = []
        self.slot_of: dict[int, int] = {}
        self.order: list[Any] = []
        if self.public is not None:
            self.items: list[Any] = list(self.public)
            self.notation: dict[int, str] = {}
            self.sigma = list(range(len(self.public)))
            self.n = len(self.sigma)
            self.salts: list[bytes] = []
            self.commits = public_commits(game, e, a, self.public)
            self.root = deck_root(game, e, a, self.n, self.commits)
            return
        self.items = sorted(c.id for c in items)
        self.notation = notations if notations is not None else {c.id: c.notation for c in items}
        if sigma is None:
            sigma = list(self.items)
            secrets.SystemRandom().shuffle(sigma)
        self.sigma = sigma
        self.n = len(sigma)
        self.salts = salts if salts is not None else [secrets.token_bytes(16) for _ in range(self.n)]
        self.commits = b"".join(slot_hash(game, e, a, s, self.salts[s], cid, self.notation[cid])
                                for s, cid in enumerate(self.sigma))
        self.root = deck_root(game, e, a, self.n, self.commits)

    def finish(self, key: bytes) -> None:
        self._permute(core.permutation(key, self.n))

    def _permute(self, pi: list[int]) -> None:
        self.pi = pi
        self.k_of_slot = inverse(pi)
        order = engine_order(self.sigma, pi)
        if self.public is not None:
            self.order = [self.public[s] for s in order]
            return
        self.order = order
        self.slot_of = {cid: s for s, cid in enumerate(self.sigma)}

    def opening(self, card_id: int) -> list[Any]:
        s = self.slot_of[card_id]
        return [self.e, self.a, self.k_of_slot[s], s, self.salts[s], card_id]

    def to_save(self) -> dict[str, Any]:
        # The host saves after every action, and a settled epoch never changes again: build it once.
        saved = self.__dict__.get("_saved")
        if saved is not None and saved[0] is self.pi and saved[1] is self.sigma:
            return saved[2]
        d = self._to_save()
        if self.pi is not None:
            self._saved = (self.pi, self.sigma, d)
        return d

    def packed_save(self) -> bytes:
        """:meth:`to_save` packed with msgpack, once for a settled epoch (a hundred salts and notations)."""
        got = self.__dict__.get("_packed")
        if got is not None and got[0] is self.pi and got[1] is self.sigma:
            return got[2]
        data = pack(self.to_save())
        if self.pi is not None:
            self._packed = (self.pi, self.sigma, data)
        return data

    def _to_save(self) -> dict[str, Any]:
        if self.public is not None:
            return {"e": self.e, "a": self.a, "public": self.public, "pi": self.pi}
        return {"e": self.e, "a": self.a, "sigma": self.sigma, "salts": self.salts,
                "notation": [[k, v] for k, v in self.notation.items()], "pi": self.pi}

    @classmethod
    def from_save(cls, game: bytes, d: dict[str, Any]) -> "EpochSecret":
        if d.get("public") is not None:
            sec = cls(game, d["e"], d["a"], list(d["public"]))
        else:
            sec = cls(game, d["e"], d["a"], [], sigma=list(d["sigma"]), salts=list(d["salts"]),
                      notations={int(k): v for k, v in d["notation"]})
            sec.items = sorted(sec.sigma)
        if d.get("pi") is not None:
            sec._permute(list(d["pi"]))
        return sec


class TableLog:
    """The host's signed, hash-chained log."""

    def __init__(self, identity: Identity, entries: Iterable[tuple[bytes, bytes]] = ()) -> None:
        self.identity = identity
        self.entries: list[tuple[bytes, bytes]] = list(entries)
        self.heads: set[bytes] = {entry_hash(e) for e, _sig in self.entries}
        """Every entry's hash: a head a player's message may quote."""
        self.head = entry_hash(self.entries[-1][0]) if self.entries else ZERO

    def append(self, kind: str, **fields: Any) -> tuple[bytes, bytes]:
        body = {"i": len(self.entries), "prev": self.head, "k": kind, **fields}
        e = pack(body)
        if len(e) > MAX_ENTRY:  # every field a peer fills is bounded: only a bug gets here
            raise ValueError(f"a {kind} log entry of {len(e)} bytes would not fit a frame")
        sig = self.identity.sign(TAG_LOG, e)
        self.entries.append((e, sig))
        self.head = entry_hash(e)
        self.heads.add(self.head)
        return e, sig

    def quotes(self, h: Any) -> bool:
        """Whether ``h`` is a head a signed message may quote: the empty log's, or an entry's."""
        return h == ZERO or (isinstance(h, bytes) and h in self.heads)

    def __len__(self) -> int:
        return len(self.entries)


def peer_message(identity: Identity, kind: str, game: bytes, seat: int | None, n: int, head: bytes,
                 **fields: Any) -> tuple[bytes, bytes]:
    m = pack({"k": kind, "g": game, "seat": seat, "n": n, "h": head, **fields})
    return m, identity.sign(TAG_PEER, m)


# -- the verifier ------------------------------------------------------------------------
@dataclass
class EpochPublic:
    e: int
    a: int
    n: int
    commits: bytes
    root: bytes
    parts: list[int]
    seeds: dict[int, bytes] = field(default_factory=dict)
    set_blobs: list[list[Any]] = field(default_factory=list)
    set_hash: bytes | None = None
    acks: list[list[Any]] = field(default_factory=list)
    reveal_blobs: list[list[Any]] = field(default_factory=list)
    reveals: dict[int, bytes] = field(default_factory=dict)
    pi: list[int] | None = None
    k_of_slot: list[int] = field(default_factory=list)
    sigma: list[int] | None = None
    aborted: bool = False
    items: list[str] | None = None
    """A public epoch's items in their canonical order (None for cards)."""
    unchecked_slots: list[Any] | None = None
    """The ``open`` entry's slots, until the audit checks them against their commitments."""

    def commit(self, slot: int) -> bytes:
        return self.commits[32 * slot: 32 * slot + 32]


@dataclass
class Step:
    index: int
    version: int
    seat: int | None
    auto: bool
    action: dict[str, Any] | None
    intent: list[Any] | None
    draws: list[list[int]]
    events: list[dict[str, Any]]


def _cards_word(ids: Iterable[int], deck: Sequence[Card]) -> str:
    return ", ".join(f"{deck[i]} (id {i})" if 0 <= i < len(deck) else f"id {i}" for i in ids)


class Ledger:
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

    # -- the seats' rules: who takes part, who may be played for, who owes a verdict -------------
    def _person(self, seat: Any, what: str) -> int:
        """``seat`` as a seat that holds a person (a key in the match header)."""
        if not isinstance(seat, int) or not 0 <= seat < len(self.keys) or self.keys[seat] is None:
            raise Unfair("protocol", f"a {what} entry for seat {seat}, which holds no person")
        return seat

    def people(self) -> list[int]:
        """The seats of this match's people who take part now: a key in the header, not benched, not away."""
        return [i for i, k in enumerate(self.keys) if k is not None and i not in self.benched and i not in self.away]

    def _who(self, pids: Iterable[int]) -> str:
        names = ["the host" if p == HOST_PID else
                 (f"{self.names[p]} (seat {p + 1})" if 0 <= p < len(self.names) else f"seat {p}") for p in pids]
        return ", ".join(names) or "nobody"

    def _check_parts(self, ep: EpochPublic) -> None:
        """Every seed exchange is between the host and exactly the people who take part (see :meth:`people`).

        A host that leaves the people out chooses the order alone; one that adds
        or drops a seat the log does not show benched or away picks its partners.
        """
        want = [HOST_PID] + self.people()
        if sorted(ep.parts) != want:
            raise Unfair("parts", f"epoch {ep.e}: the seed exchange is between {self._who(sorted(ep.parts))}, but "
                                  f"it must be between {self._who(want)} (the host and every seated person the "
                                  "log does not show benched or away): the host could choose the order")

    def _check_attempt(self, e: int, a: int) -> None:
        if e in self.final:
            raise Unfair("rewind", f"epoch {e} was shuffled again after its seeds were revealed: "
                                   "the host re-ran a settled shuffle")
        prev = self.open_attempts.get(e)
        if prev is not None:
            raise Unfair("protocol", f"epoch {e}: attempt {a} begins while attempt {prev} was neither "
                                     "finished nor called off")
        tried = [aa for (ee, aa) in self.epochs if ee == e]
        if tried and a <= max(tried):
            raise Unfair("protocol", f"epoch {e}: attempt {a} comes after attempt {max(tried)}")

    def _counter(self, pid: int, md: Any) -> None:
        """A signed message's counter is used once per participant in the whole match (no replay)."""
        n = md.get("n") if isinstance(md, dict) else None
        if not isinstance(n, int) or isinstance(n, bool):
            raise Unfair("protocol", f"log entry {len(self.entries) - 1}: a signed message without its counter")
        key = (pid, n)
        if key in self.counters:
            who = "the host" if pid == HOST_PID else f"seat {pid}"
            raise Unfair("replay", f"log entry {len(self.entries) - 1}: {who}'s signed message #{n} was used "
                                   "before in this match: a replay")
        self.counters.add(key)

    def redraws(self) -> int:
        """Times in this match the host went back past a revealed shuffle (a rewind or a restart)."""
        g = self.game_id or b""
        return self.rewinds.get(g, 0) + self.restarts.get(g, 0)

    def _check_redraws(self) -> None:
        if self.redraws() > MAX_REDRAWS:
            raise Unfair("rewind", f"the host went back past a revealed shuffle {self.redraws()} times in this "
                                   f"match; a crash may do that once, more is a host drawing again until it "
                                   "likes the deal")

    def _abort(self, d: dict[str, Any]) -> list[tuple[Any, ...]]:
        ep = self._ep(d)
        stage, missing = d["stage"], [int(p) for p in d["missing"]]
        if ep.aborted or ep.pi is not None:
            raise Unfair("protocol", f"epoch {ep.e} attempt {ep.a} called off when it was over already")
        ep.aborted = True
        self.open_attempts.pop(ep.e, None)
        out: list[tuple[Any, ...]] = []
        if stage == "restart":  # a resumed host calls off the attempt its crash interrupted
            if missing:
                raise Unfair("strike", f"epoch {ep.e}: a restart strikes nobody")
            if HOST_PID in ep.reveals:
                self.restarts[self.game_id or b""] = self.restarts.get(self.game_id or b"", 0) + 1
                self._check_redraws()
                out.append(("warn", "the host restarted after revealing its seed for a shuffle and shuffles "
                                    "again (a crash may do this once in a match)"))
            return out
        answered = {"commit": ep.seeds, "ack": {int(b[0]): b for b in ep.acks},
                    "reveal": ep.reveals}.get(stage)
        if answered is None or not missing:
            raise Unfair("protocol", f"epoch {ep.e}: an abort at stage {stage!r} naming {missing}")
        for pid in missing:
            if pid not in ep.parts or pid == HOST_PID:
                raise Unfair("strike", f"epoch {ep.e}: the host struck {self._who([pid])}, who was not asked")
            if pid in answered:
                raise Unfair("strike", f"epoch {ep.e}: the host struck {self._who([pid])} for missing the {stage} "
                                       "deadline, but that answer is in the log")
            self.strikes[pid] = self.strikes.get(pid, 0) + 1
        if self.seat is not None and self.seat in missing:
            out.append(("warn", f"the host says this seat missed the {stage} deadline of epoch {ep.e}"))
        return out

    def _strike(self, d: dict[str, Any]) -> None:
        """A strike outside an abort: a refused answer (the answer is its evidence) or a missing verdict."""
        seat = self._person(d["seat"], "strike")
        stage = d["stage"]
        if stage == "verdict":
            r = d["r"]
            if self.close is None or r != self.round:
                raise Unfair("strike", f"a strike for a verdict on round {r}, which is not the round just closed")
            if seat in self.verdicts.setdefault(r, set()):
                raise Unfair("strike", f"the host struck {self._who([seat])} for missing the verdict on round "
                                       f"{r + 1}, but that verdict is in the log")
            if seat not in self.people():
                raise Unfair("strike", f"the host struck {self._who([seat])} for a verdict it did not owe")
            self.verdicts[r].add(seat)
        else:
            self._check_refusal(seat, stage, d)
        self.strikes[seat] = self.strikes.get(seat, 0) + 1

    def _check_refusal(self, seat: int, stage: str, d: dict[str, Any]) -> None:
        """The answer a strike refused must be the seat's own, and bad: else the strike is the host's lie."""
        m, sig = d.get("m"), d.get("sig")
        key = self.keys[seat]
        if not isinstance(m, bytes) or not isinstance(sig, bytes) or key is None or not verify(key, sig, TAG_PEER, m):
            raise Unfair("strike", f"the host struck {self._who([seat])} for a refused {stage} without that "
                                   "player's signed message as evidence")
        md = unpack(m)
        if not isinstance(md, dict) or md.get("seat") != seat or md.get("g") != self.game_id:
            raise Unfair("strike", f"the evidence of a strike against {self._who([seat])} is not that player's "
                                   "message in this game")
        if stage in ("seed", "ack", "reveal"):
            from .answers import answer_fault

            ep = self.epochs.get((md.get("e"), md.get("a")))  # type: ignore[arg-type]
            if ep is None:
                return  # about an attempt this log never committed: refusing it was right
            fault = answer_fault(stage, md, root=ep.root, shown=ep.set_hash, key=key, committed=ep.seeds.get(seat))
        elif stage == "head":
            h = md.get("h")
            fault = None if h == ZERO or (isinstance(h, bytes) and h in self.hash_at) else "unknown head"
        else:
            return  # a receipt or a verdict refused for what only the host could check (its deliveries)
        if fault is None:
            raise Unfair("strike", f"the host struck {self._who([seat])} for a {stage} that is good: "
                                   "a false accusation")

    def _check_verdicts(self, what: str) -> None:
        """Before the next deal (or match): every person's verdict on the last round, or a strike for it."""
        r, self.closed_round = self.closed_round, None
        if r is None:
            return
        missing = [p for p in self.people() if p not in self.verdicts.get(r, set())]
        if missing:
            raise Unfair("verdict", f"{what} without the verdict on round {r + 1} of {self._who(missing)}: "
                                    "neither the verdict nor a strike for missing it is in the log "
                                    "(the host dropped it)")

    def check_end(self) -> None:
        """The match is over (the host said ``end``): the last round's verdicts must all be in the log."""
        self._check_verdicts("the match ended")

    def missing_verdicts(self) -> list[int]:
        """The people whose verdict on the round just closed the log does not hold yet."""
        r = self.closed_round
        if r is None:
            return []
        return [p for p in self.people() if p not in self.verdicts.get(r, set())]

    def verdict_owed(self, seat: int) -> int | None:
        """The round just closed, if the log holds neither ``seat``'s verdict on it nor a strike for it."""
        r = self.closed_round
        if r is None or seat not in self.people() or seat in self.verdicts.get(r, set()):
            return None
        return r

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
                raise Unfair("auto", f"step {d['i']}: a move marked both automatic and {self._who([seat])}'s own")
            return
        if not auto:
            raise Unfair("signature", f"step {d['i']}: {self._who([seat])}'s move carries no signed intent")
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
        raise Unfair("auto", f"step {d['i']}: the host moved for {self._who([seat])} with no signed intent, "
                             f"saying {said}")

    # -- private messages ---------------------------------------------------------------------
    def add_delivery(self, m: bytes, sig: bytes) -> list[list[Any]]:
        """Check cards delivered to this seat; returns the receipt items ``[[e, a, k], ...]``."""
        if not verify(self.host_pub or b"", sig, TAG_DELIVER, m):
            raise Unfair("signature", "a card delivery is not signed by the host")
        d = unpack(m)
        if d.get("g") != self.game_id or d.get("seat") != self.seat or d.get("r") != self.round:
            raise Unfair("delivery", "a card delivery meant for another seat, round or game")
        if (m, sig) in self.deliveries:
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

    # -- the audit ----------------------------------------------------------------------------
    def audit_round(self) -> None:
        """Check the round just closed, in full; raises :class:`Unfair` at the first failure."""
        close = self.close
        if close is None:
            raise Unfair("protocol", "the round was not closed")
        # The host's signature on every entry (those taken unchecked at the table).
        self.check_signatures()
        self._check_openings()
        # Every signature a peer made, as copied into the log.
        for seat, m, sig, i in self.peer_blobs:
            key = self.host_pub if seat is None else self._key(seat)
            if key is None or not verify(key, sig, TAG_PEER, m):
                who = "the host" if seat is None else f"seat {seat}"
                raise Unfair("signature", f"log entry {i}: a message of {who} is not signed by {who}")
            md = unpack(m)
            if md.get("g") != self.game_id:
                raise Unfair("signature", f"log entry {i}: a signed message from another game")
            h = md.get("h")
            if h != ZERO and not (isinstance(h, bytes) and self.hash_at.get(h, i) < i):
                raise Unfair("chain", f"log entry {i}: a signed message quotes a log head that never existed")
        self.peer_blobs = []
        for step in self.steps:  # (a replayed intent's counter was refused as it came: see _counter)
            if step.intent is not None:
                md = unpack(step.intent[0])
                if md.get("k") != "intent" or md.get("seat") != step.seat or md.get("act") != step.action:
                    raise Unfair("signature", f"step {step.index}: the action does not match the signed intent")
        # The engine, replayed over the log with the committed and permuted decks.
        source = ReplaySource(self)
        steps = list(self.steps)
        if not steps or steps[0].seat is not None or steps[0].action is not None:
            raise Unfair("protocol", "the round does not begin with its deal")
        try:
            if self.replay is None:
                game = core.new_game(self.variant, list(self.names), options=dict(self.options), source=source)
                events = game.deal_events
                self.replay = game
            else:
                game = self.replay
                game.source = source
                events = game.next_round()
        except IllegalAction as ex:
            raise Unfair("replay", f"the rules refuse to deal round {self.round + 1}: {ex}") from None
        self._compare(steps[0], events, game)
        self._compare_hand(steps[0], game)
        for step in steps[1:]:
            try:
                act = Action.from_dict(step.action or {})
                events = game.apply(int(step.seat if step.seat is not None else -1), act)
            except (IllegalAction, ValueError) as ex:
                raise Unfair("replay", f"step {step.index}: the rules refuse seat {step.seat}'s "
                                       f"{step.action}: {ex}") from None
            self._compare(step, events, game)
            self._compare_hand(step, game)
        if not game.over:
            raise Unfair("replay", "the round was closed but the rules say it goes on")
        if list(close["scores"]) != list(game.scores) or close["winner"] != game.winner or \
                close["points"] != game.last_points:
            raise Unfair("replay", f"the host scored the round {close['scores']} (winner {close['winner']}), "
                                   f"the rules score it {game.scores} (winner {game.winner})")
        # Every card delivered to this seat sits where the committed deck puts it.
        for m, _sig in self.deliveries:
            d = unpack(m)
            if d.get("r") != self.round:
                continue
            for o in d["cards"]:
                ep = self.final[int(o[0])]
                assert ep.sigma is not None
                if ep.sigma[int(o[3])] != int(o[5]):
                    raise Unfair("delivery", "a delivered card is not the one committed to its slot")
        self.deliveries = [x for x in self.deliveries if unpack(x[0]).get("r") != self.round]
        self.audited.append(self.round)

    def _compare_hand(self, step: Step, game: core.Game) -> None:
        """The hand this seat was shown after ``step`` is the one the rules give it (a seated client only)."""
        shown = self.shown.get(step.version)
        if shown is None or self.seat is None or not 0 <= self.seat < len(game.hands):
            return
        held = frozenset(c.id for c in game.hands[self.seat])
        if shown != held:
            hidden, extra = sorted(held - shown), sorted(shown - held)
            raise Unfair("hand", f"after step {step.index} the host showed this seat a hand that is not the one the "
                                 "rules give it"
                                 + (f"; left out: {_cards_word(hidden, self.deck)}" if hidden else "")
                                 + (f"; not yours: {_cards_word(extra, self.deck)}" if extra else ""))

    def _compare(self, step: Step, events: list[core.Event], game: core.Game) -> None:
        public = [ev.view(None).to_dict() for ev in events]
        if public != step.events:
            mine = _first_diff(public, step.events)
            raise Unfair("ruling" if "challenge" in mine else "replay",
                         f"step {step.index}: the host announced {mine[1]} but the rules give {mine[0]}")
        if game.version != step.version:
            raise Unfair("replay", f"step {step.index}: state version {step.version} announced, "
                                   f"{game.version} by the rules")
        # Each draw the host announced is the card the committed, permuted deck puts there.
        for e, a, k, who in step.draws:
            ep = self.final[int(e)]
            if ep.sigma is None or ep.pi is None:
                raise Unfair("commitment", f"epoch {e} was not opened at the end of the round")
            cid = ep.sigma[ep.pi[int(k)]]
            if who >= 0 and game.card(cid) not in game.hands[who] and not _shown(cid, public):
                raise Unfair("order", f"step {step.index}: draw {k} of epoch {e} ({self.deck[cid]}) went to "
                                      f"seat {who} by the host's word but not by the rules")


def _shown(cid: int, public: list[dict[str, Any]]) -> bool:
    return any(c.get("id") == cid for ev in public for c in ev.get("cards", ()))


def _first_diff(ours: list[Any], theirs: list[Any]) -> tuple[str, str]:
    for a, b in zip(ours, theirs):
        if a != b:
            return _event_words(a), _event_words(b)
    if len(ours) != len(theirs):
        return f"{len(ours)} events", f"{len(theirs)} events"
    return "?", "?"


def _event_words(ev: dict[str, Any]) -> str:
    parts = [ev.get("kind", "?")]
    for key in ("player", "target", "reason", "color", "count", "points"):
        if key in ev:
            parts.append(f"{key}={ev[key]}")
    if ev.get("cards"):
        parts.append("cards=" + ",".join(core.notation(c["color"], c["rank"]) for c in ev["cards"]))
    return " ".join(map(str, parts))


class ReplaySource:
    """The audit's deck source: each epoch's order from its opened slots and agreed permutation."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    def shuffle(self, items: Sequence[Any], epoch: int) -> list[Any]:
        ep = self.ledger.final.get(epoch)
        if ep is None:
            raise Unfair("replay", f"replayed with the agreed decks, the rules need a shuffle (epoch {epoch}) "
                                   "the host never ran: the host's game did not follow the agreed deck")
        if ep.sigma is None or ep.pi is None:
            raise Unfair("commitment", f"epoch {epoch} was not opened at the end of the round")
        try:
            public = public_items(items)
        except TypeError as ex:
            raise Unfair("replay", f"epoch {epoch}: the rules asked for an impossible shuffle ({ex})") from None
        if public is not None or ep.items is not None:
            if public != ep.items:
                said = f"the tokens {ep.items}" if ep.items is not None else "cards"
                want = f"the tokens {public}" if public is not None else "cards"
                raise Unfair("deck", f"epoch {epoch}: the host shuffled {said}, the rules shuffle {want} here")
            assert public is not None
            return [public[s] for s in engine_order(ep.sigma, ep.pi)]
        want = sorted(c.id for c in items)
        got = sorted(ep.sigma)
        if want != got:
            deck = self.ledger.deck
            extra = _multiset_minus(got, want)
            missing = _multiset_minus(want, got)
            what = "the full deck" if epoch == 0 or len(want) == len(deck) else "the cards the rules reshuffle here"
            raise Unfair("deck", f"epoch {epoch}: the committed cards are not {what}"
                                 + (f"; extra: {_cards_word(extra, deck)}" if extra else "")
                                 + (f"; missing: {_cards_word(missing, deck)}" if missing else ""))
        by_id = {c.id: c for c in items}
        return [by_id[i] for i in engine_order(ep.sigma, ep.pi)]


def _multiset_minus(a: list[int], b: list[int]) -> list[int]:
    left = list(b)
    out = []
    for x in a:
        if x in left:
            left.remove(x)
        else:
            out.append(x)
    return out
