"""The fair deal: commitments, the table's signed log, and the checks every peer runs.

One *epoch* is one shuffle the engine asks for (a round's deal, a card sent
back at the start, each reshuffle of the discards). For each epoch the host
runs, before the engine needs it (see :mod:`net.dealer`):

1. ``commit``: the host picks a secret order of the cards, ``sigma`` (slot ->
   card id), and a fresh 16-byte salt per slot, and publishes the slot
   commitments ``c[s] = H(game, epoch, attempt, s, salt[s], id, notation)``
   and their root;
2. every participant (the host and each connected person) commits to a
   random 32-byte seed: ``d = H(root, identity key, r)`` (``seed``);
3. the host shows everyone the set of commitments (``commits``), every
   participant signs the hash of the set it was shown (``ack``), and the host
   shows all the acks (``acks``): a host that showed different commitments to
   different players is caught here;
4. the host reveals its seed first (``hreveal``), then the others (``reveals``);
   each reveal must open its commitment. The combined key
   ``H(root, (pid, r) for every participant)`` drives
   :func:`core.permutation` into ``pi``; the k-th card drawn in the epoch is
   slot ``pi[k]``;
5. a card that reaches a hand is *delivered* to its holder alone with its
   draw index, slot and salt, and the holder checks it against the
   commitment and the permutation; a card that becomes public (played,
   turned) is opened in the log for everyone;
6. at the end of the round every slot is opened (``open``) and every peer
   *audits* the round on its own: signatures and the hash chain, every
   commitment, the deck (exactly the variant's deck, or exactly the cards the
   rules reshuffle), the permutations, every delivery, and the engine
   replayed over the log must accept every action and reach the same
   rulings and scores.

Some chance is not about cards: Diez draws tokens from a bag everyone can
count. The engine hands such a shuffle *public tokens* (plain strings, see
:mod:`core.source`), and the epoch is a *public* one: the ``commit`` entry
lists the items in their canonical (sorted) order, each slot's commitment is
``H(game, epoch, attempt, s, item)`` over that list (no salt, no secret
order: ``sigma`` is the identity), and the same seed exchange fixes ``pi``.
The k-th item drawn is ``items[pi[k]]``, which every peer computes as soon as
the reveals are in; nothing is delivered or opened later, and the audit
replays the draws from the agreed permutation like the cards.

Everything the host says is a *log entry*: msgpack bytes holding its index
``i`` and the hash of the previous entry ``prev``, signed by the host's
identity over those exact bytes. What a peer says (seed commitments, acks,
reveals, intents, receipts, verdicts) is a msgpack message signed by the
peer, which the host copies into the log byte for byte.

Where it lives: the hashes and commitments both sides compute in
:mod:`net.commitments`; the host's secrets and its signed log in
:mod:`net.tablelog` (run by :mod:`net.dealer`); what a peer checks in
:mod:`net.ledger` (its seats' rules in :mod:`net.duties`, the round's audit in
:mod:`net.replay`, the records of epochs and steps in :mod:`net.epochs`); the
player's half of the seed exchange in :mod:`net.player`. This module names
them all in one place.
"""

from __future__ import annotations

from .commitments import (HOST_PID, MAX_REDRAWS, TAG_DELIVER, TAG_LOG, TAG_PEER, TAG_RULING, ZERO, Unfair,
                          canonical, combined_key, deck_root, engine_order, entry_hash, inverse, item_hash, pack,
                          peer_message, public_commits, public_items, seed_commitment, set_hash, slot_hash, unpack)
from .epochs import EpochPublic, Step
from .ledger import Ledger
from .replay import ReplaySource
from .tablelog import EpochSecret, TableLog

__all__ = [
    "HOST_PID", "MAX_REDRAWS", "TAG_DELIVER", "TAG_LOG", "TAG_PEER", "TAG_RULING", "ZERO", "EpochPublic",
    "EpochSecret", "Ledger", "ReplaySource", "Step", "TableLog", "Unfair", "canonical", "combined_key",
    "deck_root", "engine_order", "entry_hash", "inverse", "item_hash", "pack", "peer_message", "public_commits",
    "public_items", "seed_commitment", "set_hash", "slot_hash", "unpack",
]
