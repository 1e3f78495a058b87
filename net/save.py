"""The host's save file: written after every action, atomically.

The save is a msgpack map holding the whole table: the game
(:meth:`core.Game.to_dict`), the seats with their resume tokens, the lobby
settings and the record of moves. It is written to a temporary file in the
same directory and moved over the old one with :func:`os.replace`, which is
atomic: a crash leaves either the old save or the new one, never half of
one. It is not fsync'ed: that guards against a crash of the host process
(the case ``--resume`` is for), not against a power cut, and keeps the
per-action cost well under a millisecond.

The file holds the seats' resume tokens, so it is created readable by its
owner only.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import msgpack

SAVE_FORMAT = "uno-tui/host-save"
SAVE_VERSION = 1


def default_save_path() -> Path:
    """``$XDG_STATE_HOME/uno-tui/host.save`` (``~/.local/state/...`` by default)."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "uno-tui" / "host.save"


def write_save(path: str | os.PathLike[str], data: dict[str, Any]) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    blob = msgpack.packb({"format": SAVE_FORMAT, "save_version": SAVE_VERSION, **data}, use_bin_type=True)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(blob)
    except BaseException:
        try:
            os.unlink(tmp)
        finally:
            raise
    os.replace(tmp, path)


def read_save(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Load a save; raises :class:`ValueError` naming what is wrong with it."""
    try:
        blob = Path(path).read_bytes()
    except FileNotFoundError:
        raise ValueError(f"there is no saved game at {path}") from None
    try:
        data = msgpack.unpackb(blob, raw=False, strict_map_key=False)
    except Exception as e:
        raise ValueError(f"{path} is not a readable save ({type(e).__name__})") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise ValueError(f"{path} is not an uno-tui host save")
    if data.get("save_version") != SAVE_VERSION:
        raise ValueError(f"{path} was saved by another version of uno-tui (save format {data.get('save_version')})")
    return data
