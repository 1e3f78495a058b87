"""``uno-tui serve``: real SSH clients on loopback reach the menu, open tables, play, watch and leave.

The server runs in the test's own event loop (so a test can look at the
tables it runs); every session is a real process on a pseudo-terminal, and
every player a real asyncssh client whose screen is read through a terminal
emulator. OpenSSH's ``ssh`` and the ``uno-tui serve`` command itself are in
test_serve_cli.py, the browser in test_serve_web.py.
"""

from __future__ import annotations

import asyncio
from typing import Any

import asyncssh
import pytest

from serve_support import CHIP, Player, hand_labels, open_table, play_a_card, running, until
from uno_tui.widgets.cards import card_text

def only_table(server: Any) -> Any:
    tables = list(server.room.tables.values())
    assert len(tables) == 1, tables
    return tables[0]


async def test_a_player_opens_a_table_against_bots_plays_a_card_and_leaves(tmp_path: Any) -> None:
    async with running(tmp_path) as server:
        ann = await Player("ann").connect(server.ssh_port)
        await ann.wait("Hello, ann")
        await ann.wait("could see your hand")  # the fairness notice
        await open_table(ann, seats=2, bots=1)
        table = only_table(server)
        assert table.owner.name == "ann" and table.host.seats[1].kind == "bot"
        ann.press("r")  # ready: every seat is taken, so the game starts
        await ann.wait("Your hand", what="the table")
        card = await play_a_card(ann, table.host, 0)
        assert any(c["id"] == card["id"] for c in table.host.game.observation(0)["discard"])
        await ann.wait(lambda: hand_labels(ann) == sorted(card_text(c) for c in table.host.game.observation(0)["hand"]),
                       what="the hand on screen without the card played")
        ann.press("ctrl+q")  # leave the table: back to the menu, the seat kept
        await ann.wait("← your seat")
        ann.press("q")
        assert await ann.exit_status() == 0
        await ann.close()


async def test_two_players_see_only_their_own_hands_and_a_third_watches(tmp_path: Any) -> None:
    async with running(tmp_path) as server:
        ann = await Player("ann").connect(server.ssh_port)
        await open_table(ann, seats=2, bots=0)
        bob = await Player("bob").connect(server.ssh_port)
        await bob.wait("ann's table")
        bob.press("down", "down")  # bots, open a table, then the table
        await bob.wait("1 open seat")
        bob.press("enter")
        await bob.wait("bob (you)")
        ann.press("r")
        bob.press("r")
        await ann.wait("Your hand")
        await bob.wait("Your hand")
        host = only_table(server).host
        for player, seat in ((ann, 0), (bob, 1)):
            mine = sorted(card_text(c) for c in host.game.observation(seat)["hand"])
            await player.wait(lambda: hand_labels(player) == mine, what=f"seat {seat}'s own hand on its screen")
        assert hand_labels(ann) != hand_labels(bob)
        carl = await Player("carl").connect(server.ssh_port)
        await carl.wait("ann's table")
        carl.press("down", "down", "w")
        await carl.wait("Watching · every hand is hidden")
        assert not CHIP.search(carl.text().split("Watching")[1].split("╰")[0])  # no card of anyone's
        await until(lambda: host.lobby_message()["spectators"] == 1, "the spectator to be counted")
        for p in (ann, bob, carl):
            await p.close()


async def test_a_key_keeps_its_seat_across_dropped_connections(tmp_path: Any) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")

    async def back(where: str) -> Player:
        player = await Player("ann", key=key).connect(server.ssh_port)
        await player.wait("← your seat")
        player.press("enter")  # the menu puts the seat that waits first
        await player.wait(where)
        return player

    async with running(tmp_path) as server:
        ann = await Player("ann", key=key).connect(server.ssh_port)
        await open_table(ann, seats=2, bots=1)
        host = only_table(server).host
        ann.conn.abort()  # type: ignore[union-attr]  # dropped in the lobby, no goodbye
        await until(lambda: host.seats[0].peer is None, "the table to see ann gone")
        assert host.seats[0].name == "ann"  # the owner's seat is held
        ann = await back("ann (you)")
        await ann.wait("Waiting for ann to be ready")
        ann.press("r")
        await ann.wait("Your hand")
        ann.conn.abort()  # type: ignore[union-attr]  # dropped in the game
        await until(lambda: host.seats[0].peer is None, "the table to see ann gone again")
        ann = await back("Your hand")
        assert host.seats[0].peer is not None
        # Someone else typing the same name without the key is another person, with no seat here.
        mallory = await Player("ann").connect(server.ssh_port)
        await mallory.wait("ann's table")
        assert "← your seat" not in mallory.text()
        for p in (ann, mallory):
            await p.close()


async def test_sessions_without_a_terminal_or_with_a_strange_one_are_told_why(tmp_path: Any) -> None:
    async with running(tmp_path) as server:
        cases = [
            (Player("nopty", term=None, size=None), "uno-tui needs a terminal"),
            (Player("dumb", term="dumb"), "not one that understands them"),
        ]
        for player, words in cases:
            await player.connect(server.ssh_port)
            await player.wait(lambda: words in player.terminal.plain(), what=words)
            assert await player.exit_status() == 1
            await player.close()
        command = Player("cmd")
        await command.connect(server.ssh_port, command="ls /")
        await command.wait(lambda: "runs uno-tui, not commands" in command.terminal.plain())
        assert await command.exit_status() == 1
        await command.close()


async def test_a_tiny_window_is_asked_to_grow_and_resizes_are_followed(tmp_path: Any) -> None:
    async with running(tmp_path) as server:
        tiny = await Player("tiny", size=(10, 5)).connect(server.ssh_port)
        await tiny.wait(lambda: "This window is 10×5" in tiny.terminal.plain())
        tiny.resize(80, 24)
        await tiny.wait("Hello, tiny")
        # Shrunk while playing: the notice; grown again: the menu, drawn at the new size.
        tiny.resize(50, 12)
        await tiny.wait("This window is 50×12")
        tiny.resize(120, 30)
        await tiny.wait(lambda: "Hello, tiny" in tiny.text() and
                        max(len(line) for line in tiny.text().splitlines()) > 80, what="the menu at 120 columns")
        await tiny.close()


async def test_a_full_server_turns_the_next_person_away(tmp_path: Any) -> None:
    async with running(tmp_path, max_sessions=1) as server:
        ann = await Player("ann").connect(server.ssh_port)
        await ann.wait("Hello, ann")
        bob = await Player("bob").connect(server.ssh_port)
        await bob.wait(lambda: "This uno-tui server is full" in bob.terminal.plain())
        assert await bob.exit_status() == 1
        ann.press("q")
        await ann.exit_status()
        await ann.close()
        await bob.close()
        later = await Player("bob").connect(server.ssh_port)  # a place is free again
        await later.wait("Hello, bob")
        await later.close()


async def test_an_idle_session_is_closed(tmp_path: Any) -> None:
    async with running(tmp_path, idle_timeout=1.0) as server:
        ann = await Player("ann").connect(server.ssh_port)
        await ann.wait("Hello, ann")
        await ann.wait(lambda: "without a key press" in ann.terminal.plain(), what="the idle notice")
        assert await ann.exit_status() == 0
        # Whole, in words, and wrapped on the screen (the terminal's line wrap is back on).
        assert "Closed after 1 second without a key press" in ann.terminal.plain()
        assert "your seat waits for you." in ann.text().replace("\n", "")
        await ann.close()
        assert not server.sessions


async def test_a_password_or_a_listed_key_is_needed_when_asked(tmp_path: Any) -> None:
    listed, other = asyncssh.generate_private_key("ssh-ed25519"), asyncssh.generate_private_key("ssh-ed25519")
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(listed.export_public_key())
    async with running(tmp_path, password="sesame") as server:
        with pytest.raises(asyncssh.PermissionDenied):
            await Player("eve", password="guess").connect(server.ssh_port)
        with pytest.raises(asyncssh.PermissionDenied):
            await Player("eve", key=other).connect(server.ssh_port)  # a key alone does not open it
        ann = await Player("ann", password="sesame").connect(server.ssh_port)
        await ann.wait("Hello, ann")
        await open_table(ann, seats=2, bots=1)  # the tables ask the password too, and the session gives it
        assert only_table(server).host.config.password == "sesame"
        await ann.close()
    async with running(tmp_path, authorized_keys=str(keys)) as server:
        with pytest.raises(asyncssh.PermissionDenied):
            await Player("eve", key=other).connect(server.ssh_port)
        with pytest.raises(asyncssh.PermissionDenied):
            await Player("eve").connect(server.ssh_port)
        ann = await Player("ann", key=listed).connect(server.ssh_port)
        await ann.wait("Hello, ann")
        await ann.close()


async def test_a_stalled_or_vanished_session_does_not_hold_up_another(tmp_path: Any) -> None:
    async with running(tmp_path) as server:
        slow = await Player("slow").connect(server.ssh_port)
        await slow.wait("Hello, slow")
        slow.chan.pause_reading()  # type: ignore[union-attr]  # reads nothing more
        for size in [(100 + i % 20, 30) for i in range(60)]:
            slow.chan.change_terminal_size(*size)  # type: ignore[union-attr]  # each a full redraw it will not read
        fast = await Player("fast").connect(server.ssh_port)
        await fast.wait("Hello, fast")
        fast.press("down")
        await fast.wait(lambda: "Open a table" in fast.text())
        gone = await Player("gone").connect(server.ssh_port)
        await gone.wait("Hello, gone")
        gone.conn.abort()  # type: ignore[union-attr]
        await until(lambda: len(server.sessions) == 2, "the vanished session to be cleared")
        fast.press("q")
        assert await fast.exit_status() == 0
        slow.chan.resume_reading()  # type: ignore[union-attr]
        await slow.wait("Hello, slow")
        for p in (slow, fast):
            await p.close()


async def test_only_the_owner_runs_a_table_and_strangers_get_no_control(tmp_path: Any) -> None:
    from uno_tui.serve.control import ControlClient, ControlError

    async with running(tmp_path) as server:
        ann = await Player("ann").connect(server.ssh_port)
        await open_table(ann, seats=3, bots=0)
        table = only_table(server)
        bob = await Player("bob").connect(server.ssh_port)
        await bob.wait("ann's table")
        bob_session = next(s for s in server.sessions if s.person is not None and s.person.name == "bob")
        control = ControlClient(server.control.path, bob_session.key)
        with pytest.raises(ControlError, match="only ann"):
            await asyncio.to_thread(control.call, "owner", table=table.id, action="fill_bots")
        assert table.host.seats[1].kind == "open"
        stranger = ControlClient(server.control.path, "not-a-session-key")
        with pytest.raises(ControlError):
            await asyncio.to_thread(stranger.call, "tables")
        ann.press("b")  # the owner's key in the lobby: bots take the open seats
        await ann.wait(lambda: all(s.kind != "open" for s in table.host.seats), what="bots in the open seats")
        control.close()
        for p in (ann, bob):
            await p.close()


async def test_a_player_with_their_own_uno_tui_joins_a_served_table(tmp_path: Any) -> None:
    from net import Client

    async with running(tmp_path) as server:
        ann = await Player("ann").connect(server.ssh_port)
        await open_table(ann, seats=2, bots=0)
        table = only_table(server)
        assert table.outside is not None and table.outside.startswith("uno://127.0.0.1:")
        zed = Client(table.outside, "zed", transcript_dir=False)  # what `uno-tui join ADDRESS` runs
        await zed.connect()
        await ann.wait("zed", what="the outsider in ann's lobby")
        assert table.host.seats[1].name == "zed" and zed.seat == 1
        await zed.close()
        await ann.close()


async def test_tables_nobody_is_at_close_and_one_person_opens_only_a_few(tmp_path: Any) -> None:
    import time

    from net import Client
    from uno_tui.serve.tables import MAX_OWN_TABLES, QUIET_CLOSE

    async with running(tmp_path) as server:
        room = server.room
        ann = server.people.by_name("ann")
        tables = [await room.open(ann, {"variant": "classic", "seats": 2, "bots": 1}) for _ in range(MAX_OWN_TABLES)]
        with pytest.raises(ValueError, match="tables open here already"):
            await room.open(ann, {"variant": "classic", "seats": 2, "bots": 1})
        with pytest.raises(ValueError, match="unknown game"):
            await room.open(server.people.by_name("bob"), {"variant": "poker"})
        watcher = Client(tables[0].address, "w", spectate=True, transcript_dir=False)
        await watcher.connect()
        await until(lambda: tables[0].host.peers, "the watcher at the first table")
        await room.reap(time.monotonic())
        await room.reap(time.monotonic() + QUIET_CLOSE + 1)
        assert list(room.tables) == [tables[0].id]  # the one somebody is at stays open
        await watcher.close()


async def test_connections_are_sealed_with_aes_gcm_and_a_chacha_only_client_is_refused(tmp_path: Any) -> None:
    async with running(tmp_path) as server:
        ann = await Player("ann").connect(server.ssh_port)  # asyncssh's client asks for ChaCha20 first
        assert ann.conn is not None
        assert ann.conn.get_extra_info("send_cipher") == "aes256-gcm@openssh.com"
        assert ann.conn.get_extra_info("recv_cipher") == "aes256-gcm@openssh.com"
        await ann.wait("Hello, ann")
        await ann.close()
        with pytest.raises(asyncssh.KeyExchangeFailed):
            await asyncssh.connect("127.0.0.1", server.ssh_port, username="bob", known_hosts=None, client_keys=[],
                                   password="", agent_path=None, encryption_algs=["chacha20-poly1305@openssh.com"])


def test_the_server_keeps_one_host_key(tmp_path: Any) -> None:
    from uno_tui.serve.access import load_host_key

    path = tmp_path / "keys" / "host"
    first = load_host_key(path)
    assert load_host_key(path).get_fingerprint() == first.get_fingerprint()
    assert path.stat().st_mode & 0o777 == 0o600
    (tmp_path / "junk").write_text("not a key")
    with pytest.raises(ValueError, match="not a usable SSH private key"):
        load_host_key(tmp_path / "junk")


def test_names_from_ssh_are_cleaned_and_people_are_kept_apart(tmp_path: Any) -> None:
    from uno_tui.serve.people import People

    people = People(tmp_path / "keys", tmp_path / "names")
    ann = people.by_name("ann\x1b[31m\x07")
    assert ann.name.startswith("ann") and not any(ord(c) < 32 for c in ann.name)  # no escape reaches a screen
    assert people.by_name("").name == "Player"
    key = asyncssh.generate_private_key("ssh-ed25519")
    keyed = people.by_key(key.public_data, "ann")
    assert keyed.key != ann.key and keyed.home != ann.home and keyed.keyed
    assert people.by_key(key.public_data, "another name").home == keyed.home  # the key, not the name
    assert people.public_key(keyed) != people.public_key(ann)
    assert (keyed.home.stat().st_mode & 0o777) == 0o700


def test_the_served_window_minimum_is_the_tables() -> None:
    from uno_tui.screens.table import MIN_SIZE
    from uno_tui.serve import terminal

    assert terminal.MIN_SIZE == MIN_SIZE
    assert terminal.terminal_known("xterm-256color") and terminal.terminal_known("screen.xterm-256color")
    assert not terminal.terminal_known("dumb")


async def test_english_card_names_chosen_for_a_table_hold_at_it(tmp_path: Any) -> None:
    import re

    async with running(tmp_path) as server:
        ann = await Player("ann").connect(server.ssh_port)
        await ann.wait("Open a table on this server")
        ann.press("down", "enter")
        await ann.wait("Open the table (enter)")
        for _ in range(6):  # the game line: on to the extended rules
            if "UNO 扩展规则" in ann.text():
                break
            before = ann.text()
            ann.press("right")
            await ann.wait(lambda: ann.text() != before, what="the next game")
        await ann.wait("UNO 扩展规则")
        ann.press("e")
        await ann.wait("English")
        ann.press("down", "left", "left", "down", "right")  # 2 seats, 1 of them a bot
        await ann.wait(lambda: "◂ 2 " in ann.text() and "1 bot" in ann.text(), what="2 seats, 1 bot")
        ann.press("enter")
        await ann.wait("(you)", what="the lobby")
        ann.press("r")
        await ann.wait("Your hand", what="the table")
        await ann.wait("UNO Extended rules", what="the game named in English")
        assert not re.search(r"[\u2e80-\u9fff]", ann.text()), ann.text()
        await ann.close()
