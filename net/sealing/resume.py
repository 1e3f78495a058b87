"""``uno-tui host --resume`` at a sealed table: a host whose process was killed goes on where it was.

What a sealed host must keep to go on is little, and none of it secret from the table:

* the match's ``start`` and its signed log, which the host's transcript holds already (each entry is
  written and flushed before it is sent to anyone, so no peer holds an entry the file lacks);
* its own round secrets (:class:`.store.SecretStore`, synced to disk before anything that depends on
  them leaves, as every client's are);
* where those two files are, the port and the table's settings: the save (:data:`SAVE_NAME`), written
  when the match starts and removed when it ends.

The restarted host reads the log back (a record cut short by the crash is dropped, and the file is
truncated to its last whole entry before anything more is written), listens on the same port, and
its own peer walks the log from the start as a restarted client's does: it makes again exactly what
it had sent (its secrets as saved) and sends none of it twice. Each client's link broke with the
crash; it connects again by itself (:meth:`net.sealing.SealedClient._rejoin`), is sent the log from
its start, feeds what it lacks and sends again what it had signed that the log does not hold. So the
round in progress goes on exactly where it was: no card is dealt again, nobody is accused.

What it cannot resume: a host whose secrets file is gone (another disk, deleted) could not make its
messages again; :func:`load` refuses it in words rather than announce a different key (which every
peer would rightly report). A participant that does not come back within the grace voids the round,
as at a table that never crashed.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import msgpack

from .. import framing
from ..identity import Identity
from .relay import SealedHost
from .lockstep import SealedPeer
from .store import SecretStore
from .transcript import FORMAT, MAGIC, VERSION, SealedTranscript

SAVE_NAME = "sealed-host.save"
SAVE_VERSION = 1

SETTINGS = ("variant", "seats", "people", "options", "rounds", "bot_level", "host_seats", "host_person", "name",
            "password", "grace", "turn_timer")
"""The table's settings a save keeps (the resumed host takes them from it, not from its command line)."""


class NothingToResume(ValueError):
    """No saved sealed table to go on with, or one this host cannot go on with (the reason in words)."""


def default_save_file() -> Path:
    """``$XDG_STATE_HOME/uno-tui/sealed-host.save``."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "uno-tui" / SAVE_NAME


def _write_synced(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # the table's password may be in it
    with os.fdopen(fd, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


class ResumableHost(SealedHost):
    """A sealed host that saves what a restart needs when each match starts (:data:`SAVE_NAME`), and can
    be made again from it (:func:`load`)."""

    def __init__(self, *, save_file: str | os.PathLike[str] | None = None, bind: str = "0.0.0.0",
                 **settings: Any) -> None:
        super().__init__(**settings)
        self.save_file = Path(save_file) if save_file is not None else default_save_file()
        """Where the save is written (removed by :meth:`forget` when the match is over)."""
        self.bind = bind
        self.port = 0
        self.resumed = False
        """Made from a save: :meth:`run` goes on with the saved match instead of waiting for a new one."""

    def _settings(self) -> dict[str, Any]:
        return {k: (list(v) if isinstance(v, tuple) else v) for k in SETTINGS for v in [getattr(self, k)]}

    async def start(self, bind: str = "127.0.0.1", port: int = 0) -> int:
        self.bind = bind
        self.port = await super().start(bind, port)
        return self.port

    def _started(self) -> None:
        assert self._start is not None
        self.save_path = self.save_file.with_name(f"sealed-host-{self._start['game'].hex()}.secrets")
        self._save()

    def _save(self) -> None:
        assert self._start is not None
        body = {"v": SAVE_VERSION, "transcript": str(self.transcript.path) if self.transcript is not None else None,
                "secrets": str(self.save_path), "bind": self.bind, "port": self.port, "settings": self._settings()}
        _write_synced(self.save_file, msgpack.packb(body, use_bin_type=True))

    def forget(self) -> None:
        """The match is over (or void): nothing is left to resume."""
        for path in (self.save_file, self.save_path):
            if path is not None:
                path.unlink(missing_ok=True)

    def rematch(self) -> None:
        super().rematch()
        if self.save_path is not None:  # the last match's secrets: a new match has new ones
            self.save_path.unlink(missing_ok=True)

    async def run(self) -> SealedPeer:
        if not self.resumed:
            return await super().run()
        self.resumed = False  # a rematch after it is an ordinary match
        assert self._start is not None
        for pid in self.identities:  # each participant's seat waits the grace for its link, as after a drop
            if pid != 0 and pid not in self.links:
                task = asyncio.ensure_future(self._absent(pid, None))  # type: ignore[arg-type]
                self._timers.add(task)
                task.add_done_callback(self._timers.discard)
        return await self._play(already=sum(1 for e in self.log if e.get("from") == 0))


def read_log(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]], int]:
    """A sealed transcript's ``start``, its whole entries, and the length of the file they fill (a record
    cut short by a crash is left out)."""
    data = path.read_bytes()
    if not data.startswith(MAGIC):
        raise NothingToResume(f"{path} is not a sealed table's transcript")
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False, max_buffer_size=len(data) + 1)
    unpacker.feed(data[len(MAGIC):])
    values: list[Any] = []
    end = len(MAGIC)
    try:
        for v in unpacker:
            values.append(v)
            end = len(MAGIC) + unpacker.tell()
    except Exception:  # noqa: BLE001  (a damaged tail: what came before it stands)
        pass
    if not values or not isinstance(values[0], dict) or values[0].get("format") != FORMAT \
            or values[0].get("v") != VERSION or not isinstance(values[0].get("start"), dict):
        raise NothingToResume(f"{path} does not begin with a sealed table's start")
    entries = [e for e in values[1:] if isinstance(e, dict)]
    return values[0]["start"], entries, end


def load(save_file: Path | None = None, *, identity: Identity | None = None,
         peer_class: type[SealedPeer] = SealedPeer) -> ResumableHost:
    """The host of the saved match, its log read back, ready to listen again and :meth:`~ResumableHost.run`
    on; :class:`NothingToResume` says why not."""
    save_file = save_file or default_save_file()
    try:
        saved = msgpack.unpackb(save_file.read_bytes(), raw=False, strict_map_key=False)
    except FileNotFoundError:
        raise NothingToResume(f"no sealed table to resume ({save_file} is not there: the last match ended, "
                              "or none started)") from None
    except (OSError, ValueError, msgpack.ExtraData) as e:
        raise NothingToResume(f"cannot read {save_file}: {e}") from None
    if not isinstance(saved, dict) or saved.get("v") != SAVE_VERSION or not saved.get("transcript"):
        raise NothingToResume(f"{save_file} is not a sealed host's save this uno-tui reads")
    transcript, secrets = Path(saved["transcript"]), Path(saved["secrets"])
    try:
        start, entries, end = read_log(transcript)
    except OSError as e:
        raise NothingToResume(f"cannot read the match's log {transcript}: {e.strerror or e}") from None
    identity = identity or Identity.load()
    roster = {p: bytes(i) for p, i in start["roster"]}
    if roster.get(0) != identity.public:
        raise NothingToResume("the saved table was hosted under another key than this account's")
    store = SecretStore(secrets)
    mine = [e for e in entries if e.get("from") == 0]
    rounds_keyed = {msgpack.unpackb(e["m"], raw=False).get("r") for e in mine
                    if msgpack.unpackb(e["m"], raw=False).get("k") == "skey"}
    missing = sorted(r for r in rounds_keyed if isinstance(r, int) and store.load(r) is None)
    if missing:
        raise NothingToResume(f"the host's secrets for round {missing[0] + 1} are gone ({secrets}): it could not "
                              "make its messages again, and a different key would be reported by every peer")
    settings = dict(saved["settings"])
    settings["host_seats"] = tuple(settings.get("host_seats") or ())
    host = ResumableHost(identity=identity, save_file=save_file, bind=saved.get("bind") or "0.0.0.0",
                         peer_class=peer_class, save_path=secrets, **settings)
    host.port = int(saved.get("port") or 0)
    with open(transcript, "r+b") as f:  # the damaged tail, if any, goes before anything is appended
        f.truncate(end)
    host.transcript = SealedTranscript(transcript, open(transcript, "ab"))
    host._start = {**start, "k": "start"}
    host.identities = roster
    host.names = list(start["names"])
    host.log = entries
    host.log_bodies = [framing.pack({"k": "log", "e": e}) for e in entries]
    for pid, w_name in zip(start["owners"], start["names"]):
        if pid:
            host.asked_names.setdefault(pid, w_name)
    host.resumed = True
    host._joined.set()
    return host


__all__ = ["NothingToResume", "ResumableHost", "default_save_file", "load", "read_log"]
