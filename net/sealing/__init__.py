"""The sealed deal on the wire (issue 16): every peer's replica in lockstep over the host's signed log.

* :mod:`.lockstep`: one peer's side (a player's client, the host for its bots, a spectator): its
  replica of the game, its :class:`net.sealed.Participant`, and the deterministic walk through
  the log that every peer makes alike (the engine's needs asked before each move, the epochs,
  the openings, the deliveries, the round's reveal, audit and verdict);
* :mod:`.relay`: the host's sequencer over TCP (and :mod:`.client`, the client's side): the host orders and relays
  signed messages it cannot read, and runs its own peer like anyone else; :mod:`.link`, the
  encrypted links; :mod:`.signed`, the signed messages and alarms; :mod:`.roundend`, the round's end; :mod:`.store`, the secrets
  on disk; :mod:`.room`, the waiting room, chat and the check of ``start``; :mod:`.transcript`, the
  transcript and its audit; :mod:`.serve`, the commands; :mod:`.resume`, the host's save and
  ``--resume``; :mod:`.restart`, what a restarted peer does not send twice; :mod:`.lan`, the table
  on the LAN; :mod:`.postbox`, when the relay writes each link; :mod:`.deck`, the deck's values,
  made while the table fills.

The cryptography is :mod:`net.sealed`; the engine's side is :mod:`core.sealed` / :mod:`core.needs`.
"""

from .lockstep import SealedPeer
from .client import SealedClient
from .relay import SealedHost
from .signed import Alarm, Voided
from .store import SecretStore

__all__ = ["Alarm", "SealedClient", "SealedHost", "SealedPeer", "SecretStore", "Voided"]
