"""A sealed table's transcript, and ``uno-tui audit`` of one.

The transcript is the host's signed log as every peer received it, after the ``start`` that names
the table: nothing in it is secret (the private keys travel in sealed boxes to their recipients,
and each round's seeds are opened at its end for the audit). The host writes one, and so does each
client, from its own copy of the log: a player can audit the match without trusting the host's file.

The audit is a spectator's peer run over the file: it makes the walk every peer made, checks every
signature, pass, share and envelope as it comes, and at each round's end opens the round, recomputes
every pass (:func:`net.sealed.audit_round`) and replays the engine over the faces (:func:`core.replay`),
so a substituted card or a false claim is found and named. A file cut short (a crash, a match left)
verifies the rounds it holds whole.

On disk: :data:`MAGIC`, then msgpack values one after another: a header ``{format, v, start}``,
then each log entry ``{from, m, s}``. Each is written and flushed as it comes.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any, BinaryIO

import msgpack

from ..transcript import FAILED, INCOMPLETE, NOT_A_TRANSCRIPT, VERIFIED, AuditResult
from .lockstep import SealedPeer
from .room import StartRefused, check_start
from .signed import Alarm, Voided

MAGIC = b"uno-tui sealed transcript\n"
FORMAT = "uno-tui/sealed-transcript"
VERSION = 1
SUFFIX = ".unosx"


class SealedTranscript:
    """Appends a sealed table's start and log entries to one file, each flushed as it comes."""

    def __init__(self, path: Path, f: BinaryIO) -> None:
        self.path, self._f = path, f

    @classmethod
    def create(cls, directory: str | Path, name: str, start: dict[str, Any]) -> "SealedTranscript":
        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path, n = d / f"{name}-{stamp}{SUFFIX}", 1
        while path.exists():
            n += 1
            path = d / f"{name}-{stamp}-{n}{SUFFIX}"
        w = cls(path, open(path, "xb"))
        w._f.write(MAGIC)
        w._write({"format": FORMAT, "v": VERSION, "start": {**start, "pid": None}})
        return w

    def _write(self, value: Any) -> None:
        if self._f.closed:
            return
        try:
            self._f.write(msgpack.packb(value, use_bin_type=True))
            self._f.flush()
        except OSError:  # a full disk: the file ends here, and its audit says it is cut short
            self._f.close()

    def entry(self, entry: dict[str, Any]) -> None:
        self._write(entry)

    def close(self) -> None:
        if not self._f.closed:
            self._f.close()


class _Cut(Exception):
    """The log ended before the match did."""


class _Auditor(SealedPeer):
    """A spectator's peer over a whole file: an empty inbox is the end of the file."""

    async def _read(self) -> tuple[int, dict[str, Any]]:
        if self.inbox.empty():
            self._check_signatures()  # every entry's, those a table's peer checks once its log is quiet too
            raise _Cut()
        return await super()._read()

    def send(self, body: dict[str, Any]) -> None:  # pragma: no cover  (a spectator sends nothing)
        raise AssertionError("the auditor sends nothing")


def is_sealed(data: bytes) -> bool:
    return data.startswith(MAGIC)


def audit_data(data: bytes) -> AuditResult:
    """The verdict on a sealed transcript's bytes."""
    if not is_sealed(data):
        return AuditResult(NOT_A_TRANSCRIPT, "not a sealed table's transcript", code="usage")
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False, max_buffer_size=len(data) + 1)
    unpacker.feed(data[len(MAGIC):])
    values: list[Any] = []
    cut = False
    try:
        for v in unpacker:
            values.append(v)
    except Exception:  # noqa: BLE001  (msgpack raises several types for a damaged tail)
        cut = True
    if not values or not isinstance(values[0], dict) or values[0].get("format") != FORMAT:
        return AuditResult(INCOMPLETE if not values else NOT_A_TRANSCRIPT,
                           "incomplete: the transcript is empty" if not values else "not a sealed table's transcript",
                           code="usage")
    if values[0].get("v") != VERSION:
        return AuditResult(NOT_A_TRANSCRIPT, f"a sealed transcript of version {values[0].get('v')!r}: this "
                                             f"uno-tui reads version {VERSION}", code="usage")
    start = values[0].get("start")
    try:
        if not isinstance(start, dict):
            raise StartRefused("the header holds no start")
        check_start(start, None)
    except StartRefused as e:
        return AuditResult(FAILED, f"start: {e.reason}", code="start")
    entries = values[1:]
    if not all(isinstance(e, dict) for e in entries):
        return AuditResult(FAILED, "transcript: a log entry is not a map", code="transcript")
    return asyncio.run(_audit(start, entries, cut))


async def _audit(start: dict[str, Any], entries: list[dict[str, Any]], cut: bool) -> AuditResult:
    peer = _Auditor(variant=start["variant"], names=list(start["names"]), options=start["options"],
                    game_id=start["game"], roster={p: i for p, i in start["roster"]}, owners=start["owners"],
                    pid=None, identity=None, send=lambda _body: None, bot_level=start["level"],
                    rounds=start["rounds"])
    for e in entries:
        peer.feed(e)
    ended = ""
    try:
        await peer.run()
    except _Cut:
        ended = "the log ends" + (" in a damaged record" if cut else "") + " before the match does"
    except Voided as v:
        ended = f"round {v.round + 1} is void: {v.why}"
    except Alarm as a:
        return AuditResult(FAILED, f"{a.fault.code}: {a.fault}", rounds=len(peer.audits), code=a.fault.code)
    except Exception as e:  # noqa: BLE001  (a log this walk cannot follow: a failure, never a crash)
        return AuditResult(FAILED, f"transcript: the log cannot be followed ({type(e).__name__}: {e})",
                           rounds=len(peer.audits), code="transcript")
    rounds = len(peer.audits)
    for r, audit in enumerate(peer.audits):
        if audit.false_claims:
            f = audit.false_claims[0]
            return AuditResult(FAILED, f"claim: round {r + 1}: seat {f.seat + 1} ({peer.names[f.seat]}) made a "
                                       f"false claim: {f.words}", rounds=r, code="claim")
    scores = ""
    if peer.game is not None:
        scores = "; scores " + ", ".join(f"{n} {s}" for n, s in zip(peer.names, peer.game.scores))
    if rounds == 0:
        return AuditResult(INCOMPLETE, f"incomplete: no round closed in it ({ended or 'empty'})", code="incomplete")
    text = (f"verified: {rounds} round(s) of a sealed {start['variant']} table, every pass, share, envelope and "
            f"claim checked{scores}")
    return AuditResult(VERIFIED, text + (f" ({ended})" if ended else ""), rounds=rounds)


def audit_path(path: str | Path) -> AuditResult:
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        return AuditResult(NOT_A_TRANSCRIPT, f"cannot read {path}: {e.strerror or e}", code="usage")
    return audit_data(data)


__all__ = ["MAGIC", "SUFFIX", "SealedTranscript", "audit_data", "audit_path", "is_sealed"]
