"""The round's audit: every participant opens its round secret, and every pass and envelope is checked.

At the end of a round (every hand is shown for scoring anyway) each
participant publishes its :class:`~net.sealed.keys.Reveal`. With every
secret, the joint secret ``x`` is known and any ciphertext of the round
decrypts with one multiplication (``B - x*A``). The audit

1. names each participant that withheld its secret (``withheld``) or opened
   one that does not match its announcement (``reveal``);
2. for every epoch, makes every pass again from its author's opened secret
   (its permutation and re-randomisers derive from the round seed) and names
   the first that differs (``substitution``, with the cards added and lost
   when it changed them): with no shuffle proofs this is where a participant
   who swapped a card in its pass, or replaced the deck with one in an order
   of its choosing (which keeps every card and the sum), is caught;
3. opens every envelope of the round with its recipient's revealed box key
   and names a sender whose box does not open, is not signed, or carries a
   wrong share (``envelope`` / ``share``; with the secrets open a share is
   recomputed, cheaper than checking its proof again);
4. returns the card in every slot of every epoch, for the engine's replay
   (the claims players made about cards only they could see are checked
   against these).

Decrypting each pass's output would not be enough: a pass can keep every
card and still fix the order (see :mod:`net.sealed.elgamal`).
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable, Mapping, Sequence

from ..audit import AuditResult, _words, audit_envelopes, open_secrets
from ..codec import CardCodec
from ..envelope import Envelope
from ..faults import Fault
from ..group import BadPoint, mul, sadd
from ..keys import Reveal, RoundKeys, RoundSecret
from .epoch import Epoch
from .scheme import Deck, Share, decrypt_with, rerandomized


def _cards(x: bytes, deck: Deck, codec: CardCodec, author: int | None) -> list[int | None]:
    out: list[int | None] = []
    for ct in deck:
        try:
            point = decrypt_with(x, ct)
        except BadPoint:
            raise Fault("point", "a ciphertext that is not made of points of the group", author) from None
        out.append(codec.any_card(point))
    return out


def audit_epoch(x: bytes, epoch: Epoch, secrets: Mapping[int, RoundSecret]) -> list[int]:
    """Make every pass of ``epoch`` again from its author's opened secret and compare; name the first that
    differs, with the cards it added and lost when it changed them. Returns the final deck's cards."""
    codec = epoch.codec
    want = _cards(x, epoch.input, codec, None)
    if None in want:
        raise Fault("protocol", f"epoch {epoch.number}'s input holds a slot that is no card")
    before = epoch.input
    Y = epoch.keys.joint
    for i, p in enumerate(epoch.passes):
        seed = secrets[p.author].pass_seed(epoch.number, epoch.attempt)
        if rerandomized(Y, before, seed) != p.deck:
            got, expected = Counter(_cards(x, p.deck, codec, p.author)), Counter(want)
            extra, lost = got - expected, expected - got
            what = (f"changed the cards: added {_words(extra)}; lost {_words(lost)}" if got != expected
                    else "kept the cards but is not the shuffle its author's secret makes (it chose the order)")
            raise Fault("substitution", f"pass {i} of epoch {epoch.number} {what}", p.author)
        before = p.deck
    return [c for c in _cards(x, before, codec, None) if c is not None]


def audit_round(keys: RoundKeys, epochs: Sequence[Epoch], reveals: Iterable[Reveal],
                envelopes: Iterable[Envelope] = ()) -> AuditResult:
    """The whole audit of a round (see the module's notes); raises the first :class:`Fault` found."""
    secrets = open_secrets(keys, reveals)
    x = secrets[keys.pids[0]].x
    for p in keys.pids[1:]:
        x = sadd(x, secrets[p].x)
    result = AuditResult(secrets=secrets)
    for ep in epochs:
        if not ep.done:
            raise Fault("protocol", f"epoch {ep.number} was never finished")
        result.cards[ep.number] = audit_epoch(x, ep, secrets)
    by_number = {ep.number: ep for ep in epochs}

    def wrong(item: list) -> bool:  # type: ignore[type-arg]
        # With the secrets open a share is checked by making it again (a third of a proof's cost).
        try:
            s = Share.from_wire(item[1:])
        except Fault:
            return True
        ep, author = by_number.get(item[0]), secrets.get(s.author)
        return ep is None or author is None or s.D != mul(author.x, ep.ct(s.slot)[0])

    audit_envelopes(keys, secrets, envelopes, wrong)
    return result
