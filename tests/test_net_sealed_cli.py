"""The sealed table's commands (``host --headless --sealed``, ``bot --sealed``) and its links."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest

import core
from net.identity import Identity
from net.secure import HandshakeError
from net.sealing import SealedClient, SealedHost


def test_the_sealed_host_and_bot_commands_play_a_round(capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    """``host --headless --sealed`` and ``bot --sealed`` as functions (the commands call them); the host's
    ``--record`` is a copy of its signed log, which ``audit`` verifies."""
    import threading

    from net.sealing.serve import run_sealed_host

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    got: dict[str, int] = {}
    t = threading.Thread(target=lambda: got.update(host=run_sealed_host(
        variant="classic", seats=3, bots=1, rounds=1, bind="127.0.0.1", port=port, record=str(tmp_path / "m.unosx"))))
    t.start()
    try:
        bots = [threading.Thread(target=lambda i=i: got.update({f"bot{i}": _retrying_bot(port)})) for i in range(2)]
        for b in bots:
            b.start()
        for b in bots:
            b.join(120)
    finally:
        t.join(120)
    assert got == {"host": 0, "bot0": 0, "bot1": 0}
    out = capsys.readouterr().out
    assert out.count("round 1: 3 verdicts, every audit clean") == 3
    # The host and each bot wrote the log as they received it: `uno-tui audit` verifies each copy.
    from uno_tui.cli import main

    paths = [line.split()[1] for line in out.splitlines() if line.startswith("transcript: ")]
    assert len(paths) == 3 and len(set(paths)) == 3
    assert f"the match's log is written to {tmp_path / 'm.unosx'}" in out
    paths.append(str(tmp_path / "m.unosx"))
    for path in paths:
        assert main(["audit", path]) == 0
    assert "verified: 1 round(s) of a sealed classic table" in capsys.readouterr().out


def _retrying_bot(port: int) -> int:
    import time

    from net.sealing.serve import run_sealed_bot

    for _ in range(200):  # the host thread may not be listening yet
        try:
            socket_ok = __import__("socket").create_connection(("127.0.0.1", port), timeout=1)
            socket_ok.close()
            break
        except OSError:
            time.sleep(0.05)
    return run_sealed_bot(f"127.0.0.1:{port}")


@pytest.mark.parametrize("argv,words", [
    (["host", "--sealed", "--seats", "3", "--bots", "3"], "the host plays a seat"),
    *[(["host", "--headless", "--sealed", "--variant", v, "--seats", "3"], "cannot be played sealed")
      for v in sorted(core.VARIANTS) if not core.variant_class(v).sealable][:1],
    (["host", "--headless", "--sealed", "--seats", "3", "--bots", "5"], "--bots must be"),
])
def test_the_sealed_host_command_refuses_what_it_cannot_do(argv: list[str], words: str,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    from uno_tui.cli import main

    assert main(argv) == 2
    assert words in capsys.readouterr().err


def test_a_client_refuses_a_host_whose_key_is_not_the_address_s_fingerprint() -> None:
    async def main() -> None:
        host = SealedHost(variant="classic", seats=2, people=1, identity=Identity.generate())
        port = await host.start()
        try:
            with pytest.raises(HandshakeError) as caught:
                await SealedClient().run("127.0.0.1", port, fingerprint="00000000")
            assert caught.value.code == "fingerprint"
        finally:
            await host.close()

    asyncio.run(main())


@pytest.mark.parametrize("argv", [["join"], ["join", "--sealed"]])
def test_join_sealed_without_an_address_looks_on_the_lan(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """``join`` with no address opens the sealed tables' list (tests/test_net_sealed_lan.py finds them);
    leaving it (ctrl+q) joins nothing."""
    from uno_tui import sealed_picker
    from uno_tui.cli import main

    shown: list[object] = []

    class Leaves(sealed_picker.PickerApp):
        def run(self, **kw: object) -> None:  # type: ignore[override]
            shown.append(self.browse)
            return None

    monkeypatch.setattr(sealed_picker, "PickerApp", Leaves)
    assert main(argv) == 0 and len(shown) == 1 and shown[0] is not None


def test_the_sealed_deal_is_the_default_and_the_open_host_is_asked_for_by_name(monkeypatch: pytest.MonkeyPatch,
                                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """``host``, ``host --headless``, ``join`` and ``bot`` are sealed unless ``--trusted-host`` is given
    (``--sealed`` is still accepted, and changes nothing); the flag's help says what the host then sees."""
    from net import commands
    from net.sealing import serve
    from uno_tui import cli, sealed_commands

    ran: list[str] = []
    monkeypatch.setattr(serve, "run_sealed_host", lambda **kw: ran.append("sealed headless") or 0)
    monkeypatch.setattr(serve, "run_sealed_bot", lambda *a, **kw: ran.append("sealed bot") or 0)
    monkeypatch.setattr(commands, "run_headless_host", lambda **kw: ran.append("open headless") or 0)
    monkeypatch.setattr(commands, "run_bot_client", lambda *a, **kw: ran.append("open bot") or 0)
    monkeypatch.setattr(sealed_commands, "run_sealed_host_screen", lambda **kw: ran.append("sealed host") or 0)
    monkeypatch.setattr(sealed_commands, "run_sealed_join", lambda **kw: ran.append("sealed join") or 0)
    import uno_tui.netplay.app as netapp

    monkeypatch.setattr(netapp, "run_interactive_host", lambda **kw: ran.append("open host") or 0)
    monkeypatch.setattr(netapp, "run_join", lambda **kw: ran.append("open join") or 0)
    for argv in (["host", "--headless"], ["host", "--headless", "--sealed"], ["bot", "h:1"], ["bot", "--sealed", "h:1"],
                 ["host"], ["host", "--sealed"], ["join", "h:1"], ["join", "--sealed", "h:1"],
                 ["host", "--headless", "--trusted-host"], ["bot", "--trusted-host", "h:1"],
                 ["host", "--trusted-host"], ["join", "--trusted-host", "h:1"]):
        assert cli.main(argv) == 0, argv
    assert ran == ["sealed headless"] * 2 + ["sealed bot"] * 2 + ["sealed host"] * 2 + ["sealed join"] * 2 + [
        "open headless", "open bot", "open host", "open join"]
    capsys.readouterr()
    with pytest.raises(SystemExit):
        cli.main(["host", "--help"])
    flat = " ".join(capsys.readouterr().out.split())
    assert "--trusted-host the open host instead of the sealed deal: THIS HOST CAN SEE EVERY HAND" in flat


@pytest.mark.parametrize("headless", [["--headless"], []])
def test_a_sealed_host_refuses_a_seed_and_says_why(headless: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """A sealed deal's order is every participant's shuffle from its own secret randomness: no seed fixes it."""
    from uno_tui.cli import main

    assert main(["host", *headless, "--seed", "7"]) == 2
    err = capsys.readouterr().err
    assert "--seed" in err and "secret randomness" in err and "--trusted-host" in err and "can see every hand" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("headless", [["--headless"], []])
def test_a_sealed_host_refuses_a_record_path_it_could_not_write(headless: list[str], tmp_path: Any,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    from uno_tui.cli import main

    assert main(["host", *headless, "--record", str(tmp_path / "nowhere" / "m.unosx")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["host", *headless, "--record", str(tmp_path)]) == 2
    assert "that is a folder" in capsys.readouterr().err


def test_the_open_headless_host_says_first_that_it_sees_every_hand(tmp_path: Any) -> None:
    from net.testing import HostProcess

    host = HostProcess("--port", "0", "--bind", "127.0.0.1", "--no-mdns", "--save", str(tmp_path / "h.save"))
    try:
        host.wait_port()
    finally:
        host.kill()
    assert "open host (--trusted-host): this host can see every hand" in host.lines[0]


@pytest.mark.parametrize("argv,words", [(["--turn-timer", "0"], "--turn-timer must be more than 0"),
                                        (["--grace", "-1"], "--grace must be 0 seconds or more")])
def test_a_sealed_host_refuses_a_bad_timer_or_grace(argv: list[str], words: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from uno_tui.cli import main

    for headless in (["--headless"], []):
        assert main(["host", *headless, *argv]) == 2
        err = capsys.readouterr().err
        assert words in err and "Traceback" not in err


async def test_joining_a_table_this_account_hosts_takes_a_second_key_of_its_own() -> None:
    # `uno-tui host` in one terminal and `uno-tui join` in another: both load this account's key,
    # and a sealed table refused the start ("two participants share one identity key").
    from net.identity import fingerprint
    from uno_tui.sealed_commands import identity_at

    mine = Identity.load()
    own_fp = fingerprint(mine.public)[:16]
    at_mine = identity_at(own_fp)
    assert at_mine.public != mine.public
    assert identity_at(own_fp.upper()).public == at_mine.public  # kept: a rejoin is let back in
    assert identity_at(fingerprint(Identity.generate().public)[:16]).public == mine.public
    assert identity_at(None).public == mine.public
    host = SealedHost(identity=mine, variant="classic", seats=2, people=1, host_seats=(0,))
    port = await host.start()
    try:
        got = await asyncio.wait_for(asyncio.gather(host.run(), SealedClient(at_mine).run("127.0.0.1", port)),
                                     120)
        assert all(not isinstance(g, BaseException) for g in got), got
        assert host.peer is not None and host.peer.alarm is None
    finally:
        await host.close()
