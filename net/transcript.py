"""Transcripts on disk, and the offline audit (``uno-tui audit FILE``).

Every peer (and the host) writes what it received and signed to a
transcript file: a stream of msgpack maps, one per record:

* ``{"t": "head", "format": "uno-tui/transcript", "v": 3, "me": key, "seat": n|nil, "host": key,
  "n0": n|nil}`` - who wrote it (always first); ``n0`` is the writer's signing
  counter when the file began: every message it signs later has ``n > n0``;
* ``{"t": "log", "e": bytes, "sig": bytes}`` - a log entry of the host;
* ``{"t": "deliver", "m": bytes, "sig": bytes}`` - cards delivered to this seat;
* ``{"t": "ruling", "m": bytes, "sig": bytes}`` - a challenge ruling shown to this seat;
* ``{"t": "sent", "m": bytes, "sig": bytes}`` - a message this peer signed;
* ``{"t": "sync", "len": n, "head": bytes}`` - a (re)connection: the host's log
  has ``n`` entries (fewer than this file holds when the host restarted from
  its save: the log goes on from entry ``n``), and the host resends this
  seat's deliveries of the round;
* ``{"t": "evidence", "i": n, "m": bytes, "sig": bytes}`` - log entry ``n``
  strikes this seat for an answer it says never came; ``m`` is the answer this
  peer signed and sent (its ``sent`` record is earlier in the file);
* ``{"t": "seal", "why": str, "n": n, "chain": bytes, "sig": bytes}`` - the
  writer vouches for the ``n`` records before it: ``chain`` is the running
  hash of their exact bytes, ``sig`` the writer's identity key over
  ``chain``, ``n`` and ``why`` (``over``: the match ended; ``left``: this peer
  left; ``closed``: the host closed its table). Records may follow a seal (a
  rematch, the verdict sent after it) and another seal then covers them too.

The audit reads it strictly: each record must be the canonical msgpack
encoding of a known record (so no byte can change without notice), every
signature must verify, the log must chain, and every round closed in it is
audited as the peer did at the table (:meth:`net.fair.Ledger.audit_round`).
It also checks that the file is whole: every seal covers exactly the
records before it; every message of this peer that the log holds (signed
after the file began) has its ``sent`` record before it; every receipt of
this peer names a delivery the file holds; no record is repeated (but for a
delivery the host resends after a reconnection); and no ``sent`` or
``deliver`` record belongs to another game, seat or session.

The verdict (:class:`AuditResult`), also ``uno-tui audit``'s exit status:

* ``0`` verified: every check passed, at least one round was audited, and
  the file ends with a seal;
* ``1`` a fraud or a broken record, with the reason;
* ``2`` not a transcript to audit: a missing file, or a moves record
  (:mod:`net.record`) given instead;
* ``3`` incomplete: nothing wrong in it, but it ends without a seal (its
  writer crashed, or the file was cut short), or no round was closed in it.
"""

from __future__ import annotations

import hashlib
import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Iterator

import msgpack

from .fair import TAG_PEER, ZERO, Ledger, Unfair, entry_hash, unpack
from .identity import Identity, verify

log = logging.getLogger(__name__)

FORMAT = "uno-tui/transcript"
VERSION = 3
SUFFIX = ".unotx"
TAG_CHAIN = b"uno-tui/transcript-chain/v3\0"
TAG_SEAL = b"uno-tui/transcript-seal/v3\0"
MAX_WHY = 40

VERIFIED, FAILED, NOT_A_TRANSCRIPT, INCOMPLETE = 0, 1, 2, 3
"""The audit's verdicts, which are also ``uno-tui audit``'s exit statuses."""


def default_transcript_dir() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "uno-tui" / "transcripts"


def chain_step(chain: bytes, record: bytes) -> bytes:
    """The running hash of a transcript after one more record (its exact bytes)."""
    return hashlib.sha256(TAG_CHAIN + chain + record).digest()


def seal_message(chain: bytes, n: int, why: str) -> bytes:
    return chain + n.to_bytes(8, "big") + why.encode()


class TranscriptWriter:
    """Appends records to one transcript file: each on disk at once, or (``batched``) at :meth:`flush`.

    A batched writer's owner flushes on its event loop's next turn, so the
    records of one frame from the host reach the disk in one write, after the
    frame was acted on. A writer given the owner's identity (``signer``)
    seals the file at :meth:`seal` and :meth:`close`. A write that fails (a
    full disk) ends the file there: the audit then calls it incomplete.
    """

    def __init__(self, path: Path, f: BinaryIO, *, batched: bool = False, signer: Identity | None = None) -> None:
        self.path = path
        self._f = f
        self._batch: list[bytes] | None = [] if batched else None
        self._signer = signer
        self._chain = ZERO
        self._count = 0
        self._sealed_at = -1
        """How many records the last seal covered (-1: none yet)."""

    @classmethod
    def create(cls, directory: str | os.PathLike[str], name: str, *, me: bytes | None = None, seat: int | None,
               host: bytes | None, batched: bool = False, signer: Identity | None = None,
               n0: int | None = None) -> "TranscriptWriter":
        """A new file in ``directory``; ``me`` defaults to ``signer``'s key, ``n0`` is the owner's signing counter."""
        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = d / f"{name}-{stamp}{SUFFIX}"
        n = 1
        while path.exists():
            n += 1
            path = d / f"{name}-{stamp}-{n}{SUFFIX}"
        f = open(path, "xb")
        w = cls(path, f, batched=batched, signer=signer)
        if me is None and signer is not None:
            me = signer.public
        w._write({"t": "head", "format": FORMAT, "v": VERSION, "me": me, "seat": seat, "host": host, "n0": n0})
        return w

    @property
    def closed(self) -> bool:
        return self._f.closed

    def _write(self, rec: dict[str, Any]) -> None:
        if self._f.closed:
            return
        data = msgpack.packb(rec, use_bin_type=True)
        self._chain = chain_step(self._chain, data)
        self._count += 1
        if self._batch is not None:
            self._batch.append(data)
            return
        self._put(data)

    def _put(self, data: bytes) -> None:
        try:
            self._f.write(data)
            self._f.flush()
        except (OSError, ValueError) as e:
            log.error("the transcript %s stops here: %s", self.path, e)
            self._batch = None
            try:
                self._f.close()
            except OSError:
                pass

    def flush(self) -> None:
        if self._batch and not self._f.closed:
            data = b"".join(self._batch)
            self._batch.clear()
            self._put(data)

    def log(self, e: bytes, sig: bytes) -> None:
        self._write({"t": "log", "e": e, "sig": sig})

    def private(self, kind: str, m: bytes, sig: bytes) -> None:
        self._write({"t": kind, "m": m, "sig": sig})

    def sync(self, length: int, head: bytes) -> None:
        self._write({"t": "sync", "len": length, "head": head})

    def evidence(self, index: int, m: bytes, sig: bytes) -> None:
        self._write({"t": "evidence", "i": index, "m": m, "sig": sig})

    def seal(self, why: str) -> None:
        """Vouch for every record so far (nothing is written if the last seal covers them all)."""
        if self._signer is None or self._f.closed or self._sealed_at == self._count:
            return
        why = why[:MAX_WHY]
        n = self._count
        sig = self._signer.sign(TAG_SEAL, seal_message(self._chain, n, why))
        self._write({"t": "seal", "why": why, "n": n, "chain": self._chain, "sig": sig})
        self._sealed_at = self._count
        self.flush()

    def close(self, why: str = "closed") -> None:
        """Seal (see :meth:`seal`), write what is left and close the file."""
        self.seal(why)
        self.flush()
        try:
            self._f.close()
        except OSError:
            pass


_FIELDS = {
    "log": {"t", "e", "sig"},
    "deliver": {"t", "m", "sig"},
    "ruling": {"t", "m", "sig"},
    "sent": {"t", "m", "sig"},
    "sync": {"t", "len", "head"},
    "evidence": {"t", "i", "m", "sig"},
    "seal": {"t", "why", "n", "chain", "sig"},
}
_HEAD_FIELDS = {2: {"t", "format", "v", "me", "seat", "host"}, 3: {"t", "format", "v", "me", "seat", "host", "n0"}}


@dataclass
class Parsed:
    """A transcript read strictly: its records, each record's bytes and offset, and whether it was cut inside one."""

    records: list[dict[str, Any]]
    raws: list[bytes]
    offsets: list[int]
    cut: bool
    """The file ends inside a record: it was cut short (a crash in the middle of a write, a truncated copy)."""

    @property
    def version(self) -> int:
        return int(self.records[0]["v"])


def parse(data: bytes) -> Parsed:
    """Parse a transcript strictly; raises :class:`Unfair` (code ``transcript``)."""
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=True, max_buffer_size=max(len(data), 1))
    unpacker.feed(data)
    out: list[dict[str, Any]] = []
    raws: list[bytes] = []
    offsets: list[int] = []
    pos = 0
    cut = False
    while pos < len(data):
        try:
            rec = unpacker.unpack()
        except msgpack.OutOfData:
            cut = True
            break
        except Exception as e:
            raise Unfair("transcript", f"unreadable at byte {pos} ({type(e).__name__})") from None
        end = unpacker.tell()
        raw = data[pos:end]
        if not isinstance(rec, dict) or msgpack.packb(rec, use_bin_type=True) != raw:
            raise Unfair("transcript", f"the record at byte {pos} is not in canonical form")
        kind, v = rec.get("t"), rec.get("v")
        if kind == "head" and not out:
            want = _HEAD_FIELDS.get(v) if isinstance(v, int) and not isinstance(v, bool) else None
        else:
            want = _FIELDS.get(kind) if isinstance(kind, str) else None
        if want is None or set(rec) != want:
            if kind == "head" and out:
                raise Unfair("transcript", f"a second header at byte {pos}")
            raise Unfair("transcript", f"the record at byte {pos} is not a known record")
        out.append(rec)
        raws.append(raw)
        offsets.append(pos)
        pos = end
    if out and (out[0]["t"] != "head" or out[0]["format"] != FORMAT):
        raise Unfair("transcript", "not an uno-tui transcript (no header)")
    return Parsed(out, raws, offsets, cut)


def read_records(data: bytes) -> list[dict[str, Any]]:
    """The records of a transcript (a record cut short at the end is left out); raises :class:`Unfair`."""
    return parse(data).records


@dataclass
class AuditResult:
    """What ``uno-tui audit`` found in one file."""

    status: int
    """:data:`VERIFIED`, :data:`FAILED`, :data:`NOT_A_TRANSCRIPT` or :data:`INCOMPLETE` (the exit status)."""
    text: str
    """The finding in words (for a failure: ``code: reason``)."""
    rounds: int = 0
    """Rounds audited and verified."""
    matches: int = 0
    code: str = ""
    """For a failure, the kind (``chain``, ``signature``, ``transcript``, ...)."""

    @property
    def ok(self) -> bool:
        return self.status == VERIFIED


def _signed_in(value: Any) -> Iterator[tuple[bytes, bytes]]:
    """Every ``(m, sig)`` a decoded log entry holds: ``{m, sig}`` maps and lists ending ``m, sig``."""
    if isinstance(value, dict):
        m, sig = value.get("m"), value.get("sig")
        if isinstance(m, bytes) and isinstance(sig, bytes) and len(sig) == 64:
            yield m, sig
        for v in value.values():
            if isinstance(v, (dict, list)):
                yield from _signed_in(v)
    elif isinstance(value, list):
        if len(value) >= 2 and isinstance(value[-2], bytes) and isinstance(value[-1], bytes) \
                and len(value[-1]) == 64:
            yield value[-2], value[-1]
        for v in value:
            if isinstance(v, (dict, list)):
                yield from _signed_in(v)


class _Audit:
    """One pass over a parsed transcript (see the module's docstring for what is checked)."""

    def __init__(self, parsed: Parsed) -> None:
        self.parsed = parsed
        head = parsed.records[0]
        self.host, self.me, self.seat = head["host"], head["me"], head["seat"]
        self.n0 = head.get("n0")
        self.legacy = parsed.version < VERSION
        if not isinstance(self.host, bytes) or len(self.host) != 32:
            raise Unfair("transcript", "the header names no host key")
        if self.seat is not None and (not isinstance(self.seat, int) or isinstance(self.seat, bool)):
            raise Unfair("transcript", "the header's seat is not a number")
        if not self.legacy:
            if not isinstance(self.me, bytes) or len(self.me) != 32:
                raise Unfair("transcript", "the header names no key for its writer")
            if self.n0 is not None and (not isinstance(self.n0, int) or isinstance(self.n0, bool)):
                raise Unfair("transcript", "the header's counter is not a number")
        self.ledger = Ledger(self.host, seat=self.seat, me=self.me)
        self.rounds = 0
        self.notes: list[str] = []
        self.pending: list[dict[str, Any]] = []
        self.hashes: set[bytes] = set()
        """Every log entry hash the file has shown (those a restarted host went back over included)."""
        self.games: set[bytes] = set()
        self.delivered: set[bytes] = set()
        """The hash of every delivery the file holds (what a receipt names)."""
        self.sent: set[bytes] = set()
        self.last_n: int | None = None
        self.segment: set[bytes] = set()
        """Deliveries and rulings since the last ``sync``: the host resends deliveries only after one."""
        self.earlier = 0
        """Messages of this seat in the log signed before the file began (another session of the player)."""

    # -- records ------------------------------------------------------------------------------
    def run(self) -> None:
        chain = ZERO
        for i, (rec, raw) in enumerate(zip(self.parsed.records, self.parsed.raws)):
            if i:
                self.at = self.parsed.offsets[i]
                getattr(self, "_" + rec["t"])(rec, i, chain)
            chain = chain_step(chain, raw)
        for p in self.pending:
            self._feed_private(p)

    def _log(self, rec: dict[str, Any], i: int, chain: bytes) -> None:
        e, sig = rec["e"], rec["sig"]
        try:
            d = unpack(e)
        except Exception:
            d = None  # the ledger names what is wrong with it
        ledger = self.ledger
        if not self.legacy and isinstance(d, dict) and isinstance(d.get("i"), int) \
                and 0 <= d["i"] < len(ledger.entries) and ledger.entries[d["i"]][0] == e:
            # The host resends a reconnecting client only the entries it does not hold.
            raise Unfair("transcript", f"log entry {d['i']} appears twice (record at byte {self.at})")
        for act in ledger.add_entry(e, sig, d):
            if act[0] == "audit":
                ledger.audit_round()
                self.rounds += 1
        h = entry_hash(e)
        self.hashes.add(h)
        if ledger.game_id is not None:
            self.games.add(ledger.game_id)
        if not self.legacy and self.seat is not None and isinstance(d, dict):
            self._mine_in(d)
        still = []
        for p in self.pending:
            try:
                self._feed_private(p)
            except Unfair:
                still.append(p)
        self.pending = still

    def _mine_in(self, d: dict[str, Any]) -> None:
        """Each message of this seat the entry holds: its ``sent`` record, and a receipt's delivery, come first."""
        index = d.get("i")
        for m, sig in _signed_in(d):
            if m in self.sent:
                md = unpack(m)
            else:
                try:
                    md = unpack(m)
                except Exception:
                    continue
                if not isinstance(md, dict) or md.get("seat") != self.seat or not verify(self.me, sig, TAG_PEER, m):
                    continue  # another peer's (the round's audit checks its signature)
                n = md.get("n")
                if self.n0 is None or not isinstance(n, int) or n <= self.n0:
                    self.earlier += 1
                    continue
                raise Unfair("transcript", f"log entry {index} holds a {md.get('k')!r} this peer signed (n={n}) "
                                           "with no `sent` record before it: records were removed")
            if md.get("k") == "rcpt" and md.get("x") not in self.delivered:
                raise Unfair("transcript", f"log entry {index} holds this peer's receipt for a delivery "
                                           "the transcript does not hold: records were removed")

    def _sync(self, rec: dict[str, Any], i: int, chain: bytes) -> None:
        length = rec["len"]
        if not isinstance(length, int) or length < 0:
            raise Unfair("transcript", f"the sync record at byte {self.at} is malformed")
        ledger = self.ledger
        if length < len(ledger.entries):
            if length and entry_hash(ledger.entries[length - 1][0]) != rec["head"]:
                raise Unfair("chain", "the host restarted on a log that forks from this one")
            self.ledger = ledger.rebuilt(length)
            self.notes.append(f"the host restarted from its save and went back to log entry {length}")
        self.segment.clear()

    def _seal(self, rec: dict[str, Any], i: int, chain: bytes) -> None:
        why, n = rec["why"], rec["n"]
        if not isinstance(why, str) or len(why) > MAX_WHY or not isinstance(n, int) or n != i \
                or rec["chain"] != chain or not isinstance(self.me, bytes) \
                or not verify(self.me, rec["sig"], TAG_SEAL, seal_message(chain, n, why)):
            raise Unfair("transcript", f"the seal at byte {self.at} does not cover the records before it: "
                                       "records were removed, added or changed after they were written")

    def _sent(self, rec: dict[str, Any], i: int, chain: bytes) -> None:
        m = rec["m"]
        if not isinstance(self.me, bytes) or not verify(self.me, rec["sig"], TAG_PEER, m):
            raise Unfair("signature", "a message this peer sent is not signed by its key")
        if self.legacy:
            return
        try:
            md = unpack(m)
        except Exception:
            md = None
        if not isinstance(md, dict):
            raise Unfair("transcript", f"the sent record at byte {self.at} is not a message")
        n = md.get("n")
        where = f"the sent record at byte {self.at}"
        if md.get("seat") != self.seat:
            raise Unfair("transcript", f"{where} was signed for another seat: it belongs to another transcript")
        if not isinstance(n, int) or (self.n0 is not None and n <= self.n0):
            raise Unfair("transcript", f"{where} was signed before this transcript began: it belongs to another")
        if self.last_n is not None and n <= self.last_n:
            raise Unfair("transcript", f"{where} repeats or goes back on the counter of the one before it "
                                       "(a duplicated or spliced record)")
        g, h = md.get("g"), md.get("h")
        if g and g not in self.games:
            raise Unfair("transcript", f"{where} is for a game this transcript never saw: it belongs to another")
        if h != ZERO and h not in self.hashes:
            raise Unfair("transcript", f"{where} quotes a log head this transcript never held: it belongs to another")
        self.last_n = n
        self.sent.add(m)

    def _evidence(self, rec: dict[str, Any], i: int, chain: bytes) -> None:
        """This seat disputes a strike: the answer it keeps as evidence is one it signed and sent before."""
        m, index = rec["m"], rec["i"]
        if not isinstance(self.me, bytes) or not verify(self.me, rec["sig"], TAG_PEER, m) or m not in self.sent:
            raise Unfair("transcript", f"the evidence record at byte {self.at} is not a message this peer sent")
        entries = self.ledger.entries
        d = unpack(entries[index][0]) if isinstance(index, int) and 0 <= index < len(entries) else None
        named = isinstance(d, dict) and (d.get("k") == "abort" and self.seat in d.get("missing", ())
                                         or d.get("k") == "strike" and d.get("seat") == self.seat)
        if not named:
            raise Unfair("transcript", f"the evidence record at byte {self.at} answers no strike against this seat")
        self.notes.append(f"this seat disputes the strike in log entry {index}: its signed "
                          f"{unpack(m).get('k')} was sent before it and is kept as evidence")

    def _deliver(self, rec: dict[str, Any], i: int, chain: bytes) -> None:
        self._private(rec)

    def _ruling(self, rec: dict[str, Any], i: int, chain: bytes) -> None:
        self._private(rec)

    def _private(self, rec: dict[str, Any]) -> None:
        m = rec["m"]
        if not self.legacy:
            if m in self.segment:
                raise Unfair("transcript", f"the {rec['t']} record at byte {self.at} repeats an earlier one "
                                           "(the host resends deliveries only after a reconnection)")
            self.segment.add(m)
            if rec["t"] == "deliver":
                try:
                    md = unpack(m)
                except Exception:
                    md = None
                if self.seat is None or not isinstance(md, dict) or md.get("seat") != self.seat \
                        or md.get("g") not in self.games:
                    raise Unfair("transcript", f"the deliver record at byte {self.at} is for another seat or game: "
                                               "it belongs to another transcript")
        if rec["t"] == "deliver":
            self.delivered.add(entry_hash(m))
            d = unpack(m)
            if d.get("i", 0) >= len(self.ledger.entries):
                self.pending.append(rec)  # it arrived before the entry it follows was fed
                return
        self._feed_private(rec)

    def _feed_private(self, rec: dict[str, Any]) -> None:
        if rec["t"] == "deliver":
            self.ledger.add_delivery(rec["m"], rec["sig"])
        else:
            self.ledger.add_ruling(rec["m"], rec["sig"])

    # -- the verdict --------------------------------------------------------------------------
    def verdict(self) -> AuditResult:
        ledger = self.ledger
        rounds = f"{self.rounds} round{'s' if self.rounds != 1 else ''}"
        notes = list(self.notes)
        records = self.parsed.records
        last = records[-1]
        if self.legacy:
            return AuditResult(INCOMPLETE, f"incomplete: {rounds} verified, but this transcript was written by an "
                                           "older uno-tui (format 2), which does not seal its files: it cannot be "
                                           "shown whole", self.rounds, ledger.matches)
        if self.parsed.cut or last["t"] != "seal":
            how = "in the middle of a record" if self.parsed.cut else "without its seal"
            return AuditResult(INCOMPLETE, f"incomplete: {rounds} verified, but the transcript ends {how} (its "
                                           "writer stopped before leaving the table, or the file was cut short)",
                               self.rounds, ledger.matches)
        if self.rounds == 0:
            return AuditResult(INCOMPLETE, "incomplete: no round was closed in this transcript, so there was "
                                           "nothing to audit", 0, ledger.matches)
        if self.earlier:
            notes.append(f"{self.earlier} message{'s' if self.earlier != 1 else ''} of this seat in the log "
                         "came from an earlier session of this player")
        if ledger.round >= 0 and ledger.close is None and ledger.round not in ledger.audited:
            notes.append(f"round {ledger.round + 1} was still being played when it ends ({last['why']})")
        text = f"verified: {rounds} audited"
        if notes:
            text += f" ({'; '.join(notes)})"
        return AuditResult(VERIFIED, text, self.rounds, ledger.matches)


def audit_data(data: bytes) -> AuditResult:
    """Audit a transcript's bytes (see the module's docstring for the verdicts)."""
    from .record import is_record

    if is_record(data):
        return AuditResult(NOT_A_TRANSCRIPT, "this is a moves record, not a transcript (`host --record` writes it "
                                             "for replaying; nothing in it is signed). Audit a .unotx file from "
                                             f"{default_transcript_dir()} instead", code="usage")
    try:
        parsed = parse(data)
        if not parsed.records:  # its writer stopped before its first write was whole
            return AuditResult(INCOMPLETE, "incomplete: the transcript is empty"
                               + (" but for part of its header" if parsed.cut else ""))
        audit = _Audit(parsed)
        audit.run()
        return audit.verdict()
    except Unfair as u:
        return AuditResult(FAILED, f"{u.code}: {u.reason}", code=u.code)
    except Exception as e:  # damaged beyond what the checks name: still a failure, never a crash
        return AuditResult(FAILED, f"transcript: the file is damaged ({type(e).__name__}: {e})", code="transcript")


def audit_path(path: str | os.PathLike[str]) -> AuditResult:
    """``uno-tui audit FILE``: the verdict on one file."""
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        return AuditResult(NOT_A_TRANSCRIPT, f"cannot read {path}: {e.strerror or e}", code="usage")
    return audit_data(data)


def audit_file(path: str | os.PathLike[str]) -> tuple[bool, str]:
    """(verified, what was found in words): :func:`audit_path` for callers that need only yes or no."""
    result = audit_path(path)
    return result.ok, result.text
