"""The sealed deal on the wire (issue 16): whole networked matches on loopback, every audit verifying.

A :class:`net.sealing.SealedHost` seats bots of its own and bot clients
(:class:`net.sealing.SealedClient`) over real TCP; every peer runs its replica in lockstep over
the host's signed log, and at each round's end every peer audits the round (the cryptography
and the engine's replay) and signs its verdict.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import core
from net.sealing import SealedClient, SealedHost, SealedPeer

SEALABLE = [v for v in core.VARIANTS if core.variant_class(v).sealable]


def play(variant: str, seats: int, people: int, *, rounds: int = 1, host_seats: tuple[int, ...] = (),
         client_classes: dict[int, type[SealedPeer]] | None = None, host_class: type[SealedPeer] = SealedPeer,
         timeout: float = 120, names: tuple[str, ...] = (), relay_class: type[SealedHost] = SealedHost,
         **host_kw: Any) -> tuple[SealedHost, list[Any]]:
    """Run a sealed match; returns the host and each side's peer or the exception it ended with."""
    classes = client_classes or {}

    async def main() -> tuple[SealedHost, list[Any]]:
        # What the loop would only log (a callback that raised): kept for the test to see.
        errors: list[dict[str, Any]] = []
        asyncio.get_running_loop().set_exception_handler(lambda _loop, context: errors.append(context))
        host = relay_class(variant=variant, seats=seats, people=people, rounds=rounds, host_seats=host_seats,
                           peer_class=host_class, **host_kw)
        port = await host.start()
        clients = [SealedClient(peer_class=classes.get(i + 1, SealedPeer), name=names[i] if i < len(names) else "")
                   for i in range(people)]
        try:
            got = await asyncio.wait_for(asyncio.gather(host.run(), *[c.run("127.0.0.1", port) for c in clients],
                                                        return_exceptions=True), timeout)
        finally:
            await host.close()
        host.loop_errors = errors  # type: ignore[attr-defined]
        return host, list(got)

    return asyncio.run(main())


def check_clean(host: SealedHost, peers: list[Any], rounds: int) -> None:
    for p in peers:
        assert isinstance(p, SealedPeer), p
        assert p.alarm is None
        # Every participant's verdict on every round, each one clean, as every peer read them.
        assert len(p.verdicts) == rounds * len(p.pids)
        assert all(v["ok"] and not v["false"] for v in p.verdicts)
        assert len(p.audits) == rounds and all(not a.false_claims for a in p.audits)
    # Every replica ended where the host's did, on everything public.
    pub = host.peer.game.public_observation()  # type: ignore[union-attr]
    for p in peers:
        assert p.game.public_observation() == pub
        assert p.moves == host.peer.moves  # type: ignore[union-attr]


def test_a_sealed_match_of_classic_over_loopback_audits_clean() -> None:
    # Two people asking for one name, and a name carrying terminal escapes.
    host, peers = play("classic", 4, 3, rounds=2, names=("Ann", "Ann", "\x1b[2J\x1b]0;owned\x07Eve"))
    check_clean(host, peers, 2)
    assert not host.loop_errors  # type: ignore[attr-defined]
    # The match went somewhere: moves were made, and each client held a hand it could see.
    assert len(host.peer.moves) > 3  # type: ignore[union-attr]
    # Each seat has the name its person asked for, made unique and cleaned, the same at every peer.
    for p in [host.peer, *peers]:
        assert p.game.names == ["Ann", "Ann 2", "Eve", "Bot 4"]  # type: ignore[union-attr]


class Eager(SealedPeer):
    """A peer that does its work ahead of the next move at once after each (here, where bots move
    at once, it would seldom come to it): keys sealed ahead and the needs' copy, in every variant."""

    SEAL_AHEAD_AFTER = 0.0


@pytest.mark.parametrize("variant", SEALABLE)
def test_every_sealable_variant_plays_a_sealed_round_over_loopback(variant: str) -> None:
    seats = max(2, core.variant_class(variant).min_players)
    host, peers = play(variant, seats, seats - 1, host_class=Eager,
                       client_classes={i: Eager for i in range(1, seats)})
    check_clean(host, peers, 1)
    assert not host.loop_errors  # type: ignore[attr-defined]  # (the work done while idle among them)


@pytest.mark.parametrize("variant", ["classic", "nomercy"])
def test_a_host_that_seats_nobody_keeps_one_game_the_public_one(variant: str) -> None:
    """A participant with no seat sees what the public sees: its game is the public game, kept once
    (not two games made to follow each move alike), and it ends every round where every player's
    replica does, over a new round's deal too."""
    host, peers = play(variant, 2, 2, rounds=2, host_class=Eager, client_classes={1: Eager, 2: Eager})
    check_clean(host, peers, 2)
    assert not host.loop_errors  # type: ignore[attr-defined]
    hp = host.peer
    assert hp is not None and hp.seats == () and hp.game is hp.pub
    # (a No Mercy round can end in five moves, a player knocked out by a stack of draws: a clean-clone
    # run saw it, so the second round's moves are checked against the players', not counted)
    assert hp.moves and hp.game.round == 1  # type: ignore[union-attr]
    players = [p for p in peers if p is not hp]
    assert len(players) == 2
    for p in players:  # a player keeps two: its own, which knows its hand, and the public one
        assert p.seats and p.game is not p.pub and p.pub.public_observation() == hp.game.public_observation()  # type: ignore[union-attr]
        assert p.moves == hp.moves


@pytest.mark.parametrize("variant", SEALABLE)
def test_a_host_alone_with_its_bots_opens_its_cards_with_its_own_keys(variant: str) -> None:
    """``host --seats 3 --bots 2`` and nobody joins: the host is the table's only participant. No key
    of another is owed for its cards, so none came, and its cards stayed sealed to it: its bots (and
    its person's screen) could not read their own hands. Now its own keys open them, a round's deal
    and every card drawn or moved, over a new round's deal too."""
    seats = max(3, core.variant_class(variant).min_players)
    host, peers = play(variant, seats, 0, rounds=2, host_class=Eager)
    check_clean(host, peers, 2)
    assert not host.loop_errors  # type: ignore[attr-defined]
    hp = host.peer
    assert hp is not None and hp.pids == [hp.pid] and hp.seats == tuple(range(seats))
    if variant != "wildrawz":  # (a trick game: its cards are all dealt)
        assert any(a.kind == "draw" for _p, a in hp.moves)
    assert not hp.envelopes  # nothing sealed to anyone: there was nobody to seal a key to


class WatchedHost(SealedPeer):
    """The host's own peer, as any host runs it, with a note after every move of what it holds."""

    def __init__(self, *a: Any, **kw: Any) -> None:
        super().__init__(*a, **kw)
        self.notes: list[dict[str, Any]] = []
        self.frames_at: Any = None
        self.shown: set[int] = set()
        """Cards the rules showed the host's seats in another hand: a hand shown to the host's
        seat that challenged a Wild Draw Four (the official rules' "show your hand to the
        challenger"). Those the host may know."""

    def _walked(self) -> int:
        """The log entries this walk has followed: those relayed, less those read ahead and not yet
        followed (a drawer reads on while it waits for its keys: a later move may show a card this
        note still counts hidden, to everyone, as the rules then show it)."""
        from net.sealing.waiting import _QUIET

        ahead = sum(1 for e in self.inbox._queue if e is not _QUIET)  # type: ignore[attr-defined]
        return len(self.frames_at()) - ahead - len(self._unread) - len(self.deferred)

    async def _move(self, author: int, body: dict[str, Any]) -> None:
        g = self.game
        assert g is not None
        knew = {c.id for c in g.cards[g.deck_size:] if not core.is_sealed(c)}
        challenge = body.get("seat") in self.seats and (body.get("a") or {}).get("kind") == "challenge"
        await super()._move(author, body)
        if g.phase == "over":
            return
        if challenge:
            self.shown |= {c.id for c in g.cards[g.deck_size:] if not core.is_sealed(c)} - knew
        mine = {c.id for q in self.seats for c in g.hands[q]}
        hidden = {c.id for q in range(len(g.hands)) if q not in self.seats for c in g.hands[q]}
        hidden |= {c.id for c in g.draw_pile}
        hidden -= g._slots.public | mine | self.shown  # type: ignore[union-attr]
        self.notes.append({
            "round": self.round, "hidden": {h: self.slot[h] for h in hidden},
            "known": {c.id for c in g.cards[g.deck_size:] if not core.is_sealed(c)},
            "public_known": {c.id for c in self.pub.cards[self.pub.deck_size:] if not core.is_sealed(c)},
            "card_of": set(self.card_of), "opened": set(self.part.cards),  # type: ignore[union-attr]
            "received": {s: dict(v) for s, v in self.part.received.items()},  # type: ignore[union-attr]
            "frames": self._walked(), "attempts": {e.number: e.attempt for e in self.epochs},
        })


def test_a_playing_host_holds_no_face_of_another_hand_or_of_the_pile(tmp_path: Any) -> None:
    """The host plays seat 0 and seats a bot; a client plays seat 1. After every move, nothing the
    host holds (its games, its participant, the frames it relayed, its save) opens a card in the
    client's hand or in the draw pile: the client's slot key for each such card, known once the
    client's seed is opened at the round's end, appears nowhere the host could read it before."""
    from net.sealed.masking import PassKeys

    holder: dict[str, SealedHost] = {}

    class Host(WatchedHost):
        def __init__(self, *a: Any, **kw: Any) -> None:
            super().__init__(*a, **kw)
            self.frames_at = lambda: holder["host"].frames

    save = tmp_path / "host-secret.bin"

    async def main() -> tuple[SealedHost, list[Any]]:
        host = SealedHost(variant="classic", seats=3, people=1, host_seats=(0,), peer_class=Host, save_path=save)
        holder["host"] = host
        port = await host.start()
        try:
            got = await asyncio.wait_for(asyncio.gather(host.run(), SealedClient().run("127.0.0.1", port),
                                                        return_exceptions=True), 120)
        finally:
            await host.close()
        return host, list(got)

    host, peers = asyncio.run(main())
    check_clean(host, peers, 1)
    hp = host.peer
    assert isinstance(hp, Host) and hp.notes
    client_secret = hp.results[0].secrets[1]
    saved = save.read_bytes()
    assert hp.seats == (0, 2)  # the host's own hand and its bot's
    checked = 0
    for note in hp.notes:
        hidden = note["hidden"]
        assert hidden, "the client's hand and the pile are never empty mid-round"
        # Its games know no face of them; nor does its participant; nor its public replica.
        assert not set(hidden) & (note["known"] | note["public_known"] | note["card_of"])
        assert not {tuple(s) for s in hidden.values()} & set(note["opened"])
        frames = b"".join(host.frames[:note["frames"]])
        for h, (e, s) in hidden.items():
            k = PassKeys(client_secret.pass_seed(e, note["attempts"][e])).k(s)
            assert 1 not in note["received"].get((e, s), {})  # the client never gave the host its key
            assert k not in frames and k not in saved  # nor did it pass through the host in clear
            checked += 1
    assert checked > 50
    # The search can find a key: the client's keys of the cards shown to everyone are in the frames.
    g = hp.game
    shown = [h for h in g._slots.public if h in hp.slot]  # type: ignore[union-attr]
    frames = b"".join(host.frames)
    found = [h for h in shown if PassKeys(client_secret.pass_seed(hp.slot[h][0], 0)).k(hp.slot[h][1]) in frames]
    assert shown and len(found) == len(shown)

