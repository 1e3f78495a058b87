"""What the host keeps on disk, and its own audit: the save, the log's side file, the transcript.

:class:`Store` writes them for a table (:mod:`net.table`):

* the **save** (:mod:`net.save`), after every move, on the loop's next turn:
  the updates are on their way first, and every move is on disk before the
  next one is made (a crash of the host loses at most the last move);
* the table log's **side file** (``SAVE.log``, what ``--resume`` reads back)
  and the host's signed **transcript** (:mod:`net.transcript`), each new
  entry on the loop's next turn too, always before the save that counts it;
* the host's **self-audit** of each round: it checks its own log as every
  peer does (a bug would show here first).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import msgpack

from .commitments import Unfair
from .ledger import Ledger
from .identity import Identity
from .runtime import collect_when_idle
from .save import Parts, SaveWriter
from .transcript import TranscriptWriter, default_transcript_dir

if TYPE_CHECKING:
    from .dealer import Dealer

log = logging.getLogger("net.persistence")

IDLE_DELAY = 0.005
"""Seconds without a move after which the host counts as idle (a moment for the garbage collector)."""

Write = Callable[[bytes, bytes], None]


class Store:
    """The save, the log's files and the self-audit of one table.

    ``snapshot()`` builds the save's content (the table's); ``emit`` tells the
    host's listeners of each self-audit.
    """

    def __init__(self, *, save_path: str | None, transcript_dir: str | None, identity: Identity,
                 snapshot: Callable[[], Parts], emit: Callable[[str, dict[str, Any]], None]) -> None:
        self.save_path = save_path
        self.transcript_dir = transcript_dir
        self.identity = identity
        self.snapshot = snapshot
        self.emit = emit
        self.audits: list[dict[str, Any]] = []
        """The host's own audit of each round: ``{"round", "ok", "code", "reason"}``."""
        self._saver: SaveWriter | None = None
        self._save_due = False
        """A move was made and is not saved yet (see :meth:`save_soon`)."""
        self._save_handle: asyncio.Handle | None = None
        self._idle_handle: asyncio.TimerHandle | None = None
        self._transcript: TranscriptWriter | None = None
        self._log_file: Any = None
        self._writers: list[Write] = []
        """The dealer's listeners this store added (the side file's and the transcript's)."""
        self._log_queue: list[tuple[Write, bytes, bytes]] = []
        """Log entries to write to the side file and the transcript (see :meth:`_soon`)."""
        self._audit_due: tuple[int, int, Dealer] | None = None
        """(round, log length at its close, dealer) of the self-audit still to run."""
        self._audit_handle: asyncio.TimerHandle | None = None
        self._ledger: Ledger | None = None
        self._ledger_fed = 0

    # -- the save --------------------------------------------------------------------------------
    def save_soon(self) -> None:
        """Save before anything this step queued for a peer leaves, or on the loop's next turn at the latest.

        Write-ahead: the gateway saves first when it flushes a peer's frames
        (:attr:`net.peer.Peer.before_flush`), so no peer ever holds a log entry
        the save lacks. Were the entry sent first, a host killed in between would
        resume without it, write another entry in its place, and every peer would
        see the log fork: a false alarm on an honest crash. The save runs before
        the loop takes the next message, so every move is on disk before the
        next one is made.
        """
        self._save_due = True
        loop = asyncio.get_running_loop()
        if self._save_handle is None:
            self._save_handle = loop.call_soon(self.save_if_due)
        if self._idle_handle is not None:
            self._idle_handle.cancel()
        self._idle_handle = loop.call_later(IDLE_DELAY, self._idle)

    def save_if_due(self) -> None:
        if self._save_due:
            self.save()

    def _idle(self) -> None:
        """:data:`IDLE_DELAY` after the last move: the collector's pass, if one is near, runs now."""
        self._idle_handle = None
        collect_when_idle()

    def save(self) -> None:
        if self._save_handle is not None:
            self._save_handle.cancel()
            self._save_handle = None
        self._save_due = False
        self.write_logs()  # the entries the save counts are on disk before it
        path = self.save_path
        if path is None:
            return
        try:
            saver = self._saver
            if saver is None or str(saver.path) != str(path):
                if saver is not None:
                    saver.close()
                saver = self._saver = SaveWriter(path)
            snap = self.snapshot()
            saver.write(snap)  # packed now: the game may change the dicts it shares with it later
        except OSError as e:  # a full disk must not stop the table; the game goes on unsaved
            log.error("could not save the game to %s: %s", path, e)

    # -- the log's side file and the transcript --------------------------------------------------
    def attach_log_writers(self, dealer: Dealer) -> None:
        """The save's side file of log entries (for ``--resume``) and the host's transcript, both
        begun with the entries the log holds already; each new entry follows (:meth:`_soon`)."""
        self.write_logs()  # what is queued for the files about to close
        self._close_files()
        dealer.listeners[:] = [f for f in dealer.listeners if f not in self._writers]
        self._writers = []
        existing = list(dealer.log.entries)
        path = self.save_path
        if path is not None:
            try:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
                f = open(path + ".log", "wb")
                for e, sig in existing:
                    f.write(msgpack.packb([e, sig], use_bin_type=True))
                f.flush()
                self._log_file = f

                def to_file(e: bytes, sig: bytes) -> None:
                    f.write(msgpack.packb([e, sig], use_bin_type=True))
                    f.flush()

                self._writers.append(self._soon(to_file))
            except OSError as ex:
                log.error("cannot write the log beside the save: %s", ex)
        try:
            directory = Path(self.transcript_dir) if self.transcript_dir else default_transcript_dir()
            name = f"{dealer.game_id.hex()[:12]}-host" + ("-resumed" if existing else "")
            writer = TranscriptWriter.create(directory, name, signer=self.identity, seat=None,
                                             host=self.identity.public)
            for e, sig in existing:
                writer.log(e, sig)
            self._transcript = writer
            self._writers.append(self._soon(writer.log))
        except OSError as ex:
            log.error("cannot write the transcript: %s", ex)
        dealer.listeners.extend(self._writers)

    def _soon(self, write: Write) -> Write:
        """``write`` for a new log entry, on the loop's next turn (:meth:`write_logs`).

        A move's entry is then on disk after its updates are on their way, not
        before, and always before the save that counts it (see :meth:`save`).
        """
        def later(e: bytes, sig: bytes) -> None:
            if not self._log_queue:
                try:
                    asyncio.get_running_loop().call_soon(self.write_logs)
                except RuntimeError:  # no loop: nothing to wait for
                    write(e, sig)
                    return
            self._log_queue.append((write, e, sig))
        return later

    def write_logs(self) -> None:
        queue, self._log_queue = self._log_queue, []
        for write, e, sig in queue:
            try:
                write(e, sig)
            except (OSError, ValueError) as ex:  # a full disk, a file closed: the table goes on
                log.error("could not write a log entry: %s", ex)

    @property
    def transcript_path(self) -> str | None:
        return str(self._transcript.path) if self._transcript is not None else None

    def _close_files(self) -> None:
        for f in (self._transcript, self._log_file):
            if f is not None:
                with contextlib.suppress(Exception):
                    f.close()
        self._transcript = self._log_file = None

    def close(self) -> None:
        """Everything queued to disk, and every file closed (the transcript sealed)."""
        self.write_logs()
        self._close_files()
        if self._saver is not None:
            with contextlib.suppress(Exception):
                self._saver.close()
        self._saver = None
        for handle in (self._save_handle, self._idle_handle, self._audit_handle):
            if handle is not None:
                handle.cancel()

    # -- the host's own audit ----------------------------------------------------------------------
    def audit_later(self, r: int, dealer: Dealer, delay: float | None) -> None:
        """Audit round ``r`` (just closed: its entries end the log now) after ``delay`` seconds, or at the
        latest when the next one is due (None: when :meth:`run_self_audit` is called)."""
        self.run_self_audit()  # an earlier one still waiting (rounds in quick succession)
        self._audit_due = (r, len(dealer.log.entries), dealer)
        if delay is not None:
            self._audit_handle = asyncio.get_running_loop().call_later(delay, self.run_self_audit)

    def run_self_audit(self) -> None:
        """The round's audit by the host, if one is due."""
        if self._audit_handle is not None:
            self._audit_handle.cancel()
            self._audit_handle = None
        due, self._audit_due = self._audit_due, None
        if due is not None:
            try:
                self._self_audit(*due)
            except Exception:  # a check, never a crash
                log.exception("the host's audit of round %d failed", due[0])

    def _self_audit(self, r: int, upto: int, dealer: Dealer) -> None:
        """The host checks its own log as every peer does (a bug would show here first).

        ``upto``: the log's length when round ``r`` closed (entries after it belong to later rounds).
        """
        ledger = self._ledger
        if ledger is None or ledger.game_id != dealer.game_id:
            ledger = self._ledger = Ledger(self.identity.public)
            self._ledger_fed = 0
        entries = dealer.log.entries[:upto]
        try:
            while self._ledger_fed < len(entries):
                e, sig = entries[self._ledger_fed]
                self._ledger_fed += 1
                for act in ledger.add_entry(e, sig):
                    if act[0] == "audit" and act[1] != r:  # a round before (a resumed host catching up):
                        ledger.audit_round()                 # its replay carries into the next round
            ledger.audit_round()
            verdict = {"round": r, "ok": True, "code": "", "reason": "verified"}
        except Unfair as u:
            self._ledger_fed = len(entries) + 10**9  # stop feeding a broken ledger
            verdict = {"round": r, "ok": False, "code": u.code, "reason": u.reason}
        self.audits.append(verdict)
        self.emit("audit", verdict)


def read_log_file(path: str, length: int) -> list[tuple[bytes, bytes]]:
    """The first ``length`` entries of the log's side file at ``path`` (a ``ValueError`` if it holds fewer)."""
    out: list[tuple[bytes, bytes]] = []
    try:
        with open(path, "rb") as f:
            for item in msgpack.Unpacker(f, raw=False):
                if len(out) >= length:
                    break
                out.append((bytes(item[0]), bytes(item[1])))
    except FileNotFoundError:
        pass
    if len(out) < length:
        raise ValueError(f"{path} holds {len(out)} log entries, the save needs {length}")
    return out
