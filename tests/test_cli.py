"""The ``uno-tui`` command line: version, help, argument errors, completion, simulate's progress, the bot."""

from __future__ import annotations

import asyncio
import io
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from net import BotClient, discovery
from net.commands import run_headless_host
from net.testing import start_host
from uno_tui import cli
from uno_tui.cli import main

COMMANDS = ("play", "simulate", "host", "join", "bot", "audit", "completion")


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as e:
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["--version"], capsys)
    assert code == 0 and out.strip() == f"uno-tui {cli.version()}"
    assert cli.version() not in ("", "unknown")


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_a_description(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run([command, "--help"], capsys)
    assert code == 0
    # The description is the paragraph between the usage and the arguments.
    body = out.split("\n\n")[1]
    assert not body.startswith(("options:", "positional arguments:")) and len(body.split()) >= 6, body


def test_host_help_lists_the_variants_and_says_what_name_does(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(["host", "--help"], capsys)
    assert "{classic,diez,extended,nomercy,wildrawz}" in out
    flat = " ".join(out.split())
    assert "--name NAME your name at the table, and the table's name on the LAN" in flat
    for command in ("join", "bot", "play"):
        _, out, _ = run([command, "--help"], capsys)
        assert "name at the table" in " ".join(out.split()), command


@pytest.mark.parametrize("port", ["99999", "-1", "http"])
def test_a_bad_port_is_an_argument_error(port: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["host", "--port", port, "--headless"], capsys)
    assert code == 2
    assert "--port" in err and "Traceback" not in err


@pytest.mark.parametrize("rounds,words", [("0", "must be 1 or more, not 0"), ("-2", "must be 1 or more, not -2"),
                                          ("two", "'two' is not a whole number")])
@pytest.mark.parametrize("headless", [True, False])
def test_a_host_of_no_rounds_is_an_argument_error(rounds: str, words: str, headless: bool,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """``--rounds 0`` opened a table that could never deal."""
    code, _, err = run(["host", "--rounds", rounds, *(["--headless"] if headless else [])], capsys)
    assert code == 2
    assert f"--rounds: {words}" in err and "Traceback" not in err


@pytest.mark.parametrize("flag", ["--bot-delay", "--round-pause"])
def test_a_host_pause_below_zero_is_an_argument_error(flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["host", "--headless", flag, "-1"], capsys)
    assert code == 2
    assert f"{flag}: must be 0 or more, not -1" in err and "Traceback" not in err


def test_a_bad_port_exits_2_without_a_traceback_as_a_process() -> None:
    done = subprocess.run([sys.executable, "-m", "uno_tui.cli", "host", "--port", "99999"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "99999 is not a port" in done.stderr and "Traceback" not in done.stderr


def test_a_port_in_use_says_so(capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = run_headless_host(port=port, bind="127.0.0.1", mdns=False, save=str(tmp_path / "h.save"))
    err = capsys.readouterr().err
    assert code == 1
    assert f"port {port} on 127.0.0.1 is already in use" in err and "--port" in err


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_scripts_know_the_commands_and_choices(shell: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["completion", shell], capsys)
    assert code == 0
    for word in ("play", "simulate", "host", "join", "variant", "nomercy", "resume"):
        assert word in out, (shell, word)


def test_simulate_shows_progress_on_a_terminal(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    monkeypatch.setattr(cli, "PROGRESS_FROM", 5)
    monkeypatch.setenv("TERM", "xterm-256color")
    assert main(["simulate", "--games", "6", "--players", "2"]) == 0
    out = capsys.readouterr().out
    assert "6 games" in out  # the results, on stdout as before
    assert "simulating" in screen.getvalue() and "/6" in screen.getvalue()


def test_simulate_prints_no_progress_into_a_pipe(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "PROGRESS_FROM", 1)
    assert main(["simulate", "--games", "3", "--players", "2"]) == 0
    out, err = capsys.readouterr()
    assert "simulating" not in out + err


async def test_the_bot_reports_its_seat_and_the_result() -> None:
    host = await start_host(seats=2, bots=1, rounds=1, seed=5)
    said: list[str] = []
    try:
        bot = BotClient(("127.0.0.1", host.port), "Robo", seed=1)
        bot.report = said.append
        assert await asyncio.wait_for(bot.run(), 20) == 0
    finally:
        await host.close()
    seat = bot.client.seat
    assert seat is not None
    assert said[0].startswith(f"took seat {seat + 1} as Robo at 127.0.0.1:{host.port}"), said
    assert said[-1].startswith("the rounds are played; scores: "), said
    assert f"Robo {host.game.scores[seat]}" in said[-1], said


def test_lan_discovery_advertises_only_an_address_the_host_listens_on(monkeypatch: pytest.MonkeyPatch) -> None:
    assert discovery.lan_address("127.0.0.1")[0] is None
    assert "only this machine" in discovery.lan_address("127.0.0.1")[1]
    assert discovery.lan_address("::1")[0] is None
    assert discovery.lan_address("localhost")[0] is None
    assert discovery.lan_address("192.168.1.20") == ("192.168.1.20", "")
    monkeypatch.setattr(discovery, "local_ip", lambda: "10.1.2.3")
    assert discovery.lan_address("0.0.0.0") == ("10.1.2.3", "")
    monkeypatch.setattr(discovery, "local_ip", lambda: "127.0.0.1")
    assert discovery.lan_address("0.0.0.0")[0] is None


def test_a_headless_host_on_loopback_does_not_advertise(monkeypatch: pytest.MonkeyPatch, tmp_path: Any,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    advertised: list[Any] = []

    async def advertise(*args: Any, **kwargs: Any) -> tuple[None, str]:
        advertised.append((args, kwargs))
        return None, "advertised"

    monkeypatch.setattr(discovery, "advertise", advertise)
    # Nobody joins: the host would wait in its lobby for ever, so it is made to stop at once.
    from net import host as host_module

    async def wait_briefly(self: Any) -> None:
        await asyncio.sleep(0.05)

    monkeypatch.setattr(host_module.Host, "wait_finished", wait_briefly)
    assert run_headless_host(port=0, bind="127.0.0.1", save=str(tmp_path / "h.save")) == 0
    out = capsys.readouterr().out
    assert advertised == []
    assert "LAN discovery is off: the table listens on 127.0.0.1" in out


def test_the_hosts_defaults_are_spelt_once_in_host_config() -> None:
    """``uno-tui host`` with no options builds exactly :class:`HostConfig`'s defaults (headless or not)."""
    from net.commands import _host_options
    from net.seats import HostConfig

    args = cli.build_parser().parse_args(["host"])
    opts = _host_options(args)
    built = HostConfig.from_options(opts)
    assert built == HostConfig(save_path=built.save_path)
    # A resumed host takes its run-time settings from the same place.
    assert HostConfig.given(opts, ("grace", "turn_timer", "bot_delay", "heartbeat", "round_pause")) == {
        "grace": HostConfig.grace, "turn_timer": None, "bot_delay": HostConfig.bot_delay, "heartbeat": HostConfig.heartbeat,
        "round_pause": HostConfig.round_pause}


@pytest.mark.parametrize("argv", [["join", "--trusted-host", "127.0.0.1:7777", "--english"],
                                  ["host", "--trusted-host", "--english", "--port", "0"]])
def test_english_names_can_be_asked_for_at_a_network_table(argv: list[str], monkeypatch: pytest.MonkeyPatch,
                                                           tmp_path: Path) -> None:
    """``--english`` on ``join`` and ``host`` reaches the table's app (as ``play --english`` does)."""
    import uno_tui.netplay.app as netapp

    made: list[dict[str, object]] = []

    class Recorder:  # the app, not run: what it was built with is the point
        return_code = 0

        def __init__(self, **kw: object) -> None:
            made.append(kw)

        def run(self) -> None:
            pass

    monkeypatch.setattr(netapp, "NetApp", Recorder)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert cli.main(argv) == 0
    assert made and made[0]["english"] is True


def test_an_address_of_another_kind_is_refused_saying_what_an_address_is(capsys: pytest.CaptureFixture[str]) -> None:
    """``join http://box`` was refused as a bad port; it is no table address at all."""
    assert cli.main(["join", "http://box:7777"]) == 2
    err = capsys.readouterr().err
    assert "'http://box:7777': a table's address is uno://HOST:PORT#FINGERPRINT" in err
    assert "the port must be a number" not in err


def test_joining_where_nothing_listens_says_so_in_words(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A port nobody listens on (a real loopback socket, bound and never listening): the bot says
    nothing answers there, not ``[Errno 111] Connect call failed``."""
    import socket

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))  # held, so nobody else takes it meanwhile; not listening
        port = s.getsockname()[1]
        assert cli.main(["bot", f"127.0.0.1:{port}"]) == 1
    err = capsys.readouterr().err
    assert f"nothing answers at 127.0.0.1:{port}: is the table open, and is that its port?" in err
    assert "Errno" not in err


def test_why_a_table_cannot_be_reached_is_said_in_words() -> None:
    import asyncio
    import errno
    import socket

    from net.address import connect_error

    where = "uno://box:7777"
    assert connect_error(where, socket.gaierror(-2, "Name or service not known")) == \
        "no machine answers to the name in uno://box:7777: check the address"
    for e in (asyncio.TimeoutError(), OSError(errno.EHOSTUNREACH, "No route to host")):
        assert connect_error(where, e).startswith("uno://box:7777 cannot be reached: check the address")
    assert connect_error(where, OSError(errno.EPIPE, "Broken pipe")) == "cannot reach uno://box:7777: Broken pipe"
