"""A sealed round's public orders (a Diez token drawn from the bag, a pick of handles) on loopback.

Their seed is a hash of every participant's share, each committed to in its round key's
announcement and opened (``sseed``) when the round first needs a public order
(:mod:`net.sealing.publicorder`): nobody can choose it, and a share that does not open its
commitment, or one withheld, names its author.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgpack
import pytest
from test_net_sealed import check_clean, play
from test_net_sealed_dealing import with_kim
from test_net_sealed_doubles import alarms

from net.sealed import Fault, RoundKeys, RoundSecret
from net.sealed.keys import KeyAnnouncement
from net.sealing import SealedHost, SealedPeer, Voided


def bodies(host: SealedHost, kind: str) -> list[tuple[int, dict[str, Any]]]:
    out = []
    for e in host.log:
        body = msgpack.unpackb(e["m"], raw=False)
        if body.get("k") == kind:
            out.append((e["from"], body))
    return out


@pytest.mark.parametrize("variant", ["diez", "extended"])
def test_every_participant_opens_its_share_once_and_every_peer_draws_from_the_same_seed(variant: str) -> None:
    for _ in range(6):  # a rare round ends before anyone draws a token or picks a card: play again
        host, peers = play(variant, 4, 3)
        check_clean(host, peers, 1)
        opened = bodies(host, "sseed")
        if opened:
            break
    assert sorted(p for p, _ in opened) == [0, 1, 2, 3], opened
    anns = {p: KeyAnnouncement.from_wire(b["ann"]) for p, b in bodies(host, "skey")}
    keys = RoundKeys(host.peer.game_id, 0, anns.values())
    seed = keys.public_seed({p: b["v"] for p, b in opened})
    for p in [host.peer, *peers]:
        assert p.public is not None and p.public.seed == seed
    # Not the seed the round's keys alone gave before (the last to announce could grind that).
    assert seed != hashlib.sha256(b"uno-tui/sealed/public " + keys.joint).digest()


def test_a_round_that_needs_no_public_order_opens_no_share() -> None:
    host, peers = play("classic", 3, 2)
    check_clean(host, peers, 1)
    assert bodies(host, "sseed") == []
    assert all(p.public is None for p in [host.peer, *peers])


class ShareLiar(SealedPeer):
    """Opens a share of the public orders other than the one its announcement committed to (as a
    participant that saw the others' shares and wanted another token would)."""

    def send(self, body: dict[str, Any]) -> None:
        if body.get("k") == "sseed":
            body = {**body, "v": hashlib.sha256(body["v"]).digest()}
        super().send(body)


def test_a_share_that_does_not_open_its_commitment_names_its_sender() -> None:
    for _ in range(6):  # a rare round ends before anyone draws a token: play again
        host, peers = play("diez", 3, 2, client_classes={2: ShareLiar})
        if bodies(host, "sseed"):
            break
        check_clean(host, peers, 1)
    for a in alarms(host, peers):
        assert (a.fault.code, a.fault.culprit) == ("reveal", 2), a
        assert "public orders" in str(a.fault)


class ShareWithholder(SealedPeer):
    """Never opens its share: the table waits on it alone."""

    def send(self, body: dict[str, Any]) -> None:
        if body.get("k") != "sseed":
            super().send(body)


def test_a_share_withheld_names_the_withholder() -> None:
    for _ in range(6):  # a rare round ends before anyone draws a token: play again
        got = with_kim(ShareWithholder, "diez")
        if not all(isinstance(v, SealedPeer) and v.alarm is None for v in got):
            break
    for v in got:
        assert isinstance(v, Voided) and v.who == 2 and "Kim sent nothing" in v.why, v


def secrets_of(n: int) -> list[RoundSecret]:
    return [RoundSecret.fresh(b"g" * 16, 0, p, bytes([p]) * 32) for p in range(n)]


def test_the_public_seed_takes_every_share_and_names_a_wrong_or_missing_one() -> None:
    secs = secrets_of(3)
    keys = RoundKeys(b"g" * 16, 0, [s.announce() for s in secs])
    shares = {s.pid: s.public_share for s in secs}
    seed = keys.public_seed(shares)
    assert len(seed) == 32 and seed == keys.public_seed(dict(reversed(shares.items())))
    with pytest.raises(Fault) as e:
        keys.public_seed({**shares, 1: secs[2].public_share})  # another's share
    assert (e.value.code, e.value.culprit) == ("reveal", 1)
    with pytest.raises(Fault) as e:
        keys.public_seed({0: shares[0], 1: shares[1]})
    assert (e.value.code, e.value.culprit) == ("reveal", 2)
    # The same seed again in the next round gives other shares (each round's orders are its own).
    again = RoundSecret(b"g" * 16, 1, 0, secs[0].identity, secs[0].seed)
    assert again.public_share != secs[0].public_share


def test_an_announcement_with_another_commitment_fails_its_proof() -> None:
    secs = secrets_of(3)
    anns = [s.announce() for s in secs]
    a = anns[1]
    forged = KeyAnnouncement(a.pid, a.identity, a.X, a.box, a.proof, anns[2].pub)
    with pytest.raises(Fault) as e:
        RoundKeys(b"g" * 16, 0, [anns[0], forged, anns[2]])
    assert (e.value.code, e.value.culprit) == ("key", 1)
