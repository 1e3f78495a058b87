"""``host[:port]`` addresses as typed on the command line."""

from __future__ import annotations

DEFAULT_PORT = 7777


def parse_address(text: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """``"box"`` -> ``("box", 7777)``; ``"box:9000"``; ``"[::1]:9000"``; ``"::1"``.

    Raises :class:`ValueError` with a message fit for a person.
    """
    text = text.strip()
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
