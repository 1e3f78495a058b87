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
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

from ..codec import CardCodec
from .scheme import Deck, decrypt_with, rerandomized
from ..envelope import Envelope, unseal
from .epoch import Epoch
from .participant import wire_shares
from ..faults import Fault
from ..group import BadPoint, mul, sadd
from ..keys import Reveal, RoundKeys, RoundSecret


@dataclass
class AuditResult:
    cards: dict[int, list[int]] = field(default_factory=dict)
    """Epoch number -> the card in each slot of its final deck."""
    secrets: dict[int, RoundSecret] = field(default_factory=dict)
    """The opened secrets, by participant."""


def open_secrets(keys: RoundKeys, reveals: Iterable[Reveal]) -> dict[int, RoundSecret]:
    """Check every reveal; ``withheld`` names the first participant missing (the reason lists all)."""
    got: dict[int, RoundSecret] = {}
    for r in reveals:
        sec = keys.check_reveal(r)
        got[r.pid] = sec
    missing = [p for p in keys.pids if p not in got]
    if missing:
        raise Fault("withheld", f"participants {missing} did not open their round secrets", missing[0])
    return got


def _cards(x: bytes, deck: Deck, codec: CardCodec, author: int | None) -> list[int | None]:
    out: list[int | None] = []
    for ct in deck:
        try:
            point = decrypt_with(x, ct)
        except BadPoint:
            raise Fault("point", "a ciphertext that is not made of points of the group", author) from None
        out.append(codec.any_card(point))
    return out


def _words(c: Counter[int | None]) -> str:
    return ", ".join(("a non-card" if k is None else f"card {k}") + (f" x{v}" if v > 1 else "")
                     for k, v in sorted(c.items(), key=lambda kv: -1 if kv[0] is None else kv[0]))


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


def audit_envelopes(keys: RoundKeys, secrets: Mapping[int, RoundSecret], epochs: Mapping[int, Epoch],
                    envelopes: Iterable[Envelope]) -> None:
    """Open every envelope with its recipient's revealed box key and check every share in it."""
    for env in envelopes:
        sec = secrets.get(env.to)
        if sec is None or env.sender not in keys.X:
            raise Fault("envelope", f"an envelope between {env.sender} and {env.to}, not both participants",
                        env.sender)
        body, _sig = unseal(keys, sec.box_public, sec.box_secret, env)
        for e, s in wire_shares(body, env.sender, keys):
            ep = epochs.get(e)
            # With the secrets open a share is checked by recomputing it (a third of a proof's cost).
            author = secrets.get(s.author)
            if ep is None or author is None or s.D != mul(author.x, ep.ct(s.slot)[0]):
                raise Fault("share", f"participant {env.sender} sent {env.to} a bad share for slot {s.slot} "
                                     f"of epoch {e}", env.sender)


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
    audit_envelopes(keys, secrets, {ep.number: ep for ep in epochs}, envelopes)
    return result
