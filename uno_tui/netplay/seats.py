"""Seat tokens remembered between runs, so ``uno-tui join`` after a closed terminal takes the seat back.

The host gives each person's seat a resume token. The client uses it by
itself while it runs; this file keeps it after it stops, keyed by the table's
address and the player's name (two players on one machine keep their own).
The file is private (mode 0600): a token is the seat's only secret.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

MAX_KEPT = 20


def tokens_path() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "uno-tui" / "seats.json"


def _key(address: str, name: str) -> str:
    return f"{name}@{address}"


def _load() -> dict[str, str]:
    try:
        data = json.loads(tokens_path().read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}


def _store(data: dict[str, str]) -> None:
    path = tokens_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump(dict(list(data.items())[-MAX_KEPT:]), f)
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only home only costs the convenience


def load_token(address: str, name: str) -> str | None:
    return _load().get(_key(address, name))


def save_token(address: str, name: str, token: str) -> None:
    data = _load()
    data.pop(_key(address, name), None)  # newest last: the oldest are dropped first
    data[_key(address, name)] = token
    _store(data)


def forget_token(address: str, name: str) -> None:
    data = _load()
    if data.pop(_key(address, name), None) is not None:
        _store(data)
