"""The tables open on this server: ordinary uno-tui tables, run in the server's own process.

Each is a :class:`net.Host` listening on its own port, exactly what
``uno-tui host --headless`` runs: its sessions join it over loopback as
``uno-tui join`` does, and a player with their own install can join it from
outside (``uno-tui join HOST:PORT``, shown in the menu). A table outlives the
sessions at it: a person whose connection drops takes their seat back when
they return (their client quotes the seat's token, which lives in their own
directory, see :mod:`.people`).

The person who opened a table owns it: they fill open seats with bots,
start the game, deal the next round and a rematch (:meth:`TableRoom.act`).
The game starts by itself once every seat is taken and every person is
ready, and the next round is dealt by itself after :data:`ROUND_PAUSE`, so
a table whose owner has gone still plays on. A table nobody is connected to
for :data:`QUIET_CLOSE` seconds is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import core
from core.bots import LEVELS
from net import Host, HostConfig, Identity
from uno_tui.narration import variant_title

from .people import People, Person

log = logging.getLogger("uno_tui.serve")

TABLE_VARIANTS = ("classic", "nomercy", "wildrawz", "diez", "extended")
ROUND_PAUSE = 10.0
"""Seconds between a round's end and the next deal when the owner does not deal first."""
QUIET_CLOSE = 600.0
"""A table with nobody connected (players or watchers) this long is closed."""
FINISHED_CLOSE = 60.0
"""A finished match with nobody connected this long is closed."""
MAX_OWN_TABLES = 3
"""Tables one person may have open at once (each is a host with its own port and bots)."""


@dataclass
class ServedTable:
    """One table and who opened it."""

    id: str
    host: Host
    owner: Person
    quiet_since: float | None = None
    address: str = ""
    """How a session here reaches it (``uno://127.0.0.1:PORT#FP``)."""
    outside: str | None = None
    """How someone with their own uno-tui reaches it (None: loopback only)."""
    rules: str = ""
    order: float = field(default_factory=time.monotonic)


def rules_text(variant: str, options: dict[str, Any]) -> str:
    """The rules that differ from the variant's defaults, in a few words."""
    defaults = core.variant_class(variant).check_options({})
    changed = [(k, v) for k, v in sorted(options.items()) if defaults.get(k) != v]
    return ", ".join(k.replace("_", " ") if v is True else f"{k.replace('_', ' ')} {'off' if v is False else v}"
                     for k, v in changed) or "standard"


class TableRoom:
    """Opens, lists and closes the server's tables."""

    def __init__(self, *, people: People, runtime: Path, bind: str, local: str, outside_host: str | None,
                 password: str | None, bot_delay: float, max_tables: int) -> None:
        self.people = people
        self.runtime = runtime
        self.bind = bind
        self.local = local
        self.outside_host = outside_host
        self.password = password
        self.bot_delay = bot_delay
        self.max_tables = max_tables
        self.tables: dict[str, ServedTable] = {}
        self.identity = Identity.load()
        """The server's uno-tui identity: every table here signs with it."""
        self._reaper: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._reaper = asyncio.ensure_future(self._reap_loop())

    # -- opening -----------------------------------------------------------------------------
    async def open(self, person: Person, request: dict[str, Any]) -> ServedTable:
        """A new table for ``person`` (ValueError with a reason for a bad request)."""
        if len(self.tables) >= self.max_tables:
            raise ValueError(f"this server has all the tables it takes ({self.max_tables}); join one of them")
        if sum(t.owner.key == person.key for t in self.tables.values()) >= MAX_OWN_TABLES:
            raise ValueError(f"you have {MAX_OWN_TABLES} tables open here already: sit at one of them "
                             "(a table nobody is at closes after ten minutes)")
        variant = str(request.get("variant", "classic"))
        if variant not in TABLE_VARIANTS:
            raise ValueError(f"unknown game {variant!r}")
        seats, bots = request.get("seats", 4), request.get("bots", 0)
        if not isinstance(seats, int) or not isinstance(bots, int) or not 0 <= bots < seats:
            raise ValueError("a table needs a seat for you besides the bots")
        level = str(request.get("bot_level", "normal"))
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r}")
        options = request.get("options") or {}
        if not isinstance(options, dict):
            raise ValueError("the rules must be a map")
        table_id = secrets.token_hex(4)
        (self.runtime / "tables").mkdir(exist_ok=True)
        host = Host(HostConfig(
            variant=variant, seats=seats, bots=bots, name=person.name, password=self.password,
            options=options, bot_level=level, auto_start=True, auto_next=True, round_pause=ROUND_PAUSE,
            bot_delay=self.bot_delay, save_path=str(self.runtime / "tables" / f"{table_id}.save"),
            transcript_dir=str(self.runtime / "transcripts")), identity=self.identity)  # ValueError: bad rules
        owner_key = self.people.public_key(person)

        def keep_owners_seat(kind: str, data: dict[str, Any]) -> None:
            # The owner's seat is held while they are away, even in the lobby (as ``uno-tui host`` holds its own).
            if kind == "join" and data.get("seat") is not None and host.seats[data["seat"]].identity == owner_key:
                host.seats[data["seat"]].reserved = True

        host.listeners.append(keep_owners_seat)
        await host.start(self.bind, 0)
        table = ServedTable(table_id, host, person, quiet_since=time.monotonic(), address=host.address(self.local),
                            outside=host.address(self.outside_host) if self.outside_host else None,
                            rules=rules_text(variant, host.options))
        self.tables[table_id] = table
        log.info("%s opened table %s (%s, %d seats, %d bots) on port %s", person.name, table_id, variant, seats,
                 bots, host.port)
        return table

    # -- what the menu shows -------------------------------------------------------------------
    def listing(self, person: Person | None) -> list[dict[str, Any]]:
        """Every open table as the menu shows it to ``person`` (their own seat marked)."""
        # (Only with tables to look at: a person's first look makes their identity key, a file written
        # on the server's loop, and a crowd arriving at once looks at an empty room.)
        mine = self.people.public_key(person) if person is not None and self.tables else None
        out = []
        for t in sorted(self.tables.values(), key=lambda t: t.order):
            host = t.host
            if host.phase == "finished" and not host.peers:
                continue
            lobby = host.lobby_message()
            seats = []
            my_seat = None
            for seat, public in zip(host.seats, lobby["seats"]):
                is_mine = mine is not None and seat.kind == "human" and seat.identity == mine
                if is_mine:
                    my_seat = seat.index
                seats.append({k: public[k] for k in ("seat", "name", "kind", "ready", "away")} | {"mine": is_mine})
            out.append({
                "id": t.id, "owner": t.owner.name, "yours": person is not None and t.owner.key == person.key,
                "variant": host.config.variant, "title": variant_title(host.config.variant), "phase": host.phase,
                "seats": seats, "spectators": lobby["spectators"], "my_seat": my_seat, "rules": t.rules,
                "address": t.address, "outside": t.outside,
            })
        return out

    # -- the owner's moves ---------------------------------------------------------------------
    def act(self, person: Person, table_id: str, action: str) -> None:
        table = self.tables.get(table_id)
        if table is None:
            raise ValueError("that table has closed")
        if table.owner.key != person.key:
            raise ValueError(f"only {table.owner.name}, who opened this table, can do that")
        host = table.host
        if action == "fill_bots":
            host.fill_with_bots()
        elif action == "start":
            host.start_game()
        elif action == "next_round":
            host.next_round()
        elif action == "rematch":
            host.rematch()
        else:
            raise ValueError(f"unknown action {action!r}")

    # -- closing -------------------------------------------------------------------------------
    async def _reap_loop(self) -> None:
        while True:
            await asyncio.sleep(10)
            await self.reap(time.monotonic())

    async def reap(self, now: float) -> None:
        """Close the tables nobody has been at for long enough."""
        for t in list(self.tables.values()):
            if t.host.peers:
                t.quiet_since = None
                continue
            if t.quiet_since is None:
                t.quiet_since = now
            limit = FINISHED_CLOSE if t.host.phase == "finished" else QUIET_CLOSE
            if now - t.quiet_since >= limit:
                await self.close_table(t.id, "nobody is at this table any more")

    async def close_table(self, table_id: str, reason: str) -> None:
        table = self.tables.pop(table_id, None)
        if table is not None:
            log.info("closing table %s: %s", table_id, reason)
            with contextlib.suppress(Exception):
                await table.host.close(reason)

    async def close(self) -> None:
        if self._reaper is not None:
            self._reaper.cancel()
        for table_id in list(self.tables):
            await self.close_table(table_id, "the server is closing")
