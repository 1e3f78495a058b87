"""``host[:port]`` addresses as typed on the command line, and why a host cannot listen on one.

An address may also be written ``uno://host:port#FINGERPRINT``, as the host
prints it: the fingerprint (at least 6 hex characters of the host key's
SHA-256) lets ``join`` check it reached the right host.
"""

from __future__ import annotations

import asyncio
import errno
import socket

DEFAULT_PORT = 7777


def split_fingerprint(text: str) -> tuple[str, str | None]:
    """``"uno://box:9000#3fa9c2"`` -> ``("box:9000", "3fa9c2")``; no fingerprint gives None."""
    text = given = text.strip()
    if text.lower().startswith("uno://"):
        text = text[6:]
    if "://" in text:
        raise ValueError(f"{given!r}: a table's address is uno://HOST:PORT#FINGERPRINT (as its host shows it) "
                         "or HOST[:PORT]")
    text = text.rstrip("/")
    fp: str | None = None
    if "#" in text:
        text, fp = text.split("#", 1)
        fp = fp.strip().lower()
        from .identity import FP_MIN

        if len(fp) < FP_MIN or len(fp) > 64 or any(ch not in "0123456789abcdef" for ch in fp):
            raise ValueError(f"#{fp}: a host fingerprint is {FP_MIN} to 64 hex characters")
    return text.rstrip("/"), fp


def parse_address(text: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """``"box"`` -> ``("box", 7777)``; ``"box:9000"``; ``"[::1]:9000"``; ``"::1"``;
    ``"uno://box:9000#3fa9c2"`` (the fingerprint is checked by :class:`net.Client`).

    Raises :class:`ValueError` with a message fit for a person.
    """
    text, _fp = split_fingerprint(text)
    if not text:
        raise ValueError("an address is host[:port], e.g. 192.168.1.20:7777")
    host, port_text, has_port = text, "", False
    if text.startswith("["):  # [v6]:port
        end = text.find("]")
        if end < 0:
            raise ValueError(f"{text!r}: missing ']' after an IPv6 address")
        host, rest = text[1:end], text[end + 1 :]
        if rest:
            if not rest.startswith(":"):
                raise ValueError(f"{text!r}: expected ':port' after ']'")
            port_text, has_port = rest[1:], True
    elif text.count(":") == 1:
        host, port_text = text.split(":")
        has_port = True
    if not host:
        raise ValueError(f"{text!r}: no host name")
    if not has_port:
        return host, default_port
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ValueError(f"{text!r}: the port must be a number from 1 to 65535")
    return host, int(port_text)


def listen_error(bind: str, port: int, error: OSError) -> str:
    """Why the host could not listen, in words (a port in use says so and what to do)."""
    if error.errno == errno.EADDRINUSE:
        return (f"port {port} on {bind} is already in use (another uno-tui host?): "
                "choose another with --port, or --port 0 for any free one")
    if error.errno == errno.EADDRNOTAVAIL:
        return f"{bind} is not an address of this machine: check --bind"
    if error.errno == errno.EACCES:
        return f"not allowed to listen on port {port}: ports below 1024 need privileges; choose another with --port"
    return f"cannot listen on {bind}:{port}: {error.strerror or error}"


def connect_error(where: str, error: BaseException) -> str:
    """Why a table at ``where`` could not be reached, in words a player can act on."""
    code = getattr(error, "errno", None)
    if isinstance(error, ConnectionRefusedError) or code == errno.ECONNREFUSED:
        return f"nothing answers at {where}: is the table open, and is that its port?"
    if isinstance(error, socket.gaierror):
        return f"no machine answers to the name in {where}: check the address"
    if isinstance(error, (asyncio.TimeoutError, TimeoutError)) or code in (errno.ETIMEDOUT, errno.EHOSTUNREACH,
                                                                           errno.ENETUNREACH):
        return f"{where} cannot be reached: check the address, and that this machine is on its network"
    return f"cannot reach {where}: {getattr(error, 'strerror', None) or error or type(error).__name__}"
