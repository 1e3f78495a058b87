"""The sealed table's room on loopback: the waiting room, the password, chat, and the client's
check of the host's ``start`` (with hostile peers and a hostile host for each new message)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from net import framing
from net.errors import NetError
from net.identity import Identity
from net.secure import HandshakeError
from net.sealing import SealedClient, SealedHost, SealedPeer
from net.sealing import link as link_mod
from net.sealing.relay import MAX_REFUSED
from net.sealing.room import CHAT_BURST, StartRefused, check_start, clean_lobby, lobby_text


async def until(what: Any, *, timeout: float = 30) -> None:
    """Wait for ``what()`` to hold, looking between the loop's turns (no fixed sleep)."""
    async def wait() -> None:
        while not what():
            await asyncio.sleep(0.005)
    await asyncio.wait_for(wait(), timeout)


def heard_by(client: SealedClient) -> list[tuple[str, dict[str, Any]]]:
    got: list[tuple[str, dict[str, Any]]] = []
    client.listeners.append(lambda kind, msg: got.append((kind, msg)))
    return got


def test_the_waiting_room_shows_each_seat_to_everyone_before_the_deal() -> None:
    async def main() -> None:
        host = SealedHost(variant="classic", seats=3, people=2, rounds=1, host_seats=(0,))
        told: list[tuple[str, dict[str, Any]]] = []
        host.listeners.append(lambda kind, msg: told.append((kind, msg)))
        port = await host.start()
        ann, bo = SealedClient(name="Ann"), SealedClient(name="Bo\x1b[31m")
        ann_heard = heard_by(ann)
        running = asyncio.ensure_future(host.run())
        a = asyncio.ensure_future(ann.run("127.0.0.1", port))
        await until(lambda: ann_heard)
        room = clean_lobby(ann_heard[-1][1])
        assert room is not None and [(s["name"], s["kind"]) for s in room["seats"]] == [
            ("Bot 1", "bot"), ("Ann", "human"), ("", "open")]
        assert lobby_text(ann_heard[-1][1]) == "waiting room: 1: Bot 1 (bot) | 2: Ann | 3: open"
        assert told[-1] == ann_heard[-1]  # the host's own screen sees the same room
        b = asyncio.ensure_future(bo.run("127.0.0.1", port))
        await until(lambda: len(ann_heard) >= 2)
        assert ann_heard[-1][1]["seats"][2]["name"] == "Bo" and ann_heard[-1][1]["seats"][2]["kind"] == "human"
        await asyncio.wait_for(asyncio.gather(running, a, b), 120)
        assert host.peer is not None and host.peer.names == ["Bot 1", "Ann", "Bo"]
        await host.close()

    asyncio.run(main())


def test_one_who_leaves_the_waiting_room_frees_the_seat_for_another() -> None:
    async def main() -> None:
        host = SealedHost(variant="classic", seats=3, people=2, rounds=1)
        port = await host.start()
        running = asyncio.ensure_future(host.run())
        leaver = SealedClient(name="Lee")
        left = asyncio.ensure_future(leaver.run("127.0.0.1", port))
        await until(lambda: len(host.waiting) == 1)
        left.cancel()  # Lee closes the program before the deal
        with pytest.raises(asyncio.CancelledError):
            await left
        await until(lambda: not host.waiting)
        assert host.lobby()["seats"][0]["kind"] == "open"
        ann, bo = SealedClient(name="Ann"), SealedClient(name="Bo")
        await asyncio.wait_for(asyncio.gather(running, ann.run("127.0.0.1", port), bo.run("127.0.0.1", port)), 120)
        assert sorted(host.peer.names) == sorted(["Ann", "Bo", "Bot 3"])  # type: ignore[union-attr]
        assert host.peer.alarm is None  # type: ignore[union-attr]
        await host.close()

    asyncio.run(main())


def test_start_now_gives_the_open_seats_to_the_hosts_bots() -> None:
    async def main() -> None:
        host = SealedHost(variant="classic", seats=4, people=3, rounds=1)
        port = await host.start()
        running = asyncio.ensure_future(host.run())
        ann = SealedClient(name="Ann")
        joined = asyncio.ensure_future(ann.run("127.0.0.1", port))
        await until(lambda: len(host.waiting) == 1)
        host.start_now()
        peer, _ = await asyncio.wait_for(asyncio.gather(joined, running), 120)
        assert peer.names == ["Ann", "Bot 2", "Bot 3", "Bot 4"] and peer.owners == [1, 0, 0, 0]
        assert peer.alarm is None and all(v["ok"] for v in peer.verdicts)
        await host.close()

    asyncio.run(main())


# -- the password ---------------------------------------------------------------------------------
def test_a_password_table_lets_in_who_knows_it_and_refuses_who_does_not() -> None:
    async def main() -> None:
        host = SealedHost(variant="classic", seats=2, people=1, rounds=1, password="open sesame")
        port = await host.start()
        running = asyncio.ensure_future(host.run())
        for given, code in ((None, "password"), ("open sesamo", "password")):
            with pytest.raises(HandshakeError) as refused:
                await SealedClient(password=given).run("127.0.0.1", port)
            assert refused.value.code == code, refused.value
        assert "wrong password" in str(refused.value)
        assert host.waiting == [] and host.throttle.failures("127.0.0.1") == 1
        # A client with a password refuses a host that asks for none (it proved nothing).
        other = SealedHost(variant="classic", seats=2, people=1)
        other_port = await other.start()
        with pytest.raises(HandshakeError) as no_pw:
            await SealedClient(password="open sesame").run("127.0.0.1", other_port)
        assert no_pw.value.code == "no_password"
        await other.close()
        peer = await asyncio.wait_for(SealedClient(password="open sesame").run("127.0.0.1", port), 120)
        await running
        assert peer.alarm is None and host.throttle.failures("127.0.0.1") == 0
        await host.close()

    asyncio.run(main())


def test_wrong_passwords_in_a_row_are_slowed_then_refused_at_once() -> None:
    async def main() -> None:
        host = SealedHost(variant="classic", seats=2, people=1, password="pw")
        host.throttle.hold = 0.0  # any wait is refused at once (no sleeping in the test)
        port = await host.start()
        with pytest.raises(HandshakeError):
            await SealedClient(password="guess 1").run("127.0.0.1", port)
        with pytest.raises(HandshakeError) as slowed:
            await SealedClient(password="guess 2").run("127.0.0.1", port)
        assert slowed.value.code == "throttled" and "try again in" in str(slowed.value)
        await host.close()

    asyncio.run(main())


# -- chat ---------------------------------------------------------------------------------------------
class Flooder(SealedClient):
    """A hostile client: once in the waiting room, it sends chat lines as fast as it can."""

    lines = 40

    def _heard(self, msg: dict[str, Any]) -> None:
        super()._heard(msg)
        if msg.get("k") == "lobby" and not getattr(self, "_flooded", False):
            self._flooded = True
            for i in range(self.lines):
                self.say(f"spam {i}")


def test_chat_is_cleaned_and_a_flood_is_cut_off() -> None:
    async def main() -> None:
        host = SealedHost(variant="classic", seats=4, people=3, rounds=1)
        told: list[tuple[str, dict[str, Any]]] = []
        host.listeners.append(lambda kind, msg: told.append((kind, msg)))
        port = await host.start()
        running = asyncio.ensure_future(host.run())
        ann = SealedClient(name="Ann")
        heard = heard_by(ann)
        a = asyncio.ensure_future(ann.run("127.0.0.1", port))
        await until(lambda: len(host.waiting) == 1)
        ann.say("hi \x1b[2J\x1b]0;owned\x07there\r\nfriend")
        await until(lambda: any(k == "chat" for k, _ in heard))
        line = next(m for k, m in heard if k == "chat")
        assert line == {"k": "chat", "from": "Ann", "text": "hi there friend"}
        # The flood: at most a burst reaches anyone, then the link is closed and its seat freed.
        flood = Flooder(name="Flo")
        f = asyncio.ensure_future(flood.run("127.0.0.1", port))
        await until(lambda: f.done())
        with pytest.raises((ConnectionError, framing.FrameError, NetError)):
            f.result()
        spam = [m for k, m in told if k == "chat" and m["from"] == "Flo"]
        assert 1 <= len(spam) <= CHAT_BURST + 1
        refused = [why for who, why in host.refused if why.startswith("a chat line")]
        assert len(refused) == MAX_REFUSED
        await until(lambda: [w.name for w in host.waiting] == ["Ann"])
        # The room goes on: two more join and the match plays clean.
        rest = [SealedClient(name=n).run("127.0.0.1", port) for n in ("Bo", "Cy")]
        peers = await asyncio.wait_for(asyncio.gather(a, *rest, running), 120)
        assert all(p.alarm is None for p in peers)
        assert sum(1 for k, m in heard if k == "chat" and m["from"] == "Flo") <= CHAT_BURST + 1
        await host.close()

    asyncio.run(main())


def test_the_host_chats_and_a_spectator_hears_it() -> None:
    async def main() -> None:
        host = SealedHost(variant="classic", seats=2, people=1, rounds=1, name="Hal")
        port = await host.start()
        running = asyncio.ensure_future(host.run())
        watcher = SealedClient(spectator=True)
        heard = heard_by(watcher)
        w = asyncio.ensure_future(watcher.run("127.0.0.1", port))
        await until(lambda: host.watchers)
        host.say("welcome\x1b[31m!")
        await until(lambda: any(k == "chat" for k, _ in heard))
        assert [m for k, m in heard if k == "chat"] == [{"k": "chat", "from": "Hal", "text": "welcome !"}]
        await asyncio.wait_for(asyncio.gather(running, SealedClient().run("127.0.0.1", port), w), 120)
        await host.close()

    asyncio.run(main())


# -- the start ----------------------------------------------------------------------------------------
class ShortNames(SealedHost):
    """A hostile host: its start names fewer seats than it gives holders."""

    def seat_names(self, owners: list[int]) -> list[str]:
        return super().seat_names(owners)[:-1]


class StolenSeat(SealedHost):
    """A hostile host: its start gives the client's seat to a participant not in the roster."""

    def owners(self) -> list[int]:
        return [7 if o else o for o in super().owners()]


@pytest.mark.parametrize("host_class,words", [(ShortNames, "names 2 seats but gives holders for 3"),
                                              (StolenSeat, "held by no participant")])
def test_a_client_refuses_a_start_that_does_not_describe_the_table(host_class: type[SealedHost],
                                                                   words: str) -> None:
    async def main() -> None:
        host = host_class(variant="classic", seats=3, people=1, rounds=1)
        port = await host.start()
        running = asyncio.ensure_future(host.run())
        with pytest.raises(StartRefused) as refused:
            await asyncio.wait_for(SealedClient().run("127.0.0.1", port), 30)
        assert refused.value.code == "start" and words in str(refused.value), refused.value
        running.cancel()
        await host.close()

    asyncio.run(main())


def _start(**over: Any) -> tuple[dict[str, Any], bytes]:
    me = Identity.generate().public
    start = {"k": "start", "roster": [[0, Identity.generate().public], [1, me]], "owners": [0, 1, 0],
             "names": ["a", "b", "c"], "variant": "classic", "options": None, "game": bytes(16), "rounds": 1,
             "level": "normal", "pid": 1}
    start.update(over)
    return start, me


@pytest.mark.parametrize("over,words", [
    ({"names": ["a"]}, "1 seats, but classic is for 2 to 10"),
    ({"owners": [0, 1]}, "names 3 seats but gives holders for 2"),
    ({"owners": [0, 1, True]}, "held by no participant"),
    ({"pid": 0}, "not in the roster under the number it was given"),
    ({"roster": [[1, b"x" * 32]]}, "the host (participant 0) is not in the roster"),
    ({"variant": "poker"}, "not one this client knows"),
    ({"rounds": 0}, "rounds"),
    ({"level": "godlike"}, "bot level"),
    ({"game": b"short"}, "16 bytes"),
    ({"names": "abc"}, "lacks"),
])
def test_check_start_names_what_is_wrong(over: dict[str, Any], words: str) -> None:
    start, me = _start(**over)
    with pytest.raises(StartRefused) as refused:
        check_start(start, me)
    assert words in str(refused.value)
    good, me = _start()
    check_start(good, me)  # the same start without the fault is accepted


def test_a_full_table_refuses_in_words() -> None:
    async def main() -> None:
        host = SealedHost(variant="classic", seats=2, people=1, rounds=1)
        port = await host.start()
        running = asyncio.ensure_future(host.run())
        first = asyncio.ensure_future(SealedClient(peer_class=SealedPeer).run("127.0.0.1", port))
        await until(lambda: host._start is not None)
        with pytest.raises(HandshakeError) as full:
            await SealedClient().run("127.0.0.1", port)
        assert full.value.code == "full" and "has started" in str(full.value)
        await asyncio.wait_for(asyncio.gather(first, running), 120)
        await host.close()

    asyncio.run(main())


def test_a_plain_refusal_is_read_as_one_and_anything_else_is_not() -> None:
    refused = link_mod._refusal(framing.pack({"k": "refuse", "code": "password", "reason": "no\x1b[2J"}))
    assert refused is not None and refused.code == "password" and refused.reason == "no"
    assert link_mod._refusal(b"\x00\x01junk") is None


# -- leaving for good --------------------------------------------------------------------------------
def test_one_who_leaves_for_good_voids_the_round_and_everyone_is_told() -> None:
    """A participant's keys leave with it: the round cannot end, so after the host's grace every peer
    ends the match with the round void (not an alarm about anyone), rather than waiting forever."""
    from net.sealing import Voided

    async def main() -> None:
        host = SealedHost(variant="classic", seats=3, people=2, rounds=2, grace=0.2)
        port = await host.start()
        running = asyncio.ensure_future(host.run())
        stay, leave = SealedClient(name="Stay"), SealedClient(name="Leave", peer_class=Slow)
        s = asyncio.ensure_future(stay.run("127.0.0.1", port))
        await until(lambda: len(host.waiting) == 1)
        gone = asyncio.ensure_future(leave.run("127.0.0.1", port))
        await until(lambda: leave.peer is not None and getattr(leave.peer, "game", None) is not None)
        gone.cancel()  # Leave's program ends mid-round: its link closes
        got = await asyncio.wait_for(asyncio.gather(running, s, return_exceptions=True), 60)
        for v in got:
            assert isinstance(v, Voided), v
            assert v.who == 2 and v.round == 0 and "Leave left the table" in v.why
        assert host.voided == {"r": 0, "who": 2, "why": got[0].why}
        assert stay.peer is not None and stay.peer.verdicts == []  # the round never ended
        await host.close()

    asyncio.run(main())


def test_only_the_host_may_void_a_round() -> None:
    """A participant that signs a void of its own is named, not obeyed."""
    class Voider(SealedPeer):
        def _act(self) -> None:
            if not getattr(self, "_voided", False):
                self._voided = True
                self.send({"k": "svoid", "r": self.round, "who": 0, "why": "I say so"})
            super()._act()

    async def main() -> None:
        host = SealedHost(variant="classic", seats=2, people=1, rounds=1)
        port = await host.start()
        got = await asyncio.wait_for(asyncio.gather(
            host.run(), SealedClient(peer_class=Voider).run("127.0.0.1", port), return_exceptions=True), 60)
        from net.sealing import Voided

        assert not isinstance(got[0], Voided)
        assert got[0].fault.code == "protocol" and got[0].fault.culprit == 1, got[0]
        await host.close()

    asyncio.run(main())


class Slow(SealedPeer):
    """A peer whose seat never moves (its person gone quiet): the round waits on it."""

    auto = False


# -- the turn timer ----------------------------------------------------------------------------------
class Absent(SealedPeer):
    """A person who never touches the keys: the seat is theirs to play (no bot chooses for it)."""

    auto = False


class Deaf(Absent):
    """A hostile client: connected, but it lets its turn timer run out and sends nothing."""

    def _out_of_time(self, p: int, version: int) -> None:
        pass


def test_a_person_out_of_time_has_their_own_clients_bot_move_for_them() -> None:
    async def main() -> None:
        host = SealedHost(variant="classic", seats=2, people=1, rounds=1, turn_timer=0.02)
        port = await host.start()
        client = SealedClient(peer_class=Absent)
        timed: list[int] = []
        running = asyncio.ensure_future(host.run())
        joined = asyncio.ensure_future(client.run("127.0.0.1", port))
        await until(lambda: client.peer is not None)
        client.peer.timeouts.append(timed.append)  # type: ignore[union-attr]
        peer, _ = await asyncio.wait_for(asyncio.gather(joined, running), 120)
        assert peer.alarm is None and all(v["ok"] for v in peer.verdicts) and len(peer.verdicts) == 2
        assert timed and set(timed) == {0}  # the person's seat, every move its bot's
        assert any(p == 0 for p, _ in host.peer.moves)  # type: ignore[union-attr]
        await host.close()

    asyncio.run(main())


def test_a_client_that_lets_the_timer_run_out_and_sends_nothing_voids_the_round() -> None:
    from net.sealing import Voided

    async def main() -> None:
        host = SealedHost(variant="classic", seats=2, people=1, rounds=1, turn_timer=0.02, grace=0.1)
        port = await host.start()
        got = await asyncio.wait_for(asyncio.gather(
            host.run(), SealedClient(peer_class=Deaf, name="Dee").run("127.0.0.1", port), return_exceptions=True),
            60)
        for v in got:
            assert isinstance(v, Voided) and v.who == 1 and "Dee sent nothing" in v.why, v
        await host.close()

    asyncio.run(main())


def test_a_start_whose_timer_is_not_a_time_is_refused() -> None:
    start, me = _start(timer=-1)
    with pytest.raises(StartRefused, match="turn timer"):
        check_start(start, me)


def test_a_hostile_hosts_room_is_cleaned_and_typed_before_any_screen() -> None:
    room = clean_lobby({"k": "lobby", "host": "Hal\x1b]0;pwned\x07", "variant": "classic\x1b[2J",
                        "options": {"x\x1b[1m": "y\x1b[5m", "n": 3}, "rounds": "many", "turn_timer": -4,
                        "grace": True, "spectators": "lots",
                        "seats": [{"kind": "admin", "name": "Ann\r\nroot#"}, {"kind": "bot", "name": 7}] * 40})
    assert room is not None
    assert room["host"] == "Hal" and room["variant"] == "classic" and room["options"] == {"x": "y", "n": 3}
    assert room["rounds"] is None and room["turn_timer"] is None and room["grace"] == 0.0
    assert room["spectators"] == 0 and len(room["seats"]) == 32 and room["sealed"]
    assert room["seats"][0] == {"seat": 0, "kind": "open", "name": "Ann root#", "ready": True, "away": False,
                                "bot_plays": False}
    assert room["seats"][1]["name"] == "7"
    assert clean_lobby({"seats": "none"}) is None and clean_lobby({"seats": [1]}) is None


def test_a_player_who_closed_the_terminal_joins_again_and_the_match_ends_clean(tmp_path: Any) -> None:
    """``join`` keeps the user's key and a folder of round secrets (one file a game): the same person
    back mid-round is let into their seat and catches up from the log."""
    me = Identity.generate()

    async def main() -> tuple[SealedHost, Any]:
        host = SealedHost(variant="classic", seats=3, people=2, rounds=1)
        port = await host.start()
        running = asyncio.ensure_future(host.run())
        other = asyncio.ensure_future(SealedClient().run("127.0.0.1", port))
        first = SealedClient(me, save_path=tmp_path, peer_class=Absent)  # a person who does not move...
        gone = asyncio.ensure_future(first.run("127.0.0.1", port))
        await until(lambda: first.peer is not None and hasattr(first.peer, "deal_events"))
        gone.cancel()  # ... and closes the terminal
        back = await asyncio.wait_for(SealedClient(me, save_path=tmp_path).run("127.0.0.1", port), 120)
        await asyncio.wait_for(asyncio.gather(running, other), 60)
        await host.close()
        return host, back

    host, back = asyncio.run(main())
    assert back.alarm is None and len(back.verdicts) == 3 and all(v["ok"] for v in back.verdicts)
    assert [p.name for p in tmp_path.iterdir()] == [f"{host.peer.game_id.hex()}.secrets"]  # type: ignore[union-attr]


# -- rematch ---------------------------------------------------------------------------------------
def test_a_rematch_deals_a_new_match_to_the_same_people_in_the_same_seats(tmp_path: Any) -> None:
    async def main() -> list[Any]:
        host = SealedHost(variant="classic", seats=3, people=2, rounds=1, transcript_dir=tmp_path)
        port = await host.start()
        with pytest.raises(ValueError):
            host.rematch()  # no match has ended
        ann, bo = (SealedClient(name=n, matches=None, transcript_dir=tmp_path / n) for n in ("Ann", "Bo"))
        playing = [asyncio.ensure_future(c.run("127.0.0.1", port)) for c in (ann, bo)]
        first = await asyncio.wait_for(host.run(), 120)
        first_game, first_names = first.game_id, first.names
        paths = [host.transcript.path]  # type: ignore[union-attr]
        host.rematch()
        second = await asyncio.wait_for(host.run(), 120)
        assert second.game_id != first_game and second.names == first_names == ["Ann", "Bo", "Bot 3"]
        assert second.alarm is None and all(v["ok"] for v in second.verdicts) and len(second.verdicts) == 3
        paths.append(host.transcript.path)  # type: ignore[union-attr]
        await host.close()  # the table closes: each client leaves with its last match
        peers = await asyncio.wait_for(asyncio.gather(*playing), 60)
        assert [p.game_id for p in peers] == [second.game_id] * 2
        assert all(p.alarm is None and len(p.verdicts) == 3 for p in peers)
        return paths

    paths = asyncio.run(main())
    from net.sealing.transcript import audit_path

    assert paths[0] != paths[1]
    for path in [*paths, *(tmp_path / "Ann").iterdir()]:  # a transcript a match, each verifying alone
        assert audit_path(path).status == 0, path
    assert len(list((tmp_path / "Ann").iterdir())) == 2


def test_a_chat_line_that_is_not_text_or_is_only_escapes_is_not_relayed() -> None:
    from net.sealing.room import chat_line, heard

    assert chat_line("Ann", 42) is None and chat_line("Ann", {"x": 1}) is None
    assert chat_line("Ann", "\x1b[2J\x1b[H  \r\n") is None
    line = chat_line("A\x1bnn" * 20, "x" * 1000)
    assert line is not None and line["text"] == "x" * 300
    assert "\x1b" not in line["from"] and len(line["from"]) <= 24
    assert heard({"from": ["x"], "text": None}) == ("['x']", "")


def test_a_host_that_closes_a_whole_match_says_so_and_its_clients_do_not_reconnect() -> None:
    """After the match's last round the host closes the table with ``closed``: each client ends its
    match with the log it holds, is told the table closed, and never reports a lost link (it would
    show "reconnecting…" to a person, and try for two minutes). A host stopped mid-match sends no
    such word: its clients wait for it to come back (``--resume``; the resume tests)."""

    async def main() -> tuple[list[Any], list[list[tuple[str, dict[str, Any]]]]]:
        host = SealedHost(variant="classic", seats=3, people=2, rounds=1)
        port = await host.start()
        class Slow(SealedPeer):  # still auditing its last round as the host closes
            async def _end_round(self) -> None:
                await super()._end_round()
                await until(lambda: host.ended)  # the host is done and closes; this peer's match is not over yet
                await asyncio.sleep(0.1)

        # They stay for a rematch, as a screen's client does.
        clients = [SealedClient(matches=None, peer_class=Slow), SealedClient(matches=None, peer_class=Slow)]
        heard = [heard_by(c) for c in clients]
        links: list[list[Any]] = [[], []]
        for c, seen in zip(clients, links):
            c.listeners.append(lambda kind, msg, seen=seen: seen.append(msg) if kind == "link" else None)
        running = asyncio.gather(host.run(), *[c.run("127.0.0.1", port) for c in clients], return_exceptions=True)
        done = asyncio.ensure_future(running)
        await until(lambda: host.ended)
        await host.close()
        got = await asyncio.wait_for(done, 60)
        assert links == [[], []], links  # no lost link noted
        return list(got[1:]), heard

    peers, heard = asyncio.run(main())
    for p, h in zip(peers, heard):
        assert isinstance(p, SealedPeer) and p.alarm is None and len(p.verdicts) == 3, p
        assert ("closed", {"k": "closed"}) in h
