"""Sealed tables on the LAN: announced with the host key's fingerprint, found by ``join``/``bot`` without an
address, and that fingerprint still checked on connect, so a forged record lets no impostor in unnoticed.

The records go over real mDNS (as tests/test_net_discovery.py's do) and the tables listen on loopback:
a record may name any address, so a test's table announces 127.0.0.1. Where multicast does not get
through, the tests that need it are skipped, saying so.
"""

from __future__ import annotations

import asyncio
import secrets
import socket
import threading
from typing import Any

import pytest

from net import discovery
from net.discovery import Found
from net.identity import Identity, KnownHosts, fingerprint
from net.sealing import SealedClient, SealedHost, lan
from net.secure import HandshakeError


def _record(fp: str, **extra: str) -> dict[str, str]:
    return {**lan.properties(bytes(32), "classic", 3, False), "fp": fp, **extra}


def test_a_record_becomes_the_address_with_the_whole_fingerprint_or_is_left_out() -> None:
    fp = fingerprint(Identity.generate().public)
    table = lan.table_from(Found("Den on box", "192.168.1.5", 7777, _record(fp)))
    assert table is not None and table.address == f"uno://192.168.1.5:7777#{fp}"
    assert f"key {fp[:16]} (new to you)" in table.label() and "classic · 3 seats" in table.label()
    # Nothing that could not be checked on connect, nor another deal's or version's record.
    for props in (_record(""), _record(fp[:16]), _record("zz" * 32), _record(fp, deal="open"), _record(fp, v="99"),
                  {k: v for k, v in _record(fp).items() if k != "deal"}):
        assert lan.table_from(Found("x", "192.168.1.5", 7777, props)) is None, props
    # A record's text is the sender's: control characters and escapes never reach the terminal.
    odd = lan.table_from(Found("Den\x1b[2J\x07", "10.0.0.1", 1, _record(fp, variant="cl\x1b]0;x\x07assic",
                                                                        seats="3; rm")))
    assert odd is not None and "\x1b" not in odd.label() and "\x07" not in odd.label() and "seats" not in odd.label()


def test_the_list_says_whether_this_host_s_key_was_seen_here_before(tmp_path: Any) -> None:
    known = KnownHosts(tmp_path)
    key, other = Identity.generate().public, Identity.generate().public
    known.remember("192.168.1.5:7777", key)
    seen = lan.table_from(Found("Den", "192.168.1.5", 7777, _record(fingerprint(key))), known)
    changed = lan.table_from(Found("Den", "192.168.1.5", 7777, _record(fingerprint(other))), known)
    assert seen is not None and seen.seen == "known" and "(known)" in seen.label()
    assert changed is not None and changed.seen == "changed" and "KEY CHANGED" in changed.label()


async def _announce(name: str, port: int, props: dict[str, str]) -> discovery.Advertisement:
    ad, note = await discovery.advertise(name, port, ip="127.0.0.1", properties=props, service=lan.SERVICE)
    if ad is None:
        pytest.skip(f"multicast does not work here: {note}")
    return ad


async def _find(name: str, tries: int = 3) -> list[lan.SealedTable]:
    for _ in range(tries):
        tables, _note = await lan.find_tables(1.0, known=KnownHosts())
        mine = [t for t in tables if t.name.startswith(name)]
        if mine:
            return mine
    pytest.skip("multicast does not carry this machine's own records back")


def test_join_finds_a_sealed_table_on_the_lan_and_plays_it_checking_its_key() -> None:
    """The announced table is found with its key; its address (whole fingerprint) joins and plays a round;
    the key is remembered, and the next look marks the table as known. The open host's list never shows it."""
    name = f"Den {secrets.token_hex(3)}"

    async def main() -> None:
        host = SealedHost(variant="classic", seats=2, people=1, identity=Identity.generate())
        port = await host.start()
        ad = await _announce(name, port, lan.properties(host.identity.public, "classic", 2, False))
        try:
            [table] = await _find(name)
            assert table.fingerprint == fingerprint(host.identity.public) and table.seen == "new"
            opened, _ = await discovery.browse(1.0)  # the open host's service: not this table
            assert not [f for f in opened if f.name.startswith(name)]
            client = SealedClient(known_hosts=KnownHosts())
            where, port_, fp = _split(table.address)
            hosting = asyncio.ensure_future(host.run())
            peer = await asyncio.wait_for(client.run(where, port_, fp), 120)
            await asyncio.wait_for(hosting, 30)
            assert peer.alarm is None and len(peer.audits) == 1
            [again] = await _find(name)
            assert again.seen == "known"
        finally:
            await ad.close()
            await host.close()

    asyncio.run(main())


def _split(address: str) -> tuple[str, int, str | None]:
    from net.address import parse_address, split_fingerprint

    where, port = parse_address(address)
    return where, port, split_fingerprint(address)[1]


def test_a_forged_record_lets_no_impostor_in_unnoticed() -> None:
    """An attacker's record names the real host's key (and name) but its own machine: the client finds
    the key is not the record's and refuses, before any seat is taken. A record naming a key the host
    does not have, pointing at the real host, is refused too."""
    name = f"Real {secrets.token_hex(3)}"

    async def main() -> None:
        real = SealedHost(variant="classic", seats=2, people=1, identity=Identity.generate())
        impostor = SealedHost(variant="classic", seats=2, people=1, identity=Identity.generate())
        real_port, fake_port = await real.start(), await impostor.start()
        real_fp = fingerprint(real.identity.public)
        forged = await _announce(name, fake_port, lan.properties(real.identity.public, "classic", 2, False))
        try:
            [table] = await _find(name)
            assert table.port == fake_port and table.fingerprint == real_fp  # the record says what it likes
            with pytest.raises(HandshakeError) as caught:
                await SealedClient().run(*_split(table.address))
            assert caught.value.code == "fingerprint" and impostor.waiting == []
            wrong_key = f"uno://127.0.0.1:{real_port}#{fingerprint(impostor.identity.public)}"
            with pytest.raises(HandshakeError) as caught:
                await SealedClient().run(*_split(wrong_key))
            assert caught.value.code == "fingerprint" and real.waiting == []
        finally:
            await forged.close()
            await real.close()
            await impostor.close()

    asyncio.run(main())


def test_bot_without_an_address_joins_the_one_sealed_table_the_headless_host_announces(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``uno-tui host --headless`` (announcing, as it does unless --no-mdns) and ``uno-tui bot`` with no
    address, as the commands run them: the bot finds the table, joins it by its key and the round audits."""
    from net.sealing.serve import run_sealed_bot, run_sealed_host

    if discovery.lan_address("0.0.0.0")[0] is None:
        pytest.skip("this machine has no LAN address to announce")
    with socket.socket() as s:
        s.bind(("0.0.0.0", 0))
        port = s.getsockname()[1]
    name = f"Solo {secrets.token_hex(3)}"
    got: dict[str, int] = {}
    host = threading.Thread(target=lambda: got.update(host=run_sealed_host(
        variant="classic", seats=2, bots=1, rounds=1, bind="0.0.0.0", port=port, name=name, mdns=True)))
    host.start()
    try:
        for _ in range(10):
            tables, _ = asyncio.run(lan.find_tables(1.0))
            if [t for t in tables if t.name.startswith(name)]:
                break
        else:
            pytest.skip("multicast does not carry this machine's own records back")
        if len(tables) > 1:
            pytest.skip("another sealed table is announced on this LAN")
        got["bot"] = run_sealed_bot(None)
    finally:
        host.join(120)
    out = capsys.readouterr().out
    assert got == {"host": 0, "bot": 0}, out
    assert "advertised on the LAN" in out and f"uno-tui bot: found {name}" in out
    assert out.count("round 1: 2 verdicts, every audit clean") == 2


def test_bot_without_an_address_and_no_table_asks_for_one(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    from uno_tui.cli import main

    async def nothing(timeout: float, **kw: Any) -> tuple[list[Found], str]:  # multicast blocked, as on many LANs
        return [], "no table found on the LAN (multicast may be blocked on this network): give the host's address"

    monkeypatch.setattr(discovery, "browse", nothing)
    assert main(["bot"]) == 2
    assert "give the host's address" in capsys.readouterr().err
    assert main(["bot", "--trusted-host"]) == 2
    assert "needs the table's ADDRESS" in capsys.readouterr().err


def test_the_picker_lists_sealed_tables_with_their_keys_and_returns_the_one_picked() -> None:
    """The connect screen over the sealed tables found: a person presses enter on the one listed and the
    picker ends with its address (whole fingerprint); a typed address without one is taken as typed."""
    from textual.widgets import Input, OptionList

    from uno_tui.sealed_picker import PickerApp

    fp = fingerprint(Identity.generate().public)

    async def browse(timeout: float, **kw: Any) -> tuple[list[Found], str]:
        return [Found("Den on box", "192.168.1.5", 7777, _record(fp)),
                Found("Open table", "192.168.1.6", 7777, {"v": "6", "variant": "classic"})], "found"

    async def main() -> tuple[Any, Any, str]:
        app = PickerApp(lambda t: lan.find_tables(t, browse=browse))
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(50):
                await pilot.pause(0.02)
                if app.screen.query_one("#found", OptionList).option_count:
                    break
            options = app.screen.query_one("#found", OptionList)
            line = str(options.get_option_at_index(0).prompt)
            assert options.option_count == 1  # the open host's record is not a sealed table
            await pilot.press("enter")
        typed = PickerApp(None)
        async with typed.run_test(size=(80, 24)) as pilot:
            typed.screen.query_one("#address", Input).focus()
            await pilot.press(*"box:9000", "enter")
        return app.return_value, typed.return_value, line

    picked, typed, line = asyncio.run(main())
    assert picked == (f"uno://192.168.1.5:7777#{fp}", None)
    assert typed == ("box:9000", None)
    assert f"key {fp[:16]}" in line and "Den on box" in line
