"""The host's side of the fair deal: each epoch's secret order and salts, the signed, hash-chained log,
and the engine's deck source that takes its orders from them."""

from __future__ import annotations

import secrets
from typing import Any, Iterable, Protocol, Sequence

import core

from .commitments import (TAG_LOG, ZERO, canonical, deck_root, engine_order, entry_hash, inverse, pack, public_commits,
                          public_items, slot_hash)
from .identity import Identity
from .messages import MAX_ENTRY

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


class Orders(Protocol):
    """What the engine's deck source asks of the dealer (:class:`net.dealer.Dealer`)."""

    secrets: dict[int, EpochSecret]

    def order_for(self, sec: EpochSecret) -> list[Any]: ...

    def consumed(self, sec: EpochSecret) -> None: ...


class Unsettled(LookupError):
    """The engine asked for an order the fair deal has not settled: the host skipped a chance node (a bug)."""


class FairSource:
    """The host engine's deck source: orders fixed by the protocol, nothing else.

    Asked by :meth:`net.dealer.Dealer.settle` for the order to hand to the game (which marks
    the epoch's cards as dealt from it); the game itself asks only if the host
    failed to settle a shuffle first.
    """

    def __init__(self, dealer: Orders) -> None:
        self.dealer = dealer

    def shuffle(self, items: Sequence[Any], epoch: int) -> list[Any]:
        sec = self.dealer.secrets.get(epoch)
        if sec is None or sec.items != canonical(items):
            raise Unsettled(f"epoch {epoch} was not settled by the fair deal")
        self.dealer.consumed(sec)
        if sec.public is not None:
            return list(self.dealer.order_for(sec))  # public tokens: the strings themselves
        by_id = {c.id: c for c in items}
        return [by_id[i] for i in self.dealer.order_for(sec)]
