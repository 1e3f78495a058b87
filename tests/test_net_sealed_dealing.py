"""Keys dealt to a card's holder (``sdeal``): only the holder waits for them (net/sealing/dealing.py).

Every other peer follows the next move at once and files the keys whenever the log brings them;
the relay sends them to their recipient at once and to everyone else together, a moment later
(net/sealing/postbox.py). A participant that withholds keys it owes is named; a move forged by a
relay is named before any peer sends anything on its strength (a move's signature waits, but
never past this peer's own next message).
"""

from __future__ import annotations

import asyncio
import contextvars
from typing import Any

import msgpack
from test_net_sealed import check_clean, play
from test_net_sealed_doubles import alarms

from net.sealing import SealedClient, SealedHost, SealedPeer, Voided
from net.sealing import deck
from net.sealing.postbox import Postbox, next_in_line, recipients


class Patient(SealedPeer):
    """Notes each move it followed while another's card from it still lacked keys here."""

    ahead: list[tuple[int, int]] = []

    async def _move(self, author: int, body: dict[str, Any]) -> None:
        await super()._move(author, body)
        if self._owed and self.pid is not None:
            type(self).ahead.append((self.pid, self.game.version))  # type: ignore[union-attr]


class SlowPost(SealedHost):
    """A relay that keeps every copy of keys dealt to others until the next entry (no timer)."""

    def __init__(self, *a: Any, **kw: Any) -> None:
        super().__init__(*a, **kw)
        self.postbox = Postbox(hold=3600.0)


def test_only_the_holder_of_a_card_dealt_waits_for_its_keys() -> None:
    Patient.ahead = []
    host, peers = play("nomercy", 4, 3, rounds=2, client_classes={1: Patient, 2: Patient, 3: Patient},
                       host_class=Patient)
    check_clean(host, peers, 2)
    # Peers went on past moves whose card was still sealed to its holder, keys on the way.
    assert Patient.ahead


def test_every_peer_gets_the_keys_it_does_not_need_with_the_next_entry_and_the_round_audits() -> None:
    host, peers = play("classic", 4, 3, rounds=2, host_class=SealedPeer, relay_class=SlowPost)
    check_clean(host, peers, 2)
    for p in [host.peer, *peers]:
        assert len(p.envelopes) == len(host.peer.envelopes)  # every box, at every peer


class LateEcho(SealedHost):
    """A relay that gives each client its own keys dealt back only as the round's end begins (before
    the first ``sreveal``), later than the log's order: a participant must not wait for its own keys,
    not even in a deal that also brings it cards (a round's first, where everyone sends and receives)."""

    def __init__(self, *a: Any, **kw: Any) -> None:
        super().__init__(*a, **kw)
        self.held: list[tuple[Any, bytes]] = []

    def append(self, entry: dict[str, Any]) -> None:
        m, author = entry.get("m"), entry.get("from")
        if isinstance(m, bytes) and b"sreveal" in m[:16]:
            for link, body in self.held:
                self.postbox.send(link, body)
            self.held = []
        own = self.links.pop(author, None) if recipients(m) is not None else None
        try:
            super().append(entry)
        finally:
            if own is not None:
                self.links[author] = own
                self.held.append((own, self.frames[-1]))


def test_no_participant_waits_for_its_own_keys_to_come_back_from_the_log() -> None:
    host, peers = play("classic", 4, 3, rounds=2, relay_class=LateEcho, timeout=60)
    check_clean(host, peers, 2)
    assert host.held == [] and host.peer.envelopes  # type: ignore[union-attr]
    for p in [host.peer, *peers]:
        assert len(p.envelopes) == len(host.peer.envelopes) and not p._echo  # every box, at every peer


def test_the_relay_sends_keys_to_their_recipient_at_once_and_to_the_others_before_anything_else() -> None:
    class Wire:
        def __init__(self) -> None:
            self.writes: list[list[bytes]] = []

        def send_packed(self, body: bytes) -> None:
            self.writes.append([body])

        def send_many(self, bodies: list[bytes]) -> None:
            self.writes.append(list(bodies))

    async def main() -> None:
        box = Postbox(hold=3600.0)
        a, b = Wire(), Wire()
        deal = msgpack.packb({"k": "sdeal", "r": 0, "d": 2, "envs": [[1, 2, b"box"]]})
        assert recipients(deal) == {2} and recipients(msgpack.packb({"k": "smove"})) is None
        assert recipients(msgpack.packb({"k": "sdeal", "envs": "junk"})) is None  # to everyone at once
        for body in (b"k1", b"k2"):
            box.keep(a, body)  # type: ignore[arg-type]
            box.send(b, body)  # type: ignore[arg-type]
        assert b.writes == []  # written at the end of this turn of the loop
        await asyncio.sleep(0)
        # Keys read in one turn reach their recipient in one write; the others' copies wait.
        assert a.writes == [] and b.writes == [[b"k1", b"k2"]]
        box.send(b, b"k3")  # type: ignore[arg-type]
        await asyncio.sleep(0)
        assert b.writes[-1] == [b"k3"]  # a later turn: a write of its own, at once
        box.send(a, b"move")  # type: ignore[arg-type]
        await asyncio.sleep(0)
        assert a.writes == [[b"k1", b"k2", b"move"]]  # one write, in the log's order
        box.keep(b, b"k4")  # type: ignore[arg-type]
        box.send(a, b"next")  # type: ignore[arg-type]
        box.flush_all()  # what the timer does, and the host as it closes: everything, now
        assert b.writes[-1] == [b"k4"] and a.writes[-1] == [b"next"] and box._timer is None
        await asyncio.sleep(0)
        assert a.writes[-1] == [b"next"] and len(a.writes) == 2  # nothing written twice

    asyncio.run(main())


class KeyWithholder(SealedPeer):
    """Sends its keys of the round's first deal, and never any after: a drawer waits for them."""

    withheld: list[int] = []
    """The deals it withheld its keys of (none: nobody else drew this round)."""

    def send(self, body: dict[str, Any]) -> None:
        if body.get("k") == "sdeal" and body.get("d", 0) > 1:
            type(self).withheld.append(body["d"])
            return
        super().send(body)


def with_kim(kim: type[SealedPeer], variant: str = "classic") -> list[Any]:
    """A table of three with a turn timer: the host's bot, Ann, and Kim, whose peer is ``kim``; what
    each side ended with."""
    async def main() -> list[Any]:
        host = SealedHost(variant=variant, seats=3, people=2, rounds=1, turn_timer=0.05, grace=0.2)
        port = await host.start()
        try:
            return list(await asyncio.wait_for(asyncio.gather(
                host.run(), SealedClient(name="Ann").run("127.0.0.1", port),
                SealedClient(peer_class=kim, name="Kim").run("127.0.0.1", port),
                return_exceptions=True), 120))
        finally:
            await host.close()

    return asyncio.run(main())


def test_keys_withheld_from_a_drawer_name_the_withholder_not_the_drawer() -> None:
    for _ in range(4):  # in a rare round only Kim draws after the deal, and there is nothing to withhold
        KeyWithholder.withheld = []
        got = with_kim(KeyWithholder)
        if KeyWithholder.withheld:
            break
        assert all(isinstance(v, SealedPeer) and v.alarm is None for v in got), got
    assert KeyWithholder.withheld
    for v in got:
        assert isinstance(v, Voided) and v.who == 2 and "Kim sent nothing" in v.why, v


class TurnedCardWithholder(SealedPeer):
    """Sends its keys of the first hands, which leave with its key of the turned card, and never that
    key: everyone's hands are on their way, and the table waits on it alone."""

    def send(self, body: dict[str, Any]) -> None:
        if body.get("k") != "spub":
            super().send(body)


def test_a_key_of_the_turned_card_withheld_names_the_withholder_though_its_hand_keys_came() -> None:
    for v in with_kim(TurnedCardWithholder):
        assert isinstance(v, Voided) and v.who == 2 and "Kim sent nothing" in v.why, v


def test_a_move_forged_by_the_relay_is_named_before_any_key_leaves_on_its_strength() -> None:
    """The relay puts participant 1's draw in the log with a signature that is not 1's. Peers follow
    a move before its signature is checked, but check every signature set aside before they send
    anything: the keys the draw would have brought to 1 never leave (keys of an earlier deal, sent
    before the forged draw was read, may still reach the log after it)."""

    class MoveForger(SealedHost):
        forged_at: int | None = None

        def append(self, entry: dict[str, Any]) -> None:
            if self.forged_at is None and entry.get("from") == 1:
                body = msgpack.unpackb(entry["m"], raw=False)
                if body.get("k") == "smove" and (body.get("a") or {}).get("kind") == "draw":
                    type(self).forged_at = len(self.log)
                    entry = {**entry, "s": bytes(64)}
            super().append(entry)

    for _ in range(4):  # participant 1 draws in almost every round; play again if it did not
        MoveForger.forged_at = None
        host, peers = play("classic", 3, 2, relay_class=MoveForger)
        if MoveForger.forged_at is not None:
            break
    at = MoveForger.forged_at
    assert at is not None
    for a in alarms(host, peers):
        assert (a.fault.code, a.fault.culprit) == ("protocol", 1) and "did not sign" in str(a.fault), a
    # The draw was the host's peer's last deal (it followed it, then checked before sending its keys);
    # keys of earlier deals may still come after it in the log, those for this one never do.
    forged_deal = host.peer._deals  # type: ignore[union-attr]
    later = [msgpack.unpackb(e["m"], raw=False) for e in host.log[at + 1:]]
    assert forged_deal >= 1 and not [b for b in later if b.get("k") == "sdeal" and b.get("d") == forged_deal], later


class Misnamer(SealedPeer):
    """Names, for the first card it plays, another card of the deck than the one its keys open."""

    done = False

    def send(self, body: dict[str, Any]) -> None:
        if body.get("k") == "smove" and body.get("faces") and not self.done:
            type(self).done = True
            e, s, card = body["faces"][0]
            body = {**body, "faces": [[e, s, (card + 1) % self._size()], *body["faces"][1:]]}
        super().send(body)


def test_a_move_that_names_a_card_its_keys_do_not_open_names_its_player() -> None:
    """Peers take the card a move names at once and open its keys a moment later (before they send
    anything): a card named falsely is found then, and its player is named by every peer."""
    Misnamer.done = False
    host, peers = play("classic", 3, 2, client_classes={2: Misnamer})
    assert Misnamer.done
    for a in alarms(host, peers):
        assert (a.fault.code, a.fault.culprit) == ("protocol", 2) and "named card" in str(a.fault), a


class Person(SealedPeer):
    """A seat its person plays (the test presses the keys)."""

    auto = False


def test_a_persons_move_over_a_forged_entry_is_not_sent_and_the_alarm_follows(monkeypatch: Any) -> None:
    """The relay forges the host's bot's move. The person's client follows it (its signature waits
    for a quiet log) and the person then moves: the check runs before anything is signed, the
    move is refused on the screen's side (``IllegalAction``) and never sent, and the client's walk
    raises the alarm, naming the forged entry's author."""
    import core
    from net.sealing.waiting import WaitingSignatures

    monkeypatch.setattr(WaitingSignatures, "QUIET", 60.0)  # the check waits for the person's key

    class BotForger(SealedHost):
        forged = False
        at = 0

        def append(self, entry: dict[str, Any]) -> None:
            if not self.forged and entry.get("from") == 0:
                body = msgpack.unpackb(entry["m"], raw=False)
                if body.get("k") == "smove" and (body.get("a") or {}).get("kind") == "play":
                    self.forged, self.at = True, len(self.log)
                    entry = {**entry, "s": bytes(64)}
            super().append(entry)

    async def main() -> tuple[Any, Any, int]:
        host = BotForger(variant="classic", seats=2, people=1)
        port = await host.start()
        client = SealedClient(peer_class=Person)
        running = asyncio.gather(host.run(), client.run("127.0.0.1", port), return_exceptions=True)
        refused = 0
        try:
            for _ in range(3000):
                await asyncio.sleep(0.01)
                p = client.peer
                if p is None or p.game is None or p.alarm is not None or running.done():
                    if running.done():
                        break
                    continue
                d = p.game.decision
                if host.forged and p._unchecked and d is not None and d.player in p.seats and p.settled:
                    try:
                        p.move(d.player, p.game.legal_actions(d.player)[0])
                    except core.IllegalAction as e:
                        assert "stopped" in str(e)
                        refused += 1
                    break
                if d is not None and d.player in p.seats and p.settled and not host.forged:
                    p.move(d.player, p.game.legal_actions(d.player)[0])
                    await asyncio.sleep(0.05)
            got = await asyncio.wait_for(running, 60)
        finally:
            await host.close()
        return host, got[1], refused

    # The forged play may deal the person cards first, or let the bot play again and draw: then the
    # person's keys would wait on the check, which raises the alarm before the person has a move to
    # make. About every other match goes so (seen failing with five tries): play up to fifteen.
    for _ in range(15):
        host, peer, refused = asyncio.run(main())
        if refused:
            break
    assert refused == 1
    from net.sealing import Alarm

    assert isinstance(peer, Alarm) and (peer.fault.code, peer.fault.culprit) == ("protocol", 0), peer
    assert "did not sign" in str(peer.fault)
    later = [msgpack.unpackb(e["m"], raw=False).get("k") for e in host.log[host.at + 1:] if e["from"] == 1]
    assert "smove" not in later, later  # the person's move never left


class Ready(SealedPeer):
    """Notes, for each box of keys it sends, how many cards it holds and whether it was sealed
    before the move that deals them came (at once after the last one, in this test)."""

    SEAL_AHEAD_AFTER = 0.0
    sent: list[tuple[int, bool]] = []

    def _sealed_keys(self, o: int, hs: list[int]) -> Any:
        type(self).sent.append((len(hs), (o, tuple(self._ahead(h) for h in hs)) in self._sealed_ahead))
        return super()._sealed_keys(o, hs)


def test_keys_of_a_likely_draw_are_sealed_ahead_and_open_the_card_drawn() -> None:
    """While idle, each participant seals its keys of the cards a draw by the seat to act (or a
    Draw Two or Wild Draw Four on the next seat) would deal; a move that deals exactly those sends
    them at once. The cards open to their holders and every round audits clean."""
    Ready.sent = []
    host, peers = play("classic", 4, 3, rounds=2, client_classes={1: Ready, 2: Ready, 3: Ready}, host_class=Ready)
    check_clean(host, peers, 2)
    draws = [ready for n, ready in Ready.sent if n == 1]
    # How many hit depends on how the loop interleaves the peers (about 12 of 30 on a loaded
    # machine, most on a quiet one); without the work ahead none would.
    assert any(draws), Ready.sent
    assert not any(ready for n, ready in Ready.sent if n == 7)  # a deal's hands are never guessed


# -- a shuffle's passes, and the deal's first hands ---------------------------------------------

def _pass(kind: str, by: int) -> bytes:
    return msgpack.packb({"k": "spass", "r": 0, "e": 0, "p": {"kind": kind, "by": by, "deck": b""}})


def test_a_pass_goes_at_once_to_the_next_two_in_line_and_an_epochs_last_to_everyone() -> None:
    order = [0, 1, 2, 3]
    assert next_in_line(_pass("mask", 0), order) == {1, 2}
    assert next_in_line(_pass("mask", 2), order) == {3, 0}  # then everyone's lock pass, from the first
    assert next_in_line(_pass("mask", 3), order) == {0, 1}
    assert next_in_line(_pass("rekey", 3), order) == {0, 1}  # a re-key round comes before the masks
    assert next_in_line(_pass("lock", 1), order) == {2, 3}
    assert next_in_line(_pass("lock", 2), order) == {3}  # the next is the epoch's last pass
    assert next_in_line(_pass("lock", 3), order) is None  # the deck is final: everyone, at once
    assert next_in_line(_pass("mask", 0), [0]) is None or next_in_line(_pass("mask", 0), [0]) == {0}
    for junk in (_pass("mask", 7), _pass("shuffle", 1), msgpack.packb({"k": "spass", "p": []}),
                 msgpack.packb({"k": "smove"}), b"spass junk", None):
        assert next_in_line(junk, order) is None  # to everyone, as any entry


class PassPost(Postbox):
    """The relay's postbox, noting each write to a link that carries the first deal's passes."""

    def __init__(self) -> None:
        super().__init__()
        self.passes: dict[Any, list[int]] = {}

    def _write(self, link: Any, bodies: list[bytes]) -> None:
        n = 0
        for b in bodies:
            entry = msgpack.unpackb(b, raw=False)["e"]
            body = msgpack.unpackb(entry["m"], raw=False) if isinstance(entry, dict) else {}
            n += body.get("k") == "spass" and body.get("r") == 0 and body.get("e") == 0
        if n:
            self.passes.setdefault(link, []).append(n)
        super()._write(link, bodies)


class PassCounter(SealedHost):
    def __init__(self, *a: Any, **kw: Any) -> None:
        super().__init__(*a, **kw)
        self.postbox = PassPost()


def test_each_participant_is_woken_for_a_shuffles_passes_a_few_times_not_once_a_pass() -> None:
    """Only the next in line uses a pass before the deck is final, so the relay sends each at once to
    the next two participants and the others' copies with the next entry for them: at a table of four
    a client gets the first deal's eight passes, in order, in at most five writes (one each, before)."""
    host, peers = play("classic", 4, 3, rounds=1, relay_class=PassCounter)
    check_clean(host, peers, 1)
    post = host.postbox
    assert isinstance(post, PassPost)
    writes = list(post.passes.values())
    assert len(writes) == 3  # the three clients' links (the host's own peer reads the log in process)
    for w in writes:
        assert sum(w) == 8 and len(w) <= 5, w


class Noted(SealedPeer):
    """Notes what it sends and the keys shown to everyone it takes, in order."""

    notes: list[tuple[int | None, str, str]] = []

    def send(self, body: dict[str, Any]) -> None:
        type(self).notes.append((self.pid, "sent", str(body.get("k"))))
        super().send(body)

    async def take(self, kind: str, authors: Any, **kw: Any) -> dict[int, dict[str, Any]]:
        got = await super().take(kind, authors, **kw)
        type(self).notes.append((self.pid, "took", kind))
        return got


def test_the_first_hands_keys_leave_with_the_turned_cards_not_after_everyones_is_in() -> None:
    """The deck is final once the last lock pass is in, and the hands dealt before the first card is
    turned up stay dealt (core.new_game_stop): each participant sends its keys of the others' hands
    as it sends its key of the turned card, and every hand opens. Before, it waited for every
    participant's key of the turned card: one more round of the table."""
    Noted.notes = []
    host, peers = play("classic", 4, 3, rounds=1, host_class=Noted, client_classes={1: Noted, 2: Noted, 3: Noted})
    check_clean(host, peers, 1)
    for pid in range(4):
        mine = [(what, k) for p, what, k in Noted.notes if p == pid]
        first_keys = mine.index(("sent", "sdeal"))
        assert mine[first_keys - 1] == ("sent", "spub"), mine  # sent together
        assert first_keys < mine.index(("took", "spub")), mine
    for p in [host.peer, *peers]:
        assert len(p.known[p.pid]) >= 7 and all(h in p.card_of for h in p.known[p.pid])  # its cards, open


def test_a_client_makes_its_decks_card_values_while_the_table_fills(monkeypatch: Any) -> None:
    asked: list[tuple[int, bytes]] = []
    monkeypatch.setattr(deck, "make_ahead", lambda n, tag: asked.append((n, tag)))
    client = SealedClient()
    lobby = {"k": "lobby", "variant": "classic", "seats": [{}] * 4, "options": {}}
    client._heard(lobby)
    # The host's word: a frame that names no variant, or seats past any table, makes nothing.
    for bad in ({"variant": "nope"}, {"seats": [{}] * 400}, {"seats": "four"}, {"options": "x"},
                {"options": {"stacking": "sideways"}}):
        client._heard({**lobby, **bad})
    assert asked == [(108, b"uno-tui/classic")]


class KeysAfterMoves(SealedPeer):
    """Notes, as each of its boxes of keys leaves, which signatures still wait: ``(keys dealt, moves)``."""

    waiting: list[tuple[int, int]] = []

    def send(self, body: dict[str, Any]) -> None:
        super().send(body)
        if body.get("k") == "sdeal":
            keys = sum(1 for e in self._unchecked if e[4])
            type(self).waiting.append((keys, len(self._unchecked) - keys))


def test_keys_dealt_wait_on_the_moves_signatures_but_not_on_others_keys() -> None:
    """A peer's keys of a card dealt rest on the moves alone: every move's signature is checked before
    they leave, while others' ``sdeal`` entries may wait for a quiet log (a draw brings nine at a
    table of ten; checking them as the next draw's keys left put them on the drawer's path)."""
    for _ in range(4):  # whether a draw's keys come before the log is quiet depends on the pace
        KeysAfterMoves.waiting = []
        host, peers = play("classic", 4, 3, client_classes={1: KeysAfterMoves, 2: KeysAfterMoves,
                                                             3: KeysAfterMoves})
        check_clean(host, peers, 1)
        if any(keys for keys, _ in KeysAfterMoves.waiting):
            break
    assert KeysAfterMoves.waiting
    assert all(moves == 0 for _, moves in KeysAfterMoves.waiting), KeysAfterMoves.waiting
    assert any(keys for keys, _ in KeysAfterMoves.waiting), KeysAfterMoves.waiting


class Checking(SealedPeer):
    """Marks its walk, so that a signature check can tell whose it is (:data:`CHECKER`)."""

    async def run(self) -> None:
        CHECKER.set(self)
        await super().run()


CHECKER: contextvars.ContextVar[SealedPeer | None] = contextvars.ContextVar("checker", default=None)


def test_no_peer_checks_a_signature_it_knows_already(monkeypatch: Any) -> None:
    """A peer's own entries come back in the log signed as it signed them, and the host's relay
    checks each participant's message as it takes it into the log: neither is checked again (the
    host's peer would check every entry of the log twice in one process). Everything else still is."""
    import net.sealing.waiting as waiting

    real = waiting.verify
    checks: list[tuple[SealedPeer | None, bytes]] = []

    def counted(ident: bytes, s: bytes, tag: bytes, m: bytes) -> bool:
        checks.append((CHECKER.get(), ident))
        return real(ident, s, tag, m)

    monkeypatch.setattr(waiting, "verify", counted)  # (every check of a log entry's signature is there)
    host, peers = play("classic", 4, 3, rounds=2, host_class=Checking,
                       client_classes={1: Checking, 2: Checking, 3: Checking})
    check_clean(host, peers, 2)
    assert all(who is not None for who, _ in checks)
    assert not [i for who, i in checks if who is host.peer], "the host's peer checked what its relay had checked"
    for peer in peers[1:]:
        theirs = [i for who, i in checks if who is peer]
        assert peer.roster[peer.pid] not in theirs, f"participant {peer.pid} checked its own signature"
        # Every other participant's entries are still checked, the host's included.
        assert set(theirs) == {i for p, i in peer.roster.items() if p != peer.pid}


def test_a_table_waiting_for_its_players_makes_the_engines_deal_once_and_takes_no_harm_from_junk() -> None:
    """What the host's lobby frame names is made once by the engine while the table fills (its deck's
    cards and their plays, built once a process); a frame naming what cannot be makes nothing, quietly."""
    import core
    from core.game import _DECKS

    for variant in core.VARIANTS:
        cls = core.variant_class(variant)
        n = max(cls.min_players, 4)
        faces = tuple(cls.build_deck(n, cls.check_options({})))
        deck._deal_ahead(variant, n, None)
        assert any(key[0] is cls and key[1] == faces for key in _DECKS), variant
    for variant, n, options in (("nope", 4, None), ("classic", 4, {"stacking": "sideways"}), ("classic", 99, None),
                                ("classic", 4, {"x": 1})):
        deck._deal_ahead(variant, n, options)
