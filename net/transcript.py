"""Transcripts on disk, and the offline audit (``uno-tui audit FILE``).

Every peer (and the host) writes what it received and signed to a
transcript file: a stream of msgpack maps, one per record:

* ``{"t": "head", "format": "uno-tui/transcript", "v": 2, "me": key, "seat": n|nil, "host": key}``
  - who wrote it (always first);
* ``{"t": "log", "e": bytes, "sig": bytes}`` - a log entry of the host;
* ``{"t": "deliver", "m": bytes, "sig": bytes}`` - cards delivered to this seat;
* ``{"t": "ruling", "m": bytes, "sig": bytes}`` - a challenge ruling shown to this seat;
* ``{"t": "sent", "m": bytes, "sig": bytes}`` - a message this peer signed;
* ``{"t": "sync", "len": n, "head": bytes}`` - the host restarted from its
  save and the log goes on from entry ``n``;
* ``{"t": "evidence", "i": n, "m": bytes, "sig": bytes}`` - log entry ``n``
  strikes this seat for an answer it says never came; ``m`` is the answer this
  peer signed and sent (its ``sent`` record is earlier in the file).

The audit reads it strictly: each record must be the canonical msgpack
encoding of a known record (so no byte can change without notice), every
signature must verify, the log must chain, and every round closed in it is
audited as the peer did at the table (:meth:`net.fair.Ledger.audit_round`).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, BinaryIO

import msgpack

from .fair import TAG_PEER, Ledger, Unfair, entry_hash, unpack
from .identity import verify

FORMAT = "uno-tui/transcript"
SUFFIX = ".unotx"


def default_transcript_dir() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "uno-tui" / "transcripts"


class TranscriptWriter:
    """Appends records to one transcript file: each on disk at once, or (``batched``) at :meth:`flush`.

    A batched writer's owner flushes on its event loop's next turn, so the
    records of one frame from the host reach the disk in one write, after the
    frame was acted on.
    """

    def __init__(self, path: Path, f: BinaryIO, *, batched: bool = False) -> None:
        self.path = path
        self._f = f
        self._batch: list[bytes] | None = [] if batched else None

    @classmethod
    def create(cls, directory: str | os.PathLike[str], name: str, *, me: bytes | None, seat: int | None,
               host: bytes | None, batched: bool = False) -> "TranscriptWriter":
        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = d / f"{name}-{stamp}{SUFFIX}"
        n = 1
        while path.exists():
            n += 1
            path = d / f"{name}-{stamp}-{n}{SUFFIX}"
        f = open(path, "xb")
        w = cls(path, f, batched=batched)
        w._write({"t": "head", "format": FORMAT, "v": 2, "me": me, "seat": seat, "host": host})
        return w

    def _write(self, rec: dict[str, Any]) -> None:
        if self._f.closed:
            return
        data = msgpack.packb(rec, use_bin_type=True)
        if self._batch is not None:
            self._batch.append(data)
            return
        self._f.write(data)
        self._f.flush()

    def flush(self) -> None:
        if self._batch and not self._f.closed:
            data = b"".join(self._batch)
            self._batch.clear()
            self._f.write(data)
            self._f.flush()

    def log(self, e: bytes, sig: bytes) -> None:
        self._write({"t": "log", "e": e, "sig": sig})

    def private(self, kind: str, m: bytes, sig: bytes) -> None:
        self._write({"t": kind, "m": m, "sig": sig})

    def sync(self, length: int, head: bytes) -> None:
        self._write({"t": "sync", "len": length, "head": head})

    def evidence(self, index: int, m: bytes, sig: bytes) -> None:
        self._write({"t": "evidence", "i": index, "m": m, "sig": sig})

    def close(self) -> None:
        self.flush()
        self._f.close()


_FIELDS = {
    "head": {"t", "format", "v", "me", "seat", "host"},
    "log": {"t", "e", "sig"},
    "deliver": {"t", "m", "sig"},
    "ruling": {"t", "m", "sig"},
    "sent": {"t", "m", "sig"},
    "sync": {"t", "len", "head"},
    "evidence": {"t", "i", "m", "sig"},
}


def read_records(data: bytes) -> list[dict[str, Any]]:
    """Parse a transcript strictly; raises :class:`Unfair` (code ``transcript``)."""
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=True)
    unpacker.feed(data)
    out = []
    pos = 0
    while True:
        try:
            rec = unpacker.unpack()
        except msgpack.OutOfData:
            break
        except Exception as e:
            raise Unfair("transcript", f"unreadable at byte {pos} ({type(e).__name__})") from None
        end = unpacker.tell()
        raw = data[pos:end]
        if not isinstance(rec, dict) or msgpack.packb(rec, use_bin_type=True) != raw:
            raise Unfair("transcript", f"the record at byte {pos} is not in canonical form")
        kind = rec.get("t")
        if kind not in _FIELDS or set(rec) != _FIELDS[kind]:
            raise Unfair("transcript", f"the record at byte {pos} is not a known record")
        out.append(rec)
        pos = end
    if pos != len(data):
        raise Unfair("transcript", f"{len(data) - pos} stray bytes at the end")
    if not out or out[0]["t"] != "head" or out[0]["format"] != FORMAT or out[0]["v"] != 2:
        raise Unfair("transcript", "not an uno-tui transcript (no header)")
    if any(r["t"] == "head" for r in out[1:]):
        raise Unfair("transcript", "a second header in the middle")
    return out


def audit_records(records: list[dict[str, Any]]) -> tuple[int, int, str]:
    """Audit a parsed transcript; returns (rounds verified, matches, a note). Raises :class:`Unfair`."""
    head = records[0]
    host, me, seat = head["host"], head["me"], head["seat"]
    if not isinstance(host, bytes) or len(host) != 32:
        raise Unfair("transcript", "the header names no host key")
    if seat is not None and not isinstance(seat, int):
        raise Unfair("transcript", "the header's seat is not a number")
    ledger = Ledger(host, seat=seat, me=me)
    rounds = 0
    pending: list[dict[str, Any]] = []
    note = ""

    def feed_private(rec: dict[str, Any]) -> None:
        if rec["t"] == "deliver":
            ledger.add_delivery(rec["m"], rec["sig"])
        elif rec["t"] == "ruling":
            ledger.add_ruling(rec["m"], rec["sig"])
        elif rec["t"] == "sent":
            if not isinstance(me, bytes) or not verify(me, rec["sig"], TAG_PEER, rec["m"]):
                raise Unfair("signature", "a message this peer sent is not signed by its key")

    for rec in records[1:]:
        t = rec["t"]
        if t == "log":
            for act in ledger.add_entry(rec["e"], rec["sig"]):
                if act[0] == "audit":
                    ledger.audit_round()
                    rounds += 1
            still = []
            for p in pending:
                try:
                    feed_private(p)
                except Unfair:
                    still.append(p)
            pending = still
        elif t == "sync":
            length = rec["len"]
            if length < len(ledger.entries):
                if length and entry_hash(ledger.entries[length - 1][0]) != rec["head"]:
                    raise Unfair("chain", "the host restarted on a log that forks from this one")
                ledger = ledger.rebuilt(length)
                note = f"the host restarted from its save and went back to log entry {length}"
        else:
            if t == "deliver" and unpack(rec["m"]).get("i", 0) >= len(ledger.entries):
                pending.append(rec)  # it arrived before the entry it follows was fed
                continue
            feed_private(rec)
    for p in pending:
        feed_private(p)
    return rounds, ledger.matches, note


def audit_file(path: str | os.PathLike[str]) -> tuple[bool, str]:
    """``uno-tui audit FILE``: (verified, what was found in words)."""
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        return False, f"cannot read {path}: {e.strerror or e}"
    try:
        records = read_records(data)
        rounds, matches, note = audit_records(records)
    except Unfair as u:
        return False, f"{u.code}: {u.reason}"
    except Exception as e:  # damaged beyond what the checks name: still a failure, never a crash
        return False, f"transcript: the file is damaged ({type(e).__name__}: {e})"
    text = f"verified: {rounds} round{'s' if rounds != 1 else ''} audited"
    if note:
        text += f" ({note})"
    return True, text
