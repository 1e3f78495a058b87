"""The player's half of the fair deal: the mirror of the host's dealer (:mod:`net.dealer`).

A seated client commits and reveals its seeds when the log asks, checks every
card delivered to it and every entry of the log as it arrives
(:class:`net.ledger.Ledger`), writes its signed transcript, audits each round
once the link is quiet, and signs its verdict for the table. It is a part of
:class:`net.client.Client` (its base): the state it reads is the client's.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import messages
from .commitments import HOST_PID, Unfair, entry_hash, peer_message, seed_commitment, unpack
from .errors import NotConnected
from .runtime import collect_when_idle
from .transcript import TranscriptWriter, default_transcript_dir

if TYPE_CHECKING:
    import os

    from .identity import Identity
    from .ledger import Ledger
    from .watch import SeatWatch

log = logging.getLogger("net.player")

QUIET = 0.05
"""Seconds without a frame from the host after which the work kept off the path of the moves is done:
the round's audit, and the host's signatures on the log entries taken so far."""
SIG_CHECK_BATCH = 64
"""Signatures checked in one go (about 4 ms) before frames that arrived meanwhile are handled."""


class FairPlayer:
    """A seat's part in the seed exchange, its checks, transcript, audits and verdicts."""

    identity: Identity
    seat: int | None
    host_key: bytes | None
    lobby: dict[str, Any] | None
    reconnect: bool
    ledger: Ledger | None
    audits: list[dict[str, Any]]
    fairness: dict[str, Any] | None
    transcript_dir: str | os.PathLike[str] | bool | None
    transcript_path: Path | None
    _transcript: TranscriptWriter | None
    _transcript_flush: bool
    _seeds: dict[tuple[bytes, int, int, bytes], bytes]
    _my_commit: dict[tuple[bytes, int, int], tuple[bytes, bytes]]
    _watch: SeatWatch
    _stop_reason: str | None
    _n: int
    _catch_up: int
    _held: list[tuple[Any, ...]]
    _audit_due: list[int]
    _quiet: asyncio.TimerHandle | None
    _last_frame: float
    _closing: bool

    if TYPE_CHECKING:  # the client's (see net.client)
        _host_words: Any

        def _emit(self, msg: dict[str, Any]) -> None: ...

        def _write(self, msg: dict[str, Any]) -> None: ...

    def _unfair(self, u: Unfair) -> None:
        """Note a failed check; the first one is what this client reports (and keeps reporting)."""
        if self.fairness is None:
            self.fairness = {"code": u.code, "reason": u.reason}
            log.warning("fairness check failed: %s: %s", u.code, u.reason)
            self._emit({"type": "fairness", "ok": False, "code": u.code, "reason": u.reason})

    def _record(self, kind: str, msg: dict[str, Any]) -> None:
        if self.transcript_dir is False:
            return
        if self._transcript is None:
            try:
                directory = Path(self.transcript_dir) if self.transcript_dir else default_transcript_dir()
                who = f"seat{self.seat}" if self.seat is not None else "spectator"
                host_fp = (self.host_key or b"").hex()[:12]
                # n0: every message this client signs from now on has a larger counter (the audit
                # asks a `sent` record of those, not of an earlier session's).
                self._transcript = TranscriptWriter.create(directory, f"{host_fp}-{who}", signer=self.identity,
                                                           seat=self.seat, host=self.host_key, batched=True,
                                                           n0=self._n)
                self.transcript_path = self._transcript.path
            except OSError as e:
                log.error("cannot write the transcript: %s", e)
                self.transcript_dir = False
                return
        if kind == "log":
            self._transcript.log(msg["e"], msg["sig"])
        elif kind == "sync":
            self._transcript.sync(msg["len"], msg["head"])
        else:
            self._transcript.private(kind, msg["m"], msg["sig"])
        self._flush_transcript_soon()

    def _flush_transcript_soon(self) -> None:
        """The transcript's new records go to disk on the loop's next turn: one write for a frame's worth."""
        if self._transcript is None or self._transcript_flush:
            return
        try:
            asyncio.get_running_loop().call_soon(self._flush_transcript)
            self._transcript_flush = True
        except RuntimeError:  # no loop (a test feeding messages by hand): at once
            self._transcript.flush()

    def _flush_transcript(self) -> None:
        self._transcript_flush = False
        if self._transcript is not None:
            self._transcript.flush()

    def _fair_message(self, msg: dict[str, Any]) -> None:
        self._run_due_audit()  # the round's audit sees the ledger as the round left it
        kind = msg["type"]
        ledger = self.ledger
        if ledger is None:
            return
        if kind == "sync":
            length = msg["len"]
            self._catch_up = length
            self._held = []
            self._record(kind, msg)  # every (re)connection: the deliveries resent after it are no duplicates
            if length < len(ledger.entries):
                if length and entry_hash(ledger.entries[length - 1][0]) != msg["head"]:
                    self._unfair(Unfair("chain", "the host's log forks from the one this client holds"))
                    return
                if self.fairness is None:
                    before = ledger.redraws()
                    try:
                        self.ledger = ledger.rebuilt(length)
                    except Unfair as u:
                        self._unfair(u)
                        if u.code == "rewind":
                            self._stop(u.reason)
                        return
                    self._emit({"type": "security", "level": "warning",
                                "reason": f"the host restarted and went back {len(ledger.entries) - length} "
                                          "log entries"})
                    if self.ledger.redraws() > before:
                        self._emit({"type": "security", "level": "warning",
                                    "reason": "the host went back past a revealed shuffle: it may deal those "
                                              "cards again. A crash may do that once in a match; a second "
                                              "time, this client stops playing"})
            if length <= len(self.ledger.entries):
                self._flush_held()  # nothing to catch up: what is owed is owed now
            return
        self._record(kind, msg)
        try:
            if kind == "log":
                try:
                    d = unpack(msg["e"])
                except Exception:
                    d = None  # the ledger says what is wrong with it
                if ledger.entries and isinstance(d, dict) and d.get("i", -1) < len(ledger.entries):
                    return  # resent after a reconnect: already held
                index = len(ledger.entries)
                acts = ledger.add_entry(msg["e"], msg["sig"], d)
                if ledger.unchecked and self._quiet is None:
                    self._when_quiet_in(QUIET)
                live = index >= self._catch_up  # made while this link was up (not history resent on it)
                if not live:
                    for act in acts:
                        if act[0] == "audit":
                            self._audit(act[1], quiet=True)
                        elif act[0] in ("seed", "ack", "reveal"):
                            self._held.append(act)
                        elif act[0] == "warn":
                            self._fair_act(act)
                    if len(ledger.entries) == self._catch_up:
                        self._flush_held()
                else:
                    for act in acts:
                        self._fair_act(act)
                if self.seat is not None and isinstance(d, dict):
                    self._watch_entry(d, index, live)
            elif kind == "deliver":
                items = ledger.add_delivery(msg["m"], msg["sig"])
                if items and self.seat is not None:
                    self._fair_send("rcpt", cards=items, x=entry_hash(msg["m"]))
            elif kind == "ruling":
                ledger.add_ruling(msg["m"], msg["sig"])
        except Unfair as u:
            self._unfair(u)
        except Exception as e:  # a malformed message from the host is a failed check too
            self._unfair(Unfair("protocol", f"a {kind} message could not be read ({type(e).__name__}: {e})"))

    def _when_quiet_in(self, delay: float) -> None:
        try:
            self._quiet = asyncio.get_running_loop().call_later(delay, self._when_quiet)
        except RuntimeError:  # no loop (a test feeding messages by hand): the audit does it all
            self._quiet = None
            self._run_due_audit()

    def _when_quiet(self) -> None:
        """Once the host has been silent for :data:`QUIET` seconds: the round's audit, then signatures.

        Neither holds up a move: an update is in the player's hands without
        waiting for them (on a machine with several players, nor for the others'),
        and they run at the latest before the next log entry is taken (the
        audit) or within the audit (the signatures).
        """
        self._quiet = None
        ledger = self.ledger
        if ledger is None or self._closing or not (self._audit_due or ledger.unchecked):
            return
        quiet = asyncio.get_running_loop().time() - self._last_frame
        if quiet < QUIET:
            self._when_quiet_in(QUIET - quiet)
            return
        if self._audit_due:
            self._run_due_audit()  # checks every signature left, too
            collect_when_idle()  # an audit leaves a replayed round behind
            return
        try:
            more = ledger.check_signatures(limit=SIG_CHECK_BATCH)
        except Unfair as u:
            self._unfair(u)
            return
        if more:  # a long backlog (a reconnect's catch-up): in slices, frames go first in between
            self._when_quiet_in(0)
        else:
            collect_when_idle()

    def _flush_held(self) -> None:
        """After catching up: answer only the steps of the deal still waiting for us, and a verdict owed."""
        ledger = self.ledger
        assert ledger is not None
        held, self._held = self._held, []
        gid = ledger.game_id or b""
        for act in held:
            ep = ledger.epochs.get((act[1], act[2]))
            if ep is None or ep.aborted or ep.pi is not None:
                continue
            what = act[0]
            if what in ("seed", "ack") and act[3] != (ep.root if what == "seed" else ep.set_hash):
                continue  # asked in an earlier match: its epochs are numbered from 0 again
            mine = self._my_commit.get((gid, ep.e, ep.a))
            if what == "seed" and ep.set_hash is None:
                self._fair_act(act)
            elif what in ("ack", "reveal") and mine is not None and mine[0] == ep.root:
                if what == "ack" and ep.acks:
                    continue
                self._fair_act(act)
        # The round just closed, audited quietly on the way: the host still waits for our word on it.
        r = ledger.verdict_owed(self.seat) if self.seat is not None else None
        done = next((a for a in reversed(self.audits) if a["round"] == r), None)
        if r is not None and done is not None:
            self._send_verdict(r, done)

    def _watch_entry(self, d: dict[str, Any], index: int, live: bool) -> None:
        """What this seat alone can judge of a log entry (see :mod:`net.watch`)."""
        ledger = self.ledger
        assert ledger is not None and self.seat is not None
        host = self._host_words
        notes, evidence, failed = self._watch.entry(d, index, live, time.monotonic(), ledger, self.seat, host,
                                                    self.lobby)
        for i, m, sig in evidence:
            if self._transcript is not None:
                self._transcript.evidence(i, m, sig)
                self._flush_transcript_soon()
        for note in notes:
            self._emit(note)
        if failed is not None:
            self._unfair(failed)

    def _stop(self, reason: str) -> None:
        """Stop taking part: leave the table and do not come back (the host is not to be played with)."""
        self._stop_reason = f"this client stopped playing: {reason}"
        self.reconnect = False

    def _fair_act(self, act: tuple[Any, ...]) -> None:
        ledger = self.ledger
        assert ledger is not None
        what = act[0]
        gid = ledger.game_id or b""
        now = time.monotonic()
        if what == "seed":
            _, e, a, root = act
            # A fresh seed for every commitment: a host that re-runs an epoch (a new root) after seeing
            # our seed gets a new one, never the old one to grind its order against.
            r = self._seeds.setdefault((gid, e, a, root), secrets.token_bytes(32))
            d = seed_commitment(root, self.identity.public, r)
            self._my_commit[(gid, e, a)] = (root, d)
            self._watch.asked(("seed", e, a), now)
            self._fair_send("seed", e=e, a=a, root=root, d=d)
        elif what == "ack":
            _, e, a, set_h = act
            ep = ledger.epochs[(e, a)]
            mine = self._my_commit.get((gid, e, a))
            if mine is None or mine[0] != ep.root:
                return  # we never committed to this one (another client of ours did)
            if ep.seeds.get(self.seat if self.seat is not None else HOST_PID) != mine[1]:
                raise Unfair("equivocation", f"epoch {e}: the host showed this seat's seed commitment altered")
            self._watch.asked(("ack", e, a), now)
            self._fair_send("ack", e=e, a=a, set=set_h)
        elif what == "reveal":
            _, e, a = act
            ep = ledger.epochs.get((e, a))
            r = self._seeds.get((gid, e, a, ep.root)) if ep is not None else None
            if r is not None:
                self._watch.asked(("reveal", e, a), now)
                self._fair_send("reveal", e=e, a=a, r=r)
        elif what == "audit":
            # Audited once the link is quiet (the update of the round's last move handled, here
            # and at the other players' screens), and at the latest before the next log entry
            # is fed: the audit checks exactly the same ledger, and no move is held up by it.
            self._audit_due.append(act[1])
            if self._quiet is not None:
                self._quiet.cancel()
            self._when_quiet_in(QUIET)
        elif what == "verdict":
            _, seat, ok, code, why, r = act
            name = ledger.names[seat] if 0 <= seat < len(ledger.names) else f"seat {seat}"
            self._emit({"type": "verdict", "seat": seat, "name": name, "round": r, "ok": ok, "code": code,
                        "reason": why})
        elif what == "warn":
            self._emit({"type": "security", "level": "warning", "reason": act[1]})

    def _run_due_audit(self) -> None:
        while self._audit_due:
            r = self._audit_due.pop(0)
            try:
                self._audit(r)
            except Exception as e:  # as for any other check: a failure, never a crash
                self._unfair(Unfair("protocol", f"the audit of round {r} failed ({type(e).__name__}: {e})"))

    def _audit(self, r: int, quiet: bool = False) -> None:
        ledger = self.ledger
        assert ledger is not None
        try:
            ledger.audit_round()
            if self.fairness is not None:
                raise Unfair(self.fairness["code"], self.fairness["reason"])
            verdict = {"type": "audit", "round": r, "ok": True, "code": "", "reason": "verified"}
        except Unfair as u:
            verdict = {"type": "audit", "round": r, "ok": False, "code": u.code, "reason": u.reason}
            if quiet:
                self.audits.append(verdict)
                return
            self._unfair(u)
        self.audits.append(verdict)
        if quiet:
            return
        self._emit(verdict)
        if self.seat is not None and self.seat not in ledger.verdicts.get(r, ()):
            self._send_verdict(r, verdict)

    def _send_verdict(self, r: int, verdict: dict[str, Any]) -> None:
        """This seat's signed verdict on round ``r``: the host logs it for the table, and waits for it."""
        self._watch.asked(("verdict", r), time.monotonic())
        self._fair_send("verdict", r=r, ok=verdict["ok"], code=verdict["code"][:messages.MAX_WORD],
                        why=messages.clean_text(verdict["reason"], messages.MAX_WHY))

    def _check_last_verdicts(self) -> None:
        """At the end of the match, every person's verdict on the last round is in the log (or a strike)."""
        ledger = self.ledger
        if ledger is None or ledger.game_id is None:
            return
        self._run_due_audit()
        try:
            ledger.check_end()
        except Unfair as u:
            self._unfair(u)

    def _check_hand(self, obs: dict[str, Any]) -> None:
        """The hand shown: counted as the public list counts it, made of cards delivered to us, and
        remembered for the audit (which compares it with the hand the rules give us)."""
        ledger = self.ledger
        if ledger is None or ledger.game_id is None or obs.get("me") is None or self.seat is None:
            return
        try:
            self._watch.update(obs, self.seat, time.monotonic())
            hand = obs.get("hand", [])
            ledger.note_hand(obs["version"], [c.get("id") for c in hand])
            if self.fairness is None and not obs.get("over") and ledger.close is None:
                ledger.check_hand(hand)
        except Unfair as u:
            self._unfair(u)

    def _fair_send(self, kind: str, **fields: Any) -> None:
        """Sign and send one message of the fair deal (test doubles override this to misbehave)."""
        self._send_signed(kind, **fields)

    def _send_signed(self, kind: str, **fields: Any) -> tuple[bytes, bytes]:
        ledger = self.ledger
        gid = ledger.game_id if ledger is not None and ledger.game_id else b""
        head = ledger.head if ledger is not None else bytes(32)
        self._n += 1
        m, sig = peer_message(self.identity, kind, gid, self.seat, self._n, head, **fields)
        self._watch.sent({"k": kind, **fields}, m, sig, time.monotonic())
        if self._transcript is not None:
            self._transcript.private("sent", m, sig)
            self._flush_transcript_soon()
        with contextlib.suppress(NotConnected):
            self._write({"type": "signed", "m": m, "sig": sig})
        return m, sig

    async def _send(self, msg: dict[str, Any]) -> None:
        self._write(msg)
        assert self._writer is not None
        with contextlib.suppress(ConnectionError):
            await self._writer.drain()
