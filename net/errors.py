"""The one base of the network layer's errors: a code for machines and a reason for people.

Every refusal and failed check the protocol names carries both: a ``code`` that goes on the
wire or into a verdict (``password``, ``bad_field``, ``commitment``, ...) and a ``reason`` fit to
show a person. Each kind keeps its own name (:class:`net.client.Refused`,
:class:`net.messages.MessageError`, :class:`net.secure.HandshakeError`,
:class:`net.commitments.Unfair`, :class:`net.framing.FrameError`, ...) and subclasses this.
"""

from __future__ import annotations


class NetError(Exception):
    """``code``: what went wrong, one word (on the wire, in verdicts); ``reason``: the same in words."""

    def __init__(self, code: str, reason: str, *, message: str | None = None) -> None:
        """``message``: what ``str()`` says, when it is not ``reason`` alone."""
        super().__init__(reason if message is None else message)
        self.code = code
        self.reason = reason


class Refused(NetError):
    """Not seated or not let in: by the host (full, started, a bad token) or, on a client, the host's refusal."""


class NotConnected(Exception):
    """An intent or chat line was sent while the link is down."""
