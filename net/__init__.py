"""uno-tui's networking layer: a host holding the one authoritative game, and clients.

What a screen or a command uses:

* :class:`Host` / :class:`HostConfig` - run a table (``await host.start(bind, port)``,
  ``reserve_seat``, ``start_game``, ``next_round``, ``rematch``, ``say``, ``listeners``).
* :class:`Client` - one seat or a spectator's chair (``connect``, ``observation``,
  ``messages``, ``send_intent``, ``chat``, ``ready``, ``close``).
* :class:`BotClient` - a bot playing through a client.
* :func:`discovery.advertise` / :func:`discovery.browse` - LAN discovery over mDNS.
* :class:`Identity` - a player's or host's Ed25519 key (made on first run, see :mod:`net.identity`).
* :mod:`net.commands` - the ``host``, ``join``, ``bot`` and ``audit`` subcommands.

Links are encrypted and authenticated (:mod:`net.secure`) and every deck order
comes from the commit-reveal deal that each client checks and audits
(:mod:`net.fair`, :mod:`net.dealer`, ``docs/fairness.md``).

The wire protocol is described in ``docs/protocol.md``.
"""

from __future__ import annotations

from .address import DEFAULT_PORT, parse_address
from .botclient import BotClient
from .client import Client, HostKeyChanged, NotConnected, ProtocolVersionError, Refused
from .host import Host
from .identity import Identity
from .messages import PROTOCOL_VERSION
from .seats import HostConfig

__all__ = [
    "BotClient", "Client", "DEFAULT_PORT", "Host", "HostConfig", "HostKeyChanged", "Identity", "NotConnected",
    "PROTOCOL_VERSION", "ProtocolVersionError", "Refused", "parse_address",
]
