"""A sealed table on the LAN: the host's advertisement, and the list ``join`` (or ``bot``) picks from.

A sealed host announces ``_uno-sealed._tcp`` over mDNS (its own service, so an open host's
``join --trusted-host`` never lists a table it cannot play, and the other way round), with its
host key's whole fingerprint in the TXT record. A table found becomes the address its host prints,
``uno://HOST:PORT#FINGERPRINT``, and joining it checks that fingerprint in the handshake, as for
a typed address (:func:`net.sealing.link.connect`).

What that guarantees, and what it cannot (``docs/playing-together.md`` says it to players): an
mDNS record is anyone's to send, unsigned. The fingerprint check binds the connection to the key
the record names, so a record that points at another machine while naming the real host's key is
refused at the handshake, and nobody between the record and the host can swap in a key of their
own. But an impostor may announce a table of its own under any name with its own key: only the
fingerprint the host's screen shows, compared by a person, tells the real table from it. So the
list shows each table's fingerprint as the host shows it, and says whether this account has joined
that host and port under that key before (``known_hosts``, :class:`net.identity.KnownHosts`, which
a sealed join keeps as the open client does), under another (a warning), or never. Whatever table one joins, the sealed deal holds
there too: a fake host sees no card of yours and cannot deal a card it chose.

Everything in a record is cleaned before a terminal shows it, and a record without a well-formed
fingerprint is left out (it could not be checked on connect).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Awaitable, Callable

from .. import discovery
from ..discovery import Found
from ..identity import KnownHosts, fingerprint
from ..messages import MAX_NAME, clean_text
from .link import SEALED_VERSION

SERVICE = "_uno-sealed._tcp.local."
"""The sealed tables' mDNS service (the open host's is :data:`net.discovery.SERVICE`)."""

SHOWN = 16
"""Hex characters of a fingerprint shown in the list: as many as the host's address shows."""

Browse = Callable[..., Awaitable[tuple[list[Found], str]]]


@dataclass
class SealedTable(Found):
    """A sealed table seen on the LAN (its record checked and cleaned)."""

    fingerprint: str = ""
    """The host key's whole fingerprint as the record gave it (64 hex characters), checked on connect."""
    seen: str = "new"
    """``known``: this account joined this host and port under this key before; ``changed``: under
    another key (an impostor, or a host with a new key); ``new``: never."""

    @property
    def address(self) -> str:
        where = f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"
        return f"uno://{where}#{self.fingerprint}"

    def label(self) -> str:
        """One line for the list: the name, the host and port, the game, the key as its host shows it."""
        where = f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"
        extra = [x for x in (self.properties.get("variant", ""), f"{self.properties['seats']} seats"
                             if self.properties.get("seats") else "", "password"
                             if self.properties.get("pw") == "1" else "") if x]
        key = f"key {self.fingerprint[:SHOWN]}" + {"known": " (known)", "changed": " (KEY CHANGED!)"}.get(
            self.seen, " (new to you)")
        return f"{self.name}  ({where}{' · ' + ' · '.join(extra) if extra else ''} · {key})"


def table_from(found: Found, known: KnownHosts | None = None) -> SealedTable | None:
    """A sealed table from a record, cleaned; None for a record that is no sealed table of this
    version, or whose fingerprint could not be checked on connect."""
    props = found.properties
    fp = props.get("fp", "").lower()
    if props.get("deal") != "sealed" or props.get("v") != str(SEALED_VERSION):
        return None
    if len(fp) != 64 or any(ch not in "0123456789abcdef" for ch in fp):
        return None
    if not 0 < found.port < 65536:
        return None
    shown = {k: clean_text(props.get(k, ""), 20) for k in ("variant", "seats", "pw")}
    seats = shown["seats"]
    shown["seats"] = seats if seats.isdigit() else ""
    table = SealedTable(clean_text(found.name, MAX_NAME + 30) or "a table", found.host, found.port,
                        {k: v for k, v in shown.items() if v}, fingerprint=fp)
    before = known.get(f"{found.host}:{found.port}") if known is not None else None
    if before is not None:
        table.seen = "known" if fingerprint(before) == fp else "changed"
    return table


def properties(identity_public: bytes, variant: str, seats: int, password: bool) -> dict[str, str]:
    """The TXT record of a sealed table."""
    return {"v": str(SEALED_VERSION), "deal": "sealed", "fp": fingerprint(identity_public), "variant": variant,
            "seats": str(seats), "pw": "1" if password else "0"}


async def advertise(name: str, port: int, bind: str, props: dict[str, str]) -> tuple[discovery.Advertisement | None,
                                                                                    str]:
    """Announce a sealed table listening on ``bind``; the advertisement (None when it is not made) and a
    line for the user (why not, as the open host says it: a loopback table is not announced)."""
    ip, why_not = discovery.lan_address(bind)
    if ip is None:
        return None, why_not
    return await discovery.advertise(name, port, ip=ip, properties=props, service=SERVICE)


async def find_tables(timeout: float = 3.0, *, browse: Browse | None = None,
                      known: KnownHosts | None = None) -> tuple[list[SealedTable], str]:
    """Look for sealed tables for ``timeout`` seconds (``browse``: :func:`net.discovery.browse`): the
    tables and a line for the user."""
    found, note = await (browse or discovery.browse)(timeout, service=SERVICE)
    tables = [t for f in found if (t := table_from(f, known)) is not None]
    if tables:
        return tables, f"found {len(tables)} sealed table(s)"
    if found:
        return [], "no sealed table of this version found on the LAN: give the host's address"
    if "address" not in note or "no table found" in note:
        note = ("no sealed table found on the LAN (multicast may be blocked on this network): give the "
                "host's address, e.g. uno-tui join uno://192.168.1.20:7777#FINGERPRINT")
    return [], note


__all__ = ["SERVICE", "SealedTable", "advertise", "find_tables", "properties", "table_from"]
