"""The host's save: written after every action, in two slots taken in turn.

The save is a msgpack map holding the whole table: the game
(:meth:`core.Game.to_dict`), the seats with their resume tokens, the lobby
settings and the record of moves. It lives in two files, the save path
itself and ``PATH.b``, written in turn (:class:`SaveWriter`): each write goes
to the slot that does *not* hold the newest save, as one ``pwrite`` into a
file kept open, behind a header with a sequence number, the length and a
CRC-32 of the body. A crash in the middle of a write leaves that slot torn
(its CRC fails) and the other slot whole, one save older; :func:`read_save`
takes the newest slot that checks. So a crash of the host process loses at
most the save being written when it struck, never the one before it.

This replaces a temporary file moved into place with :func:`os.replace`
after every action: creating and renaming a file cost 0.3-3 ms on this
machine's file system (the largest part of an action), a ``pwrite`` into an
open file a few microseconds. Neither is fsync'ed: the point is surviving a
crash of the host process (what ``--resume`` is for), not a power cut.

The files hold the seats' resume tokens, so they are created readable by
their owner only. A save written by the older single-file format (a bare
msgpack map) is still read.
"""

from __future__ import annotations

import os
import struct
import zlib
from pathlib import Path
from typing import Any

import msgpack

SAVE_FORMAT = "uno-tui/host-save"
SAVE_VERSION = 1

MAGIC = b"UNOSAVE2"
_HEAD = struct.Struct(">8sQII")
"""magic, sequence number, body length, CRC-32 of the body."""


class Packed:
    """A part of a save already packed: put in as its bytes (parts that do not change between saves)."""

    __slots__ = ("data",)

    def __init__(self, data: bytes) -> None:
        self.data = data


class Parts(dict):  # type: ignore[type-arg]
    """A map in a save some of whose values are :class:`Packed` (or :class:`Parts`, :class:`PartList`)."""


class PartList(list):  # type: ignore[type-arg]
    """A list in a save some of whose items are :class:`Packed` (or :class:`Parts`, :class:`PartList`)."""


_packer = msgpack.Packer(use_bin_type=True)


def pack(obj: Any) -> bytes:
    """msgpack of ``obj``, with the packed parts spliced in byte for byte.

    A map or a list's encoding is its header followed by its items' encodings,
    so the result is exactly what ``msgpack.packb`` gives for the same data.
    """
    kind = type(obj)
    if kind is Packed:
        return obj.data
    if kind is Parts:
        return _packer.pack_map_header(len(obj)) + b"".join(_packer.pack(k) + pack(v) for k, v in obj.items())
    if kind is PartList:
        return _packer.pack_array_header(len(obj)) + b"".join(pack(x) for x in obj)
    return _packer.pack(obj)


def default_save_path() -> Path:
    """``$XDG_STATE_HOME/uno-tui/host.save`` (``~/.local/state/...`` by default)."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "uno-tui" / "host.save"


def slot_paths(path: str | os.PathLike[str]) -> tuple[Path, Path]:
    """The two files of the save at ``path``: the path itself and ``PATH.b``."""
    p = Path(path)
    return p, p.with_name(p.name + ".b")


def _read_slot(path: Path) -> tuple[int, bytes] | None:
    """(sequence number, body) of a slot that checks; None if missing, torn or not in slot form."""
    try:
        with open(path, "rb") as f:
            head = f.read(_HEAD.size)
            if len(head) < _HEAD.size:
                return None
            magic, seq, length, crc = _HEAD.unpack(head)
            if magic != MAGIC:
                return None
            body = f.read(length)
    except (FileNotFoundError, IsADirectoryError):
        return None
    if len(body) != length or zlib.crc32(body) != crc:
        return None
    return seq, body


def _newest(path: str | os.PathLike[str]) -> tuple[int, int, bytes] | None:
    """(slot index, sequence number, body) of the newest slot that checks."""
    best: tuple[int, int, bytes] | None = None
    for i, p in enumerate(slot_paths(path)):
        got = _read_slot(p)
        if got is not None and (best is None or got[0] > best[1]):
            best = (i, got[0], got[1])
    return best


class SaveWriter:
    """Writes saves to the two slots of ``path`` in turn, through files kept open."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._paths = slot_paths(self.path)
        self._fds: list[int | None] = [None, None]
        self._sizes = [-1, -1]
        newest = _newest(self.path)
        # Numbering goes on from what is there (a resumed game, or an old game's files),
        # so the slot written next is always the newest; it is the other slot than the newest.
        self.seq = newest[1] if newest is not None else 0
        self._next = 1 - newest[0] if newest is not None else 0
        if newest is None and self.path.exists():
            self._next = 1  # a save in the older single-file format: keep it until a new one is whole

    def write(self, data: dict[str, Any]) -> None:
        """Write ``data`` (which may hold :class:`Packed` parts) as the newest save."""
        blob = pack(Parts({"format": SAVE_FORMAT, "save_version": SAVE_VERSION, **data}))
        self.seq += 1
        frame = _HEAD.pack(MAGIC, self.seq, len(blob), zlib.crc32(blob)) + blob
        slot = self._next
        fd = self._fds[slot]
        if fd is None:
            fd = self._fds[slot] = os.open(self._paths[slot], os.O_RDWR | os.O_CREAT, 0o600)
            self._sizes[slot] = os.fstat(fd).st_size
        view = memoryview(frame)
        done = 0
        while done < len(frame):  # a regular file takes it in one call; a signal could cut it short
            done += os.pwrite(fd, view[done:], done)
        if self._sizes[slot] > len(frame):
            os.ftruncate(fd, len(frame))  # not needed to read it back, only to keep the file tidy
        self._sizes[slot] = len(frame)
        self._next = 1 - slot

    def close(self) -> None:
        for i, fd in enumerate(self._fds):
            if fd is not None:
                self._fds[i] = None
                try:
                    os.close(fd)
                except OSError:
                    pass


def write_save(path: str | os.PathLike[str], data: dict[str, Any]) -> None:
    """Write one save (a host keeps a :class:`SaveWriter` open instead)."""
    writer = SaveWriter(path)
    try:
        writer.write(data)
    finally:
        writer.close()


def read_save(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Load the newest whole save; raises :class:`ValueError` naming what is wrong with it."""
    newest = _newest(path)
    if newest is not None:
        blob = newest[2]
    else:
        try:
            blob = Path(path).read_bytes()  # the older single-file format, or not a save at all
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
