"""The round's audit: every participant opens its round seed; every pass and envelope is checked.

At the end of a round (every hand is shown for scoring anyway) each
participant publishes its :class:`~net.sealed.keys.Reveal`. Every pass derives
from the seed, so the audit

1. names each participant that withheld its seed (``withheld``) or opened one
   that does not match its announcement (``reveal``);
2. for every epoch, makes every pass again from its author's seed and names
   the first that differs (``substitution``; for a mask or lock pass, with the
   cards it added and lost): with no shuffle proofs this is where a
   participant who swapped a card in its pass is caught;
3. opens every envelope given (all of them, or only those under dispute) with
   its recipient's revealed box key and names a sender whose box does not
   open, is not signed, or carries a wrong slot key (``envelope`` / ``share``);
   a key is checked by deriving it again, which costs nothing;
4. returns the card in every slot of every epoch (from the passes'
   permutations, no decryption needed), for the engine's replay: the claims
   players made about cards only they could see are checked against these.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping, Sequence

from .envelope import Envelope, Item, items_of, unseal
from .epoch import Epoch
from .faults import Fault
from .group import BadPoint, BadScalar, smul, sinv
from .keys import Reveal, RoundKeys, RoundSecret
from .masking import PassKeys, lock_pass, masked, rekey_pass
from .xline import times


@dataclass
class AuditResult:
    cards: dict[int, list[int]] = field(default_factory=dict)
    """Epoch number -> the card in each slot of its final deck."""
    secrets: dict[int, RoundSecret] = field(default_factory=dict)
    """The opened secrets, by participant."""


def open_secrets(keys: RoundKeys, reveals: Iterable[Reveal]) -> dict[int, RoundSecret]:
    """Check every reveal; ``withheld`` names the first participant missing (the reason lists all)."""
    got = {r.pid: keys.check_reveal(r) for r in reveals}
    missing = [p for p in keys.pids if p not in got]
    if missing:
        raise Fault("withheld", f"participants {missing} did not open their round secrets", missing[0])
    return got


def _words(c: Counter[int | None]) -> str:
    return ", ".join(("a non-card" if k is None else f"card {k}") + (f" x{v}" if v > 1 else "")
                     for k, v in sorted(c.items(), key=lambda kv: -1 if kv[0] is None else kv[0]))


class _EpochAudit:
    def __init__(self, ep: Epoch, secrets: Mapping[int, RoundSecret], epochs: Mapping[int, Epoch],
                 cards: Mapping[int, list[int]]) -> None:
        self.ep, self.secrets, self.epochs = ep, secrets, epochs
        self.pk = {p: PassKeys(secrets[p].pass_seed(ep.number, ep.attempt)) for p in ep.order}
        self.old_pk = {p: {oe: PassKeys(secrets[p].pass_seed(oe, epochs[oe].attempt))
                           for oe, _ in ep.sealed.values()} for p in ep.order}
        # The input's cards: a known card's point, or a sealed card's card from its earlier epoch.
        self.input_cards: list[int] = []
        for s, v in enumerate(ep.input):
            if s in ep.sealed:
                oe, os = ep.sealed[s]
                self.input_cards.append(cards[oe][os])
            else:
                cid = ep.codec.any_card(v)
                if cid is None:
                    raise Fault("protocol", f"epoch {ep.number}'s input holds a slot that is no card")
                self.input_cards.append(cid)

    def run(self) -> list[int]:
        ep = self.ep
        before = ep.input
        where = list(range(ep.n))  # where[s]: the input position of the card now in slot s
        for i, p in enumerate(ep.passes):
            keys = self.pk[p.author]
            if p.kind == "rekey":
                old = {s: self.old_pk[p.author][oe].k(os) for s, (oe, os) in ep.sealed.items()}
                want = rekey_pass(before, old, keys, p.author)
                same = want.deck == p.deck
            elif p.kind == "mask":
                same = masked(before, keys) == p.deck
            else:
                want = lock_pass(before, keys, p.author, ep.rekeyed, None)
                same = want.deck == p.deck and want.K == p.K
            if not same:
                raise Fault("substitution", f"{p.kind} pass {i} of epoch {ep.number} is not the pass its "
                                            f"author's secret makes" + self._cards_changed(i, p.deck, where),
                            p.author)
            if p.kind == "mask":
                pi = keys.pi(ep.n)
                where = [where[pi[k]] for k in range(ep.n)]
            before = p.deck
        return [self.input_cards[where[s]] for s in range(ep.n)]

    def _cards_changed(self, index: int, deck: Sequence[bytes], where: list[int]) -> str:
        """For a bad mask or lock pass: the cards it added and lost (decoded with every key known)."""
        ep = self.ep
        kind = ep.passes[index].kind
        if kind == "rekey":
            return ""
        n_par = len(ep.order)
        first = index - index % n_par
        done = ep.order[:index % n_par + (1 if kind == "mask" else 0)]
        # Everyone's rho (after the re-key round) and the e of each mask pass done so far.
        scal = None
        for p in ep.order:
            parts = ([self.pk[p].rho] if ep.rekeyed else []) + \
                    ([self.pk[p].e] if kind == "lock" or p in done else [])
            for x in parts:
                scal = x if scal is None else smul(scal, x)
        out: list[int | None] = []
        for s, v in enumerate(deck):
            c = scal
            if kind == "lock":
                for p in ep.order[:index - first + 1]:
                    c = smul(c, self.pk[p].lock_factor(s, ep.rekeyed))  # type: ignore[arg-type]
            try:
                out.append(ep.codec.any_card(times(sinv(c))(v) if c is not None else v))
            except (BadPoint, BadScalar):
                out.append(None)
        got, expected = Counter(out), Counter(self.input_cards)
        if got == expected:
            return " (it kept the cards: it moved them)"
        return f": it added {_words(got - expected)}; lost {_words(expected - got)}"


def audit_envelopes(keys: RoundKeys, secrets: Mapping[int, RoundSecret], envelopes: Iterable[Envelope],
                    wrong: Callable[[Item], bool]) -> None:
    """Open every envelope with its recipient's revealed box key; ``wrong(item)`` judges each share in it
    (with the seeds open, by making it again)."""
    for env in envelopes:
        sec = secrets.get(env.to)
        if sec is None or env.sender not in keys.X:
            raise Fault("envelope", f"an envelope between {env.sender} and {env.to}, not both participants",
                        env.sender)
        body, _sig = unseal(keys, sec.box_public, sec.box_secret, env)
        for item in items_of(body, env.sender, keys):
            if wrong(item):
                raise Fault("share", f"participant {env.sender} sent {env.to} a wrong share for slot {item[1]} "
                                     f"of epoch {item[0]}", env.sender)


def audit_round(keys: RoundKeys, epochs: Sequence[Epoch], reveals: Iterable[Reveal],
                envelopes: Iterable[Envelope] = (), *, unfinished: bool = False) -> AuditResult:
    """The whole audit of a round (see the module's notes); raises the first :class:`Fault` found.

    ``unfinished``: an epoch still being shuffled is audited as far as its passes go (a round made
    void in the middle of one: what is wrong may be in a pass already made)."""
    secrets = open_secrets(keys, reveals)
    result = AuditResult(secrets=secrets)
    by_number = {ep.number: ep for ep in epochs}
    for ep in epochs:
        if not ep.done and not unfinished:
            raise Fault("protocol", f"epoch {ep.number} was never finished")
        result.cards[ep.number] = _EpochAudit(ep, secrets, by_number, result.cards).run()

    def wrong(item: Item) -> bool:
        e, s, author, k = item[:4]
        ep, owner = by_number.get(e), secrets.get(author)
        return ep is None or owner is None or not 0 <= s < ep.n \
            or k != PassKeys(owner.pass_seed(e, ep.attempt)).k(s)

    audit_envelopes(keys, secrets, envelopes, wrong)
    return result
