"""LAN discovery: the host advertises ``_uno-tui._tcp`` over mDNS; ``join`` browses for it.

Multicast is often blocked (guest Wi-Fi, containers, VPNs, some SSH boxes),
so nothing here raises: :func:`advertise` returns ``None`` with a reason
and :func:`browse` returns what it found and an explanation when it found
nothing, so the caller can ask for an address instead.

Uses python-zeroconf, imported only when discovery is used.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from dataclasses import dataclass
from typing import Any

from .messages import PROTOCOL_VERSION

log = logging.getLogger("net.discovery")

SERVICE = "_uno-tui._tcp.local."


@dataclass
class Found:
    """A table seen on the network."""

    name: str
    host: str
    port: int
    properties: dict[str, str]

    @property
    def address(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"


def local_ip() -> str:
    """This machine's address on the LAN (no packet is sent), or 127.0.0.1."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("10.254.254.254", 1))
        return str(s.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()


WILDCARDS = ("0.0.0.0", "", "::")
"""Bind addresses that listen on every interface."""


def lan_address(bind: str) -> tuple[str | None, str]:
    """The address to advertise for a host listening on ``bind``, or ``None`` and why not.

    Only an address the host listens on is advertised: ``--bind 127.0.0.1`` (or
    any loopback address) reaches no other machine, so nothing is announced.
    """
    import ipaddress

    if bind in WILDCARDS:
        ip = local_ip()
    elif bind == "localhost":
        ip = "127.0.0.1"
    else:
        ip = bind
    try:
        parsed = ipaddress.ip_address(ip)
    except ValueError:
        return None, f"LAN discovery is off: {bind} is not an IP address"
    if parsed.is_loopback:
        return None, (f"LAN discovery is off: the table listens on {ip}, which only this machine reaches"
                      if bind not in WILDCARDS else "LAN discovery is off: this machine has no LAN address")
    if parsed.version != 4:
        return None, "LAN discovery is off: it announces IPv4 addresses only; players join by address"
    return ip, ""


class Advertisement:
    """A running advertisement; ``await close()`` withdraws it."""

    def __init__(self, azc: Any, info: Any) -> None:
        self._azc, self._info = azc, info

    async def close(self) -> None:
        try:
            await self._azc.async_unregister_service(self._info)
        except Exception:
            pass
        try:
            await self._azc.async_close()
        except Exception:
            pass


async def advertise(name: str, port: int, *, ip: str | None = None, properties: dict[str, str] | None = None,
                    service: str = SERVICE) -> tuple[Advertisement | None, str]:
    """Announce a table (``service``: the open host's, or :data:`net.sealing.lan.SERVICE`); returns the
    advertisement (or ``None``) and a line for the user."""
    try:
        from zeroconf import ServiceInfo
        from zeroconf.asyncio import AsyncZeroconf
    except ImportError:
        return None, "LAN discovery is off: python-zeroconf is not installed"
    ip = ip or local_ip()
    props = {"v": str(PROTOCOL_VERSION), **(properties or {})}
    label = "".join(ch for ch in name if ch.isalnum() or ch in " -_")[:40] or "uno-tui"
    try:
        azc = AsyncZeroconf()
        info = ServiceInfo(service, f"{label} on {socket.gethostname()[:20]}.{service}",
                           addresses=[socket.inet_aton(ip)], port=port, properties=props)
        await asyncio.wait_for(azc.async_register_service(info, allow_name_change=True), 5)
    except Exception as e:  # no multicast route, no permission, no interface...
        log.info("mDNS advertisement failed: %s", e)
        return None, f"LAN discovery is unavailable here ({type(e).__name__}); players join by address"
    return Advertisement(azc, info), f"advertised on the LAN as {label!r} ({service})"


async def browse(timeout: float = 3.0, service: str = SERVICE) -> tuple[list[Found], str]:
    """Look for tables (of ``service``) for ``timeout`` seconds; returns them and a line for the user."""
    try:
        from zeroconf import ServiceStateChange
        from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf
    except ImportError:
        return [], "LAN discovery is off (python-zeroconf is not installed): give the host's address"
    found: list[Found] = []
    try:
        azc = AsyncZeroconf()
    except Exception as e:
        return [], f"LAN discovery does not work here ({type(e).__name__}): give the host's address"
    names: list[str] = []

    def on_change(zeroconf: Any, service_type: str, name: str, state_change: Any) -> None:
        if state_change is ServiceStateChange.Added and name not in names:
            names.append(name)

    try:
        browser = AsyncServiceBrowser(azc.zeroconf, [service], handlers=[on_change])
        await asyncio.sleep(timeout)
        await browser.async_cancel()
        for name in names:
            info = AsyncServiceInfo(service, name)
            if not await info.async_request(azc.zeroconf, 1500):
                continue
            props = {k.decode(errors="replace"): (v or b"").decode(errors="replace")
                     for k, v in (info.properties or {}).items()}
            for addr in info.parsed_addresses():
                found.append(Found(name.removesuffix("." + service), addr, int(info.port or 0), props))
                break
    except Exception as e:
        return found, f"LAN discovery failed ({type(e).__name__}): give the host's address"
    finally:
        try:
            await azc.async_close()
        except Exception:
            pass
    if not found:
        return [], ("no table found on the LAN (multicast may be blocked on this network): "
                    "give the host's address, e.g. uno-tui join 192.168.1.20:7777")
    return found, f"found {len(found)} table(s)"
