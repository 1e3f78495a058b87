"""The game record: seed, seats, deck orders and every move, enough to replay a match.

The deck orders come from the fair deal (one list per epoch, in the engine's
order: card ids, or the token names of a shuffle of public tokens); ``core.new_game(variant, names, options=options,
source=...)`` with a source serving those orders, followed by the recorded
moves (and ``next_round()`` between rounds), rebuilds the match exactly;
:func:`replay` does so and checks every move is legal. Without orders (a
host given a seeded source) the seed alone replays it. The record is what
``host --record PATH`` writes (as JSON, the seed in hex). It is a
convenience, not evidence: nothing in it is signed, and ``uno-tui audit``
refuses it (:func:`is_record`); the signed transcript (:mod:`net.transcript`)
is the evidence.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import msgpack

import core
from core import Action

from .save import Packed, PartList, Parts

RECORD_FORMAT = "uno-tui/record"


class Record:
    """Moves of one match, round by round."""

    def __init__(self, variant: str, names: list[str], options: dict[str, Any], seed: bytes) -> None:
        self.variant = variant
        self.names = list(names)
        self.options = dict(options)
        self.seed = seed
        self.rounds: list[dict[str, Any]] = []
        self.orders: dict[int, list[int]] = {}
        """Epoch -> the engine's order for it (from the fair deal): card ids, or public tokens (strings)."""
        self._packed_rounds: list[bytes] = []
        self._packed_orders: tuple[tuple[int, ...], bytes] | None = None

    def start_round(self, number: int) -> None:
        self.rounds.append({"round": number, "moves": [], "winner": None, "points": None})

    def add(self, seat: int, action: Action, auto: bool) -> None:
        # [seat, action, auto]: auto marks a move a bot made for an away or timed-out player.
        self.rounds[-1]["moves"].append([seat, action.to_dict(), auto])

    def end_round(self, winner: int | None, points: int | None) -> None:
        self.rounds[-1]["winner"] = winner
        self.rounds[-1]["points"] = points

    def to_dict(self) -> dict[str, Any]:
        return {"format": RECORD_FORMAT, "variant": self.variant, "names": self.names,
                "options": self.options, "seed": self.seed, "rounds": self.rounds,
                "orders": {str(e): ids for e, ids in self.orders.items()}}

    def to_save(self) -> Parts:
        """:meth:`to_dict` for the host's save, after every action: what cannot change is packed once.

        Every round but the last is over, and an epoch's order never changes once known.
        """
        done = len(self.rounds) - 1
        packed = self._packed_rounds
        while len(packed) < done:
            packed.append(msgpack.packb(self.rounds[len(packed)], use_bin_type=True))
        keys = tuple(self.orders)
        if self._packed_orders is None or self._packed_orders[0] != keys:
            self._packed_orders = (keys, msgpack.packb({str(e): ids for e, ids in self.orders.items()},
                                                       use_bin_type=True))
        return Parts({"format": RECORD_FORMAT, "variant": self.variant, "names": self.names,
                      "options": self.options, "seed": self.seed,
                      "rounds": PartList([Packed(b) for b in packed[:done]] + self.rounds[done:]),
                      "orders": Packed(self._packed_orders[1])})

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Record":
        r = cls(d["variant"], list(d["names"]), dict(d["options"]), bytes(d["seed"]))
        r.rounds = [dict(x) for x in d["rounds"]]
        r.orders = {int(e): list(ids) for e, ids in d.get("orders", {}).items()}
        return r

    def to_json(self, scores: list[int] | None = None, match_winner: int | None = None) -> str:
        d = self.to_dict()
        d["seed"] = self.seed.hex()
        d["scores"] = scores
        d["match_winner"] = match_winner
        return json.dumps(d, separators=(",", ":"))

    def write_json(self, path: str | os.PathLike[str], scores: list[int] | None = None,
                   match_winner: int | None = None) -> None:
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(self.to_json(scores, match_winner) + "\n", encoding="utf-8")
        os.replace(tmp, path)


def is_record(data: bytes) -> bool:
    """Whether ``data`` is a moves record as :meth:`Record.write_json` writes it."""
    if data.lstrip()[:1] != b"{":
        return False
    try:
        d = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        return False
    return isinstance(d, dict) and d.get("format") == RECORD_FORMAT


def replay(record: dict[str, Any]) -> core.Game:
    """Rebuild the game a record (``to_dict`` or parsed JSON) describes, checking each move."""
    seed = record["seed"]
    seed = bytes.fromhex(seed) if isinstance(seed, str) else bytes(seed)
    orders = {int(e): list(ids) for e, ids in (record.get("orders") or {}).items()}
    source = _RecordedSource(orders) if orders else None
    game = core.new_game(record["variant"], list(record["names"]), seed=seed, options=dict(record["options"]),
                         source=source)
    for i, rnd in enumerate(record["rounds"]):
        if i:
            game.next_round()
        for seat, action, _auto in rnd["moves"]:
            game.apply(seat, Action.from_dict(action))
    return game


class _RecordedSource:
    def __init__(self, orders: dict[int, list[int]]) -> None:
        self.orders = orders

    def shuffle(self, items: Any, epoch: int) -> list[Any]:
        order = self.orders.get(epoch)
        if items and all(isinstance(x, str) for x in items):  # public tokens: the order is the tokens
            if order is None or not all(isinstance(x, str) for x in order) or sorted(order) != sorted(items):
                raise ValueError(f"the record holds no order of these tokens for epoch {epoch}")
            return list(order)
        by_id = {c.id: c for c in items}
        if order is None or not all(isinstance(x, int) for x in order) or sorted(order) != sorted(by_id):
            raise ValueError(f"the record holds no order of these cards for epoch {epoch}")
        return [by_id[i] for i in order]
