"""What the log shows a peer of each epoch of the fair deal and of each step of play (the ledger's records)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from core import Card


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


def cards_word(ids: Iterable[int], deck: Sequence[Card]) -> str:
    return ", ".join(f"{deck[i]} (id {i})" if 0 <= i < len(deck) else f"id {i}" for i in ids)
