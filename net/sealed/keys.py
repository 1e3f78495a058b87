"""Round keys: each participant's secret for a round, what it announces, and the table's joint key.

A participant's whole secret for a round is one 32-byte *seed* (a
:class:`RoundSecret`): its key ``x`` (announced as ``X = x*G``, which binds
the seed; the ElGamal alternative also uses it as its key share), its X25519
box key (the key the others seal its shares to) and the secret of each of
its shuffle passes are derived from it, bound to the game, the round and the
participant (and the epoch and attempt, for a pass). Saving the secret is
saving the seed before the announcement leaves (and again before each mask
pass leaves, with the hash of the deck it masked); a client that crashes reloads it and goes
on (the shares sealed to it are in the log and open again). At the end of
the round every participant opens its seed (:class:`Reveal`), and the audit
re-derives and checks both keys and makes every pass again.

Per-round box keys rather than one derived from the identity key: they are
certified by the identity (the announcement names it, and the net layer
signs the announcement with it), and because each is opened at the end of
the round, the audit can open every box of the round, so a claim that
"participant j's box held garbage" is settled by everyone, for or against
the one who made it.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any, Iterable

import msgpack
import nacl.bindings as _s

from .faults import Fault
from .group import base, digest, hash_scalar, is_point, pid_bytes, total
from .proofs import check_key, prove_key

TAG_ROUND = b"uno-tui/sealed/round/v1"
TAG_X = b"uno-tui/sealed/x/v1"
TAG_BOXSEED = b"uno-tui/sealed/box/v1"
TAG_KEYCTX = b"uno-tui/sealed/announce/v1"
TAG_PASS = b"uno-tui/sealed/pass-seed/v1"
TAG_PUBLIC = b"uno-tui/sealed/public-share/v1"
TAG_PUBLIC_COMMIT = b"uno-tui/sealed/public-commit/v1\0"
TAG_PUBLIC_SEED = b"uno-tui/sealed/public-seed/v1\0"
SECRET_VERSION = 1


def round_context(game: bytes, round_no: int) -> bytes:
    """The bytes every proof of the round is bound to (the game id and the round number)."""
    return hashlib.sha256(TAG_ROUND + len(game).to_bytes(2, "big") + game + round_no.to_bytes(4, "big")).digest()


def epoch_context(rctx: bytes, epoch: int, attempt: int = 0) -> bytes:
    return rctx + epoch.to_bytes(4, "big") + attempt.to_bytes(2, "big")


def _announce_context(rctx: bytes, pid: int, identity: bytes, box: bytes, pub: bytes) -> bytes:
    return TAG_KEYCTX + rctx + pid_bytes(pid) + identity + box + pub


def public_commitment(rctx: bytes, pid: int, share: bytes) -> bytes:
    """What an announcement commits a participant's share of the round's public orders with."""
    return hashlib.sha256(TAG_PUBLIC_COMMIT + rctx + pid_bytes(pid) + share).digest()


@dataclass(frozen=True)
class KeyAnnouncement:
    """What a participant publishes at the start of a round (inside a message its identity signs)."""

    pid: int
    identity: bytes
    """Its Ed25519 identity key: shares it sends are signed by this key."""
    X: bytes
    """``x*G``: binds the seed (and is the ElGamal alternative's key share)."""
    box: bytes
    """Its X25519 public key for this round: shares for it are sealed to this."""
    proof: bytes
    """A proof of knowledge of ``x``, bound to the round, ``pid``, ``identity``, ``box`` and ``pub``."""
    pub: bytes
    """A commitment to this participant's share of the round's public orders
    (:attr:`RoundSecret.public_share`, :func:`public_commitment`), opened when the round first needs
    one (:meth:`RoundKeys.public_seed`): every share is fixed before anyone's is seen, so nobody can
    choose the orders by choosing its own."""

    def to_wire(self) -> dict[str, Any]:
        return {"pid": self.pid, "id": self.identity, "X": self.X, "box": self.box, "proof": self.proof,
                "pub": self.pub}

    @classmethod
    def from_wire(cls, d: object) -> "KeyAnnouncement":
        if not isinstance(d, dict) or set(d) != {"pid", "id", "X", "box", "proof", "pub"} \
                or not isinstance(d["pid"], int) or isinstance(d["pid"], bool) \
                or not all(isinstance(d[k], bytes) and len(d[k]) == 32 for k in ("id", "X", "box", "pub")) \
                or not isinstance(d["proof"], bytes) or len(d["proof"]) != 64:
            raise Fault("protocol", "a malformed key announcement")
        return cls(d["pid"], d["id"], d["X"], d["box"], d["proof"], d["pub"])


class RoundSecret:
    """One participant's secret for one round, derived from a seed; what it must save to survive a crash."""

    def __init__(self, game: bytes, round_no: int, pid: int, identity: bytes, seed: bytes) -> None:
        if not isinstance(seed, bytes) or len(seed) != 32:
            raise ValueError("a round seed is 32 bytes")
        self.game, self.round, self.pid, self.identity, self.seed = game, round_no, pid, identity, seed
        self.rctx = round_context(game, round_no)
        self.x = hash_scalar(TAG_X, self.rctx, pid_bytes(pid), seed)
        """The key ``X`` announces; the ElGamal alternative's key share."""
        self.X = base(self.x)
        box_seed = hashlib.sha256(TAG_BOXSEED + self.rctx + pid_bytes(pid) + seed).digest()
        self.box_public, self.box_secret = _s.crypto_box_seed_keypair(box_seed)
        self.public_share = hashlib.sha256(TAG_PUBLIC + self.rctx + pid_bytes(pid) + seed).digest()
        """This participant's share of the round's public orders (tokens, a pick of handles): sent when
        the round first needs one, against the commitment its announcement made."""
        self.passes: dict[tuple[int, int], bytes] = {}
        """(epoch, attempt) -> the hash of the deck this participant shuffled in it: it never shuffles
        one epoch twice over different decks (that would give away its permutation), and this is
        saved with the seed, before each pass is published."""

    @classmethod
    def fresh(cls, game: bytes, round_no: int, pid: int, identity: bytes) -> "RoundSecret":
        return cls(game, round_no, pid, identity, secrets.token_bytes(32))

    def pass_seed(self, epoch: int, attempt: int) -> bytes:
        """The secret of this participant's pass in ``(epoch, attempt)``: its permutation and re-randomisers."""
        return digest(TAG_PASS, self.rctx, pid_bytes(self.pid), self.seed, epoch.to_bytes(4, "big"),
                      attempt.to_bytes(2, "big"))[:32]

    def announce(self) -> KeyAnnouncement:
        pub = public_commitment(self.rctx, self.pid, self.public_share)
        ctx = _announce_context(self.rctx, self.pid, self.identity, self.box_public, pub)
        return KeyAnnouncement(self.pid, self.identity, self.X, self.box_public, prove_key(ctx, self.x, self.X), pub)

    def to_bytes(self) -> bytes:
        """The saved form (msgpack): keep it before the announcement is sent."""
        return msgpack.packb({"v": SECRET_VERSION, "g": self.game, "r": self.round, "pid": self.pid,
                              "id": self.identity, "seed": self.seed,
                              "passes": [[e, a, h] for (e, a), h in sorted(self.passes.items())]},
                             use_bin_type=True)

    @classmethod
    def from_bytes(cls, data: bytes) -> "RoundSecret":
        try:
            d = msgpack.unpackb(data, raw=False)
        except Exception as ex:
            raise ValueError(f"a saved round secret that is not msgpack: {ex}") from None
        if not isinstance(d, dict) or d.get("v") != SECRET_VERSION \
                or set(d) != {"v", "g", "r", "pid", "id", "seed", "passes"}:
            raise ValueError("not a saved round secret of this version")
        if not isinstance(d["g"], bytes) or not isinstance(d["r"], int) or not isinstance(d["pid"], int) \
                or not isinstance(d["id"], bytes) or not isinstance(d["passes"], list) \
                or not all(isinstance(p, list) and len(p) == 3 for p in d["passes"]):
            raise ValueError("a saved round secret with fields of the wrong type")
        sec = cls(d["g"], d["r"], d["pid"], d["id"], d["seed"])
        sec.passes = {(int(e), int(a)): bytes(h) for e, a, h in d["passes"]}
        return sec

    def reveal(self) -> "Reveal":
        return Reveal(self.pid, self.seed)


@dataclass(frozen=True)
class Reveal:
    """A participant's round seed, opened at the end of the round for the audit."""

    pid: int
    seed: bytes

    def to_wire(self) -> list[Any]:
        return [self.pid, self.seed]

    @classmethod
    def from_wire(cls, w: object) -> "Reveal":
        if not (isinstance(w, (list, tuple)) and len(w) == 2 and isinstance(w[0], int) and isinstance(w[1], bytes)
                and len(w[1]) == 32):
            raise Fault("protocol", "a malformed reveal")
        return cls(w[0], w[1])


class RoundKeys:
    """The table's keys for a round, every announcement checked: the joint key, the box keys."""

    def __init__(self, game: bytes, round_no: int, announcements: Iterable[KeyAnnouncement]) -> None:
        self.game, self.round = game, round_no
        self.rctx = round_context(game, round_no)
        self.announcements: dict[int, KeyAnnouncement] = {}
        for a in announcements:
            if a.pid in self.announcements:
                raise Fault("protocol", f"participant {a.pid} announced two keys", a.pid)
            # The proof's check multiplies X, which libsodium refuses for a value outside the group:
            # X's own check is needed only to say which of the two failed.
            if not check_key(_announce_context(self.rctx, a.pid, a.identity, a.box, a.pub), a.X, a.proof):
                if not is_point(a.X):
                    raise Fault("point", "a round key that is not a point of the group", a.pid)
                raise Fault("key", "a round key whose proof of knowledge fails", a.pid)
            self.announcements[a.pid] = a
        if not self.announcements:
            raise Fault("protocol", "a round with no participant")
        self.pids: list[int] = sorted(self.announcements)
        """The participants, in increasing order."""
        self.X = {p: a.X for p, a in self.announcements.items()}
        self.box = {p: a.box for p, a in self.announcements.items()}
        self.identity = {p: a.identity for p, a in self.announcements.items()}
        self.joint: bytes = total([self.X[p] for p in self.pids])
        """The joint key ``Y``: nobody knows its secret while one participant keeps its own."""

    def public_seed(self, shares: dict[int, bytes]) -> bytes:
        """The seed of the round's public orders, from every participant's share (``pid -> share``),
        each checked against its announcement's commitment: unknown to anyone until the last share
        is out, and chosen by nobody (a share is fixed before anyone's is seen). A share that does
        not open its commitment raises ``reveal`` naming its sender."""
        for p in self.pids:
            v = shares.get(p)
            if not isinstance(v, bytes) or public_commitment(self.rctx, p, v) != self.announcements[p].pub:
                raise Fault("reveal", "a share of the round's public orders that does not open its commitment", p)
        return hashlib.sha256(TAG_PUBLIC_SEED + self.rctx + b"".join(shares[p] for p in self.pids)).digest()

    def check_reveal(self, r: Reveal) -> RoundSecret:
        """The secret a reveal opens, if it matches the participant's announcement; else ``reveal``."""
        a = self.announcements.get(r.pid)
        if a is None:
            raise Fault("protocol", f"a reveal from {r.pid}, who is not a participant of the round", r.pid)
        sec = RoundSecret(self.game, self.round, r.pid, a.identity, r.seed)
        if sec.X != a.X or sec.box_public != a.box or public_commitment(self.rctx, r.pid, sec.public_share) != a.pub:
            raise Fault("reveal", "the opened round secret does not match the key announced", r.pid)
        return sec
