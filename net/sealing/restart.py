"""What a peer sends, and what it does not send twice: a restarted peer (its process, or its host's,
killed and started again) walks the log from its start and makes every message again (a part of
:class:`net.sealing.SealedPeer`).

The walk is deterministic: it makes this peer's keys, passes, shares, reveals and verdicts again, in
the same order, from the secrets saved before they first left, so the first :attr:`already` of
them (less the moves) are in the log already and are not sent again. A move is another thing: a
person's is not made again by the walk (nobody presses the key twice), and a bot's may be, so moves
are never counted; a move the log holds at the same round, version and action is simply not sent.
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable

import msgpack

from ..identity import Identity
from .signed import sign


class SecretsLost(RuntimeError):
    """A restarted peer's round secret is not on disk, though the log holds what it announced with it:
    it cannot make its messages again, and a new key would be reported by every peer as a bad one. Its
    own error, told to its person, never an alarm about anyone (nobody cheated: a file was lost)."""


class Restart:
    """A peer's sending and feeding, restart-safe (a base of :class:`~net.sealing.SealedPeer`)."""

    identity: Identity | None
    pid: int | None
    already: int
    inbox: asyncio.Queue[dict[str, Any]]
    _send: Callable[[dict[str, Any]], None]
    _sent: int
    _my_moves: set[tuple[Any, Any, bytes]]
    _backlog_moves: int
    _running: bool
    _check_signatures: Callable[..., None]
    _vouched: dict[bytes, tuple[int, bytes]]

    def send(self, body: dict[str, Any]) -> None:
        assert self.identity is not None
        # Every signature set aside is checked before this peer signs anything (waiting.py): nothing it
        # sends rests on an entry its author did not sign (a forged move dealing a card, say). Keys it
        # deals rest on the moves alone: others' keys dealt may wait for a quiet log still.
        self._check_signatures(keys_too=body.get("k") != "sdeal")
        if body.get("k") == "smove":  # a move is never counted: a person's is not made again by the walk
            if self._move_key(body) in self._my_moves:
                return  # this very move is in the log already (sent before a restart)
            self._send(self._signed(body))
            return
        self._sent += 1
        if self._sent <= self.already - self._backlog_moves:
            return  # in the log already (sent before a restart)
        self._send(self._signed(body))

    def _signed(self, body: dict[str, Any]) -> dict[str, Any]:
        """``body`` signed; when the log brings it back, this peer knows the signature for its own."""
        assert self.identity is not None and self.pid is not None
        out = sign(self.identity, body)
        self._vouched[out["s"]] = (self.pid, out["m"])
        return out

    def _check_secrets(self) -> None:
        """Before this peer makes a round secret afresh: the log must not hold its messages past here."""
        if self._sent < self.already - self._backlog_moves:
            raise SecretsLost(f"this player's round secrets were not kept (participant {self.pid}): it cannot "
                              "go on with the round it had begun; the table waits for it until its grace is over")

    @staticmethod
    def _move_key(body: dict[str, Any]) -> tuple[Any, Any, bytes]:
        return body.get("r"), body.get("v"), msgpack.packb(body.get("a"), use_bin_type=True)

    def vouch(self, author: int, m: bytes, s: bytes) -> None:
        """Signature ``s`` of ``author`` over ``m`` was checked already, in this process (the host's
        relay checks each participant's message as it takes it into the log): when the log brings
        that very entry, this peer does not check it again."""
        self._vouched[s] = (author, m)

    def feed(self, entry: dict[str, Any]) -> None:
        if self.pid is not None and entry.get("from") == self.pid and isinstance(entry.get("m"), bytes):
            try:  # this peer's own moves in the log (checked, like every entry, when the walk reads it)
                body = msgpack.unpackb(entry["m"], raw=False)
            except Exception:  # noqa: BLE001
                body = None
            if isinstance(body, dict) and body.get("k") == "smove":
                self._my_moves.add(self._move_key(body))
                if not self._running:
                    self._backlog_moves += 1
        self.inbox.put_nowait(entry)


__all__ = ["Restart", "SecretsLost"]
