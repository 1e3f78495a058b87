"""Cheating doubles at a sealed table on loopback (issue 16): each is caught, named, and the table says so.

Every double is a subclass (of the participant, or of the client's peer); nothing in the
production code knows of them. "The table says so": every honest peer ends the round with an
:class:`net.sealing.Alarm` naming the fault and its culprit (a check it made itself, or the
``salarm`` the peer that caught it logged), or, for a false claim, with signed verdicts naming
the seat.
"""

from __future__ import annotations

from typing import Any

import pytest
from sealed_table import accepted_lies
from test_net_sealed import play
from test_sealed_round import LockCopier, Swapper

import core
from core import Action
from net.sealed import Participant
from net.sealed.envelope import Envelope, seal
from net.sealed.epoch import share_item
from net.sealed.group import random_scalar
from net.sealing import Alarm, SealedPeer


def peer_with(participant: type[Participant]) -> type[SealedPeer]:
    return type(f"{participant.__name__}Peer", (SealedPeer,), {"participant_class": participant})


def alarms(host: Any, peers: list[Any]) -> list[Alarm]:
    """The alarm each side ended with (the host's peer and every client)."""
    out = []
    for p in [host.peer, *peers]:
        a = p.alarm if isinstance(p, SealedPeer) else p
        assert isinstance(a, Alarm), p
        out.append(a)
    return out


def test_a_card_substituted_in_a_mask_pass_is_caught_at_once_and_named() -> None:
    host, peers = play("classic", 3, 2, client_classes={2: peer_with(Swapper)})
    for a in alarms(host, peers):
        assert (a.fault.code, a.fault.culprit) == ("pass", 2)
    assert not host.peer.verdicts  # type: ignore[union-attr]  (the round never reached its end)


def test_a_lock_pass_that_copies_a_card_is_named_by_the_audit() -> None:
    host, peers = play("classic", 3, 2, client_classes={1: peer_with(LockCopier)})
    for a in alarms(host, peers):
        # Seen twice by one viewer, or found when the round's audit makes every pass again.
        assert a.fault.culprit == 1 and a.fault.code in ("substitution", "card"), a


class BadSharer(Participant):
    """Seals a wrong key for the first slot it gives to participant 2."""

    def share_with(self, to: int, slots: Any) -> Envelope:
        slots = list(slots)
        if to != 2 or not slots:
            return super().share_with(to, slots)
        items = [share_item(e, s, self.pid, self.key(e, s)) for e, s in slots]
        items[0] = share_item(slots[0][0], slots[0][1], self.pid, random_scalar())
        return seal(self.signer, self.keys, self.pid, to, items)


def test_a_bad_share_is_caught_by_its_recipient_and_the_table_names_the_sender() -> None:
    host, peers = play("classic", 3, 2, client_classes={1: peer_with(BadSharer)})
    for a in alarms(host, peers):
        assert (a.fault.code, a.fault.culprit) == ("share", 1), a


class Liar(SealedPeer):
    """A client that sends, whenever it can, a move its own game knows rests on a false claim."""

    lied: list[tuple[int, Action]] = []

    def choose(self, p: int) -> Action | None:
        g = self.game
        assert g is not None
        lies = accepted_lies(g, p)
        if lies:
            lie = self.rng.choice(lies)
            type(self).lied.append((g.version, lie))
            return lie
        return super().choose(p)

    def shows(self, p: int, action: Action) -> list[core.Card]:
        assert self.game is not None
        return core.sealed.shows(self.game, p, action, claimed=True)


def test_a_false_claim_is_named_by_every_peer_at_the_round_s_audit() -> None:
    Liar.lied = []
    host, peers = play("classic", 3, 2, rounds=2, client_classes={1: Liar},
                       options={"draw_until_playable": True, "no_bluff": True})
    assert Liar.lied, "the liar found no lie to tell"
    for p in [host.peer, *peers]:
        assert isinstance(p, SealedPeer) and p.alarm is None
        named = {seat for v in p.verdicts for seat, _words in v["false"]}
        assert named == {0}  # the liar's seat, in every participant's signed verdict
        assert all(not v["ok"] for v in p.verdicts if v["r"] in {a.game.round for a in p.audits
                                                                  if a.false_claims})


class Withholder(SealedPeer):
    """Never opens its seed at the round's end."""

    async def _end_round(self) -> None:
        self.secret = None
        await super()._end_round()


def test_a_withheld_seed_is_named_at_the_reveal_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(SealedPeer, "reveal_timeout", 1.0)
    host, peers = play("classic", 3, 2, client_classes={2: Withholder})
    for a in alarms(host, peers):
        assert (a.fault.code, a.fault.culprit) == ("withheld", 2), a


class FalseAccuser(SealedPeer):
    """Publishes an honest envelope it received as though a key in it were bad."""

    async def _deliver(self, events: list[core.Event]) -> None:
        before = len(self.envelopes)
        await super()._deliver(events)
        mine = [e for e in self.envelopes[before:] if e.to == self.pid]
        if mine and self.secret is not None:
            from net.sealed.envelope import unseal

            body, sig = unseal(self.keys, self.secret.box_public, self.secret.box_secret, mine[0])
            self.send({"k": "saccuse", "r": self.round, "from": mine[0].sender, "body": body, "sig": sig})


def test_a_false_accusation_names_the_accuser() -> None:
    host, peers = play("classic", 3, 2, client_classes={2: FalseAccuser})
    for a in alarms(host, [p for p in peers]):
        assert (a.fault.code, a.fault.culprit) == ("accusation", 2), a
