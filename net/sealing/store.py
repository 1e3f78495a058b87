"""Where a participant keeps its round secrets: synced to disk before anything that depends on them leaves."""

from __future__ import annotations

import os
from pathlib import Path

import msgpack


class SecretStore:
    """Where a participant keeps its round secrets (a file, written and synced before anything that
    depends on it leaves; every round of the match, so that a restart can read the log from its
    start)."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self.rounds: dict[int, bytes] = {}
        if self.path is not None and self.path.exists():
            data = msgpack.unpackb(self.path.read_bytes(), raw=False, strict_map_key=False)
            self.rounds = {int(r): bytes(b) for r, b in data.items()}

    def save(self, round_no: int, secret: bytes) -> None:
        self.rounds[round_no] = secret
        if self.path is None:
            return
        tmp = self.path.with_suffix(".tmp")
        with open(tmp, "wb") as f:
            f.write(msgpack.packb(self.rounds, use_bin_type=True))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)

    def load(self, round_no: int) -> bytes | None:
        return self.rounds.get(round_no)
